//! A long ECG read whole ("long recordings are read whole"): the rhythm model on consecutive
//! [`WINDOW_S`]-s windows of the analysed lead, each through the plausibility gate, merged into
//! episodes (`af`, `noisy`, `pause`, `tachycardia`, `bradycardia`) with the AF burden, and the
//! result's one decision made from the whole record.
//!
//! - [`episodes`]: merging window verdicts into episodes, the burden, interval overlap;
//! - [`beats`]: the whole lead's beats, pauses, window heart rates and the AF edges moved to the
//!   beat where the RR irregularity starts or stops;
//! - [`classes`]: every beat classed N / S / V (AAMI EC57), with couplets, runs, bigeminy and
//!   trigeminy; runs of three or more are `svt_run` / `vt_run` episodes;
//! - [`ectopy`]: a window called AF whose dominant beats are regular once ectopic beats are set
//!   aside is ectopy, not AF: its AF probability is counted as another rhythm's (the ectopic
//!   beats are those whose QRS differs from the window's median one, and those the beat classes
//!   call S or V);
//! - [`result`]: the result of a long record (label, confidence, advice and details).
//!
//! A lead is long when it is longer than [`features::MAX_SECONDS`](super::features::MAX_SECONDS)
//! (60 s, what the model reads in one piece): every shorter record is judged exactly as before.
//! The windows are 30 s (the last one takes the remainder, up to 39 s; the model reads 9-60 s).

pub mod beats;
pub mod classes;
pub mod ectopy;
pub mod episodes;
pub mod lead;
pub mod result;
pub mod trend;

use cardio_formats::Recording;
use serde_json::Value;

use super::features::MAX_SECONDS;
use super::{argmax, Class, Model, CLASSES};
use crate::gate::{self, GateModality};
use crate::prediction::{PredictError, Prediction};
use classes::BeatClass;
pub use episodes::{Episode, Kind};
pub use lead::{InMemory, LongLead, OnDisk};

/// Length of a window, s.
pub const WINDOW_S: f64 = 30.0;

/// Whether a lead of `samples` samples at `fs_hz` is read whole, window by window.
pub fn is_long(samples: usize, fs_hz: f64) -> bool {
    fs_hz > 0.0 && samples as f64 / fs_hz > MAX_SECONDS + 1e-9
}

/// One window's verdict.
#[derive(Debug, Clone)]
pub struct Window {
    /// Start, s from the start of the recording.
    pub start_s: f64,
    /// End, s.
    pub end_s: f64,
    /// The class called (`noisy` when the gate refused the window or it could not be analysed).
    pub class: Class,
    /// Class probabilities in [`CLASSES`] order.
    pub p: Vec<f64>,
    /// Signal-quality score of the window (0 when not analysed).
    pub quality_score: f64,
    /// The gate's details for the window (`null` when it could not be analysed).
    pub gate: Value,
}

/// The whole lead read window by window.
#[derive(Debug, Clone)]
pub struct Reading {
    /// Length of the lead, s.
    pub duration_s: f64,
    /// Every window, in time order.
    pub windows: Vec<Window>,
    /// R-peak times of the whole lead, s.
    pub beats: Vec<f64>,
    /// The class of every beat (inside AF episodes, where there are no supraventricular ectopic
    /// beats to count, `S` is `N`).
    pub classes: Vec<BeatClass>,
    /// Episodes of every kind, sorted by start.
    pub episodes: Vec<Episode>,
    /// Seconds in windows that were judged (not noisy).
    pub analysed_s: f64,
    /// Seconds in noisy windows.
    pub noisy_s: f64,
    /// AF seconds over analysed seconds.
    pub af_burden: f64,
}

impl Reading {
    /// The episodes of `kind`.
    pub fn of(&self, kind: Kind) -> Vec<Episode> {
        self.episodes
            .iter()
            .filter(|e| e.kind == kind)
            .copied()
            .collect()
    }
}

/// Window edges `(start, end)` for a lead of `duration_s`: consecutive [`WINDOW_S`] windows, the
/// last one taking the remainder.
pub fn window_edges(duration_s: f64) -> Vec<(f64, f64)> {
    episodes::window_edges(duration_s, WINDOW_S)
}

/// Reads lead `lead` of `rec` whole: every window judged, the beats found, the episodes merged
/// and refined.
pub fn read(model: &Model, rec: &Recording, lead: usize) -> Reading {
    match read_lead(model, &InMemory::of(rec, lead)) {
        Ok(reading) => reading,
        Err(never) => match never {},
    }
}

