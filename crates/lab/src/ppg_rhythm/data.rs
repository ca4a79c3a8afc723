//! The interval data the rhythm model learns from: beat times of PhysioNet/CinC 2017 (R peaks found
//! by `cardio_signal::ecg::EcgAnalyzer` in the single-lead ECG, record labels from `REFERENCE.csv`)
//! and of the MIT-BIH Arrhythmia Database (the reference beat annotations, with per-beat rhythm from
//! the rhythm annotations), cut into windows of a given length and labelled.
//!
//! **Window labels** ([`WindowLabel`]):
//! - CinC 2017: `N` → normal, `A` → AF, `O` (other rhythm) → *other non-AF*; `~` (noisy) records
//!   are left out (ECG noise says nothing about PPG noise). Every window takes its record's label.
//! - MIT-BIH: the paced records (102, 104, 107, 217) are left out. A window is *AF* when every beat
//!   in it is in an `(AFIB` episode; it is left out when it mixes AF with another rhythm or touches
//!   atrial flutter `(AFL`, ventricular flutter `(VFL` or a VF episode `[`…`]`. Otherwise it is
//!   non-AF and it is *irregular* when its ectopic beats (premature atrial `A`, aberrated atrial `a`,
//!   nodal premature `J`, supraventricular premature `S`, ventricular premature `V`, fusion `F`,
//!   ventricular escape `E`) number at least two and at least 10 % of its beats, *normal* when it has
//!   none and every beat is in sinus rhythm `(N` or sinus bradycardia `(SBR`, and *other non-AF*
//!   otherwise (a single ectopic beat, or another rhythm such as `(B`, `(T`, `(SVTA`, `(BII` without
//!   enough ectopic beats).
//!
//! *Other non-AF* windows count as AF negatives in training and validation of the AF decision, but
//! take no part in the normal/irregular decision.
//!
//! Windows are consecutive and non-overlapping from the start of the record (`[k L, (k + 1) L)`),
//! only whole windows are used; the intervals of a window are those between consecutive beats that
//! both lie in it. Records 201 and 202 of MIT-BIH come from the same patient and share a group, so
//! that grouped cross-validation never splits a person.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use cardio_formats::wfdb;
use cardio_signal::ecg::{EcgAnalyzer, Powerline};
use cardio_signal::SamplingRate;
use serde::{Deserialize, Serialize};

pub use cardio_models::ppg_rhythm::classifier::WindowLabel;
use cardio_models::ppg_rhythm::features::interval_features;
use cardio_models::ppg_rhythm::PpgRhythmError;

/// Where a window comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// PhysioNet/CinC Challenge 2017 (AliveCor single-lead ECG, 300 Hz).
    Cinc2017,
    /// MIT-BIH Arrhythmia Database (Holter, 360 Hz).
    Mitdb,
}

impl Source {
    /// The dataset's folder name.
    pub fn name(self) -> &'static str {
        match self {
            Self::Cinc2017 => "cinc2017",
            Self::Mitdb => "mitdb",
        }
    }
}

/// Beat times of one record, and what is known about each beat.
#[derive(Debug, Clone)]
pub struct BeatRecord {
    /// Dataset.
    pub source: Source,
    /// Record name (`A00001`, `201`).
    pub record: String,
    /// Person: the record for CinC 2017, the patient for MIT-BIH (`201+202`).
    pub group: String,
    /// Length of the record, seconds.
    pub duration_s: f64,
    /// Beat times, seconds, increasing.
    pub beats_s: Vec<f64>,
    /// The record's label (CinC 2017), or `None` to label each window from its beats (MIT-BIH).
    pub record_label: Option<WindowLabel>,
    /// Per-beat annotation code (MIT-BIH), empty for CinC 2017.
    pub beat_codes: Vec<u8>,
    /// Per-beat rhythm (`AFIB`, `N`, ...; MIT-BIH), empty for CinC 2017.
    pub beat_rhythms: Vec<String>,
    /// Per-beat: inside a VF episode or after an unclosed one (MIT-BIH).
    pub beat_in_vf: Vec<bool>,
}

