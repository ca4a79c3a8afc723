//! The à trous dyadic wavelet transform with the quadratic-spline wavelet (the derivative of a
//! cubic-spline smoothing function) used by the wavelet delineator.
//!
//! Filters after Mallat, S., Zhong, S. (1992), "Characterization of signals from multiscale edges",
//! *IEEE Trans. Pattern Anal. Mach. Intell.* 14(7), 710-732: low-pass `h = [1 3 3 1] / 8`,
//! high-pass `g = 2 [1 -1]`, both dilated by `2^(k-1)` at level `k` (the algorithme à trous),
//! as used by Martínez, J. P., Almeida, R., Olmos, S., Rocha, A. P., Laguna, P. (2004), "A
//! wavelet-based ECG delineator: evaluation on standard databases", *IEEE Trans. Biomed. Eng.*
//! 51(4), 570-581. Each level's output is shifted back by its filter delay so that a wave's
//! extremum sits on a zero crossing and its slopes on modulus maxima at the same samples (to within
//! half a sample). Samples beyond the ends are the end samples repeated.

/// The transform of one signal at levels `1..=levels`, in caller-owned buffers (plan once, reuse
/// for every lead).
#[derive(Debug, Clone, Default)]
pub(super) struct Dyadic {
    /// `w[k - 1]` is the detail signal at level `k`, the length of the input.
    w: Vec<Vec<f64>>,
    approx: Vec<f64>,
    next: Vec<f64>,
}

impl Dyadic {
    /// Computes levels `1..=levels` of `x`, reusing the buffers.
    pub(super) fn compute(&mut self, x: &[f64], levels: usize) {
        let n = x.len();
        self.w.resize_with(levels, Vec::new);
        self.approx.clear();
        self.approx.extend_from_slice(x);
        self.next.resize(n, 0.0);
        if n == 0 {
            for w in &mut self.w {
                w.clear();
            }
            return;
        }
        let last = n - 1;
        // Accumulated delay of the approximation (in samples, times two to stay integral).
        let mut delay2: usize = 0;
        for k in 0..levels {
            let step = 1usize << k;
            let a = &self.approx;
            // Detail: 2 (a[n + step] - a[n]), centred at n + step/2 + delay; shift it back.
            let shift = usize::midpoint(delay2, step);
            let w = &mut self.w[k];
            w.resize(n, 0.0);
            for (i, out) in w.iter_mut().enumerate() {
                let hi = (i + step).saturating_sub(shift).min(last);
                let lo = i.saturating_sub(shift).min(last);
                *out = 2.0 * (a[hi] - a[lo]);
            }
            // Approximation: (a[n - step] + 3 a[n] + 3 a[n + step] + a[n + 2 step]) / 8,
            // centred at n + step/2 + delay.
            for (i, out) in self.next.iter_mut().enumerate() {
                *out = (a[i.saturating_sub(step)]
                    + 3.0 * a[i]
                    + 3.0 * a[(i + step).min(last)]
                    + a[(i + 2 * step).min(last)])
                    / 8.0;
            }
            std::mem::swap(&mut self.approx, &mut self.next);
            delay2 += step;
        }
    }

    /// The detail signal at level `k` (1-based); empty when not computed.
    pub(super) fn level(&self, k: usize) -> &[f64] {
        k.checked_sub(1)
            .and_then(|i| self.w.get(i))
            .map_or(&[], Vec::as_slice)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_gaussian_peak_is_a_zero_crossing_between_two_opposite_maxima_at_every_level() {
        let c = 500usize;
        let x: Vec<f64> = (0..1000usize)
            .map(|i| {
                let d = (i as f64 - c as f64) / 20.0;
                (-d * d / 2.0).exp()
            })
            .collect();
        let mut t = Dyadic::default();
        t.compute(&x, 5);
        for k in 1..=5 {
            let w = t.level(k);
            let (imax, _) = w
                .iter()
                .enumerate()
                .max_by(|a, b| a.1.total_cmp(b.1))
                .unwrap();
            let (imin, _) = w
                .iter()
                .enumerate()
                .min_by(|a, b| a.1.total_cmp(b.1))
                .unwrap();
            assert!(imax < c && imin > c, "level {k}: {imax} {imin}");
            let zc = (imax..imin)
                .find(|&i| w[i] > 0.0 && w[i + 1] <= 0.0)
                .unwrap();
            assert!(zc.abs_diff(c) <= 1, "level {k}: zero crossing at {zc}");
        }
    }

    #[test]
    fn an_empty_signal_gives_empty_levels() {
        let mut t = Dyadic::default();
        t.compute(&[], 3);
        assert!(t.level(2).is_empty());
        assert!(t.level(9).is_empty());
    }
}
