//! PhysioNet WFDB records and annotations.
//!
//! A record is a text header (`.hea`, PhysioNet `header(5)` man page) that names one or more signal
//! files holding the samples (PhysioNet `signal(5)`). Signals stored in the same file are interleaved
//! frame by frame. This module reads single-segment records whose signals all have one sample per
//! frame, in the formats 16, 61, 80, 212, 24 and 32; a signal file may also be a MATLAB file written
//! by `wfdb2mat` (as in PhysioNet/CinC 2017), which the header's byte offset (`16+24`) skips past.
//! Digital values become physical ones as `(value - baseline) / gain`; the format's invalid-sample code
//! becomes NaN.
//!
//! Annotation files use the MIT format (`annot(5)`): 16-bit little-endian words whose top 6 bits are
//! the annotation code and low 10 bits a time increment, with the pseudo-codes SKIP, NUM, SUB, CHN and
//! AUX. [`read_annotations`] turns them into [`Annotation`]s with the standard symbols of
//! `ecgcodes.h` ([`symbol_for_code`]).

use std::collections::BTreeMap;

use crate::{checked_values, Channel, Format, FormatError, Recording, MAX_CHANNELS};

const HEA: Format = Format::WfdbHeader;

/// One signal line of a WFDB header (`header(5)`).
#[derive(Debug, Clone, PartialEq)]
pub struct SignalSpec {
    /// The signal file, in the header's folder (`~` for none).
    pub file_name: String,
    /// The storage format (16, 61, 80, 212, 24, 32, ...).
    pub format: u16,
    /// Samples per frame (`16x2` gives 2); only 1 is read.
    pub samples_per_frame: usize,
    /// Skew in frames (`16:3`).
    pub skew: usize,
    /// Bytes to skip at the start of the signal file (`16+24`).
    pub byte_offset: usize,
    /// ADC units per physical unit (200 when the header gives 0 or nothing).
    pub adc_gain: f64,
    /// The digital value of physical zero (defaults to `adc_zero`).
    pub baseline: i64,
    /// Physical units (`mV` when the header gives none).
    pub units: String,
    /// ADC resolution in bits.
    pub adc_resolution: Option<u32>,
    /// The digital value of the ADC's zero input.
    pub adc_zero: i64,
    /// The first sample's value (used by difference formats).
    pub initial_value: Option<i64>,
    /// 16-bit sum of all samples of this signal.
    pub checksum: Option<i64>,
    /// Block size (0 for ordinary files).
    pub block_size: Option<u64>,
    /// The signal's description (its lead name, e.g. `MLII`).
    pub description: String,
}

/// A parsed WFDB header (`header(5)`).
#[derive(Debug, Clone, PartialEq)]
pub struct Header {
    /// The record's name.
    pub record_name: String,
    /// Samples per second per signal (250 when the header gives none).
    pub sampling_rate_hz: f64,
    /// Samples per signal, when given and not zero.
    pub n_samples: Option<usize>,
    /// The base time as written (`05:05:15`).
    pub base_time: Option<String>,
    /// The base date as written (`1/05/2000`, day/month/year).
    pub base_date: Option<String>,
    /// One spec per signal.
    pub signals: Vec<SignalSpec>,
    /// The `#` comment lines, without the `#`.
    pub comments: Vec<String>,
}

