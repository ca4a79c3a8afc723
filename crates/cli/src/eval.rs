//! `cardio eval signal`: the validation of the signal core on the public datasets
//! (`cardio_lab::eval`), printed as tables or, with `--json`, as one JSON object.
//! `cardio eval clinical` (in `crate::clinical`) prints the clinical model's validation table.
//! `cardio eval holter` scores the whole-record reading of long ECGs on MIT-BIH (`cardio_lab::eval::holter`).
//! `cardio eval murmur` cross-validates the murmur model on CirCor (`cardio_lab::circor::murmur`).
//!
//! A dataset that is not unpacked prints a skip line and the other parts still run; an error inside
//! a dataset is reported and makes the command exit with status 1 after the other parts ran.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use cardio_lab::eval::{delineation, neurokit, pcg, ppg_hr, qrs, EvalError};
use clap::{Args, Subcommand, ValueEnum};

use crate::datasets::default_root;

/// Flags of `cardio eval`.
#[derive(Args)]
pub struct EvalArgs {
    #[command(subcommand)]
    command: EvalCommand,
}

#[derive(Subcommand)]
enum EvalCommand {
    /// QRS on MIT-BIH, PPG heart rate on BIDMC and IEEE SPC 2015, PCG sanity on CinC 2016.
    Signal(SignalArgs),
    /// The clinical model's validation on UCI Heart Disease (its model card's table).
    Clinical(crate::clinical::EvalClinicalArgs),
    /// The ECG rhythm model's validation on CinC 2017 (its model card's table).
    Ecg(crate::signal_models::EvalSignalArgs),
    /// The heart-sound model's validation on CinC 2016 (its model card's table).
    Pcg(crate::signal_models::EvalSignalArgs),
    /// The PPG rhythm model's validation (its model card's table).
    Ppg(crate::signal_models::EvalSignalArgs),
    /// The plausibility gates' cross-validated false-rejection and false-acceptance rates.
    Gate(crate::gate::GateArgs),
    /// Wave delineation (P, QRS, T) of every lead of LUDB against its annotations.
    Delineation(DelineationArgs),
    /// The 12-lead interpretation on LUDB's diagnoses and the devices' own figures.
    Ecg12(DelineationArgs),
    /// Long records read whole: AF episodes and burden on MIT-BIH against its rhythm annotations.
    Holter(DelineationArgs),
    /// The murmur model's 5-fold CV on CirCor (grouped by child), with 95 % CIs.
    Murmur(DelineationArgs),
}

/// Flags of `cardio eval delineation`.
#[derive(Args)]
struct DelineationArgs {
    /// Folder of the unpacked datasets [default: $CARDIO_DATASETS, else ~/.cache/cardio-datasets].
    #[arg(long)]
    datasets: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
}

/// How a report is printed.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    /// Tables.
    Text,
    /// One JSON object.
    Json,
}

/// Flags of `cardio eval signal`.
#[derive(Args)]
struct SignalArgs {
    /// Folder of the unpacked datasets [default: $CARDIO_DATASETS, else ~/.cache/cardio-datasets].
    #[arg(long)]
    datasets: Option<PathBuf>,
    /// Run only these parts (comma-separated).
    #[arg(long, value_enum, value_delimiter = ',')]
    only: Vec<Part>,
    /// Print one JSON object instead of tables.
    #[arg(long)]
    json: bool,
}

/// One part of the signal validation.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Part {
    /// QRS detection on MIT-BIH (`mitdb`).
    Mitdb,
    /// PPG heart rate on BIDMC (`bidmc`).
    Bidmc,
    /// PPG heart rate during running on IEEE SPC 2015 (`ieee_spc2015`).
    Ieee,
    /// PCG segmentation sanity on CinC 2016 (`cinc2016`).
    Pcg,
}

impl Part {
    const ALL: [Self; 4] = [Self::Mitdb, Self::Bidmc, Self::Ieee, Self::Pcg];

