//! The murmur model's training and validation on CirCor (`cards/murmur.md`; what
//! `cardio eval murmur` and `cardio train murmur` run).
//!
//! Every recording the murmur model can read (as in the product: the heart-sound model's quality
//! gate with two heart cycles; a patient with none is Unknown) gets the features of
//! `cardio_models::murmur::features` and a presence label:
//! Absent for an Absent patient's recordings, Present for a Present patient's recordings at the
//! sites where the murmur is heard (`#Murmur locations`), Unknown for an Unknown patient's; a Present
//! patient's recordings at other sites are not trained on (the murmur may be faint there). Three
//! boosted-tree models are fitted: presence (three classes, balanced class weights), timing
//! (early-, mid-, holosystolic) and grade (I-III/VI), the last two on the recordings of Present
//! patients where the murmur is heard, labelled with the patient's systolic murmur. The first 2.5
//! and 4 s of every training recording are trained on beside it ([`TRAIN_CROPS_S`]), so that a
//! short clinic recording is read by trees that have heard short recordings; only whole
//! recordings (or, in the short-recording check, the first seconds) are scored.
//!
//! Validation: 5-fold CV grouped by child (the same child in both campaigns, `#Additional ID`,
//! stays on one side; [`super::group_keys`]), stratified by the child's murmur label. In each outer
//! fold the two thresholds of `cardio_models::murmur::decision` are chosen on the out-of-fold
//! probabilities of an inner 5-fold CV of the training patients only, maximising the Challenge's
//! weighted accuracy; the test patients are then called once. Timing and grade are scored on every
//! Present patient, read from the recording with the highest probability of a murmur. 95 % CIs:
//! 2000 bootstrap draws of children.

use std::path::Path;

use cardio_models::gbdt::{Gbdt, GbdtConfig};
use cardio_models::murmur::decision::{decide, Decided, Thresholds, Verdict};
use cardio_models::murmur::{features, Grade, Timing};

use super::{group_keys, read_patients, CircorError, Murmur, Patient, Site};
use crate::gbdt::{balanced_weights, fit};
use crate::parallel::par_map;
use crate::resample::{grouped_folds, SplitMix64};

mod report;
pub use report::{report, table, Figure, MurmurReport, Segmentation};

/// Outer and inner folds.
pub const FOLDS: usize = 5;
/// Seed of folds, trees and bootstrap.
pub const SEED: u64 = 2022;
/// Bootstrap draws of the CIs.
pub const BOOTSTRAP_DRAWS: usize = 2000;

/// The boosted trees' setting: the heart-sound model's first (`pcg_model::validation`).
pub fn config(seed: u64) -> GbdtConfig {
    crate::pcg_model::validation::config_candidates(seed)[0].clone()
}

/// One recording and its features (or why the model cannot read it).
#[derive(Debug, Clone)]
pub struct Rec {
    /// Index of its patient.
    pub patient: usize,
    /// Where it was recorded.
    pub site: Site,
    /// Its features, or the reason there are none.
    pub features: Result<Vec<f64>, String>,
}

/// The patients, their children and their recordings' features.
#[derive(Debug, Clone)]
pub struct Data {
    /// The patients.
    pub patients: Vec<Patient>,
    /// Each patient's child (group) key.
    pub groups: Vec<String>,
    /// Every recording.
    pub recs: Vec<Rec>,
    /// Shorter readings of the recordings (their first seconds, [`with_crops`]), trained on beside
    /// the whole recordings and never scored: they teach the trees what a short clinic recording
    /// sounds like.
    pub crops: Vec<Rec>,
}

/// The first seconds of every recording the product's training reads beside the whole recording.
pub const TRAIN_CROPS_S: [f64; 2] = [2.5, 4.0];

/// `data` with the first `seconds` of each of its recordings measured as extra training rows.
///
/// # Errors
/// As [`read_patients`].
pub fn with_crops(mut data: Data, dir: &Path, seconds: &[f64]) -> Result<Data, CircorError> {
    for &s in seconds {
        let short = load_first(dir, s)?;
        assert_eq!(short.recs.len(), data.recs.len(), "the same recordings");
        data.crops.extend(short.recs);
    }
    Ok(data)
}

