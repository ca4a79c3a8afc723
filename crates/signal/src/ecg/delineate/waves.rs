//! Per-lead wave delineation of a multi-lead ECG with the wavelet transform: the onset, peak and
//! offset of the P wave, the QRS complex and the T wave of every beat in every lead, and the
//! global (multi-lead) fiducials of each beat.
//!
//! After Martínez, J. P., Almeida, R., Olmos, S., Rocha, A. P., Laguna, P. (2004), "A
//! wavelet-based ECG delineator: evaluation on standard databases", *IEEE Trans. Biomed. Eng.*
//! 51(4), 570-581:
//! - the à trous quadratic-spline transform ([`super::wavelet`]) at scales `2^1..2^5` of a
//!   250 Hz signal (at other rates the level is shifted by `log2(fs / 250)`, so 500 Hz uses
//!   levels 2..6);
//! - QRS: around each beat the largest modulus maximum of `W(2^2)`, extended to the first and
//!   last significant maxima (above 6 % and 9 % of it, each within 50 ms of the next); onset and
//!   offset where `|W(2^2)|` falls below a fraction of the first / last maximum or at a local
//!   minimum of `|W|`, whichever comes first;
//! - T and P: the largest modulus maximum of `W(2^4)` (then `W(2^5)` when it is too small) in a
//!   search window set by the RR interval and the QRS boundaries, paired with the largest
//!   maximum of opposite sign; the peak is the zero crossing between them, the onset and offset
//!   are found like the QRS's with their own fractions.
//!
//! The beats are found once for all leads: [`super::super::QrsDetector`] runs on each cleaned lead
//! (0.5 Hz high-pass and mains notch, as [`super::super::clean`]) and a beat is kept where the
//! detections of at least a third of the leads with any detection fall within 100 ms (the
//! position is their median).
//!
//! Two multi-lead steps follow the per-lead search (ours, not the paper's):
//! - P waves: atrial activity that is not a P wave (fibrillation, flutter) is picked at a random
//!   distance from the QRS, so P waves are kept only when the beats' PR intervals (median over the
//!   leads) agree within 20 ms for [`Thresholds::p_consistent`] of the beats; a lead whose P peak
//!   is missing or strays from its beat's PR is searched again near it;
//! - consensus: per beat, a lead's boundary further than [`Thresholds::consensus_qrs_s`] (QRS) or
//!   [`Thresholds::consensus_wave_s`] (P, T) from the median over the leads becomes that median.
//!   The LUDB cardiologists annotated each lead apart, but their per-lead boundaries sit close to
//!   the multi-lead ones, and the median removes a lead's outliers (a QRS onset pulled back onto
//!   a P wave, a T end on a U wave).
//!
//! The global fiducials ([`global_fiducials`]) follow the CSE convention (Willems, J. L. et al.
//! (1985), "Assessment of the performance of electrocardiographic computer programs with the use
//! of a reference data base", *Circulation* 71(3), 523-534): earliest P onset and QRS onset,
//! latest P offset, QRS offset and T offset across leads, ignoring a lead whose value has no other
//! lead within a tolerance (an outlier).
//!
//! Thresholds: the paper's fractions were the starting point (QRS onset 5 %/7 %, offset
//! 12.5 %/71 %, significant maxima 6 %/9 %, T 25 %/40 %, P 50 %/90 %); the values in
//! [`Thresholds::LUDB`] (QRS onset 3 %/5 %, significant maxima before the largest 10 %, T onset
//! 30 %, T offset 45 %, P onset 60 %, the R-wave rule, the P consistency share of 70 % and the
//! consensus tolerances of 10 and 20 ms) were then chosen while looking at the LUDB results of
//! `cardio eval delineation` on all 200 records, which makes LUDB a development set, not an
//! independent test: the figures must be checked on another database.
//!
//! Every input is accepted without panicking: NaN or infinite samples and signals under 0.5 s are
//! errors, a flat lead gives no beats; memory is a few buffers the length of the signal per lead
//! (at most [`MAX_LEADS`] leads).

use crate::ecg::qrs::{samples, QrsDetector};
use crate::filter::Sos;
use crate::{SamplingRate, SignalError};

use super::wavelet::Dyadic;

/// The delineation of one wave kind in one lead of one beat; sample indices, `None` when absent.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Waves {
    /// P-wave onset.
    pub p_on: Option<usize>,
    /// P-wave peak.
    pub p_peak: Option<usize>,
    /// P-wave offset.
    pub p_off: Option<usize>,
    /// QRS onset.
    pub qrs_on: Option<usize>,
    /// The QRS peak (largest deflection from the level at the onset).
    pub r_peak: Option<usize>,
    /// QRS offset (J point).
    pub qrs_off: Option<usize>,
    /// T-wave onset.
    pub t_on: Option<usize>,
    /// T-wave peak.
    pub t_peak: Option<usize>,
    /// T-wave offset (end of T).
    pub t_off: Option<usize>,
}

