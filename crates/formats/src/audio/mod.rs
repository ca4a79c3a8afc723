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

mod sanitize;
mod vorbis;

use sanitize::sanitize;

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
        device_interpretation: None,
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::sanitize::sanitize_flac;
    use super::vorbis::{check_ogg_vorbis_headers, check_vorbis_packet};
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
        let fixture = include_bytes!("../../tests/fixtures/tone_mono.ogg");
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
