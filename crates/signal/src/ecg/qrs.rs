//! QRS detection (Pan and Tompkins 1985, with the decision rules of Hamilton and Tompkins 1986)
//! and R-peak refinement; the cited papers are on [`QrsDetector`].

use super::check_finite;
use crate::filter::{Band, Sos};
use crate::{SamplingRate, SignalError};

/// A planned QRS detector for one sampling rate.
///
/// The feature signal and decision rules follow Hamilton's open-source detector, itself a
/// refinement of Pan & Tompkins: band-pass 5-15 Hz, absolute derivative, 80 ms moving-window
/// integration; peaks held 200 ms; threshold between the medians of the last eight QRS and noise
/// peaks; search-back at 1.5 median RR for the largest sub-threshold peak above half the
/// threshold; baseline-shift rejection by requiring opposing slopes within 150 ms; T-wave
/// rejection within 360 ms of a beat when the slope is under half the previous QRS's.
///
/// Pan, J., Tompkins, W. J. (1985), "A real-time QRS detection algorithm", *IEEE Trans. Biomed.
/// Eng.* 32(3), 230-236. Hamilton, P. S., Tompkins, W. J. (1986), "Quantitative investigation of
/// QRS detection rules using the MIT/BIH arrhythmia database", *IEEE Trans. Biomed. Eng.* 33(12),
/// 1157-1165. Hamilton, P. (2002), "Open source ECG analysis", *Computers in Cardiology* 29,
/// 101-104.
#[derive(Debug, Clone)]
pub struct QrsDetector {
    fs: f64,
    bandpass: Sos,
}

pub(super) fn median8(buf: &[f64; 8]) -> f64 {
    let mut s = *buf;
    s.sort_unstable_by(f64::total_cmp);
    f64::midpoint(s[3], s[4])
}

pub(super) fn push8(buf: &mut [f64; 8], v: f64) {
    buf.copy_within(0..7, 1);
    buf[0] = v;
}

/// Samples in `seconds` at `fs`, at least 1.
pub(super) fn samples(seconds: f64, fs: f64) -> usize {
    ((seconds * fs).round() as usize).max(1)
}

impl QrsDetector {
    /// Plans the detector's filters for `fs`.
    ///
    /// Hamilton (2002), see [`QrsDetector`].
    ///
    /// # Errors
    /// [`SignalError::InvalidParameter`] when `fs` is below 40 Hz (the 5-15 Hz band needs it).
    pub fn new(fs: SamplingRate) -> Result<Self, SignalError> {
        if fs.hz() < 40.0 {
            return Err(SignalError::InvalidParameter(format!(
                "QRS detection needs at least 40 Hz, got {} Hz",
                fs.hz()
            )));
        }
        Ok(Self {
            fs: fs.hz(),
            bandpass: Sos::butterworth(2, Band::BandPass(5.0, 15.0), fs)?,
        })
    }

    /// The detection feature: moving-window (80 ms) average of the absolute derivative of the
    /// 5-15 Hz band-passed ECG, centred so that its peaks line up with the QRS.
    ///
    /// Hamilton (2002), see [`QrsDetector`].
    ///
    /// # Errors
    /// [`SignalError::TooShort`] when the signal is shorter than the filter padding.
    pub fn feature(&self, ecg: &[f64]) -> Result<Vec<f64>, SignalError> {
        let mut out = vec![0.0; ecg.len()];
        self.feature_into(ecg, &mut out, &mut Vec::new())?;
        Ok(out)
    }

    /// [`QrsDetector::feature`] into `out` (the length of `ecg`), reusing `scratch`.
    fn feature_into(
        &self,
        ecg: &[f64],
        out: &mut [f64],
        scratch: &mut Vec<f64>,
    ) -> Result<(), SignalError> {
        self.bandpass.filtfilt_into(ecg, out, scratch)?;
        let n = out.len();
        // Absolute central difference, in place (keeping the previous original value).
        let mut prev = out[0];
        for i in 1..n.saturating_sub(1) {
            let cur = out[i];
            out[i] = (out[i + 1] - prev).abs();
            prev = cur;
        }
        out[0] = 0.0;
        if n > 1 {
            out[n - 1] = 0.0;
        }
        moving_average_centered_in_place(out, samples(0.08, self.fs), scratch);
        Ok(())
    }

