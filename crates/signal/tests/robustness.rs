//! The analyses return values or typed errors, never panic, on pathological input: empty, tiny,
//! constant, huge, alternating, impulsive, random and non-finite signals, at several rates.

use cardio_signal::filter::{Band, Sos};
use cardio_signal::resample::Resampler;
use cardio_signal::{ecg, hrv, pcg, ppg, quality, SamplingRate};

fn lcg(seed: u64, n: usize, scale: f64) -> Vec<f64> {
    let mut s = seed;
    (0..n)
        .map(|_| {
            s = s.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            scale * ((s >> 33) as f64 / f64::from(1u32 << 31) - 0.5)
        })
        .collect()
}

fn nasty_inputs(n: usize) -> Vec<Vec<f64>> {
    let mut spikes = vec![0.0; n];
    for v in spikes.iter_mut().step_by(97) {
        *v = 1e6;
    }
    let mut with_nan = lcg(5, n, 1.0);
    if n > 3 {
        with_nan[n / 2] = f64::NAN;
    }
    vec![
        Vec::new(),
        vec![1.0],
        vec![0.0; 7],
        vec![0.0; n],
        vec![1e300; n],
        (0..n)
            .map(|i| if i % 2 == 0 { 1.0 } else { -1.0 })
            .collect(),
        spikes,
        lcg(1, n, 1.0),
        lcg(2, n, 1e-12),
        with_nan,
        vec![f64::INFINITY; n],
    ]
}

#[test]
fn analyses_never_panic_on_pathological_input() {
    for hz in [25.0, 50.0, 128.0, 360.0, 1000.0] {
        let fs = SamplingRate::new(hz).unwrap();
        for x in nasty_inputs((hz * 8.0) as usize) {
            let _ = ecg::analyze(&x, fs, ecg::Powerline::Hz50);
            let _ = ppg::analyze(&x, fs);
            let _ = pcg::segment(&x, fs);
            let _ = quality::basic_checks(&x, fs);
            let _ = quality::ecg(&x, fs, &[0, 5, 10_000_000]);
            let _ = Sos::butterworth(3, Band::HighPass(0.5), fs).map(|s| s.filtfilt(&x));
            let _ = Resampler::new(2, 3).map(|r| r.process(&x));
            let beats: Vec<f64> = x.iter().take(300).map(|v| v.abs() * 1000.0 + 1.0).collect();
            let _ = hrv::time_domain(&beats);
            let _ = hrv::frequency_domain(&beats);
            let _ = hrv::non_linear(&beats);
            let _ = hrv::irregularity(&beats);
        }
    }
}

#[test]
fn non_finite_ecg_is_an_error_not_a_result() {
    let fs = SamplingRate::new(250.0).unwrap();
    let mut x = lcg(9, 5000, 1.0);
    x[100] = f64::NAN;
    assert!(ecg::analyze(&x, fs, ecg::Powerline::Hz50).is_err());
}
