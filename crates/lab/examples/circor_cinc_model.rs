//! Cross-dataset check: the product's committed heart-sound model (`cardio_models::pcg_model`,
//! normal/abnormal, trained on the PhysioNet/CinC Challenge 2016) scored as it ships on the CirCor
//! DigiScope set (PhysioNet Challenge 2022 training set), with a heard murmur counted as abnormal.
//! Nothing is trained or tuned: the model's own label and probability.
//!
//! Per recording: positive when the patient's murmur is Present and the recording's site is one of
//! the patient's murmur locations, negative when the patient's murmur is Absent; the recordings of
//! Unknown patients and those of Present patients at other sites are left out. P(abnormal) is the
//! prediction's `risk_score` (= `details.probability_abnormal`, the blend's score on the decision
//! scale, given for `unsure` results too); the call is the label `abnormal`, and `normal`,
//! `unsure` and refused recordings are "not abnormal". The AUC is over the recordings with a
//! score (refused ones have none).
//!
//! Per patient: abnormal when any of its recordings is labelled `abnormal`; sensitivity over
//! Present patients, specificity over Absent ones, and the Challenge weighted accuracy over all
//! patients with abnormal read as murmur Present and not abnormal as Absent (Unknown never right).
//! 95 % CIs by a bootstrap over children (`circor::group_keys`).
//!
//! ```text
//! CARDIO_DATASETS=... cargo run --release -p cardio-lab --example circor_cinc_model [DIR]
//! ```

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use cardio_lab::circor::{self, Murmur, MurmurTally, Patient};
use cardio_lab::clinical::metrics::auroc;
use cardio_lab::parallel::{par_map, THREADS};
use cardio_lab::resample::{bootstrap_groups, percentile_nearest, SplitMix64};
use cardio_models::pcg_model;
use cardio_models::prediction::PredictError;

const SEED: u64 = 2022;
const BOOTSTRAP_DRAWS: usize = 2000;

/// Which recordings a row of the answers table counts.
type Keep<'a> = Box<dyn Fn(&Rec) -> bool + 'a>;

/// What the model answered for one recording.
enum Answer {
    /// A prediction: its label, `risk_score` and, when `unsure`, its `details.quality_reason`.
    Scored {
        label: String,
        risk: f64,
        unsure_why: Option<String>,
    },
    /// Refused (`PredictError::Unusable`) or unreadable, with why.
    Refused(String),
}

/// One recording: its patient, evaluation label (1 murmur, 0 none, `None` left out) and answer.
struct Rec {
    patient: usize,
    label: Option<usize>,
    answer: Answer,
}

impl Rec {
    fn abnormal(&self) -> bool {
        matches!(&self.answer, Answer::Scored { label, .. } if label == "abnormal")
    }

    fn risk(&self) -> Option<f64> {
        match self.answer {
            Answer::Scored { risk, .. } if risk.is_finite() => Some(risk),
            _ => None,
        }
    }

    fn code(&self) -> &str {
        match &self.answer {
            Answer::Scored { label, .. } => label,
            Answer::Refused(_) => "refused",
        }
    }
}

/// AUC of scores of positives (label 1) against negatives (the lab's Mann-Whitney AUROC, ties
/// one half); NaN without both classes.
fn auc(pairs: &[(f64, usize)]) -> f64 {
    let (scores, y): (Vec<f64>, Vec<bool>) = pairs.iter().map(|&(s, l)| (s, l == 1)).unzip();
    auroc(&scores, &y).unwrap_or(f64::NAN)
}

/// A reason with its numbers as `#`, so that reasons group.
fn without_numbers(why: &str) -> String {
    let mut out = String::new();
    let mut in_number = false;
    for c in why.chars() {
        if c.is_ascii_digit() || (in_number && c == '.') {
            if !in_number {
                out.push('#');
            }
            in_number = true;
        } else {
            in_number = false;
            out.push(c);
        }
    }
    out
}

fn ratio(num: f64, den: f64) -> f64 {
    if den > 0.0 {
        num / den
    } else {
        f64::NAN
    }
}

