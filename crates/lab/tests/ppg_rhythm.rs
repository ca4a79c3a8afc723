//! The PPG rhythm model's data and validation: (when `CARDIO_DATASETS` holds it) the real-PPG
//! segments of Liu et al. 2022 load with the counts of their SOURCE.md, and the patient-grouped CV
//! separates rhythms whose features differ and prints its tables with the exact figures.

use cardio_lab::ppg_rhythm::{liu2022, segments::Row, validation};
use cardio_models::ppg_rhythm::classifier::Rhythm;

#[test]
fn the_liu_segments_load_with_their_documented_counts() {
    let Some(root) = cardio_testkit::datasets(&["ppg_arrhythmia_liu2022/MPA_181220181216.mat"])
    else {
        return;
    };
    let segments = liu2022::load(&root).unwrap();
    assert_eq!(segments.len(), 10620);
    let count = |r: Rhythm| segments.iter().filter(|s| s.rhythm == r).count();
    assert_eq!(
        Rhythm::ALL.map(count),
        [3248, 1120, 969, 1074, 1125, 3084],
        "sinus, PVC, PAC, VT, SVT, AF"
    );
    let patients: std::collections::BTreeSet<&str> =
        segments.iter().map(|s| s.patient.as_str()).collect();
    assert_eq!(patients.len(), 28);
    assert!(segments
        .iter()
        .all(|s| s.samples.len() == 1000 && s.samples.iter().all(|v| (0.0..=1.0).contains(v))));
}

#[test]
fn the_grouped_cv_separates_distinct_rhythms_and_reports_them() {
    // 20 patients; feature 0 names the rhythm, feature 1 is noise. Patients 0-4 have AF.
    let mut rows = Vec::new();
    let mut s: u64 = 5;
    for p in 0..20 {
        for k in 0..12 {
            let rhythm = match (p < 5, k % 3) {
                (true, 0) => Rhythm::Af,
                (_, 1) => Rhythm::Pvc,
                _ => Rhythm::Sinus,
            };
            s = s.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            let noise = (s >> 40) as f64 / f64::from(1u32 << 24);
            rows.push(Row {
                patient: format!("p{p:02}"),
                rhythm,
                features: (k != 11).then(|| vec![rhythm.index() as f64, noise]),
                camera: Some(vec![rhythm.index() as f64, noise]),
                wave: None,
                wave_camera: None,
            });
        }
    }

    let report = validation::validate(&rows).unwrap();

    assert_eq!((report.patients, report.segments), (20, 240));
    assert_eq!(report.cv_af_sensitivity, 1.0);
    assert_eq!(report.cv_af_specificity_all, 1.0);
    assert_eq!(report.native.noisy_share, 20.0 / 240.0);
    assert_eq!(report.camera.noisy_share, 0.0);
    let text = report.to_string();
    assert!(
        text.contains("| AF sensitivity | 100.0 (100.0–100.0) [20/20] |"),
        "{text}"
    );
    assert!(
        text.contains("| sinus | 140 (20) | 85.7 % | 0.0 % | 0.0 % | 14.3 % |"),
        "{text}"
    );
    let json = serde_json::to_value(&report).unwrap();
    for key in [
        "cv_af_sensitivity",
        "cv_af_specificity_all",
        "cv_sinus_specificity",
    ] {
        assert!(json[key].is_number(), "{key}");
    }
}
