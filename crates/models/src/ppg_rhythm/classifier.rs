//! The rhythm classifier of a PPG window: one gradient-boosted tree model with a softmax over the
//! six rhythms of the training data ([`crate::gbdt`], Friedman 2001; Chen & Guestrin 2016), learnt
//! from real fingertip PPG labelled from the simultaneous ECG (Liu et al. 2022).
//!
//! The six rhythm probabilities fold into the three rhythm labels a result carries: `af` is
//! atrial fibrillation, `normal` is sinus rhythm, and `irregular` gathers every other arrhythmia
//! (ventricular and atrial ectopic beats, ventricular and supraventricular tachycardia). A window
//! is AF when `P(af)` reaches the AF threshold (chosen by an inner patient-grouped CV in
//! `cardio-lab`, `ppg_rhythm::validation::choose_threshold`), otherwise the more probable of
//! irregular and normal. The boosting settings were fixed before any validation and are not
//! tuned; the training is in `cardio-lab` (`ppg_rhythm::classifier`).

use serde::{Deserialize, Serialize};

use crate::gbdt::Gbdt;

/// The rhythms the classifier tells apart, in its class order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rhythm {
    /// Sinus rhythm.
    Sinus,
    /// Premature ventricular contractions.
    Pvc,
    /// Premature atrial contractions.
    Pac,
    /// Ventricular tachycardia.
    Vt,
    /// Supraventricular tachycardia.
    Svt,
    /// Atrial fibrillation.
    Af,
}

impl Rhythm {
    /// Every rhythm, in class order.
    pub const ALL: [Self; 6] = [
        Self::Sinus,
        Self::Pvc,
        Self::Pac,
        Self::Vt,
        Self::Svt,
        Self::Af,
    ];

    /// The rhythm of a label code of the training data (0 sinus, 1 PVC, 2 PAC, 3 VT, 4 SVT, 5 AF).
    pub fn from_code(code: f64) -> Option<Self> {
        Self::ALL
            .into_iter()
            .enumerate()
            .find(|(i, _)| *i as f64 == code)
            .map(|(_, r)| r)
    }

    /// Its class index.
    pub fn index(self) -> usize {
        self as usize
    }

    /// Short name (the keys of `details.rhythm_probabilities`).
    pub fn name(self) -> &'static str {
        match self {
            Self::Sinus => "sinus",
            Self::Pvc => "pvc",
            Self::Pac => "pac",
            Self::Vt => "vt",
            Self::Svt => "svt",
            Self::Af => "af",
        }
    }

    /// The rhythm label it folds into.
    pub fn label(self) -> WindowLabel {
        match self {
            Self::Sinus => WindowLabel::Normal,
            Self::Af => WindowLabel::Af,
            Self::Pvc | Self::Pac | Self::Vt | Self::Svt => WindowLabel::Irregular,
        }
    }
}

/// The rhythm label of a window.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WindowLabel {
    /// Sinus rhythm.
    Normal,
    /// Atrial fibrillation.
    Af,
    /// Another arrhythmia: ectopic beats or a tachycardia other than AF.
    Irregular,
}

impl WindowLabel {
    /// Every label, in table order.
    pub const ALL: [Self; 3] = [Self::Normal, Self::Af, Self::Irregular];

    /// Short name (the result's `label`).
    pub fn name(self) -> &'static str {
        match self {
            Self::Normal => "normal",
            Self::Af => "af",
            Self::Irregular => "irregular",
        }
    }
}

/// The fitted model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RhythmClassifier {
    /// The six-class boosted trees, classes in [`Rhythm::ALL`] order.
    pub model: Gbdt,
}

/// Class probabilities of one window.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct RhythmProbabilities {
    /// One probability per rhythm, in [`Rhythm::ALL`] order.
    pub rhythms: [f64; 6],
}

impl RhythmProbabilities {
    /// The probability of one rhythm.
    pub fn of(&self, r: Rhythm) -> f64 {
        self.rhythms[r.index()]
    }

    /// `P(sinus)`.
    pub fn normal(&self) -> f64 {
        self.of(Rhythm::Sinus)
    }

    /// `P(af)`.
    pub fn af(&self) -> f64 {
        self.of(Rhythm::Af)
    }

