//! The feature vector of the ECG rhythm model: one row of numbers per single-lead recording,
//! computed without looking at any label.
//!
//! The signal is taken in millivolts, cut to its first [`MAX_SECONDS`] s, resampled to
//! [`MODEL_FS`] Hz, then cleaned and its QRS complexes found by `cardio_signal::ecg` (Hamilton 2002).
//! From there:
//!
//! - **RR irregularity**: coefficient of variation, normalised RMSSD, pNN50/pNN20, Poincaré SD1/SD2
//!   (Brennan et al. 2001), sample entropy (Richman & Moorman 2000), the coefficient of sample
//!   entropy COSEn (Lake & Moorman 2011), turning-point ratio and Shannon entropy (Dash et al.
//!   2009), an AF-evidence count on the Lorenz plot of successive RR differences (after Sarkar,
//!   Ritscher & Mehra 2008), premature-beat counts and the irregularity left once they are removed.
//! - **Heart rate**: mean, and the fastest and slowest 5-beat stretches.
//! - **Morphology** on the median beat (Clifford et al. 2017 challenge entries used the same
//!   ideas): QRS width (Laguna et al. 1994 slope thresholds), R/Q/S/T amplitudes, ST level,
//!   beat-to-template correlation, P-wave amplitude, PR interval, P-wave presence per beat and
//!   correlation of each beat's P segment with the template's.
//! - **Atrial activity**: the residual after subtracting the median beat from every beat (QRST
//!   cancellation, Slocum et al. 1992) and its 4-10 Hz (fibrillatory-wave) share.
//! - **Quality and spectrum**: signal-quality score (Orphanidou et al. 2015), kurtosis and
//!   skewness, flat and clipped fractions (Clifford et al. 2012), power fractions in 0.5-5,
//!   5-15, 15-40 and above 40 Hz, baseline wander, windowed-RMS spread, agreement of a second,
//!   amplitude-based QRS detector with the first, the longest gap without a beat, and duration.
//!
//! Missing values (e.g. too few beats for an RR statistic) are NaN: the trees route them.

// x, y, f, n, k, v, w follow the signal-processing and boosting papers' notation.
#![allow(clippy::many_single_char_names)]

mod morphology;
mod names;
mod quality;
mod rr;
mod stats;
#[cfg(test)]
mod tests;

use cardio_signal::ecg::{EcgAnalyzer, Powerline};
use cardio_signal::filter::{Band, Sos};
use cardio_signal::hrv;
use cardio_signal::resample::Resampler;
use cardio_signal::{SamplingRate, SignalError};

pub use names::FEATURE_NAMES;
use quality::{
    agreement, amplitude_detector, clipped_fraction, energy, kurtosis_skewness, window_rms_spread,
};
use rr::rr_features;

/// Sampling rate of every feature computation, Hz (that of the training data).
pub const MODEL_FS: f64 = 300.0;
/// Shortest recording the features are computed for, seconds.
pub const MIN_SECONDS: f64 = 9.0;
/// Longest stretch analysed: a longer recording is cut to its first `MAX_SECONDS` s.
pub const MAX_SECONDS: f64 = 60.0;
/// Lowest input sampling rate accepted, Hz (QRS detection needs the 5-15 Hz band).
pub const MIN_FS: f64 = 50.0;

/// Why features could not be computed; the text is shown to users.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum FeatureError {
    /// Too little signal.
    #[error("Recording too short: {seconds:.1} s; at least {MIN_SECONDS:.0} s is needed.")]
    TooShort {
        /// Measured duration, seconds.
        seconds: f64,
    },
    /// The sampling rate is too low or not a number.
    #[error("Sampling rate too low: {hz} Hz; at least {MIN_FS:.0} Hz is needed.")]
    SamplingRate {
        /// The rate given.
        hz: f64,
    },
    /// No finite sample varies.
    #[error("The ECG is a flat line (no variation in {seconds:.1} s of signal); check the electrodes and record again.")]
    Flat {
        /// Duration, seconds.
        seconds: f64,
    },
    /// The signal pipeline failed (should not happen for checked input).
    #[error("The ECG could not be analysed: {0}")]
    Signal(String),
}

impl From<SignalError> for FeatureError {
    fn from(e: SignalError) -> Self {
        Self::Signal(e.to_string())
    }
}

