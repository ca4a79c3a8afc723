//! IIR filters as cascades of second-order sections: Butterworth design, notch design, causal and
//! zero-phase filtering, and baseline-wander removal.
//!
//! Design follows SciPy's `signal.butter(..., output='sos')` step by step (analogue prototype,
//! frequency pre-warping, band transformation, bilinear transform, SciPy's `zpk2sos` pole/zero
//! pairing), so coefficients agree with SciPy to rounding error; the golden tests check this.
//! Plan once ([`Sos`]), process many ([`Sos::filter_in_place`], [`Sos::filtfilt`]).
//!
//! ```
//! use cardio_signal::{filter::{Band, Sos}, SamplingRate};
//!
//! let fs = SamplingRate::new(360.0).unwrap();
//! let lp = Sos::butterworth(4, Band::LowPass(40.0), fs).unwrap();
//! let x: Vec<f64> = (0..1000).map(|i| (i as f64 * 0.01).sin()).collect();
//! let y = lp.filtfilt(&x).unwrap();
//! assert_eq!(y.len(), x.len());
//! ```

use crate::complex::C64;
use crate::{SamplingRate, SignalError};

mod baseline;
mod design;

pub use baseline::{median_filter, remove_baseline_highpass, remove_baseline_median};
use design::{bilinear_zpk, run_sections, zpk2sos};

/// Which band a Butterworth filter keeps, with its edge frequencies in hertz.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Band {
    /// Keeps frequencies below the cut-off.
    LowPass(f64),
    /// Keeps frequencies above the cut-off.
    HighPass(f64),
    /// Keeps frequencies between the two edges.
    BandPass(f64, f64),
    /// Removes frequencies between the two edges.
    BandStop(f64, f64),
}

/// A digital IIR filter as a cascade of second-order sections `[b0, b1, b2, a0, a1, a2]`, with
/// `a0 == 1` in every section (SciPy's `sos` layout).
#[derive(Debug, Clone, PartialEq)]
pub struct Sos {
    sections: Vec<[f64; 6]>,
}

impl Sos {
    /// Builds a filter from given sections, normalising each so that `a0 == 1`.
    ///
    /// # Errors
    /// [`SignalError::InvalidParameter`] when there are no sections, a coefficient is not finite or
    /// an `a0` is zero.
    pub fn from_sections(sections: Vec<[f64; 6]>) -> Result<Self, SignalError> {
        if sections.is_empty() {
            return Err(SignalError::InvalidParameter(
                "a filter needs at least one section".into(),
            ));
        }
        let mut out = sections;
        for s in &mut out {
            if s.iter().any(|c| !c.is_finite()) || s[3] == 0.0 {
                return Err(SignalError::InvalidParameter(
                    "filter coefficients must be finite with a0 != 0".into(),
                ));
            }
            let a0 = s[3];
            for c in s.iter_mut() {
                *c /= a0;
            }
        }
        Ok(Self { sections: out })
    }

