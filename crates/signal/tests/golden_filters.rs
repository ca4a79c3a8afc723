//! Filters and resampling against SciPy golden vectors (`tests/golden/make_golden.py`).
//!
//! Tolerances: SOS coefficients and steady states 1e-9 relative (to the largest coefficient of the
//! section); filter outputs 1e-6 absolute on signals of unit amplitude; resampling 1e-6 absolute.

use cardio_signal::filter::{Band, Sos};
use cardio_signal::resample::Resampler;
use cardio_signal::SamplingRate;
use serde_json::Value;

fn load(name: &str) -> Value {
    let path = format!("{}/tests/golden/{name}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn vec_of(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

fn assert_close(got: &[f64], want: &[f64], tol: f64, what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: length");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!((g - w).abs() <= tol, "{what}[{i}]: got {g}, want {w}");
    }
}

#[test]
fn butterworth_sections_and_filtering_match_scipy() {
    let golden = load("filters.json");
    for case in golden["butter"].as_array().unwrap() {
        let fs = SamplingRate::new(case["fs"].as_f64().unwrap()).unwrap();
        let order = case["order"].as_u64().unwrap() as usize;
        let edges = vec_of(&case["edges"]);
        let kind = case["kind"].as_str().unwrap();
        let band = match kind {
            "lowpass" => Band::LowPass(edges[0]),
            "highpass" => Band::HighPass(edges[0]),
            "bandpass" => Band::BandPass(edges[0], edges[1]),
            _ => Band::BandStop(edges[0], edges[1]),
        };
        let what = format!("{kind} order {order} {edges:?} at {}", fs.hz());

        let sos = Sos::butterworth(order, band, fs).unwrap();

        let want: Vec<Vec<f64>> = case["sos"].as_array().unwrap().iter().map(vec_of).collect();
        assert_eq!(sos.sections().len(), want.len(), "{what}: sections");
        for (s, w) in sos.sections().iter().zip(&want) {
            let scale = w.iter().fold(0.0_f64, |m, v| m.max(v.abs()));
            assert_close(s, w, 1e-9 * scale, &format!("{what} sos"));
        }
        let zi: Vec<f64> = sos.steady_state().iter().flatten().copied().collect();
        let want_zi: Vec<f64> = case["zi"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(vec_of)
            .collect();
        assert_close(&zi, &want_zi, 1e-9, &format!("{what} zi"));
        let x = vec_of(&case["x"]);
        let y = sos.filter(&x);
        assert_close(
            &y[..50],
            &vec_of(&case["sosfilt_head"]),
            1e-6,
            &format!("{what} sosfilt"),
        );
        let y = sos.filtfilt(&x).unwrap();
        assert_close(
            &y,
            &vec_of(&case["sosfiltfilt"]),
            1e-6,
            &format!("{what} sosfiltfilt"),
        );
    }
}

#[test]
fn notch_coefficients_and_filtering_match_scipy() {
    let golden = load("filters.json");
    for case in golden["notch"].as_array().unwrap() {
        let fs = SamplingRate::new(case["fs"].as_f64().unwrap()).unwrap();
        let sos = Sos::notch(
            case["f0"].as_f64().unwrap(),
            case["q"].as_f64().unwrap(),
            fs,
        )
        .unwrap();
        let s = sos.sections()[0];
        assert_close(&s[..3], &vec_of(&case["b"]), 1e-12, "notch b");
        assert_close(&s[3..], &vec_of(&case["a"]), 1e-12, "notch a");
        let y = sos.filtfilt(&vec_of(&case["x"])).unwrap();
        assert_close(&y, &vec_of(&case["filtfilt"]), 1e-6, "notch filtfilt");
    }
}

#[test]
fn rational_resampling_matches_scipy_resample_poly() {
    let golden = load("resample.json");
    for case in golden["cases"].as_array().unwrap() {
        let up = case["up"].as_u64().unwrap() as usize;
        let down = case["down"].as_u64().unwrap() as usize;
        let r = Resampler::new(up, down).unwrap();
        let y = r.process(&vec_of(&case["x"]));
        assert_close(
            &y,
            &vec_of(&case["y"]),
            1e-6,
            &format!("resample {up}/{down}"),
        );
    }
}