/// Values a user sees next to the prediction (from the same computation as the features).
#[derive(Debug, Clone, PartialEq)]
pub struct Measured {
    /// Duration of the whole input, seconds.
    pub duration_s: f64,
    /// Seconds analysed (at most [`MAX_SECONDS`]).
    pub analysed_s: f64,
    /// Beats detected in the analysed stretch.
    pub beats: usize,
    /// Heart rate from the median RR interval, bpm.
    pub heart_rate_bpm: Option<f64>,
    /// SDNN, ms.
    pub sdnn_ms: Option<f64>,
    /// RMSSD, ms.
    pub rmssd_ms: Option<f64>,
    /// pNN50, %.
    pub pnn50: Option<f64>,
    /// Coefficient of variation of RR.
    pub rr_cv: Option<f64>,
    /// Median QRS width, ms.
    pub qrs_width_ms: Option<f64>,
    /// Fraction of beats with a detected P wave.
    pub p_wave_fraction: Option<f64>,
    /// PR interval of the median beat, ms (P-wave peak to R peak).
    pub pr_ms: Option<f64>,
    /// Signal-quality score 0-1 (Orphanidou et al. 2015).
    pub quality_score: f64,
    /// The quality verdict in words.
    pub quality_reason: String,
    /// Whether the beats passed their own quality check (the heart rate is shown only then).
    pub quality_usable: bool,
}

/// One recording's features in the order of [`FEATURE_NAMES`], and the measured values.
#[derive(Debug, Clone, PartialEq)]
pub struct Features {
    /// The feature row (NaN = missing).
    pub values: Vec<f64>,
    /// Values for the user.
    pub measured: Measured,
}

/// Filters and detectors planned once for [`MODEL_FS`]; shareable across threads.
#[derive(Debug, Clone)]
pub struct Extractor {
    analyzer: EcgAnalyzer,
    lowpass40: Sos,
    bands: [Sos; 3],
    fwave: Sos,
}

fn fs_model() -> SamplingRate {
    SamplingRate::new(MODEL_FS).unwrap_or_else(|_| unreachable!("300 Hz is a valid rate"))
}

impl Extractor {
    /// Plans the filters.
    ///
    /// # Errors
    /// [`FeatureError::Signal`] if a filter cannot be designed (not for the constant rate used).
    pub fn new() -> Result<Self, FeatureError> {
        let fs = fs_model();
        Ok(Self {
            analyzer: EcgAnalyzer::new(fs, Powerline::None)?,
            lowpass40: Sos::butterworth(4, Band::LowPass(40.0), fs)?,
            bands: [
                Sos::butterworth(2, Band::BandPass(0.5, 5.0), fs)?,
                Sos::butterworth(2, Band::BandPass(5.0, 15.0), fs)?,
                Sos::butterworth(2, Band::BandPass(15.0, 40.0), fs)?,
            ],
            fwave: Sos::butterworth(2, Band::BandPass(4.0, 10.0), fs)?,
        })
    }

    /// Computes the features of one ECG lead given in millivolts at `fs_hz`.
    ///
    /// Non-finite samples count as 0 mV. Recordings longer than [`MAX_SECONDS`] are cut to their
    /// first [`MAX_SECONDS`] s.
    ///
    /// # Errors
    /// [`FeatureError::SamplingRate`] under [`MIN_FS`]; [`FeatureError::TooShort`] under
    /// [`MIN_SECONDS`]; [`FeatureError::Flat`] when the signal does not vary.
    pub fn extract(&self, x_mv: &[f64], fs_hz: f64) -> Result<Features, FeatureError> {
        self.extract_scaled(x_mv, 1.0, fs_hz)
    }

