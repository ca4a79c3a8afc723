//! How well the product's heart-sound segmentation ([`cardio_signal::pcg::segment`]) agrees with
//! the CirCor DigiScope experts' S1 and S2 ([`evaluate`]). A detected S1 (S2) matches an annotated
//! S1 (S2) segment when it lies within [`TOLERANCE_S`], 60 ms, of the segment's centre (the
//! tolerance of Springer et al. 2016); a detection left over is a false positive only inside an
//! annotated stretch ([`score_sound`]). Per sound: sensitivity, positive predictivity and F1,
//! pooled over the recordings and averaged over them, with 95 % percentile-bootstrap CIs over
//! children ([`summarise`]); the recordings that could not be scored, and why; the run time.
//! The patients, recordings and expert segments come from the loader, [`crate::circor`].

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::Path;

use cardio_signal::{pcg, SamplingRate};
use serde::Serialize;

use super::{group_keys, read_patients, read_segments, CircorError, RecordingRef, Segment, State};
use crate::eval::delineation::Estimate;
use crate::eval::{percent, qrs::pair_up, Counts};
use crate::resample::{bootstrap_groups, percentile_nearest, SplitMix64};

/// Matching tolerance around an annotated sound's centre, seconds (Springer, D. B., Tarassenko,
/// L., Clifford, G. D. (2016), "Logistic regression-HSMM-based heart sound segmentation", *IEEE
/// Trans. Biomed. Eng.* 63(4), 822-832: 60 ms).
pub const TOLERANCE_S: f64 = 0.06;

/// Bootstrap draws of the CIs.
pub const BOOTSTRAP_DRAWS: usize = 1000;

/// Seed of the bootstrap.
pub const SEED: u64 = 2022;

/// The annotated stretches of a segmentation: each run of consecutive rows whose state is not
/// [`State::Unannotated`], from its first row's start to its last row's end, in file order.
pub fn annotated_spans(segments: &[Segment]) -> Vec<(f64, f64)> {
    let mut spans: Vec<(f64, f64)> = Vec::new();
    let mut open = false;
    for s in segments {
        if s.state == State::Unannotated {
            open = false;
            continue;
        }
        match spans.last_mut() {
            Some(last) if open => last.1 = last.1.max(s.end_s),
            _ => spans.push((s.start_s, s.end_s)),
        }
        open = true;
    }
    spans
}

/// One sound's agreement on one recording.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct SoundAgreement {
    /// TP: annotated sounds with a detection within the tolerance of their centre; FN: those
    /// without; FP: other detections inside an annotated stretch.
    pub counts: Counts,
    /// Detected minus annotated centre of each matched pair, milliseconds.
    pub offsets_ms: Vec<f64>,
    /// Of the false positives, those within the tolerance of an annotated centre of the other
    /// sound (S2 for S1, S1 for S2): a sound found but given the wrong name.
    pub fp_at_other: usize,
}

/// F1 `2TP / (2TP + FP + FN)` in percent; `None` with no annotated sound and no detection.
pub fn f1_pct(c: Counts) -> Option<f64> {
    percent(2 * c.tp, 2 * c.tp + c.fp + c.fn_)
}

/// Whole milliseconds of a time in seconds (times here are never negative).
fn ms(t: f64) -> usize {
    (t * 1000.0).round().max(0.0) as usize
}

