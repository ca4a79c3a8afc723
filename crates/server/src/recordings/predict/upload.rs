//! Reading a recording upload: the multipart fields (`file`, `patient_id`, `screening_id`,
//! `sampling_rate`, and `site` for heart sounds), the size limit, the file-type rules of spec §5 per modality, and turning the
//! bytes into a [`Recording`] with `cardio-formats`.
//!
//! A file arrives streamed: [`read`] writes it to a temporary file under the data folder chunk by
//! chunk and refuses the upload (413) the moment it passes the limit (a 24-hour Holter is
//! 50-250 MB), so a slow upload holds a few kilobytes of memory, not the file. The file rules
//! are checked on what arrived ([`Received::check`]) before the files are read into memory, once,
//! for the decoder ([`Received::load`]).

use std::path::{Path, PathBuf};

use axum::extract::{multipart::MultipartError, Multipart};
use cardio_formats::{FormatError, ReadOptions, Recording};
use cardio_models::murmur::site::Site;
use tokio::io::AsyncWriteExt;

use crate::{platform::error::ApiError, records::analyses::store::Modality};

/// Longest value of a text field (ids, sampling rate).
const MAX_TEXT_FIELD: usize = 256;
/// Highest sampling rate accepted in the `sampling_rate` field.
pub const MAX_SAMPLING_RATE: f64 = 100_000.0;

/// Spec §5: the ECG file error.
pub const ECG_FILE_ERROR: &str = "Please upload a valid ECG file (.pdf, .dat, .txt, .csv, .ecg)";
/// Spec §5: the PCG file error.
pub const PCG_FILE_ERROR: &str = "Please upload an audio file (.wav, .mp3)";
/// Spec §5: the PPG file error.
pub const PPG_FILE_ERROR: &str = "Please upload a CSV or TXT file";
/// PPG from a camera video is not read (no video decoder on the server).
pub const PPG_VIDEO_ERROR: &str =
    "Video PPG files cannot be analysed yet: upload the pulse signal as a CSV or TXT file.";
/// A `site` field that is not one of the four valve areas.
pub fn unknown_site(site: &str) -> String {
    format!("The auscultation site must be AV, PV, TV or MV, not {site}.")
}
/// A `site` field on anything but heart sounds.
pub const SITE_FOR_HEART_SOUNDS: &str =
    "An auscultation site is given for heart-sound recordings only.";
/// Spec §5: no file (ECG and PPG).
pub const NO_FILE: &str = "Please select a file";
/// Spec §5: no file (PCG).
pub const NO_AUDIO_FILE: &str = "Please select an audio file";

/// ECG extensions: the spec's list, then the other formats `cardio-formats` reads (EDF/BDF,
/// MATLAB, HL7 aECG or GE MUSE XML, DICOM waveform, a WFDB header sent with its signal file).
const ECG_EXTENSIONS: &[&str] = &[
    "pdf", "dat", "txt", "csv", "ecg", "edf", "bdf", "mat", "xml", "hea", "dcm",
];
const AUDIO_EXTENSIONS: &[&str] = &["wav", "mp3", "flac", "ogg", "oga"];
const TEXT_EXTENSIONS: &[&str] = &["csv", "txt"];
const TEXT_TYPES: &[&str] = &["text/csv", "application/csv", "text/plain"];
const VIDEO_EXTENSIONS: &[&str] = &["mp4", "mov", "webm", "avi", "mkv", "m4v"];

/// One uploaded file.
pub struct UploadedFile {
    /// The client's file name (only the last path component is kept).
    pub name: String,
    /// The part's media type, lower case, without parameters.
    pub content_type: Option<String>,
    /// The content.
    pub bytes: Vec<u8>,
}

impl UploadedFile {
    fn extension(&self) -> Option<String> {
        extension(&self.name)
    }
}

/// The lower-case extension of a file name.
fn extension(name: &str) -> Option<String> {
    let (_, ext) = name.rsplit_once('.')?;
    Some(ext.to_ascii_lowercase())
}

/// What the file rules read of a file: its name, media type and size.
struct FileInfo<'a> {
    name: &'a str,
    content_type: Option<&'a str>,
    len: u64,
}

/// The fields of an upload.
pub struct Upload {
    /// One file, or a WFDB header with its signal files.
    pub files: Vec<UploadedFile>,
    /// Optional patient.
    pub patient_id: Option<String>,
    /// Optional screening.
    pub screening_id: Option<String>,
    /// Sampling rate for bare value files.
    pub sampling_rate: Option<f64>,
    /// Where on the chest a heart-sound recording was taken.
    pub site: Option<Site>,
}

