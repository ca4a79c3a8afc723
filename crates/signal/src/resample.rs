//! Rational (polyphase) resampling with an anti-aliasing Kaiser-windowed FIR, equal to SciPy's
//! `signal.resample_poly(x, up, down)` with its defaults (`window=('kaiser', 5.0)`, zero padding).
//!
//! Plan once with [`Resampler::new`], then [`Resampler::process`] any number of signals.
//!
//! ```
//! use cardio_signal::resample::Resampler;
//!
//! let r = Resampler::new(250, 360).unwrap(); // 360 Hz -> 250 Hz
//! let y = r.process(&vec![1.0; 3600]);
//! assert_eq!(y.len(), 2500);
//! ```

use crate::SignalError;

/// A planned rational resampler by `up / down`.
#[derive(Debug, Clone)]
pub struct Resampler {
    up: usize,
    down: usize,
    /// Zero-padded, `up`-scaled filter taps.
    h: Vec<f64>,
    half_len: usize,
    n_pre_pad: usize,
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// Modified Bessel function of the first kind, order 0, by its power series (converges for every
/// argument used by Kaiser windows; relative error near machine precision).
fn bessel_i0(x: f64) -> f64 {
    let q = x * x / 4.0;
    let mut term = 1.0;
    let mut sum = 1.0;
    let mut k = 1.0;
    while term > sum * 1e-17 {
        term *= q / (k * k);
        sum += term;
        k += 1.0;
    }
    sum
}

/// Symmetric Kaiser window of `m` points with shape `beta`.
///
/// Kaiser, J. F., Schafer, R. W. (1980), "On the use of the I0-sinh window for spectrum analysis",
/// *IEEE Trans. Acoustics, Speech, and Signal Processing* 28(1), 105-107.
pub fn kaiser_window(m: usize, beta: f64) -> Vec<f64> {
    if m == 1 {
        return vec![1.0];
    }
    let alpha = (m - 1) as f64 / 2.0;
    let denom = bessel_i0(beta);
    (0..m)
        .map(|n| {
            let r = (n as f64 - alpha) / alpha;
            bessel_i0(beta * (1.0 - r * r).max(0.0).sqrt()) / denom
        })
        .collect()
}

fn sinc(x: f64) -> f64 {
    if x == 0.0 {
        1.0
    } else {
        let y = std::f64::consts::PI * x;
        y.sin() / y
    }
}

/// Linear-phase low-pass FIR by the window method (SciPy's `firwin(numtaps, cutoff,
/// window=('kaiser', beta))` with `cutoff` relative to Nyquist), scaled to unit gain at DC.
///
/// Kaiser, J. F. (1974), "Nonrecursive digital filter design using the I0-sinh window function",
/// *Proc. IEEE Int. Symp. Circuits and Systems*, 20-23.
pub fn firwin_lowpass(numtaps: usize, cutoff: f64, beta: f64) -> Vec<f64> {
    let alpha = 0.5 * (numtaps as f64 - 1.0);
    let win = kaiser_window(numtaps, beta);
    let mut h: Vec<f64> = (0..numtaps)
        .map(|i| {
            let m = i as f64 - alpha;
            cutoff * sinc(cutoff * m) * win[i]
        })
        .collect();
    let s: f64 = h.iter().sum();
    for v in &mut h {
        *v /= s;
    }
    h
}

impl Resampler {
    /// Plans resampling by the factor `up / down` (reduced by their greatest common divisor), with
    /// a Kaiser (β = 5) windowed-sinc anti-aliasing filter of `20 * max(up, down) + 1` taps and
    /// cut-off at `1 / max(up, down)` of Nyquist.
    ///
    /// Crochiere, R. E., Rabiner, L. R. (1983), *Multirate Digital Signal Processing*,
    /// Prentice-Hall (polyphase structure); as SciPy's `resample_poly`.
    ///
    /// # Errors
    /// [`SignalError::InvalidParameter`] when a factor is zero or the reduced factors exceed 1000.
    pub fn new(up: usize, down: usize) -> Result<Self, SignalError> {
        if up == 0 || down == 0 {
            return Err(SignalError::InvalidParameter(
                "resampling factors must be at least 1".into(),
            ));
        }
        let g = gcd(up, down);
        let (up, down) = (up / g, down / g);
        if up.max(down) > 1000 {
            return Err(SignalError::InvalidParameter(format!(
                "resampling ratio {up}/{down} is too fine; round the rates first"
            )));
        }
        let max_rate = up.max(down);
        let half_len = 10 * max_rate;
        let mut taps = firwin_lowpass(2 * half_len + 1, 1.0 / max_rate as f64, 5.0);
        for v in &mut taps {
            *v *= up as f64;
        }
        let n_pre_pad = down - half_len % down;
        let mut h = vec![0.0; n_pre_pad];
        h.extend_from_slice(&taps);
        Ok(Self {
            up,
            down,
            h,
            half_len,
            n_pre_pad,
        })
    }

