//! The prediction endpoints: statuses, messages, storage of every result as the doctor's own
//! analysis, the blob store, and the audit trail. The upload pipeline (multipart, file rules,
//! reading, storage) is checked with a model that echoes what it was given, so that these tests
//! do not depend on what a trained model answers; the trained models have tests of their own.

use crate::helpers::{clinical_form, merge, patient_form, tick, Part, TestApp};
use axum::http::StatusCode;
use cardio_formats::Recording;
use cardio_models::prediction::{PredictError, Prediction};
use cardio_server::{
    platform::blobs::BlobStore,
    platform::config::Config,
    recordings::registry::{ModelRegistry, ModelSummary, SignalModel},
};
use serde_json::{json, Value};
use std::{
    fmt::Write as _,
    sync::{Arc, Mutex},
    time::Duration,
};

crate::backend_tests!(
    a_clinical_prediction_is_returned_stored_and_audited,
    a_clinical_prediction_uses_every_optional_value_given,
    clinical_values_out_of_range_or_missing_are_422,
    predictions_need_a_signed_in_user,
    a_patient_account_does_not_run_the_models,
    an_unloaded_model_answers_503_with_the_spec_text,
    a_recording_is_read_predicted_and_stored_with_its_file,
    wrong_file_types_are_415_with_the_spec_texts,
    missing_empty_or_unreadable_files_are_422,
    uploads_over_the_limit_are_413,
    an_unusable_recording_is_422_with_the_models_reason,
    analyses_are_filtered_and_belong_to_their_doctor_only,
    a_wfdb_header_with_its_signal_file_is_read_as_one_record,
    the_dashboard_counts_todays_tests_and_those_needing_review,
    inference_runs_off_the_async_executor,
    an_ecg_devices_own_interpretation_is_returned_and_stored_beside_the_result,
);

/// Answers with what it read: rate, sample count and channel names.
struct EchoModel;

impl SignalModel for EchoModel {
    fn predict(&self, recording: &Recording) -> Result<Prediction, PredictError> {
        let seconds = recording.duration_seconds();
        if seconds < 2.0 {
            return Err(PredictError::Unusable(format!(
                "Recording too short: {seconds:.1} s; at least 2 s is needed."
            )));
        }
        let mut details = serde_json::Map::new();
        details.insert(
            "model".into(),
            json!({"id": "echo", "version": "0.0.1", "metric": "none", "value": 0.0}),
        );
        details.insert("sampling_rate_hz".into(), json!(recording.sampling_rate_hz));
        details.insert(
            "samples".into(),
            json!(recording.channels.first().map_or(0, |c| c.samples.len())),
        );
        details.insert(
            "channels".into(),
            json!(recording
                .channels
                .iter()
                .map(|c| c.name.clone())
                .collect::<Vec<_>>()),
        );
        // A channel named "noisy" gets the label a model gives a recording it cannot judge.
        let noisy = recording
            .channels
            .first()
            .is_some_and(|c| c.name == "noisy");
        Ok(Prediction {
            label: if noisy { "noisy" } else { "normal" }.into(),
            prediction: "Echo".into(),
            confidence: 0.75,
            risk_score: 0.25,
            recommendations: vec!["Nothing to do.".into()],
            advice: Vec::new(),
            details,
        })
    }

    fn summary(&self) -> ModelSummary {
        ModelSummary {
            modality: "echo".into(),
            id: "echo".into(),
            version: "0.0.1".into(),
            dataset: "none".into(),
            metrics: Vec::new(),
        }
    }
}

pub fn echo_models() -> ModelRegistry {
    let echo: Arc<dyn SignalModel> = Arc::new(EchoModel);
    ModelRegistry {
        ecg: Ok(echo.clone()),
        pcg: Ok(echo.clone()),
        ppg: Ok(echo),
        ..ModelRegistry::load()
    }
}

/// An ECG model that says when it has started and then blocks its thread until it is released (or
/// 10 s have passed): what a long inference does to the thread it runs on.
struct BlockingModel {
    started: Mutex<Option<tokio::sync::oneshot::Sender<()>>>,
    release: Mutex<std::sync::mpsc::Receiver<()>>,
}

impl SignalModel for BlockingModel {
    fn predict(&self, recording: &Recording) -> Result<Prediction, PredictError> {
        if let Some(started) = self.started.lock().unwrap().take() {
            let _ = started.send(());
        }
        self.release
            .lock()
            .unwrap()
            .recv_timeout(Duration::from_secs(10))
            .map_err(|_| {
                PredictError::Unusable("never released: the executor was blocked".into())
            })?;
        EchoModel.predict(recording)
    }

    fn summary(&self) -> ModelSummary {
        EchoModel.summary()
    }
}

pub fn with_echo(app: &mut TestApp) {
    let config = app.config.clone();
    app.rebuild(config, echo_models());
}

