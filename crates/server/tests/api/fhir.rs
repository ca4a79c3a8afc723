//! `GET /api/patients/{id}/fhir`: the patient, clinical parameters, heart rates, signals and
//! reports as a FHIR R4 Bundle, checked by shape here and by a real FHIR R4 validator (the PyPI
//! package `fhir.resources` 6.5, FHIR 4.0.1) in a throwaway virtual environment outside the repo.

use std::{
    collections::HashSet,
    io::Write as _,
    path::PathBuf,
    process::{Command, Stdio},
    sync::Mutex,
};

use axum::http::StatusCode;
use serde_json::{json, Value};

use crate::{
    helpers::{clinical_form, merge, patient_form, Part, TestApp},
    predict::{realistic_ecg_csv, realistic_pulse_values},
};

crate::backend_tests!(
    a_patient_exports_as_a_valid_fhir_r4_bundle,
    the_fhir_export_is_the_doctors_own_and_audited,
);

/// The validator: parses the bundle and every resource with the FHIR R4 models, exits non-zero
/// with the reason on any error.
const VALIDATE: &str = r#"
import json, sys
from fhir.resources import get_fhir_model_class
from fhir.resources.bundle import Bundle
data = json.load(sys.stdin)
bundle = Bundle.parse_obj(data)
for entry in data.get("entry", []):
    resource = entry["resource"]
    get_fhir_model_class(resource["resourceType"]).parse_obj(resource)
print("valid", len(bundle.entry or []))
"#;

static VENV: Mutex<Option<PathBuf>> = Mutex::new(None);

/// The Python of a virtual environment with `fhir.resources` 6.5 (R4), made on first use.
fn validator_python() -> PathBuf {
    let mut guard = VENV
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(python) = guard.as_ref() {
        return python.clone();
    }
    let dir = std::env::temp_dir().join("cardio-fhir-r4-validator");
    let python = dir.join("bin/python");
    let ready = Command::new(&python)
        .args(["-c", "import fhir.resources"])
        .status()
        .is_ok_and(|s| s.success());
    if !ready {
        let made = Command::new("python3")
            .args(["-m", "venv"])
            .arg(&dir)
            .status()
            .expect("python3 runs");
        assert!(made.success(), "python3 -m venv failed");
        let installed = Command::new(&python)
            .args([
                "-m",
                "pip",
                "install",
                "-q",
                "fhir.resources==6.5.0",
                "pydantic<2",
            ])
            .status()
            .expect("pip runs");
        assert!(installed.success(), "pip install fhir.resources failed");
    }
    *guard = Some(python.clone());
    python
}

/// Runs the validator; Ok(output) when valid, Err(reason) otherwise.
pub(crate) fn validate(bundle: &Value) -> Result<String, String> {
    let mut child = Command::new(validator_python())
        .args(["-c", VALIDATE])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the validator starts");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(bundle.to_string().as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    if output.status.success() {
        Ok(String::from_utf8_lossy(&output.stdout).trim().to_owned())
    } else {
        Err(String::from_utf8_lossy(&output.stderr).into_owned())
    }
}

pub(crate) fn resources<'a>(bundle: &'a Value, kind: &str) -> Vec<&'a Value> {
    bundle["entry"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| &e["resource"])
        .filter(|r| r["resourceType"] == kind)
        .collect()
}

async fn seed(app: &mut TestApp) -> (String, String) {
    let mut form = patient_form();
    form["medicalHistory"] = json!("Hypertension since 2015");
    form["currentMedications"] = json!("Ramipril 5 mg daily");
    form["allergies"] = json!("Penicillin");
    let patient = app.create_patient(form).await;
    let response = app
        .post(
            &format!("/api/patients/{patient}/clinical"),
            merge(
                clinical_form(),
                json!({"resting_blood_pressure": 138, "st_depression": 1.2, "st_slope": 1}),
            ),
        )
        .await;
    assert_eq!(response.status, StatusCode::CREATED, "{}", response.text);
    let response = app
        .upload(
            "/api/predict/ecg/upload",
            &[
                Part::file("ecg.csv", Some("text/csv"), realistic_ecg_csv(30.0)),
                Part::text("patient_id", &patient),
            ],
        )
        .await;
    assert_eq!(response.status, StatusCode::OK, "{}", response.text);
    let ecg = response.json()["analysis_id"].as_str().unwrap().to_owned();
    let values = realistic_pulse_values(12.0, 100.0);
    let response = app
        .upload(
            "/api/predict/ppg/upload",
            &[
                Part::file("finger.txt", Some("text/plain"), values.into_bytes()),
                Part::text("sampling_rate", "100"),
                Part::text("patient_id", &patient),
            ],
        )
        .await;
    assert_eq!(response.status, StatusCode::OK, "{}", response.text);
    let response = app
        .post(
            &format!("/api/analyses/{ecg}/reviews"),
            json!({"agreement": "disagree", "comment": "Artefact, not AF.", "interpretation": [
                {"code": "sinus_rhythm"}, {"code": "first_degree_av_block"},
                {"code": "borderline_ecg"}, {"text": "No change from 2024"},
            ]}),
        )
        .await;
    assert_eq!(response.status, StatusCode::CREATED, "{}", response.text);
    (patient, ecg)
}

