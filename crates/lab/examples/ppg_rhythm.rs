//! Trains or validates the PPG rhythm model (`cards/ppg.md`) without the CLI.
//!
//! `cargo run --release -p cardio-lab --example ppg_rhythm -- cv` prints the patient-grouped CV
//! only; `-- train` writes `params/ppg-rhythm.json` and prints the whole report; `-- bidmc` prints
//! the BIDMC check of the committed model (heart rate, labels, time per prediction); `-- dump`
//! prints, as CSV, every segment's patient, row, label, outer fold and inner fold (inside each
//! outer fold's training patients) with the trees' out-of-fold probabilities at both levels, for
//! the waveform network's training (`training/ppg_rhythm_cnn`); `-- oof` prints, as CSV, every
//! segment's patient, rhythm, the AF threshold of its fold, the blended out-of-fold probabilities of
//! the CV (`p_sinus` .. `p_af`, empty when the gate refused it) and its feature row, to study which
//! calls go wrong and why (the card's search for a rule that spares atrial ectopy reads it).
//! Datasets are read from `$CARDIO_DATASETS`.

use std::path::PathBuf;
use std::process::ExitCode;

use cardio_lab::ppg_rhythm as ppg_lab;
use cardio_models::ppg_rhythm;

fn main() -> ExitCode {
    let Some(root) = std::env::var_os("CARDIO_DATASETS").map(PathBuf::from) else {
        eprintln!("set CARDIO_DATASETS to the folder holding ppg_arrhythmia_liu2022");
        return ExitCode::FAILURE;
    };
    let started = std::time::Instant::now();
    let result = match std::env::args().nth(1).as_deref() {
        Some("cv") => ppg_lab::load_rows(&root).and_then(|rows| {
            eprintln!("features: {:.1} s", started.elapsed().as_secs_f64());
            ppg_lab::validation::validate(&rows).map(|r| r.to_string())
        }),
        Some("train") => ppg_lab::train(&root).and_then(|(params, report)| {
            std::fs::write(ppg_rhythm::PARAMS_PATH, ppg_rhythm::params_json(&params))
                .map_err(|e| ppg_rhythm::PpgRhythmError::Data(e.to_string()))?;
            eprintln!("wrote {}", ppg_rhythm::PARAMS_PATH);
            Ok(report.to_string())
        }),
        Some("dump") => ppg_lab::liu2022::load(&root).and_then(|segments| {
            let rows = ppg_lab::segments::rows(&segments);
            dump(&segments, &rows)
        }),
        Some("oof") => ppg_lab::load_rows(&root).and_then(|rows| out_of_fold(&rows)),
        Some("bidmc") => ppg_rhythm::model()
            .map_err(|e| ppg_rhythm::PpgRhythmError::Params(e.to_string()))
            .and_then(|m| ppg_lab::validation::bidmc(m, &root))
            .map(|b| format!("{b:#?}")),
        _ => {
            eprintln!("usage: ppg_rhythm cv|train|bidmc|dump|oof");
            return ExitCode::FAILURE;
        }
    };
    match result {
        Ok(text) => {
            println!("{text}");
            eprintln!("{:.1} s", started.elapsed().as_secs_f64());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}

/// The CSV of `-- dump` (see the module's doc).
fn dump(
    segments: &[ppg_lab::liu2022::Segment],
    rows: &[ppg_lab::segments::Row],
) -> Result<String, ppg_rhythm::PpgRhythmError> {
    use ppg_lab::validation::{fit, grouped_folds, FOLDS, INNER_FOLDS, SEED};
    use std::fmt::Write as _;
    let refs: Vec<&ppg_lab::segments::Row> = rows.iter().collect();
    let outer = grouped_folds(&refs, FOLDS, SEED);
    let probs = |model: &ppg_rhythm::classifier::RhythmClassifier, x: &Option<Vec<f64>>| {
        x.as_ref().map(|x| model.predict(x).rhythms)
    };
    let mut inner_fold = vec![vec![None::<usize>; FOLDS]; rows.len()];
    let mut inner_p = vec![vec![None; FOLDS]; rows.len()];
    let mut outer_p = vec![None; rows.len()];
    for f in 0..FOLDS {
        let idx: Vec<usize> = (0..rows.len()).filter(|&i| outer[i] != f).collect();
        let train: Vec<&ppg_lab::segments::Row> = idx.iter().map(|&i| &rows[i]).collect();
        let seed = SEED.wrapping_add(f as u64);
        let inner = grouped_folds(&train, INNER_FOLDS, seed);
        for g in 0..INNER_FOLDS {
            let part: Vec<&ppg_lab::segments::Row> = train
                .iter()
                .zip(&inner)
                .filter(|(_, &k)| k != g)
                .map(|(r, _)| *r)
                .collect();
            let model = fit(&part, seed.wrapping_add(100 + g as u64))?;
            for (j, &i) in idx.iter().enumerate() {
                if inner[j] == g {
                    inner_fold[i][f] = Some(g);
                    inner_p[i][f] = probs(&model, &rows[i].features);
                }
            }
        }
        let model = fit(&train, seed)?;
        for i in (0..rows.len()).filter(|&i| outer[i] == f) {
            outer_p[i] = probs(&model, &rows[i].features);
        }
        eprintln!("fold {f} done");
    }
    let cells = |p: &Option<[f64; 6]>| match p {
        Some(p) => p
            .iter()
            .map(|v| format!("{v:.6}"))
            .collect::<Vec<_>>()
            .join(","),
        None => ",,,,,".to_string(),
    };
    let mut out = String::from("patient,row,label,outer");
    for f in 0..FOLDS {
        write!(out, ",inner{f}").ok();
    }
    for k in 0..6 {
        write!(out, ",p{k}").ok();
    }
    for f in 0..FOLDS {
        for k in 0..6 {
            write!(out, ",q{f}_{k}").ok();
        }
    }
    out.push('\n');
    for (i, s) in segments.iter().enumerate() {
        write!(
            out,
            "{},{},{},{}",
            s.patient,
            s.index,
            s.rhythm.index(),
            outer[i]
        )
        .ok();
        for g in &inner_fold[i] {
            match g {
                Some(g) => write!(out, ",{g}").ok(),
                None => write!(out, ",-1").ok(),
            };
        }
        write!(out, ",{}", cells(&outer_p[i])).ok();
        for p in &inner_p[i] {
            write!(out, ",{}", cells(p)).ok();
        }
        out.push('\n');
    }
    Ok(out)
}

/// The CSV of `-- oof` (see the module's doc).
fn out_of_fold(rows: &[ppg_lab::segments::Row]) -> Result<String, ppg_rhythm::PpgRhythmError> {
    use ppg_rhythm::classifier::Rhythm;
    use std::fmt::Write as _;
    let oof = ppg_lab::validation::cross_validate(rows)?;
    let names = ppg_rhythm::window::feature_names();
    let mut out = String::from("patient,rhythm,threshold");
    for r in Rhythm::ALL {
        write!(out, ",p_{}", r.name()).ok();
    }
    for n in &names {
        write!(out, ",{n}").ok();
    }
    out.push('\n');
    for (row, o) in rows.iter().zip(&oof) {
        write!(out, "{},{},{}", row.patient, row.rhythm.name(), o.threshold).ok();
        let probs: Vec<String> = match o.probs {
            Some(p) => p.iter().map(|v| format!("{v:.6}")).collect(),
            None => vec![String::new(); Rhythm::ALL.len()],
        };
        let features: Vec<String> = match &row.features {
            Some(f) => f.iter().map(|v| format!("{v}")).collect(),
            None => vec![String::new(); names.len()],
        };
        for cell in probs.iter().chain(&features) {
            write!(out, ",{cell}").ok();
        }
        out.push('\n');
    }
    Ok(out)
}
