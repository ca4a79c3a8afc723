//! Writing a report: the header, the patient, the clinical parameters, each analysis with its
//! finding, values, review and strip, a screening's combined result, and the disclaimers; an ECG
//! read across its leads also gets its measurements and interpretation, and the 12-lead page at
//! the end ([`twelve`]).

use cardio_models::{analysis::Kind, catalogue, waveform::Waveform};
use serde_json::Value;

use super::data::ReportData;
use super::numbers::percent;
use super::{interpretation, layout, paper, strings, twelve, PRODUCT};
use super::{
    layout::{ink, muted, Face, Writer, MARGIN},
    strings::Strings,
};
use crate::{
    platform::db::{ms_to_rfc3339, now_ms},
    platform::error::ApiError,
    recordings::stored::Recordings,
    records::analyses::{
        store::AdviceItem, store::Analysis, store::DeviceInterpretation, store::Modality,
    },
    records::clinical::store::{ClinicalRecord, Sex},
    records::combine::{self, CombinedResult, ModalityStatus},
    records::patients::{fields::Gender, Patient},
    records::reports::Finding,
    records::reviews::store::{Agreement, Review},
};

/// Seconds of ECG on the paper strip.
pub(super) const ECG_SECONDS: f64 = 10.0;

/// Seconds of heart sounds on the PCG strip (S1 and S2 stay apart at this scale).
pub(super) const PCG_SECONDS: f64 = 5.0;

/// Seconds of pulse on the PPG strip.
pub(super) const PPG_SECONDS: f64 = 10.0;

pub(super) fn band(s: &Strings, risk: f64) -> &'static str {
    match combine::risk_level(risk) {
        "high" => s.bands[2],
        "moderate" => s.bands[1],
        _ => s.bands[0],
    }
}

pub(super) fn modality_name(s: &Strings, m: Modality) -> &'static str {
    match m {
        Modality::Ecg => s.modalities[0],
        Modality::Pcg => s.modalities[1],
        Modality::Ppg => s.modalities[2],
        Modality::Clinical => s.modalities[3],
    }
}

/// The date part of an RFC 3339 time with hours and minutes, in UTC.
pub(super) fn when(rfc3339: &str) -> String {
    let date = rfc3339.get(..10).unwrap_or(rfc3339);
    let time = rfc3339.get(11..16).unwrap_or("");
    if time.is_empty() {
        date.to_owned()
    } else {
        format!("{date} {time} UTC")
    }
}

/// Whole years between a `YYYY-MM-DD` birth date and today.
pub(super) fn age_years(date_of_birth: &str) -> Option<i64> {
    let born = time::Date::parse(
        date_of_birth,
        time::macros::format_description!("[year]-[month]-[day]"),
    )
    .ok()?;
    let today = time::OffsetDateTime::now_utc().date();
    let mut years = i64::from(today.year() - born.year());
    if (today.month() as u8, today.day()) < (born.month() as u8, born.day()) {
        years -= 1;
    }
    Some(years)
}

/// The measured values of a result's `details` worth printing, in a fixed order: heart rate, HRV
/// (SDNN, RMSSD, pNN50) and the signal quality (score and the model's words for it).
pub(super) fn measured_values(s: &Strings, details: &Value) -> Vec<(String, String)> {
    let number = |key: &str| details.get(key).and_then(Value::as_f64);
    let mut out = Vec::new();
    if let Some(v) = number("heart_rate_bpm") {
        out.push((s.heart_rate.to_owned(), format!("{v:.0} bpm")));
    }
    for (key, label) in [("sdnn_ms", "HRV SDNN"), ("rmssd_ms", "HRV RMSSD")] {
        if let Some(v) = number(key) {
            out.push((label.to_owned(), format!("{v:.1} ms")));
        }
    }
    if let Some(v) = number("pnn50_percent") {
        out.push(("HRV pNN50".to_owned(), format!("{v:.1}%")));
    }
    let score = number("quality_score").or_else(|| number("signal_quality"));
    let words = details
        .get("quality")
        .or_else(|| details.get("quality_reason"))
        .and_then(Value::as_str)
        .map(|w| catalogue::reason(s.catalogue, w));
    let quality = match (score, words) {
        (Some(v), Some(w)) => Some(format!("{v:.2} ({w})")),
        (Some(v), None) => Some(format!("{v:.2}")),
        (None, Some(w)) => Some(w),
        (None, None) => None,
    };
    if let Some(q) = quality {
        out.push((s.quality.to_owned(), q));
    }
    out
}

