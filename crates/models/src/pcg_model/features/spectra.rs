//! Spectra of heart-sound segments: Welch power spectra, band powers, MFCC-like cepstra on a mel
//! filter bank, spectral entropy and centroid.

use rustfft::{num_complex::Complex, Fft, FftPlanner};

use super::{ANALYSIS_HZ, FRAME, N_CEPSTRA, N_MEL};

/// Spectral analysis of short segments: Hann frames of [`FRAME`] samples, half overlapping,
/// averaged (Welch, P. D. (1967), *IEEE Trans. Audio Electroacoust.* 15(2), 70-73); a segment
/// shorter than a frame is zero-padded.
pub(super) struct Spectra {
    window: Vec<f64>,
    /// The transform of [`FRAME`] samples, planned once (Cooley, J. W., Tukey, J. W. (1965), "An
    /// algorithm for the machine calculation of complex Fourier series", *Mathematics of
    /// Computation* 19(90), 297-301; `rustfft`).
    fft: std::sync::Arc<dyn Fft<f64>>,
    buffer: Vec<Complex<f64>>,
}

impl Spectra {
    pub(super) fn new() -> Self {
        let window = (0..FRAME)
            .map(|i| 0.5 - 0.5 * (2.0 * std::f64::consts::PI * i as f64 / FRAME as f64).cos())
            .collect();
        Self {
            window,
            fft: FftPlanner::new().plan_fft_forward(FRAME),
            buffer: vec![Complex::new(0.0, 0.0); FRAME],
        }
    }

    /// Mean power per bin (`FRAME / 2 + 1` bins) of `seg`, per sample: the sum over bins equals
    /// the mean square of the (windowed, mean-removed) segment.
    pub(super) fn psd(&mut self, seg: &[f64]) -> Vec<f64> {
        let mut out = vec![0.0; FRAME / 2 + 1];
        if seg.is_empty() {
            return out;
        }
        let hop = FRAME / 2;
        let mut starts = vec![0];
        while starts.last().is_some_and(|&s| s + FRAME < seg.len()) {
            let next = starts.last().map_or(0, |&s| s + hop);
            starts.push(next.min(seg.len() - FRAME));
        }
        starts.dedup();
        for &s in &starts {
            let frame = &seg[s..(s + FRAME).min(seg.len())];
            let mean = frame.iter().sum::<f64>() / frame.len() as f64;
            // A short frame gets a Hann window of its own length, centred in the zero padding.
            let len = frame.len();
            let offset = (FRAME - len) / 2;
            self.buffer.fill(Complex::new(0.0, 0.0));
            let mut wsum = 0.0;
            for (i, v) in frame.iter().enumerate() {
                let w = if len == FRAME {
                    self.window[i]
                } else {
                    0.5 - 0.5 * (2.0 * std::f64::consts::PI * i as f64 / len as f64).cos()
                };
                self.buffer[offset + i].re = (v - mean) * w;
                wsum += w * w;
            }
            self.fft.process(&mut self.buffer);
            // Parseval: Σ_k |X_k|² = N Σ_n (x_n w_n)², so dividing by N Σ w² gives mean-square units.
            let norm = 1.0 / (wsum.max(1e-300) * FRAME as f64 * starts.len() as f64);
            for (k, o) in out.iter_mut().enumerate() {
                let p = self.buffer[k].norm_sqr();
                let one_sided = if k == 0 || k == FRAME / 2 { 1.0 } else { 2.0 };
                *o += p * one_sided * norm;
            }
        }
        out
    }
}

pub(super) fn bin_hz() -> f64 {
    ANALYSIS_HZ / FRAME as f64
}

/// Power of a spectrum in `[lo, hi)` hertz.
pub(super) fn band_power(psd: &[f64], lo: f64, hi: f64) -> f64 {
    psd.iter()
        .enumerate()
        .filter(|(k, _)| {
            let f = *k as f64 * bin_hz();
            f >= lo && f < hi
        })
        .map(|(_, p)| p)
        .sum()
}

/// Triangular mel filters over 25-400 Hz on the FFT bins (Davis & Mermelstein 1980; the filters
/// of [`crate::pcg_model::spectrogram::mel_filters`]).
pub(super) fn mel_bank() -> Vec<Vec<f64>> {
    crate::pcg_model::spectrogram::mel_filters(N_MEL, 25.0, 400.0, FRAME, ANALYSIS_HZ)
}

/// MFCC-like coefficients c0..c11 of a power spectrum (log mel energies, DCT-II), the spectrum
/// first scaled by `reference` so that c0 is a level relative to the recording.
pub(super) fn cepstra(psd: &[f64], bank: &[Vec<f64>], reference: f64) -> Vec<f64> {
    let logs: Vec<f64> = bank
        .iter()
        .map(|w| {
            let e: f64 = w.iter().zip(psd).map(|(w, p)| w * p).sum();
            (e / reference.max(1e-300) + 1e-12).ln()
        })
        .collect();
    (0..N_CEPSTRA)
        .map(|c| {
            logs.iter()
                .enumerate()
                .map(|(j, l)| {
                    l * (std::f64::consts::PI * c as f64 * (j as f64 + 0.5) / N_MEL as f64).cos()
                })
                .sum::<f64>()
                / N_MEL as f64
        })
        .collect()
}

/// Normalised Shannon entropy of the spectrum in 25-400 Hz (0 = one bin, 1 = flat).
pub(super) fn spectral_entropy(psd: &[f64]) -> f64 {
    let sel: Vec<f64> = psd
        .iter()
        .enumerate()
        .filter(|(k, _)| {
            let f = *k as f64 * bin_hz();
            (25.0..400.0).contains(&f)
        })
        .map(|(_, p)| *p)
        .collect();
    let total: f64 = sel.iter().sum();
    if total <= 0.0 || sel.len() < 2 {
        return f64::NAN;
    }
    -sel.iter()
        .filter(|&&p| p > 0.0)
        .map(|p| {
            let q = p / total;
            q * q.ln()
        })
        .sum::<f64>()
        / (sel.len() as f64).ln()
}

/// Power-weighted mean frequency in 25-400 Hz.
pub(super) fn spectral_centroid(psd: &[f64]) -> f64 {
    let (mut num, mut den) = (0.0, 0.0);
    for (k, p) in psd.iter().enumerate() {
        let f = k as f64 * bin_hz();
        if (25.0..400.0).contains(&f) {
            num += f * p;
            den += p;
        }
    }
    if den > 0.0 {
        num / den
    } else {
        f64::NAN
    }
}