    /// Detects QRS complexes in a cleaned ECG (see [`clean`]) and returns the sample index of each
    /// R peak, refined to the largest deflection of `ecg` (see [`refine_r_peaks`]).
    ///
    /// Hamilton (2002); Pan & Tompkins (1985), see [`QrsDetector`].
    ///
    /// # Errors
    /// [`SignalError::NonFinite`], or [`SignalError::TooShort`] for under 0.5 s of signal.
    pub fn detect(&self, ecg: &[f64]) -> Result<Vec<usize>, SignalError> {
        self.detect_with(ecg, &mut Vec::new())
    }

    pub(super) fn detect_with(
        &self,
        ecg: &[f64],
        scratch: &mut Vec<f64>,
    ) -> Result<Vec<usize>, SignalError> {
        check_finite(ecg)?;
        let min_len = samples(0.5, self.fs);
        if ecg.len() < min_len {
            return Err(SignalError::TooShort {
                needed: min_len,
                got: ecg.len(),
            });
        }
        let mut feat = vec![0.0; ecg.len()];
        self.feature_into(ecg, &mut feat, scratch)?;
        let beats = self.decide(&feat, ecg);
        Ok(refine_r_peaks(
            ecg,
            &beats,
            SamplingRate(self.fs),
            samples(0.08, self.fs),
        ))
    }

    /// Hamilton's decision rules applied offline to the feature signal; returns feature peaks.
    fn decide(&self, feat: &[f64], ecg: &[f64]) -> Vec<usize> {
        let fs = self.fs;
        let n = feat.len();
        let hold = samples(0.2, fs);
        let ms360 = samples(0.36, fs);
        let ms150 = samples(0.15, fs);
        let half220 = samples(0.11, fs);
        let refractory = samples(0.2, fs);
        let peaks = held_peaks(feat, hold);

        // Initialise: the largest peak in each of the first eight seconds (or fewer if short).
        let sec = samples(1.0, fs);
        let mut qrsbuf = [0.0; 8];
        let init_secs = (n / sec).clamp(1, 8);
        for (k, slot) in qrsbuf.iter_mut().enumerate() {
            let s = (k % init_secs) * sec;
            let e = (s + sec).min(n);
            *slot = feat[s..e].iter().copied().fold(0.0, f64::max);
        }
        let mut noisebuf = [0.0; 8];
        let mut rrbuf = [sec as f64; 8];
        let th = 0.3125;
        let thresh = |q: f64, nz: f64| nz + th * (q - nz);
        let mut qmedian = median8(&qrsbuf);
        let mut nmedian = 0.0;
        let mut det = thresh(qmedian, nmedian);
        let mut rrmedian = sec as f64;

        let mut beats: Vec<usize> = Vec::new();
        let mut last_beat: Option<usize> = None;
        let mut lastmax = 0.0_f64;
        // Best sub-threshold candidate since the last beat, for search-back.
        let mut sb: Option<(f64, usize, f64)> = None;
        // Time of the last threshold re-learning.
        let mut last_reset = 0usize;

        let slope = |c: usize| -> (bool, f64) {
            // Baseline-shift check: a QRS has a rising and a falling slope of comparable size
            // within 150 ms of each other.
            let s = c.saturating_sub(half220).max(1);
            let e = (c + half220).min(n - 1);
            let (mut maxv, mut maxt, mut minv, mut mint) = (0.0, s, 0.0, s);
            for t in 0..e.saturating_sub(s) {
                let v = ecg[s + t + 1] - ecg[s + t - 1];
                if v > maxv {
                    maxv = v;
                    maxt = t;
                } else if v < minv {
                    minv = v;
                    mint = t;
                }
            }
            let minv = -minv;
            let ok = maxv > minv / 8.0 && minv > maxv / 8.0 && maxt.abs_diff(mint) < ms150;
            (ok, maxv.max(minv))
        };

        for &p in &peaks {
            // Search-back: no beat for 1.5 median RR, take the best sub-threshold candidate.
            if let (Some(b), Some((amp, loc, md))) = (last_beat, sb) {
                if p > b + (1.5 * rrmedian) as usize && amp > det / 2.0 {
                    accept(
                        loc,
                        amp,
                        &mut beats,
                        &mut last_beat,
                        &mut qrsbuf,
                        &mut rrbuf,
                        &mut rrmedian,
                    );
                    qmedian = median8(&qrsbuf);
                    det = thresh(qmedian, nmedian);
                    lastmax = md;
                    sb = None;
                }
            }
            // Eight seconds without a beat: re-learn the QRS level from the last eight seconds.
            let anchor = last_beat.unwrap_or(0).max(last_reset);
            if p > anchor + 8 * sec {
                let s = p - 8 * sec;
                for (k, slot) in qrsbuf.iter_mut().enumerate() {
                    let a = s + k * sec;
                    *slot = feat[a..(a + sec).min(n)]
                        .iter()
                        .copied()
                        .fold(0.0, f64::max);
                }
                noisebuf = [0.0; 8];
                qmedian = median8(&qrsbuf);
                nmedian = 0.0;
                det = thresh(qmedian, nmedian);
                last_reset = p;
                sb = None;
            }
            let (is_qrs_shape, md) = slope(p);
            self.handle_peak(
                p,
                feat[p],
                is_qrs_shape,
                md,
                &mut Handle {
                    beats: &mut beats,
                    last_beat: &mut last_beat,
                    qrsbuf: &mut qrsbuf,
                    noisebuf: &mut noisebuf,
                    rrbuf: &mut rrbuf,
                    rrmedian: &mut rrmedian,
                    qmedian: &mut qmedian,
                    nmedian: &mut nmedian,
                    det: &mut det,
                    lastmax: &mut lastmax,
                    sb: &mut sb,
                },
                (ms360, refractory),
            );
        }
        // A search-back still due at the end of the signal.
        if let (Some(b), Some((amp, loc, _))) = (last_beat, sb) {
            if n > b + (1.5 * rrmedian) as usize && amp > det / 2.0 {
                beats.push(loc);
            }
        }
        beats
    }

