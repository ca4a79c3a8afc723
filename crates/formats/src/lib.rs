//! # cardio-formats: every cardiac signal file read into one `Recording`
//!
//! Readers for WFDB, MATLAB v4/v5, EDF/EDF+/BDF, CSV/TXT, audio (WAV, FLAC, MP3, OGG), HL7 aECG XML,
//! ISHNE Holter and vector ECG PDF turn bytes into a [`Recording`]: channels with a name, a unit and samples in
//! physical units, a sampling rate, and the start time and metadata when the file has them. The
//! format is detected from the content first and the extension second ([`detect()`]). Readers never
//! panic and never allocate without bound on any input (every size a file claims is checked against
//! the bytes present, and [`MAX_VALUES`] caps the rest); they return a [`FormatError`] instead.
//! ECG documents exported by carts and apps (GE MUSE XML, DICOM waveforms, the Apple Health ECG CSV)
//! also carry the device's own reading, kept apart in [`Recording::device_interpretation`].
//!
//! | module | format | specification |
//! |---|---|---|
//! | [`wfdb`] | WFDB records (`.hea` + `.dat`/`.mat`), annotations (`.atr`) | PhysioNet `header(5)`, `signal(5)`, `annot(5)` |
//! | [`mat`] | MATLAB level 4 and 5 numeric matrices | MathWorks "MAT-File Format" |
//! | [`edf`] | EDF, EDF+, BDF | Kemp et al. 1992; Kemp and Olivan 2003 |
//! | [`csv`] | CSV, TSV, semicolon and whitespace tables; the Apple Health ECG export | RFC 4180 plus detection; the export's layout as its files show it |
//! | [`audio`] | WAV, FLAC, MP3, OGG/Vorbis | through symphonia |
//! | [`aecg`] | HL7 aECG XML | ANSI/HL7 V3 ECG, R1-2004 |
//! | [`dicom`] | DICOM 12-lead ECG (and other) waveform objects, `.dcm` | DICOM PS3.3 C.10.9 Waveform module, PS3.5, PS3.10 |
//! | [`muse`] | GE MUSE XML (`<RestingECG>`): rhythm, median beats, the cart's 12SL reading | none public; read from the files |
//! | [`ishne`] | ISHNE Holter `.ecg` | Badilini 1998 |
//! | [`pdf`] | vector ECG PDF prints (GE MUSE, GE CardioSoft, AliveCor Kardia): traces, leads, the printed interpretation | PDF 32000-1:2008 |
//!
//! Entry points:
//! - [`read_path`] reads a file from disk (for a WFDB record, give the `.hea`; the signal files it
//!   names are read from the same folder);
//! - [`read_bytes`] reads an upload held in memory;
//! - [`wfdb::read_annotations`] reads WFDB annotation files (`.atr`) for evaluation tooling;
//! - [`mat::read_matrices`] / [`mat::find_matrix`] give the raw numeric matrices of a MATLAB file;
//! - [`muse::read_document`] and [`dicom::read_document`] give the median beats beside the rhythm.
//! - [`write::write_path`] writes a recording as EDF+, a WFDB record or CSV (by the extension).
//!
//! ```
//! use cardio_formats::{read_bytes, Format, ReadOptions};
//!
//! let csv = b"Time [s], PLETH\n0,0.5\n0.008,0.6\n0.016,0.7\n";
//! let rec = read_bytes(csv, Some("bidmc_01_Signals.csv"), &ReadOptions::default()).unwrap();
//! assert_eq!(rec.channels[0].name, "PLETH");
//! assert_eq!(rec.sampling_rate_hz, 125.0);
//! assert_eq!(cardio_formats::detect(csv, None), Some(Format::Csv));
//!
//! // A single column of numbers needs the rate from the caller.
//! let err = read_bytes(b"1\n2\n3\n", None, &ReadOptions::default()).unwrap_err();
//! assert!(matches!(err, cardio_formats::FormatError::NoSamplingRate(_)));
//! let rec = read_bytes(b"1\n2\n3\n", None, &ReadOptions { sampling_rate_hz: Some(250.0) }).unwrap();
//! assert_eq!(rec.duration_seconds(), 3.0 / 250.0);
//! ```

use std::collections::BTreeMap;
use std::path::Path;

