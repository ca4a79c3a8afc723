//! The representative (median) beat of each lead.
//!
//! As the carts and the CSE programs do (Willems, J. L. et al. (1985), *Circulation* 71(3),
//! 523-534; Kligfield, P. et al. (2007), "Recommendations for the standardization and
//! interpretation of the electrocardiogram, part I", *Circulation* 115, 1306-1324: measurements
//! from a representative complex), the beats of the dominant morphology are aligned on their
//! multilead beat position and averaged sample by sample with the median. A beat is left out
//! when it is premature (its RR interval more than 20 % shorter than the median RR) or when its
//! QRS (100 ms before to 80 ms after the beat, every lead of the group concatenated) correlates
//! below 0.9 with the dominant template (the sample-wise median of all beats). Each beat's
//! baseline is the level just before its QRS onset (the PR segment), interpolated linearly to the
//! next beat's, so that the median beat starts from zero at its QRS onset.
//!
//! The median beat of a lead is then delineated by the same wavelet delineator as the recording
//! (Martínez et al. 2004) on three copies of it laid end to end at the median RR, the middle copy
//! read, so that the delineator sees the beat in its rhythm.

use cardio_signal::ecg::{Delineation, GlobalFiducials, WaveDelineator, Waves};
use cardio_signal::SamplingRate;
use serde::Serialize;

use super::Lead;

/// Relative RR shortening above which a beat is premature.
pub const PREMATURITY: f64 = 0.2;
/// QRS correlation with the dominant template below which a beat is of another morphology.
pub const MIN_CORRELATION: f64 = 0.9;

/// A beat left out of the median beat.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Excluded {
    /// The beat's sample index in the recording's rhythm span.
    pub sample: usize,
    /// Why: `premature` or `morphology`.
    pub reason: &'static str,
    /// The RR shortening (percent of the median RR) or the QRS correlation that excluded it.
    pub value: f64,
}

/// The beats found and which of them make the median beat.
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct BeatSelection {
    /// Every beat found (sample indices in the rhythm span).
    pub found: Vec<usize>,
    /// The beats averaged into the median beat.
    pub used: Vec<usize>,
    /// The beats left out, with the reason.
    pub excluded: Vec<Excluded>,
    /// Each beat's QRS correlation with the dominant template (`None` at the record's edges).
    #[serde(skip)]
    pub correlation: Vec<Option<f64>>,
    /// Whether each beat is premature.
    #[serde(skip)]
    pub premature: Vec<bool>,
}

/// One group of simultaneous leads: their delineation and the beat selection.
#[derive(Debug, Clone)]
pub struct GroupBeats {
    /// The delineation of every lead of the group.
    pub delineation: Delineation,
    /// The global fiducials of every beat.
    pub global: Vec<GlobalFiducials>,
    /// The beat selection.
    pub selection: BeatSelection,
    /// Sampling rate, Hz.
    pub fs: f64,
}

impl GroupBeats {
    /// Selects the dominant beats of a delineated group of leads (see the module doc).
    pub fn new(delineation: Delineation, leads: &[&[f64]], fs: f64) -> Self {
        let rate = SamplingRate::new(fs).ok();
        let beats = delineation.beats.clone();
        let global: Vec<GlobalFiducials> = (0..beats.len())
            .map(|b| rate.map_or_else(GlobalFiducials::default, |r| delineation.global(b, r)))
            .collect();
        let median_rr = median_usize(beats.windows(2).map(|w| w[1] - w[0]).collect());
        let premature: Vec<bool> = (0..beats.len())
            .map(|i| {
                i > 0
                    && median_rr.is_some_and(|m| {
                        ((beats[i] - beats[i - 1]) as f64) < (1.0 - PREMATURITY) * m as f64
                    })
            })
            .collect();
        let correlation = correlations(&beats, leads, fs);
        let mut selection = BeatSelection {
            found: beats.clone(),
            correlation,
            premature,
            ..BeatSelection::default()
        };
        for (i, &b) in beats.iter().enumerate() {
            if selection.premature[i] {
                let m = median_rr.unwrap_or(1) as f64;
                let short = 100.0 * (1.0 - (beats[i] - beats[i - 1]) as f64 / m);
                selection.excluded.push(Excluded {
                    sample: b,
                    reason: "premature",
                    value: (short * 10.0).round() / 10.0,
                });
            } else if let Some(r) = selection.correlation[i].filter(|r| *r < MIN_CORRELATION) {
                selection.excluded.push(Excluded {
                    sample: b,
                    reason: "morphology",
                    value: (r * 1000.0).round() / 1000.0,
                });
            } else {
                selection.used.push(b);
            }
        }
        if selection.used.is_empty() {
            // No dominant beat (all premature, e.g. a very irregular rhythm): use them all.
            selection.used.clone_from(&beats);
            selection.excluded.clear();
        }
        Self {
            delineation,
            global,
            selection,
            fs,
        }
    }

