//! The text header of a WFDB record (`.hea`, PhysioNet `header(5)`): the record line, one line per
//! signal (file, format, gain, baseline, units, name) and the start time.

use super::HEA;
use crate::{FormatError, MAX_CHANNELS};

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

pub(super) fn parse_signal_line(index: usize, line: &str) -> Result<SignalSpec, FormatError> {
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

/// `05:05:15` + `1/05/2000` (day/month/year) → `2000-05-01T05:05:15`.
pub(super) fn start_time(time: Option<&str>, date: Option<&str>) -> Option<String> {
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
