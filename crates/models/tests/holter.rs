//! A long recording is read whole (issue 41): MIT-BIH 202, in sinus rhythm until atrial
//! fibrillation begins in its 19th minute, gets an AF episode after minute 15 and an AF result;
//! MIT-BIH 100, sinus rhythm throughout, gets none. Both results keep the consistency rule.
//! To stay fast in a debug build, only minutes 12-22 of 202 and the first 6 minutes of 100 are
//! read (both longer than 60 s, so both are read window by window).

use cardio_models::consistency::check;
use cardio_models::ecg_rhythm::model;
use cardio_models::Modality;
use serde_json::Value;

/// The prediction of minutes `from_min..to_min` of a MIT-BIH record.
fn predict(
    name: &str,
    from_min: f64,
    to_min: f64,
) -> Option<cardio_models::prediction::Prediction> {
    let files = [format!("mitdb/{name}.hea"), format!("mitdb/{name}.dat")];
    let refs: Vec<&str> = files.iter().map(String::as_str).collect();
    let root = cardio_testkit::datasets(&refs)?;
    let mut rec = cardio_formats::read_path(&root.join(&files[0])).unwrap();
    let fs = rec.sampling_rate_hz;
    for c in &mut rec.channels {
        let (a, b) = (
            (from_min * 60.0 * fs) as usize,
            (to_min * 60.0 * fs) as usize,
        );
        c.samples = c.samples[a..b.min(c.samples.len())].to_vec();
    }
    let mut p = model().unwrap().predict(&rec).unwrap();
    // Episode times back in the record's time.
    for e in p.details["episodes"].as_array_mut().unwrap() {
        for k in ["start_s", "end_s"] {
            e[k] = Value::from(e[k].as_f64().unwrap() + from_min * 60.0);
        }
    }
    check(Modality::Ecg, name, &p).unwrap();
    Some(p)
}

fn af_episodes(p: &cardio_models::prediction::Prediction) -> Vec<(f64, f64)> {
    p.details["episodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "af")
        .map(|e| (e["start_s"].as_f64().unwrap(), e["end_s"].as_f64().unwrap()))
        .collect()
}

#[test]
fn mitdb_202_gets_an_af_episode_after_minute_15_and_100_none() {
    let Some(p202) = predict("202", 12.0, 22.0) else {
        return;
    };
    let Some(p100) = predict("100", 0.0, 6.0) else {
        return;
    };

    let af202 = af_episodes(&p202);
    let af100 = af_episodes(&p100);

    assert_eq!(p202.label, "af", "{:?}", p202.details["episodes"]);
    assert!(af202.iter().any(|&(s, _)| s > 15.0 * 60.0), "{af202:?}");
    assert!(p202.details["af_burden"].as_f64().unwrap() > 0.0);
    assert!(
        p202.recommendations
            .iter()
            .any(|r| r.starts_with("Atrial fibrillation: ")),
        "{:?}",
        p202.recommendations
    );
    assert!(af100.is_empty(), "{af100:?}");
    assert_ne!(p100.label, "af");
    assert_eq!(p100.details["af_burden"], Value::from(0.0));
    // The whole stretch is accounted for: analysed plus noisy seconds.
    let seconds = |k: &str| p100.details[k].as_f64().unwrap();
    assert!((seconds("analysed_s") + seconds("noisy_s") - seconds("duration_s")).abs() < 0.01);
    assert!(seconds("analysed_s") > 60.0);
}
