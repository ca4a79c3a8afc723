//! The beats of a whole long recording and what is read from them: pauses, the heart rate of each
//! window (tachycardia, bradycardia), and the edges of AF episodes moved to the beat where the RR
//! irregularity starts or stops.
//!
//! Beats come from the product's QRS detector on the whole lead (Hamilton 2002, after Pan &
//! Tompkins 1985; `cardio_signal::ecg::EcgAnalyzer`). Rules:
//! - **pause**: an RR interval of [`PAUSE_S`] (2 s) or more outside noisy windows, the limit Holter
//!   reports use for a pause (Steinberg et al. 2017, ISHNE-HRS expert consensus statement on
//!   ambulatory ECG monitoring, Heart Rhythm 14:e55-e96);
//! - **tachycardia / bradycardia**: the median heart rate of a whole analysed window above 100 bpm
//!   or below 60 bpm (the rate limits of Mason et al. 2007, AHA/ACCF/HRS ECG recommendations part
//!   II, Circulation 115:1325-1332), sustained over the window, i.e. 30 s;
//! - **AF edges**: each edge of a window-level AF episode is searched within one window on either
//!   side; every RR interval there scores its irregularity, the median over [`SMOOTH`] intervals
//!   of the absolute successive RR difference over the mean of the two intervals (the normalised
//!   successive difference behind RR-based AF detectors: Tateno & Glass 2001, Med Biol Eng Comput
//!   39:664-671; Petrenas et al. 2015, Comput Biol Med 65:184-191), minus [`IRREGULAR`]; the edge
//!   is the beat that maximises the summed score on the episode's side (a change point); episodes
//!   less than [`MERGE_GAP_S`] apart are then one. The irregularity threshold was set before any
//!   evaluation; the merge gap after seeing AF episodes of MIT-BIH 219 and 221 split by less than
//!   a second.

use std::borrow::Cow;
use std::convert::Infallible;

use cardio_signal::ecg::{EcgAnalyzer, Powerline};
use cardio_signal::SamplingRate;

use super::episodes::{Episode, Kind};

/// An RR interval at least this long is a pause, s.
pub const PAUSE_S: f64 = 2.0;
/// Above this median heart rate a window is tachycardia, bpm.
pub const TACHYCARDIA_BPM: f64 = 100.0;
/// Below this median heart rate a window is bradycardia, bpm.
pub const BRADYCARDIA_BPM: f64 = 60.0;
/// Smoothed normalised successive RR difference above which an interval counts as irregular.
pub const IRREGULAR: f64 = 0.08;
/// AF episodes closer than this after refinement are one episode, s: a few beats between two
/// refined edges (each edge searched into the window between them) are no rhythm of their own.
pub const MERGE_GAP_S: f64 = 5.0;
/// Intervals in the running median of the irregularity.
pub const SMOOTH: usize = 9;

/// R-peak times (s) of the whole lead, given in millivolts at `fs_hz`; empty when the detector
/// cannot run (too short, rate too low). Non-finite samples count as 0 mV.
pub fn detect(mv: &[f64], fs_hz: f64) -> Vec<f64> {
    detect_cleaned(mv, fs_hz).0
}

/// Leads longer than this are cleaned, searched for beats and their beats classed in pieces of
/// this length, s (a 30-min record is one piece).
pub const PIECE_S: f64 = 3600.0;
/// Each piece is read this much further on either side, s, and only its own span is kept: the
/// cleaning filter's transients and the detector's adaptive thresholds (set on its first 8 s)
/// settle within it.
pub const PIECE_OVERLAP_S: f64 = 20.0;

/// [`detect`]'s R-peak times and the cleaned lead they were found on (mV, the detector's
/// baseline and powerline filtering; empty when the detector cannot run). A lead longer than
/// [`PIECE_S`] is read in pieces of that length, each with [`PIECE_OVERLAP_S`] either side, so
/// that the detector's lead-long buffers are a piece long, not a day long.
pub fn detect_cleaned(mv: &[f64], fs_hz: f64) -> (Vec<f64>, Vec<f64>) {
    detect_cleaned_in(mv, fs_hz, PIECE_S)
}

