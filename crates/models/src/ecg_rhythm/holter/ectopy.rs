//! Ectopic beats in a window the model called AF: frequent premature ventricular beats
//! (bigeminy, couplets) make the RR intervals irregular without atrial fibrillation, the best-known
//! source of false AF calls by RR-based detectors (Tateno & Glass 2001; Petrenas et al. 2015).
//!
//! The window's beats are compared with their median QRS (the samples within [`HALF_QRS_S`] of
//! each R peak, Pearson correlation); a beat correlating under [`DOMINANT_CORR`] is ectopic. The
//! irregularity is then read on the dominant beats alone (an ectopic beat and the pause after it
//! make one interval): the median, over every three consecutive dominant beats, of the absolute
//! difference of their two intervals over their mean. AF keeps the dominant beats' intervals irregular; ventricular ectopy on a regular rhythm
//! leaves them regular (under [`REGULAR_DOMINANT`]), and the window is then not AF.
//! The rule and its thresholds were chosen after seeing the false AF windows of MIT-BIH 200 and
//! 208 (ventricular bigeminy and couplets): MIT-BIH is development data for this rule, and the
//! model card (`crates/models/cards/holter.md`) says so.

use cardio_signal::stats::pearson;

use super::classes::BeatClass;
use super::lead::Stretch;

/// Half width of the QRS segment compared, s.
pub const HALF_QRS_S: f64 = 0.06;
/// A beat correlating less than this with the window's median QRS is ectopic.
pub const DOMINANT_CORR: f64 = 0.85;
/// The dominant beats are regular when the median normalised difference of their successive
/// intervals is under this (chosen on MIT-BIH: 0.08, the AF-edge threshold, also removed a true AF
/// window of record 202; 0.05 removed none).
pub const REGULAR_DOMINANT: f64 = 0.05;
/// Fewest triples of dominant beats needed to judge.
pub const MIN_TRIPLES: usize = 8;
/// The normal beats (by class) are regular when the median normalised difference of the
/// intervals of three consecutive normal beats is under this: the same threshold as the shape
/// check's (0.08, the AF edges' threshold, cost 4 min of true AF in MIT-BIH 210 here).
pub const REGULAR_NORMAL: f64 = REGULAR_DOMINANT;
/// Fewest triples of consecutive normal beats needed to read their regularity.
pub const MIN_NORMAL_TRIPLES: usize = 3;
/// With fewer triples, a window whose beats are at least this share ectopic is ectopy.
pub const ECTOPIC_SHARE: f64 = 0.4;

/// Whether the beats `beats` (s) of the window `[start_s, end_s)` of a lead (at `fs` Hz; `lead`
/// holds the window and [`HALF_QRS_S`] more either side, see [`window_stretch`]) are regular
/// once their ectopic beats are set aside; `false` when too few dominant beats remain to tell.
pub fn regular_without_ectopy(
    lead: &Stretch<'_>,
    fs: f64,
    beats: &[f64],
    start_s: f64,
    end_s: f64,
) -> bool {
    let half = (HALF_QRS_S * fs).round() as usize;
    let in_window: Vec<f64> = beats
        .iter()
        .copied()
        .filter(|t| *t >= start_s && *t < end_s)
        .collect();
    let segments: Vec<Option<&[f64]>> = in_window
        .iter()
        .map(|t| {
            let c = (t * fs).round() as usize;
            (c >= half && c + half < lead.total)
                .then(|| lead.span(c - half, c + half))
                .flatten()
        })
        .collect();
    let full: Vec<&[f64]> = segments.iter().flatten().copied().collect();
    if full.len() < MIN_TRIPLES + 2 {
        return false;
    }
    let mut template = vec![0.0; 2 * half + 1];
    let mut column = Vec::with_capacity(full.len());
    for (i, v) in template.iter_mut().enumerate() {
        column.clear();
        column.extend(full.iter().map(|s| s[i]));
        column.sort_unstable_by(f64::total_cmp);
        *v = column[column.len() / 2];
    }
    let dominant: Vec<bool> = segments
        .iter()
        .map(|s| s.is_some_and(|s| pearson(s, &template) >= DOMINANT_CORR))
        .collect();
    // The dominant beats alone: an ectopic beat and its compensatory pause make one interval.
    let kept: Vec<f64> = in_window
        .iter()
        .zip(&dominant)
        .filter(|(_, d)| **d)
        .map(|(t, _)| *t)
        .collect();
    regular(&kept)
}

/// The samples of a lead of `n` samples at `fs` Hz that [`regular_without_ectopy`] reads for the
/// window `[start_s, end_s)`, `(a, b)`.
pub fn window_stretch(n: usize, fs: f64, start_s: f64, end_s: f64) -> (usize, usize) {
    let half = (HALF_QRS_S * fs).round() as usize;
    let a = ((start_s * fs).round() as usize).saturating_sub(half + 1);
    let b = ((end_s * fs).round() as usize + half + 2).min(n);
    (a.min(b), b)
}