/// Scores detections of one sound (times, seconds) against the annotated segments of `state`:
/// each annotated sound takes the nearest detection not yet taken within [`TOLERANCE_S`] of its
/// centre ([`crate::eval::qrs::pair_up`], at 1-ms resolution); a detection left over counts as a
/// false positive only inside an annotated stretch ([`annotated_spans`]). `state` is
/// [`State::S1`] or [`State::S2`]; the other one's centres give [`SoundAgreement::fp_at_other`].
pub fn score_sound(segments: &[Segment], state: State, detected_s: &[f64]) -> SoundAgreement {
    let centres = |st: State| {
        let mut c: Vec<usize> = segments
            .iter()
            .filter(|s| s.state == st)
            .map(|s| ms(s.centre_s()))
            .collect();
        c.sort_unstable();
        c
    };
    let reference = centres(state);
    let other = centres(if state == State::S1 {
        State::S2
    } else {
        State::S1
    });
    let tol = ms(TOLERANCE_S);
    let mut detected: Vec<usize> = detected_s.iter().map(|&t| ms(t)).collect();
    detected.sort_unstable();
    let (used, offsets_ms) = pair_up(&reference, &detected, tol);
    let spans: Vec<(usize, usize)> = annotated_spans(segments)
        .into_iter()
        .map(|(a, b)| (ms(a), ms(b)))
        .collect();
    let false_positives: Vec<usize> = used
        .iter()
        .zip(&detected)
        .filter(|(u, &d)| !**u && spans.iter().any(|&(a, b)| d >= a && d <= b))
        .map(|(_, &d)| d)
        .collect();
    let fp_at_other = false_positives
        .iter()
        .filter(|&&d| {
            let i = other.partition_point(|&c| c + tol < d);
            other.get(i).is_some_and(|&c| c <= d + tol)
        })
        .count();
    let tp = offsets_ms.len();
    SoundAgreement {
        counts: Counts {
            tp,
            fn_: reference.len() - tp,
            fp: false_positives.len(),
        },
        offsets_ms,
        fp_at_other,
    }
}

/// One scored recording.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RecordingRow {
    /// The recording (`50782_MV_2`).
    pub recording: String,
    /// Its patient.
    pub patient: String,
    /// Its child ([`group_keys`]), the bootstrap's unit.
    pub group: String,
    /// S1 and S2 agreement, in that order.
    pub sounds: [SoundAgreement; 2],
    /// Whether [`cardio_signal::quality::pcg`] judged it usable.
    pub usable: bool,
    /// Whether [`pcg::segment`] found a heart cycle (without one it labels no sound).
    pub cycle_found: bool,
    /// Annotated seconds.
    pub annotated_s: f64,
}

/// Scores one recording's segmentation against the experts' ([`score_sound`] for S1, state 1,
/// and S2, state 3).
pub fn score_recording(segments: &[Segment], seg: &pcg::Segmentation) -> [SoundAgreement; 2] {
    [
        score_sound(segments, State::S1, &seg.s1_s),
        score_sound(segments, State::S2, &seg.s2_s),
    ]
}

/// A recording that was not scored, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Unscored {
    /// The recording.
    pub recording: String,
    /// Why, in words.
    pub reason: String,
}

/// One sound's figures over a set of recordings, percent, with 95 % percentile-bootstrap CIs
/// over children.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct SoundSummary {
    /// `S1` or `S2`.
    pub sound: String,
    /// Counts summed over the recordings.
    pub counts: Counts,
    /// Sensitivity of the summed counts.
    pub pooled_se: Estimate,
    /// Positive predictivity of the summed counts.
    pub pooled_ppv: Estimate,
    /// F1 of the summed counts.
    pub pooled_f1: Estimate,
    /// Mean of the recordings' sensitivities (those with an annotated sound).
    pub mean_se: Estimate,
    /// Mean of the recordings' positive predictivities (those with a scored detection).
    pub mean_ppv: Estimate,
    /// Mean of the recordings' F1.
    pub mean_f1: Estimate,
    /// Recordings in each mean: Se, +P, F1.
    pub mean_of: [usize; 3],
    /// Of the false positives, those at the other sound ([`SoundAgreement::fp_at_other`]).
    pub fp_at_other: usize,
    /// Quartiles (25th, 50th, 75th percentile, nearest rank) of detected minus annotated centre
    /// over matched pairs, milliseconds.
    pub offset_quartiles_ms: Option<[f64; 3]>,
}

