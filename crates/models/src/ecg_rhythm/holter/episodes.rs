//! Episodes of a long recording: consecutive windows that share a verdict merged into one
//! `{kind, start_s, end_s}`, and the AF burden they give.
//!
//! Merging is exact: an episode starts where its first window starts and ends where its last
//! window ends; two windows are consecutive when the second starts where the first ends (within
//! a millisecond). Beat-level refinement of the AF edges is [`super::beats::refine_af`]'s.

use serde::Serialize;

/// What an episode is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// Atrial fibrillation (the rhythm model's `af` on the window).
    Af,
    /// Too noisy to judge (the plausibility gate or the model's `noisy`).
    Noisy,
    /// An RR interval of 2 s or more.
    Pause,
    /// A window whose median heart rate is above 100 bpm.
    Tachycardia,
    /// A window whose median heart rate is below 60 bpm.
    Bradycardia,
    /// Three or more supraventricular ectopic beats in a row.
    SvtRun,
    /// Three or more ventricular ectopic beats in a row.
    VtRun,
}

impl Kind {
    /// The machine code (`af`, `noisy`, `pause`, `tachycardia`, `bradycardia`, `svt_run`,
    /// `vt_run`).
    pub fn code(self) -> &'static str {
        match self {
            Self::Af => "af",
            Self::Noisy => "noisy",
            Self::Pause => "pause",
            Self::Tachycardia => "tachycardia",
            Self::Bradycardia => "bradycardia",
            Self::SvtRun => "svt_run",
            Self::VtRun => "vt_run",
        }
    }
}

/// One episode, in seconds from the start of the recording.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Episode {
    /// What it is.
    pub kind: Kind,
    /// Where it starts, s.
    pub start_s: f64,
    /// Where it ends, s.
    pub end_s: f64,
}

impl Episode {
    /// Its length, s.
    pub fn duration_s(&self) -> f64 {
        (self.end_s - self.start_s).max(0.0)
    }
}

/// Two window edges closer than this are the same instant, s.
const SAME_INSTANT_S: f64 = 1e-3;

/// The episodes of `kind` from windows `(start_s, end_s, flagged)`, in time order: every run of
/// consecutive flagged windows becomes one episode from the first window's start to the last
/// window's end.
pub fn runs(kind: Kind, windows: &[(f64, f64, bool)]) -> Vec<Episode> {
    let mut out: Vec<Episode> = Vec::new();
    let mut open = false;
    for &(start_s, end_s, flagged) in windows {
        if !flagged {
            open = false;
            continue;
        }
        match out.last_mut() {
            Some(last) if open && (start_s - last.end_s).abs() <= SAME_INSTANT_S => {
                last.end_s = end_s;
            }
            _ => out.push(Episode {
                kind,
                start_s,
                end_s,
            }),
        }
        open = true;
    }
    out
}

/// Total seconds covered by `episodes` of `kind` (episodes of one kind never overlap).
pub fn seconds(episodes: &[Episode], kind: Kind) -> f64 {
    episodes
        .iter()
        .filter(|e| e.kind == kind)
        .map(Episode::duration_s)
        .fold(0.0, |a, b| a + b)
}

/// Seconds of overlap between two sets of intervals `(start_s, end_s)`, each free of overlaps
/// within itself.
pub fn overlap(a: &[(f64, f64)], b: &[(f64, f64)]) -> f64 {
    a.iter()
        .map(|&(s1, e1)| {
            b.iter()
                .map(|&(s2, e2)| (e1.min(e2) - s1.max(s2)).max(0.0))
                .fold(0.0, |acc, o| acc + o)
        })
        .fold(0.0, |acc, o| acc + o)
}

/// AF burden: AF seconds over analysed (not noisy) seconds, 0 when nothing was analysed. AF
/// seconds that fall in noisy windows (after beat-level refinement) are not counted.
pub fn af_burden(episodes: &[Episode], analysed_s: f64) -> f64 {
    if analysed_s <= 0.0 {
        return 0.0;
    }
    let af: Vec<(f64, f64)> = spans(episodes, Kind::Af);
    let noisy: Vec<(f64, f64)> = spans(episodes, Kind::Noisy);
    let af_s: f64 = af.iter().map(|(s, e)| e - s).sum::<f64>() - overlap(&af, &noisy);
    (af_s / analysed_s).clamp(0.0, 1.0)
}

