//! MAT level 5: the data elements, `miCOMPRESSED` zlib streams (bounded) and numeric `miMATRIX`
//! arrays (the format: [`super`]).

use std::io::Read;

use super::{Matrix, MAX_INFLATED};
use crate::{checked_values, Format, FormatError};

pub(super) const MI_INT8: u32 = 1;
pub(super) const MI_UINT8: u32 = 2;
pub(super) const MI_INT16: u32 = 3;
pub(super) const MI_UINT16: u32 = 4;
pub(super) const MI_INT32: u32 = 5;
pub(super) const MI_UINT32: u32 = 6;
pub(super) const MI_SINGLE: u32 = 7;
pub(super) const MI_DOUBLE: u32 = 9;
pub(super) const MI_INT64: u32 = 12;
pub(super) const MI_UINT64: u32 = 13;
pub(super) const MI_MATRIX: u32 = 14;
pub(super) const MI_COMPRESSED: u32 = 15;

#[derive(Clone, Copy)]
pub(super) struct Endian {
    pub(super) big: bool,
}

impl Endian {
    fn u32(self, b: &[u8]) -> u32 {
        let a = [b[0], b[1], b[2], b[3]];
        if self.big {
            u32::from_be_bytes(a)
        } else {
            u32::from_le_bytes(a)
        }
    }
}

/// One data element: its type and its data bytes; `next` is where the following element starts.
pub(super) struct Element<'a> {
    pub(super) kind: u32,
    pub(super) data: &'a [u8],
    pub(super) next: usize,
}

pub(super) fn element(bytes: &[u8], pos: usize, e: Endian) -> Result<Element<'_>, FormatError> {
    const F: Format = Format::Mat5;
    let tag = bytes.get(pos..pos + 8).ok_or_else(|| {
        FormatError::invalid(F, format!("truncated data element tag at byte {pos}"))
    })?;
    let first = e.u32(tag);
    if first >> 16 != 0 {
        // Small data element: size in the upper 16 bits, data in the tag's second word.
        let size = (first >> 16) as usize;
        if size > 4 {
            return Err(FormatError::invalid(
                F,
                "small data element larger than 4 bytes",
            ));
        }
        return Ok(Element {
            kind: first & 0xffff,
            data: &tag[4..4 + size],
            next: pos + 8,
        });
    }
    let size = e.u32(&tag[4..]) as usize;
    let start = pos + 8;
    let data = bytes
        .get(start..start.saturating_add(size))
        .ok_or_else(|| {
            FormatError::invalid(
                F,
                format!("data element at byte {pos} claims {size} bytes past the end"),
            )
        })?;
    let next = if first == MI_COMPRESSED {
        start + size
    } else {
        start + size.div_ceil(8) * 8
    };
    Ok(Element {
        kind: first,
        data,
        next,
    })
}

pub(super) fn read_mat5(bytes: &[u8]) -> Result<Vec<Matrix>, FormatError> {
    let e = Endian {
        big: bytes[126] == b'M',
    };
    let mut out: Vec<Matrix> = Vec::new();
    let mut pos = 128;
    // All compressed elements together may inflate to what the file's size allows (see
    // `crate::max_decoded_values`: values of up to 8 bytes each).
    let mut inflate_budget = crate::max_decoded_values(bytes.len()).saturating_mul(8) as u64;
    while pos + 8 <= bytes.len() {
        // Compressed elements can each inflate to many values: bound the sum too.
        if out.iter().map(|m| m.data.len()).sum::<usize>() > crate::MAX_VALUES {
            return Err(FormatError::TooLarge(format!(
                "more than {} values",
                crate::MAX_VALUES
            )));
        }
        let el = element(bytes, pos, e)?;
        pos = el.next;
        let values_left = crate::max_decoded_values(bytes.len())
            .saturating_sub(out.iter().map(|m| m.data.len()).sum::<usize>());
        match el.kind {
            MI_MATRIX => {
                if let Some(m) = matrix5(el.data, e, values_left)? {
                    out.push(m);
                }
            }
            MI_COMPRESSED => {
                let inflated = inflate(el.data, inflate_budget.min(MAX_INFLATED), e)?;
                inflate_budget = inflate_budget.saturating_sub(inflated.len() as u64);
                let inner = element(&inflated, 0, e)?;
                if inner.kind == MI_MATRIX {
                    if let Some(m) = matrix5(inner.data, e, values_left)? {
                        out.push(m);
                    }
                }
            }
            _ => {}
        }
    }
    Ok(out)
}