/// The global fiducials of one beat across leads (CSE convention).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GlobalFiducials {
    /// Earliest P onset.
    pub p_on: Option<usize>,
    /// Latest P offset.
    pub p_off: Option<usize>,
    /// Earliest QRS onset.
    pub qrs_on: Option<usize>,
    /// Latest QRS offset.
    pub qrs_off: Option<usize>,
    /// Latest T offset.
    pub t_off: Option<usize>,
}

/// The fractions of the wavelet's maxima that set each boundary (see the module doc).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Thresholds {
    /// QRS onset: fraction of the first maximum (positive, negative).
    pub qrs_on: (f64, f64),
    /// QRS offset: fraction of the last maximum (positive, negative).
    pub qrs_off: (f64, f64),
    /// Significant QRS maxima before / after the largest one, fraction of it.
    pub qrs_pre: f64,
    /// Significant QRS maxima after the largest one, fraction of it.
    pub qrs_post: f64,
    /// T onset, fraction of the T's first maximum.
    pub t_on: f64,
    /// T offset, fraction of the T's last maximum.
    pub t_off: f64,
    /// P onset, fraction of the P's first maximum.
    pub p_on: f64,
    /// P offset, fraction of the P's last maximum.
    pub p_off: f64,
    /// A T wave needs a maximum of `W(2^4)` above this fraction of the QRS's.
    pub t_min: f64,
    /// A P wave needs a maximum of `W(2^4)` above this fraction of the QRS's.
    pub p_min: f64,
    /// The QRS peak is the R wave when its height is at least this fraction of the QRS's largest
    /// deflection, else the deepest point (QS).
    pub r_min: f64,
    /// Share of a lead's P peaks that must lie within 20 ms of the median PR interval.
    pub p_consistent: f64,
    /// A P peak further than this from the lead's median PR interval is dropped, seconds.
    pub p_far_s: f64,
    /// A lead's QRS boundary further than this from the median over the leads is moved to the
    /// median, seconds.
    pub consensus_qrs_s: f64,
    /// The same for the P and T boundaries and peaks, seconds.
    pub consensus_wave_s: f64,
}

impl Thresholds {
    /// The thresholds chosen on LUDB (see the module doc).
    pub const LUDB: Self = Self {
        qrs_on: (0.03, 0.05),
        qrs_off: (0.125, 0.71),
        qrs_pre: 0.10,
        qrs_post: 0.09,
        t_on: 0.3,
        t_off: 0.45,
        p_on: 0.6,
        p_off: 0.9,
        t_min: 0.03,
        p_min: 0.02,
        r_min: 0.05,
        p_consistent: 0.7,
        p_far_s: 0.06,
        consensus_qrs_s: 0.01,
        consensus_wave_s: 0.02,
    };
}

/// Every lead's delineation of one recording.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Delineation {
    /// The beats found across leads (sample indices, increasing).
    pub beats: Vec<usize>,
    /// `leads[l][b]`: lead `l`, beat `b` (same order as the input leads and [`Self::beats`]).
    pub leads: Vec<Vec<Waves>>,
}

impl Delineation {
    /// The global fiducials of beat `b` (all `None` for an index out of range).
    pub fn global(&self, b: usize, fs: SamplingRate) -> GlobalFiducials {
        let per_lead: Vec<Waves> = self
            .leads
            .iter()
            .filter_map(|l| l.get(b).copied())
            .collect();
        global_fiducials(&per_lead, fs)
    }
}

/// A planned wavelet delineator for one sampling rate: filters designed once, buffers reused.
#[derive(Debug, Clone)]
pub struct WaveDelineator {
    fs: SamplingRate,
    cleaning: Sos,
    detector: QrsDetector,
    offset: usize,
    thresholds: Thresholds,
}

/// Upper bound on the leads of one recording.
pub const MAX_LEADS: usize = 64;

impl WaveDelineator {
    /// Plans the delineator for `fs` (at least 100 Hz) with the mains notch of `powerline`.
    ///
    /// # Errors
    /// [`SignalError::InvalidParameter`] below 100 Hz; as [`QrsDetector::new`].
    pub fn new(fs: SamplingRate, powerline: super::super::Powerline) -> Result<Self, SignalError> {
        if fs.hz() < 100.0 {
            return Err(SignalError::InvalidParameter(format!(
                "wave delineation needs at least 100 Hz, got {} Hz",
                fs.hz()
            )));
        }
        let offset = (fs.hz() / 250.0).log2().round().clamp(0.0, 4.0) as usize;
        Ok(Self {
            fs,
            cleaning: super::super::cleaning_filter(fs, powerline)?,
            detector: QrsDetector::new(fs)?,
            offset,
            thresholds: Thresholds::LUDB,
        })
    }

