//! `cardio eval holter`: the whole-record reading of a long ECG (`cardio_models::ecg_rhythm::
//! holter`, what every ECG prediction of a record longer than 60 s runs) against the MIT-BIH
//! Arrhythmia Database's rhythm annotations (Moody & Mark 2001; 48 half-hour records at 360 Hz).
//!
//! Reference AF: the stretches whose rhythm annotation (the aux text of `+` annotations) is
//! `(AFIB`, from that annotation to the next rhythm change or the record's end. Flutter (`(AFL`)
//! is not AF here: AF detected during flutter counts against +P (a second duration figure counts
//! flutter as AF, for comparison).
//!
//! Figures, as ANSI/AAMI EC57:2012 defines them for AF, gross over records:
//! - **duration Se** = overlap of detected and reference AF / reference AF duration;
//! - **duration +P** = the same overlap / detected AF duration;
//! - **episode Se / +P**: a reference (detected) episode is matched when the other side's
//!   episodes cover at least half of it, or when it covers at least half of one of theirs (our
//!   reading of EC57's episode matching, as WFDB's `epicmp` implements it);
//! - **AF burden error** per record, in percentage points: the detected burden (AF time over
//!   analysed, not noisy, time) minus the reference AF time inside the same analysed time over
//!   that time; the records without AF have a reference burden of 0.
//!
//! 95 % CIs: percentile bootstrap over records (1000 draws, fixed seed), records being the unit
//! that is independent. Nothing here was tuned on these figures: the window length, the episode
//! rules and the irregularity threshold were set before the first run; MIT-BIH is development
//! data for the reading, not an external test.

use std::path::Path;
use std::time::Instant;

use cardio_formats::wfdb::{read_annotations, Annotation};
use cardio_models::ecg_rhythm::holter::{self, episodes, Kind};
use cardio_models::ecg_rhythm::{model, pick_lead};
use serde::Serialize;

use super::delineation::Estimate;
use super::{dataset_dir, EvalError};
use crate::beat_classes::{self, match_beats, score, Counts, DS1, DS2};
use crate::resample::{draw, percentile_nearest, SplitMix64};

/// Folder under `$CARDIO_DATASETS`.
pub const DATASET: &str = "mitdb";
/// The targets: duration Se and +P at least this.
pub const TARGET_DURATION: f64 = 0.95;
/// The target: burden error at most this on every record, percentage points.
pub const TARGET_BURDEN_PP: f64 = 5.0;
/// Bootstrap draws.
pub const DRAWS: usize = 1000;
const SEED: u64 = 0x4f17_e2c5_0041;

/// One record's figures.
#[derive(Debug, Clone, Default, Serialize)]
pub struct RecordRow {
    /// Record number.
    pub record: String,
    /// Length, s.
    pub duration_s: f64,
    /// Analysed (not noisy) seconds.
    pub analysed_s: f64,
    /// Noisy seconds.
    pub noisy_s: f64,
    /// Reference AF seconds.
    pub reference_af_s: f64,
    /// Reference AF or flutter seconds.
    pub reference_af_flutter_s: f64,
    /// Detected AF seconds.
    pub detected_af_s: f64,
    /// Overlap of detected and reference AF, s.
    pub overlap_s: f64,
    /// Overlap of detected AF and reference AF or flutter, s.
    pub overlap_af_flutter_s: f64,
    /// Reference AF episodes.
    pub reference_episodes: usize,
    /// Of them, matched by detected AF.
    pub reference_matched: usize,
    /// Detected AF episodes.
    pub detected_episodes: usize,
    /// Of them, matched by reference AF.
    pub detected_matched: usize,
    /// Reference AF burden over the analysed time, 0-1.
    pub reference_burden: f64,
    /// Detected AF burden, 0-1.
    pub detected_burden: f64,
    /// Detected minus reference burden, percentage points.
    pub burden_error_pp: f64,
    /// The detected AF episodes `(start_s, end_s)`.
    pub detected: Vec<(f64, f64)>,
    /// The reference AF episodes `(start_s, end_s)`.
    pub reference: Vec<(f64, f64)>,
    /// Seconds the reading took (this build, one thread).
    pub seconds: f64,
    /// The record's half of de Chazal et al. 2004's split (`ds1`, `ds2`; `paced` for 102, 104,
    /// 107, 217).
    pub split: &'static str,
    /// EC57 beat counts of the beat classes (S and V: TP, FN, FP).
    pub beats: Counts,
    /// Detected beats called N, S, V.
    pub called: [usize; 3],
}

