//! Delimited text: CSV, semicolon- or tab-separated values, whitespace-aligned columns.
//!
//! There is no single specification (RFC 4180 describes only the comma case), so the reader detects:
//! the delimiter (tab, semicolon, comma, pipe or runs of whitespace: the first that splits the data
//! lines into the same number of fields), header lines (leading lines that are not numbers: the first
//! gives the column names, trimmed and unquoted, e.g. BIDMC's ` PLETH`; a second one gives units, as in
//! PhysioNet's `'(mV)'` exports), a decimal comma where the delimiter is not a comma, and a time column
//! (`Time [s]`, `time`, `t`, `Elapsed time`, `time_ms`, `hh:mm:ss.mmm` values, ...) whose step gives the
//! sampling rate. Without a time column the caller must give the rate.

use std::borrow::Cow;
use std::collections::BTreeMap;

use crate::{Channel, Format, FormatError, ReadOptions, Recording, MAX_CHANNELS, MAX_VALUES};

const F: Format = Format::Csv;

#[derive(Debug, Clone, Copy, PartialEq)]
enum Delimiter {
    Char(char),
    Whitespace,
    /// One column: every line is one field.
    None,
}

impl Delimiter {
    /// The fields of one line, trimmed and unquoted. A line with a double quote is parsed by the
    /// `csv` crate (RFC 4180 quoting: a quoted field may hold the delimiter and `""`), any other
    /// is split in place.
    fn split(self, line: &str) -> Vec<Cow<'_, str>> {
        match self {
            Delimiter::Char(c) if line.contains('"') && c.is_ascii() => quoted_fields(line, c),
            Delimiter::Char(c) => line.split(c).map(|f| Cow::Borrowed(clean(f))).collect(),
            Delimiter::Whitespace => line
                .split_whitespace()
                .map(|f| Cow::Borrowed(clean(f)))
                .collect(),
            Delimiter::None => vec![Cow::Borrowed(clean(line))],
        }
    }
}

/// The fields of a line with quotes, separated by the ASCII character `delimiter`.
fn quoted_fields(line: &str, delimiter: char) -> Vec<Cow<'_, str>> {
    let mut reader = ::csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .delimiter(delimiter as u8)
        .from_reader(line.as_bytes());
    let mut record = ::csv::StringRecord::new();
    match reader.read_record(&mut record) {
        Ok(true) => record
            .iter()
            .map(|f| Cow::Owned(clean(f).to_string()))
            .collect(),
        // Not valid CSV (e.g. a stray quote): split it as it stands.
        _ => line
            .split(delimiter)
            .map(|f| Cow::Borrowed(clean(f)))
            .collect(),
    }
}

/// Trims a field and strips one pair of surrounding quotes.
fn clean(field: &str) -> &str {
    let f = field.trim();
    for q in ['"', '\''] {
        if let Some(inner) = f.strip_prefix(q).and_then(|s| s.strip_suffix(q)) {
            return inner.trim();
        }
    }
    f
}

/// A number with a decimal point or a decimal comma; empty and `NaN` fields are missing values.
fn number(field: &str) -> Option<f64> {
    if let Ok(v) = field.parse::<f64>() {
        return Some(v);
    }
    if field.contains(',') && !field.contains('.') {
        return field.replacen(',', ".", 1).parse().ok();
    }
    None
}

/// A clock value `h:mm:ss.fff` or `m:ss.fff`, in seconds.
fn clock(field: &str) -> Option<f64> {
    if !field.contains(':') {
        return None;
    }
    let mut total = 0.0;
    for part in field.split(':') {
        let v: f64 = number(part)?;
        if !(0.0..60.0).contains(&v) && total != 0.0 {
            return None;
        }
        total = total * 60.0 + v;
    }
    Some(total)
}

fn is_missing(field: &str) -> bool {
    field.is_empty()
        || field.eq_ignore_ascii_case("nan")
        || field == "-"
        || field.eq_ignore_ascii_case("na")
}

