//! QRS detection on the MIT-BIH Arrhythmia Database: sensitivity and positive predictivity of
//! `cardio_signal::ecg` against the reference beat annotations.
//!
//! Channel 0 of every record, 60 Hz mains (the database was recorded in the USA). Reference beats
//! are the AAMI beat symbols `N L R B A a J S V r F e j n E / f Q`; a detection matches the nearest
//! unmatched reference beat within 150 ms. Following ANSI/AAMI EC57 (2012), section 4.2.1,
//! detections inside ventricular flutter/fibrillation episodes (between `[` and `]`, where the
//! reference has no beats) are not counted as false positives; [`QrsReport`] also gives +P with
//! them counted. The paced records 102, 104, 107 and 217 are reported apart.

use std::path::Path;

use cardio_formats::wfdb;
use cardio_signal::ecg::{EcgAnalyzer, Powerline};
use cardio_signal::SamplingRate;
use serde::Serialize;

use super::{dataset_dir, files_ending, percent, Counts, EvalError};

/// The records with a pacemaker.
pub const PACED: [&str; 4] = ["102", "104", "107", "217"];

/// Matching tolerance, seconds.
pub const TOLERANCE_S: f64 = 0.15;

/// Annotation codes (`ecgcodes.h`) that are beats: N L R a V F J A S E j / Q B e n f r.
pub fn is_beat(code: u8) -> bool {
    matches!(code, 1..=13 | 25 | 34 | 35 | 38 | 41)
}

/// Annotation code of the start of ventricular flutter/fibrillation (`[`).
const VF_ON: u8 = 32;
/// Annotation code of its end (`]`).
const VF_OFF: u8 = 33;
/// Annotation code of a normal beat (`N`).
const NORMAL: u8 = 1;
/// Annotation code of a premature ventricular contraction (`V`).
const PVC: u8 = 5;

/// Matches detections to reference events (both sorted sample indices) within `tol` samples: each
/// reference takes the nearest detection not yet taken. Returns TP, FN (unmatched references) and
/// FP (unmatched detections).
pub fn match_beats(reference: &[usize], detected: &[usize], tol: usize) -> Counts {
    let (_, errors) = pair_up(reference, detected, tol);
    let tp = errors.len();
    Counts {
        tp,
        fn_: reference.len() - tp,
        fp: detected.len() - tp,
    }
}

/// The one-to-one matching of [`match_beats`]: which detections were taken, and the signed error
/// (detected - reference, samples) of every matched reference, in reference order.
pub fn pair_up(reference: &[usize], detected: &[usize], tol: usize) -> (Vec<bool>, Vec<f64>) {
    let mut used = vec![false; detected.len()];
    let mut errors = Vec::new();
    let mut j = 0;
    for &r in reference {
        while j < detected.len() && detected[j] + tol < r {
            j += 1;
        }
        let mut best: Option<usize> = None;
        let mut k = j;
        while k < detected.len() && detected[k] <= r + tol {
            if !used[k] && best.is_none_or(|b| detected[k].abs_diff(r) < detected[b].abs_diff(r)) {
                best = Some(k);
            }
            k += 1;
        }
        if let Some(b) = best {
            used[b] = true;
            errors.push(detected[b] as f64 - r as f64);
        }
    }
    (used, errors)
}

/// Number of detections inside any of the (inclusive) sample intervals.
pub fn inside(detected: &[usize], episodes: &[(usize, usize)]) -> usize {
    detected
        .iter()
        .filter(|&&p| episodes.iter().any(|&(a, b)| p >= a && p <= b))
        .count()
}

/// The reference of one record: beat samples and codes, and VF/VFL episodes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Reference {
    /// Sample index of every reference beat.
    pub beats: Vec<usize>,
    /// The annotation code of every beat.
    pub codes: Vec<u8>,
    /// Ventricular flutter/fibrillation episodes, inclusive sample intervals (an episode left open
    /// at the end of the record runs to `usize::MAX`).
    pub vf: Vec<(usize, usize)>,
}

