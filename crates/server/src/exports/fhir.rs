//! `GET /api/patients/{id}/fhir`: everything stored for one of the doctor's patients as a FHIR R4
//! `Bundle` of type `collection`, for another system to import.
//!
//! - `Patient` (name, gender, birth date, telecom, address);
//! - `Observation`s: heart rate (LOINC 8867-4) of each recording's analysis; an ECG's intervals
//!   and axes from its 12-lead reading ([`ECG_MEASUREMENTS`]: PR 8625-6, QRS 8633-0, QT 8634-8,
//!   QTc 8636-3, P/QRS/T axes 8626-4/8632-2/8638-7, UCUM `ms` and `deg`); the clinical
//!   parameters (age LOINC 30525-0, cholesterol 2093-3, fasting glucose 1558-6; the others, which
//!   LOINC has no code for, by text); each recording's analysed channel as `valueSampledData`
//!   (origin, period in ms, factor, dimensions; at most the first 60 s); a heart-sound recording's
//!   murmur ([`murmur_observation`]: SNOMED CT 88610006 "Heart murmur", present 52101004 / absent
//!   2667000 / unknown 261665006, the auscultation site as `bodySite`, timing and Levine grade as
//!   components), and a screening's verdict over its sites as one more, whose `hasMember` are the
//!   sites' ([`screening_murmur`]);
//! - `DiagnosticReport`s for the analyses and the combined screenings (`conclusion`; status
//!   `final` once the doctor signed it off, `preliminary` before); an ECG's report leads its
//!   conclusion with the interpretation the doctor confirmed, each statement also a
//!   `conclusionCode` (SNOMED CT where the statements table has a concept, text otherwise), or
//!   with Cardio's statements marked unconfirmed until a doctor confirms them;
//! - a `Device` per model (id and version) that produced a result.
//!
//! Each report's `presentedForm` points at its PDF (`/api/analyses/{id}/report.pdf`,
//! `/api/screenings/{id}/report.pdf`; same server, same sign-in). Every export is audited.

use std::collections::BTreeMap;

use axum::{extract::State, routing::get, Router};
use cardio_models::{
    analysis::Kind,
    waveform::{Waveform, MAX_WINDOW_S},
};
use serde_json::{json, Map, Value};

use crate::platform::extract::Path;
use crate::{
    accounts::auth::{session::CurrentDoctor, ClientAddr},
    platform::audit::{self, Action},
    platform::db::{ms_to_rfc3339, now_ms},
    platform::error::{ApiError, ErrorBody},
    platform::extract::Json,
    platform::state::AppState,
    recordings::stored::Recordings,
    records::analyses::{self, store::Analysis, store::Modality},
    records::clinical::{self, store::ClinicalRecord},
    records::patients::{self, Patient, PATIENT_NOT_FOUND},
    records::reviews::store::Agreement,
    records::screenings::{self, store::Screening},
};

const LOINC: &str = "http://loinc.org";
const UCUM: &str = "http://unitsofmeasure.org";
const CATEGORY: &str = "http://terminology.hl7.org/CodeSystem/observation-category";
const SNOMED: &str = "http://snomed.info/sct";

/// An ECG result's `details.measurements` as LOINC observations: (key, LOINC code, display,
/// unit, UCUM code). The QTc is Bazett's, as the result shows it.
pub const ECG_MEASUREMENTS: [(&str, &str, &str, &str, &str); 7] = [
    ("pr_ms", "8625-6", "P-R Interval", "ms", "ms"),
    ("qrs_ms", "8633-0", "QRS duration", "ms", "ms"),
    ("qt_ms", "8634-8", "Q-T interval", "ms", "ms"),
    (
        "qtc_bazett_ms",
        "8636-3",
        "Q-T interval corrected",
        "ms",
        "ms",
    ),
    ("p_axis_deg", "8626-4", "P wave axis", "degrees", "deg"),
    ("qrs_axis_deg", "8632-2", "QRS axis", "degrees", "deg"),
    ("t_axis_deg", "8638-7", "T wave axis", "degrees", "deg"),
];

/// The routes of this module, mounted under `/api`.
pub fn router() -> Router<AppState> {
    Router::new().route("/patients/{id}/fhir", get(export))
}

/// A bundle under construction: resources with `urn:uuid:` full URLs.
#[derive(Default)]
struct BundleBuilder {
    entries: Vec<Value>,
}

