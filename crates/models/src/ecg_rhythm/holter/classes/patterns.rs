//! What a Holter report counts from the beat classes: isolated ectopic beats, couplets, runs
//! (three or more in a row: supraventricular and non-sustained ventricular tachycardia runs),
//! bigeminy and trigeminy.
//!
//! Definitions as Holter reports use them (Steinberg JS et al. 2017, ISHNE-HRS expert consensus
//! statement on ambulatory ECG and external cardiac monitoring/telemetry, Heart Rhythm
//! 14(7):e55-e96; Kennedy HL, Ambulatory (Holter) electrocardiography technology, Cardiol Clin
//! 1992):
//! - **couplet**: exactly two ectopic beats of one class in a row;
//! - **run**: three or more in a row (a `vt_run` of ventricular, an `svt_run` of supraventricular
//!   beats), from the first ectopic beat to the last;
//! - **bigeminy**: at least [`MIN_CYCLES`] consecutive cycles of one normal and one ventricular
//!   beat (N V N V N V); **trigeminy**: of two normal beats and one ventricular (N N V N N V N N V).

use serde::Serialize;

use super::BeatClass;
use crate::ecg_rhythm::holter::episodes::{Episode, Kind};

/// Fewest consecutive cycles that make bigeminy or trigeminy.
pub const MIN_CYCLES: usize = 3;

/// Counts of ectopic patterns.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Patterns {
    /// Ventricular beats not next to another ventricular beat.
    pub v_isolated: usize,
    /// Pairs of ventricular beats.
    pub v_couplets: usize,
    /// Runs of three or more ventricular beats.
    pub v_runs: usize,
    /// Supraventricular ectopic beats not next to another one.
    pub s_isolated: usize,
    /// Pairs of supraventricular ectopic beats.
    pub s_couplets: usize,
    /// Runs of three or more supraventricular ectopic beats.
    pub s_runs: usize,
    /// Stretches of ventricular bigeminy.
    pub v_bigeminy: usize,
    /// Stretches of ventricular trigeminy.
    pub v_trigeminy: usize,
}

/// Consecutive beats of `class`: `(first index, count)`.
fn streaks(classes: &[BeatClass], class: BeatClass) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < classes.len() {
        if classes[i] == class {
            let start = i;
            while i < classes.len() && classes[i] == class {
                i += 1;
            }
            out.push((start, i - start));
        } else {
            i += 1;
        }
    }
    out
}

/// Stretches where `classes` repeats `cycle` (e.g. `[N, V]`) at least [`MIN_CYCLES`] times.
fn repeats(classes: &[BeatClass], cycle: &[BeatClass]) -> usize {
    let len = cycle.len();
    let mut count = 0;
    let mut i = 0;
    while i + len <= classes.len() {
        let mut cycles = 0;
        let mut j = i;
        while j + len <= classes.len() && classes[j..j + len] == *cycle {
            cycles += 1;
            j += len;
        }
        if cycles >= MIN_CYCLES {
            count += 1;
            i = j;
        } else {
            i += 1;
        }
    }
    count
}

/// The patterns of a beat sequence.
pub fn count(classes: &[BeatClass]) -> Patterns {
    use BeatClass::{N, V};
    let v = streaks(classes, BeatClass::V);
    let s = streaks(classes, BeatClass::S);
    let of = |runs: &[(usize, usize)], f: &dyn Fn(usize) -> bool| {
        runs.iter().filter(|(_, n)| f(*n)).count()
    };
    Patterns {
        v_isolated: of(&v, &|n| n == 1),
        v_couplets: of(&v, &|n| n == 2),
        v_runs: of(&v, &|n| n >= 3),
        s_isolated: of(&s, &|n| n == 1),
        s_couplets: of(&s, &|n| n == 2),
        s_runs: of(&s, &|n| n >= 3),
        v_bigeminy: repeats(classes, &[N, V]),
        v_trigeminy: repeats(classes, &[N, N, V]),
    }
}

/// The runs of three or more ectopic beats as episodes (`vt_run`, `svt_run`), from the first
/// beat of the run to the last; beats inside `noisy` spans do not count.
pub fn runs(times: &[f64], classes: &[BeatClass], noisy: &[(f64, f64)]) -> Vec<Episode> {
    let masked: Vec<BeatClass> = times
        .iter()
        .zip(classes)
        .map(|(t, c)| {
            if noisy.iter().any(|&(s, e)| *t >= s && *t < e) {
                BeatClass::N
            } else {
                *c
            }
        })
        .collect();
    let mut out = Vec::new();
    for (class, kind) in [(BeatClass::V, Kind::VtRun), (BeatClass::S, Kind::SvtRun)] {
        for (first, n) in streaks(&masked, class) {
            if n >= 3 {
                out.push(Episode {
                    kind,
                    start_s: times[first],
                    end_s: times[first + n - 1],
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use BeatClass::{N, S, V};

    #[test]
    fn couplets_runs_and_isolated_beats_are_told_apart() {
        let c = [N, V, N, V, V, N, V, V, V, N, S, N, S, S, S, S, N];

        let p = count(&c);

        assert_eq!((p.v_isolated, p.v_couplets, p.v_runs), (1, 1, 1));
        assert_eq!((p.s_isolated, p.s_couplets, p.s_runs), (1, 0, 1));
    }

    #[test]
    fn bigeminy_needs_three_cycles_and_trigeminy_two_normal_beats_per_cycle() {
        assert_eq!(count(&[N, V, N, V, N, V, N, N]).v_bigeminy, 1);
        assert_eq!(count(&[N, V, N, V, N, N]).v_bigeminy, 0);
        assert_eq!(count(&[N, N, V, N, N, V, N, N, V, N]).v_trigeminy, 1);
        assert_eq!(count(&[N, N, V, N, N, V, N, N, V, N]).v_bigeminy, 0);
    }

    #[test]
    fn runs_become_episodes_from_their_first_to_their_last_beat_outside_noise() {
        let t: Vec<f64> = (0..12).map(f64::from).collect();
        let c = [N, V, V, V, N, S, S, S, S, N, V, V];

        let e = runs(&t, &c, &[]);

        assert_eq!(e.len(), 2);
        assert_eq!(
            (e[0].kind, e[0].start_s, e[0].end_s),
            (Kind::VtRun, 1.0, 3.0)
        );
        assert_eq!(
            (e[1].kind, e[1].start_s, e[1].end_s),
            (Kind::SvtRun, 5.0, 8.0)
        );
        assert!(runs(&t, &c, &[(0.5, 4.0)])
            .iter()
            .all(|e| e.kind != Kind::VtRun));
    }
}