    /// The same delineator with other thresholds.
    #[must_use]
    pub fn with_thresholds(mut self, thresholds: Thresholds) -> Self {
        self.thresholds = thresholds;
        self
    }

    /// Cleans every lead, finds the beats across leads and delineates every beat of every lead.
    ///
    /// # Errors
    /// [`SignalError::InvalidParameter`] without leads, with more than [`MAX_LEADS`] or leads of
    /// different lengths; [`SignalError::NonFinite`] for NaN/inf samples;
    /// [`SignalError::TooShort`] under 0.5 s.
    pub fn delineate(&self, leads: &[&[f64]]) -> Result<Delineation, SignalError> {
        let Some(first) = leads.first() else {
            return Err(SignalError::InvalidParameter("no leads".into()));
        };
        if leads.len() > MAX_LEADS {
            return Err(SignalError::InvalidParameter(format!(
                "at most {MAX_LEADS} leads, got {}",
                leads.len()
            )));
        }
        let n = first.len();
        if leads.iter().any(|l| l.len() != n) {
            return Err(SignalError::InvalidParameter(
                "leads of different lengths".into(),
            ));
        }
        if leads.iter().any(|l| l.iter().any(|v| !v.is_finite())) {
            return Err(SignalError::NonFinite);
        }
        let min_len = samples(0.5, self.fs.hz());
        if n < min_len {
            return Err(SignalError::TooShort {
                needed: min_len,
                got: n,
            });
        }
        let mut cleaned = Vec::with_capacity(leads.len());
        let mut scratch = Vec::new();
        let mut detections = Vec::with_capacity(leads.len());
        for lead in leads {
            let mut c = vec![0.0; n];
            self.cleaning.filtfilt_into(lead, &mut c, &mut scratch)?;
            detections.push(self.detector.detect_with(&c, &mut scratch)?);
            cleaned.push(c);
        }
        let beats = vote(&detections, samples(0.1, self.fs.hz()));
        let mut dyadic = Dyadic::default();
        let mut leads: Vec<Vec<Waves>> = cleaned
            .iter()
            .map(|c| self.delineate_lead_with(c, &beats, &mut dyadic))
            .collect();
        let xs: Vec<&[f64]> = cleaned.iter().map(Vec::as_slice).collect();
        self.keep_consistent_p_waves(&xs, &beats, &mut leads, &mut dyadic);
        self.pull_to_consensus(&mut leads);
        // A boundary pulled to the consensus may leave a lead's R peak outside its QRS: the peak
        // is read again between the lead's own boundaries.
        for (x, lead) in xs.iter().zip(&mut leads) {
            for w in lead.iter_mut() {
                if let (Some(on), Some(r), Some(off)) = (w.qrs_on, w.r_peak, w.qrs_off) {
                    if (r < on || r > off) && on <= off {
                        w.r_peak = Some(r_wave(x, on, off, self.thresholds.r_min));
                    }
                }
            }
        }
        Ok(Delineation { beats, leads })
    }

    /// Delineates one (cleaned) lead at the given beats (approximate QRS positions, increasing);
    /// one [`Waves`] per beat. Non-finite samples give all-`None` beats.
    pub fn delineate_lead(&self, x: &[f64], beats: &[usize]) -> Vec<Waves> {
        let mut dy = Dyadic::default();
        let mut one = [self.delineate_lead_with(x, beats, &mut dy)];
        self.keep_consistent_p_waves(&[x], beats, &mut one, &mut dy);
        let [out] = one;
        out
    }

    fn lead<'a>(&self, x: &'a [f64], dy: &'a Dyadic) -> Lead<'a> {
        Lead {
            x,
            w2: dy.level(2 + self.offset),
            w4: dy.level(4 + self.offset),
            w5: dy.level(5 + self.offset),
            f: self.fs.hz(),
            th: self.thresholds,
        }
    }

    fn delineate_lead_with(&self, x: &[f64], beats: &[usize], dy: &mut Dyadic) -> Vec<Waves> {
        let mut out = vec![Waves::default(); beats.len()];
        if x.len() < 4 || x.iter().any(|v| !v.is_finite()) {
            return out;
        }
        dy.compute(x, 5 + self.offset);
        let lead = self.lead(x, dy);
        let median_rr = median_rr(beats);
        let mut prev_t_off: Option<usize> = None;
        for (i, &b) in beats.iter().enumerate() {
            if b >= x.len() {
                break;
            }
            let prev = i.checked_sub(1).map(|j| beats[j]);
            let next = beats.get(i + 1).copied();
            let rr = next
                .map(|nx| nx.saturating_sub(b))
                .or(median_rr)
                .unwrap_or(samples(0.8, lead.f));
            let mut w = lead.qrs(b, prev, next);
            if w.qrs_on.is_some() {
                lead.t_wave(&mut w, b, rr, next);
                lead.p_wave(&mut w, b, prev, prev_t_off);
            }
            prev_t_off = w.t_off;
            out[i] = w;
        }
        out
    }