pub mod aecg;
pub mod audio;
pub mod csv;
pub mod detect;
pub mod dicom;
pub mod edf;
pub mod ishne;
pub mod mat;
pub mod muse;
pub mod pdf;
pub mod stream;
pub mod wfdb;
pub mod write;

#[cfg(test)]
mod proptests;

pub use detect::{detect, Format};
pub use stream::{open_path, ChannelFile, StreamedRecord};

/// Largest number of sample values (all channels together) any reader will produce: 134 M,
/// which takes a 48-hour Holter of 2 leads at 360 Hz (124 M values) or of 3 leads at 200 Hz
/// (104 M), twice a 24-hour one; a header that declares more is [`FormatError::TooLarge`].
///
/// Readers also cap every size a file claims against the bytes actually present, so the memory a
/// read uses is bounded by a small multiple of the input size and never by this constant alone.
pub const MAX_VALUES: usize = 1 << 27;

// Checked at compile time: 48 hours of 2 leads at 360 Hz and of 3 leads at 200 Hz fit in
// `MAX_VALUES`, ten days of 3 leads at 200 Hz do not.
const _: () = {
    const DAY_S: usize = 24 * 3600;
    assert!(2 * 360 * 2 * DAY_S <= MAX_VALUES);
    assert!(3 * 200 * 2 * DAY_S <= MAX_VALUES);
    assert!(3 * 200 * 10 * DAY_S > MAX_VALUES);
};

/// Decoded sample values one input byte may give at most in a compressed format (zlib in MAT v5,
/// FLAC, MP3, Ogg Vorbis), once past [`MIN_DECODED_VALUES`].
///
/// Why it is safe for honest recordings: zlib shrinks sampled physiological signals 2-6 times
/// (MIT-BIH record 100: 2.1x as int16, 6.1x as doubles, i.e. at most about one value per byte);
/// lossless FLAC gives about one value per byte; lossy audio gives about 8 values per byte at
/// 8 kbit/s and 8 kHz, and about 11 at 32 kbit/s and 44.1 kHz. Sixteen leaves room above all of
/// them, while a decompression bomb (zlib reaches 1032x on constant data, FLAC far more) is
/// refused before it is allocated: a 1.7 MB MAT file that inflated to 256 MiB took the server to
/// gigabytes of memory before this limit.
pub const VALUES_PER_INPUT_BYTE: usize = 16;

/// Decoded values any input may give, however small (a few seconds of audio at 48 kHz need a few
/// hundred thousand).
pub const MIN_DECODED_VALUES: usize = 4 << 20;

/// The most sample values a compressed input of `input_len` bytes may decode to: never more than
/// [`MAX_VALUES`], at most [`VALUES_PER_INPUT_BYTE`] per byte, and at least
/// [`MIN_DECODED_VALUES`].
pub fn max_decoded_values(input_len: usize) -> usize {
    input_len
        .saturating_mul(VALUES_PER_INPUT_BYTE)
        .clamp(MIN_DECODED_VALUES, MAX_VALUES)
}

/// Largest number of channels any reader accepts.
pub const MAX_CHANNELS: usize = 4096;

/// Largest file [`read_path`] reads into memory (1 GiB).
pub const MAX_FILE_BYTES: u64 = 1 << 30;

/// The formats that work, listed in errors about unsupported content.
pub const SUPPORTED: &str =
    "WFDB (.hea with .dat/.mat signal files, formats 16, 212, 80, 61, 24, 32), \
MATLAB .mat (level 4 and 5), EDF/EDF+/BDF, CSV/TXT (Apple Health ECG exports too), WAV, FLAC, MP3, OGG/Vorbis, HL7 aECG (.xml), GE MUSE XML (.xml), DICOM ECG waveforms (.dcm), ISHNE Holter (.ecg) and vector ECG PDF (.pdf: GE MUSE, GE CardioSoft, AliveCor Kardia prints)";

