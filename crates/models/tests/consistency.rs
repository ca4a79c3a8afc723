//! Every model's result agrees with itself (`cardio_models::consistency`): label, confidence, risk
//! band, recommendations, quality verdict and detail sentences, over real recordings of the
//! datasets (when `CARDIO_DATASETS` is set; under `CI=true` a missing one fails) and seeded
//! synthetic inputs: non-heart signals, synthetic hearts and clinical values across their ranges.

use std::collections::BTreeMap;
use std::path::Path;

use cardio_formats::{Channel, Recording};
use cardio_models::clinical::{self, ClinicalInput};
use cardio_models::consistency::{self, contradictions};
use cardio_models::gate::{nonheart, GateModality};
use cardio_models::prediction::{PredictError, Prediction};
use cardio_models::{ecg_rhythm, pcg_model, ppg_rhythm, Modality};
use cardio_testkit::signals::{breathing_beats, jitter};

fn recording(name: &str, unit: &str, samples: Vec<f64>, fs: f64) -> Recording {
    Recording {
        channels: vec![Channel {
            name: name.into(),
            unit: unit.into(),
            samples,
        }],
        sampling_rate_hz: fs,
        start: None,
        metadata: BTreeMap::new(),
        device_interpretation: None,
    }
}

fn predict(m: Modality, rec: &Recording) -> Result<Prediction, PredictError> {
    match m {
        Modality::Ecg => ecg_rhythm::model().unwrap().predict(rec),
        Modality::Pcg => pcg_model::model().unwrap().predict(rec),
        Modality::Ppg => ppg_rhythm::model().unwrap().predict(rec),
        Modality::Clinical => unreachable!(),
    }
}

/// Checks the result of one input (a refusal with a reason is not a result); returns its label.
fn consistent(m: Modality, what: &str, rec: &Recording) -> Option<String> {
    match predict(m, rec) {
        Ok(p) => {
            consistency::check(m, what, &p).unwrap_or_else(|e| panic!("{e}"));
            Some(p.label)
        }
        Err(PredictError::Unusable(_)) => None,
        Err(e) => panic!("{what}: {e}"),
    }
}

#[test]
fn seeded_signals_and_synthetic_hearts_give_results_that_agree_with_themselves() {
    for (g, m, name, unit) in [
        (GateModality::Ecg, Modality::Ecg, "II", "mV"),
        (GateModality::Pcg, Modality::Pcg, "mic", ""),
        (GateModality::Ppg, Modality::Ppg, "PLETH", ""),
    ] {
        for kind in nonheart::KINDS {
            let s = nonheart::generate(kind, g, 9_100);
            let what = format!("{} {}", g.code(), kind.name());
            consistent(m, &what, &recording(name, unit, s.samples, s.fs_hz));
        }
    }
    // Synthetic hearts: a lead II, heart sounds and a pulse at about 75 bpm with breathing.
    let tau = 2.0 * std::f64::consts::PI;
    let mut state = 3;
    let ecg: Vec<f64> = (0..250 * 30)
        .map(|i| {
            let t = f64::from(i) / 250.0;
            let d = (breathing_beats(t).fract() - 0.4) * 0.8;
            let g = |c: f64, w: f64, a: f64| a * (-((d - c) * (d - c)) / w).exp();
            g(-0.16, 0.0008, 0.12)
                + g(0.0, 0.00012, 1.2)
                + g(0.22, 0.002, 0.3)
                + 0.02 * jitter(&mut state)
        })
        .collect();
    consistent(
        Modality::Ecg,
        "synthetic ECG",
        &recording("II", "mV", ecg, 250.0),
    );
    let pcg: Vec<f64> = (0..4000 * 15)
        .map(|i| {
            let t = f64::from(i) / 4000.0;
            let ph = breathing_beats(t).fract() * 0.8;
            let burst = |c: f64, a: f64| a * (-((ph - c) * (ph - c)) / 0.0003).exp();
            (burst(0.1, 1.0) + burst(0.4, 0.6)) * (tau * 50.0 * t).sin() + 0.01 * jitter(&mut state)
        })
        .collect();
    consistent(
        Modality::Pcg,
        "synthetic heart sounds",
        &recording("mic", "", pcg, 4000.0),
    );
    let ppg: Vec<f64> = (0..100 * 30)
        .map(|i| {
            let t = f64::from(i) / 100.0;
            let ph = breathing_beats(t).fract();
            (-(ph - 0.25).powi(2) / 0.01).exp()
                + 0.4 * (-(ph - 0.55).powi(2) / 0.01).exp()
                + 0.01 * jitter(&mut state)
        })
        .collect();
    consistent(
        Modality::Ppg,
        "synthetic pulse",
        &recording("PLETH", "", ppg, 100.0),
    );
}

