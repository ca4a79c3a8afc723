//! Heart sounds recorded at the auscultation sites of the protocol (AV, PV, TV, MV): each upload
//! says its site, each result carries the murmur model's reading of that site, and the screening's
//! murmur verdict is decided again over the newest recording of every site (present when heard at
//! one), shown in the combined result, the PDF and the FHIR export. A bad site is refused with a
//! clear error before anything is stored.

use axum::http::StatusCode;
use cardio_models::murmur::{self, Reading};
use serde_json::{json, Value};

use crate::{
    fhir::{resources, validate},
    helpers::{clinical_form, merge, patient_form, Part, TestApp},
    predict::{csv_recording, wav_from_samples, with_echo},
    report_pdf::pdf_text,
};

crate::backend_tests!(
    heart_sounds_at_two_sites_give_one_murmur_verdict_over_both,
    three_seconds_at_a_site_give_its_murmur_verdict_but_no_normal_abnormal_one,
    a_site_that_is_not_a_valve_area_or_not_for_heart_sounds_is_refused,
);

/// A recording of CirCor patient 85133 (a murmur heard at all four sites), when the datasets are
/// unpacked.
fn circor_recording(site: &str) -> Option<Vec<u8>> {
    let path =
        cardio_testkit::dataset_file(&format!("circor_sample/training_data/85133_{site}.wav"))?;
    Some(std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
}

/// The first `seconds` of a recording of CirCor patient 85133 at `site`, as a 16-bit WAV.
fn circor_first_seconds(site: &str, seconds: f64) -> Option<Vec<u8>> {
    let path =
        cardio_testkit::dataset_file(&format!("circor_sample/training_data/85133_{site}.wav"))?;
    let rec = cardio_formats::read_path(&path).unwrap();
    let x = &rec.channels[0].samples;
    let keep = &x[..(seconds * rec.sampling_rate_hz) as usize];
    let peak = keep.iter().fold(0.0_f64, |m, v| m.max(v.abs()));
    let samples: Vec<i16> = keep
        .iter()
        .map(|v| (v / peak * 30_000.0).round() as i16)
        .collect();
    Some(wav_from_samples(&samples, rec.sampling_rate_hz as u32))
}

async fn upload_at(app: &mut TestApp, screening: &str, site: &str, bytes: Vec<u8>) -> Value {
    let response = app
        .upload(
            "/api/predict/pcg/upload",
            &[
                Part::file(&format!("heart-{site}.wav"), Some("audio/wav"), bytes),
                Part::text("screening_id", screening),
                Part::text("site", site),
            ],
        )
        .await;
    assert_eq!(response.status, StatusCode::OK, "{}", response.text);
    response.json()
}

/// A clinic recording of 3 s at one site: too short for the normal/abnormal decision (unsure, and
/// the advice says why), read by the murmur model, whose verdict is the screening's.
pub async fn three_seconds_at_a_site_give_its_murmur_verdict_but_no_normal_abnormal_one(
    mut app: TestApp,
) {
    let Some(mv) = circor_first_seconds("MV", 3.0) else {
        return;
    };
    app.signed_in_doctor().await;
    let patient = app.create_patient(patient_form()).await;
    let screening = app.create_screening(&patient).await;
    let result = upload_at(&mut app, &screening, "MV", mv).await;
    assert_eq!(result["label"], "unsure", "{result}");
    assert_eq!(
        result["prediction"],
        "Unsure: this recording cannot be judged"
    );
    assert_eq!(result["details"]["duration_s"], 3.0);
    assert!(
        result["recommendations"][0]
            .as_str()
            .unwrap()
            .starts_with("This recording is 3.0 s long: heart sounds are judged normal or abnormal on 5 s or more, so only the murmur was read"),
        "{result}"
    );
    let shown = &result["details"]["murmur"];
    let reading = Reading::from_value(shown).expect("the murmur model read the 3 s");
    let decided = murmur::model().unwrap().decide(&[Some(reading)]);
    assert_eq!(shown["verdict"], decided.verdict.as_str());
    let draft = app
        .get(&format!("/api/screenings/{screening}"))
        .await
        .json();
    let m = &draft["murmur"];
    assert_eq!(m["verdict"], shown["verdict"], "{draft}");
    assert_eq!(m["sites"][0]["site"], "MV");
    assert_eq!(m["sites"][0]["analysis_id"], result["analysis_id"]);
    // The analysis' PDF gives no risk for a result that could not be judged.
    let id = result["analysis_id"].as_str().unwrap();
    let text = pdf_text(&app.get(&format!("/api/analyses/{id}/report.pdf")).await);
    assert!(
        text.contains("Unsure: this recording cannot be judged"),
        "{text}"
    );
    assert!(text.contains("Risk — Signal quality"), "{text}");
}

pub async fn heart_sounds_at_two_sites_give_one_murmur_verdict_over_both(mut app: TestApp) {
    let (Some(av), Some(mv), Some(pv)) = (
        circor_recording("AV"),
        circor_recording("MV"),
        circor_recording("PV"),
    ) else {
        return;
    };
    app.signed_in_doctor().await;
    let patient = app.create_patient(patient_form()).await;
    let screening = app.create_screening(&patient).await;
    // Recorded in the protocol's reverse order: the result lists them in the protocol's order.
    let at_mv = upload_at(&mut app, &screening, "MV", mv).await;
    let at_av = upload_at(&mut app, &screening, "AV", av).await;

    let listed = app
        .get(&format!("/api/analyses?screening_id={screening}"))
        .await
        .json();
    let sites: Vec<&str> = listed
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["site"].as_str().unwrap())
        .collect();
    assert_eq!(sites, ["AV", "MV"], "newest first");

    // A clinical result, so that the screening can be combined whatever the heart sounds give.
    let clinical = app
        .post(
            "/api/predict/clinical",
            merge(clinical_form(), json!({"screening_id": screening})),
        )
        .await;
    assert_eq!(clinical.status, StatusCode::OK, "{}", clinical.text);
    // The step reads the verdict from the draft screening, before anything is combined.
    let draft = app
        .get(&format!("/api/screenings/{screening}"))
        .await
        .json();
    assert!(draft["combined"].is_null(), "{draft}");
    let combined = app
        .post(&format!("/api/screenings/{screening}/combine"), json!({}))
        .await;
    assert_eq!(combined.status, StatusCode::OK, "{}", combined.text);
    let combined = combined.json();
    assert_eq!(combined["murmur"], draft["murmur"]);
    // The heart-sound modality is the site with the highest judged risk.
    let judged = |r: &Value| !["unsure", "noisy"].contains(&r["label"].as_str().unwrap());
    let riskiest = [&at_av, &at_mv]
        .into_iter()
        .filter(|r| judged(r))
        .max_by(|a, b| {
            a["risk_score"]
                .as_f64()
                .unwrap()
                .total_cmp(&b["risk_score"].as_f64().unwrap())
        });
    let pcg = &combined["modalities"][1];
    assert_eq!(pcg["modality"], "pcg");
    if let Some(r) = riskiest {
        assert_eq!(pcg["analysis_id"], r["analysis_id"], "{combined}");
    }
    let m = &combined["murmur"];
    let by_site: Vec<(&str, &str)> = m["sites"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["site"].as_str().unwrap(),
                s["analysis_id"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        by_site,
        [
            ("AV", at_av["analysis_id"].as_str().unwrap()),
            ("MV", at_mv["analysis_id"].as_str().unwrap()),
        ]
    );
    // Each site's verdict is its own result's; the patient's is the model's rule over both.
    let results = [&at_av, &at_mv];
    for (site, result) in m["sites"].as_array().unwrap().iter().zip(results) {
        assert_eq!(site["verdict"], result["details"]["murmur"]["verdict"]);
    }
    let readings: Vec<Option<Reading>> = results
        .iter()
        .map(|r| Reading::from_value(&r["details"]["murmur"]))
        .collect();
    let decided = murmur::model().unwrap().decide(&readings);
    assert_eq!(m["verdict"], decided.verdict.as_str(), "{m}");
    let heard: Vec<&str> = m["sites"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["verdict"] == "present")
        .map(|s| s["site"].as_str().unwrap())
        .collect();
    assert_eq!(m["heard_at"], json!(heard));
    assert_eq!(m["verdict"] == "present", !heard.is_empty(), "{m}");
    if m["verdict"] == "present" {
        assert!(m["timing"].is_string() && m["grade"].is_string(), "{m}");
    }

    // The PDF names the murmur and every site recorded.
    let text = pdf_text(
        &app.get(&format!("/api/screenings/{screening}/report.pdf"))
            .await,
    );
    let word = match m["verdict"].as_str().unwrap() {
        "present" => "Heart murmur Present — heard at",
        "absent" => "Heart murmur Absent",
        _ => "Heart murmur Unknown",
    };
    assert!(text.contains(word), "{text}");
    assert!(
        text.contains("Aortic area (AV)") && text.contains("Mitral area (MV)"),
        "{text}"
    );

    // The CSV export names each recording's site.
    let csv = app.get("/api/analyses/export.csv").await.text;
    let mut reader = csv::Reader::from_reader(csv.as_bytes());
    let mut column = |name: &str| {
        reader
            .headers()
            .unwrap()
            .iter()
            .position(|h| h == name)
            .unwrap()
    };
    let (id_at, site_at) = (column("analysis_id"), column("site"));
    let exported: Vec<(String, String)> = reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            (r[id_at].to_owned(), r[site_at].to_owned())
        })
        .filter(|(_, site)| !site.is_empty())
        .collect();
    assert_eq!(
        exported,
        [
            (
                at_av["analysis_id"].as_str().unwrap().to_owned(),
                "AV".to_owned()
            ),
            (
                at_mv["analysis_id"].as_str().unwrap().to_owned(),
                "MV".to_owned()
            ),
        ]
    );

    // FHIR: one murmur Observation per recording, with its site, and the screening's over them, valid R4.
    let bundle = app
        .get(&format!("/api/patients/{patient}/fhir"))
        .await
        .json();
    validate(&bundle).unwrap();
    let (murmurs, over_sites): (Vec<&Value>, Vec<&Value>) = resources(&bundle, "Observation")
        .into_iter()
        .filter(|o| o["code"]["coding"][0]["code"] == "88610006")
        .partition(|o| o.get("bodySite").is_some());
    let body_sites: Vec<&str> = murmurs
        .iter()
        .map(|o| o["bodySite"]["text"].as_str().unwrap())
        .collect();
    assert_eq!(murmurs.len(), 2);
    assert!(
        body_sites.contains(&"Aortic valve area (AV)"),
        "{body_sites:?}"
    );
    assert!(
        body_sites.contains(&"Mitral valve area (MV)"),
        "{body_sites:?}"
    );
    // The screening's: its verdict, the sites' observations as its members, in the screening's report.
    assert_eq!(over_sites.len(), 1);
    let screening_murmur = over_sites[0];
    assert_eq!(
        screening_murmur["valueCodeableConcept"]["text"],
        m["verdict"]
    );
    let url_of = |id: &Value| format!("urn:uuid:{}", id.as_str().unwrap());
    let mut members: Vec<String> = screening_murmur["hasMember"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["reference"].as_str().unwrap().to_owned())
        .collect();
    let mut sites: Vec<String> = murmurs.iter().map(|o| url_of(&o["id"])).collect();
    members.sort();
    sites.sort();
    assert_eq!(members, sites);
    let screening_report = resources(&bundle, "DiagnosticReport")
        .into_iter()
        .find(|r| r["code"]["text"] == "Cardiovascular screening (combined result)")
        .unwrap();
    assert_eq!(
        screening_report["result"][0]["reference"].as_str().unwrap(),
        url_of(&screening_murmur["id"])
    );
    for o in murmurs.into_iter().chain([screening_murmur]) {
        let verdict = o["valueCodeableConcept"]["text"].as_str().unwrap();
        let code = o["valueCodeableConcept"]["coding"][0]["code"]
            .as_str()
            .unwrap();
        let want = match verdict {
            "present" => "52101004",
            "absent" => "2667000",
            _ => "261665006",
        };
        assert_eq!(code, want);
    }

    // A recording made again at a site replaces that site's, and only that site's.
    let again = upload_at(&mut app, &screening, "AV", pv).await;
    let combined = app
        .post(&format!("/api/screenings/{screening}/combine"), json!({}))
        .await
        .json();
    let ids: Vec<&str> = combined["murmur"]["sites"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["analysis_id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        [
            again["analysis_id"].as_str().unwrap(),
            at_mv["analysis_id"].as_str().unwrap()
        ]
    );
}

