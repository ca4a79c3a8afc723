//! The 12-lead interpretation end to end: synthetic recordings with known intervals and axis,
//! degenerate inputs that must not panic, named LUDB records and the GE MUSE example.

use cardio_formats::{Channel, Recording};
use cardio_models::ecg12::{analyze, Category, Ecg12Error, Lead, Sex, UNCONFIRMED};

const FS: f64 = 500.0;

/// The measurement keys every reading gives (issue 39's list, with the other QTc formulas).
const MEASUREMENT_KEYS: [&str; 13] = [
    "heart_rate_bpm",
    "rr_ms",
    "p_ms",
    "pr_ms",
    "qrs_ms",
    "qt_ms",
    "qtc_bazett_ms",
    "qtc_fridericia_ms",
    "qtc_framingham_ms",
    "qtc_hodges_ms",
    "p_axis_deg",
    "qrs_axis_deg",
    "t_axis_deg",
];

fn gauss(t: f64, centre: f64, width: f64) -> f64 {
    (-(t - centre).powi(2) / (2.0 * width * width)).exp()
}

/// A sinus rhythm at `hr` bpm with PR `pr` s, QRS (Gaussian) and T waves, every wave projected on
/// each lead from a frontal-plane direction (`axis_deg` for the QRS, 50° for P and T); chest leads
/// positive.
fn synthetic(leads: &[Lead], hr: f64, pr: f64, axis_deg: f64, seconds: f64) -> Recording {
    let len = (seconds * FS) as usize;
    let rr = 60.0 / hr;
    let proj = |lead: Lead, deg: f64| match lead.frontal_angle() {
        Some(a) => (a - deg).to_radians().cos(),
        None => 0.8,
    };
    let channels = leads
        .iter()
        .map(|&lead| {
            let samples = (0..len)
                .map(|i| {
                    let t = i as f64 / FS;
                    let k = (t / rr).round();
                    let r = k * rr + 0.35;
                    let mut v = 0.0;
                    for dk in [-1.0, 0.0, 1.0] {
                        let r = r + dk * rr;
                        v += 0.15 * proj(lead, 50.0) * gauss(t, r - pr + 0.01, 0.02);
                        v += 1.5 * proj(lead, axis_deg) * gauss(t, r, 0.012);
                        v += 0.35 * proj(lead, 50.0) * gauss(t, r + 0.28, 0.045);
                    }
                    v + 0.02 * (7.0 * t).sin()
                })
                .collect();
            Channel {
                name: lead.name().to_ascii_lowercase(),
                unit: "mV".into(),
                samples,
            }
        })
        .collect();
    Recording {
        channels,
        sampling_rate_hz: FS,
        start: None,
        metadata: std::collections::BTreeMap::default(),
        device_interpretation: None,
    }
}

#[test]
fn a_synthetic_sinus_rhythm_is_measured_and_unconfirmed() {
    // Arrange: 75 bpm, PR 160 ms, QRS axis 60°.
    let rec = synthetic(&Lead::ALL, 75.0, 0.16, 60.0, 10.0);
    // Act
    let e = analyze(&rec, Some(Sex::Male)).unwrap();
    // Assert
    let m = &e.measurements;
    assert_eq!(e.status, UNCONFIRMED);
    assert_eq!(e.leads_used.len(), 12);
    assert!((m.heart_rate_bpm.unwrap() - 75.0).abs() < 2.0, "{m:?}");
    assert!((m.qrs_axis_deg.unwrap() - 60.0).abs() < 15.0, "{m:?}");
    let pr = m.pr_ms.unwrap();
    assert!((120.0..220.0).contains(&pr), "PR {pr}");
    assert!(e.has("sinus_rhythm"), "{:?}", e.statements);
    assert!(m.qtc_bazett_ms.is_some() && m.qtc_fridericia_ms.is_some());
    assert!(m.qtc_framingham_ms.is_some() && m.qtc_hodges_ms.is_some());
    assert_eq!(m.qtc_shown, "bazett");
    assert!(e.beats.used.len() >= 10);
    let json = serde_json::to_value(&e).unwrap();
    for key in MEASUREMENT_KEYS {
        assert!(json.get(key).is_some(), "{key}");
    }
    let first = &json["statements"][0];
    for key in ["code", "text", "criterion", "values"] {
        assert!(first.get(key).is_some(), "{key}");
    }
}

