//! The resting 12-lead ECG: measurements from the median beat and the interpretation statements.
//!
//! [`analyze`] reads the standard leads of a [`Recording`] (I, II, III, aVR, aVL, aVF, V1-V6, by
//! name, case-insensitive), delineates every beat of every lead with the wavelet delineator of
//! `cardio-signal` ([`WaveDelineator`], after Martínez et al. 2004), builds the representative
//! (median) beat of each lead from the dominant beats ([`median`]), measures it with the carts'
//! conventions ([`measure`]: global fiducials across leads as in the CSE study, Willems et al.
//! 1985; QTc by Bazett shown, Fridericia, Framingham and Hodges given) and reads the
//! statements of the one table [`statements::STATEMENTS`] (after the AHA/ACCF/HRS
//! Recommendations for the Standardization and Interpretation of the ECG, parts I-VI, 2007-2009).
//!
//! The result is a **computer interpretation, unconfirmed** until a doctor confirms or edits it.
//! A record with fewer leads is measured as far as its leads allow, and [`Ecg12::not_measured`]
//! says what is missing and why (no axis from one lead). LUDB was used to develop every rule and
//! threshold that is not the guideline's own (see `cards/ecg-12-lead.md`).
//!
//! ```
//! use cardio_formats::{Channel, Recording};
//! use cardio_models::ecg12::analyze;
//!
//! let rec = Recording {
//!     channels: vec![Channel { name: "II".into(), unit: "mV".into(), samples: vec![0.0; 100] }],
//!     sampling_rate_hz: 500.0,
//!     start: None,
//!     metadata: Default::default(),
//!     device_interpretation: None,
//! };
//! // 0.2 s is too short to hold a beat: a typed error, never a panic.
//! assert!(analyze(&rec, None).is_err());
//! ```

use crate::ecg_lead::longest_finite_run;
use cardio_formats::Recording;
use cardio_signal::ecg::{Powerline, Thresholds, WaveDelineator};
use cardio_signal::SamplingRate;
use serde::Serialize;

pub use crate::clinical::Sex;

pub mod atrial;
pub mod measure;
pub mod median;
pub mod report;
pub mod statements;

pub use measure::{LeadAmplitudes, Measurements, Rhythm};
pub use median::{BeatSelection, Excluded, MedianBeats};
pub use report::{measurement_keys, BeatFiducials, GlobalBeat, LeadBeats, Verdict};
pub use statements::{AxisCategory, Category, Statement, StatementDef, STATEMENTS};

/// The label every interpretation carries until a doctor confirms it.
pub const UNCONFIRMED: &str = "computer interpretation, unconfirmed";

/// The twelve standard leads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Lead {
    /// Lead I.
    I,
    /// Lead II.
    II,
    /// Lead III.
    III,
    /// aVR.
    AVR,
    /// aVL.
    AVL,
    /// aVF.
    AVF,
    /// V1.
    V1,
    /// V2.
    V2,
    /// V3.
    V3,
    /// V4.
    V4,
    /// V5.
    V5,
    /// V6.
    V6,
}

impl Lead {
    /// The twelve leads in the standard order.
    pub const ALL: [Self; 12] = [
        Self::I,
        Self::II,
        Self::III,
        Self::AVR,
        Self::AVL,
        Self::AVF,
        Self::V1,
        Self::V2,
        Self::V3,
        Self::V4,
        Self::V5,
        Self::V6,
    ];

    /// The lead's printed name ("I", "aVR", "V1").
    pub fn name(self) -> &'static str {
        [
            "I", "II", "III", "aVR", "aVL", "aVF", "V1", "V2", "V3", "V4", "V5", "V6",
        ][self as usize]
    }

    /// The lead a channel name stands for: "II", "ii", "aVR", "avr", "Lead II", "EKG II", "V1".
    pub fn parse(name: &str) -> Option<Self> {
        let lower = name.trim().to_ascii_lowercase();
        let bare = ["lead ", "lead-", "ekg ", "ecg "]
            .iter()
            .find_map(|p| lower.strip_prefix(p))
            .unwrap_or(&lower)
            .trim();
        Self::ALL
            .into_iter()
            .find(|l| l.name().eq_ignore_ascii_case(bare))
    }

    /// The frontal-plane angle of a limb lead's positive pole (hexaxial reference system), degrees.
    pub fn frontal_angle(self) -> Option<f64> {
        match self {
            Self::I => Some(0.0),
            Self::II => Some(60.0),
            Self::III => Some(120.0),
            Self::AVR => Some(-150.0),
            Self::AVL => Some(-30.0),
            Self::AVF => Some(90.0),
            _ => None,
        }
    }
}

