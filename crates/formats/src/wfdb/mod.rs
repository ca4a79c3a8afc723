//! PhysioNet WFDB records and annotations.
//!
//! A record is a text header (`.hea`, PhysioNet `header(5)` man page) that names one or more signal
//! files holding the samples (PhysioNet `signal(5)`). Signals stored in the same file are interleaved
//! frame by frame. This module reads single-segment records whose signals all have one sample per
//! frame, in the formats 16, 61, 80, 212, 24 and 32; a signal file may also be a MATLAB file written
//! by `wfdb2mat` (as in PhysioNet/CinC 2017), which the header's byte offset (`16+24`) skips past.
//! Digital values become physical ones as `(value - baseline) / gain`; the format's invalid-sample code
//! becomes NaN.
//!
//! Annotation files use the MIT format (`annot(5)`): 16-bit little-endian words whose top 6 bits are
//! the annotation code and low 10 bits a time increment, with the pseudo-codes SKIP, NUM, SUB, CHN and
//! AUX. [`read_annotations`] turns them into [`Annotation`]s with the standard symbols of
//! `ecgcodes.h` ([`symbol_for_code`]).

mod annotations;
mod codec;
mod header;
mod stream;
#[cfg(test)]
mod tests;

use std::collections::BTreeMap;

use crate::{checked_values, Channel, Format, FormatError, Recording};

pub use annotations::{read_annotations, symbol_for_code, Annotation};
use codec::Codec;
pub(crate) use header::looks_like_header;
use header::start_time;
pub use header::{parse_header, Header, SignalSpec};
pub use stream::{open_record, SignalFile};

const HEA: Format = Format::WfdbHeader;

/// Reads a WFDB record from its header, loading each signal file it names with `load`.
///
/// `load` receives a file name exactly as the header gives it (e.g. `100.dat`, `A00001.mat`).
///
/// # Errors
/// Header errors of [`parse_header`], whatever `load` returns, and [`FormatError::Invalid`] when a
/// signal file is shorter than the header claims.
pub fn read_record<F>(header: &[u8], mut load: F) -> Result<Recording, FormatError>
where
    F: FnMut(&str) -> Result<Vec<u8>, FormatError>,
{
    let text = std::str::from_utf8(header)
        .map_err(|_| FormatError::invalid(HEA, "the header is not UTF-8 text"))?;
    let header = parse_header(text)?;
    if header.signals.is_empty() {
        return Err(FormatError::invalid(HEA, "the record has no signals"));
    }
    let files = signal_files(&header)?;
    let mut digital: Vec<Vec<i32>> = vec![Vec::new(); header.signals.len()];
    let mut invalid_code = vec![0i32; header.signals.len()];
    let mut n_frames = header.n_samples;
    for file in &files {
        let (codec, members) = (&file.codec, &file.members);
        let bytes = load(&file.name)?;
        let data = &bytes[bytes.len() - file.data_len(bytes.len())?..];
        let width = members.len();
        let frames = file.frames(&header, data.len())?;
        let total = checked_values(HEA, frames, width, codec.samples_in(data.len()))?;
        let stream = codec.decode(data, total);
        drop(bytes);
        if let [only] = members[..] {
            // One signal in the file: its stream is its samples (no second copy).
            digital[only] = stream;
            invalid_code[only] = codec.invalid;
        } else {
            for (k, &m) in members.iter().enumerate() {
                digital[m] = stream.iter().skip(k).step_by(width).copied().collect();
                invalid_code[m] = codec.invalid;
            }
        }
        n_frames = Some(n_frames.map_or(frames, |n| n.min(frames)));
    }
    let n_frames = n_frames.unwrap_or(0);
    let mut metadata = record_metadata(&header);
    let mut checksum_mismatch = Vec::new();
    let mut channels = Vec::with_capacity(header.signals.len());
    for (i, (spec, values)) in header.signals.iter().zip(digital).enumerate() {
        if let Some(expected) = spec.checksum {
            let sum = values[..n_frames.min(values.len())]
                .iter()
                .fold(0i16, |acc, &v| acc.wrapping_add(v as i16));
            if i64::from(sum) != expected && i64::from(sum as u16) != expected {
                checksum_mismatch.push(i.to_string());
            }
        }
        signal_metadata(&mut metadata, i, spec);
        let samples = (0..n_frames)
            .map(|f| physical(values.get(f + spec.skew).copied(), spec, invalid_code[i]))
            .collect();
        channels.push(Channel {
            name: channel_name(i, spec),
            unit: spec.units.clone(),
            samples,
        });
    }
    if !checksum_mismatch.is_empty() {
        metadata.insert("checksum_mismatch".into(), checksum_mismatch.join(","));
    }
    Ok(Recording {
        channels,
        sampling_rate_hz: header.sampling_rate_hz,
        start: start_time(header.base_time.as_deref(), header.base_date.as_deref()),
        metadata,
        device_interpretation: None,
    })
}