/// `seconds` of a 250 Hz sine in a CSV with a time column.
pub fn csv_recording(seconds: f64) -> Vec<u8> {
    let mut text = String::from("time,ECG\n");
    let n = (seconds * 250.0) as usize;
    for i in 0..n {
        let t = i as f64 / 250.0;
        let _ = writeln!(text, "{t:.3},{:.4}", (t * 6.0).sin());
    }
    text.into_bytes()
}

/// A 16-bit mono WAV of `seconds` at `rate`.
pub fn wav(seconds: f64, rate: u32) -> Vec<u8> {
    wav_with(seconds, rate, 8000.0)
}

/// A 16-bit mono WAV of `seconds` at `rate`, a sine of `amplitude` counts.
pub fn wav_with(seconds: f64, rate: u32, amplitude: f64) -> Vec<u8> {
    let n = (seconds * f64::from(rate)) as u32;
    let samples: Vec<i16> = (0..n)
        .map(|i| ((f64::from(i) * 0.05).sin() * amplitude) as i16)
        .collect();
    wav_from_samples(&samples, rate)
}

/// A 16-bit mono PCM WAV file of `samples` at `rate`.
pub fn wav_from_samples(samples: &[i16], rate: u32) -> Vec<u8> {
    let bytes = u32::try_from(samples.len() * 2).unwrap();
    let mut out = Vec::with_capacity(44 + samples.len() * 2);
    out.extend_from_slice(b"RIFF");
    out.extend_from_slice(&(36 + bytes).to_le_bytes());
    out.extend_from_slice(b"WAVEfmt ");
    out.extend_from_slice(&16u32.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&rate.to_le_bytes());
    out.extend_from_slice(&(rate * 2).to_le_bytes());
    out.extend_from_slice(&2u16.to_le_bytes());
    out.extend_from_slice(&16u16.to_le_bytes());
    out.extend_from_slice(b"data");
    out.extend_from_slice(&bytes.to_le_bytes());
    for v in samples {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out
}

const PREDICT_PATHS: [&str; 3] = [
    "/api/predict/ecg/upload",
    "/api/predict/pcg/upload",
    "/api/predict/ppg/upload",
];

/// The model input of the seven-field form the clinical tests send (63, asymptomatic, 286, 100,
/// angina, two vessels, reversible defect).
fn seven_fields() -> cardio_models::clinical::ClinicalInput {
    cardio_models::clinical::ClinicalInput {
        age: 63.0,
        chest_pain_type: 3,
        cholesterol: Some(286.0),
        fasting_blood_sugar: Some(100.0),
        exercise_induced_angina: Some(1),
        vessels_colored_by_flourosopy: Some(2),
        thalassemia: Some(2),
        ..Default::default()
    }
}

pub async fn a_clinical_prediction_is_returned_stored_and_audited(mut app: TestApp) {
    app.signed_in_doctor().await;
    let patient_id = app.create_patient(patient_form()).await;
    let form = json!({
        "age": 63, "chest_pain_type": 3, "cholesterol": 286, "fasting_blood_sugar": 100,
        "exercise_induced_angina": 1, "vessels_colored_by_flourosopy": 2, "thalassemia": 2,
    });

    let response = app
        .post(
            "/api/predict/clinical",
            merge(form, json!({"patient_id": patient_id})),
        )
        .await;

    assert_eq!(response.status, StatusCode::OK, "{}", response.text);
    let body = response.json();
    let expected = cardio_models::clinical::predict(&cardio_models::clinical::ClinicalInput {
        // The patient record's.
        sex: Some(cardio_models::clinical::Sex::Female),
        ..seven_fields()
    })
    .unwrap();
    assert_eq!(body["model"], "Clinical");
    assert_eq!(body["label"], "disease");
    assert_eq!(body["prediction"], "Coronary artery disease likely");
    // JSON text round-trips a float to within one unit in the last place.
    assert!((body["risk_score"].as_f64().unwrap() - expected.risk_score).abs() < 1e-12);
    assert!((body["confidence"].as_f64().unwrap() - expected.confidence).abs() < 1e-12);
    assert_eq!(
        body["recommendations"].as_array().unwrap().last().unwrap(),
        "This is a screening estimate from a statistical model, not a diagnosis; it does not replace clinical judgement."
    );
    assert_eq!(body["details"]["model"]["id"], "clinical-lr");
    assert_eq!(body["details"]["model"]["metric"], "cv_auroc");
    assert_eq!(body["details"]["submodel"], "full");
    assert_eq!(body["details"]["input"]["age"], json!(63.0));
    assert_eq!(body["details"]["input"]["sex"], "female");
    assert_eq!(body["details"]["sex_source"], "patient_record");
    assert_eq!(
        body["details"]["attributes_used"],
        json!([
            "age",
            "chest_pain_type",
            "cholesterol",
            "fasting_blood_sugar",
            "exercise_induced_angina",
            "vessels_colored_by_flourosopy",
            "thalassemia",
            "sex"
        ])
    );

    let analyses = app.get("/api/analyses").await.json();
    let list = analyses.as_array().unwrap();
    assert_eq!(list.len(), 1);
    assert_eq!(list[0]["id"], body["analysis_id"]);
    assert_eq!(list[0]["modality"], "clinical");
    assert_eq!(list[0]["patientId"], patient_id.as_str());
    assert_eq!(list[0]["patientName"], "María López");
    assert_eq!(list[0]["modelId"], "clinical-lr");
    assert_eq!(list[0]["result"], body);
    assert_eq!(list[0]["fileName"], Value::Null);
    assert_eq!(list[0]["files"], json!([]));
    tick().await;
    let unlinked = app
        .post("/api/predict/clinical", clinical_form())
        .await
        .json();
    let list = app.get("/api/analyses").await.json();
    assert_eq!(list[0]["id"], unlinked["analysis_id"]);
    assert_eq!(list[0]["patientName"], Value::Null);
    assert!(app
        .audit_actions()
        .await
        .contains(&"create analysis".to_owned()));
}

pub async fn a_clinical_prediction_uses_every_optional_value_given(mut app: TestApp) {
    app.signed_in_doctor().await;
    let form = json!({
        "age": 63, "chest_pain_type": 3, "cholesterol": 286, "fasting_blood_sugar": 100,
        "exercise_induced_angina": 1, "vessels_colored_by_flourosopy": 2, "thalassemia": 2,
    });
    let more = json!({
        "sex": "male", "resting_blood_pressure": 160, "resting_ecg": 2, "max_heart_rate": 108,
        "st_depression": 1.5, "st_slope": 1,
    });

    let seven = app.post("/api/predict/clinical", form.clone()).await.json();
    let all = app
        .post("/api/predict/clinical", merge(form, more))
        .await
        .json();

    assert_eq!(seven["details"]["sex_source"], "none");
    assert_eq!(
        seven["details"]["attributes_used"]
            .as_array()
            .unwrap()
            .len(),
        7
    );
    assert_eq!(
        seven["details"]["attributes_missing"],
        json!([
            "sex",
            "resting_blood_pressure",
            "resting_ecg",
            "max_heart_rate",
            "st_depression",
            "st_slope"
        ])
    );
    assert_eq!(all["details"]["sex_source"], "request");
    assert_eq!(
        all["details"]["attributes_used"].as_array().unwrap().len(),
        13
    );
    assert_eq!(all["details"]["attributes_missing"], json!([]));
    let expected = cardio_models::clinical::predict(&cardio_models::clinical::ClinicalInput {
        sex: Some(cardio_models::clinical::Sex::Male),
        resting_blood_pressure: Some(160.0),
        resting_ecg: Some(2),
        max_heart_rate: Some(108.0),
        st_depression: Some(1.5),
        st_slope: Some(1),
        ..seven_fields()
    })
    .unwrap();
    assert!((all["risk_score"].as_f64().unwrap() - expected.risk_score).abs() < 1e-12);
    assert_ne!(all["risk_score"], seven["risk_score"]);
    let out_of_range = app
        .post(
            "/api/predict/clinical",
            merge(
                json!({"age": 50, "chest_pain_type": 0}),
                json!({"max_heart_rate": 20}),
            ),
        )
        .await;
    assert_eq!(out_of_range.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        out_of_range.detail(),
        "max_heart_rate: must be between 50 and 250 bpm"
    );
}

pub async fn clinical_values_out_of_range_or_missing_are_422(mut app: TestApp) {
    app.signed_in_doctor().await;

    let response = app
        .post(
            "/api/predict/clinical",
            merge(clinical_form(), json!({"age": 130})),
        )
        .await;
    assert_eq!(response.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(response.detail(), "age: must be between 0 and 120 years");

    let response = app
        .post(
            "/api/predict/clinical",
            merge(clinical_form(), json!({"thalassemia": 3})),
        )
        .await;
    assert_eq!(response.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(response.detail(), "thalassemia: must be 0, 1 or 2");

    let mut form = clinical_form();
    form.as_object_mut().unwrap().remove("age");
    let response = app.post("/api/predict/clinical", form).await;
    assert_eq!(response.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        response.detail().contains("missing field `age`"),
        "{}",
        response.text
    );
    assert_eq!(app.get("/api/analyses").await.json(), json!([]));
}

pub async fn predictions_need_a_signed_in_user(mut app: TestApp) {
    with_echo(&mut app);
    let response = app.post("/api/predict/clinical", clinical_form()).await;
    assert_eq!(response.status, StatusCode::UNAUTHORIZED);
    for path in PREDICT_PATHS {
        let response = app
            .upload(path, &[Part::file("a.csv", None, csv_recording(5.0))])
            .await;
        assert_eq!(response.status, StatusCode::UNAUTHORIZED, "{path}");
    }
    assert_eq!(
        app.get("/api/analyses").await.status,
        StatusCode::UNAUTHORIZED
    );
}

pub async fn a_patient_account_does_not_run_the_models(mut app: TestApp) {
    with_echo(&mut app);
    let signup = app
        .signup("Pat Doe", "pat@home.test", "secret-pass", "user")
        .await;
    assert_eq!(signup.status, StatusCode::CREATED, "{}", signup.text);
    let clinical = app.post("/api/predict/clinical", clinical_form()).await;
    let mut answers = vec![("/api/predict/clinical", clinical)];
    for path in PREDICT_PATHS {
        let upload = app
            .upload(path, &[Part::file("a.csv", None, csv_recording(5.0))])
            .await;
        answers.push((path, upload));
    }
    for (path, response) in answers {
        assert_eq!(response.status, StatusCode::FORBIDDEN, "{path}");
        assert_eq!(
            response.detail(),
            "Models are run by your doctor; you see the results your doctors share with you.",
            "{path}"
        );
    }

    app.logout().await;
    app.signed_in_doctor().await;
    let clinical = app.post("/api/predict/clinical", clinical_form()).await;
    assert_eq!(clinical.status, StatusCode::OK, "{}", clinical.text);
    let files = [
        ("a.csv", csv_recording(5.0)),
        ("a.wav", wav(3.0, 4000)),
        ("a.wav", wav(3.0, 4000)),
    ];
    for (path, (name, bytes)) in PREDICT_PATHS.into_iter().zip(files) {
        let upload = app.upload(path, &[Part::file(name, None, bytes)]).await;
        assert_eq!(upload.status, StatusCode::OK, "{path}: {}", upload.text);
    }
}

pub async fn an_unloaded_model_answers_503_with_the_spec_text(mut app: TestApp) {
    app.signed_in_doctor().await;
    let config = app.config.clone();
    app.rebuild(
        config,
        ModelRegistry {
            clinical: Err("broken".into()),
            ecg: Err("broken".into()),
            pcg: Err("broken".into()),
            ppg: Err("broken".into()),
        },
    );
    let response = app.post("/api/predict/clinical", clinical_form()).await;
    assert_eq!(response.status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(
        response.detail(),
        "Model not loaded. Please check backend server."
    );
    for path in PREDICT_PATHS {
        let response = app
            .upload(path, &[Part::file("a.wav", None, wav(3.0, 4000))])
            .await;
        assert_eq!(response.status, StatusCode::SERVICE_UNAVAILABLE, "{path}");
        assert_eq!(
            response.detail(),
            "Model not loaded. Please check backend server."
        );
    }
}

pub async fn a_recording_is_read_predicted_and_stored_with_its_file(mut app: TestApp) {
    with_echo(&mut app);
    app.signed_in_doctor().await;
    let patient_id = app.create_patient(patient_form()).await;
    let screening = app
        .post("/api/screenings", json!({"patient_id": patient_id}))
        .await
        .json();
    let screening_id = screening["id"].as_str().unwrap();
    let bytes = csv_recording(4.0);

    let response = app
        .upload(
            "/api/predict/ecg/upload",
            &[
                Part::file("holter.CSV", Some("text/csv"), bytes.clone()),
                Part::text("screening_id", screening_id),
            ],
        )
        .await;

    assert_eq!(response.status, StatusCode::OK, "{}", response.text);
    let body = response.json();
    assert_eq!(body["model"], "ECG");
    assert_eq!(body["label"], "normal");
    assert_eq!(body["details"]["sampling_rate_hz"], json!(250.0));
    assert_eq!(body["details"]["samples"], json!(1000));
    assert_eq!(body["details"]["channels"], json!(["ECG"]));

    let list = app.get("/api/analyses").await.json();
    let analysis = &list.as_array().unwrap()[0];
    assert_eq!(analysis["modality"], "ecg");
    assert_eq!(analysis["fileName"], "holter.CSV");
    assert_eq!(analysis["fileSize"], json!(bytes.len()));
    assert_eq!(analysis["patientId"], patient_id.as_str());
    assert_eq!(analysis["screeningId"], screening_id);
    assert_eq!(analysis["modelId"], "echo");
    assert_eq!(analysis["modelVersion"], "0.0.1");
    let sha = analysis["fileSha256"].as_str().unwrap();
    assert_eq!(sha, BlobStore::hash(&bytes));
    let stored = BlobStore::new(&app.config.data_dir).get(sha).unwrap();
    assert_eq!(stored, bytes);
    assert_eq!(
        analysis["files"],
        json!([{"name": "holter.CSV", "sha256": sha, "size": bytes.len()}])
    );
    // Audited as the creation of this analysis, for this patient.
    let audit = app.get("/api/audit?limit=500").await.json();
    let entry = audit
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["entityId"] == analysis["id"])
        .unwrap_or_else(|| panic!("no audit entry for the analysis: {audit}"));
    assert_eq!(entry["action"], "create");
    assert_eq!(entry["entity"], "analysis");
    assert_eq!(entry["patientId"], patient_id.as_str());

    // A bare list of PPG values needs its rate; with it the rate is the one given.
    let mut values = String::new();
    for i in 0..1200 {
        let _ = writeln!(values, "{}", (f64::from(i) * 0.1).sin());
    }
    let response = app
        .upload(
            "/api/predict/ppg/upload",
            &[
                Part::file("pulse.txt", Some("text/plain"), values.into_bytes()),
                Part::text("sampling_rate", "100"),
            ],
        )
        .await;
    assert_eq!(response.status, StatusCode::OK, "{}", response.text);
    assert_eq!(response.json()["details"]["sampling_rate_hz"], json!(100.0));
    assert_eq!(response.json()["model"], "PPG");

    let response = app
        .upload(
            "/api/predict/pcg/upload",
            &[Part::file("heart.wav", Some("audio/wav"), wav(3.0, 4000))],
        )
        .await;
    assert_eq!(response.status, StatusCode::OK, "{}", response.text);
    assert_eq!(
        response.json()["details"]["sampling_rate_hz"],
        json!(4000.0)
    );
    assert_eq!(response.json()["details"]["samples"], json!(12000));
}

pub async fn wrong_file_types_are_415_with_the_spec_texts(mut app: TestApp) {
    with_echo(&mut app);
    app.signed_in_doctor().await;
    let cases = [
        (
            "/api/predict/ecg/upload",
            "notes.docx",
            None,
            "Please upload a valid ECG file (.pdf, .dat, .txt, .csv, .ecg)",
        ),
        (
            "/api/predict/pcg/upload",
            "heart.csv",
            Some("text/csv"),
            "Please upload an audio file (.wav, .mp3)",
        ),
        (
            "/api/predict/ppg/upload",
            "pulse.json",
            Some("application/json"),
            "Please upload a CSV or TXT file",
        ),
        (
            "/api/predict/ppg/upload",
            "finger.mp4",
            Some("video/mp4"),
            "Video PPG files cannot be analysed yet: upload the pulse signal as a CSV or TXT file.",
        ),
    ];
    for (path, name, media, message) in cases {
        let response = app
            .upload(path, &[Part::file(name, media, csv_recording(3.0))])
            .await;
        assert_eq!(
            response.status,
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "{name}"
        );
        assert_eq!(response.detail(), message);
    }
    // An accepted extension whose content is of no format the server reads.
    let response = app
        .upload(
            "/api/predict/ecg/upload",
            &[Part::file(
                "scan.dat",
                None,
                b"\x01\x02\x03garbage".to_vec(),
            )],
        )
        .await;
    assert_eq!(response.status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    assert!(
        response
            .detail()
            .starts_with("Unsupported file format: cannot recognise the content of \"scan.dat\""),
        "{}",
        response.text
    );
    // A PDF is read now; a broken one says why, in the reader's words.
    let response = app
        .upload(
            "/api/predict/ecg/upload",
            &[Part::file(
                "scan.pdf",
                Some("application/pdf"),
                b"%PDF-1.7\n...".to_vec(),
            )],
        )
        .await;
    assert_eq!(response.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        response
            .detail()
            .starts_with("Cannot read the file: invalid PDF file: cannot read its structure"),
        "{}",
        response.text
    );
    // Not multipart at all.
    let response = app.post("/api/predict/ecg/upload", json!({})).await;
    assert_eq!(response.status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    assert_eq!(
        response.detail(),
        "Send the recording as multipart/form-data in a field named file."
    );
    assert_eq!(app.get("/api/analyses").await.json(), json!([]));
}

pub async fn missing_empty_or_unreadable_files_are_422(mut app: TestApp) {
    with_echo(&mut app);
    app.signed_in_doctor().await;
    let response = app
        .upload("/api/predict/ecg/upload", &[Part::text("patient_id", "")])
        .await;
    assert_eq!(response.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(response.detail(), "Please select a file");
    let response = app.upload("/api/predict/pcg/upload", &[]).await;
    assert_eq!(response.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(response.detail(), "Please select an audio file");

    let response = app
        .upload(
            "/api/predict/ecg/upload",
            &[Part::file("a.csv", None, Vec::new())],
        )
        .await;
    assert_eq!(response.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(response.detail(), "The file \"a.csv\" is empty.");

    let response = app
        .upload(
            "/api/predict/ppg/upload",
            &[Part::file(
                "pulse.txt",
                None,
                b"1\n2\n3\n4\n5\n6\n".to_vec(),
            )],
        )
        .await;
    assert_eq!(response.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        response.detail(),
        "CSV has no time column and no sampling rate was given: send it in the sampling_rate field."
    );

    let response = app
        .upload(
            "/api/predict/ppg/upload",
            &[
                Part::file("pulse.txt", None, b"1\n2\n".to_vec()),
                Part::text("sampling_rate", "fast"),
            ],
        )
        .await;
    assert_eq!(response.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        response.detail(),
        "sampling_rate must be a number of samples per second between 1 and 100000."
    );

    let response = app
        .upload(
            "/api/predict/ecg/upload",
            &[Part::file(
                "r.hea",
                None,
                b"r 1 250 1000\nr.dat 16 200 16 0 0 0 0 II\n".to_vec(),
            )],
        )
        .await;
    assert_eq!(response.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        response.detail(),
        "A WFDB header (.hea) holds no samples: upload it together with its signal file (.dat)."
    );
    assert_eq!(app.get("/api/analyses").await.json(), json!([]));
}

pub async fn uploads_over_the_limit_are_413(mut app: TestApp) {
    let config = Config {
        max_upload_bytes: 1024 * 1024,
        ..app.config.clone()
    };
    app.rebuild(config, echo_models());
    app.signed_in_doctor().await;
    let big = vec![b'1'; 1024 * 1024 + 10];

    let response = app
        .upload(
            "/api/predict/ecg/upload",
            &[Part::file("big.csv", None, big)],
        )
        .await;

    assert_eq!(response.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(response.detail(), "File too large: the limit is 1 MB.");
    // Far over the limit: refused by the body limit itself, same answer.
    let huge = vec![b'1'; 3 * 1024 * 1024];
    let response = app
        .upload(
            "/api/predict/ecg/upload",
            &[Part::file("huge.csv", None, huge)],
        )
        .await;
    assert_eq!(response.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(response.detail(), "File too large: the limit is 1 MB.");
}

pub async fn an_unusable_recording_is_422_with_the_models_reason(mut app: TestApp) {
    with_echo(&mut app);
    app.signed_in_doctor().await;
    let response = app
        .upload(
            "/api/predict/ecg/upload",
            &[Part::file("short.csv", None, csv_recording(1.0))],
        )
        .await;
    assert_eq!(response.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        response.detail(),
        "Recording too short: 1.0 s; at least 2 s is needed."
    );
    assert_eq!(app.get("/api/analyses").await.json(), json!([]));
}

pub async fn analyses_are_filtered_and_belong_to_their_doctor_only(mut app: TestApp) {
    with_echo(&mut app);
    app.signed_in_doctor().await;
    let patient_a = app.create_patient(patient_form()).await;
    let other_patient = app.create_patient(patient_form()).await;
    let ecg = app
        .upload(
            "/api/predict/ecg/upload",
            &[
                Part::file("a.csv", None, csv_recording(3.0)),
                Part::text("patient_id", &patient_a),
            ],
        )
        .await
        .json();
    tick().await;
    let clinical = app
        .post(
            "/api/predict/clinical",
            merge(clinical_form(), json!({"patient_id": other_patient})),
        )
        .await
        .json();

    let all = app.get("/api/analyses").await.json();
    let ids: Vec<&Value> = all.as_array().unwrap().iter().map(|a| &a["id"]).collect();
    assert_eq!(ids, [&clinical["analysis_id"], &ecg["analysis_id"]]);
    let only_ecg = app.get("/api/analyses?type=ecg").await.json();
    assert_eq!(only_ecg.as_array().unwrap().len(), 1);
    assert_eq!(only_ecg[0]["id"], ecg["analysis_id"]);
    let of_a = app
        .get(&format!("/api/analyses?patient_id={patient_a}"))
        .await
        .json();
    assert_eq!(of_a.as_array().unwrap().len(), 1);
    assert_eq!(of_a[0]["id"], ecg["analysis_id"]);
    let response = app.get("/api/analyses?type=mri").await;
    assert_eq!(response.status, StatusCode::UNPROCESSABLE_ENTITY);

    // Another doctor sees none of it and cannot attach results to the first doctor's patient.
    app.logout().await;
    app.signed_in_doctor().await;
    assert_eq!(app.get("/api/analyses").await.json(), json!([]));
    let response = app
        .get(&format!("/api/analyses?patient_id={patient_a}"))
        .await;
    assert_eq!(response.status, StatusCode::NOT_FOUND);
    assert_eq!(response.detail(), "Patient not found.");
    let response = app
        .upload(
            "/api/predict/ecg/upload",
            &[
                Part::file("a.csv", None, csv_recording(3.0)),
                Part::text("patient_id", &patient_a),
            ],
        )
        .await;
    assert_eq!(response.status, StatusCode::NOT_FOUND);
    assert_eq!(response.detail(), "Patient not found.");
    let response = app
        .post(
            "/api/predict/clinical",
            merge(
                clinical_form(),
                json!({"screening_id": "no-such-screening"}),
            ),
        )
        .await;
    assert_eq!(response.status, StatusCode::NOT_FOUND);
    assert_eq!(response.detail(), "Screening not found.");
    assert_eq!(app.get("/api/analyses").await.json(), json!([]));
}

pub async fn a_wfdb_header_with_its_signal_file_is_read_as_one_record(mut app: TestApp) {
    with_echo(&mut app);
    app.signed_in_doctor().await;
    let n = 750usize;
    let samples: Vec<u8> = (0..n)
        .flat_map(|i| (i16::try_from(i % 50).unwrap() * 10).to_le_bytes())
        .collect();
    let header_bytes = format!("r 1 250 {n}\nr.dat 16 200 16 0 0 0 0 II\n");
    let signal_bytes = samples;

    // The signal file first: the header is still the record's name.
    let response = app
        .upload(
            "/api/predict/ecg/upload",
            &[
                Part::file("r.dat", None, signal_bytes.clone()),
                Part::file("r.hea", None, header_bytes.clone().into_bytes()),
            ],
        )
        .await;

    assert_eq!(response.status, StatusCode::OK, "{}", response.text);
    let body = response.json();
    assert_eq!(body["details"]["samples"], json!(n));
    assert_eq!(body["details"]["channels"], json!(["II"]));
    let list = app.get("/api/analyses").await.json();
    assert_eq!(list[0]["fileName"], "r.hea");
    // Each file is kept under its own hash, the header first, so the record can be read again.
    let header_hash = BlobStore::hash(header_bytes.as_bytes());
    let signal_hash = BlobStore::hash(&signal_bytes);
    assert_eq!(list[0]["fileSha256"], header_hash.as_str());
    assert_eq!(
        list[0]["fileSize"],
        json!(header_bytes.len() + signal_bytes.len())
    );
    assert_eq!(
        list[0]["files"],
        json!([
            {"name": "r.hea", "sha256": header_hash, "size": header_bytes.len()},
            {"name": "r.dat", "sha256": signal_hash, "size": signal_bytes.len()},
        ])
    );
    let blobs = BlobStore::new(&app.config.data_dir);
    assert_eq!(blobs.get(&signal_hash).unwrap(), signal_bytes);
    assert_eq!(blobs.get(&header_hash).unwrap(), header_bytes.as_bytes());
}

pub use cardio_testkit::signals::realistic_ecg_csv;
use cardio_testkit::signals::{breathing_beats, jitter};

/// A fingertip-like pulse at about 75 bpm with the variation of breathing and a little sensor
/// noise, as a bare list of values at `rate` Hz.
pub fn realistic_pulse_values(seconds: f64, rate: f64) -> String {
    let mut values = String::new();
    let mut state = 11;
    for i in 0..(seconds * rate) as usize {
        let phase = breathing_beats(i as f64 / rate).fract();
        let v = (-((phase - 0.2) * (phase - 0.2)) / 0.005).exp()
            + 0.3 * (-((phase - 0.55) * (phase - 0.55)) / 0.004).exp()
            + 0.02 * jitter(&mut state);
        let _ = writeln!(values, "{v:.5}");
    }
    values
}

/// A 250 Hz CSV ECG-like trace: a narrow spike every `rr` seconds on a flat line.
pub fn spiky_ecg_csv(seconds: f64, rr: f64) -> Vec<u8> {
    let mut text = String::from("time,II\n");
    let n = (seconds * 250.0) as usize;
    for i in 0..n {
        let t = i as f64 / 250.0;
        let phase = t % rr;
        let v = if phase < 0.02 { 1.5 } else { 0.0 };
        let _ = writeln!(text, "{t:.3},{v}");
    }
    text.into_bytes()
}

pub async fn the_dashboard_counts_todays_tests_and_those_needing_review(mut app: TestApp) {
    with_echo(&mut app);
    app.signed_in_doctor().await;
    let noisy =
        String::from_utf8(csv_recording(3.0))
            .unwrap()
            .replacen("time,ECG", "time,noisy", 1);
    for (name, bytes) in [("a.csv", csv_recording(3.0)), ("b.csv", noisy.into_bytes())] {
        let response = app
            .upload("/api/predict/ecg/upload", &[Part::file(name, None, bytes)])
            .await;
        assert_eq!(response.status, StatusCode::OK, "{}", response.text);
    }
    app.post("/api/predict/clinical", clinical_form()).await;

    let figures = app.get("/api/dashboard").await.json();
    assert_eq!(figures["testsToday"], 2);
    assert_eq!(figures["needsReviewToday"], 1);
    let tomorrow = app.get("/api/dashboard?since=99999999999999").await.json();
    assert_eq!(tomorrow["testsToday"], 0);
    app.logout().await;
    app.signed_in_doctor().await;
    assert_eq!(app.get("/api/dashboard").await.json()["testsToday"], 0);
}

// The tests run on a single-threaded runtime: were the model run on it, the request below could not
// be answered until the model returned, and the model waits for that answer (up to 10 s).
pub async fn inference_runs_off_the_async_executor(mut app: TestApp) {
    app.signed_in_doctor().await;
    let (started_tx, started_rx) = tokio::sync::oneshot::channel();
    let (release_tx, release_rx) = std::sync::mpsc::channel();
    let config = app.config.clone();
    app.rebuild(
        config,
        ModelRegistry {
            ecg: Ok(Arc::new(BlockingModel {
                started: Mutex::new(Some(started_tx)),
                release: Mutex::new(release_rx),
            })),
            ..echo_models()
        },
    );
    let mut tab = app.second_tab();
    let bytes = csv_recording(4.0);
    let parts = [Part::file("ecg.csv", Some("text/csv"), bytes)];

    let meanwhile = async {
        started_rx.await.expect("the model started");
        let me = tab.get("/api/auth/me").await;
        release_tx.send(()).unwrap();
        me
    };
    let (upload, me) = tokio::join!(app.upload("/api/predict/ecg/upload", &parts), meanwhile);

    assert_eq!(me.status, StatusCode::OK, "{}", me.text);
    assert_eq!(upload.status, StatusCode::OK, "{}", upload.text);
    assert_eq!(upload.json()["prediction"], "Echo");
}

/// Issue 38: the interpretation an ECG file carries from its own device (the GE MUSE example's
/// 12SL statements and measurements) comes back apart from Cardio's result, as the device wrote
/// it, and is stored with the analysis; it changes nothing of Cardio's own answer. A plain CSV
/// has none.
pub async fn an_ecg_devices_own_interpretation_is_returned_and_stored_beside_the_result(
    mut app: TestApp,
) {
    with_echo(&mut app);
    app.signed_in_doctor().await;

    let csv = app
        .upload(
            "/api/predict/ecg/upload",
            &[Part::file("ecg.csv", Some("text/csv"), csv_recording(10.0))],
        )
        .await;
    assert_eq!(csv.status, StatusCode::OK, "{}", csv.text);
    let csv = csv.json();
    assert!(csv.get("device_interpretation").is_none(), "{csv}");
    let stored = app
        .get(&format!(
            "/api/analyses/{}",
            csv["analysis_id"].as_str().unwrap()
        ))
        .await
        .json();
    assert!(
        stored["result"].get("device_interpretation").is_none(),
        "{stored}"
    );

    let Some(path) = cardio_testkit::dataset_file("ecg_documents/ge-muse-example.xml") else {
        return;
    };
    let response = app
        .upload(
            "/api/predict/ecg/upload",
            &[Part::file(
                "ge-muse-example.xml",
                Some("application/xml"),
                std::fs::read(path).unwrap(),
            )],
        )
        .await;

    assert_eq!(response.status, StatusCode::OK, "{}", response.text);
    let body = response.json();
    let measurement = |key: &str, label: &str, value: f64, unit: &str| json!({"key": key, "label": label, "value": value, "unit": unit});
    let expected = json!({
        "source": "GE MUSE 9.0.10.18530, 12SL 239",
        "statements": [
            "Sinus bradycardia with sinus arrhythmia with 1st degree A-V block",
            "Otherwise normal ECG",
        ],
        "measurements": [
            measurement("heart_rate_bpm", "VentricularRate", 56.0, "bpm"),
            measurement("atrial_rate_bpm", "AtrialRate", 56.0, "bpm"),
            measurement("pr_ms", "PRInterval", 330.0, "ms"),
            measurement("qrs_ms", "QRSDuration", 94.0, "ms"),
            measurement("qt_ms", "QTInterval", 434.0, "ms"),
            measurement("qtc_ms", "QTCorrected", 418.0, "ms"),
            measurement("p_axis_deg", "PAxis", 6.0, "°"),
            measurement("qrs_axis_deg", "RAxis", -22.0, "°"),
            measurement("t_axis_deg", "TAxis", 2.0, "°"),
        ],
    });
    assert_eq!(body["device_interpretation"], expected);
    // Cardio's own answer is the model's, untouched, and its details hold none of the device's
    // words (they are not ours to translate).
    assert_eq!(body["label"], "normal");
    assert_eq!(body["prediction"], "Echo");
    assert_eq!(body["recommendations"], json!(["Nothing to do."]));
    let details = body["details"].to_string();
    assert!(!details.contains("Sinus bradycardia"), "{details}");
    assert!(!details.contains("device_interpretation"), "{details}");

    let id = body["analysis_id"].as_str().unwrap();
    let stored = app.get(&format!("/api/analyses/{id}")).await;
    assert_eq!(stored.status, StatusCode::OK);
    assert_eq!(stored.json()["result"]["device_interpretation"], expected);
}