pub async fn a_patient_exports_as_a_valid_fhir_r4_bundle(mut app: TestApp) {
    app.signed_in_doctor().await;
    let (patient, _) = seed(&mut app).await;
    let response = app.get(&format!("/api/patients/{patient}/fhir")).await;
    assert_eq!(response.status, StatusCode::OK, "{}", response.text);
    let bundle = response.json();
    assert_eq!(bundle["resourceType"], "Bundle");
    assert_eq!(bundle["type"], "collection");

    // Every reference points at an entry of the bundle.
    let urls: HashSet<&str> = bundle["entry"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["fullUrl"].as_str().unwrap())
        .collect();
    let text = bundle.to_string();
    for reference in text.split("\"reference\":\"").skip(1) {
        let target = &reference[..reference.find('"').unwrap()];
        assert!(urls.contains(target), "dangling reference {target}");
    }

    let patients = resources(&bundle, "Patient");
    assert_eq!(patients.len(), 1);
    assert_eq!(patients[0]["name"][0]["family"], "López");
    assert_eq!(patients[0]["birthDate"], "1961-04-12");
    assert_eq!(patients[0]["gender"], "female");

    // What the intake recorded of the patient's history, each as its own resource.
    let conditions = resources(&bundle, "Condition");
    assert_eq!(conditions.len(), 1);
    assert_eq!(conditions[0]["code"]["text"], "Hypertension since 2015");
    let medications = resources(&bundle, "MedicationStatement");
    assert_eq!(medications.len(), 1);
    assert_eq!(medications[0]["status"], "active");
    assert_eq!(
        medications[0]["medicationCodeableConcept"]["text"],
        "Ramipril 5 mg daily"
    );
    let allergies = resources(&bundle, "AllergyIntolerance");
    assert_eq!(allergies.len(), 1);
    assert_eq!(allergies[0]["code"]["text"], "Penicillin");
    assert_eq!(
        allergies[0]["patient"]["reference"],
        conditions[0]["subject"]["reference"]
    );

    let observations = resources(&bundle, "Observation");
    let coded = |code: &str| {
        observations
            .iter()
            .filter(|o| o["code"]["coding"][0]["code"] == code)
            .copied()
            .collect::<Vec<_>>()
    };
    assert_eq!(coded("30525-0")[0]["valueQuantity"]["value"], json!(50.0));
    assert_eq!(coded("2093-3")[0]["valueQuantity"]["unit"], "mg/dL");
    assert_eq!(coded("1558-6").len(), 1);
    // The optional values entered: blood pressure coded, the others as text; none not entered.
    assert_eq!(coded("8480-6")[0]["valueQuantity"]["value"], json!(138.0));
    assert_eq!(coded("8480-6")[0]["valueQuantity"]["code"], "mm[Hg]");
    let by_text = |text: &str| {
        observations
            .iter()
            .filter(|o| o["code"]["text"] == text)
            .copied()
            .collect::<Vec<_>>()
    };
    assert_eq!(
        by_text("ST depression induced by exercise relative to rest")[0]["valueQuantity"]["value"],
        json!(1.2)
    );
    assert_eq!(
        by_text("Slope of the peak exercise ST segment")[0]["valueCodeableConcept"]["text"],
        "Flat"
    );
    assert!(by_text("Resting ECG").is_empty());
    let rates = coded("8867-4");
    assert_eq!(rates.len(), 2);
    assert!(rates
        .iter()
        .all(|r| (r["valueQuantity"]["value"].as_f64().unwrap() - 75.0).abs() < 1.5));
    assert!(rates.iter().all(|r| r["valueQuantity"]["code"] == "/min"));
    // The ECG's intervals from its reading (lead II only: no axis, which needs the limb leads).
    for code in ["8625-6", "8633-0", "8634-8", "8636-3"] {
        let found = coded(code);
        assert_eq!(found.len(), 1, "{code}");
        assert_eq!(found[0]["valueQuantity"]["code"], "ms", "{code}");
        let ms = found[0]["valueQuantity"]["value"].as_f64().unwrap();
        assert!((40.0..600.0).contains(&ms), "{code}: {ms}");
    }
    assert_eq!(coded("8636-3")[0]["method"]["text"], "Bazett");
    for axis in ["8626-4", "8632-2", "8638-7"] {
        assert!(coded(axis).is_empty(), "{axis}");
    }

    let signals: Vec<&Value> = observations
        .iter()
        .filter(|o| o.get("valueSampledData").is_some())
        .copied()
        .collect();
    assert_eq!(signals.len(), 2);
    let ecg = signals
        .iter()
        .find(|o| o["code"]["text"] == "ECG waveform, lead II")
        .unwrap();
    let data = &ecg["valueSampledData"];
    assert_eq!(data["period"], json!(4.0));
    assert_eq!(data["factor"], json!(0.001));
    assert_eq!(data["dimensions"], json!(1));
    assert_eq!(data["origin"]["unit"], "mV");
    let samples: Vec<&str> = data["data"].as_str().unwrap().split(' ').collect();
    assert_eq!(samples.len(), 7500);
    // Each sample is the uploaded millivolt value in µV.
    let csv = String::from_utf8(realistic_ecg_csv(30.0)).unwrap();
    for (k, line) in csv.lines().skip(1).enumerate().step_by(997) {
        let mv: f64 = line.split(',').nth(1).unwrap().parse().unwrap();
        assert_eq!(
            samples[k],
            format!("{}", (mv * 1000.0).round()),
            "sample {k}"
        );
    }
    let ppg = signals
        .iter()
        .find(|o| {
            o["code"]["text"]
                .as_str()
                .unwrap()
                .starts_with("Photoplethysmogram")
        })
        .unwrap();
    assert_eq!(ppg["valueSampledData"]["period"], json!(10.0));

    let reports = resources(&bundle, "DiagnosticReport");
    assert_eq!(reports.len(), 2);
    let ecg_report = reports
        .iter()
        .find(|r| r["code"]["coding"][0]["code"] == "11524-6")
        .unwrap();
    assert_eq!(ecg_report["status"], "final");
    let conclusion = ecg_report["conclusion"].as_str().unwrap();
    assert!(conclusion.ends_with("disagreed with the model's finding. Artefact, not AF."));
    // The interpretation the doctor confirmed leads it, each statement coded where SNOMED CT has
    // a concept for it (the overall category and the doctor's own words stay text).
    assert!(
        conclusion.starts_with("Interpretation confirmed by Ana Ruiz on "),
        "{conclusion}"
    );
    assert!(conclusion
        .contains(": Sinus rhythm; 1st-degree AV block; Borderline ECG; No change from 2024. "));
    let codes = ecg_report["conclusionCode"].as_array().unwrap();
    assert_eq!(codes.len(), 4);
    for (k, code) in [(0, "426783006"), (1, "270492004")] {
        assert_eq!(codes[k]["coding"][0]["system"], "http://snomed.info/sct");
        assert_eq!(codes[k]["coding"][0]["code"], code);
    }
    assert_eq!(codes[1]["text"], "1st-degree AV block");
    assert_eq!(codes[2], json!({"text": "Borderline ECG"}));
    assert_eq!(codes[3], json!({"text": "No change from 2024"}));
    // Heart rate, PR, QRS, QT, QTc and the waveform.
    assert_eq!(ecg_report["result"].as_array().unwrap().len(), 6);
    // The PDF of the same analysis, from the same server.
    let pdf = ecg_report["presentedForm"][0]["url"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(
        ecg_report["presentedForm"][0]["contentType"],
        "application/pdf"
    );
    let response = app.get(&pdf).await;
    assert_eq!(response.status, StatusCode::OK, "{pdf}");
    assert!(reports.iter().any(|r| r["status"] == "preliminary"));
    let devices = resources(&bundle, "Device");
    let names: HashSet<&str> = devices
        .iter()
        .map(|d| d["deviceName"][0]["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, HashSet::from(["ecg-rhythm-gbdt", "ppg-rhythm-gbdt"]));

    let verdict = validate(&bundle).unwrap_or_else(|reason| panic!("invalid FHIR: {reason}"));
    assert_eq!(verdict, format!("valid {}", urls.len()));

    // The validator can fail: a quantity that is not a number is refused.
    let mut broken = bundle.clone();
    let entry = broken["entry"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|e| e["resource"]["code"]["coding"][0]["code"] == "8867-4")
        .unwrap();
    entry["resource"]["valueQuantity"]["value"] = json!("seventy-five");
    assert!(validate(&broken).is_err());
}

pub async fn the_fhir_export_is_the_doctors_own_and_audited(mut app: TestApp) {
    assert_eq!(
        app.get("/api/patients/x/fhir").await.status,
        StatusCode::UNAUTHORIZED
    );
    app.signed_in_doctor().await;
    let patient = app.create_patient(patient_form()).await;
    let response = app.get(&format!("/api/patients/{patient}/fhir")).await;
    assert_eq!(response.status, StatusCode::OK);
    assert_eq!(resources(&response.json(), "Patient").len(), 1);
    assert!(app
        .audit_actions()
        .await
        .contains(&"export patient_fhir".to_owned()));
    app.logout().await;
    app.signed_in_doctor().await;
    let response = app.get(&format!("/api/patients/{patient}/fhir")).await;
    assert_eq!(response.status, StatusCode::NOT_FOUND);
    assert_eq!(response.detail(), "Patient not found.");
}
