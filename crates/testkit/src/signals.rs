//! Synthetic recordings the tests upload: deterministic, and realistic enough for the models'
//! quality checks and plausibility gate (beat-to-beat variation, a little noise).

use std::fmt::Write as _;

/// Beats elapsed at `t` seconds for a rate of 75 bpm varying by ±3 bpm with breathing (15 a
/// minute): real rhythms vary from beat to beat, and the models' plausibility gate knows it.
pub fn breathing_beats(t: f64) -> f64 {
    let tau = 2.0 * std::f64::consts::PI;
    (75.0 * t - 3.0 / (tau * 0.25) * ((tau * 0.25 * t).cos() - 1.0)) / 60.0
}

/// A small deterministic noise in [-0.5, 0.5).
pub fn jitter(state: &mut u32) -> f64 {
    *state = state.wrapping_mul(1_103_515_245).wrapping_add(12_345);
    f64::from(*state >> 16) / 65_536.0 - 0.5
}

/// A lead-II-like ECG in a 250 Hz CSV with a time column: P, QRS and T at about 75 bpm with the
/// variation of breathing and a little noise, in millivolts.
pub fn realistic_ecg_csv(seconds: f64) -> Vec<u8> {
    let mut text = String::from("time,II\n");
    let mut state = 7;
    for i in 0..(seconds * 250.0) as usize {
        let t = i as f64 / 250.0;
        let d = (breathing_beats(t).fract() - 0.4) * 0.8;
        let g = |c: f64, w: f64, a: f64| a * (-((d - c) * (d - c)) / w).exp();
        let v = g(-0.16, 0.0008, 0.12)
            + g(-0.02, 0.00005, -0.1)
            + g(0.0, 0.00012, 1.2)
            + g(0.025, 0.00005, -0.25)
            + g(0.22, 0.002, 0.3)
            + 0.02 * jitter(&mut state);
        let _ = writeln!(text, "{t:.3},{v:.4}");
    }
    text.into_bytes()
}