/// [`detect_cleaned`] with pieces of `piece_s` seconds.
pub fn detect_cleaned_in(mv: &[f64], fs_hz: f64, piece_s: f64) -> (Vec<f64>, Vec<f64>) {
    let Some(analyzer) = analyzer(fs_hz) else {
        return (Vec::new(), Vec::new());
    };
    let n = mv.len();
    if n as f64 <= piece_s * fs_hz {
        return detect_piece(&analyzer, mv, fs_hz);
    }
    let mut cleaned = vec![0.0; n];
    let beats = in_pieces(n, fs_hz, piece_s, PIECE_OVERLAP_S, |a, b, (from, to)| {
        let (times, piece_cleaned) = detect_piece(&analyzer, &mv[a..b], fs_hz);
        if piece_cleaned.len() == b - a {
            cleaned[from..to].copy_from_slice(&piece_cleaned[from - a..to - a]);
        }
        times.into_iter().map(|t| (t, ())).collect()
    });
    (beats.into_iter().map(|(t, ())| t).collect(), cleaned)
}

/// The product's detector for `fs_hz`; `None` when it cannot run at that rate.
pub fn analyzer(fs_hz: f64) -> Option<EcgAnalyzer> {
    EcgAnalyzer::new(SamplingRate::new(fs_hz).ok()?, Powerline::None).ok()
}

/// Reads a lead of `n` samples at `fs_hz` in pieces of `piece_s` (one piece when it is no
/// longer): `read(a, b, (from, to))` reads samples `a..b`, the piece `from..to` with up to
/// `overlap_s` more either side, and returns timed items (s from `a`); the items of each piece's
/// own span are kept, in time order, and an item within 0.2 s of the previous piece's last one
/// (a beat found at a seam by both pieces) is dropped.
pub fn in_pieces<T>(
    n: usize,
    fs_hz: f64,
    piece_s: f64,
    overlap_s: f64,
    mut read: impl FnMut(usize, usize, (usize, usize)) -> Vec<(f64, T)>,
) -> Vec<(f64, T)> {
    match try_in_pieces(n, fs_hz, piece_s, overlap_s, |a, b, own| {
        Ok::<_, Infallible>(read(a, b, own))
    }) {
        Ok(items) => items,
        Err(never) => match never {},
    }
}

/// [`in_pieces`] with a `read` that may fail: the first error stops the reading.
///
/// # Errors
/// `read`'s first error.
pub fn try_in_pieces<T, E>(
    n: usize,
    fs_hz: f64,
    piece_s: f64,
    overlap_s: f64,
    mut read: impl FnMut(usize, usize, (usize, usize)) -> Result<Vec<(f64, T)>, E>,
) -> Result<Vec<(f64, T)>, E> {
    let piece = ((piece_s * fs_hz).round() as usize).max(1);
    let overlap = (overlap_s * fs_hz).round() as usize;
    let mut out: Vec<(f64, T)> = Vec::new();
    let mut start = 0;
    while start < n {
        let end = (start + piece).min(n);
        let (a, b) = (start.saturating_sub(overlap), (end + overlap).min(n));
        let (from_s, to_s) = (start as f64 / fs_hz, end as f64 / fs_hz);
        let before = out.last().map(|(t, _)| *t);
        for (t, item) in read(a, b, (start, end))? {
            let t = t + a as f64 / fs_hz;
            if t >= from_s && t < to_s && before.is_none_or(|last| t - last >= 0.2) {
                out.push((t, item));
            }
        }
        start = end;
    }
    Ok(out)
}