impl BundleBuilder {
    /// Adds a resource and returns the reference to it.
    fn add(&mut self, mut resource: Value) -> String {
        let id = uuid::Uuid::new_v4().to_string();
        resource["id"] = json!(id);
        let url = format!("urn:uuid:{id}");
        self.entries
            .push(json!({"fullUrl": url.clone(), "resource": resource}));
        url
    }

    fn finish(self) -> Value {
        json!({
            "resourceType": "Bundle",
            "type": "collection",
            "timestamp": ms_to_rfc3339(now_ms()),
            "entry": self.entries,
        })
    }
}

fn category(code: &str) -> Value {
    json!([{"coding": [{"system": CATEGORY, "code": code}]}])
}

fn loinc(code: &str, display: &str) -> Value {
    json!({"coding": [{"system": LOINC, "code": code, "display": display}], "text": display})
}

/// SNOMED CT "Heart murmur" (finding).
const HEART_MURMUR: (&str, &str) = ("88610006", "Heart murmur");

/// The SNOMED CT qualifier of a murmur verdict.
fn murmur_value(verdict: &str) -> Value {
    let (code, display) = match verdict {
        "present" => ("52101004", "Present"),
        "absent" => ("2667000", "Absent"),
        _ => ("261665006", "Unknown"),
    };
    json!({"coding": [{"system": SNOMED, "code": code, "display": display}], "text": verdict})
}

/// The heart-murmur `Observation` of `verdict` with its timing and grade as components.
fn murmur_resource(
    verdict: &str,
    timing: Option<&str>,
    grade: Option<&str>,
    subject: &str,
    when: &str,
) -> Value {
    let mut observation = json!({
        "resourceType": "Observation",
        "status": "final",
        "category": category("exam"),
        "code": {
            "coding": [{"system": SNOMED, "code": HEART_MURMUR.0, "display": HEART_MURMUR.1}],
            "text": HEART_MURMUR.1,
        },
        "subject": {"reference": subject},
        "effectiveDateTime": when,
        "valueCodeableConcept": murmur_value(verdict),
    });
    let components: Vec<Value> = [("Murmur timing", timing), ("Murmur grade (Levine)", grade)]
        .into_iter()
        .filter_map(|(name, value)| {
            value.map(|v| json!({"code": {"text": name}, "valueCodeableConcept": {"text": v}}))
        })
        .collect();
    if !components.is_empty() {
        observation["component"] = json!(components);
    }
    observation
}

/// A heart-sound analysis's murmur (`details.murmur`) as an exam `Observation`, with the
/// recording's auscultation site as its body site; `None` for any other result.
fn murmur_observation(a: &Analysis, subject: &str, device: &str) -> Option<Value> {
    let m = a
        .result
        .details
        .get("murmur")
        .filter(|_| a.modality == Modality::Pcg)?;
    let text = |k: &str| m.get(k).and_then(Value::as_str);
    let mut observation = murmur_resource(
        text("verdict").unwrap_or("unknown"),
        text("timing"),
        text("grade"),
        subject,
        &a.created_at,
    );
    observation["device"] = json!({"reference": device});
    if let Some(site) = a.site {
        observation["bodySite"] = json!({"text": format!("{} ({})", site.area(), site.label())});
    }
    Some(observation)
}

/// A screening's murmur verdict over its sites (`Screening::murmur`) as an `Observation` whose
/// members are the sites' own (`site_murmurs`: analysis id to its observation); `None` without one.
fn screening_murmur(
    s: &Screening,
    subject: &str,
    site_murmurs: &BTreeMap<String, String>,
) -> Option<Value> {
    let m = s.murmur.as_ref()?;
    let mut observation = murmur_resource(
        &m.verdict,
        m.timing.as_deref(),
        m.grade.as_deref(),
        subject,
        &s.updated_at,
    );
    let members: Vec<Value> = m
        .sites
        .iter()
        .filter_map(|x| site_murmurs.get(&x.analysis_id))
        .map(|r| json!({"reference": r}))
        .collect();
    if !members.is_empty() {
        observation["hasMember"] = json!(members);
    }
    let heard: Vec<&str> = m.heard_at.iter().map(|x| x.label()).collect();
    let note = if heard.is_empty() {
        format!("Over {} auscultation site(s).", m.sites.len())
    } else {
        format!(
            "Over {} auscultation site(s); heard at {}.",
            m.sites.len(),
            heard.join(", ")
        )
    };
    observation["note"] = json!([{ "text": note }]);
    Some(observation)
}

