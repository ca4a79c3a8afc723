//! The report of the murmur model's cross-validation: the Challenge's weighted accuracy, murmur
//! sensitivity and specificity, timing and grade, each with a 95 % CI from a bootstrap of children,
//! the confusion of verdicts and each fold's thresholds (`cardio eval murmur`, the model card).

use serde::Serialize;

use cardio_models::murmur::decision::{Thresholds, Verdict};
use cardio_models::murmur::{Grade, Timing};

use super::{grade_label, timing_label, Call, Data, BOOTSTRAP_DRAWS, SEED};
use crate::circor::Murmur;
use crate::resample::{bootstrap_groups, percentile_nearest, SplitMix64};

/// A figure with its 95 % CI and the counts behind it.
#[derive(Debug, Clone, Serialize)]
pub struct Figure {
    /// The value (0-1).
    pub value: f64,
    /// CI lower end.
    pub ci_low: f64,
    /// CI upper end.
    pub ci_high: f64,
    /// Numerator (patients; weights for the weighted accuracy).
    pub num: f64,
    /// Denominator.
    pub den: f64,
}

/// The report of `cardio eval murmur`.
#[derive(Debug, Clone, Serialize)]
pub struct MurmurReport {
    /// Patients, children and recordings read.
    pub patients: usize,
    /// Children (groups).
    pub children: usize,
    /// Recordings.
    pub recordings: usize,
    /// Recordings the model could not read.
    pub recordings_unread: usize,
    /// Patients by reference label: present, absent, unknown.
    pub reference: [usize; 3],
    /// Challenge weighted accuracy.
    pub weighted_accuracy: Figure,
    /// Present patients called present.
    pub murmur_sensitivity: Figure,
    /// Absent patients not called present.
    pub murmur_specificity: Figure,
    /// Present murmurs whose phase (systolic) is right: every call of the model is systolic.
    pub timing_accuracy: Figure,
    /// Present murmurs whose systolic timing class (early, mid, holo) is right.
    pub systolic_timing_accuracy: Figure,
    /// The share of the most frequent timing class (what always naming it gives).
    pub systolic_timing_majority: f64,
    /// Present murmurs whose grade is within one step.
    pub grade_within_one: Figure,
    /// Present murmurs whose grade is exact.
    pub grade_exact: Figure,
    /// The share of the most frequent grade.
    pub grade_majority: f64,
    /// Confusion of verdicts: rows reference present, absent, unknown; columns called present,
    /// absent, unknown.
    pub confusion: [[usize; 3]; 3],
    /// Each outer fold's thresholds (present, unknown) and inner weighted accuracy.
    pub folds: Vec<[f64; 3]>,
    /// The segmentation the features rest on against the experts' (S1 and S2 within 60 ms of the
    /// annotated centre, `crate::circor::segmentation`); `None` until [`super::evaluate`] scores it.
    pub segmentation: Option<Segmentation>,
}

/// The product's heart-sound segmentation against CirCor's expert segmentation.
#[derive(Debug, Clone, Serialize)]
pub struct Segmentation {
    /// Matching tolerance around an annotated sound's centre, milliseconds.
    pub tolerance_ms: f64,
    /// Recordings scored (of those the patient files list).
    pub recordings_scored: usize,
    /// S1 and S2 over every scored recording: Se, +P and F1 pooled and averaged, percent, with
    /// 95 % CIs over children.
    pub sounds: Vec<crate::circor::segmentation::SoundSummary>,
}

fn ratio(num: f64, den: f64) -> f64 {
    if den > 0.0 {
        num / den
    } else {
        f64::NAN
    }
}

