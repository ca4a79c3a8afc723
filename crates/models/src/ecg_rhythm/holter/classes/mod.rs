//! Every beat of a long ECG classed as the AAMI EC57 classes a Holter report counts: `N` (normal
//! and bundle-branch-block beats), `S` (supraventricular ectopic) and `V` (ventricular ectopic).
//!
//! - [`features`]: patient-relative interval and shape features of every beat;
//! - [`patterns`]: couplets, runs, bigeminy and trigeminy from the classes;
//! - [`Classifier`]: gradient-boosted trees ([`crate::gbdt`]) over the features, trained on the
//!   MIT-BIH Arrhythmia Database's DS1 records of de Chazal et al. 2004 (the inter-patient split:
//!   no patient of the test half DS2 is seen in training) by `cargo run --release -p cardio-lab
//!   --example beat_classes -- train`, committed as `params/beat-classes.json`; the card is
//!   `cards/holter.md`.
//!
//! A beat whose class the trees cannot tell (the first and last beats, undefined features) is
//! `N`, the class that claims nothing.

pub mod features;
pub mod patterns;

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::lead::{InMemory, LongLead};
use crate::gbdt::Gbdt;
pub use features::{features, has_intervals, NAMES, N_FEATURES};
pub use patterns::Patterns;

/// A beat's class (ANSI/AAMI EC57:2012 heartbeat classes; fusion and unclassifiable beats are
/// not told apart here).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BeatClass {
    /// Normal (and bundle-branch-block, escape, nodal) beats.
    N,
    /// Supraventricular ectopic beats.
    S,
    /// Ventricular ectopic beats.
    V,
}

impl BeatClass {
    /// The classes in the model's output order.
    pub const ALL: [Self; 3] = [Self::N, Self::S, Self::V];

    /// Lower-case code (`n`, `s`, `v`).
    pub fn code(self) -> &'static str {
        match self {
            Self::N => "n",
            Self::S => "s",
            Self::V => "v",
        }
    }

    /// Index in [`Self::ALL`].
    pub fn index(self) -> usize {
        match self {
            Self::N => 0,
            Self::S => 1,
            Self::V => 2,
        }
    }
}

/// The committed parameters of the beat classifier.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ClassifierParams {
    /// Model identifier.
    pub model_id: String,
    /// Version.
    pub version: String,
    /// Feature names the trees read, in order (must equal [`NAMES`]).
    pub features: Vec<String>,
    /// The fitted trees (classes in [`BeatClass::ALL`] order).
    pub gbdt: Gbdt,
    /// How it was trained (records, beats per class, settings).
    pub training: Value,
}

/// The beat classifier.
#[derive(Debug, Clone)]
pub struct Classifier {
    /// Its parameters.
    pub params: ClassifierParams,
}

const PARAMS_JSON: &str = include_str!("../../../../params/beat-classes.json");

/// The committed classifier, parsed once; `None` when the parameters do not fit the features
/// (a build error the tests catch).
pub fn classifier() -> Option<&'static Classifier> {
    static MODEL: OnceLock<Option<Classifier>> = OnceLock::new();
    MODEL
        .get_or_init(|| {
            let params: ClassifierParams = serde_json::from_str(PARAMS_JSON).ok()?;
            (params.features.len() == N_FEATURES
                && params.features.iter().zip(NAMES).all(|(a, b)| a == b)
                && params.gbdt.n_features == N_FEATURES
                && params.gbdt.n_classes == BeatClass::ALL.len())
            .then_some(Classifier { params })
        })
        .as_ref()
}

impl Classifier {
    /// A classifier from fitted parameters.
    pub fn new(params: ClassifierParams) -> Self {
        Self { params }
    }

    /// The class of one beat's features: the likeliest (ties and undefined features: `N`).
    pub fn class_of(&self, f: &[f64; N_FEATURES]) -> BeatClass {
        if !has_intervals(f) {
            return BeatClass::N;
        }
        let p = self.params.gbdt.predict_proba(f);
        let best = (0..p.len())
            .max_by(|&a, &b| p[a].total_cmp(&p[b]).then(b.cmp(&a)))
            .unwrap_or(0);
        BeatClass::ALL[best]
    }