    fn key(self) -> &'static str {
        match self {
            Self::Mitdb => "mitdb",
            Self::Bidmc => "bidmc",
            Self::Ieee => "ieee_spc2015",
            Self::Pcg => "cinc2016",
        }
    }
}

/// Runs the command; `Ok(false)` when some part failed (the others still ran and printed).
pub fn run(args: &EvalArgs) -> anyhow::Result<bool> {
    match &args.command {
        EvalCommand::Signal(args) => run_signal(args),
        EvalCommand::Clinical(args) => crate::clinical::eval(args),
        EvalCommand::Ecg(args) => {
            crate::signal_models::eval(crate::signal_models::SignalModel::Ecg, args)
        }
        EvalCommand::Pcg(args) => {
            crate::signal_models::eval(crate::signal_models::SignalModel::Pcg, args)
        }
        EvalCommand::Ppg(args) => {
            crate::signal_models::eval(crate::signal_models::SignalModel::Ppg, args)
        }
        EvalCommand::Gate(args) => crate::gate::eval(args),
        EvalCommand::Delineation(args) => run_delineation(args),
        EvalCommand::Ecg12(args) => run_ecg12(args),
        EvalCommand::Holter(args) => run_on(
            args,
            cardio_lab::eval::holter::DATASET,
            "holter",
            cardio_lab::eval::holter::evaluate,
            cardio_lab::eval::holter::table,
        ),
        EvalCommand::Murmur(args) => run_on(
            args,
            "circor",
            "murmur",
            cardio_lab::circor::murmur::evaluate,
            cardio_lab::circor::murmur::table,
        ),
    }
}

fn run_ecg12(args: &DelineationArgs) -> anyhow::Result<bool> {
    run_on_ludb(
        args,
        "ecg12",
        cardio_lab::ecg12::evaluate,
        cardio_lab::ecg12::table,
    )
}

fn run_delineation(args: &DelineationArgs) -> anyhow::Result<bool> {
    run_on_ludb(args, "ludb", delineation::evaluate, delineation_table)
}

/// Runs an evaluation of LUDB (skipped, with the reason, when the dataset is absent) and prints
/// its table, or its report under `key` as JSON.
fn run_on_ludb<R: serde::Serialize>(
    args: &DelineationArgs,
    key: &str,
    evaluate: impl FnOnce(&Path) -> Result<R, EvalError>,
    table: impl FnOnce(&R) -> String,
) -> anyhow::Result<bool> {
    run_on(args, "ludb", key, evaluate, table)
}

/// Runs an evaluation of `dataset` (skipped, with the reason, when it is absent) and prints its
/// table, or its report under `key` as JSON.
fn run_on<R: serde::Serialize>(
    args: &DelineationArgs,
    dataset: &str,
    key: &str,
    evaluate: impl FnOnce(&Path) -> Result<R, EvalError>,
    table: impl FnOnce(&R) -> String,
) -> anyhow::Result<bool> {
    let root = args.datasets.clone().unwrap_or_else(default_root);
    let t = Instant::now();
    let report = match evaluate(&root) {
        Ok(r) => r,
        Err(err @ EvalError::MissingDataset { .. }) => {
            println!("{dataset}: skipped: {err}");
            return Ok(true);
        }
        Err(err) => return Err(err.into()),
    };
    let seconds = t.elapsed().as_secs_f64();
    if args.format == Format::Json {
        let mut json = serde_json::json!({
            "datasets": root.display().to_string(),
            "seconds": seconds,
        });
        json[key] = serde_json::to_value(&report)?;
        println!("{}", serde_json::to_string_pretty(&json)?);
    } else {
        println!("{}({seconds:.1} s)", table(&report));
    }
    Ok(true)
}

