//! `cardio eval ecg12`: the 12-lead interpretation of `cardio_models::ecg12` on the 200 records
//! of LUDB against the diagnoses of `ludb.csv`, and its measurements against the devices' own
//! figures printed in the ECG documents (`ecg_documents`).
//!
//! Kalyakulina, A. I. et al. (2020), "LUDB: A new open-access validation tool for
//! electrocardiogram delineation algorithms", *IEEE Access* 8, 186181-186190. Per statement:
//! n (records LUDB gives the diagnosis), sensitivity and specificity with Wilson 95 % intervals
//! (Wilson, E. B. (1927), *J Am Stat Assoc* 22, 209-212); the QRS axis category against LUDB's
//! (normal, vertical, horizontal, left / right deviation; [`AxisCategory::RANGES`]); the targets
//! of issue 39 marked met or not. The specificity of the abnormal call is compared with the
//! median of the CSE programs (91.3 %, Willems, J. L. et al. (1991), "The diagnostic performance
//! of computer programs for the interpretation of electrocardiograms", *N Engl J Med* 325,
//! 1767-1773) on LUDB's records without any diagnosis beyond a sinus rhythm and a
//! normal, vertical or horizontal axis. LVH is compared with the published performance of the
//! voltage criteria (Sokolow-Lyon and Cornell: sensitivity about 20-30 % at about 90 %
//! specificity against echocardiographic LV mass; Hancock et al. 2009, AHA/ACCF/HRS part V).
//!
//! Every threshold not given by the guidelines was chosen on LUDB: these are development figures.

use std::path::{Path, PathBuf};
use std::time::Instant;

use cardio_models::ecg12::{analyze, AxisCategory, Ecg12, Sex};
use serde::Serialize;

use crate::eval::EvalError;

pub mod verdict;

/// One LUDB record's diagnoses (the cells of `ludb.csv`, lower case).
#[derive(Debug, Clone, Default)]
pub struct LudbRow {
    /// Record number.
    pub id: usize,
    /// Sex, when given.
    pub sex: Option<Sex>,
    /// Rhythm cell.
    pub rhythm: String,
    /// Axis cell.
    pub axis: String,
    /// Conduction cell.
    pub conduction: String,
    /// Extrasystoles cell.
    pub extrasystoles: String,
    /// Hypertrophies cell.
    pub hypertrophies: String,
    /// Pacing cell.
    pub pacing: String,
    /// Ischaemia cell.
    pub ischaemia: String,
    /// Repolarisation and other states.
    pub other: String,
}

impl LudbRow {
    /// LUDB's axis category.
    pub fn axis_category(&self) -> Option<AxisCategory> {
        let a = &self.axis;
        if a.contains("left axis") {
            Some(AxisCategory::LeftDeviation)
        } else if a.contains("right axis") {
            Some(AxisCategory::RightDeviation)
        } else if a.contains("vertical") {
            Some(AxisCategory::Vertical)
        } else if a.contains("horizontal") {
            Some(AxisCategory::Horizontal)
        } else if a.contains("normal") {
            Some(AxisCategory::Normal)
        } else {
            None
        }
    }

    /// A record with no diagnosis beyond a sinus rhythm and a normal, vertical or horizontal axis.
    pub fn is_normal(&self) -> bool {
        let sinus = [
            "sinus rhythm",
            "sinus bradycardia",
            "sinus tachycardia",
            "sinus arrhythmia",
        ]
        .contains(&self.rhythm.trim());
        sinus
            && matches!(
                self.axis_category(),
                Some(AxisCategory::Normal | AxisCategory::Vertical | AxisCategory::Horizontal)
            )
            && [
                &self.conduction,
                &self.extrasystoles,
                &self.hypertrophies,
                &self.pacing,
                &self.ischaemia,
                &self.other,
            ]
            .iter()
            .all(|c| c.trim().is_empty())
    }
}

/// Whether a LUDB row holds a diagnosis.
pub type Truth = fn(&LudbRow) -> bool;

