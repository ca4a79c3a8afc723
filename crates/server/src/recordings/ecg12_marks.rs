//! The 12-lead reading's marks for the ECG paper: the global fiducials of every beat (P onset, QRS
//! onset and offset, T end across the leads, as the delineator finds them per beat), each lead's
//! own fiducials, and the median beats with the global fiducials the measurements rest on.
//!
//! [`reading`] reads a decoded recording once (the decode cache keeps it beside the samples);
//! [`view`] cuts what a window of the viewer needs from it. Only a recording with at least
//! [`MIN_VERDICT_LEADS`] standard leads gets marks (the condition of the 12-lead reading); one
//! whose reading fails gets none, never an error.

use cardio_formats::Recording;
use cardio_models::ecg12::{
    self, report::MIN_VERDICT_LEADS, BeatFiducials, Ecg12, GlobalBeat, Lead,
};
use serde::Serialize;
use utoipa::ToSchema;

/// The most beats one view returns (of the global beats, and of each lead's).
pub const MAX_BEATS: usize = 2000;

/// One beat's global fiducials, seconds from the record's start.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq)]
pub struct GlobalBeatView {
    /// The beat's position across leads (its R peak).
    pub r_s: f64,
    /// Earliest P onset across the leads.
    pub p_on: Option<f64>,
    /// Earliest QRS onset.
    pub qrs_on: Option<f64>,
    /// Latest QRS offset.
    pub qrs_off: Option<f64>,
    /// Latest T end.
    pub t_off: Option<f64>,
}

/// One beat's fiducials in one lead, seconds from the record's start.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq)]
pub struct LeadBeatView {
    /// P onset.
    pub p_on: Option<f64>,
    /// P peak.
    pub p_peak: Option<f64>,
    /// P offset.
    pub p_off: Option<f64>,
    /// QRS onset.
    pub qrs_on: Option<f64>,
    /// R peak (the QRS's main peak).
    pub r_peak: Option<f64>,
    /// QRS offset.
    pub qrs_off: Option<f64>,
    /// T onset.
    pub t_on: Option<f64>,
    /// T peak.
    pub t_peak: Option<f64>,
    /// T end.
    pub t_off: Option<f64>,
}

/// One lead's beats.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq)]
pub struct LeadMarksView {
    /// The lead's standard name ("II", "aVR", "V1").
    pub name: String,
    /// Its beats inside the window, in time order.
    pub beats: Vec<LeadBeatView>,
}

/// One lead's median complex.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq)]
pub struct MedianLeadView {
    /// The lead's standard name.
    pub name: String,
    /// The median beat, mV, at the median's rate; null where it is not defined.
    pub samples: Vec<Option<f32>>,
}

/// The median beats and their global fiducials.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq)]
pub struct MedianView {
    /// Rate of the samples, hertz (the recording's own).
    pub sampling_rate_hz: f64,
    /// The leads read, in the standard order, each of the same length.
    pub leads: Vec<MedianLeadView>,
    /// Global P onset, seconds from the median beat's first sample.
    pub p_on_s: Option<f64>,
    /// Global QRS onset, seconds from the first sample.
    pub qrs_on_s: Option<f64>,
    /// Global QRS offset, seconds from the first sample.
    pub qrs_off_s: Option<f64>,
    /// Global T end, seconds from the first sample.
    pub t_off_s: Option<f64>,
}

/// What the ECG paper marks from the 12-lead reading.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq)]
pub struct Ecg12MarksView {
    /// The beats inside the window with their global fiducials (at most [`MAX_BEATS`]).
    pub global_beats: Vec<GlobalBeatView>,
    /// Each lead read, with its own beats' fiducials inside the window.
    pub lead_marks: Vec<LeadMarksView>,
    /// The median complexes with the global fiducials of the measurements.
    pub median: MedianView,
}

/// The 12-lead reading of `rec` when it carries at least [`MIN_VERDICT_LEADS`] standard leads and
/// the reading reads that many; `None` otherwise (fewer leads, or a reading that fails).
pub fn reading(rec: &Recording) -> Option<Ecg12> {
    let mut named: Vec<Lead> = rec
        .channels
        .iter()
        .filter_map(|c| Lead::parse(&c.name))
        .collect();
    named.sort_unstable();
    named.dedup();
    if named.len() < MIN_VERDICT_LEADS {
        return None;
    }
    ecg12::analyze(rec, None)
        .ok()
        .filter(|e| e.leads_used.len() >= MIN_VERDICT_LEADS)
}

/// Whether a beat spanning `[first, last]` seconds meets the window `[start_s, end_s]`.
fn meets(first: f64, last: f64, start_s: f64, end_s: f64) -> bool {
    last >= start_s && first <= end_s
}