/// Reads the patients under `dir` and measures every recording (two threads), and the first
/// [`TRAIN_CROPS_S`] seconds of each as extra training rows ([`with_crops`]).
///
/// # Errors
/// As [`read_patients`].
pub fn load(dir: &Path) -> Result<Data, CircorError> {
    with_crops(load_whole(dir)?, dir, &TRAIN_CROPS_S)
}

/// As [`load`], without the crops.
///
/// # Errors
/// As [`read_patients`].
pub fn load_whole(dir: &Path) -> Result<Data, CircorError> {
    load_with(dir, measure)
}

/// As [`load`], with only the first `seconds` of every recording read ([`measure_first`]): what a
/// short clinic recording at each site would give.
///
/// # Errors
/// As [`read_patients`].
pub fn load_first(dir: &Path, seconds: f64) -> Result<Data, CircorError> {
    load_with(dir, |path| measure_first(path, seconds))
}

fn load_with(
    dir: &Path,
    measure: impl Fn(&Path) -> Result<Vec<f64>, String> + Sync,
) -> Result<Data, CircorError> {
    let patients = read_patients(dir)?;
    let groups = group_keys(&patients);
    let jobs: Vec<(usize, usize)> = patients
        .iter()
        .enumerate()
        .flat_map(|(p, pat)| (0..pat.recordings.len()).map(move |r| (p, r)))
        .collect();
    let feats = par_map(&jobs, |&(p, r)| measure(&patients[p].recordings[r].wav));
    let recs = jobs
        .iter()
        .zip(feats)
        .map(|(&(p, r), features)| Rec {
            patient: p,
            site: patients[p].recordings[r].site,
            features,
        })
        .collect();
    Ok(Data {
        patients,
        groups,
        recs,
        crops: Vec::new(),
    })
}

/// The features of one recording file, or why there are none: as the product reads it, a
/// recording the murmur model cannot read (the heart-sound model's plausibility gate and quality
/// checks with two heart cycles: `pcg_model::Model::murmur_unreadable`) is not read.
pub fn measure(path: &Path) -> Result<Vec<f64>, String> {
    let rec = cardio_formats::read_path(path).map_err(|e| format!("read: {e}"))?;
    measure_recording(&rec)
}

/// As [`measure`] on the first `seconds` of the recording.
pub fn measure_first(path: &Path, seconds: f64) -> Result<Vec<f64>, String> {
    let mut rec = cardio_formats::read_path(path).map_err(|e| format!("read: {e}"))?;
    let keep = (seconds * rec.sampling_rate_hz).round() as usize;
    for c in &mut rec.channels {
        c.samples.truncate(keep);
    }
    measure_recording(&rec)
}

fn measure_recording(rec: &cardio_formats::Recording) -> Result<Vec<f64>, String> {
    let prepared = cardio_models::pcg_model::features::prepare(rec).map_err(|e| e.to_string())?;
    let extracted = features::extract(&prepared).map_err(|e| e.to_string())?;
    let pcg = cardio_models::pcg_model::model().map_err(|e| e.to_string())?;
    match pcg.murmur_unreadable(&extracted.measured) {
        Some(reason) => Err(format!("not judged: {reason}")),
        None => Ok(extracted.values),
    }
}

/// The presence class a recording is trained on (see the module's doc).
pub fn presence_label(p: &Patient, site: Site) -> Option<usize> {
    match p.murmur {
        Murmur::Absent => Some(Verdict::Absent.index()),
        Murmur::Present if p.locations.contains(&site) => Some(Verdict::Present.index()),
        Murmur::Present => None,
        Murmur::Unknown => Some(Verdict::Unknown.index()),
    }
}

/// The patient's systolic murmur timing class (late read as mid; see [`Timing`]).
pub fn timing_label(p: &Patient) -> Option<usize> {
    let t = p.systolic.as_ref()?.timing.as_str();
    let timing = match t {
        "Early-systolic" => Timing::EarlySystolic,
        "Mid-systolic" | "Late-systolic" => Timing::MidSystolic,
        "Holosystolic" => Timing::Holosystolic,
        _ => return None,
    };
    Timing::ALL.iter().position(|&x| x == timing)
}