pub(super) fn review_lines(s: &Strings, review: Option<&Review>) -> Vec<String> {
    let Some(r) = review else {
        return vec![s.not_reviewed.to_owned()];
    };
    let verdict = match r.agreement {
        Agreement::Agree => s.agreed,
        Agreement::Disagree => s.disagreed,
    };
    let mut lines = vec![
        format!(
            "{} {} {} {}.",
            s.reviewed_by,
            r.reviewer_name,
            s.on,
            when(&r.created_at)
        ),
        format!("{verdict}."),
    ];
    if !r.comment.is_empty() {
        lines.push(format!("{}: {}", s.comment, r.comment));
    }
    lines
}

pub(super) const LABEL_W: f32 = 48.0;

pub(super) fn write_patient(out: &mut Writer, s: &Strings, patient: Option<&Patient>) {
    out.heading(s.patient, 20.0);
    let Some(p) = patient else {
        out.paragraph(s.no_patient, MARGIN, 9.0, Face::Regular, &ink());
        return;
    };
    out.field(
        s.name,
        &format!("{} {}", p.first_name, p.last_name),
        LABEL_W,
    );
    let dob = match age_years(&p.date_of_birth) {
        Some(age) => format!("{} ({age} {})", p.date_of_birth, s.years),
        None => p.date_of_birth.clone(),
    };
    out.field(s.date_of_birth, &dob, LABEL_W);
    let sex = match p.gender {
        Gender::Male => s.sexes[0],
        Gender::Female => s.sexes[1],
        Gender::Other => s.sexes[2],
    };
    out.field(s.sex, sex, LABEL_W);
    out.field(s.phone, &p.phone, LABEL_W);
    out.field(s.patient_id, &p.id, LABEL_W);
    // What the intake recorded that a reader of a screening must know; blank fields are left out.
    for (label, value) in [
        (s.medical_history, &p.medical_history),
        (s.current_medications, &p.current_medications),
        (s.allergies, &p.allergies),
    ] {
        if let Some(text) = value.as_deref().map(one_line).filter(|t| !t.is_empty()) {
            out.field(label, &text, LABEL_W);
        }
    }
}

/// A free-text field's lines joined with "; " (the report's fields wrap, but do not break lines).
fn one_line(text: &str) -> String {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("; ")
}

pub(super) fn write_clinical(out: &mut Writer, s: &Strings, record: Option<&ClinicalRecord>) {
    out.heading(s.clinical_parameters, 20.0);
    let Some(record) = record else {
        out.paragraph(s.no_clinical, MARGIN, 9.0, Face::Regular, &ink());
        return;
    };
    let p = &record.parameters;
    let pick = |names: &[&'static str], i: i64| {
        usize::try_from(i)
            .ok()
            .and_then(|i| names.get(i).copied())
            .map_or_else(|| i.to_string(), str::to_owned)
    };
    let values = [
        format!("{} {}", p.age, s.years),
        pick(&s.chest_pain_types, p.chest_pain_type),
        format!("{:.0} mg/dL", p.cholesterol),
        format!("{:.0} mg/dL", p.fasting_blood_sugar),
        if p.exercise_induced_angina == 1 {
            s.yes.to_owned()
        } else {
            s.no.to_owned()
        },
        p.vessels_colored_by_flourosopy.to_string(),
        pick(&s.thalassemia_types, p.thalassemia),
    ];
    for (name, value) in s.parameter_names.iter().zip(values) {
        out.field(name, &value, 70.0);
    }
    let optional = [
        p.sex.map(|sex| match sex {
            Sex::Male => s.sexes[0].to_owned(),
            Sex::Female => s.sexes[1].to_owned(),
        }),
        p.resting_blood_pressure.map(|v| format!("{v:.0} mm Hg")),
        p.resting_ecg.map(|v| pick(&s.resting_ecg_types, v)),
        p.max_heart_rate.map(|v| format!("{v:.0} bpm")),
        p.st_depression.map(|v| format!("{v:.1} mm")),
        p.st_slope.map(|v| pick(&s.st_slope_types, v)),
    ];
    for (name, value) in s.optional_parameter_names.iter().zip(optional) {
        if let Some(value) = value {
            out.field(name, &value, 70.0);
        }
    }
    out.paragraph(
        &format!("{} {}", s.recorded, when(&record.created_at)),
        MARGIN,
        7.5,
        Face::Regular,
        &muted(),
    );
}

