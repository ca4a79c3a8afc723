//! Delimited text: CSV, semicolon- or tab-separated values, whitespace-aligned columns.
//!
//! There is no single specification (RFC 4180 describes only the comma case), so the reader detects:
//! the delimiter (tab, semicolon, comma, pipe or runs of whitespace: the first that splits the data
//! lines into the same number of fields), header lines (leading lines that are not numbers: the first
//! gives the column names, trimmed and unquoted, e.g. BIDMC's ` PLETH`; a second one gives units, as in
//! PhysioNet's `'(mV)'` exports), a decimal comma where the delimiter is not a comma, and a time column
//! (`Time [s]`, `time`, `t`, `Elapsed time`, `time_ms`, `hh:mm:ss.mmm` values, ...) whose step gives the
//! sampling rate. Without a time column the caller must give the rate.
//!
//! The Apple Health ECG export (`Name,`, ..., `Sample Rate,512 hertz`, `Lead,Lead I`, `Unit,µV`, then
//! one value a line, with a decimal point or a decimal comma) is recognised by its header and read
//! by its own rules (`csv/apple.rs`).

use std::borrow::Cow;
use std::collections::BTreeMap;

use crate::{Channel, Format, FormatError, ReadOptions, Recording, MAX_CHANNELS, MAX_VALUES};

const F: Format = Format::Csv;

pub(crate) mod apple;
mod sniff;

use sniff::{
    clock, content_lines, detect_delimiter, is_data_line, is_text_line, looks_like_unit,
    name_and_unit, number, preamble_rate, time_column_scale, Delimiter,
};
pub(crate) use sniff::{decode, looks_like_table};

/// Reads delimited text into a recording.
///
/// # Errors
/// [`FormatError::NoSamplingRate`] when there is no time column and `options` gives no rate,
/// [`FormatError::Invalid`] when there are no numeric rows or the time column does not increase.
pub fn read(bytes: &[u8], options: &ReadOptions) -> Result<Recording, FormatError> {
    let text = decode(bytes);
    if let Some((fields, offset)) = apple::header(&text) {
        return apple::read(&text, &fields, offset);
    }
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
        device_interpretation: None,
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
