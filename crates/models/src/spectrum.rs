//! Welch's power spectrum, shared by the models that read a signal's spectrum (the plausibility
//! gate, the 12-lead reading's atrial activity).
//!
//! Welch, P. D. (1967), "The use of fast Fourier transform for the estimation of power spectra",
//! *IEEE Trans. Audio Electroacoust.* 15(2), 70-73.

use rustfft::{num_complex::Complex, FftPlanner};

/// The one-sided power of `x` (unscaled), averaged over Hann-windowed segments of `n` samples,
/// half overlapping, each less its mean; `n / 2 + 1` bins, all zero when `x` is shorter than `n`.
pub fn welch(x: &[f64], n: usize) -> Vec<f64> {
    let hann: Vec<f64> = (0..n)
        .map(|i| 0.5 - 0.5 * (2.0 * std::f64::consts::PI * i as f64 / n as f64).cos())
        .collect();
    let fft = FftPlanner::<f64>::new().plan_fft_forward(n);
    let mut psd = vec![0.0; n / 2 + 1];
    let mut count = 0usize;
    let mut start = 0;
    let mut buf = vec![Complex::new(0.0, 0.0); n];
    while start + n <= x.len() {
        let seg = &x[start..start + n];
        let m = seg.iter().sum::<f64>() / n as f64;
        for ((b, v), w) in buf.iter_mut().zip(seg).zip(&hann) {
            *b = Complex::new((v - m) * w, 0.0);
        }
        fft.process(&mut buf);
        for (p, c) in psd.iter_mut().zip(&buf) {
            *p += c.norm_sqr();
        }
        count += 1;
        start += n / 2;
    }
    if count > 0 {
        for p in &mut psd {
            *p /= count as f64;
        }
    }
    psd
}
