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

use cardio_signal::ecg::{delineate, EcgAnalyzer, Powerline};
use cardio_signal::filter::{Band, Sos};
use cardio_signal::hrv;
use cardio_signal::resample::Resampler;
use cardio_signal::{SamplingRate, SignalError};

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

/// Names of the features, in row order.
pub const FEATURE_NAMES: &[&str] = &[
    "duration_s",
    "beats_per_min_count",
    "quality_score",
    "kurtosis",
    "skewness",
    "flat_fraction",
    "clipped_fraction",
    "power_0_5_hz",
    "power_5_15_hz",
    "power_15_40_hz",
    "power_above_40_hz",
    "baseline_wander_ratio",
    "window_rms_max_over_median",
    "window_rms_min_over_median",
    "window_rms_cv",
    "detector_agreement_f1",
    "detector_count_ratio",
    "max_gap_s",
    "r_amplitude_mv",
    "r_amplitude_over_sd",
    "hr_mean_bpm",
    "hr_median_bpm",
    "hr_fastest_5_bpm",
    "hr_slowest_5_bpm",
    "rr_min_over_median",
    "rr_max_over_median",
    "rr_cv",
    "rmssd_norm",
    "pnn50",
    "pnn20",
    "drr_over_10pct",
    "drr_median_norm",
    "drr_p90_norm",
    "sample_entropy",
    "cosen",
    "sd1_norm",
    "sd2_norm",
    "sd1_sd2",
    "turning_point_ratio",
    "shannon_entropy",
    "afev",
    "irrev_fraction",
    "origin_fraction",
    "rr_near_median_fraction",
    "premature_fraction",
    "rr_cv_without_premature",
    "rmssd_norm_without_premature",
    "rr_autocorr_lag1",
    "rr_autocorr_lag2",
    "rmssd_norm_window_max",
    "rmssd_norm_window_min",
    "qrs_width_median_s",
    "qrs_width_sd_s",
    "wide_qrs_fraction",
    "template_qrs_width_s",
    "beat_corr_mean",
    "beat_corr_min",
    "beat_corr_sd",
    "beat_corr_below_0_9",
    "qrs_corr_mean",
    "qrs_corr_below_0_9",
    "polarity",
    "q_depth",
    "s_depth",
    "st_level",
    "t_amplitude",
    "t_peak_s",
    "qrs_energy_fraction",
    "p_amplitude",
    "p_peak_to_r_s",
    "p_area",
    "p_snr",
    "p_wave_fraction",
    "p_corr_mean",
    "residual_ratio",
    "fwave_ratio",
    "fwave_band_fraction",
    "tq_residual_ratio",
    "afev_per_beat",
    "rr_long_fraction",
    "rr_short_fraction",
    "rr_ratio_min",
    "rr_ratio_max",
    "r_amplitude_cv",
    "qrs_extrema",
    "t_area",
    "window_beat_corr_min",
    "window_beat_corr_low_fraction",
    "window_agreement_min",
    "tpl_m250",
    "tpl_m225",
    "tpl_m200",
    "tpl_m175",
    "tpl_m150",
    "tpl_m125",
    "tpl_m100",
    "tpl_m075",
    "tpl_m050",
    "tpl_m025",
    "tpl_p000",
    "tpl_p025",
    "tpl_p050",
    "tpl_p075",
    "tpl_p100",
    "tpl_p125",
    "tpl_p150",
    "tpl_p175",
    "tpl_p200",
    "tpl_p225",
    "tpl_p250",
    "tpl_p275",
    "tpl_p300",
    "tpl_p325",
    "tpl_p350",
    "tpl_p375",
    "tpl_p400",
    "tpl_p425",
    "tpl_p450",
];

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

    fn morphology(
        &self,
        y: &[f64],
        peaks: &[usize],
        beats: &[cardio_signal::ecg::Beat],
        rr: &[f64],
        v: &mut Row,
    ) -> Morph {
        let f = MODEL_FS;
        let pre = (0.30 * f) as usize;
        let post = (0.50 * f) as usize;
        let w = pre + post + 1;
        let complete: Vec<usize> = peaks
            .iter()
            .copied()
            .filter(|&p| p >= pre && p + post < y.len())
            .collect();
        // Per-beat delineation from the signal crate.
        let widths: Vec<f64> = beats.iter().map(|b| b.qrs_width_s).collect();
        let qrs_width = median(&widths);
        v.put("qrs_width_median_s", qrs_width.unwrap_or(f64::NAN));
        v.put("qrs_width_sd_s", sd(&widths).unwrap_or(f64::NAN));
        v.put(
            "wide_qrs_fraction",
            fraction(widths.iter().map(|&w| w > 0.12)),
        );
        let p_wave_fraction = if beats.is_empty() {
            None
        } else {
            Some(fraction(beats.iter().map(|b| b.p_wave)))
        };
        let mut out = Morph {
            qrs_width_s: qrs_width,
            p_wave_fraction,
            pr_s: None,
        };
        if complete.len() < 3 {
            for name in [
                "r_amplitude_mv",
                "r_amplitude_over_sd",
                "template_qrs_width_s",
                "beat_corr_mean",
                "beat_corr_min",
                "beat_corr_sd",
                "beat_corr_below_0_9",
                "qrs_corr_mean",
                "qrs_corr_below_0_9",
                "polarity",
                "q_depth",
                "s_depth",
                "st_level",
                "t_amplitude",
                "t_peak_s",
                "qrs_energy_fraction",
                "p_amplitude",
                "p_peak_to_r_s",
                "p_area",
                "p_snr",
                "p_corr_mean",
                "residual_ratio",
                "fwave_ratio",
                "fwave_band_fraction",
                "tq_residual_ratio",
            ] {
                v.put(name, f64::NAN);
            }
            v.put("p_wave_fraction", p_wave_fraction.unwrap_or(f64::NAN));
            return out;
        }
        // Median beat.
        let mut template = vec![0.0; w];
        let mut column = Vec::with_capacity(complete.len());
        for (k, t) in template.iter_mut().enumerate() {
            column.clear();
            column.extend(complete.iter().map(|&p| y[p - pre + k]));
            *t = median_in_place(&mut column);
        }
        // Baseline: the flattest 40 ms before the QRS (PR segment / TP), robustly the median of
        // the template from 300 to 60 ms before R.
        let base = median(&template[..pre - (0.06 * f) as usize]).unwrap_or(0.0);
        let r_val = template[pre] - base;
        let polarity = if r_val >= 0.0 { 1.0 } else { -1.0 };
        let r_amp = r_val.abs().max(1e-6);
        let norm: Vec<f64> = template
            .iter()
            .map(|t| (t - base) * polarity / r_amp)
            .collect();
        let sd_y = sd(y).unwrap_or(1.0).max(1e-9);
        v.put("r_amplitude_mv", r_amp);
        v.put("r_amplitude_over_sd", r_amp / sd_y);
        // QRS width of the template by the signal crate's delineation.
        let tb = delineate(&template, &[pre], fs_model());
        v.put(
            "template_qrs_width_s",
            tb.first().map_or(f64::NAN, |b| b.qrs_width_s),
        );
        // Beat-to-template correlation, whole beat and QRS (± 60 ms).
        let q = (0.06 * f) as usize;
        let mut corr = Vec::with_capacity(complete.len());
        let mut qcorr = Vec::with_capacity(complete.len());
        for &p in &complete {
            let seg = &y[p - pre..=p + post];
            corr.push(pearson(seg, &template));
            qcorr.push(pearson(
                &seg[pre - q..=pre + q],
                &template[pre - q..=pre + q],
            ));
        }
        v.put("beat_corr_mean", mean(&corr));
        v.put("beat_corr_min", corr.iter().copied().fold(1.0, f64::min));
        v.put("beat_corr_sd", sd(&corr).unwrap_or(0.0));
        v.put(
            "beat_corr_below_0_9",
            fraction(corr.iter().map(|&c| c < 0.9)),
        );
        v.put("qrs_corr_mean", mean(&qcorr));
        v.put(
            "qrs_corr_below_0_9",
            fraction(qcorr.iter().map(|&c| c < 0.9)),
        );
        v.put("polarity", polarity);
        // Beat-to-beat R amplitude and template agreement over 5-s windows (local noise).
        let amps: Vec<f64> = complete.iter().map(|&p| (y[p] - base).abs()).collect();
        v.put(
            "r_amplitude_cv",
            sd(&amps).unwrap_or(0.0) / mean(&amps).max(1e-9),
        );
        let win = (5.0 * f) as usize;
        let n_win = y.len().div_ceil(win);
        let mut sums = vec![(0.0, 0usize); n_win];
        for (&p, &c) in complete.iter().zip(&corr) {
            let slot = &mut sums[(p / win).min(n_win - 1)];
            slot.0 += c;
            slot.1 += 1;
        }
        let per_win: Vec<f64> = sums
            .iter()
            .filter(|s| s.1 > 0)
            .map(|s| s.0 / s.1 as f64)
            .collect();
        v.put(
            "window_beat_corr_min",
            per_win.iter().copied().fold(1.0, f64::min),
        );
        v.put(
            "window_beat_corr_low_fraction",
            fraction(per_win.iter().map(|&c| c < 0.8)),
        );
        // Fragmentation: local extrema of the template within the QRS (± 60 ms).
        v.put(
            "qrs_extrema",
            norm[pre - q..=pre + q]
                .windows(3)
                .filter(|w| (w[1] - w[0]) * (w[2] - w[1]) < 0.0)
                .count() as f64,
        );
        // The median beat itself, every 25 ms from 250 ms before to 450 ms after R (mean of
        // ± 10 ms around each point), in units of the R amplitude.
        let half = (0.01 * f) as usize;
        for name in FEATURE_NAMES.iter().filter(|n| n.starts_with("tpl_")) {
            let ms: f64 = name[5..].parse().unwrap_or(0.0);
            let ms = if name.as_bytes()[4] == b'm' { -ms } else { ms };
            let at = (pre as f64 + ms / 1000.0 * f).round() as usize;
            let (lo, hi) = (at.saturating_sub(half), (at + half).min(w - 1));
            v.put(name, mean(&norm[lo..=hi]));
        }
        v.put(
            "q_depth",
            norm[pre - q..pre].iter().copied().fold(0.0, f64::min),
        );
        v.put(
            "s_depth",
            norm[pre..=pre + q].iter().copied().fold(0.0, f64::min),
        );
        v.put("st_level", norm[pre + (0.10 * f) as usize]);
        // T wave: largest deviation 120 ms after R up to 60 % of the median RR (at most 500 ms).
        let rr_med = median(rr).unwrap_or(0.8);
        let t_end = ((0.6 * rr_med).clamp(0.2, 0.5) * f) as usize;
        let t_start = (0.12 * f) as usize;
        let (mut t_amp, mut t_at) = (0.0_f64, t_start);
        for k in t_start..t_end.max(t_start + 1) {
            if norm[pre + k].abs() > t_amp.abs() {
                t_amp = norm[pre + k];
                t_at = k;
            }
        }
        v.put("t_amplitude", t_amp);
        v.put("t_peak_s", t_at as f64 / f);
        v.put(
            "t_area",
            norm[pre + t_start..pre + t_end.max(t_start + 1)]
                .iter()
                .sum::<f64>()
                / f,
        );
        let qrs_e: f64 = norm[pre - q..=pre + q].iter().map(|v| v * v).sum();
        let all_e: f64 = norm.iter().map(|v| v * v).sum();
        v.put("qrs_energy_fraction", qrs_e / all_e.max(1e-12));
        // P wave on the template: 300 to 80 ms before R, after removing the line between the ends;
        // the window starts no earlier than 45 % of the median RR before R (previous T wave).
        let p_lo = pre - ((0.45 * rr_med).clamp(0.15, 0.30) * f) as usize;
        let p_hi = pre - (0.08 * f) as usize;
        let seg = detrend(&norm[p_lo..=p_hi]);
        let (mut p_amp, mut p_at) = (0.0, 0);
        for (k, s) in seg.iter().enumerate() {
            if s.abs() > p_amp {
                p_amp = s.abs();
                p_at = k;
            }
        }
        let p_area = seg.iter().map(|s| s.abs()).sum::<f64>() / f;
        v.put("p_amplitude", p_amp);
        let pr = (p_hi - p_lo - p_at + (0.08 * f) as usize) as f64 / f;
        v.put("p_peak_to_r_s", pr);
        out.pr_s = Some(pr);
        v.put("p_area", p_area);
        // P-segment consistency: energy of the template's P segment against the mean energy of
        // the beats' P segments around it; and each beat's P segment's correlation with it.
        let t_seg: Vec<f64> = detrend(&template[p_lo..=p_hi]);
        let t_e = energy(&t_seg);
        let mut resid_e = 0.0;
        let mut pcorr = Vec::with_capacity(complete.len());
        for &p in &complete {
            let b = detrend(&y[p - pre + p_lo..=p - pre + p_hi]);
            resid_e += b
                .iter()
                .zip(&t_seg)
                .map(|(a, t)| (a - t) * (a - t))
                .sum::<f64>();
            pcorr.push(pearson(&b, &t_seg));
        }
        resid_e /= complete.len() as f64;
        v.put("p_snr", (t_e / resid_e.max(1e-12)).ln_1p());
        v.put("p_wave_fraction", p_wave_fraction.unwrap_or(f64::NAN));
        v.put("p_corr_mean", mean(&pcorr));
        // QRST cancellation: subtract the template from every beat (within the RR bounds).
        let mut residual = y.to_vec();
        let mut covered = vec![false; y.len()];
        for (i, &p) in peaks.iter().enumerate() {
            let back = if i > 0 {
                pre.min((peaks[i] - peaks[i - 1]) * 45 / 100)
            } else {
                pre.min(p)
            };
            let fwd = if i + 1 < peaks.len() {
                post.min((peaks[i + 1] - peaks[i]) * 55 / 100)
            } else {
                post.min(y.len() - 1 - p)
            };
            for k in (p - back)..=(p + fwd) {
                residual[k] -= template[k + pre - p];
                covered[k] = true;
            }
        }
        let resid_total = energy(&residual);
        let scale = r_amp * r_amp * y.len() as f64;
        v.put("residual_ratio", (resid_total / scale).sqrt());
        let fw = self.fwave.filter(&residual);
        let fw_e = energy(&fw);
        v.put("fwave_ratio", (fw_e / scale).sqrt());
        v.put("fwave_band_fraction", fw_e / resid_total.max(1e-12));
        // Residual in the TQ stretches only (from 60 % of RR after R to 100 ms before the next R).
        let mut tq_e = 0.0;
        let mut tq_n = 0usize;
        for w2 in peaks.windows(2) {
            let s = w2[0] + (w2[1] - w2[0]) * 6 / 10;
            let e = w2[1].saturating_sub((0.1 * f) as usize);
            for v in fw.iter().take(e).skip(s) {
                tq_e += v * v;
                tq_n += 1;
            }
        }
        v.put(
            "tq_residual_ratio",
            if tq_n > 0 {
                (tq_e / tq_n as f64).sqrt() / r_amp
            } else {
                f64::NAN
            },
        );
        out
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

struct Morph {
    qrs_width_s: Option<f64>,
    p_wave_fraction: Option<f64>,
    pr_s: Option<f64>,
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

/// RR-interval features (seconds in); returns the coefficient of variation.
fn rr_features(rr: &[f64], v: &mut Row) -> Option<f64> {
    // A feature not set below (too few intervals) is NaN: `Row::finish` fills every unset name.
    if rr.len() < 3 {
        return None;
    }
    let m = mean(rr);
    let med = median(rr).unwrap_or(m);
    let s = sd(rr).unwrap_or(0.0);
    let drr: Vec<f64> = rr.windows(2).map(|w| w[1] - w[0]).collect();
    let rmssd = (drr.iter().map(|d| d * d).sum::<f64>() / drr.len() as f64).sqrt();
    v.put("hr_mean_bpm", 60.0 / m);
    v.put("hr_median_bpm", 60.0 / med);
    if rr.len() >= 5 {
        let sums: Vec<f64> = rr.windows(5).map(|w| w.iter().sum::<f64>() / 5.0).collect();
        let lo = sums.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = sums.iter().copied().fold(0.0, f64::max);
        v.put("hr_fastest_5_bpm", 60.0 / lo);
        v.put("hr_slowest_5_bpm", 60.0 / hi);
    }
    let rr_min = rr.iter().copied().fold(f64::INFINITY, f64::min);
    let rr_max = rr.iter().copied().fold(0.0, f64::max);
    v.put("rr_min_over_median", rr_min / med);
    v.put("rr_max_over_median", rr_max / med);
    v.put("rr_cv", s / m);
    v.put("rmssd_norm", rmssd / m);
    let frac_over = |t: f64| fraction(drr.iter().map(|d| d.abs() > t));
    v.put("pnn50", frac_over(0.05));
    v.put("pnn20", frac_over(0.02));
    v.put("drr_over_10pct", frac_over(0.1 * m));
    let abs_d: Vec<f64> = drr.iter().map(|d| d.abs()).collect();
    v.put("drr_median_norm", median(&abs_d).unwrap_or(f64::NAN) / m);
    v.put("drr_p90_norm", quantile(&abs_d, 0.9) / m);
    if rr.len() >= 4 {
        v.put("sample_entropy", hrv::sample_entropy(rr, 2, 0.2 * s));
        v.put("cosen", cosen(rr));
        let sq = std::f64::consts::SQRT_2;
        let x1: Vec<f64> = rr.windows(2).map(|w| (w[0] - w[1]) / sq).collect();
        let x2: Vec<f64> = rr.windows(2).map(|w| (w[0] + w[1]) / sq).collect();
        let sd1 = sd(&x1).unwrap_or(0.0);
        let sd2 = sd(&x2).unwrap_or(0.0);
        v.put("sd1_norm", sd1 / m);
        v.put("sd2_norm", sd2 / m);
        v.put("sd1_sd2", if sd2 > 0.0 { sd1 / sd2 } else { f64::NAN });
    }
    let rr_ms: Vec<f64> = rr.iter().map(|r| r * 1000.0).collect();
    if let Ok(irr) = hrv::irregularity(&rr_ms) {
        v.put("turning_point_ratio", irr.turning_point_ratio);
        v.put("shannon_entropy", irr.shannon_entropy);
    }
    let (afev, irrev, origin) = af_evidence(&drr);
    v.put("afev", afev);
    v.put("irrev_fraction", irrev);
    v.put("origin_fraction", origin);
    v.put(
        "rr_near_median_fraction",
        fraction(rr.iter().map(|r| (r - med).abs() <= 0.05 * med)),
    );
    v.put(
        "rr_long_fraction",
        fraction(rr.iter().map(|&r| r > 1.3 * med)),
    );
    v.put(
        "rr_short_fraction",
        fraction(rr.iter().map(|&r| r < 0.75 * med)),
    );
    let ratios: Vec<f64> = rr.windows(2).map(|w| w[1] / w[0]).collect();
    v.put(
        "rr_ratio_min",
        ratios.iter().copied().fold(f64::INFINITY, f64::min),
    );
    v.put("rr_ratio_max", ratios.iter().copied().fold(0.0, f64::max));
    let premature = premature_flags(rr);
    v.put("premature_fraction", fraction(premature.iter().copied()));
    let kept: Vec<f64> = (0..rr.len())
        .filter(|&i| !(premature[i] || (i > 0 && premature[i - 1])))
        .map(|i| rr[i])
        .collect();
    if kept.len() >= 3 {
        let km = mean(&kept);
        v.put("rr_cv_without_premature", sd(&kept).unwrap_or(0.0) / km);
        let kd: Vec<f64> = kept.windows(2).map(|w| w[1] - w[0]).collect();
        v.put(
            "rmssd_norm_without_premature",
            (kd.iter().map(|d| d * d).sum::<f64>() / kd.len() as f64).sqrt() / km,
        );
    }
    v.put("rr_autocorr_lag1", autocorr(rr, 1));
    v.put("rr_autocorr_lag2", autocorr(rr, 2));
    if rr.len() >= 12 {
        let win: Vec<f64> = rr
            .windows(10)
            .step_by(2)
            .map(|w| {
                let wm = mean(w);
                let d2: f64 = w.windows(2).map(|p| (p[1] - p[0]).powi(2)).sum::<f64>() / 9.0;
                d2.sqrt() / wm
            })
            .collect();
        v.put(
            "rmssd_norm_window_max",
            win.iter().copied().fold(0.0, f64::max),
        );
        v.put(
            "rmssd_norm_window_min",
            win.iter().copied().fold(f64::INFINITY, f64::min),
        );
    }
    Some(s / m)
}

/// Premature intervals: under 85 % of the local median (the 5 intervals around it) and followed
/// by a longer one (compensatory pause). One flag per interval.
fn premature_flags(rr: &[f64]) -> Vec<bool> {
    let med = median(rr).unwrap_or(0.0);
    let mut premature = vec![false; rr.len()];
    for i in 0..rr.len().saturating_sub(1) {
        let lo = i.saturating_sub(2);
        let hi = (i + 3).min(rr.len());
        let local = median(&rr[lo..hi]).unwrap_or(med);
        if rr[i] < 0.85 * local && rr[i + 1] > 1.1 * rr[i] {
            premature[i] = true;
        }
    }
    premature
}

/// Coefficient of sample entropy: `SampEn(m = 1, r) + ln(2r) - ln(mean RR)` with `r` = 30 ms,
/// widened (60, 120, 240 ms) while no template matches.
///
/// Lake, D. E., Moorman, J. R. (2011), "Accurate estimation of entropy in very short physiological
/// time series: the problem of atrial fibrillation detection in implanted ventricular devices",
/// *Am. J. Physiol. Heart Circ. Physiol.* 300(1), H319-H325.
fn cosen(rr: &[f64]) -> f64 {
    let m = mean(rr);
    for r in [0.03, 0.06, 0.12, 0.24] {
        let se = hrv::sample_entropy(rr, 1, r);
        if se.is_finite() {
            return se + (2.0 * r).ln() - m.ln();
        }
    }
    f64::NAN
}

/// AF evidence on the Lorenz plot of successive RR differences `(dRR[i-1], dRR[i])`, 40 ms cells
/// within ± 600 ms: `IrrEv` = occupied cells outside the origin cell, `OriginCount` = points in
/// the origin cell (both |dRR| < 20 ms); `AFEv = IrrEv - OriginCount` (the PAC-evidence term of
/// the paper is left out). Returns `(AFEv, IrrEv / points, OriginCount / points)`.
///
/// Sarkar, S., Ritscher, D., Mehra, R. (2008), "A detector for a chronic implantable atrial
/// tachyarrhythmia monitor", *IEEE Trans. Biomed. Eng.* 55(3), 1219-1224.
fn af_evidence(drr: &[f64]) -> (f64, f64, f64) {
    if drr.len() < 2 {
        return (f64::NAN, f64::NAN, f64::NAN);
    }
    let cell = |d: f64| ((d.clamp(-0.6, 0.6) + 0.02) / 0.04).floor() as i32;
    let mut cells: Vec<(i32, i32)> = Vec::with_capacity(drr.len());
    let mut origin = 0usize;
    for w in drr.windows(2) {
        let c = (cell(w[0]), cell(w[1]));
        if c == (0, 0) {
            origin += 1;
        } else {
            cells.push(c);
        }
    }
    cells.sort_unstable();
    cells.dedup();
    let points = (drr.len() - 1) as f64;
    (
        cells.len() as f64 - origin as f64,
        cells.len() as f64 / points,
        origin as f64 / points,
    )
}

/// A second QRS detector on a different principle (amplitude rather than slope energy): local
/// extrema of |y - median| above 40 % of its 99th percentile, 250 ms refractory, largest kept.
fn amplitude_detector(y: &[f64], f: f64) -> Vec<usize> {
    let med = median(y).unwrap_or(0.0);
    let a: Vec<f64> = y.iter().map(|v| (v - med).abs()).collect();
    let th = 0.4 * quantile(&a, 0.99);
    let refractory = (0.25 * f) as usize;
    let mut out: Vec<usize> = Vec::new();
    for i in 1..a.len().saturating_sub(1) {
        if a[i] > th && a[i] >= a[i - 1] && a[i] >= a[i + 1] {
            match out.last_mut() {
                Some(last) if i - *last < refractory => {
                    if a[i] > a[*last] {
                        *last = i;
                    }
                }
                _ => out.push(i),
            }
        }
    }
    out
}

/// F1 of matching two beat lists within `tol` samples (1 when both are empty).
fn agreement(a: &[usize], b: &[usize], tol: usize) -> f64 {
    if a.is_empty() && b.is_empty() {
        return 1.0;
    }
    let (mut i, mut j, mut matched) = (0, 0, 0usize);
    while i < a.len() && j < b.len() {
        if a[i].abs_diff(b[j]) <= tol {
            matched += 1;
            i += 1;
            j += 1;
        } else if a[i] < b[j] {
            i += 1;
        } else {
            j += 1;
        }
    }
    2.0 * matched as f64 / (a.len() + b.len()) as f64
}

fn window_rms_spread(x: &[f64], w: usize) -> (f64, f64, f64) {
    let rms: Vec<f64> = x
        .chunks(w.max(1))
        .filter(|c| c.len() == w)
        .map(|c| (energy(c) / c.len() as f64).sqrt())
        .collect();
    let Some(med) = median(&rms) else {
        return (f64::NAN, f64::NAN, f64::NAN);
    };
    let med = med.max(1e-12);
    (
        rms.iter().copied().fold(0.0, f64::max) / med,
        rms.iter().copied().fold(f64::INFINITY, f64::min) / med,
        sd(&rms).unwrap_or(0.0) / mean(&rms).max(1e-12),
    )
}

fn clipped_fraction(x: &[f64]) -> f64 {
    let (lo, hi) = x
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &v| {
            (l.min(v), h.max(v))
        });
    let eps = 1e-3 * (hi - lo);
    let rail = |v: f64| v <= lo + eps || v >= hi - eps;
    x.windows(2)
        .filter(|w| rail(w[0]) && rail(w[1]) && (w[0] - w[1]).abs() <= eps)
        .count() as f64
        / (x.len() - 1).max(1) as f64
}

fn kurtosis_skewness(x: &[f64]) -> (f64, f64) {
    let m = mean(x);
    let (mut m2, mut m3, mut m4) = (0.0, 0.0, 0.0);
    for &v in x {
        let d = v - m;
        let d2 = d * d;
        m2 += d2;
        m3 += d2 * d;
        m4 += d2 * d2;
    }
    let n = x.len() as f64;
    let (m2, m3, m4) = (m2 / n, m3 / n, m4 / n);
    if m2 <= 0.0 {
        return (f64::NAN, f64::NAN);
    }
    (m4 / (m2 * m2), m3 / m2.powf(1.5))
}

fn detrend(x: &[f64]) -> Vec<f64> {
    let n = x.len();
    if n < 2 {
        return x.to_vec();
    }
    let (a, b) = (x[0], x[n - 1]);
    x.iter()
        .enumerate()
        .map(|(i, v)| v - (a + (b - a) * i as f64 / (n - 1) as f64))
        .collect()
}

fn energy(x: &[f64]) -> f64 {
    x.iter().map(|v| v * v).sum()
}

fn mean(x: &[f64]) -> f64 {
    if x.is_empty() {
        f64::NAN
    } else {
        x.iter().sum::<f64>() / x.len() as f64
    }
}

/// Sample standard deviation; `None` under two values.
fn sd(x: &[f64]) -> Option<f64> {
    if x.len() < 2 {
        return None;
    }
    let m = mean(x);
    Some((x.iter().map(|v| (v - m) * (v - m)).sum::<f64>() / (x.len() - 1) as f64).sqrt())
}

fn median(x: &[f64]) -> Option<f64> {
    if x.is_empty() {
        return None;
    }
    let mut s = x.to_vec();
    Some(median_in_place(&mut s))
}

fn median_in_place(s: &mut [f64]) -> f64 {
    let n = s.len();
    let mid = n / 2;
    let (_, m, _) = s.select_nth_unstable_by(mid, f64::total_cmp);
    let hi = *m;
    if n % 2 == 1 {
        hi
    } else {
        let lo = s[..mid].iter().copied().fold(f64::NEG_INFINITY, f64::max);
        f64::midpoint(lo, hi)
    }
}

/// The `q` quantile (nearest rank on the sorted values); NaN when empty.
fn quantile(x: &[f64], q: f64) -> f64 {
    if x.is_empty() {
        return f64::NAN;
    }
    let mut s = x.to_vec();
    let k = ((s.len() - 1) as f64 * q).round() as usize;
    let (_, v, _) = s.select_nth_unstable_by(k, f64::total_cmp);
    *v
}

fn fraction(it: impl Iterator<Item = bool>) -> f64 {
    let (mut yes, mut all) = (0usize, 0usize);
    for b in it {
        yes += usize::from(b);
        all += 1;
    }
    if all == 0 {
        f64::NAN
    } else {
        yes as f64 / all as f64
    }
}

fn autocorr(x: &[f64], lag: usize) -> f64 {
    if x.len() <= lag + 2 {
        return f64::NAN;
    }
    let m = mean(x);
    let den: f64 = x.iter().map(|v| (v - m) * (v - m)).sum();
    if den <= 0.0 {
        return f64::NAN;
    }
    let num: f64 = x.windows(lag + 1).map(|w| (w[0] - m) * (w[lag] - m)).sum();
    num / den
}

fn pearson(a: &[f64], b: &[f64]) -> f64 {
    let ma = mean(a);
    let mb = mean(b);
    let (mut sab, mut saa, mut sbb) = (0.0, 0.0, 0.0);
    for (x, y) in a.iter().zip(b) {
        sab += (x - ma) * (y - mb);
        saa += (x - ma) * (x - ma);
        sbb += (y - mb) * (y - mb);
    }
    if saa <= 0.0 || sbb <= 0.0 {
        0.0
    } else {
        sab / (saa * sbb).sqrt()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Gaussian "P, QRS, T" beats at the given RR intervals (s), 300 Hz, in mV.
    fn synthetic(seconds: f64, rr: impl Fn(usize) -> f64, p_wave: bool) -> Vec<f64> {
        let f = MODEL_FS;
        let n = (seconds * f) as usize;
        let mut x = vec![0.0; n];
        let mut t = 0.4;
        let mut k = 0;
        while t < seconds - 0.6 {
            let c = t * f;
            let lo = (c - 0.4 * f).max(0.0) as usize;
            let hi = ((c + 0.6 * f) as usize).min(n);
            for (i, v) in x.iter_mut().enumerate().take(hi).skip(lo) {
                let d = (i as f64 - c) / f;
                let g =
                    |mu: f64, s: f64, a: f64| a * (-((d - mu) * (d - mu)) / (2.0 * s * s)).exp();
                *v += g(0.0, 0.012, 1.2) + g(0.28, 0.045, 0.3);
                if p_wave {
                    *v += g(-0.17, 0.02, 0.15);
                }
            }
            t += rr(k);
            k += 1;
        }
        x
    }

    fn lcg(seed: u64) -> impl FnMut() -> f64 {
        let mut s = seed;
        move || {
            s = s
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (s >> 11) as f64 / (1u64 << 53) as f64
        }
    }

    fn get(f: &Features, name: &str) -> f64 {
        f.values[FEATURE_NAMES.iter().position(|n| *n == name).unwrap()]
    }

    #[test]
    fn names_are_unique_and_every_feature_is_set() {
        let mut names = FEATURE_NAMES.to_vec();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), FEATURE_NAMES.len());
        let ex = Extractor::new().unwrap();
        let x = synthetic(30.0, |k| [0.8, 0.82, 0.78, 0.81][k % 4], true);
        let f = ex.extract(&x, MODEL_FS).unwrap();
        assert_eq!(f.values.len(), FEATURE_NAMES.len());
        let missing: Vec<&str> = FEATURE_NAMES
            .iter()
            .zip(&f.values)
            .filter(|(_, v)| v.is_nan())
            .map(|(n, _)| *n)
            .collect();
        assert!(missing.is_empty(), "unset on a clean ECG: {missing:?}");
    }

    #[test]
    fn a_regular_rhythm_with_p_waves_differs_from_an_irregular_one_without() {
        let ex = Extractor::new().unwrap();
        let sinus = ex
            .extract(&synthetic(30.0, |_| 0.8, true), MODEL_FS)
            .unwrap();
        let mut r = lcg(7);
        let rrs: Vec<f64> = (0..100).map(|_| 0.45 + 0.5 * r()).collect();
        let af = ex
            .extract(&synthetic(30.0, |k| rrs[k % 100], false), MODEL_FS)
            .unwrap();
        assert!(get(&sinus, "rr_cv") < 0.02, "{}", get(&sinus, "rr_cv"));
        assert!(get(&af, "rr_cv") > 0.15, "{}", get(&af, "rr_cv"));
        assert!(get(&af, "afev") > get(&sinus, "afev"));
        assert!(
            get(&sinus, "p_amplitude") > 0.08,
            "{}",
            get(&sinus, "p_amplitude")
        );
        assert!(get(&af, "p_amplitude") < get(&sinus, "p_amplitude") / 2.0);
        let hr = sinus.measured.heart_rate_bpm.unwrap();
        assert!((hr - 75.0).abs() < 1.0, "{hr}");
        let pr = sinus.measured.pr_ms.unwrap();
        assert!((pr - 170.0).abs() < 15.0, "{pr}");
    }

    #[test]
    fn other_sampling_rates_give_nearly_the_same_features() {
        let ex = Extractor::new().unwrap();
        let x = synthetic(20.0, |k| if k % 3 == 0 { 0.7 } else { 0.9 }, true);
        let base = ex.extract(&x, MODEL_FS).unwrap();
        // 500 Hz by polyphase resampling of the 300 Hz signal.
        let up = Resampler::new(5, 3).unwrap().process(&x);
        let other = ex.extract(&up, 500.0).unwrap();
        assert_eq!(base.measured.beats, other.measured.beats);
        assert!((get(&base, "rr_cv") - get(&other, "rr_cv")).abs() < 0.01);
    }

    #[test]
    fn rejects_short_slow_and_flat_input_with_the_measured_value() {
        let ex = Extractor::new().unwrap();
        assert_eq!(
            ex.extract(&vec![0.1; 960], 300.0).unwrap_err().to_string(),
            "Recording too short: 3.2 s; at least 9 s is needed."
        );
        assert_eq!(
            ex.extract(&[0.0; 100], 25.0).unwrap_err(),
            FeatureError::SamplingRate { hz: 25.0 }
        );
        assert!(matches!(
            ex.extract(&vec![0.5; 3000], 300.0).unwrap_err(),
            FeatureError::Flat { .. }
        ));
        assert!(ex.extract(&[], f64::NAN).is_err());
        assert!(matches!(
            ex.extract(&vec![f64::NAN; 3000], 300.0).unwrap_err(),
            FeatureError::Flat { .. }
        ));
    }

    #[test]
    fn odd_ratios_huge_values_and_noise_never_panic() {
        let ex = Extractor::new().unwrap();
        let mut r = lcg(3);
        let noise: Vec<f64> = (0..3000).map(|_| r() - 0.5).collect();
        let f = ex.extract(&noise, 257.3).unwrap();
        assert_eq!(f.values.len(), FEATURE_NAMES.len());
        let huge: Vec<f64> = (0..3000)
            .map(|i| if i % 2 == 0 { 1e300 } else { -1e300 })
            .collect();
        let _ = ex.extract(&huge, 300.0);
        let spikes: Vec<f64> = (0..3000)
            .map(|i| f64::from(u8::from(i % 1000 == 0)))
            .collect();
        let _ = ex.extract(&spikes, 300.0);
    }
}