/// The figures over all records.
#[derive(Debug, Clone, Serialize)]
pub struct HolterReport {
    /// Records read.
    pub records: usize,
    /// Records with reference AF.
    pub af_records: Vec<String>,
    /// AF duration sensitivity.
    pub af_duration_se: Estimate,
    /// AF duration positive predictivity.
    pub af_duration_ppv: Estimate,
    /// AF episode sensitivity.
    pub af_episode_se: Estimate,
    /// AF episode positive predictivity.
    pub af_episode_ppv: Estimate,
    /// Duration Se with flutter counted as AF.
    pub af_flutter_duration_se: Estimate,
    /// Duration +P with flutter counted as AF.
    pub af_flutter_duration_ppv: Estimate,
    /// Largest absolute burden error over the records, percentage points.
    pub af_burden_max_error_pp: f64,
    /// Mean absolute burden error, percentage points, with its CI.
    pub af_burden_mean_abs_error_pp: Estimate,
    /// Records whose burden error exceeds [`TARGET_BURDEN_PP`].
    pub burden_over_target: Vec<String>,
    /// Whether the targets are met (duration Se, +P >= 95 %, every burden error <= 5 pp).
    pub targets_met: bool,
    /// DS2 records scored for the beat classes.
    pub beat_records: Vec<String>,
    /// Ventricular ectopic beat sensitivity on DS2 (EC57 gross).
    pub v_se: Estimate,
    /// Ventricular ectopic beat positive predictivity on DS2.
    pub v_ppv: Estimate,
    /// Supraventricular ectopic beat sensitivity on DS2.
    pub s_se: Estimate,
    /// Supraventricular ectopic beat positive predictivity on DS2.
    pub s_ppv: Estimate,
    /// Whether the beat targets are met (V Se, +P >= 90 %; S Se >= 80 %, +P >= 60 %).
    pub beat_targets_met: bool,
    /// Per-record rows.
    pub per_record: Vec<RecordRow>,
}

/// The rhythm in force from a `+` annotation, without trailing NULs.
fn rhythm(a: &Annotation) -> Option<String> {
    (a.symbol == "+").then(|| {
        a.aux
            .as_deref()
            .unwrap_or_default()
            .trim_matches(|c: char| c == '\0' || c.is_whitespace())
            .to_string()
    })
}

/// The stretches `(start_s, end_s)` whose rhythm is one of `kinds`.
pub fn reference_spans(
    ann: &[Annotation],
    fs: f64,
    duration_s: f64,
    kinds: &[&str],
) -> Vec<(f64, f64)> {
    let mut out = Vec::new();
    let mut open: Option<f64> = None;
    for a in ann {
        let Some(r) = rhythm(a) else { continue };
        let t = a.sample as f64 / fs;
        let is = kinds.contains(&r.as_str());
        match (open, is) {
            (None, true) => open = Some(t),
            (Some(s), false) => {
                out.push((s, t));
                open = None;
            }
            _ => {}
        }
    }
    if let Some(s) = open {
        out.push((s, duration_s));
    }
    out
}

/// How many of `a` are matched by `b` (see the module documentation).
pub fn matched(a: &[(f64, f64)], b: &[(f64, f64)]) -> usize {
    a.iter()
        .filter(|&&(s, e)| {
            let covered = episodes::overlap(&[(s, e)], b);
            covered >= 0.5 * (e - s)
                || b.iter().any(|&(s2, e2)| {
                    let o = (e.min(e2) - s.max(s2)).max(0.0);
                    o > 0.0 && o >= 0.5 * (e2 - s2)
                })
        })
        .count()
}

fn total(spans: &[(f64, f64)]) -> f64 {
    spans.iter().map(|(s, e)| e - s).fold(0.0, |a, b| a + b)
}