/// The patient's systolic murmur grade class.
pub fn grade_label(p: &Patient) -> Option<usize> {
    let g = p.systolic.as_ref()?.grading.as_deref()?;
    Grade::ALL.iter().position(|x| x.as_str() == g)
}

/// The three models and the rule's thresholds.
#[derive(Debug, Clone)]
pub struct Fitted {
    /// Presence (absent, present, unknown).
    pub presence: Gbdt,
    /// Timing (early-, mid-, holosystolic).
    pub timing: Gbdt,
    /// Grade (I-III/VI).
    pub grade: Gbdt,
    /// The rule's thresholds.
    pub thresholds: Thresholds,
    /// The inner CV's weighted accuracy at those thresholds.
    pub inner_weighted_accuracy: f64,
}

/// Fits one classifier on the readable recordings of the training patients that `label` labels.
fn fit_on(
    data: &Data,
    train: &[bool],
    n_classes: usize,
    label: impl Fn(&Patient, Site) -> Option<usize>,
    seed: u64,
) -> Gbdt {
    let mut x = Vec::new();
    let mut y = Vec::new();
    for r in data.recs.iter().chain(&data.crops) {
        let p = &data.patients[r.patient];
        if let (true, Some(l), Ok(f)) = (train[r.patient], label(p, r.site), &r.features) {
            x.push(f.clone());
            y.push(l);
        }
    }
    let w = balanced_weights(&y, n_classes);
    fit(&x, &y, n_classes, Some(&w), &config(seed))
}

/// Whether the recording at `site` of a Present patient is where the murmur is heard.
fn heard_at(p: &Patient, site: Site) -> bool {
    p.murmur == Murmur::Present && p.locations.contains(&site)
}

/// The presence probabilities of every recording of the patients with `of[p]` (others `None`).
fn presence_probs(data: &Data, model: &Gbdt, of: &[bool]) -> Vec<Option<[f64; 3]>> {
    data.recs
        .iter()
        .map(|r| match (&r.features, of[r.patient]) {
            (Ok(f), true) => {
                let p = model.predict_proba(f);
                Some([p[0], p[1], p[2]])
            }
            _ => None,
        })
        .collect()
}

/// Each patient's recordings (indices into `data.recs`).
fn recordings_of(data: &Data) -> Vec<Vec<usize>> {
    let mut of = vec![Vec::new(); data.patients.len()];
    for (i, r) in data.recs.iter().enumerate() {
        of[r.patient].push(i);
    }
    of
}

/// Each patient's verdict from per-recording probabilities.
fn decide_all(probs: &[Option<[f64; 3]>], recs_of: &[Vec<usize>], t: &Thresholds) -> Vec<Decided> {
    recs_of
        .iter()
        .map(|rs| {
            let d = decide(&rs.iter().map(|&i| probs[i]).collect::<Vec<_>>(), t);
            Decided {
                loudest: d.loudest.map(|k| rs[k]),
                ..d
            }
        })
        .collect()
}

/// The weighted accuracy of verdicts over `rows` (patients).
pub fn weighted_accuracy(patients: &[Patient], verdicts: &[Verdict], rows: &[usize]) -> f64 {
    let (mut num, mut den) = (0.0, 0.0);
    for &p in rows {
        let (w, right) = match patients[p].murmur {
            Murmur::Present => (5.0, verdicts[p] == Verdict::Present),
            Murmur::Unknown => (3.0, verdicts[p] == Verdict::Unknown),
            Murmur::Absent => (1.0, verdicts[p] == Verdict::Absent),
        };
        den += w;
        if right {
            num += w;
        }
    }
    if den > 0.0 {
        num / den
    } else {
        f64::NAN
    }
}

/// Candidate thresholds: 0.02 to 0.98 in steps of 0.02, and 1.01 (never).
fn candidates() -> Vec<f64> {
    (1..=49)
        .map(|i| f64::from(i) * 0.02)
        .chain([1.01])
        .collect()
}

