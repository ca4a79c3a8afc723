//! The heart-sound network's input: a log-mel spectrogram of the recording at 1 kHz, normalised per
//! recording so that what a stethoscope, a room or a gain adds to every beat is taken away.
//!
//! - Frames of [`FRAME`] samples (128 ms, Hann window) every [`HOP`] samples (40 per second), the
//!   power spectrum pooled into [`BANDS`] triangular mel bands from [`LOW_HZ`] to [`HIGH_HZ`] (the
//!   HTK mel scale), its natural log relative to the recording's mean band power, with a floor 60 dB
//!   under it ([`log_mel`]; what the training reads, so that it can add noise in the power domain).
//! - Normalisation ([`normalise`]): each band's mean over the recording is subtracted (cepstral mean normalisation,
//!   in the band domain: a fixed frequency response of the device or the chest is a constant per
//!   band in the log domain and so disappears; Furui, "Cepstral analysis technique for automatic
//!   speaker verification", *IEEE Trans. ASSP* 29(2), 1981), then everything is divided by the
//!   recording's standard deviation and clipped to ±[`CLIP`].
//!
//! The mel representation follows the log-mel inputs of the PhysioNet/CinC 2016 networks (e.g.
//! Rubin et al., "Recognizing abnormal heart sounds using deep learning", KHD@IJCAI 2017).

use std::sync::Arc;

use rustfft::{num_complex::Complex, Fft, FftPlanner};

/// Samples per frame at 1 kHz.
pub const FRAME: usize = 128;
/// Samples between frames (40 frames per second).
pub const HOP: usize = 25;
/// Frames per second.
pub const FRAMES_PER_SECOND: f64 = 1000.0 / HOP as f64;
/// Mel bands (the network's input channels).
pub const BANDS: usize = 20;
/// Lower edge of the first band, hertz.
pub const LOW_HZ: f64 = 20.0;
/// Upper edge of the last band, hertz.
pub const HIGH_HZ: f64 = 450.0;
/// Normalised values are clipped to this many standard deviations.
pub const CLIP: f32 = 8.0;
/// Fewest frames for a spectrogram (2 s).
pub const MIN_FRAMES: usize = 80;

/// A normalised log-mel spectrogram: [`BANDS`] rows of `frames` values.
#[derive(Debug, Clone, PartialEq)]
pub struct Spectrogram {
    /// Frames (columns).
    pub frames: usize,
    /// `[band][frame]`.
    pub values: Vec<f32>,
}

fn mel(hz: f64) -> f64 {
    2595.0 * (1.0 + hz / 700.0).log10()
}

/// Triangular filters equally spaced on the HTK mel scale from `low_hz` to `high_hz`, `[band][bin]`
/// over the `frame / 2 + 1` bins of a `frame`-sample FFT at `rate_hz` (Davis S, Mermelstein P,
/// "Comparison of parametric representations for monosyllabic word recognition in continuously
/// spoken sentences", *IEEE Trans. ASSP* 28(4), 1980). Shared with the trees' cepstra.
pub(crate) fn mel_filters(
    bands: usize,
    low_hz: f64,
    high_hz: f64,
    frame: usize,
    rate_hz: f64,
) -> Vec<Vec<f64>> {
    let bin_hz = rate_hz / frame as f64;
    let (lo, hi) = (mel(low_hz), mel(high_hz));
    let edges: Vec<f64> = (0..bands + 2)
        .map(|k| {
            let m = lo + (hi - lo) * k as f64 / (bands + 1) as f64;
            700.0 * (10f64.powf(m / 2595.0) - 1.0)
        })
        .collect();
    (0..bands)
        .map(|b| {
            let (left, centre, right) = (edges[b], edges[b + 1], edges[b + 2]);
            (0..=frame / 2)
                .map(|k| {
                    let f = k as f64 * bin_hz;
                    if f <= left || f >= right {
                        0.0
                    } else if f <= centre {
                        (f - left) / (centre - left)
                    } else {
                        (right - f) / (right - centre)
                    }
                })
                .collect()
        })
        .collect()
}

/// The network's filters, `[band][bin]` over the `FRAME / 2 + 1` bins of a 1 kHz frame.
fn filterbank() -> Vec<Vec<f64>> {
    mel_filters(BANDS, LOW_HZ, HIGH_HZ, FRAME, 1000.0)
}

/// A log-mel spectrogram before normalisation: the natural log of each band's power, relative to
/// the recording's mean band power (so 0 is the mean, the floor is at about -13.8).
#[derive(Debug, Clone, PartialEq)]
pub struct LogMel {
    /// Frames (columns).
    pub frames: usize,
    /// `[band][frame]`.
    pub values: Vec<f64>,
}