/// Reads one record whole and scores it.
///
/// # Errors
/// [`EvalError::Read`] when the record or its annotations cannot be read.
pub fn record(dir: &Path, name: &str) -> Result<RecordRow, EvalError> {
    let hea = dir.join(format!("{name}.hea"));
    let rec = cardio_formats::read_path(&hea).map_err(|e| EvalError::read(&hea, e))?;
    let atr = dir.join(format!("{name}.atr"));
    let bytes = std::fs::read(&atr).map_err(|e| EvalError::content(&atr, e.to_string()))?;
    let ann = read_annotations(&bytes).map_err(|e| EvalError::read(&atr, e))?;
    let model = model().map_err(|e| EvalError::content(&hea, e.to_string()))?;
    let lead = pick_lead(&rec).ok_or_else(|| EvalError::content(&hea, "no ECG channel"))?;
    let t = Instant::now();
    let reading = holter::read(model, &rec, lead);
    let seconds = t.elapsed().as_secs_f64();
    let fs = rec.sampling_rate_hz;
    let beat_reference = beat_classes::reference(dir, name, fs)?;
    let beats = score(
        &beat_reference,
        &match_beats(&reading.beats, &beat_reference),
        &reading.classes,
    );
    let (n, s, v) = holter::classes::counts(&reading.classes);
    let split = if DS1.contains(&name) {
        "ds1"
    } else if DS2.contains(&name) {
        "ds2"
    } else {
        "paced"
    };
    let reference = reference_spans(&ann, fs, reading.duration_s, &["(AFIB"]);
    let with_flutter = reference_spans(&ann, fs, reading.duration_s, &["(AFIB", "(AFL"]);
    let detected = episodes::spans(&reading.episodes, Kind::Af);
    let noisy = episodes::spans(&reading.episodes, Kind::Noisy);
    let reference_in_analysed = total(&reference) - episodes::overlap(&reference, &noisy);
    let reference_burden = if reading.analysed_s > 0.0 {
        (reference_in_analysed / reading.analysed_s).clamp(0.0, 1.0)
    } else {
        0.0
    };
    Ok(RecordRow {
        record: name.to_string(),
        duration_s: reading.duration_s,
        analysed_s: reading.analysed_s,
        noisy_s: reading.noisy_s,
        reference_af_s: total(&reference),
        reference_af_flutter_s: total(&with_flutter),
        detected_af_s: total(&detected),
        overlap_s: episodes::overlap(&detected, &reference),
        overlap_af_flutter_s: episodes::overlap(&detected, &with_flutter),
        reference_episodes: reference.len(),
        reference_matched: matched(&reference, &detected),
        detected_episodes: detected.len(),
        detected_matched: matched(&detected, &reference),
        reference_burden,
        detected_burden: reading.af_burden,
        burden_error_pp: 100.0 * (reading.af_burden - reference_burden),
        detected,
        reference,
        seconds,
        split,
        beats,
        called: [n, s, v],
    })
}

/// EC57 gross beat figures of some rows: V Se, V +P, S Se, S +P.
fn beat_figures(rows: &[&RecordRow]) -> [Option<f64>; 4] {
    let sum = |f: &dyn Fn(&Counts) -> usize| rows.iter().map(|r| f(&r.beats)).sum::<usize>();
    let ratio = |a: usize, b: usize| (a + b > 0).then(|| a as f64 / (a + b) as f64);
    [
        ratio(sum(&|c| c.v[0]), sum(&|c| c.v[1])),
        ratio(sum(&|c| c.v[0]), sum(&|c| c.v[2])),
        ratio(sum(&|c| c.s[0]), sum(&|c| c.s[1])),
        ratio(sum(&|c| c.s[0]), sum(&|c| c.s[2])),
    ]
}