    /// The class of every beat `beats` (R-peak times, s) of the cleaned lead `x` (mV at `fs`).
    pub fn classify(&self, x: &[f64], fs: f64, beats: &[f64]) -> Vec<BeatClass> {
        features(x, fs, beats)
            .iter()
            .map(|f| self.class_of(f))
            .collect()
    }
}

/// Seconds a piece of a long lead is read beyond its own span on either side when its beats are
/// classed: the reach of a beat's template (its [`features::BLOCK_S`] block and
/// [`features::NEIGHBOURHOOD_S`] around it).
pub const CONTEXT_S: f64 = features::NEIGHBOURHOOD_S + features::BLOCK_S;

/// The beats of a whole lead (`mv`, millivolts at `fs` Hz) and their classes: the product's QRS
/// detector ([`super::beats::detect_piece`]) and the committed classifier on the cleaned lead
/// (every beat `N` when the parameters do not load), in the pieces of
/// [`super::beats::PIECE_S`] (a 30-min record is one), each read [`CONTEXT_S`] further on
/// either side, so that no day-long cleaned lead is held.
pub fn classed_beats(mv: &[f64], fs: f64) -> (Vec<f64>, Vec<BeatClass>) {
    classed_beats_in(mv, fs, super::beats::PIECE_S)
}

/// [`classed_beats`] in pieces of `piece_s` seconds.
pub fn classed_beats_in(mv: &[f64], fs: f64, piece_s: f64) -> (Vec<f64>, Vec<BeatClass>) {
    match classed_beats_of(&InMemory::millivolts(mv, fs), piece_s) {
        Ok(classed) => classed,
        Err(never) => match never {},
    }
}

/// [`classed_beats`] of a lead read a stretch at a time, in pieces of `piece_s` seconds.
///
/// # Errors
/// The lead's error when a piece cannot be read.
pub fn classed_beats_of<L: LongLead>(
    lead: &L,
    piece_s: f64,
) -> Result<(Vec<f64>, Vec<BeatClass>), L::Error> {
    use super::beats;
    let fs = lead.fs();
    let Some(analyzer) = beats::analyzer(fs) else {
        return Ok((Vec::new(), Vec::new()));
    };
    let model = classifier();
    let classed = beats::try_in_pieces(lead.len(), fs, piece_s, CONTEXT_S, |a, b, _| {
        let piece = lead.mv(a, b)?;
        let (times, cleaned) = beats::detect_piece(&analyzer, &piece.mv, fs);
        let classes = model.map_or_else(
            || vec![BeatClass::N; times.len()],
            |c| c.classify(&cleaned, fs, &times),
        );
        Ok(times.into_iter().zip(classes).collect())
    })?;
    Ok(classed.into_iter().unzip())
}

/// Makes `N` every `S` beat inside one of `af` (AF episodes `(start, end)`, s, widened by
/// `margin_s` either side): in atrial fibrillation there is no supraventricular ectopic beat to
/// count (MIT-BIH labels AF beats `N`).
pub fn no_s_in_af(beats: &[f64], classes: &mut [BeatClass], af: &[(f64, f64)], margin_s: f64) {
    for (t, c) in beats.iter().zip(classes.iter_mut()) {
        if *c == BeatClass::S
            && af
                .iter()
                .any(|&(s, e)| *t >= s - margin_s && *t <= e + margin_s)
        {
            *c = BeatClass::N;
        }
    }
}

/// Beats per class: `(n, s, v)`.
pub fn counts(classes: &[BeatClass]) -> (usize, usize, usize) {
    classes.iter().fold((0, 0, 0), |(n, s, v), c| match c {
        BeatClass::N => (n + 1, s, v),
        BeatClass::S => (n, s + 1, v),
        BeatClass::V => (n, s, v + 1),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_committed_classifier_reads_these_features() {
        let c = classifier().expect("params/beat-classes.json fits the features");

        assert_eq!(c.params.features.len(), N_FEATURES);
        assert_eq!(c.class_of(&[f64::NAN; N_FEATURES]), BeatClass::N);
    }

    #[test]
    fn counts_add_up_per_class() {
        use BeatClass::{N, S, V};

        assert_eq!(counts(&[N, N, S, V, V, N]), (3, 1, 2));
    }
}
