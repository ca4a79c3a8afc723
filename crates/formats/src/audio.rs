//! Audio files (WAV, FLAC, MP3, OGG/Vorbis) decoded with symphonia.
//!
//! WAV follows Microsoft's RIFF WAVE specification (PCM 8/16/24/32-bit, IEEE float, A-law, µ-law,
//! `WAVE_FORMAT_EXTENSIBLE`); FLAC (RFC 9639), MPEG-1/2 layer III (ISO/IEC 11172-3) and Vorbis I in
//! Ogg (RFC 3533) are decoded by symphonia's pure-Rust codecs. Samples come out as `f64` in
//! `[-1, 1]` (full scale). A multi-channel file gives a `mix` channel (the mean of all channels,
//! first, so that channel 0 is the mono signal) followed by each channel (`left`, `right` for stereo).

use std::collections::BTreeMap;
use std::io::Cursor;

use symphonia::core::audio::SampleBuffer;
use symphonia::core::codecs::{DecoderOptions, CODEC_TYPE_NULL};
use symphonia::core::errors::Error as AudioError;
use symphonia::core::formats::FormatOptions;
use symphonia::core::io::MediaSourceStream;
use symphonia::core::meta::MetadataOptions;
use symphonia::core::probe::Hint;

use crate::{Channel, Format, FormatError, Recording, MAX_CHANNELS, MAX_VALUES};

/// Decodes an audio file.
///
/// `format` is the detected format; it only gives symphonia's probe a hint.
///
/// # Errors
/// [`FormatError::Invalid`] when the container or the stream cannot be decoded,
/// [`FormatError::TooLarge`] past [`MAX_VALUES`] decoded samples, or, for a compressed stream,
/// past [`crate::max_decoded_values`] of its size.
pub fn read(bytes: &[u8], format: Format) -> Result<Recording, FormatError> {
    let owned = sanitize(bytes, format)?;
    // symphonia is third-party code fed arbitrary bytes: contain any panic it may have as an error.
    std::panic::catch_unwind(move || decode(owned, format)).unwrap_or_else(|_| {
        Err(FormatError::invalid(
            format,
            "the decoder failed on this stream",
        ))
    })
}