/// Splits WFDB annotations into beats and VF episodes.
pub fn reference_from(annotations: &[wfdb::Annotation]) -> Reference {
    let mut out = Reference::default();
    let mut vf_on: Option<usize> = None;
    for a in annotations {
        let t = usize::try_from(a.sample).unwrap_or(usize::MAX);
        if is_beat(a.code) {
            out.beats.push(t);
            out.codes.push(a.code);
        } else if a.code == VF_ON {
            vf_on = Some(t);
        } else if a.code == VF_OFF {
            if let Some(on) = vf_on.take() {
                out.vf.push((on, t));
            }
        }
    }
    if let Some(on) = vf_on {
        out.vf.push((on, usize::MAX));
    }
    out
}

/// One record's result.
#[derive(Debug, Clone, Serialize)]
pub struct RecordRow {
    /// Record name (`100`).
    pub record: String,
    /// A paced record.
    pub paced: bool,
    /// Reference beats.
    pub beats: usize,
    /// Counts with detections inside VF episodes not counted as false positives.
    pub counts: Counts,
    /// Detections inside VF episodes.
    pub in_vf: usize,
    /// Sensitivity, percent.
    pub se_pct: Option<f64>,
    /// Positive predictivity (VF detections excluded), percent.
    pub ppv_pct: Option<f64>,
    /// Minutes of signal.
    pub minutes: f64,
}

/// Totals of a group of records.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Group {
    /// Records in the group.
    pub records: usize,
    /// Summed counts, VF detections not counted as false positives (EC57).
    pub counts: Counts,
    /// Detections inside VF episodes.
    pub in_vf: usize,
    /// Gross sensitivity, percent.
    pub se_pct: Option<f64>,
    /// Gross positive predictivity, VF detections excluded, percent.
    pub ppv_pct: Option<f64>,
    /// Gross positive predictivity counting VF detections as false positives, percent.
    pub ppv_with_vf_pct: Option<f64>,
}

impl Group {
    fn add(&mut self, row: &RecordRow) {
        self.records += 1;
        self.counts += row.counts;
        self.in_vf += row.in_vf;
        self.se_pct = self.counts.sensitivity_pct();
        self.ppv_pct = self.counts.positive_predictivity_pct();
        self.ppv_with_vf_pct =
            percent(self.counts.tp, self.counts.tp + self.counts.fp + self.in_vf);
    }
}

/// QRS width and P-wave presence of detections matched to one kind of reference beat.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Delineation {
    /// Matched beats.
    pub beats: usize,
    /// Median QRS width, ms.
    pub qrs_median_ms: Option<f64>,
    /// First quartile of the QRS width, ms.
    pub qrs_q1_ms: Option<f64>,
    /// Third quartile of the QRS width, ms.
    pub qrs_q3_ms: Option<f64>,
    /// Share of beats with a P wave found, percent.
    pub p_wave_pct: Option<f64>,
}

impl Delineation {
    fn from_widths(mut widths_s: Vec<f64>, with_p: usize) -> Self {
        widths_s.sort_unstable_by(f64::total_cmp);
        let n = widths_s.len();
        let at = |i: usize| widths_s.get(i).map(|w| 1000.0 * w);
        Self {
            beats: n,
            qrs_median_ms: at(n / 2),
            qrs_q1_ms: at(n / 4),
            qrs_q3_ms: at(3 * n / 4),
            p_wave_pct: percent(with_p, n),
        }
    }
}

/// The MIT-BIH evaluation.
#[derive(Debug, Clone, Default, Serialize)]
pub struct QrsReport {
    /// One row per record, by name.
    pub rows: Vec<RecordRow>,
    /// The non-paced records.
    pub non_paced: Group,
    /// The paced records.
    pub paced: Group,
    /// Delineation of detections matched to normal (`N`) reference beats.
    pub normal_beats: Delineation,
    /// Delineation of detections matched to ventricular (`V`) reference beats.
    pub ventricular_beats: Delineation,
    /// Minutes of signal analysed.
    pub minutes: f64,
}