/// A model's finding in the report's language: the catalogue's sentence for the label when the
/// stored text is that sentence in English, else the stored text as it is.
pub(super) fn finding_text(s: &Strings, modality: Modality, label: &str, stored: &str) -> String {
    let code = modality.as_str();
    match catalogue::finding(catalogue::Language::En, code, label) {
        Some(english) if english == stored => catalogue::finding(s.catalogue, code, label)
            .unwrap_or(english)
            .to_owned(),
        _ => stored.to_owned(),
    }
}

/// Recommendations in the report's language (the stored English ones for a result stored before
/// they had catalogue codes).
pub(super) fn advice_lines(s: &Strings, advice: &[AdviceItem], stored: &[String]) -> Vec<String> {
    if advice.is_empty() {
        stored.to_vec()
    } else {
        advice.iter().map(|a| a.text(s.catalogue)).collect()
    }
}

pub(super) fn write_combined(out: &mut Writer, s: &Strings, combined: Option<&CombinedResult>) {
    out.heading(s.combined_result, 30.0);
    let Some(c) = combined else {
        out.paragraph(s.not_combined, MARGIN, 9.0, Face::Regular, &ink());
        return;
    };
    // Wide enough for every modality's name on one line ("Clinical parameters model").
    let label_w = out.label_column(&s.modalities, LABEL_W);
    out.field(
        s.overall_risk,
        &format!("{} — {}", percent(c.risk_score), band(s, c.risk_score)),
        label_w,
    );
    out.field(s.driver, modality_name(s, c.driver), label_w);
    out.field(
        s.based_on,
        &s.of_modalities
            .replace("{n}", &c.based_on.to_string())
            .replace("{total}", &c.out_of.to_string()),
        label_w,
    );
    for m in &c.modalities {
        let status = match m.status {
            ModalityStatus::Performed => s.statuses[0],
            ModalityStatus::Inconclusive => s.statuses[1],
            ModalityStatus::NotPerformed => s.statuses[2],
        };
        let mut value = status.to_owned();
        if let Some(prediction) = &m.prediction {
            let text = finding_text(
                s,
                m.modality,
                m.label.as_deref().unwrap_or_default(),
                prediction,
            );
            value = format!("{value}: {text}");
        }
        if let Some(risk) = m.risk_score {
            value = format!("{value} ({} {}, {})", s.risk, percent(risk), band(s, risk));
        }
        out.field(modality_name(s, m.modality), &value, label_w);
    }
    if let Some(m) = &c.murmur {
        out.field(s.murmur, &super::murmur::screening_words(s, m), label_w);
        for site in &m.sites {
            let name = site.site.map_or("—", |x| super::murmur::site_name(s, x));
            out.field(name, &super::murmur::site_words(s, site), label_w);
        }
    }
    let rule = catalogue::lookup(s.catalogue, "advice.combined.rule").unwrap_or(&c.rule);
    out.field(s.rule, rule, label_w);
    let recommendations = advice_lines(s, &c.advice, &c.recommendations);
    if !recommendations.is_empty() {
        out.subheading(s.recommendations, 5.0);
        for r in &recommendations {
            out.bullet(r);
        }
    }
}

