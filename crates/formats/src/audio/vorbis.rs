//! The Vorbis comment and setup headers of an Ogg file, checked before symphonia reads them (RFC
//! 3533 pages; Vorbis I specification 4.2 and 3.2.1): a claimed length or codebook table beyond
//! what the file holds or [`MAX_VORBIS_LOOKUP`] is refused.

use std::collections::BTreeMap;

use crate::{Format, FormatError};

/// Largest Vorbis codebook lookup table accepted (values); real encoders stay far below.
pub(super) const MAX_VORBIS_LOOKUP: u64 = 1 << 22;

/// Checks the Vorbis comment and setup headers of every logical stream of an Ogg file (RFC 3533
/// pages; Vorbis I specification 4.2 and 3.2.1) before symphonia reads them: symphonia allocates
/// a comment's claimed length and a codebook's `entries * dimensions` lookup table before reading
/// them, so a crafted file could ask for gigabytes or terabytes.
///
/// Returns how many codebooks were checked.
pub(super) fn check_ogg_vorbis_headers(bytes: &[u8], format: Format) -> Result<u64, FormatError> {
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
pub(super) struct Bits<'a> {
    pub(super) data: &'a [u8],
    pub(super) bit: usize,
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
pub(super) fn ilog(x: u64) -> u32 {
    64 - x.leading_zeros()
}

/// Checks one packet; returns how many codebooks of a setup header were checked completely.
pub(super) fn check_vorbis_packet(packet: &[u8], format: Format) -> Result<u64, FormatError> {
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