/// Percentile-bootstrap estimates over `rows` of the figures `f` computes.
fn bootstrap<const K: usize>(
    rows: &[&RecordRow],
    f: &dyn Fn(&[&RecordRow]) -> [Option<f64>; K],
) -> [Estimate; K] {
    let point = f(rows);
    let mut rng = SplitMix64::new(SEED);
    let mut draws: Vec<Vec<f64>> = vec![Vec::new(); K];
    if !rows.is_empty() {
        for _ in 0..DRAWS {
            let pick: Vec<&RecordRow> = (0..rows.len())
                .map(|_| rows[draw(&mut rng, rows.len())])
                .collect();
            for (d, v) in draws.iter_mut().zip(f(&pick)) {
                if let Some(v) = v {
                    d.push(v);
                }
            }
        }
    }
    std::array::from_fn(|k| {
        let d = &mut draws[k];
        d.sort_unstable_by(f64::total_cmp);
        let q = |p: f64| (!d.is_empty()).then(|| percentile_nearest(d, p));
        Estimate {
            value: point[k],
            lo: q(0.025),
            hi: q(0.975),
        }
    })
}

/// The gross figures of some rows: duration Se, +P, episode Se, +P, flutter-as-AF duration Se,
/// +P, mean absolute burden error (pp).
fn figures(rows: &[&RecordRow]) -> [Option<f64>; 7] {
    let sum = |f: &dyn Fn(&RecordRow) -> f64| rows.iter().map(|r| f(r)).sum::<f64>();
    let ratio = |a: f64, b: f64| (b > 0.0).then(|| a / b);
    [
        ratio(sum(&|r| r.overlap_s), sum(&|r| r.reference_af_s)),
        ratio(sum(&|r| r.overlap_s), sum(&|r| r.detected_af_s)),
        ratio(
            sum(&|r| r.reference_matched as f64),
            sum(&|r| r.reference_episodes as f64),
        ),
        ratio(
            sum(&|r| r.detected_matched as f64),
            sum(&|r| r.detected_episodes as f64),
        ),
        ratio(
            sum(&|r| r.overlap_af_flutter_s),
            sum(&|r| r.reference_af_flutter_s),
        ),
        ratio(sum(&|r| r.overlap_af_flutter_s), sum(&|r| r.detected_af_s)),
        ratio(sum(&|r| r.burden_error_pp.abs()), rows.len() as f64),
    ]
}

/// The report of scored rows, with bootstrap CIs over records.
pub fn summarise(rows: Vec<RecordRow>) -> HolterReport {
    let all: Vec<&RecordRow> = rows.iter().collect();
    let point = figures(&all);
    let mut rng = SplitMix64::new(SEED);
    let mut draws: [Vec<f64>; 7] = Default::default();
    if !all.is_empty() {
        for _ in 0..DRAWS {
            let pick: Vec<&RecordRow> = (0..all.len())
                .map(|_| all[draw(&mut rng, all.len())])
                .collect();
            for (d, v) in draws.iter_mut().zip(figures(&pick)) {
                if let Some(v) = v {
                    d.push(v);
                }
            }
        }
    }
    let est: Vec<Estimate> = point
        .iter()
        .zip(draws.iter_mut())
        .map(|(value, d)| {
            d.sort_unstable_by(f64::total_cmp);
            let q = |p: f64| (!d.is_empty()).then(|| percentile_nearest(d, p));
            Estimate {
                value: *value,
                lo: q(0.025),
                hi: q(0.975),
            }
        })
        .collect();
    let max_error = rows
        .iter()
        .map(|r| r.burden_error_pp.abs())
        .fold(0.0, f64::max);
    let over: Vec<String> = rows
        .iter()
        .filter(|r| r.burden_error_pp.abs() > TARGET_BURDEN_PP)
        .map(|r| r.record.clone())
        .collect();
    let meets = |e: &Estimate| e.value.is_some_and(|v| v >= TARGET_DURATION);
    let test: Vec<&RecordRow> = rows.iter().filter(|r| r.split == "ds2").collect();
    let [v_se, v_ppv, s_se, s_ppv] = bootstrap(&test, &beat_figures);
    let at_least = |e: &Estimate, t: f64| e.value.is_some_and(|v| v >= t);
    HolterReport {
        beat_records: test.iter().map(|r| r.record.clone()).collect(),
        beat_targets_met: at_least(&v_se, 0.9)
            && at_least(&v_ppv, 0.9)
            && at_least(&s_se, 0.8)
            && at_least(&s_ppv, 0.6),
        v_se,
        v_ppv,
        s_se,
        s_ppv,
        records: rows.len(),
        af_records: rows
            .iter()
            .filter(|r| r.reference_af_s > 0.0)
            .map(|r| r.record.clone())
            .collect(),
        targets_met: meets(&est[0]) && meets(&est[1]) && over.is_empty(),
        af_duration_se: est[0],
        af_duration_ppv: est[1],
        af_episode_se: est[2],
        af_episode_ppv: est[3],
        af_flutter_duration_se: est[4],
        af_flutter_duration_ppv: est[5],
        af_burden_mean_abs_error_pp: est[6],
        af_burden_max_error_pp: max_error,
        burden_over_target: over,
        per_record: rows,
    }
}