/// Parses a WFDB header.
///
/// # Errors
/// [`FormatError::Invalid`] for a malformed record or signal line, and
/// [`FormatError::UnsupportedFeature`] for multi-segment records.
pub fn parse_header(text: &str) -> Result<Header, FormatError> {
    let mut comments = Vec::new();
    let mut lines = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if let Some(comment) = line.strip_prefix('#') {
            comments.push(comment.trim().to_string());
        } else if !line.is_empty() {
            // A `#` after the fields starts a comment too.
            lines.push(line.split('#').next().unwrap_or_default());
        }
    }
    let Some((record_line, signal_lines)) = lines.split_first() else {
        return Err(FormatError::invalid(HEA, "no record line"));
    };
    let fields: Vec<&str> = record_line.split_whitespace().collect();
    let name = fields.first().copied().unwrap_or_default();
    if name.contains('/') {
        return Err(FormatError::feature(
            HEA,
            "multi-segment records (record name with /segments)",
        ));
    }
    let n_signals: usize = match fields.get(1) {
        Some(n) => n
            .parse()
            .map_err(|_| FormatError::invalid(HEA, format!("number of signals {n:?}")))?,
        None => 0,
    };
    if n_signals > MAX_CHANNELS {
        return Err(FormatError::TooLarge(format!("{n_signals} signals")));
    }
    let sampling_rate_hz = match fields.get(2) {
        // `fs[/counterfreq[(basecounter)]]`
        Some(fs) => {
            let fs = fs.split('/').next().unwrap_or_default();
            match fs.parse::<f64>() {
                Ok(v) if v.is_finite() && v > 0.0 => v,
                _ => {
                    return Err(FormatError::invalid(
                        HEA,
                        format!("sampling frequency {fs:?}"),
                    ))
                }
            }
        }
        None => 250.0,
    };
    let n_samples = match fields.get(3) {
        Some(n) => match n.parse::<usize>() {
            Ok(0) => None,
            Ok(v) => Some(v),
            Err(_) => {
                return Err(FormatError::invalid(
                    HEA,
                    format!("number of samples {n:?}"),
                ))
            }
        },
        None => None,
    };
    if signal_lines.len() < n_signals {
        return Err(FormatError::invalid(
            HEA,
            format!(
                "the record line announces {n_signals} signals but {} signal lines follow",
                signal_lines.len()
            ),
        ));
    }
    let signals = signal_lines[..n_signals]
        .iter()
        .enumerate()
        .map(|(i, line)| parse_signal_line(i, line))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Header {
        record_name: name.to_string(),
        sampling_rate_hz,
        n_samples,
        base_time: fields.get(4).map(|s| (*s).to_string()),
        base_date: fields.get(5).map(|s| (*s).to_string()),
        signals,
        comments,
    })
}

fn parse_signal_line(index: usize, line: &str) -> Result<SignalSpec, FormatError> {
    let bad = |what: &str, value: &str| {
        FormatError::invalid(HEA, format!("signal {index}: {what} {value:?}"))
    };
    let fields: Vec<&str> = line.split_whitespace().collect();
    let (Some(file_name), Some(format_field)) = (fields.first(), fields.get(1)) else {
        return Err(bad("signal line needs a file name and a format:", line));
    };
    // `format[xsamp][:skew][+offset]`
    let digits_end = format_field
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(format_field.len());
    let format: u16 = format_field[..digits_end]
        .parse()
        .map_err(|_| bad("format", format_field))?;
    let mut samples_per_frame = 1;
    let mut skew = 0;
    let mut byte_offset = 0;
    let mut rest = &format_field[digits_end..];
    while let Some(tag) = rest.chars().next() {
        let body = &rest[tag.len_utf8()..];
        let end = body
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(body.len());
        let value: usize = body[..end]
            .parse()
            .map_err(|_| bad("format", format_field))?;
        match tag {
            'x' => samples_per_frame = value,
            ':' => skew = value,
            '+' => byte_offset = value,
            _ => return Err(bad("format", format_field)),
        }
        rest = &body[end..];
    }
    let int = |i: usize, what: &str| -> Result<Option<i64>, FormatError> {
        fields
            .get(i)
            .map(|v| v.parse::<i64>().map_err(|_| bad(what, v)))
            .transpose()
    };
    let adc_resolution = int(3, "ADC resolution")?.and_then(|v| u32::try_from(v).ok());
    let adc_zero = int(4, "ADC zero")?.unwrap_or(0);
    // `adcgain[(baseline)][/units]`
    let (mut adc_gain, mut baseline, mut units) = (0.0_f64, None, String::new());
    if let Some(gain_field) = fields.get(2) {
        let (gain_part, unit_part) = match gain_field.split_once('/') {
            Some((g, u)) => (g, Some(u)),
            None => (*gain_field, None),
        };
        let (gain_text, base_text) = match gain_part.split_once('(') {
            Some((g, b)) => (g, Some(b.trim_end_matches(')'))),
            None => (gain_part, None),
        };
        adc_gain = gain_text.parse().map_err(|_| bad("ADC gain", gain_field))?;
        if let Some(b) = base_text {
            baseline = Some(b.parse::<i64>().map_err(|_| bad("baseline", gain_field))?);
        }
        units = unit_part.unwrap_or_default().to_string();
    }
    if !adc_gain.is_finite() {
        // "nan", "inf": no physical value can be computed from the samples.
        return Err(FormatError::invalid(
            HEA,
            format!("signal {index}: the ADC gain must be a finite number, not {adc_gain}"),
        ));
    }
    if adc_gain == 0.0 {
        adc_gain = 200.0; // WFDB_DEFGAIN: an uncalibrated signal
    }
    if units.is_empty() {
        units = "mV".into();
    }
    Ok(SignalSpec {
        file_name: (*file_name).to_string(),
        format,
        samples_per_frame,
        skew,
        byte_offset,
        adc_gain,
        baseline: baseline.unwrap_or(adc_zero),
        units,
        adc_resolution,
        adc_zero,
        initial_value: int(5, "initial value")?,
        checksum: int(6, "checksum")?,
        block_size: int(7, "block size")?.and_then(|v| u64::try_from(v).ok()),
        description: fields.get(8..).map(|d| d.join(" ")).unwrap_or_default(),
    })
}

