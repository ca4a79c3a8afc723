//! The murmur verdict of one patient (or one recording, a patient with one site) from the
//! recordings' class probabilities: the rule the validation scores and the product applies.
//!
//! Present when the highest probability of a murmur over the recordings reaches
//! [`Thresholds::present`] (a murmur heard at one site is a murmur: the CirCor annotators' rule,
//! Oliveira et al. 2022); else Unknown when the mean probability that the recordings cannot be
//! judged reaches [`Thresholds::unknown`]; else Absent. A patient with no recording the model could
//! read is Unknown. The thresholds are chosen, inside each training set only, to maximise the
//! PhysioNet Challenge 2022 weighted accuracy (Reyna et al., *PLOS Digit Health* 2(9), 2023).

use serde::{Deserialize, Serialize};

/// The class order of the presence model's probabilities.
pub const CLASSES: [Verdict; 3] = [Verdict::Absent, Verdict::Present, Verdict::Unknown];

/// A murmur verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// No murmur heard.
    Absent,
    /// A murmur heard.
    Present,
    /// The recordings do not allow a verdict.
    Unknown,
}

impl Verdict {
    /// `absent`, `present` or `unknown`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Absent => "absent",
            Self::Present => "present",
            Self::Unknown => "unknown",
        }
    }

    /// The index of the verdict in [`CLASSES`].
    pub fn index(self) -> usize {
        match self {
            Self::Absent => 0,
            Self::Present => 1,
            Self::Unknown => 2,
        }
    }
}

/// The two cut-offs of the rule.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Thresholds {
    /// Least highest probability of a murmur for Present.
    pub present: f64,
    /// Least mean probability of Unknown for Unknown.
    pub unknown: f64,
}

/// A patient's verdict.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Decided {
    /// The verdict.
    pub verdict: Verdict,
    /// The probability of that verdict: the highest probability of a murmur (Present), the mean
    /// probability of Unknown (Unknown) or of Absent (Absent); `NaN` when no recording was read.
    pub probability: f64,
    /// The recording that decided a Present verdict (its index in the input), else the one with the
    /// highest probability of a murmur; `None` when no recording was read.
    pub loudest: Option<usize>,
}

/// The verdict from each recording's probabilities (in [`CLASSES`] order; `None` for a recording
/// the model could not read).
pub fn decide(recordings: &[Option<[f64; 3]>], t: &Thresholds) -> Decided {
    let read: Vec<(usize, [f64; 3])> = recordings
        .iter()
        .enumerate()
        .filter_map(|(i, p)| p.map(|p| (i, p)))
        .collect();
    let Some(&(loudest, top)) = read
        .iter()
        .max_by(|a, b| a.1[1].total_cmp(&b.1[1]).then(b.0.cmp(&a.0)))
    else {
        return Decided {
            verdict: Verdict::Unknown,
            probability: f64::NAN,
            loudest: None,
        };
    };
    let mean = |k: usize| read.iter().map(|(_, p)| p[k]).sum::<f64>() / read.len() as f64;
    let (verdict, probability) = if top[1] >= t.present {
        (Verdict::Present, top[1])
    } else if mean(2) >= t.unknown {
        (Verdict::Unknown, mean(2))
    } else {
        (Verdict::Absent, mean(0))
    };
    Decided {
        verdict,
        probability,
        loudest: Some(loudest),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const T: Thresholds = Thresholds {
        present: 0.4,
        unknown: 0.5,
    };

    #[test]
    fn one_site_with_a_murmur_makes_the_patient_present() {
        let d = decide(&[Some([0.8, 0.1, 0.1]), Some([0.3, 0.6, 0.1]), None], &T);
        assert_eq!(d.verdict, Verdict::Present);
        assert_eq!(d.probability, 0.6);
        assert_eq!(d.loudest, Some(1));
    }

    #[test]
    fn unreadable_recordings_make_unknown_and_clear_ones_absent() {
        let d = decide(&[Some([0.2, 0.1, 0.7]), Some([0.3, 0.2, 0.5])], &T);
        assert_eq!(d.verdict, Verdict::Unknown);
        assert!((d.probability - 0.6).abs() < 1e-12);
        let d = decide(&[Some([0.9, 0.05, 0.05]), Some([0.7, 0.2, 0.1])], &T);
        assert_eq!((d.verdict, d.loudest), (Verdict::Absent, Some(1)));
        assert!((d.probability - 0.8).abs() < 1e-12);
        let d = decide(&[None, None], &T);
        assert_eq!((d.verdict, d.loudest), (Verdict::Unknown, None));
        assert!(d.probability.is_nan());
    }
}