/// The metadata every WFDB record carries: the format, the record's name and its comments.
fn record_metadata(header: &Header) -> BTreeMap<String, String> {
    let mut metadata = BTreeMap::new();
    metadata.insert("format".into(), "WFDB".into());
    metadata.insert("record".into(), header.record_name.clone());
    if !header.comments.is_empty() {
        metadata.insert("comments".into(), header.comments.join("\n"));
    }
    metadata
}

/// Signal `i`'s storage in the metadata (`signal.{i}.file`, `.storage_format`, `.gain`,
/// `.baseline`, `.adc_zero`).
fn signal_metadata(metadata: &mut BTreeMap<String, String>, i: usize, spec: &SignalSpec) {
    for (key, value) in [
        ("file", spec.file_name.clone()),
        ("storage_format", spec.format.to_string()),
        ("gain", spec.adc_gain.to_string()),
        ("baseline", spec.baseline.to_string()),
        ("adc_zero", spec.adc_zero.to_string()),
    ] {
        metadata.insert(format!("signal.{i}.{key}"), value);
    }
}

/// A signal file of a record: its name, the signals stored in it (in the header's order,
/// interleaved frame by frame), their codec and the byte where their samples start.
struct FileSpec {
    name: String,
    members: Vec<usize>,
    codec: Codec,
    byte_offset: usize,
}

/// The record's signal files in the header's order, checked: one sample per frame, one format
/// per file.
fn signal_files(header: &Header) -> Result<Vec<FileSpec>, FormatError> {
    let mut files: Vec<FileSpec> = Vec::new();
    for (i, s) in header.signals.iter().enumerate() {
        if s.samples_per_frame != 1 {
            return Err(FormatError::feature(
                HEA,
                format!(
                    "signal {i} has {} samples per frame (multi-frequency records)",
                    s.samples_per_frame
                ),
            ));
        }
        if let Some(file) = files.iter_mut().find(|f| f.name == s.file_name) {
            let first = file.members[0];
            if header.signals[first].format != s.format {
                return Err(FormatError::invalid(
                    HEA,
                    format!(
                        "signals {first} and {i} share {} but not their format",
                        s.file_name
                    ),
                ));
            }
            file.members.push(i);
        } else {
            files.push(FileSpec {
                name: s.file_name.clone(),
                members: vec![i],
                codec: Codec::for_format(s.format)?,
                byte_offset: s.byte_offset,
            });
        }
    }
    Ok(files)
}

impl FileSpec {
    /// Bytes of samples in the file of `len` bytes: what follows its byte offset.
    fn data_len(&self, len: usize) -> Result<usize, FormatError> {
        len.checked_sub(self.byte_offset).ok_or_else(|| {
            FormatError::invalid(
                HEA,
                format!(
                    "{} is shorter than its byte offset {}",
                    self.name, self.byte_offset
                ),
            )
        })
    }

    /// Frames the file holds with `data_len` bytes of samples: the header's count, refused when
    /// the file holds fewer; every whole frame when the header gives none.
    fn frames(&self, header: &Header, data_len: usize) -> Result<usize, FormatError> {
        let available = self.codec.samples_in(data_len) / self.members.len();
        match header.n_samples {
            Some(n) if n > available => Err(FormatError::invalid(
                HEA,
                format!(
                    "{} holds {available} samples per signal but the header claims {n} (truncated file?)",
                    self.name
                ),
            )),
            Some(n) => Ok(n),
            None => Ok(available),
        }
    }
}

/// Signal `i`'s channel name: its description, or `signal {i}`.
fn channel_name(i: usize, spec: &SignalSpec) -> String {
    if spec.description.is_empty() {
        format!("signal {i}")
    } else {
        spec.description.trim().to_string()
    }
}

/// A digital value in physical units, `(value - baseline) / gain`; NaN for a missing sample or
/// the format's invalid-sample code.
fn physical(value: Option<i32>, spec: &SignalSpec, invalid: i32) -> f64 {
    match value {
        Some(v) if v != invalid => (f64::from(v) - spec.baseline as f64) / spec.adc_gain,
        _ => f64::NAN,
    }
}
