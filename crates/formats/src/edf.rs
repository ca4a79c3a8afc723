//! European Data Format: EDF (Kemp et al. 1992), EDF+ (Kemp and Olivan 2003) and BioSemi's BDF.
//!
//! A 256-byte ASCII header (version, patient, recording, start date `dd.mm.yy` and time `hh.mm.ss`,
//! header size, reserved field with `EDF+C`/`EDF+D`, number of data records, record duration, number of
//! signals `ns`) is followed by `ns` 256-byte signal headers stored field by field (label, transducer,
//! physical dimension, physical minimum and maximum, digital minimum and maximum, prefiltering, samples
//! per record). Each data record then holds every signal's samples for that record in turn: 16-bit
//! little-endian two's complement in EDF, 24-bit in BDF. Physical values are
//! `pmin + (d - dmin) * (pmax - pmin) / (dmax - dmin)`.
//!
//! EDF+ `EDF Annotations` signals carry text, not samples, and are skipped. A [`Recording`] has one
//! rate, so when signals differ in rate the reader keeps those at the rate of the first ECG-like signal
//! (label with `ECG`/`EKG`), else at the most common rate, and lists the others in the metadata
//! under `skipped_signals`. Years follow the EDF clipping rule: `yy` 85-99 is 19yy, 00-84 is 20yy.
//!
//! [`read`] decodes a file held in memory; [`open`] reads a file on disk a stretch at a time
//! ([`crate::stream`]), so that a day-long EDF Holter is never held whole: the whole data records
//! a stretch touches in one read, or, where they are large (a day in one record), only the
//! signal's own samples of each. Both read the header with one function and decode the samples
//! with another: a stretch gives the samples of a whole read, to the bit.

use std::{
    collections::BTreeMap,
    fs::File,
    io::Read,
    path::{Path, PathBuf},
    sync::{Arc, Mutex},
};

use crate::stream::{io_error, open_limited, read_at, ChannelFile, StreamedRecord};
use crate::{Channel, Format, FormatError, Recording, MAX_CHANNELS, MAX_VALUES};

struct Signal {
    label: String,
    transducer: String,
    unit: String,
    physical_min: f64,
    physical_max: f64,
    digital_min: f64,
    digital_max: f64,
    prefiltering: String,
    samples_per_record: usize,
}

impl Signal {
    fn is_annotation(&self) -> bool {
        self.label == "EDF Annotations" || self.label == "BDF Annotations"
    }
}

fn ascii(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|&b| {
            if b.is_ascii() && !b.is_ascii_control() {
                char::from(b)
            } else {
                ' '
            }
        })
        .collect::<String>()
        .trim()
        .to_string()
}

/// A kept signal: where its samples sit in a data record and how they become physical values.
#[derive(Debug)]
struct Kept {
    name: String,
    unit: String,
    /// Byte offset of the signal's samples inside a data record.
    offset: usize,
    physical_min: f64,
    digital_min: f64,
    /// Physical units per digital unit.
    scale: f64,
}

/// What the header says about the file: the data records and the signals kept.
#[derive(Debug)]
struct Layout {
    bdf: bool,
    /// Bytes of the header (where the first data record starts).
    header_bytes: usize,
    /// Bytes of one data record (every signal).
    record_bytes: usize,
    /// Whole data records in the file.
    n_records: usize,
    /// Samples per record of the kept signals.
    per_record: usize,
    kept: Vec<Kept>,
    rate: f64,
    start: Option<String>,
    metadata: BTreeMap<String, String>,
}

impl Layout {
    /// Samples per kept signal in the whole file.
    fn frames(&self) -> usize {
        self.n_records * self.per_record
    }

    /// Bytes per sample: 3 in BDF, 2 in EDF.
    fn width(&self) -> usize {
        if self.bdf {
            3
        } else {
            2
        }
    }

    /// Kept signal `k`'s samples `bytes` (whole samples) in physical units, appended to `out`.
    fn decode_samples(&self, k: usize, bytes: &[u8], out: &mut Vec<f64>) {
        let s = &self.kept[k];
        out.extend(bytes.chunks_exact(self.width()).map(|c| {
            let d = if self.bdf {
                i32::from_le_bytes([0, c[0], c[1], c[2]]) >> 8
            } else {
                i32::from(i16::from_le_bytes([c[0], c[1]]))
            };
            s.physical_min + (f64::from(d) - s.digital_min) * s.scale
        }));
    }

