//! What the reader detects before it reads: the delimiter (quoting respected), header and unit
//! lines, a decimal comma, the time column and its scale, the sampling rate a preamble states.

use std::borrow::Cow;
use std::collections::BTreeMap;

#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Delimiter {
    Char(char),
    Whitespace,
    /// One column: every line is one field.
    None,
}

impl Delimiter {
    /// The fields of one line, trimmed and unquoted. A line with a double quote is parsed by the
    /// `csv` crate (RFC 4180 quoting: a quoted field may hold the delimiter and `""`), any other
    /// is split in place.
    pub(super) fn split(self, line: &str) -> Vec<Cow<'_, str>> {
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
pub(super) fn quoted_fields(line: &str, delimiter: char) -> Vec<Cow<'_, str>> {
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
pub(super) fn clean(field: &str) -> &str {
    let f = field.trim();
    for q in ['"', '\''] {
        if let Some(inner) = f.strip_prefix(q).and_then(|s| s.strip_suffix(q)) {
            return inner.trim();
        }
    }
    f
}

/// A number with a decimal point or a decimal comma; empty and `NaN` fields are missing values.
pub(super) fn number(field: &str) -> Option<f64> {
    if let Ok(v) = field.parse::<f64>() {
        return Some(v);
    }
    if field.contains(',') && !field.contains('.') {
        return field.replacen(',', ".", 1).parse().ok();
    }
    None
}

/// A clock value `h:mm:ss.fff` or `m:ss.fff`, in seconds.
pub(super) fn clock(field: &str) -> Option<f64> {
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

pub(super) fn is_missing(field: &str) -> bool {
    field.is_empty()
        || field.eq_ignore_ascii_case("nan")
        || field == "-"
        || field.eq_ignore_ascii_case("na")
}

/// Whether a line is data: at least one number (or clock value), and no more text fields than
/// numbers (a text column such as a beat label is allowed; it becomes NaN and is dropped).
pub(super) fn is_data_line(fields: &[Cow<str>]) -> bool {
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
pub(super) fn is_text_line(fields: &[Cow<str>]) -> bool {
    !fields
        .iter()
        .any(|f| number(f).is_some() || clock(f).is_some())
}

/// Whether a header field is a unit (`mV`, `(mV)`, `hh:mm:ss.mmm`, ...), as in a units line.
pub(super) fn looks_like_unit(field: &str) -> bool {
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
pub(super) fn preamble_rate(line: &str) -> Option<f64> {
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

pub(super) fn content_lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .map(|l| l.trim_end_matches('\r'))
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
}

/// The delimiter that splits the most lines into one common number (at least 2) of fields; a
/// preamble or header with another shape does not matter. Ties go to the earlier candidate, so
/// `1,5;2,5` (decimal commas) splits on semicolons.
pub(super) fn detect_delimiter(lines: &[&str]) -> Delimiter {
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
pub(super) fn time_column_scale(name: &str) -> Option<f64> {
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
pub(super) fn name_and_unit(field: &str) -> (String, String) {
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