/// Why a recording could not be interpreted.
#[derive(Debug, thiserror::Error)]
pub enum Ecg12Error {
    /// No channel is named as a standard ECG lead.
    #[error("the recording has no standard ECG lead (I, II, III, aVR, aVL, aVF, V1-V6)")]
    NoLeads,
    /// No lead holds enough valid signal.
    #[error("no ECG lead holds {needed_s} s of valid signal")]
    TooShort {
        /// Seconds needed.
        needed_s: f64,
    },
    /// Fewer than two beats were found.
    #[error("fewer than two heart beats were found in the ECG")]
    NoBeats,
    /// The signal methods refused the recording (sampling rate below 100 Hz, ...).
    #[error("the ECG cannot be delineated: {0}")]
    Signal(#[from] cardio_signal::SignalError),
}

/// The 12-lead interpretation of one recording.
#[derive(Debug, Clone, Serialize)]
pub struct Ecg12 {
    /// Always [`UNCONFIRMED`]: the doctor confirms or edits it at sign-off.
    pub status: &'static str,
    /// The standard leads read, in the standard order.
    pub leads_used: Vec<&'static str>,
    /// The standard leads the recording lacks (or holds too little valid signal of).
    pub leads_missing: Vec<&'static str>,
    /// Seconds of signal the rhythm rests on.
    pub seconds: f64,
    /// The beats found and which of them make the median beat.
    pub beats: BeatSelection,
    /// The measurements.
    #[serde(flatten)]
    pub measurements: Measurements,
    /// The rhythm features the statements read.
    pub rhythm: Rhythm,
    /// The frontal QRS axis in LUDB's categories.
    pub axis_category: Option<AxisCategory>,
    /// What could not be measured and why.
    pub not_measured: Vec<String>,
    /// The statements that fired, in the table's order.
    pub statements: Vec<Statement>,
    /// Normal, borderline or abnormal ECG.
    pub category: Option<Category>,
    /// The median beats (what a report draws).
    #[serde(skip)]
    pub median: MedianBeats,
    /// Each lead's delineation of its median beat (sample 0 is the median beat's first sample).
    #[serde(skip)]
    pub median_waves: Vec<(Lead, cardio_signal::ecg::Waves)>,
    /// Every lead read, with every beat's fiducials in seconds from the record's start.
    #[serde(skip)]
    pub lead_beats: Vec<LeadBeats>,
    /// Every beat of the rhythm's leads with its global fiducials across them, in seconds from
    /// the record's start.
    #[serde(skip)]
    pub global_beats: Vec<GlobalBeat>,
}

impl Ecg12 {
    /// Whether a statement with this code fired.
    pub fn has(&self, code: &str) -> bool {
        self.statements.iter().any(|s| s.code == code)
    }
}

/// Leads sharing one span of valid samples: `((start, end), [(lead, samples in the span)])`.
type Group<'a> = ((usize, usize), Vec<(Lead, &'a [f64])>);

/// Seconds of valid signal a lead needs to be read.
pub const MIN_SECONDS: f64 = 1.5;

