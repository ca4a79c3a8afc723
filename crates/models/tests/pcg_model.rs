//! The heart-sound model: the committed parameters load, every input either predicts or is refused
//! with a message for the user (never a panic) and any input rate works (real recordings are
//! classified in `cardio-lab`'s tests).

use std::collections::BTreeMap;

use cardio_formats::{Channel, Recording};
use cardio_models::pcg_model::{self, features, model, Params};
use cardio_models::prediction::{on_decision_scale, PredictError};
use cardio_signal::resample::Resampler;

fn recording(samples: Vec<f64>, rate: f64) -> Recording {
    Recording {
        channels: vec![Channel {
            name: "mic".into(),
            unit: String::new(),
            samples,
        }],
        sampling_rate_hz: rate,
        start: None,
        metadata: BTreeMap::new(),
        device_interpretation: None,
    }
}

/// Heart sounds at `rate`: S1 (60 Hz, 0.1 s) and S2 (90 Hz, 0.08 s) bursts at about 75 bpm, the
/// rate varying by ±3 bpm with breathing, over the low-frequency background noise every
/// stethoscope picks up (a perfect, noiseless synthetic sound is refused as not a heart).
fn heart_sounds(rate: f64, seconds: f64) -> Vec<f64> {
    let tau = 2.0 * std::f64::consts::PI;
    let mut state = 12_345_u64;
    let mut hum = 0.0;
    (0..(rate * seconds) as usize)
        .map(|i| {
            let t = i as f64 / rate;
            let beats = (75.0 * t - 3.0 / (tau * 0.25) * ((tau * 0.25 * t).cos() - 1.0)) / 60.0;
            let ph = beats.fract() * 0.8;
            let burst = |start: f64, f: f64, width: f64| {
                let d = ph - start;
                if (0.0..width).contains(&d) {
                    (tau * f * d).sin() * (std::f64::consts::PI * d / width).sin()
                } else {
                    0.0
                }
            };
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            // The same background at every rate: about 4 kHz worth of low-passed noise.
            hum = 0.97_f64.powf(4000.0 / rate) * hum
                + ((state >> 33) as f64 / f64::from(u32::MAX) - 0.5);
            burst(0.05, 60.0, 0.1) + burst(0.35, 90.0, 0.08) + 0.08 * hum
        })
        .collect()
}

fn unusable(rec: &Recording) -> String {
    match model().unwrap().predict(rec) {
        Err(PredictError::Unusable(msg)) => msg,
        other => panic!("expected Unusable, got {other:?}"),
    }
}

#[test]
fn committed_params_load_and_survive_a_json_round_trip() {
    let text = std::fs::read_to_string(pcg_model::PARAMS_PATH).unwrap();
    let params: Params = serde_json::from_str(&text).unwrap();

    // serde_json's default float parser may differ from the printed value in the last bit, so the
    // round trip is checked on predictions rather than on bytes.
    let again: Params = serde_json::from_str(&pcg_model::params_json(&params)).unwrap();
    let row: Vec<f64> = (0..params.features.len())
        .map(|i| (i % 7) as f64 * 0.1)
        .collect();
    let (a, b) = (
        params.classifier.predict_proba(&row),
        again.classifier.predict_proba(&row),
    );
    assert!((a[1] - b[1]).abs() < 1e-9, "{a:?} {b:?}");
    assert!(pcg_model::params_json(&params).ends_with("}\n"));
    assert_eq!(params.model_id, pcg_model::MODEL_ID);
    assert_eq!(params.version, pcg_model::VERSION);
    assert_eq!(params.features, features::feature_names());
    assert!(text.len() < 2_000_000, "{} bytes", text.len());
    assert!(model().is_ok());
}

