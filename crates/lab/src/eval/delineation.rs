//! Wave delineation on LUDB (Lobachevsky University Electrocardiography Database): every lead of
//! all 200 records delineated by `cardio_signal::ecg::WaveDelineator` and scored against that
//! lead's own annotations.
//!
//! Kalyakulina, A. I. et al. (2020), "LUDB: A new open-access validation tool for
//! electrocardiogram delineation algorithms", *IEEE Access* 8, 186181-186190. Each annotated wave
//! is `(` onset, the peak (`p`, `N`, `t`), `)` offset. Only a lead's annotated span (its first
//! to its last annotation) is scored: an unmatched detection outside it is not a false positive,
//! while a detection just outside may match an annotated boundary at the span's edge. A detected boundary is matched one-to-one
//! to the nearest annotated boundary of the same kind within [`TOLERANCE_S`]; Se = TP / (TP + FN),
//! PPV = TP / (TP + FP), and the error (detected - annotated, ms) of the matched pairs gives the
//! mean and SD. 95 % CIs come from a bootstrap over records (percentiles of
//! [`BOOTSTRAP_DRAWS`] resamples, seed [`SEED`]).
//!
//! The targets ([`Kind::targets`]) are Martínez et al. (2004)'s: Se and PPV of 99 % for the QRS
//! boundaries, 97 % for the P boundaries and the T offset; |mean| of at most 5 ms; SD within the
//! CSE tolerances (Willems et al. 1985: P onset 10.2, P offset 12.7, QRS onset 6.5, QRS offset
//! 11.6, T offset 30.6 ms). LUDB was used to develop the delineator: these are development figures.
//!
//! In the same run, when its venv is installed (`make neurokit-venv`), NeuroKit2's
//! `ecg_delineate(method="dwt")` delineates the same leads and is scored with the same matcher and
//! statistics as the reference row ([`super::neurokit`]); and the speed of the full 12-lead
//! reading (`cardio_models::ecg12::analyze`) and of the delineation alone is timed on every record,
//! one thread, beside NeuroKit2's time for one lead of the same records ([`Speed`]).

use std::path::Path;
use std::time::Instant;

use cardio_formats::wfdb;
use cardio_signal::ecg::{Powerline, WaveDelineator, Waves};
use cardio_signal::SamplingRate;
use serde::Serialize;

use super::neurokit::{self, Reference};
use super::qrs::pair_up;
use super::{dataset_dir, files_ending, Counts, EvalError};
use crate::resample::{draw, percentile_nearest, SplitMix64};

/// Matching tolerance, seconds.
pub const TOLERANCE_S: f64 = 0.15;
/// Bootstrap resamples of the records.
pub const BOOTSTRAP_DRAWS: usize = 1000;
/// Seed of the bootstrap.
pub const SEED: u64 = 39;

/// Timed runs of each record (the best is kept, so that another process's moment on the core
/// does not count).
pub const TIMING_REPEATS: usize = 3;
/// The speed target: one 10-s 12-lead record at 500 Hz read (delineation, measurements,
/// statements) in at most this many milliseconds, one core, release build.
pub const SPEED_TARGET_MS: f64 = 10.0;

/// A kind of boundary.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Kind {
    /// P onset.
    POn,
    /// P peak.
    PPeak,
    /// P offset.
    POff,
    /// QRS onset.
    QrsOn,
    /// QRS peak.
    RPeak,
    /// QRS offset.
    QrsOff,
    /// T onset.
    TOn,
    /// T peak.
    TPeak,
    /// T offset.
    TOff,
}

impl Kind {
    /// Every kind, in table order.
    pub const ALL: [Self; 9] = [
        Self::POn,
        Self::PPeak,
        Self::POff,
        Self::QrsOn,
        Self::RPeak,
        Self::QrsOff,
        Self::TOn,
        Self::TPeak,
        Self::TOff,
    ];