/// Whether the normal rhythm of `[start_s, end_s)` is regular once the beats `classes` calls S
/// or V are set aside: the same measure as [`regular_without_ectopy`] over every three
/// consecutive beats that are all normal (no interval next to an ectopic beat counts, so
/// couplets, runs and mixed bigeminy and trigeminy leave no trace); `false` when too few such
/// triples remain to tell.
pub fn regular_without_classed(
    beats: &[f64],
    classes: &[BeatClass],
    start_s: f64,
    end_s: f64,
) -> bool {
    let mut d: Vec<f64> = (0..beats.len().saturating_sub(2))
        .filter(|&i| beats[i] >= start_s && beats[i + 2] < end_s)
        .filter(|&i| classes[i..i + 3].iter().all(|c| *c == BeatClass::N))
        .map(|i| {
            let (a, b) = (beats[i + 1] - beats[i], beats[i + 2] - beats[i + 1]);
            change(a, b)
        })
        .collect();
    if d.len() < MIN_NORMAL_TRIPLES {
        // Too few normal triples: ectopic beats are so frequent that the rhythm underneath cannot
        // be read from the intervals; with as many as ECTOPIC_SHARE of the beats ectopic, the
        // irregularity is theirs.
        let (all, ectopic) = beats
            .iter()
            .zip(classes)
            .filter(|(t, _)| **t >= start_s && **t < end_s)
            .fold((0usize, 0usize), |(a, e), (_, c)| {
                (a + 1, e + usize::from(*c != BeatClass::N))
            });
        return all > 0 && ectopic as f64 >= ECTOPIC_SHARE * all as f64;
    }
    median_under(&mut d, MIN_NORMAL_TRIPLES, REGULAR_NORMAL)
}

/// Whether the sinus rhythm of `[start_s, end_s)` is regular across its ventricular ectopic beats:
/// the same measure as [`regular_without_ectopy`] over the **sinus cycles**
/// between consecutive normal beats, each the interval from one normal beat to the next over the
/// number of intervals it spans, where only ventricular beats may lie between (a ventricular
/// ectopic beat leaves the sinus node's timing alone, so its compensatory pause makes the two
/// intervals around it two cycles; a supraventricular one resets the node, and the cycle across
/// it is not counted): the median, over every two successive cycles, of their absolute
/// difference over their mean, under [`REGULAR_NORMAL`]. It reads trigeminy and mixed patterns
/// whose normal beats never come three in a row yet are under [`ECTOPIC_SHARE`] ectopic (MIT-BIH
/// 208). `false` when fewer than [`MIN_NORMAL_TRIPLES`] pairs of cycles remain to tell.
pub fn regular_sinus_cycles(
    beats: &[f64],
    classes: &[BeatClass],
    start_s: f64,
    end_s: f64,
) -> bool {
    let normal: Vec<usize> = (0..beats.len())
        .filter(|&i| beats[i] >= start_s && beats[i] < end_s && classes[i] == BeatClass::N)
        .collect();
    // The cycle from each normal beat to the next, `None` across a supraventricular beat.
    let cycles: Vec<Option<f64>> = normal
        .windows(2)
        .map(|w| {
            let (k, m) = (w[0], w[1]);
            classes[k + 1..m]
                .iter()
                .all(|c| *c == BeatClass::V)
                .then(|| (beats[m] - beats[k]) / (m - k) as f64)
        })
        .collect();
    let mut d: Vec<f64> = cycles
        .windows(2)
        .filter_map(|w| {
            let (a, b) = (w[0]?, w[1]?);
            Some(change(a, b))
        })
        .collect();
    median_under(&mut d, MIN_NORMAL_TRIPLES, REGULAR_NORMAL)
}

/// The median normalised difference of the two intervals of every three consecutive `kept`
/// beats is under [`REGULAR_DOMINANT`], over at least [`MIN_TRIPLES`] triples.
fn regular(kept: &[f64]) -> bool {
    let mut d: Vec<f64> = kept
        .windows(3)
        .map(|w| {
            let (a, b) = (w[1] - w[0], w[2] - w[1]);
            change(a, b)
        })
        .collect();
    median_under(&mut d, MIN_TRIPLES, REGULAR_DOMINANT)
}

/// Whether there are at least `least` interval changes `d` and their median is under `limit`
/// (`d` is sorted).
fn median_under(d: &mut [f64], least: usize, limit: f64) -> bool {
    if d.len() < least {
        return false;
    }
    d.sort_unstable_by(f64::total_cmp);
    d[d.len() / 2] < limit
}

