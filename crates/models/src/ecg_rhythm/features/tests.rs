//! Unit tests of the feature vector on synthetic beats.

use super::*;

/// Gaussian "P, QRS, T" beats at the given RR intervals (s), 300 Hz, in mV.
fn synthetic(seconds: f64, rr: impl Fn(usize) -> f64, p_wave: bool) -> Vec<f64> {
    let f = MODEL_FS;
    let n = (seconds * f) as usize;
    let mut x = vec![0.0; n];
    let mut t = 0.4;
    let mut k = 0;
    while t < seconds - 0.6 {
        let c = t * f;
        let lo = (c - 0.4 * f).max(0.0) as usize;
        let hi = ((c + 0.6 * f) as usize).min(n);
        for (i, v) in x.iter_mut().enumerate().take(hi).skip(lo) {
            let d = (i as f64 - c) / f;
            let g = |mu: f64, s: f64, a: f64| a * (-((d - mu) * (d - mu)) / (2.0 * s * s)).exp();
            *v += g(0.0, 0.012, 1.2) + g(0.28, 0.045, 0.3);
            if p_wave {
                *v += g(-0.17, 0.02, 0.15);
            }
        }
        t += rr(k);
        k += 1;
    }
    x
}

fn lcg(seed: u64) -> impl FnMut() -> f64 {
    let mut s = seed;
    move || {
        s = s
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (s >> 11) as f64 / (1u64 << 53) as f64
    }
}

fn get(f: &Features, name: &str) -> f64 {
    f.values[FEATURE_NAMES.iter().position(|n| *n == name).unwrap()]
}

#[test]
fn names_are_unique_and_every_feature_is_set() {
    let mut names = FEATURE_NAMES.to_vec();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), FEATURE_NAMES.len());
    let ex = Extractor::new().unwrap();
    let x = synthetic(30.0, |k| [0.8, 0.82, 0.78, 0.81][k % 4], true);
    let f = ex.extract(&x, MODEL_FS).unwrap();
    assert_eq!(f.values.len(), FEATURE_NAMES.len());
    let missing: Vec<&str> = FEATURE_NAMES
        .iter()
        .zip(&f.values)
        .filter(|(_, v)| v.is_nan())
        .map(|(n, _)| *n)
        .collect();
    assert!(missing.is_empty(), "unset on a clean ECG: {missing:?}");
}

#[test]
fn a_regular_rhythm_with_p_waves_differs_from_an_irregular_one_without() {
    let ex = Extractor::new().unwrap();
    let sinus = ex
        .extract(&synthetic(30.0, |_| 0.8, true), MODEL_FS)
        .unwrap();
    let mut r = lcg(7);
    let rrs: Vec<f64> = (0..100).map(|_| 0.45 + 0.5 * r()).collect();
    let af = ex
        .extract(&synthetic(30.0, |k| rrs[k % 100], false), MODEL_FS)
        .unwrap();
    assert!(get(&sinus, "rr_cv") < 0.02, "{}", get(&sinus, "rr_cv"));
    assert!(get(&af, "rr_cv") > 0.15, "{}", get(&af, "rr_cv"));
    assert!(get(&af, "afev") > get(&sinus, "afev"));
    assert!(
        get(&sinus, "p_amplitude") > 0.08,
        "{}",
        get(&sinus, "p_amplitude")
    );
    assert!(get(&af, "p_amplitude") < get(&sinus, "p_amplitude") / 2.0);
    let hr = sinus.measured.heart_rate_bpm.unwrap();
    assert!((hr - 75.0).abs() < 1.0, "{hr}");
    let pr = sinus.measured.pr_ms.unwrap();
    assert!((pr - 170.0).abs() < 15.0, "{pr}");
}

#[test]
fn other_sampling_rates_give_nearly_the_same_features() {
    let ex = Extractor::new().unwrap();
    let x = synthetic(20.0, |k| if k % 3 == 0 { 0.7 } else { 0.9 }, true);
    let base = ex.extract(&x, MODEL_FS).unwrap();
    // 500 Hz by polyphase resampling of the 300 Hz signal.
    let up = Resampler::new(5, 3).unwrap().process(&x);
    let other = ex.extract(&up, 500.0).unwrap();
    assert_eq!(base.measured.beats, other.measured.beats);
    assert!((get(&base, "rr_cv") - get(&other, "rr_cv")).abs() < 0.01);
}

#[test]
fn rejects_short_slow_and_flat_input_with_the_measured_value() {
    let ex = Extractor::new().unwrap();
    assert_eq!(
        ex.extract(&vec![0.1; 960], 300.0).unwrap_err().to_string(),
        "Recording too short: 3.2 s; at least 9 s is needed."
    );
    assert_eq!(
        ex.extract(&[0.0; 100], 25.0).unwrap_err(),
        FeatureError::SamplingRate { hz: 25.0 }
    );
    assert!(matches!(
        ex.extract(&vec![0.5; 3000], 300.0).unwrap_err(),
        FeatureError::Flat { .. }
    ));
    assert!(ex.extract(&[], f64::NAN).is_err());
    assert!(matches!(
        ex.extract(&vec![f64::NAN; 3000], 300.0).unwrap_err(),
        FeatureError::Flat { .. }
    ));
}

#[test]
fn odd_ratios_huge_values_and_noise_never_panic() {
    let ex = Extractor::new().unwrap();
    let mut r = lcg(3);
    let noise: Vec<f64> = (0..3000).map(|_| r() - 0.5).collect();
    let f = ex.extract(&noise, 257.3).unwrap();
    assert_eq!(f.values.len(), FEATURE_NAMES.len());
    let huge: Vec<f64> = (0..3000)
        .map(|i| if i % 2 == 0 { 1e300 } else { -1e300 })
        .collect();
    let _ = ex.extract(&huge, 300.0);
    let spikes: Vec<f64> = (0..3000)
        .map(|i| f64::from(u8::from(i % 1000 == 0)))
        .collect();
    let _ = ex.extract(&spikes, 300.0);
}