    /// Designs a digital Butterworth filter of the given order as second-order sections.
    ///
    /// Butterworth, S. (1930), "On the theory of filter amplifiers", *Wireless Engineer* 7, 536-541;
    /// digitised with the bilinear transform and pre-warping as in SciPy's `signal.butter`
    /// (Virtanen et al. 2020, *Nature Methods* 17, 261-272). Band-pass and band-stop filters have
    /// twice `order` poles, as in SciPy.
    ///
    /// # Errors
    /// [`SignalError::InvalidParameter`] when `order` is 0 or above 32, or an edge is not strictly
    /// between 0 and the Nyquist frequency (or the edges are not increasing).
    pub fn butterworth(order: usize, band: Band, fs: SamplingRate) -> Result<Self, SignalError> {
        if order == 0 || order > 32 {
            return Err(SignalError::InvalidParameter(format!(
                "Butterworth order must be between 1 and 32, got {order}"
            )));
        }
        let order_i = i32::try_from(order).expect("order checked above");
        let nyq = fs.hz() / 2.0;
        let check = |f: f64| -> Result<f64, SignalError> {
            let wn = 2.0 * f / fs.hz();
            if f.is_finite() && wn > 0.0 && wn < 1.0 {
                Ok(wn)
            } else {
                Err(SignalError::InvalidParameter(format!(
                    "filter edge {f} Hz must lie strictly between 0 and the Nyquist frequency {nyq} Hz"
                )))
            }
        };
        // SciPy: fs = 2, warped = 2 * fs * tan(pi * Wn / fs).
        let warp = |wn: f64| 4.0 * (std::f64::consts::PI * wn / 2.0).tan();
        // Analogue prototype (buttap): p = -exp(i*pi*m/(2N)), m = -N+1, -N+3, ..., N-1; k = 1.
        let n = order as f64;
        let proto: Vec<C64> = (0..order)
            .map(|j| {
                let m = -n + 1.0 + 2.0 * j as f64;
                -C64::new(0.0, std::f64::consts::PI * m / (2.0 * n)).exp()
            })
            .collect();
        let (z, p, k) = match band {
            Band::LowPass(f) => {
                let wo = warp(check(f)?);
                let p: Vec<C64> = proto.iter().map(|&q| q * wo).collect();
                (Vec::new(), p, wo.powi(order_i))
            }
            Band::HighPass(f) => {
                let wo = warp(check(f)?);
                let p: Vec<C64> = proto.iter().map(|&q| C64::real(wo) / q).collect();
                let z = vec![C64::real(0.0); order];
                // k * real(prod(-z) / prod(-p)) with no prototype zeros.
                let prod = proto.iter().fold(C64::real(1.0), |acc, &q| acc * -q);
                (z, p, (C64::real(1.0) / prod).re)
            }
            Band::BandPass(f1, f2) | Band::BandStop(f1, f2) => {
                let (w1, w2) = (warp(check(f1)?), warp(check(f2)?));
                if w2 <= w1 {
                    return Err(SignalError::InvalidParameter(format!(
                        "band edges must increase, got {f1} Hz and {f2} Hz"
                    )));
                }
                let bw = w2 - w1;
                let wo = (w1 * w2).sqrt();
                let wo2 = C64::real(wo * wo);
                if matches!(band, Band::BandPass(..)) {
                    let lp: Vec<C64> = proto.iter().map(|&q| q * (bw / 2.0)).collect();
                    let mut p: Vec<C64> = lp.iter().map(|&q| q + (q * q - wo2).sqrt()).collect();
                    p.extend(lp.iter().map(|&q| q - (q * q - wo2).sqrt()));
                    (vec![C64::real(0.0); order], p, bw.powi(order_i))
                } else {
                    let hp: Vec<C64> = proto.iter().map(|&q| C64::real(bw / 2.0) / q).collect();
                    let mut p: Vec<C64> = hp.iter().map(|&q| q + (q * q - wo2).sqrt()).collect();
                    p.extend(hp.iter().map(|&q| q - (q * q - wo2).sqrt()));
                    let mut z = vec![C64::new(0.0, wo); order];
                    z.extend(std::iter::repeat_n(C64::new(0.0, -wo), order));
                    let prod = proto.iter().fold(C64::real(1.0), |acc, &q| acc * -q);
                    (z, p, (C64::real(1.0) / prod).re)
                }
            }
        };
        let (zd, pd, kd) = bilinear_zpk(&z, &p, k, 2.0);
        Ok(Self {
            sections: zpk2sos(zd, pd, kd),
        })
    }