    /// The label printed.
    pub fn label(self) -> &'static str {
        match self {
            Self::POn => "P on",
            Self::PPeak => "P peak",
            Self::POff => "P off",
            Self::QrsOn => "QRS on",
            Self::RPeak => "QRS peak",
            Self::QrsOff => "QRS off",
            Self::TOn => "T on",
            Self::TPeak => "T peak",
            Self::TOff => "T off",
        }
    }

    /// The targets: (minimum Se and PPV in percent, maximum SD in ms); `None` without one.
    pub fn targets(self) -> Option<(f64, f64)> {
        match self {
            Self::POn => Some((97.0, 10.2)),
            Self::POff => Some((97.0, 12.7)),
            Self::QrsOn => Some((99.0, 6.5)),
            Self::QrsOff => Some((99.0, 11.6)),
            Self::TOff => Some((97.0, 30.6)),
            _ => None,
        }
    }

    /// The key of this kind in the reference script's output (`nk_delineate.py`).
    pub fn key(self) -> &'static str {
        match self {
            Self::POn => "p_on",
            Self::PPeak => "p_peak",
            Self::POff => "p_off",
            Self::QrsOn => "qrs_on",
            Self::RPeak => "r_peak",
            Self::QrsOff => "qrs_off",
            Self::TOn => "t_on",
            Self::TPeak => "t_peak",
            Self::TOff => "t_off",
        }
    }

    fn get(self, w: &Waves) -> Option<usize> {
        match self {
            Self::POn => w.p_on,
            Self::PPeak => w.p_peak,
            Self::POff => w.p_off,
            Self::QrsOn => w.qrs_on,
            Self::RPeak => w.r_peak,
            Self::QrsOff => w.qrs_off,
            Self::TOn => w.t_on,
            Self::TPeak => w.t_peak,
            Self::TOff => w.t_off,
        }
    }
}

/// The largest |mean error| allowed, ms.
pub const MAX_ABS_MEAN_MS: f64 = 5.0;

/// The leads of LUDB, as named in the headers and the annotation files' extensions.
pub const LEADS: [&str; 12] = [
    "i", "ii", "iii", "avr", "avl", "avf", "v1", "v2", "v3", "v4", "v5", "v6",
];

/// One lead's reference: the annotated boundaries of each kind (sorted) and the annotated span.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LeadReference {
    /// `by_kind[k]`: the boundaries of [`Kind::ALL`]`[k]`.
    pub by_kind: [Vec<usize>; 9],
    /// First and last annotation (inclusive); `None` without annotations.
    pub span: Option<(usize, usize)>,
}

/// Reads one lead's waves: a peak (`p`, `N`, `t`) with the `(` just before it and the `)` just
/// after it as its onset and offset.
pub fn reference_from(annotations: &[wfdb::Annotation]) -> LeadReference {
    let mut out = LeadReference::default();
    let at = |a: &wfdb::Annotation| usize::try_from(a.sample).unwrap_or(usize::MAX);
    out.span = annotations
        .first()
        .zip(annotations.last())
        .map(|(a, b)| (at(a), at(b)));
    for (i, a) in annotations.iter().enumerate() {
        let (on, peak, off) = match a.symbol.as_str() {
            "p" => (Kind::POn, Kind::PPeak, Kind::POff),
            "N" => (Kind::QrsOn, Kind::RPeak, Kind::QrsOff),
            "t" => (Kind::TOn, Kind::TPeak, Kind::TOff),
            _ => continue,
        };
        out.by_kind[peak as usize].push(at(a));
        if let Some(b) = i.checked_sub(1).map(|j| &annotations[j]) {
            if b.symbol == "(" {
                out.by_kind[on as usize].push(at(b));
            }
        }
        if let Some(b) = annotations.get(i + 1) {
            if b.symbol == ")" {
                out.by_kind[off as usize].push(at(b));
            }
        }
    }
    for v in &mut out.by_kind {
        v.sort_unstable();
    }
    out
}

/// Matches detections to references (both sorted) within `tol`: each reference takes the nearest
/// detection not yet taken. Returns the counts and the signed errors (detected - reference, samples).
pub fn match_with_errors(
    reference: &[usize],
    detected: &[usize],
    tol: usize,
) -> (Counts, Vec<f64>) {
    let (used, errors) = pair_up(reference, detected, tol);
    let tp = errors.len();
    let fp = used.iter().filter(|u| !**u).count();
    (
        Counts {
            tp,
            fn_: reference.len() - tp,
            fp,
        },
        errors,
    )
}

