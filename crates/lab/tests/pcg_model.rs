//! The CinC 2016 loader and the committed heart-sound model on real recordings: when
//! `CARDIO_DATASETS` holds `cinc2016`, the reference lists load with their counts and a few
//! recordings of two sites are classified.

use cardio_lab::pcg_model;
use cardio_models::pcg_model::model;

#[test]
fn real_recordings_of_two_sites_are_classified() {
    let Some(root) = cardio_testkit::datasets(&["cinc2016"]) else {
        return;
    };
    let records = pcg_model::data::load(&root).unwrap();
    assert_eq!(records.len(), 1582);
    assert_eq!(records.iter().filter(|r| r.abnormal).count(), 665);
    for site in ["a", "e"] {
        for r in records.iter().filter(|r| r.site == site).take(2) {
            let rec = cardio_formats::read_path(&r.path).unwrap();
            let p = model().unwrap().predict(&rec).unwrap();
            assert!(["normal", "abnormal", "unsure"].contains(&p.label.as_str()));
            assert!((0.0..=1.0).contains(&p.risk_score));
        }
    }
}
