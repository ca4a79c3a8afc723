//! Unit tests of the heart-sound features.

use super::spectra::spectral_centroid;
use super::*;

#[test]
fn the_spectrum_sums_to_the_mean_square_of_a_long_sine() {
    let x: Vec<f64> = (0..4000)
        .map(|i| (2.0 * std::f64::consts::PI * 100.0 * f64::from(i) / 1000.0).sin())
        .collect();
    let psd = Spectra::new().psd(&x);
    let total: f64 = psd.iter().sum();
    assert!((total - 0.5).abs() < 0.01, "{total}");
    assert!((band_power(&psd, 80.0, 200.0) / total) > 0.99);
    assert!((spectral_centroid(&psd) - 100.0).abs() < 2.0);
}

#[test]
fn feature_names_match_the_feature_count() {
    let x: Vec<f64> = (0..12_000)
        .map(|i| {
            let t = f64::from(i) / 1000.0;
            let ph = t % 0.8;
            let burst = |c: f64, a: f64| a * (-((ph - c) * (ph - c)) / 0.0003).exp();
            (burst(0.1, 1.0) + burst(0.4, 0.6)) * (2.0 * std::f64::consts::PI * 50.0 * t).sin()
        })
        .collect();
    let p = Prepared {
        x,
        duration_s: 12.0,
        sampling_rate_hz: 1000.0,
        channel_index: 0,
        channel_name: String::new(),
    };
    let e = extract(&p).unwrap();
    assert_eq!(e.values.len(), feature_names().len());
    assert!((e.measured.heart_rate_bpm.unwrap() - 75.0).abs() < 3.0);
    assert!(e.measured.cycles >= 10, "{:?}", e.measured);
    assert!((e.measured.median_systole_s.unwrap() - 0.3).abs() < 0.05);
}

#[test]
fn preparation_rejects_what_cannot_be_analysed_with_the_measured_value() {
    assert_eq!(prepare_channel(&[], 1000.0), Err(PrepareError::Empty));
    assert_eq!(
        prepare_channel(&vec![0.0; 1800], 1000.0),
        Err(PrepareError::TooShort(1.8))
    );
    assert_eq!(
        PrepareError::TooShort(1.8).to_string(),
        "Recording too short: 1.8 s; at least 2 s is needed."
    );
    assert_eq!(
        prepare_channel(&vec![1.0; 6000], 1000.0),
        Err(PrepareError::Flat)
    );
    assert!(matches!(
        prepare_channel(&vec![1.0; 6000], 500.0),
        Err(PrepareError::LowRate(_))
    ));
    assert!(matches!(
        prepare_channel(&vec![1.0; 6000], f64::NAN),
        Err(PrepareError::LowRate(_))
    ));
    let mut x: Vec<f64> = (0..6000).map(|i| f64::from(i % 7)).collect();
    x[10] = f64::NAN;
    assert_eq!(prepare_channel(&x, 1000.0), Err(PrepareError::NonFinite(1)));
}

#[test]
fn long_recordings_are_cut_and_other_rates_resampled_to_1_khz() {
    let x: Vec<f64> = (0..4000 * 70).map(|i| f64::from(i % 13) - 6.0).collect();
    let y = prepare_channel(&x, 4000.0).unwrap();
    assert_eq!(y.len(), 60_000);
}