/// Which LUDB diagnosis each statement is scored against: (code, LUDB's words, truth).
pub const MAPPING: &[(&str, &str, Truth)] = &[
    ("sinus_rhythm", "Sinus rhythm", |r| {
        r.rhythm.contains("sinus rhythm") && !r.rhythm.contains("irregular")
    }),
    ("sinus_bradycardia", "Sinus bradycardia", |r| {
        r.rhythm.contains("sinus bradycardia")
    }),
    ("sinus_tachycardia", "Sinus tachycardia", |r| {
        r.rhythm.contains("sinus tachycardia")
    }),
    ("sinus_arrhythmia", "Sinus arrhythmia", |r| {
        r.rhythm.contains("sinus arrhythmia")
    }),
    ("af_or_flutter", "Atrial fibrillation or flutter", |r| {
        r.rhythm.contains("atrial fibrillation") || r.rhythm.contains("atrial flutter")
    }),
    ("atrial_fibrillation", "Atrial fibrillation", |r| {
        r.rhythm.contains("atrial fibrillation")
    }),
    ("atrial_flutter", "Atrial flutter", |r| {
        r.rhythm.contains("atrial flutter")
    }),
    ("paced_rhythm", "Cardiac pacing (any)", |r| {
        !r.pacing.trim().is_empty()
    }),
    ("pac", "Atrial extrasystole", |r| {
        r.extrasystoles.contains("atrial extrasystole")
    }),
    ("pvc", "Ventricular extrasystole", |r| {
        r.extrasystoles.contains("ventricular extrasystole")
    }),
    ("first_degree_av_block", "I degree av block", |r| {
        r.conduction.contains("i degree av block") && !r.conduction.contains("iii degree")
    }),
    ("third_degree_av_block", "Iii degree av-block", |r| {
        r.conduction.contains("iii degree")
    }),
    ("rbbb", "Complete right bundle branch block", |r| {
        r.conduction.contains("complete right bundle") && !r.conduction.contains("incomplete right")
    }),
    (
        "incomplete_rbbb",
        "Incomplete right bundle branch block",
        |r| r.conduction.contains("incomplete right bundle"),
    ),
    ("lbbb", "Complete left bundle branch block", |r| {
        r.conduction.contains("complete left bundle") && !r.conduction.contains("incomplete left")
    }),
    (
        "incomplete_lbbb",
        "Incomplete left bundle branch block",
        |r| r.conduction.contains("incomplete left bundle"),
    ),
    ("lafb", "Left anterior hemiblock", |r| {
        r.conduction.contains("left anterior hemiblock")
    }),
    (
        "ivcd",
        "Non-specific intraventricular conduction delay",
        |r| r.conduction.contains("non-specific intravintricular"),
    ),
    (
        "left_axis_deviation",
        "Axis: left axis deviation (LUDB: below 0°)",
        |r| r.axis.contains("left axis"),
    ),
    ("right_axis_deviation", "Axis: right axis deviation", |r| {
        r.axis.contains("right axis")
    }),
    ("lvh", "Left ventricular hypertrophy", |r| {
        r.hypertrophies.contains("left ventricular hypertrophy")
    }),
    ("rvh", "Right ventricular hypertrophy", |r| {
        r.hypertrophies.contains("right ventricular hypertrophy")
    }),
    (
        "left_atrial_abnormality",
        "Left atrial hypertrophy or overload",
        |r| r.hypertrophies.contains("left atrial"),
    ),
    (
        "right_atrial_abnormality",
        "Right atrial hypertrophy or overload",
        |r| r.hypertrophies.contains("right atrial"),
    ),
    ("st_elevation", "STEMI (any wall)", |r| {
        r.ischaemia.contains("stemi")
    }),
    (
        "abnormal_ecg",
        "Any diagnosis beyond sinus rhythm and a normal axis",
        |r| !r.is_normal(),
    ),
];

