//! The PDF report of an analysis and of a screening: a PDF attachment, audited, owner only, in the
//! user's language, and its text (extracted from the PDF) naming the patient, the finding, the risk
//! band, the review and the page numbers; a 12-lead ECG's measurements, its interpretation
//! (unconfirmed, then confirmed by the doctor) and its leads on a landscape page at true scale; a
//! long ECG read whole, its Holter summary.

use std::fmt::Write as _;

use axum::http::{header, StatusCode};
use serde_json::{json, Value};

use crate::{
    helpers::{patient_form, Part, TestApp, TestResponse},
    predict::{csv_recording, with_echo},
    waveforms::heart_sound_wav,
};

crate::backend_tests!(
    an_analysis_report_names_the_patient_finding_band_and_review,
    a_spanish_doctors_report_is_in_spanish,
    the_models_finding_recommendations_and_rule_follow_the_language,
    a_screening_report_has_the_combined_result_its_rule_and_the_strips,
    only_the_owner_downloads_a_report,
    a_recording_that_cannot_be_read_again_still_gets_its_text,
    the_ecg_devices_own_interpretation_has_its_section_in_the_users_language,
    a_twelve_lead_ecg_gets_its_measurements_interpretation_and_true_scale_page,
    a_long_ecg_gets_its_holter_summary_in_the_users_language,
);