    /// Kept signal `k`'s samples, in physical units, of the whole data records `data`.
    fn decode(&self, k: usize, data: &[u8]) -> Vec<f64> {
        let span = self.per_record * self.width();
        let records = data.len() / self.record_bytes;
        let mut samples = Vec::with_capacity(records * self.per_record);
        for r in 0..records {
            let begin = r * self.record_bytes + self.kept[k].offset;
            self.decode_samples(k, &data[begin..begin + span], &mut samples);
        }
        samples
    }

    /// The recording of the kept signals' `samples`.
    fn recording(&self, samples: Vec<Vec<f64>>) -> Recording {
        Recording {
            channels: self
                .kept
                .iter()
                .zip(samples)
                .map(|(s, samples)| Channel {
                    name: s.name.clone(),
                    unit: s.unit.clone(),
                    samples,
                })
                .collect(),
            sampling_rate_hz: self.rate,
            start: self.start.clone(),
            metadata: self.metadata.clone(),
            device_interpretation: None,
        }
    }
}

/// Reads an EDF, EDF+ or BDF file.
///
/// # Errors
/// [`FormatError::Invalid`] for a header whose numbers do not parse or do not agree with the file's
/// size, [`FormatError::UnsupportedFeature`] when no signal holds samples.
pub fn read(bytes: &[u8]) -> Result<Recording, FormatError> {
    let layout = layout(bytes, bytes.len())?;
    let data =
        &bytes[layout.header_bytes..layout.header_bytes + layout.n_records * layout.record_bytes];
    let samples = (0..layout.kept.len())
        .map(|k| layout.decode(k, data))
        .collect();
    Ok(layout.recording(samples))
}

