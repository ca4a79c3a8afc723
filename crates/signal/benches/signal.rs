//! Criterion benchmarks: filtering, QRS detection and the full ECG analysis on one minute of a
//! synthetic 360 Hz ECG (so the time per iteration is the time per minute of signal), plus PPG
//! peak detection and HRV, and the wave delineation of a 12-lead, 10-s ECG at 500 Hz (the
//! resting ECG's size). Run with `cargo bench -p cardio-signal` (`make bench`).

#![allow(clippy::many_single_char_names)]
// criterion_group! generates an undocumented public function.
#![allow(missing_docs)]

use cardio_signal::ecg::{self, Powerline, QrsDetector};
use cardio_signal::filter::{Band, Sos};
use cardio_signal::resample::Resampler;
use cardio_signal::{hrv, ppg, SamplingRate};
use criterion::{black_box, criterion_group, criterion_main, Criterion};

const FS: f64 = 360.0;

/// One minute of synthetic ECG at 360 Hz: Gaussian P/QRS/T waves, variable RR, baseline wander,
/// mains hum and deterministic noise.
fn synthetic_ecg(minutes: f64) -> Vec<f64> {
    let n = (FS * 60.0 * minutes) as usize;
    let mut x = vec![0.0; n];
    let mut t = 0.3;
    let mut k = 0u32;
    while t < 60.0 * minutes - 0.5 {
        let c = (t * FS) as usize;
        let lo = c.saturating_sub((0.4 * FS) as usize);
        let hi = (c + (0.6 * FS) as usize).min(n);
        for (i, v) in x.iter_mut().enumerate().take(hi).skip(lo) {
            let d = (i as f64 - c as f64) / FS;
            let g = |m: f64, s: f64, a: f64| a * (-((d - m) * (d - m)) / (2.0 * s * s)).exp();
            *v += g(0.0, 0.012, 1.2) + g(-0.18, 0.025, 0.12) + g(0.28, 0.05, 0.3);
        }
        t += 0.8 + 0.05 * f64::from(k % 7) / 7.0;
        k += 1;
    }
    let mut s: u64 = 12345;
    for (i, v) in x.iter_mut().enumerate() {
        let tt = i as f64 / FS;
        s = s.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        let r = (s >> 33) as f64 / f64::from(1u32 << 31) - 0.5;
        *v += 0.3 * (0.3 * tt).sin()
            + 0.02 * (2.0 * std::f64::consts::PI * 60.0 * tt).sin()
            + 0.02 * r;
    }
    x
}

/// A 12-lead, 10-s ECG at 500 Hz: each lead the synthetic beats with its own gain, sign and
/// P/T proportions, plus its own deterministic noise.
fn twelve_leads() -> Vec<Vec<f64>> {
    let fs = 500.0;
    let n = 5000;
    (0..12u32)
        .map(|l| {
            let gain = 0.4 + 0.1 * f64::from(l % 7);
            let sign = if l == 3 { -1.0 } else { 1.0 };
            let mut s: u64 = 99 + u64::from(l);
            (0..n)
                .map(|i| {
                    let t = f64::from(i) / fs;
                    let d = (t % 0.85) - 0.4;
                    let g =
                        |m: f64, w: f64, a: f64| a * (-((d - m) * (d - m)) / (2.0 * w * w)).exp();
                    s = s.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                    let r = (s >> 33) as f64 / f64::from(1u32 << 31) - 0.5;
                    sign * gain * (g(0.0, 0.012, 1.2) + g(-0.17, 0.022, 0.12) + g(0.27, 0.05, 0.3))
                        + 0.2 * (0.3 * t).sin()
                        + 0.01 * r
                })
                .collect()
        })
        .collect()
}

fn benches(c: &mut Criterion) {
    let leads = twelve_leads();
    let refs: Vec<&[f64]> = leads.iter().map(Vec::as_slice).collect();
    let delineator =
        ecg::WaveDelineator::new(SamplingRate::new(500.0).unwrap(), Powerline::Hz50).unwrap();
    c.bench_function("wave delineation, 12 leads x 10 s at 500 Hz", |b| {
        b.iter(|| delineator.delineate(black_box(&refs)).unwrap());
    });

    let fs = SamplingRate::new(FS).unwrap();
    let minute = synthetic_ecg(1.0);

    let bp = Sos::butterworth(4, Band::BandPass(0.5, 40.0), fs).unwrap();
    c.bench_function("sosfiltfilt bandpass order 4, 1 min at 360 Hz", |b| {
        let mut out = vec![0.0; minute.len()];
        let mut scratch = Vec::new();
        b.iter(|| {
            bp.filtfilt_into(black_box(&minute), &mut out, &mut scratch)
                .unwrap();
        });
    });
    let resampler = Resampler::new(250, 360).unwrap();
    c.bench_function("resample 360 -> 250 Hz, 1 min", |b| {
        let mut out = vec![0.0; resampler.output_len(minute.len())];
        b.iter(|| resampler.process_into(black_box(&minute), &mut out));
    });
    let cleaned = ecg::clean(&minute, fs, Powerline::Hz60).unwrap();
    let det = QrsDetector::new(fs).unwrap();
    c.bench_function("ecg clean, 1 min at 360 Hz", |b| {
        b.iter(|| ecg::clean(black_box(&minute), fs, Powerline::Hz60).unwrap());
    });
    c.bench_function("qrs detection, 1 min at 360 Hz", |b| {
        b.iter(|| det.detect(black_box(&cleaned)).unwrap());
    });
    let analyzer = ecg::EcgAnalyzer::new(fs, Powerline::Hz60).unwrap();
    c.bench_function("full ecg analysis, 1 min at 360 Hz", |b| {
        b.iter(|| analyzer.analyze(black_box(&minute)).unwrap());
    });
    let half_hour = synthetic_ecg(30.0);
    let mut group = c.benchmark_group("long");
    group.sample_size(10);
    group.bench_function("full ecg analysis, 30 min at 360 Hz", |b| {
        b.iter(|| analyzer.analyze(black_box(&half_hour)).unwrap());
    });
    group.finish();

    let peaks = ecg::analyze(&minute, fs, Powerline::Hz60).unwrap().r_peaks;
    let rr = hrv::rr_from_peaks(&peaks, FS);
    c.bench_function("hrv time + non-linear + irregularity, 1 min", |b| {
        b.iter(|| {
            (
                hrv::time_domain(black_box(&rr)).unwrap(),
                hrv::non_linear(black_box(&rr)).unwrap(),
                hrv::irregularity(black_box(&rr)).unwrap(),
            )
        });
    });
    let ppg_fs = SamplingRate::new(30.0).unwrap();
    let wave: Vec<f64> = (0..30 * 60)
        .map(|i| {
            let t = f64::from(i) / 30.0;
            (2.0 * std::f64::consts::PI * 1.2 * t).sin()
                + 0.4 * (4.0 * std::f64::consts::PI * 1.2 * t).sin()
        })
        .collect();
    let pd = ppg::PeakDetector::new(ppg_fs).unwrap();
    c.bench_function("ppg peaks, 1 min at 30 Hz", |b| {
        b.iter(|| pd.detect(black_box(&wave)).unwrap());
    });
}

criterion_group!(signal, benches);
criterion_main!(signal);