#[test]
fn every_beat_of_the_rhythm_has_its_global_fiducials_in_order_in_seconds() {
    // Arrange: 75 bpm (RR 0.8 s, R peaks at 0.35 + 0.8 k), PR 160 ms.
    let rec = synthetic(&Lead::ALL, 75.0, 0.16, 60.0, 10.0);
    // Act
    let e = analyze(&rec, None).unwrap();
    // Assert: one entry per beat found across the leads, R near its synthetic place.
    assert_eq!(e.global_beats.len(), e.beats.found.len());
    assert!(e.global_beats.len() >= 11, "{:?}", e.global_beats);
    for g in &e.global_beats {
        let k = ((g.r_s - 0.35) / 0.8).round();
        assert!((g.r_s - (0.35 + 0.8 * k)).abs() < 0.02, "{g:?}");
        let (Some(q_on), Some(q_off)) = (g.qrs_on, g.qrs_off) else {
            panic!("no QRS bounds: {g:?}")
        };
        assert!(q_on < g.r_s && g.r_s < q_off, "{g:?}");
        assert!((0.04..0.2).contains(&(q_off - q_on)), "{g:?}");
        if let (Some(p), Some(t)) = (g.p_on, g.t_off) {
            assert!(p < q_on && q_off < t, "{g:?}");
        }
    }
}

#[test]
fn a_left_axis_of_minus_60_is_read_as_left_axis_deviation() {
    let rec = synthetic(&Lead::ALL, 70.0, 0.16, -60.0, 10.0);
    let e = analyze(&rec, None).unwrap();
    let axis = e.measurements.qrs_axis_deg.unwrap();
    assert!((axis + 60.0).abs() < 15.0, "axis {axis}");
    assert!(e.has("left_axis_deviation"), "{:?}", e.statements);
}

#[test]
fn one_lead_is_measured_without_an_axis_and_says_so() {
    let rec = synthetic(&[Lead::I], 60.0, 0.16, 30.0, 10.0);
    let e = analyze(&rec, None).unwrap();
    assert_eq!(e.leads_used, ["I"]);
    assert_eq!(e.leads_missing.len(), 11);
    assert!(e.measurements.heart_rate_bpm.is_some());
    assert!(e.measurements.qrs_axis_deg.is_none());
    assert!(e.not_measured.iter().any(|s| s.starts_with("qrs_axis_deg")));
    assert!(e
        .not_measured
        .iter()
        .any(|s| s.starts_with("sokolow_lyon_mv")));
}

#[test]
fn six_limb_leads_give_the_axis_but_no_chest_voltages() {
    let limb = [
        Lead::I,
        Lead::II,
        Lead::III,
        Lead::AVR,
        Lead::AVL,
        Lead::AVF,
    ];
    let rec = synthetic(&limb, 80.0, 0.16, 30.0, 10.0);
    let e = analyze(&rec, None).unwrap();
    assert!((e.measurements.qrs_axis_deg.unwrap() - 30.0).abs() < 15.0);
    assert!(e.measurements.sokolow_lyon_mv.is_none());
    assert!(e.measurements.cornell_mv.is_none());
}

#[test]
fn printed_leads_with_nan_spans_flat_and_short_records_never_panic() {
    // Leads printed 2.5 s each (NaN elsewhere), as a PDF page gives them.
    let mut rec = synthetic(&Lead::ALL, 70.0, 0.16, 45.0, 10.0);
    for (i, ch) in rec.channels.iter_mut().enumerate() {
        let start = (i % 4) * 1250;
        for (j, v) in ch.samples.iter_mut().enumerate() {
            if !(start..start + 1250).contains(&j) {
                *v = f64::NAN;
            }
        }
    }
    let e = analyze(&rec, None).unwrap();
    assert!(e.measurements.heart_rate_bpm.is_some());
    // Flat, short, nameless and NaN-only recordings are typed errors.
    let flat = Recording {
        channels: vec![Channel {
            name: "II".into(),
            unit: "mV".into(),
            samples: vec![0.0; 5000],
        }],
        ..rec.clone()
    };
    assert!(matches!(
        analyze(&flat, None),
        Err(Ecg12Error::TooShort { .. })
    ));
    let short = synthetic(&Lead::ALL, 70.0, 0.16, 45.0, 0.4);
    assert!(analyze(&short, None).is_err());
    let nan = Recording {
        channels: vec![Channel {
            name: "V1".into(),
            unit: "mV".into(),
            samples: vec![f64::NAN; 5000],
        }],
        ..rec.clone()
    };
    assert!(analyze(&nan, None).is_err());
    let other = Recording {
        channels: vec![Channel {
            name: "PLETH".into(),
            unit: String::new(),
            samples: vec![0.0; 5000],
        }],
        ..rec
    };
    assert!(matches!(analyze(&other, None), Err(Ecg12Error::NoLeads)));
}

