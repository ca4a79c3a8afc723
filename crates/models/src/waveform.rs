//! What the waveform viewers draw: a time window of a stored recording's channels at a display
//! rate, in display units (ECG in millivolts for 10 mm/mV paper), and the beats the signal pipeline
//! found in the whole recording (R peaks, PPG systolic peaks, PCG S1 and S2).
//!
//! The viewers draw only the visible window, so a 30-minute Holter is asked for a few seconds at a
//! time; the marks of the whole recording are returned with each window (a few thousand numbers at
//! most) so the viewer can place them without a second call.

use cardio_formats::Recording;
use cardio_signal::{ecg, pcg, ppg, SamplingRate};
use serde::Serialize;

use crate::{
    analysis::{AnalysisError, Kind},
    pcg_model::features::{prepare_channel, ANALYSIS_HZ},
};

/// Highest rate returned per kind: enough for the paper speed or the sound's band, no more.
fn display_rate_cap(kind: Kind) -> f64 {
    match kind {
        Kind::Ecg => 500.0,
        Kind::Ppg => 250.0,
        Kind::Pcg => 2000.0,
    }
}

/// Longest window one call returns, seconds.
pub const MAX_WINDOW_S: f64 = 60.0;
/// Shortest window, seconds.
pub const MIN_WINDOW_S: f64 = 0.5;
/// Most channels returned (a 12-lead record plus a few extra leads).
pub const MAX_CHANNELS: usize = 16;

/// One channel of the window.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WaveformChannel {
    /// The file's label.
    pub name: String,
    /// Unit of `samples` ("mV" for ECG whose unit was known or assumed).
    pub unit: String,
    /// Samples at the window's rate; `None` where the file marks a sample invalid.
    pub samples: Vec<Option<f32>>,
}

/// A window of a recording, with the whole recording's marks.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Waveform {
    /// What the recording holds.
    pub kind: Kind,
    /// Rate of the returned samples, hertz.
    pub sampling_rate_hz: f64,
    /// The file's own rate, hertz.
    pub source_rate_hz: f64,
    /// Length of the whole recording, seconds.
    pub duration_s: f64,
    /// Start of the window, seconds.
    pub start_s: f64,
    /// End of the window (at most `duration_s`), seconds.
    pub end_s: f64,
    /// The channels, in file order (at most [`MAX_CHANNELS`]).
    pub channels: Vec<WaveformChannel>,
    /// Index in `channels` of the one the model analysed and the marks belong to.
    pub analysed_channel: usize,
    /// Beat times of the whole recording, seconds: R peaks (ECG), systolic peaks (PPG), S1 (PCG).
    pub beats_s: Vec<f64>,
    /// PCG: S1 times, seconds (empty otherwise).
    pub s1_s: Vec<f64>,
    /// PCG: S2 times, seconds (empty otherwise).
    pub s2_s: Vec<f64>,
    /// Why no marks could be found, when none were.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub marks_note: Option<String>,
}

/// Multiplier that turns an ECG channel's unit into millivolts; an empty unit is taken as mV
/// (what WFDB and most CSV exports use), an unknown one is left alone.
fn to_millivolts(unit: &str) -> Option<f64> {
    match unit.trim().to_ascii_lowercase().as_str() {
        "" | "mv" => Some(1.0),
        "uv" | "µv" | "μv" => Some(1e-3),
        "nv" => Some(1e-6),
        "v" => Some(1e3),
        _ => None,
    }
}

/// Averages blocks of `factor` samples (a boxcar low-pass before decimation, enough for display:
/// the viewers draw min/max per pixel column anyway). NaN inside a block makes it `None`.
fn decimate(x: &[f64], factor: usize, scale: f64) -> Vec<Option<f32>> {
    x.chunks(factor.max(1))
        .map(|block| {
            let sum: f64 = block.iter().sum();
            let mean = sum / block.len() as f64 * scale;
            #[allow(clippy::cast_possible_truncation)] // display precision
            mean.is_finite().then_some(mean as f32)
        })
        .collect()
}

/// Beat times of a whole recording, seconds: computed once per recording by [`marks`] and reused
/// for every window of it ([`window_with_marks`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Marks {
    /// R peaks, pulse peaks, or S1.
    pub beats: Vec<f64>,
    /// PCG S1 times.
    pub s1: Vec<f64>,
    /// PCG S2 times.
    pub s2: Vec<f64>,
}

/// The channel a viewer of `rec` marks: `analysed_channel` when it exists, else the first.
pub fn marked_channel(rec: &Recording, analysed_channel: Option<usize>) -> usize {
    analysed_channel
        .filter(|&i| i < rec.channels.len().min(MAX_CHANNELS))
        .unwrap_or(0)
}