/// The report of out-of-fold calls, CIs by a bootstrap of children.
pub fn report(data: &Data, calls: &[Call], per_fold: &[(Thresholds, f64)]) -> MurmurReport {
    let n = data.patients.len();
    let verdicts: Vec<Verdict> = calls.iter().map(|c| c.verdict).collect();
    let truth_timing: Vec<Option<usize>> = data.patients.iter().map(timing_label).collect();
    let truth_grade: Vec<Option<usize>> = data.patients.iter().map(grade_label).collect();
    let present = |p: usize| data.patients[p].murmur == Murmur::Present;
    // [num, den] pairs of every figure over a set of patients.
    let counts = |rows: &[usize]| -> Vec<[f64; 2]> {
        let mut out = vec![[0.0; 2]; 6];
        for &p in rows {
            let w = match data.patients[p].murmur {
                Murmur::Present => 5.0,
                Murmur::Unknown => 3.0,
                Murmur::Absent => 1.0,
            };
            out[0][1] += w;
            let right = match data.patients[p].murmur {
                Murmur::Present => verdicts[p] == Verdict::Present,
                Murmur::Unknown => verdicts[p] == Verdict::Unknown,
                Murmur::Absent => verdicts[p] == Verdict::Absent,
            };
            if right {
                out[0][0] += w;
            }
            match data.patients[p].murmur {
                Murmur::Present => {
                    out[1][1] += 1.0;
                    out[1][0] += f64::from(u8::from(verdicts[p] == Verdict::Present));
                }
                Murmur::Absent => {
                    out[2][1] += 1.0;
                    out[2][0] += f64::from(u8::from(verdicts[p] != Verdict::Present));
                }
                Murmur::Unknown => {}
            }
            if present(p) {
                out[3][1] += 1.0;
                out[3][0] += f64::from(u8::from(data.patients[p].systolic.is_some()));
            }
            if let (true, Some(t)) = (present(p), truth_timing[p]) {
                out[4][1] += 1.0;
                out[4][0] += f64::from(u8::from(calls[p].timing == Some(t)));
            }
            if let (true, Some(g)) = (present(p), truth_grade[p]) {
                out[5][1] += 1.0;
                out[5][0] +=
                    f64::from(u8::from(calls[p].grade.is_some_and(|c| c.abs_diff(g) <= 1)));
            }
        }
        out
    };
    let exact = |rows: &[usize]| -> [f64; 2] {
        let mut c = [0.0; 2];
        for &p in rows {
            if let (true, Some(g)) = (present(p), truth_grade[p]) {
                c[1] += 1.0;
                c[0] += f64::from(u8::from(calls[p].grade == Some(g)));
            }
        }
        c
    };
    let mut children: Vec<&str> = data.groups.iter().map(String::as_str).collect();
    children.sort_unstable();
    children.dedup();
    let members: Vec<Vec<usize>> = children
        .iter()
        .map(|c| (0..n).filter(|&p| data.groups[p] == *c).collect())
        .collect();
    let all: Vec<usize> = (0..n).collect();
    let point: Vec<[f64; 2]> = counts(&all);
    let point_exact = exact(&all);
    let mut rng = SplitMix64::new(SEED);
    let boot = bootstrap_groups(&members, BOOTSTRAP_DRAWS, &mut rng, |rows| {
        let mut v: Vec<f64> = counts(rows).iter().map(|c| ratio(c[0], c[1])).collect();
        let e = exact(rows);
        v.push(ratio(e[0], e[1]));
        v
    });
    let figure = |i: usize, c: [f64; 2]| Figure {
        value: ratio(c[0], c[1]),
        ci_low: boot
            .get(i)
            .map_or(f64::NAN, |b| percentile_nearest(b, 0.025)),
        ci_high: boot
            .get(i)
            .map_or(f64::NAN, |b| percentile_nearest(b, 0.975)),
        num: c[0],
        den: c[1],
    };
    let majority = |labels: &[Option<usize>], k: usize| {
        let mut c = vec![0usize; k];
        let mut total = 0usize;
        for p in (0..n).filter(|&p| present(p)) {
            if let Some(l) = labels[p] {
                c[l] += 1;
                total += 1;
            }
        }
        ratio(*c.iter().max().unwrap_or(&0) as f64, total as f64)
    };
    let mut confusion = [[0usize; 3]; 3];
    for (patient, verdict) in data.patients.iter().zip(&verdicts) {
        let row = match patient.murmur {
            Murmur::Present => 0,
            Murmur::Absent => 1,
            Murmur::Unknown => 2,
        };
        let col = match verdict {
            Verdict::Present => 0,
            Verdict::Absent => 1,
            Verdict::Unknown => 2,
        };
        confusion[row][col] += 1;
    }
    let count = |m: Murmur| data.patients.iter().filter(|p| p.murmur == m).count();
    MurmurReport {
        patients: n,
        children: children.len(),
        recordings: data.recs.len(),
        recordings_unread: data.recs.iter().filter(|r| r.features.is_err()).count(),
        reference: [
            count(Murmur::Present),
            count(Murmur::Absent),
            count(Murmur::Unknown),
        ],
        weighted_accuracy: figure(0, point[0]),
        murmur_sensitivity: figure(1, point[1]),
        murmur_specificity: figure(2, point[2]),
        timing_accuracy: figure(3, point[3]),
        systolic_timing_accuracy: figure(4, point[4]),
        systolic_timing_majority: majority(&truth_timing, Timing::ALL.len()),
        grade_within_one: figure(5, point[5]),
        grade_exact: figure(6, point_exact),
        grade_majority: majority(&truth_grade, Grade::ALL.len()),
        confusion,
        folds: per_fold
            .iter()
            .map(|(t, a)| [t.present, t.unknown, *a])
            .collect(),
        segmentation: None,
    }
}