fn run_signal(args: &SignalArgs) -> anyhow::Result<bool> {
    let root = args.datasets.clone().unwrap_or_else(default_root);
    let parts: Vec<Part> = if args.only.is_empty() {
        Part::ALL.to_vec()
    } else {
        Part::ALL
            .into_iter()
            .filter(|p| args.only.contains(p))
            .collect()
    };
    let started = Instant::now();
    let mut ok = true;
    let mut json = serde_json::Map::new();
    json.insert("datasets".into(), root.display().to_string().into());
    if !args.json {
        println!("cardio eval signal: datasets in {}", root.display());
    }
    for part in parts {
        let t = Instant::now();
        let outcome = run_part(part, &root);
        let seconds = t.elapsed().as_secs_f64();
        let value = match outcome {
            Ok((table, value)) => {
                if !args.json {
                    println!("\n{table}({seconds:.1} s)");
                }
                serde_json::json!({ "seconds": seconds, "report": value })
            }
            Err(err @ EvalError::MissingDataset { .. }) => {
                if !args.json {
                    println!("\n{}: skipped: {err}", part.key());
                }
                serde_json::json!({ "skipped": err.to_string() })
            }
            Err(err) => {
                ok = false;
                eprintln!("cardio eval signal: {}: {err}", part.key());
                serde_json::json!({ "error": err.to_string() })
            }
        };
        json.insert(part.key().into(), value);
    }
    let total = started.elapsed().as_secs_f64();
    if args.json {
        json.insert("seconds".into(), total.into());
        println!("{}", serde_json::to_string_pretty(&json)?);
    } else {
        println!("\ntotal {total:.1} s");
    }
    Ok(ok)
}

fn run_part(part: Part, root: &Path) -> Result<(String, serde_json::Value), EvalError> {
    let to_json = |v: serde_json::Result<serde_json::Value>| v.unwrap_or_default();
    Ok(match part {
        Part::Mitdb => {
            let r = qrs::evaluate(root)?;
            (qrs_table(&r), to_json(serde_json::to_value(&r)))
        }
        Part::Bidmc => {
            let r = ppg_hr::evaluate_bidmc(root)?;
            (bidmc_table(&r), to_json(serde_json::to_value(&r)))
        }
        Part::Ieee => {
            let r = ppg_hr::evaluate_ieee(root)?;
            (ieee_table(&r), to_json(serde_json::to_value(&r)))
        }
        Part::Pcg => {
            let r = pcg::evaluate(root)?;
            (pcg_table(&r), to_json(serde_json::to_value(&r)))
        }
    })
}

/// A number with `decimals`, or `-` when absent.
fn num(v: Option<f64>, decimals: usize) -> String {
    v.map_or_else(|| "-".into(), |v| format!("{v:.decimals$}"))
}

fn qrs_table(r: &qrs::QrsReport) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "QRS detection, MIT-BIH Arrhythmia (channel 0, {} ms tolerance; p = paced)",
        (qrs::TOLERANCE_S * 1000.0).round()
    );
    let _ = writeln!(
        s,
        "record   beats      TP    FN    FP  inVF      Se%     +P%"
    );
    for row in &r.rows {
        let _ = writeln!(
            s,
            "{:<6}  {:6}  {:6} {:5} {:5} {:5} {:>8} {:>7}",
            format!("{}{}", row.record, if row.paced { "p" } else { "" }),
            row.beats,
            row.counts.tp,
            row.counts.fn_,
            row.counts.fp,
            row.in_vf,
            num(row.se_pct, 3),
            num(row.ppv_pct, 3),
        );
    }
    for (label, g) in [("non-paced", &r.non_paced), ("paced", &r.paced)] {
        let _ = writeln!(
            s,
            "{label:<9} ({:2} records) TP {} FN {} FP {}: Se {}%  +P {}%  (+P counting the {} detections in VF episodes: {}%)",
            g.records,
            g.counts.tp,
            g.counts.fn_,
            g.counts.fp,
            num(g.se_pct, 3),
            num(g.ppv_pct, 3),
            g.in_vf,
            num(g.ppv_with_vf_pct, 3),
        );
    }
    for (label, d) in [("N", &r.normal_beats), ("V", &r.ventricular_beats)] {
        let _ = writeln!(
            s,
            "{label} beats: {} matched, median QRS width {} ms (IQR {}-{}), P wave found in {}%",
            d.beats,
            num(d.qrs_median_ms, 0),
            num(d.qrs_q1_ms, 0),
            num(d.qrs_q3_ms, 0),
            num(d.p_wave_pct, 1),
        );
    }
    let _ = writeln!(s, "{:.0} min of signal", r.minutes);
    s
}

