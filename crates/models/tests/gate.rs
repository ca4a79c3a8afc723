//! The plausibility gate in front of every signal model: seeded signals that are not a heart
//! (seeds the committed gates were never trained on) are refused by the ECG, PCG and PPG models
//! (`noisy`, `unsure`, or a 422 reason), the issue's own examples are refused with a specific
//! reason, results never contradict their details, and real recordings pass.

use std::collections::BTreeMap;
use std::path::PathBuf;

use cardio_formats::{Channel, Recording};
use cardio_models::gate::{self, nonheart, GateModality};
use cardio_models::prediction::{PredictError, Prediction};
use cardio_models::{ecg_rhythm, pcg_model, ppg_rhythm};

/// Seeds far from the training seeds (0-39).
const TEST_SEEDS: [u64; 2] = [9_001, 9_002];

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

fn predict(m: GateModality, rec: &Recording) -> Result<Prediction, PredictError> {
    match m {
        GateModality::Ecg => ecg_rhythm::model().unwrap().predict(rec),
        GateModality::Pcg => pcg_model::model().unwrap().predict(rec),
        GateModality::Ppg => ppg_rhythm::model().unwrap().predict(rec),
    }
}

fn as_recording(m: GateModality, samples: Vec<f64>, fs: f64) -> Recording {
    match m {
        GateModality::Ecg => recording("II", "mV", samples, fs),
        GateModality::Pcg => recording("mic", "", samples, fs),
        GateModality::Ppg => recording("PLETH", "", samples, fs),
    }
}

/// The refusal's text: the 422 message, or the result's quality reason. Panics when the model
/// judged the signal.
fn refusal(m: GateModality, what: &str, rec: &Recording) -> String {
    match predict(m, rec) {
        Err(PredictError::Unusable(reason)) => reason,
        Err(e) => panic!("{what}: {e}"),
        Ok(p) => {
            let refused = if m == GateModality::Pcg {
                "unsure"
            } else {
                "noisy"
            };
            assert_eq!(p.label, refused, "{what}: {} {:?}", p.prediction, p.details);
            assert_eq!(p.details["quality_usable"], false, "{what}");
            assert!(p.details["heart_rate_bpm"].is_null(), "{what}");
            let reason = p
                .details
                .get("quality")
                .or_else(|| p.details.get("quality_reason"))
                .and_then(|v| v.as_str())
                .unwrap_or_default()
                .to_string();
            assert!(
                reason.starts_with("too noisy") || reason.starts_with("unsure"),
                "{what}: {reason}"
            );
            reason
        }
    }
}

#[test]
fn every_kind_of_non_heart_signal_is_refused_by_every_model() {
    for m in GateModality::ALL {
        for kind in nonheart::KINDS {
            for seed in TEST_SEEDS {
                let g = nonheart::generate(kind, m, seed);
                let what = format!("{} {} seed {seed}", m.code(), kind.name());
                if m == GateModality::Ecg {
                    // Also as bare numbers (a CSV without a unit): the amplitude rule cannot help.
                    let bare = recording("ECG", "", g.samples.clone(), g.fs_hz);
                    refusal(m, &format!("{what} without a unit"), &bare);
                }
                refusal(m, &what, &as_recording(m, g.samples, g.fs_hz));
            }
        }
    }
}

#[test]
fn speech_like_noise_is_never_judged_as_heart_sounds() {
    // Seeds of the issue's kind that the PCG gate's trees passed (called abnormal), trained on 16
    // and on 20 kinds alike: syllable envelopes over voiced noise.
    for seed in [7_097, 7_193, 8_038, 8_077] {
        let g = nonheart::generate(nonheart::Kind::SpeechLike, GateModality::Pcg, seed);
        let what = format!("pcg speech-like seed {seed}");
        refusal(
            GateModality::Pcg,
            &what,
            &as_recording(GateModality::Pcg, g.samples, g.fs_hz),
        );
    }
}