    /// [`Extractor::extract`] of `x * mv_per_unit`, converting only the samples analysed (a long
    /// recording is never copied whole).
    ///
    /// # Errors
    /// As [`Extractor::extract`].
    pub fn extract_scaled(
        &self,
        x: &[f64],
        mv_per_unit: f64,
        fs_hz: f64,
    ) -> Result<Features, FeatureError> {
        if !(fs_hz.is_finite() && fs_hz >= MIN_FS) {
            return Err(FeatureError::SamplingRate { hz: fs_hz });
        }
        let duration_s = x.len() as f64 / fs_hz;
        if duration_s < MIN_SECONDS - 1e-9 {
            return Err(FeatureError::TooShort {
                seconds: duration_s,
            });
        }
        let keep = ((MAX_SECONDS * fs_hz).round() as usize).min(x.len());
        let head: Vec<f64> = x[..keep]
            .iter()
            .map(|v| {
                let mv = v * mv_per_unit;
                if mv.is_finite() {
                    mv
                } else {
                    0.0
                }
            })
            .collect();
        let (lo, hi) = head
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &v| {
                (l.min(v), h.max(v))
            });
        if head.is_empty() || hi - lo <= 1e-9 {
            return Err(FeatureError::Flat {
                seconds: duration_s,
            });
        }
        let x = resample_to_model(&head, fs_hz)?;
        Ok(self.compute(&x, duration_s))
    }

    fn compute(&self, x: &[f64], duration_s: f64) -> Features {
        let f = MODEL_FS;
        let n = x.len();
        let seconds = n as f64 / f;
        let Ok(a) = self.analyzer.analyze(x) else {
            // Only reachable for signals shorter than the filters' padding, which the duration
            // check excludes; keep a defined result anyway.
            return Features {
                values: vec![f64::NAN; FEATURE_NAMES.len()],
                measured: empty_measured(duration_s, seconds),
            };
        };
        let cleaned = &a.cleaned;
        let y = self
            .lowpass40
            .filtfilt(cleaned)
            .unwrap_or_else(|_| cleaned.clone());
        let peaks = &a.r_peaks;
        let mut v = Row::default();

        // ---- quality and spectrum
        v.put("duration_s", duration_s);
        v.put("beats_per_min_count", peaks.len() as f64 * 60.0 / seconds);
        v.put("quality_score", a.quality.score);
        let (kurt, skew) = kurtosis_skewness(cleaned);
        v.put("kurtosis", kurt);
        v.put("skewness", skew);
        v.put(
            "flat_fraction",
            x.windows(2).filter(|w| w[0] == w[1]).count() as f64 / (n - 1).max(1) as f64,
        );
        v.put("clipped_fraction", clipped_fraction(x));
        let total = energy(cleaned).max(1e-12);
        for (name, sos) in ["power_0_5_hz", "power_5_15_hz", "power_15_40_hz"]
            .into_iter()
            .zip(&self.bands)
        {
            v.put(name, energy(&sos.filter(cleaned)) / total);
        }
        let hf: f64 = cleaned.iter().zip(&y).map(|(c, l)| (c - l) * (c - l)).sum();
        v.put("power_above_40_hz", hf / total);
        let mean_x = x.iter().sum::<f64>() / n as f64;
        let wander: f64 = x
            .iter()
            .zip(cleaned)
            .map(|(r, c)| (r - mean_x - c).powi(2))
            .sum();
        v.put("baseline_wander_ratio", (wander / total).ln_1p());
        let (wmax, wmin, wcv) = window_rms_spread(cleaned, (2.0 * f) as usize);
        v.put("window_rms_max_over_median", wmax);
        v.put("window_rms_min_over_median", wmin);
        v.put("window_rms_cv", wcv);
        let second = amplitude_detector(&y, f);
        v.put(
            "detector_agreement_f1",
            agreement(peaks, &second, (0.1 * f) as usize),
        );
        v.put(
            "detector_count_ratio",
            if peaks.is_empty() {
                f64::NAN
            } else {
                second.len() as f64 / peaks.len() as f64
            },
        );
        let max_gap = {
            let mut g = peaks.first().map_or(seconds, |&p| p as f64 / f);
            g = g.max(peaks.last().map_or(seconds, |&p| seconds - p as f64 / f));
            for w in peaks.windows(2) {
                g = g.max((w[1] - w[0]) as f64 / f);
            }
            g
        };
        v.put("max_gap_s", max_gap);
        // Agreement of the two detectors in 5-s windows: the worst window.
        let win = (5.0 * f) as usize;
        let tol = (0.1 * f) as usize;
        let mut worst = f64::NAN;
        for start in (0..n).step_by(win) {
            let in_win = |b: &[usize]| -> Vec<usize> {
                b.iter()
                    .copied()
                    .filter(|&p| p >= start && p < start + win)
                    .collect()
            };
            let agree = agreement(&in_win(peaks), &in_win(&second), tol);
            worst = if worst.is_nan() {
                agree
            } else {
                worst.min(agree)
            };
        }
        v.put("window_agreement_min", worst);

        // ---- RR
        let rr: Vec<f64> = peaks.windows(2).map(|w| (w[1] - w[0]) as f64 / f).collect();
        let rr_ms: Vec<f64> = rr.iter().map(|r| r * 1000.0).collect();
        let rr_stats = rr_features(&rr, &mut v);

        // ---- morphology
        let morph = self.morphology(&y, peaks, &a.beats, &rr, &mut v);
        let afev = v.get("afev");
        v.put(
            "afev_per_beat",
            if peaks.len() > 3 {
                afev / peaks.len() as f64
            } else {
                f64::NAN
            },
        );

        let td = hrv::time_domain(&rr_ms).ok();
        let measured = Measured {
            duration_s,
            analysed_s: seconds,
            beats: peaks.len(),
            heart_rate_bpm: a.heart_rate_bpm,
            sdnn_ms: td.map(|t| t.sdnn_ms),
            rmssd_ms: td.map(|t| t.rmssd_ms),
            pnn50: td.map(|t| t.pnn50),
            rr_cv: rr_stats.filter(|c| c.is_finite()),
            qrs_width_ms: morph.qrs_width_s.map(|w| w * 1000.0),
            p_wave_fraction: morph.p_wave_fraction,
            pr_ms: morph.pr_s.map(|p| p * 1000.0),
            quality_score: a.quality.score,
            quality_reason: a.quality.reason.clone(),
            quality_usable: a.quality.usable,
        };
        Features {
            values: v.finish(),
            measured,
        }
    }
}