/// Marks of the whole recording on `channel` (see [`marked_channel`]), or why there are none.
///
/// # Errors
/// Why no marks could be found, in words (a recording too short or too poor, a bad rate).
pub fn marks(rec: &Recording, kind: Kind, channel: usize) -> Result<Marks, String> {
    if channel >= rec.channels.len() {
        return Err("the recording has no such channel".into());
    }
    let fs = rec.sampling_rate_hz;
    match kind {
        Kind::Pcg => {
            // The PCG model's own preparation: the first 60 s at 1 kHz, scaled to unit peak.
            let x =
                prepare_channel(&rec.channels[channel].samples, fs).map_err(|e| e.to_string())?;
            let rate = SamplingRate::new(ANALYSIS_HZ).map_err(|e| e.to_string())?;
            let seg = pcg::segment(&x, rate).map_err(|e| e.to_string())?;
            // Marks only where the segmentation passed its own check: no S1/S2 guessed in noise.
            if !seg.quality.usable {
                return Err(format!("S1 and S2 are not marked: {}", seg.quality.reason));
            }
            Ok(Marks {
                beats: seg.s1_s.clone(),
                s1: seg.s1_s,
                s2: seg.s2_s,
            })
        }
        // Only the beats: the viewers need no delineation, quality or HRV, which on a 30-minute
        // Holter cost more than the detection itself.
        Kind::Ecg => {
            let rate = SamplingRate::new(fs).map_err(|e| e.to_string())?;
            let detector = ecg::QrsDetector::new(rate).map_err(|e| e.to_string())?;
            let beats = in_chunks(&rec.channels[channel].samples, fs, |x| {
                let cleaned =
                    ecg::clean(x, rate, ecg::Powerline::Hz50).map_err(|e| e.to_string())?;
                let peaks = detector.detect(&cleaned).map_err(|e| e.to_string())?;
                #[allow(clippy::cast_precision_loss)]
                Ok(peaks.iter().map(|&i| i as f64 / fs).collect())
            })?;
            Ok(Marks {
                beats,
                s1: Vec::new(),
                s2: Vec::new(),
            })
        }
        Kind::Ppg => {
            let rate = SamplingRate::new(fs).map_err(|e| e.to_string())?;
            let beats = in_chunks(&rec.channels[channel].samples, fs, |x| {
                ppg::analyze(x, rate)
                    .map(|found| found.peak_times_s)
                    .map_err(|e| e.to_string())
            })?;
            Ok(Marks {
                beats,
                s1: Vec::new(),
                s2: Vec::new(),
            })
        }
    }
}

/// Length of the pieces a long recording's beats are found in, seconds: the filters and detectors
/// then work on buffers of a few hundred thousand samples whatever the recording's length (a
/// 14-hour recording at 500 Hz took over a gigabyte of buffers in one piece).
pub const MARK_CHUNK_S: f64 = 600.0;
/// How far each piece reaches into its neighbours, seconds, so that filters settle and a beat on a
/// boundary is found; each piece keeps only the beats of its own span.
pub const MARK_OVERLAP_S: f64 = 10.0;

/// Beat times of `x` (seconds), found by `detect` (times relative to the slice it is given) on
/// pieces of [`MARK_CHUNK_S`] with [`MARK_OVERLAP_S`] on each side. A piece where nothing can be
/// found (too noisy) is skipped; when no piece gives beats, the first piece's reason is the error.
fn in_chunks(
    x: &[f64],
    fs: f64,
    detect: impl Fn(&[f64]) -> Result<Vec<f64>, String>,
) -> Result<Vec<f64>, String> {
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let (chunk, overlap) = (
        (MARK_CHUNK_S * fs).ceil() as usize,
        (MARK_OVERLAP_S * fs).ceil() as usize,
    );
    if x.len() <= chunk + 2 * overlap {
        return detect(x);
    }
    let mut beats = Vec::new();
    let mut first_error = None;
    let mut start = 0;
    while start < x.len() {
        let end = (start + chunk).min(x.len());
        let (from, to) = (start.saturating_sub(overlap), (end + overlap).min(x.len()));
        #[allow(clippy::cast_precision_loss)]
        let (offset, lo, hi) = (from as f64 / fs, start as f64 / fs, end as f64 / fs);
        match detect(&x[from..to]) {
            Ok(times) => beats.extend(
                times
                    .into_iter()
                    .map(|t| t + offset)
                    .filter(|t| *t >= lo && *t < hi),
            ),
            Err(reason) => {
                first_error.get_or_insert(reason);
            }
        }
        start = end;
    }
    match first_error {
        Some(reason) if beats.is_empty() => Err(reason),
        _ => Ok(beats),
    }
}

