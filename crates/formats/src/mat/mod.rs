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

use crate::{Channel, Format, FormatError, ReadOptions, Recording, MAX_CHANNELS};

mod v4;
mod v5;

use v4::{mat4_header, mat4_size, read_mat4};
use v5::{declared5, read_mat5};

/// Largest decompressed size of one `miCOMPRESSED` element (1 GiB): 48 hours of 2 leads at
/// 360 Hz as doubles (995 MB) fit; what a small file may inflate to is bounded far lower, by
/// [`crate::max_decoded_values`] of its size.
const MAX_INFLATED: u64 = 1 << 30;

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

/// What a file's header declares a read of it will hold, before anything is inflated.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DeclaredSize {
    /// The values of its numeric arrays (their dimensions multiplied).
    pub values: u64,
    /// The bytes its compressed elements say they inflate to.
    pub inflated_bytes: u64,
}

/// What a level 5 MAT-file declares it holds, read from its element tags and the first bytes of
/// each compressed element (a few hundred bytes inflated each), so that a caller can tell the
/// memory a read will take before reading it; `None` for anything but a level 5 MAT-file. The
/// reader still checks every declared size against the bytes present.
pub fn declared_size(bytes: &[u8]) -> Option<DeclaredSize> {
    looks_like_mat5(bytes).then(|| declared5(bytes))
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
    let spc = spc_layout(&signal);
    let spc_rate = spc.map(|_| SPC_RATE_HZ);
    let Some(sampling_rate_hz) = options.sampling_rate_hz.or(rate_from_file).or(spc_rate) else {
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
                name: match spc {
                    Some(names) => names[i].to_string(),
                    None => format!("{}[{i}]", signal.name),
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
    if spc.is_some() {
        metadata.insert("layout".into(), "IEEE SPC 2015".into());
    }
    Ok(Recording {
        channels,
        sampling_rate_hz,
        start: None,
        metadata,
        device_interpretation: None,
    })
}

/// Sampling rate of the IEEE Signal Processing Cup 2015 recordings, which the files do not store.
pub const SPC_RATE_HZ: f64 = 125.0;

/// The channel names of the IEEE SPC 2015 layout (a matrix `sig` of 6 rows: ECG, two wrist PPG
/// channels, three accelerometer axes; the test recordings have the 5 rows without the ECG), when
/// `m` has it.
fn spc_layout(m: &Matrix) -> Option<&'static [&'static str]> {
    const WITH_ECG: [&str; 6] = ["ECG", "PPG1", "PPG2", "ACC_X", "ACC_Y", "ACC_Z"];
    if m.name != "sig" || m.rows > m.cols {
        return None;
    }
    match m.rows {
        6 => Some(&WITH_ECG),
        5 => Some(&WITH_ECG[1..]),
        _ => None,
    }
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

/// Whether `bytes` start with a level 5 header (text, version 0x0100, endian indicator `IM`/`MI`).
pub(crate) fn looks_like_mat5(bytes: &[u8]) -> bool {
    bytes.len() >= 128
        && bytes[0] != 0
        && bytes[..4].iter().all(u8::is_ascii)
        && matches!(&bytes[124..128], [0, 1, b'I', b'M'] | [1, 0, b'M', b'I'])
}

#[cfg(test)]
pub(crate) mod tests {
    use super::v5::{MI_COMPRESSED, MI_DOUBLE, MI_INT32, MI_INT8, MI_MATRIX, MI_UINT32, MI_UINT8};
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
    fn the_declared_size_is_read_from_tags_without_inflating() {
        let values: Vec<f64> = (0..48).map(f64::from).collect();
        let plain = mat5_matrix("sig", 6, 8, &values);
        let packed = compress(&mat5_matrix("fs", 1, 1, &[500.0]));
        let file = mat5_file(&[plain, packed]);
        assert_eq!(
            declared_size(&file),
            Some(DeclaredSize {
                values: 49,
                inflated_bytes: 72,
            })
        );
        // A compressed element whose stream is only the start of a 67-million-value array: its
        // tags say so, though none of it is there.
        let mut head = mat5_matrix("val", 1, 67_000_000, &[]);
        head[4..8].copy_from_slice(&(56u32 + 536_000_000).to_le_bytes());
        let file = mat5_file(&[compress(&head)]);
        assert_eq!(
            declared_size(&file),
            Some(DeclaredSize {
                values: 67_000_000,
                inflated_bytes: 8 + 56 + 536_000_000,
            })
        );
        assert_eq!(declared_size(b"time,ECG\n0,1\n"), None);
    }

    #[test]
    fn the_spc_2015_layout_names_its_channels_and_has_its_rate() {
        // 6 rows × 8 samples, column-major.
        let values: Vec<f64> = (0..48).map(f64::from).collect();
        let file = mat5_file(&[mat5_matrix("sig", 6, 8, &values)]);

        let rec = read_recording(&file, &ReadOptions::default()).unwrap();

        let names: Vec<&str> = rec.channels.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["ECG", "PPG1", "PPG2", "ACC_X", "ACC_Y", "ACC_Z"]);
        assert_eq!(rec.sampling_rate_hz, SPC_RATE_HZ);
        assert_eq!(
            rec.channels[1].samples,
            [1.0, 7.0, 13.0, 19.0, 25.0, 31.0, 37.0, 43.0]
        );
        assert_eq!(rec.metadata["layout"], "IEEE SPC 2015");
        let given = read_recording(
            &file,
            &ReadOptions {
                sampling_rate_hz: Some(100.0),
            },
        )
        .unwrap();
        assert_eq!(given.sampling_rate_hz, 100.0);
        let other = mat5_file(&[mat5_matrix("data", 6, 8, &values)]);
        assert!(matches!(
            read_recording(&other, &ReadOptions::default()),
            Err(FormatError::NoSamplingRate(_))
        ));
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