/// Reads `ludb.csv` (quoted cells may hold newlines).
///
/// # Errors
/// [`EvalError::Content`] when the header lacks a column.
pub fn read_ludb_csv(path: &Path, text: &str) -> Result<Vec<LudbRow>, EvalError> {
    let rows = parse_csv(text);
    let Some(header) = rows.first() else {
        return Err(content(path, "empty ludb.csv"));
    };
    let col = |name: &str| {
        header
            .iter()
            .position(|h| h.trim().eq_ignore_ascii_case(name))
            .ok_or_else(|| content(path, format!("ludb.csv has no column {name}")))
    };
    let idx = [
        col("ID")?,
        col("Sex")?,
        col("Rhythms")?,
        col("Electric axis of the heart")?,
        col("Conduction abnormalities")?,
        col("Extrasystolies")?,
        col("Hypertrophies")?,
        col("Cardiac pacing")?,
        col("Ischemia")?,
        col("Non-specific repolarization abnormalities")?,
        col("Other states")?,
    ];
    let mut out = Vec::new();
    for r in rows.iter().skip(1) {
        let cell = |i: usize| {
            r.get(idx[i])
                .map_or(String::new(), |c| c.trim().to_lowercase())
        };
        let Ok(id) = cell(0).parse() else { continue };
        out.push(LudbRow {
            id,
            sex: match cell(1).as_str() {
                "m" => Some(Sex::Male),
                "f" => Some(Sex::Female),
                _ => None,
            },
            rhythm: cell(2),
            axis: cell(3),
            conduction: cell(4),
            extrasystoles: cell(5),
            hypertrophies: cell(6),
            pacing: cell(7),
            ischaemia: cell(8),
            other: format!("{}\n{}", cell(9), cell(10)),
        });
    }
    Ok(out)
}

fn content(path: &Path, reason: impl Into<String>) -> EvalError {
    EvalError::Content {
        path: path.to_path_buf(),
        reason: reason.into(),
    }
}

fn parse_csv(text: &str) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    let (mut row, mut cell, mut quoted) = (Vec::new(), String::new(), false);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                cell.push('"');
                chars.next();
            }
            ('"', _) => quoted = !quoted,
            (',', false) => row.push(std::mem::take(&mut cell)),
            ('\n', false) => {
                row.push(std::mem::take(&mut cell));
                rows.push(std::mem::take(&mut row));
            }
            ('\r', false) => {}
            _ => cell.push(c),
        }
    }
    if !cell.is_empty() || !row.is_empty() {
        row.push(cell);
        rows.push(row);
    }
    rows
}

/// A proportion with its Wilson 95 % interval, percent.
#[derive(Debug, Clone, Copy, Serialize, PartialEq)]
pub struct Proportion {
    /// Successes.
    pub k: usize,
    /// Trials.
    pub n: usize,
    /// Percent.
    pub pct: Option<f64>,
    /// Wilson 95 % lower bound, percent.
    pub lo: Option<f64>,
    /// Wilson 95 % upper bound, percent.
    pub hi: Option<f64>,
}

impl Proportion {
    /// `k` of `n` with the Wilson score interval (z = 1.96).
    pub fn wilson(k: usize, n: usize) -> Self {
        if n == 0 {
            return Self {
                k,
                n,
                pct: None,
                lo: None,
                hi: None,
            };
        }
        let (kf, nf, z) = (k as f64, n as f64, 1.96f64);
        let p = kf / nf;
        let denom = 1.0 + z * z / nf;
        let centre = (p + z * z / (2.0 * nf)) / denom;
        let half = z * (p * (1.0 - p) / nf + z * z / (4.0 * nf * nf)).sqrt() / denom;
        Self {
            k,
            n,
            pct: Some(100.0 * p),
            lo: Some(100.0 * (centre - half).max(0.0)),
            hi: Some(100.0 * (centre + half).min(1.0)),
        }
    }

    /// "92.0 % (85.1-95.9) 46/50", or "-" without trials.
    pub fn show(&self) -> String {
        match (self.pct, self.lo, self.hi) {
            (Some(p), Some(lo), Some(hi)) => {
                format!("{p:5.1} % ({lo:.1}-{hi:.1}) {}/{}", self.k, self.n)
            }
            _ => "-".into(),
        }
    }
}