#[test]
fn recordings_that_cannot_be_judged_are_refused_with_the_measured_value() {
    let empty = Recording {
        channels: vec![],
        ..recording(vec![], 1000.0)
    };
    assert_eq!(unusable(&empty), "The recording holds no samples.");
    assert_eq!(
        unusable(&recording(vec![], 1000.0)),
        "The recording holds no samples."
    );
    assert_eq!(
        unusable(&recording(vec![0.5], 1000.0)),
        "Recording too short: 0.0 s; at least 2 s is needed."
    );
    assert_eq!(
        unusable(&recording(heart_sounds(1000.0, 1.8), 1000.0)),
        "Recording too short: 1.8 s; at least 2 s is needed."
    );
    assert_eq!(
        unusable(&recording(vec![0.25; 10_000], 1000.0)),
        "The recording is silent (a flat line): no heart sounds to analyse."
    );
    let mut with_nan = heart_sounds(1000.0, 10.0);
    with_nan[100] = f64::NAN;
    with_nan[200] = f64::INFINITY;
    assert_eq!(
        unusable(&recording(with_nan, 1000.0)),
        "The recording has 2 invalid (not-a-number or infinite) samples in its first 60 s; it cannot be analysed."
    );
    assert_eq!(
        unusable(&recording(heart_sounds(500.0, 10.0), 500.0)),
        "Sampling rate too low: 500 Hz; heart-sound analysis needs at least 1000 Hz."
    );
    for rate in [0.0, -4000.0, f64::NAN, f64::INFINITY] {
        assert!(unusable(&recording(vec![1.0; 10], rate)).starts_with("Sampling rate too low"));
    }
}

#[test]
fn a_prediction_carries_the_model_probabilities_and_finite_measurements() {
    let p = model()
        .unwrap()
        .predict(&recording(heart_sounds(1000.0, 12.0), 1000.0))
        .unwrap();

    assert!(["normal", "abnormal", "unsure"].contains(&p.label.as_str()));
    let probs = p.details["probabilities"].as_object().unwrap();
    let sum: f64 = probs.values().map(|v| v.as_f64().unwrap()).sum();
    assert!((sum - 1.0).abs() < 1e-12);
    assert_eq!(probs[&p.label].as_f64().unwrap(), p.confidence);
    let trees = p.details["classifier_probability_abnormal"]
        .as_f64()
        .unwrap();
    let net = p.details["network_probability_abnormal"].as_f64().unwrap();
    assert_eq!(
        p.details["probability_abnormal"].as_f64().unwrap(),
        p.risk_score
    );
    let w = model().unwrap().params().blend_weight;
    assert!((0.0..=1.0).contains(&w));
    let score = p.details["score_abnormal"].as_f64().unwrap();
    assert!((score - (w * net + (1.0 - w) * trees)).abs() < 1e-12);
    // The probability is the blend's score on the decision's scale: the threshold is 0.5.
    let threshold = model().unwrap().params().threshold;
    assert_eq!(p.details["decision_threshold"].as_f64(), Some(threshold));
    assert_eq!(p.risk_score, on_decision_scale(score, threshold));
    let abnormal = p.risk_score >= 0.5;
    assert_eq!(abnormal, score >= threshold);
    if p.label != "unsure" {
        assert_eq!(p.label == "abnormal", abnormal);
    }
    assert_eq!(p.details["model"]["id"], "pcg-gbdt");
    assert!((p.details["heart_rate_bpm"].as_f64().unwrap() - 75.0).abs() < 3.0);
    assert_eq!(p.details["sampling_rate_hz"].as_f64().unwrap(), 1000.0);
    assert_eq!(p.details["channel"], "mic");
    assert_eq!(p.recommendations.last().unwrap(), pcg_model::DISCLAIMER);
    for (key, value) in &p.details {
        if let Some(x) = value.as_f64() {
            assert!(x.is_finite(), "{key}");
        }
    }
}

#[test]
fn the_same_sounds_at_4_and_44_1_khz_give_the_same_answer_as_at_1_khz() {
    let x = heart_sounds(1000.0, 12.0);
    let base = model()
        .unwrap()
        .predict(&recording(x.clone(), 1000.0))
        .unwrap();
    for (up, down, rate) in [(4, 1, 4000.0), (441, 10, 44_100.0)] {
        let y = Resampler::new(up, down).unwrap().process(&x);
        let p = model().unwrap().predict(&recording(y, rate)).unwrap();
        assert_eq!(p.label, base.label, "{rate} Hz");
        let hr = |p: &cardio_models::prediction::Prediction| {
            p.details["heart_rate_bpm"].as_f64().unwrap()
        };
        assert!((hr(&p) - hr(&base)).abs() < 2.0, "{rate} Hz");
    }
}