/// The window `[start_s, start_s + window_s)` of `rec` for a viewer of `kind`, with the marks found
/// on `analysed_channel` (the model's channel; the first when `None` or out of range).
///
/// # Errors
/// [`AnalysisError::NoChannels`] for a recording without channels; a signal error for an invalid
/// sampling rate. A recording too short or too poor for marks still gives its samples, with the
/// reason in `marks_note`.
pub fn window(
    rec: &Recording,
    kind: Kind,
    analysed_channel: Option<usize>,
    start_s: f64,
    window_s: f64,
) -> Result<Waveform, AnalysisError> {
    if rec.channels.is_empty() {
        return Err(AnalysisError::NoChannels);
    }
    let channel = marked_channel(rec, analysed_channel);
    let found = marks(rec, kind, channel);
    window_with_marks(rec, kind, channel, &found, start_s, window_s)
}

/// [`window`] with marks already found by [`marks`] on `channel` (a viewer paging through one
/// recording computes them once).
///
/// # Errors
/// As [`window`].
pub fn window_with_marks(
    rec: &Recording,
    kind: Kind,
    channel: usize,
    found: &Result<Marks, String>,
    start_s: f64,
    window_s: f64,
) -> Result<Waveform, AnalysisError> {
    if rec.channels.is_empty() {
        return Err(AnalysisError::NoChannels);
    }
    let fs = SamplingRate::new(rec.sampling_rate_hz)?.hz();
    let duration_s = rec.duration_seconds();
    let window_s = if window_s.is_finite() {
        window_s.clamp(MIN_WINDOW_S, MAX_WINDOW_S)
    } else {
        MAX_WINDOW_S
    };
    let start_s = if start_s.is_finite() {
        start_s.clamp(0.0, duration_s)
    } else {
        0.0
    };
    let end_s = (start_s + window_s).min(duration_s);
    #[allow(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        clippy::cast_precision_loss
    )]
    let factor = (fs / display_rate_cap(kind)).ceil().max(1.0) as usize;
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let (first, last) = {
        // Aligned to whole blocks so that consecutive windows join without a seam.
        let first = ((start_s * fs) as usize / factor) * factor;
        (first, (end_s * fs).ceil() as usize)
    };
    let channels = rec
        .channels
        .iter()
        .take(MAX_CHANNELS)
        .map(|c| {
            let (scale, unit) = match (kind, to_millivolts(&c.unit)) {
                (Kind::Ecg, Some(scale)) => (scale, "mV".to_owned()),
                _ => (1.0, c.unit.trim().to_owned()),
            };
            let from = first.min(c.samples.len());
            let to = last.clamp(from, c.samples.len());
            WaveformChannel {
                name: c.name.trim().to_owned(),
                unit,
                samples: decimate(&c.samples[from..to], factor, scale),
            }
        })
        .collect::<Vec<_>>();
    let analysed = channel.min(channels.len().saturating_sub(1));
    let (beats_s, s1_s, s2_s, marks_note) = match found {
        Ok(Marks { beats, s1, s2 }) => (beats.clone(), s1.clone(), s2.clone(), None),
        Err(reason) => (Vec::new(), Vec::new(), Vec::new(), Some(reason.clone())),
    };
    #[allow(clippy::cast_precision_loss)]
    Ok(Waveform {
        kind,
        sampling_rate_hz: fs / factor as f64,
        source_rate_hz: fs,
        duration_s,
        start_s: first as f64 / fs,
        end_s,
        channels,
        analysed_channel: analysed,
        beats_s,
        s1_s,
        s2_s,
        marks_note,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use cardio_formats::Channel;
    use std::collections::BTreeMap;

    fn recording(channels: Vec<(&str, &str, Vec<f64>)>, fs: f64) -> Recording {
        Recording {
            channels: channels
                .into_iter()
                .map(|(name, unit, samples)| Channel {
                    name: name.into(),
                    unit: unit.into(),
                    samples,
                })
                .collect(),
            sampling_rate_hz: fs,
            start: None,
            metadata: BTreeMap::new(),
            device_interpretation: None,
        }
    }

    /// Gaussian R waves of `amplitude` every `period_s`.
    fn spikes(fs: f64, seconds: f64, period_s: f64, amplitude: f64) -> Vec<f64> {
        (0..(fs * seconds) as usize)
            .map(|i| {
                let d = (i as f64 / fs) % period_s - period_s / 2.0;
                amplitude * (-(d * d) / 2e-4).exp()
            })
            .collect()
    }

    #[test]
    fn an_ecg_window_is_in_millivolts_at_most_500_hz_with_every_r_peak() {
        let rec = recording(
            vec![
                ("I", "uV", spikes(1000.0, 29.8, 0.8, 1500.0)),
                ("II", "uV", spikes(1000.0, 29.8, 0.8, 1000.0)),
            ],
            1000.0,
        );
        let w = window(&rec, Kind::Ecg, Some(1), 10.0, 5.0).unwrap();
        assert_eq!(w.sampling_rate_hz, 500.0);
        assert_eq!((w.start_s, w.end_s), (10.0, 15.0));
        assert!((w.duration_s - 29.8).abs() < 1e-9);
        assert_eq!(w.channels.len(), 2);
        assert_eq!(w.channels[1].unit, "mV");
        assert_eq!(w.channels[1].samples.len(), 2500);
        let peak = w.channels[1]
            .samples
            .iter()
            .map(|v| v.unwrap())
            .fold(f32::MIN, f32::max);
        assert!((peak - 1.0).abs() < 0.02, "peak {peak} mV");
        // R peaks at 0.4 s + k * 0.8 s over the whole recording, not only the window.
        assert_eq!(w.beats_s.len(), 37, "{:?}", w.beats_s);
        assert!(
            w.beats_s.iter().all(|t| {
                let k = ((t - 0.4) / 0.8).round();
                (t - 0.4 - k * 0.8).abs() < 0.02
            }),
            "{:?}",
            w.beats_s
        );
        assert_eq!(w.analysed_channel, 1);
        assert!(w.marks_note.is_none());
    }

    #[test]
    fn the_window_is_clamped_to_the_recording_and_invalid_samples_are_gaps() {
        let mut x = spikes(250.0, 12.0, 1.0, 1.0);
        x[10] = f64::NAN;
        let rec = recording(vec![("PLETH", "", x)], 250.0);
        let w = window(&rec, Kind::Ppg, None, -3.0, 1000.0).unwrap();
        assert_eq!((w.start_s, w.end_s), (0.0, 12.0));
        assert_eq!(w.sampling_rate_hz, 250.0);
        assert_eq!(w.channels[0].samples.len(), 3000);
        assert_eq!(w.channels[0].samples[10], None);
        let late = window(&rec, Kind::Ppg, None, 50.0, 5.0).unwrap();
        assert!(late.channels[0].samples.is_empty());
        assert_eq!((late.start_s, late.end_s), (12.0, 12.0));
    }

    #[test]
    fn a_recording_too_short_for_marks_still_shows_its_samples() {
        let rec = recording(vec![("mono", "", spikes(4000.0, 1.5, 0.8, 0.5))], 4000.0);
        let w = window(&rec, Kind::Pcg, None, 0.0, 10.0).unwrap();
        assert_eq!(w.sampling_rate_hz, 2000.0);
        assert_eq!(w.channels[0].samples.len(), 3000);
        assert!(w.beats_s.is_empty());
        assert_eq!(
            w.marks_note.as_deref(),
            Some("Recording too short: 1.5 s; at least 2 s is needed.")
        );
    }

    #[test]
    fn a_long_recording_is_marked_in_pieces_with_every_beat_once() {
        // 25 minutes at 250 Hz: three pieces, with beats right on the piece boundaries.
        let fs = 250.0;
        let rec = recording(vec![("II", "mV", spikes(fs, 1500.0, 1.0, 1.0))], fs);
        let whole = window(&rec, Kind::Ecg, None, 0.0, 10.0).unwrap();
        assert!(whole.marks_note.is_none(), "{:?}", whole.marks_note);
        let beats = &whole.beats_s;
        assert!(
            (1495..=1500).contains(&beats.len()),
            "one beat a second: {}",
            beats.len()
        );
        assert!(beats.windows(2).all(|w| w[1] - w[0] > 0.5), "no beat twice");
        for boundary in [600.0, 1200.0] {
            assert!(
                beats.iter().any(|t| (t - boundary).abs() < 0.6),
                "a beat near {boundary} s"
            );
        }
    }

    #[test]
    fn pieces_cover_the_recording_and_keep_only_their_own_span() {
        let fs = 10.0;
        let x = vec![0.0; 20_000]; // 2000 s
        let seen = std::cell::RefCell::new(Vec::new());
        // Reports one "beat" at every whole second of the slice it is given.
        #[allow(clippy::cast_precision_loss)]
        let beats = in_chunks(&x, fs, |slice| {
            seen.borrow_mut().push(slice.len());
            Ok((0..slice.len() / 10).map(|s| s as f64).collect())
        })
        .unwrap();
        assert_eq!(beats.len(), 2000);
        assert!(beats.windows(2).all(|w| (w[1] - w[0] - 1.0).abs() < 1e-9));
        assert!(
            seen.borrow().iter().all(|&n| n <= 6200),
            "{:?}",
            seen.borrow()
        );
        let failing = in_chunks(&x, fs, |_| Err("too noisy".into()));
        assert_eq!(failing.unwrap_err(), "too noisy");
    }

    #[test]
    fn a_recording_without_channels_is_refused() {
        let rec = recording(vec![], 250.0);
        assert!(matches!(
            window(&rec, Kind::Ecg, None, 0.0, 10.0),
            Err(AnalysisError::NoChannels)
        ));
    }
}