/// The layout of an EDF, EDF+ or BDF file of `file_len` bytes whose first bytes are `bytes` (at
/// least its header).
fn layout(bytes: &[u8], file_len: usize) -> Result<Layout, FormatError> {
    let bdf = bytes.first() == Some(&0xff);
    let format = if bdf { Format::Bdf } else { Format::Edf };
    let invalid = |reason: String| FormatError::invalid(format, reason);
    let header = bytes.get(..256).ok_or_else(|| {
        invalid(format!(
            "{} bytes, shorter than the 256-byte header",
            bytes.len()
        ))
    })?;
    let field = |range: std::ops::Range<usize>| ascii(&header[range]);
    let number = |name: &str, text: String| -> Result<f64, FormatError> {
        text.parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .ok_or_else(|| invalid(format!("{name} {text:?} is not a number")))
    };
    let integer = |name: &str, text: String| -> Result<i64, FormatError> {
        text.parse::<i64>()
            .map_err(|_| invalid(format!("{name} {text:?} is not an integer")))
    };
    let ns = usize::try_from(integer("number of signals", field(252..256))?)
        .map_err(|_| invalid("negative number of signals".into()))?;
    if ns == 0 || ns > MAX_CHANNELS {
        return Err(invalid(format!("{ns} signals")));
    }
    let header_bytes = 256 * (ns + 1);
    let declared = integer("header size", field(184..192))?;
    if usize::try_from(declared).ok() != Some(header_bytes) {
        return Err(invalid(format!(
            "header size {declared} does not match {ns} signals ({header_bytes} bytes)"
        )));
    }
    let signal_header = bytes
        .get(256..header_bytes)
        .ok_or_else(|| invalid("truncated signal headers".into()))?;
    // Fields are stored one after another for all signals: `width` bytes for each of the ns signals.
    let mut offset = 0;
    let mut column = |width: usize| -> Vec<String> {
        let values = (0..ns)
            .map(|i| ascii(&signal_header[offset + i * width..offset + (i + 1) * width]))
            .collect();
        offset += width * ns;
        values
    };
    let labels = column(16);
    let transducers = column(80);
    let units = column(8);
    let pmins = column(8);
    let pmaxs = column(8);
    let dmins = column(8);
    let dmaxs = column(8);
    let prefilterings = column(80);
    let counts = column(8);
    let mut signals = Vec::with_capacity(ns);
    for i in 0..ns {
        let spr = integer("samples per record", counts[i].clone())?;
        signals.push(Signal {
            label: labels[i].clone(),
            transducer: transducers[i].clone(),
            unit: units[i].clone(),
            physical_min: number("physical minimum", pmins[i].clone())?,
            physical_max: number("physical maximum", pmaxs[i].clone())?,
            digital_min: number("digital minimum", dmins[i].clone())?,
            digital_max: number("digital maximum", dmaxs[i].clone())?,
            prefiltering: prefilterings[i].clone(),
            samples_per_record: usize::try_from(spr)
                .map_err(|_| invalid(format!("signal {i}: negative samples per record")))?,
        });
    }
    let width = if bdf { 3 } else { 2 };
    let record_samples = signals
        .iter()
        .try_fold(0usize, |acc, s| acc.checked_add(s.samples_per_record))
        .ok_or_else(|| invalid("samples per record overflow".into()))?;
    let record_bytes = record_samples
        .checked_mul(width)
        .filter(|&b| b > 0)
        .ok_or_else(|| invalid("data records of zero or absurd size".into()))?;
    let available = file_len.saturating_sub(header_bytes) / record_bytes;
    let claimed = integer("number of data records", field(236..244))?;
    let n_records = if claimed < 0 {
        available // -1: unknown, as while recording
    } else {
        usize::try_from(claimed)
            .unwrap_or(usize::MAX)
            .min(available)
    };
    let duration = number("data record duration", field(244..252))?;
    if duration <= 0.0 {
        return Err(FormatError::feature(
            format,
            "data records of duration 0 (an annotation-only file) hold no signal",
        ));
    }
    // Pick the signals that share one rate.
    let sample_signals: Vec<usize> = (0..ns)
        .filter(|&i| !signals[i].is_annotation() && signals[i].samples_per_record > 0)
        .collect();
    let ecg_like = sample_signals.iter().find(|&&i| {
        let l = signals[i].label.to_ascii_uppercase();
        l.contains("ECG") || l.contains("EKG")
    });
    let chosen_spr = if let Some(&i) = ecg_like {
        signals[i].samples_per_record
    } else {
        let mut tally: BTreeMap<usize, usize> = BTreeMap::new();
        for &i in &sample_signals {
            *tally.entry(signals[i].samples_per_record).or_default() += 1;
        }
        // Most common; ties go to the higher rate (the later key).
        tally
            .into_iter()
            .max_by_key(|&(spr, n)| (n, spr))
            .map(|(spr, _)| spr)
            .ok_or_else(|| {
                FormatError::feature(format, "no signal holds samples (annotations only)")
            })?
    };
    let kept: Vec<usize> = sample_signals
        .iter()
        .copied()
        .filter(|&i| signals[i].samples_per_record == chosen_spr)
        .collect();
    let total = kept
        .len()
        .checked_mul(chosen_spr)
        .and_then(|v| v.checked_mul(n_records))
        .filter(|&v| v <= MAX_VALUES)
        .ok_or_else(|| FormatError::TooLarge(format!("{n_records} data records")))?;
    debug_assert!(total * width <= file_len);
    // Byte offset of each signal inside a record.
    let mut starts = Vec::with_capacity(ns);
    let mut acc = 0;
    for s in &signals {
        starts.push(acc);
        acc += s.samples_per_record * width;
    }
    let kept_signals = kept
        .iter()
        .map(|&i| {
            let s = &signals[i];
            let span = s.digital_max - s.digital_min;
            Kept {
                name: s.label.clone(),
                unit: s.unit.clone(),
                offset: starts[i],
                physical_min: s.physical_min,
                digital_min: s.digital_min,
                scale: if span == 0.0 {
                    1.0
                } else {
                    (s.physical_max - s.physical_min) / span
                },
            }
        })
        .collect();
    let mut metadata = BTreeMap::new();
    metadata.insert("format".into(), format.to_string());
    let reserved = field(192..236);
    if reserved.starts_with("EDF+") || reserved.starts_with("BDF+") {
        metadata.insert("edf_plus".into(), reserved.clone());
        if reserved.ends_with('D') {
            metadata.insert("discontinuous".into(), "true".into());
        }
    }
    metadata.insert("patient".into(), field(8..88));
    metadata.insert("recording".into(), field(88..168));
    metadata.insert("record_duration_s".into(), duration.to_string());
    metadata.insert("data_records".into(), n_records.to_string());
    if claimed >= 0 && usize::try_from(claimed).ok() != Some(n_records) {
        metadata.insert(
            "truncated".into(),
            format!("header claims {claimed} data records, file holds {n_records}"),
        );
    }
    for (k, &i) in kept.iter().enumerate() {
        let s = &signals[i];
        for (key, value) in [
            ("transducer", &s.transducer),
            ("prefiltering", &s.prefiltering),
        ] {
            if !value.is_empty() {
                metadata.insert(format!("signal.{k}.{key}"), value.clone());
            }
        }
    }
    let skipped: Vec<String> = sample_signals
        .iter()
        .filter(|i| !kept.contains(i))
        .map(|&i| {
            format!(
                "{} ({} Hz)",
                signals[i].label,
                signals[i].samples_per_record as f64 / duration
            )
        })
        .collect();
    if !skipped.is_empty() {
        metadata.insert("skipped_signals".into(), skipped.join(", "));
    }
    Ok(Layout {
        bdf,
        header_bytes,
        record_bytes,
        n_records,
        per_record: chosen_spr,
        kept: kept_signals,
        rate: chosen_spr as f64 / duration,
        start: start_time(&field(168..176), &field(176..184)),
        metadata,
    })
}