#[test]
fn odd_rates_and_extreme_values_never_panic() {
    let x = heart_sounds(1000.0, 12.0);
    // 8 kHz samples labelled 8000.5 Hz: no ratio of factors up to 1000 reaches 1 kHz exactly.
    let odd = Resampler::new(8, 1).unwrap().process(&x);
    let p = model().unwrap().predict(&recording(odd, 8000.5)).unwrap();
    assert!((p.details["heart_rate_bpm"].as_f64().unwrap() - 75.0).abs() < 3.0);

    let huge: Vec<f64> = x.iter().map(|v| v * 1e300).collect();
    let _ = model().unwrap().predict(&recording(huge, 1000.0));
    let tiny: Vec<f64> = x.iter().map(|v| v * 1e-300).collect();
    let _ = model().unwrap().predict(&recording(tiny, 1000.0));
    let _ = model().unwrap().predict(&recording(vec![1.0; 10], 1e12));
    let spikes: Vec<f64> = (0..12_000)
        .map(|i| if i % 997 == 0 { 1.0 } else { 0.0 })
        .collect();
    let _ = model().unwrap().predict(&recording(spikes, 1000.0));
}

#[test]
fn a_long_recording_is_cut_to_the_analysed_maximum_and_says_so() {
    let x = heart_sounds(1000.0, 150.0);

    let p = model().unwrap().predict(&recording(x, 1000.0)).unwrap();

    assert_eq!(p.details["analysed_s"].as_f64().unwrap(), 60.0);
    assert_eq!(p.details["duration_s"].as_f64().unwrap(), 150.0);
    assert!(p
        .recommendations
        .iter()
        .any(|r| r == "Only the first 60 s of this 150 s recording were analysed."));
}

#[test]
fn stereo_uses_the_channel_with_the_clearer_heart_sounds() {
    let mut noise_state = 99_u64;
    let noise: Vec<f64> = (0..12_000)
        .map(|_| {
            noise_state = noise_state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            (noise_state >> 33) as f64 / f64::from(u32::MAX) - 0.5
        })
        .collect();
    let rec = Recording {
        channels: vec![
            Channel {
                name: "left".into(),
                unit: String::new(),
                samples: noise,
            },
            Channel {
                name: "right".into(),
                unit: String::new(),
                samples: heart_sounds(1000.0, 12.0),
            },
        ],
        ..recording(vec![], 1000.0)
    };

    let p = model().unwrap().predict(&rec).unwrap();

    assert_eq!(p.details["channel"], "right");
    assert_eq!(p.details["channel_index"], 1);
}

/// CinC 2016 a0007, the issue's case: it was "abnormal" at 38.5 % with "Low Risk", normal 0.62, and
/// a detail saying "too noisy" beside "quality usable". Now one decision says it all: the label is
/// the likelier one, its confidence and risk agree with it, and no sentence calls it too noisy.
#[test]
fn the_issues_a0007_says_one_thing() {
    let Some(path) = cardio_testkit::dataset_file("cinc2016/training-a/a0007.wav") else {
        return;
    };
    let p = model()
        .unwrap()
        .predict(&cardio_formats::read_path(&path).unwrap())
        .unwrap();

    assert_eq!(p.label, "abnormal");
    assert_eq!(p.prediction, "Abnormal heart sounds suspected");
    assert!((p.confidence - 0.527).abs() < 0.001, "{}", p.confidence);
    assert_eq!(p.risk_score, p.confidence);
    assert_eq!(
        p.details["probabilities"]["abnormal"].as_f64(),
        Some(p.confidence)
    );
    assert_eq!(
        p.details["probability_abnormal"].as_f64(),
        Some(p.confidence)
    );
    assert_eq!(p.details["quality_usable"], true);
    assert_eq!(
        p.details["timing_note"],
        "The heart rate and timings are not shown: the heart sounds do not repeat clearly enough to time S1 and S2 (periodicity 0.19, timing needs at least 0.30)."
    );
    let codes: Vec<&str> = p.advice.iter().map(|a| a.code.as_str()).collect();
    assert_eq!(codes, ["pcg.abnormal_1", "pcg.abnormal_2", "disclaimer"]);
}
