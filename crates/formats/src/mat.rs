//! MATLAB MAT-files, level 4 and level 5, numeric matrices only.
//!
//! Level 4 (MathWorks, "MAT-File Format", appendix on Level 4): each matrix is a 20-byte header
//! `type mrows ncols imagf namlen`, the name, then the real (and imaginary) parts in column-major
//! order; `type` = `M*1000 + O*100 + P*10 + T` gives the byte order `M` and the element type `P`.
//! PhysioNet/CinC 2017 stores each ECG as a level 4 `int16` matrix `val`.
//!
//! Level 5 (MathWorks, "MAT-File Format", version 7 and earlier): a 128-byte text header with the
//! version and endian indicator, then data elements (8-byte tag, data padded to 8 bytes; "small" elements
//! pack a tag and up to 4 bytes in 8). `miMATRIX` elements hold the array flags, dimensions, name and
//! the real and imaginary parts; `miCOMPRESSED` elements hold a zlib stream of further elements
//! (IEEE SPC 2015 stores `sig` and `BPM0` so). Cell arrays, structs, sparse, character and object arrays
//! are skipped. HDF5-based version 7.3 files are refused with a clear error.

use std::collections::BTreeMap;
use std::io::Read;

use crate::{checked_values, Channel, Format, FormatError, ReadOptions, Recording, MAX_CHANNELS};

/// Largest decompressed size of one `miCOMPRESSED` element (512 MiB).
const MAX_INFLATED: u64 = 512 << 20;

/// A numeric matrix of a MAT-file, real part only, in column-major order.
#[derive(Debug, Clone, PartialEq)]
pub struct Matrix {
    /// The variable's name.
    pub name: String,
    /// Number of rows (the first dimension).
    pub rows: usize,
    /// Number of columns (the product of the other dimensions).
    pub cols: usize,
    /// `rows * cols` values, column after column.
    pub data: Vec<f64>,
}

impl Matrix {
    /// The value at (`row`, `col`).
    pub fn get(&self, row: usize, col: usize) -> Option<f64> {
        if row >= self.rows || col >= self.cols {
            return None;
        }
        self.data.get(col * self.rows + row).copied()
    }

    /// One row as a vector.
    pub fn row(&self, row: usize) -> Option<Vec<f64>> {
        (row < self.rows).then(|| (0..self.cols).filter_map(|c| self.get(row, c)).collect())
    }
}

/// Reads every numeric matrix of a level 4 or level 5 MAT-file.
///
/// # Errors
/// [`FormatError::Unsupported`] when the bytes are no MAT-file, [`FormatError::Invalid`] for
/// truncated or inconsistent elements, [`FormatError::UnsupportedFeature`] for version 7.3 (HDF5).
pub fn read_matrices(bytes: &[u8]) -> Result<Vec<Matrix>, FormatError> {
    if looks_like_mat5(bytes) {
        read_mat5(bytes)
    } else if bytes.len() >= 128 && bytes[..116].starts_with(b"MATLAB 7.3") {
        Err(FormatError::feature(
            Format::Mat5,
            "MATLAB 7.3 (HDF5) files: save with -v7 or -v6",
        ))
    } else {
        read_mat4(bytes)
    }
}

/// The numeric matrix called `name`, if the file has one.
///
/// # Errors
/// As [`read_matrices`].
pub fn find_matrix(bytes: &[u8], name: &str) -> Result<Option<Matrix>, FormatError> {
    Ok(read_matrices(bytes)?.into_iter().find(|m| m.name == name))
}