/// Whether `text` looks like a WFDB header: a record line `name nsig [fs ...]` followed by as many
/// signal lines `file format ...`.
pub(crate) fn looks_like_header(text: &str) -> bool {
    let mut lines = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'));
    let Some(record) = lines.next() else {
        return false;
    };
    let fields: Vec<&str> = record.split_whitespace().collect();
    let Some(Ok(n_signals)) = fields.get(1).map(|n| n.parse::<usize>()) else {
        return false;
    };
    if fields[0].parse::<f64>().is_ok() && fields.len() < 3 {
        return false;
    }
    if let Some(fs) = fields.get(2) {
        if !fs.starts_with(|c: char| c.is_ascii_digit()) {
            return false;
        }
    }
    if n_signals == 0 {
        return fields.len() >= 3 && lines.next().is_none();
    }
    // Judge on the signal lines present (a prefix of the file may hold only some of them).
    let signal_lines: Vec<&str> = lines.take(n_signals.min(8)).collect();
    !signal_lines.is_empty()
        && signal_lines.iter().all(|line| {
            let f: Vec<&str> = line.split_whitespace().collect();
            f.len() >= 2
                && f[0].parse::<f64>().is_err()
                && f[1].starts_with(|c: char| c.is_ascii_digit())
                && f[1].parse::<f64>().map_or(true, |v| v.fract() == 0.0)
        })
}