pub async fn a_site_that_is_not_a_valve_area_or_not_for_heart_sounds_is_refused(mut app: TestApp) {
    with_echo(&mut app);
    app.signed_in_doctor().await;
    let patient = app.create_patient(patient_form()).await;
    let screening = app.create_screening(&patient).await;
    let cases = [
        (
            "/api/predict/pcg/upload",
            "Phc",
            "The auscultation site must be AV, PV, TV or MV, not Phc.",
            "site_unknown",
        ),
        (
            "/api/predict/ppg/upload",
            "AV",
            "An auscultation site is given for heart-sound recordings only.",
            "site_heart_sounds_only",
        ),
    ];
    for (path, site, message, code) in cases {
        let response = app
            .upload(
                path,
                &[
                    Part::file("x.csv", Some("text/csv"), csv_recording(12.0)),
                    Part::text("screening_id", &screening),
                    Part::text("site", site),
                ],
            )
            .await;
        assert_eq!(response.status, StatusCode::UNPROCESSABLE_ENTITY, "{site}");
        assert_eq!(response.detail(), message);
        assert_eq!(response.json()["code"], code);
    }
    let stored = app
        .get(&format!("/api/analyses?screening_id={screening}"))
        .await
        .json();
    assert_eq!(stored, json!([]));
}
