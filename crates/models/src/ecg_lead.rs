//! Which channel of a recording is the ECG lead to analyse, and its samples' unit: shared by the
//! ECG rhythm model and the plausibility gate (which must see a lead as the model will).

use cardio_formats::{Channel, Recording};
use cardio_signal::{ecg, SamplingRate};

/// The standard lead names (after [`lead_name`]), compared for quality when a recording has
/// several of them.
const STANDARD_LEADS: [&str; 15] = [
    "I", "II", "III", "AVR", "AVL", "AVF", "V1", "V2", "V3", "V4", "V5", "V6", "MLII", "MLI", "ML2",
];

/// Seconds of a lead judged for its quality (the rhythm model reads the first 60 s).
pub const QUALITY_SECONDS: f64 = 60.0;

/// A channel's name upper-cased, without an "ECG", "EKG" or "Lead" prefix and separators
/// ("EKG II", "Lead II", "ecg_ii" are all "II").
fn lead_name(c: &Channel) -> String {
    let upper = c.name.trim().to_ascii_uppercase();
    let mut tail = upper.as_str();
    for prefix in ["ECG", "EKG", "LEAD"] {
        tail = tail.strip_prefix(prefix).unwrap_or(tail);
    }
    tail.trim_matches(|ch: char| ch == ' ' || ch == '_' || ch == '-' || ch == ':')
        .to_string()
}

fn has_data(c: &Channel) -> bool {
    c.samples.iter().any(|v| v.is_finite())
}

/// The lead named II (case-insensitive; "MLII" and names such as "ECG II", "EKG II" or "Lead
/// II" count), else lead I, else the first channel with at least one finite sample.
///
/// The validations use this choice, not [`pick_lead`]'s quality check: their protocols name the
/// lead (MIT-BIH's MLII), and the quality check's beat-template correlation fails on records with
/// frequent ectopic beats (MIT-BIH 233 would be read on V1), which would change which lead a
/// validation scores rather than how well the model reads it.
pub fn pick_lead_by_name(rec: &Recording) -> Option<usize> {
    let find = |names: &[&str]| {
        rec.channels
            .iter()
            .position(|c| has_data(c) && names.contains(&lead_name(c).as_str()))
    };
    find(&["II", "MLII", "ML2", "2"])
        .or_else(|| find(&["I", "MLI", "1"]))
        .or_else(|| rec.channels.iter().position(has_data))
}