/// The most bytes of whole data records one stretch is read through at once; a stretch over
/// larger records reads only its own signal's samples of each (64 bytes in the unit tests, so that
/// their small files take both ways).
const CONTIGUOUS_BYTES: usize = if cfg!(test) { 64 } else { 16 << 20 };

/// One signal of an EDF or BDF file on disk, read a stretch at a time.
#[derive(Debug)]
struct SignalFile {
    file: Mutex<File>,
    path: PathBuf,
    layout: Arc<Layout>,
    k: usize,
}

impl ChannelFile for SignalFile {
    fn len(&self) -> usize {
        self.layout.frames()
    }

    fn read(&self, from: usize, to: usize) -> Result<Vec<f64>, FormatError> {
        let l = &self.layout;
        let to = to.min(l.frames());
        if from >= to {
            return Ok(Vec::new());
        }
        let (first, last) = (from / l.per_record, to.div_ceil(l.per_record));
        if (last - first) * l.record_bytes <= CONTIGUOUS_BYTES {
            // Small records: the records the stretch touches in one read, every signal's bytes.
            let bytes = read_at(
                &self.file,
                &self.path,
                (l.header_bytes + first * l.record_bytes) as u64,
                ((last - first) * l.record_bytes) as u64,
            )?;
            let skip = first * l.per_record;
            let mut samples = l.decode(self.k, &bytes);
            samples.truncate(to - skip);
            samples.drain(..from - skip);
            return Ok(samples);
        }
        // Large records (a day in one record, say): only this signal's samples of the stretch,
        // one read per record.
        let width = l.width();
        let mut samples = Vec::with_capacity(to - from);
        for r in first..last {
            let (a, b) = (
                from.max(r * l.per_record) - r * l.per_record,
                to.min((r + 1) * l.per_record) - r * l.per_record,
            );
            let bytes = read_at(
                &self.file,
                &self.path,
                (l.header_bytes + r * l.record_bytes + l.kept[self.k].offset + a * width) as u64,
                ((b - a) * width) as u64,
            )?;
            l.decode_samples(self.k, &bytes, &mut samples);
        }
        Ok(samples)
    }
}