/// One labelled window of intervals with its features.
#[derive(Debug, Clone)]
pub struct Window {
    /// Dataset.
    pub source: Source,
    /// Index of the record in the loaded list.
    pub record: usize,
    /// Person (see [`BeatRecord::group`]).
    pub group: String,
    /// Window length, seconds.
    pub length_s: f64,
    /// Start, seconds from the start of the record.
    pub start_s: f64,
    /// Label.
    pub label: WindowLabel,
    /// Features ([`cardio_models::ppg_rhythm::features::FEATURE_NAMES`]).
    pub features: Vec<f64>,
    /// The intervals, ms (kept to compute jittered copies, see [`jitter_intervals`]).
    pub intervals_ms: Vec<f64>,
}

/// Beat-time jitter of the training copies, ms (standard deviation of each beat's time): the
/// timing noise that separates PPG pulse-to-pulse from ECG R-R intervals, of the order reported by
/// Schäfer & Vagedes, *Int. J. Cardiol.* 2013;166:15-29 (pulse rate variability vs HRV), fixed a
/// priori.
pub const AUGMENT_JITTER_MS: f64 = 10.0;

/// The intervals after moving every beat time by an independent Gaussian error of `sigma_ms`
/// (Box-Muller on a seeded SplitMix64), each interval kept at 50 ms or more.
pub fn jitter_intervals(rr_ms: &[f64], sigma_ms: f64, seed: u64) -> Vec<f64> {
    let mut rng = cardio_models::rng::SplitMix64::new(seed);
    let mut unit = || ((rng.next_u64() >> 11) as f64 + 0.5) / (1u64 << 53) as f64;
    let errors: Vec<f64> = (0..=rr_ms.len())
        .map(|_| {
            let (u, v) = (unit(), unit());
            sigma_ms * (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
        })
        .collect();
    rr_ms
        .iter()
        .enumerate()
        .map(|(i, r)| (r + errors[i + 1] - errors[i]).max(50.0))
        .collect()
}

impl Window {
    /// Features of a copy of the window with beat-time jitter `sigma_ms` (see
    /// [`jitter_intervals`]); the seed comes from the window's record, start and length.
    pub fn jittered_features(&self, sigma_ms: f64, salt: u64) -> Option<Vec<f64>> {
        let seed = (self.record as u64)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .wrapping_add(self.start_s.to_bits())
            .wrapping_add(self.length_s.to_bits().rotate_left(17))
            .wrapping_add(salt);
        interval_features(&jitter_intervals(&self.intervals_ms, sigma_ms, seed))
    }
}

/// MIT-BIH records with a pacemaker, left out.
pub const MITDB_PACED: [&str; 4] = ["102", "104", "107", "217"];

/// MIT-BIH beat annotation codes (`ecgcodes.h`) counted as ectopic: `A a J S V F E`.
pub fn is_ectopic(code: u8) -> bool {
    matches!(code, 4..=10)
}

/// MIT-BIH annotation codes that are beats.
fn is_beat(code: u8) -> bool {
    crate::eval::qrs::is_beat(code)
}

/// Rhythm-change annotation code (`+`).
const RHYTHM: u8 = 28;
/// Start and end of ventricular flutter/fibrillation.
const VF_ON: u8 = 32;
const VF_OFF: u8 = 33;

/// The person of a MIT-BIH record (201 and 202 are the same patient).
pub fn mitdb_group(record: &str) -> String {
    match record {
        "201" | "202" => "mitdb/201+202".into(),
        r => format!("mitdb/{r}"),
    }
}

/// Beat times, codes, rhythms and VF flags from MIT-BIH annotations at `fs_hz`.
pub fn mitdb_beats(
    annotations: &[wfdb::Annotation],
    fs_hz: f64,
) -> (Vec<f64>, Vec<u8>, Vec<String>, Vec<bool>) {
    let (mut times, mut codes, mut rhythms, mut vf) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut rhythm = String::new();
    let mut in_vf = false;
    for a in annotations {
        if a.code == RHYTHM {
            if let Some(aux) = &a.aux {
                let r = aux.trim_matches(|c: char| c == '\0' || c.is_whitespace());
                rhythm = r.trim_start_matches('(').to_string();
            }
        } else if a.code == VF_ON {
            in_vf = true;
        } else if a.code == VF_OFF {
            in_vf = false;
        } else if is_beat(a.code) {
            times.push(a.sample as f64 / fs_hz);
            codes.push(a.code);
            rhythms.push(rhythm.clone());
            vf.push(in_vf);
        }
    }
    (times, codes, rhythms, vf)
}

/// The label of a MIT-BIH window from its beats' codes, rhythms and VF flags; `None` when the
/// window is left out (see the module docs).
pub fn label_mitdb_window(codes: &[u8], rhythms: &[String], in_vf: &[bool]) -> Option<WindowLabel> {
    if codes.is_empty() || in_vf.iter().any(|&v| v) {
        return None;
    }
    if rhythms.iter().any(|r| r == "AFL" || r == "VFL") {
        return None;
    }
    let af = rhythms.iter().filter(|r| *r == "AFIB").count();
    if af == rhythms.len() {
        return Some(WindowLabel::Af);
    }
    if af > 0 {
        return None;
    }
    let ectopic = codes.iter().filter(|&&c| is_ectopic(c)).count();
    if ectopic >= 2 && ectopic * 10 >= codes.len() {
        return Some(WindowLabel::Irregular);
    }
    if ectopic == 0 && rhythms.iter().all(|r| r == "N" || r == "SBR") {
        return Some(WindowLabel::Normal);
    }
    Some(WindowLabel::OtherNonAf)
}

/// Intervals (ms) between consecutive beats of `beats_s[lo..hi]`.
fn intervals_ms(beats_s: &[f64]) -> Vec<f64> {
    beats_s.windows(2).map(|w| 1000.0 * (w[1] - w[0])).collect()
}

/// Cuts one record into labelled windows of `length_s` (see the module docs). Windows with fewer
/// intervals than [`cardio_models::ppg_rhythm::features::MIN_INTERVALS`] are dropped.
pub fn windows_of(rec: &BeatRecord, index: usize, length_s: f64) -> Vec<Window> {
    let mut out = Vec::new();
    if length_s.is_nan() || length_s <= 0.0 {
        return out;
    }
    let mut k = 0u32;
    loop {
        let start = f64::from(k) * length_s;
        let end = start + length_s;
        if end > rec.duration_s + 1e-9 {
            break;
        }
        k += 1;
        let lo = rec.beats_s.partition_point(|&t| t < start);
        let hi = rec.beats_s.partition_point(|&t| t < end);
        let label = match rec.record_label {
            Some(l) => Some(l),
            None => label_mitdb_window(
                &rec.beat_codes[lo..hi],
                &rec.beat_rhythms[lo..hi],
                &rec.beat_in_vf[lo..hi],
            ),
        };
        let Some(label) = label else { continue };
        let intervals = intervals_ms(&rec.beats_s[lo..hi]);
        let Some(features) = interval_features(&intervals) else {
            continue;
        };
        out.push(Window {
            source: rec.source,
            record: index,
            group: rec.group.clone(),
            length_s,
            start_s: start,
            label,
            features,
            intervals_ms: intervals,
        });
    }
    out
}

fn io_error(path: &Path, e: &std::io::Error) -> PpgRhythmError {
    PpgRhythmError::Data(format!("{}: {e}", path.display()))
}

fn dataset(root: &Path, name: &'static str, sub: &str) -> Result<PathBuf, PpgRhythmError> {
    let path = root.join(name).join(sub);
    if path.is_dir() {
        Ok(path)
    } else {
        Err(PpgRhythmError::MissingDataset {
            path: path.display().to_string(),
        })
    }
}

/// The labels of `REFERENCE.csv` (record → `N|A|O|~`).
///
/// # Errors
/// [`PpgRhythmError::Data`] when the file cannot be read or a line is malformed.
pub fn cinc2017_reference(dir: &Path) -> Result<BTreeMap<String, String>, PpgRhythmError> {
    let path = dir.join("REFERENCE.csv");
    let text = std::fs::read_to_string(&path).map_err(|e| io_error(&path, &e))?;
    let mut out = BTreeMap::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let Some((rec, label)) = line.split_once(',') else {
            return Err(PpgRhythmError::Data(format!(
                "{} line {}: expected record,label",
                path.display(),
                i + 1
            )));
        };
        out.insert(rec.trim().to_string(), label.trim().to_string());
    }
    Ok(out)
}

