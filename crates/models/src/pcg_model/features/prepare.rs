//! Preparation of a heart-sound recording for its features: the channel to analyse, resampling to
//! [`super::ANALYSIS_HZ`], cropping to [`super::MAX_SECONDS`], and the reasons a recording cannot be
//! analysed.

use cardio_signal::resample::Resampler;
use cardio_signal::{pcg, SamplingRate};

use super::{
    PrepareError, ANALYSIS_HZ, MAX_CHANNELS_TRIED, MAX_SECONDS, MIN_INPUT_HZ, MIN_SECONDS,
};

/// A recording prepared for analysis: one channel at [`ANALYSIS_HZ`], at most [`MAX_SECONDS`] long.
#[derive(Debug, Clone, PartialEq)]
pub struct Prepared {
    /// The samples at 1 kHz.
    pub x: Vec<f64>,
    /// Original length, seconds.
    pub duration_s: f64,
    /// Input rate, hertz.
    pub sampling_rate_hz: f64,
    /// Which channel.
    pub channel_index: usize,
    /// Its name.
    pub channel_name: String,
}

/// A resampler to 1 kHz; a rate whose ratio to 1 kHz does not reduce to factors of at most 1000
/// (e.g. 8000.5 Hz) is rounded to whole, then 10, then 100 hertz (a timing error of at most
/// 50 / rate, 0.6 % at 8 kHz).
pub(super) fn resampler(from_hz: f64) -> Result<Resampler, PrepareError> {
    let mut result = Resampler::between(from_hz, ANALYSIS_HZ);
    for step in [1.0, 10.0, 100.0] {
        if result.is_ok() {
            break;
        }
        result = Resampler::between((from_hz / step).round() * step, ANALYSIS_HZ);
    }
    result.map_err(|e| PrepareError::Signal(e.to_string()))
}

/// One channel cut to [`MAX_SECONDS`] and resampled to 1 kHz; checks length and validity.
///
/// # Errors
/// A [`PrepareError`] saying what is wrong, with the measured value.
pub fn prepare_channel(samples: &[f64], fs_hz: f64) -> Result<Vec<f64>, PrepareError> {
    if !(fs_hz.is_finite() && fs_hz >= MIN_INPUT_HZ - 0.5) {
        return Err(PrepareError::LowRate(format!("{fs_hz}")));
    }
    if samples.is_empty() {
        return Err(PrepareError::Empty);
    }
    let seconds = samples.len() as f64 / fs_hz;
    if seconds < MIN_SECONDS {
        return Err(PrepareError::TooShort(seconds));
    }
    let keep = ((MAX_SECONDS * fs_hz) as usize).min(samples.len());
    let x = &samples[..keep];
    let bad = x.iter().filter(|v| !v.is_finite()).count();
    if bad > 0 {
        return Err(PrepareError::NonFinite(bad));
    }
    let (lo, hi) = x
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| {
            (a.min(v), b.max(v))
        });
    if hi - lo <= 1e-12 * hi.abs().max(lo.abs()).max(1e-300) {
        return Err(PrepareError::Flat);
    }
    // Mean removed and scaled to unit peak so that huge or tiny integer scales behave alike.
    let mean = x.iter().sum::<f64>() / x.len() as f64;
    let peak = x.iter().map(|v| (v - mean).abs()).fold(0.0, f64::max);
    let centred: Vec<f64> = x.iter().map(|v| (v - mean) / peak).collect();
    if (fs_hz - ANALYSIS_HZ).abs() < 1e-9 {
        return Ok(centred);
    }
    Ok(resampler(fs_hz)?.process(&centred))
}

/// Chooses the channel to analyse (of the first [`MAX_CHANNELS_TRIED`], the one whose envelope
/// repeats most clearly) and prepares it.
///
/// # Errors
/// The error of the first channel when none can be prepared.
pub fn prepare(rec: &cardio_formats::Recording) -> Result<Prepared, PrepareError> {
    let fs = rec.sampling_rate_hz;
    let mut best: Option<(f64, Prepared)> = None;
    let mut first_err = None;
    for (i, ch) in rec.channels.iter().take(MAX_CHANNELS_TRIED).enumerate() {
        match prepare_channel(&ch.samples, fs) {
            Ok(x) => {
                let periodicity = if rec.channels.len() > 1 {
                    SamplingRate::new(ANALYSIS_HZ)
                        .ok()
                        .and_then(|f| pcg::envelope(&x, f).ok())
                        .and_then(|env| envelope_periodicity(&env))
                        .unwrap_or(f64::NEG_INFINITY)
                } else {
                    0.0
                };
                if best.as_ref().is_none_or(|b| periodicity > b.0) {
                    best = Some((
                        periodicity,
                        Prepared {
                            x,
                            duration_s: ch.samples.len() as f64 / fs,
                            sampling_rate_hz: fs,
                            channel_index: i,
                            channel_name: ch.name.clone(),
                        },
                    ));
                }
            }
            Err(e) => {
                first_err.get_or_insert(e);
            }
        }
    }
    match best {
        Some((_, p)) => Ok(p),
        None => Err(first_err.unwrap_or(PrepareError::Empty)),
    }
}

/// Highest normalised autocorrelation of an envelope at 0.33-2 s (as `quality::pcg`).
pub(super) fn envelope_periodicity(env: &[f64]) -> Option<f64> {
    let ef = pcg::ENVELOPE_HZ;
    let (lo, hi) = ((0.33 * ef).round() as usize, (2.0 * ef).round() as usize);
    let n = env.len();
    if n < hi + 2 {
        return None;
    }
    let m = env.iter().sum::<f64>() / n as f64;
    let d: Vec<f64> = env.iter().map(|v| v - m).collect();
    let e0: f64 = d.iter().map(|v| v * v).sum();
    if e0 <= 0.0 {
        return None;
    }
    (lo..=hi)
        .map(|lag| {
            let s: f64 = d[..n - lag].iter().zip(&d[lag..]).map(|(a, b)| a * b).sum();
            s / e0 * n as f64 / (n - lag) as f64
        })
        .fold(None, |a: Option<f64>, v| Some(a.map_or(v, |a| a.max(v))))
}
