//! The heart rate and heart-rate variability of a long ECG read whole, as a Holter report gives
//! them: the heart rate's minimum, mean and maximum with their times, an hourly table, and the
//! time-domain HRV of the whole record over 5-min segments.
//!
//! **Intervals.** Only the analysed time counts: an RR interval that starts in a too-noisy span is
//! left out. An interval outside 0.3-2.0 s (200-30 bpm) is an artefact (a missed or a doubled
//! beat) and is left out of everything. The *NN intervals* (normal-to-normal) of the HRV are the
//! remaining intervals whose two beats are normal (when a per-beat normal mask is given: the beat
//! classes set ectopic beats aside) and that differ by no more than 20 % from the interval just
//! before them (from the beat before its first beat to its first beat; no such interval, at the
//! record's start, and the interval is kept). The Task Force (below) asks that ectopic beats and
//! artefacts be removed before HRV is computed without fixing how; the 20 % rule is a common way
//! of doing it in long-term HRV and our choice: a premature beat's short coupling interval and the
//! long pause after it both fail it.
//!
//! **Heart rate.** Holter reports give the minimum and maximum of a rate averaged over some beats
//! or a minute, never of one RR interval (one missed beat would be the minimum). Here the rate of
//! each minute of the record (`[k·60 s, (k+1)·60 s)`, by the interval's first beat) is 60 over the
//! **median** of its plausible RR intervals (every beat counts, ectopic or not, so an arrhythmia's
//! rate is seen), when the minute has at least [`MIN_MINUTE_RR`] of them; the minimum and maximum
//! are the slowest and fastest of these minutes, at the minute's start. A median is not moved by a
//! few ectopic beats or detection errors, and a minute is the bin of the PDF's trend, so the line
//! and the plot agree. The mean is 60 over the mean plausible RR interval: the beats per minute of
//! the analysed time.
//!
//! **HRV** (Task Force of the European Society of Cardiology and the North American Society of
//! Pacing and Electrophysiology (1996), Heart rate variability: standards of measurement,
//! physiological interpretation and clinical use, *Circulation* 93(5):1043-1065, Table 1):
//! - SDNN: the standard deviation of every NN interval of the record, ms;
//! - SDANN: the standard deviation of the mean NN interval of each 5-min segment, ms (needs two
//!   segments, else `null`);
//! - SDNN index: the mean of each 5-min segment's SDNN, ms;
//! - RMSSD: the square root of the mean squared difference of adjacent NN intervals (two NN
//!   intervals sharing a beat), ms;
//! - pNN50: adjacent NN intervals differing by more than 50 ms, as a percentage of the NN
//!   intervals (the Task Force's denominator, as [`cardio_signal::hrv::time_domain`]).
//!
//! The 5-min segments are `[k·300 s, (k+1)·300 s)` of the record, an NN interval in the segment
//! of its first beat; a segment counts when its NN intervals add up to at least half of it
//! (150 s), so that a segment mostly noisy or ectopic does not stand for five minutes. Standard
//! deviations are sample ones (divisor n - 1), as in `cardio_signal::stats::sd`.
//!
//! **Hours**: `[h·3600 s, (h+1)·3600 s)` of the record, the last one ending with the record (a
//! 30-min record has one row): the beats in it outside noisy spans, the mean rate (as above) and
//! the slowest and fastest minute starting in it, and its analysed seconds.

use cardio_signal::stats;
use serde_json::{json, Map, Value};

use super::episodes::Kind;
use super::Reading;
use crate::ecg_rhythm::num;

/// Shortest plausible RR interval, s (200 bpm).
pub const MIN_RR_S: f64 = 0.3;
/// Longest plausible RR interval, s (30 bpm).
pub const MAX_RR_S: f64 = 2.0;
/// Largest change of an NN interval from the interval before it, as a fraction of that one.
pub const MAX_CHANGE: f64 = 0.2;
/// Length of a heart-rate bin, s.
pub const MINUTE_S: f64 = 60.0;
/// Fewest RR intervals a minute needs for its rate.
pub const MIN_MINUTE_RR: usize = 10;
/// Length of an HRV segment, s.
pub const SEGMENT_S: f64 = 300.0;
/// Length of a row of the hourly table, s.
pub const HOUR_S: f64 = 3600.0;

/// One RR interval kept.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Interval {
    /// Index of its first beat.
    beat: usize,
    /// Time of its first beat, s.
    t_s: f64,
    /// Length, s.
    rr_s: f64,
}