/// A figure with its CI, `v [lo, hi]`.
fn with_ci(e: &delineation::Estimate, decimals: usize) -> String {
    format!(
        "{} [{}, {}]",
        num(e.value, decimals),
        num(e.lo, decimals),
        num(e.hi, decimals)
    )
}

fn delineation_table(r: &delineation::DelineationReport) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Wave delineation, LUDB ({} records, {} leads each scored against its own annotations, {} ms tolerance, inside the annotated spans; 95 % bootstrap CIs over records)",
        r.records,
        r.leads,
        (delineation::TOLERANCE_S * 1000.0).round()
    );
    let _ = writeln!(
        s,
        "{:<9} {:>6} {:>5} {:>5}  {:<24} {:<24} {:<20} {:<18}  {:<10} {:<8} {:<8}",
        "boundary", "TP", "FN", "FP", "Se %", "PPV %", "mean ms", "SD ms", "Se/PPV", "|mean|", "SD"
    );
    let _ = writeln!(s, "cardio WaveDelineator (this build):");
    kind_rows(&mut s, &r.kinds);
    let _ = writeln!(
        s,
        "targets: Se, PPV >= 99 % (QRS) / 97 % (P, T off); |mean| <= {} ms; SD within the CSE tolerances",
        delineation::MAX_ABS_MEAN_MS
    );
    match &r.reference {
        neurokit::Reference::Measured(nk) => {
            let _ = writeln!(
                s,
                "{}: leads {} of {} records ({} leads scored, {} on which it raised an error and found nothing), the same matcher and statistics:",
                nk.label,
                nk.leads_run.join(" "),
                nk.records,
                nk.leads,
                nk.failed_leads
            );
            kind_rows(&mut s, &nk.kinds);
        }
        neurokit::Reference::NotMeasured { reason, install } => {
            let _ = writeln!(
                s,
                "# NeuroKit2 reference row not measured: {reason}; `{install}` installs it, then run again"
            );
        }
    }
    let sp = &r.speed;
    let ms =
        |m: Option<f64>, p: Option<f64>| format!("median {} ms, p95 {} ms", num(m, 2), num(p, 2));
    let _ = writeln!(
        s,
        "speed ({} records of 10 s, 12 leads at 500 Hz; this build, one thread, the best of {} runs of each record):",
        sp.records,
        delineation::TIMING_REPEATS
    );
    let _ = writeln!(
        s,
        "  cardio 12-lead reading (ecg12::analyze: delineation, median beats, measurements, statements): {} (target <= {} ms: {})",
        ms(sp.analyze_median_ms, sp.analyze_p95_ms),
        delineation::SPEED_TARGET_MS,
        match sp.target_met {
            Some(true) => "met",
            Some(false) => "NOT met",
            None => "-",
        }
    );
    let _ = writeln!(
        s,
        "  cardio delineation alone (WaveDelineator::delineate, 12 leads): {}",
        ms(sp.delineate_median_ms, sp.delineate_p95_ms)
    );
    if let neurokit::Reference::Measured(nk) = &r.reference {
        let t = &nk.timing;
        let _ = writeln!(
            s,
            "  NeuroKit2 {}, ONE lead ({}, {} records): ecg_clean + ecg_peaks + ecg_delineate {}; ecg_delineate alone {}",
            nk.version,
            t.lead.to_uppercase(),
            t.records,
            ms(t.total_median_ms, t.total_p95_ms),
            ms(t.delineate_median_ms, t.delineate_p95_ms)
        );
        let _ = writeln!(
            s,
            "  ratio of medians: NeuroKit2 on one lead / our full 12-lead reading {}x; its ecg_delineate of one lead / our delineation of 12 {}x",
            num(t.ratio_to_our_reading, 1),
            num(t.ratio_to_our_delineation, 1)
        );
    }
    s
}