/// The extent of a lead's beat, seconds (its earliest and latest fiducial).
fn extent(b: &BeatFiducials) -> Option<(f64, f64)> {
    [
        b.p_on, b.p_peak, b.p_off, b.qrs_on, b.r_peak, b.qrs_off, b.t_on, b.t_peak, b.t_off,
    ]
    .into_iter()
    .flatten()
    .fold(None, |acc, t| match acc {
        None => Some((t, t)),
        Some((lo, hi)) => Some((lo.min(t), hi.max(t))),
    })
}

fn global_view(g: &GlobalBeat) -> GlobalBeatView {
    GlobalBeatView {
        r_s: g.r_s,
        p_on: g.p_on,
        qrs_on: g.qrs_on,
        qrs_off: g.qrs_off,
        t_off: g.t_off,
    }
}

fn lead_view(b: &BeatFiducials) -> LeadBeatView {
    LeadBeatView {
        p_on: b.p_on,
        p_peak: b.p_peak,
        p_off: b.p_off,
        qrs_on: b.qrs_on,
        r_peak: b.r_peak,
        qrs_off: b.qrs_off,
        t_on: b.t_on,
        t_peak: b.t_peak,
        t_off: b.t_off,
    }
}

/// The median beats of `e` with the global fiducials of its measurements.
fn median_view(e: &Ecg12, fs: f64) -> MedianView {
    let mut leads: Vec<&(Lead, Vec<f64>)> = e.median.leads.iter().collect();
    leads.sort_by_key(|(l, _)| *l);
    let g = &e.measurements.fiducials;
    let s = |v: Option<usize>| v.map(|i| (i as f64 / fs * 1000.0).round() / 1000.0);
    MedianView {
        sampling_rate_hz: fs,
        leads: leads
            .into_iter()
            .map(|(lead, x)| MedianLeadView {
                name: lead.name().to_owned(),
                samples: x
                    .iter()
                    .map(|&v| {
                        #[allow(clippy::cast_possible_truncation)] // display precision
                        v.is_finite().then_some(v as f32)
                    })
                    .collect(),
            })
            .collect(),
        p_on_s: s(g.p_on),
        qrs_on_s: s(g.qrs_on),
        qrs_off_s: s(g.qrs_off),
        t_off_s: s(g.t_off),
    }
}

/// What the window `[start_s, end_s]` of a recording read as `e` (at `fs` hertz) marks: the beats
/// that meet it (global and per lead) and the median beats.
pub fn view(e: &Ecg12, fs: f64, start_s: f64, end_s: f64) -> Ecg12MarksView {
    let global_beats = e
        .global_beats
        .iter()
        .filter(|g| {
            let first = g.p_on.or(g.qrs_on).unwrap_or(g.r_s).min(g.r_s);
            let last = g.t_off.or(g.qrs_off).unwrap_or(g.r_s).max(g.r_s);
            meets(first, last, start_s, end_s)
        })
        .take(MAX_BEATS)
        .map(global_view)
        .collect();
    let lead_marks = e
        .lead_beats
        .iter()
        .map(|l| LeadMarksView {
            name: l.name.to_owned(),
            beats: l
                .beats
                .iter()
                .filter(|b| extent(b).is_some_and(|(lo, hi)| meets(lo, hi, start_s, end_s)))
                .take(MAX_BEATS)
                .map(lead_view)
                .collect(),
        })
        .collect();
    Ecg12MarksView {
        global_beats,
        lead_marks,
        median: median_view(e, fs),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_beat_meets_a_window_it_overlaps_and_not_one_it_misses() {
        assert!(meets(1.0, 1.6, 1.5, 3.0));
        assert!(meets(2.9, 3.4, 1.5, 3.0));
        assert!(!meets(0.5, 1.4, 1.5, 3.0));
        assert!(!meets(3.1, 3.6, 1.5, 3.0));
    }

    #[test]
    fn a_beats_extent_spans_its_present_fiducials() {
        let b = BeatFiducials {
            qrs_on: Some(1.2),
            r_peak: Some(1.25),
            t_off: Some(1.7),
            ..BeatFiducials::default()
        };
        assert_eq!(extent(&b), Some((1.2, 1.7)));
        assert_eq!(extent(&BeatFiducials::default()), None);
    }

    #[test]
    fn one_or_two_named_leads_are_not_read() {
        let rec = Recording {
            channels: ["II", "PLETH", "V1"]
                .into_iter()
                .map(|n| cardio_formats::Channel {
                    name: n.into(),
                    unit: "mV".into(),
                    samples: vec![0.0; 5000],
                })
                .collect(),
            sampling_rate_hz: 500.0,
            start: None,
            metadata: std::collections::BTreeMap::new(),
            device_interpretation: None,
        };
        assert!(reading(&rec).is_none());
    }
}