/// Why a file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum FormatError {
    /// The content matches no format this crate reads.
    #[error("unsupported file format: {0}; the formats that work are {SUPPORTED}")]
    Unsupported(String),
    /// The file claims to be of a format but its content is broken or truncated.
    #[error("invalid {format} file: {reason}")]
    Invalid {
        /// The format the content was read as.
        format: Format,
        /// What is wrong, in words.
        reason: String,
    },
    /// The file is valid but uses a feature this crate does not read.
    #[error("{format} feature not supported: {feature}")]
    UnsupportedFeature {
        /// The format the content was read as.
        format: Format,
        /// The missing feature, in words.
        feature: String,
    },
    /// The sampling rate cannot be known from the file and none was given. The message says what
    /// the file lacks; how to give the rate is the caller's to add (a flag, a form field).
    #[error("{0}")]
    NoSamplingRate(String),
    /// The file would need more memory than the limits allow.
    #[error("{0} exceeds the reader's limits")]
    TooLarge(String),
    /// Reading from disk failed.
    #[error("cannot read {path}: {reason}")]
    Io {
        /// The file that could not be read.
        path: String,
        /// The underlying error. Named `reason`, not `source`: the message already carries it, and
        /// as an error source it was printed twice by error chains (`cardio predict` on a missing
        /// file said "No such file or directory" twice).
        reason: std::io::Error,
    },
    /// A recording could not be written (see [`mod@write`]): its content does not fit the output
    /// format, or the file could not be created.
    #[error("cannot write {path}: {reason}")]
    CannotWrite {
        /// The output file (or the format, when no file is involved).
        path: String,
        /// Why, in words.
        reason: String,
    },
}

impl FormatError {
    pub(crate) fn invalid(format: Format, reason: impl Into<String>) -> Self {
        Self::Invalid {
            format,
            reason: reason.into(),
        }
    }

    pub(crate) fn feature(format: Format, feature: impl Into<String>) -> Self {
        Self::UnsupportedFeature {
            format,
            feature: feature.into(),
        }
    }
}

/// One signal channel in physical units.
#[derive(Debug, Clone, PartialEq)]
pub struct Channel {
    /// The channel's label as the file names it, trimmed (e.g. "II", "PLETH").
    pub name: String,
    /// The physical unit of `samples` (e.g. "mV"); empty when the file does not say.
    pub unit: String,
    /// The samples, in `unit`. Values the file marks as invalid (WFDB's invalid-sample code) are NaN.
    pub samples: Vec<f64>,
}

/// A recording: one or more channels sampled at one rate.
#[derive(Debug, Clone, PartialEq)]
pub struct Recording {
    /// The channels, all of the same rate.
    pub channels: Vec<Channel>,
    /// Samples per second of every channel.
    pub sampling_rate_hz: f64,
    /// When the recording started, as ISO 8601 (`2000-01-05T05:05:15`, or only the time of day
    /// `05:05:15` when the file gives no date), when the file says.
    pub start: Option<String>,
    /// Everything else the file says that may matter (format, comments, patient fields, ...).
    pub metadata: BTreeMap<String, String>,
    /// What the recording device itself printed or stored as its reading of the ECG (a cart's
    /// statements and measurements), kept apart from anything Cardio computes: it is the device's
    /// unconfirmed opinion. `None` when the file carries none.
    pub device_interpretation: Option<DeviceInterpretation>,
}

/// The recording device's own interpretation of an ECG, as the document gives it (GE 12SL
/// statements, a Kardia determination, a cart's printed measurements). Never mixed into Cardio's
/// result: shown beside it as the device's unconfirmed reading.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DeviceInterpretation {
    /// Who made it, as the document says (e.g. "GE MUSE 9.0.10, 12SL 241", "AliveCor KardiaMobile").
    pub source: String,
    /// The interpretation statements in the document's order and words (e.g. "Normal sinus rhythm").
    pub statements: Vec<String>,
    /// The measurements the device printed or stored.
    pub measurements: Vec<DeviceMeasurement>,
}

/// One measurement of a [`DeviceInterpretation`].
#[derive(Debug, Clone, PartialEq)]
pub struct DeviceMeasurement {
    /// A stable key from [`DEVICE_MEASUREMENT_KEYS`] (e.g. `qtc_ms`), or the document's own label
    /// when it is none of them.
    pub key: String,
    /// The document's own label (e.g. "QT/QTc", "PQ").
    pub label: String,
    /// The value.
    pub value: f64,
    /// Its unit as printed ("ms", "bpm", "°", "/min").
    pub unit: String,
}

/// The measurement keys readers map device labels to: ventricular rate, atrial rate, PR (PQ)
/// interval, QRS duration, QT, QTc, P duration, RR and PP intervals, and the P, QRS (R) and T axes.
pub const DEVICE_MEASUREMENT_KEYS: &[&str] = &[
    "heart_rate_bpm",
    "atrial_rate_bpm",
    "pr_ms",
    "qrs_ms",
    "qt_ms",
    "qtc_ms",
    "p_ms",
    "rr_ms",
    "pp_ms",
    "p_axis_deg",
    "qrs_axis_deg",
    "t_axis_deg",
];

