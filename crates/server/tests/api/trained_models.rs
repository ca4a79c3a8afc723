//! The trained models behind the prediction endpoints, through the API: their public figures, and
//! what each answers for real and synthetic recordings (heart sounds, a WFDB ECG, a fingertip pulse)
//! and for signals that are not a heart.

use std::fmt::Write as _;

use axum::http::StatusCode;
use cardio_server::recordings::registry::ModelRegistry;
use serde_json::json;

use crate::helpers::{Part, TestApp};
use crate::predict::{
    echo_models, realistic_pulse_values, spiky_ecg_csv, wav, wav_from_samples, wav_with,
};

crate::backend_tests!(
    the_models_and_their_validated_figures_are_public,
    the_heart_sound_model_answers_with_its_reasons,
    the_ecg_model_reads_a_wfdb_upload_and_refuses_short_ones,
    every_ecg_document_a_clinic_brings_is_read_through_the_upload,
    the_ppg_model_measures_a_fingertip_pulse_file,
    a_wrist_device_with_an_accelerometer_gets_the_motion_compensated_rate,
    signals_that_are_not_a_heart_are_refused_by_every_upload,
);

pub async fn the_models_and_their_validated_figures_are_public(mut app: TestApp) {
    let response = app.get("/api/models").await;
    assert_eq!(response.status, StatusCode::OK);
    let models = response.json();
    let clinical = &models[0];
    let params = cardio_models::clinical::params().unwrap();
    assert_eq!(clinical["modality"], "clinical");
    assert_eq!(clinical["id"], "clinical-lr");
    assert_eq!(clinical["metrics"][0]["code"], "cv_auroc");
    assert!(
        (clinical["metrics"][0]["value"].as_f64().unwrap() - params.validation.cv_auroc).abs()
            < 1e-12
    );
    assert_eq!(clinical["metrics"][0]["target"], json!(0.9));

    // A model that failed to load is not listed.
    let config = app.config.clone();
    app.rebuild(
        config,
        ModelRegistry {
            clinical: Err("broken".into()),
            ..echo_models()
        },
    );
    let models = app.get("/api/models").await.json();
    let modalities: Vec<&str> = models
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["modality"].as_str().unwrap())
        .collect();
    assert_eq!(modalities, ["echo", "echo", "echo"]);
}