    /// The median beat's length: the median RR of the group, 0.3-2 s.
    pub fn template_len(&self) -> usize {
        let b = &self.delineation.beats;
        let rr = median_usize(b.windows(2).map(|w| w[1] - w[0]).collect());
        let lo = (0.3 * self.fs) as usize;
        let hi = (2.0 * self.fs) as usize;
        rr.unwrap_or((self.fs) as usize).clamp(lo, hi)
    }
}

/// The median beat of every lead read: `len` samples, the beat position at `pre`.
#[derive(Debug, Clone, Default)]
pub struct MedianBeats {
    /// Samples before the beat position.
    pub pre: usize,
    /// Samples per median beat (the median RR).
    pub len: usize,
    /// The median beat of each lead, baseline-corrected.
    pub leads: Vec<(Lead, Vec<f64>)>,
}

impl MedianBeats {
    /// The median beat of one lead.
    pub fn lead(&self, lead: Lead) -> Option<&[f64]> {
        self.leads
            .iter()
            .find(|(l, _)| *l == lead)
            .map(|(_, x)| x.as_slice())
    }

    /// Adds the median beats of a group's leads (`names[i]` is `leads[i]`), `len` samples long.
    pub fn add(&mut self, g: &GroupBeats, names: &[Lead], leads: &[&[f64]], len: usize, fs: f64) {
        if self.len == 0 {
            self.len = len;
            self.pre = (0.4 * len as f64).round() as usize;
        }
        let (pre, len) = (self.pre, self.len);
        let beats = &g.delineation.beats;
        let fits = |b: usize, n: usize| b >= pre && b - pre + len <= n;
        let n = leads.first().map_or(0, |x| x.len());
        let mut chosen: Vec<usize> = (0..beats.len())
            .filter(|&i| g.selection.used.contains(&beats[i]) && fits(beats[i], n))
            .collect();
        if chosen.is_empty() {
            chosen = (0..beats.len()).filter(|&i| fits(beats[i], n)).collect();
        }
        if chosen.is_empty() {
            return;
        }
        // The PR-segment level of every beat: 5-20 ms before its QRS onset.
        let knot = |i: usize| -> usize {
            let b = beats[i];
            let on = g.global[i]
                .qrs_on
                .filter(|&o| o <= b && b - o < (0.15 * fs) as usize)
                .unwrap_or_else(|| b.saturating_sub((0.06 * fs) as usize));
            on.saturating_sub((0.012 * fs) as usize)
        };
        let half = ((0.008 * fs) as usize).max(1);
        let level = |x: &[f64], at: usize| -> f64 {
            let lo = at.saturating_sub(half);
            let hi = (at + half).min(x.len().saturating_sub(1));
            if hi <= lo {
                return x.get(at).copied().unwrap_or(0.0);
            }
            x[lo..=hi].iter().sum::<f64>() / (hi - lo + 1) as f64
        };
        let mut stack = vec![0.0; chosen.len()];
        for (name, x) in names.iter().zip(leads) {
            if self.lead(*name).is_some() {
                continue;
            }
            let mut out = vec![0.0; len];
            let segs: Vec<(usize, f64, f64, usize, usize)> = chosen
                .iter()
                .map(|&i| {
                    let k0 = knot(i);
                    let v0 = level(x, k0);
                    let (k1, v1) = if i + 1 < beats.len() {
                        let k1 = knot(i + 1);
                        (k1, level(x, k1))
                    } else {
                        (k0 + len, v0)
                    };
                    (beats[i] - pre, v0, v1, k0, k1.max(k0 + 1))
                })
                .collect();
            for (j, o) in out.iter_mut().enumerate() {
                for (s, (start, v0, v1, k0, k1)) in stack.iter_mut().zip(&segs) {
                    let t = start + j;
                    // Baseline: linear from this beat's PR level to the next beat's.
                    let frac = (t as f64 - *k0 as f64) / (k1 - k0) as f64;
                    *s = x[t] - (v0 + (v1 - v0) * frac);
                }
                *o = median_f64(&mut stack);
            }
            self.leads.push((*name, out));
        }
    }