/// The twelve figures of some rows: per sound, pooled Se, +P, F1, then mean Se, +P, F1.
fn figures<'a>(rows: impl Iterator<Item = &'a RecordingRow>) -> [Option<f64>; 12] {
    let mut total = [Counts::default(); 2];
    let mut sums = [[0.0; 3]; 2];
    let mut ns = [[0usize; 3]; 2];
    for r in rows {
        for (k, sound) in r.sounds.iter().enumerate() {
            let c = sound.counts;
            total[k] += c;
            let per = [
                c.sensitivity_pct(),
                c.positive_predictivity_pct(),
                f1_pct(c),
            ];
            for (j, v) in per.into_iter().enumerate() {
                if let Some(v) = v {
                    sums[k][j] += v;
                    ns[k][j] += 1;
                }
            }
        }
    }
    let mut out = [None; 12];
    for k in 0..2 {
        let c = total[k];
        out[6 * k] = c.sensitivity_pct();
        out[6 * k + 1] = c.positive_predictivity_pct();
        out[6 * k + 2] = f1_pct(c);
        for j in 0..3 {
            out[6 * k + 3 + j] = (ns[k][j] > 0).then(|| sums[k][j] / ns[k][j] as f64);
        }
    }
    out
}

/// S1 and S2 figures of `rows`, with 95 % percentile-bootstrap CIs from [`BOOTSTRAP_DRAWS`]
/// draws of children (`RecordingRow::group`) with replacement, seeded with [`SEED`].
pub fn summarise(rows: &[RecordingRow]) -> [SoundSummary; 2] {
    let mut by_group: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, r) in rows.iter().enumerate() {
        by_group.entry(r.group.as_str()).or_default().push(i);
    }
    let groups: Vec<Vec<usize>> = by_group.into_values().collect();
    let boot = bootstrap_groups(
        &groups,
        BOOTSTRAP_DRAWS,
        &mut SplitMix64::new(SEED),
        |members| {
            figures(members.iter().map(|&i| &rows[i]))
                .iter()
                .map(|v| v.unwrap_or(f64::NAN))
                .collect()
        },
    );
    let point = figures(rows.iter());
    let mut est = [Estimate::default(); 12];
    for (j, e) in est.iter_mut().enumerate() {
        let b = boot.get(j).map_or(&[][..], Vec::as_slice);
        let q = |p: f64| (!b.is_empty()).then(|| percentile_nearest(b, p));
        *e = Estimate {
            value: point[j],
            lo: q(0.025),
            hi: q(0.975),
        };
    }
    std::array::from_fn(|k| {
        let mut total = Counts::default();
        let mut offsets = Vec::new();
        let mut mean_of = [0; 3];
        let mut fp_at_other = 0;
        for r in rows {
            let s = &r.sounds[k];
            total += s.counts;
            fp_at_other += s.fp_at_other;
            offsets.extend_from_slice(&s.offsets_ms);
            mean_of[0] += usize::from(s.counts.sensitivity_pct().is_some());
            mean_of[1] += usize::from(s.counts.positive_predictivity_pct().is_some());
            mean_of[2] += usize::from(f1_pct(s.counts).is_some());
        }
        let e = &est[6 * k..6 * k + 6];
        SoundSummary {
            sound: ["S1", "S2"][k].into(),
            counts: total,
            pooled_se: e[0],
            pooled_ppv: e[1],
            pooled_f1: e[2],
            mean_se: e[3],
            mean_ppv: e[4],
            mean_f1: e[5],
            mean_of,
            fp_at_other,
            offset_quartiles_ms: (!offsets.is_empty()).then(|| {
                cardio_signal::stats::quantiles_nearest_unsorted(&mut offsets, [0.25, 0.5, 0.75])
            }),
        }
    })
}

/// What [`evaluate`] found.
#[derive(Debug, Clone, Default, Serialize)]
pub struct SegmentationReport {
    /// The folder read.
    pub folder: String,
    /// Patients.
    pub patients: usize,
    /// Children (patients linked by `#Additional ID` counted once).
    pub children: usize,
    /// Recordings the patient files list.
    pub recordings: usize,
    /// Recordings scored.
    pub scored: usize,
    /// Scored recordings in which `segment` found no heart cycle (and so no sound).
    pub no_cycle: usize,
    /// Scored recordings judged unusable by the quality check (scored all the same).
    pub unusable: usize,
    /// Annotated seconds of the scored recordings.
    pub annotated_s: f64,
    /// Matching tolerance, milliseconds.
    pub tolerance_ms: f64,
    /// Bootstrap draws of the CIs.
    pub bootstrap_draws: usize,
    /// Bootstrap seed.
    pub seed: u64,
    /// S1 and S2 over every scored recording.
    pub all: Vec<SoundSummary>,
    /// S1 and S2 over the scored recordings judged usable.
    pub usable_only: Vec<SoundSummary>,
    /// Unscored recordings, by reason: how many.
    pub unscored_by_reason: BTreeMap<String, usize>,
    /// Every unscored recording.
    pub unscored: Vec<Unscored>,
    /// Wall-clock seconds: reading, segmenting and scoring every recording, one thread.
    pub seconds: f64,
    /// Per-recording rows (not serialised).
    #[serde(skip)]
    pub rows: Vec<RecordingRow>,
}