fn ludb(record: u32) -> Option<cardio_models::ecg12::Ecg12> {
    let path = cardio_testkit::dataset_file(&format!("ludb/data/{record}.hea"))?;
    let rec = cardio_formats::read_path(&path).unwrap();
    Some(analyze(&rec, None).unwrap())
}

#[test]
fn ludb_record_1_is_sinus_bradycardia() {
    // ludb.csv: sinus bradycardia, left axis deviation (LUDB's: below 0°), LVH. Ours: the rhythm
    // and rate; the axis (+18°) and the voltages (Sokolow-Lyon 1.6 mV) are read otherwise.
    let Some(e) = ludb(1) else { return };
    assert!(e.has("sinus_bradycardia"), "{:?}", e.statements);
    assert!(e.measurements.heart_rate_bpm.unwrap() < 60.0);
    assert!(!e.has("atrial_fibrillation"));
}

#[test]
fn ludb_named_records_fire_their_diagnoses() {
    // ludb.csv: 13 1st-degree AV block; 23 complete RBBB; 44 atrial fibrillation; 8 paced; 52
    // typical atrial flutter (4:1).
    for (record, code) in [
        (13, "first_degree_av_block"),
        (23, "rbbb"),
        (44, "atrial_fibrillation"),
        (8, "paced_rhythm"),
        (52, "atrial_flutter"),
    ] {
        let Some(e) = ludb(record) else { return };
        assert!(e.has(code), "record {record}: {:?}", e.statements);
        assert_eq!(e.category, Some(Category::Abnormal), "record {record}");
    }
}

#[test]
fn the_muse_example_pr_is_within_10_ms_of_the_carts_330() {
    let Some(path) = cardio_testkit::dataset_file("ecg_documents/ge-muse-example.xml") else {
        return;
    };
    let rec = cardio_formats::read_path(&path).unwrap();
    let e = analyze(&rec, None).unwrap();
    let pr = e.measurements.pr_ms.unwrap();
    assert!((pr - 330.0).abs() <= 10.0, "PR {pr}");
    let hr = e.measurements.heart_rate_bpm.unwrap();
    assert!((hr - 56.0).abs() <= 2.0, "rate {hr}");
}

/// The ECG result of a recording: the rhythm model and the 12-lead reading as one decision,
/// checked against the consistency rule of every result.
fn predict(
    rec: &Recording,
) -> Result<cardio_models::prediction::Prediction, cardio_models::prediction::PredictError> {
    let p = cardio_models::ecg_rhythm::model().unwrap().predict(rec)?;
    cardio_models::consistency::check(cardio_models::Modality::Ecg, "ecg", &p).unwrap();
    Ok(p)
}

/// `synthetic` with a little white noise (±0.002 mV, seeded), as an amplifier records it: the
/// plausibility gate refuses a noiseless signal as held at its limits.
fn recorded(leads: &[Lead], hr: f64, seconds: f64) -> Recording {
    with_noise(synthetic(leads, hr, 0.16, 60.0, seconds))
}

fn with_noise(mut rec: Recording) -> Recording {
    let mut state = 0x2545_f491_u64;
    for ch in &mut rec.channels {
        for v in &mut ch.samples {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            *v += 0.004 * ((state >> 11) as f64 / (1u64 << 53) as f64 - 0.5);
        }
    }
    rec
}