/// The change from interval `a` to interval `b` over their mean.
fn change(a: f64, b: f64) -> f64 {
    (b - a).abs() / (0.5 * (a + b)).max(1e-6)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A spike train: a narrow upward QRS at every beat, a wide downward one at the ectopic ones.
    fn ecg(beats: &[(f64, bool)], fs: f64, seconds: f64) -> Vec<f64> {
        let mut x = vec![0.0; (seconds * fs) as usize];
        for &(t, ectopic) in beats {
            let c = (t * fs) as isize;
            let (width, sign) = if ectopic { (0.05, -1.0) } else { (0.012, 1.0) };
            for i in -40..=40isize {
                let k = c + i;
                if k >= 0 && (k as usize) < x.len() {
                    let s = i as f64 / fs;
                    x[k as usize] += sign * (-(s * s) / (2.0 * width * width)).exp()
                        + if ectopic { 0.3 * s / width } else { 0.0 };
                }
            }
        }
        x
    }

    #[test]
    fn bigeminy_on_a_regular_rhythm_is_regular_once_the_ectopic_beats_are_set_aside() {
        // Sinus beats every 1.0 s, with a premature ventricular beat 0.55 s after every other one.
        let mut beats = Vec::new();
        for k in 0..30 {
            let t = 0.5 + f64::from(k);
            beats.push((t, false));
            if k % 2 == 0 {
                beats.push((t + 0.55, true));
            }
        }
        let times: Vec<f64> = beats.iter().map(|b| b.0).collect();
        let x = ecg(&beats, 250.0, 31.0);

        assert!(regular_without_ectopy(
            &Stretch::whole(&x),
            250.0,
            &times,
            0.0,
            31.0
        ));
    }

    #[test]
    fn beats_classed_ectopic_are_set_aside_and_irregular_normal_beats_stay_irregular() {
        use BeatClass::{N, S};
        // Normal beats every 1.0 s with an early (S) beat after every third one.
        let mut beats = Vec::new();
        let mut classes = Vec::new();
        for k in 0..30 {
            beats.push(f64::from(k));
            classes.push(N);
            if k % 3 == 0 {
                beats.push(f64::from(k) + 0.6);
                classes.push(S);
            }
        }
        assert!(regular_without_classed(&beats, &classes, 0.0, 30.0));
        let all_n = vec![N; beats.len()];
        assert!(!regular_without_classed(&beats, &all_n, 0.0, 30.0));
    }

    #[test]
    fn ventricular_beats_with_compensatory_pauses_leave_the_sinus_cycle_regular() {
        use BeatClass::{N, V};
        // Trigeminy (a third of the beats ventricular, under the 40 % share): sinus every 0.8 s,
        // every third sinus beat hidden by a ventricular one 0.3 s early.
        let (mut beats, mut classes) = (Vec::new(), Vec::new());
        for k in 0..40 {
            let t = 0.8 * f64::from(k);
            if k % 3 == 2 {
                beats.push(t - 0.3);
                classes.push(V);
            } else {
                beats.push(t);
                classes.push(N);
            }
        }
        assert!(regular_sinus_cycles(&beats, &classes, 0.0, 32.0));
        // No three normal beats in a row and a third ventricular: the triples cannot tell.
        assert!(!regular_without_classed(&beats, &classes, 0.0, 32.0));

        // The same ventricular beats in atrial fibrillation: the cycles across them are irregular.
        let rr = [0.5, 0.9, 0.6, 1.1, 0.7, 0.95, 0.55];
        let mut t = 0.0;
        let irregular: Vec<f64> = (0..40)
            .map(|k| {
                t += rr[k % rr.len()];
                t
            })
            .collect();
        assert!(!regular_sinus_cycles(&irregular, &classes, 0.0, 40.0));
    }

    #[test]
    fn a_window_half_ventricular_beats_is_ectopy_even_without_normal_triples() {
        use BeatClass::{N, V};
        // Bigeminy whose coupling varies: no three normal beats in a row.
        let coupling = [0.45, 0.6, 0.5, 0.7, 0.55];
        let (mut beats, mut classes) = (Vec::new(), Vec::new());
        for k in 0..25 {
            let t = 1.3 * f64::from(k);
            beats.extend([t, t + coupling[k as usize % coupling.len()]]);
            classes.extend([N, V]);
        }

        assert!(regular_without_classed(&beats, &classes, 0.0, 33.0));
        let rare: Vec<BeatClass> = (0..beats.len())
            .map(|i| if i % 10 == 1 { V } else { N })
            .collect();
        let mut irregular = vec![0.0];
        for k in 1..50 {
            irregular.push(irregular[k - 1] + [0.5, 0.9, 0.6, 1.1, 0.7][k % 5]);
        }
        assert!(!regular_without_classed(&irregular, &rare, 0.0, 40.0));
    }

    #[test]
    fn irregular_beats_of_one_shape_stay_irregular() {
        let rr = [0.5, 0.9, 0.6, 1.1, 0.7, 0.45, 1.0];
        let mut t = 0.5;
        let mut beats = Vec::new();
        for k in 0..40 {
            beats.push((t, false));
            t += rr[k % rr.len()];
        }
        let times: Vec<f64> = beats.iter().map(|b| b.0).collect();
        let x = ecg(&beats, 250.0, t + 1.0);

        assert!(!regular_without_ectopy(
            &Stretch::whole(&x),
            250.0,
            &times,
            0.0,
            t + 1.0
        ));
    }
}