/// Loads CinC 2017 (`$root/cinc2017/training2017`): every record labelled `N`, `A` or `O`, R peaks
/// found in the ECG; `limit` keeps only the first records (by name) for quick tests. Two threads.
///
/// # Errors
/// [`PpgRhythmError::MissingDataset`] without the folder; [`PpgRhythmError::Data`] for an unreadable
/// file or a record the ECG analysis refuses.
pub fn load_cinc2017(root: &Path, limit: Option<usize>) -> Result<Vec<BeatRecord>, PpgRhythmError> {
    let dir = dataset(root, "cinc2017", "training2017")?;
    let reference = cinc2017_reference(&dir)?;
    let mut todo: Vec<(String, WindowLabel)> = reference
        .iter()
        .filter_map(|(rec, l)| {
            let label = match l.as_str() {
                "N" => WindowLabel::Normal,
                "A" => WindowLabel::Af,
                "O" => WindowLabel::OtherNonAf,
                _ => return None,
            };
            Some((rec.clone(), label))
        })
        .collect();
    if let Some(n) = limit {
        todo.truncate(n);
    }
    let half = todo.len().div_ceil(2);
    let load_part = |part: &[(String, WindowLabel)]| -> Result<Vec<BeatRecord>, PpgRhythmError> {
        let mut analyzer: Option<(f64, EcgAnalyzer)> = None;
        let mut out = Vec::with_capacity(part.len());
        for (name, label) in part {
            let path = dir.join(format!("{name}.mat"));
            let rec = cardio_formats::read_path(&path)
                .map_err(|e| PpgRhythmError::Data(format!("{}: {e}", path.display())))?;
            let Some(ch) = rec.channels.first() else {
                return Err(PpgRhythmError::Data(format!(
                    "{}: no channels",
                    path.display()
                )));
            };
            let fs = rec.sampling_rate_hz;
            if analyzer.as_ref().is_none_or(|(hz, _)| *hz != fs) {
                let planned = SamplingRate::new(fs)
                    .and_then(|r| EcgAnalyzer::new(r, Powerline::None))
                    .map_err(|e| PpgRhythmError::Data(format!("{}: {e}", path.display())))?;
                analyzer = Some((fs, planned));
            }
            let Some((_, planned)) = analyzer.as_ref() else {
                continue;
            };
            let samples: Vec<f64> = ch
                .samples
                .iter()
                .map(|v| if v.is_finite() { *v } else { 0.0 })
                .collect();
            let result = planned
                .analyze(&samples)
                .map_err(|e| PpgRhythmError::Data(format!("{}: {e}", path.display())))?;
            out.push(BeatRecord {
                source: Source::Cinc2017,
                record: name.clone(),
                group: format!("cinc2017/{name}"),
                duration_s: samples.len() as f64 / fs,
                beats_s: result.r_peaks.iter().map(|&i| i as f64 / fs).collect(),
                record_label: Some(*label),
                beat_codes: Vec::new(),
                beat_rhythms: Vec::new(),
                beat_in_vf: Vec::new(),
            });
        }
        Ok(out)
    };
    let (a, b) = std::thread::scope(|s| {
        let first = s.spawn(|| load_part(&todo[..half]));
        let second = load_part(&todo[half..]);
        (first.join(), second)
    });
    let mut out = a.map_err(|_| PpgRhythmError::Data("a loading thread panicked".into()))??;
    out.extend(b?);
    Ok(out)
}

