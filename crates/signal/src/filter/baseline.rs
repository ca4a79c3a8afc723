//! Baseline-wander removal: two-stage median filtering (de Chazal et al. 2004) or a zero-phase
//! high-pass, and the running median they use.

use super::{Band, Sos};
use crate::{SamplingRate, SignalError};

/// Removes baseline wander with two cascaded median filters of 200 ms and 600 ms whose output (the
/// baseline estimate) is subtracted from the signal.
///
/// de Chazal, P., O'Dwyer, M., Reilly, R. B. (2004), "Automatic classification of heartbeats using
/// ECG morphology and heartbeat interval features", *IEEE Trans. Biomed. Eng.* 51(7), 1196-1206.
pub fn remove_baseline_median(x: &[f64], fs: SamplingRate) -> Vec<f64> {
    let w1 = odd_window(0.2 * fs.hz());
    let w2 = odd_window(0.6 * fs.hz());
    let stage1 = median_filter(x, w1);
    let baseline = median_filter(&stage1, w2);
    x.iter().zip(&baseline).map(|(v, b)| v - b).collect()
}

/// Removes baseline wander with a zero-phase Butterworth high-pass (order 2 at `cutoff_hz`,
/// typically 0.5 Hz).
///
/// Van Alsté, J. A., Schilder, T. S. (1985), "Removal of base-line wander and power-line
/// interference from the ECG by an efficient FIR filter with a reduced number of taps",
/// *IEEE Trans. Biomed. Eng.* 32(12), 1052-1060 (cut-off choice); the filter is a Butterworth.
///
/// # Errors
/// As [`Sos::butterworth`] and [`Sos::filtfilt`].
pub fn remove_baseline_highpass(
    x: &[f64],
    fs: SamplingRate,
    cutoff_hz: f64,
) -> Result<Vec<f64>, SignalError> {
    Sos::butterworth(2, Band::HighPass(cutoff_hz), fs)?.filtfilt(x)
}

pub(super) fn odd_window(len: f64) -> usize {
    let w = len.round().max(1.0) as usize;
    w | 1
}

/// Running median with an odd window centred on each sample; edges use the samples available
/// (the window shrinks symmetrically to fit). Cost O(n·w) moves, no per-sample allocation.
///
/// Huang, T., Yang, G., Tang, G. (1979), "A fast two-dimensional median filtering algorithm",
/// *IEEE Trans. Acoustics, Speech, and Signal Processing* 27(1), 13-18 (sliding-window idea).
pub fn median_filter(x: &[f64], window: usize) -> Vec<f64> {
    let n = x.len();
    if n == 0 {
        return Vec::new();
    }
    let half = (window.max(1) | 1) / 2;
    let mut out = vec![0.0; n];
    let mut sorted: Vec<f64> = Vec::with_capacity(2 * half + 1);
    // Window [lo, hi) around i; its size is 2*min(half, i, n-1-i)+1 near the edges.
    let mut lo = 0usize;
    let mut hi = 0usize;
    for (i, o) in out.iter_mut().enumerate() {
        let h = half.min(i).min(n - 1 - i);
        let (new_lo, new_hi) = (i - h, i + h + 1);
        while hi < new_hi {
            let v = x[hi];
            let pos = sorted.partition_point(|&s| s < v);
            sorted.insert(pos, v);
            hi += 1;
        }
        while lo < new_lo {
            let v = x[lo];
            let pos = sorted.partition_point(|&s| s < v);
            sorted.remove(pos.min(sorted.len() - 1));
            lo += 1;
        }
        // Near the end the window shrinks from the right as well.
        while hi > new_hi {
            hi -= 1;
            let v = x[hi];
            let pos = sorted.partition_point(|&s| s < v);
            sorted.remove(pos.min(sorted.len() - 1));
        }
        *o = sorted[sorted.len() / 2];
    }
    out
}
