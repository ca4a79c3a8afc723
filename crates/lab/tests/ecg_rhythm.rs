//! The CinC 2017 loader and the committed ECG rhythm model on real records: when `CARDIO_DATASETS`
//! holds cinc2017, the labels load with the published class counts and the model agrees with the
//! reference labels on a small subset.

use std::path::PathBuf;

use cardio_lab::ecg_rhythm::data;
use cardio_models::ecg_rhythm;

fn datasets() -> Option<PathBuf> {
    cardio_testkit::datasets(&["cinc2017/training2017/REFERENCE.csv"])
}

#[test]
fn labels_load_with_the_published_class_counts() {
    let Some(root) = datasets() else { return };
    let labels = data::load_labels(&root).unwrap();
    let mut counts = [0usize; 4];
    for l in &labels {
        counts[l.class.index()] += 1;
    }
    assert_eq!(counts, [5050, 738, 2456, 284]);
    assert_eq!(labels[0].name, "A00001");
}

#[test]
fn predicts_most_of_a_small_training_subset_like_the_reference() {
    let Some(root) = datasets() else { return };
    let labels = data::load_labels(&root).unwrap();
    let m = ecg_rhythm::model().unwrap();
    let subset: Vec<_> = labels.iter().take(60).collect();
    let mut right = 0;
    for l in &subset {
        let rec = cardio_formats::read_path(&data::folder(&root).join(format!("{}.hea", l.name)))
            .unwrap();
        let p = m.predict(&rec).unwrap();
        right += usize::from(p.label == l.class.code());
        assert_eq!(p.details["channel"], "ECG");
    }
    // These records were in the training set: the fitted model should agree with nearly all.
    assert!(right >= 54, "{right} of {}", subset.len());
}