/// The report as the table of `cardio eval murmur` and the model card.
pub fn table(r: &MurmurReport) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let pct = |f: &Figure| {
        format!(
            "{:.1} % [{:.1}-{:.1}] ({}/{})",
            100.0 * f.value,
            100.0 * f.ci_low,
            100.0 * f.ci_high,
            f.num,
            f.den
        )
    };
    writeln!(
        out,
        "CirCor DigiScope: {} patients ({} children; present {}, absent {}, unknown {}), {} recordings ({} unread)",
        r.patients, r.children, r.reference[0], r.reference[1], r.reference[2], r.recordings, r.recordings_unread
    )
    .ok();
    writeln!(out, "5-fold CV grouped by child, 95 % CI over children:").ok();
    for (name, f) in [
        ("weighted accuracy", &r.weighted_accuracy),
        ("murmur sensitivity (present)", &r.murmur_sensitivity),
        ("murmur specificity (absent)", &r.murmur_specificity),
        ("timing: systolic vs diastolic", &r.timing_accuracy),
        (
            "timing: early / mid / holosystolic",
            &r.systolic_timing_accuracy,
        ),
        ("grade within one step", &r.grade_within_one),
        ("grade exact", &r.grade_exact),
    ] {
        writeln!(out, "  {name:<36} {}", pct(f)).ok();
    }
    writeln!(
        out,
        "  always the most frequent: timing {:.1} %, grade {:.1} %",
        100.0 * r.systolic_timing_majority,
        100.0 * r.grade_majority
    )
    .ok();
    writeln!(
        out,
        "confusion (rows reference, columns called present / absent / unknown):"
    )
    .ok();
    for (name, row) in ["present", "absent", "unknown"].iter().zip(&r.confusion) {
        writeln!(out, "  {name:<8} {:>4} {:>4} {:>4}", row[0], row[1], row[2]).ok();
    }
    if let Some(seg) = &r.segmentation {
        writeln!(
            out,
            "segmentation against the experts' ({} recordings, a sound within {:.0} ms of the annotated centre):",
            seg.recordings_scored, seg.tolerance_ms
        )
        .ok();
        let est = |e: &crate::eval::delineation::Estimate| match (e.value, e.lo, e.hi) {
            (Some(v), Some(lo), Some(hi)) => format!("{v:.1} % [{lo:.1}-{hi:.1}]"),
            (Some(v), _, _) => format!("{v:.1} %"),
            _ => "-".into(),
        };
        for s in &seg.sounds {
            writeln!(
                out,
                "  {}: F1 {}, Se {}, +P {} (pooled)",
                s.sound,
                est(&s.pooled_f1),
                est(&s.pooled_se),
                est(&s.pooled_ppv)
            )
            .ok();
        }
    }
    for (k, f) in r.folds.iter().enumerate() {
        writeln!(
            out,
            "fold {k}: thresholds present {:.2}, unknown {:.2}; inner weighted accuracy {:.3}",
            f[0], f[1], f[2]
        )
        .ok();
    }
    out
}