/// The heart rate's minimum, mean and maximum.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HeartRate {
    /// Slowest minute's rate, bpm.
    pub min_bpm: f64,
    /// Start of the slowest minute, s.
    pub min_at_s: f64,
    /// 60 over the mean RR interval, bpm.
    pub mean_bpm: f64,
    /// Fastest minute's rate, bpm.
    pub max_bpm: f64,
    /// Start of the fastest minute, s.
    pub max_at_s: f64,
}

/// One row of the hourly table.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hour {
    /// Start, s.
    pub start_s: f64,
    /// End, s.
    pub end_s: f64,
    /// Beats outside noisy spans.
    pub beats: usize,
    /// Mean rate, bpm (`None` without a plausible interval).
    pub mean_bpm: Option<f64>,
    /// Slowest minute, bpm (`None` without a minute with a rate).
    pub min_bpm: Option<f64>,
    /// Fastest minute, bpm.
    pub max_bpm: Option<f64>,
    /// Seconds not in noisy spans.
    pub analysed_s: f64,
}

/// Time-domain HRV (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hrv {
    /// SD of every NN interval, ms.
    pub sdnn_ms: f64,
    /// SD of the 5-min segments' mean NN, ms (`None` under two segments).
    pub sdann_ms: Option<f64>,
    /// Mean of the 5-min segments' SDNN, ms (`None` without a segment).
    pub sdnn_index_ms: Option<f64>,
    /// Root mean square of adjacent NN differences, ms.
    pub rmssd_ms: f64,
    /// Adjacent NN differences over 50 ms, % of the NN intervals.
    pub pnn50_percent: f64,
    /// The 5-min segments that counted.
    pub segments: usize,
}

/// The heart rate and HRV of a record.
#[derive(Debug, Clone, PartialEq)]
pub struct Trend {
    /// `None` when no minute has a rate.
    pub heart_rate: Option<HeartRate>,
    /// One row per hour of the record.
    pub hourly: Vec<Hour>,
    /// `None` under three NN intervals or without adjacent ones.
    pub hrv: Option<Hrv>,
    /// Each minute's rate, `(minute start s, bpm)`.
    pub minutes: Vec<(f64, f64)>,
}

fn in_spans(t: f64, spans: &[(f64, f64)]) -> bool {
    spans.iter().any(|&(a, b)| t >= a && t < b)
}

/// The plausible RR intervals of the analysed time, and among them the NN intervals.
fn intervals(
    beats: &[f64],
    noisy: &[(f64, f64)],
    normal: Option<&[bool]>,
) -> (Vec<Interval>, Vec<Interval>) {
    let is_normal = |i: usize| normal.is_none_or(|m| m.get(i).copied().unwrap_or(true));
    let (mut rr, mut nn) = (Vec::new(), Vec::new());
    for i in 0..beats.len().saturating_sub(1) {
        let (t, len) = (beats[i], beats[i + 1] - beats[i]);
        if in_spans(t, noisy) || !(MIN_RR_S..=MAX_RR_S).contains(&len) {
            continue;
        }
        let kept = Interval {
            beat: i,
            t_s: t,
            rr_s: len,
        };
        rr.push(kept);
        let steady = i == 0 || {
            let before = beats[i] - beats[i - 1];
            (len - before).abs() <= MAX_CHANGE * before + 1e-12
        };
        if steady && is_normal(i) && is_normal(i + 1) {
            nn.push(kept);
        }
    }
    (rr, nn)
}

/// Each minute's rate: 60 over the median RR of the minute, with at least [`MIN_MINUTE_RR`].
fn minute_rates(rr: &[Interval]) -> Vec<(f64, f64)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < rr.len() {
        let start = (rr[i].t_s / MINUTE_S).floor() * MINUTE_S;
        let mut lengths = Vec::new();
        while i < rr.len() && rr[i].t_s < start + MINUTE_S {
            lengths.push(rr[i].rr_s);
            i += 1;
        }
        if lengths.len() >= MIN_MINUTE_RR {
            out.push((start, 60.0 / stats::median(&lengths)));
        }
    }
    out
}

fn mean_bpm(rr: &[Interval]) -> Option<f64> {
    (!rr.is_empty()).then(|| 60.0 / (rr.iter().map(|r| r.rr_s).sum::<f64>() / rr.len() as f64))
}

