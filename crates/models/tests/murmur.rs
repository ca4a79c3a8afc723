//! The murmur model on the ten CirCor patients of `circor_sample` (30 recordings): the committed
//! parameters load and fit this build's features, every recording is read, a heart-sound result
//! carries the murmur verdict its own model gives and never contradicts itself, and the model hears
//! more murmur where the annotators heard one than where they heard none.

use std::path::{Path, PathBuf};

use cardio_models::consistency;
use cardio_models::murmur::{self, decision::Verdict, features};
use cardio_models::pcg_model;
use cardio_models::Modality;

/// `(recording, patient's murmur label, murmur heard at this site)` of every sample recording.
fn sample() -> Option<Vec<(PathBuf, String, bool)>> {
    let root = cardio_testkit::datasets(&["circor_sample/training_data"])?;
    let dir = root.join("circor_sample/training_data");
    let mut out = Vec::new();
    let mut patients: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.extension().is_some_and(|e| e == "txt")
                && p.file_stem()
                    .and_then(|s| s.to_str())
                    .is_some_and(|s| s.chars().all(|c| c.is_ascii_digit()))
        })
        .collect();
    patients.sort();
    for txt in patients {
        let text = std::fs::read_to_string(&txt).unwrap();
        let field = |name: &str| {
            text.lines()
                .find_map(|l| l.strip_prefix(&format!("#{name}: ")))
                .unwrap_or("")
                .trim()
                .to_string()
        };
        let label = field("Murmur");
        let locations: Vec<String> = field("Murmur locations")
            .split('+')
            .map(str::to_string)
            .collect();
        for line in text.lines().skip(1).take_while(|l| !l.starts_with('#')) {
            let mut parts = line.split_whitespace();
            let site = parts.next().unwrap().to_string();
            let wav = parts.nth(1).unwrap();
            let heard = label == "Present" && locations.contains(&site);
            out.push((dir.join(wav), label.clone(), heard));
        }
    }
    Some(out)
}

fn read(path: &Path) -> cardio_formats::Recording {
    cardio_formats::read_path(path).unwrap()
}

#[test]
fn every_sample_recording_is_read_and_its_heart_sound_result_holds_one_verdict() {
    let Some(sample) = sample() else { return };
    assert_eq!(sample.len(), 30);
    let model = murmur::model().unwrap();
    let pcg = pcg_model::model().unwrap();
    let mut heard = Vec::new();
    let mut not_heard = Vec::new();
    for (path, label, at_site) in &sample {
        let rec = read(path);
        let prepared = pcg_model::features::prepare(&rec).unwrap();
        let extracted = features::extract(&prepared).unwrap();
        assert_eq!(extracted.values.len(), features::feature_names().len());
        let reading = model.read(&extracted.values);
        let sum: f64 = reading.probabilities.iter().sum();
        assert!((sum - 1.0).abs() < 1e-9, "{}: {sum}", path.display());
        // The heart-sound result carries the murmur model's own verdict of this recording.
        let result = pcg.predict(&rec).unwrap();
        consistency::check(Modality::Pcg, &path.display().to_string(), &result).unwrap();
        let shown = &result.details["murmur"];
        let readable = pcg.murmur_unreadable(&extracted.measured).is_none();
        let expected = if readable {
            model.decide(&[Some(reading.clone())])
        } else {
            murmur::Verdict::unread()
        };
        assert_eq!(
            shown["verdict"],
            expected.verdict.as_str(),
            "{}",
            path.display()
        );
        if expected.verdict == Verdict::Present {
            assert!(shown["timing"].is_string() && shown["grade"].is_string());
        } else {
            assert!(shown["timing"].is_null() && shown["grade"].is_null());
        }
        // The stored result carries the reading from which a verdict over sites is decided again.
        match murmur::Reading::from_value(shown) {
            Some(back) if readable => {
                assert_eq!(
                    back.probabilities,
                    reading.probabilities,
                    "{}",
                    path.display()
                );
            }
            None if !readable => {}
            other => panic!("{}: read back {other:?}", path.display()),
        }
        if *at_site {
            heard.push(reading.probabilities[1]);
        } else if label == "Absent" {
            not_heard.push(reading.probabilities[1]);
        }
    }
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    assert!(
        heard.len() >= 8 && not_heard.len() >= 10,
        "{heard:?} {not_heard:?}"
    );
    assert!(
        mean(&heard) > mean(&not_heard) + 0.2,
        "P(murmur) where heard {:.3}, in patients without {:.3}",
        mean(&heard),
        mean(&not_heard)
    );
}

