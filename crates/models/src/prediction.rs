//! The result every signal model (ECG, PCG, PPG) returns, and the two ways a prediction can fail:
//! the input cannot be judged (the user's problem, a 422 with the reason) or the model itself cannot
//! be loaded (the server's problem, a 503). The server and `cardio predict` only see these types.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The last recommendation of every model's result: a screening estimate is never a diagnosis.
pub const DISCLAIMER: &str = "This is a screening estimate from a statistical model, not a diagnosis; it does not replace clinical judgement.";

/// One model's answer for one recording (spec §6 "Prediction result").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Prediction {
    /// Machine code of the class: ecg `normal|af|other|noisy`, pcg `normal|abnormal|unsure`,
    /// ppg `normal|af|irregular|noisy`.
    pub label: String,
    /// Text for the screen, in English (`findings.<modality>.<label>` in [`crate::catalogue`]).
    pub prediction: String,
    /// Probability of the predicted class, 0-1.
    pub confidence: f64,
    /// Probability of the abnormal finding the model screens for, 0-1.
    pub risk_score: f64,
    /// Plain, guideline-style recommendations, in English. Never a diagnosis.
    pub recommendations: Vec<String>,
    /// The same recommendations as catalogue codes with parameters, for other languages
    /// ([`crate::catalogue`]); empty in results stored before they existed.
    #[serde(default)]
    pub advice: Vec<crate::catalogue::Advice>,
    /// Measured values (heart rate, HRV, quality, per-class probabilities) and `model`
    /// (`id`, `version`, headline metric).
    pub details: Map<String, Value>,
}

/// Why a prediction could not be made.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PredictError {
    /// The recording cannot be judged; the message is shown to the user as it is
    /// (e.g. "Recording too short: 1.2 s; at least 2 s is needed.").
    #[error("{0}")]
    Unusable(String),
    /// The committed parameters cannot be loaded.
    #[error("model not loaded: {0}")]
    ModelNotLoaded(String),
}

/// Identifies the model that made a prediction; goes into `details.model`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModelInfo {
    /// Stable identifier, e.g. `ecg-rhythm-gbdt`.
    pub id: String,
    /// Version of the parameters.
    pub version: String,
    /// Name of the headline validation metric, e.g. `cv_mean_f1_nao`.
    pub metric: String,
    /// Its value in the model card's validation.
    pub value: f64,
}

impl ModelInfo {
    /// The JSON object stored under `details.model`.
    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}

/// A probability `p` of the finding a model decides on at `threshold` (`p >= threshold` is the
/// finding), on the decision's own scale: the monotone, piecewise-linear map that takes 0 to 0,
/// `threshold` to 0.5 and 1 to 1. A model whose threshold is not 0.5 (chosen on its validation for
/// balanced accuracy) reports its probabilities on this scale, so that its label is always the
/// likelier of the finding and its absence, its confidence is at least 0.5 and a finding never
/// comes with a low risk score. The order of recordings, and so every threshold-free figure
/// (AUROC), is unchanged; the decision is the same.
pub fn on_decision_scale(p: f64, threshold: f64) -> f64 {
    if !(p.is_finite() && threshold > 0.0 && threshold < 1.0) {
        return p;
    }
    let p = p.clamp(0.0, 1.0);
    if p < threshold {
        0.5 * p / threshold
    } else {
        0.5 + 0.5 * (p - threshold) / (1.0 - threshold)
    }
}

#[cfg(test)]
mod tests {
    use super::on_decision_scale;

    #[test]
    fn the_decision_threshold_maps_to_one_half() {
        assert_eq!(on_decision_scale(0.35, 0.35), 0.5);
        assert_eq!(on_decision_scale(0.0, 0.35), 0.0);
        assert_eq!(on_decision_scale(1.0, 0.35), 1.0);
        assert!((on_decision_scale(0.175, 0.35) - 0.25).abs() < 1e-12);
        assert!((on_decision_scale(0.6, 0.2) - 0.75).abs() < 1e-12);
        assert_eq!(on_decision_scale(0.3, 0.5), 0.3);
    }
}
