//! What the PPG integration tests share: a one-channel recording, a synthetic fingertip pulse
//! wave and the real segments of `ppg_arrhythmia_liu2022`.

use std::collections::BTreeMap;

use cardio_formats::{Channel, Recording};

/// A recording of one channel named `name`, sampled at `fs`.
pub fn recording(name: &str, fs: f64, samples: Vec<f64>) -> Recording {
    Recording {
        channels: vec![Channel {
            name: name.into(),
            unit: String::new(),
            samples,
        }],
        sampling_rate_hz: fs,
        start: None,
        metadata: BTreeMap::new(),
        device_interpretation: None,
    }
}

/// A fingertip-like pulse wave: at each pulse `(time, amplitude)` a systolic peak and a smaller
/// dicrotic wave scaled by its amplitude, slow baseline wander and seeded noise of `noise`.
pub fn pulse_wave_of(fs: f64, seconds: f64, pulses: &[(f64, f64)], noise: f64) -> Vec<f64> {
    let n = (fs * seconds) as usize;
    let mut x = vec![0.0; n];
    for &(b, amplitude) in pulses {
        let lo = ((b - 0.3) * fs).max(0.0) as usize;
        let hi = (((b + 0.6) * fs) as usize).min(n);
        for (i, v) in x.iter_mut().enumerate().take(hi).skip(lo) {
            let d = i as f64 / fs - b;
            *v += amplitude
                * ((-(d * d) / (2.0 * 0.06_f64.powi(2))).exp()
                    + 0.35 * (-((d - 0.3) * (d - 0.3)) / (2.0 * 0.05_f64.powi(2))).exp());
        }
    }
    let mut s: u64 = 11;
    for (i, v) in x.iter_mut().enumerate() {
        s = s.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        let r = ((s >> 33) as f64 / f64::from(1u32 << 31)) - 0.5;
        *v += 0.3 * (2.0 * std::f64::consts::PI * 0.2 * i as f64 / fs).sin() + noise * r;
    }
    x
}

/// The segments of one patient's file of `ppg_arrhythmia_liu2022` with their label codes.
pub fn liu_segments(file: &str) -> Option<Vec<(u8, Vec<f64>)>> {
    let path = cardio_testkit::dataset_file(&format!("ppg_arrhythmia_liu2022/{file}"))?;
    let matrices = cardio_formats::mat::read_matrices(&std::fs::read(path).unwrap()).unwrap();
    let get = |n: &str| matrices.iter().find(|m| m.name == n).unwrap();
    let (seg, labels) = (get("ppgseg"), get("labels"));
    Some(
        (0..seg.rows)
            .map(|i| (labels.data[i] as u8, seg.row(i).unwrap()))
            .collect(),
    )
}