    /// Plans resampling between two rates given in hertz, rounded to 1/1000 Hz.
    ///
    /// See [`Resampler::new`].
    ///
    /// # Errors
    /// As [`Resampler::new`].
    pub fn between(from_hz: f64, to_hz: f64) -> Result<Self, SignalError> {
        let f = (from_hz * 1000.0).round() as usize;
        let t = (to_hz * 1000.0).round() as usize;
        Self::new(t, f)
    }

    /// The reduced factors `(up, down)`.
    pub fn factors(&self) -> (usize, usize) {
        (self.up, self.down)
    }

    /// Number of output samples for `n_in` input samples: `ceil(n_in * up / down)`.
    pub fn output_len(&self, n_in: usize) -> usize {
        (n_in * self.up).div_ceil(self.down)
    }

    /// Resamples `x`, returning `ceil(len * up / down)` samples.
    ///
    /// See [`Resampler::new`] for the method and its reference.
    pub fn process(&self, x: &[f64]) -> Vec<f64> {
        let mut out = vec![0.0; self.output_len(x.len())];
        self.process_into(x, &mut out);
        out
    }

    /// Resamples `x` into `out`, which must hold [`Resampler::output_len`] samples; extra samples
    /// in `out` are left untouched.
    ///
    /// See [`Resampler::new`] for the method and its reference.
    pub fn process_into(&self, x: &[f64], out: &mut [f64]) {
        let n_in = x.len();
        if n_in == 0 {
            return;
        }
        if self.up == 1 && self.down == 1 {
            let n = out.len().min(n_in);
            out[..n].copy_from_slice(&x[..n]);
            return;
        }
        let n_out = self.output_len(n_in);
        let n_pre_remove = (self.half_len + self.n_pre_pad) / self.down;
        // SciPy pads the filter with trailing zeros until enough output exists; zeros change
        // nothing in the convolution, so they are not stored.
        let h = &self.h;
        let up = self.up;
        for (k, o) in out.iter_mut().take(n_out).enumerate() {
            // Output k of upfirdn is sample m = (k + n_pre_remove) * down of the convolution of h
            // with x upsampled by zero insertion.
            let m = (k + n_pre_remove) * self.down;
            let mut acc = 0.0;
            // Taps j ≡ m (mod up) meet input i = (m - j) / up; walk j up and i down together,
            // starting where i is within the input.
            let mut j = m % up;
            let mut i = (m - j) / up;
            if i >= n_in {
                j += (i - (n_in - 1)) * up;
                i = n_in - 1;
            }
            while j < h.len() {
                acc += h[j] * x[i];
                if i == 0 {
                    break;
                }
                i -= 1;
                j += up;
            }
            *o = acc;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bessel_i0_matches_known_values() {
        assert!((bessel_i0(0.0) - 1.0).abs() < 1e-15);
        assert!((bessel_i0(5.0) - 27.239_871_823_604_45).abs() < 1e-12);
    }

    #[test]
    fn keeps_a_constant_signal_away_from_the_edges() {
        let r = Resampler::new(2, 3).unwrap();
        let y = r.process(&[1.0; 300]);
        assert_eq!(y.len(), 200);
        assert!(y[20..180].iter().all(|v| (v - 1.0).abs() < 1e-3));
    }

    /// Naive oracle: zero-stuff by `up`, full convolution with the padded taps, keep every
    /// `down`-th sample starting at SciPy's offset.
    fn naive(r: &Resampler, x: &[f64]) -> Vec<f64> {
        let (up, down) = r.factors();
        let mut stuffed = vec![0.0; x.len() * up];
        for (i, v) in x.iter().enumerate() {
            stuffed[i * up] = *v;
        }
        let conv_len = stuffed.len() + r.h.len() - 1;
        let conv: Vec<f64> = (0..conv_len)
            .map(|m| {
                (0..r.h.len())
                    .filter(|&j| j <= m && m - j < stuffed.len())
                    .map(|j| r.h[j] * stuffed[m - j])
                    .sum()
            })
            .collect();
        let pre = (r.half_len + r.n_pre_pad) / down;
        (0..r.output_len(x.len()))
            .map(|k| conv.get((k + pre) * down).copied().unwrap_or(0.0))
            .collect()
    }

    #[test]
    fn polyphase_equals_the_naive_zero_stuff_convolve_decimate_oracle() {
        let mut s: u64 = 11;
        for (up, down, n) in [(2, 3, 50), (3, 2, 40), (5, 7, 61), (1, 4, 33), (4, 1, 20)] {
            let x: Vec<f64> = (0..n)
                .map(|_| {
                    s = s.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                    (s >> 33) as f64 / f64::from(1u32 << 31) - 0.5
                })
                .collect();
            let r = Resampler::new(up, down).unwrap();
            let got = r.process(&x);
            let want = naive(&r, &x);
            for (g, w) in got.iter().zip(&want) {
                assert!((g - w).abs() < 1e-12, "{up}/{down}: {g} vs {w}");
            }
        }
    }

    #[test]
    fn identity_ratio_copies() {
        let r = Resampler::new(4, 4).unwrap();
        assert_eq!(r.process(&[1.0, 2.0, 3.0]), vec![1.0, 2.0, 3.0]);
    }

    #[test]
    fn rejects_zero_factors() {
        assert!(Resampler::new(0, 3).is_err());
    }
}
