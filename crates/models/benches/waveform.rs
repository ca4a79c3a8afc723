//! Criterion benchmark of what the waveform viewer asks the server for on a 30-minute two-lead
//! Holter-like recording (synthetic, 360 Hz): one 10-s window with the beats of the whole
//! recording (`waveform::window`), against the reference measured in the same run, the full
//! analysis (`analysis::analyze`: delineation, quality, HRV) that the marks used to come from.
//! Run with `cargo bench -p cardio-models --bench waveform` (`make bench`).

#![allow(clippy::many_single_char_names)]
// criterion_group! generates an undocumented public function.
#![allow(missing_docs)]

use std::collections::BTreeMap;

use cardio_formats::{Channel, Recording};
use cardio_models::{
    analysis::{self, AnalyzeOptions, ChannelChoice, Kind},
    waveform,
};
use criterion::{black_box, criterion_group, criterion_main, Criterion};

const FS: f64 = 360.0;
const MINUTES: f64 = 30.0;

/// A lead of Gaussian P/QRS/T waves with a varying RR interval and a little deterministic noise.
fn lead(gain: f64) -> Vec<f64> {
    let n = (FS * 60.0 * MINUTES) as usize;
    let mut x = vec![0.0; n];
    let mut t = 0.3;
    let mut k = 0u32;
    while t < 60.0 * MINUTES - 0.5 {
        let c = (t * FS) as usize;
        let lo = c.saturating_sub((0.4 * FS) as usize);
        let hi = (c + (0.6 * FS) as usize).min(n);
        for (i, v) in x.iter_mut().enumerate().take(hi).skip(lo) {
            let d = (i as f64 - c as f64) / FS;
            let g = |m: f64, s: f64, a: f64| a * (-((d - m) * (d - m)) / (2.0 * s * s)).exp();
            *v += gain * (g(0.0, 0.012, 1.2) + g(-0.18, 0.025, 0.12) + g(0.28, 0.05, 0.3));
        }
        t += 0.8 + 0.05 * f64::from(k % 7) / 7.0;
        k += 1;
    }
    let mut s: u64 = 12345;
    for v in &mut x {
        s = s.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        *v += 0.02 * ((s >> 33) as f64 / f64::from(1u32 << 31) - 0.5);
    }
    x
}

fn holter() -> Recording {
    Recording {
        channels: vec![
            Channel {
                name: "MLII".into(),
                unit: "mV".into(),
                samples: lead(1.0),
            },
            Channel {
                name: "V5".into(),
                unit: "mV".into(),
                samples: lead(0.6),
            },
        ],
        sampling_rate_hz: FS,
        start: None,
        metadata: BTreeMap::new(),
        device_interpretation: None,
    }
}

fn bench(c: &mut Criterion) {
    let rec = holter();
    let mut group = c.benchmark_group("30-min ECG");
    group.sample_size(10);
    group.bench_function("waveform window 10 s + beats of 30 min", |b| {
        b.iter(|| waveform::window(black_box(&rec), Kind::Ecg, Some(0), 900.0, 10.0).unwrap());
    });
    group.bench_function("reference: full analysis of 30 min", |b| {
        let options = AnalyzeOptions {
            kind: Some(Kind::Ecg),
            channel: Some(ChannelChoice::Index(0)),
            ..AnalyzeOptions::default()
        };
        b.iter(|| analysis::analyze(black_box(&rec), &options).unwrap());
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