/// Opens the EDF or BDF file `path` for reading a stretch at a time ([`crate::stream`]), with
/// its first `head_s` seconds read; `None` when the file is no longer than that (read it whole).
///
/// # Errors
/// As [`read`], and [`FormatError::Io`] when the file cannot be read.
pub fn open(path: &Path, head_s: f64) -> Result<Option<StreamedRecord>, FormatError> {
    let (file, size) = open_limited(path)?;
    let mut header = Vec::new();
    (&file)
        .take(256 * (MAX_CHANNELS as u64 + 1))
        .read_to_end(&mut header)
        .map_err(io_error(path))?;
    let size =
        usize::try_from(size).map_err(|_| FormatError::TooLarge(path.display().to_string()))?;
    let layout = Arc::new(layout(&header, size)?);
    let frames = layout.frames();
    let head_frames = if head_s.is_finite() && head_s > 0.0 {
        ((head_s * layout.rate).round() as usize).min(frames)
    } else {
        0
    };
    if frames <= head_frames {
        return Ok(None);
    }
    let mut signals = Vec::with_capacity(layout.kept.len());
    for k in 0..layout.kept.len() {
        let (file, _) = open_limited(path)?;
        signals.push(SignalFile {
            file: Mutex::new(file),
            path: path.to_path_buf(),
            layout: Arc::clone(&layout),
            k,
        });
    }
    let samples = signals
        .iter()
        .map(|s| s.read(0, head_frames))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Some(StreamedRecord {
        head: layout.recording(samples),
        n_frames: frames,
        signals: signals
            .into_iter()
            .map(|s| Box::new(s) as Box<dyn ChannelFile>)
            .collect(),
    }))
}