/// As [`match_with_errors`], but a detection that is not matched counts as a false positive only
/// inside `span` (inclusive): a detection just outside a lead's annotated span may still match an
/// annotated boundary at its edge.
pub fn match_in_span(
    reference: &[usize],
    detected: &[usize],
    tol: usize,
    span: (usize, usize),
) -> (Counts, Vec<f64>) {
    let (used, errors) = pair_up(reference, detected, tol);
    let tp = errors.len();
    let fp = used
        .iter()
        .zip(detected)
        .filter(|(u, &d)| !**u && d >= span.0 && d <= span.1)
        .count();
    (
        Counts {
            tp,
            fn_: reference.len() - tp,
            fp,
        },
        errors,
    )
}

/// Sums of one kind over some leads: counts and the error's sum and sum of squares (ms).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Sums {
    /// Counts.
    pub counts: Counts,
    /// Sum of errors, ms.
    pub sum_ms: f64,
    /// Sum of squared errors, ms².
    pub sum_sq_ms: f64,
}

impl std::ops::AddAssign for Sums {
    fn add_assign(&mut self, o: Self) {
        self.counts += o.counts;
        self.sum_ms += o.sum_ms;
        self.sum_sq_ms += o.sum_sq_ms;
    }
}

impl Sums {
    fn mean(&self) -> Option<f64> {
        let n = self.counts.tp;
        (n > 0).then(|| self.sum_ms / n as f64)
    }

    fn sd(&self) -> Option<f64> {
        let n = self.counts.tp as f64;
        (self.counts.tp > 1).then(|| {
            let m = self.sum_ms / n;
            ((self.sum_sq_ms - n * m * m).max(0.0) / (n - 1.0)).sqrt()
        })
    }
}

/// One record's sums per kind (all its leads).
#[derive(Debug, Clone, Serialize)]
pub struct RecordRow {
    /// Record number.
    pub record: String,
    /// Sums per kind, in [`Kind::ALL`] order.
    pub sums: [Sums; 9],
}

/// A figure and its 95 % bootstrap CI.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Estimate {
    /// Over all records.
    pub value: Option<f64>,
    /// 2.5th percentile of the bootstrap.
    pub lo: Option<f64>,
    /// 97.5th percentile of the bootstrap.
    pub hi: Option<f64>,
}

/// One kind's figures over all records.
#[derive(Debug, Clone, Serialize)]
pub struct KindRow {
    /// The kind.
    pub kind: Kind,
    /// Counts.
    pub counts: Counts,
    /// Sensitivity, %.
    pub se_pct: Estimate,
    /// Positive predictivity, %.
    pub ppv_pct: Estimate,
    /// Mean error, ms.
    pub mean_ms: Estimate,
    /// SD of the error, ms.
    pub sd_ms: Estimate,
    /// Whether Se and PPV meet the target (`None` without one).
    pub detection_met: Option<bool>,
    /// Whether |mean| meets the target (`None` without one).
    pub mean_met: Option<bool>,
    /// Whether the SD meets the target (`None` without one).
    pub sd_met: Option<bool>,
}

/// The LUDB evaluation.
#[derive(Debug, Clone, Default, Serialize)]
pub struct DelineationReport {
    /// Records evaluated.
    pub records: usize,
    /// Leads evaluated.
    pub leads: usize,
    /// One row per kind.
    pub kinds: Vec<KindRow>,
    /// One row per record.
    pub rows: Vec<RecordRow>,
    /// Milliseconds per record of our reading, this build, one thread.
    pub speed: Speed,
    /// NeuroKit2 on the same leads, or why it was not measured.
    pub reference: Reference,
}

/// Milliseconds per 10-s 12-lead record (the best of [`TIMING_REPEATS`] runs of each record; the
/// median and 95th percentile over the records), this build, one thread.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Speed {
    /// Records timed.
    pub records: usize,
    /// `cardio_models::ecg12::analyze` (delineation, median beats, measurements, statements):
    /// median ms.
    pub analyze_median_ms: Option<f64>,
    /// The same, 95th percentile.
    pub analyze_p95_ms: Option<f64>,
    /// `WaveDelineator::delineate` of the twelve leads alone (planned once): median ms.
    pub delineate_median_ms: Option<f64>,
    /// The same, 95th percentile.
    pub delineate_p95_ms: Option<f64>,
    /// Whether the median of the full reading is within [`SPEED_TARGET_MS`].
    pub target_met: Option<bool>,
}

