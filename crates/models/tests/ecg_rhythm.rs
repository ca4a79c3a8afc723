//! The committed ECG rhythm model: loading, the shape of its predictions, its refusals and
//! robustness to hostile input (agreement with the CinC 2017 labels is checked in `cardio-lab`'s
//! tests).

// The synthetic ECG follows the signal-processing notation (n, x, t, k, c, d, g).
#![allow(clippy::many_single_char_names)]

use std::collections::BTreeMap;

use cardio_formats::{Channel, Recording};
use cardio_models::ecg_rhythm::{
    self, features::FEATURE_NAMES, Class, CLASSES, DISCLAIMER, MODEL_ID, VERSION,
};
use cardio_models::prediction::PredictError;

fn channel(name: &str, samples: Vec<f64>) -> Channel {
    Channel {
        name: name.into(),
        unit: "mV".into(),
        samples,
    }
}

fn recording(channels: Vec<Channel>, fs: f64) -> Recording {
    Recording {
        channels,
        sampling_rate_hz: fs,
        start: None,
        metadata: BTreeMap::new(),
        device_interpretation: None,
    }
}

/// Gaussian P-QRS-T beats at the RR intervals `rr(k)` seconds, in mV, over a slow baseline
/// wander and a little noise (as every real lead has; a flat zero baseline reads as saturation).
fn ecg(fs: f64, seconds: f64, rr: impl Fn(usize) -> f64, p_wave: bool) -> Vec<f64> {
    let n = (seconds * fs) as usize;
    let mut state: u64 = 5;
    let mut x: Vec<f64> = (0..n)
        .map(|i| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let noise = (state >> 11) as f64 / (1u64 << 53) as f64 - 0.5;
            0.05 * (2.0 * std::f64::consts::PI * 0.25 * i as f64 / fs).sin() + 0.02 * noise
        })
        .collect();
    let mut t = 0.4;
    let mut k = 0;
    while t < seconds - 0.6 {
        let c = t * fs;
        let lo = (c - 0.4 * fs).max(0.0) as usize;
        let hi = ((c + 0.6 * fs) as usize).min(n);
        for (i, v) in x.iter_mut().enumerate().take(hi).skip(lo) {
            let d = (i as f64 - c) / fs;
            let g = |mu: f64, s: f64, a: f64| a * (-((d - mu) * (d - mu)) / (2.0 * s * s)).exp();
            *v += g(0.0, 0.012, 1.2) + g(0.28, 0.045, 0.3);
            if p_wave {
                *v += g(-0.17, 0.02, 0.15);
            }
        }
        t += rr(k);
        k += 1;
    }
    x
}

fn random_rr(seed: u64) -> Vec<f64> {
    let mut s = seed;
    (0..200)
        .map(|_| {
            s = s
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            0.4 + 0.55 * ((s >> 11) as f64 / (1u64 << 53) as f64)
        })
        .collect()
}

#[test]
fn the_committed_parameters_load_and_match_the_code() {
    let m = ecg_rhythm::model().expect("committed parameters load");
    assert_eq!(m.params.model_id, MODEL_ID);
    assert_eq!(m.params.version, VERSION);
    assert_eq!(m.params.features, FEATURE_NAMES);
    let codes: Vec<&str> = CLASSES.iter().map(|c| c.code()).collect();
    assert_eq!(m.params.classes, codes);
    assert!(m.params.validation.cv_mean_f1_nao > 0.5);
}

/// Equal up to the last bits of a float (serde_json's default float parser is not always the
/// closest rounding).
fn same_json(a: &serde_json::Value, b: &serde_json::Value, path: &str) -> Result<(), String> {
    use serde_json::Value;
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            let (x, y) = (x.as_f64().unwrap(), y.as_f64().unwrap());
            if (x - y).abs() <= 1e-12 * x.abs().max(1e-300) {
                Ok(())
            } else {
                Err(format!("{path}: {x} vs {y}"))
            }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .try_for_each(|(i, (x, y))| same_json(x, y, &format!("{path}[{i}]"))),
        (Value::Object(x), Value::Object(y)) if x.len() == y.len() => {
            x.iter().try_for_each(|(k, v)| {
                y.get(k)
                    .ok_or_else(|| format!("{path}.{k} missing"))
                    .and_then(|w| same_json(v, w, &format!("{path}.{k}")))
            })
        }
        _ if a == b => Ok(()),
        _ => Err(format!("{path} differs")),
    }
}