    /// Per beat and fiducial, the median over the leads that have it (at least three); a lead's
    /// value further than the tolerance ([`Thresholds::consensus_qrs_s`],
    /// [`Thresholds::consensus_wave_s`]) from it becomes the median. The QRS peak is left alone.
    fn pull_to_consensus(&self, leads: &mut [Vec<Waves>]) {
        type Field = fn(&mut Waves) -> &mut Option<usize>;
        let fields: [(Field, f64); 8] = [
            (|w| &mut w.p_on, self.thresholds.consensus_wave_s),
            (|w| &mut w.p_peak, self.thresholds.consensus_wave_s),
            (|w| &mut w.p_off, self.thresholds.consensus_wave_s),
            (|w| &mut w.qrs_on, self.thresholds.consensus_qrs_s),
            (|w| &mut w.qrs_off, self.thresholds.consensus_qrs_s),
            (|w| &mut w.t_on, self.thresholds.consensus_wave_s),
            (|w| &mut w.t_peak, self.thresholds.consensus_wave_s),
            (|w| &mut w.t_off, self.thresholds.consensus_wave_s),
        ];
        let n_beats = leads.iter().map(Vec::len).min().unwrap_or(0);
        let mut v: Vec<usize> = Vec::with_capacity(leads.len());
        for b in 0..n_beats {
            for (field, tol_s) in fields {
                if tol_s < 0.0 {
                    continue;
                }
                let tol = (tol_s * self.fs.hz()).round() as usize;
                v.clear();
                v.extend(leads.iter_mut().filter_map(|l| *field(&mut l[b])));
                if v.len() < 3 {
                    continue;
                }
                v.sort_unstable();
                let med = v[v.len() / 2];
                for l in leads.iter_mut() {
                    if let Some(x) = field(&mut l[b]) {
                        if x.abs_diff(med) > tol {
                            *x = med;
                        }
                    }
                }
            }
        }
    }

    /// Atrial activity that is not a P wave (fibrillation or flutter waves) is picked in each window
    /// at a random distance from the QRS. Per beat, the PR interval (beat to P peak) is the median
    /// over the leads with a P wave (at least a third of them); when fewer than
    /// [`Thresholds::p_consistent`] of the beats lie within 20 ms of the recording's median PR, no
    /// lead has P waves. Else a lead whose P wave is missing or further than
    /// [`Thresholds::p_far_s`] from its beat's PR is searched again within that distance of it
    /// (the multi-lead P wave), and has none when nothing is found there.
    fn keep_consistent_p_waves(
        &self,
        xs: &[&[f64]],
        beats: &[usize],
        leads: &mut [Vec<Waves>],
        dy: &mut Dyadic,
    ) {
        let pr_of = |w: &Waves, b: usize| w.p_peak.map(|p| b.saturating_sub(p));
        let mut beat_pr: Vec<Option<usize>> = Vec::with_capacity(beats.len());
        let mut v = Vec::with_capacity(leads.len());
        for (i, &b) in beats.iter().enumerate() {
            v.clear();
            v.extend(
                leads
                    .iter()
                    .filter_map(|l| l.get(i).and_then(|w| pr_of(w, b))),
            );
            v.sort_unstable();
            beat_pr.push((!v.is_empty() && v.len() * 3 >= leads.len()).then(|| v[v.len() / 2]));
        }
        let mut all: Vec<usize> = beat_pr.iter().flatten().copied().collect();
        all.sort_unstable();
        let near = samples(0.02, self.fs.hz());
        let far = samples(self.thresholds.p_far_s, self.fs.hz());
        let consistent = all.len() >= 3 && {
            let med = all[all.len() / 2];
            let n_near = all.iter().filter(|&&d| d.abs_diff(med) <= near).count();
            n_near as f64 >= self.thresholds.p_consistent * all.len() as f64
        };
        for (lead, x) in leads.iter_mut().zip(xs) {
            let mut computed = false;
            for (i, w) in lead.iter_mut().enumerate() {
                let (Some(&b), Some(bp)) = (beats.get(i), beat_pr.get(i).copied().flatten()) else {
                    *w = Waves {
                        p_on: None,
                        p_peak: None,
                        p_off: None,
                        ..*w
                    };
                    continue;
                };
                let ok = pr_of(w, b).is_some_and(|d| d.abs_diff(bp) <= far);
                if consistent && ok {
                    continue;
                }
                *w = Waves {
                    p_on: None,
                    p_peak: None,
                    p_off: None,
                    ..*w
                };
                if !consistent || x.len() < 4 || x.iter().any(|v| !v.is_finite()) {
                    continue;
                }
                if !computed {
                    dy.compute(x, 5 + self.offset);
                    computed = true;
                }
                let expected = b.saturating_sub(bp);
                self.lead(x, dy).p_wave_in(
                    w,
                    expected.saturating_sub(far),
                    expected + far,
                    expected,
                    far,
                );
            }
        }
    }
}