/// Reads a WFDB record from its header, loading each signal file it names with `load`.
///
/// `load` receives a file name exactly as the header gives it (e.g. `100.dat`, `A00001.mat`).
///
/// # Errors
/// Header errors of [`parse_header`], whatever `load` returns, and [`FormatError::Invalid`] when a
/// signal file is shorter than the header claims.
pub fn read_record<F>(header: &[u8], mut load: F) -> Result<Recording, FormatError>
where
    F: FnMut(&str) -> Result<Vec<u8>, FormatError>,
{
    let text = std::str::from_utf8(header)
        .map_err(|_| FormatError::invalid(HEA, "the header is not UTF-8 text"))?;
    let header = parse_header(text)?;
    if header.signals.is_empty() {
        return Err(FormatError::invalid(HEA, "the record has no signals"));
    }
    // Group the signals by file, keeping the header's order.
    let mut files: Vec<(String, Vec<usize>)> = Vec::new();
    for (i, s) in header.signals.iter().enumerate() {
        if s.samples_per_frame != 1 {
            return Err(FormatError::feature(
                HEA,
                format!(
                    "signal {i} has {} samples per frame (multi-frequency records)",
                    s.samples_per_frame
                ),
            ));
        }
        match files.iter_mut().find(|(name, _)| *name == s.file_name) {
            Some((_, members)) => members.push(i),
            None => files.push((s.file_name.clone(), vec![i])),
        }
    }
    let mut digital: Vec<Vec<i32>> = vec![Vec::new(); header.signals.len()];
    let mut invalid_code = vec![0i32; header.signals.len()];
    let mut n_frames = header.n_samples;
    for (file_name, members) in &files {
        let first = &header.signals[members[0]];
        if let Some(other) = members
            .iter()
            .find(|&&m| header.signals[m].format != first.format)
        {
            return Err(FormatError::invalid(
                HEA,
                format!(
                    "signals {} and {other} share {file_name} but not their format",
                    members[0]
                ),
            ));
        }
        let codec = Codec::for_format(first.format)?;
        let bytes = load(file_name)?;
        let data = bytes.get(first.byte_offset..).ok_or_else(|| {
            FormatError::invalid(
                HEA,
                format!(
                    "{file_name} is shorter than its byte offset {}",
                    first.byte_offset
                ),
            )
        })?;
        let width = members.len();
        let available_frames = codec.samples_in(data.len()) / width;
        let frames = match header.n_samples {
            Some(n) if n > available_frames => {
                return Err(FormatError::invalid(
                    HEA,
                    format!(
                        "{file_name} holds {available_frames} samples per signal but the header claims {n} (truncated file?)"
                    ),
                ))
            }
            Some(n) => n,
            None => available_frames,
        };
        let total = checked_values(HEA, frames, width, codec.samples_in(data.len()))?;
        let stream = codec.decode(data, total);
        drop(bytes);
        if let [only] = members[..] {
            // One signal in the file: its stream is its samples (no second copy).
            digital[only] = stream;
            invalid_code[only] = codec.invalid;
        } else {
            for (k, &m) in members.iter().enumerate() {
                digital[m] = stream.iter().skip(k).step_by(width).copied().collect();
                invalid_code[m] = codec.invalid;
            }
        }
        n_frames = Some(n_frames.map_or(frames, |n| n.min(frames)));
    }
    let n_frames = n_frames.unwrap_or(0);
    let mut metadata = BTreeMap::new();
    metadata.insert("format".into(), "WFDB".into());
    metadata.insert("record".into(), header.record_name.clone());
    if !header.comments.is_empty() {
        metadata.insert("comments".into(), header.comments.join("\n"));
    }
    let mut checksum_mismatch = Vec::new();
    let mut channels = Vec::with_capacity(header.signals.len());
    for (i, (spec, values)) in header.signals.iter().zip(digital).enumerate() {
        if let Some(expected) = spec.checksum {
            let sum = values[..n_frames.min(values.len())]
                .iter()
                .fold(0i16, |acc, &v| acc.wrapping_add(v as i16));
            if i64::from(sum) != expected && i64::from(sum as u16) != expected {
                checksum_mismatch.push(i.to_string());
            }
        }
        for (key, value) in [
            ("file", spec.file_name.clone()),
            ("storage_format", spec.format.to_string()),
            ("gain", spec.adc_gain.to_string()),
            ("baseline", spec.baseline.to_string()),
            ("adc_zero", spec.adc_zero.to_string()),
        ] {
            metadata.insert(format!("signal.{i}.{key}"), value);
        }
        let samples = (0..n_frames)
            .map(|f| match values.get(f + spec.skew) {
                Some(&v) if v != invalid_code[i] => {
                    (f64::from(v) - spec.baseline as f64) / spec.adc_gain
                }
                _ => f64::NAN,
            })
            .collect();
        let name = if spec.description.is_empty() {
            format!("signal {i}")
        } else {
            spec.description.trim().to_string()
        };
        channels.push(Channel {
            name,
            unit: spec.units.clone(),
            samples,
        });
    }
    if !checksum_mismatch.is_empty() {
        metadata.insert("checksum_mismatch".into(), checksum_mismatch.join(","));
    }
    Ok(Recording {
        channels,
        sampling_rate_hz: header.sampling_rate_hz,
        start: start_time(header.base_time.as_deref(), header.base_date.as_deref()),
        metadata,
    })
}

