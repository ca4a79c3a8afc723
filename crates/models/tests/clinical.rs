//! The clinical model: the committed parameters load and predict deterministically, and (when
//! `CARDIO_DATASETS` holds `uci_heart`) they are exactly what training on Cleveland gives and the
//! cross-validated AUROC stays above its floor.

use std::path::PathBuf;

use cardio_models::clinical::{
    self, data, model::Fitted, params, predict, validation, ClinicalInput, ClinicalLabel, RiskBand,
};

fn patient(ca: Option<u8>, thal: Option<u8>) -> ClinicalInput {
    ClinicalInput {
        age: 58.0,
        chest_pain_type: 3,
        cholesterol: Some(260.0),
        fasting_blood_sugar: Some(90.0),
        exercise_induced_angina: Some(1),
        vessels_colored_by_flourosopy: ca,
        thalassemia: thal,
    }
}

#[test]
fn committed_params_load_with_their_version_and_feature_names() {
    let p = params().unwrap();

    assert_eq!(p.model_id, "clinical-lr");
    assert_eq!(p.version, clinical::VERSION);
    let full = p.model.full.as_ref().unwrap();
    assert_eq!(full.features.len(), full.coefficients.len());
    assert_eq!(
        p.model.reduced.features.len(),
        p.model.reduced.coefficients.len()
    );
    assert!(p.validation.cv_auroc > 0.5);
}

#[test]
fn predictions_are_deterministic_and_follow_the_risk_factors() {
    let high = patient(Some(2), Some(2));
    let low = ClinicalInput {
        age: 40.0,
        chest_pain_type: 2,
        cholesterol: Some(190.0),
        fasting_blood_sugar: Some(85.0),
        exercise_induced_angina: Some(0),
        vessels_colored_by_flourosopy: Some(0),
        thalassemia: Some(0),
    };

    let a = predict(&high).unwrap();
    let b = predict(&high).unwrap();
    let c = predict(&low).unwrap();

    assert_eq!(a, b);
    assert_eq!(a.label, ClinicalLabel::Disease);
    assert_eq!(a.risk_band, RiskBand::High);
    assert_eq!(a.submodel, "full");
    assert_eq!(a.contributions.len(), 12);
    assert_eq!(c.label, ClinicalLabel::NoDisease);
    assert_eq!(c.risk_band, RiskBand::Low);
    assert!((a.confidence - a.probability.max(1.0 - a.probability)).abs() < 1e-15);
    assert!(a
        .recommendations
        .iter()
        .any(|r| r.contains("not a diagnosis")));
}

#[test]
fn missing_ca_or_thal_uses_the_reduced_model_and_says_so() {
    let result = predict(&patient(None, Some(2))).unwrap();

    assert_eq!(result.submodel, "reduced");
    assert_eq!(result.contributions.len(), 8);
    assert!(result
        .recommendations
        .iter()
        .any(|r| r.contains("reduced model")));
}

#[test]
fn out_of_range_values_are_errors_not_guesses() {
    let mut input = patient(Some(4), Some(0));
    assert!(predict(&input).is_err());
    input.vessels_colored_by_flourosopy = Some(0);
    input.age = 130.0;
    let err = predict(&input).unwrap_err();
    assert!(err.to_string().starts_with("age"), "{err}");
}

/// Equal JSON up to 1e-12 relative on numbers (serde_json's default float parsing may be 1 ulp off).
fn same_within(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    use serde_json::Value;
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            let (x, y) = (x.as_f64().unwrap(), y.as_f64().unwrap());
            (x - y).abs() <= 1e-12 * x.abs().max(y.abs()).max(1.0)
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_within(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| same_within(v, w)))
        }
        _ => a == b,
    }
}

fn datasets() -> Option<PathBuf> {
    let root = cardio_testkit::datasets(&[])?;
    let cleveland = data::dataset_dir(&root).join("processed.cleveland.data");
    if cleveland.exists() {
        Some(root)
    } else {
        cardio_testkit::missing(&format!("{} is not unpacked", cleveland.display()))
    }
}

/// Floor 0.85: the 10x10-fold CV of the model card gives 0.890 (repeats 0.885-0.893, DeLong 95% CI
/// lower end 0.851); this quicker single 5-fold repeat varies more but stays above 0.85, while a broken
/// mapping of `ca`/`thal` falls to the reduced model's 0.81.
#[test]
fn cleveland_cross_validation_stays_above_its_floor_and_params_are_reproducible() {
    let Some(root) = datasets() else {
        return;
    };
    let cleveland = data::load_site(&root, data::Site::Cleveland).unwrap();

    let cv = validation::cross_validate(
        "Cleveland",
        &cleveland,
        1,
        5,
        validation::Candidate::Logistic,
    );
    let refit = Fitted::train(&cleveland, validation::SEED);

    eprintln!("Cleveland 1x5-fold CV AUROC {:.3}", cv.auroc);
    assert_eq!(cleveland.len(), 303);
    assert!(cv.auroc > 0.85, "CV AUROC {}", cv.auroc);
    assert!(
        same_within(
            &serde_json::to_value(&refit).unwrap(),
            &serde_json::to_value(&params().unwrap().model).unwrap()
        ),
        "params/clinical.json is stale: run `cardio train clinical`"
    );
}
