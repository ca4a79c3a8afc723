//! Format detection: the content first (magic numbers, header structure), the file extension second.

use std::fmt;

/// A file format this crate recognises.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// PhysioNet WFDB header (`.hea`), see the `header(5)` man page.
    WfdbHeader,
    /// PhysioNet WFDB annotation file in MIT format (`.atr`, `.qrs`, ...), see `annot(5)`.
    WfdbAnnotation,
    /// MATLAB level 4 MAT-file.
    Mat4,
    /// MATLAB level 5 MAT-file (version 7 and earlier, not the HDF5-based 7.3).
    Mat5,
    /// European Data Format, EDF or EDF+ (Kemp et al. 1992, 2003).
    Edf,
    /// BioSemi's 24-bit variant of EDF.
    Bdf,
    /// Delimited text: CSV, TSV or whitespace-separated columns.
    Csv,
    /// RIFF WAVE audio.
    Wav,
    /// FLAC audio.
    Flac,
    /// MPEG audio layer III.
    Mp3,
    /// Ogg container (Vorbis audio).
    Ogg,
    /// HL7 annotated ECG (aECG) XML.
    Hl7Aecg,
    /// ISHNE Holter (`.ecg`).
    Ishne,
    /// PDF document.
    Pdf,
    /// GE MUSE XML export of a resting ECG (`<RestingECG>`).
    MuseXml,
    /// DICOM waveform object (12-lead ECG waveform storage), DICOM PS3.3 C.10.9.
    DicomWaveform,
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::WfdbHeader => "WFDB header",
            Format::WfdbAnnotation => "WFDB annotation",
            Format::Mat4 => "MATLAB v4",
            Format::Mat5 => "MATLAB v5",
            Format::Edf => "EDF",
            Format::Bdf => "BDF",
            Format::Csv => "CSV/TXT",
            Format::Wav => "WAV",
            Format::Flac => "FLAC",
            Format::Mp3 => "MP3",
            Format::Ogg => "OGG",
            Format::Hl7Aecg => "HL7 aECG",
            Format::Ishne => "ISHNE",
            Format::Pdf => "PDF",
            Format::MuseXml => "GE MUSE XML",
            Format::DicomWaveform => "DICOM waveform",
        })
    }
}

/// Detects the format of `bytes`, from the content first and `name_hint`'s extension second.
///
/// Returns `None` when neither tells.
///
/// ```
/// use cardio_formats::{detect, Format};
/// assert_eq!(detect(b"RIFF\x24\0\0\0WAVEfmt ", None), Some(Format::Wav));
/// assert_eq!(detect(b"100 2 360 650000\n100.dat 212 200 11 1024 995 -22131 0 MLII\n", None),
///            Some(Format::WfdbHeader));
/// assert_eq!(detect(&[0x12, 0x70], Some("100.atr")), Some(Format::WfdbAnnotation));
/// ```
pub fn detect(bytes: &[u8], name_hint: Option<&str>) -> Option<Format> {
    by_content(bytes).or_else(|| by_extension(name_hint?))
}

fn by_content(bytes: &[u8]) -> Option<Format> {
    let starts = |magic: &[u8]| bytes.starts_with(magic);
    if starts(b"RIFF") && bytes.get(8..12) == Some(b"WAVE") {
        return Some(Format::Wav);
    }
    if starts(b"fLaC") {
        return Some(Format::Flac);
    }
    if starts(b"OggS") {
        return Some(Format::Ogg);
    }
    // DICOM Part 10: a 128-byte preamble, then "DICM" (PS3.10 7.1).
    if bytes.get(128..132) == Some(b"DICM") {
        return Some(Format::DicomWaveform);
    }
    if starts(b"%PDF") {
        return Some(Format::Pdf);
    }
    if starts(b"ISHNE1.0") || starts(b"ANN  1.0") {
        return Some(Format::Ishne);
    }
    if starts(b"\xffBIOSEMI") {
        return Some(Format::Bdf);
    }
    if bytes.len() >= 256 && starts(b"0       ") && bytes[..256].iter().all(u8::is_ascii) {
        return Some(Format::Edf);
    }
    if crate::mat::looks_like_mat5(bytes) {
        return Some(Format::Mat5);
    }
    if crate::mat::looks_like_mat4(bytes) {
        return Some(Format::Mat4);
    }
    if starts(b"ID3") || is_mp3_frame_header(bytes) {
        return Some(Format::Mp3);
    }
    if bytes.starts_with(b"\xff\xfe") || bytes.starts_with(b"\xfe\xff") {
        // UTF-16 text with a byte-order mark (Excel's "Unicode text").
        let head = &bytes[..bytes.len().min(8192) & !1];
        return crate::csv::looks_like_table(&crate::csv::decode(head)).then_some(Format::Csv);
    }
    if is_muse_xml(bytes) {
        return Some(Format::MuseXml);
    }
    let text = text_prefix(bytes)?;
    let trimmed = text.trim_start_matches('\u{feff}').trim_start();
    if trimmed.starts_with("<?xml") || trimmed.starts_with("<AnnotatedECG") {
        return trimmed.contains("AnnotatedECG").then_some(Format::Hl7Aecg);
    }
    if crate::wfdb::looks_like_header(trimmed) {
        return Some(Format::WfdbHeader);
    }
    if crate::csv::looks_like_table(trimmed) {
        return Some(Format::Csv);
    }
    None
}