impl Recording {
    /// Length of the longest channel, in seconds.
    pub fn duration_seconds(&self) -> f64 {
        let longest = self
            .channels
            .iter()
            .map(|c| c.samples.len())
            .max()
            .unwrap_or(0);
        if self.sampling_rate_hz > 0.0 {
            longest as f64 / self.sampling_rate_hz
        } else {
            0.0
        }
    }

    /// The span of `channel` that holds samples, in seconds from the recording's start: from its
    /// first to just after its last non-NaN sample. A lead printed as one 2.5-s piece of a 3x4 page
    /// holds NaN outside its piece. `None` when the channel holds no value at all.
    pub fn span_seconds(&self, channel: &Channel) -> Option<(f64, f64)> {
        let first = channel.samples.iter().position(|v| !v.is_nan())?;
        let last = channel.samples.iter().rposition(|v| !v.is_nan())?;
        let fs = self.sampling_rate_hz;
        (fs > 0.0).then(|| (first as f64 / fs, (last + 1) as f64 / fs))
    }

    /// The channel whose trimmed name equals `name` (ASCII case-insensitive).
    pub fn channel(&self, name: &str) -> Option<&Channel> {
        let name = name.trim();
        self.channels
            .iter()
            .find(|c| c.name.trim().eq_ignore_ascii_case(name))
    }
}

/// What the caller knows that the file may not say.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ReadOptions {
    /// Sampling rate for files that do not carry one (a CSV/TXT without a time column).
    pub sampling_rate_hz: Option<f64>,
}

/// Reads a recording from disk.
///
/// The format is detected from the content first and the extension second. For a WFDB record pass
/// the `.hea` header: the signal files it names are read from the same folder.
///
/// # Errors
/// [`FormatError::Io`] when the file cannot be read, otherwise the errors of [`read_bytes`].
pub fn read_path(path: &Path) -> Result<Recording, FormatError> {
    read_path_with(path, &ReadOptions::default())
}

/// [`read_path`] with [`ReadOptions`].
///
/// # Errors
/// As [`read_path`].
pub fn read_path_with(path: &Path, options: &ReadOptions) -> Result<Recording, FormatError> {
    let bytes = read_file_limited(path)?;
    let name = path.file_name().and_then(|n| n.to_str());
    let dir = path.parent().unwrap_or_else(|| Path::new("."));
    read_with_siblings(&bytes, name, options, |file| {
        read_file_limited(&dir.join(file))
    })
}

/// Reads a recording whose companion files are fetched by name from the same folder, wherever that
/// is (a disk folder, a bucket prefix): a WFDB header with the signal files it names (plain names
/// only), a MATLAB file through the `.hea` beside it when that header names it (PhysioNet/CinC
/// 2017: the header gives rate and gain), anything else by its content.
///
/// # Errors
/// As [`read_bytes`], a signal file name that is not a plain name, or `sibling`'s error for a
/// signal file a header names.
pub fn read_with_siblings(
    bytes: &[u8],
    name: Option<&str>,
    options: &ReadOptions,
    mut sibling: impl FnMut(&str) -> Result<Vec<u8>, FormatError>,
) -> Result<Recording, FormatError> {
    let read_header =
        |header: &[u8], sibling: &mut dyn FnMut(&str) -> Result<Vec<u8>, FormatError>| {
            wfdb::read_record(header, |file| {
                // A WFDB file name is a plain name in the record's folder; refuse anything else.
                if file.contains(['/', '\\']) || file == ".." || file == "." {
                    return Err(FormatError::invalid(
                        Format::WfdbHeader,
                        format!("signal file name {file:?} is not a plain file name"),
                    ));
                }
                sibling(file)
            })
        };
    match detect(bytes, name) {
        Some(Format::WfdbHeader) => read_header(bytes, &mut sibling),
        Some(Format::Mat4 | Format::Mat5) => {
            match name.and_then(|n| wfdb_header_naming(n, &mut sibling)) {
                Some(header) => read_header(&header, &mut sibling),
                None => read_bytes(bytes, name, options),
            }
        }
        _ => read_bytes(bytes, name, options),
    }
}