/// The thresholds maximising the weighted accuracy of `rows` (ties: the higher present, then the
/// higher unknown threshold).
fn choose(
    data: &Data,
    probs: &[Option<[f64; 3]>],
    recs_of: &[Vec<usize>],
    rows: &[usize],
) -> (Thresholds, f64) {
    let mut best = (
        Thresholds {
            present: 0.5,
            unknown: 1.01,
        },
        f64::NEG_INFINITY,
    );
    for &present in &candidates() {
        for &unknown in &candidates() {
            let t = Thresholds { present, unknown };
            let verdicts: Vec<Verdict> = decide_all(probs, recs_of, &t)
                .iter()
                .map(|d| d.verdict)
                .collect();
            let acc = weighted_accuracy(&data.patients, &verdicts, rows);
            if acc >= best.1 {
                best = (t, acc);
            }
        }
    }
    best
}

/// The child stratum: Present if any of its patients is, else Unknown if any is, else Absent.
fn strata(data: &Data) -> impl Fn(&str) -> usize + '_ {
    move |g: &str| {
        (0..data.patients.len())
            .filter(|&p| data.groups[p] == g)
            .map(|p| match data.patients[p].murmur {
                Murmur::Present => 0,
                Murmur::Unknown => 1,
                Murmur::Absent => 2,
            })
            .min()
            .unwrap_or(2)
    }
}

/// Grouped, stratified folds of the patients `rows` (fold per patient, `usize::MAX` elsewhere).
fn folds_of(data: &Data, rows: &[usize], seed: u64) -> Vec<usize> {
    let groups: Vec<&str> = rows.iter().map(|&p| data.groups[p].as_str()).collect();
    let f = grouped_folds(&groups, strata(data), 3, FOLDS, &mut SplitMix64::new(seed));
    let mut fold = vec![usize::MAX; data.patients.len()];
    for (&p, k) in rows.iter().zip(f) {
        fold[p] = k;
    }
    fold
}

/// Fits the models on the patients with `train[p]`, the thresholds from an inner CV of them.
pub fn fit_all(data: &Data, train: &[bool], seed: u64) -> Fitted {
    let n = data.patients.len();
    let rows: Vec<usize> = (0..n).filter(|&p| train[p]).collect();
    let inner = folds_of(data, &rows, seed);
    let recs_of = recordings_of(data);
    let mut probs = vec![None; data.recs.len()];
    for j in 0..FOLDS {
        let fit_rows: Vec<bool> = (0..n).map(|p| train[p] && inner[p] != j).collect();
        let held: Vec<bool> = (0..n).map(|p| train[p] && inner[p] == j).collect();
        let model = fit_on(data, &fit_rows, 3, presence_label, seed * 10 + j as u64);
        for (i, p) in presence_probs(data, &model, &held).into_iter().enumerate() {
            if p.is_some() {
                probs[i] = p;
            }
        }
    }
    let (thresholds, inner_weighted_accuracy) = choose(data, &probs, &recs_of, &rows);
    let presence = fit_on(data, train, 3, presence_label, seed);
    let timing = fit_on(
        data,
        train,
        Timing::ALL.len(),
        |p, s| heard_at(p, s).then(|| timing_label(p)).flatten(),
        seed + 1,
    );
    let grade = fit_on(
        data,
        train,
        Grade::ALL.len(),
        |p, s| heard_at(p, s).then(|| grade_label(p)).flatten(),
        seed + 2,
    );
    Fitted {
        presence,
        timing,
        grade,
        thresholds,
        inner_weighted_accuracy,
    }
}

/// One patient's out-of-fold call.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Call {
    /// The verdict.
    pub verdict: Verdict,
    /// Its probability.
    pub probability: f64,
    /// The timing class read from the loudest recording (`None` without one).
    pub timing: Option<usize>,
    /// The grade class read from the loudest recording.
    pub grade: Option<usize>,
    /// The outer fold.
    pub fold: usize,
}

/// The out-of-fold calls of the 5-fold CV and each fold's thresholds and inner weighted accuracy.
pub fn cross_validate(data: &Data) -> (Vec<Call>, Vec<(Thresholds, f64)>) {
    cross_validate_on(data, data)
}