/// The longest run of finite samples, `(start, end)` (`(0, 0)` when there is none).
pub(crate) fn longest_finite_run(x: &[f64]) -> (usize, usize) {
    let (mut best, mut start) = ((0, 0), None);
    for (i, v) in x.iter().enumerate() {
        match (v.is_finite(), start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                if i - s > best.1 - best.0 {
                    best = (s, i);
                }
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        if x.len() - s > best.1 - best.0 {
            best = (s, x.len());
        }
    }
    best
}

/// The longest run of finite samples of a channel, at most [`QUALITY_SECONDS`] of it.
fn finite_run(c: &Channel, fs: f64) -> &[f64] {
    let (start, end) = longest_finite_run(&c.samples);
    let most = (QUALITY_SECONDS * fs) as usize;
    &c.samples[start..end.min(start + most)]
}

/// The ECG quality of a stretch of a lead (`cardio_signal::ecg::analyze`: R peaks, heart rate and
/// beat-template checks of Orphanidou et al. 2015); `None` when it cannot be judged.
fn quality(x: &[f64], fs: f64) -> Option<(bool, f64)> {
    let fs = SamplingRate::new(fs).ok()?;
    let q = ecg::analyze(x, fs, ecg::Powerline::Hz50).ok()?.quality;
    Some((q.usable, q.score))
}

/// The channel the model reads.
///
/// By name first: lead II, else lead I, else the first channel with data (see [`by_name`]).
/// When the recording holds two or more standard leads (I, II, III, aVR, aVL, aVF, V1-V6) that
/// cover nearly its whole length (at least 90 % of the longest one: a lead a printed page shows
/// for 2.5 s is not a candidate), that choice stands only if its signal passes the ECG quality
/// check; otherwise the candidate lead with the best quality score that passes it is read
/// instead (a KardiaMobile 6L whose lead I is noisy is read on lead II or III). When none passes,
/// the choice by name stands. `None` when no channel has data.
pub fn pick_lead(rec: &Recording) -> Option<usize> {
    let named = pick_lead_by_name(rec)?;
    let fs = rec.sampling_rate_hz;
    let coverage = |c: &Channel| c.samples.iter().filter(|v| v.is_finite()).count();
    let standard: Vec<usize> = (0..rec.channels.len())
        .filter(|&i| STANDARD_LEADS.contains(&lead_name(&rec.channels[i]).as_str()))
        .collect();
    let longest = standard
        .iter()
        .map(|&i| coverage(&rec.channels[i]))
        .max()
        .unwrap_or(0);
    let candidates: Vec<usize> = standard
        .into_iter()
        .filter(|&i| {
            let n = coverage(&rec.channels[i]);
            n > 0 && n as f64 >= 0.9 * longest as f64
        })
        .collect();
    if candidates.len() < 2 {
        return Some(named);
    }
    let judge = |i: usize| quality(finite_run(&rec.channels[i], fs), fs);
    if candidates.contains(&named) && judge(named).is_some_and(|(usable, _)| usable) {
        return Some(named);
    }
    candidates
        .into_iter()
        .filter(|&i| i != named)
        .filter_map(|i| judge(i).map(|(usable, score)| (i, usable, score)))
        .filter(|(_, usable, _)| *usable)
        .max_by(|a, b| a.2.total_cmp(&b.2))
        .map_or(Some(named), |(i, _, _)| Some(i))
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

    /// 10 s at 500 Hz of narrow QRS complexes every 0.8 s with T waves, in mV.
    fn clean_ecg() -> Vec<f64> {
        (0..5000)
            .map(|i| {
                let t = f64::from(i) / 500.0;
                let d = (t % 0.8) - 0.3;
                let qrs = (-(d * d) / (2.0 * 0.012f64.powi(2))).exp();
                let e = d - 0.3;
                let tw = 0.25 * (-(e * e) / (2.0 * 0.05f64.powi(2))).exp();
                qrs + tw + 0.01 * (2.0 * std::f64::consts::PI * 0.3 * t).sin()
            })
            .collect()
    }

    /// Uniform noise of about 1 mV, seeded.
    fn noise(seed: u64) -> Vec<f64> {
        let mut rng = crate::rng::SplitMix64::new(seed);
        (0..5000)
            .map(|_| (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 - 0.5)
            .collect()
    }

    #[test]
    fn a_noisy_named_lead_gives_way_to_the_cleanest_standard_lead() {
        // Lead II (the choice by name) is noise; V5 is clean: V5 is read.
        let rec = recording(
            vec![
                channel("I", noise(1)),
                channel("EKG II", noise(2)),
                channel("V5", clean_ecg()),
            ],
            500.0,
        );
        assert_eq!(pick_lead(&rec), Some(2));
        // A clean lead II stays the choice even beside other clean leads.
        let rec = recording(
            vec![
                channel("I", clean_ecg()),
                channel("II", clean_ecg()),
                channel("V5", clean_ecg()),
            ],
            500.0,
        );
        assert_eq!(pick_lead(&rec), Some(1));
        // A lead shown for only part of the record (a 2.5-s piece of a printed page) is no
        // candidate: the noisy full-length lead II stands.
        let mut piece = vec![f64::NAN; 5000];
        piece[1250..2500].copy_from_slice(&clean_ecg()[1250..2500]);
        let rec = recording(vec![channel("II", noise(3)), channel("aVR", piece)], 500.0);
        assert_eq!(pick_lead(&rec), Some(0));
        // "EKG I" is lead I by name.
        let rec = recording(
            vec![
                channel("EKG V1", clean_ecg()),
                channel("EKG I", clean_ecg()),
            ],
            500.0,
        );
        assert_eq!(pick_lead(&rec), Some(1));
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