fn codes(p: &cardio_models::prediction::Prediction) -> Vec<String> {
    p.details["statements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["code"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn a_twelve_lead_sinus_rhythm_is_decided_by_its_statements_with_the_measurement_keys() {
    let rec = recorded(&Lead::ALL, 75.0, 12.0);
    let p = predict(&rec).unwrap();
    assert_eq!(p.details["rhythm_decision"], "twelve_lead_statements");
    assert_eq!(p.label, "normal", "{:?}", codes(&p));
    assert!(codes(&p).contains(&"sinus_rhythm".to_owned()));
    let m = p.details["measurements"].as_object().unwrap();
    for key in MEASUREMENT_KEYS {
        assert!(m.contains_key(key), "no {key}");
    }
    assert!(
        (m["pr_ms"].as_f64().unwrap() - 160.0).abs() <= 20.0,
        "{m:?}"
    );
    assert_eq!(
        p.details["interpretation_status"],
        "computer interpretation, unconfirmed"
    );
    // The model's own probabilities are kept beside the decision's.
    assert!(p.details["rhythm_model_probabilities"].is_object());
    let s = &p.details["statements"][0];
    for key in ["code", "text", "criterion", "values"] {
        assert!(s.get(key).is_some(), "statement without {key}: {s}");
    }
}

#[test]
fn one_lead_keeps_the_models_rhythm_and_gives_measurements_without_statements() {
    let rec = recorded(&[Lead::II], 75.0, 12.0);
    let p = predict(&rec).unwrap();
    assert_eq!(p.details["rhythm_decision"], "single_lead_model");
    assert!(p.details["probabilities"].is_object());
    assert!(p.details.get("rhythm_model_probabilities").is_none());
    assert!(codes(&p).is_empty());
    assert!(p.details["measurements"]["pr_ms"].is_number());
    let notes = p.details["not_measured"].as_array().unwrap();
    assert!(
        notes.iter().any(|n| n
            == "interpretation statements: need at least 3 leads; the rhythm is the single-lead model's"),
        "{notes:?}"
    );
}

#[test]
fn a_five_second_twelve_lead_page_is_read_while_one_lead_of_it_is_refused() {
    // A cart's page holds 5 s per lead: too short for the rhythm model (9 s), read by the 12 leads.
    let rec = recorded(&Lead::ALL, 75.0, 5.0);
    let p = predict(&rec).unwrap();
    assert_eq!(p.details["model"]["id"], "ecg12-rules");
    assert_eq!(p.label, "normal");
    assert_eq!(
        p.details["rhythm_model_note"],
        "Recording too short: 5.0 s; at least 9 s is needed."
    );
    assert!(p.details["heart_rate_bpm"].as_f64().is_some());
    let one = recorded(&[Lead::II], 75.0, 5.0);
    let err = predict(&one).unwrap_err();
    assert_eq!(
        err.to_string(),
        "Recording too short: 5.0 s; at least 9 s is needed."
    );
}

#[test]
fn ludb_af_and_bradycardia_are_one_decision_with_their_statements() {
    let read = |record: u32| {
        let path = cardio_testkit::dataset_file(&format!("ludb/data/{record}.hea"))?;
        Some(cardio_formats::read_path(&path).unwrap())
    };
    // ludb.csv: 44 atrial fibrillation; 1 sinus bradycardia (the single-lead model alone calls it
    // "other rhythm abnormality", 0.97).
    let Some(af) = read(44) else { return };
    let p = predict(&af).unwrap();
    assert_eq!(p.label, "af");
    assert!(codes(&p).contains(&"atrial_fibrillation".to_owned()));
    assert_eq!(p.advice[0].code, "ecg.af_12lead_1");
    let Some(brady) = read(1) else { return };
    let p = predict(&brady).unwrap();
    assert_eq!(p.label, "normal", "{:?}", codes(&p));
    assert!(codes(&p).contains(&"sinus_bradycardia".to_owned()));
}

#[test]
fn the_patients_sex_selects_the_cornell_limit_of_the_reading() {
    // QRS axis -30°: R in aVL 1.5 mV, made 2.4 mV: Cornell (RaVL + SV3) 2.4 mV lies between the
    // women's limit (2.0 mV) and the men's and unknown sex's (2.8 mV).
    let mut rec = with_noise(synthetic(&Lead::ALL, 75.0, 0.16, -30.0, 12.0));
    for ch in rec.channels.iter_mut().filter(|c| c.name == "avl") {
        ch.samples.iter_mut().for_each(|v| *v *= 1.6);
    }
    let model = cardio_models::ecg_rhythm::model().unwrap();
    let codes_for = |sex| {
        let p = model.predict_for(&rec, sex).unwrap();
        cardio_models::consistency::check(cardio_models::Modality::Ecg, "ecg", &p).unwrap();
        codes(&p)
    };
    assert!(codes_for(Some(Sex::Female)).contains(&"lvh_voltage".to_owned()));
    assert!(!codes_for(None).contains(&"lvh_voltage".to_owned()));
    assert!(!codes_for(Some(Sex::Male)).contains(&"lvh_voltage".to_owned()));
}