    /// Delineates every lead's median beat (see the module doc); the waves in beat coordinates
    /// (sample 0 is the median beat's first sample).
    pub fn delineate(&self, delineator: &WaveDelineator) -> Vec<(Lead, Waves)> {
        let len = self.len;
        let mut tiled = vec![0.0; 3 * len];
        let beats = [self.pre, self.pre + len, self.pre + 2 * len];
        self.leads
            .iter()
            .map(|(lead, m)| {
                for k in 0..3 {
                    tiled[k * len..(k + 1) * len].copy_from_slice(m);
                }
                let w = delineator
                    .delineate_lead(&tiled, &beats)
                    .get(1)
                    .copied()
                    .unwrap_or_default();
                let back =
                    |v: Option<usize>| v.and_then(|v| v.checked_sub(len)).filter(|&v| v < len);
                (
                    *lead,
                    Waves {
                        p_on: back(w.p_on),
                        p_peak: back(w.p_peak),
                        p_off: back(w.p_off),
                        qrs_on: back(w.qrs_on),
                        r_peak: back(w.r_peak),
                        qrs_off: back(w.qrs_off),
                        t_on: back(w.t_on),
                        t_peak: back(w.t_peak),
                        t_off: back(w.t_off),
                    },
                )
            })
            .collect()
    }
}

/// Each beat's QRS correlation with the dominant template (module doc); `None` where the window
/// leaves the signal.
fn correlations(beats: &[usize], leads: &[&[f64]], fs: f64) -> Vec<Option<f64>> {
    let before = (0.1 * fs) as usize;
    let after = (0.08 * fs) as usize;
    let n = leads.first().map_or(0, |x| x.len());
    let w = before + after;
    let vectors: Vec<Option<Vec<f64>>> = beats
        .iter()
        .map(|&b| {
            if b < before || b + after > n {
                return None;
            }
            let mut v = Vec::with_capacity(w * leads.len());
            for x in leads {
                let seg = &x[b - before..b + after];
                let mean = seg.iter().sum::<f64>() / w as f64;
                v.extend(seg.iter().map(|s| s - mean));
            }
            Some(v)
        })
        .collect();
    let present: Vec<&Vec<f64>> = vectors.iter().flatten().collect();
    if present.len() < 2 {
        return vec![None; beats.len()];
    }
    let dim = present[0].len();
    let mut col = vec![0.0; present.len()];
    let template: Vec<f64> = (0..dim)
        .map(|j| {
            for (c, v) in col.iter_mut().zip(&present) {
                *c = v[j];
            }
            median_f64(&mut col)
        })
        .collect();
    vectors
        .iter()
        .map(|v| v.as_ref().map(|v| pearson(v, &template)))
        .collect()
}

/// Pearson correlation over the common length (0 when either vector is constant):
/// [`cardio_signal::stats::pearson`].
pub(crate) fn pearson(a: &[f64], b: &[f64]) -> f64 {
    let n = a.len().min(b.len());
    if n < 2 {
        return 0.0;
    }
    cardio_signal::stats::pearson(&a[..n], &b[..n])
}

/// The median of finite values (the upper median for an even count); reorders `v`.
pub(crate) fn median_f64(v: &mut [f64]) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    let mid = v.len() / 2;
    v.select_nth_unstable_by(mid, f64::total_cmp);
    v[mid]
}

fn median_usize(mut v: Vec<usize>) -> Option<usize> {
    if v.is_empty() {
        return None;
    }
    let mid = v.len() / 2;
    v.select_nth_unstable(mid);
    Some(v[mid])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_premature_beat_of_another_shape_is_left_out() {
        // Arrange: beats every 500 samples, one early (at 1350 instead of 1500) and inverted.
        let fs = 500.0;
        let beats: Vec<usize> = vec![250, 750, 1250, 1350, 2000, 2500];
        let mut x = vec![0.0; 3000];
        for &b in &beats {
            let sign = if b == 1350 { -1.0 } else { 1.0 };
            for k in 0..20 {
                x[b - 10 + k] = sign * (1.0 - (k as f64 - 10.0).abs() / 10.0);
            }
        }
        let leads: [&[f64]; 1] = [&x];
        let del = Delineation {
            beats: beats.clone(),
            leads: vec![vec![Waves::default(); beats.len()]],
        };
        // Act
        let g = GroupBeats::new(del, &leads, fs);
        // Assert
        assert!(!g.selection.used.contains(&1350));
        assert!(g.selection.excluded.iter().any(|e| e.sample == 1350));
        assert!(g.selection.used.contains(&750));
        assert!(g.selection.correlation[3].unwrap() < MIN_CORRELATION);
    }
}
