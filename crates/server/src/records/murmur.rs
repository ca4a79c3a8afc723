//! A screening's heart-murmur verdict over its auscultation sites: each site's newest heart-sound
//! recording carries the murmur model's reading of it (`details.murmur`, with its probabilities),
//! and the patient's verdict is decided again from all of them by the model's own rule (present
//! when a murmur is heard at one site; `cardio_models::murmur::decision`), with the timing and grade
//! of the site that decided. A recording replaced at the same site no longer counts.

use cardio_models::murmur::{self, site::Site, Reading};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use crate::records::analyses::store::{Analysis, Modality};

/// The murmur reading of one site's newest recording.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct SiteMurmur {
    /// `AV`, `PV`, `TV` or `MV`; none for a recording without a site.
    #[schema(value_type = Option<String>)]
    pub site: Option<Site>,
    /// The analysis of that recording.
    pub analysis_id: String,
    /// `present`, `absent` or `unknown` at this site.
    pub verdict: String,
    /// The probability of that verdict (none for a recording that could not be read).
    pub probability: Option<f64>,
    /// `early-systolic`, `mid-systolic` or `holosystolic`, when present.
    pub timing: Option<String>,
    /// `I/VI`, `II/VI` or `III/VI`, when present.
    pub grade: Option<String>,
}

/// The screening's murmur verdict over its sites.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct MurmurResult {
    /// `present`, `absent` or `unknown` for the patient.
    pub verdict: String,
    /// The probability of that verdict (none when no recording could be read).
    pub probability: Option<f64>,
    /// The timing at the site that decided a `present` verdict.
    pub timing: Option<String>,
    /// The grade at the site that decided a `present` verdict.
    pub grade: Option<String>,
    /// The sites where a murmur is heard, in the protocol's order.
    #[schema(value_type = Vec<String>)]
    pub heard_at: Vec<Site>,
    /// Every site recorded, in the protocol's order (AV, PV, TV, MV, then a recording without a
    /// site).
    pub sites: Vec<SiteMurmur>,
}

fn order(site: Option<Site>) -> usize {
    site.map_or(Site::VALVES.len(), |s| {
        Site::VALVES.iter().position(|v| *v == s).unwrap_or(0)
    })
}

/// The newest heart-sound analysis of each site (`analyses` newest first), in the protocol's order;
/// the recordings without a site count as one more site.
pub fn latest_per_site(analyses: &[Analysis]) -> Vec<&Analysis> {
    let mut latest: Vec<&Analysis> = Vec::new();
    for a in analyses.iter().filter(|a| a.modality == Modality::Pcg) {
        if !latest.iter().any(|b| b.site == a.site) {
            latest.push(a);
        }
    }
    latest.sort_by_key(|a| order(a.site));
    latest
}

fn text(value: &Value, key: &str) -> Option<String> {
    value.get(key).and_then(Value::as_str).map(str::to_owned)
}

/// The murmur verdict over the screening's sites (`analyses` newest first); `None` when no
/// heart-sound result carries a murmur reading (none recorded, or all stored before the murmur
/// model).
pub fn over_sites(analyses: &[Analysis]) -> Option<MurmurResult> {
    let model = murmur::model().ok()?;
    let read: Vec<(&Analysis, &Value)> = latest_per_site(analyses)
        .into_iter()
        .filter_map(|a| a.result.details.get("murmur").map(|m| (a, m)))
        .collect();
    if read.is_empty() {
        return None;
    }
    let readings: Vec<Option<Reading>> = read.iter().map(|(_, m)| Reading::from_value(m)).collect();
    let decided = model.decide(&readings);
    let sites: Vec<SiteMurmur> = read
        .iter()
        .map(|(a, m)| SiteMurmur {
            site: a.site,
            analysis_id: a.id.clone(),
            verdict: text(m, "verdict").unwrap_or_else(|| "unknown".into()),
            probability: m.get("probability").and_then(Value::as_f64),
            timing: text(m, "timing"),
            grade: text(m, "grade"),
        })
        .collect();
    Some(MurmurResult {
        verdict: decided.verdict.as_str().into(),
        probability: Some(decided.probability).filter(|p| p.is_finite()),
        timing: decided.timing.map(|t| t.as_str().into()),
        grade: decided.grade.map(|g| g.as_str().into()),
        heard_at: sites
            .iter()
            .filter(|s| s.verdict == "present")
            .filter_map(|s| s.site)
            .collect(),
        sites,
    })
}