/// The `(start_s, end_s)` of the episodes of `kind`.
pub fn spans(episodes: &[Episode], kind: Kind) -> Vec<(f64, f64)> {
    episodes
        .iter()
        .filter(|e| e.kind == kind)
        .map(|e| (e.start_s, e.end_s))
        .collect()
}

/// Window edges `(start, end)` for a record of `duration_s`: consecutive `window_s` windows, the
/// last one taking the remainder (between one and two windows long); none for a record of no
/// length.
pub fn window_edges(duration_s: f64, window_s: f64) -> Vec<(f64, f64)> {
    if !(duration_s.is_finite() && duration_s > 0.0 && window_s > 0.0) {
        return Vec::new();
    }
    let n = ((duration_s / window_s).floor() as usize).max(1);
    (0..n)
        .map(|i| {
            let start = window_s * i as f64;
            let end = if i + 1 == n {
                duration_s
            } else {
                start + window_s
            };
            (start, end)
        })
        .collect()
}

/// The episodes as a result's `details.episodes`: `[{kind, start_s, end_s}]`, times to the
/// hundredth of a second.
pub fn to_json(episodes: &[Episode]) -> serde_json::Value {
    let hundredth = |v: f64| serde_json::json!((v * 100.0).round() / 100.0 + 0.0);
    serde_json::Value::Array(
        episodes
            .iter()
            .map(|e| {
                serde_json::json!({
                    "kind": e.kind.code(),
                    "start_s": hundredth(e.start_s),
                    "end_s": hundredth(e.end_s),
                })
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(flags: &[bool]) -> Vec<(f64, f64, bool)> {
        flags
            .iter()
            .enumerate()
            .map(|(i, &f)| (30.0 * i as f64, 30.0 * (i + 1) as f64, f))
            .collect()
    }

    #[test]
    fn consecutive_flagged_windows_merge_into_one_episode_with_exact_edges() {
        let w = labels(&[false, true, true, false, true, false, true, true, true]);

        let e = runs(Kind::Af, &w);

        let got: Vec<(f64, f64)> = e.iter().map(|e| (e.start_s, e.end_s)).collect();
        assert_eq!(got, vec![(30.0, 90.0), (120.0, 150.0), (180.0, 270.0)]);
        assert!(e.iter().all(|e| e.kind == Kind::Af));
        assert_eq!(seconds(&e, Kind::Af), 180.0);
    }

    #[test]
    fn a_gap_between_flagged_windows_keeps_them_apart_and_a_last_longer_window_ends_the_episode() {
        // The last window absorbs the record's remainder (30-39 s).
        let w = vec![
            (0.0, 30.0, true),
            (30.0, 60.0, true),
            (90.0, 120.0, true),
            (120.0, 157.5, true),
        ];

        let e = runs(Kind::Noisy, &w);

        let got: Vec<(f64, f64)> = e.iter().map(|e| (e.start_s, e.end_s)).collect();
        assert_eq!(got, vec![(0.0, 60.0), (90.0, 157.5)]);
    }

    #[test]
    fn no_flagged_window_gives_no_episode_and_a_zero_burden() {
        let e = runs(Kind::Af, &labels(&[false, false]));

        assert!(e.is_empty());
        assert_eq!(af_burden(&e, 60.0), 0.0);
        assert_eq!(af_burden(&e, 0.0), 0.0);
    }

    #[test]
    fn the_burden_is_af_time_over_analysed_time_without_noisy_time() {
        let e = vec![
            Episode {
                kind: Kind::Af,
                start_s: 0.0,
                end_s: 70.0,
            },
            Episode {
                kind: Kind::Noisy,
                start_s: 60.0,
                end_s: 90.0,
            },
        ];

        // 60 s of AF outside noise over 240 s analysed.
        assert!((af_burden(&e, 240.0) - 0.25).abs() < 1e-12);
        assert_eq!(overlap(&[(0.0, 10.0), (20.0, 30.0)], &[(5.0, 25.0)]), 10.0);
    }
}