/// Whether a line is data: at least one number (or clock value), and no more text fields than
/// numbers (a text column such as a beat label is allowed; it becomes NaN and is dropped).
fn is_data_line(fields: &[Cow<str>]) -> bool {
    let numeric = fields
        .iter()
        .filter(|f| number(f).is_some() || clock(f).is_some())
        .count();
    let text = fields
        .iter()
        .filter(|f| number(f).is_none() && clock(f).is_none() && !is_missing(f))
        .count();
    numeric > 0 && numeric >= text
}

/// Whether a line has no number at all (a header, units or preamble line).
fn is_text_line(fields: &[Cow<str>]) -> bool {
    !fields
        .iter()
        .any(|f| number(f).is_some() || clock(f).is_some())
}

/// Whether a header field is a unit (`mV`, `(mV)`, `hh:mm:ss.mmm`, ...), as in a units line.
fn looks_like_unit(field: &str) -> bool {
    let f = field
        .trim()
        .trim_matches(['(', ')', '[', ']', '\'', '"'])
        .trim();
    field.trim().starts_with(['(', '['])
        || [
            "",
            "mv",
            "uv",
            "µv",
            "v",
            "s",
            "sec",
            "ms",
            "mmhg",
            "bpm",
            "%",
            "hh:mm:ss.mmm",
            "hh:mm:ss",
            "a.u.",
            "au",
            "adu",
            "nu",
            "g",
            "hz",
            "mm",
            "ohm",
            "degc",
            "°c",
        ]
        .contains(&f.to_lowercase().as_str())
}

/// A sampling rate stated in a preamble line such as `Sampling rate: 250 Hz` or `fs=500`.
fn preamble_rate(line: &str) -> Option<f64> {
    let lower = line.to_ascii_lowercase();
    let mentions_rate = lower.contains("sampling")
        || lower.contains("sample rate")
        || lower.contains("samplerate")
        || lower.contains("frequency")
        || lower.trim_start().starts_with("fs");
    if !mentions_rate {
        return None;
    }
    let start = lower.find(|c: char| c.is_ascii_digit())?;
    let digits: String = lower[start..]
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    digits
        .parse::<f64>()
        .ok()
        .filter(|v| v.is_finite() && *v > 0.0)
}

fn content_lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .map(|l| l.trim_end_matches('\r'))
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
}

/// The delimiter that splits the most lines into one common number (at least 2) of fields; a
/// preamble or header with another shape does not matter. Ties go to the earlier candidate, so
/// `1,5;2,5` (decimal commas) splits on semicolons.
fn detect_delimiter(lines: &[&str]) -> Delimiter {
    let mut best = (Delimiter::None, 0usize);
    for d in [
        Delimiter::Char('\t'),
        Delimiter::Char(';'),
        Delimiter::Char(','),
        Delimiter::Char('|'),
        Delimiter::Whitespace,
    ] {
        let mut tally: BTreeMap<usize, usize> = BTreeMap::new();
        for line in lines {
            let n = d.split(line).len();
            if n >= 2 {
                *tally.entry(n).or_default() += 1;
            }
        }
        let agreeing = tally.values().copied().max().unwrap_or(0);
        if agreeing > best.1 && agreeing * 2 >= lines.len() {
            best = (d, agreeing);
        }
    }
    best.0
}

/// Whether `text` (a prefix of the file) looks like a table of numbers.
pub(crate) fn looks_like_table(text: &str) -> bool {
    let lines: Vec<&str> = content_lines(text).take(40).collect();
    // The last line of a prefix may be cut; judge on the complete ones when there are several.
    let lines = if lines.len() > 2 {
        &lines[..lines.len() - 1]
    } else {
        &lines[..]
    };
    let d = detect_delimiter(lines);
    let data = lines.iter().filter(|l| is_data_line(&d.split(l))).count();
    data > 0 && data + 2 >= lines.len()
}