impl Upload {
    /// The name recorded for the upload (the header's for a WFDB record).
    pub fn display_name(&self) -> String {
        self.files
            .iter()
            .find(|f| f.extension().as_deref() == Some("hea"))
            .or(self.files.first())
            .map(|f| f.name.clone())
            .unwrap_or_default()
    }
}

fn multipart_error(err: &MultipartError, limit: usize) -> ApiError {
    if err.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE {
        too_large(limit)
    } else {
        ApiError::Validation(format!("Invalid upload: {}", err.body_text()))
    }
}

/// The 413 of an upload over `limit` bytes.
pub fn too_large(limit: usize) -> ApiError {
    ApiError::FileTooLarge(format!(
        "File too large: the limit is {} MB.",
        limit / (1024 * 1024)
    ))
}

/// The folder under the data folder where uploads are spooled while they arrive.
pub const SPOOL_DIR: &str = "spool";
/// Spooled files older than this are left over from a crash and removed by the next upload.
const STALE_SPOOL: std::time::Duration = std::time::Duration::from_hours(24);

/// A file of an upload as it arrived: spooled to disk chunk by chunk, not yet read.
pub struct SpooledFile {
    /// The client's file name (only the last path component is kept).
    pub name: String,
    /// The part's media type, lower case, without parameters.
    pub content_type: Option<String>,
    /// Its size in bytes.
    pub len: u64,
    spool: Spool,
}

/// A temporary file, removed when dropped.
struct Spool(PathBuf);

impl Drop for Spool {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// The fields of an upload as it arrived, its files spooled to disk ([`read`]): checked with
/// [`Received::check`] before anything is read into memory, then [`Received::load`]ed.
pub struct Received {
    /// One file, or a WFDB header with its signal files.
    pub files: Vec<SpooledFile>,
    /// Optional patient.
    pub patient_id: Option<String>,
    /// Optional screening.
    pub screening_id: Option<String>,
    /// Sampling rate for bare value files.
    pub sampling_rate: Option<f64>,
    /// Where on the chest a heart-sound recording was taken.
    pub site: Option<Site>,
}

impl Received {
    /// Applies the file rules of spec §5 for `modality` ([`check_files`]); a site is for heart
    /// sounds only.
    ///
    /// # Errors
    /// As [`check_files`]; 422 [`SITE_FOR_HEART_SOUNDS`].
    pub fn check(&self, modality: Modality) -> Result<(), ApiError> {
        if self.site.is_some() && modality != Modality::Pcg {
            return Err(ApiError::Validation(SITE_FOR_HEART_SOUNDS.into()));
        }
        let files: Vec<FileInfo<'_>> = self
            .files
            .iter()
            .map(|f| FileInfo {
                name: &f.name,
                content_type: f.content_type.as_deref(),
                len: f.len,
            })
            .collect();
        check_infos(modality, &files)
    }

