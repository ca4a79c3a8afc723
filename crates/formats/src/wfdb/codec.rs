//! The sample formats of WFDB signal files (`signal(5)`: 16, 61, 80, 212, 24 and 32): frame
//! decoding and each format's invalid-sample code.

use super::HEA;
use crate::FormatError;

/// How one storage format packs samples (`signal(5)`).
#[derive(Debug)]
pub(super) struct Codec {
    pub(super) format: u16,
    /// The value meaning "no sample" (`WFDB_INVALID_SAMPLE` scaled to the format).
    pub(super) invalid: i32,
}

impl Codec {
    pub(super) fn for_format(format: u16) -> Result<Self, FormatError> {
        let invalid = match format {
            80 => -128,
            212 => -2048,
            16 | 61 => -32768,
            24 => -8_388_608,
            32 => i32::MIN,
            other => {
                return Err(FormatError::feature(
                    HEA,
                    format!("signal format {other} (formats 16, 61, 80, 212, 24 and 32 are read)"),
                ))
            }
        };
        Ok(Self { format, invalid })
    }

    /// How many whole samples `len` bytes hold.
    pub(super) fn samples_in(&self, len: usize) -> usize {
        match self.format {
            80 => len,
            212 => len / 3 * 2 + usize::from(len % 3 >= 2),
            24 => len / 3,
            32 => len / 4,
            _ => len / 2,
        }
    }

    /// Where the samples `first..first + count` of a signal file lie: the byte span to read
    /// (from the data's start) and how many samples to drop from what it decodes (a format-212
    /// span starts at the first sample of a 3-byte pair).
    pub(super) fn span(&self, first: usize, count: usize) -> (u64, u64, usize) {
        let per = |n: usize| -> u64 {
            let n = n as u64;
            match self.format {
                80 => n,
                212 => n / 2 * 3 + if n % 2 == 1 { 2 } else { 0 },
                24 => n * 3,
                32 => n * 4,
                _ => n * 2,
            }
        };
        let lead = if self.format == 212 { first % 2 } else { 0 };
        let start = first - lead;
        (per(start), per(start + lead + count) - per(start), lead)
    }

    /// Decodes the first `count` samples (`count <= samples_in(data.len())`).
    pub(super) fn decode(&self, data: &[u8], count: usize) -> Vec<i32> {
        let mut out = Vec::with_capacity(count);
        match self.format {
            80 => out.extend(data.iter().take(count).map(|&b| i32::from(b) - 128)),
            16 => out.extend(
                data.chunks_exact(2)
                    .take(count)
                    .map(|c| i32::from(i16::from_le_bytes([c[0], c[1]]))),
            ),
            61 => out.extend(
                data.chunks_exact(2)
                    .take(count)
                    .map(|c| i32::from(i16::from_be_bytes([c[0], c[1]]))),
            ),
            24 => out.extend(
                data.chunks_exact(3)
                    .take(count)
                    .map(|c| i32::from_le_bytes([0, c[0], c[1], c[2]]) >> 8),
            ),
            32 => out.extend(
                data.chunks_exact(4)
                    .take(count)
                    .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]])),
            ),
            _ => {
                // 212: two 12-bit samples in three bytes; the second byte's low nibble holds the
                // first sample's high bits and its high nibble the second's.
                let twelve = |v: i32| if v & 0x800 != 0 { v - 0x1000 } else { v };
                for group in data.chunks(3) {
                    if out.len() >= count {
                        break;
                    }
                    let b0 = i32::from(group[0]);
                    let Some(&b1) = group.get(1) else { break };
                    let b1 = i32::from(b1);
                    out.push(twelve(b0 | ((b1 & 0x0f) << 8)));
                    if out.len() < count {
                        if let Some(&b2) = group.get(2) {
                            out.push(twelve(i32::from(b2) | ((b1 & 0xf0) << 4)));
                        }
                    }
                }
            }
        }
        out
    }
}