/// What a level 5 file declares, from its element tags and, for a compressed element, from the
/// first bytes of its zlib stream only (nothing is inflated past them): see
/// [`super::declared_size`].
pub(super) fn declared5(bytes: &[u8]) -> super::DeclaredSize {
    /// Enough of an inflated element for its tag, array flags and dimensions.
    const HEAD: usize = 256;
    let e = Endian {
        big: bytes[126] == b'M',
    };
    let mut declared = super::DeclaredSize::default();
    let mut pos = 128;
    while pos + 8 <= bytes.len() {
        let Ok(el) = element(bytes, pos, e) else {
            break;
        };
        pos = el.next;
        match el.kind {
            MI_MATRIX => {
                let values = declared_values(el.data, e).unwrap_or(el.data.len() as u64);
                declared.values = declared.values.saturating_add(values);
            }
            MI_COMPRESSED => {
                let mut head = [0u8; HEAD];
                let mut decoder = flate2::read::ZlibDecoder::new(el.data);
                let got = read_up_to(&mut decoder, &mut head).unwrap_or(0);
                if got < 8 {
                    continue;
                }
                let inflated = 8 + u64::from(e.u32(&head[4..8]));
                declared.inflated_bytes = declared.inflated_bytes.saturating_add(inflated);
                // Dimensions past the first bytes: every inflated byte may be a value.
                let values = if e.u32(&head) == MI_MATRIX {
                    declared_values(&head[8..got], e).unwrap_or(inflated)
                } else {
                    0
                };
                declared.values = declared.values.saturating_add(values);
            }
            _ => {}
        }
    }
    declared
}

/// The values a `miMATRIX` element's dimensions declare (0 for arrays that are not numeric),
/// from its first bytes; `None` when they are not there.
fn declared_values(data: &[u8], e: Endian) -> Option<u64> {
    let flags = element(data, 0, e).ok()?;
    if !(6..=15).contains(&(e.u32(flags.data.get(..4)?) & 0xff)) {
        return Some(0);
    }
    let dims = element(data, flags.next, e).ok()?;
    Some(
        dims.data
            .chunks_exact(4)
            .map(|c| u64::from(e.u32(c)))
            .fold(1u64, u64::saturating_mul),
    )
}

pub(super) fn inflate(data: &[u8], limit: u64, e: Endian) -> Result<Vec<u8>, FormatError> {
    let broken = |err: std::io::Error| {
        FormatError::invalid(Format::Mat5, format!("compressed element: {err}"))
    };
    let too_large = || {
        FormatError::TooLarge(format!(
            "compressed data inflating past {limit} bytes (more than an honest recording of this file's size holds)"
        ))
    };
    let mut decoder = flate2::read::ZlibDecoder::new(data).take(limit + 1);
    // The inflated element's own tag says how long it is: refuse before inflating past the
    // limit, and allocate it once instead of doubling a buffer.
    let mut tag = [0u8; 8];
    let got = read_up_to(&mut decoder, &mut tag).map_err(broken)?;
    let claimed = if got == 8 {
        8 + u64::from(e.u32(&tag[4..8]))
    } else {
        0
    };
    if claimed > limit {
        return Err(too_large());
    }
    let mut out = Vec::with_capacity(usize::try_from(claimed).unwrap_or(0).max(got));
    out.extend_from_slice(&tag[..got]);
    decoder.read_to_end(&mut out).map_err(broken)?;
    if out.len() as u64 > limit {
        return Err(FormatError::TooLarge(format!(
            "compressed data inflating past {limit} bytes (more than an honest recording of this file's size holds)"
        )));
    }
    Ok(out)
}