/// One statement's row.
#[derive(Debug, Clone, Serialize)]
pub struct StatementRow {
    /// Statement code (`af_or_flutter`: either).
    pub code: &'static str,
    /// LUDB's diagnosis it is scored against.
    pub ludb: &'static str,
    /// Records with the diagnosis.
    pub n: usize,
    /// Sensitivity.
    pub se: Proportion,
    /// Specificity.
    pub sp: Proportion,
}

/// A target of issue 39.
#[derive(Debug, Clone, Serialize)]
pub struct Target {
    /// What is measured against what.
    pub what: String,
    /// The figure measured.
    pub measured: String,
    /// Whether it is met.
    pub met: bool,
}

/// One record's result.
#[derive(Debug, Clone, Serialize)]
pub struct RecordRow {
    /// Record number.
    pub id: usize,
    /// Statement codes that fired.
    pub fired: Vec<&'static str>,
    /// Our axis category.
    pub axis: Option<&'static str>,
    /// LUDB's.
    pub ludb_axis: Option<&'static str>,
    /// Heart rate.
    pub heart_rate_bpm: Option<f64>,
    /// QRS axis.
    pub qrs_axis_deg: Option<f64>,
    /// Error, when the record could not be interpreted.
    pub error: Option<String>,
}

/// One measurement against a device's own figure.
#[derive(Debug, Clone, Serialize)]
pub struct DeviceRow {
    /// Document file.
    pub document: String,
    /// Measurement key.
    pub key: &'static str,
    /// The device's figure.
    pub device: Option<f64>,
    /// Ours.
    pub ours: Option<f64>,
    /// Tolerance.
    pub tolerance: f64,
    /// Whether ours is within the tolerance.
    pub within: bool,
}

/// The report of `cardio eval ecg12`.
#[derive(Debug, Clone, Serialize)]
pub struct Ecg12Report {
    /// Records read.
    pub records: usize,
    /// Records that could not be interpreted.
    pub failed: usize,
    /// Per statement.
    pub statements: Vec<StatementRow>,
    /// Axis category agreement.
    pub axis_agreement: Proportion,
    /// Axis categories, rows LUDB, columns ours, in [`AXES`] order.
    pub axis_confusion: Vec<Vec<usize>>,
    /// Targets.
    pub targets: Vec<Target>,
    /// The 12-lead rhythm verdict against LUDB's rhythm.
    pub rhythm_verdict: verdict::VerdictTable,
    /// Against the devices' figures.
    pub devices: Vec<DeviceRow>,
    /// Mean milliseconds per record (delineation, measurements, statements), this build.
    pub ms_per_record: f64,
    /// Per record.
    pub per_record: Vec<RecordRow>,
}

/// Axis categories in table order.
pub const AXES: [AxisCategory; 5] = [
    AxisCategory::LeftDeviation,
    AxisCategory::Horizontal,
    AxisCategory::Normal,
    AxisCategory::Vertical,
    AxisCategory::RightDeviation,
];

/// The device documents compared and the tolerances: (key, tolerance).
pub const DEVICE_KEYS: [(&str, f64); 8] = [
    ("heart_rate_bpm", 2.0),
    ("pr_ms", 10.0),
    ("qrs_ms", 10.0),
    ("qt_ms", 20.0),
    ("qtc_ms", 20.0),
    ("p_axis_deg", 15.0),
    ("qrs_axis_deg", 15.0),
    ("t_axis_deg", 15.0),
];

/// The documents with a device's measurements.
pub const DOCUMENTS: [&str; 3] = [
    "ge-muse-example.xml",
    "ge-muse-fictitious.pdf",
    "cardiosoft-testmann.pdf",
];