/// The median and the 95th percentile (nearest rank) of some values.
pub fn median_p95(values: &[f64]) -> (Option<f64>, Option<f64>) {
    let mut v = values.to_vec();
    v.sort_unstable_by(f64::total_cmp);
    let q = |p: f64| (!v.is_empty()).then(|| percentile_nearest(&v, p));
    (q(0.5), q(0.95))
}

/// The best (smallest) wall time of `repeats` runs of `f`, ms, and its last result.
fn best_ms<T>(repeats: usize, mut f: impl FnMut() -> T) -> (f64, T) {
    let mut best = f64::INFINITY;
    let mut out = None;
    for _ in 0..repeats.max(1) {
        let t = Instant::now();
        let r = f();
        best = best.min(t.elapsed().as_secs_f64() * 1000.0);
        out = Some(r);
    }
    let Some(out) = out else {
        unreachable!("at least one run")
    };
    (best, out)
}

/// The record names of a folder (its `.hea` files), in numeric order.
pub fn record_names(dir: &Path) -> Result<Vec<String>, EvalError> {
    let mut names: Vec<String> = files_ending(dir, ".hea")?
        .iter()
        .filter_map(|p| Some(p.file_stem()?.to_str()?.to_owned()))
        .collect();
    names.sort_by_key(|n| (n.parse::<u64>().unwrap_or(u64::MAX), n.clone()));
    Ok(names)
}

/// Reads one lead's annotations (`dir/NAME.LEAD`).
pub fn read_lead_reference(dir: &Path, name: &str, lead: &str) -> Result<LeadReference, EvalError> {
    let path = dir.join(format!("{name}.{lead}"));
    let bytes = std::fs::read(&path).map_err(|source| {
        EvalError::read(
            &path,
            cardio_formats::FormatError::Io {
                path: path.display().to_string(),
                reason: source,
            },
        )
    })?;
    let anns = wfdb::read_annotations(&bytes).map_err(|e| EvalError::read(&path, e))?;
    Ok(reference_from(&anns))
}

/// Scores one lead's detections (`detected[k]`: the boundaries of [`Kind::ALL`]`[k]`, in any
/// order) against its reference: only detections within `tol` of the annotated span take part,
/// and an unmatched one counts as a false positive only inside the span. `None` for a lead without
/// annotations. Errors in ms (`ms` per sample).
pub fn score_lead(
    reference: &LeadReference,
    detected: &[Vec<usize>; 9],
    tol: usize,
    ms: f64,
) -> Option<[Sums; 9]> {
    let (a, b) = reference.span?;
    let mut sums = [Sums::default(); 9];
    for (k, sum) in sums.iter_mut().enumerate() {
        let mut found: Vec<usize> = detected[k]
            .iter()
            .copied()
            .filter(|&t| t + tol >= a && t <= b + tol)
            .collect();
        found.sort_unstable();
        let (counts, errors) = match_in_span(&reference.by_kind[k], &found, tol, (a, b));
        sum.counts = counts;
        for e in errors {
            let e = e * ms;
            sum.sum_ms += e;
            sum.sum_sq_ms += e * e;
        }
    }
    Some(sums)
}

/// Evaluates all records of `$root/ludb/data`.
///
/// # Errors
/// [`EvalError::MissingDataset`] without the folder; a read or signal error of any record.
pub fn evaluate(root: &Path) -> Result<DelineationReport, EvalError> {
    let mut report = evaluate_records(root, None)?;
    let dir = dataset_dir(root, "ludb", "data")?;
    let names: Vec<String> = report.rows.iter().map(|r| r.record.clone()).collect();
    report.reference = neurokit::reference(&dir, &names, &report.speed);
    Ok(report)
}

