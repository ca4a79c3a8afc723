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
//! and a beat is kept where the detections of at least a third of the leads with any detection
//! fall within 100 ms (the position is their median).
//!
//! The global fiducials ([`global_fiducials`]) follow the CSE convention (Willems, J. L. et al.
//! (1985), "Assessment of the performance of electrocardiographic computer programs with the use
//! of a reference data base", *Circulation* 71(3), 523-534): earliest P onset and QRS onset,
//! latest P offset, QRS offset and T offset across leads, ignoring a lead whose value has no other
//! lead within a tolerance (an outlier).
//!
//! Thresholds: the paper's fractions were the starting point; the values in [`Thresholds::LUDB`]
//! were then adjusted while looking at the LUDB results (`cardio eval delineation`), which makes
//! LUDB a development set, not an independent test.

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
}

impl Thresholds {
    /// The thresholds chosen on LUDB (see the module doc).
    pub const LUDB: Self = Self {
        qrs_on: (0.05, 0.07),
        qrs_off: (0.125, 0.71),
        qrs_pre: 0.06,
        qrs_post: 0.09,
        t_on: 0.25,
        t_off: 0.4,
        p_on: 0.5,
        p_off: 0.9,
        t_min: 0.03,
        p_min: 0.02,
        r_min: 0.05,
        p_consistent: 0.6,
        p_far_s: 0.06,
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
        // The peak is the R wave (the largest deflection above the level at the onset), however
        // small, as annotated in LUDB; the deepest point only for a QS complex.
        let base = self.x[on];
        let span = on..=off.min(self.x.len() - 1);
        let hi_i = span
            .clone()
            .max_by(|&a, &c| self.x[a].total_cmp(&self.x[c]))
            .unwrap_or(b);
        let lo_i = span
            .min_by(|&a, &c| self.x[a].total_cmp(&self.x[c]))
            .unwrap_or(b);
        let (up, down) = (self.x[hi_i] - base, base - self.x[lo_i]);
        let r = if up >= self.th.r_min * down.max(up) {
            hi_i
        } else {
            lo_i
        };
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
                .map_or((first + last) / 2, |i| i + 1)
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