/// Rebuilds the container with only what decoding needs, so that symphonia never sees a metadata
/// field whose claimed length it would allocate before reading (found by fuzzing: a FLAC Vorbis
/// comment claiming 4 GiB). WAV keeps its `fmt ` and `data` chunks (with sizes cut to the bytes
/// present), FLAC its STREAMINFO block and frames, MP3 loses its ID3v2 tags.
fn sanitize(bytes: &[u8], format: Format) -> Result<Vec<u8>, FormatError> {
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

fn u32_le(b: &[u8]) -> usize {
    u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize
}

fn sanitize_wav(bytes: &[u8], format: Format) -> Result<Vec<u8>, FormatError> {
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

fn sanitize_flac(bytes: &[u8], format: Format) -> Result<Vec<u8>, FormatError> {
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

/// Largest Vorbis codebook lookup table accepted (values); real encoders stay far below.
const MAX_VORBIS_LOOKUP: u64 = 1 << 22;

/// Checks the Vorbis comment and setup headers of every logical stream of an Ogg file (RFC 3533
/// pages; Vorbis I specification 4.2 and 3.2.1) before symphonia reads them: symphonia allocates
/// a comment's claimed length and a codebook's `entries * dimensions` lookup table before reading
/// them, so a crafted file could ask for gigabytes or terabytes.
///
/// Returns how many codebooks were checked.
fn check_ogg_vorbis_headers(bytes: &[u8], format: Format) -> Result<u64, FormatError> {
    let mut checked = 0;
    let mut partial: BTreeMap<u32, Vec<u8>> = BTreeMap::new();
    let mut pos = 0;
    while let Some(header) = bytes.get(pos..pos + 27) {
        if &header[..4] != b"OggS" {
            // symphonia resynchronises on the next capture pattern; so does this check.
            match bytes[pos + 1..].windows(4).position(|w| w == b"OggS") {
                Some(skip) => {
                    pos += 1 + skip;
                    continue;
                }
                None => break,
            }
        }
        let n_segments = usize::from(header[26]);
        let Some(table) = bytes.get(pos + 27..pos + 27 + n_segments) else {
            break;
        };
        let body_start = pos + 27 + n_segments;
        let body_len: usize = table.iter().map(|&b| usize::from(b)).sum();
        let body = &bytes[body_start.min(bytes.len())..(body_start + body_len).min(bytes.len())];
        let serial = u32::from_le_bytes([header[14], header[15], header[16], header[17]]);
        let packet = partial.entry(serial).or_default();
        let mut offset = 0;
        for &lace in table {
            let end = (offset + usize::from(lace)).min(body.len());
            packet.extend_from_slice(&body[offset.min(end)..end]);
            offset = end;
            if lace < 255 {
                checked += check_vorbis_packet(packet, format)?;
                packet.clear();
            }
        }
        pos = body_start + body_len;
    }
    for packet in partial.values() {
        checked += check_vorbis_packet(packet, format)?;
    }
    Ok(checked)
}

/// Least-significant-bit-first reader of a Vorbis packet.
struct Bits<'a> {
    data: &'a [u8],
    bit: usize,
}

impl Bits<'_> {
    fn read(&mut self, n: u32) -> Option<u64> {
        let mut value = 0u64;
        for i in 0..n {
            let byte = self.data.get(self.bit / 8)?;
            value |= u64::from((byte >> (self.bit % 8)) & 1) << i;
            self.bit += 1;
        }
        Some(value)
    }
}

/// The Vorbis `ilog`: the position of the highest set bit.
fn ilog(x: u64) -> u32 {
    64 - x.leading_zeros()
}

/// Checks one packet; returns how many codebooks of a setup header were checked completely.
fn check_vorbis_packet(packet: &[u8], format: Format) -> Result<u64, FormatError> {
    let bad = |what: String| FormatError::invalid(format, format!("Vorbis header: {what}"));
    if let Some(rest) = packet.strip_prefix(b"\x03vorbis") {
        // Comment header: vendor length and string, comment count, each length and string.
        let mut at = 0usize;
        let take_len = |at: &mut usize| -> Option<usize> {
            let b = rest.get(*at..*at + 4)?;
            *at += 4;
            Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
        };
        let Some(vendor) = take_len(&mut at) else {
            return Ok(0);
        };
        if vendor > rest.len() - at {
            return Err(bad(format!(
                "vendor string of {vendor} bytes in a shorter packet"
            )));
        }
        at += vendor;
        let Some(count) = take_len(&mut at) else {
            return Ok(0);
        };
        for _ in 0..count {
            let Some(len) = take_len(&mut at) else {
                return Ok(0);
            };
            if len > rest.len() - at {
                return Err(bad(format!("comment of {len} bytes in a shorter packet")));
            }
            at += len;
        }
    } else if let Some(rest) = packet.strip_prefix(b"\x05vorbis") {
        // Setup header: the codebooks come first (Vorbis I 3.2.1).
        let mut bits = Bits { data: rest, bit: 0 };
        let Some(count) = bits.read(8) else {
            return Ok(0);
        };
        let mut checked = 0;
        for _ in 0..=count {
            let (Some(sync), Some(dimensions), Some(entries), Some(ordered)) =
                (bits.read(24), bits.read(16), bits.read(24), bits.read(1))
            else {
                return Ok(checked);
            };
            if sync != 0x56_4342 {
                // Not a codebook: symphonia refuses the header itself.
                return Ok(checked);
            }
            if ordered == 0 {
                let Some(sparse) = bits.read(1) else {
                    return Ok(0);
                };
                for _ in 0..entries {
                    let used = if sparse == 1 { bits.read(1) } else { Some(1) };
                    match used {
                        Some(1) => {
                            if bits.read(5).is_none() {
                                return Ok(0);
                            }
                        }
                        Some(_) => {}
                        None => return Ok(0),
                    }
                }
            } else {
                if bits.read(5).is_none() {
                    return Ok(0);
                }
                let mut current = 0u64;
                while current < entries {
                    let Some(number) = bits.read(ilog(entries - current)) else {
                        return Ok(0);
                    };
                    current += number;
                }
            }
            let Some(lookup_type) = bits.read(4) else {
                return Ok(0);
            };
            if lookup_type == 1 || lookup_type == 2 {
                let values = entries * dimensions;
                if dimensions == 0 || values > MAX_VORBIS_LOOKUP {
                    return Err(bad(format!(
                        "codebook lookup of {entries} entries x {dimensions} dimensions"
                    )));
                }
                let (Some(_min), Some(_delta), Some(value_bits), Some(_sequence)) =
                    (bits.read(32), bits.read(32), bits.read(4), bits.read(1))
                else {
                    return Ok(0);
                };
                let lookup_values = if lookup_type == 1 {
                    // lookup1_values: the largest v with v^dimensions <= entries.
                    let mut v = 0u64;
                    while (v + 1)
                        .checked_pow(u32::try_from(dimensions).unwrap_or(u32::MAX))
                        .is_some_and(|p| p <= entries)
                    {
                        v += 1;
                    }
                    v
                } else {
                    values
                };
                let skip = usize::try_from(lookup_values * (value_bits + 1)).unwrap_or(usize::MAX);
                bits.bit = bits.bit.saturating_add(skip);
            }
            checked += 1;
        }
        return Ok(checked);
    }
    Ok(0)
}

fn decode(bytes: Vec<u8>, format: Format) -> Result<Recording, FormatError> {
    // A PCM WAV holds its samples as they are; a compressed stream is bounded by its size.
    let input_len = bytes.len();
    let limit = if format == Format::Wav {
        MAX_VALUES
    } else {
        crate::max_decoded_values(input_len)
    };
    let invalid =
        |what: &str, err: &AudioError| FormatError::invalid(format, format!("{what}: {err}"));
    let mut hint = Hint::new();
    hint.with_extension(match format {
        Format::Flac => "flac",
        Format::Mp3 => "mp3",
        Format::Ogg => "ogg",
        _ => "wav",
    });
    let stream = MediaSourceStream::new(
        Box::new(Cursor::new(bytes)),
        symphonia::core::io::MediaSourceStreamOptions::default(),
    );
    let probed = symphonia::default::get_probe()
        .format(
            &hint,
            stream,
            &FormatOptions::default(),
            &MetadataOptions::default(),
        )
        .map_err(|e| invalid("cannot open the container", &e))?;
    let mut reader = probed.format;
    let track = reader
        .tracks()
        .iter()
        .find(|t| t.codec_params.codec != CODEC_TYPE_NULL)
        .ok_or_else(|| FormatError::invalid(format, "no audio track"))?;
    let track_id = track.id;
    let params = track.codec_params.clone();
    let sampling_rate_hz = f64::from(
        params
            .sample_rate
            .filter(|&r| r > 0)
            .ok_or_else(|| FormatError::invalid(format, "no sample rate"))?,
    );
    let mut decoder = symphonia::default::get_codecs()
        .make(&params, &DecoderOptions::default())
        .map_err(|e| invalid("unsupported codec", &e))?;
    let mut n_channels = params.channels.map(symphonia::core::audio::Channels::count);
    let mut interleaved: Vec<f64> = Vec::new();
    let mut corrupt_packets = 0usize;
    loop {
        let packet = match reader.next_packet() {
            Ok(p) => p,
            Err(AudioError::IoError(e)) if e.kind() == std::io::ErrorKind::UnexpectedEof => break,
            Err(AudioError::ResetRequired) => break,
            Err(e) if interleaved.is_empty() => return Err(invalid("cannot read packets", &e)),
            // A damaged tail after good audio: keep what was decoded.
            Err(_) => break,
        };
        if packet.track_id() != track_id {
            continue;
        }
        let decoded = match decoder.decode(&packet) {
            Ok(d) => d,
            Err(AudioError::DecodeError(_)) => {
                corrupt_packets += 1;
                continue;
            }
            Err(e) => return Err(invalid("cannot decode", &e)),
        };
        let spec = *decoded.spec();
        let count = spec.channels.count();
        if count == 0
            || count > MAX_CHANNELS
            || n_channels.is_some_and(|n| n != count) && !interleaved.is_empty()
        {
            return Err(FormatError::invalid(
                format,
                "the channel count changes or is invalid",
            ));
        }
        n_channels = Some(count);
        if decoded.frames() == 0 {
            continue;
        }
        if interleaved.len() + decoded.frames() * count > limit {
            return Err(FormatError::TooLarge(format!(
                "a {input_len}-byte file decoding to more than {limit} audio samples"
            )));
        }
        let mut buffer = SampleBuffer::<f64>::new(decoded.capacity() as u64, spec);
        buffer.copy_interleaved_ref(decoded);
        interleaved.extend_from_slice(buffer.samples());
    }
    let n_channels = n_channels.unwrap_or(1).max(1);
    if interleaved.is_empty() {
        return Err(FormatError::invalid(format, "no audio samples"));
    }
    let frames = interleaved.len() / n_channels;
    let mut channels: Vec<Channel> = Vec::with_capacity(n_channels + 1);
    let per_channel: Vec<Vec<f64>> = (0..n_channels)
        .map(|c| {
            interleaved
                .iter()
                .skip(c)
                .step_by(n_channels)
                .take(frames)
                .copied()
                .collect()
        })
        .collect();
    if n_channels == 1 {
        channels.push(Channel {
            name: "audio".into(),
            unit: String::new(),
            samples: per_channel.into_iter().next().unwrap_or_default(),
        });
    } else {
        let mix = interleaved
            .chunks_exact(n_channels)
            .map(|frame| frame.iter().sum::<f64>() / n_channels as f64)
            .collect();
        channels.push(Channel {
            name: "mix".into(),
            unit: String::new(),
            samples: mix,
        });
        for (c, samples) in per_channel.into_iter().enumerate() {
            let name = match (n_channels, c) {
                (2, 0) => "left".to_string(),
                (2, 1) => "right".to_string(),
                _ => format!("channel {}", c + 1),
            };
            channels.push(Channel {
                name,
                unit: String::new(),
                samples,
            });
        }
    }
    let mut metadata = BTreeMap::new();
    metadata.insert("format".into(), format.to_string());
    metadata.insert("channels".into(), n_channels.to_string());
    if let Some(bits) = params.bits_per_sample {
        metadata.insert("bits_per_sample".into(), bits.to_string());
    }
    if corrupt_packets > 0 {
        metadata.insert(
            "corrupt_packets_skipped".into(),
            corrupt_packets.to_string(),
        );
    }
    Ok(Recording {
        channels,
        sampling_rate_hz,
        start: None,
        metadata,
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A canonical WAV file: `format_tag` 1 (PCM) or 3 (float), samples already encoded.
    pub(crate) fn wav(
        format_tag: u16,
        channels: u16,
        rate: u32,
        bits: u16,
        data: &[u8],
    ) -> Vec<u8> {
        let block = channels * bits / 8;
        let mut out = Vec::new();
        out.extend(b"RIFF");
        out.extend((36 + data.len() as u32).to_le_bytes());
        out.extend(b"WAVEfmt ");
        out.extend(16u32.to_le_bytes());
        out.extend(format_tag.to_le_bytes());
        out.extend(channels.to_le_bytes());
        out.extend(rate.to_le_bytes());
        out.extend((rate * u32::from(block)).to_le_bytes());
        out.extend(block.to_le_bytes());
        out.extend(bits.to_le_bytes());
        out.extend(b"data");
        out.extend((data.len() as u32).to_le_bytes());
        out.extend(data);
        out
    }

    #[test]
    fn reads_16_bit_mono_pcm_as_full_scale_values() {
        let data: Vec<u8> = [0i16, 16384, -32768, 32767]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        let rec = read(&wav(1, 1, 1000, 16, &data), Format::Wav).unwrap();
        assert_eq!(rec.sampling_rate_hz, 1000.0);
        assert_eq!(rec.channels.len(), 1);
        let s = &rec.channels[0].samples;
        assert_eq!(&s[..3], &[0.0, 0.5, -1.0]);
        assert!((s[3] - 1.0).abs() < 1e-4);
    }

    #[test]
    fn stereo_gives_the_mix_first_then_each_channel() {
        let data: Vec<u8> = [16384i16, 0, -16384, -16384]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        let rec = read(&wav(1, 2, 4000, 16, &data), Format::Wav).unwrap();
        let names: Vec<&str> = rec.channels.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["mix", "left", "right"]);
        assert_eq!(rec.channels[0].samples, vec![0.25, -0.5]);
        assert_eq!(rec.channels[1].samples, vec![0.5, -0.5]);
        assert_eq!(rec.channels[2].samples, vec![0.0, -0.5]);
    }

    #[test]
    fn reads_8_24_and_32_bit_pcm_and_float() {
        let u8_data = [128u8, 192, 0];
        let rec = read(&wav(1, 1, 8000, 8, &u8_data), Format::Wav).unwrap();
        assert_eq!(rec.channels[0].samples, vec![0.0, 0.5, -1.0]);
        let d24: Vec<u8> = [0x40_0000i32, -0x80_0000]
            .iter()
            .flat_map(|v| v.to_le_bytes()[..3].to_vec())
            .collect();
        let rec = read(&wav(1, 1, 8000, 24, &d24), Format::Wav).unwrap();
        assert_eq!(rec.channels[0].samples, vec![0.5, -1.0]);
        let d32: Vec<u8> = [0x4000_0000i32, i32::MIN]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        let rec = read(&wav(1, 1, 8000, 32, &d32), Format::Wav).unwrap();
        assert_eq!(rec.channels[0].samples, vec![0.5, -1.0]);
        let f32_data: Vec<u8> = [0.25f32, -0.75]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        let rec = read(&wav(3, 1, 8000, 32, &f32_data), Format::Wav).unwrap();
        assert_eq!(rec.channels[0].samples, vec![0.25, -0.75]);
    }

    #[test]
    fn extra_chunks_are_dropped_and_a_streamed_data_size_means_the_rest_of_the_file() {
        let pcm: Vec<u8> = [16384i16, -16384]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        let mut bytes = wav(1, 1, 1000, 16, &pcm);
        // A LIST chunk claiming 4 GiB before the data, and a data size of 0xFFFFFFFF.
        let data_at = bytes.len() - pcm.len() - 8;
        let mut list = b"LIST".to_vec();
        list.extend(5u32.to_le_bytes());
        list.extend(b"INFO!\0");
        bytes.splice(data_at..data_at, list);
        let size_at = bytes.len() - pcm.len() - 4;
        bytes[size_at..size_at + 4].copy_from_slice(&u32::MAX.to_le_bytes());
        let rec = read(&bytes, Format::Wav).unwrap();
        assert_eq!(rec.channels[0].samples, vec![0.5, -0.5]);
    }

    #[test]
    fn flac_metadata_claiming_gigabytes_is_an_error_not_an_allocation() {
        // Found by fuzzing: a Vorbis comment block whose comment length says 0xFFFFFFFF.
        let mut bytes = b"fLaC\x00\x00\x00\x22".to_vec();
        bytes.extend([
            0x10, 0x00, 0x10, 0x00, 0, 0, 0x0e, 0, 0, 0x0e, 0x0b, 0xb8, 0x03, 0x70, 0, 0, 0x0f,
            0xa0,
        ]);
        bytes.extend([0; 16]);
        bytes.extend([0x84, 0x00, 0x00, 0x0c]); // last block: VORBIS_COMMENT, 12 bytes
        bytes.extend(0u32.to_le_bytes()); // vendor length
        bytes.extend(1u32.to_le_bytes()); // one comment
        bytes.extend(u32::MAX.to_le_bytes()); // of 4 GiB
        assert!(read(&bytes, Format::Flac).is_err());
        assert!(sanitize_flac(&bytes, Format::Flac).unwrap().len() < 50);
    }

    #[test]
    fn vorbis_headers_claiming_huge_tables_or_comments_are_refused() {
        // Setup header: one codebook of 2^24-1 entries x 65535 dimensions, ordered, lookup type 1.
        let mut bits: Vec<(u64, u32)> = vec![
            (0, 8),
            (0x56_4342, 24),
            (65_535, 16),
            (0xff_ffff, 24),
            (1, 1),
            (0, 5),
        ];
        bits.push((0xff_ffff, 24)); // one run covering every entry
        bits.push((1, 4));
        let mut packet = b"\x05vorbis".to_vec();
        let (mut byte, mut filled) = (0u8, 0);
        for (value, n) in bits {
            for i in 0..n {
                byte |= (((value >> i) & 1) as u8) << filled;
                filled += 1;
                if filled == 8 {
                    packet.push(byte);
                    (byte, filled) = (0, 0);
                }
            }
        }
        packet.push(byte);
        let err = check_vorbis_packet(&packet, Format::Ogg).unwrap_err();
        assert!(err.to_string().contains("codebook"), "{err}");
        let mut comment = b"\x03vorbis".to_vec();
        comment.extend(0u32.to_le_bytes());
        comment.extend(1u32.to_le_bytes());
        comment.extend(u32::MAX.to_le_bytes());
        assert!(check_vorbis_packet(&comment, Format::Ogg).is_err());
        // The committed fixture passes, all 19 of its codebooks checked (its setup header's count
        // byte says 18, i.e. 19 codebooks).
        let fixture = include_bytes!("../tests/fixtures/tone_mono.ogg");
        assert_eq!(check_ogg_vorbis_headers(fixture, Format::Ogg).unwrap(), 19);
    }

    #[test]
    fn a_container_signature_after_leading_junk_is_refused() {
        // Found by fuzzing: symphonia would find "fLaC" at byte 15 and read an unchecked comment.
        let mut bytes = vec![0xfc, 2, b'I', b'D', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
        bytes.extend(b"fLaC\x00\x00\x00\x22");
        bytes.extend([0; 34]);
        assert!(sanitize(&bytes, Format::Ogg).is_err());
    }

    #[test]
    fn id3v2_tags_are_skipped() {
        let mut bytes = b"ID3\x04\x00\x00\x00\x00\x00\x05hello".to_vec();
        bytes.extend([0xff, 0xfb, 0x90, 0x64]);
        assert_eq!(
            sanitize(&bytes, Format::Mp3).unwrap(),
            [0xff, 0xfb, 0x90, 0x64]
        );
        assert!(sanitize(b"ID3\x04\x00\x00\x7f\x7f\x7f\x7f", Format::Mp3).is_err());
    }

    #[test]
    fn a_truncated_or_garbled_wav_is_an_error_not_a_panic() {
        let data: Vec<u8> = (0..400).map(|i| i as u8).collect();
        let good = wav(1, 1, 1000, 16, &data);
        assert!(read(&good[..30], Format::Wav).is_err());
        let mut zero_rate = good.clone();
        zero_rate[24..28].copy_from_slice(&0u32.to_le_bytes());
        assert!(read(&zero_rate, Format::Wav).is_err());
        assert!(read(b"fLaC garbage", Format::Flac).is_err());
    }
}