/// The PDF's text with runs of whitespace made single spaces.
pub(crate) fn pdf_text(response: &TestResponse) -> String {
    assert_eq!(response.status, StatusCode::OK, "{}", response.text);
    assert_eq!(
        response.headers[header::CONTENT_TYPE].to_str().unwrap(),
        "application/pdf"
    );
    assert!(response.bytes.starts_with(b"%PDF-"));
    if let Some(dir) = std::env::var_os("CARDIO_REPORT_PDF_DIR") {
        let name = format!("{}.pdf", uuid::Uuid::new_v4().simple());
        std::fs::write(std::path::Path::new(&dir).join(name), &response.bytes).unwrap();
    }
    let text = pdf_extract::extract_text_from_mem(&response.bytes).expect("the PDF's text");
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// 12 s at 250 Hz of an ECG-like trace in millivolts: a 1.2 mV R wave every 0.8 s and a T wave.
fn ecg_like_csv() -> Vec<u8> {
    let mut text = String::from("time,II\n");
    for i in 0..3000 {
        let t = f64::from(i) / 250.0;
        let d = (t % 0.8) - 0.3;
        let r = 1.2 * (-(d * d) / 1.5e-4).exp() - 0.15 * (-((d - 0.03).powi(2)) / 2e-4).exp();
        let tw = 0.3 * (-((d - 0.28).powi(2)) / 3e-3).exp();
        let _ = writeln!(text, "{t:.3},{:.4}", r + tw);
    }
    text.into_bytes()
}

async fn upload(app: &mut TestApp, path: &str, parts: &[Part<'_>]) -> Value {
    let response = app.upload(path, parts).await;
    assert_eq!(response.status, StatusCode::OK, "{}", response.text);
    response.json()
}

async fn ecg_for_new_patient(app: &mut TestApp) -> String {
    let mut form = patient_form();
    form["medicalHistory"] = json!("Hypertension\nType 2 diabetes");
    form["allergies"] = json!("Penicillin");
    let patient = app.create_patient(form).await;
    let analysis = upload(
        app,
        "/api/predict/ecg/upload",
        &[
            Part::file("ecg.csv", Some("text/csv"), ecg_like_csv()),
            Part::text("patient_id", &patient),
        ],
    )
    .await;
    analysis["analysis_id"].as_str().unwrap().to_owned()
}

pub async fn an_analysis_report_names_the_patient_finding_band_and_review(mut app: TestApp) {
    with_echo(&mut app);
    app.signed_in_doctor().await;
    let id = ecg_for_new_patient(&mut app).await;
    let path = format!("/api/analyses/{id}/report.pdf");

    let response = app.get(&path).await;

    let disposition = response.headers[header::CONTENT_DISPOSITION]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(
        disposition.starts_with("attachment; filename=") && disposition.contains(".pdf"),
        "{disposition}"
    );
    let text = pdf_text(&response);
    for expected in [
        "Cardio",
        "Cardiovascular screening report",
        "Doctor: Ana Ruiz",
        "María López",
        "1961-04-12",
        "Medical history Hypertension; Type 2 diabetes",
        "Allergies Penicillin",
        "Finding Echo",
        "Confidence 75.0%",
        "25.0% — Low",
        "echo (version 0.0.1)",
        "ECG, lead II",
        "1 mV",
        "Nothing to do.",
        "Not yet reviewed",
        cardio_models::prediction::DISCLAIMER,
        "Page 1 of",
    ] {
        assert!(text.contains(expected), "{expected:?} not in {text}");
    }
    assert!(!text.contains("strip is unavailable"), "{text}");
    // One lead keeps its two-row strip: no 12-lead page.
    assert!(!text.contains("25 mm/s, 10 mm/mV"), "{text}");
    // A field left blank at intake is left out.
    assert!(!text.contains("Current medications"), "{text}");
    assert!(app
        .audit_actions()
        .await
        .contains(&"export analysis_report_pdf".to_owned()));

    let review = app
        .post(
            &format!("/api/analyses/{id}/reviews"),
            json!({"agreement": "disagree", "comment": "Sinus rhythm on my reading."}),
        )
        .await;
    assert_eq!(review.status, StatusCode::CREATED, "{}", review.text);
    let text = pdf_text(&app.get(&path).await);
    assert!(!text.contains("Not yet reviewed"), "{text}");
    for expected in [
        "Reviewed by Ana Ruiz",
        "Disagreed with the model's finding",
        "Sinus rhythm on my reading.",
    ] {
        assert!(text.contains(expected), "{expected:?} not in {text}");
    }
    let exports = app
        .audit_actions()
        .await
        .into_iter()
        .filter(|a| a == "export analysis_report_pdf")
        .count();
    assert_eq!(exports, 2);
}

pub async fn a_spanish_doctors_report_is_in_spanish(mut app: TestApp) {
    with_echo(&mut app);
    app.signed_in_doctor().await;
    app.set_language("es").await;
    let id = ecg_for_new_patient(&mut app).await;

    let text = pdf_text(&app.get(&format!("/api/analyses/{id}/report.pdf")).await);

    for expected in [
        "Informe de cribado cardiovascular",
        "Médico: Ana Ruiz",
        "María López",
        "Fecha de nacimiento",
        "Mujer",
        "Hallazgo Echo",
        "25.0% — Bajo",
        "Aún no revisado",
        "Este análisis es solo informativo y no sustituye el consejo médico profesional.",
        "Página 1 de",
    ] {
        assert!(text.contains(expected), "{expected:?} not in {text}");
    }
    assert!(!text.contains("Not yet reviewed"), "{text}");
}

pub async fn the_models_finding_recommendations_and_rule_follow_the_language(mut app: TestApp) {
    app.signed_in_doctor().await;
    let patient = app.create_patient(patient_form()).await;
    let screening = app.create_screening(&patient).await;
    let response = app
        .post(
            "/api/predict/clinical",
            json!({
                "age": 63, "chest_pain_type": 3, "cholesterol": 290.0, "fasting_blood_sugar": 130.0,
                "exercise_induced_angina": 1, "vessels_colored_by_flourosopy": 2, "thalassemia": 2,
                "screening_id": screening,
            }),
        )
        .await;
    assert_eq!(response.status, StatusCode::OK, "{}", response.text);
    let result = response.json();
    // The API keeps English sentences and adds their codes.
    assert_eq!(result["prediction"], "Coronary artery disease likely");
    assert_eq!(result["advice"][0]["code"], "clinical.high_1");
    assert_eq!(
        result["advice"].as_array().unwrap().last().unwrap()["code"],
        "disclaimer"
    );
    let id = result["analysis_id"].as_str().unwrap().to_owned();

    app.set_language("es").await;
    let text = pdf_text(&app.get(&format!("/api/analyses/{id}/report.pdf")).await);
    for expected in [
        "Enfermedad coronaria probable",
        "Probabilidad estimada alta de enfermedad coronaria",
        "Esta es una estimación de cribado de un modelo estadístico",
    ] {
        assert!(text.contains(expected), "{expected:?} not in {text}");
    }
    assert!(!text.contains("Coronary artery disease"), "{text}");

    let combined = app
        .post(&format!("/api/screenings/{screening}/combine"), json!({}))
        .await;
    assert_eq!(combined.status, StatusCode::OK, "{}", combined.text);
    assert_eq!(
        combined.json()["advice"][1],
        json!({"code": "combined.not_performed", "params": {"modality": "pcg"}})
    );
    app.set_language("fr").await;
    let text = pdf_text(
        &app.get(&format!("/api/screenings/{screening}/report.pdf"))
            .await,
    );
    for expected in [
        "Maladie coronarienne probable",
        "Risque global = le score de risque le plus élevé",
        "PCG n'a pas été réalisé dans ce dépistage",
        "Au moins une modalité (Clinique) montre un risque élevé",
    ] {
        assert!(text.contains(expected), "{expected:?} not in {text}");
    }
    assert!(!text.contains("was not performed"), "{text}");
}

pub async fn a_screening_report_has_the_combined_result_its_rule_and_the_strips(mut app: TestApp) {
    with_echo(&mut app);
    app.signed_in_doctor().await;
    let patient = app.create_patient(patient_form()).await;
    let screening = app
        .post("/api/screenings", json!({"patient_id": patient}))
        .await
        .json();
    let id = screening["id"].as_str().unwrap().to_owned();
    let mut clinical = json!({
        "age": 63, "chest_pain_type": 3, "cholesterol": 286, "fasting_blood_sugar": 100,
        "exercise_induced_angina": 1, "vessels_colored_by_flourosopy": 2, "thalassemia": 2,
        "resting_blood_pressure": 145, "st_depression": 2.3, "st_slope": 1,
    });
    clinical["screening_id"] = json!(id);
    let response = app
        .post(
            &format!("/api/patients/{patient}/clinical"),
            clinical.clone(),
        )
        .await;
    assert_eq!(response.status, StatusCode::CREATED, "{}", response.text);
    let response = app.post("/api/predict/clinical", clinical).await;
    assert_eq!(response.status, StatusCode::OK, "{}", response.text);
    let clinical = response.json();
    upload(
        &mut app,
        "/api/predict/ecg/upload",
        &[
            Part::file("ecg.csv", None, ecg_like_csv()),
            Part::text("screening_id", &id),
        ],
    )
    .await;
    upload(
        &mut app,
        "/api/predict/ppg/upload",
        &[
            Part::file("ppg.csv", None, csv_recording(12.0)),
            Part::text("screening_id", &id),
        ],
    )
    .await;
    upload(
        &mut app,
        "/api/predict/pcg/upload",
        &[
            Part::file("heart.wav", Some("audio/wav"), heart_sound_wav(8.0, 4000)),
            Part::text("screening_id", &id),
        ],
    )
    .await;
    let combined = app
        .post(&format!("/api/screenings/{id}/combine"), json!({}))
        .await;
    assert_eq!(combined.status, StatusCode::OK, "{}", combined.text);
    let path = format!("/api/screenings/{id}/report.pdf");

    let response = app.get(&path).await;

    assert!(response.headers[header::CONTENT_DISPOSITION]
        .to_str()
        .unwrap()
        .starts_with("attachment; filename="));
    let text = pdf_text(&response);
    let risk = clinical["risk_score"].as_f64().unwrap();
    let band = if risk > 0.7 {
        "High"
    } else if risk > 0.4 {
        "Moderate"
    } else {
        "Low"
    };
    for expected in [
        "María López",
        "Clinical parameters",
        "Asymptomatic",
        "286 mg/dL",
        // The optional values entered, and the sex from the patient record.
        "Sex Female",
        "Resting blood pressure 145 mm Hg",
        "ST depression 2.3 mm",
        "ST slope Flat",
        // The clinical result names the values it was computed from.
        "Computed from Age, Chest pain type, Cholesterol, Fasting blood sugar",
        "Combined result",
        &format!("Overall risk {:.1}% — {band}", risk * 100.0),
        "Overall risk = the highest risk score",
        clinical["prediction"].as_str().unwrap(),
        "ECG, lead II",
        "Pulse wave with the detected peaks marked",
        "Heart sounds with S1 and S2 marked",
        "Not yet reviewed",
        "Page 1 of",
    ] {
        assert!(text.contains(expected), "{expected:?} not in {text}");
    }
    assert!(app
        .audit_actions()
        .await
        .contains(&"export screening_report_pdf".to_owned()));

    let review = app
        .post(
            &format!("/api/screenings/{id}/reviews"),
            json!({"agreement": "agree"}),
        )
        .await;
    assert_eq!(review.status, StatusCode::CREATED, "{}", review.text);
    let text = pdf_text(&app.get(&path).await);
    assert!(text.contains("Agreed with the model's finding"), "{text}");
    assert!(!text.contains("Not yet reviewed"), "{text}");
}

pub async fn only_the_owner_downloads_a_report(mut app: TestApp) {
    with_echo(&mut app);
    let response = app.get("/api/analyses/x/report.pdf").await;
    assert_eq!(response.status, StatusCode::UNAUTHORIZED);
    app.signed_in_doctor().await;
    let analysis = ecg_for_new_patient(&mut app).await;
    let patient = app.create_patient(patient_form()).await;
    let screening = app
        .post("/api/screenings", json!({"patient_id": patient}))
        .await
        .json()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    app.logout().await;

    app.signed_in_doctor().await;
    let response = app
        .get(&format!("/api/analyses/{analysis}/report.pdf"))
        .await;
    assert_eq!(response.status, StatusCode::NOT_FOUND);
    assert_eq!(response.detail(), "Analysis not found.");
    let response = app
        .get(&format!("/api/screenings/{screening}/report.pdf"))
        .await;
    assert_eq!(response.status, StatusCode::NOT_FOUND);
    assert_eq!(response.detail(), "Screening not found.");
    assert!(!app
        .audit_actions()
        .await
        .iter()
        .any(|a| a.contains("report_pdf")));
    app.logout().await;

    let email = format!("user-{}@example.com", uuid::Uuid::new_v4().simple());
    let response = app.signup("Pat Doe", &email, "secret-pass", "user").await;
    assert_eq!(response.status, StatusCode::CREATED, "{}", response.text);
    let response = app
        .get(&format!("/api/screenings/{screening}/report.pdf"))
        .await;
    assert_eq!(response.status, StatusCode::FORBIDDEN);
    let response = app
        .get(&format!("/api/analyses/{analysis}/report.pdf"))
        .await;
    assert_eq!(response.status, StatusCode::NOT_FOUND);
}

pub async fn a_recording_that_cannot_be_read_again_still_gets_its_text(mut app: TestApp) {
    with_echo(&mut app);
    app.signed_in_doctor().await;
    let id = ecg_for_new_patient(&mut app).await;
    std::fs::remove_dir_all(app.config.data_dir.join("blobs")).unwrap();

    let text = pdf_text(&app.get(&format!("/api/analyses/{id}/report.pdf")).await);

    for expected in [
        "María López",
        "Finding Echo",
        "The recording could not be read again; its strip is unavailable.",
        "Page 1 of",
    ] {
        assert!(text.contains(expected), "{expected:?} not in {text}");
    }
    assert!(!text.contains("ECG, lead"), "{text}");
}

/// Issue 38: an ECG file that carries its device's interpretation (the GE MUSE example) gets a
/// section of its own, in the user's language, with the device's statements as it wrote them
/// and its measurements under translated names; a file without one gets no such section.
pub async fn the_ecg_devices_own_interpretation_has_its_section_in_the_users_language(
    mut app: TestApp,
) {
    with_echo(&mut app);
    app.signed_in_doctor().await;
    let plain = ecg_for_new_patient(&mut app).await;
    let text = pdf_text(&app.get(&format!("/api/analyses/{plain}/report.pdf")).await);
    assert!(!text.contains("Device interpretation"), "{text}");
    let Some(path) = cardio_testkit::dataset_file("ecg_documents/ge-muse-example.xml") else {
        return;
    };
    let muse = upload(
        &mut app,
        "/api/predict/ecg/upload",
        &[Part::file(
            "ge-muse-example.xml",
            Some("application/xml"),
            std::fs::read(path).unwrap(),
        )],
    )
    .await;
    let report = format!(
        "/api/analyses/{}/report.pdf",
        muse["analysis_id"].as_str().unwrap()
    );

    let text = pdf_text(&app.get(&report).await);

    for expected in [
        "Finding Echo",
        "Device interpretation (unconfirmed)",
        "Source GE MUSE 9.0.10.18530, 12SL 239",
        "Sinus bradycardia with sinus arrhythmia with 1st degree A-V block",
        "Otherwise normal ECG",
        "Heart rate 56 bpm",
        "PR interval 330 ms",
        "QRS duration 94 ms",
        "QTc 418 ms",
        "QRS axis -22°",
    ] {
        assert!(text.contains(expected), "{expected:?} not in {text}");
    }

    app.set_language("es").await;
    let text = pdf_text(&app.get(&report).await);
    for expected in [
        "Interpretación del dispositivo (sin confirmar)",
        "Origen GE MUSE 9.0.10.18530, 12SL 239",
        "Sinus bradycardia with sinus arrhythmia with 1st degree A-V block",
        "Intervalo PR 330 ms",
        "Eje QRS -22°",
    ] {
        assert!(text.contains(expected), "{expected:?} not in {text}");
    }
}

/// 12 s at 500 Hz of a synthetic 12-lead sinus rhythm at 75 bpm, PR 160 ms, QRS axis 60°: each
/// wave projected on each lead from its frontal direction (chest leads positive), with a little
/// seeded noise (the plausibility gate refuses a noiseless signal).
fn twelve_lead_csv() -> Vec<u8> {
    use cardio_models::ecg12::Lead;
    let fs = 500.0;
    let rr = 60.0 / 75.0;
    let gauss = |t: f64, c: f64, w: f64| (-(t - c).powi(2) / (2.0 * w * w)).exp();
    let proj = |lead: Lead, deg: f64| {
        lead.frontal_angle()
            .map_or(0.8, |a| (a - deg).to_radians().cos())
    };
    let mut text = String::from("time");
    for lead in Lead::ALL {
        let _ = write!(text, ",{}", lead.name());
    }
    text.push('\n');
    let mut state = 0x2545_f491_u64;
    for i in 0..(12.0 * fs) as usize {
        let t = i as f64 / fs;
        let _ = write!(text, "{t:.3}");
        let r = (t / rr).round() * rr + 0.35;
        for lead in Lead::ALL {
            let mut v = 0.02 * (7.0 * t).sin();
            for dk in [-1.0, 0.0, 1.0] {
                let r = r + dk * rr;
                v += 0.15 * proj(lead, 50.0) * gauss(t, r - 0.16 + 0.01, 0.02);
                v += 1.5 * proj(lead, 60.0) * gauss(t, r, 0.012);
                v += 0.35 * proj(lead, 50.0) * gauss(t, r + 0.28, 0.045);
            }
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            v += 0.004 * ((state >> 11) as f64 / (1u64 << 53) as f64 - 0.5);
            let _ = write!(text, ",{v:.4}");
        }
        text.push('\n');
    }
    text.into_bytes()
}

/// Width and height of each page, points.
fn page_sizes(bytes: &[u8]) -> Vec<(f32, f32)> {
    let doc = lopdf::Document::load_mem(bytes).unwrap();
    doc.get_pages()
        .values()
        .map(|&id| {
            let page = doc.get_object(id).unwrap().as_dict().unwrap();
            let bx = page.get(b"MediaBox").unwrap().as_array().unwrap();
            let n = |o: &lopdf::Object| o.as_float().unwrap();
            (n(&bx[2]) - n(&bx[0]), n(&bx[3]) - n(&bx[1]))
        })
        .collect()
}

pub async fn a_twelve_lead_ecg_gets_its_measurements_interpretation_and_true_scale_page(
    mut app: TestApp,
) {
    app.signed_in_doctor().await;
    let patient = app.create_patient(patient_form()).await;
    let result = upload(
        &mut app,
        "/api/predict/ecg/upload",
        &[
            Part::file("twelve.csv", Some("text/csv"), twelve_lead_csv()),
            Part::text("patient_id", &patient),
        ],
    )
    .await;
    let details = &result["details"];
    assert_eq!(
        details["leads_used"].as_array().unwrap().len(),
        12,
        "{details}"
    );
    let m = &details["measurements"];
    let ms = |key: &str| {
        m[key]
            .as_f64()
            .unwrap_or_else(|| panic!("no {key} in {m}"))
            .round() as i64
    };
    let statements: Vec<&str> = details["statements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["text"].as_str().unwrap())
        .collect();
    assert!(statements.contains(&"Sinus rhythm"), "{statements:?}");
    let id = result["analysis_id"].as_str().unwrap().to_owned();
    let path = format!("/api/analyses/{id}/report.pdf");
    let measured = [
        format!("PR {} ms", ms("pr_ms")),
        format!("QRS {} ms", ms("qrs_ms")),
        format!("QT/QTc {}/{} ms (Bazett)", ms("qt_ms"), ms("qtc_bazett_ms")),
    ];

    let response = app.get(&path).await;

    let text = pdf_text(&response);
    for expected in measured.iter().map(String::as_str).chain([
        "Computer interpretation — unconfirmed",
        "12-lead ECG",
        "Scale: 25 mm/s, 10 mm/mV",
        "The leads are drawn at true scale on the last page.",
        "aVR",
        "V6",
    ]) {
        assert!(text.contains(expected), "{expected:?} not in {text}");
    }
    for statement in &statements {
        assert!(text.contains(statement), "{statement:?} not in {text}");
    }
    assert!(!text.contains("Interpretation confirmed by"), "{text}");
    assert!(!text.contains("ECG, lead II"), "{text}");
    // The 12-lead page is the last, landscape A4 (842 x 595 pt); the others portrait.
    let sizes = page_sizes(&response.bytes);
    let (w, h) = *sizes.last().unwrap();
    assert!(
        (w - 841.89).abs() < 1.0 && (h - 595.28).abs() < 1.0,
        "{sizes:?}"
    );
    assert!(
        sizes[..sizes.len() - 1].iter().all(|(w, h)| w < h),
        "{sizes:?}"
    );

    let review = app
        .post(
            &format!("/api/analyses/{id}/reviews"),
            json!({"agreement": "agree", "interpretation": [
                {"code": "sinus_rhythm"},
                {"text": "Compared with 2024: unchanged"},
            ]}),
        )
        .await;
    assert_eq!(review.status, StatusCode::CREATED, "{}", review.text);
    let text = pdf_text(&app.get(&path).await);
    for expected in measured.iter().map(String::as_str).chain([
        "Interpretation confirmed by Ana Ruiz on",
        "Sinus rhythm",
        "Compared with 2024: unchanged",
    ]) {
        assert!(text.contains(expected), "{expected:?} not in {text}");
    }
    assert!(!text.contains("Computer interpretation"), "{text}");

    app.set_language("es").await;
    let text = pdf_text(&app.get(&path).await);
    for expected in measured.iter().map(String::as_str).chain([
        "Interpretación confirmada por Ana Ruiz el",
        "Ritmo sinusal",
        "Compared with 2024: unchanged",
        "ECG de 12 derivaciones",
        "Escala: 25 mm/s, 10 mm/mV",
    ]) {
        assert!(text.contains(expected), "{expected:?} not in {text}");
    }
}

/// A 4-minute single-lead ECG goes through the whole-record reading (longer than 60 s): its report
/// has the Holter summary with the time analysed, the AF burden and the episodes table (or the
/// sentence saying none was found), in English and then in Spanish.
pub async fn a_long_ecg_gets_its_holter_summary_in_the_users_language(mut app: TestApp) {
    app.signed_in_doctor().await;
    let id = app.upload_long_ecg().await;
    let path = format!("/api/analyses/{id}/report.pdf");

    let text = pdf_text(&app.get(&path).await);

    for expected in [
        "Holter summary",
        "Recording: ",
        " analysed, ",
        "AF burden: ",
    ] {
        assert!(text.contains(expected), "{expected:?} not in {text}");
    }
    assert!(
        text.contains("Episode Start End Duration")
            || text.contains("No episode was found in the recording."),
        "{text}"
    );

    app.set_language("es").await;
    let text = pdf_text(&app.get(&path).await);
    for expected in ["Resumen Holter", "Registro: ", "Carga de FA: "] {
        assert!(text.contains(expected), "{expected:?} not in {text}");
    }
    assert!(!text.contains("Holter summary"), "{text}");
}