fn median_rr(beats: &[usize]) -> Option<usize> {
    let mut rr: Vec<usize> = beats
        .windows(2)
        .map(|w| w[1].saturating_sub(w[0]))
        .collect();
    if rr.is_empty() {
        return None;
    }
    rr.sort_unstable();
    Some(rr[rr.len() / 2])
}

/// Multi-lead beats: clusters of per-lead detections within `tol` samples of the cluster's first,
/// kept when at least a third of the leads with detections are in it; the median position.
fn vote(detections: &[Vec<usize>], tol: usize) -> Vec<usize> {
    let active = detections.iter().filter(|d| !d.is_empty()).count();
    if active == 0 {
        return Vec::new();
    }
    let need = active.div_ceil(3);
    let mut all: Vec<usize> = detections.iter().flatten().copied().collect();
    all.sort_unstable();
    let mut beats: Vec<usize> = Vec::new();
    let mut i = 0;
    while i < all.len() {
        let mut j = i;
        while j < all.len() && all[j] <= all[i] + tol {
            j += 1;
        }
        if j - i >= need {
            let b = all[i + (j - i) / 2];
            if beats.last().is_none_or(|&l| b > l + tol) {
                beats.push(b);
            }
            i = j;
        } else {
            i += 1;
        }
    }
    beats
}

/// One lead's signal and wavelet levels.
struct Lead<'a> {
    x: &'a [f64],
    w2: &'a [f64],
    w4: &'a [f64],
    w5: &'a [f64],
    f: f64,
    th: Thresholds,
}

/// Index of the largest `|w|` in `lo..hi` (clipped), with its value.
fn argmax_abs(w: &[f64], lo: usize, hi: usize) -> Option<(usize, f64)> {
    let hi = hi.min(w.len());
    (lo..hi)
        .map(|i| (i, w[i]))
        .max_by(|a, b| a.1.abs().total_cmp(&b.1.abs()))
}

/// Whether `i` is a local maximum of `|w|`.
fn is_modulus_max(w: &[f64], i: usize) -> bool {
    i > 0 && i + 1 < w.len() && w[i].abs() >= w[i - 1].abs() && w[i].abs() > w[i + 1].abs()
}

/// Walks from the maximum at `from` towards `lo` (backward) or `hi` (forward) until `|w|` falls
/// below `frac * |w[from]|` or reaches a local minimum; the boundary, clipped to the range.
/// The R wave of a QRS between `on` and `off` of `x`: the largest deflection above the level at
/// the onset, however small (as LUDB annotates it), unless it is under `r_min` of the deepest one
/// (a QS complex: the deepest point).
fn r_wave(x: &[f64], on: usize, off: usize, r_min: f64) -> usize {
    let base = x[on];
    let span = on..=off.min(x.len() - 1);
    let hi_i = span
        .clone()
        .max_by(|&a, &c| x[a].total_cmp(&x[c]))
        .unwrap_or(on);
    let lo_i = span.min_by(|&a, &c| x[a].total_cmp(&x[c])).unwrap_or(on);
    let (up, down) = (x[hi_i] - base, base - x[lo_i]);
    if up >= r_min * down.max(up) {
        hi_i
    } else {
        lo_i
    }
}

fn walk(w: &[f64], from: usize, frac: f64, backward: bool, limit: usize) -> usize {
    let th = frac * w[from].abs();
    let mut i = from;
    loop {
        let j = if backward {
            if i <= limit || i == 0 {
                return i;
            }
            i - 1
        } else {
            if i >= limit || i + 1 >= w.len() {
                return i;
            }
            i + 1
        };
        if w[j].abs() < th {
            return j;
        }
        // Local minimum of |w|: the next step would rise again.
        let k = if backward {
            j.checked_sub(1)
        } else {
            Some(j + 1)
        };
        if let Some(k) = k.filter(|&k| k < w.len()) {
            if w[k].abs() > w[j].abs() {
                return j;
            }
        }
        i = j;
    }
}