/// Runs the evaluation on `root/ludb` (and `root/ecg_documents` when present).
///
/// # Errors
/// [`EvalError::MissingDataset`] without LUDB; [`EvalError::Content`] for a broken `ludb.csv`.
pub fn evaluate(root: &Path) -> Result<Ecg12Report, EvalError> {
    let dir = root.join("ludb");
    if !dir.join("ludb.csv").is_file() {
        return Err(EvalError::MissingDataset {
            name: "ludb",
            path: dir,
        });
    }
    let csv_path = dir.join("ludb.csv");
    let text = std::fs::read_to_string(&csv_path).map_err(|e| content(&csv_path, e.to_string()))?;
    let rows = read_ludb_csv(&csv_path, &text)?;
    let mut results: Vec<(LudbRow, Result<Ecg12, String>)> = Vec::new();
    let mut elapsed = 0.0;
    for row in rows {
        let path = dir.join("data").join(format!("{}.hea", row.id));
        let rec = crate::ludb::read_ludb(&path).map_err(|source| EvalError::Read {
            path: path.clone(),
            source,
        })?;
        let t = Instant::now();
        let res = analyze(&rec, row.sex).map_err(|e| e.to_string());
        elapsed += t.elapsed().as_secs_f64();
        results.push((row, res));
    }
    let mut report = score(&results);
    report.ms_per_record = 1000.0 * elapsed / results.len().max(1) as f64;
    report.devices = devices(&root.join("ecg_documents"));
    Ok(report)
}

fn fired(e: &Ecg12, code: &str) -> bool {
    if code == "af_or_flutter" {
        e.has("atrial_fibrillation") || e.has("atrial_flutter")
    } else if code == "lvh" {
        // LUDB's LVH against either LVH statement (with or without repolarisation changes).
        e.has("lvh") || e.has("lvh_voltage")
    } else {
        e.has(code)
    }
}

