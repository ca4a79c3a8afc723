//! The rhythm classifier on interval features: two gradient-boosted tree models ([`crate::gbdt`],
//! Friedman 2001; Chen & Guestrin 2016) in sequence.
//!
//! 1. **AF gate**: AF against every non-AF window (normal, irregular and other non-AF), balanced
//!    class weights.
//! 2. **Irregular**: among non-AF windows, irregular (frequent ectopy) against normal, trained only
//!    on windows labelled one or the other, balanced class weights.
//!
//! The class probabilities are `P(af) = p1`, `P(irregular) = (1 - p1) p2`, `P(normal) = (1 - p1)
//! (1 - p2)`. A window is AF when `p1` reaches the AF threshold (chosen by an inner grouped CV in
//! `cardio-lab`, `ppg_rhythm::validation::choose_threshold`), otherwise the more probable of
//! irregular and normal. [`WindowLabel`] names the classes of a window.
//! The boosting settings were fixed before any validation and are not tuned; the training is in
//! `cardio-lab` (`ppg_rhythm::classifier`).

use serde::{Deserialize, Serialize};

use crate::gbdt::Gbdt;

/// The label of a window of intervals.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WindowLabel {
    /// Regular (sinus) rhythm.
    Normal,
    /// Atrial fibrillation.
    Af,
    /// Non-AF irregular rhythm (frequent ectopy), MIT-BIH only.
    Irregular,
    /// Not AF, and neither clearly normal nor irregular.
    OtherNonAf,
}

impl WindowLabel {
    /// Short name for tables.
    pub fn name(self) -> &'static str {
        match self {
            Self::Normal => "normal",
            Self::Af => "af",
            Self::Irregular => "irregular",
            Self::OtherNonAf => "other_non_af",
        }
    }
}

/// The two fitted stages.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RhythmClassifier {
    /// AF against non-AF.
    pub af: Gbdt,
    /// Irregular against normal, among non-AF windows; `None` when the training data had no
    /// irregular (or no normal) window.
    pub irregular: Option<Gbdt>,
}

/// Class probabilities of one window.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct RhythmProbabilities {
    /// Regular rhythm.
    pub normal: f64,
    /// Atrial fibrillation.
    pub af: f64,
    /// Non-AF irregular rhythm.
    pub irregular: f64,
}

impl RhythmProbabilities {
    /// The label: AF when `P(af) >= af_threshold`, otherwise the more probable of irregular and
    /// normal (ties go to irregular); with the label's probability.
    pub fn label(&self, af_threshold: f64) -> (WindowLabel, f64) {
        if self.af >= af_threshold {
            (WindowLabel::Af, self.af)
        } else if self.irregular >= self.normal {
            (WindowLabel::Irregular, self.irregular)
        } else {
            (WindowLabel::Normal, self.normal)
        }
    }
}

impl RhythmClassifier {
    /// Class probabilities of one feature row.
    pub fn predict(&self, features: &[f64]) -> RhythmProbabilities {
        let p1 = self
            .af
            .predict_proba(features)
            .get(1)
            .copied()
            .unwrap_or(0.0);
        let p2 = self
            .irregular
            .as_ref()
            .and_then(|m| m.predict_proba(features).get(1).copied())
            .unwrap_or(0.0);
        RhythmProbabilities {
            normal: (1.0 - p1) * (1.0 - p2),
            af: p1,
            irregular: (1.0 - p1) * p2,
        }
    }
}