/// `05:05:15` + `1/05/2000` (day/month/year) → `2000-05-01T05:05:15`.
fn start_time(time: Option<&str>, date: Option<&str>) -> Option<String> {
    let time = time?;
    let parts: Vec<&str> = time.split(':').collect();
    let (h, m, s) = match parts.as_slice() {
        [h, m, s] => (*h, *m, *s),
        [m, s] => ("0", *m, *s),
        _ => return None,
    };
    let h: u32 = h.parse().ok().filter(|&h| h < 24)?;
    let m: u32 = m.parse().ok().filter(|&m| m < 60)?;
    let (whole, fraction) = s.split_once('.').unwrap_or((s, ""));
    let whole: u32 = whole.parse().ok().filter(|&v| v < 61)?;
    if !fraction.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let mut clock = format!("{h:02}:{m:02}:{whole:02}");
    if !fraction.is_empty() {
        clock.push('.');
        clock.push_str(fraction);
    }
    let Some(date) = date else {
        return Some(clock);
    };
    let d: Vec<u32> = date
        .split('/')
        .map(str::parse)
        .collect::<Result<_, _>>()
        .ok()?;
    match d.as_slice() {
        [day @ 1..=31, month @ 1..=12, year] if *year <= 9999 => {
            Some(format!("{year:04}-{month:02}-{day:02}T{clock}"))
        }
        _ => Some(clock),
    }
}

/// How one storage format packs samples (`signal(5)`).
struct Codec {
    format: u16,
    /// The value meaning "no sample" (`WFDB_INVALID_SAMPLE` scaled to the format).
    invalid: i32,
}