#[test]
fn the_first_three_seconds_of_a_recording_get_a_murmur_verdict_and_no_normal_abnormal_one() {
    let Some(sample) = sample() else { return };
    let model = murmur::model().unwrap();
    let pcg = pcg_model::model().unwrap();
    let mut read_short = 0;
    for (path, _, _) in &sample {
        let mut rec = read(path);
        let keep = (3.0 * rec.sampling_rate_hz) as usize;
        for c in &mut rec.channels {
            c.samples.truncate(keep);
        }
        let result = pcg.predict(&rec).unwrap();
        consistency::check(Modality::Pcg, &path.display().to_string(), &result).unwrap();
        // Too short for the normal/abnormal decision, whatever the sound.
        assert_eq!(result.label, "unsure", "{}", path.display());
        assert_eq!(result.prediction, "Unsure: this recording cannot be judged");
        let prepared = pcg_model::features::prepare(&rec).unwrap();
        let extracted = features::extract(&prepared).unwrap();
        let shown = &result.details["murmur"];
        let codes: Vec<&str> = result.advice.iter().map(|a| a.code.as_str()).collect();
        if pcg.murmur_unreadable(&extracted.measured).is_none() {
            read_short += 1;
            let reading = model.read(&extracted.values);
            let verdict = model.decide(&[Some(reading.clone())]);
            assert_eq!(
                shown["verdict"],
                verdict.verdict.as_str(),
                "{}",
                path.display()
            );
            assert_eq!(
                murmur::Reading::from_value(shown).map(|r| r.probabilities),
                Some(reading.probabilities)
            );
            assert_eq!(codes[0], "pcg.short_1", "{}", path.display());
            assert!(
                result.recommendations[0].starts_with("This recording is 3.0 s long: heart sounds are judged normal or abnormal on 5 s or more, so only the murmur was read, on "),
                "{}",
                result.recommendations[0]
            );
            assert_eq!(
                result.details["quality_reason"],
                "unsure: the recording is 3.0 s long; normal or abnormal heart sounds are judged on 5 s or more"
            );
        } else {
            assert_eq!(shown["verdict"], "unknown");
            assert_eq!(codes[0], "pcg.unsure_1", "{}", path.display());
        }
    }
    // On the whole set 60 % of the 3-s stretches hold two complete cycles (`cards/murmur.md`).
    assert!(read_short >= 15, "only {read_short} of 30 read on 3 s");
}

#[test]
fn a_patient_is_present_when_one_site_is_and_unknown_when_nothing_is_read() {
    let Some(sample) = sample() else { return };
    let model = murmur::model().unwrap();
    let readings: Vec<Option<murmur::Reading>> = sample
        .iter()
        .take(4)
        .map(|(path, _, _)| {
            let prepared = pcg_model::features::prepare(&read(path)).unwrap();
            Some(model.read(&features::extract(&prepared).unwrap().values))
        })
        .collect();
    let t = model.params().thresholds;
    let v = model.decide(&readings);
    let top = readings
        .iter()
        .flatten()
        .map(|r| r.probabilities[1])
        .fold(f64::NEG_INFINITY, f64::max);
    assert_eq!(v.verdict == Verdict::Present, top >= t.present);
    if v.verdict == Verdict::Present {
        assert_eq!(v.probability, top);
    }
    let none = model.decide(&[None, None]);
    assert_eq!(none.verdict, Verdict::Unknown);
    assert!(none.probability.is_nan());
    assert_eq!(
        none.to_value(),
        serde_json::json!({"verdict": "unknown", "probability": null, "timing": null, "grade": null})
    );
}