/// As [`cross_validate`], the models fitted on `data`'s features and each held-out patient called on
/// `test`'s (the same patients and recordings, read otherwise: their first seconds only).
///
/// # Panics
/// When `test` does not hold `data`'s patients and recordings in the same order.
pub fn cross_validate_on(data: &Data, test_data: &Data) -> (Vec<Call>, Vec<(Thresholds, f64)>) {
    assert_eq!(data.recs.len(), test_data.recs.len(), "the same recordings");
    let n = data.patients.len();
    let all: Vec<usize> = (0..n).collect();
    let outer = folds_of(data, &all, SEED);
    let recs_of = recordings_of(data);
    let folds: Vec<usize> = (0..FOLDS).collect();
    let fitted = par_map(&folds, |&k| {
        let train: Vec<bool> = (0..n).map(|p| outer[p] != k).collect();
        fit_all(data, &train, SEED + 1 + k as u64)
    });
    let mut calls: Vec<Option<Call>> = vec![None; n];
    for (k, f) in fitted.iter().enumerate() {
        let test: Vec<bool> = (0..n).map(|p| outer[p] == k).collect();
        let probs = presence_probs(test_data, &f.presence, &test);
        let decided = decide_all(&probs, &recs_of, &f.thresholds);
        for p in (0..n).filter(|&p| test[p]) {
            let d = decided[p];
            let loud = d
                .loudest
                .and_then(|i| test_data.recs[i].features.as_ref().ok());
            let argmax = |m: &Gbdt, x: &[f64]| {
                let pr = m.predict_proba(x);
                (0..pr.len()).max_by(|&a, &b| pr[a].total_cmp(&pr[b]))
            };
            calls[p] = Some(Call {
                verdict: d.verdict,
                probability: d.probability,
                timing: loud.and_then(|x| argmax(&f.timing, x)),
                grade: loud.and_then(|x| argmax(&f.grade, x)),
                fold: k,
            });
        }
    }
    let calls = calls
        .into_iter()
        .map(|c| c.expect("every patient is in one outer fold"))
        .collect();
    let per_fold = fitted
        .iter()
        .map(|f| (f.thresholds, f.inner_weighted_accuracy))
        .collect();
    (calls, per_fold)
}

/// The committed parameters: the three models and thresholds fitted on every patient (the
/// thresholds from a 5-fold CV of all of them, as in each outer fold), with the CV's headline.
pub fn train(data: &Data) -> (cardio_models::murmur::Params, MurmurReport) {
    use cardio_models::murmur as m;
    let (calls, per_fold) = cross_validate(data);
    let report = report(data, &calls, &per_fold);
    let all = vec![true; data.patients.len()];
    let f = fit_all(data, &all, SEED);
    let params = m::Params {
        model_id: m::MODEL_ID.into(),
        version: m::VERSION.into(),
        training_date: m::TRAINING_DATE.into(),
        trained_on: format!(
            "CirCor DigiScope (PhysioNet Challenge 2022 training set): {} patients, {} recordings{}",
            data.patients.len(),
            data.recs.len(),
            if data.crops.is_empty() {
                String::new()
            } else {
                format!(
                    " and their first {} s",
                    TRAIN_CROPS_S.map(|s| s.to_string()).join(" and ")
                )
            }
        ),
        seed: SEED,
        features: features::feature_names(),
        gbdt_config: config(SEED),
        presence: f.presence,
        timing: f.timing,
        grade: f.grade,
        thresholds: f.thresholds,
        validation: m::Headline {
            cv_weighted_accuracy: report.weighted_accuracy.value,
            cv_weighted_accuracy_ci_low: report.weighted_accuracy.ci_low,
            cv_weighted_accuracy_ci_high: report.weighted_accuracy.ci_high,
            cv_sensitivity: report.murmur_sensitivity.value,
            cv_specificity: report.murmur_specificity.value,
        },
    };
    (params, report)
}