/// The log-mel spectrogram of `x` (1 kHz samples); `None` for fewer than [`MIN_FRAMES`] frames or
/// a silent or non-finite recording.
pub fn log_mel(x: &[f64]) -> Option<LogMel> {
    if x.len() < FRAME || x.iter().any(|v| !v.is_finite()) {
        return None;
    }
    let frames = (x.len() - FRAME) / HOP + 1;
    if frames < MIN_FRAMES {
        return None;
    }
    let fft: Arc<dyn Fft<f64>> = FftPlanner::new().plan_fft_forward(FRAME);
    let window: Vec<f64> = (0..FRAME)
        .map(|i| 0.5 - 0.5 * (2.0 * std::f64::consts::PI * i as f64 / FRAME as f64).cos())
        .collect();
    let bank = filterbank();
    let mut power = vec![0.0f64; BANDS * frames];
    let mut buf = vec![Complex::new(0.0, 0.0); FRAME];
    for t in 0..frames {
        let seg = &x[t * HOP..t * HOP + FRAME];
        let mean = seg.iter().sum::<f64>() / FRAME as f64;
        for ((b, &v), w) in buf.iter_mut().zip(seg).zip(&window) {
            *b = Complex::new((v - mean) * w, 0.0);
        }
        fft.process(&mut buf);
        for (band, filter) in bank.iter().enumerate() {
            power[band * frames + t] = filter.iter().zip(&buf).map(|(w, c)| w * c.norm_sqr()).sum();
        }
    }
    let mean_power = power.iter().sum::<f64>() / power.len() as f64;
    if !(mean_power > 0.0 && mean_power.is_finite()) {
        return None;
    }
    let values = power
        .iter()
        .map(|p| (p / mean_power + FLOOR).ln())
        .collect();
    Some(LogMel { frames, values })
}

/// The power floor, relative to the recording's mean band power (60 dB under it).
pub const FLOOR: f64 = 1e-6;

/// `spec` normalised: each band's mean subtracted, divided by the standard deviation of the whole,
/// clipped to ±[`CLIP`]; `None` when it is constant.
pub fn normalise(spec: &LogMel) -> Option<Spectrogram> {
    let frames = spec.frames;
    let mut logs = spec.values.clone();
    for row in logs.chunks_exact_mut(frames) {
        let m = row.iter().sum::<f64>() / frames as f64;
        for v in row.iter_mut() {
            *v -= m;
        }
    }
    let sd = (logs.iter().map(|v| v * v).sum::<f64>() / logs.len() as f64).sqrt();
    if sd <= 1e-9 {
        return None;
    }
    #[allow(clippy::cast_possible_truncation)]
    let values = logs
        .iter()
        .map(|v| ((v / sd) as f32).clamp(-CLIP, CLIP))
        .collect();
    Some(Spectrogram { frames, values })
}

/// The normalised spectrogram of `x` (1 kHz samples), the network's input: [`log_mel`], then
/// [`normalise`].
pub fn spectrogram(x: &[f64]) -> Option<Spectrogram> {
    log_mel(x).as_ref().and_then(normalise)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tone(f: f64, seconds: f64, gain: f64) -> Vec<f64> {
        (0..(seconds * 1000.0) as usize)
            .map(|i| {
                let t = i as f64 / 1000.0;
                // A 1.25 Hz on/off pattern so that every band varies over time.
                let on = if (t * 1.25).fract() < 0.2 { 1.0 } else { 0.05 };
                gain * on * (2.0 * std::f64::consts::PI * f * t).sin()
            })
            .collect()
    }

    #[test]
    fn frames_bands_and_the_peak_band_follow_the_tone() {
        let s = spectrogram(&tone(100.0, 10.0, 1.0)).unwrap();
        assert_eq!(s.frames, (10_000 - FRAME) / HOP + 1);
        assert_eq!(s.values.len(), BANDS * s.frames);
        // Normalised: each band's mean is zero (before clipping), the values are clipped.
        for row in s.values.chunks_exact(s.frames) {
            let m = row.iter().map(|&v| f64::from(v)).sum::<f64>() / s.frames as f64;
            assert!(m.abs() < 0.05, "{m}");
        }
        assert!(s.values.iter().all(|v| v.abs() <= CLIP));
        // The filters' centres rise with the band index; 100 Hz falls in one of the low bands.
        let bank = filterbank();
        let peak = bank
            .iter()
            .map(|f| f[(100.0 / (1000.0 / FRAME as f64)) as usize + 1])
            .enumerate()
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .unwrap()
            .0;
        assert!((2..8).contains(&peak), "{peak}");
    }

    #[test]
    fn a_gain_changes_nothing_and_short_or_silent_input_is_refused() {
        let a = spectrogram(&tone(150.0, 6.0, 1.0)).unwrap();
        let b = spectrogram(&tone(150.0, 6.0, 37.0)).unwrap();
        for (x, y) in a.values.iter().zip(&b.values) {
            assert!((x - y).abs() < 1e-3, "{x} {y}");
        }
        assert!(spectrogram(&tone(150.0, 1.5, 1.0)).is_none());
        assert!(spectrogram(&vec![0.0; 5000]).is_none());
        let mut nan = tone(150.0, 6.0, 1.0);
        nan[10] = f64::NAN;
        assert!(spectrogram(&nan).is_none());
    }
}