/// Why a recording cannot be scored, or its row.
fn score_file(
    rec: &RecordingRef,
    patient: &str,
    group: &str,
) -> Result<RecordingRow, (String, String)> {
    let tsv = rec
        .tsv
        .as_ref()
        .ok_or_else(|| ("the patient file names no .tsv".to_string(), String::new()))?;
    let segments =
        read_segments(tsv).map_err(|e| ("the .tsv is malformed".to_string(), e.to_string()))?;
    let annotated = |st: State| segments.iter().any(|s| s.state == st);
    if !annotated(State::S1) && !annotated(State::S2) {
        return Err(("no annotated S1 or S2".into(), String::new()));
    }
    let audio = cardio_formats::read_path(&rec.wav)
        .map_err(|e| ("the .wav cannot be read".to_string(), e.to_string()))?;
    let x = &audio
        .channels
        .first()
        .ok_or_else(|| ("the .wav has no channel".to_string(), String::new()))?
        .samples;
    let seg = SamplingRate::new(audio.sampling_rate_hz)
        .and_then(|fs| pcg::segment(x, fs))
        .map_err(|e| (format!("segment refused it: {e}"), String::new()))?;
    Ok(RecordingRow {
        recording: rec.name.clone(),
        patient: patient.to_string(),
        group: group.to_string(),
        sounds: score_recording(&segments, &seg),
        usable: seg.quality.usable,
        cycle_found: seg.heart_rate_bpm.is_some(),
        annotated_s: annotated_spans(&segments).iter().map(|(a, b)| b - a).sum(),
    })
}

/// Runs [`pcg::segment`] on every recording of the patients of `dir` and scores its S1 and S2
/// against the experts' ([`score_recording`], [`summarise`]). A recording that cannot be scored
/// (no `.tsv` named, a malformed `.tsv`, no annotated S1 or S2, an unreadable `.wav`, refused by
/// `segment`) is listed with the reason, not an error.
///
/// # Errors
/// As [`read_patients`].
pub fn evaluate(dir: &Path) -> Result<SegmentationReport, CircorError> {
    let start = std::time::Instant::now();
    let patients = read_patients(dir)?;
    let groups = group_keys(&patients);
    let mut report = SegmentationReport {
        folder: dir.display().to_string(),
        patients: patients.len(),
        children: groups.iter().collect::<BTreeSet<_>>().len(),
        tolerance_ms: TOLERANCE_S * 1000.0,
        bootstrap_draws: BOOTSTRAP_DRAWS,
        seed: SEED,
        ..SegmentationReport::default()
    };
    for (p, group) in patients.iter().zip(&groups) {
        for rec in &p.recordings {
            report.recordings += 1;
            match score_file(rec, &p.id, group) {
                Ok(row) => report.rows.push(row),
                Err((reason, detail)) => {
                    *report.unscored_by_reason.entry(reason.clone()).or_insert(0) += 1;
                    report.unscored.push(Unscored {
                        recording: rec.name.clone(),
                        reason: if detail.is_empty() {
                            reason
                        } else {
                            format!("{reason}: {detail}")
                        },
                    });
                }
            }
        }
    }
    let rows = &report.rows;
    report.scored = rows.len();
    report.no_cycle = rows.iter().filter(|r| !r.cycle_found).count();
    report.unusable = rows.iter().filter(|r| !r.usable).count();
    report.annotated_s = rows.iter().map(|r| r.annotated_s).sum();
    report.all = summarise(rows).to_vec();
    let usable: Vec<RecordingRow> = rows.iter().filter(|r| r.usable).cloned().collect();
    report.usable_only = summarise(&usable).to_vec();
    report.seconds = start.elapsed().as_secs_f64();
    Ok(report)
}