fn quantity(value: f64, unit: &str, code: &str) -> Value {
    json!({"value": value, "unit": unit, "system": UCUM, "code": code})
}

fn patient_resource(p: &Patient) -> Value {
    let mut resource = json!({
        "resourceType": "Patient",
        "identifier": [{"system": "urn:cardio:patient", "value": p.id}],
        "active": matches!(p.status, patients::fields::Status::Active),
        "name": [{"family": p.last_name, "given": [p.first_name]}],
        "gender": p.gender.as_str(),
        "birthDate": p.date_of_birth,
    });
    let mut telecom = vec![json!({"system": "phone", "value": p.phone})];
    if let Some(email) = p.email.as_deref().filter(|e| !e.is_empty()) {
        telecom.push(json!({"system": "email", "value": email}));
    }
    resource["telecom"] = json!(telecom);
    let mut address = Map::new();
    if let Some(line) = p.address.as_deref().filter(|v| !v.is_empty()) {
        address.insert("line".into(), json!([line]));
    }
    for (key, value) in [
        ("city", &p.city),
        ("state", &p.state),
        ("postalCode", &p.zip_code),
    ] {
        if let Some(value) = value.as_deref().filter(|v| !v.is_empty()) {
            address.insert(key.into(), json!(value));
        }
    }
    if !address.is_empty() {
        resource["address"] = json!([address]);
    }
    resource
}

/// What the intake recorded of the patient's history, as free text (FHIR R4 allows `code.text`
/// alone): the medical history as a `Condition`, the current medications as a
/// `MedicationStatement` (status `active`, as told at intake) and the allergies as an
/// `AllergyIntolerance`; a blank field gives no resource.
fn history_resources(p: &Patient, subject: &str) -> Vec<Value> {
    let text = |v: &Option<String>| {
        v.as_deref()
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .map(str::to_owned)
    };
    let mut out = Vec::new();
    if let Some(history) = text(&p.medical_history) {
        out.push(json!({
            "resourceType": "Condition",
            "category": [{"coding": [{
                "system": "http://terminology.hl7.org/CodeSystem/condition-category",
                "code": "problem-list-item",
            }]}],
            "code": {"text": history},
            "subject": {"reference": subject},
            "note": [{"text": "Medical history as recorded at intake."}],
        }));
    }
    if let Some(medications) = text(&p.current_medications) {
        out.push(json!({
            "resourceType": "MedicationStatement",
            "status": "active",
            "medicationCodeableConcept": {"text": medications},
            "subject": {"reference": subject},
            "note": [{"text": "Current medications as recorded at intake."}],
        }));
    }
    if let Some(allergies) = text(&p.allergies) {
        out.push(json!({
            "resourceType": "AllergyIntolerance",
            "code": {"text": allergies},
            "patient": {"reference": subject},
            "note": [{"text": "Allergies as recorded at intake."}],
        }));
    }
    out
}