/// Reads a MAT-file as a recording: the largest numeric matrix gives the channels (one per row when
/// it has fewer rows than columns, else one per column); a scalar called `fs`, `Fs`, `FS`,
/// `sampling_rate` or `srate` gives the rate, else `options`.
///
/// # Errors
/// [`FormatError::NoSamplingRate`] when neither the file nor `options` gives the rate, and the errors
/// of [`read_matrices`].
pub fn read_recording(bytes: &[u8], options: &ReadOptions) -> Result<Recording, FormatError> {
    let format = if looks_like_mat5(bytes) {
        Format::Mat5
    } else {
        Format::Mat4
    };
    let mut matrices = read_matrices(bytes)?;
    let rate_from_file = matrices
        .iter()
        .find(|m| {
            m.data.len() == 1
                && ["fs", "Fs", "FS", "sampling_rate", "srate", "SampleRate"]
                    .contains(&m.name.as_str())
        })
        .map(|m| m.data[0])
        .filter(|v| v.is_finite() && *v > 0.0);
    let Some(at) = matrices
        .iter()
        .enumerate()
        .max_by_key(|(_, m)| m.data.len())
        .filter(|(_, m)| m.data.len() > 1)
        .map(|(at, _)| at)
    else {
        return Err(FormatError::invalid(
            format,
            "no numeric matrix with samples",
        ));
    };
    // Taken out, so that a one-channel signal's samples are moved, not copied.
    let signal = matrices.swap_remove(at);
    drop(matrices);
    let Some(sampling_rate_hz) = options.sampling_rate_hz.or(rate_from_file) else {
        return Err(FormatError::NoSamplingRate(
            "MATLAB file has no sampling-rate variable (fs) and no sampling rate was given \
             (a WFDB record is read through its .hea header)"
                .into(),
        ));
    };
    let by_rows = signal.rows <= signal.cols;
    let n_channels = if by_rows { signal.rows } else { signal.cols };
    if n_channels > MAX_CHANNELS {
        return Err(FormatError::TooLarge(format!("{n_channels} channels")));
    }
    let matrix_name = signal.name.clone();
    let channels = if n_channels == 1 {
        vec![Channel {
            name: signal.name,
            unit: String::new(),
            samples: signal.data,
        }]
    } else {
        (0..n_channels)
            .map(|i| Channel {
                name: if n_channels == 1 {
                    signal.name.clone()
                } else {
                    format!("{}[{i}]", signal.name)
                },
                unit: String::new(),
                samples: if by_rows {
                    signal.row(i).unwrap_or_default()
                } else {
                    signal.data[i * signal.rows..(i + 1) * signal.rows].to_vec()
                },
            })
            .collect()
    };
    let mut metadata = BTreeMap::new();
    metadata.insert("format".into(), format.to_string());
    metadata.insert("matrix".into(), matrix_name);
    Ok(Recording {
        channels,
        sampling_rate_hz,
        start: None,
        metadata,
    })
}

// ---------------------------------------------------------------- level 4

/// The element size of a level 4 precision code `P`.
fn mat4_size(p: i32) -> Option<usize> {
    Some(match p {
        0 => 8,
        1 | 2 => 4,
        3 | 4 => 2,
        5 => 1,
        _ => return None,
    })
}

struct Mat4Header {
    big_endian: bool,
    precision: i32,
    text_or_sparse: bool,
    rows: usize,
    cols: usize,
    complex: bool,
    name_len: usize,
}

fn mat4_header(bytes: &[u8]) -> Option<Mat4Header> {
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

/// Whether `bytes` start with a plausible level 4 matrix header and name.
pub(crate) fn looks_like_mat4(bytes: &[u8]) -> bool {
    let Some(h) = mat4_header(bytes) else {
        return false;
    };
    let Some(name) = bytes.get(20..20 + h.name_len) else {
        return false;
    };
    let (last, text) = name.split_last().unwrap_or((&1, &[]));
    *last == 0
        && !text.is_empty()
        && text.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'_')
        && h.rows
            .checked_mul(h.cols)
            .and_then(|n| n.checked_mul(mat4_size(h.precision).unwrap_or(8)))
            .is_some_and(|n| n <= bytes.len())
}