/// [`read`] of a lead read a stretch at a time (a window, an hour), never held whole.
///
/// # Errors
/// The lead's error when a stretch cannot be read.
pub fn read_lead<L: LongLead>(model: &Model, lead: &L) -> Result<Reading, L::Error> {
    let fs = lead.fs();
    let n = lead.len();
    let duration_s = n as f64 / fs;
    let mut windows = Vec::new();
    for (start_s, end_s) in window_edges(duration_s) {
        let a = ((start_s * fs).round() as usize).min(n);
        let b = ((end_s * fs).round() as usize).min(n);
        let samples = lead.raw(a, b)?;
        windows.push(judge_window(
            model,
            &samples,
            lead.scale(),
            fs,
            lead.calibrated(),
            start_s,
            end_s,
        ));
    }
    let (beats, mut classes) = classes::classed_beats_of(lead, beats::PIECE_S)?;
    for w in windows.iter_mut().filter(|w| w.class == Class::Af) {
        let (a, b) = ectopy::window_stretch(n, fs, w.start_s, w.end_s);
        if ectopy::regular_without_ectopy(&lead.mv(a, b)?, fs, &beats, w.start_s, w.end_s)
            || ectopy::regular_without_classed(&beats, &classes, w.start_s, w.end_s)
            || ectopy::regular_sinus_cycles(&beats, &classes, w.start_s, w.end_s)
        {
            // Regular dominant beats: ectopy, not AF; the AF probability is another rhythm's.
            let (af, other) = (Class::Af.index(), Class::Other.index());
            w.p[other] += w.p[af];
            w.p[af] = 0.0;
            w.class = CLASSES[argmax(&w.p)];
        }
    }
    let flags = |f: &dyn Fn(&Window) -> bool| -> Vec<(f64, f64, bool)> {
        windows.iter().map(|w| (w.start_s, w.end_s, f(w))).collect()
    };
    let noisy_runs = episodes::runs(Kind::Noisy, &flags(&|w| w.class == Class::Noisy));
    let noisy = episodes::spans(&noisy_runs, Kind::Noisy);
    let af_windows = episodes::runs(Kind::Af, &flags(&|w| w.class == Class::Af));
    let af = beats::refine_af(&af_windows, &beats::irregularity(&beats), &noisy, WINDOW_S);
    let rate = |w: &Window| {
        (w.class != Class::Noisy)
            .then(|| beats::window_rate(&beats, w.start_s, w.end_s))
            .flatten()
    };
    classes::no_s_in_af(&beats, &mut classes, &episodes::spans(&af, Kind::Af), 0.0);
    let mut all = af;
    all.extend(classes::patterns::runs(&beats, &classes, &noisy));
    all.extend(noisy_runs);
    all.extend(beats::pauses(&beats, &noisy));
    all.extend(episodes::runs(
        Kind::Tachycardia,
        &flags(&|w| rate(w).is_some_and(|r| r > beats::TACHYCARDIA_BPM)),
    ));
    all.extend(episodes::runs(
        Kind::Bradycardia,
        &flags(&|w| rate(w).is_some_and(|r| r < beats::BRADYCARDIA_BPM)),
    ));
    all.sort_by(|a, b| a.start_s.total_cmp(&b.start_s).then(a.kind.cmp(&b.kind)));
    let noisy_s = episodes::seconds(&all, Kind::Noisy);
    let analysed_s = (duration_s - noisy_s).max(0.0);
    let af_burden = episodes::af_burden(&all, analysed_s);
    Ok(Reading {
        duration_s,
        windows,
        beats,
        classes,
        episodes: all,
        analysed_s,
        noisy_s,
        af_burden,
    })
}

/// One window through the gate and the model; `noisy` when it cannot be analysed.
fn judge_window(
    model: &Model,
    samples: &[f64],
    scale: f64,
    fs: f64,
    calibrated: bool,
    start_s: f64,
    end_s: f64,
) -> Window {
    if let Ok(j) = model.judge(samples, scale, fs, calibrated) {
        Window {
            start_s,
            end_s,
            class: CLASSES[argmax(&j.p)],
            quality_score: j.feats.measured.quality_score,
            gate: gate::details(&j.verdict, GateModality::Ecg),
            p: j.p,
        }
    } else {
        let mut p = vec![0.0; CLASSES.len()];
        p[Class::Noisy.index()] = 1.0;
        Window {
            start_s,
            end_s,
            class: Class::Noisy,
            p,
            quality_score: 0.0,
            gate: Value::Null,
        }
    }
}

/// The result of a long lead: [`read`] made one decision by [`result::decide`], over the
/// one-piece result `first` (whose morphology it keeps when that was usable).
///
/// # Errors
/// `first`'s error when no window of the lead could be analysed at all.
pub fn whole(
    model: &Model,
    rec: &Recording,
    lead: usize,
    first: Result<Prediction, PredictError>,
) -> Result<Prediction, PredictError> {
    let reading = read(model, rec, lead);
    result::decide(model, rec, lead, &reading, first)
}
