//! The clinical model's training and validation: when `CARDIO_DATASETS` holds `uci_heart`, the
//! committed parameters are exactly what training on Cleveland gives and the cross-validated AUROC
//! stays above its floor.

use std::path::PathBuf;

use cardio_lab::clinical::{data, train, validation};
use cardio_models::clinical::params;

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
    let refit = train::fit(&cleveland, validation::SEED);

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