#[test]
fn the_committed_json_is_what_params_json_writes() {
    let text = std::fs::read_to_string(ecg_rhythm::PARAMS_PATH).unwrap();
    let params: ecg_rhythm::Params = serde_json::from_str(&text).unwrap();
    let again = ecg_rhythm::params_json(&params);
    assert!(again.ends_with("}\n"));
    assert_eq!(again.lines().count(), text.lines().count());
    let (a, b): (serde_json::Value, serde_json::Value) = (
        serde_json::from_str(&text).unwrap(),
        serde_json::from_str(&again).unwrap(),
    );
    same_json(&a, &b, "").unwrap();
    assert!(text.len() < 2_000_000, "{} bytes", text.len());
}

#[test]
fn a_twelve_lead_file_is_read_from_lead_ii_and_the_result_is_complete() {
    let fs = 500.0;
    let sinus = ecg(fs, 30.0, |_| 0.8, true);
    let mut leads: Vec<Channel> = [
        "I", "II", "III", "aVR", "aVL", "aVF", "V1", "V2", "V3", "V4", "V5", "V6",
    ]
    .iter()
    .map(|n| channel(n, vec![0.0; sinus.len()]))
    .collect();
    leads[1].samples = sinus;
    let rec = recording(leads, fs);

    let p = ecg_rhythm::model().unwrap().predict(&rec).unwrap();

    assert!(CLASSES.iter().any(|c| c.code() == p.label));
    assert_eq!(p.details["channel"], "II");
    assert_eq!(p.details["channel_index"], 1);
    assert_eq!(p.details["sampling_rate_hz"], 500.0);
    assert_eq!(p.details["model"]["id"], MODEL_ID);
    assert_eq!(p.details["model"]["metric"], "cv_mean_f1_nao");
    let probs = p.details["probabilities"].as_object().unwrap();
    assert_eq!(probs.len(), 4);
    let sum: f64 = probs.values().map(|v| v.as_f64().unwrap()).sum();
    assert!((sum - 1.0).abs() < 1e-9);
    assert_eq!(p.confidence, probs[&p.label].as_f64().unwrap());
    let abnormal = probs["af"].as_f64().unwrap() + probs["other"].as_f64().unwrap();
    assert!((p.risk_score - abnormal).abs() < 1e-12);
    let hr = p.details["heart_rate_bpm"].as_f64().unwrap();
    assert!((hr - 75.0).abs() < 1.5, "{hr}");
    assert!((p.details["duration_s"].as_f64().unwrap() - 30.0).abs() < 1e-9);
    assert_eq!(p.recommendations.last().unwrap(), DISCLAIMER);
    // Every value is plain JSON (NaN would not serialise).
    assert!(serde_json::to_string(&p).is_ok());
}

#[test]
fn an_irregular_rhythm_without_p_waves_scores_higher_for_af_than_a_regular_one() {
    let m = ecg_rhythm::model().unwrap();
    let rr = random_rr(11);
    let af = recording(
        vec![channel("ECG", ecg(300.0, 30.0, |k| rr[k % 200], false))],
        300.0,
    );
    let nsr = recording(
        vec![channel(
            "ECG",
            ecg(300.0, 30.0, |k| [0.8, 0.82, 0.79][k % 3], true),
        )],
        300.0,
    );

    let p_af = m.predict(&af).unwrap();
    let p_nsr = m.predict(&nsr).unwrap();

    assert!(
        p_af.risk_score > p_nsr.risk_score,
        "{} vs {}",
        p_af.risk_score,
        p_nsr.risk_score
    );
    assert_eq!(
        p_af.label,
        Class::Af.code(),
        "{:?}",
        p_af.details["probabilities"]
    );
}

