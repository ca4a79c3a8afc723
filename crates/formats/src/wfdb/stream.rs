//! A WFDB record on disk read a stretch at a time ([`crate::stream`]): the header and the sizes
//! of its signal files are checked when it is opened, its first seconds are read as a
//! [`Recording`](crate::Recording), and every signal can then be read from any frame to any other
//! straight from its file.
//!
//! The samples are those [`read_record`](super::read_record) gives, to the bit (the same
//! conversion, the same NaN for the invalid-sample code and for frames a skew moves past the
//! end). What is not done: the checksum, which needs every sample, is not verified.

use std::{
    fs::File,
    io::Read,
    path::{Path, PathBuf},
    sync::Mutex,
};

use super::{
    channel_name, codec::Codec, parse_header, physical, record_metadata, signal_files,
    signal_metadata, start_time, SignalSpec, HEA,
};
use crate::stream::{io_error, open_limited, read_at, ChannelFile, StreamedRecord};
use crate::{Channel, FormatError, Recording};

/// One signal of a record, read from its file on demand.
#[derive(Debug)]
pub struct SignalFile {
    file: Mutex<File>,
    path: PathBuf,
    codec: Codec,
    spec: SignalSpec,
    /// Byte where the samples start (the header's byte offset).
    data_start: u64,
    /// Signals interleaved in the file, and this one's place among them.
    width: usize,
    member: usize,
    /// Frames the file holds, and frames the record has (the fewest of its files).
    file_frames: usize,
    n_frames: usize,
}

impl ChannelFile for SignalFile {
    fn len(&self) -> usize {
        self.n_frames
    }

    fn read(&self, from: usize, to: usize) -> Result<Vec<f64>, FormatError> {
        let to = to.min(self.n_frames);
        if from >= to {
            return Ok(Vec::new());
        }
        // The file's frames from..to (moved by the skew), every signal of the file.
        let first_frame = (from + self.spec.skew).min(self.file_frames);
        let last_frame = (to + self.spec.skew).min(self.file_frames);
        let values = if first_frame < last_frame {
            self.decode(
                first_frame * self.width,
                (last_frame - first_frame) * self.width,
            )?
        } else {
            Vec::new()
        };
        Ok((0..to - from)
            .map(|f| {
                physical(
                    values.get(f * self.width + self.member).copied(),
                    &self.spec,
                    self.codec.invalid,
                )
            })
            .collect())
    }
}

impl SignalFile {
    /// The file's samples `first..first + count` (every signal of the file, interleaved).
    fn decode(&self, first: usize, count: usize) -> Result<Vec<i32>, FormatError> {
        let (offset, len, lead) = self.codec.span(first, count);
        let bytes = read_at(&self.file, &self.path, self.data_start + offset, len)?;
        let mut values = self.codec.decode(&bytes, lead + count);
        values.drain(..lead.min(values.len()));
        Ok(values)
    }
}

/// Opens the record whose header is `header_path` (its signal files beside it) and reads its
/// first `head_s` seconds; `None` when the record is no longer than that (read it whole).
///
/// # Errors
/// As [`read_record`](super::read_record): header errors, a signal file that cannot be opened,
/// is larger than [`crate::MAX_FILE_BYTES`] or shorter than the header claims, or one whose name is not
/// a plain file name.
pub fn open_record(header_path: &Path, head_s: f64) -> Result<Option<StreamedRecord>, FormatError> {
    let mut text = String::new();
    File::open(header_path)
        .map_err(io_error(header_path))?
        .take(1 << 20)
        .read_to_string(&mut text)
        .map_err(|_| FormatError::invalid(HEA, "the header is not UTF-8 text"))?;
    let header = parse_header(&text)?;
    if header.signals.is_empty() {
        return Err(FormatError::invalid(HEA, "the record has no signals"));
    }
    let dir = header_path.parent().unwrap_or_else(|| Path::new("."));
    let mut signals: Vec<(usize, SignalFile)> = Vec::with_capacity(header.signals.len());
    for file in signal_files(&header)? {
        let name = &file.name;
        if name.contains(['/', '\\']) || name == ".." || name == "." {
            return Err(FormatError::invalid(
                HEA,
                format!("signal file name {name:?} is not a plain file name"),
            ));
        }
        let path = dir.join(name);
        let (_, size) = open_limited(&path)?;
        let size = usize::try_from(size).map_err(|_| FormatError::TooLarge(name.clone()))?;
        let file_frames = file.frames(&header, file.data_len(size)?)?;
        for (member, &i) in file.members.iter().enumerate() {
            let (handle, _) = open_limited(&path)?;
            signals.push((
                i,
                SignalFile {
                    file: Mutex::new(handle),
                    path: path.clone(),
                    codec: Codec::for_format(file.codec.format)?,
                    spec: header.signals[i].clone(),
                    data_start: file.byte_offset as u64,
                    width: file.members.len(),
                    member,
                    file_frames,
                    n_frames: 0,
                },
            ));
        }
    }
    // Back in the header's order.
    signals.sort_by_key(|(i, _)| *i);
    let mut signals: Vec<SignalFile> = signals.into_iter().map(|(_, s)| s).collect();
    let n_frames = signals.iter().map(|s| s.file_frames).min().unwrap_or(0);
    for s in &mut signals {
        s.n_frames = n_frames;
    }
    let head_frames = if head_s.is_finite() && head_s > 0.0 {
        ((head_s * header.sampling_rate_hz).round() as usize).min(n_frames)
    } else {
        0
    };
    if n_frames <= head_frames {
        return Ok(None);
    }
    let mut metadata = record_metadata(&header);
    let mut channels = Vec::with_capacity(signals.len());
    for (i, s) in signals.iter().enumerate() {
        signal_metadata(&mut metadata, i, &s.spec);
        channels.push(Channel {
            name: channel_name(i, &s.spec),
            unit: s.spec.units.clone(),
            samples: s.read(0, head_frames)?,
        });
    }
    Ok(Some(StreamedRecord {
        head: Recording {
            channels,
            sampling_rate_hz: header.sampling_rate_hz,
            start: start_time(header.base_time.as_deref(), header.base_date.as_deref()),
            metadata,
            device_interpretation: None,
        },
        signals: signals
            .into_iter()
            .map(|s| Box::new(s) as Box<dyn ChannelFile>)
            .collect(),
        n_frames,
    }))
}