/// Loads MIT-BIH (`$root/mitdb`): the beat and rhythm annotations of every record with an `.atr`
/// file except the paced ones; `only` keeps the named records.
///
/// # Errors
/// [`PpgRhythmError::MissingDataset`] without the folder; [`PpgRhythmError::Data`] for an unreadable
/// header or annotation file.
pub fn load_mitdb(root: &Path, only: Option<&[&str]>) -> Result<Vec<BeatRecord>, PpgRhythmError> {
    let dir = dataset(root, "mitdb", "")?;
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .map_err(|e| io_error(&dir, &e))?
        .filter_map(|e| {
            let p = e.ok()?.path();
            (p.extension()? == "atr").then(|| p.file_stem()?.to_str().map(str::to_owned))?
        })
        .filter(|n| !MITDB_PACED.contains(&n.as_str()))
        .filter(|n| only.is_none_or(|o| o.contains(&n.as_str())))
        .collect();
    names.sort();
    let mut out = Vec::new();
    for name in names {
        let hea = dir.join(format!("{name}.hea"));
        let text = std::fs::read_to_string(&hea).map_err(|e| io_error(&hea, &e))?;
        let header = wfdb::parse_header(&text)
            .map_err(|e| PpgRhythmError::Data(format!("{}: {e}", hea.display())))?;
        let fs = header.sampling_rate_hz;
        let atr = dir.join(format!("{name}.atr"));
        let bytes = std::fs::read(&atr).map_err(|e| io_error(&atr, &e))?;
        let annotations = wfdb::read_annotations(&bytes)
            .map_err(|e| PpgRhythmError::Data(format!("{}: {e}", atr.display())))?;
        let (beats_s, beat_codes, beat_rhythms, beat_in_vf) = mitdb_beats(&annotations, fs);
        let duration_s = header
            .n_samples
            .map_or_else(|| beats_s.last().copied().unwrap_or(0.0), |n| n as f64 / fs);
        out.push(BeatRecord {
            source: Source::Mitdb,
            group: mitdb_group(&name),
            record: name,
            duration_s,
            beats_s,
            record_label: None,
            beat_codes,
            beat_rhythms,
            beat_in_vf,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rhythms(r: &[&str]) -> Vec<String> {
        r.iter().map(|s| (*s).to_string()).collect()
    }

    #[test]
    fn mitdb_windows_are_labelled_by_rhythm_and_ectopy() {
        let n = 1u8; // N
        let v = 5u8; // V
        let sinus = rhythms(&["N"; 10]);
        let no_vf = [false; 10];
        assert_eq!(
            label_mitdb_window(&[n; 10], &sinus, &no_vf),
            Some(WindowLabel::Normal)
        );
        let mut one = [n; 10];
        one[3] = v;
        assert_eq!(
            label_mitdb_window(&one, &sinus, &no_vf),
            Some(WindowLabel::OtherNonAf)
        );
        let mut two = one;
        two[7] = 8; // A
        assert_eq!(
            label_mitdb_window(&two, &sinus, &no_vf),
            Some(WindowLabel::Irregular)
        );
        assert_eq!(
            label_mitdb_window(&[n; 10], &rhythms(&["AFIB"; 10]), &no_vf),
            Some(WindowLabel::Af)
        );
        let mut mixed = rhythms(&["AFIB"; 10]);
        mixed[0] = "N".into();
        assert_eq!(label_mitdb_window(&[n; 10], &mixed, &no_vf), None);
        assert_eq!(
            label_mitdb_window(&[n; 10], &rhythms(&["AFL"; 10]), &no_vf),
            None
        );
        let mut vf = no_vf;
        vf[9] = true;
        assert_eq!(label_mitdb_window(&[n; 10], &sinus, &vf), None);
        // Two ectopic beats among 30 are under 10 %.
        let mut sparse = [n; 30];
        sparse[4] = v;
        sparse[20] = v;
        assert_eq!(
            label_mitdb_window(&sparse, &rhythms(&["N"; 30]), &[false; 30]),
            Some(WindowLabel::OtherNonAf)
        );
    }

    #[test]
    fn rhythm_annotations_carry_over_to_the_following_beats() {
        let ann = |sample: u64, code: u8, aux: Option<&str>| wfdb::Annotation {
            sample,
            code,
            symbol: String::new(),
            subtype: 0,
            channel: 0,
            num: 0,
            aux: aux.map(str::to_owned),
        };
        let annotations = [
            ann(0, RHYTHM, Some("(N\0")),
            ann(100, 1, None),
            ann(200, RHYTHM, Some("(AFIB")),
            ann(300, 1, None),
            ann(400, VF_ON, None),
            ann(450, 1, None),
            ann(500, VF_OFF, None),
        ];
        let (t, codes, r, vf) = mitdb_beats(&annotations, 100.0);
        assert_eq!(t, vec![1.0, 3.0, 4.5]);
        assert_eq!(codes, vec![1, 1, 1]);
        assert_eq!(r, rhythms(&["N", "AFIB", "AFIB"]));
        assert_eq!(vf, vec![false, false, true]);
    }

    #[test]
    fn records_are_cut_into_whole_consecutive_windows() {
        let rec = BeatRecord {
            source: Source::Cinc2017,
            record: "A1".into(),
            group: "cinc2017/A1".into(),
            duration_s: 25.0,
            beats_s: (0..25).map(|i| f64::from(i) + 0.5).collect(),
            record_label: Some(WindowLabel::Normal),
            beat_codes: Vec::new(),
            beat_rhythms: Vec::new(),
            beat_in_vf: Vec::new(),
        };
        let w = windows_of(&rec, 3, 10.0);
        assert_eq!(w.len(), 2);
        assert_eq!(w[1].start_s, 10.0);
        assert_eq!(w[0].features[0], 9.0); // ten beats in [0, 10), nine intervals
        assert_eq!(w[0].record, 3);
        assert!(windows_of(&rec, 0, 30.0).is_empty());
    }

    #[test]
    fn jitter_is_seeded_keeps_the_mean_and_has_the_expected_spread() {
        let rr = vec![800.0; 2000];
        let a = jitter_intervals(&rr, 10.0, 5);
        assert_eq!(a, jitter_intervals(&rr, 10.0, 5));
        assert_ne!(a, jitter_intervals(&rr, 10.0, 6));
        let mean = a.iter().sum::<f64>() / 2000.0;
        // The sum telescopes: only the first and last beat errors remain.
        assert!((mean - 800.0).abs() < 0.1, "{mean}");
        let sd = (a.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / 1999.0).sqrt();
        // An interval's error is the difference of two beat errors: sd = sqrt(2) * 10 ms.
        assert!((sd - 14.14).abs() < 1.0, "{sd}");
        assert_eq!(jitter_intervals(&[], 10.0, 1), Vec::<f64>::new());
    }

    #[test]
    fn patients_201_and_202_share_a_group() {
        assert_eq!(mitdb_group("201"), mitdb_group("202"));
        assert_ne!(mitdb_group("201"), mitdb_group("203"));
    }
}