/// The clinical model's `details.attributes_used` in the report's language ("Age, Chest pain type,
/// ..."); `None` for other results and for those stored before the field existed.
pub(super) fn fields_used(s: &Strings, details: &serde_json::Value) -> Option<String> {
    let used = details.get("attributes_used")?.as_array()?;
    let labels: Vec<&str> = used
        .iter()
        .filter_map(|field| {
            let k = cardio_models::clinical::FIELDS
                .iter()
                .position(|f| Some(*f) == field.as_str())?;
            s.parameter_names
                .get(k)
                .or_else(|| s.optional_parameter_names.get(k - s.parameter_names.len()))
                .copied()
        })
        .collect();
    (!labels.is_empty()).then(|| labels.join(", "))
}

/// Whether an ECG result was read across its leads (the 12-lead reading used three or more).
fn read_across_leads(a: &Analysis) -> bool {
    a.result
        .details
        .get("leads_used")
        .and_then(serde_json::Value::as_array)
        .is_some_and(|l| l.len() >= twelve::MIN_LEADS)
}

/// Whether an ECG's recording gets the 12-lead page instead of the two-row strip.
pub(super) fn has_twelve_lead_page(
    a: &Analysis,
    signal: Option<&Result<Waveform, String>>,
) -> bool {
    let Some(Ok(w)) = signal else {
        return false;
    };
    let names: Vec<String> = w.channels.iter().map(|c| c.name.clone()).collect();
    a.modality == Modality::Ecg && twelve::applies(&names)
}

/// An ECG's measurements and interpretation (its confirmed statements or Cardio's unconfirmed
/// ones), when it has them.
fn write_ecg_reading(out: &mut Writer, s: &Strings, a: &Analysis) {
    if let Some(values) = interpretation::measurements(s, &a.result.details) {
        out.subheading(s.ecg_measurements, 10.0);
        for (label, value) in &values {
            out.field(label, value, LABEL_W);
        }
    }
    if let Some(found) = interpretation::interpretation(s, a, read_across_leads(a), when) {
        out.subheading(&found.heading, 8.0);
        for statement in &found.statements {
            out.bullet(statement);
        }
    }
}

pub(super) fn write_analysis(
    out: &mut Writer,
    s: &Strings,
    a: &Analysis,
    signal: Option<&Result<Waveform, String>>,
    with_review: bool,
) {
    let twelve_leads = has_twelve_lead_page(a, signal);
    // The facts and the strip stay together on one page.
    let strip = match (signal, a.modality) {
        _ if twelve_leads => 0.0,
        (Some(Ok(_)), Modality::Ecg) => paper::ECG_HEIGHT,
        (Some(Ok(_)), _) => paper::SIGNAL_HEIGHT,
        _ => 0.0,
    };
    out.subheading(modality_name(s, a.modality), 35.0 + strip);
    let r = &a.result;
    out.field(
        s.finding,
        &finding_text(s, a.modality, &r.label, &r.prediction),
        LABEL_W,
    );
    out.field(s.confidence, &percent(r.confidence), LABEL_W);
    // A result that could not be judged has no risk (its score is the model's, not a finding's).
    let risk = if Finding::of(&r.label) == Finding::Inconclusive {
        "—".to_string()
    } else {
        format!("{} — {}", percent(r.risk_score), band(s, r.risk_score))
    };
    out.field(s.risk, &risk, LABEL_W);
    for (label, value) in measured_values(s, &r.details) {
        out.field(&label, &value, LABEL_W);
    }
    if let Some(site) = a.site {
        out.field(s.site, super::murmur::site_name(s, site), LABEL_W);
    }
    if let Some(words) = super::murmur::recording_words(s, &r.details) {
        out.field(s.murmur, &words, LABEL_W);
    }
    if let Some(fields) = fields_used(s, &r.details) {
        out.field(s.computed_from, &fields, LABEL_W);
    }
    if let Some(file) = &a.file_name {
        out.field(s.file, file, LABEL_W);
    }
    out.field(s.recorded, &when(&a.created_at), LABEL_W);
    out.field(
        s.model,
        &format!("{} ({} {})", a.model_id, s.version, a.model_version),
        LABEL_W,
    );
    if a.modality == Modality::Ecg {
        write_ecg_reading(out, s, a);
    }
    match signal {
        Some(Ok(_)) if twelve_leads => {
            out.advance(1.0);
            out.paragraph(s.twelve_lead_note, MARGIN, 8.5, Face::Regular, &muted());
        }
        Some(Ok(w)) => match a.modality {
            Modality::Ecg => paper::ecg(out, w, s.ecg_strip, s.calibration),
            Modality::Pcg => paper::signal(
                out,
                w,
                PCG_SECONDS.min(w.end_s - w.start_s).max(1.0),
                s.pcg_strip,
                &paper::Marks {
                    sets: vec![
                        (&w.s1_s, "S1", (200, 30, 45)),
                        (&w.s2_s, "S2", (30, 90, 200)),
                    ],
                },
            ),
            _ => paper::signal(
                out,
                w,
                PPG_SECONDS.min(w.end_s - w.start_s).max(1.0),
                s.ppg_strip,
                &paper::Marks {
                    sets: vec![(&w.beats_s, "▼", (200, 30, 45))],
                },
            ),
        },
        Some(Err(_)) => {
            out.advance(1.0);
            out.paragraph(s.strip_unavailable, MARGIN, 8.5, Face::Regular, &muted());
        }
        None => {}
    }
    if let Some(device) = &r.device_interpretation {
        write_device_interpretation(out, s, device);
    }
    let recommendations = advice_lines(s, &r.advice, &r.recommendations);
    if !recommendations.is_empty() {
        out.subheading(s.recommendations, 5.0);
        for rec in &recommendations {
            out.bullet(rec);
        }
    }
    if with_review {
        out.subheading(s.review, 5.0);
        for line in review_lines(s, a.review.as_ref()) {
            out.paragraph(&line, MARGIN, 9.0, Face::Regular, &ink());
        }
    }
}

