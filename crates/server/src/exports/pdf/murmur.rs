//! A heart murmur in the report's words: one recording's verdict at its auscultation site, and the
//! screening's verdict over its sites ("Present — heard at AV, MV; holosystolic, grade II/VI").

use cardio_models::murmur::{site::Site, Timing};
use serde_json::Value;

use super::strings::Strings;
use crate::records::murmur::{MurmurResult, SiteMurmur};

/// The site's name in the report's language.
pub(super) fn site_name(s: &Strings, site: Site) -> &'static str {
    Site::VALVES
        .iter()
        .position(|v| *v == site)
        .map_or(site.label(), |k| s.site_names[k])
}

fn verdict_word(s: &Strings, verdict: &str) -> &'static str {
    match verdict {
        "present" => s.murmur_verdicts[0],
        "absent" => s.murmur_verdicts[1],
        _ => s.murmur_verdicts[2],
    }
}

/// "holosystolic, grade II/VI" (what is known of the two), or `None`.
fn character(s: &Strings, timing: Option<&str>, grade: Option<&str>) -> Option<String> {
    let timing = timing
        .and_then(Timing::parse)
        .and_then(|t| Timing::ALL.iter().position(|x| *x == t))
        .map(|k| s.timings[k].to_owned());
    let grade = grade.map(|g| s.grade.replace("{grade}", g));
    let parts: Vec<String> = timing.into_iter().chain(grade).collect();
    (!parts.is_empty()).then(|| parts.join(", "))
}

/// One verdict with what is known of the murmur ("Present — holosystolic, grade II/VI").
fn words(s: &Strings, verdict: &str, timing: Option<&str>, grade: Option<&str>) -> String {
    let verdict = verdict_word(s, verdict);
    match character(s, timing, grade) {
        Some(c) => format!("{verdict} — {c}"),
        None => verdict.to_owned(),
    }
}

/// One recording's `details.murmur` in words; `None` for a result without one.
pub(super) fn recording_words(s: &Strings, details: &Value) -> Option<String> {
    let m = details.get("murmur")?;
    let text = |k: &str| m.get(k).and_then(Value::as_str);
    Some(words(
        s,
        text("verdict").unwrap_or_default(),
        text("timing"),
        text("grade"),
    ))
}

/// One site's verdict in words.
pub(super) fn site_words(s: &Strings, site: &SiteMurmur) -> String {
    words(
        s,
        &site.verdict,
        site.timing.as_deref(),
        site.grade.as_deref(),
    )
}

/// The screening's verdict over its sites in words, with where it is heard.
pub(super) fn screening_words(s: &Strings, m: &MurmurResult) -> String {
    let mut text = verdict_word(s, &m.verdict).to_owned();
    let mut said = Vec::new();
    if !m.heard_at.is_empty() {
        let sites: Vec<&str> = m.heard_at.iter().map(|x| x.label()).collect();
        said.push(s.heard_at.replace("{sites}", &sites.join(", ")));
    }
    if let Some(c) = character(s, m.timing.as_deref(), m.grade.as_deref()) {
        said.push(c);
    }
    if !said.is_empty() {
        text = format!("{text} — {}", said.join("; "));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exports::pdf::strings::{EN, FR};

    #[test]
    fn a_murmur_reads_as_a_clinician_writes_it() {
        let m = MurmurResult {
            verdict: "present".into(),
            probability: Some(0.7),
            timing: Some("holosystolic".into()),
            grade: Some("II/VI".into()),
            heard_at: vec![Site::Av, Site::Mv],
            sites: vec![SiteMurmur {
                site: Some(Site::Av),
                analysis_id: "a".into(),
                verdict: "present".into(),
                probability: Some(0.7),
                timing: Some("holosystolic".into()),
                grade: Some("II/VI".into()),
            }],
        };
        assert_eq!(
            screening_words(&EN, &m),
            "Present — heard at AV, MV; holosystolic, grade II/VI"
        );
        assert_eq!(
            screening_words(&FR, &m),
            "Présent — entendu en AV, MV; holosystolique, grade II/VI"
        );
        let absent = MurmurResult {
            verdict: "absent".into(),
            timing: None,
            grade: None,
            heard_at: vec![],
            ..m.clone()
        };
        assert_eq!(screening_words(&EN, &absent), "Absent");
        let details = serde_json::json!({"murmur": {"verdict": "unknown", "probability": null, "timing": null, "grade": null}});
        assert_eq!(
            recording_words(&EN, &details).as_deref(),
            Some("Unknown (the recordings do not allow a verdict)")
        );
        assert_eq!(recording_words(&EN, &serde_json::json!({})), None);
        assert_eq!(site_name(&EN, Site::Tv), "Tricuspid area (TV)");
        assert_eq!(
            site_words(&EN, &m.sites[0]),
            "Present — holosystolic, grade II/VI"
        );
    }
}