fn by_extension(name: &str) -> Option<Format> {
    let ext = std::path::Path::new(name)
        .extension()?
        .to_str()?
        .to_ascii_lowercase();
    Some(match ext.as_str() {
        "hea" => Format::WfdbHeader,
        "atr" | "qrs" | "ann" | "ari" | "pwave" | "ecgpu" | "man" | "apn" => Format::WfdbAnnotation,
        "mat" => Format::Mat4,
        "edf" => Format::Edf,
        "bdf" => Format::Bdf,
        "csv" | "txt" | "tsv" => Format::Csv,
        "wav" => Format::Wav,
        "flac" => Format::Flac,
        "mp3" => Format::Mp3,
        "ogg" | "oga" => Format::Ogg,
        "xml" => Format::Hl7Aecg,
        "ecg" => Format::Ishne,
        "dcm" => Format::DicomWaveform,
        _ => {
            // An MPEG audio frame sync is too weak to trust without the extension.
            return None;
        }
    })
}

/// An MPEG audio layer III frame header (ISO/IEC 11172-3 2.4.1.3): 11-bit sync, layer bits `01`,
/// a bitrate index other than "free" and "bad", a defined sampling frequency.
pub(crate) fn is_mp3_frame_header(bytes: &[u8]) -> bool {
    matches!(bytes, [0xff, b1, b2, ..]
        if b1 & 0xe0 == 0xe0 && (b1 >> 1) & 0b11 == 0b01 && (b1 >> 3) & 0b11 != 0b01
            && (1..15).contains(&(b2 >> 4)) && (b2 >> 2) & 0b11 != 0b11)
}

/// A GE MUSE export: XML whose first kilobytes open a `<RestingECG>` element. Looked for in the
/// bytes, not the text: MUSE writes ISO-8859-1, which is not UTF-8 once a name has an accent.
fn is_muse_xml(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(4096)];
    let head = head.strip_prefix(b"\xef\xbb\xbf").unwrap_or(head);
    head.trim_ascii_start().starts_with(b"<") && head.windows(11).any(|w| w == b"<RestingECG")
}

/// The first few kilobytes as text, when they are text (UTF-8, no NUL bytes).
fn text_prefix(bytes: &[u8]) -> Option<&str> {
    let head = &bytes[..bytes.len().min(4096)];
    if head.is_empty() || head.contains(&0) {
        return None;
    }
    match std::str::from_utf8(head) {
        Ok(s) => Some(s),
        // A multi-byte character cut at the 4096-byte boundary is still text.
        Err(e) if e.error_len().is_none() && e.valid_up_to() + 4 >= head.len() => {
            std::str::from_utf8(&head[..e.valid_up_to()]).ok()
        }
        Err(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_wins_over_the_extension() {
        assert_eq!(detect(b"fLaC\0\0\0\x22", Some("x.wav")), Some(Format::Flac));
        assert_eq!(detect(b"a,b\n1,2\n", Some("x.edf")), Some(Format::Csv));
    }

    #[test]
    fn the_extension_decides_when_the_content_does_not() {
        assert_eq!(
            detect(&[1, 2, 3, 0], Some("X.ATR")),
            Some(Format::WfdbAnnotation)
        );
        assert_eq!(
            detect(&[1, 2, 3, 0], Some("holter.ecg")),
            Some(Format::Ishne)
        );
        assert_eq!(detect(&[1, 2, 3, 0], Some("noext")), None);
        assert_eq!(detect(&[1, 2, 3, 0], None), None);
    }

    #[test]
    fn magic_numbers_are_recognised() {
        assert_eq!(detect(b"OggS\0\x02", None), Some(Format::Ogg));
        assert_eq!(detect(b"%PDF-1.7", None), Some(Format::Pdf));
        assert_eq!(detect(b"\xffBIOSEMI", None), Some(Format::Bdf));
        assert_eq!(detect(b"ID3\x04\0", None), Some(Format::Mp3));
        assert_eq!(
            detect(b"<?xml version=\"1.0\"?><AnnotatedECG>", None),
            Some(Format::Hl7Aecg)
        );
        assert_eq!(
            detect(
                b"<?xml version=\"1.0\"?>\n<!DOCTYPE RestingECG SYSTEM \"restecg.dtd\">\n<RestingECG>",
                Some("x.xml")
            ),
            Some(Format::MuseXml)
        );
        let mut dicom = vec![0u8; 132];
        dicom[128..].copy_from_slice(b"DICM");
        assert_eq!(detect(&dicom, Some("x.bin")), Some(Format::DicomWaveform));
    }
}