    #[allow(clippy::unused_self)]
    fn handle_peak(
        &self,
        p: usize,
        amp: f64,
        is_qrs_shape: bool,
        maxder: f64,
        h: &mut Handle<'_>,
        (ms360, refractory): (usize, usize),
    ) {
        if !is_qrs_shape {
            return;
        }
        let since = h.last_beat.map(|b| p.saturating_sub(b));
        if since.is_some_and(|s| s < refractory) {
            return;
        }
        let t_wave = since.is_some_and(|s| s < ms360) && maxder < *h.lastmax / 2.0;
        let th = 0.3125;
        if amp > *h.det && !t_wave {
            accept(p, amp, h.beats, h.last_beat, h.qrsbuf, h.rrbuf, h.rrmedian);
            *h.qmedian = median8(h.qrsbuf);
            *h.det = *h.nmedian + th * (*h.qmedian - *h.nmedian);
            *h.lastmax = maxder;
            *h.sb = None;
        } else {
            push8(h.noisebuf, amp);
            *h.nmedian = median8(h.noisebuf);
            *h.det = *h.nmedian + th * (*h.qmedian - *h.nmedian);
            // Early peaks (possible T waves) are not search-back candidates.
            if since.is_none_or(|s| s >= ms360) && h.sb.is_none_or(|(a, _, _)| amp > a) {
                *h.sb = Some((amp, p, maxder));
            }
        }
    }
}

pub(super) struct Handle<'a> {
    pub(super) beats: &'a mut Vec<usize>,
    pub(super) last_beat: &'a mut Option<usize>,
    pub(super) qrsbuf: &'a mut [f64; 8],
    pub(super) noisebuf: &'a mut [f64; 8],
    pub(super) rrbuf: &'a mut [f64; 8],
    pub(super) rrmedian: &'a mut f64,
    pub(super) qmedian: &'a mut f64,
    pub(super) nmedian: &'a mut f64,
    pub(super) det: &'a mut f64,
    pub(super) lastmax: &'a mut f64,
    pub(super) sb: &'a mut Option<(f64, usize, f64)>,
}

