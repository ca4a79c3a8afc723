//! What the model answers: the quality gate that makes a recording `unsure` and the decision from
//! it and the probability of abnormal. Used by [`super::Model::predict`] and by the validation in
//! `cardio-lab` alike, so that the card's figures are those of the shipped rule.

use serde::{Deserialize, Serialize};

use super::features::Measured;

/// The three outputs of the model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    /// Normal heart sounds.
    Normal,
    /// Abnormal heart sounds.
    Abnormal,
    /// The recording cannot be judged (too poor, or too short for this decision).
    Unsure,
}

impl Decision {
    /// The machine code.
    pub fn code(self) -> &'static str {
        match self {
            Self::Normal => "normal",
            Self::Abnormal => "abnormal",
            Self::Unsure => "unsure",
        }
    }
}

/// `None` when the recording passes the quality gate (basic checks, envelope periodicity at least
/// `min_periodicity`, at least `min_cycles` complete cycles), else why it does not, for users.
pub fn gate(m: &Measured, min_periodicity: f64, min_cycles: usize) -> Option<String> {
    if !m.gate.plausible {
        return Some(m.gate.reason.clone());
    }
    if let Some(problem) = &m.basic_problem {
        return Some(format!("the basic signal checks failed: {problem}"));
    }
    if m.quality_score < min_periodicity {
        return Some(format!(
            "the heart sounds do not repeat clearly: periodicity {:.2}, at least {min_periodicity:.2} is needed",
            m.quality_score
        ));
    }
    if m.cycles < min_cycles {
        return Some(format!(
            "only {} complete heart cycle(s) could be found; at least {min_cycles} are needed",
            m.cycles
        ));
    }
    None
}

/// Why a recording of `seconds` is not judged normal or abnormal when `min_seconds` are needed.
pub fn too_short(seconds: f64, min_seconds: f64) -> String {
    format!("the recording is {seconds:.1} s long; normal or abnormal heart sounds are judged on {min_seconds:.0} s or more")
}

/// The decision from the gate and the probability of abnormal (`unsure` when the gate refuses the
/// recording or there is no probability).
pub fn decide(gated_out: bool, p_abnormal: f64, threshold: f64) -> Decision {
    if gated_out || !p_abnormal.is_finite() {
        Decision::Unsure
    } else if p_abnormal >= threshold {
        Decision::Abnormal
    } else {
        Decision::Normal
    }
}