/// A device measurement's name in the report's language (the device's own label for a key
/// outside `cardio_formats::DEVICE_MEASUREMENT_KEYS`).
pub(super) fn device_measurement_name<'a>(s: &Strings, key: &str, label: &'a str) -> &'a str {
    cardio_formats::DEVICE_MEASUREMENT_KEYS
        .iter()
        .position(|k| *k == key)
        .and_then(|i| s.device_measurement_names.get(i).copied())
        .unwrap_or(label)
}

/// A device measurement as printed: whole numbers without decimals, others with one, the unit
/// after a space (a degree sign right after the number).
pub(super) fn device_measurement_value(value: f64, unit: &str) -> String {
    let number = if value.fract() == 0.0 {
        format!("{value:.0}")
    } else {
        format!("{value:.1}")
    };
    match unit {
        "" => number,
        "°" => format!("{number}°"),
        _ => format!("{number} {unit}"),
    }
}

/// The recording device's own interpretation, apart from Cardio's result: its source, its
/// statements in its own words (never translated) and its measurements under translated names.
pub(super) fn write_device_interpretation(
    out: &mut Writer,
    s: &Strings,
    device: &DeviceInterpretation,
) {
    out.subheading(s.device_interpretation, 15.0);
    out.paragraph(s.device_note, MARGIN, 8.0, Face::Regular, &muted());
    out.field(s.device_source, &device.source, LABEL_W);
    if !device.statements.is_empty() {
        out.field(s.device_statements, "", LABEL_W);
        for statement in &device.statements {
            out.bullet(statement);
        }
    }
    if !device.measurements.is_empty() {
        out.field(s.device_measurements, "", LABEL_W);
        for m in &device.measurements {
            out.field(
                device_measurement_name(s, &m.key, &m.label),
                &device_measurement_value(m.value, &m.unit),
                LABEL_W,
            );
        }
    }
}

