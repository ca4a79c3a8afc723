//! A screening's combined result from the results its models produced (clinical, PCG, PPG, ECG), by
//! a rule stated in the result itself.
//!
//! No public dataset labels one person with all four modalities, so no weighting can be learned or
//! validated. The rule is therefore the transparent one: the overall risk is the highest risk score
//! among the modalities that could be judged. A recording the model could not judge (`unsure`,
//! `noisy`) is reported as inconclusive and does not lower the overall risk; a modality with no
//! result is reported as not performed, never guessed. The result says how many of the four
//! modalities it rests on (`based_on` of `out_of`), so that a low risk from one modality is not read
//! as a low risk overall.
//!
//! Heart sounds may be recorded at up to four auscultation sites: the heart-sound modality is the
//! site whose newest recording gives the highest judged risk (the newest recording when none could be
//! judged), and the result carries the murmur verdict over all sites ([`crate::records::murmur`]).
//!
//! The combination is a pure function of the screening's analyses: [`crate::records::screenings`] computes
//! it from the current analyses on every read (and for `POST /api/screenings/{id}/combine`), so it
//! can never be stale when a modality is added or replaced later.

use cardio_models::catalogue::{self, Advice};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::{
    platform::error::ApiError,
    records::{
        analyses::{store::AdviceItem, store::Analysis, store::Modality},
        murmur::{self, MurmurResult},
    },
};

/// The rule, as the result states it.
pub const RULE: &str = "Overall risk = the highest risk score among the modalities that could be judged (clinical, PCG, PPG, ECG). An inconclusive recording does not lower it and should be repeated; a modality without a result is not performed, not guessed. No data set labels one person with all four modalities, so no weighting is learned.";

/// The answer when a screening has no result to combine.
pub const NOTHING_TO_COMBINE: &str =
    "Nothing to combine: run at least one model for this screening first.";

/// What became of one modality in a screening.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ModalityStatus {
    /// A result that the model could judge.
    Performed,
    /// A result, but the recording could not be judged (`unsure`, `noisy`).
    Inconclusive,
    /// No result for this screening.
    NotPerformed,
}

/// One modality's part of the combined result.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ModalityResult {
    /// `clinical`, `pcg`, `ppg` or `ecg`.
    pub modality: Modality,
    /// Performed, inconclusive or not performed.
    pub status: ModalityStatus,
    /// The analysis used (the newest of this modality in the screening; for heart sounds, the
    /// site's newest recording with the highest judged risk).
    pub analysis_id: Option<String>,
    /// Its machine label.
    pub label: Option<String>,
    /// Its prediction text.
    pub prediction: Option<String>,
    /// Its risk score.
    pub risk_score: Option<f64>,
}

/// The combined result of a screening.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct CombinedResult {
    /// The screening.
    pub screening_id: String,
    /// Highest risk score among the judged modalities.
    pub risk_score: f64,
    /// Spec §9 band of `risk_score`: `low`, `moderate` or `high`.
    pub risk_level: String,
    /// The modality whose risk is the overall one.
    pub driver: Modality,
    /// How the modalities were combined.
    pub rule: String,
    /// How many modalities the overall risk rests on: those that could be judged (status
    /// `performed`), from 1 to `out_of`.
    pub based_on: usize,
    /// How many modalities a screening has (4: clinical, PCG, PPG, ECG).
    pub out_of: usize,
    /// Each modality, in the workflow's order (clinical, PCG, PPG, ECG).
    pub modalities: Vec<ModalityResult>,
    /// Plain recommendations, in English; never a diagnosis.
    pub recommendations: Vec<String>,
    /// The same as catalogue codes with parameters (the rule is `advice.combined.rule`).
    #[serde(default)]
    pub advice: Vec<AdviceItem>,
    /// The heart-murmur verdict over the auscultation sites recorded; none without a heart-sound
    /// result that carries one.
    #[serde(default)]
    pub murmur: Option<MurmurResult>,
    /// RFC 3339: when the newest result it rests on was stored (the combination is recomputed from
    /// the screening's current results whenever it is read).
    pub combined_at: String,
}

const ORDER: [Modality; 4] = [
    Modality::Clinical,
    Modality::Pcg,
    Modality::Ppg,
    Modality::Ecg,
];