/// Interprets the standard leads of `rec`; `sex` selects the sex-specific limits (QTc, Cornell,
/// ST elevation in V2-V3) where given.
///
/// Leads are grouped by their span of valid (finite) samples, so that a printed page whose leads
/// each cover 2.5 s is read group by group; the rhythm rests on the group with the longest span.
///
/// # Errors
/// [`Ecg12Error::NoLeads`] without a standard lead; [`Ecg12Error::TooShort`] when no lead holds
/// [`MIN_SECONDS`] of finite signal; [`Ecg12Error::NoBeats`] with fewer than two beats;
/// [`Ecg12Error::Signal`] when the delineator refuses the rate.
pub fn analyze(rec: &Recording, sex: Option<Sex>) -> Result<Ecg12, Ecg12Error> {
    let fs = SamplingRate::new(rec.sampling_rate_hz)?;
    let delineator = WaveDelineator::new(fs, Powerline::Hz50)?;
    let mut named: Vec<(Lead, &[f64])> = Vec::new();
    for ch in &rec.channels {
        if let Some(lead) = Lead::parse(&ch.name) {
            if !named.iter().any(|(l, _)| *l == lead) {
                named.push((lead, &ch.samples));
            }
        }
    }
    if named.is_empty() {
        return Err(Ecg12Error::NoLeads);
    }
    named.sort_by_key(|(l, _)| *l);
    let min_len = (MIN_SECONDS * fs.hz()).ceil() as usize;
    // Group the leads by their longest finite span.
    let mut groups: Vec<Group> = Vec::new();
    for (lead, x) in &named {
        let span = longest_finite_run(x);
        if span.1 - span.0 < min_len || is_flat(&x[span.0..span.1]) {
            continue;
        }
        match groups.iter_mut().find(|(s, _)| *s == span) {
            Some((_, g)) => g.push((*lead, &x[span.0..span.1])),
            None => groups.push((span, vec![(*lead, &x[span.0..span.1])])),
        }
    }
    if groups.is_empty() {
        return Err(Ecg12Error::TooShort {
            needed_s: MIN_SECONDS,
        });
    }
    // The rhythm group: the longest span, then the most leads.
    groups.sort_by_key(|((s, e), g)| std::cmp::Reverse((e - s, g.len())));
    let mut main: Option<median::GroupBeats> = None;
    let mut medians = MedianBeats::default();
    let mut lead_beats = Vec::new();
    for (i, ((start, _), group)) in groups.iter().enumerate() {
        let leads: Vec<&[f64]> = group.iter().map(|(_, x)| *x).collect();
        let del = delineator.delineate(&leads)?;
        if del.beats.len() < 2 {
            if i == 0 {
                return Err(Ecg12Error::NoBeats);
            }
            continue;
        }
        for ((lead, _), waves) in group.iter().zip(&del.leads) {
            lead_beats.push(LeadBeats {
                name: lead.name(),
                beats: waves
                    .iter()
                    .map(|w| BeatFiducials::of(w, *start, fs.hz()))
                    .collect(),
            });
        }
        let gb = median::GroupBeats::new(del, &leads, fs.hz());
        let len = main
            .as_ref()
            .map_or_else(|| gb.template_len(), median::GroupBeats::template_len);
        let names: Vec<Lead> = group.iter().map(|(l, _)| *l).collect();
        medians.add(&gb, &names, &leads, len, fs.hz());
        if i == 0 {
            main = Some(gb);
        }
    }
    let Some(main) = main else {
        return Err(Ecg12Error::NoBeats);
    };
    let seconds = (groups[0].0 .1 - groups[0].0 .0) as f64 / fs.hz();
    let global_beats: Vec<GlobalBeat> = main
        .delineation
        .beats
        .iter()
        .zip(&main.global)
        .map(|(&b, g)| GlobalBeat::of(b, g, groups[0].0 .0, fs.hz()))
        .collect();
    let beat_waves = medians.delineate(&delineator.clone().with_thresholds(MEDIAN_THRESHOLDS));
    let mut not_measured = Vec::new();
    let measurements = measure::measure(&medians, &beat_waves, &main, fs, &mut not_measured);
    let median_p = measurements
        .fiducials
        .p_on
        .zip(measurements.fiducials.p_off);
    let mut rhythm = measure::rhythm(&main, &groups[0].1, &medians, median_p, fs.hz());
    let atrial_leads: Vec<(Lead, &[f64], &[cardio_signal::ecg::Waves])> = groups[0]
        .1
        .iter()
        .zip(&main.delineation.leads)
        .map(|((lead, x), waves)| (*lead, *x, waves.as_slice()))
        .collect();
    if let Some(a) = atrial::activity(&atrial_leads, fs.hz()) {
        rhythm.atrial_rate_per_min = Some(a.rate_per_min);
        rhythm.atrial_organisation = Some(a.organisation);
    }
    let leads_used: Vec<&'static str> = Lead::ALL
        .into_iter()
        .filter(|l| medians.lead(*l).is_some())
        .map(Lead::name)
        .collect();
    let leads_missing: Vec<&'static str> = Lead::ALL
        .into_iter()
        .filter(|l| medians.lead(*l).is_none())
        .map(Lead::name)
        .collect();
    let facts = statements::Facts {
        m: &measurements,
        rhythm: &rhythm,
        sex,
    };
    let (fired, category) = statements::interpret(&facts);
    Ok(Ecg12 {
        status: UNCONFIRMED,
        leads_used,
        leads_missing,
        seconds,
        beats: main.selection.clone(),
        axis_category: measurements.qrs_axis_deg.map(AxisCategory::of),
        measurements,
        rhythm,
        not_measured,
        statements: fired,
        category,
        median: medians,
        median_waves: beat_waves,
        lead_beats: {
            let order = |name: &str| Lead::parse(name).map_or(usize::MAX, |l| l as usize);
            lead_beats.sort_by_key(|l| order(l.name));
            lead_beats
        },
        global_beats,
    })
}

/// The delineator's thresholds for the noise-free median beat: the QRS boundaries cut closer to
/// the complex than on raw beats (onset at 15 % of the first wavelet maximum, offset at 70 % /
/// 95 % of the last), chosen on LUDB's conduction diagnoses and the three device documents; the
/// rest as [`Thresholds::LUDB`].
pub const MEDIAN_THRESHOLDS: Thresholds = Thresholds {
    qrs_on: (0.15, 0.15),
    qrs_off: (0.7, 0.95),
    ..Thresholds::LUDB
};

/// A lead with (almost) no variation: no ECG to read.
fn is_flat(x: &[f64]) -> bool {
    let (lo, hi) = x
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &v| {
            (lo.min(v), hi.max(v))
        });
    let range = hi - lo;
    range.is_nan() || range <= 1e-3
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lead_names_are_read_case_insensitively() {
        assert_eq!(Lead::parse("avr"), Some(Lead::AVR));
        assert_eq!(Lead::parse("aVF"), Some(Lead::AVF));
        assert_eq!(Lead::parse("ii"), Some(Lead::II));
        assert_eq!(Lead::parse("EKG II"), Some(Lead::II));
        assert_eq!(Lead::parse("v6"), Some(Lead::V6));
        assert_eq!(Lead::parse("PLETH"), None);
    }

    #[test]
    fn the_longest_finite_run_skips_nan_spans() {
        let x = [f64::NAN, 1.0, 2.0, f64::NAN, 1.0, 2.0, 3.0];
        assert_eq!(longest_finite_run(&x), (4, 7));
        assert_eq!(longest_finite_run(&[f64::NAN]), (0, 0));
    }
}