/// One piece cleaned and searched (see [`detect_cleaned`]): its R-peak times (s from its start)
/// and its cleaned samples.
pub fn detect_piece(analyzer: &EcgAnalyzer, mv: &[f64], fs_hz: f64) -> (Vec<f64>, Vec<f64>) {
    // A copy with non-finite samples at 0 mV only when there are some (a day-long lead is large).
    let x: Cow<[f64]> = if mv.iter().all(|v| v.is_finite()) {
        Cow::Borrowed(mv)
    } else {
        Cow::Owned(
            mv.iter()
                .map(|v| if v.is_finite() { *v } else { 0.0 })
                .collect(),
        )
    };
    // The beats and the cleaned lead only: no delineation of every beat.
    analyzer.detect(&x).map_or_else(
        |_| (Vec::new(), Vec::new()),
        |(cleaned, r_peaks)| (r_peaks.iter().map(|&p| p as f64 / fs_hz).collect(), cleaned),
    )
}

/// Whether `t` falls inside one of `spans`.
fn inside(t: f64, spans: &[(f64, f64)]) -> bool {
    spans.iter().any(|&(s, e)| t >= s && t < e)
}

/// Pauses: every RR interval of [`PAUSE_S`] or more whose two beats lie outside `noisy`.
pub fn pauses(beats: &[f64], noisy: &[(f64, f64)]) -> Vec<Episode> {
    beats
        .windows(2)
        .filter(|w| w[1] - w[0] >= PAUSE_S)
        .filter(|w| {
            !inside(w[0], noisy)
                && !inside(w[1], noisy)
                && !noisy.iter().any(|&(s, e)| s < w[1] && e > w[0])
        })
        .map(|w| Episode {
            kind: Kind::Pause,
            start_s: w[0],
            end_s: w[1],
        })
        .collect()
}

/// Median heart rate (bpm) of the RR intervals that start in `[start_s, end_s)`; `None` with
/// fewer than 3 intervals.
pub fn window_rate(beats: &[f64], start_s: f64, end_s: f64) -> Option<f64> {
    let mut rr: Vec<f64> = beats
        .windows(2)
        .filter(|w| w[0] >= start_s && w[0] < end_s)
        .map(|w| w[1] - w[0])
        .collect();
    if rr.len() < 3 {
        return None;
    }
    rr.sort_unstable_by(f64::total_cmp);
    Some(60.0 / rr[rr.len() / 2])
}

/// The smoothed irregularity score of every RR interval (see the module documentation), with the
/// time of the beat that starts it: `(t, score)`, `score > 0` for an irregular stretch.
pub fn irregularity(beats: &[f64]) -> Vec<(f64, f64)> {
    let rr: Vec<f64> = beats.windows(2).map(|w| w[1] - w[0]).collect();
    if rr.len() < 2 {
        return Vec::new();
    }
    let raw: Vec<f64> = (0..rr.len())
        .map(|k| {
            let j = if k == 0 { 1 } else { k - 1 };
            (rr[k] - rr[j]).abs() / (0.5 * (rr[k] + rr[j])).max(1e-6)
        })
        .collect();
    let half = SMOOTH / 2;
    let mut buf = Vec::with_capacity(SMOOTH);
    (0..raw.len())
        .map(|k| {
            buf.clear();
            buf.extend_from_slice(&raw[k.saturating_sub(half)..(k + half + 1).min(raw.len())]);
            buf.sort_unstable_by(f64::total_cmp);
            (beats[k], buf[buf.len() / 2] - IRREGULAR)
        })
        .collect()
}