/// One line per boundary kind: counts, figures with CIs, and the targets met or not.
fn kind_rows(s: &mut String, kinds: &[delineation::KindRow]) {
    let mark = |m: Option<bool>| match m {
        Some(true) => "met",
        Some(false) => "NOT met",
        None => "-",
    };
    for k in kinds {
        let target = k.kind.targets();
        let _ = writeln!(
            s,
            "{:<9} {:>6} {:>5} {:>5}  {:<24} {:<24} {:<20} {:<18}  {:<10} {:<8} {:<8}",
            k.kind.label(),
            k.counts.tp,
            k.counts.fn_,
            k.counts.fp,
            with_ci(&k.se_pct, 2),
            with_ci(&k.ppv_pct, 2),
            with_ci(&k.mean_ms, 1),
            with_ci(&k.sd_ms, 1),
            target.map_or_else(
                || "-".into(),
                |(m, _)| format!(">={m:.0} {}", mark(k.detection_met))
            ),
            mark(k.mean_met),
            target.map_or_else(
                || "-".into(),
                |(_, sd)| format!("<={sd} {}", mark(k.sd_met))
            ),
        );
    }
}

fn bidmc_table(r: &ppg_hr::BidmcReport) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "PPG heart rate, BIDMC (PLETH vs monitor PULSE, {} s windows every {} s)",
        ppg_hr::WINDOW_S,
        ppg_hr::STEP_S
    );
    let _ = writeln!(s, "record   windows  empty  MAE(bpm)");
    for row in &r.rows {
        let _ = writeln!(
            s,
            "{:<8} {:7} {:6} {:>9}",
            row.record,
            row.windows,
            row.empty,
            num(row.mae_bpm, 3)
        );
    }
    let _ = writeln!(
        s,
        "all: {} windows, {} empty ({}% coverage); MAE {} bpm (mean of record MAEs {} bpm)",
        r.windows,
        r.empty,
        num(r.coverage_pct, 2),
        num(r.mae_bpm, 3),
        num(r.mean_record_mae_bpm, 3),
    );
    s
}

fn ieee_table(r: &ppg_hr::IeeeReport) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "PPG heart rate while running, IEEE SPC 2015 training set (vs BPM0, {} s windows every {} s)",
        ppg_hr::WINDOW_S,
        ppg_hr::STEP_S
    );
    let _ = writeln!(
        s,
        "recording       windows  PPG1 MAE empty  PPG2 MAE empty  combined MAE  motion LORO MAE  settings (weight, cost per bpm, step)"
    );
    for row in &r.rows {
        let _ = writeln!(
            s,
            "{:<15} {:7} {:>9} {:5} {:>9} {:5} {:>13} {:>16}  {}, {}, {}",
            row.recording,
            row.windows,
            num(row.ppg1_mae_bpm, 2),
            row.ppg1_empty,
            num(row.ppg2_mae_bpm, 2),
            row.ppg2_empty,
            num(row.combined_mae_bpm, 2),
            num(row.motion_loro_mae_bpm, 2),
            row.motion_settings.0,
            row.motion_settings.1,
            row.motion_settings.2,
        );
    }
    let _ = writeln!(
        s,
        "PPG1: MAE {} bpm over its windows with a rate ({}% coverage); PPG2: MAE {} bpm ({}% coverage)",
        num(r.ppg1_mae_bpm, 2),
        num(r.ppg1_coverage_pct, 1),
        num(r.ppg2_mae_bpm, 2),
        num(r.ppg2_coverage_pct, 1),
    );
    let _ = writeln!(
        s,
        "combined (mean of the channels with a rate, else the last estimate): MAE {} bpm over {} windows ({}% coverage), mean of recording MAEs {} bpm (anchor: TROIKA 2.34 bpm)",
        num(r.combined_mae_bpm, 2),
        r.windows,
        num(r.combined_coverage_pct, 1),
        num(r.combined_mean_recording_mae_bpm, 2),
    );
    let _ = writeln!(
        s,
        "motion-compensated tracker with the accelerometer (cardio_signal::motion), leave one recording out (settings chosen on the other eleven): MAE {} bpm over {} windows, mean of recording MAEs {} bpm (anchors: TROIKA 2.34, WFPV 2.28, JOSS 1.28); default settings on all twelve (not held out): {} bpm",
        num(r.motion_loro_mae_bpm, 2),
        r.windows,
        num(r.motion_loro_mean_recording_mae_bpm, 2),
        num(r.motion_default_mae_bpm, 2),
    );
    for row in &r.external {
        let _ = writeln!(
            s,
            "outside check, {} (Extra_TrainingData, never tuned on; settings chosen on the twelve): MAE {} bpm over {} windows, worst window {} bpm, {} windows more than 10 bpm off",
            row.recording,
            num(row.motion_mae_bpm, 2),
            row.windows,
            num(row.motion_worst_window_bpm, 1),
            row.motion_windows_over_10_bpm,
        );
    }
    s
}