pub(super) fn accept(
    p: usize,
    amp: f64,
    beats: &mut Vec<usize>,
    last_beat: &mut Option<usize>,
    qrsbuf: &mut [f64; 8],
    rrbuf: &mut [f64; 8],
    rrmedian: &mut f64,
) {
    push8(qrsbuf, amp);
    if let Some(b) = *last_beat {
        push8(rrbuf, (p - b) as f64);
        *rrmedian = median8(rrbuf);
    }
    beats.push(p);
    *last_beat = Some(p);
}

/// Local maxima of `x`, each kept only if no larger maximum follows within `hold` samples and it
/// exceeds any maximum in the preceding `hold` samples that was itself kept (Hamilton's 200 ms
/// peak hold).
pub(super) fn held_peaks(x: &[f64], hold: usize) -> Vec<usize> {
    let n = x.len();
    let mut maxima = Vec::new();
    for i in 1..n.saturating_sub(1) {
        if x[i] > x[i - 1] && x[i] >= x[i + 1] && x[i] > 0.0 {
            maxima.push(i);
        }
    }
    let mut out: Vec<usize> = Vec::with_capacity(maxima.len());
    let mut held: Option<usize> = None;
    for &m in &maxima {
        match held {
            None => held = Some(m),
            Some(h) => {
                if m - h > hold {
                    out.push(h);
                    held = Some(m);
                } else if x[m] > x[h] {
                    held = Some(m);
                }
            }
        }
    }
    if let Some(h) = held {
        out.push(h);
    }
    out
}

/// Centred moving average with window `w` (shrinking at the edges), O(n).
pub(super) fn moving_average_centered_in_place(x: &mut [f64], w: usize, prefix: &mut Vec<f64>) {
    let n = x.len();
    prefix.clear();
    prefix.reserve(n + 1);
    prefix.push(0.0);
    let mut acc = 0.0;
    for v in x.iter() {
        acc += v;
        prefix.push(acc);
    }
    let half = w / 2;
    for (i, v) in x.iter_mut().enumerate() {
        let s = i.saturating_sub(half);
        let e = (i + w - half).min(n);
        *v = (prefix[e] - prefix[s]) / (e - s) as f64;
    }
}

/// Moves each detected beat to the largest absolute deflection of `ecg` from its local median
/// level within `± window` samples, so that R peaks sit on the true extremum (positive or
/// negative QRS) of the given signal; duplicates created by the move are dropped.
///
/// Pan & Tompkins (1985) locate the fiducial point on the band-passed signal; here the extremum
/// is taken on the cleaned signal as in Makowski et al. (2021), NeuroKit2 `_ecg_findpeaks`
/// correction step.
pub fn refine_r_peaks(ecg: &[f64], beats: &[usize], fs: SamplingRate, window: usize) -> Vec<usize> {
    let n = ecg.len();
    let mut out: Vec<usize> = Vec::with_capacity(beats.len());
    let level_half = samples(0.15, fs.hz());
    for &b in beats {
        if n == 0 {
            break;
        }
        let s = b.saturating_sub(window);
        let e = (b + window + 1).min(n);
        // Local level: mean of the window ends 150 ms away (cheap stand-in for the isoelectric line).
        let ls = b.saturating_sub(level_half);
        let le = (b + level_half).min(n - 1);
        let level = f64::midpoint(ecg[ls], ecg[le]);
        let mut best = b.min(n - 1);
        let mut best_v = -1.0;
        for (i, &v) in ecg.iter().enumerate().take(e).skip(s) {
            let a = (v - level).abs();
            if a > best_v {
                best_v = a;
                best = i;
            }
        }
        if out.last().is_none_or(|&l| best > l) {
            out.push(best);
        }
    }
    out
}