fn slowest_fastest(minutes: &[(f64, f64)]) -> Option<((f64, f64), (f64, f64))> {
    // The first of minutes with equal rates (to 1e-6 bpm, below the rounding of beat times)
    // wins, so the times are the earliest.
    let min = minutes
        .iter()
        .copied()
        .reduce(|a, b| if b.1 < a.1 - 1e-6 { b } else { a })?;
    let max = minutes
        .iter()
        .copied()
        .reduce(|a, b| if b.1 > a.1 + 1e-6 { b } else { a })?;
    Some((min, max))
}

fn overlap(a: f64, b: f64, spans: &[(f64, f64)]) -> f64 {
    spans
        .iter()
        .map(|&(s, e)| (e.min(b) - s.max(a)).max(0.0))
        .sum()
}

fn hrv(nn: &[Interval]) -> Option<Hrv> {
    let ms: Vec<f64> = nn.iter().map(|n| n.rr_s * 1000.0).collect();
    let diffs: Vec<f64> = nn
        .windows(2)
        .zip(ms.windows(2))
        .filter(|(n, _)| n[1].beat == n[0].beat + 1)
        .map(|(_, m)| m[1] - m[0])
        .collect();
    if ms.len() < 3 || diffs.is_empty() {
        return None;
    }
    let mut segments: Vec<(f64, Vec<f64>)> = Vec::new();
    for (n, v) in nn.iter().zip(&ms) {
        let start = (n.t_s / SEGMENT_S).floor() * SEGMENT_S;
        match segments.last_mut() {
            Some((s, values)) if *s == start => values.push(*v),
            _ => segments.push((start, vec![*v])),
        }
    }
    let counted: Vec<Vec<f64>> = segments
        .into_iter()
        .map(|(_, values)| values)
        .filter(|v| v.len() >= 2 && v.iter().sum::<f64>() >= 1000.0 * SEGMENT_S / 2.0)
        .collect();
    let means: Vec<f64> = counted.iter().map(|v| stats::mean(v)).collect();
    let sds: Vec<f64> = counted.iter().map(|v| stats::sd(v)).collect();
    Some(Hrv {
        sdnn_ms: stats::sd(&ms),
        sdann_ms: (means.len() >= 2).then(|| stats::sd(&means)),
        sdnn_index_ms: (!sds.is_empty()).then(|| stats::mean(&sds)),
        rmssd_ms: (diffs.iter().map(|d| d * d).sum::<f64>() / diffs.len() as f64).sqrt(),
        pnn50_percent: 100.0 * diffs.iter().filter(|d| d.abs() > 50.0).count() as f64
            / ms.len() as f64,
        segments: counted.len(),
    })
}

/// The heart rate and HRV of a record of `duration_s` from its beat times (s), its too-noisy
/// spans `(start, end)` and, when known, which beats are normal (`normal[i]` for `beats[i]`; a
/// beat past the mask's end counts as normal).
pub fn summarise(
    beats: &[f64],
    noisy: &[(f64, f64)],
    normal: Option<&[bool]>,
    duration_s: f64,
) -> Trend {
    let (rr, nn) = intervals(beats, noisy, normal);
    let minutes = minute_rates(&rr);
    let heart_rate = slowest_fastest(&minutes)
        .zip(mean_bpm(&rr))
        .map(|((min, max), mean)| HeartRate {
            min_bpm: min.1,
            min_at_s: min.0,
            mean_bpm: mean,
            max_bpm: max.1,
            max_at_s: max.0,
        });
    let hours = ((duration_s / HOUR_S).ceil() as usize).max(1);
    let hourly = (0..hours)
        .map(|h| {
            let start_s = h as f64 * HOUR_S;
            let end_s = (start_s + HOUR_S).min(duration_s).max(start_s);
            let within = |t: f64| t >= start_s && t < end_s;
            let rr_in: Vec<Interval> = rr.iter().copied().filter(|r| within(r.t_s)).collect();
            let min_in: Vec<(f64, f64)> = minutes.iter().copied().filter(|m| within(m.0)).collect();
            let extremes = slowest_fastest(&min_in);
            Hour {
                start_s,
                end_s,
                beats: beats
                    .iter()
                    .filter(|&&t| within(t) && !in_spans(t, noisy))
                    .count(),
                mean_bpm: mean_bpm(&rr_in),
                min_bpm: extremes.map(|e| e.0 .1),
                max_bpm: extremes.map(|e| e.1 .1),
                analysed_s: (end_s - start_s - overlap(start_s, end_s, noisy)).max(0.0),
            }
        })
        .collect();
    Trend {
        heart_rate,
        hourly,
        hrv: hrv(&nn),
        minutes,
    }
}