impl Codec {
    fn for_format(format: u16) -> Result<Self, FormatError> {
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
    fn samples_in(&self, len: usize) -> usize {
        match self.format {
            80 => len,
            212 => len / 3 * 2 + usize::from(len % 3 >= 2),
            24 => len / 3,
            32 => len / 4,
            _ => len / 2,
        }
    }

    /// Decodes the first `count` samples (`count <= samples_in(data.len())`).
    fn decode(&self, data: &[u8], count: usize) -> Vec<i32> {
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

/// One annotation of a WFDB annotation file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Annotation {
    /// The sample (frame number) it refers to.
    pub sample: u64,
    /// The annotation code (`ecgcodes.h`, 1..=49).
    pub code: u8,
    /// The code's mnemonic symbol (`N`, `V`, `+`, ...).
    pub symbol: String,
    /// The `subtyp` field.
    pub subtype: i16,
    /// The `chan` field.
    pub channel: u16,
    /// The `num` field.
    pub num: i16,
    /// Auxiliary text (rhythm annotations carry e.g. `(AFIB`), when present.
    pub aux: Option<String>,
}

/// The standard symbol of an annotation code (`ecgcodes.h` / `annot(5)`); `[n]` for codes without one.
pub fn symbol_for_code(code: u8) -> String {
    const SYMBOLS: [&str; 42] = [
        " ", "N", "L", "R", "a", "V", "F", "J", "A", "S", "E", "j", "/", "Q", "~", "", "|", "",
        "s", "T", "*", "D", "\"", "=", "p", "B", "^", "t", "+", "u", "?", "!", "[", "]", "e", "n",
        "@", "x", "f", "(", ")", "r",
    ];
    match SYMBOLS.get(usize::from(code)) {
        Some(s) if !s.is_empty() => (*s).to_string(),
        _ => format!("[{code}]"),
    }
}

/// Reads a WFDB annotation file in MIT format (`annot(5)`).
///
/// # Errors
/// [`FormatError::Invalid`] when a SKIP or AUX field runs past the end of the file or a time becomes
/// negative.
pub fn read_annotations(bytes: &[u8]) -> Result<Vec<Annotation>, FormatError> {
    const ANN: Format = Format::WfdbAnnotation;
    let truncated = || FormatError::invalid(ANN, "truncated SKIP or AUX field");
    let mut out: Vec<Annotation> = Vec::new();
    let mut time: i64 = 0;
    let (mut num, mut channel) = (0i16, 0u16);
    let mut pos = 0;
    while let Some(word) = bytes.get(pos..pos + 2) {
        pos += 2;
        let word = u16::from_le_bytes([word[0], word[1]]);
        let (code, value) = ((word >> 10) as u8, word & 0x3ff);
        match code {
            0 if value == 0 => break,
            59 => {
                // SKIP: a 32-bit interval follows, high 16-bit word first (PDP-11 order).
                let b = bytes.get(pos..pos + 4).ok_or_else(truncated)?;
                pos += 4;
                let interval = i32::from_le_bytes([b[2], b[3], b[0], b[1]]);
                time += i64::from(interval);
            }
            60 => {
                if let Some(last) = out.last_mut() {
                    last.num = i16::try_from(value).unwrap_or_default();
                    num = i16::try_from(value).unwrap_or_default();
                }
            }
            61 => {
                if let Some(last) = out.last_mut() {
                    last.subtype = i16::try_from(value).unwrap_or_default();
                }
            }
            62 => {
                if let Some(last) = out.last_mut() {
                    last.channel = value;
                    channel = value;
                }
            }
            63 => {
                let len = usize::from(value);
                let text = bytes.get(pos..pos + len).ok_or_else(truncated)?;
                pos += len + (len & 1);
                if let Some(last) = out.last_mut() {
                    let text = String::from_utf8_lossy(text);
                    last.aux = Some(text.trim_end_matches('\0').to_string());
                }
            }
            _ => {
                time += i64::from(value);
                let sample = u64::try_from(time).map_err(|_| {
                    FormatError::invalid(ANN, format!("negative annotation time {time}"))
                })?;
                out.push(Annotation {
                    sample,
                    code,
                    symbol: symbol_for_code(code),
                    subtype: 0,
                    channel,
                    num,
                    aux: None,
                });
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pack_212(values: &[i32]) -> Vec<u8> {
        let mut out = Vec::new();
        for pair in values.chunks(2) {
            let a = pair[0] & 0xfff;
            let b = pair.get(1).copied().unwrap_or(0) & 0xfff;
            out.push((a & 0xff) as u8);
            out.push((((a >> 8) & 0x0f) | ((b >> 4) & 0xf0)) as u8);
            if pair.len() == 2 {
                out.push((b & 0xff) as u8);
            }
        }
        out
    }

    fn record(header: &str, files: &[(&str, Vec<u8>)]) -> Result<Recording, FormatError> {
        read_record(header.as_bytes(), |name| {
            files
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, b)| b.clone())
                .ok_or_else(|| FormatError::Unsupported(format!("no file {name}")))
        })
    }

    #[test]
    fn parses_the_record_and_signal_lines_of_mitdb_100() {
        let text = "100 2 360 650000\n100.dat 212 200 11 1024 995 -22131 0 MLII\n\
                    100.dat 212 200 11 1024 1011 20052 0 V5\n# 69 M 1085 1629 x1\n";
        let h = parse_header(text).unwrap();
        assert_eq!(h.record_name, "100");
        assert_eq!(h.sampling_rate_hz, 360.0);
        assert_eq!(h.n_samples, Some(650_000));
        assert_eq!(h.signals.len(), 2);
        let s = &h.signals[0];
        assert_eq!(
            (s.format, s.adc_gain, s.baseline, s.adc_zero),
            (212, 200.0, 1024, 1024)
        );
        assert_eq!(
            (s.initial_value, s.checksum, s.block_size),
            (Some(995), Some(-22131), Some(0))
        );
        assert_eq!((s.description.as_str(), s.units.as_str()), ("MLII", "mV"));
        assert_eq!(h.comments, vec!["69 M 1085 1629 x1"]);
    }

    #[test]
    fn parses_offsets_baselines_units_and_multiword_descriptions() {
        let text = "A00001 1 300 9000 05:05:15 1/05/2000\n\
                    A00001.mat 16x1:2+24 1000(-3)/uV 16 0 -127 0 0 ECG lead I\n";
        let h = parse_header(text).unwrap();
        let s = &h.signals[0];
        assert_eq!((s.byte_offset, s.skew, s.samples_per_frame), (24, 2, 1));
        assert_eq!(
            (s.adc_gain, s.baseline, s.units.as_str()),
            (1000.0, -3, "uV")
        );
        assert_eq!(s.description, "ECG lead I");
        assert_eq!(
            start_time(h.base_time.as_deref(), h.base_date.as_deref()).as_deref(),
            Some("2000-05-01T05:05:15")
        );
    }

    #[test]
    fn a_header_with_fewer_signal_lines_than_announced_is_invalid() {
        let err = parse_header("r 3 250\nr.dat 16\n").unwrap_err();
        assert!(err.to_string().contains("3 signals"), "{err}");
    }

    #[test]
    fn multi_segment_records_are_refused_clearly() {
        let err = parse_header("r/2 1 250 100\n").unwrap_err();
        assert!(err.to_string().contains("multi-segment"));
    }

    #[test]
    fn reads_interleaved_format_212_with_gain_and_baseline() {
        // Two signals, frames (1024+200, 1024-100), (1024, 0), (-2048 invalid, 1000).
        let digital = [1224, 924, 1024, 0, -2048, 1000];
        let header =
            "r 2 360 3\nr.dat 212 200 12 1024 0 0 0 MLII\nr.dat 212 100(0)/mV 12 0 0 0 0 V5\n";
        let rec = record(header, &[("r.dat", pack_212(&digital))]).unwrap();
        assert_eq!(rec.sampling_rate_hz, 360.0);
        let a = &rec.channels[0].samples;
        assert_eq!(&a[..2], &[1.0, 0.0]);
        assert!(a[2].is_nan(), "the invalid-sample code becomes NaN");
        assert_eq!(rec.channels[1].samples, vec![9.24, 0.0, 10.0]);
        assert_eq!(rec.channels[1].name, "V5");
    }

    #[test]
    fn reads_formats_16_61_80_24_and_32() {
        let values: [i32; 4] = [-300, 0, 5, 100];
        let le16: Vec<u8> = values
            .iter()
            .flat_map(|&v| (v as i16).to_le_bytes())
            .collect();
        let be16: Vec<u8> = values
            .iter()
            .flat_map(|&v| (v as i16).to_be_bytes())
            .collect();
        let b80: Vec<u8> = [-100i32, 0, 5, 100]
            .iter()
            .map(|&v| (v + 128) as u8)
            .collect();
        let b24: Vec<u8> = values
            .iter()
            .flat_map(|&v| v.to_le_bytes()[..3].to_vec())
            .collect();
        let b32: Vec<u8> = values
            .iter()
            .flat_map(|&v| (v * 1000).to_le_bytes())
            .collect();
        for (fmt, bytes, expected) in [
            ("16", le16, vec![-3.0, 0.0, 0.05, 1.0]),
            ("61", be16, vec![-3.0, 0.0, 0.05, 1.0]),
            ("80", b80, vec![-1.0, 0.0, 0.05, 1.0]),
            ("24", b24, vec![-3.0, 0.0, 0.05, 1.0]),
            ("32", b32, vec![-3000.0, 0.0, 50.0, 1000.0]),
        ] {
            let header = format!("r 1 100 4\nr.dat {fmt} 100 16 0 0 0 0 x\n");
            let rec = record(&header, &[("r.dat", bytes)]).unwrap();
            assert_eq!(rec.channels[0].samples, expected, "format {fmt}");
        }
    }

    #[test]
    fn signals_in_separate_files_and_byte_offsets_are_honoured() {
        let a: Vec<u8> = [9u8, 9]
            .into_iter()
            .chain([1i16, 2].iter().flat_map(|v| v.to_le_bytes()))
            .collect();
        let b: Vec<u8> = [3i16, 4].iter().flat_map(|v| v.to_le_bytes()).collect();
        let header = "r 2 10\na.dat 16+2 1 16 0 0 0 0 A\nb.dat 16 1 16 0 0 0 0 B\n";
        let rec = record(header, &[("a.dat", a), ("b.dat", b)]).unwrap();
        assert_eq!(rec.channels[0].samples, vec![1.0, 2.0]);
        assert_eq!(rec.channels[1].samples, vec![3.0, 4.0]);
    }

    #[test]
    fn a_signal_file_shorter_than_claimed_is_reported_as_truncated() {
        let header = "r 1 100 1000\nr.dat 16 200 16 0 0 0 0 x\n";
        let err = record(header, &[("r.dat", vec![0; 10])]).unwrap_err();
        assert!(err.to_string().contains("truncated"), "{err}");
    }

    #[test]
    fn an_unknown_signal_format_names_the_formats_that_work() {
        let err = record("r 1 100\nr.dat 310 200\n", &[("r.dat", vec![0; 10])]).unwrap_err();
        assert!(err.to_string().contains("310"), "{err}");
    }

    #[test]
    fn the_checksum_is_verified() {
        let bytes: Vec<u8> = [1i16, 2, 3].iter().flat_map(|v| v.to_le_bytes()).collect();
        let ok = record(
            "r 1 10 3\nr.dat 16 1 16 0 1 6 0 x\n",
            &[("r.dat", bytes.clone())],
        )
        .unwrap();
        assert!(!ok.metadata.contains_key("checksum_mismatch"));
        let bad = record("r 1 10 3\nr.dat 16 1 16 0 1 7 0 x\n", &[("r.dat", bytes)]).unwrap();
        assert_eq!(bad.metadata["checksum_mismatch"], "0");
    }

    #[test]
    fn a_non_finite_gain_is_refused() {
        let bytes = [0u8, 1, 0, 2, 0, 3];
        for gain in ["nan", "inf", "-inf"] {
            let err = record(
                &format!("r 1 10 3\nr.dat 16 {gain} 16 0 0 0 0 II\n"),
                &[("r.dat", bytes.to_vec())],
            )
            .unwrap_err();
            assert!(
                err.to_string()
                    .contains("the ADC gain must be a finite number"),
                "{err}"
            );
        }
    }

    #[test]
    fn detects_headers_but_not_numeric_tables() {
        assert!(looks_like_header("100 2 360 650000\n100.dat 212 200 11 1024 995 -22131 0 MLII\n100.dat 212 200 11 1024 1011 20052 0 V5\n"));
        assert!(!looks_like_header("1 2\n3 4\n5 6\n"));
        assert!(!looks_like_header("0.1 0.2 0.3\n0.4 0.5 0.6\n"));
        assert!(!looks_like_header("time,ecg\n0,1\n"));
    }

    #[test]
    fn decodes_mit_annotations_with_skip_num_chn_and_aux() {
        let word = |code: u16, value: u16| (code << 10 | value).to_le_bytes();
        let mut bytes = Vec::new();
        bytes.extend(word(28, 18)); // + at 18
        bytes.extend(word(63, 3)); // AUX "(N"
        bytes.extend(b"(N\0\0");
        bytes.extend(word(1, 59)); // N at 77
        bytes.extend(word(59, 0)); // SKIP 100000
        bytes.extend([0x01, 0x00, 0xa0, 0x86]); // 0x000186a0, high word first
        bytes.extend(word(5, 3)); // V at 100080
        bytes.extend(word(62, 1)); // chan 1
        bytes.extend(word(60, 2)); // num 2
        bytes.extend(word(61, 4)); // sub 4
        bytes.extend(word(1, 1)); // N at 100081, keeps chan and num
        bytes.extend([0, 0]);
        let anns = read_annotations(&bytes).unwrap();
        let got: Vec<(u64, &str)> = anns.iter().map(|a| (a.sample, a.symbol.as_str())).collect();
        assert_eq!(
            got,
            vec![(18, "+"), (77, "N"), (100_080, "V"), (100_081, "N")]
        );
        assert_eq!(anns[0].aux.as_deref(), Some("(N"));
        assert_eq!((anns[2].channel, anns[2].num, anns[2].subtype), (1, 2, 4));
        assert_eq!((anns[3].channel, anns[3].num, anns[3].subtype), (1, 2, 0));
    }

    #[test]
    fn a_truncated_aux_field_is_an_error() {
        let word = |code: u16, value: u16| (code << 10 | value).to_le_bytes();
        let mut bytes = Vec::from(word(1, 5));
        bytes.extend(word(63, 40));
        bytes.extend(b"abc");
        assert!(read_annotations(&bytes).is_err());
    }

    #[test]
    fn symbols_follow_ecgcodes() {
        let symbols: Vec<String> = [1, 5, 12, 28, 41, 42]
            .into_iter()
            .map(symbol_for_code)
            .collect();
        assert_eq!(symbols, ["N", "V", "/", "+", "r", "[42]"]);
    }
}
