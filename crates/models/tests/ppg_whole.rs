//! A long PPG is read whole (issue 41): a synthetic 3-minute pulse with a minute of AF-like
//! intervals in the middle, and a 3-minute recording made of real fingertip segments (Liu et al.
//! 2022: one minute of sinus rhythm, one of AF, one of sinus rhythm, from one patient), get one AF
//! episode within a window of the true edges; BIDMC records in sinus rhythm (8 min of ICU PLETH)
//! get no AF, their analysed and noisy time adding up to the record. Every result keeps the
//! consistency rule. With `CI=true` a missing dataset fails instead of skipping.
//!
//! `cargo test -p cardio-models --test ppg_whole -- --ignored --nocapture` prints the figures of
//! every BIDMC record (the model card's table).

mod common;

use cardio_formats::Recording;
use cardio_models::consistency::check;
use cardio_models::ppg_rhythm::{model, whole};
use cardio_models::prediction::Prediction;
use cardio_models::Modality;
use common::{liu_segments, pulse_wave_of, recording};

fn predict(what: &str, rec: &Recording) -> Prediction {
    let p = model().unwrap().predict(rec).unwrap();
    check(Modality::Ppg, what, &p).unwrap();
    p
}

fn episodes(p: &Prediction, kind: &str) -> Vec<(f64, f64)> {
    p.details["episodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == kind)
        .map(|e| (e["start_s"].as_f64().unwrap(), e["end_s"].as_f64().unwrap()))
        .collect()
}

fn f(p: &Prediction, key: &str) -> f64 {
    p.details[key].as_f64().unwrap()
}

/// The AF episode is the one expected: its start within a window of the truth, and its end too
/// when `end_exact` (otherwise inside the true stretch).
fn assert_af_between(p: &Prediction, start_s: f64, end_s: f64, end_exact: bool) {
    let af = episodes(p, "af");
    assert_eq!(p.label, "af", "{:?}", p.details["episodes"]);
    assert_eq!(af.len(), 1, "{af:?}");
    assert!((af[0].0 - start_s).abs() <= whole::WINDOW_S, "{af:?}");
    if end_exact {
        assert!((af[0].1 - end_s).abs() <= whole::WINDOW_S, "{af:?}");
    } else {
        assert!(af[0].1 <= end_s + whole::WINDOW_S, "{af:?}");
    }
    let burden = f(p, "af_burden");
    let expected = (af[0].1 - af[0].0) / f(p, "analysed_s");
    assert!((burden - expected).abs() < 1e-3, "{burden} {expected}");
    assert!(p
        .recommendations
        .iter()
        .any(|r| r.starts_with("Pulse like atrial fibrillation: 1 episode(s) of at least 30 s")));
}

#[test]
fn a_synthetic_minute_of_af_between_two_of_sinus_rhythm_is_one_af_episode() {
    // In AF the intervals are uniform 0.45-1.05 s (seeded) and a pulse's amplitude follows the
    // interval before it (Frank-Starling), as in tests/ppg_rhythm.rs; sinus rhythm is 0.85 s.
    let fs = 50.0;
    let mut pulses = Vec::new();
    let (mut t, mut preceding) = (0.4, 0.85);
    let mut s: u64 = 99;
    while t < 179.5 {
        pulses.push((t, (preceding / 0.75_f64).clamp(0.5, 1.3)));
        preceding = if (60.0..120.0).contains(&t) {
            s = s.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            0.45 + 0.6 * ((s >> 33) % 1000) as f64 / 1000.0
        } else {
            0.85
        };
        t += preceding;
    }
    let rec = recording("PPG", fs, pulse_wave_of(fs, 180.0, &pulses, 0.02));

    let p = predict("synthetic", &rec);

    // The last three windows of the synthetic stretch happen to look like ectopy to the model.
    assert_af_between(&p, 60.0, 120.0, false);
    assert_eq!(f(&p, "duration_s"), 180.0);
    assert_eq!(f(&p, "window_s"), 10.0);
    assert_eq!(f(&p, "analysed_s") + f(&p, "noisy_s"), 180.0);
}

#[test]
fn a_short_ppg_is_not_read_whole() {
    let fs = 50.0;
    let pulses: Vec<(f64, f64)> = (0..70).map(|i| (0.4 + 0.85 * f64::from(i), 1.0)).collect();

    let p = predict(
        "one minute",
        &recording("PPG", fs, pulse_wave_of(fs, 60.0, &pulses, 0.02)),
    );

    assert_eq!(p.label, "normal");
    assert!(p.details.get("episodes").is_none());
    assert!(p.details.get("analysed_s").is_none());
}

#[test]
fn real_segments_with_a_minute_of_af_between_sinus_rhythm_give_one_af_episode() {
    // The patient of tests/ppg_rhythm.rs (sinus rhythm and a long AF episode); six 10-s segments
    // of sinus rhythm, six of AF, six more of sinus rhythm, each scaled 0..1 as published.
    let Some(segments) = liu_segments("MPA_190124211244.mat") else {
        return;
    };
    let of = |code: u8| {
        segments
            .iter()
            .filter(move |(c, _)| *c == code)
            .map(|(_, s)| s.iter().map(|v| v / 65535.0).collect::<Vec<f64>>())
    };
    let sinus: Vec<Vec<f64>> = of(0).take(12).collect();
    let af: Vec<Vec<f64>> = of(5).take(6).collect();
    assert_eq!((sinus.len(), af.len()), (12, 6));
    let samples: Vec<f64> = sinus[..6]
        .iter()
        .chain(&af)
        .chain(&sinus[6..])
        .flatten()
        .copied()
        .collect();

    let p = predict("liu2022 sinus-AF-sinus", &recording("PPG", 100.0, samples));

    assert_af_between(&p, 60.0, 120.0, true);
    assert_eq!(f(&p, "duration_s"), 180.0);
}

/// BIDMC record `n` (8 min of PLETH and ECG lead II at 125 Hz).
fn bidmc_record(n: usize) -> Option<Recording> {
    let path = cardio_testkit::dataset_file(&format!("bidmc/bidmc_csv/bidmc_{n:02}_Signals.csv"))?;
    let mut rec = cardio_formats::read_path(&path).unwrap();
    rec.sampling_rate_hz = rec.sampling_rate_hz.round();
    Some(rec)
}

/// The PPG prediction of BIDMC record `n`.
fn bidmc(n: usize) -> Option<Prediction> {
    Some(predict(&format!("bidmc {n:02}"), &bidmc_record(n)?))
}

/// The ECG model's reading of lead II of BIDMC record `n` (read whole).
fn bidmc_ecg_prediction(n: usize) -> Option<Prediction> {
    let mut rec = bidmc_record(n)?;
    rec.channels.retain(|c| c.name.trim() == "II");
    cardio_models::ecg_rhythm::model()
        .unwrap()
        .predict(&rec)
        .ok()
}

/// The ECG model's reading of lead II of BIDMC record `n` (read whole): `(label, AF burden)`.
fn bidmc_ecg(n: usize) -> Option<(String, f64)> {
    let p = bidmc_ecg_prediction(n)?;
    let burden = p
        .details
        .get("af_burden")
        .and_then(serde_json::Value::as_f64)?;
    Some((p.label, burden))
}

/// Seconds in episodes of `kind`.
fn seconds(p: &Prediction, kind: &str) -> f64 {
    // + 0.0: an empty sum is -0.
    episodes(p, kind).iter().map(|(a, b)| b - a).sum::<f64>() + 0.0
}

/// Records whose lead II the ECG model reads as normal sinus rhythm (the table of the card has
/// every record: 5 of the 27 that the ECG reads normal get a false AF episode from the pulse).
#[test]
fn bidmc_records_in_sinus_rhythm_are_analysed_whole_without_af() {
    for n in [1, 6, 7, 9, 42] {
        let Some(p) = bidmc(n) else {
            return;
        };
        let (duration, analysed, noisy) =
            (f(&p, "duration_s"), f(&p, "analysed_s"), f(&p, "noisy_s"));
        assert!((duration - 480.0).abs() < 0.1, "{duration}");
        assert!(
            analysed >= 0.9 * duration,
            "bidmc {n:02}: {analysed} of {duration}"
        );
        assert!((analysed + noisy - duration).abs() < 0.01);
        let noisy_episodes: f64 = episodes(&p, "noisy").iter().map(|(a, b)| b - a).sum();
        assert!(
            (noisy_episodes - noisy).abs() < 0.05,
            "{noisy_episodes} {noisy}"
        );
        assert_eq!(f(&p, "af_burden"), 0.0, "bidmc {n:02}");
        assert!(episodes(&p, "af").is_empty());
        assert_eq!(p.label, "normal", "bidmc {n:02}");
    }
}

/// The pulse's rate episodes are the ECG's: BIDMC 15 and 25 (ICU patients, tachycardic
/// throughout by lead II) are tachycardia from end to end by the pulse too, and BIDMC 01 has
/// none by either.
#[test]
fn a_long_pulse_record_gives_the_rate_episodes_of_its_ecg() {
    for (n, tachycardic) in [(15, true), (25, true), (1, false)] {
        let (Some(p), Some(ecg)) = (bidmc(n), bidmc_ecg_prediction(n)) else {
            return;
        };
        let (ppg_s, ecg_s) = (seconds(&p, "tachycardia"), seconds(&ecg, "tachycardia"));
        if tachycardic {
            assert!(ecg_s > 400.0, "bidmc {n:02}: ECG {ecg_s} s");
            assert!(
                ppg_s > 0.9 * ecg_s,
                "bidmc {n:02}: PPG {ppg_s} s, ECG {ecg_s} s"
            );
        } else {
            assert_eq!((ppg_s, ecg_s), (0.0, 0.0), "bidmc {n:02}");
        }
        assert_eq!(seconds(&p, "bradycardia"), 0.0, "bidmc {n:02}");
    }
}

#[test]
#[ignore = "prints the figures of every BIDMC record for the model card"]
fn bidmc_figures_of_every_record() {
    println!("record\tlabel\tanalysed_s\tnoisy_s\taf_burden\taf_windows\taf_episodes\tecg_II_label\tecg_II_af_burden\ttachy_s ppg/ecg\tbrady_s ppg/ecg");
    for n in 1..=53 {
        let Some(p) = bidmc(n) else {
            return;
        };
        let ecg = bidmc_ecg_prediction(n);
        let rate = |kind: &str| {
            format!(
                "{}/{}",
                seconds(&p, kind),
                ecg.as_ref().map_or(f64::NAN, |e| seconds(e, kind))
            )
        };
        println!(
            "{n:02}\t{}\t{}\t{}\t{}\t{}\t{}\t{:?}\t{}\t{}",
            p.label,
            f(&p, "analysed_s"),
            f(&p, "noisy_s"),
            f(&p, "af_burden"),
            p.details["af_windows"],
            episodes(&p, "af").len(),
            bidmc_ecg(n),
            rate("tachycardia"),
            rate("bradycardia")
        );
    }
}