/// `cardio eval murmur`: loads `$CARDIO_DATASETS/circor/training_data`, cross-validates, and
/// scores the heart-sound segmentation the features rest on against the experts' S1 and S2.
///
/// # Errors
/// [`crate::eval::EvalError::MissingDataset`] when the folder does not exist; a read error
/// otherwise.
pub fn evaluate(root: &Path) -> Result<MurmurReport, crate::eval::EvalError> {
    let dir = root.join(super::FOLDER);
    if !dir.is_dir() {
        return Err(crate::eval::EvalError::MissingDataset {
            name: "circor",
            path: dir,
        });
    }
    let data = load(&dir).map_err(|e| crate::eval::EvalError::Content {
        path: dir.clone(),
        reason: e.to_string(),
    })?;
    let (calls, per_fold) = cross_validate(&data);
    let mut out = report(&data, &calls, &per_fold);
    let seg = super::segmentation::evaluate(&dir).map_err(|e| crate::eval::EvalError::Content {
        path: dir.clone(),
        reason: e.to_string(),
    })?;
    out.segmentation = Some(report::Segmentation {
        tolerance_ms: seg.tolerance_ms,
        recordings_scored: seg.scored,
        sounds: seg.all,
    });
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Option<Vec<Patient>> {
        let root = cardio_testkit::datasets(&[super::super::SAMPLE_FOLDER])?;
        Some(read_patients(&root.join(super::super::SAMPLE_FOLDER)).unwrap())
    }

    #[test]
    fn the_weighted_accuracy_counts_unknown_three_and_present_five() {
        let Some(patients) = sample() else { return };
        // Everyone called present: only the 4 present patients are right, 5 each, of
        // 5·4 + 3·2 + 1·4.
        let all: Vec<usize> = (0..patients.len()).collect();
        let present = vec![Verdict::Present; patients.len()];
        assert!((weighted_accuracy(&patients, &present, &all) - 20.0 / 30.0).abs() < 1e-12);
        let right: Vec<Verdict> = patients
            .iter()
            .map(|p| match p.murmur {
                Murmur::Present => Verdict::Present,
                Murmur::Absent => Verdict::Absent,
                Murmur::Unknown => Verdict::Unknown,
            })
            .collect();
        assert_eq!(weighted_accuracy(&patients, &right, &all), 1.0);
        assert!(weighted_accuracy(&patients, &right, &[]).is_nan());
    }

    #[test]
    fn recordings_are_labelled_by_where_the_murmur_is_heard() {
        let Some(patients) = sample() else { return };
        let p = patients.iter().find(|p| p.id == "50781").unwrap();
        assert_eq!(p.murmur, Murmur::Present);
        let labels: Vec<(Site, Option<usize>)> = p
            .recordings
            .iter()
            .map(|r| (r.site, presence_label(p, r.site)))
            .collect();
        for (site, label) in labels {
            let heard = p.locations.contains(&site);
            assert_eq!(label, heard.then_some(Verdict::Present.index()), "{site}");
        }
        for p in patients.iter().filter(|p| p.murmur != Murmur::Present) {
            let want = if p.murmur == Murmur::Absent {
                Verdict::Absent.index()
            } else {
                Verdict::Unknown.index()
            };
            assert_eq!(presence_label(p, Site::Av), Some(want), "{}", p.id);
            assert_eq!((timing_label(p), grade_label(p)), (None, None), "{}", p.id);
        }
        let p = patients.iter().find(|p| p.id == "85133").unwrap();
        assert_eq!(timing_label(p), Some(2), "holosystolic");
        assert_eq!(grade_label(p), Some(2), "III/VI");
    }

    #[test]
    fn the_first_seconds_of_a_recording_are_read_as_a_short_recording() {
        let Some(patients) = sample() else { return };
        let wav = &patients
            .iter()
            .find(|p| p.id == "85133")
            .unwrap()
            .recordings[0]
            .wav;
        let whole = measure(wav).unwrap();
        let first = measure_first(wav, 8.0).unwrap();
        assert_eq!(first.len(), whole.len());
        assert_ne!(first, whole, "eight seconds read, not the whole recording");
        // Three seconds are read (two heart cycles are enough for the murmur model) ...
        let three = measure_first(wav, 3.0).unwrap();
        assert_eq!(three.len(), whole.len());
        assert_ne!(three, first);
        // ... under two, not: with its reason.
        let short = measure_first(wav, 1.5).unwrap_err();
        assert_eq!(short, "Recording too short: 1.5 s; at least 2 s is needed.");
    }
}