/// `dd.mm.yy` + `hh.mm.ss` → ISO 8601 with the EDF clipping year rule.
fn start_time(date: &str, time: &str) -> Option<String> {
    let parts = |text: &str| -> Option<Vec<u32>> {
        text.split('.').map(|p| p.trim().parse().ok()).collect()
    };
    let (ymd, hms) = (parts(date)?, parts(time)?);
    match (ymd.as_slice(), hms.as_slice()) {
        (
            [day @ 1..=31, month @ 1..=12, yy @ 0..=99],
            [hour @ 0..=23, minute @ 0..=59, second @ 0..=60],
        ) => {
            let year = if *yy >= 85 { 1900 + yy } else { 2000 + yy };
            Some(format!(
                "{year:04}-{month:02}-{day:02}T{hour:02}:{minute:02}:{second:02}"
            ))
        }
        _ => None,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// One signal for [`edf`]: label, unit, physical and digital ranges, samples per record.
    pub(crate) struct Spec<'a> {
        pub label: &'a str,
        pub unit: &'a str,
        pub physical: (f64, f64),
        pub digital: (i32, i32),
        pub per_record: usize,
    }

    type Column<'c> = (usize, &'c dyn Fn(&Spec) -> String);

    fn pad(out: &mut Vec<u8>, text: &str, width: usize) {
        let mut field = text.as_bytes().to_vec();
        field.resize(width, b' ');
        out.extend(field);
    }

    /// An EDF (or BDF when `bdf`) file; `records[r][s]` holds signal `s`'s digital values in record `r`.
    pub(crate) fn edf(
        bdf: bool,
        reserved: &str,
        duration: &str,
        specs: &[Spec],
        records: &[Vec<Vec<i32>>],
    ) -> Vec<u8> {
        let ns = specs.len();
        let mut out = Vec::new();
        if bdf {
            out.extend(b"\xffBIOSEMI");
        } else {
            pad(&mut out, "0", 8);
        }
        pad(&mut out, "X M 01-JAN-1970 Patient", 80);
        pad(&mut out, "Startdate 05-MAR-2021 X X X", 80);
        pad(&mut out, "05.03.21", 8);
        pad(&mut out, "13.45.07", 8);
        pad(&mut out, &(256 * (ns + 1)).to_string(), 8);
        pad(&mut out, reserved, 44);
        pad(&mut out, &records.len().to_string(), 8);
        pad(&mut out, duration, 8);
        pad(&mut out, &ns.to_string(), 4);
        let columns: [Column; 10] = [
            (16, &|s| s.label.to_string()),
            (80, &|_| "AgAgCl electrode".to_string()),
            (8, &|s| s.unit.to_string()),
            (8, &|s| s.physical.0.to_string()),
            (8, &|s| s.physical.1.to_string()),
            (8, &|s| s.digital.0.to_string()),
            (8, &|s| s.digital.1.to_string()),
            (80, &|_| "HP:0.1Hz".to_string()),
            (8, &|s| s.per_record.to_string()),
            (32, &|_| String::new()),
        ];
        for (width, value) in columns {
            for s in specs {
                pad(&mut out, &value(s), width);
            }
        }
        for record in records {
            for values in record {
                for &v in values {
                    if bdf {
                        out.extend(&v.to_le_bytes()[..3]);
                    } else {
                        out.extend((v as i16).to_le_bytes());
                    }
                }
            }
        }
        out
    }

    fn ecg(per_record: usize) -> Spec<'static> {
        Spec {
            label: "ECG I",
            unit: "mV",
            physical: (-5.0, 5.0),
            digital: (-2048, 2047),
            per_record,
        }
    }

    /// An EDF+ annotation signal (text, not samples).
    fn annotations(per_record: usize) -> Spec<'static> {
        Spec {
            label: "EDF Annotations",
            unit: "",
            physical: (-1.0, 1.0),
            digital: (-32768, 32767),
            per_record,
        }
    }

    /// A slow respiration signal.
    fn resp(per_record: usize) -> Spec<'static> {
        Spec {
            label: "Resp",
            unit: "a.u.",
            physical: (0.0, 1.0),
            digital: (0, 100),
            per_record,
        }
    }

    #[test]
    fn reads_records_scales_digital_to_physical_and_gives_the_start() {
        let bytes = edf(
            false,
            "",
            "1",
            &[ecg(4)],
            &[vec![vec![-2048, 2047, 0, 1]], vec![vec![5, 6, 7, 8]]],
        );
        let rec = read(&bytes).unwrap();
        assert_eq!(rec.sampling_rate_hz, 4.0);
        assert_eq!(rec.channels[0].name, "ECG I");
        assert_eq!(rec.channels[0].unit, "mV");
        let s = &rec.channels[0].samples;
        assert_eq!(s.len(), 8);
        assert_eq!((s[0], s[1]), (-5.0, 5.0));
        assert!((s[2] - (-5.0 + 2048.0 * 10.0 / 4095.0)).abs() < 1e-12);
        assert_eq!(rec.start.as_deref(), Some("2021-03-05T13:45:07"));
        assert_eq!(rec.metadata["signal.0.prefiltering"], "HP:0.1Hz");
    }

    #[test]
    fn edf_plus_annotations_are_skipped_and_other_rates_listed() {
        let annotations = annotations(3);
        let resp = resp(1);
        let bytes = edf(
            false,
            "EDF+C",
            "0.5",
            &[resp, ecg(2), annotations],
            &[vec![vec![50], vec![0, 0], vec![0x142b, 0x1400, 0]]],
        );
        let rec = read(&bytes).unwrap();
        assert_eq!(rec.sampling_rate_hz, 4.0);
        assert_eq!(rec.channels.len(), 1);
        assert_eq!(rec.channels[0].name, "ECG I");
        assert_eq!(rec.metadata["skipped_signals"], "Resp (2 Hz)");
        assert_eq!(rec.metadata["edf_plus"], "EDF+C");
    }

    #[test]
    fn reads_bdf_24_bit_samples() {
        let spec = Spec {
            label: "EXG1",
            unit: "uV",
            physical: (-262_144.0, 262_143.0),
            digital: (-8_388_608, 8_388_607),
            per_record: 2,
        };
        let rec = read(&edf(
            true,
            "24BIT",
            "1",
            &[spec],
            &[vec![vec![-8_388_608, 8_388_607]]],
        ))
        .unwrap();
        assert_eq!(rec.channels[0].samples, vec![-262_144.0, 262_143.0]);
        assert_eq!(rec.metadata["format"], "BDF");
    }

    #[test]
    fn a_file_read_a_stretch_at_a_time_gives_the_samples_of_a_whole_read() {
        let dir = std::env::temp_dir().join(format!("cardio-edf-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for (bdf, one_record) in [(false, false), (true, false), (false, true)] {
            let (lo, hi) = if bdf {
                (-8_388_608, 8_388_607)
            } else {
                (-32768, 32767)
            };
            let value = |i: i64| i32::try_from(lo + (i * 7919 + 13).rem_euclid(hi - lo)).unwrap();
            // 41 records of 1 s: two ECG signals at 5 Hz between a slower one and annotations.
            let records: Vec<Vec<Vec<i32>>> = (0..41i64)
                .map(|r| {
                    vec![
                        vec![value(r), value(r + 1)],
                        (0..5).map(|j| value(10 * r + j)).collect(),
                        (0..5).map(|j| value(10 * r + j + 5)).collect(),
                        vec![0; 3],
                    ]
                })
                .collect();
            // The same samples as one data record of 41 s (a day in one record, as some writers
            // do): a stretch then reads only its signal's samples.
            let (records, per, duration) = if one_record {
                let joined = (0..4)
                    .map(|i| records.iter().flat_map(|r| r[i].clone()).collect())
                    .collect();
                (vec![joined], 41, "41")
            } else {
                (records, 1, "1")
            };
            let lead_ii = Spec {
                label: "ECG II",
                unit: "uV",
                physical: (-3200.0, 3200.0),
                digital: (lo.try_into().unwrap(), hi.try_into().unwrap()),
                per_record: 5 * per,
            };
            let specs = [resp(2 * per), ecg(5 * per), lead_ii, annotations(3 * per)];
            let bytes = edf(bdf, "EDF+C", duration, &specs, &records);
            let whole = read(&bytes).unwrap();
            let path = dir.join(format!(
                "day-{one_record}.{}",
                if bdf { "bdf" } else { "edf" }
            ));
            std::fs::write(&path, &bytes).unwrap();

            let streamed = crate::open_path(&path, 2.0).unwrap().unwrap();
            assert!(crate::open_path(&path, 41.0).unwrap().is_none());

            let frames = 205;
            assert_eq!(streamed.n_frames, frames);
            let mut head = whole.clone();
            for c in &mut head.channels {
                c.samples.truncate(10);
            }
            assert_eq!(streamed.head, head);
            assert_eq!(streamed.signals.len(), 2);
            for (signal, channel) in streamed.signals.iter().zip(&whole.channels) {
                assert_eq!(signal.len(), frames);
                for (a, b) in [
                    (0, frames),
                    (1, 2),
                    (4, 5),
                    (5, 6),
                    (3, 12),
                    (199, 204),
                    (200, 900),
                ] {
                    assert_eq!(
                        signal.read(a, b).unwrap(),
                        channel.samples[a..b.min(frames)],
                        "bdf {bdf}, one record {one_record}, {a}..{b}"
                    );
                }
                assert!(signal.read(7, 7).unwrap().is_empty());
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_truncated_file_keeps_its_whole_records_and_says_so() {
        let mut bytes = edf(
            false,
            "",
            "1",
            &[ecg(4)],
            &[vec![vec![1, 2, 3, 4]], vec![vec![5, 6, 7, 8]]],
        );
        bytes.truncate(bytes.len() - 3);
        let rec = read(&bytes).unwrap();
        assert_eq!(rec.channels[0].samples.len(), 4);
        assert!(rec.metadata["truncated"].contains("claims 2"));
    }

    #[test]
    fn inconsistent_headers_are_errors() {
        let good = edf(false, "", "1", &[ecg(4)], &[vec![vec![1, 2, 3, 4]]]);
        let mut wrong_size = good.clone();
        wrong_size[184..192].copy_from_slice(b"9999    ");
        assert!(read(&wrong_size)
            .unwrap_err()
            .to_string()
            .contains("header size"));
        let mut huge = good.clone();
        huge[252..256].copy_from_slice(b"9999");
        assert!(read(&huge).is_err());
        let mut zero_duration = good.clone();
        zero_duration[244..252].copy_from_slice(b"0       ");
        assert!(read(&zero_duration).is_err());
        assert!(read(&good[..100]).is_err());
    }

    #[test]
    fn is_detected_by_content() {
        let bytes = edf(false, "", "1", &[ecg(4)], &[vec![vec![1, 2, 3, 4]]]);
        assert_eq!(crate::detect(&bytes, None), Some(Format::Edf));
    }
}