fn read_mat4(bytes: &[u8]) -> Result<Vec<Matrix>, FormatError> {
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

fn mat4_value(c: &[u8], precision: i32, big_endian: bool) -> f64 {
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

// ---------------------------------------------------------------- level 5

/// Whether `bytes` start with a level 5 header (text, version 0x0100, endian indicator `IM`/`MI`).
pub(crate) fn looks_like_mat5(bytes: &[u8]) -> bool {
    bytes.len() >= 128
        && bytes[0] != 0
        && bytes[..4].iter().all(u8::is_ascii)
        && matches!(&bytes[124..128], [0, 1, b'I', b'M'] | [1, 0, b'M', b'I'])
}

const MI_INT8: u32 = 1;
const MI_UINT8: u32 = 2;
const MI_INT16: u32 = 3;
const MI_UINT16: u32 = 4;
const MI_INT32: u32 = 5;
const MI_UINT32: u32 = 6;
const MI_SINGLE: u32 = 7;
const MI_DOUBLE: u32 = 9;
const MI_INT64: u32 = 12;
const MI_UINT64: u32 = 13;
const MI_MATRIX: u32 = 14;
const MI_COMPRESSED: u32 = 15;

#[derive(Clone, Copy)]
struct Endian {
    big: bool,
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
struct Element<'a> {
    kind: u32,
    data: &'a [u8],
    next: usize,
}

fn element(bytes: &[u8], pos: usize, e: Endian) -> Result<Element<'_>, FormatError> {
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

fn read_mat5(bytes: &[u8]) -> Result<Vec<Matrix>, FormatError> {
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

fn inflate(data: &[u8], limit: u64, e: Endian) -> Result<Vec<u8>, FormatError> {
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
fn read_up_to(reader: &mut impl Read, buffer: &mut [u8]) -> std::io::Result<usize> {
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
fn matrix5(data: &[u8], e: Endian, values_left: usize) -> Result<Option<Matrix>, FormatError> {
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

fn mat5_value(c: &[u8], kind: u32, big: bool) -> f64 {
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

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A level 4 little-endian matrix (`type` 0 = double, 30 = int16).
    pub(crate) fn mat4(name: &str, kind: i32, rows: i32, cols: i32, data: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        for v in [kind, rows, cols, 0, i32::try_from(name.len() + 1).unwrap()] {
            out.extend(v.to_le_bytes());
        }
        out.extend(name.as_bytes());
        out.push(0);
        out.extend(data);
        out
    }

    fn tag(kind: u32, data: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend(kind.to_le_bytes());
        out.extend((data.len() as u32).to_le_bytes());
        out.extend(data);
        while out.len() % 8 != 0 {
            out.push(0);
        }
        out
    }

    /// A level 5 double matrix element.
    pub(crate) fn mat5_matrix(name: &str, rows: u32, cols: u32, values: &[f64]) -> Vec<u8> {
        let mut body = tag(MI_UINT32, &[6, 0, 0, 0, 0, 0, 0, 0]);
        body.extend(tag(
            MI_INT32,
            &[rows.to_le_bytes(), cols.to_le_bytes()].concat(),
        ));
        body.extend(tag(MI_INT8, name.as_bytes()));
        let data: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        body.extend(tag(MI_DOUBLE, &data));
        tag(MI_MATRIX, &body)
    }

    pub(crate) fn mat5_file(elements: &[Vec<u8>]) -> Vec<u8> {
        let mut out = vec![b' '; 128];
        out[..19].copy_from_slice(b"MATLAB 5.0 MAT-file");
        out[124..128].copy_from_slice(&[0, 1, b'I', b'M']);
        for e in elements {
            out.extend(e);
        }
        out
    }

    fn compress(element: &[u8]) -> Vec<u8> {
        use std::io::Write;
        let mut enc = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        enc.write_all(element).unwrap();
        let z = enc.finish().unwrap();
        let mut out = Vec::new();
        out.extend(MI_COMPRESSED.to_le_bytes());
        out.extend((z.len() as u32).to_le_bytes());
        out.extend(z);
        out
    }

    #[test]
    fn reads_a_level_4_int16_row_vector_like_cinc2017() {
        let data: Vec<u8> = [-127i16, -162, 5]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        let bytes = mat4("val", 30, 1, 3, &data);
        assert!(looks_like_mat4(&bytes));
        let m = find_matrix(&bytes, "val").unwrap().unwrap();
        assert_eq!((m.rows, m.cols), (1, 3));
        assert_eq!(m.data, vec![-127.0, -162.0, 5.0]);
    }

    #[test]
    fn reads_several_level_4_matrices_in_column_major_order() {
        let a: Vec<u8> = [1.0f64, 2.0, 3.0, 4.0]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        let mut bytes = mat4("a", 0, 2, 2, &a);
        bytes.extend(mat4("fs", 0, 1, 1, &250f64.to_le_bytes()));
        let ms = read_matrices(&bytes).unwrap();
        assert_eq!(ms.len(), 2);
        assert_eq!(ms[0].row(0), Some(vec![1.0, 3.0]));
        let rec = read_recording(&bytes, &ReadOptions::default()).unwrap();
        assert_eq!(rec.sampling_rate_hz, 250.0);
        assert_eq!(rec.channels.len(), 2);
        assert_eq!(rec.channels[1].samples, vec![2.0, 4.0]);
    }

    #[test]
    fn reads_level_5_plain_and_compressed_matrices() {
        let sig = mat5_matrix("sig", 2, 3, &[1.0, 10.0, 2.0, 20.0, 3.0, 30.0]);
        let bpm = mat5_matrix("BPM0", 2, 1, &[71.5, 72.0]);
        let bytes = mat5_file(&[sig, compress(&bpm)]);
        assert!(looks_like_mat5(&bytes));
        let ms = read_matrices(&bytes).unwrap();
        assert_eq!(ms.len(), 2);
        assert_eq!(ms[0].row(1), Some(vec![10.0, 20.0, 30.0]));
        assert_eq!(
            find_matrix(&bytes, "BPM0").unwrap().unwrap().data,
            vec![71.5, 72.0]
        );
    }

    /// A level 5 `int8` matrix element of `n` zeros (compresses about 1000:1).
    fn mat5_int8_zeros(n: u32) -> Vec<u8> {
        let mut body = tag(MI_UINT32, &[6, 0, 0, 0, 0, 0, 0, 0]);
        body.extend(tag(
            MI_INT32,
            &[1u32.to_le_bytes(), n.to_le_bytes()].concat(),
        ));
        body.extend(tag(MI_INT8, b"bomb"));
        body.extend(tag(MI_INT8, &vec![0u8; n as usize]));
        tag(MI_MATRIX, &body)
    }

    #[test]
    fn a_compressed_element_inflating_past_an_honest_recordings_size_is_refused() {
        // 64 MiB of zeros in a file of about 64 KiB: a decompression bomb.
        let bomb = mat5_file(&[compress(&mat5_int8_zeros(64 << 20))]);
        assert!(bomb.len() < 100_000, "{}", bomb.len());
        let err = read_matrices(&bomb).unwrap_err();
        assert!(matches!(err, FormatError::TooLarge(_)), "{err}");
        assert!(
            err.to_string().contains("compressed data inflating past"),
            "{err}"
        );
        // 16 MiB of int8 zeros inflate within the budget but hold more values than the file's
        // size allows: refused before they are widened to doubles.
        let dense = mat5_file(&[compress(&mat5_int8_zeros(16 << 20))]);
        let err = read_matrices(&dense).unwrap_err();
        assert!(
            err.to_string()
                .contains("values where a file of this size holds at most"),
            "{err}"
        );
    }

    #[test]
    fn an_honest_compressed_recording_is_read_whole() {
        // Ten minutes of a 250 Hz double signal with noise-like detail, compressed.
        let values: Vec<f64> = (0..150_000)
            .map(|i: i32| (f64::from(i) * 0.05).sin() + f64::from(i * 7919 % 97) / 1000.0)
            .collect();
        let bytes = mat5_file(&[compress(&mat5_matrix("val", 1, 150_000, &values))]);
        let m = find_matrix(&bytes, "val").unwrap().unwrap();
        assert_eq!(m.data.len(), 150_000);
        assert_eq!(m.data[1234], values[1234]);
    }

    #[test]
    fn a_level_5_matrix_stored_in_a_narrower_type_is_widened() {
        let mut body = tag(MI_UINT32, &[6, 0, 0, 0, 0, 0, 0, 0]);
        body.extend(tag(
            MI_INT32,
            &[1u32.to_le_bytes(), 3u32.to_le_bytes()].concat(),
        ));
        body.extend(tag(MI_INT8, b"x"));
        // a small data element: 3 uint8 values inside the tag
        body.extend([MI_UINT8 as u8, 0, 3, 0, 7, 8, 9, 0]);
        let bytes = mat5_file(&[tag(MI_MATRIX, &body)]);
        assert_eq!(read_matrices(&bytes).unwrap()[0].data, vec![7.0, 8.0, 9.0]);
    }

    #[test]
    fn a_matrix_claiming_more_values_than_present_is_truncated() {
        let bytes = mat4("val", 30, 1, 1000, &[0; 10]);
        let err = read_matrices(&bytes).unwrap_err();
        assert!(err.to_string().contains("truncated"), "{err}");
        let mut five = mat5_file(&[mat5_matrix("s", 1, 2, &[1.0, 2.0])]);
        five.truncate(five.len() - 4);
        assert!(read_matrices(&five).is_err());
    }

    #[test]
    fn a_mat_file_without_a_rate_asks_for_one() {
        let bytes = mat4("val", 30, 1, 2, &[0, 0, 1, 0]);
        let err = read_recording(&bytes, &ReadOptions::default()).unwrap_err();
        assert!(matches!(err, FormatError::NoSamplingRate(_)), "{err}");
        assert_eq!(
            err.to_string(),
            "MATLAB file has no sampling-rate variable (fs) and no sampling rate was given \
             (a WFDB record is read through its .hea header)"
        );
        let rec = read_recording(
            &bytes,
            &ReadOptions {
                sampling_rate_hz: Some(300.0),
            },
        )
        .unwrap();
        assert_eq!(rec.channels[0].samples, vec![0.0, 1.0]);
    }
}