/// The six figures of a set of patients (with multiplicity): recording AUC, Se, Sp; patient Se,
/// Sp, weighted accuracy.
fn figures(
    patients: &[Patient],
    recs: &[Rec],
    recs_of_pat: &[Vec<usize>],
    pat_abnormal: &[bool],
    rows: &[usize],
) -> [f64; 6] {
    let mut pairs = Vec::new();
    let (mut r_tp, mut r_np, mut r_tn, mut r_nn) = (0.0, 0.0, 0.0, 0.0);
    let mut tally = MurmurTally::default();
    for &p in rows {
        for &i in &recs_of_pat[p] {
            let r = &recs[i];
            match r.label {
                Some(1) => {
                    r_np += 1.0;
                    if r.abnormal() {
                        r_tp += 1.0;
                    }
                }
                Some(_) => {
                    r_nn += 1.0;
                    if !r.abnormal() {
                        r_tn += 1.0;
                    }
                }
                None => continue,
            }
            if let (Some(l), Some(s)) = (r.label, r.risk()) {
                pairs.push((s, l));
            }
        }
        tally.add(patients[p].murmur, pat_abnormal[p]);
    }
    [
        auc(&pairs),
        ratio(r_tp, r_np),
        ratio(r_tn, r_nn),
        tally.sensitivity(),
        tally.specificity(),
        tally.weighted_accuracy(),
    ]
}

