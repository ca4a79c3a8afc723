//! The clinical model: the committed parameters load and predict deterministically (that they are
//! what training gives is checked in `cardio-lab`'s tests).

use cardio_models::clinical::model::Pattern;
use cardio_models::clinical::{self, params, predict, ClinicalInput, ClinicalLabel, RiskBand, Sex};

fn patient(ca: Option<u8>, thal: Option<u8>) -> ClinicalInput {
    ClinicalInput {
        age: 58.0,
        chest_pain_type: 3,
        cholesterol: Some(260.0),
        fasting_blood_sugar: Some(90.0),
        exercise_induced_angina: Some(1),
        vessels_colored_by_flourosopy: ca,
        thalassemia: thal,
        ..ClinicalInput::default()
    }
}

#[test]
fn committed_params_load_with_their_version_and_feature_names() {
    let p = params().unwrap();

    assert_eq!(p.model_id, "clinical-lr");
    assert_eq!(p.version, clinical::VERSION);
    let patterns: Vec<Pattern> = p.model.submodels.iter().map(|m| m.pattern).collect();
    assert_eq!(
        patterns,
        Pattern::all(),
        "one sub-model per pattern, in order"
    );
    for m in &p.model.submodels {
        assert_eq!(m.model.features, m.pattern.columns());
        assert_eq!(m.model.features.len(), m.model.coefficients.len());
    }
    assert!(p.validation.cv_auroc > 0.5);
    assert!(p.validation.cv_auroc_all > p.validation.cv_auroc);
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
        ..ClinicalInput::default()
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
    assert_eq!(
        result.attributes_used,
        [
            "age",
            "chest_pain_type",
            "cholesterol",
            "fasting_blood_sugar",
            "exercise_induced_angina"
        ]
    );
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

#[test]
fn every_optional_attribute_given_is_used_and_named() {
    let seven = patient(Some(0), Some(0));
    let mut more = seven.clone();
    more.sex = Some(Sex::Male);
    more.st_depression = Some(3.0);
    more.st_slope = Some(1);

    let a = predict(&seven).unwrap();
    let b = predict(&more).unwrap();

    assert_eq!(a.attributes_used.len(), 7);
    assert_eq!(b.attributes_used[7..], ["sex", "st_depression", "st_slope"]);
    assert_eq!(
        b.attributes_missing,
        ["resting_blood_pressure", "resting_ecg", "max_heart_rate"]
    );
    let columns: Vec<&str> = b.contributions.iter().map(|c| c.feature.as_str()).collect();
    assert_eq!(
        columns[12..],
        [
            "sex_male",
            "st_depression",
            "st_slope_flat",
            "st_slope_down"
        ]
    );
    assert!(
        b.probability > a.probability,
        "a man with 3 mm of ST depression and a flat slope is at higher risk: {} vs {}",
        b.probability,
        a.probability
    );
}

#[test]
fn optional_values_outside_their_ranges_are_errors_naming_them() {
    type Spoil = fn(&mut ClinicalInput);
    let cases: [(Spoil, &str); 5] = [
        (
            |i| i.resting_blood_pressure = Some(300.0),
            "resting_blood_pressure: must be between 60 and 260 mm Hg",
        ),
        (
            |i| i.resting_ecg = Some(3),
            "resting_ecg: must be 0, 1 or 2",
        ),
        (
            |i| i.max_heart_rate = Some(20.0),
            "max_heart_rate: must be between 50 and 250 bpm",
        ),
        (
            |i| i.st_depression = Some(f64::NAN),
            "st_depression: must be between -5 and 10 mm",
        ),
        (|i| i.st_slope = Some(7), "st_slope: must be 0, 1 or 2"),
    ];
    for (spoil, message) in cases {
        let mut input = patient(Some(0), Some(0));
        spoil(&mut input);
        assert_eq!(predict(&input).unwrap_err().to_string(), message);
    }
}
