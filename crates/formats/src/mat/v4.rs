//! MAT level 4: the 20-byte matrix header and the real part of each matrix (the format: [`super`]).

use super::Matrix;
use crate::{checked_values, Format, FormatError};

/// The element size of a level 4 precision code `P`.
pub(super) fn mat4_size(p: i32) -> Option<usize> {
    Some(match p {
        0 => 8,
        1 | 2 => 4,
        3 | 4 => 2,
        5 => 1,
        _ => return None,
    })
}

pub(super) struct Mat4Header {
    pub(super) big_endian: bool,
    pub(super) precision: i32,
    pub(super) text_or_sparse: bool,
    pub(super) rows: usize,
    pub(super) cols: usize,
    pub(super) complex: bool,
    pub(super) name_len: usize,
}

pub(super) fn mat4_header(bytes: &[u8]) -> Option<Mat4Header> {
    let head = bytes.get(..20)?;
    for big_endian in [false, true] {
        let int = |i: usize| {
            let b = [head[i], head[i + 1], head[i + 2], head[i + 3]];
            if big_endian {
                i32::from_be_bytes(b)
            } else {
                i32::from_le_bytes(b)
            }
        };
        let kind = int(0);
        if !(0..=4052).contains(&kind) {
            continue;
        }
        let (order, zero, precision, kind_t) =
            (kind / 1000, kind / 100 % 10, kind / 10 % 10, kind % 10);
        if order != i32::from(big_endian)
            || zero != 0
            || mat4_size(precision).is_none()
            || kind_t > 2
        {
            continue;
        }
        let (rows, cols, imag, name_len) = (int(4), int(8), int(12), int(16));
        if rows < 0 || cols < 0 || !(0..=1).contains(&imag) || !(1..=4096).contains(&name_len) {
            continue;
        }
        return Some(Mat4Header {
            big_endian,
            precision,
            text_or_sparse: kind_t != 0,
            rows: rows as usize,
            cols: cols as usize,
            complex: imag == 1,
            name_len: name_len as usize,
        });
    }
    None
}

pub(super) fn read_mat4(bytes: &[u8]) -> Result<Vec<Matrix>, FormatError> {
    const F: Format = Format::Mat4;
    let mut out = Vec::new();
    let mut pos = 0;
    while pos < bytes.len() {
        let rest = &bytes[pos..];
        let h = mat4_header(rest).ok_or_else(|| {
            if out.is_empty() {
                FormatError::Unsupported("not a MATLAB level 4 or level 5 file".into())
            } else {
                FormatError::invalid(F, format!("bad matrix header at byte {pos}"))
            }
        })?;
        let name_bytes = rest
            .get(20..20 + h.name_len)
            .ok_or_else(|| FormatError::invalid(F, "truncated matrix name"))?;
        let name = String::from_utf8_lossy(name_bytes)
            .trim_end_matches('\0')
            .to_string();
        let size = mat4_size(h.precision).unwrap_or(8);
        let data = &rest[20 + h.name_len..];
        let n = checked_values(F, h.rows, h.cols, data.len() / size)?;
        let parts = if h.complex { 2 } else { 1 };
        let used = n * size * parts;
        if used > data.len() {
            return Err(FormatError::invalid(
                F,
                format!("matrix {name} is truncated"),
            ));
        }
        if !h.text_or_sparse {
            let values = data[..n * size]
                .chunks_exact(size)
                .map(|c| mat4_value(c, h.precision, h.big_endian))
                .collect();
            out.push(Matrix {
                name,
                rows: h.rows,
                cols: h.cols,
                data: values,
            });
        }
        pos += 20 + h.name_len + used;
    }
    Ok(out)
}

pub(super) fn mat4_value(c: &[u8], precision: i32, big_endian: bool) -> f64 {
    macro_rules! num {
        ($t:ty) => {{
            let b = c.try_into().unwrap_or_default();
            if big_endian {
                <$t>::from_be_bytes(b)
            } else {
                <$t>::from_le_bytes(b)
            }
        }};
    }
    match precision {
        0 => num!(f64),
        1 => f64::from(num!(f32)),
        2 => f64::from(num!(i32)),
        3 => f64::from(num!(i16)),
        4 => f64::from(num!(u16)),
        _ => f64::from(c[0]),
    }
}