/// Reads every MIT-BIH record whole and scores it.
///
/// # Errors
/// [`EvalError::MissingDataset`] without `$root/mitdb`; a record that cannot be read.
pub fn evaluate(root: &Path) -> Result<HolterReport, EvalError> {
    let dir = dataset_dir(root, DATASET, "")?;
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .map_err(|e| EvalError::content(&dir, e.to_string()))?
        .filter_map(Result::ok)
        .filter_map(|e| {
            let p = e.path();
            (p.extension().is_some_and(|x| x == "hea") && p.with_extension("atr").is_file())
                .then(|| p.file_stem().map(|s| s.to_string_lossy().to_string()))
                .flatten()
        })
        .collect();
    names.sort();
    let rows = names
        .iter()
        .map(|n| record(&dir, n))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(summarise(rows))
}

fn pct(e: &Estimate) -> String {
    match (e.value, e.lo, e.hi) {
        (Some(v), Some(lo), Some(hi)) => {
            format!("{:.1} % [{:.1}-{:.1}]", 100.0 * v, 100.0 * lo, 100.0 * hi)
        }
        (Some(v), _, _) => format!("{:.1} %", 100.0 * v),
        _ => "-".into(),
    }
}

/// The report as text tables.
pub fn table(r: &HolterReport) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Whole-record AF reading, MIT-BIH Arrhythmia Database: {} records, {} with AF ({}); reference AF = (AFIB; 95 % CIs: bootstrap over records)",
        r.records,
        r.af_records.len(),
        r.af_records.join(", ")
    );
    let _ = writeln!(s, "\n| figure | value | target |\n|---|---|---|");
    let target = |e: &Estimate| {
        if e.value.is_some_and(|v| v >= TARGET_DURATION) {
            ">= 95 %: met"
        } else {
            ">= 95 %: NOT met"
        }
    };
    let _ = writeln!(
        s,
        "| AF duration Se | {} | {} |",
        pct(&r.af_duration_se),
        target(&r.af_duration_se)
    );
    let _ = writeln!(
        s,
        "| AF duration +P | {} | {} |",
        pct(&r.af_duration_ppv),
        target(&r.af_duration_ppv)
    );
    let _ = writeln!(s, "| AF episode Se | {} | - |", pct(&r.af_episode_se));
    let _ = writeln!(s, "| AF episode +P | {} | - |", pct(&r.af_episode_ppv));
    let _ = writeln!(
        s,
        "| AF duration Se, flutter counted as AF | {} | - |",
        pct(&r.af_flutter_duration_se)
    );
    let _ = writeln!(
        s,
        "| AF duration +P, flutter counted as AF | {} | - |",
        pct(&r.af_flutter_duration_ppv)
    );
    let _ = writeln!(
        s,
        "| AF burden error, max over records | {:.1} pp | <= 5 pp on every record: {} |",
        r.af_burden_max_error_pp,
        if r.burden_over_target.is_empty() {
            "met".to_string()
        } else {
            format!("NOT met ({})", r.burden_over_target.join(", "))
        }
    );
    let mae = r.af_burden_mean_abs_error_pp;
    let _ = writeln!(
        s,
        "| AF burden error, mean absolute | {:.2} pp [{:.2}-{:.2}] | - |",
        mae.value.unwrap_or(f64::NAN),
        mae.lo.unwrap_or(f64::NAN),
        mae.hi.unwrap_or(f64::NAN)
    );
    let _ = writeln!(
        s,
        "\nBeat classes (AAMI EC57 gross statistics, the inter-patient test half DS2 of de Chazal et al. 2004: {} records; trained on DS1)\n\n| figure | value | target | de Chazal 2004 |\n|---|---|---|---|",
        r.beat_records.len()
    );
    for (name, e, t, anchor) in [
        ("V Se", &r.v_se, 0.9, "77.7 %"),
        ("V +P", &r.v_ppv, 0.9, "81.9 %"),
        ("S Se", &r.s_se, 0.8, "75.9 %"),
        ("S +P", &r.s_ppv, 0.6, "38.5 %"),
    ] {
        let met = if e.value.is_some_and(|v| v >= t) {
            "met"
        } else {
            "NOT met"
        };
        let _ = writeln!(
            s,
            "| {name} | {} | >= {:.0} %: {met} | {anchor} |",
            pct(e),
            100.0 * t
        );
    }
    let _ = writeln!(
        s,
        "\n| record | S TP | S FN | S FP | V TP | V FN | V FP | called N | called S | called V |\n|---|---|---|---|---|---|---|---|---|---|"
    );
    for row in r.per_record.iter().filter(|r| r.split == "ds2") {
        let (b, c) = (&row.beats, &row.called);
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            row.record, b.s[0], b.s[1], b.s[2], b.v[0], b.v[1], b.v[2], c[0], c[1], c[2]
        );
    }
    let _ = writeln!(
        s,
        "\n| record | ref AF min | detected AF min | overlap min | ref burden % | detected burden % | error pp | ref episodes (matched) | detected episodes (matched) | noisy min |\n|---|---|---|---|---|---|---|---|---|---|"
    );
    for row in &r.per_record {
        if row.reference_af_s == 0.0 && row.detected_af_s == 0.0 {
            continue;
        }
        let _ = writeln!(
            s,
            "| {} | {:.1} | {:.1} | {:.1} | {:.1} | {:.1} | {:+.1} | {} ({}) | {} ({}) | {:.1} |",
            row.record,
            row.reference_af_s / 60.0,
            row.detected_af_s / 60.0,
            row.overlap_s / 60.0,
            100.0 * row.reference_burden,
            100.0 * row.detected_burden,
            row.burden_error_pp,
            row.reference_episodes,
            row.reference_matched,
            row.detected_episodes,
            row.detected_matched,
            row.noisy_s / 60.0
        );
    }
    let _ = writeln!(s, "(records with neither reference nor detected AF are left out of this table; every record counts in the figures)");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plus(sample: u64, aux: &str) -> Annotation {
        Annotation {
            sample,
            code: 28,
            symbol: "+".into(),
            subtype: 0,
            channel: 0,
            num: 0,
            aux: Some(format!("{aux}\0")),
        }
    }

    #[test]
    fn reference_af_runs_from_its_annotation_to_the_next_rhythm_or_the_end() {
        let ann = vec![
            plus(0, "(N"),
            plus(3600, "(AFIB"),
            plus(7200, "(AFL"),
            plus(9000, "(AFIB"),
        ];

        let af = reference_spans(&ann, 360.0, 100.0, &["(AFIB"]);
        let both = reference_spans(&ann, 360.0, 100.0, &["(AFIB", "(AFL"]);

        assert_eq!(af, vec![(10.0, 20.0), (25.0, 100.0)]);
        assert_eq!(both, vec![(10.0, 100.0)]);
    }

    #[test]
    fn an_episode_is_matched_when_half_of_it_or_half_of_a_rival_is_covered() {
        let reference = [(0.0, 100.0), (200.0, 210.0), (300.0, 400.0)];
        let detected = [(40.0, 100.0), (150.0, 205.0), (390.0, 395.0)];

        // (0,100): 60 % covered; (200,210): 5 s of a 55-s rival and half of itself; (300,400): 5 %,
        // but it covers all of the 5-s rival.
        assert_eq!(matched(&reference, &detected), 3);
        // (40,100) inside; (150,205): 5 of 55 s covered, and it covers half of (200,210); (390,395) inside.
        assert_eq!(matched(&detected, &reference), 3);
        assert_eq!(matched(&[(0.0, 10.0)], &[(8.0, 30.0)]), 0);
    }
}