fn pcg_table(r: &pcg::PcgReport) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "PCG sanity, PhysioNet/CinC 2016 (S1-based rate vs envelope autocorrelation, agreement within {:.0}%)",
        pcg::AGREEMENT * 100.0
    );
    let _ = writeln!(
        s,
        "site        recordings failed  usable  usable%  agree/compared  agree%  MAE(bpm)  median|d|"
    );
    for g in r.sites.iter().chain(std::iter::once(&r.all)) {
        let _ = writeln!(
            s,
            "{:<11} {:10} {:6} {:7} {:>8} {:>15} {:>7} {:>9} {:>10}",
            g.site,
            g.recordings,
            g.failed,
            g.usable,
            num(g.usable_pct, 1),
            format!("{}/{}", g.agree, g.compared),
            num(g.agree_pct, 1),
            num(g.mae_bpm, 2),
            num(g.median_abs_diff_bpm, 2),
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_print_with_fixed_decimals_or_a_dash() {
        assert_eq!(num(Some(99.8766), 3), "99.877");
        assert_eq!(num(None, 3), "-");
    }

    #[test]
    fn a_missing_dataset_is_skipped_not_an_error() {
        let root = PathBuf::from("/nonexistent/cardio-datasets");
        for part in Part::ALL {
            let err = run_part(part, &root).unwrap_err();
            assert!(
                matches!(err, EvalError::MissingDataset { .. }),
                "{}: {err}",
                part.key()
            );
        }
    }

    #[test]
    fn the_mitdb_table_shows_both_groups_and_vf_ppv() {
        let report = qrs::QrsReport::default();
        let table = qrs_table(&report);
        assert!(table.contains("non-paced"), "{table}");
        assert!(table.contains("paced"), "{table}");
        assert!(table.contains("VF episodes"), "{table}");
    }

    #[test]
    fn the_delineation_table_marks_targets_and_says_when_neurokit2_was_not_measured() {
        let table = delineation_table(&delineation::DelineationReport::default());
        assert!(table.contains("CSE tolerances"), "{table}");
        assert!(
            table.contains("NeuroKit2 reference row not measured"),
            "{table}"
        );
        assert!(table.contains(neurokit::INSTALL), "{table}");
        assert!(table.contains("12-lead reading"), "{table}");
        let args = EvalArgs {
            command: EvalCommand::Delineation(DelineationArgs {
                datasets: Some(PathBuf::from("/nonexistent/cardio-datasets")),
                format: Format::Json,
            }),
        };
        assert!(run(&args).unwrap());
    }

    #[test]
    fn run_skips_every_part_of_an_empty_folder_and_succeeds() {
        let args = EvalArgs {
            command: EvalCommand::Signal(SignalArgs {
                datasets: Some(PathBuf::from("/nonexistent/cardio-datasets")),
                only: vec![Part::Mitdb, Part::Pcg],
                json: true,
            }),
        };
        assert!(run(&args).unwrap());
    }
}