/// The text of a file: UTF-8 (with or without a BOM), UTF-16 with a BOM (Excel's "Unicode text"), or
/// Latin-1 when the bytes are not UTF-8 (older exports; every byte is a character).
pub(crate) fn decode(bytes: &[u8]) -> Cow<'_, str> {
    let utf16 = |bytes: &[u8], big: bool| -> Cow<'_, str> {
        let units = bytes.chunks_exact(2).map(|c| {
            if big {
                u16::from_be_bytes([c[0], c[1]])
            } else {
                u16::from_le_bytes([c[0], c[1]])
            }
        });
        Cow::Owned(
            char::decode_utf16(units)
                .map(|c| c.unwrap_or('\u{fffd}'))
                .collect(),
        )
    };
    if let Some(rest) = bytes.strip_prefix(b"\xff\xfe") {
        return utf16(rest, false);
    }
    if let Some(rest) = bytes.strip_prefix(b"\xfe\xff") {
        return utf16(rest, true);
    }
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => Cow::Owned(bytes.iter().map(|&b| char::from(b)).collect()),
    }
}

/// How a column name marks the time column, and its unit's length in seconds.
fn time_column_scale(name: &str) -> Option<f64> {
    let lower = name.trim().to_ascii_lowercase();
    let (base, unit) = match lower.find(['[', '(']) {
        Some(i) => (
            lower[..i].trim(),
            lower[i + 1..].trim_end_matches([']', ')']).trim(),
        ),
        None => match lower.rsplit_once(['_', ' ']) {
            Some((b, u)) if ["s", "sec", "ms", "msec"].contains(&u) => (b.trim(), u),
            _ => (lower.as_str(), ""),
        },
    };
    let is_time = matches!(
        base,
        "time"
            | "t"
            | "elapsed time"
            | "timestamp"
            | "seconds"
            | "sec"
            | "secs"
            | "ms"
            | "millis"
            | "milliseconds"
            | "elapsed"
            | "times"
            | "time stamp"
            | "sample time"
    );
    if !is_time {
        return None;
    }
    let millis = matches!(unit, "ms" | "msec" | "milliseconds")
        || matches!(base, "ms" | "millis" | "milliseconds");
    Some(if millis { 1e-3 } else { 1.0 })
}

/// Splits `Name [unit]` / `Name (unit)` into name and unit.
fn name_and_unit(field: &str) -> (String, String) {
    let field = field.trim();
    if let Some(open) = field.find(['[', '(']) {
        let close = if field[open..].starts_with('[') {
            ']'
        } else {
            ')'
        };
        if let Some(unit) = field[open + 1..].strip_suffix(close) {
            let name = field[..open].trim();
            if !name.is_empty() {
                return (name.to_string(), unit.trim().to_string());
            }
        }
    }
    (field.to_string(), String::new())
}

