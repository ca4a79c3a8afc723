//! Recordings on disk read a stretch at a time: a day-long Holter record (94 MB of WFDB format
//! 212, 104 MB of ISHNE, 86 MB of EDF, 500 MB and more as numbers) is opened, its first seconds
//! read as a [`Recording`], and each channel then read from any sample to any other straight from
//! its file, never held whole. [`open_path`] opens WFDB records ([`crate::wfdb::open_record`]),
//! ISHNE files ([`crate::ishne::open`]) and EDF, EDF+ and BDF files ([`crate::edf::open`], whole
//! data records at a time); other formats are read whole ([`crate::read_path`]).
//!
//! A channel read this way gives the samples the format's whole read gives, to the bit.

use std::{
    fmt::Debug,
    fs::File,
    io::{Read, Seek, SeekFrom},
    path::Path,
    sync::Mutex,
};

use crate::{Format, FormatError, Recording, MAX_FILE_BYTES};

/// One channel of a file on disk, read a stretch at a time.
pub trait ChannelFile: Debug + Send + Sync {
    /// Samples in the channel (the record's length).
    fn len(&self) -> usize;

    /// Whether the channel has no sample.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Samples `from..to` in physical units (clamped to the channel; NaN where the file marks a
    /// sample invalid).
    ///
    /// # Errors
    /// [`FormatError::Io`] when the file cannot be read.
    fn read(&self, from: usize, to: usize) -> Result<Vec<f64>, FormatError>;
}

/// A recording opened for reading a stretch at a time.
#[derive(Debug)]
pub struct StreamedRecord {
    /// The record's first seconds, every channel, with the metadata a whole read gives (WFDB's
    /// checksum, which needs every sample, is not verified).
    pub head: Recording,
    /// Every channel, in the order of `head`'s.
    pub signals: Vec<Box<dyn ChannelFile>>,
    /// Samples per channel in the whole record.
    pub n_frames: usize,
}

/// Opens `path` for reading a stretch at a time, with its first `head_s` seconds read: a WFDB
/// record by its `.hea`, an ISHNE, EDF or BDF file by its content; `None` for any other file, and
/// for a record no longer than `head_s` (nothing to gain: read it whole, which also checks a WFDB
/// checksum).
///
/// # Errors
/// The format's errors for a file that is one of those but cannot be read.
pub fn open_path(path: &Path, head_s: f64) -> Result<Option<StreamedRecord>, FormatError> {
    if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("hea"))
    {
        return crate::wfdb::open_record(path, head_s);
    }
    let mut magic = Vec::new();
    File::open(path)
        .map_err(io_error(path))?
        .take(256)
        .read_to_end(&mut magic)
        .map_err(io_error(path))?;
    if magic.starts_with(b"ISHNE1.0") {
        return crate::ishne::open(path, head_s);
    }
    match crate::detect(&magic, None) {
        Some(Format::Edf | Format::Bdf) => crate::edf::open(path, head_s),
        _ => Ok(None),
    }
}

/// The [`FormatError::Io`] of `path`.
pub(crate) fn io_error(path: &Path) -> impl Fn(std::io::Error) -> FormatError {
    let path = path.display().to_string();
    move |reason| FormatError::Io {
        path: path.clone(),
        reason,
    }
}

/// Opens `path` and gives its length, refusing a file over [`MAX_FILE_BYTES`].
pub(crate) fn open_limited(path: &Path) -> Result<(File, u64), FormatError> {
    let file = File::open(path).map_err(io_error(path))?;
    let size = file.metadata().map_err(io_error(path))?.len();
    if size > MAX_FILE_BYTES {
        return Err(FormatError::TooLarge(format!(
            "{} (larger than {MAX_FILE_BYTES} bytes)",
            path.display()
        )));
    }
    Ok((file, size))
}

/// `len` bytes of `file` (at `path`) from `offset`.
pub(crate) fn read_at(
    file: &Mutex<File>,
    path: &Path,
    offset: u64,
    len: u64,
) -> Result<Vec<u8>, FormatError> {
    let len = usize::try_from(len).map_err(|_| FormatError::TooLarge("a stretch".into()))?;
    let mut bytes = vec![0u8; len];
    let mut file = file
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    file.seek(SeekFrom::Start(offset)).map_err(io_error(path))?;
    file.read_exact(&mut bytes).map_err(io_error(path))?;
    Ok(bytes)
}
