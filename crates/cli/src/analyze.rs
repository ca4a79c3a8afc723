//! `cardio analyze FILE`: read a recording with `cardio-formats`, analyse one channel with
//! `cardio-models::analysis`, print the result as JSON on stdout. Errors go to stderr, exit code 2.

use std::path::PathBuf;

use anyhow::Context;
use cardio_formats::{FormatError, ReadOptions};
use cardio_models::analysis::{self, AnalyzeOptions, ChannelChoice, Kind, Powerline};
use clap::Args;

/// Flags of `cardio analyze`.
#[derive(Args)]
pub struct AnalyzeArgs {
    /// The recording (a WFDB record is given by its .hea file).
    pub file: PathBuf,
    /// ecg, ppg or pcg; inferred from the file when absent (audio is pcg).
    #[arg(long)]
    pub kind: Option<Kind>,
    /// Channel by zero-based index or by name (names are trimmed).
    #[arg(long)]
    pub channel: Option<ChannelChoice>,
    /// Sampling rate for files that do not say (a single column of numbers).
    #[arg(long)]
    pub sampling_rate: Option<f64>,
    /// Mains frequency notched out of ECG: 50, 60 or 0 for none.
    #[arg(long, default_value_t = 50)]
    pub mains: u32,
    /// PPG: the accelerometer channels recorded with the pulse, by index or name, comma-separated
    /// (e.g. `3,4,5` or `acc_x,acc_y,acc_z`); channels named like `acc_x`, `accX` or `ax` are
    /// found without it. With them the heart rate is motion-compensated.
    #[arg(long, value_delimiter = ',')]
    pub accel: Option<Vec<ChannelChoice>>,
    /// Heart-rate series window, seconds (with --hr-step).
    #[arg(long, requires = "hr_step")]
    pub hr_window: Option<f64>,
    /// Heart-rate series step, seconds.
    #[arg(long, requires = "hr_window")]
    pub hr_step: Option<f64>,
}

/// Runs the command.
pub fn run(args: &AnalyzeArgs) -> anyhow::Result<()> {
    let powerline = match args.mains {
        50 => Powerline::Hz50,
        60 => Powerline::Hz60,
        0 => Powerline::None,
        other => anyhow::bail!("--mains must be 50, 60 or 0, got {other}"),
    };
    if let Some(rate) = args.sampling_rate {
        anyhow::ensure!(
            rate.is_finite() && rate > 0.0,
            "--sampling-rate must be a number above zero"
        );
    }
    let hr_window = match (args.hr_window, args.hr_step) {
        (Some(w), Some(s)) => {
            anyhow::ensure!(
                w > 0.0 && s > 0.0,
                "--hr-window and --hr-step must be above zero"
            );
            Some((w, s))
        }
        _ => None,
    };
    let options = ReadOptions {
        sampling_rate_hz: args.sampling_rate,
    };
    let recording = crate::inputs::Input::Local(args.file.clone())
        .read(&options)
        .map_err(|err| {
            // A file that cannot be opened is named by the reader's own message already.
            if matches!(err.downcast_ref(), Some(FormatError::Io { .. })) {
                err
            } else {
                err.context(format!("cannot read {}", args.file.display()))
            }
        })?;
    let result = analysis::analyze(
        &recording,
        &AnalyzeOptions {
            kind: args.kind,
            channel: args.channel.clone(),
            powerline: Some(powerline),
            hr_window,
            accel: args.accel.clone(),
        },
    )
    .with_context(|| format!("cannot analyse {}", args.file.display()))?;
    println!("{}", serde_json::to_string_pretty(&result)?);
    Ok(())
}