#[test]
fn clinical_results_agree_with_themselves_across_the_form() {
    let mut state = 11;
    for i in 0..60 {
        let mut pick = |n: u8| ((jitter(&mut state) + 0.5) * f64::from(n)) as u8;
        let input = ClinicalInput {
            age: 30.0 + f64::from(pick(50)),
            chest_pain_type: pick(4),
            cholesterol: Some(150.0 + f64::from(pick(150))),
            fasting_blood_sugar: Some(70.0 + f64::from(pick(80))),
            exercise_induced_angina: Some(pick(2)),
            vessels_colored_by_flourosopy: (i % 3 != 0).then(|| pick(4)),
            thalassemia: (i % 4 != 0).then(|| pick(3)),
            ..ClinicalInput::default()
        };
        let p = clinical::predict(&input).unwrap().as_prediction();
        consistency::check(Modality::Clinical, &format!("{input:?}"), &p)
            .unwrap_or_else(|e| panic!("{e}"));
    }
}

#[test]
fn real_recordings_give_results_that_agree_with_themselves() {
    let Some(root) = cardio_testkit::datasets(&["cinc2017", "cinc2016", "bidmc"]) else {
        return;
    };
    let read = |p: &Path| cardio_formats::read_path(p).unwrap_or_else(|e| panic!("{p:?}: {e}"));
    for name in ["A00001", "A00004", "A00005", "A00008"] {
        let path = root.join(format!("cinc2017/training2017/{name}.hea"));
        consistent(Modality::Ecg, name, &read(&path));
    }
    for name in ["a0001", "a0007", "a0010", "e00020"] {
        let site = &name[..1];
        let path = root.join(format!("cinc2016/training-{site}/{name}.wav"));
        consistent(Modality::Pcg, name, &read(&path));
    }
    for n in ["01", "02"] {
        let path = root.join(format!("bidmc/bidmc_csv/bidmc_{n}_Signals.csv"));
        consistent(Modality::Ppg, &format!("bidmc {n}"), &read(&path));
    }
}

/// The issue's heart-sound result (CinC 2016 a0007 before the fix): "abnormal" at 38.5 %, "Low
/// Risk", normal 0.62, a detail saying "too noisy" and quality usable.
#[test]
fn the_check_names_every_contradiction_of_the_issues_heart_sound_result() {
    let mut details = serde_json::Map::new();
    details.insert(
        "probabilities".into(),
        serde_json::json!({"normal": 0.6152, "abnormal": 0.3848, "unsure": 0.0}),
    );
    details.insert("quality_usable".into(), true.into());
    details.insert(
        "quality_reason".into(),
        "usable: it looks like a real heart-sound recording (probability 1.00)".into(),
    );
    details.insert(
        "timing_note".into(),
        "The heart rate and timings are not shown: the segmentation of S1 and S2 did not pass its own check (too noisy: no repeating heart-sound pattern (periodicity 0.19)).".into(),
    );
    let advice = ["pcg.abnormal_1", "pcg.abnormal_2", "disclaimer"]
        .map(cardio_models::catalogue::Advice::new)
        .to_vec();
    let p = Prediction {
        label: "abnormal".into(),
        prediction: "Abnormal heart sounds suspected".into(),
        confidence: 0.3848,
        risk_score: 0.3848,
        recommendations: cardio_models::catalogue::english(&advice),
        advice,
        details,
    };
    assert_eq!(
        contradictions(Modality::Pcg, &p),
        vec![
            "the label abnormal (0.3848) is less probable than normal (0.6152)".to_string(),
            "the finding abnormal comes with a low risk score (0.3848)".into(),
            "timing_note says \"The heart rate and timings are not shown: the segmentation of S1 and S2 did not pass its own check (too noisy: no repeating heart-sound pattern (periodicity 0.19)).\", yet the result is abnormal".into(),
        ]
    );
}