#[test]
fn unusable_recordings_say_why_with_the_measured_value() {
    let m = ecg_rhythm::model().unwrap();
    let short = recording(vec![channel("II", ecg(250.0, 3.2, |_| 0.8, true))], 250.0);
    assert_eq!(
        m.predict(&short).unwrap_err(),
        PredictError::Unusable("Recording too short: 3.2 s; at least 9 s is needed.".into())
    );
    assert_eq!(
        m.predict(&recording(vec![], 250.0)).unwrap_err(),
        PredictError::Unusable("The recording has no ECG channel with samples.".into())
    );
    let slow = recording(vec![channel("II", vec![0.0; 600])], 20.0);
    assert_eq!(
        m.predict(&slow).unwrap_err(),
        PredictError::Unusable("Sampling rate too low: 20 Hz; at least 50 Hz is needed.".into())
    );
    let flat = recording(vec![channel("II", vec![0.3; 5000])], 250.0);
    assert_eq!(
        m.predict(&flat).unwrap_err(),
        PredictError::Unusable(
            "The ECG holds nothing but one value (0.3): there is no signal to analyse.".into()
        )
    );
}

/// Hostile input never panics and never gets a finding: each case is refused with its reason
/// (a 422 in the server) or judged `noisy` by the plausibility gate, with the reason it gives.
#[test]
fn hostile_input_is_refused_with_its_reason() {
    let m = ecg_rhythm::model().unwrap();
    let n = 3000;
    let no_channel = "The recording has no ECG channel with samples.";
    let cases: Vec<(Vec<f64>, f64, Result<&str, &str>)> = vec![
        (vec![], 300.0, Err(no_channel)),
        (
            vec![1.0],
            300.0,
            Err("Recording too short: 0.0 s; at least 9 s is needed."),
        ),
        (vec![f64::NAN; n], 300.0, Err(no_channel)),
        (vec![f64::INFINITY; n], 300.0, Err(no_channel)),
        (
            (0..n)
                .map(|i| if i % 2 == 0 { 1e300 } else { -1e300 })
                .collect(),
            300.0,
            Ok("too noisy: an amplitude of 2.000e300 mV peak to peak is far beyond an ECG's (at most 30 mV): check the units or the gain"),
        ),
        (
            (0..n).map(|i| f64::from(u8::from(i % 7 == 0))).collect(),
            300.0,
            Ok("too noisy: saturated: 71 % of samples are held at the signal's limits (clipping)"),
        ),
        (
            (0..n).map(|i| (f64::from(i as u32) * 0.37).sin()).collect(),
            257.3,
            Ok("too noisy: this does not look like a real ECG: the tonality"),
        ),
        (
            vec![1.0; n],
            f64::NAN,
            Err("Sampling rate too low: NaN Hz; at least 50 Hz is needed."),
        ),
        (
            vec![1.0; n],
            0.0,
            Err("Sampling rate too low: 0 Hz; at least 50 Hz is needed."),
        ),
        (
            vec![1.0; n],
            -300.0,
            Err("Sampling rate too low: -300 Hz; at least 50 Hz is needed."),
        ),
        (
            vec![1.0; n],
            1e9,
            Err("Recording too short: 0.0 s; at least 9 s is needed."),
        ),
    ];
    for (i, (samples, fs, expected)) in cases.into_iter().enumerate() {
        let got = m.predict(&recording(vec![channel("II", samples)], fs));
        match (got, expected) {
            (Err(PredictError::Unusable(reason)), Err(want)) => {
                assert_eq!(reason, want, "case {i}");
            }
            (Ok(p), Ok(want)) => {
                assert_eq!(p.label, "noisy", "case {i}");
                assert!(p.details["heart_rate_bpm"].is_null(), "case {i}");
                let reason = p.details["quality"].as_str().unwrap();
                assert!(reason.starts_with(want), "case {i}: {reason}");
            }
            (got, want) => panic!("case {i}: {got:?}, expected {want:?}"),
        }
    }
}

#[test]
fn a_thirty_minute_recording_is_read_whole_in_thirty_second_windows() {
    let m = ecg_rhythm::model().unwrap();
    let rec = recording(
        vec![channel("MLII", ecg(360.0, 1800.0, |_| 0.9, true))],
        360.0,
    );
    let p = m.predict(&rec).unwrap();
    let seconds = |k: &str| p.details[k].as_f64().unwrap();
    assert!((seconds("duration_s") - 1800.0).abs() < 1e-6);
    assert!((seconds("analysed_s") + seconds("noisy_s") - 1800.0).abs() < 0.01);
    assert_eq!(seconds("window_s"), 30.0);
    assert!(p.details["episodes"].is_array());
}