/// Scores interpreted records against their LUDB rows.
pub fn score(results: &[(LudbRow, Result<Ecg12, String>)]) -> Ecg12Report {
    let mut statements = Vec::new();
    for &(code, ludb, truth) in MAPPING {
        let (mut tp, mut fn_, mut tn, mut fp) = (0, 0, 0, 0);
        for (row, res) in results {
            let predicted = res.as_ref().is_ok_and(|e| fired(e, code));
            match (truth(row), predicted) {
                (true, true) => tp += 1,
                (true, false) => fn_ += 1,
                (false, true) => fp += 1,
                (false, false) => tn += 1,
            }
        }
        statements.push(StatementRow {
            code,
            ludb,
            n: tp + fn_,
            se: Proportion::wilson(tp, tp + fn_),
            sp: Proportion::wilson(tn, tn + fp),
        });
    }
    let mut confusion = vec![vec![0usize; AXES.len()]; AXES.len()];
    let (mut agree, mut total) = (0, 0);
    for (row, res) in results {
        let Some(truth) = row.axis_category() else {
            continue;
        };
        total += 1;
        let ours = res.as_ref().ok().and_then(|e| e.axis_category);
        if let Some(o) = ours {
            let (i, j) = (pos(truth), pos(o));
            confusion[i][j] += 1;
        }
        if ours == Some(truth) {
            agree += 1;
        }
    }
    let axis_agreement = Proportion::wilson(agree, total);
    let get = |code: &str| statements.iter().find(|s: &&StatementRow| s.code == code);
    let mut targets = Vec::new();
    let pct = |p: &Proportion| p.pct.unwrap_or(0.0);
    targets.push(Target {
        what: "axis category agreement >= 90 %".into(),
        measured: axis_agreement.show(),
        met: pct(&axis_agreement) >= 90.0,
    });
    let mut se_sp = |code: &str, what: &str, se: f64, sp: Option<f64>| {
        if let Some(r) = get(code) {
            targets.push(Target {
                what: what.into(),
                measured: format!("Se {} Sp {}", r.se.show(), r.sp.show()),
                met: pct(&r.se) >= se && sp.is_none_or(|s| pct(&r.sp) >= s),
            });
        }
    };
    se_sp(
        "af_or_flutter",
        "AF or flutter Se >= 95 % with Sp >= 98 %",
        95.0,
        Some(98.0),
    );
    se_sp("lbbb", "complete LBBB Se and Sp >= 95 %", 95.0, Some(95.0));
    se_sp("rbbb", "complete RBBB Se and Sp >= 95 %", 95.0, Some(95.0));
    se_sp(
        "first_degree_av_block",
        "1st-degree AV block Se >= 90 %",
        90.0,
        None,
    );
    se_sp("paced_rhythm", "pacing Se >= 90 %", 90.0, None);
    se_sp(
        "sinus_bradycardia",
        "sinus bradycardia exact by rate (Se and Sp 100 %)",
        100.0,
        Some(100.0),
    );
    se_sp(
        "sinus_tachycardia",
        "sinus tachycardia exact by rate (Se and Sp 100 %)",
        100.0,
        Some(100.0),
    );
    if let Some(r) = get("lvh") {
        targets.push(Target {
            what: "LVH within the voltage criteria's published performance (Sokolow-Lyon / Cornell vs echo: Se ~20-30 % at Sp ~90 %; Hancock 2009): Se >= 20 % with Sp >= 85 %".into(),
            measured: format!("Se {} Sp {}", r.se.show(), r.sp.show()),
            met: pct(&r.se) >= 20.0 && pct(&r.sp) >= 85.0,
        });
    }
    if let Some(r) = get("abnormal_ecg") {
        targets.push(Target {
            what: "abnormal-call specificity >= 91.3 % (CSE programs' median, Willems et al. 1991)"
                .into(),
            measured: format!("Sp {}", r.sp.show()),
            met: pct(&r.sp) >= 91.3,
        });
    }
    let per_record = results
        .iter()
        .map(|(row, res)| match res {
            Ok(e) => RecordRow {
                id: row.id,
                fired: e.statements.iter().map(|s| s.code).collect(),
                axis: e.axis_category.map(AxisCategory::label),
                ludb_axis: row.axis_category().map(AxisCategory::label),
                heart_rate_bpm: e.measurements.heart_rate_bpm,
                qrs_axis_deg: e.measurements.qrs_axis_deg,
                error: None,
            },
            Err(err) => RecordRow {
                id: row.id,
                fired: Vec::new(),
                axis: None,
                ludb_axis: row.axis_category().map(AxisCategory::label),
                heart_rate_bpm: None,
                qrs_axis_deg: None,
                error: Some(err.clone()),
            },
        })
        .collect();
    Ecg12Report {
        records: results.len(),
        failed: results.iter().filter(|(_, r)| r.is_err()).count(),
        statements,
        axis_agreement,
        axis_confusion: confusion,
        targets,
        rhythm_verdict: verdict::table(results),
        devices: Vec::new(),
        ms_per_record: 0.0,
        per_record,
    }
}

fn pos(a: AxisCategory) -> usize {
    AXES.iter().position(|x| *x == a).unwrap_or(0)
}

/// Our measurements against each document's device figures (documents absent: no rows).
pub fn devices(dir: &Path) -> Vec<DeviceRow> {
    let mut out = Vec::new();
    for doc in DOCUMENTS {
        let path: PathBuf = dir.join(doc);
        let Ok(rec) = cardio_formats::read_path(&path) else {
            continue;
        };
        let ours = analyze(&rec, None).ok();
        let device = rec.device_interpretation.as_ref();
        for (key, tolerance) in DEVICE_KEYS {
            let dev = device.and_then(|d| {
                d.measurements
                    .iter()
                    .find(|m| m.key == key)
                    .map(|m| m.value)
            });
            let m = ours.as_ref().map(|e| &e.measurements);
            let our = m.and_then(|m| match key {
                "heart_rate_bpm" => m.heart_rate_bpm,
                "pr_ms" => m.pr_ms,
                "qrs_ms" => m.qrs_ms,
                "qt_ms" => m.qt_ms,
                "qtc_ms" => m.qtc_bazett_ms,
                "p_axis_deg" => m.p_axis_deg,
                "qrs_axis_deg" => m.qrs_axis_deg,
                _ => m.t_axis_deg,
            });
            let within = match (dev, our) {
                (Some(d), Some(o)) if key.ends_with("_deg") => {
                    let diff = (o - d).rem_euclid(360.0);
                    diff.min(360.0 - diff) <= tolerance
                }
                (Some(d), Some(o)) => (o - d).abs() <= tolerance,
                _ => false,
            };
            if dev.is_some() || our.is_some() {
                out.push(DeviceRow {
                    document: doc.into(),
                    key,
                    device: dev,
                    ours: our,
                    tolerance,
                    within,
                });
            }
        }
    }
    out
}

