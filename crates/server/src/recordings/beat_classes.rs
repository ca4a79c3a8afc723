//! The class (N, S or V) of every beat of a long ECG for the paper view, the same as the result's:
//! the beats found and classed by the functions the whole-record reading used
//! (`cardio_models::ecg_rhythm::holter::classes::classed_beats`: the QRS detector and the
//! committed classifier, an hour of the lead at a time) on the lead the result read, with the reading's one correction:
//! no supraventricular ectopic beat inside an AF episode (there an `S` is `N`). The AF episodes
//! are the result's own (`details.episodes`, times rounded to 10 ms).
//!
//! Only a result that counted beat classes (`details.beat_counts`) gets them; they are computed
//! once per decoded recording and kept with it ([`crate::recordings::decode::Prepared`]).

use cardio_formats::Recording;
use cardio_models::ecg_rhythm::{holter, mv_per_unit};
use serde_json::Value;

/// How far outside a rounded AF episode edge a beat still counts as inside it, s (the result
/// writes episode times to 10 ms; two beats are never this close).
const EDGE_TOLERANCE_S: f64 = 0.006;

/// The beats of the whole lead and their classes, one code (`n`, `s`, `v`) per beat.
#[derive(Debug, Clone, PartialEq)]
pub struct ClassedBeats {
    /// R-peak times, s.
    pub beats: Vec<f64>,
    /// One character per beat of `beats`.
    pub codes: String,
}

impl ClassedBeats {
    /// Memory held, bytes (for the cache's accounting).
    pub fn bytes(&self) -> usize {
        self.beats.len() * std::mem::size_of::<f64>() + self.codes.len()
    }
}

/// Whether a result's `details` counted beat classes (a long ECG read whole, usable).
pub fn counted(details: &Value) -> bool {
    details.get("beat_counts").is_some_and(Value::is_object)
}

/// The AF episodes of a result's `details`, `(start, end)` in seconds.
pub fn af_spans(details: &Value) -> Vec<(f64, f64)> {
    details
        .get("episodes")
        .and_then(Value::as_array)
        .map(|list| {
            list.iter()
                .filter(|e| e.get("kind").and_then(Value::as_str) == Some("af"))
                .filter_map(|e| Some((e.get("start_s")?.as_f64()?, e.get("end_s")?.as_f64()?)))
                .collect()
        })
        .unwrap_or_default()
}

/// Memory the classing of `rec`'s `lead` may take at most, bytes: the lead in millivolts, the
/// detector's copy, its cleaned lead and working buffers, 8 bytes a sample each (the detector
/// reads an hour at a time, so a long lead takes less).
pub fn need_bytes(rec: &Recording, lead: usize) -> u64 {
    rec.channels
        .get(lead)
        .map_or(0, |c| c.samples.len() as u64 * 8 * 4)
}

/// The beats of `rec`'s `lead` and their classes as the whole-record reading found them, with the
/// `S` beats inside `af` (the result's AF episodes) made `N`; `None` for a lead that is not read
/// whole (60 s or shorter) or does not exist.
pub fn classed(rec: &Recording, lead: usize, af: &[(f64, f64)]) -> Option<ClassedBeats> {
    let channel = rec.channels.get(lead)?;
    let fs = rec.sampling_rate_hz;
    if !holter::is_long(channel.samples.len(), fs) {
        return None;
    }
    let scale = mv_per_unit(channel);
    let mv: Vec<f64> = channel.samples.iter().map(|v| v * scale).collect();
    let (beats, mut classes) = holter::classes::classed_beats(&mv, fs);
    drop(mv);
    holter::classes::no_s_in_af(&beats, &mut classes, af, EDGE_TOLERANCE_S);
    let codes = classes.iter().map(|c| c.code()).collect();
    Some(ClassedBeats { beats, codes })
}

#[cfg(test)]
mod tests {
    use super::*;
    use cardio_formats::Channel;
    use serde_json::json;
    use std::collections::BTreeMap;

    /// `seconds` of a 72-bpm spike train at 250 Hz in millivolts.
    fn recording(seconds: f64) -> Recording {
        let fs = 250.0;
        let samples = (0..(seconds * fs) as usize)
            .map(|i| {
                let d = ((i as f64 / fs) % 0.83) - 0.4;
                1.2 * (-(d * d) / 1.5e-4).exp()
            })
            .collect();
        Recording {
            channels: vec![Channel {
                name: "II".into(),
                unit: "mV".into(),
                samples,
            }],
            sampling_rate_hz: fs,
            start: None,
            metadata: BTreeMap::new(),
            device_interpretation: None,
        }
    }

    #[test]
    fn a_long_lead_gets_one_class_per_beat_and_a_short_one_none() {
        let found = classed(&recording(120.0), 0, &[]).unwrap();

        assert!(found.beats.len() > 130, "{}", found.beats.len());
        assert_eq!(found.codes.len(), found.beats.len());
        assert!(found.codes.chars().all(|c| matches!(c, 'n' | 's' | 'v')));
        assert_eq!(classed(&recording(50.0), 0, &[]), None);
        assert_eq!(classed(&recording(120.0), 3, &[]), None);
    }

    #[test]
    fn the_af_episodes_and_the_counts_are_read_from_the_details() {
        let details = json!({
            "beat_counts": {"n": 10, "s": 1, "v": 0},
            "episodes": [
                {"kind": "pause", "start_s": 1.0, "end_s": 3.5},
                {"kind": "af", "start_s": 61.25, "end_s": 300.5},
            ],
        });

        assert!(counted(&details));
        assert_eq!(af_spans(&details), [(61.25, 300.5)]);
        assert!(!counted(&json!({"beat_counts": null})));
        assert!(af_spans(&json!({})).is_empty());
    }
}