    /// Designs a second-order IIR notch filter at `f0` hertz with quality factor `q`
    /// (bandwidth `f0 / q` at -3 dB).
    ///
    /// Orfanidis, S. J. (1996), *Introduction to Signal Processing*, Prentice Hall, §11.3 (as
    /// SciPy's `signal.iirnotch`). Powerline interference is removed with `f0` = 50 or 60 Hz and
    /// `q` ≈ 30.
    ///
    /// # Errors
    /// [`SignalError::InvalidParameter`] when `f0` is not strictly inside (0, Nyquist) or `q` is
    /// not a finite positive number.
    pub fn notch(f0: f64, q: f64, fs: SamplingRate) -> Result<Self, SignalError> {
        let w0 = 2.0 * f0 / fs.hz();
        if !(f0.is_finite() && w0 > 0.0 && w0 < 1.0) {
            return Err(SignalError::InvalidParameter(format!(
                "notch frequency {f0} Hz must lie strictly between 0 and the Nyquist frequency"
            )));
        }
        if !(q.is_finite() && q > 0.0) {
            return Err(SignalError::InvalidParameter(format!(
                "notch quality factor must be positive, got {q}"
            )));
        }
        let bw = w0 / q * std::f64::consts::PI;
        let w0 = w0 * std::f64::consts::PI;
        let gb = std::f64::consts::FRAC_1_SQRT_2;
        let beta = ((1.0 - gb * gb).sqrt() / gb) * (bw / 2.0).tan();
        let gain = 1.0 / (1.0 + beta);
        let c = w0.cos();
        Ok(Self {
            sections: vec![[
                gain,
                -2.0 * c * gain,
                gain,
                1.0,
                -2.0 * gain * c,
                2.0 * gain - 1.0,
            ]],
        })
    }

    /// The sections, `[b0, b1, b2, 1, a1, a2]` each.
    pub fn sections(&self) -> &[[f64; 6]] {
        &self.sections
    }

    /// Appends the sections of `other` so that the result applies `self` then `other`.
    #[must_use]
    pub fn then(mut self, other: &Sos) -> Self {
        self.sections.extend_from_slice(&other.sections);
        self
    }

    /// Initial conditions for [`Sos::filter_in_place`] that correspond to the steady state of a
    /// unit step (SciPy's `sosfilt_zi`); multiply by the first sample to start without a transient.
    ///
    /// Gustafsson, F. (1996), "Determining the initial states in forward-backward filtering",
    /// *IEEE Trans. Signal Processing* 44(4), 988-992.
    pub fn steady_state(&self) -> Vec<[f64; 2]> {
        let mut scale = 1.0;
        self.sections
            .iter()
            .map(|s| {
                let (b0, b1, b2, a1, a2) = (s[0], s[1], s[2], s[4], s[5]);
                // lfilter_zi for a second-order section: (I - A^T) zi = b[1:] - a[1:] * b0.
                let r0 = b1 - a1 * b0;
                let r1 = b2 - a2 * b0;
                let z0 = (r0 + r1) / (1.0 + a1 + a2);
                let z1 = r1 - a2 * z0;
                let zi = [scale * z0, scale * z1];
                scale *= (b0 + b1 + b2) / (1.0 + a1 + a2);
                zi
            })
            .collect()
    }

    /// Filters `data` in place, causally (SciPy's `sosfilt`), in transposed direct form II,
    /// carrying `state` (one `[f64; 2]` per section; zeros for a fresh start) across calls.
    ///
    /// Direct form II transposed: Oppenheim & Schafer (2010), *Discrete-Time Signal Processing*,
    /// 3rd ed., §6.5.
    ///
    /// # Panics
    /// When `state` does not have one entry per section (a programming error, not an input one).
    pub fn filter_in_place(&self, data: &mut [f64], state: &mut [[f64; 2]]) {
        assert_eq!(state.len(), self.sections.len(), "one state per section");
        // Sections are run together sample by sample (in groups of up to four) so that their
        // independent recurrences overlap in the CPU pipeline; the arithmetic per section is
        // exactly that of running them one after another.
        self.run(data, state, false);
    }

    /// Runs the cascade forwards, or backwards (last sample first) when `reverse` is set.
    fn run(&self, data: &mut [f64], state: &mut [[f64; 2]], reverse: bool) {
        for (group, zs) in self.sections.chunks(4).zip(state.chunks_mut(4)) {
            match (group.len(), reverse) {
                (4, false) => run_sections::<4>(group, zs, data.iter_mut()),
                (3, false) => run_sections::<3>(group, zs, data.iter_mut()),
                (2, false) => run_sections::<2>(group, zs, data.iter_mut()),
                (_, false) => run_sections::<1>(group, zs, data.iter_mut()),
                (4, true) => run_sections::<4>(group, zs, data.iter_mut().rev()),
                (3, true) => run_sections::<3>(group, zs, data.iter_mut().rev()),
                (2, true) => run_sections::<2>(group, zs, data.iter_mut().rev()),
                (_, true) => run_sections::<1>(group, zs, data.iter_mut().rev()),
            }
        }
    }