/// `value [lo, hi]` with one decimal, or `-`.
fn show(e: &Estimate) -> String {
    match (e.value, e.lo, e.hi) {
        (Some(v), Some(lo), Some(hi)) => format!("{v:.1} [{lo:.1}, {hi:.1}]"),
        (Some(v), _, _) => format!("{v:.1}"),
        _ => "-".into(),
    }
}

impl fmt::Display for SegmentationReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "CirCor DigiScope: cardio_signal::pcg::segment against the expert segmentation"
        )?;
        writeln!(f, "folder: {}", self.folder)?;
        writeln!(
            f,
            "patients {} ({} children after linking #Additional ID), recordings {}: scored {}, not scored {}",
            self.patients,
            self.children,
            self.recordings,
            self.scored,
            self.unscored.len()
        )?;
        writeln!(
            f,
            "match: a detected S1 (S2) within {:.0} ms of an annotated S1 (S2) segment's centre; \
             FP only inside annotated stretches ({:.0} s of them)",
            self.tolerance_ms, self.annotated_s
        )?;
        writeln!(
            f,
            "percent, 95% CI: percentile bootstrap over children ({} draws, seed {})",
            self.bootstrap_draws, self.seed
        )?;
        for (title, part) in [
            ("all scored recordings", &self.all),
            ("recordings judged usable", &self.usable_only),
        ] {
            writeln!(f)?;
            writeln!(f, "{title}")?;
            writeln!(
                f,
                "{:<5} {:<20} {:>8} {:>8} {:>8}   {:<20} {:<20} {:<20}",
                "sound", "figure", "TP", "FN", "FP", "Se %", "+P %", "F1 %"
            )?;
            for s in part {
                writeln!(
                    f,
                    "{:<5} {:<20} {:>8} {:>8} {:>8}   {:<20} {:<20} {:<20}",
                    s.sound,
                    "pooled",
                    s.counts.tp,
                    s.counts.fn_,
                    s.counts.fp,
                    show(&s.pooled_se),
                    show(&s.pooled_ppv),
                    show(&s.pooled_f1)
                )?;
                writeln!(
                    f,
                    "{:<5} {:<20} {:>8} {:>8} {:>8}   {:<20} {:<20} {:<20}",
                    s.sound,
                    format!("mean of {}/{}/{}", s.mean_of[0], s.mean_of[1], s.mean_of[2]),
                    "",
                    "",
                    "",
                    show(&s.mean_se),
                    show(&s.mean_ppv),
                    show(&s.mean_f1)
                )?;
            }
            for s in part {
                let other = if s.sound == "S1" { "S2" } else { "S1" };
                write!(
                    f,
                    "{}: {} of {} FP ({}) within {:.0} ms of an annotated {other} centre",
                    s.sound,
                    s.fp_at_other,
                    s.counts.fp,
                    percent(s.fp_at_other, s.counts.fp)
                        .map_or_else(|| "-".to_string(), |p| format!("{p:.1}%")),
                    self.tolerance_ms
                )?;
                if let Some([q1, m, q3]) = s.offset_quartiles_ms {
                    write!(
                        f,
                        "; detected - annotated centre of matched pairs: median {m:+.0} ms, \
                         quartiles {q1:+.0}/{q3:+.0} ms"
                    )?;
                }
                writeln!(f)?;
            }
        }
        writeln!(f)?;
        writeln!(
            f,
            "scored recordings without a heart cycle found (no sound labelled, all missed): {}",
            self.no_cycle
        )?;
        writeln!(
            f,
            "scored recordings judged unusable by the quality check: {}",
            self.unusable
        )?;
        writeln!(f, "not scored: {}", self.unscored.len())?;
        for (reason, n) in &self.unscored_by_reason {
            let names: Vec<&str> = self
                .unscored
                .iter()
                .filter(|u| u.reason.starts_with(reason.as_str()))
                .map(|u| u.recording.as_str())
                .take(8)
                .collect();
            let more = if *n > names.len() { ", ..." } else { "" };
            writeln!(f, "  {reason}: {n} ({}{more})", names.join(", "))?;
        }
        let per = 1000.0 * self.seconds / self.recordings.max(1) as f64;
        writeln!(
            f,
            "run time: {:.1} s (read, segment, score and bootstrap, one thread; {per:.1} ms per recording)",
            self.seconds
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seg(start_s: f64, end_s: f64, code: u8) -> Segment {
        Segment {
            start_s,
            end_s,
            state: State::from_code(code).unwrap(),
        }
    }

    #[test]
    fn annotated_spans_are_the_runs_between_unannotated_rows() {
        let segments = [
            seg(0.0, 1.0, 0),
            seg(1.0, 1.1, 1),
            seg(1.1, 1.4, 2),
            seg(1.4, 2.0, 0),
            seg(2.0, 2.1, 3),
        ];

        assert_eq!(annotated_spans(&segments), [(1.0, 1.4), (2.0, 2.1)]);
    }

    #[test]
    fn detections_match_within_60_ms_of_a_centre_and_count_as_fp_only_when_annotated() {
        // Annotated 1-3 s: S1 centres at 1.05 and 2.05 s; unannotated after 3 s.
        let segments = [
            seg(0.0, 1.0, 0),
            seg(1.0, 1.1, 1),
            seg(1.1, 1.4, 2),
            seg(1.4, 1.5, 3),
            seg(1.5, 2.0, 4),
            seg(2.0, 2.1, 1),
            seg(2.1, 3.0, 2),
            seg(3.0, 9.0, 0),
        ];
        // 1.11 s: 60 ms off, a match; 2.12 s: 70 ms off, no match and inside: FP; 0.5 and 5 s:
        // outside annotated stretches, not scored.
        let detected = [0.5, 1.11, 2.12, 5.0];

        let s1 = score_sound(&segments, State::S1, &detected);
        let s2 = score_sound(&segments, State::S2, &[1.45]);
        // An S1 called S2: a false S2 at the annotated S1.
        let swapped = score_sound(&segments, State::S2, &[1.06]);

        assert_eq!(
            s1.counts,
            Counts {
                tp: 1,
                fn_: 1,
                fp: 1
            }
        );
        assert_eq!(s1.offsets_ms, [60.0]);
        // 2.12 s is 120 ms from the S2 centre at 1.45 s: not at the other sound.
        assert_eq!(s1.fp_at_other, 0);
        assert_eq!(f1_pct(s1.counts), Some(50.0));
        assert_eq!(
            s2.counts,
            Counts {
                tp: 1,
                fn_: 0,
                fp: 0
            }
        );
        assert_eq!((swapped.counts.fp, swapped.fp_at_other), (1, 1));
    }

    #[test]
    fn summaries_pool_counts_and_average_recordings_with_cis_over_children() {
        let row = |group: &str, tp, fn_, fp| RecordingRow {
            recording: format!("{group}_AV"),
            patient: group.into(),
            group: group.into(),
            sounds: [
                SoundAgreement {
                    counts: Counts { tp, fn_, fp },
                    offsets_ms: vec![-10.0; tp],
                    fp_at_other: 0,
                },
                SoundAgreement::default(),
            ],
            usable: true,
            cycle_found: true,
            annotated_s: 10.0,
        };
        let rows = [row("1", 9, 1, 0), row("2", 1, 9, 0)];

        let [s1, s2] = summarise(&rows);

        assert_eq!(s1.pooled_se.value, Some(50.0));
        assert_eq!(s1.mean_se.value, Some(50.0));
        assert_eq!(s1.pooled_ppv.value, Some(100.0));
        assert_eq!(s1.mean_of, [2, 2, 2]);
        assert_eq!(s1.offset_quartiles_ms, Some([-10.0; 3]));
        let (lo, hi) = (s1.pooled_se.lo.unwrap(), s1.pooled_se.hi.unwrap());
        assert!(
            lo <= 50.0 && hi >= 50.0 && lo >= 10.0 && hi <= 90.0,
            "{lo} {hi}"
        );
        assert_eq!(s2.pooled_se.value, None);
        assert_eq!(s2.mean_of, [0, 0, 0]);
    }
}
