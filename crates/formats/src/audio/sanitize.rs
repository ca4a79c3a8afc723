//! The container an audio file is rebuilt into before symphonia decodes it: only what decoding
//! needs, with the sizes it declares cut to the bytes present (WAV, FLAC, MP3; Ogg is checked by
//! [`super::vorbis`]).

use super::vorbis::check_ogg_vorbis_headers;
use crate::{Format, FormatError};

/// Rebuilds the container with only what decoding needs, so that symphonia never sees a metadata
/// field whose claimed length it would allocate before reading (found by fuzzing: a FLAC Vorbis
/// comment claiming 4 GiB). WAV keeps its `fmt ` and `data` chunks (with sizes cut to the bytes
/// present), FLAC its STREAMINFO block and frames, MP3 loses its ID3v2 tags.
pub(super) fn sanitize(bytes: &[u8], format: Format) -> Result<Vec<u8>, FormatError> {
    if bytes.starts_with(b"RIFF") {
        sanitize_wav(bytes, format)
    } else if bytes.starts_with(b"fLaC") {
        sanitize_flac(bytes, format)
    } else if bytes.starts_with(b"OggS") {
        check_ogg_vorbis_headers(bytes, format)?;
        Ok(bytes.to_vec())
    } else {
        let mut rest = bytes;
        // ID3v2 (id3.org, "ID3 tag version 2.4.0 - Main Structure" 3.1): 10-byte header with a
        // 28-bit synchsafe size, plus a 10-byte footer when flag bit 4 is set.
        while rest.len() >= 10 && rest.starts_with(b"ID3") {
            let size = rest[6..10]
                .iter()
                .fold(0usize, |acc, &b| (acc << 7) | usize::from(b & 0x7f));
            let footer = if rest[5] & 0x10 != 0 { 10 } else { 0 };
            rest = rest.get(10 + size + footer..).unwrap_or_default();
        }
        // symphonia's probe looks for any container signature in the first bytes, so content that
        // does not start with one could be read as a container this function never checked (found
        // by fuzzing: junk, then a FLAC stream with a 3 GiB comment).
        if !crate::detect::is_mp3_frame_header(rest) {
            return Err(FormatError::invalid(
                format,
                "the stream starts with no WAV, FLAC, OGG or MP3 signature",
            ));
        }
        Ok(rest.to_vec())
    }
}

pub(super) fn u32_le(b: &[u8]) -> usize {
    u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize
}

pub(super) fn sanitize_wav(bytes: &[u8], format: Format) -> Result<Vec<u8>, FormatError> {
    if bytes.get(8..12) != Some(b"WAVE") {
        return Err(FormatError::invalid(
            format,
            "RIFF file without WAVE form type",
        ));
    }
    let (mut fmt, mut data): (Option<&[u8]>, Option<&[u8]>) = (None, None);
    let mut pos = 12;
    while let Some(header) = bytes.get(pos..pos + 8) {
        let size = u32_le(&header[4..]);
        let start = pos + 8;
        let body = &bytes[start..bytes.len().min(start.saturating_add(size))];
        match &header[..4] {
            b"fmt " if fmt.is_none() => fmt = Some(body),
            b"data" => {
                // Streamed files leave the size at 0 or 0xFFFFFFFF: the rest of the file is audio.
                let body = if size == 0 || size == 0xffff_ffff {
                    &bytes[start..]
                } else {
                    body
                };
                data = Some(body);
                break;
            }
            _ => {}
        }
        pos = start.saturating_add(size).saturating_add(size & 1);
    }
    let fmt = fmt.ok_or_else(|| FormatError::invalid(format, "no fmt chunk"))?;
    // WAVEFORMATEX: format tag, channels, sample rate, byte rate, block align, bits per sample.
    // symphonia panics on a zero rate (found by property testing), so check the fields here.
    if fmt.len() < 16 {
        return Err(FormatError::invalid(
            format,
            "fmt chunk shorter than 16 bytes",
        ));
    }
    let u16_at = |o: usize| u16::from_le_bytes([fmt[o], fmt[o + 1]]);
    let tag = u16_at(0);
    if !matches!(tag, 1 | 3 | 6 | 7 | 0xfffe) {
        return Err(FormatError::feature(
            format,
            format!("WAV encoding with format tag {tag:#06x} (PCM, IEEE float, A-law and µ-law are read)"),
        ));
    }
    if u16_at(2) == 0 || u32_le(&fmt[4..]) == 0 || u16_at(12) == 0 || u16_at(14) == 0 {
        return Err(FormatError::invalid(
            format,
            "fmt chunk with zero channels, sample rate, block align or bits per sample",
        ));
    }
    let data = data.ok_or_else(|| FormatError::invalid(format, "no data chunk"))?;
    let chunk_len = |b: &[u8]| {
        u32::try_from(b.len())
            .map(u32::to_le_bytes)
            .map_err(|_| FormatError::TooLarge("a WAV chunk over 4 GiB".into()))
    };
    let mut out = Vec::with_capacity(28 + fmt.len() + data.len());
    out.extend(b"RIFF");
    out.extend([0; 4]); // the RIFF size, set below
    out.extend(b"WAVE");
    out.extend(b"fmt ");
    out.extend(chunk_len(fmt)?);
    out.extend(fmt);
    if fmt.len() % 2 == 1 {
        out.push(0);
    }
    out.extend(b"data");
    out.extend(chunk_len(data)?);
    out.extend(data);
    let riff_len = chunk_len(&out[8..])?;
    out[4..8].copy_from_slice(&riff_len);
    Ok(out)
}

pub(super) fn sanitize_flac(bytes: &[u8], format: Format) -> Result<Vec<u8>, FormatError> {
    // FLAC (RFC 9639, 8): "fLaC", then metadata blocks, each a 1-byte last-flag/type and a 24-bit
    // length; STREAMINFO (type 0) comes first. The frames follow the last block.
    let mut pos = 4;
    let mut stream_info: Option<&[u8]> = None;
    loop {
        let header = bytes
            .get(pos..pos + 4)
            .ok_or_else(|| FormatError::invalid(format, "truncated FLAC metadata"))?;
        let len =
            (usize::from(header[1]) << 16) | (usize::from(header[2]) << 8) | usize::from(header[3]);
        let body = bytes.get(pos + 4..pos + 4 + len).ok_or_else(|| {
            FormatError::invalid(format, "a FLAC metadata block runs past the end")
        })?;
        let block_type = header[0] & 0x7f;
        if block_type == 0 && stream_info.is_none() {
            stream_info = Some(body);
        }
        pos += 4 + len;
        if header[0] & 0x80 != 0 {
            break;
        }
    }
    let info = stream_info.ok_or_else(|| FormatError::invalid(format, "no STREAMINFO block"))?;
    let mut out = Vec::with_capacity(8 + info.len() + bytes.len() - pos);
    out.extend(b"fLaC");
    out.push(0x80); // last metadata block, type STREAMINFO
    out.extend(&u32::try_from(info.len()).unwrap_or(0).to_be_bytes()[1..]);
    out.extend(info);
    out.extend(&bytes[pos..]);
    Ok(out)
}