/// The ECG documents clinics bring (`ecg_documents`: cart and app PDFs, GE MUSE XML, DICOM, the
/// Apple Health export with either decimal style, the Kardia EDFs): each is read through the
/// upload with its leads and analysed: a multi-lead record's rhythm is the 12-lead statements',
/// with the measurements and statements in `details`; the 5-s CardioSoft print, too short for the
/// rhythm model (9 s), is read by its 12 leads alone.
pub async fn every_ecg_document_a_clinic_brings_is_read_through_the_upload(mut app: TestApp) {
    app.signed_in_doctor().await;
    // The file, its media type, and the lead the rhythm model reads (lead II where there is one).
    let cases = [
        ("kardiamobile-1l-ecg.pdf", Some("application/pdf"), "I"),
        ("kardiamobile-6l-ecg.pdf", Some("application/pdf"), "II"),
        ("ge-muse-fictitious.pdf", Some("application/pdf"), "II"),
        ("ge-muse-example.xml", Some("application/xml"), "II"),
        ("dicom-waveform-ecg.dcm", Some("application/dicom"), "II"),
        ("apple-health-ecg-en.csv", Some("text/csv"), "I"),
        ("apple-health-ecg-pt.csv", Some("text/csv"), "I"),
        ("kardiamobile-1l-ecg.edf", None, "EKG I"),
        // Its lead I is noisy (no rate): the clean lead II is read.
        ("kardiamobile-6l-ecg.edf", None, "EKG II"),
    ];
    for (name, media, lead) in cases {
        let Some(path) = cardio_testkit::dataset_file(&format!("ecg_documents/{name}")) else {
            return;
        };
        let bytes = std::fs::read(&path).unwrap();
        let response = app
            .upload("/api/predict/ecg/upload", &[Part::file(name, media, bytes)])
            .await;
        assert_eq!(response.status, StatusCode::OK, "{name}: {}", response.text);
        let body = response.json();
        assert_eq!(body["model"], "ECG", "{name}");
        assert_eq!(body["details"]["channel"], lead, "{name}");
        assert!(
            body["details"]["heart_rate_bpm"].is_number(),
            "{name}: {body}"
        );
        assert!(
            body["details"]["duration_s"].as_f64().unwrap() >= 9.9,
            "{name}: {body}"
        );
        assert!(
            ["normal", "af", "other", "noisy"].contains(&body["label"].as_str().unwrap()),
            "{name}: {body}"
        );
        let leads = body["details"]["leads_used"].as_array().unwrap().len();
        let decision = if leads >= 3 {
            "twelve_lead_statements"
        } else {
            "single_lead_model"
        };
        assert_eq!(body["details"]["rhythm_decision"], decision, "{name}");
        assert!(
            body["details"]["measurements"]["qrs_ms"].is_number(),
            "{name}: {body}"
        );
        assert_eq!(
            body["details"]["statements"].as_array().unwrap().is_empty(),
            leads < 3,
            "{name}: {body}"
        );
    }
    let Some(path) = cardio_testkit::dataset_file("ecg_documents/cardiosoft-testmann.pdf") else {
        return;
    };
    let response = app
        .upload(
            "/api/predict/ecg/upload",
            &[Part::file(
                "cardiosoft-testmann.pdf",
                Some("application/pdf"),
                std::fs::read(path).unwrap(),
            )],
        )
        .await;
    assert_eq!(response.status, StatusCode::OK, "{}", response.text);
    let body = response.json();
    assert_eq!(body["details"]["model"]["id"], "ecg12-rules");
    assert_eq!(
        body["details"]["rhythm_model_note"],
        "Recording too short: 5.0 s; at least 9 s is needed."
    );
    // The cart printed 75 bpm, QRS 100 ms (SOURCE.md): the tolerances.
    let m = &body["details"]["measurements"];
    assert!(
        (m["heart_rate_bpm"].as_f64().unwrap() - 75.0).abs() <= 2.0,
        "{m}"
    );
    assert!((m["qrs_ms"].as_f64().unwrap() - 100.0).abs() <= 10.0, "{m}");
    assert_eq!(body["details"]["leads_used"].as_array().unwrap().len(), 12);
    // The cart's own reading stays apart, unconfirmed.
    assert!(body["device_interpretation"].is_object(), "{body}");
    let list = app.get("/api/analyses?type=ecg").await.json();
    assert_eq!(list.as_array().unwrap().len(), 10);
}