/// Reads delimited text into a recording.
///
/// # Errors
/// [`FormatError::NoSamplingRate`] when there is no time column and `options` gives no rate,
/// [`FormatError::Invalid`] when there are no numeric rows or the time column does not increase.
pub fn read(bytes: &[u8], options: &ReadOptions) -> Result<Recording, FormatError> {
    let text = decode(bytes);
    let lines: Vec<&str> = content_lines(&text).collect();
    let sample: Vec<&str> = lines.iter().take(100).copied().collect();
    let delimiter = detect_delimiter(&sample);
    let data_start = lines
        .iter()
        .position(|l| is_data_line(&delimiter.split(l)))
        .ok_or_else(|| FormatError::invalid(F, "no rows of numbers"))?;
    let n_cols = delimiter.split(lines[data_start]).len();
    if n_cols > MAX_CHANNELS {
        return Err(FormatError::TooLarge(format!("{n_cols} columns")));
    }
    // Lines before the data: a preamble (which may state the rate), the column names and, as in
    // PhysioNet's exports, a units line. Names and units have as many fields as the data.
    let before = &lines[..data_start];
    let rate_in_preamble = before.iter().find_map(|l| preamble_rate(l));
    let header_lines: Vec<Vec<Cow<str>>> = if n_cols == 1 {
        before
            .last()
            .map(|l| delimiter.split(l))
            .filter(|f| is_text_line(f) && preamble_rate(&f.join(" ")).is_none())
            .into_iter()
            .collect()
    } else {
        // The one or two lines right before the data: names, or names then units.
        let mut lines: Vec<Vec<Cow<str>>> = before
            .iter()
            .rev()
            .map(|l| delimiter.split(l))
            .take_while(|f| f.len() == n_cols && is_text_line(f))
            .take(2)
            .collect();
        lines.reverse();
        if lines.len() == 2 && !lines[1].iter().all(|f| looks_like_unit(f)) {
            lines.remove(0);
        }
        lines
    };
    let mut columns: Vec<Vec<f64>> = vec![Vec::new(); n_cols];
    let mut clock_columns = vec![false; n_cols];
    let mut skipped = 0usize;
    for line in &lines[data_start..] {
        let fields = delimiter.split(line);
        if !is_data_line(&fields) {
            skipped += 1;
            continue;
        }
        if columns[0].len().saturating_mul(n_cols) >= MAX_VALUES {
            return Err(FormatError::TooLarge(format!(
                "a table of more than {MAX_VALUES} values"
            )));
        }
        for (j, column) in columns.iter_mut().enumerate() {
            let field = fields.get(j).map_or("", AsRef::as_ref);
            let value = number(field).or_else(|| {
                let c = clock(field);
                if c.is_some() {
                    clock_columns[j] = true;
                }
                c
            });
            column.push(value.unwrap_or(f64::NAN));
        }
    }
    let names: Vec<&str> = header_lines
        .first()
        .map(|l| l.iter().map(AsRef::as_ref).collect())
        .unwrap_or_default();
    let units: Option<Vec<&str>> = header_lines
        .get(1)
        .map(|l| l.iter().map(AsRef::as_ref).collect());
    let units_line = units.as_ref();
    // The time column: by name, by clock values, or by a `hh:mm:ss` / `(sec)` units line.
    let time_col = (0..n_cols).find_map(|j| {
        let unit = units_line
            .and_then(|u| u.get(j))
            .copied()
            .unwrap_or_default()
            .to_ascii_lowercase();
        if clock_columns[j] {
            return Some((j, 1.0));
        }
        let by_name = names.get(j).and_then(|n| time_column_scale(n));
        match (by_name, unit.trim_matches(['(', ')', '[', ']'])) {
            (Some(_), "ms" | "msec") => Some((j, 1e-3)),
            (Some(scale), _) => Some((j, scale)),
            (None, _) => None,
        }
    });
    let mut metadata = BTreeMap::new();
    metadata.insert("format".into(), "CSV".into());
    metadata.insert(
        "delimiter".into(),
        match delimiter {
            Delimiter::Char('\t') => "tab".into(),
            Delimiter::Char(c) => c.to_string(),
            Delimiter::Whitespace => "whitespace".into(),
            Delimiter::None => "none".into(),
        },
    );
    if skipped > 0 {
        metadata.insert("skipped_lines".into(), skipped.to_string());
    }
    let sampling_rate_hz = match (time_col, rate_in_preamble.or(options.sampling_rate_hz)) {
        (Some((j, scale)), _) => {
            let t = &columns[j];
            let n = t.len();
            if n < 2 {
                return Err(FormatError::invalid(
                    F,
                    "the time column needs at least two rows to give a sampling rate",
                ));
            }
            // Time stamps printed with few decimals repeat (BIDMC writes 100.016 as 100.02), so
            // equal neighbours are fine; the rate comes from the whole span.
            let span = (t[n - 1] - t[0]) * scale;
            if t.iter().any(|v| !v.is_finite()) || t.windows(2).any(|w| w[1] < w[0]) || span <= 0.0
            {
                return Err(FormatError::invalid(
                    F,
                    "the time column does not increase steadily",
                ));
            }
            let rate = (n - 1) as f64 / span;
            metadata.insert(
                "time_column".into(),
                names
                    .get(j)
                    .map_or_else(|| j.to_string(), ToString::to_string),
            );
            snap(rate)
        }
        (None, Some(rate)) if rate.is_finite() && rate > 0.0 => rate,
        (None, Some(rate)) => {
            return Err(FormatError::NoSamplingRate(format!(
                "invalid sampling rate {rate}"
            )));
        }
        (None, None) => {
            return Err(FormatError::NoSamplingRate(
                "CSV has no time column and no sampling rate was given".into(),
            ));
        }
    };
    let channels = columns
        .into_iter()
        .enumerate()
        .filter(|(j, c)| Some(*j) != time_col.map(|t| t.0) && c.iter().any(|v| !v.is_nan()))
        .map(|(j, samples)| {
            let (name, mut unit) = match names.get(j) {
                Some(n) if !n.is_empty() => name_and_unit(n),
                _ if n_cols == 1 => ("signal".to_string(), String::new()),
                _ => (format!("column {}", j + 1), String::new()),
            };
            if let Some(u) = units_line.and_then(|u| u.get(j)) {
                let u = u.trim_matches(['(', ')', '[', ']']).trim();
                if unit.is_empty() && !u.is_empty() {
                    unit = u.to_string();
                }
            }
            Channel {
                name,
                unit,
                samples,
            }
        })
        .collect::<Vec<_>>();
    if channels.is_empty() {
        return Err(FormatError::invalid(
            F,
            "no signal column besides the time column",
        ));
    }
    Ok(Recording {
        channels,
        sampling_rate_hz,
        start: None,
        metadata,
    })
}