fn inconclusive(label: &str) -> bool {
    super::reports::Finding::of(label) == super::reports::Finding::Inconclusive
}

/// Spec §9: above 0.7 high, above 0.4 moderate, else low.
pub fn risk_level(risk: f64) -> &'static str {
    if risk > 0.7 {
        "high"
    } else if risk > 0.4 {
        "moderate"
    } else {
        "low"
    }
}

/// The analysis that stands for `modality`: the newest, or for heart sounds the newest of each site
/// with the highest judged risk (the newest when none could be judged).
fn standing_for(modality: Modality, analyses: &[Analysis]) -> Option<&Analysis> {
    if modality != Modality::Pcg {
        return analyses.iter().find(|a| a.modality == modality);
    }
    murmur::latest_per_site(analyses)
        .into_iter()
        .filter(|a| !inconclusive(&a.result.label))
        .fold(None, |best: Option<&Analysis>, a| match best {
            Some(b) if b.result.risk_score >= a.result.risk_score => best,
            _ => Some(a),
        })
        .or_else(|| analyses.iter().find(|a| a.modality == modality))
}

/// Combines the newest analysis of each modality (`analyses`: the screening's, newest first).
///
/// # Errors
/// 422 [`NOTHING_TO_COMBINE`] when no modality could be judged.
pub fn combine_analyses(
    screening_id: &str,
    analyses: &[Analysis],
) -> Result<CombinedResult, ApiError> {
    let modalities: Vec<ModalityResult> = ORDER
        .iter()
        .map(|&modality| match standing_for(modality, analyses) {
            None => ModalityResult {
                modality,
                status: ModalityStatus::NotPerformed,
                analysis_id: None,
                label: None,
                prediction: None,
                risk_score: None,
            },
            Some(a) => ModalityResult {
                modality,
                status: if inconclusive(&a.result.label) {
                    ModalityStatus::Inconclusive
                } else {
                    ModalityStatus::Performed
                },
                analysis_id: Some(a.id.clone()),
                label: Some(a.result.label.clone()),
                prediction: Some(a.result.prediction.clone()),
                risk_score: Some(a.result.risk_score),
            },
        })
        .collect();
    let (driver, risk) = modalities
        .iter()
        .filter(|m| m.status == ModalityStatus::Performed)
        .filter_map(|m| m.risk_score.map(|r| (m.modality, r)))
        .fold(None, |best: Option<(Modality, f64)>, (m, r)| match best {
            Some((_, b)) if b >= r => best,
            _ => Some((m, r)),
        })
        .ok_or_else(|| ApiError::Validation(NOTHING_TO_COMBINE.into()))?;
    let based_on = modalities
        .iter()
        .filter(|m| m.status == ModalityStatus::Performed)
        .count();
    let level = risk_level(risk);
    let driver_code = driver.as_str();
    let mut advice = vec![match level {
        "high" => Advice::new("combined.high").with("modality", driver_code),
        "moderate" => Advice::new("combined.moderate").with("modality", driver_code),
        _ if based_on == 1 => Advice::new("combined.low_single").with("modality", driver_code),
        _ => Advice::new("combined.low"),
    }];
    for m in &modalities {
        match m.status {
            ModalityStatus::Inconclusive => {
                advice.push(
                    Advice::new("combined.inconclusive").with("modality", m.modality.as_str()),
                );
            }
            ModalityStatus::NotPerformed => {
                advice.push(
                    Advice::new("combined.not_performed").with("modality", m.modality.as_str()),
                );
            }
            ModalityStatus::Performed => {}
        }
    }
    advice.push(Advice::new("disclaimer"));
    let recommendations = catalogue::english(&advice);
    Ok(CombinedResult {
        screening_id: screening_id.to_owned(),
        risk_score: risk,
        risk_level: level.to_owned(),
        driver,
        rule: RULE.to_owned(),
        based_on,
        out_of: ORDER.len(),
        modalities,
        recommendations,
        advice: advice.into_iter().map(Into::into).collect(),
        murmur: murmur::over_sites(analyses),
        // Newest first, and the newest of all is always its modality's newest, hence used.
        combined_at: analyses
            .first()
            .map(|a| a.created_at.clone())
            .unwrap_or_default(),
    })
}