    /// The summed probability of the rhythms that fold into `irregular`.
    pub fn irregular(&self) -> f64 {
        Rhythm::ALL
            .into_iter()
            .filter(|r| r.label() == WindowLabel::Irregular)
            .map(|r| self.of(r))
            .sum()
    }

    /// The most probable rhythm among those folding into `irregular`.
    pub fn likeliest_irregular(&self) -> Rhythm {
        Rhythm::ALL
            .into_iter()
            .filter(|r| r.label() == WindowLabel::Irregular)
            .max_by(|a, b| self.of(*a).total_cmp(&self.of(*b)))
            .unwrap_or(Rhythm::Pvc)
    }

    /// The duration-weighted mean of windows' probabilities (`None` without weight).
    pub fn weighted_mean(items: &[(Self, f64)]) -> Option<Self> {
        let total: f64 = items.iter().map(|(_, w)| w).sum();
        (total > 0.0).then(|| {
            let mut rhythms = [0.0; 6];
            for (p, w) in items {
                for (r, v) in rhythms.iter_mut().zip(p.rhythms) {
                    *r += v * w / total;
                }
            }
            Self { rhythms }
        })
    }

    /// The same probabilities on the decision's scale (`crate::prediction::on_decision_scale`):
    /// `P(af)` mapped so that `af_threshold` becomes 0.5, the other rhythms scaled to fill the
    /// rest. [`Self::label`] at 0.5 of the result is [`Self::label`] at `af_threshold` of these.
    #[must_use]
    pub fn on_decision_scale(&self, af_threshold: f64) -> Self {
        let af = self.af();
        let shown = crate::prediction::on_decision_scale(af, af_threshold);
        let rest = if af < 1.0 {
            (1.0 - shown) / (1.0 - af)
        } else {
            0.0
        };
        let mut rhythms = self.rhythms.map(|v| v * rest);
        rhythms[Rhythm::Af.index()] = shown;
        Self { rhythms }
    }

    /// The label: AF when `P(af) >= af_threshold`, otherwise the more probable of irregular and
    /// normal (ties go to irregular); with the label's probability.
    pub fn label(&self, af_threshold: f64) -> (WindowLabel, f64) {
        let (af, irregular, normal) = (self.af(), self.irregular(), self.normal());
        if af >= af_threshold {
            (WindowLabel::Af, af)
        } else if irregular >= normal {
            (WindowLabel::Irregular, irregular)
        } else {
            (WindowLabel::Normal, normal)
        }
    }
}

impl RhythmClassifier {
    /// Class probabilities of one feature row.
    pub fn predict(&self, features: &[f64]) -> RhythmProbabilities {
        let p = self.model.predict_proba(features);
        let mut rhythms = [0.0; 6];
        for (r, v) in rhythms.iter_mut().zip(p) {
            *r = v;
        }
        RhythmProbabilities { rhythms }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_names_and_labels_follow_the_training_data() {
        assert_eq!(Rhythm::from_code(0.0), Some(Rhythm::Sinus));
        assert_eq!(Rhythm::from_code(5.0), Some(Rhythm::Af));
        assert_eq!(Rhythm::from_code(6.0), None);
        assert_eq!(Rhythm::from_code(1.5), None);
        assert_eq!(Rhythm::Svt.label(), WindowLabel::Irregular);
        assert_eq!(Rhythm::Sinus.label().name(), "normal");
        assert_eq!(Rhythm::Vt.name(), "vt");
    }

    #[test]
    fn the_label_folds_the_six_rhythms() {
        let p = RhythmProbabilities {
            rhythms: [0.3, 0.15, 0.1, 0.05, 0.1, 0.3],
        };
        assert!((p.irregular() - 0.4).abs() < 1e-12);
        assert_eq!(p.label(0.3).0, WindowLabel::Af);
        assert_eq!(p.label(0.5), (WindowLabel::Irregular, p.irregular()));
        assert_eq!(p.likeliest_irregular(), Rhythm::Pvc);
        let q = RhythmProbabilities {
            rhythms: [0.9, 0.02, 0.02, 0.02, 0.02, 0.02],
        };
        assert_eq!(q.label(0.5).0, WindowLabel::Normal);
        let m = RhythmProbabilities::weighted_mean(&[(p, 1.0), (q, 3.0)]).unwrap();
        assert!((m.normal() - (0.3 + 2.7) / 4.0).abs() < 1e-12);
        assert!(RhythmProbabilities::weighted_mean(&[]).is_none());
    }
}
