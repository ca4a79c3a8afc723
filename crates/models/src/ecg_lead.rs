//! Which channel of a recording is the ECG lead to analyse, and its samples' unit: shared by the
//! ECG rhythm model and the plausibility gate (which must see a lead as the model will).

use cardio_formats::{Channel, Recording};

/// The channel the model reads: the one named lead II (case-insensitive; "MLII" and names such
/// as "ECG II" or "Lead II" count), else lead I, else the first channel with at least one finite
/// sample. `None` when no channel has data.
pub fn pick_lead(rec: &Recording) -> Option<usize> {
    let has_data = |c: &Channel| c.samples.iter().any(|v| v.is_finite());
    let norm = |c: &Channel| {
        let upper = c.name.trim().to_ascii_uppercase();
        let mut tail = upper.as_str();
        for prefix in ["ECG", "LEAD"] {
            tail = tail.strip_prefix(prefix).unwrap_or(tail);
        }
        tail.trim_matches(|ch: char| ch == ' ' || ch == '_' || ch == '-' || ch == ':')
            .to_string()
    };
    let find = |names: &[&str]| {
        rec.channels
            .iter()
            .position(|c| has_data(c) && names.contains(&norm(c).as_str()))
    };
    find(&["II", "MLII", "ML2", "2"])
        .or_else(|| find(&["I", "MLI", "1"]))
        .or_else(|| rec.channels.iter().position(has_data))
}

/// Millivolts per unit of a declared voltage unit (mV, µV, nV, V, also spelt out), or `None` for
/// any other unit, including none.
fn declared_mv_per_unit(c: &Channel) -> Option<f64> {
    match c.unit.trim() {
        "mV" | "millivolt" | "millivolts" => Some(1.0),
        "uV" | "µV" | "μV" | "microvolt" | "microvolts" => Some(1e-3),
        "nV" => Some(1e-6),
        "V" | "volt" | "volts" => Some(1e3),
        _ => None,
    }
}

/// Whether a channel declares a voltage unit (mV, µV, nV, V): only then is its amplitude in
/// millivolts known (a column of bare numbers may be ADC counts).
pub fn has_unit(c: &Channel) -> bool {
    declared_mv_per_unit(c).is_some()
}

/// Millivolts per unit of a channel's samples (µV, nV and V are converted; any other unit,
/// including none, is taken as mV).
pub fn mv_per_unit(c: &Channel) -> f64 {
    declared_mv_per_unit(c).unwrap_or(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn channel(name: &str, samples: Vec<f64>) -> Channel {
        Channel {
            name: name.into(),
            unit: "mV".into(),
            samples,
        }
    }

    fn recording(channels: Vec<Channel>, fs: f64) -> Recording {
        Recording {
            channels,
            sampling_rate_hz: fs,
            start: None,
            metadata: std::collections::BTreeMap::new(),
            device_interpretation: None,
        }
    }

    #[test]
    fn pick_lead_prefers_ii_then_i_then_the_first_with_data() {
        let d = || vec![0.0, 1.0];
        let rec = recording(
            vec![channel("V1", d()), channel("I", d()), channel("ii", d())],
            500.0,
        );
        assert_eq!(pick_lead(&rec), Some(2));
        let rec = recording(vec![channel("V1", d()), channel("MLII", d())], 360.0);
        assert_eq!(pick_lead(&rec), Some(1));
        let rec = recording(vec![channel("aVR", d()), channel("Lead I", d())], 500.0);
        assert_eq!(pick_lead(&rec), Some(1));
        let rec = recording(
            vec![channel("II", vec![f64::NAN; 3]), channel("V5", d())],
            500.0,
        );
        assert_eq!(pick_lead(&rec), Some(1));
        assert_eq!(
            pick_lead(&recording(vec![channel("II", vec![])], 500.0)),
            None
        );
        assert_eq!(pick_lead(&recording(vec![], 500.0)), None);
        // "III" and "aVL" are not lead II or I.
        let rec = recording(vec![channel("III", d()), channel("aVL", d())], 500.0);
        assert_eq!(pick_lead(&rec), Some(0));
    }

    #[test]
    fn converts_microvolts_and_volts_to_millivolts() {
        let mut c = channel("II", vec![1000.0]);
        assert_eq!(mv_per_unit(&c), 1.0);
        c.unit = "uV".into();
        assert_eq!(mv_per_unit(&c), 1e-3);
        c.unit = " V".into();
        assert_eq!(mv_per_unit(&c), 1e3);
    }
}