/// The 12-lead page of an ECG analysis: the leads at true scale under its measurements and
/// interpretation.
fn write_twelve_lead_page(
    out: &mut Writer,
    s: &Strings,
    patient: Option<&Patient>,
    a: &Analysis,
    w: &Waveform,
) {
    let recorded = when(&a.created_at);
    let subtitle = match patient {
        Some(p) => format!("{} {} · {recorded}", p.first_name, p.last_name),
        None => recorded,
    };
    let measurements = interpretation::measurements(s, &a.result.details).unwrap_or_default();
    let found = interpretation::interpretation(s, a, true, when);
    twelve::draw(
        out,
        w,
        &twelve::Header {
            title: s.twelve_lead,
            subtitle: &subtitle,
            measurements: &measurements,
            interpretation: found.as_ref(),
            scale: s.paper_scale,
            calibration: s.calibration,
        },
    );
}

/// Lays the report out and writes the PDF (blocking: reads the recordings again).
///
/// # Errors
/// 500 when the PDF cannot be written.
pub fn render(data: &ReportData, recordings: &Recordings) -> Result<Vec<u8>, ApiError> {
    let s = strings::of(data.language);
    let title = format!("{PRODUCT} — {}", s.title);
    let mut out = Writer::new(&title)?;

    // Header: product, title, doctor, generated.
    out.advance(6.0);
    out.text_at(
        PRODUCT,
        MARGIN,
        out.y(),
        20.0,
        Face::Bold,
        layout::rgb(150, 20, 40),
    );
    let generated = format!("{} {}", s.generated, when(&ms_to_rfc3339(now_ms())));
    let doctor = format!("{}: {}", s.doctor, data.doctor);
    for (i, line) in [doctor, generated].iter().enumerate() {
        let width = out.width(line, 8.5, Face::Regular);
        out.text_at(
            line,
            layout::PAGE_W - MARGIN - width,
            out.y() + 2.0 - i as f32 * 4.5,
            8.5,
            Face::Regular,
            muted(),
        );
    }
    out.advance(7.5);
    out.text_at(s.title, MARGIN, out.y(), 12.0, Face::Regular, ink());
    if let Some(sc) = &data.screening {
        out.advance(5.0);
        out.text_at(
            &format!("{} {} · {}", s.screening, sc.id, when(&sc.created_at)),
            MARGIN,
            out.y(),
            7.5,
            Face::Regular,
            muted(),
        );
    } else if let Some(a) = data.analyses.first() {
        out.advance(5.0);
        out.text_at(
            &format!("{} {}", s.analysis, a.id),
            MARGIN,
            out.y(),
            7.5,
            Face::Regular,
            muted(),
        );
    }
    out.advance(2.0);

    write_patient(&mut out, s, data.patient.as_ref());
    write_clinical(&mut out, s, data.clinical.as_ref());
    if let Some(sc) = &data.screening {
        write_combined(&mut out, s, sc.combined.as_ref());
    }

    out.heading(s.results_by_modality, 30.0);
    let screening = data.screening.is_some();
    let mut twelve_lead_pages: Vec<(&Analysis, Waveform)> = Vec::new();
    for a in &data.analyses {
        let kind = match a.modality {
            Modality::Ecg => Some((Kind::Ecg, ECG_SECONDS)),
            Modality::Pcg => Some((Kind::Pcg, PCG_SECONDS)),
            Modality::Ppg => Some((Kind::Ppg, PPG_SECONDS)),
            Modality::Clinical => None,
        };
        let signal = kind.map(|(kind, seconds)| {
            if a.files.is_empty() {
                return Err(String::new());
            }
            recordings.window(a, kind, 0.0, seconds).map_err(|e| {
                tracing::warn!(analysis = %a.id, error = ?e, "report strip unavailable");
                e.to_string()
            })
        });
        write_analysis(&mut out, s, a, signal.as_ref(), !screening);
        if a.modality == Modality::Ecg {
            let first = signal.as_ref().and_then(|r| r.as_ref().ok());
            super::holter::write(&mut out, s, &a.result.details, first, |start| {
                recordings.window(a, Kind::Ecg, start, ECG_SECONDS).ok()
            });
        }
        if has_twelve_lead_page(a, signal.as_ref()) {
            if let Some(Ok(w)) = signal {
                twelve_lead_pages.push((a, w));
            }
        }
    }

    if let Some(sc) = &data.screening {
        out.heading(s.review, 12.0);
        for line in review_lines(s, sc.review.as_ref()) {
            out.paragraph(&line, MARGIN, 9.0, Face::Regular, &ink());
        }
    }

    out.heading(s.disclaimer_heading, 12.0);
    out.paragraph(s.model_disclaimer, MARGIN, 8.5, Face::Regular, &ink());
    out.paragraph(s.disclaimer, MARGIN, 8.5, Face::Regular, &ink());

    for (a, w) in &twelve_lead_pages {
        write_twelve_lead_page(&mut out, s, data.patient.as_ref(), a, w);
    }

    let footer = format!("{PRODUCT} · {}", s.title);
    out.finish(&footer, |n, total| {
        format!("{} {n} {} {total}", s.page, s.of)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accounts::settings::Language;

    #[test]
    fn a_french_report_is_in_french_with_its_accents_and_page_numbers() {
        let data = ReportData {
            language: Language::Fr,
            doctor: "Hélène Dubois".into(),
            patient: None,
            clinical: None,
            screening: None,
            analyses: Vec::new(),
        };
        let recordings = Recordings {
            blobs: crate::platform::blobs::BlobStore::new(std::path::Path::new("/nonexistent")),
            gate: crate::recordings::decode::DecodeGate::default(),
            cache: crate::recordings::decode::WindowCache::default(),
        };

        let bytes = render(&data, &recordings).unwrap();

        let text = pdf_extract::extract_text_from_mem(&bytes).unwrap();
        let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        for expected in [
            "Rapport de dépistage cardiovasculaire",
            "Médecin: Hélène Dubois",
            "Aucun patient n'est lié à cette analyse.",
            "Aucun paramètre clinique enregistré.",
            "Page 1 sur 1",
        ] {
            assert!(text.contains(expected), "{expected:?} not in {text}");
        }
    }

    #[test]
    fn measured_values_come_in_order_with_units() {
        let details = serde_json::json!({
            "quality": "usable", "quality_score": 0.93, "rmssd_ms": 31.25, "sdnn_ms": 42.0,
            "heart_rate_bpm": 74.6, "pnn50_percent": 12.5, "channel": "II",
        });
        let values = measured_values(strings::of(Language::En), &details);
        let text: Vec<String> = values.iter().map(|(k, v)| format!("{k}: {v}")).collect();
        assert_eq!(
            text,
            [
                "Heart rate: 75 bpm",
                "HRV SDNN: 42.0 ms",
                "HRV RMSSD: 31.2 ms",
                "HRV pNN50: 12.5%",
                "Signal quality: 0.93 (usable)",
            ]
        );
    }

    #[test]
    fn device_measurements_get_translated_names_and_their_units() {
        let es = strings::of(Language::Es);
        assert_eq!(
            device_measurement_name(es, "qrs_ms", "QRSDuration"),
            "Duración del QRS"
        );
        assert_eq!(device_measurement_name(es, "st_mm", "ST"), "ST");
        for key in cardio_formats::DEVICE_MEASUREMENT_KEYS {
            assert_ne!(
                device_measurement_name(&strings::EN, key, "?"),
                "?",
                "{key}"
            );
        }
        assert_eq!(device_measurement_value(56.0, "bpm"), "56 bpm");
        assert_eq!(device_measurement_value(-22.0, "°"), "-22°");
        assert_eq!(device_measurement_value(418.5, "ms"), "418.5 ms");
    }

    #[test]
    fn probabilities_print_with_one_decimal_as_on_screen() {
        assert_eq!(percent(0.998), "99.8%");
        assert_eq!(percent(0.75), "75.0%");
        assert_eq!(percent(0.0004), "0.0%");
    }

    #[test]
    fn risk_bands_follow_the_spec() {
        let s = strings::of(Language::En);
        assert_eq!(band(s, 0.71), "High");
        assert_eq!(band(s, 0.7), "Moderate");
        assert_eq!(band(s, 0.41), "Moderate");
        assert_eq!(band(s, 0.4), "Low");
    }
}