/// The `.hea` beside the file `name` when it names `name` as a signal file.
fn wfdb_header_naming(
    name: &str,
    sibling: &mut impl FnMut(&str) -> Result<Vec<u8>, FormatError>,
) -> Option<Vec<u8>> {
    let stem = name.rsplit_once('.').map_or(name, |(stem, _)| stem);
    let header_name = format!("{stem}.hea");
    if header_name == name {
        return None;
    }
    let header = sibling(&header_name).ok()?;
    let parsed = wfdb::parse_header(std::str::from_utf8(&header).ok()?).ok()?;
    parsed
        .signals
        .iter()
        .any(|s| s.file_name == name)
        .then_some(header)
}

fn read_file_limited(path: &Path) -> Result<Vec<u8>, FormatError> {
    use std::io::Read;
    let io = |reason| FormatError::Io {
        path: path.display().to_string(),
        reason,
    };
    let file = std::fs::File::open(path).map_err(io)?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(FormatError::TooLarge(format!(
            "{} (larger than {MAX_FILE_BYTES} bytes)",
            path.display()
        )));
    }
    Ok(bytes)
}

/// Reads a recording held in memory, e.g. an upload.
///
/// `name_hint` is the original file name, used only when the content alone does not tell the format.
/// A WFDB header cannot be read alone (its signal file is elsewhere): use [`wfdb::read_record`] with a
/// loader, or [`read_path`].
///
/// # Errors
/// [`FormatError::Unsupported`] when the format is unknown (the message lists the formats that work),
/// [`FormatError::NoSamplingRate`] for a CSV without a time column when `options` gives no rate,
/// and [`FormatError::Invalid`] for broken, truncated or absurd content.
pub fn read_bytes(
    bytes: &[u8],
    name_hint: Option<&str>,
    options: &ReadOptions,
) -> Result<Recording, FormatError> {
    let Some(format) = detect(bytes, name_hint) else {
        let what = if bytes.is_empty() {
            "the file is empty".to_string()
        } else {
            match name_hint {
                Some(name) => format!("cannot recognise the content of {name:?}"),
                None => "cannot recognise the content".to_string(),
            }
        };
        return Err(FormatError::Unsupported(what));
    };
    match format {
        Format::WfdbHeader => Err(FormatError::feature(
            format,
            "a WFDB header alone holds no samples: read it from disk with its signal file beside it",
        )),
        Format::WfdbAnnotation => Err(FormatError::feature(
            format,
            "an annotation file holds no signal: read it with wfdb::read_annotations",
        )),
        Format::Mat4 | Format::Mat5 => mat::read_recording(bytes, options),
        Format::Edf | Format::Bdf => edf::read(bytes),
        Format::Csv => csv::read(bytes, options),
        Format::Wav | Format::Flac | Format::Mp3 | Format::Ogg => audio::read(bytes, format),
        Format::Pdf => pdf::read(bytes),
        Format::Ishne => ishne::read(bytes),
        Format::Hl7Aecg => aecg::read(bytes),
        Format::MuseXml => muse::read(bytes),
        Format::DicomWaveform => dicom::read(bytes),
    }
}