/// [`summarise`] of a reading: its beats, its noisy episodes and its length.
pub fn of_reading(r: &Reading, normal: Option<&[bool]>) -> Trend {
    let noisy = super::episodes::spans(&r.episodes, Kind::Noisy);
    summarise(&r.beats, &noisy, normal, r.duration_s)
}

fn round(v: f64, decimals: i32) -> Value {
    let k = 10f64.powi(decimals);
    num((v * k).round() / k)
}

fn opt(v: Option<f64>, decimals: i32) -> Value {
    v.map_or(Value::Null, |v| round(v, decimals))
}

impl Trend {
    /// The result's detail keys `heart_rate_summary`, `hourly` and `hrv` (`null` when there is
    /// nothing usable; all three `null` when `usable` is false, a record with no analysed window).
    pub fn details(&self, usable: bool) -> Map<String, Value> {
        let heart_rate = self.heart_rate.filter(|_| usable).map_or(Value::Null, |h| {
            json!({
                "min_bpm": round(h.min_bpm, 1),
                "min_at_s": round(h.min_at_s, 1),
                "mean_bpm": round(h.mean_bpm, 1),
                "max_bpm": round(h.max_bpm, 1),
                "max_at_s": round(h.max_at_s, 1),
            })
        });
        let hourly = if usable && self.heart_rate.is_some() {
            Value::Array(
                self.hourly
                    .iter()
                    .map(|h| {
                        json!({
                            "start_s": round(h.start_s, 1),
                            "end_s": round(h.end_s, 1),
                            "beats": h.beats,
                            "mean_bpm": opt(h.mean_bpm, 1),
                            "min_bpm": opt(h.min_bpm, 1),
                            "max_bpm": opt(h.max_bpm, 1),
                            "analysed_s": round(h.analysed_s, 1),
                        })
                    })
                    .collect(),
            )
        } else {
            Value::Null
        };
        let hrv = self.hrv.filter(|_| usable).map_or(Value::Null, |v| {
            json!({
                "sdnn_ms": round(v.sdnn_ms, 1),
                "sdann_ms": opt(v.sdann_ms, 1),
                "sdnn_index_ms": opt(v.sdnn_index_ms, 1),
                "rmssd_ms": round(v.rmssd_ms, 1),
                "pnn50_percent": round(v.pnn50_percent, 1),
                "segments": v.segments,
            })
        });
        let mut out = Map::new();
        out.insert("heart_rate_summary".into(), heart_rate);
        out.insert("hourly".into(), hourly);
        out.insert("hrv".into(), hrv);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Beat times from 0 s with these intervals repeated until `duration_s`.
    fn train(pattern: &[f64], duration_s: f64) -> Vec<f64> {
        let mut beats = vec![0.0];
        let mut i = 0;
        loop {
            let next = beats[beats.len() - 1] + pattern[i % pattern.len()];
            if next >= duration_s {
                return beats;
            }
            beats.push(next);
            i += 1;
        }
    }

    fn close(a: f64, b: f64) {
        assert!((a - b).abs() < 1e-6, "{a} != {b}");
    }

    #[test]
    fn regular_beats_every_0_8_s_are_75_bpm_with_no_variability() {
        let beats = train(&[0.8], 1800.0);

        let t = summarise(&beats, &[], None, 1800.0);

        let hr = t.heart_rate.unwrap();
        close(hr.min_bpm, 75.0);
        close(hr.mean_bpm, 75.0);
        close(hr.max_bpm, 75.0);
        assert_eq!((hr.min_at_s, hr.max_at_s), (0.0, 0.0));
        let hrv = t.hrv.unwrap();
        close(hrv.sdnn_ms, 0.0);
        close(hrv.rmssd_ms, 0.0);
        close(hrv.pnn50_percent, 0.0);
        close(hrv.sdann_ms.unwrap(), 0.0);
        close(hrv.sdnn_index_ms.unwrap(), 0.0);
        assert_eq!(hrv.segments, 6);
        assert_eq!(t.hourly.len(), 1);
        assert_eq!(t.hourly[0].beats, beats.len());
        assert_eq!((t.hourly[0].start_s, t.hourly[0].end_s), (0.0, 1800.0));
        close(t.hourly[0].analysed_s, 1800.0);
        assert_eq!(t.minutes.len(), 30);
    }

    #[test]
    fn alternating_0_8_and_0_9_s_give_an_rmssd_of_100_ms() {
        // 10 min of 0.8, 0.9, 0.8, ...: every successive difference is 100 ms.
        let beats = train(&[0.8, 0.9], 600.0);
        let n = (beats.len() - 1) as f64;

        let hrv = summarise(&beats, &[], None, 600.0).hrv.unwrap();

        close(hrv.rmssd_ms, 100.0);
        close(hrv.pnn50_percent, 100.0 * (n - 1.0) / n);
        // Half the intervals 50 ms below the mean, half above (sample SD).
        let even = n - n % 2.0;
        let expected = if n % 2.0 == 0.0 {
            50.0 * (n / (n - 1.0)).sqrt()
        } else {
            let mean = (0.8 * (even / 2.0 + 1.0) + 0.9 * even / 2.0) / n * 1000.0;
            let ss =
                (even / 2.0 + 1.0) * (800.0 - mean).powi(2) + even / 2.0 * (900.0 - mean).powi(2);
            (ss / (n - 1.0)).sqrt()
        };
        close(hrv.sdnn_ms, expected);
        assert_eq!(hrv.segments, 2);
    }

    #[test]
    fn the_slowest_and_fastest_minutes_are_found_with_their_times() {
        // Minutes 0-1 at 60 bpm, minute 2 at 120 bpm, minutes 3-4 at 75 bpm.
        let mut beats: Vec<f64> = (0..120).map(f64::from).collect();
        beats.extend((0..120).map(|i| 120.0 + f64::from(i) * 0.5));
        beats.extend((0..150).map(|i| 180.0 + f64::from(i) * 0.8));

        let t = summarise(&beats, &[], None, 300.0);

        let hr = t.heart_rate.unwrap();
        close(hr.min_bpm, 60.0);
        assert_eq!(hr.min_at_s, 0.0);
        close(hr.max_bpm, 120.0);
        assert_eq!(hr.max_at_s, 120.0);
        // 389 intervals over 299.2 s (the rate counts every plausible interval, NN or not).
        close(hr.mean_bpm, 60.0 * 389.0 / 299.2);
        assert_eq!(t.hourly[0].min_bpm, Some(hr.min_bpm));
        assert_eq!(t.hourly[0].max_bpm, Some(hr.max_bpm));
    }

    #[test]
    fn noisy_spans_artefacts_and_ectopic_beats_are_left_out() {
        // Regular 1 s beats for 10 min with a premature beat at 100.6 s (0.6 then 0.4 s), a
        // missed beat at 200 s (a 2 s interval) and minute 5-6 too noisy.
        let mut beats: Vec<f64> = (0..600).map(f64::from).filter(|&t| t != 200.0).collect();
        beats.push(100.6);
        beats.sort_by(f64::total_cmp);
        let noisy = [(300.0, 360.0)];

        let t = summarise(&beats, &noisy, None, 600.0);

        // No interval changed by more than 20 % is an NN interval: every one left is 1 s.
        let hrv = t.hrv.unwrap();
        close(hrv.sdnn_ms, 0.0);
        close(hrv.rmssd_ms, 0.0);
        // The minutes' medians are 60 bpm; the noisy minute has no rate.
        assert_eq!(t.minutes.len(), 9);
        assert!(t.minutes.iter().all(|m| (m.1 - 60.0).abs() < 1e-9));
        assert_eq!(t.hourly[0].analysed_s, 540.0);
        assert_eq!(t.hourly[0].beats, beats.len() - 60);

        // With a mask marking the premature beat, its intervals are not NN either way.
        let mut normal = vec![true; beats.len()];
        let premature = beats.iter().position(|&b| b == 100.6).unwrap();
        normal[premature] = false;
        let masked = summarise(&beats, &noisy, Some(&normal), 600.0);
        assert_eq!(masked.hrv, t.hrv);
    }

    #[test]
    fn sdann_needs_two_segments_and_nothing_usable_is_null() {
        let beats = train(&[0.8], 400.0);

        let t = summarise(&beats, &[], None, 400.0);
        let d = t.details(true);

        // 0-300 s counts; 300-400 s is under half a segment.
        assert_eq!(d["hrv"]["segments"], 1);
        assert_eq!(d["hrv"]["sdann_ms"], Value::Null);
        assert_eq!(d["hrv"]["sdnn_index_ms"], 0.0);
        assert_eq!(d["heart_rate_summary"]["mean_bpm"], 75.0);
        assert_eq!(d["hourly"][0]["end_s"], 400.0);
        let none = summarise(&[], &[], None, 400.0).details(true);
        for key in ["heart_rate_summary", "hourly", "hrv"] {
            assert_eq!(none[key], Value::Null, "{key}");
            assert_eq!(t.details(false)[key], Value::Null, "{key}");
        }
    }
}