impl Lead<'_> {
    fn s(&self, seconds: f64) -> usize {
        samples(seconds, self.f)
    }

    fn qrs(&self, b: usize, prev: Option<usize>, next: Option<usize>) -> Waves {
        let mut out = Waves::default();
        let w = self.w2;
        let n = w.len();
        let lo = prev
            .map_or(0, |p| b - (b - p) / 2)
            .max(b.saturating_sub(self.s(0.15)));
        let hi = next
            .map_or(n, |nx| b + (nx - b) / 2)
            .min(b + self.s(0.15))
            .min(n);
        let Some((peak, m)) = argmax_abs(
            w,
            b.saturating_sub(self.s(0.08)).max(lo),
            (b + self.s(0.08)).min(hi),
        ) else {
            return out;
        };
        let m = m.abs();
        if m <= f64::EPSILON * self.x.iter().fold(1.0_f64, |a, v| a.max(v.abs())) {
            return out;
        }
        let gap = self.s(0.05);
        // First significant maximum: chain backward through maxima above qrs_pre * m.
        let mut first = peak;
        loop {
            let from = first.saturating_sub(gap).max(lo);
            let cand = (from..first)
                .rev()
                .find(|&i| is_modulus_max(w, i) && w[i].abs() > self.th.qrs_pre * m);
            match cand {
                Some(c) if c < first => first = c,
                _ => break,
            }
        }
        let mut last = peak;
        loop {
            let to = (last + gap + 1).min(hi);
            let cand =
                (last + 1..to).find(|&i| is_modulus_max(w, i) && w[i].abs() > self.th.qrs_post * m);
            match cand {
                Some(c) if c > last => last = c,
                _ => break,
            }
        }
        let on_frac = if w[first] > 0.0 {
            self.th.qrs_on.0
        } else {
            self.th.qrs_on.1
        };
        let off_frac = if w[last] > 0.0 {
            self.th.qrs_off.0
        } else {
            self.th.qrs_off.1
        };
        let on = walk(
            w,
            first,
            on_frac,
            true,
            lo.max(first.saturating_sub(self.s(0.1))),
        );
        let off = walk(
            w,
            last,
            off_frac,
            false,
            hi.saturating_sub(1).min(last + self.s(0.12)),
        );
        let r = r_wave(self.x, on, off, self.th.r_min);
        out.qrs_on = Some(on);
        out.r_peak = Some(r);
        out.qrs_off = Some(off);
        out
    }

    /// The modulus maximum pair of a smooth wave in `lo..hi` of `w`: (first, last) in time, or a
    /// single maximum twice; `None` when the largest is below `min`.
    fn pair(w: &[f64], lo: usize, hi: usize, min: f64) -> Option<(usize, usize)> {
        let hi = hi.min(w.len());
        let m1 = (lo..hi)
            .filter(|&i| is_modulus_max(w, i))
            .max_by(|&a, &b| w[a].abs().total_cmp(&w[b].abs()))?;
        let v1 = w[m1];
        if v1.abs() <= min || v1.abs() == 0.0 {
            return None;
        }
        let opposite = |range: std::ops::Range<usize>| {
            range
                .filter(|&i| w[i] * v1 < 0.0 && is_modulus_max(w, i))
                .max_by(|&a, &b| w[a].abs().total_cmp(&w[b].abs()))
        };
        let before = opposite(lo..m1);
        let after = opposite(m1 + 1..hi);
        let partner = match (before, after) {
            (Some(a), Some(b)) => Some(if w[a].abs() >= w[b].abs() { a } else { b }),
            (a, b) => a.or(b),
        };
        Some(match partner {
            Some(p) if p < m1 => (p, m1),
            Some(p) => (m1, p),
            None => (m1, m1),
        })
    }

    /// A smooth wave (P or T) in `lo..hi`: onset, peak, offset.
    fn smooth_wave(
        &self,
        lo: usize,
        hi: usize,
        min_frac: f64,
        qrs_w4: f64,
        fracs: (f64, f64),
        limits: (usize, usize),
    ) -> Option<(usize, usize, usize)> {
        if hi <= lo + 2 {
            return None;
        }
        let (w, (first, last)) = match Self::pair(self.w4, lo, hi, min_frac * qrs_w4) {
            Some(p) => (self.w4, p),
            None => (self.w5, Self::pair(self.w5, lo, hi, min_frac * qrs_w4)?),
        };
        let peak = if first == last {
            first
        } else {
            (first..last)
                .find(|&i| w[i] * w[first] > 0.0 && w[i + 1] * w[first] <= 0.0)
                .map_or(usize::midpoint(first, last), |i| i + 1)
        };
        let on = walk(w, first, fracs.0, true, limits.0);
        let off = walk(w, last, fracs.1, false, limits.1);
        Some((on, peak, off))
    }

    fn qrs_w4(&self, w: &Waves) -> f64 {
        match (w.qrs_on, w.qrs_off) {
            (Some(a), Some(b)) => argmax_abs(self.w4, a, b + 1).map_or(0.0, |(_, v)| v.abs()),
            _ => 0.0,
        }
    }

    fn t_wave(&self, w: &mut Waves, b: usize, rr: usize, next: Option<usize>) {
        let (Some(off), n) = (w.qrs_off, self.x.len()) else {
            return;
        };
        let lo = (off + self.s(0.04)).max(b + self.s(0.1));
        let mut hi = b + (rr * 7 / 10).min(self.s(0.65));
        if let Some(nx) = next {
            hi = hi.min(nx.saturating_sub(self.s(0.12)));
        }
        let hi = hi.min(n);
        let limit_hi = next
            .map_or(n - 1, |nx| nx.saturating_sub(self.s(0.08)))
            .min(n - 1);
        let q = self.qrs_w4(w);
        if let Some((on, peak, end)) = self.smooth_wave(
            lo,
            hi,
            self.th.t_min,
            q,
            (self.th.t_on, self.th.t_off),
            (off, limit_hi.max(off)),
        ) {
            w.t_on = Some(on);
            w.t_peak = Some(peak);
            w.t_off = Some(end);
        }
    }

    /// A P wave whose peak lies within `far` of `expected`, searched in `lo..hi` (before the QRS).
    fn p_wave_in(&self, w: &mut Waves, lo: usize, hi: usize, expected: usize, far: usize) {
        let Some(on) = w.qrs_on else {
            return;
        };
        let hi = hi.min(on.saturating_sub(self.s(0.01)));
        let q = self.qrs_w4(w);
        if let Some((p_on, peak, p_off)) = self.smooth_wave(
            lo,
            hi,
            self.th.p_min,
            q,
            (self.th.p_on, self.th.p_off),
            (lo.saturating_sub(self.s(0.06)), on),
        ) {
            if peak.abs_diff(expected) <= far {
                w.p_on = Some(p_on);
                w.p_peak = Some(peak);
                w.p_off = Some(p_off);
            }
        }
    }

    fn p_wave(&self, w: &mut Waves, b: usize, prev: Option<usize>, prev_t_off: Option<usize>) {
        let Some(on) = w.qrs_on else {
            return;
        };
        let mut lo = on.saturating_sub(self.s(0.28));
        if let Some(t) = prev_t_off {
            lo = lo.max(t);
        } else if let Some(p) = prev {
            lo = lo.max(p + (b - p) / 2);
        }
        let hi = on.saturating_sub(self.s(0.01));
        let q = self.qrs_w4(w);
        if let Some((p_on, peak, p_off)) = self.smooth_wave(
            lo,
            hi,
            self.th.p_min,
            q,
            (self.th.p_on, self.th.p_off),
            (lo.saturating_sub(self.s(0.04)), on),
        ) {
            w.p_on = Some(p_on);
            w.p_peak = Some(peak);
            w.p_off = Some(p_off);
        }
    }
}