/// Measured values of [`Measured`] that do not depend on beats.
fn empty_measured(duration_s: f64, analysed_s: f64) -> Measured {
    Measured {
        duration_s,
        analysed_s,
        beats: 0,
        heart_rate_bpm: None,
        sdnn_ms: None,
        rmssd_ms: None,
        pnn50: None,
        rr_cv: None,
        qrs_width_ms: None,
        p_wave_fraction: None,
        pr_ms: None,
        quality_score: 0.0,
        quality_reason: "not analysed".into(),
        quality_usable: false,
    }
}

/// Builds the row, checking each name against [`FEATURE_NAMES`] (in debug builds and tests).
#[derive(Default)]
struct Row {
    values: Vec<(&'static str, f64)>,
}

impl Row {
    fn put(&mut self, name: &'static str, value: f64) {
        if let Some(slot) = self.values.iter_mut().find(|(n, _)| *n == name) {
            slot.1 = value;
        } else {
            self.values.push((name, value));
        }
    }

    fn get(&self, name: &str) -> f64 {
        self.values
            .iter()
            .find(|(n, _)| *n == name)
            .map_or(f64::NAN, |(_, v)| *v)
    }

    /// Values in [`FEATURE_NAMES`] order; an unset feature is NaN, infinities become NaN.
    fn finish(&self) -> Vec<f64> {
        FEATURE_NAMES
            .iter()
            .map(|name| {
                let v = self.get(name);
                if v.is_finite() {
                    v
                } else {
                    f64::NAN
                }
            })
            .collect()
    }
}

/// Resamples to [`MODEL_FS`]: polyphase when the ratio is simple, else linear interpolation.
fn resample_to_model(x: &[f64], fs: f64) -> Result<Vec<f64>, FeatureError> {
    if (fs - MODEL_FS).abs() < 1e-9 {
        return Ok(x.to_vec());
    }
    if let Ok(r) = Resampler::between(fs, MODEL_FS) {
        let (up, down) = r.factors();
        if up.max(down) <= 200 {
            return Ok(r.process(x));
        }
    }
    // Odd ratio: low-pass at 0.45 of the lower Nyquist, then linear interpolation.
    let cut = 0.45 * fs.min(MODEL_FS);
    let smooth = if cut < fs / 2.0 * 0.95 {
        let sr = SamplingRate::new(fs)?;
        Sos::butterworth(4, Band::LowPass(cut), sr)?
            .filtfilt(x)
            .unwrap_or_else(|_| x.to_vec())
    } else {
        x.to_vec()
    };
    let n_out = ((x.len() as f64) * MODEL_FS / fs).floor() as usize;
    Ok((0..n_out)
        .map(|i| {
            let t = i as f64 * fs / MODEL_FS;
            let k = t.floor() as usize;
            let frac = t - k as f64;
            let a = smooth[k.min(smooth.len() - 1)];
            let b = smooth[(k + 1).min(smooth.len() - 1)];
            a + (b - a) * frac
        })
        .collect())
}