/// The AF episodes with their edges moved to the beat where the irregularity starts or stops,
/// each searched within `reach_s` of the window edge; episodes that overlap or lie less than
/// [`MERGE_GAP_S`] apart are merged. An
/// episode the search would empty keeps its window edges (the model called it AF).
pub fn refine_af(
    af: &[Episode],
    scores: &[(f64, f64)],
    noisy: &[(f64, f64)],
    reach_s: f64,
) -> Vec<Episode> {
    let scored = |lo: f64, hi: f64| -> Vec<(f64, f64)> {
        scores
            .iter()
            .filter(|(t, _)| *t >= lo && *t < hi)
            .map(|&(t, s)| (t, if inside(t, noisy) { 0.0 } else { s }))
            .collect()
    };
    let mut out: Vec<Episode> = Vec::new();
    for e in af {
        // Start: the beat from which the summed score to the zone's end is largest.
        let zone = scored(e.start_s - reach_s, (e.start_s + reach_s).min(e.end_s));
        let mut start = e.start_s;
        let mut best = f64::NEG_INFINITY;
        let mut tail = 0.0;
        for &(t, s) in zone.iter().rev() {
            tail += s;
            if tail >= best {
                best = tail;
                start = t;
            }
        }
        // End: the beat before which the summed score from the zone's start is largest; the
        // episode ends at the beat that closes the last irregular interval.
        let zone = scored((e.end_s - reach_s).max(start), e.end_s + reach_s);
        let mut end = e.end_s;
        let mut best = f64::NEG_INFINITY;
        let mut head = 0.0;
        for (i, &(_, s)) in zone.iter().enumerate() {
            head += s;
            if head > best {
                best = head;
                end = zone.get(i + 1).map_or(e.end_s, |z| z.0);
            }
        }
        let refined = if end > start {
            Episode {
                kind: Kind::Af,
                start_s: start,
                end_s: end,
            }
        } else {
            *e
        };
        match out.last_mut() {
            Some(last) if refined.start_s <= last.end_s + MERGE_GAP_S => {
                last.end_s = last.end_s.max(refined.end_s);
            }
            _ => out.push(refined),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Beats at a regular 0.8 s, then irregular (0.5/0.9/0.6/1.1 s) from `af_from` s, then regular
    /// again from `af_to` s.
    fn beats(af_from: f64, af_to: f64, total: f64) -> Vec<f64> {
        let irregular = [0.5, 0.9, 0.6, 1.1, 0.7, 0.45, 1.0];
        let mut t = 0.0;
        let mut out = Vec::new();
        let mut k = 0;
        while t < total {
            out.push(t);
            t += if t >= af_from && t < af_to {
                k += 1;
                irregular[k % irregular.len()]
            } else {
                0.8
            };
        }
        out
    }

    #[test]
    fn af_edges_move_to_where_the_irregular_beats_start_and_stop() {
        let b = beats(100.0, 200.0, 300.0);
        let windows = vec![Episode {
            kind: Kind::Af,
            start_s: 90.0,
            end_s: 210.0,
        }];

        let refined = refine_af(&windows, &irregularity(&b), &[], 30.0);

        assert_eq!(refined.len(), 1);
        assert!((refined[0].start_s - 100.0).abs() < 3.0, "{refined:?}");
        assert!((refined[0].end_s - 200.0).abs() < 3.0, "{refined:?}");
    }

    #[test]
    fn af_episodes_a_few_seconds_apart_become_one() {
        let b = beats(0.0, 300.0, 300.0);
        let windows = vec![
            Episode {
                kind: Kind::Af,
                start_s: 0.0,
                end_s: 60.0,
            },
            Episode {
                kind: Kind::Af,
                start_s: 90.0,
                end_s: 300.0,
            },
        ];

        let refined = refine_af(&windows, &irregularity(&b), &[], 30.0);

        assert_eq!(refined.len(), 1, "{refined:?}");
    }

    #[test]
    fn a_pause_is_an_rr_of_two_seconds_or_more_outside_noise() {
        let b = [0.0, 1.0, 3.5, 4.5, 10.0, 11.0];

        let p = pauses(&b, &[(9.0, 20.0)]);

        assert_eq!(p.len(), 1);
        assert_eq!((p[0].start_s, p[0].end_s), (1.0, 3.5));
    }

    #[test]
    fn the_window_rate_is_the_median_of_its_intervals() {
        let b: Vec<f64> = (0..40).map(|i| 0.5 * f64::from(i)).collect();

        assert_eq!(window_rate(&b, 0.0, 10.0), Some(120.0));
        assert_eq!(window_rate(&b, 100.0, 130.0), None);
    }
}
