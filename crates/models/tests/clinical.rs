//! The clinical model: the committed parameters load and predict deterministically (that they are
//! what training gives is checked in `cardio-lab`'s tests).

use cardio_models::clinical::{self, params, predict, ClinicalInput, ClinicalLabel, RiskBand};

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