fn main() -> ExitCode {
    let start = Instant::now();
    let dir = std::env::args().nth(1).map(PathBuf::from).or_else(|| {
        std::env::var_os("CARDIO_DATASETS").map(|r| PathBuf::from(r).join(circor::FOLDER))
    });
    let Some(dir) = dir else {
        eprintln!("set CARDIO_DATASETS or name the training_data folder");
        return ExitCode::FAILURE;
    };
    let patients = match circor::read_patients(&dir) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let model = match pcg_model::model() {
        Ok(m) => m,
        Err(e) => {
            eprintln!("model: {e}");
            return ExitCode::FAILURE;
        }
    };
    let params = model.params();
    let groups = circor::group_keys(&patients);
    let n_pat = patients.len();

    // The model on every recording.
    let jobs: Vec<(usize, usize)> = patients
        .iter()
        .enumerate()
        .flat_map(|(p, pat)| (0..pat.recordings.len()).map(move |r| (p, r)))
        .collect();
    let t_pred = Instant::now();
    let answers: Vec<Result<Answer, String>> = par_map(&jobs, |&(p, r)| {
        let path = &patients[p].recordings[r].wav;
        let rec = match cardio_formats::read_path(path) {
            Ok(rec) => rec,
            Err(e) => return Ok(Answer::Refused(format!("unreadable: {e}"))),
        };
        match model.predict(&rec) {
            Ok(pred) => Ok(Answer::Scored {
                unsure_why: (pred.label == "unsure").then(|| {
                    pred.details
                        .get("quality_reason")
                        .and_then(|v| v.as_str())
                        .unwrap_or("")
                        .to_string()
                }),
                label: pred.label,
                risk: pred.risk_score,
            }),
            Err(PredictError::Unusable(why)) => Ok(Answer::Refused(why)),
            Err(e) => Err(e.to_string()),
        }
    });
    let pred_s = t_pred.elapsed().as_secs_f64();
    let mut recs = Vec::with_capacity(jobs.len());
    for (&(p, r), answer) in jobs.iter().zip(answers) {
        let answer = match answer {
            Ok(a) => a,
            Err(e) => {
                eprintln!("{}: {e}", patients[p].recordings[r].name);
                return ExitCode::FAILURE;
            }
        };
        let pat = &patients[p];
        let label = match pat.murmur {
            Murmur::Present if pat.locations.contains(&pat.recordings[r].site) => Some(1),
            Murmur::Absent => Some(0),
            _ => None,
        };
        recs.push(Rec {
            patient: p,
            label,
            answer,
        });
    }
    let mut recs_of_pat: Vec<Vec<usize>> = vec![Vec::new(); n_pat];
    for (i, r) in recs.iter().enumerate() {
        recs_of_pat[r.patient].push(i);
    }
    let pat_abnormal: Vec<bool> = (0..n_pat)
        .map(|p| recs_of_pat[p].iter().any(|&i| recs[i].abnormal()))
        .collect();

    // Bootstrap over children.
    let mut children: Vec<&str> = groups.iter().map(String::as_str).collect();
    children.sort_unstable();
    children.dedup();
    let pats_of: Vec<Vec<usize>> = children
        .iter()
        .map(|c| (0..n_pat).filter(|&p| groups[p] == *c).collect())
        .collect();
    let all: Vec<usize> = (0..n_pat).collect();
    let point = figures(&patients, &recs, &recs_of_pat, &pat_abnormal, &all);
    let t_boot = Instant::now();
    let boots = bootstrap_groups(
        &pats_of,
        BOOTSTRAP_DRAWS,
        &mut SplitMix64::new(SEED),
        |rows| figures(&patients, &recs, &recs_of_pat, &pat_abnormal, rows).to_vec(),
    );
    let boot_s = t_boot.elapsed().as_secs_f64();

    // Counts.
    let count = |m: Murmur| patients.iter().filter(|p| p.murmur == m).count();
    let (n_present, n_absent, n_unknown) = (
        count(Murmur::Present),
        count(Murmur::Absent),
        count(Murmur::Unknown),
    );
    let codes = ["abnormal", "normal", "unsure", "refused"];
    let tally = |keep: &dyn Fn(&Rec) -> bool| -> Vec<usize> {
        codes
            .iter()
            .map(|c| recs.iter().filter(|r| keep(r) && r.code() == *c).count())
            .collect()
    };
    let mut refusals: BTreeMap<&str, usize> = BTreeMap::new();
    let mut unsure_whys: BTreeMap<String, usize> = BTreeMap::new();
    for r in &recs {
        match &r.answer {
            Answer::Refused(why) => *refusals.entry(why.as_str()).or_default() += 1,
            Answer::Scored {
                unsure_why: Some(why),
                ..
            } => *unsure_whys.entry(without_numbers(why)).or_default() += 1,
            Answer::Scored { .. } => {}
        }
    }
    // For context: the labelled recordings the model judged (normal or abnormal).
    let judged: Vec<&Rec> = recs
        .iter()
        .filter(|r| r.label.is_some() && matches!(r.code(), "normal" | "abnormal"))
        .collect();
    let judged_pairs: Vec<(f64, usize)> = judged
        .iter()
        .filter_map(|r| Some((r.risk()?, r.label?)))
        .collect();
    let unsure_pairs: Vec<(f64, usize)> = recs
        .iter()
        .filter(|r| r.code() == "unsure")
        .filter_map(|r| Some((r.risk()?, r.label?)))
        .collect();
    let judged_pos = judged.iter().filter(|r| r.label == Some(1)).count();
    let judged_neg = judged.len() - judged_pos;
    let judged_tp = judged
        .iter()
        .filter(|r| r.label == Some(1) && r.abnormal())
        .count();
    let judged_tn = judged
        .iter()
        .filter(|r| r.label == Some(0) && !r.abnormal())
        .count();
    let n_pos = recs.iter().filter(|r| r.label == Some(1)).count();
    let n_neg = recs.iter().filter(|r| r.label == Some(0)).count();
    let n_auc = recs
        .iter()
        .filter(|r| r.label.is_some() && r.risk().is_some())
        .count();
    let n_other_site = recs
        .iter()
        .filter(|r| r.label.is_none() && patients[r.patient].murmur == Murmur::Present)
        .count();
    let n_unk_recs = recs
        .iter()
        .filter(|r| patients[r.patient].murmur == Murmur::Unknown)
        .count();
    let pat_count = |m: Murmur, abn: bool| {
        (0..n_pat)
            .filter(|&p| patients[p].murmur == m && pat_abnormal[p] == abn)
            .count()
    };
    // Patient-level AUC of the highest recording risk (Present vs Absent), for context.
    let pat_pairs: Vec<(f64, usize)> = (0..n_pat)
        .filter_map(|p| {
            let l = match patients[p].murmur {
                Murmur::Present => 1,
                Murmur::Absent => 0,
                Murmur::Unknown => return None,
            };
            recs_of_pat[p]
                .iter()
                .filter_map(|&i| recs[i].risk())
                .reduce(f64::max)
                .map(|s| (s, l))
        })
        .collect();

    println!(
        "Heart-sound model (CinC 2016) on CirCor DigiScope (PhysioNet Challenge 2022 training set)"
    );
    println!("data: {}", dir.display());
    println!(
        "model: {} {} (trained on {}), decision threshold {:.4} on the blend score; label \
         `abnormal` iff risk_score >= 0.5 and not gated",
        params.model_id, params.version, params.trained_on, params.threshold
    );
    println!(
        "patients: {n_pat} (Present {n_present}, Absent {n_absent}, Unknown {n_unknown}); children: {}; recordings: {}",
        children.len(),
        recs.len()
    );
    println!(
        "recording set: {n_pos} positive (Present patient, site in murmur locations), {n_neg} \
         negative (Absent patient); left out: {n_other_site} Present-patient recordings at other \
         sites, {n_unk_recs} Unknown-patient recordings"
    );
    println!();
    println!("model answers per recording    abnormal  normal  unsure  refused");
    let rows: [(&str, Keep); 5] = [
        (
            "positive (murmur site)",
            Box::new(|r: &Rec| r.label == Some(1)),
        ),
        (
            "negative (Absent pts)",
            Box::new(|r: &Rec| r.label == Some(0)),
        ),
        (
            "Present pts, other sites",
            Box::new(|r: &Rec| r.label.is_none() && patients[r.patient].murmur == Murmur::Present),
        ),
        (
            "Unknown pts",
            Box::new(|r: &Rec| patients[r.patient].murmur == Murmur::Unknown),
        ),
        ("all", Box::new(|_: &Rec| true)),
    ];
    for (name, keep) in &rows {
        let t = tally(keep.as_ref());
        println!(
            "  {name:<28} {:>8}  {:>6}  {:>6}  {:>7}",
            t[0], t[1], t[2], t[3]
        );
    }
    for (why, n) in &refusals {
        println!("  refused ({n}): {why}");
    }
    for (why, n) in unsure_whys.iter().rev().collect::<Vec<_>>() {
        println!("  unsure ({n}): {why}");
    }
    println!(
        "unsure (the model's \"too noisy to judge\") and refused recordings count as not abnormal."
    );
    println!();
    println!(
        "metric                                        value    95% CI (bootstrap over children, {BOOTSTRAP_DRAWS} draws, seed {SEED})"
    );
    let names = [
        format!("recording AUC of risk_score ({n_auc} scored)"),
        format!("recording Se, label abnormal ({n_pos} pos)"),
        format!("recording Sp, label not abnormal ({n_neg} neg)"),
        format!("patient Se, any rec abnormal ({n_present} Present)"),
        format!("patient Sp, no rec abnormal ({n_absent} Absent)"),
        format!("Challenge weighted accuracy (all {n_pat})"),
    ];
    for ((name, v), b) in names.iter().zip(point).zip(&boots) {
        println!(
            "{name:<44}  {v:.3}    {:.3} - {:.3}",
            percentile_nearest(b, 0.025),
            percentile_nearest(b, 0.975)
        );
    }
    println!(
        "{:<44}  {:.3}    (no CI; {} patients with a score)",
        "patient AUC of max recording risk_score",
        auc(&pat_pairs),
        pat_pairs.len()
    );
    println!(
        "for context, no CI: judged recordings only ({} pos, {} neg): AUC {:.3}, Se {:.3}, Sp {:.3}; \
         unsure recordings only: AUC {:.3} ({} scored)",
        judged_pos,
        judged_neg,
        auc(&judged_pairs),
        ratio(judged_tp as f64, judged_pos as f64),
        ratio(judged_tn as f64, judged_neg as f64),
        auc(&unsure_pairs),
        unsure_pairs.len()
    );
    println!();
    println!(
        "patients: Present {}/{n_present} called abnormal, Absent {}/{n_absent} called not \
         abnormal; Unknown {n_unknown} left out of Se/Sp, never right in the weighted accuracy \
         ({} of them called abnormal)",
        pat_count(Murmur::Present, true),
        pat_count(Murmur::Absent, false),
        pat_count(Murmur::Unknown, true),
    );
    println!(
        "run time: {:.1} s total (model on {} recordings {pred_s:.1} s, bootstrap {boot_s:.1} s; {THREADS} threads)",
        start.elapsed().as_secs_f64(),
        recs.len()
    );
    ExitCode::SUCCESS
}