/// Evaluates the records of `$root/ludb/data`, or only those named in `only`.
///
/// # Errors
/// As [`evaluate`]; [`EvalError::Content`] for a record named in `only` that is not there, or a
/// record without its twelve leads.
pub fn evaluate_records(
    root: &Path,
    only: Option<&[&str]>,
) -> Result<DelineationReport, EvalError> {
    let dir = dataset_dir(root, "ludb", "data")?;
    let mut names = record_names(&dir)?;
    if let Some(only) = only {
        for want in only {
            if !names.iter().any(|n| n == want) {
                return Err(EvalError::content(
                    &dir.join(format!("{want}.hea")),
                    "no such record",
                ));
            }
        }
        names.retain(|n| only.contains(&n.as_str()));
    }
    let mut report = DelineationReport::default();
    let mut delineate_times = Vec::with_capacity(names.len());
    let mut analyze_times = Vec::with_capacity(names.len());
    let mut planned: Option<(f64, WaveDelineator)> = None;
    for name in &names {
        let hea = dir.join(format!("{name}.hea"));
        let rec = crate::ludb::read_ludb(&hea).map_err(|e| EvalError::read(&hea, e))?;
        let fs_hz = rec.sampling_rate_hz;
        if planned.as_ref().is_none_or(|(hz, _)| *hz != fs_hz) {
            let fs = SamplingRate::new(fs_hz).map_err(|e| EvalError::signal(&hea, e))?;
            let d =
                WaveDelineator::new(fs, Powerline::Hz50).map_err(|e| EvalError::signal(&hea, e))?;
            planned = Some((fs_hz, d));
        }
        let Some((_, delineator)) = planned.as_ref() else {
            unreachable!("planned just above")
        };
        let mut leads: Vec<&[f64]> = Vec::with_capacity(LEADS.len());
        for lead in LEADS {
            let ch = rec
                .channels
                .iter()
                .find(|c| c.name.eq_ignore_ascii_case(lead))
                .ok_or_else(|| EvalError::content(&hea, format!("no lead {lead}")))?;
            leads.push(&ch.samples);
        }
        let (delineate_ms, result) = best_ms(TIMING_REPEATS, || delineator.delineate(&leads));
        let result = result.map_err(|e| EvalError::signal(&hea, e))?;
        let (analyze_ms, _) = best_ms(TIMING_REPEATS, || cardio_models::ecg12::analyze(&rec, None));
        delineate_times.push(delineate_ms);
        analyze_times.push(analyze_ms);
        let tol = (TOLERANCE_S * fs_hz).round() as usize;
        let ms = 1000.0 / fs_hz;
        let mut sums = [Sums::default(); 9];
        for (l, lead) in LEADS.iter().enumerate() {
            let reference = read_lead_reference(&dir, name, lead)?;
            let detected: [Vec<usize>; 9] = std::array::from_fn(|k| {
                result.leads[l]
                    .iter()
                    .filter_map(|w| Kind::ALL[k].get(w))
                    .collect()
            });
            let Some(lead_sums) = score_lead(&reference, &detected, tol, ms) else {
                continue;
            };
            report.leads += 1;
            for (t, s) in sums.iter_mut().zip(lead_sums) {
                *t += s;
            }
        }
        report.records += 1;
        report.rows.push(RecordRow {
            record: name.clone(),
            sums,
        });
    }
    report.kinds = summarise(&report.rows);
    let (analyze_median_ms, analyze_p95_ms) = median_p95(&analyze_times);
    let (delineate_median_ms, delineate_p95_ms) = median_p95(&delineate_times);
    report.speed = Speed {
        records: analyze_times.len(),
        analyze_median_ms,
        analyze_p95_ms,
        delineate_median_ms,
        delineate_p95_ms,
        target_met: analyze_median_ms.map(|m| m <= SPEED_TARGET_MS),
    };
    Ok(report)
}

