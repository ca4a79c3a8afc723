//! HRV against NeuroKit2 0.2.13 golden values (`tests/golden/make_golden.py`).
//!
//! Tolerances: time-domain and Poincaré values 1e-9 relative; sample entropy 1e-9 absolute (same
//! definition: m = 2, r = 0.2·SDNN, Chebyshev distance `<= r`, N - m templates for both lengths).
//! Lomb-Scargle PSD against SciPy's `lombscargle` (same scaling applied): 1e-8 relative to the peak.

use cardio_signal::hrv;
use serde_json::Value;

fn load() -> Value {
    let path = format!("{}/tests/golden/hrv.json", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn close(got: f64, want: f64, rel: f64, what: &str) {
    assert!(
        (got - want).abs() <= rel * want.abs().max(1.0),
        "{what}: got {got}, want {want}"
    );
}

#[test]
fn time_domain_and_non_linear_hrv_match_neurokit2() {
    let golden = load();
    for case in golden["cases"].as_array().unwrap() {
        let rr: Vec<f64> = case["rr_ms"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        let label = case["label"].as_str().unwrap();
        let want = |k: &str| case[k].as_f64().unwrap();

        let t = hrv::time_domain(&rr).unwrap();
        let nl = hrv::non_linear(&rr).unwrap();

        close(
            t.mean_nn_ms,
            want("MeanNN"),
            1e-9,
            &format!("{label} MeanNN"),
        );
        close(t.sdnn_ms, want("SDNN"), 1e-9, &format!("{label} SDNN"));
        close(t.rmssd_ms, want("RMSSD"), 1e-9, &format!("{label} RMSSD"));
        close(t.sdsd_ms, want("SDSD"), 1e-9, &format!("{label} SDSD"));
        close(
            t.median_nn_ms,
            want("MedianNN"),
            1e-9,
            &format!("{label} MedianNN"),
        );
        close(t.pnn50, want("pNN50"), 1e-9, &format!("{label} pNN50"));
        close(t.pnn20, want("pNN20"), 1e-9, &format!("{label} pNN20"));
        close(nl.sd1_ms, want("SD1"), 1e-9, &format!("{label} SD1"));
        close(nl.sd2_ms, want("SD2"), 1e-9, &format!("{label} SD2"));
        close(
            nl.sample_entropy,
            want("SampEn"),
            1e-9,
            &format!("{label} SampEn"),
        );
    }
}

#[test]
fn lomb_scargle_matches_scipy() {
    let golden = load();
    let lomb = &golden["lomb"];
    let vec_of = |v: &Value| -> Vec<f64> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect()
    };
    let rr = vec_of(&lomb["rr_ms"]);
    let freqs = vec_of(&lomb["freqs"]);
    let want = vec_of(&lomb["psd"]);
    let mut t = Vec::new();
    let mut acc = 0.0;
    for r in &rr {
        acc += r / 1000.0;
        t.push(acc);
    }

    let got = hrv::lomb_scargle(&t, &rr, &freqs);

    let peak = want.iter().copied().fold(0.0, f64::max);
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        assert!((g - w).abs() <= 1e-8 * peak, "psd[{i}]: got {g}, want {w}");
    }
}