    /// Filters a whole signal causally from a zero state, returning a new vector.
    pub fn filter(&self, x: &[f64]) -> Vec<f64> {
        let mut out = x.to_vec();
        let mut state = vec![[0.0; 2]; self.sections.len()];
        self.filter_in_place(&mut out, &mut state);
        out
    }

    /// The default edge padding of [`Sos::filtfilt`] (SciPy: `3 * ntaps`, where `ntaps` is
    /// `2 * sections + 1` less the sections whose `b2` and `a2` are both zero).
    pub fn default_padlen(&self) -> usize {
        let nb = self.sections.iter().filter(|s| s[2] == 0.0).count();
        let na = self.sections.iter().filter(|s| s[5] == 0.0).count();
        3 * (2 * self.sections.len() + 1 - nb.min(na))
    }

    /// Zero-phase forward-backward filtering with odd extension at both ends and steady-state
    /// initial conditions, equal to SciPy's `sosfiltfilt(sos, x)` with its defaults.
    ///
    /// Gustafsson, F. (1996), "Determining the initial states in forward-backward filtering",
    /// *IEEE Trans. Signal Processing* 44(4), 988-992.
    ///
    /// # Errors
    /// [`SignalError::TooShort`] when `x` has no more samples than the padding.
    pub fn filtfilt(&self, x: &[f64]) -> Result<Vec<f64>, SignalError> {
        let mut out = vec![0.0; x.len()];
        let mut scratch = Vec::new();
        self.filtfilt_into(x, &mut out, &mut scratch)?;
        Ok(out)
    }