    /// Reads the spooled files into memory (on the blocking pool), each into one buffer of its
    /// exact size, and removes them from disk.
    ///
    /// # Errors
    /// 500 when a spooled file cannot be read back.
    pub async fn load(self) -> Result<Upload, ApiError> {
        tokio::task::spawn_blocking(move || {
            let mut files = Vec::with_capacity(self.files.len());
            for file in self.files {
                let bytes = std::fs::read(&file.spool.0).map_err(|e| {
                    ApiError::Internal(format!("cannot read a spooled upload back: {e}"))
                })?;
                files.push(UploadedFile {
                    name: file.name,
                    content_type: file.content_type,
                    bytes,
                });
            }
            Ok(Upload {
                files,
                patient_id: self.patient_id,
                screening_id: self.screening_id,
                sampling_rate: self.sampling_rate,
                site: self.site,
            })
        })
        .await?
    }
}

/// Reads every field, each file written to a temporary file under `<data_dir>/`[`SPOOL_DIR`]
/// chunk by chunk as it arrives (never collected whole in memory); the upload is refused with
/// 413 as soon as its files pass `limit` bytes in total. Text fields are read up to
/// `MAX_TEXT_FIELD` bytes.
///
/// # Errors
/// 413 past `limit`, 422 for a broken multipart body or a bad text field, 500 when the spool
/// folder cannot be written.
pub async fn read(
    mut multipart: Multipart,
    limit: usize,
    data_dir: &Path,
) -> Result<Received, ApiError> {
    let mut upload = Received {
        files: Vec::new(),
        patient_id: None,
        screening_id: None,
        sampling_rate: None,
        site: None,
    };
    let mut total = 0u64;
    let limit_bytes = limit as u64;
    while let Some(mut field) = multipart
        .next_field()
        .await
        .map_err(|e| multipart_error(&e, limit))?
    {
        let name = field.name().unwrap_or_default().to_owned();
        match name.as_str() {
            "file" => {
                let file_name = field
                    .file_name()
                    .map(|n| n.rsplit(['/', '\\']).next().unwrap_or_default().to_owned())
                    .unwrap_or_default();
                let content_type = field.content_type().map(|t| {
                    t.split(';')
                        .next()
                        .unwrap_or_default()
                        .trim()
                        .to_ascii_lowercase()
                });
                let (spool, mut out) = create_spool(data_dir).await?;
                let mut len = 0u64;
                while let Some(chunk) = field
                    .chunk()
                    .await
                    .map_err(|e| multipart_error(&e, limit))?
                {
                    len += chunk.len() as u64;
                    total += chunk.len() as u64;
                    if total > limit_bytes {
                        return Err(too_large(limit));
                    }
                    out.write_all(&chunk).await.map_err(|e| spool_error(&e))?;
                }
                out.flush().await.map_err(|e| spool_error(&e))?;
                drop(out);
                upload.files.push(SpooledFile {
                    name: file_name,
                    content_type,
                    len,
                    spool,
                });
            }
            "patient_id" | "screening_id" | "sampling_rate" | "site" => {
                let mut raw = Vec::new();
                while let Some(chunk) = field
                    .chunk()
                    .await
                    .map_err(|e| multipart_error(&e, limit))?
                {
                    if raw.len() + chunk.len() > MAX_TEXT_FIELD {
                        return Err(ApiError::Validation(format!("{name} is too long.")));
                    }
                    raw.extend_from_slice(&chunk);
                }
                let text = String::from_utf8(raw).map_err(|_| {
                    ApiError::Validation(format!("Invalid upload: {name} is not UTF-8 text."))
                })?;
                let text = text.trim();
                if text.is_empty() {
                    continue;
                }
                match name.as_str() {
                    "patient_id" => upload.patient_id = Some(text.to_owned()),
                    "screening_id" => upload.screening_id = Some(text.to_owned()),
                    "site" => {
                        upload.site = Some(
                            Site::valve(text)
                                .ok_or_else(|| ApiError::Validation(unknown_site(text)))?,
                        );
                    }
                    _ => upload.sampling_rate = Some(parse_sampling_rate(text)?),
                }
            }
            // Other fields are ignored, like a form's extra inputs (their bytes still count
            // towards the request's body limit).
            _ => {}
        }
    }
    Ok(upload)
}

fn spool_error(err: &std::io::Error) -> ApiError {
    ApiError::Internal(format!("cannot spool an upload: {err}"))
}

/// A new temporary file under `<data_dir>/`[`SPOOL_DIR`] (made on first need), after removing
/// the files a crash left there.
async fn create_spool(data_dir: &Path) -> Result<(Spool, tokio::fs::File), ApiError> {
    let dir = data_dir.join(SPOOL_DIR);
    tokio::fs::create_dir_all(&dir)
        .await
        .map_err(|e| spool_error(&e))?;
    if let Ok(mut entries) = tokio::fs::read_dir(&dir).await {
        while let Ok(Some(entry)) = entries.next_entry().await {
            let stale = entry
                .metadata()
                .await
                .ok()
                .and_then(|m| m.modified().ok())
                .and_then(|t| t.elapsed().ok())
                .is_some_and(|age| age > STALE_SPOOL);
            if stale {
                let _ = tokio::fs::remove_file(entry.path()).await;
            }
        }
    }
    let spool = Spool(dir.join(format!("upload-{}.part", uuid::Uuid::new_v4())));
    let file = tokio::fs::File::create(&spool.0)
        .await
        .map_err(|e| spool_error(&e))?;
    Ok((spool, file))
}

fn parse_sampling_rate(text: &str) -> Result<f64, ApiError> {
    match text.parse::<f64>() {
        Ok(hz) if hz.is_finite() && (1.0..=MAX_SAMPLING_RATE).contains(&hz) => Ok(hz),
        _ => Err(ApiError::Validation(format!(
            "sampling_rate must be a number of samples per second between 1 and {MAX_SAMPLING_RATE}."
        ))),
    }
}

/// Applies the file rules of spec §5 for `modality`: a missing file is 422, a wrong type 415.
///
/// # Errors
/// 422 for no file, an empty one, or several that are not one WFDB record; 415 for a file of a
/// type the modality does not take.
pub fn check_files(modality: Modality, upload: &Upload) -> Result<(), ApiError> {
    let files: Vec<FileInfo<'_>> = upload
        .files
        .iter()
        .map(|f| FileInfo {
            name: &f.name,
            content_type: f.content_type.as_deref(),
            len: f.bytes.len() as u64,
        })
        .collect();
    check_infos(modality, &files)
}

fn check_infos(modality: Modality, files: &[FileInfo<'_>]) -> Result<(), ApiError> {
    let no_file = if modality == Modality::Pcg {
        NO_AUDIO_FILE
    } else {
        NO_FILE
    };
    if files.is_empty() {
        return Err(ApiError::Validation(no_file.into()));
    }
    if files.len() > 1 && modality != Modality::Ecg {
        return Err(ApiError::Validation(
            "Upload one file per recording.".into(),
        ));
    }
    for file in files {
        check_file(modality, file)?;
    }
    if files.len() > 1 {
        let headers = files
            .iter()
            .filter(|f| extension(f.name).as_deref() == Some("hea"))
            .count();
        if headers != 1 {
            return Err(ApiError::Validation(
                "Several files are read only as one WFDB record: a .hea header with its signal files."
                    .into(),
            ));
        }
    }
    Ok(())
}

fn check_file(modality: Modality, file: &FileInfo<'_>) -> Result<(), ApiError> {
    let ext = extension(file.name);
    let ext = ext.as_deref().unwrap_or_default();
    let media = file.content_type.unwrap_or_default();
    let ok = match modality {
        Modality::Ecg => ECG_EXTENSIONS.contains(&ext) || media == "application/pdf",
        Modality::Pcg => media.starts_with("audio/") || AUDIO_EXTENSIONS.contains(&ext),
        Modality::Ppg => {
            if media.starts_with("video/") || VIDEO_EXTENSIONS.contains(&ext) {
                return Err(ApiError::UnsupportedMediaType(PPG_VIDEO_ERROR.into()));
            }
            TEXT_TYPES.contains(&media)
                || TEXT_EXTENSIONS.contains(&ext)
                || media.starts_with("audio/")
                || AUDIO_EXTENSIONS.contains(&ext)
        }
        Modality::Clinical => false,
    };
    if !ok {
        let message = match modality {
            Modality::Ecg => ECG_FILE_ERROR,
            Modality::Pcg => PCG_FILE_ERROR,
            _ => PPG_FILE_ERROR,
        };
        return Err(ApiError::UnsupportedMediaType(message.into()));
    }
    if file.len == 0 {
        return Err(ApiError::Validation(format!(
            "The file {:?} is empty.",
            file.name
        )));
    }
    Ok(())
}

/// Reads the recording (blocking: call it off the executor).
///
/// # Errors
/// 415 when the content is of no format the server reads, 422 when it is broken or lacks a
/// sampling rate.
pub fn to_recording(upload: &Upload) -> Result<Recording, ApiError> {
    read_recording(upload, |f| f.bytes.clone())
}

/// [`to_recording`] of an upload no longer needed: a WFDB record's signal files are handed to the
/// reader, not copied (a 100 MB signal file is 100 MB less at the peak of a read-back).
///
/// # Errors
/// As [`to_recording`].
pub fn into_recording(mut upload: Upload) -> Result<Recording, ApiError> {
    if upload.files.len() <= 1 {
        return to_recording(&upload);
    }
    let mut signals: Vec<(String, Vec<u8>)> = upload
        .files
        .iter_mut()
        .filter(|f| f.extension().as_deref() != Some("hea"))
        .map(|f| (f.name.clone(), std::mem::take(&mut f.bytes)))
        .collect();
    read_recording(&upload, |f| {
        signals
            .iter_mut()
            .find(|(name, _)| *name == f.name)
            .map(|(_, bytes)| std::mem::take(bytes))
            .unwrap_or_default()
    })
}

fn read_recording(
    upload: &Upload,
    mut signal_bytes: impl FnMut(&UploadedFile) -> Vec<u8>,
) -> Result<Recording, ApiError> {
    let options = ReadOptions {
        sampling_rate_hz: upload.sampling_rate,
    };
    let result = if upload.files.len() > 1 {
        let header = upload
            .files
            .iter()
            .find(|f| f.extension().as_deref() == Some("hea"))
            .ok_or_else(|| ApiError::Validation("No .hea header among the files.".into()))?;
        cardio_formats::wfdb::read_record(&header.bytes, |wanted| {
            upload
                .files
                .iter()
                .find(|f| f.name == wanted)
                .map(&mut signal_bytes)
                .ok_or_else(|| {
                    FormatError::Unsupported(format!(
                        "the header names the signal file {wanted:?}, which was not uploaded"
                    ))
                })
        })
    } else {
        let file = &upload.files[0];
        if file.extension().as_deref() == Some("hea") {
            return Err(ApiError::Validation(
                "A WFDB header (.hea) holds no samples: upload it together with its signal file (.dat)."
                    .into(),
            ));
        }
        cardio_formats::read_bytes(&file.bytes, Some(&file.name), &options)
    };
    result.map_err(|err| match err {
        FormatError::Unsupported(_) => ApiError::UnsupportedMediaType(capitalise(&err.to_string())),
        FormatError::NoSamplingRate(_) => {
            ApiError::Validation(format!("{err}: send it in the sampling_rate field."))
        }
        other => ApiError::Validation(format!("Cannot read the file: {other}")),
    })
}

fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().collect::<String>() + chars.as_str()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(name: &str, media: Option<&str>) -> Upload {
        Upload {
            files: vec![UploadedFile {
                name: name.into(),
                content_type: media.map(Into::into),
                bytes: b"1\n2\n".to_vec(),
            }],
            patient_id: None,
            screening_id: None,
            sampling_rate: None,
            site: None,
        }
    }

    fn status(result: Result<(), ApiError>) -> u16 {
        result.err().map_or(200, |e| e.status().as_u16())
    }

    #[test]
    fn ecg_extensions_are_case_insensitive() {
        for name in ["a.CSV", "a.Dat", "a.ecg", "a.TXT", "a.pdf", "a.edf"] {
            assert_eq!(
                status(check_files(Modality::Ecg, &file(name, None))),
                200,
                "{name}"
            );
        }
        let err = check_files(Modality::Ecg, &file("a.docx", None)).unwrap_err();
        assert_eq!(err.status(), 415);
        assert_eq!(err.to_string(), ECG_FILE_ERROR);
        assert_eq!(
            status(check_files(
                Modality::Ecg,
                &file("scan", Some("application/pdf"))
            )),
            200
        );
    }

    #[test]
    fn pcg_needs_audio_and_ppg_text_or_audio_but_not_video() {
        assert_eq!(
            status(check_files(
                Modality::Pcg,
                &file("x.bin", Some("audio/wav"))
            )),
            200
        );
        assert_eq!(
            status(check_files(Modality::Pcg, &file("x.WAV", None))),
            200
        );
        let err = check_files(Modality::Pcg, &file("x.csv", Some("text/csv"))).unwrap_err();
        assert_eq!(err.to_string(), PCG_FILE_ERROR);
        assert_eq!(
            status(check_files(Modality::Ppg, &file("x", Some("text/plain")))),
            200
        );
        assert_eq!(
            status(check_files(Modality::Ppg, &file("x.mp3", None))),
            200
        );
        let err = check_files(Modality::Ppg, &file("x.mp4", None)).unwrap_err();
        assert_eq!(err.to_string(), PPG_VIDEO_ERROR);
        let err = check_files(Modality::Ppg, &file("x.json", None)).unwrap_err();
        assert_eq!(err.to_string(), PPG_FILE_ERROR);
    }

    #[test]
    fn missing_files_use_the_spec_texts() {
        let mut none = file("x", None);
        none.files.clear();
        assert_eq!(
            check_files(Modality::Ecg, &none).unwrap_err().to_string(),
            NO_FILE
        );
        assert_eq!(
            check_files(Modality::Pcg, &none).unwrap_err().to_string(),
            NO_AUDIO_FILE
        );
    }

    #[test]
    fn sampling_rate_must_be_a_sane_number() {
        assert_eq!(parse_sampling_rate("100").unwrap(), 100.0);
        for bad in ["0", "-5", "abc", "NaN", "inf", "1e9"] {
            assert_eq!(parse_sampling_rate(bad).unwrap_err().status(), 422, "{bad}");
        }
    }
}