/// The clinical parameters of one entry as observations (LOINC where LOINC has a code).
fn clinical_observations(record: &ClinicalRecord, subject: &str) -> Vec<Value> {
    let p = &record.parameters;
    let base = |code: Value, category_code: &str| {
        json!({
            "resourceType": "Observation",
            "status": "final",
            "category": category(category_code),
            "code": code,
            "subject": {"reference": subject},
            "effectiveDateTime": record.created_at,
        })
    };
    let chest_pain = [
        "Typical angina",
        "Atypical angina",
        "Non-anginal pain",
        "Asymptomatic",
    ];
    let thal = ["Normal", "Fixed defect", "Reversible defect"];
    let pick = |names: &[&str], i: i64| {
        usize::try_from(i)
            .ok()
            .and_then(|i| names.get(i).copied())
            .unwrap_or("Unknown")
            .to_owned()
    };
    let mut age = base(loinc("30525-0", "Age"), "exam");
    age["valueQuantity"] = quantity(p.age as f64, "years", "a");
    let mut cholesterol = base(
        loinc("2093-3", "Cholesterol [Mass/volume] in Serum or Plasma"),
        "laboratory",
    );
    cholesterol["valueQuantity"] = quantity(p.cholesterol, "mg/dL", "mg/dL");
    let mut glucose = base(
        loinc("1558-6", "Fasting glucose [Mass/volume] in Serum or Plasma"),
        "laboratory",
    );
    glucose["valueQuantity"] = quantity(p.fasting_blood_sugar, "mg/dL", "mg/dL");
    let mut pain = base(json!({"text": "Chest pain type"}), "exam");
    pain["valueCodeableConcept"] = json!({"text": pick(&chest_pain, p.chest_pain_type)});
    let mut angina = base(json!({"text": "Exercise-induced angina"}), "exam");
    angina["valueBoolean"] = json!(p.exercise_induced_angina == 1);
    let mut vessels = base(
        json!({"text": "Major vessels colored by fluoroscopy"}),
        "imaging",
    );
    vessels["valueInteger"] = json!(p.vessels_colored_by_flourosopy);
    let mut thalassemia = base(
        json!({"text": "Thalassemia (thallium stress test)"}),
        "imaging",
    );
    thalassemia["valueCodeableConcept"] = json!({"text": pick(&thal, p.thalassemia)});
    let mut observations = vec![
        age,
        cholesterol,
        glucose,
        pain,
        angina,
        vessels,
        thalassemia,
    ];
    // The optional parameters, where entered (sex is the Patient resource's gender).
    if let Some(v) = p.resting_blood_pressure {
        let mut bp = base(loinc("8480-6", "Systolic blood pressure"), "vital-signs");
        bp["valueQuantity"] = quantity(v, "mm[Hg]", "mm[Hg]");
        observations.push(bp);
    }
    if let Some(v) = p.resting_ecg {
        let names = [
            "Normal",
            "ST-T wave abnormality",
            "Left ventricular hypertrophy",
        ];
        let mut ecg = base(json!({"text": "Resting ECG"}), "exam");
        ecg["valueCodeableConcept"] = json!({"text": pick(&names, v)});
        observations.push(ecg);
    }
    if let Some(v) = p.max_heart_rate {
        let mut hr = base(
            json!({"text": "Maximum heart rate achieved at exercise"}),
            "exam",
        );
        hr["valueQuantity"] = quantity(v, "/min", "/min");
        observations.push(hr);
    }
    if let Some(v) = p.st_depression {
        let mut st = base(
            json!({"text": "ST depression induced by exercise relative to rest"}),
            "exam",
        );
        st["valueQuantity"] = quantity(v, "mm", "mm");
        observations.push(st);
    }
    if let Some(v) = p.st_slope {
        let names = ["Upsloping", "Flat", "Downsloping"];
        let mut slope = base(
            json!({"text": "Slope of the peak exercise ST segment"}),
            "exam",
        );
        slope["valueCodeableConcept"] = json!({"text": pick(&names, v)});
        observations.push(slope);
    }
    observations
}

/// The signal as `SampledData`: integers times `factor` (µV for ECG), `E` for invalid samples.
fn sampled_data(w: &Waveform) -> Option<(Value, String, String)> {
    let channel = w.channels.get(w.analysed_channel)?;
    let finite = channel.samples.iter().flatten().map(|v| f64::from(*v));
    let peak = finite.fold(0.0_f64, |m, v| m.max(v.abs()));
    let factor = match w.kind {
        Kind::Ecg => 0.001,
        _ if peak > 0.0 => peak / 10_000.0,
        _ => 1.0,
    };
    let data = channel
        .samples
        .iter()
        .map(|v| match v {
            #[allow(clippy::cast_possible_truncation)]
            Some(v) => format!("{}", (f64::from(*v) / factor).round() as i64),
            None => "E".to_owned(),
        })
        .collect::<Vec<_>>()
        .join(" ");
    if data.is_empty() {
        return None;
    }
    let unit = if channel.unit.is_empty() {
        "1".to_owned()
    } else {
        channel.unit.clone()
    };
    let value = json!({
        "origin": {"value": 0, "unit": unit, "system": UCUM, "code": unit},
        "period": 1000.0 / w.sampling_rate_hz,
        "factor": factor,
        "dimensions": 1,
        "data": data,
    });
    Some((value, channel.name.clone(), unit))
}

fn report_status(review: Option<&crate::records::reviews::store::Review>) -> &'static str {
    if review.is_some() {
        "final"
    } else {
        "preliminary"
    }
}