/// The report as text tables.
pub fn table(r: &Ecg12Report) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "LUDB, {} records ({} not interpreted); development figures (thresholds chosen on LUDB)",
        r.records, r.failed
    );
    let _ = writeln!(
        s,
        "{:<26} {:>4}  {:<32} {:<32}",
        "statement", "n", "Se (95 % Wilson CI)", "Sp (95 % Wilson CI)"
    );
    for row in &r.statements {
        let _ = writeln!(
            s,
            "{:<26} {:>4}  {:<32} {:<32}",
            row.code,
            row.n,
            row.se.show(),
            row.sp.show()
        );
    }
    let _ = writeln!(
        s,
        "\naxis category agreement: {}  ({})",
        r.axis_agreement.show(),
        AxisCategory::RANGES
    );
    let _ = writeln!(
        s,
        "{:<16} {}",
        "LUDB \\ ours",
        AXES.map(|a| format!("{:>16}", a.label())).join("")
    );
    for (i, a) in AXES.iter().enumerate() {
        let cells = r.axis_confusion[i]
            .iter()
            .fold(String::new(), |mut acc, c| {
                let _ = write!(acc, "{c:>16}");
                acc
            });
        let _ = writeln!(s, "{:<16} {cells}", a.label());
    }
    s.push_str(&verdict::show(&r.rhythm_verdict));
    let _ = writeln!(s, "\ntargets");
    for t in &r.targets {
        let _ = writeln!(
            s,
            "  [{}] {}: {}",
            if t.met { "met" } else { "not met" },
            t.what,
            t.measured
        );
    }
    if !r.devices.is_empty() {
        let _ = writeln!(s, "\nagainst the devices' own figures");
        let _ = writeln!(
            s,
            "{:<26} {:<14} {:>8} {:>8} {:>6}  within",
            "document", "measurement", "device", "ours", "tol"
        );
        let f = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{v:.0}"));
        for d in &r.devices {
            let _ = writeln!(
                s,
                "{:<26} {:<14} {:>8} {:>8} {:>6}  {}",
                d.document,
                d.key,
                f(d.device),
                f(d.ours),
                d.tolerance,
                if d.within { "yes" } else { "no" }
            );
        }
    }
    let _ = writeln!(
        s,
        "\n{:.2} ms per record (delineation, measurements, statements; this build)",
        r.ms_per_record
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_interval_matches_the_textbook_value() {
        // 8 of 10: Wilson 95 % interval 49.0-94.3 % (Newcombe 1998, table I).
        let p = Proportion::wilson(8, 10);
        assert!((p.lo.unwrap() - 49.0).abs() < 0.1);
        assert!((p.hi.unwrap() - 94.3).abs() < 0.1);
    }

    #[test]
    fn ludb_csv_cells_may_hold_newlines() {
        let text = "ID,Sex,Age,Rhythms,Electric axis of the heart,Conduction abnormalities,Extrasystolies,Hypertrophies,Cardiac pacing,Ischemia,Non-specific repolarization abnormalities,Other states\n1,\"F\n\",\"51\n\",Sinus bradycardia,Electric axis of the heart: left axis deviation,,,\"Left ventricular overload\nLeft ventricular hypertrophy\",,,,\n";
        let rows = read_ludb_csv(Path::new("ludb.csv"), text).unwrap();
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].sex, Some(Sex::Female));
        assert!(rows[0]
            .hypertrophies
            .contains("left ventricular hypertrophy"));
        assert_eq!(rows[0].axis_category(), Some(AxisCategory::LeftDeviation));
    }
}