/// About 75 bpm varying by 3 bpm with breathing, P-QRS-T from Gaussians, baseline wander and a
/// little seeded noise, in millivolts: what a real lead looks like to the gate.
fn realistic_ecg_mv(seconds: f64, fs: f64) -> Vec<f64> {
    let tau = 2.0 * std::f64::consts::PI;
    let noise = seeded_noise((seconds * fs) as usize, 5);
    noise
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let t = i as f64 / fs;
            let beats = (75.0 * t - 3.0 / (tau * 0.25) * ((tau * 0.25 * t).cos() - 1.0)) / 60.0;
            let d = (beats.fract() - 0.375) * 0.8;
            let g = |c: f64, w: f64, a: f64| a * (-(d - c).powi(2) / w).exp();
            g(-0.16, 0.0008, 0.12)
                + g(-0.02, 0.000_05, -0.1)
                + g(0.0, 0.000_12, 1.2)
                + g(0.025, 0.000_05, -0.25)
                + g(0.22, 0.002, 0.3)
                + 0.05 * (tau * 0.25 * t).sin()
                + 0.04 * e
        })
        .collect()
}

#[test]
fn an_ecg_in_adc_counts_is_judged_without_its_amplitude() {
    let fs = 250.0;
    // A 10-bit converter around mid-scale, as an AD8232 front end on a serial port sends it.
    let counts: Vec<f64> = realistic_ecg_mv(30.0, fs)
        .iter()
        .map(|mv| (512.0 + 300.0 * mv).round())
        .collect();
    let bare = predict(GateModality::Ecg, &recording("ECG", "", counts.clone(), fs)).unwrap();
    assert_eq!(
        bare.details["gate"]["plausible"], true,
        "{:?}",
        bare.details
    );
    assert_ne!(bare.label, "noisy", "{:?}", bare.details);
    let hr = bare.details["heart_rate_bpm"].as_f64().unwrap();
    assert!((hr - 75.0).abs() < 5.0, "{hr}");
    // Declared as millivolts, the same numbers are far beyond an ECG.
    let reason = refusal(
        GateModality::Ecg,
        "counts declared as mV",
        &recording("ECG", "mV", counts, fs),
    );
    assert!(
        reason.contains(
            "mV peak to peak is far beyond an ECG's (at most 30 mV): check the units or the gain"
        ),
        "{reason}"
    );
}

fn seeded_noise(n: usize, seed: u64) -> Vec<f64> {
    let mut s = seed;
    (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (s >> 11) as f64 / (1u64 << 53) as f64 - 0.5
        })
        .collect()
}

#[test]
fn the_examples_of_the_issue_are_refused_with_a_specific_reason() {
    let tau = 2.0 * std::f64::consts::PI;
    // Heart sounds: white noise, a chord, speech-like modulated noise, a random walk.
    let fs = 4000.0;
    let n = (15.0 * fs) as usize;
    let noise = seeded_noise(n, 7);
    let chord: Vec<f64> = (0..n)
        .map(|i| {
            let t = i as f64 / fs;
            [261.6, 329.6, 392.0]
                .iter()
                .map(|f| (tau * f * t).sin())
                .sum()
        })
        .collect();
    let am: Vec<f64> = noise
        .iter()
        .enumerate()
        .map(|(i, v)| v * (1.0 + (tau * 4.0 * i as f64 / fs).sin()))
        .collect();
    let mut acc = 0.0;
    let walk: Vec<f64> = noise
        .iter()
        .map(|v| {
            acc += v;
            acc
        })
        .collect();
    for (what, x) in [
        ("white noise", noise.clone()),
        ("chord", chord),
        ("AM noise", am),
        ("random walk", walk),
    ] {
        let reason = refusal(
            GateModality::Pcg,
            what,
            &as_recording(GateModality::Pcg, x, fs),
        );
        assert!(reason.len() > 30, "{what}: {reason}");
    }
    // ECG: a 50 Hz sine, sparse spikes, +-1e6 alternating at 500 Hz.
    let fs = 500.0;
    let n = (20.0 * fs) as usize;
    let mains: Vec<f64> = (0..n).map(|i| (tau * 50.0 * i as f64 / fs).sin()).collect();
    let spikes: Vec<f64> = seeded_noise(n, 11)
        .iter()
        .map(|v| if *v > 0.499 { 1.0 } else { 0.0 })
        .collect();
    let alternating: Vec<f64> = (0..n)
        .map(|i| if i % 2 == 0 { 1e6 } else { -1e6 })
        .collect();
    refusal(
        GateModality::Ecg,
        "mains",
        &as_recording(GateModality::Ecg, mains, fs),
    );
    refusal(
        GateModality::Ecg,
        "spikes",
        &as_recording(GateModality::Ecg, spikes, fs),
    );
    let reason = refusal(
        GateModality::Ecg,
        "alternating",
        &as_recording(GateModality::Ecg, alternating, fs),
    );
    assert!(
        reason.contains("mV peak to peak is far beyond an ECG's"),
        "{reason}"
    );
    // The issue's file had no unit (a CSV of bare numbers): refused all the same.
    let alternating: Vec<f64> = (0..n)
        .map(|i| if i % 2 == 0 { 1e6 } else { -1e6 })
        .collect();
    refusal(
        GateModality::Ecg,
        "alternating without a unit",
        &recording("ECG", "", alternating, fs),
    );
}