/// A real CinC 2016 recording, when the datasets are unpacked.
fn cinc2016_record(name: &str) -> Option<Vec<u8>> {
    let path = cardio_testkit::dataset_file(&format!("cinc2016/training-a/{name}"))?;
    Some(std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
}

pub async fn the_heart_sound_model_answers_with_its_reasons(mut app: TestApp) {
    app.signed_in_doctor().await;
    let cases = [
        (
            wav(1.5, 4000),
            "Recording too short: 1.5 s; at least 2 s is needed.",
        ),
        (
            wav(8.0, 800),
            "Sampling rate too low: 800 Hz; heart-sound analysis needs at least 1000 Hz.",
        ),
        (
            wav_with(8.0, 4000, 0.0),
            "The recording is silent (a flat line): no heart sounds to analyse.",
        ),
    ];
    for (bytes, message) in cases {
        let response = app
            .upload(
                "/api/predict/pcg/upload",
                &[Part::file("heart.wav", Some("audio/wav"), bytes)],
            )
            .await;
        assert_eq!(
            response.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{message}"
        );
        assert_eq!(response.detail(), message);
    }
    let Some(bytes) = cinc2016_record("a0001.wav") else {
        return;
    };
    let response = app
        .upload(
            "/api/predict/pcg/upload",
            &[Part::file("a0001.wav", Some("audio/wav"), bytes)],
        )
        .await;
    assert_eq!(response.status, StatusCode::OK, "{}", response.text);
    let body = response.json();
    assert_eq!(body["model"], "PCG");
    assert!(
        ["normal", "abnormal", "unsure"].contains(&body["label"].as_str().unwrap()),
        "{body}"
    );
    assert_eq!(body["details"]["model"]["id"], "pcg-gbdt");
    let p_abnormal = body["details"]["probabilities"]["abnormal"]
        .as_f64()
        .unwrap();
    assert!((body["risk_score"].as_f64().unwrap() - p_abnormal).abs() < 1e-12);
    assert_eq!(
        body["recommendations"].as_array().unwrap().last().unwrap(),
        "This is a screening estimate from a statistical model, not a diagnosis; it does not replace clinical judgement."
    );
    let list = app.get("/api/analyses?type=pcg").await.json();
    assert_eq!(list[0]["modelId"], "pcg-gbdt");
}

pub async fn the_ecg_model_reads_a_wfdb_upload_and_refuses_short_ones(mut app: TestApp) {
    app.signed_in_doctor().await;
    let response = app
        .upload(
            "/api/predict/ecg/upload",
            &[Part::file(
                "short.csv",
                Some("text/csv"),
                spiky_ecg_csv(4.0, 0.8),
            )],
        )
        .await;
    assert_eq!(response.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        response.detail(),
        "Recording too short: 4.0 s; at least 9 s is needed."
    );

    let Some(root) = cardio_testkit::datasets(&[
        "cinc2017/training2017/A00004.hea",
        "cinc2017/training2017/A00004.mat",
    ]) else {
        return;
    };
    let dir = root.join("cinc2017/training2017");
    let header = std::fs::read(dir.join("A00004.hea")).unwrap();
    let signal = std::fs::read(dir.join("A00004.mat")).unwrap();
    // A00004 is labelled AF in the challenge's reference.
    let response = app
        .upload(
            "/api/predict/ecg/upload",
            &[
                Part::file("A00004.hea", None, header),
                Part::file("A00004.mat", None, signal),
            ],
        )
        .await;
    assert_eq!(response.status, StatusCode::OK, "{}", response.text);
    let body = response.json();
    assert_eq!(body["model"], "ECG");
    assert_eq!(body["label"], "af");
    assert_eq!(body["prediction"], "Atrial fibrillation suspected");
    assert_eq!(body["details"]["model"]["id"], "ecg-rhythm-gbdt");
    assert_eq!(body["details"]["sampling_rate_hz"], json!(300.0));
    let probabilities = &body["details"]["probabilities"];
    let abnormal = probabilities["af"].as_f64().unwrap() + probabilities["other"].as_f64().unwrap();
    assert!((body["risk_score"].as_f64().unwrap() - abnormal).abs() < 1e-12);
    let list = app.get("/api/analyses?type=ecg").await.json();
    assert_eq!(list[0]["fileName"], "A00004.hea");
    assert_eq!(list[0]["result"]["label"], "af");
}

pub async fn the_ppg_model_measures_a_fingertip_pulse_file(mut app: TestApp) {
    app.signed_in_doctor().await;
    // 12 s of a 100 Hz pulse at 75 bpm as a bare list of values, with its rate in the form.
    let values = realistic_pulse_values(12.0, 100.0);
    let response = app
        .upload(
            "/api/predict/ppg/upload",
            &[
                Part::file("finger.txt", Some("text/plain"), values.into_bytes()),
                Part::text("sampling_rate", "100"),
            ],
        )
        .await;
    assert_eq!(response.status, StatusCode::OK, "{}", response.text);
    let body = response.json();
    assert_eq!(body["model"], "PPG");
    assert_eq!(body["label"], "normal", "{body}");
    assert_eq!(body["details"]["model"]["id"], "ppg-rhythm-gbdt");
    let hr = body["details"]["heart_rate_bpm"].as_f64().unwrap();
    assert!((hr - 75.0).abs() < 1.0, "{hr}");

    let response = app
        .upload(
            "/api/predict/ppg/upload",
            &[
                Part::file(
                    "flat.txt",
                    Some("text/plain"),
                    "0.5\n".repeat(1000).into_bytes(),
                ),
                Part::text("sampling_rate", "100"),
            ],
        )
        .await;
    assert_eq!(response.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        response.detail(),
        "The pulse (PPG) recording holds nothing but one value (0.5): there is no signal to analyse."
    );
}

/// 40 s of a wrist device at 50 Hz: a pulse at 90 bpm under an arm swing at 150 /min as strong as
/// the pulse's fundamental, with the swing in the accelerometer columns.
fn wrist_csv() -> Vec<u8> {
    let fs = 50.0;
    let tau = 2.0 * std::f64::consts::PI;
    let mut text = String::from("time_s,ppg,acc_x,acc_y,acc_z\n");
    for i in 0..(fs as usize * 40) {
        let t = i as f64 / fs;
        let phase = (t * 1.5).fract();
        let pulse =
            (-(phase - 0.3).powi(2) / 0.01).exp() + 0.3 * (-(phase - 0.6).powi(2) / 0.02).exp();
        let swing = (tau * 2.5 * t).sin();
        let _ = writeln!(
            text,
            "{t:.3},{:.5},{swing:.5},{:.5},0.98",
            pulse + 0.4 * swing,
            0.3 * (tau * 2.5 * t).cos()
        );
    }
    text.into_bytes()
}

pub async fn a_wrist_device_with_an_accelerometer_gets_the_motion_compensated_rate(
    mut app: TestApp,
) {
    app.signed_in_doctor().await;
    let device = app
        .post("/api/devices", json!({"name": "Wrist band", "type": "PPG"}))
        .await;
    assert_eq!(device.status, StatusCode::CREATED, "{}", device.text);
    let bearer = format!("Bearer {}", device.json()["token"].as_str().unwrap());
    let cookie = app.cookie.take();

    let response = app
        .upload_with(
            "/api/devices/recordings",
            &[Part::file("wrist.csv", Some("text/csv"), wrist_csv())],
            &[("authorization", bearer.as_str())],
        )
        .await;

    app.cookie = cookie;
    assert_eq!(response.status, StatusCode::CREATED, "{}", response.text);
    let details = &response.json()["analysis"]["result"]["details"];
    assert_eq!(details["channel"], "ppg");
    assert_eq!(
        details["heart_rate_source"],
        "motion-compensated (accelerometer)"
    );
    assert_eq!(
        details["accel_channels"],
        json!(["acc_x", "acc_y", "acc_z"])
    );
    let hr = details["heart_rate_bpm"].as_f64().unwrap();
    assert!((hr - 90.0).abs() <= 1.0, "{details}");
}

/// The samples as a CSV with a time column (the channel named `name`).
fn csv_of(name: &str, samples: &[f64], rate: f64) -> Vec<u8> {
    let mut text = format!("time,{name}\n");
    for (i, v) in samples.iter().enumerate() {
        let _ = writeln!(text, "{:.4},{v}", i as f64 / rate);
    }
    text.into_bytes()
}

pub async fn signals_that_are_not_a_heart_are_refused_by_every_upload(mut app: TestApp) {
    use cardio_models::gate::{nonheart, GateModality};
    app.signed_in_doctor().await;
    // Seeded signals of every kind (seeds the committed gates were not trained on), a few per
    // modality: each is stored as a noisy/unsure result with the gate's reason, never a finding.
    for (modality, path, refused) in [
        (GateModality::Ecg, "/api/predict/ecg/upload", "noisy"),
        (GateModality::Pcg, "/api/predict/pcg/upload", "unsure"),
        (GateModality::Ppg, "/api/predict/ppg/upload", "noisy"),
    ] {
        for (i, kind) in nonheart::KINDS.iter().enumerate().step_by(3) {
            let g = nonheart::generate(*kind, modality, 7_000 + i as u64);
            let part = if modality == GateModality::Pcg {
                let peak = g.samples.iter().fold(0.0_f64, |m, v| m.max(v.abs()));
                let pcm: Vec<i16> = g
                    .samples
                    .iter()
                    .map(|v| (v / peak * 20_000.0) as i16)
                    .collect();
                Part::file(
                    "sound.wav",
                    Some("audio/wav"),
                    wav_from_samples(&pcm, g.fs_hz as u32),
                )
            } else {
                let name = if modality == GateModality::Ecg {
                    "II"
                } else {
                    "PLETH"
                };
                Part::file(
                    "signal.csv",
                    Some("text/csv"),
                    csv_of(name, &g.samples, g.fs_hz),
                )
            };
            let response = app.upload(path, &[part]).await;
            let what = format!("{path} {}", kind.name());
            if response.status == StatusCode::UNPROCESSABLE_ENTITY {
                continue;
            }
            assert_eq!(response.status, StatusCode::OK, "{what}: {}", response.text);
            let body = response.json();
            assert_eq!(body["label"], refused, "{what}: {body}");
            assert_eq!(body["details"]["quality_usable"], false, "{what}");
            assert!(body["details"]["heart_rate_bpm"].is_null(), "{what}");
        }
    }
    // The example: +-1e6 alternating at 500 Hz, values only, with the rate in the form.
    let values: String = (0..10_000)
        .map(|i| {
            if i % 2 == 0 {
                "1000000\n"
            } else {
                "-1000000\n"
            }
        })
        .collect();
    let response = app
        .upload(
            "/api/predict/ecg/upload",
            &[
                Part::file("alternating.txt", Some("text/plain"), values.into_bytes()),
                Part::text("sampling_rate", "500"),
            ],
        )
        .await;
    assert_eq!(response.status, StatusCode::OK, "{}", response.text);
    let body = response.json();
    assert_eq!(body["label"], "noisy");
    assert!(body["details"]["heart_rate_bpm"].is_null(), "{body}");
    // Bare numbers have no unit, so their amplitude is not judged; the beats are.
    assert_eq!(
        body["details"]["quality"],
        "too noisy: no repeating beat pattern: fewer than 3 QRS complexes were found",
        "{body}"
    );
    // The same values in a column declared in millivolts: far beyond an ECG.
    let alternating: Vec<f64> = (0..10_000)
        .map(|i| if i % 2 == 0 { 1e6 } else { -1e6 })
        .collect();
    let response = app
        .upload(
            "/api/predict/ecg/upload",
            &[Part::file(
                "alternating.csv",
                Some("text/csv"),
                csv_of("II (mV)", &alternating, 500.0),
            )],
        )
        .await;
    assert_eq!(response.status, StatusCode::OK, "{}", response.text);
    let body = response.json();
    assert_eq!(body["label"], "noisy");
    assert!(
        body["details"]["quality"].as_str().unwrap().contains(
            "mV peak to peak is far beyond an ECG's (at most 30 mV): check the units or the gain"
        ),
        "{body}"
    );
    // A WFDB header whose gain is not a number: the reader refuses it.
    let signal: Vec<u8> = (0..6000_i16)
        .flat_map(|v| (v % 100).to_le_bytes())
        .collect();
    let response = app
        .upload(
            "/api/predict/ecg/upload",
            &[
                Part::file(
                    "r.hea",
                    None,
                    b"r 1 500 6000\nr.dat 16 nan 16 0 0 0 0 II\n".to_vec(),
                ),
                Part::file("r.dat", None, signal),
            ],
        )
        .await;
    assert_eq!(response.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        response
            .detail()
            .contains("the ADC gain must be a finite number"),
        "{}",
        response.detail()
    );
}