fn review_note(review: Option<&crate::records::reviews::store::Review>) -> Option<Value> {
    review.map(|r| {
        let verdict = match r.agreement {
            Agreement::Agree => "agreed with the model's finding",
            Agreement::Disagree => "disagreed with the model's finding",
        };
        let text = if r.comment.is_empty() {
            format!(
                "Reviewed by {} on {}: {verdict}.",
                r.reviewer_name, r.created_at
            )
        } else {
            format!(
                "Reviewed by {} on {}: {verdict}. {}",
                r.reviewer_name, r.created_at, r.comment
            )
        };
        json!(text)
    })
}

/// An ECG's interpretation for its report: the confirmed statements (a sentence that names who
/// confirmed them, and one `conclusionCode` each), or else Cardio's own statements marked
/// unconfirmed (no codes: nobody has confirmed them).
fn ecg_interpretation(a: &Analysis) -> Option<(String, Vec<Value>)> {
    if a.modality != Modality::Ecg {
        return None;
    }
    if let Some((review, statements)) = a
        .review
        .as_ref()
        .and_then(|r| r.interpretation.as_ref().map(|s| (r, s)))
    {
        let texts: Vec<&str> = statements.iter().map(|s| s.text.as_str()).collect();
        let codes = statements
            .iter()
            .map(|s| {
                let snomed = s
                    .code
                    .as_deref()
                    .and_then(cardio_models::ecg12::statements::def)
                    .and_then(|d| d.snomed);
                match snomed {
                    Some(code) => json!({
                        "coding": [{"system": SNOMED, "code": code, "display": s.text}],
                        "text": s.text,
                    }),
                    None => json!({"text": s.text}),
                }
            })
            .collect();
        let sentence = format!(
            "Interpretation confirmed by {} on {}: {}.",
            review.reviewer_name,
            review.created_at,
            texts.join("; ")
        );
        return Some((sentence, codes));
    }
    let statements = a.result.details.get("statements")?.as_array()?;
    let texts: Vec<&str> = statements
        .iter()
        .filter_map(|s| s.get("text").and_then(Value::as_str))
        .collect();
    (!texts.is_empty()).then(|| {
        (
            format!(
                "Computer interpretation, unconfirmed: {}.",
                texts.join("; ")
            ),
            Vec::new(),
        )
    })
}

fn report_code(modality: Modality) -> Value {
    match modality {
        Modality::Ecg => loinc("11524-6", "EKG study"),
        Modality::Pcg => json!({"text": "Heart sound (phonocardiogram) analysis"}),
        Modality::Ppg => json!({"text": "Pulse (photoplethysmogram) rhythm analysis"}),
        Modality::Clinical => {
            json!({"text": "Coronary artery disease risk from clinical parameters"})
        }
    }
}