/// Checked multiplication of claimed sizes, for allocation guards.
pub(crate) fn checked_values(
    format: Format,
    a: usize,
    b: usize,
    available: usize,
) -> Result<usize, FormatError> {
    let n = a
        .checked_mul(b)
        .ok_or_else(|| FormatError::invalid(format, format!("size {a} x {b} overflows")))?;
    if n > MAX_VALUES {
        return Err(FormatError::TooLarge(format!("{n} sample values")));
    }
    if n > available {
        return Err(FormatError::invalid(
            format,
            format!("claims {n} values but only {available} are present (truncated file?)"),
        ));
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    const DAY_S: usize = 24 * 3600;

    /// Issue 41 §4: an ISHNE header declaring 24 (or 48) hours of 3 leads at 200 Hz passes the
    /// size limit (this one holds no samples, so it is refused as truncated, not as too large); one
    /// declaring ten times a day is refused for its size before anything is allocated.
    #[test]
    fn an_ishne_header_of_a_day_passes_the_size_limit_and_one_of_ten_days_does_not() {
        let header = |per_lead: usize| {
            let mut bytes = ishne::tests::ishne(&[(5, 2500), (6, 2500), (11, 2500)], 200, &[0; 3]);
            bytes[14..18].copy_from_slice(&i32::try_from(per_lead).unwrap().to_le_bytes());
            bytes
        };
        let options = ReadOptions::default();
        for days in [1, 2] {
            let err = read_bytes(&header(200 * days * DAY_S), None, &options).unwrap_err();
            assert!(
                matches!(err, FormatError::Invalid { .. }) && err.to_string().contains("truncated"),
                "{err}"
            );
        }
        let err = read_bytes(&header(200 * 10 * DAY_S), None, &options).unwrap_err();
        assert!(matches!(err, FormatError::TooLarge(_)), "{err}");
        assert_eq!(
            err.to_string(),
            "518400000 sample values exceeds the reader's limits"
        );
    }

    #[test]
    fn an_empty_recording_lasts_zero_seconds() {
        let rec = Recording {
            channels: vec![],
            sampling_rate_hz: 250.0,
            start: None,
            metadata: BTreeMap::new(),
            device_interpretation: None,
        };
        assert_eq!(rec.duration_seconds(), 0.0);
    }

    #[test]
    fn unsupported_content_lists_the_formats_that_work() {
        let err = read_bytes(
            &[0, 1, 2, 3, 0xff, 0xfe],
            Some("x.bin"),
            &ReadOptions::default(),
        )
        .unwrap_err();
        let msg = err.to_string();
        assert!(
            msg.contains("WFDB") && msg.contains("EDF") && msg.contains("CSV"),
            "{msg}"
        );
    }

    #[test]
    fn an_empty_file_is_reported_as_empty() {
        let err = read_bytes(&[], None, &ReadOptions::default()).unwrap_err();
        assert!(err.to_string().contains("empty"));
    }

    /// A fresh folder under the system temp dir for one test.
    fn temp_dir(name: &str) -> std::path::PathBuf {
        let dir =
            std::env::temp_dir().join(format!("cardio-formats-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn read_path_reads_a_wfdb_record_and_its_signal_file_from_the_same_folder() {
        let dir = temp_dir("wfdb");
        let samples: Vec<u8> = [100i16, -50, 0]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        std::fs::write(
            dir.join("r.hea"),
            "r 1 250 3\nr.dat 16 100 16 0 100 50 0 II\n",
        )
        .unwrap();
        std::fs::write(dir.join("r.dat"), &samples).unwrap();
        let rec = read_path(&dir.join("r.hea")).unwrap();
        assert_eq!(rec.channels[0].samples, vec![1.0, -0.5, 0.0]);
        assert_eq!(rec.channels[0].name, "II");
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_matlab_signal_file_is_read_through_the_wfdb_header_beside_it() {
        let dir = temp_dir("wfdbmat");
        let data: Vec<u8> = [-127i16, 1000]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        std::fs::write(dir.join("A1.mat"), mat::tests::mat4("val", 30, 1, 2, &data)).unwrap();
        std::fs::write(
            dir.join("A1.hea"),
            "A1 1 300 2\nA1.mat 16+24 1000/mV 16 0 -127 0 0 ECG\n",
        )
        .unwrap();
        let rec = read_path(&dir.join("A1.mat")).unwrap();
        assert_eq!(rec.sampling_rate_hz, 300.0);
        assert_eq!(rec.channels[0].samples, vec![-0.127, 1.0]);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_header_naming_a_file_outside_its_folder_is_refused() {
        let dir = temp_dir("traversal");
        std::fs::write(
            dir.join("r.hea"),
            "r 1 250\n../secret.dat 16 100 16 0 0 0 0 II\n",
        )
        .unwrap();
        let err = read_path(&dir.join("r.hea")).unwrap_err();
        assert!(err.to_string().contains("plain file name"), "{err}");
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_wfdb_header_uploaded_alone_says_what_is_missing() {
        let err = read_bytes(
            b"r 1 250\nr.dat 16 100 16 0 0 0 0 II\n",
            Some("r.hea"),
            &ReadOptions::default(),
        )
        .unwrap_err();
        assert!(err.to_string().contains("signal file"), "{err}");
    }

    #[test]
    fn a_missing_file_is_an_io_error_naming_the_path() {
        let err = read_path(Path::new("/nonexistent/cardio/x.hea")).unwrap_err();
        assert!(matches!(err, FormatError::Io { .. }));
        assert!(err.to_string().contains("/nonexistent/cardio/x.hea"));
        // The reason is in the message only, so an error chain prints it once.
        assert!(std::error::Error::source(&err).is_none());
    }
}