/// The global fiducials of one beat from its per-lead delineations (CSE convention, see the module
/// doc): earliest onsets and latest offsets, a lead's value ignored when no other lead is within
/// 10 ms of it (20 ms for the T offset) — unless it is the only lead with that fiducial.
pub fn global_fiducials(per_lead: &[Waves], fs: SamplingRate) -> GlobalFiducials {
    let tol = samples(0.01, fs.hz());
    let pick = |get: fn(&Waves) -> Option<usize>, earliest: bool, tol: usize| {
        let mut v: Vec<usize> = per_lead.iter().filter_map(get).collect();
        v.sort_unstable();
        if !earliest {
            v.reverse();
        }
        if v.len() < 2 {
            return v.first().copied();
        }
        v.windows(2)
            .find(|p| p[0].abs_diff(p[1]) <= tol)
            .map_or(Some(v[v.len() / 2]), |p| Some(p[0]))
    };
    GlobalFiducials {
        p_on: pick(|w| w.p_on, true, tol),
        p_off: pick(|w| w.p_off, false, tol),
        qrs_on: pick(|w| w.qrs_on, true, tol),
        qrs_off: pick(|w| w.qrs_off, false, tol),
        t_off: pick(|w| w.t_off, false, 2 * tol),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ecg::Powerline;

    const FS: f64 = 500.0;

    fn gauss(d: f64, s: f64) -> f64 {
        (-(d * d) / (2.0 * s * s)).exp()
    }

    /// Ten seconds of beats every 0.9 s: P (sigma 20 ms) 180 ms before R when `with_p`, QRS
    /// (sigma 10 ms), T (sigma 40 ms) 300 ms after R; `gain` scales the lead. The R positions.
    fn beats(gain: f64, with_p: bool) -> (Vec<f64>, Vec<usize>) {
        let n = (10.0 * FS) as usize;
        let rs: Vec<usize> = (0..10).map(|k| (0.6 * FS) as usize + k * 450).collect();
        let x = (0..n)
            .map(|i| {
                rs.iter()
                    .map(|&r| {
                        let d = (i as f64 - r as f64) / FS;
                        let p = if with_p {
                            0.15 * gauss(d + 0.18, 0.02)
                        } else {
                            0.0
                        };
                        gain * (p + gauss(d, 0.01) + 0.3 * gauss(d - 0.3, 0.04))
                    })
                    .sum()
            })
            .collect();
        (x, rs)
    }

    fn delineator() -> WaveDelineator {
        WaveDelineator::new(SamplingRate::new(FS).unwrap(), Powerline::Hz50).unwrap()
    }

    fn ms(a: usize, b: usize) -> f64 {
        (a as f64 - b as f64) * 1000.0 / FS
    }

    #[test]
    fn finds_every_wave_of_constructed_beats_near_their_known_positions() {
        let (a, rs) = beats(1.0, true);
        let (b, _) = beats(0.7, true);
        let (c, _) = beats(1.3, true);
        let d = delineator().delineate(&[&a, &b, &c]).unwrap();
        assert_eq!(d.beats.len(), rs.len(), "{:?}", d.beats);
        for lead in &d.leads {
            // The first and last beats lack a neighbour on one side; check the inner ones.
            for (w, &r) in lead.iter().zip(&rs).skip(1).take(rs.len() - 2) {
                let r_peak = w.r_peak.unwrap();
                assert!(ms(r_peak, r).abs() <= 2.0, "{w:?}");
                // A Gaussian has no true boundary: the thresholds put them 2-4 sigma from its
                // centre (the QRS onset further out than its offset, as on LUDB).
                let around = |v: Option<usize>, centre: f64, lo: f64, hi: f64| {
                    let t = ms(v.unwrap(), r) - centre;
                    assert!((lo..=hi).contains(&t), "{t} ms from {centre}: {w:?}");
                };
                around(w.qrs_on, 0.0, -45.0, -15.0);
                around(w.qrs_off, 0.0, 12.0, 40.0);
                around(w.p_peak, -180.0, -4.0, 4.0);
                around(w.p_on, -180.0, -70.0, -30.0);
                around(w.p_off, -180.0, 30.0, 70.0);
                around(w.t_peak, 300.0, -6.0, 6.0);
                around(w.t_on, 300.0, -140.0, -60.0);
                around(w.t_off, 300.0, 60.0, 140.0);
            }
        }
        let g = d.global(3, SamplingRate::new(FS).unwrap());
        assert!(
            g.qrs_on.unwrap() < rs[3] && g.qrs_off.unwrap() > rs[3],
            "{g:?}"
        );
        assert!(g.p_on.unwrap() < g.p_off.unwrap() && g.p_off.unwrap() < g.qrs_on.unwrap());
        assert!(g.t_off.unwrap() > g.qrs_off.unwrap());
    }

    #[test]
    fn beats_without_a_p_wave_have_none() {
        let (a, rs) = beats(1.0, false);
        let (b, _) = beats(0.8, false);
        let d = delineator().delineate(&[&a, &b]).unwrap();
        assert_eq!(d.beats.len(), rs.len());
        for w in d.leads.iter().flatten() {
            assert_eq!((w.p_on, w.p_peak, w.p_off), (None, None, None), "{w:?}");
            assert!(w.qrs_on.is_some() && w.t_off.is_some(), "{w:?}");
        }
    }

    #[test]
    fn flat_nan_short_and_mismatched_inputs_never_panic() {
        let d = delineator();
        let flat = vec![0.0; 5000];
        let r = d.delineate(&[&flat, &flat]).unwrap();
        assert!(r.beats.is_empty());
        let mut nan = flat.clone();
        nan[100] = f64::NAN;
        assert_eq!(d.delineate(&[&nan]).unwrap_err(), SignalError::NonFinite);
        assert!(matches!(
            d.delineate(&[&flat[..10]]).unwrap_err(),
            SignalError::TooShort { .. }
        ));
        assert!(d.delineate(&[]).is_err());
        assert!(d.delineate(&[&flat, &flat[..4000]]).is_err());
        // A lead given alone with beats anywhere, even past its end or on NaN, gives no waves.
        assert!(d
            .delineate_lead(&nan, &[50, 2000, 4999, 9000])
            .iter()
            .all(|w| *w == Waves::default()));
        assert_eq!(d.delineate_lead(&[], &[0, 1]).len(), 2);
        let (x, _) = beats(1.0, true);
        let w = d.delineate_lead(&x[..600], &[0, 1, 300, 599, 600, 10_000]);
        assert_eq!(w.len(), 6);
        assert!(WaveDelineator::new(SamplingRate::new(50.0).unwrap(), Powerline::None).is_err());
    }

    #[test]
    fn global_fiducials_take_the_extremes_that_another_lead_supports() {
        let fs = SamplingRate::new(FS).unwrap();
        let lead = |on: usize, off: usize| Waves {
            qrs_on: Some(on),
            qrs_off: Some(off),
            t_off: Some(off + 200),
            ..Waves::default()
        };
        // 400 is an outlier (no other onset within 10 ms); 480 and 483 agree.
        let g = global_fiducials(&[lead(400, 540), lead(480, 545), lead(483, 548)], fs);
        assert_eq!(g.qrs_on, Some(480));
        assert_eq!(g.qrs_off, Some(548));
        assert_eq!(g.t_off, Some(748));
        assert_eq!(g.p_on, None);
        assert_eq!(global_fiducials(&[lead(10, 20)], fs).qrs_on, Some(10));
        assert_eq!(global_fiducials(&[], fs), GlobalFiducials::default());
    }
}