/// Everything of one analysis: heart rate and signal observations and its report.
fn analysis_resources(
    bundle: &mut BundleBuilder,
    a: &Analysis,
    signal: Option<&Waveform>,
    subject: &str,
    device: &str,
    site_murmurs: &mut BTreeMap<String, String>,
) -> String {
    let mut results = Vec::new();
    if let Some(bpm) = a
        .result
        .details
        .get("heart_rate_bpm")
        .and_then(Value::as_f64)
    {
        results.push(bundle.add(json!({
            "resourceType": "Observation",
            "status": "final",
            "category": category("vital-signs"),
            "code": loinc("8867-4", "Heart rate"),
            "subject": {"reference": subject},
            "effectiveDateTime": a.created_at,
            "valueQuantity": quantity((bpm * 10.0).round() / 10.0, "beats/minute", "/min"),
            "device": {"reference": device},
        })));
    }
    if let Some(m) = a
        .result
        .details
        .get("measurements")
        .filter(|_| a.modality == Modality::Ecg)
    {
        for (key, code, display, unit, ucum) in ECG_MEASUREMENTS {
            if let Some(v) = m.get(key).and_then(Value::as_f64) {
                let mut observation = json!({
                    "resourceType": "Observation",
                    "status": "final",
                    "category": category("procedure"),
                    "code": loinc(code, display),
                    "subject": {"reference": subject},
                    "effectiveDateTime": a.created_at,
                    "valueQuantity": quantity(v, unit, ucum),
                    "device": {"reference": device},
                });
                if key == "qtc_bazett_ms" {
                    observation["method"] = json!({"text": "Bazett"});
                }
                results.push(bundle.add(observation));
            }
        }
    }
    if let Some(observation) = murmur_observation(a, subject, device) {
        let reference = bundle.add(observation);
        site_murmurs.insert(a.id.clone(), reference.clone());
        results.push(reference);
    }
    if let Some((data, channel, _)) = signal.and_then(sampled_data) {
        let what = match a.modality {
            Modality::Ecg => format!("ECG waveform, lead {channel}"),
            Modality::Pcg => format!("Phonocardiogram waveform ({channel})"),
            _ => format!("Photoplethysmogram waveform ({channel})"),
        };
        let mut observation = json!({
            "resourceType": "Observation",
            "status": "final",
            "category": category("procedure"),
            "code": {"text": what},
            "subject": {"reference": subject},
            "effectiveDateTime": a.created_at,
            "valueSampledData": data,
            "device": {"reference": device},
        });
        if let Some(w) = signal.filter(|w| w.duration_s > w.end_s - w.start_s + 1e-6) {
            observation["note"] = json!([{"text": format!(
                "The first {:.0} s of a {:.0} s recording ({}).",
                w.end_s - w.start_s,
                w.duration_s,
                a.file_name.clone().unwrap_or_default()
            )}]);
        }
        results.push(bundle.add(observation));
    }
    let mut report = json!({
        "resourceType": "DiagnosticReport",
        "status": report_status(a.review.as_ref()),
        "code": report_code(a.modality),
        "subject": {"reference": subject},
        "effectiveDateTime": a.created_at,
        "issued": a.created_at,
        "conclusion": format!(
            "{} (confidence {:.1}%, risk score {:.1}%; model {} {}).",
            a.result.prediction,
            a.result.confidence * 100.0,
            a.result.risk_score * 100.0,
            a.model_id,
            a.model_version
        ),
    });
    report["presentedForm"] = json!([{
        "contentType": "application/pdf",
        "url": format!("/api/analyses/{}/report.pdf", a.id),
        "title": "Cardio analysis report",
    }]);
    if !results.is_empty() {
        report["result"] = json!(results
            .iter()
            .map(|r| json!({"reference": r}))
            .collect::<Vec<_>>());
    }
    if let Some(note) = review_note(a.review.as_ref()) {
        report["conclusion"] = json!(format!(
            "{} {}",
            report["conclusion"].as_str().unwrap_or_default(),
            note.as_str().unwrap_or_default()
        ));
    }
    if let Some((sentence, codes)) = ecg_interpretation(a) {
        report["conclusion"] = json!(format!(
            "{sentence} {}",
            report["conclusion"].as_str().unwrap_or_default()
        ));
        if !codes.is_empty() {
            report["conclusionCode"] = json!(codes);
        }
    }
    bundle.add(report)
}

fn screening_report(
    bundle: &mut BundleBuilder,
    s: &Screening,
    subject: &str,
    site_murmurs: &BTreeMap<String, String>,
) {
    let murmur = screening_murmur(s, subject, site_murmurs).map(|o| bundle.add(o));
    let Some(combined) = &s.combined else { return };
    let mut conclusion = format!(
        "Overall risk {:.1}% ({}). {}",
        combined.risk_score * 100.0,
        combined.risk_level,
        combined.rule
    );
    if let Some(m) = &combined.murmur {
        let heard: Vec<&str> = m.heard_at.iter().map(|x| x.label()).collect();
        conclusion = format!(
            "{conclusion} Heart murmur over {} auscultation site(s): {}{}.",
            m.sites.len(),
            m.verdict,
            if heard.is_empty() {
                String::new()
            } else {
                format!(", heard at {}", heard.join(", "))
            }
        );
    }
    if let Some(note) = review_note(s.review.as_ref()) {
        conclusion = format!("{conclusion} {}", note.as_str().unwrap_or_default());
    }
    let mut report = json!({
        "resourceType": "DiagnosticReport",
        "status": report_status(s.review.as_ref()),
        "code": {"text": "Cardiovascular screening (combined result)"},
        "subject": {"reference": subject},
        "effectiveDateTime": s.created_at,
        "issued": combined.combined_at,
        "conclusion": conclusion,
        "presentedForm": [{
            "contentType": "application/pdf",
            "url": format!("/api/screenings/{}/report.pdf", s.id),
            "title": "Cardio screening report",
        }],
    });
    if let Some(reference) = murmur {
        report["result"] = json!([{ "reference": reference }]);
    }
    bundle.add(report);
}

