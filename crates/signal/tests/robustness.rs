//! The analyses answer pathological input (empty, tiny, constant, huge, alternating, impulsive,
//! random and non-finite signals, at several rates) with the documented typed error or a result,
//! never a panic: each kind of input has the answer it must get.

use cardio_signal::filter::{Band, Sos};
use cardio_signal::resample::Resampler;
use cardio_signal::{ecg, hrv, pcg, ppg, quality, SamplingRate, SignalError};

fn lcg(seed: u64, n: usize, scale: f64) -> Vec<f64> {
    let mut s = seed;
    (0..n)
        .map(|_| {
            s = s.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            scale * ((s >> 33) as f64 / f64::from(1u32 << 31) - 0.5)
        })
        .collect()
}

/// What a pathological input is, for the answer each analysis must give.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    /// Fewer samples than any method needs.
    Short,
    /// One value throughout (zeros, or 1e300).
    Flat,
    /// Samples held at the rails (sparse 1e6 spikes on zeros).
    Clipped,
    /// A signal an analysis may judge (alternating, noise, tiny noise).
    Judgeable,
    /// NaN or infinite samples.
    NonFinite,
}

fn nasty_inputs(n: usize) -> Vec<(&'static str, Kind, Vec<f64>)> {
    let mut spikes = vec![0.0; n];
    for v in spikes.iter_mut().step_by(97) {
        *v = 1e6;
    }
    let mut with_nan = lcg(5, n, 1.0);
    if n > 3 {
        with_nan[n / 2] = f64::NAN;
    }
    vec![
        ("empty", Kind::Short, Vec::new()),
        ("one sample", Kind::Short, vec![1.0]),
        ("seven zeros", Kind::Short, vec![0.0; 7]),
        ("zeros", Kind::Flat, vec![0.0; n]),
        ("1e300", Kind::Flat, vec![1e300; n]),
        (
            "alternating",
            Kind::Judgeable,
            (0..n)
                .map(|i| if i % 2 == 0 { 1.0 } else { -1.0 })
                .collect(),
        ),
        ("spikes", Kind::Clipped, spikes),
        ("noise", Kind::Judgeable, lcg(1, n, 1.0)),
        ("tiny noise", Kind::Judgeable, lcg(2, n, 1e-12)),
        ("a NaN inside", Kind::NonFinite, with_nan),
        ("infinite", Kind::NonFinite, vec![f64::INFINITY; n]),
    ]
}

/// The answer of an analysis that needs at least `min_hz`: a rate below it is named first, then
/// too few samples, then non-finite samples; anything else is analysed.
fn expect_analysis<T: std::fmt::Debug>(
    what: &str,
    got: Result<T, SignalError>,
    kind: Kind,
    len: usize,
    hz: f64,
    min_hz: (f64, &str),
) {
    let (min, method) = min_hz;
    match got {
        Err(SignalError::InvalidParameter(text)) if hz < min => {
            assert_eq!(
                text,
                format!("{method} needs at least {min:.0} Hz, got {hz} Hz"),
                "{what}"
            );
        }
        Err(SignalError::TooShort { got, .. }) if kind == Kind::Short => {
            assert_eq!(got, len, "{what}");
        }
        Err(SignalError::NonFinite) if kind == Kind::NonFinite => {}
        Ok(_) if hz >= min && matches!(kind, Kind::Flat | Kind::Clipped | Kind::Judgeable) => {}
        other => panic!("{what}: {other:?}"),
    }
}

#[test]
fn analyses_answer_pathological_input_with_the_documented_error() {
    for hz in [25.0, 50.0, 128.0, 360.0, 1000.0] {
        let fs = SamplingRate::new(hz).unwrap();
        for (name, kind, x) in nasty_inputs((hz * 8.0) as usize) {
            let what = |f: &str| format!("{f} of {name} at {hz} Hz");
            let len = x.len();
            expect_analysis(
                &what("ecg::analyze"),
                ecg::analyze(&x, fs, ecg::Powerline::Hz50),
                kind,
                len,
                hz,
                (40.0, "QRS detection"),
            );
            expect_analysis(
                &what("ppg::analyze"),
                ppg::analyze(&x, fs),
                kind,
                len,
                hz,
                (0.0, "PPG"),
            );
            expect_analysis(
                &what("pcg::segment"),
                pcg::segment(&x, fs),
                kind,
                len,
                hz,
                (100.0, "PCG"),
            );

            let verdict = quality::basic_checks(&x, fs).map(|q| (q.usable, q.reason));
            match kind {
                Kind::Short => {
                    let (usable, reason) = verdict.unwrap();
                    assert!(
                        !usable && reason.starts_with("too short: "),
                        "{name}: {reason}"
                    );
                }
                Kind::Flat => assert_eq!(
                    verdict,
                    Some((false, "flat line: the signal does not vary".into())),
                    "{name}"
                ),
                Kind::Clipped => {
                    let (usable, reason) = verdict.unwrap();
                    assert!(
                        !usable && reason.starts_with("clipping: "),
                        "{name}: {reason}"
                    );
                }
                Kind::Judgeable => assert_eq!(verdict, None, "{name}"),
                Kind::NonFinite => assert_eq!(
                    verdict,
                    Some((
                        false,
                        "the signal contains missing (NaN) or infinite samples".into()
                    )),
                    "{name}"
                ),
            }
            let q = quality::ecg(&x, fs, &[0, 5, 10_000_000]);
            assert!(
                (0.0..=1.0).contains(&q.score) && !q.reason.is_empty(),
                "{name}: {q:?}"
            );

            match Sos::butterworth(3, Band::HighPass(0.5), fs).and_then(|s| s.filtfilt(&x)) {
                Ok(filtered) => assert_eq!(filtered.len(), len, "{name}"),
                Err(SignalError::TooShort { got, .. }) if kind == Kind::Short => {
                    assert_eq!(got, len);
                }
                Err(SignalError::NonFinite) if kind == Kind::NonFinite => {}
                other => panic!("filtfilt of {name} at {hz} Hz: {other:?}"),
            }
            let resampled = Resampler::new(2, 3).unwrap().process(&x);
            assert!(
                resampled.len().abs_diff(len * 2 / 3) <= 1,
                "{name}: {}",
                resampled.len()
            );

            // Intervals (ms) from the samples: too few, non-finite, or measured.
            let beats: Vec<f64> = x.iter().take(300).map(|v| v.abs() * 1000.0 + 1.0).collect();
            let finite = beats.iter().all(|v| v.is_finite());
            match hrv::time_domain(&beats) {
                Err(SignalError::TooShort { needed: 3, got }) => assert_eq!(got, beats.len()),
                Err(SignalError::InvalidParameter(t)) if !finite => {
                    assert_eq!(t, "NN intervals must be finite and positive");
                }
                Ok(td) if finite && beats.len() >= 3 => {
                    assert!(td.mean_nn_ms.is_finite(), "{name}");
                }
                other => panic!("hrv::time_domain of {name} at {hz} Hz: {other:?}"),
            }
            for (f, got) in [
                (
                    "frequency_domain",
                    hrv::frequency_domain(&beats).map(|_| ()),
                ),
                ("non_linear", hrv::non_linear(&beats).map(|_| ())),
                ("irregularity", hrv::irregularity(&beats).map(|_| ())),
            ] {
                if !finite || beats.len() < 3 {
                    assert!(got.is_err(), "hrv::{f} of {name} at {hz} Hz: {got:?}");
                }
            }
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