#[test]
fn impossible_input_is_a_reason_not_a_result() {
    let nan = vec![f64::NAN; 5000];
    for m in GateModality::ALL {
        let fs = if m == GateModality::Pcg {
            1000.0
        } else {
            250.0
        };
        let err = predict(m, &as_recording(m, nan.clone(), fs)).unwrap_err();
        assert!(matches!(err, PredictError::Unusable(_)), "{m:?}: {err}");
        let one = predict(m, &as_recording(m, vec![0.7; 12_000], fs)).unwrap_err();
        assert!(matches!(one, PredictError::Unusable(_)), "{m:?}: {one}");
    }
    assert_eq!(
        gate::impossible(&[f64::INFINITY, 1.0, f64::NAN], GateModality::Ecg, 0.5).unwrap(),
        "67 % of the ECG's samples are missing, infinite or not a number; at most 50 % may be: check the file's gain and format."
    );
    assert_eq!(
        gate::impossible(&[2.5, 2.5, 2.5], GateModality::Ppg, 0.5).unwrap(),
        "The pulse (PPG) recording holds nothing but one value (2.5): there is no signal to analyse."
    );
}

fn datasets() -> Option<PathBuf> {
    cardio_testkit::datasets(&["cinc2017", "cinc2016", "bidmc"])
}

#[test]
fn real_recordings_pass_the_gate_and_are_judged() {
    let Some(root) = datasets() else {
        return;
    };
    let read = |p: PathBuf| {
        cardio_formats::read_path(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
    };
    for name in ["A00001", "A00004", "A00005"] {
        let rec = read(root.join(format!("cinc2017/training2017/{name}.hea")));
        let p = predict(GateModality::Ecg, &rec).unwrap();
        assert_ne!(p.label, "noisy", "{name}");
        assert_eq!(p.details["gate"]["plausible"], true, "{name}");
        assert_eq!(p.details["quality_usable"], true, "{name}");
    }
    for name in ["a0001", "a0002", "a0003"] {
        let rec = read(root.join(format!("cinc2016/training-a/{name}.wav")));
        let p = predict(GateModality::Pcg, &rec).unwrap();
        assert_eq!(p.details["gate"]["plausible"], true, "{name}");
    }
    // a0007: the issue's case. Whatever the label, the details agree with it.
    let rec = read(root.join("cinc2016/training-a/a0007.wav"));
    let p = predict(GateModality::Pcg, &rec).unwrap();
    let usable = p.details["quality_usable"].as_bool().unwrap();
    assert_eq!(usable, p.label != "unsure");
    let reason = p.details["quality_reason"].as_str().unwrap();
    assert_eq!(reason.starts_with("usable"), usable, "{reason}");
    if p.details["heart_rate_bpm"].is_null() && usable {
        assert!(p.details["timing_note"]
            .as_str()
            .unwrap()
            .starts_with("The heart rate and timings are not shown"));
    }
    let rec = read(root.join("bidmc/bidmc_csv/bidmc_01_Signals.csv"));
    let p = predict(GateModality::Ppg, &rec).unwrap();
    assert_eq!(p.details["gate"]["plausible"], true);
}

#[test]
fn the_committed_gates_load_and_carry_their_validation() {
    for m in GateModality::ALL {
        let g = gate::gate(m).unwrap();
        let v = &g.params().validation;
        assert!(v.cv_false_rejection < 0.03, "{m:?}: {v:?}");
        assert!(v.cv_false_acceptance < 0.01, "{m:?}: {v:?}");
        assert_eq!(g.params().modality, m);
    }
}