    /// [`Sos::filtfilt`] writing into `out` (same length as `x`), reusing `scratch` across calls.
    ///
    /// Gustafsson (1996), see [`Sos::filtfilt`].
    ///
    /// # Errors
    /// [`SignalError::TooShort`] when `x` has no more samples than the padding;
    /// [`SignalError::InvalidParameter`] when `out` has another length than `x`.
    pub fn filtfilt_into(
        &self,
        x: &[f64],
        out: &mut [f64],
        scratch: &mut Vec<f64>,
    ) -> Result<(), SignalError> {
        let edge = self.default_padlen();
        if x.len() <= edge {
            return Err(SignalError::TooShort {
                needed: edge + 1,
                got: x.len(),
            });
        }
        if out.len() != x.len() {
            return Err(SignalError::InvalidParameter(
                "output buffer must have the input's length".into(),
            ));
        }
        let n = x.len();
        scratch.clear();
        scratch.reserve(n + 2 * edge);
        let (first, last) = (x[0], x[n - 1]);
        scratch.extend((1..=edge).rev().map(|i| 2.0 * first - x[i]));
        scratch.extend_from_slice(x);
        scratch.extend((1..=edge).map(|i| 2.0 * last - x[n - 1 - i]));
        let zi = self.steady_state();
        // SciPy multiplies the steady state by the first sample of the *extended* signal.
        let x0 = scratch[0];
        let mut state: Vec<[f64; 2]> = zi.iter().map(|z| [z[0] * x0, z[1] * x0]).collect();
        self.run(scratch, &mut state, false);
        // Backward pass, run from the last sample without reversing the buffer.
        let y0 = scratch[scratch.len() - 1];
        for (st, z) in state.iter_mut().zip(&zi) {
            *st = [z[0] * y0, z[1] * y0];
        }
        self.run(scratch, &mut state, true);
        out.copy_from_slice(&scratch[edge..edge + n]);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fs(hz: f64) -> SamplingRate {
        SamplingRate::new(hz).unwrap()
    }

    #[test]
    fn lowpass_has_unit_gain_at_dc() {
        let sos = Sos::butterworth(4, Band::LowPass(40.0), fs(360.0)).unwrap();
        let x = vec![1.0; 2000];
        let y = sos.filter(&x);
        assert!((y[1999] - 1.0).abs() < 1e-9);
    }

    #[test]
    fn highpass_removes_dc_and_keeps_fast_signal() {
        let sos = Sos::butterworth(2, Band::HighPass(0.5), fs(250.0)).unwrap();
        let x: Vec<f64> = (0..5000_usize)
            .map(|i| 3.0 + (2.0 * std::f64::consts::PI * 10.0 * i as f64 / 250.0).sin())
            .collect();
        let y = sos.filtfilt(&x).unwrap();
        let mean: f64 = y[1000..4000].iter().sum::<f64>() / 3000.0;
        assert!(mean.abs() < 0.01, "{mean}");
        let peak = y[1000..4000].iter().copied().fold(0.0, f64::max);
        assert!((peak - 1.0).abs() < 0.02, "{peak}");
    }

    #[test]
    fn rejects_edges_outside_nyquist_and_bad_orders() {
        assert!(Sos::butterworth(2, Band::LowPass(200.0), fs(360.0)).is_err());
        assert!(Sos::butterworth(0, Band::LowPass(20.0), fs(360.0)).is_err());
        assert!(Sos::butterworth(2, Band::BandPass(20.0, 10.0), fs(360.0)).is_err());
        assert!(Sos::notch(50.0, 0.0, fs(360.0)).is_err());
    }

    #[test]
    fn filtfilt_rejects_too_short_input() {
        let sos = Sos::butterworth(4, Band::LowPass(40.0), fs(360.0)).unwrap();
        assert!(matches!(
            sos.filtfilt(&[1.0; 10]),
            Err(SignalError::TooShort { .. })
        ));
    }

    #[test]
    fn cascaded_filtering_equals_a_naive_direct_form_one_oracle() {
        let sos = Sos::butterworth(3, Band::BandPass(1.0, 20.0), fs(100.0)).unwrap();
        let x: Vec<f64> = (0..300_usize)
            .map(|i| ((i * 37 % 23) as f64) - 11.0)
            .collect();
        let mut want = x.clone();
        for s in sos.sections() {
            let input = want.clone();
            for i in 0..input.len() {
                let xm = |k: usize| if i >= k { input[i - k] } else { 0.0 };
                let ym = |k: usize, y: &[f64]| if i >= k { y[i - k] } else { 0.0 };
                want[i] = s[0] * xm(0) + s[1] * xm(1) + s[2] * xm(2)
                    - s[4] * ym(1, &want)
                    - s[5] * ym(2, &want);
            }
        }
        let got = sos.filter(&x);
        for (g, w) in got.iter().zip(&want) {
            assert!((g - w).abs() < 1e-9 * w.abs().max(1.0), "{g} vs {w}");
        }
    }

    #[test]
    fn notch_removes_its_frequency() {
        let sos = Sos::notch(50.0, 30.0, fs(500.0)).unwrap();
        let x: Vec<f64> = (0..5000_usize)
            .map(|i| (2.0 * std::f64::consts::PI * 50.0 * i as f64 / 500.0).sin())
            .collect();
        let y = sos.filtfilt(&x).unwrap();
        assert!(y[1000..4000].iter().all(|v| v.abs() < 0.01));
    }

    #[test]
    fn median_filter_matches_naive_oracle() {
        let x: Vec<f64> = (0..200_usize)
            .map(|i| ((i * 7919) % 101) as f64 - 50.0)
            .collect();
        let got = median_filter(&x, 9);
        for i in 0..x.len() {
            let h = 4usize.min(i).min(x.len() - 1 - i);
            let mut w: Vec<f64> = x[i - h..=i + h].to_vec();
            w.sort_unstable_by(f64::total_cmp);
            assert_eq!(got[i], w[w.len() / 2], "at {i}");
        }
    }

    #[test]
    fn median_baseline_removal_flattens_a_slow_ramp() {
        let x: Vec<f64> = (0..3600_usize).map(|i| i as f64 * 0.001).collect();
        let y = remove_baseline_median(&x, fs(360.0));
        assert!(y[200..3400].iter().all(|v| v.abs() < 1e-9));
    }
}