/// Rounds a rate computed from time stamps to the nearest integer when it is within 1e-6 of one.
fn snap(rate: f64) -> f64 {
    let r = rate.round();
    if (rate - r).abs() <= 1e-6 * rate.abs().max(1.0) {
        r
    } else {
        rate
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_str(text: &str) -> Result<Recording, FormatError> {
        read(text.as_bytes(), &ReadOptions::default())
    }

    #[test]
    fn a_bidmc_style_file_gives_trimmed_names_and_the_rate_from_time() {
        let rec = read_str("Time [s], RESP, PLETH, II\n0,0.35,0.43,0.72\n0.008,0.36,0.44,0.67\n0.016,0.37,0.45,0.6\n")
            .unwrap();
        assert_eq!(rec.sampling_rate_hz, 125.0);
        let names: Vec<&str> = rec.channels.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["RESP", "PLETH", "II"]);
        assert_eq!(
            rec.channel("pleth").unwrap().samples,
            vec![0.43, 0.44, 0.45]
        );
    }

    #[test]
    fn semicolons_with_decimal_commas_and_a_millisecond_time_column() {
        let rec = read_str("time_ms;ECG (mV)\n0;1,5\n4;-2,25\n8;0\n").unwrap();
        assert_eq!(rec.sampling_rate_hz, 250.0);
        assert_eq!(rec.channels[0].name, "ECG");
        assert_eq!(rec.channels[0].unit, "mV");
        assert_eq!(rec.channels[0].samples, vec![1.5, -2.25, 0.0]);
    }

    #[test]
    fn tabs_and_whitespace_are_delimiters() {
        let tabbed = read_str("t\ta\tb\n0\t1\t2\n0.5\t3\t4\n").unwrap();
        assert_eq!(tabbed.sampling_rate_hz, 2.0);
        assert_eq!(tabbed.channels[1].samples, vec![2.0, 4.0]);
        let spaced = read(
            b"  1.0   2.0\n  3.0   4.0\n",
            &ReadOptions {
                sampling_rate_hz: Some(10.0),
            },
        )
        .unwrap();
        assert_eq!(spaced.channels.len(), 2);
        assert_eq!(spaced.channels[0].name, "column 1");
    }

    #[test]
    fn physionet_exports_with_quoted_names_units_and_clock_times() {
        let text =
            "'Elapsed time','MLII','V5'\n'hh:mm:ss.mmm','mV','mV'\n'0:00.000',-0.145,-0.065\n\
                    '0:00.003',-0.145,-0.065\n'0:00.006',-0.145,-0.065\n";
        let rec = read_str(text).unwrap();
        assert!(
            (rec.sampling_rate_hz - 333.333).abs() < 0.01,
            "{}",
            rec.sampling_rate_hz
        );
        assert_eq!(rec.channels[0].name, "MLII");
        assert_eq!(rec.channels[0].unit, "mV");
    }

    #[test]
    fn quoted_fields_may_hold_the_delimiter_and_doubled_quotes() {
        let text = "\"Time [s]\",\"ECG, lead II (mV)\",\"PPG \"\"finger\"\"\"\n\
                    0.000,\"0,5\",1\n0.004,0.6,2\n0.008,0.7,3\n";
        let rec = read_str(text).unwrap();
        assert_eq!(rec.sampling_rate_hz, 250.0);
        assert_eq!(rec.channels.len(), 2);
        assert_eq!(rec.channels[0].name, "ECG, lead II");
        assert_eq!(rec.channels[0].unit, "mV");
        assert_eq!(rec.channels[1].name, "PPG \"finger\"");
        // A quoted decimal comma stays one field.
        assert_eq!(rec.channels[0].samples, [0.5, 0.6, 0.7]);
        // A stray quote is not CSV: the line is split as it stands.
        let rec = read_str("t,x\n0,1\n1,\"2\n2,3\n").unwrap();
        assert_eq!(rec.channels[0].samples.len(), 3);
    }

    #[test]
    fn a_preamble_may_state_the_rate_and_text_columns_are_dropped() {
        let text = "Device: Wearable X\nSampling rate: 250 Hz\n\nsample,ECG,label\n0,0.1,N\n1,0.2,N\n2,0.3,V\n";
        let rec = read_str(text).unwrap();
        assert_eq!(rec.sampling_rate_hz, 250.0);
        let names: Vec<&str> = rec.channels.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["sample", "ECG"]);
        assert_eq!(rec.channel("ECG").unwrap().samples, vec![0.1, 0.2, 0.3]);
        let long = format!(
            "{}time,ecg\n0,1\n0.5,2\n",
            "Exported by: some software, v1\nPatient: X\n".repeat(5)
        );
        assert_eq!(read_str(&long).unwrap().sampling_rate_hz, 2.0);
        let single = read_str("fs=500\n1\n2\n").unwrap();
        assert_eq!(
            (single.sampling_rate_hz, single.channels[0].name.as_str()),
            (500.0, "signal")
        );
    }

    #[test]
    fn a_single_column_needs_a_given_rate() {
        let err = read_str("0.1\n0.2\n0.3\n").unwrap_err();
        assert!(matches!(err, FormatError::NoSamplingRate(_)));
        assert_eq!(
            err.to_string(),
            "CSV has no time column and no sampling rate was given"
        );
        let rec = read(
            b"ppg\n0.1\n0.2\n",
            &ReadOptions {
                sampling_rate_hz: Some(30.0),
            },
        )
        .unwrap();
        assert_eq!(rec.channels[0].name, "ppg");
        assert_eq!(rec.channels[0].samples, vec![0.1, 0.2]);
    }

    #[test]
    fn a_time_column_that_goes_backwards_is_an_error() {
        let err = read_str("time,x\n0,1\n1,2\n0.5,3\n").unwrap_err();
        assert!(err.to_string().contains("time column"), "{err}");
    }

    #[test]
    fn missing_values_are_nan_and_text_only_files_are_invalid() {
        let rec = read_str("t,a\n0,1\n1,\n2,NaN\n").unwrap();
        assert_eq!(rec.channels[0].samples[0], 1.0);
        assert!(rec.channels[0].samples[1].is_nan() && rec.channels[0].samples[2].is_nan());
        assert!(read_str("name,value\nfoo,bar\n").is_err());
    }

    #[test]
    fn utf16_text_with_a_bom_is_read() {
        let text = "t;ECG\r\n0;1,5\r\n0,5;2\r\n";
        let mut bytes = vec![0xff, 0xfe];
        bytes.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
        assert_eq!(crate::detect(&bytes, None), Some(Format::Csv));
        let rec = read(&bytes, &ReadOptions::default()).unwrap();
        assert_eq!(rec.sampling_rate_hz, 2.0);
        assert_eq!(rec.channels[0].samples, vec![1.5, 2.0]);
    }

    #[test]
    fn recognises_tables_and_rejects_prose() {
        assert!(looks_like_table("Time [s], PLETH\n0,1\n0.008,2\n"));
        assert!(looks_like_table("1\n2\n3\n"));
        assert!(!looks_like_table(
            "Dear doctor,\nplease find attached the ECG.\nRegards\n"
        ));
    }
}