/// One of the signed-in doctor's patients as a FHIR R4 `Bundle` (type `collection`).
#[utoipa::path(
    get, path = "/api/patients/{id}/fhir", operation_id = "export_patient_fhir", tag = "reports",
    params(("id" = String, Path, description = "Patient id")),
    responses(
        (status = 200, description = "A FHIR R4 Bundle (collection)", content_type = "application/fhir+json", body = Object),
        crate::platform::error::documented::DoctorOnly,
        (status = 404, description = "Patient not found.", body = ErrorBody),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn export(
    State(state): State<AppState>,
    doctor: CurrentDoctor,
    ClientAddr(client): ClientAddr,
    Path(patient_id): Path<String>,
) -> Result<axum::response::Response, ApiError> {
    let mut tx = state.db.begin().await?;
    let data = load(&mut tx, &patient_id, doctor.id())
        .await?
        .ok_or_else(|| ApiError::NotFound(PATIENT_NOT_FOUND.into()))?;
    audit::record(
        &mut tx,
        &audit::Entry {
            user_id: doctor.id(),
            action: Action::Export,
            entity: "patient_fhir",
            entity_id: &patient_id,
            patient_id: Some(&patient_id),
            client_addr: &client,
        },
    )
    .await?;
    tx.commit().await?;

    let recordings = Recordings::of(&state);
    let bundle = tokio::task::spawn_blocking(move || bundle(&data, &recordings)).await?;
    let mut response = axum::response::IntoResponse::into_response(Json(bundle));
    response.headers_mut().insert(
        axum::http::header::CONTENT_TYPE,
        axum::http::HeaderValue::from_static("application/fhir+json"),
    );
    Ok(response)
}

/// Everything stored for one patient, read before the blocking work of [`bundle`].
pub(crate) struct PatientData {
    patient: Patient,
    records: Vec<ClinicalRecord>,
    screenings: Vec<Screening>,
    analyses: Vec<Analysis>,
}

/// Reads one of `doctor_id`'s patients and all their records; `None` when the doctor has no
/// patient `patient_id`.
pub(crate) async fn load(
    conn: &mut sqlx::AnyConnection,
    patient_id: &str,
    doctor_id: &str,
) -> Result<Option<PatientData>, ApiError> {
    let Some(patient) = patients::store::find(conn, patient_id, doctor_id).await? else {
        return Ok(None);
    };
    Ok(Some(PatientData {
        patient,
        records: clinical::store::records_of(conn, patient_id, doctor_id).await?,
        screenings: screenings::store::of_patient(conn, patient_id, doctor_id).await?,
        analyses: analyses::store::of_patient(conn, doctor_id, patient_id).await?,
    }))
}

/// The FHIR R4 Bundle of a patient's data (blocking: recordings are read from the blob store).
pub(crate) fn bundle(data: &PatientData, recordings: &Recordings) -> Value {
    let mut bundle = BundleBuilder::default();
    let subject = bundle.add(patient_resource(&data.patient));
    for resource in history_resources(&data.patient, &subject) {
        bundle.add(resource);
    }
    let mut devices: BTreeMap<(String, String), String> = BTreeMap::new();
    // Each heart-sound analysis's murmur observation, for its screening's verdict over the sites.
    let mut site_murmurs: BTreeMap<String, String> = BTreeMap::new();
    for record in &data.records {
        for observation in clinical_observations(record, &subject) {
            bundle.add(observation);
        }
    }
    for a in &data.analyses {
        let key = (a.model_id.clone(), a.model_version.clone());
        let device = devices
            .entry(key)
            .or_insert_with(|| {
                bundle.add(json!({
                    "resourceType": "Device",
                    "deviceName": [{"name": a.model_id, "type": "model-name"}],
                    "version": [{"value": a.model_version}],
                    "type": {"text": "Cardiovascular screening model (software)"},
                }))
            })
            .clone();
        let kind = match a.modality {
            Modality::Ecg => Some(Kind::Ecg),
            Modality::Pcg => Some(Kind::Pcg),
            Modality::Ppg => Some(Kind::Ppg),
            Modality::Clinical => None,
        };
        // A recording that cannot be read again still gets its report, without the signal.
        let signal = kind
            .filter(|_| !a.files.is_empty())
            .and_then(|k| recordings.window(a, k, 0.0, MAX_WINDOW_S).ok());
        analysis_resources(
            &mut bundle,
            a,
            signal.as_ref(),
            &subject,
            &device,
            &mut site_murmurs,
        );
    }
    for s in &data.screenings {
        screening_report(&mut bundle, s, &subject, &site_murmurs);
    }
    bundle.finish()
}