/// The per-kind figures with bootstrap CIs over the records.
pub fn summarise(rows: &[RecordRow]) -> Vec<KindRow> {
    let mut rng = SplitMix64::new(SEED);
    let n = rows.len();
    // boot[k][stat]: the resampled values of each kind's four statistics.
    let mut boot: Vec<[Vec<f64>; 4]> = (0..9).map(|_| Default::default()).collect();
    if n > 0 {
        for _ in 0..BOOTSTRAP_DRAWS {
            let mut total = [Sums::default(); 9];
            for _ in 0..n {
                let r = &rows[draw(&mut rng, n)];
                for (t, s) in total.iter_mut().zip(&r.sums) {
                    *t += *s;
                }
            }
            for (k, t) in total.iter().enumerate() {
                let stats = [
                    t.counts.sensitivity_pct(),
                    t.counts.positive_predictivity_pct(),
                    t.mean(),
                    t.sd(),
                ];
                for (b, v) in boot[k].iter_mut().zip(stats) {
                    if let Some(v) = v {
                        b.push(v);
                    }
                }
            }
        }
    }
    Kind::ALL
        .iter()
        .enumerate()
        .map(|(k, &kind)| {
            let mut total = Sums::default();
            for r in rows {
                total += r.sums[k];
            }
            let mut est = |i: usize, value: Option<f64>| {
                let b = &mut boot[k][i];
                b.sort_unstable_by(f64::total_cmp);
                let q = |p: f64| (!b.is_empty()).then(|| percentile_nearest(b, p));
                Estimate {
                    value,
                    lo: q(0.025),
                    hi: q(0.975),
                }
            };
            let se = est(0, total.counts.sensitivity_pct());
            let ppv = est(1, total.counts.positive_predictivity_pct());
            let mean = est(2, total.mean());
            let sd = est(3, total.sd());
            let targets = kind.targets();
            KindRow {
                kind,
                counts: total.counts,
                detection_met: targets.map(|(min, _)| {
                    se.value.is_some_and(|v| v >= min) && ppv.value.is_some_and(|v| v >= min)
                }),
                mean_met: targets.map(|_| mean.value.is_some_and(|v| v.abs() <= MAX_ABS_MEAN_MS)),
                sd_met: targets.map(|(_, max)| sd.value.is_some_and(|v| v <= max)),
                se_pct: se,
                ppv_pct: ppv,
                mean_ms: mean,
                sd_ms: sd,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn annotation(sample: u64, symbol: &str) -> wfdb::Annotation {
        wfdb::Annotation {
            sample,
            code: 0,
            symbol: symbol.into(),
            subtype: 0,
            channel: 0,
            num: 0,
            aux: None,
        }
    }

    #[test]
    fn a_wave_is_its_peak_with_the_brackets_around_it() {
        let anns = [
            annotation(10, "("),
            annotation(20, "p"),
            annotation(30, ")"),
            annotation(50, "("),
            annotation(60, "N"),
            annotation(70, ")"),
            annotation(90, "t"),
            annotation(100, ")"),
        ];
        let r = reference_from(&anns);
        assert_eq!(r.span, Some((10, 100)));
        assert_eq!(r.by_kind[Kind::POn as usize], vec![10]);
        assert_eq!(r.by_kind[Kind::RPeak as usize], vec![60]);
        assert_eq!(r.by_kind[Kind::QrsOff as usize], vec![70]);
        assert!(r.by_kind[Kind::TOn as usize].is_empty());
        assert_eq!(r.by_kind[Kind::TOff as usize], vec![100]);
    }

    #[test]
    fn matching_is_one_to_one_and_keeps_signed_errors() {
        let (c, e) = match_with_errors(&[100, 104, 300], &[102, 250], 10);
        assert_eq!(
            c,
            Counts {
                tp: 1,
                fn_: 2,
                fp: 1
            }
        );
        assert_eq!(e, vec![2.0]);
    }

    #[test]
    fn a_detection_outside_the_span_matches_but_is_never_a_false_positive() {
        let (c, e) = match_in_span(&[100, 200], &[20, 95, 205, 400], 10, (100, 300));
        assert_eq!(
            c,
            Counts {
                tp: 2,
                fn_: 0,
                fp: 0
            }
        );
        assert_eq!(e, vec![-5.0, 5.0]);
    }

    #[test]
    fn sums_give_the_mean_and_sample_sd() {
        let s = Sums {
            counts: Counts {
                tp: 3,
                fn_: 0,
                fp: 0,
            },
            sum_ms: 6.0,
            sum_sq_ms: 1.0 + 4.0 + 9.0,
        };
        assert_eq!(s.mean(), Some(2.0));
        assert!((s.sd().unwrap() - 1.0).abs() < 1e-12);
    }

    #[test]
    fn records_1_and_2_have_their_qrs_boundaries_found() {
        let Some(hea) = cardio_testkit::dataset_file("ludb/data/1.hea") else {
            return;
        };
        let root = hea.ancestors().nth(3).unwrap();
        let report = evaluate_records(root, Some(&["1", "2"])).unwrap();
        assert_eq!(report.leads, 24);
        for kind in [Kind::QrsOn, Kind::QrsOff] {
            let row = report.kinds.iter().find(|r| r.kind == kind).unwrap();
            // Measured: 100 % and 100 % for both boundaries.
            assert!(row.se_pct.value.unwrap() >= 98.0, "{row:?}");
            assert!(row.ppv_pct.value.unwrap() >= 98.0, "{row:?}");
        }
    }
}