/// Reads into `buffer` until it is full or the input ends; how many bytes were read.
pub(super) fn read_up_to(reader: &mut impl Read, buffer: &mut [u8]) -> std::io::Result<usize> {
    let mut filled = 0;
    while filled < buffer.len() {
        match reader.read(&mut buffer[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(err) if err.kind() == std::io::ErrorKind::Interrupted => {}
            Err(err) => return Err(err),
        }
    }
    Ok(filled)
}

/// Decodes a `miMATRIX` element's content; `None` for arrays that are not numeric.
pub(super) fn matrix5(
    data: &[u8],
    e: Endian,
    values_left: usize,
) -> Result<Option<Matrix>, FormatError> {
    const F: Format = Format::Mat5;
    if data.is_empty() {
        return Ok(None); // an empty cell placeholder
    }
    let flags = element(data, 0, e)?;
    if flags.data.len() < 8 {
        return Err(FormatError::invalid(F, "array flags too short"));
    }
    let class = e.u32(flags.data) & 0xff;
    // mxDOUBLE (6) .. mxUINT64 (15) are numeric; cells, structs, chars, sparse and objects are not.
    if !(6..=15).contains(&class) {
        return Ok(None);
    }
    let dims_el = element(data, flags.next, e)?;
    let dims: Vec<usize> = dims_el
        .data
        .chunks_exact(4)
        .map(|c| i32::try_from(e.u32(c)).and_then(usize::try_from))
        .map(|d| d.map_err(|_| FormatError::invalid(F, "negative dimension")))
        .collect::<Result<_, _>>()?;
    if dims.is_empty() {
        return Err(FormatError::invalid(F, "array without dimensions"));
    }
    let name_el = element(data, dims_el.next, e)?;
    let name = String::from_utf8_lossy(name_el.data).to_string();
    let real = element(data, name_el.next, e)?;
    let rows = dims[0];
    let cols = dims[1..]
        .iter()
        .try_fold(1usize, |acc, &d| acc.checked_mul(d))
        .ok_or_else(|| FormatError::invalid(F, "dimensions overflow"))?;
    let size = match real.kind {
        MI_INT8 | MI_UINT8 => 1,
        MI_INT16 | MI_UINT16 => 2,
        MI_INT32 | MI_UINT32 | MI_SINGLE => 4,
        MI_DOUBLE | MI_INT64 | MI_UINT64 => 8,
        other => {
            return Err(FormatError::invalid(
                F,
                format!("matrix {name}: data type {other}"),
            ));
        }
    };
    let n = checked_values(F, rows, cols, real.data.len() / size)?;
    if n > values_left {
        return Err(FormatError::TooLarge(format!(
            "{n} values where a file of this size holds at most {values_left}"
        )));
    }
    let values = real.data[..n * size]
        .chunks_exact(size)
        .map(|c| mat5_value(c, real.kind, e.big))
        .collect();
    Ok(Some(Matrix {
        name,
        rows,
        cols,
        data: values,
    }))
}

pub(super) fn mat5_value(c: &[u8], kind: u32, big: bool) -> f64 {
    macro_rules! num {
        ($t:ty) => {{
            let b = c.try_into().unwrap_or_default();
            if big {
                <$t>::from_be_bytes(b)
            } else {
                <$t>::from_le_bytes(b)
            }
        }};
    }
    match kind {
        MI_INT8 => f64::from(c[0].cast_signed()),
        MI_UINT8 => f64::from(c[0]),
        MI_INT16 => f64::from(num!(i16)),
        MI_UINT16 => f64::from(num!(u16)),
        MI_INT32 => f64::from(num!(i32)),
        MI_UINT32 => f64::from(num!(u32)),
        MI_SINGLE => f64::from(num!(f32)),
        MI_INT64 => num!(i64) as f64,
        MI_UINT64 => num!(u64) as f64,
        _ => num!(f64),
    }
}
