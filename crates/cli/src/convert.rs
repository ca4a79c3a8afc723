//! `cardio convert IN OUT`: read any recording `cardio-formats` reads and write it as EDF+, a WFDB
//! record or CSV, chosen by OUT's extension (`cardio_formats::write`). Prints the files written;
//! errors go to stderr, exit code 2.

use std::path::PathBuf;

use anyhow::Context;
use cardio_formats::{write, FormatError, ReadOptions};
use clap::Args;

/// Flags of `cardio convert`.
#[derive(Args)]
#[command(after_help = "\
Output formats, by OUT's extension:
  .edf  EDF+ (continuous): one 16-bit signal per lead labelled with the lead name, its unit as the
        physical dimension, physical limits from the data with a 1% margin, 1-s data records (the
        shortest whole number of seconds holding whole samples when the rate is fractional) and the
        'EDF Annotations' time-keeping signal. EDF has no missing-value code: samples a lead does not
        hold (a lead printed only for part of the page) are written as 0, and the last record is
        padded with 0.
  .hea  WFDB record, with OUT's stem as record name and the format-16 signal file <stem>.dat beside
        it: one signal per lead, in mV for voltages, the gain fitting the largest value in int16,
        baseline 0, the lead name as description; missing samples are WFDB's invalid value -32768.
  .csv  time_s, then one column per lead (I, II, III, aVR, aVL, aVF, V1..V6 as read), values in mV
        (uV and V converted); a cell is empty where the lead holds no value.")]
pub struct ConvertArgs {
    /// The recording to read (WFDB by its .hea; EDF, CSV, HL7 aECG, GE MUSE XML, DICOM, vector ECG
    /// PDF, Apple Health CSV, ...).
    pub input: PathBuf,
    /// The file to write: .edf, .hea (WFDB, with a .dat beside it) or .csv.
    pub output: PathBuf,
    /// Sampling rate for inputs that do not say (a single column of numbers).
    #[arg(long)]
    pub sampling_rate: Option<f64>,
}

/// Converts `args.input` into `args.output` and prints the files written.
///
/// # Errors
/// When the output's extension is not one of the writers', the input cannot be read, or the output
/// cannot be written.
pub fn run(args: &ConvertArgs) -> anyhow::Result<()> {
    if write::OutputFormat::from_path(&args.output).is_none() {
        anyhow::bail!(
            "{}: the output's extension must be .edf, .hea (WFDB) or .csv",
            args.output.display()
        );
    }
    let options = ReadOptions {
        sampling_rate_hz: args.sampling_rate,
    };
    let recording = match cardio_formats::read_path_with(&args.input, &options) {
        Ok(recording) => recording,
        // The I/O error already names the file.
        Err(err @ FormatError::Io { .. }) => return Err(err.into()),
        Err(err) => {
            return Err(err).with_context(|| format!("cannot read {}", args.input.display()))
        }
    };
    for file in write::write_path(&recording, &args.output)? {
        println!("{}", file.display());
    }
    Ok(())
}
