use cardio_models::ppg_rhythm::classifier::Rhythm;

use super::super::segments::Row;
use super::*;

fn row(patient: &str, rhythm: Rhythm, x: f64) -> Row {
    Row {
        patient: patient.into(),
        rhythm,
        features: Some(vec![x, 1.0]),
        camera: None,
        wave: None,
        wave_camera: None,
    }
}

#[test]
fn no_patient_straddles_folds_and_af_patients_are_spread() {
    let mut rows = Vec::new();
    for p in 0..20 {
        let rhythm = if p < 5 { Rhythm::Af } else { Rhythm::Sinus };
        for k in 0..4 {
            rows.push(row(&format!("p{p}"), rhythm, f64::from(k)));
        }
    }
    let refs: Vec<&Row> = rows.iter().collect();
    let folds = grouped_folds(&refs, 5, 3);
    for (r, f) in rows.iter().zip(&folds) {
        for (s, g) in rows.iter().zip(&folds) {
            if r.patient == s.patient {
                assert_eq!(f, g);
            }
        }
    }
    for k in 0..5 {
        let af = rows
            .iter()
            .zip(&folds)
            .filter(|(r, f)| **f == k && r.rhythm == Rhythm::Af)
            .map(|(r, _)| r.patient.as_str())
            .collect::<BTreeSet<_>>();
        assert_eq!(af.len(), 1, "fold {k}");
    }
}

#[test]
fn noisy_segments_count_as_missed_af_and_as_spared_non_af() {
    let rows = vec![
        row("a", Rhythm::Af, 0.0),
        row("a", Rhythm::Af, 0.0),
        row("b", Rhythm::Sinus, 0.0),
        row("b", Rhythm::Pvc, 0.0),
    ];
    let af = [0.0, 0.0, 0.0, 0.0, 0.0, 1.0];
    let sinus = [1.0, 0.0, 0.0, 0.0, 0.0, 0.0];
    let oof = vec![
        OutOfFold {
            probs: Some(af),
            camera: None,
            threshold: 0.5,
            blend_weight: 0.0,
        },
        OutOfFold {
            probs: None,
            camera: None,
            threshold: 0.5,
            blend_weight: 0.0,
        },
        OutOfFold {
            probs: Some(sinus),
            camera: None,
            threshold: 0.5,
            blend_weight: 0.0,
        },
        OutOfFold {
            probs: Some(af),
            camera: None,
            threshold: 0.5,
            blend_weight: 0.0,
        },
    ];
    let f = metrics::figures(&rows, &oof, |o| o.probs, 1);
    assert_eq!((f.af_sensitivity.hits, f.af_sensitivity.n), (1, 2));
    assert_eq!((f.af_specificity_all.hits, f.af_specificity_all.n), (1, 2));
    assert_eq!(f.sinus_specificity.value, 1.0);
    assert_eq!(f.af_sensitivity_judged, 1.0);
    assert_eq!(f.noisy_share, 0.25);
    let pvc = &f.calls[Rhythm::Pvc.index()];
    assert_eq!((pvc.segments, pvc.af, pvc.noisy), (1, 1, 0));
    assert_eq!(f.calls[Rhythm::Af.index()].noisy, 1);
    assert!((f.six_rhythm_accuracy - 2.0 / 3.0).abs() < 1e-12);
}