/// Evaluates every record of `$root/mitdb` (records with an `.atr` file).
///
/// # Errors
/// [`EvalError::MissingDataset`] without the folder; a read or signal error of any record.
pub fn evaluate(root: &Path) -> Result<QrsReport, EvalError> {
    evaluate_records(root, None)
}

/// Evaluates the records of `$root/mitdb`, or only those named in `only`.
///
/// # Errors
/// As [`evaluate`]; [`EvalError::Content`] when a record named in `only` has no annotation file.
pub fn evaluate_records(root: &Path, only: Option<&[&str]>) -> Result<QrsReport, EvalError> {
    let dir = dataset_dir(root, "mitdb", "")?;
    let mut names: Vec<String> = files_ending(&dir, ".atr")?
        .iter()
        .filter_map(|p| Some(p.file_stem()?.to_str()?.to_owned()))
        .collect();
    if let Some(only) = only {
        for want in only {
            if !names.iter().any(|n| n == want) {
                return Err(EvalError::content(
                    &dir.join(format!("{want}.atr")),
                    "no such record",
                ));
            }
        }
        names.retain(|n| only.contains(&n.as_str()));
    }
    let mut report = QrsReport::default();
    let mut analyzer: Option<(f64, EcgAnalyzer)> = None;
    let mut widths: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
    let mut p_waves = [0usize; 2];
    for name in &names {
        let hea = dir.join(format!("{name}.hea"));
        let rec = cardio_formats::read_path(&hea).map_err(|e| EvalError::read(&hea, e))?;
        let signal = &rec
            .channels
            .first()
            .ok_or_else(|| EvalError::content(&hea, "no channels"))?
            .samples;
        let atr = dir.join(format!("{name}.atr"));
        let bytes = std::fs::read(&atr).map_err(|source| {
            EvalError::read(
                &atr,
                cardio_formats::FormatError::Io {
                    path: atr.display().to_string(),
                    reason: source,
                },
            )
        })?;
        let annotations = wfdb::read_annotations(&bytes).map_err(|e| EvalError::read(&atr, e))?;
        let reference = reference_from(&annotations);

        let fs_hz = rec.sampling_rate_hz;
        if analyzer.as_ref().is_none_or(|(hz, _)| *hz != fs_hz) {
            let fs = SamplingRate::new(fs_hz).map_err(|e| EvalError::signal(&hea, e))?;
            let planned =
                EcgAnalyzer::new(fs, Powerline::Hz60).map_err(|e| EvalError::signal(&hea, e))?;
            analyzer = Some((fs_hz, planned));
        }
        let Some((_, planned)) = analyzer.as_ref() else {
            unreachable!("planned just above")
        };
        let result = planned
            .analyze(signal)
            .map_err(|e| EvalError::signal(&hea, e))?;

        let tol = (TOLERANCE_S * fs_hz) as usize;
        let all = match_beats(&reference.beats, &result.r_peaks, tol);
        let in_vf = inside(&result.r_peaks, &reference.vf);
        let counts = Counts {
            fp: all.fp - in_vf.min(all.fp),
            ..all
        };
        for b in &result.beats {
            let k = reference.beats.partition_point(|&r| r + tol < b.r_peak);
            if let Some(&r) = reference.beats.get(k) {
                if r <= b.r_peak + tol {
                    let g = match reference.codes[k] {
                        NORMAL => 0,
                        PVC => 1,
                        _ => continue,
                    };
                    widths[g].push(b.qrs_width_s);
                    p_waves[g] += usize::from(b.p_wave);
                }
            }
        }
        let minutes = signal.len() as f64 / fs_hz / 60.0;
        let row = RecordRow {
            record: name.clone(),
            paced: PACED.contains(&name.as_str()),
            beats: reference.beats.len(),
            counts,
            in_vf,
            se_pct: counts.sensitivity_pct(),
            ppv_pct: counts.positive_predictivity_pct(),
            minutes,
        };
        if row.paced {
            report.paced.add(&row);
        } else {
            report.non_paced.add(&row);
        }
        report.minutes += minutes;
        report.rows.push(row);
    }
    let [n_widths, v_widths] = widths;
    report.normal_beats = Delineation::from_widths(n_widths, p_waves[0]);
    report.ventricular_beats = Delineation::from_widths(v_widths, p_waves[1]);
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn annotation(sample: u64, code: u8) -> wfdb::Annotation {
        wfdb::Annotation {
            sample,
            code,
            symbol: wfdb::symbol_for_code(code),
            subtype: 0,
            channel: 0,
            num: 0,
            aux: None,
        }
    }

    #[test]
    fn each_reference_beat_takes_the_nearest_free_detection_within_the_tolerance() {
        // 100 matches 102 (nearer than 95); 200 matches 205; 300 has none within 10; 95 and 330
        // are extra.
        let m = match_beats(&[100, 200, 300], &[95, 102, 205, 330], 10);
        assert_eq!(
            m,
            Counts {
                tp: 2,
                fn_: 1,
                fp: 2
            }
        );
    }

    #[test]
    fn a_detection_is_matched_at_most_once() {
        let m = match_beats(&[100, 104], &[102], 5);
        assert_eq!(
            m,
            Counts {
                tp: 1,
                fn_: 1,
                fp: 0
            }
        );
    }

    #[test]
    fn the_tolerance_is_inclusive() {
        assert_eq!(match_beats(&[100], &[154], 54).tp, 1);
        assert_eq!(match_beats(&[100], &[155], 54).tp, 0);
        assert_eq!(match_beats(&[100], &[46], 54).tp, 1);
    }

    #[test]
    fn empty_inputs_give_all_misses_or_all_extras() {
        assert_eq!(
            match_beats(&[1, 2], &[], 5),
            Counts {
                tp: 0,
                fn_: 2,
                fp: 0
            }
        );
        assert_eq!(
            match_beats(&[], &[1, 2], 5),
            Counts {
                tp: 0,
                fn_: 0,
                fp: 2
            }
        );
    }

    #[test]
    fn annotations_split_into_beats_and_vf_episodes() {
        let anns = [
            annotation(10, 1),  // N
            annotation(20, 28), // rhythm change: not a beat
            annotation(30, 5),  // V
            annotation(40, 32), // [
            annotation(90, 33), // ]
            annotation(95, 12), // paced
            annotation(99, 32), // [ left open
        ];
        let r = reference_from(&anns);
        assert_eq!(r.beats, vec![10, 30, 95]);
        assert_eq!(r.codes, vec![1, 5, 12]);
        assert_eq!(r.vf, vec![(40, 90), (99, usize::MAX)]);
    }

    #[test]
    fn detections_inside_vf_episodes_are_counted() {
        assert_eq!(
            inside(&[10, 40, 60, 90, 91, 200], &[(40, 90), (150, 300)]),
            4
        );
    }

    #[test]
    fn groups_report_ppv_with_and_without_vf_detections() {
        let mut g = Group::default();
        let counts = Counts {
            tp: 95,
            fn_: 5,
            fp: 5,
        };
        g.add(&RecordRow {
            record: "x".into(),
            paced: false,
            beats: 100,
            counts,
            in_vf: 10,
            se_pct: None,
            ppv_pct: None,
            minutes: 1.0,
        });
        assert_eq!(g.se_pct, Some(95.0));
        assert_eq!(g.ppv_pct, Some(95.0));
        assert_eq!(g.ppv_with_vf_pct, Some(9500.0 / 110.0));
    }

    #[test]
    fn record_100_is_detected_above_99_percent_when_the_dataset_is_present() {
        let Some(root) = cardio_testkit::datasets(&["mitdb/100.atr"]) else {
            return;
        };
        let report = evaluate_records(&root, Some(&["100"])).unwrap();
        assert_eq!(report.rows.len(), 1);
        let row = &report.rows[0];
        assert_eq!(row.beats, 2273);
        assert!(row.se_pct.unwrap() > 99.0, "{row:?}");
        assert!(row.ppv_pct.unwrap() > 99.0, "{row:?}");
    }
}
