//! The Apple Health ECG export (`electrocardiograms/ecg_<date>.csv` in the Health app's export),
//! one single-lead Apple Watch recording a file.
//!
//! Apple publishes no specification; the layout is the one several public Apple Health parsers
//! document and the exports show: a header of `Label,value` lines (`Name`, `Date of Birth`,
//! `Recorded Date` as `YYYY-MM-DD hh:mm:ss ±hhmm`, `Classification`, `Symptoms`,
//! `Software Version`, `Device`, `Sample Rate` as `512 hertz`, `Lead` as `Lead I`, `Unit` as `µV`),
//! blank lines, then one value a line. A device set to Portuguese, German, French... writes the
//! values with a decimal comma (`-145,098`), which no delimiter detection can tell from two
//! columns: this reader takes each value line whole, so both styles give the same samples.
//!
//! The values are kept as the file gives them, in its unit; the lead is named by its standard name
//! (`I`, with `Lead I` kept as the metadata `lead`); the classification ("Sinus Rhythm", "Atrial
//! Fibrillation", "Inconclusive"...) is the watch's own reading, a device-interpretation statement.
//! The name and date of birth are not kept.

use std::collections::BTreeMap;

use crate::{Channel, DeviceInterpretation, Format, FormatError, Recording, MAX_VALUES};

const F: Format = Format::Csv;

/// How many lines the header may take (ten labels and a few blank lines).
const HEADER_LINES: usize = 40;

/// The header fields, when `text` is an Apple Health ECG export: a first line `Name,...`, then a
/// `Sample Rate` and a `Lead` line before the values.
pub(super) fn header(text: &str) -> Option<(BTreeMap<&str, String>, usize)> {
    let text = text.trim_start_matches('\u{feff}');
    if !text.starts_with("Name,") {
        return None;
    }
    let mut fields = BTreeMap::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n').take(HEADER_LINES) {
        let trimmed = line.trim_end_matches(['\n', '\r']);
        let Some((label, value)) = trimmed.split_once(',') else {
            if trimmed.trim().is_empty() {
                offset += line.len();
                continue;
            }
            break;
        };
        if !label.chars().all(|c| c.is_ascii_alphabetic() || c == ' ') || label.is_empty() {
            break;
        }
        fields.insert(label, unquote(value));
        offset += line.len();
    }
    (fields.contains_key("Sample Rate") && fields.contains_key("Lead")).then_some((fields, offset))
}

fn unquote(value: &str) -> String {
    let v = value.trim();
    v.strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .unwrap_or(v)
        .replace("\"\"", "\"")
}

/// A value with a decimal point or a decimal comma (`-145.098`, `-145,098`, `"-145,098"`).
fn value(line: &str) -> Option<f64> {
    let v = unquote(line);
    if v.contains(',') && v.contains('.') {
        return None;
    }
    v.replacen(',', ".", 1)
        .parse::<f64>()
        .ok()
        .filter(|v| v.is_finite())
}

/// `2026-03-14 09:15:00 -0400` → `2026-03-14T09:15:00-04:00`.
fn iso(recorded: &str) -> Option<String> {
    let mut parts = recorded.split_whitespace();
    let (date, time) = (parts.next()?, parts.next()?);
    let shape = |s: &str, sep: u8, at: [usize; 2]| {
        s.len() == at[1] + 3
            && s.bytes().enumerate().all(|(k, b)| {
                if at.contains(&k) {
                    b == sep
                } else {
                    b.is_ascii_digit()
                }
            })
    };
    if !(date.len() == 10 && shape(&date[2..], b'-', [2, 5]) && shape(time, b':', [2, 5])) {
        return None;
    }
    let mut out = format!("{date}T{time}");
    if let Some(zone) = parts.next() {
        let bytes = zone.as_bytes();
        if bytes.len() == 5
            && matches!(bytes[0], b'+' | b'-')
            && bytes[1..].iter().all(u8::is_ascii_digit)
        {
            out = format!("{out}{}:{}", &zone[..3], &zone[3..]);
        }
    }
    Some(out)
}

/// `512 hertz`, `512 Hz`, `512` → 512.
fn rate(text: &str) -> Option<f64> {
    let number = text
        .split_whitespace()
        .next()?
        .replacen(',', ".", 1)
        .parse::<f64>()
        .ok()?;
    (number.is_finite() && number > 0.0).then_some(number)
}

/// Reads an Apple Health ECG export whose header [`header`] found.
pub(super) fn read(
    text: &str,
    fields: &BTreeMap<&str, String>,
    offset: usize,
) -> Result<Recording, FormatError> {
    let text = text.trim_start_matches('\u{feff}');
    let stated = fields.get("Sample Rate").map_or("", String::as_str);
    let sampling_rate_hz = rate(stated).ok_or_else(|| {
        FormatError::invalid(
            F,
            format!("Apple Health ECG export: sample rate {stated:?} is not a number of hertz"),
        )
    })?;
    let body = text.get(offset..).unwrap_or("");
    let mut samples = Vec::new();
    for (k, line) in body.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let v = value(line).ok_or_else(|| {
            FormatError::invalid(
                F,
                format!(
                    "Apple Health ECG export: value {line:?} on line {} is not a number",
                    text.get(..offset).unwrap_or("").lines().count() + k + 1
                ),
            )
        })?;
        if samples.len() >= MAX_VALUES {
            return Err(FormatError::TooLarge(format!(
                "more than {MAX_VALUES} samples"
            )));
        }
        samples.push(v);
    }
    if samples.is_empty() {
        return Err(FormatError::invalid(
            F,
            "Apple Health ECG export holds no samples",
        ));
    }
    let lead = fields.get("Lead").cloned().unwrap_or_default();
    let name = lead
        .strip_prefix("Lead ")
        .unwrap_or(&lead)
        .trim()
        .to_string();
    let mut metadata = BTreeMap::new();
    metadata.insert("format".into(), "Apple Health ECG CSV".into());
    metadata.insert("lead".into(), lead.clone());
    for (label, key) in [
        ("Classification", "classification"),
        ("Symptoms", "symptoms"),
        ("Software Version", "software_version"),
        ("Device", "device"),
        ("Sample Rate", "sample_rate"),
    ] {
        if let Some(v) = fields.get(label).filter(|v| !v.is_empty()) {
            metadata.insert(key.into(), v.clone());
        }
    }
    let device_interpretation =
        fields
            .get("Classification")
            .filter(|c| !c.is_empty())
            .map(|classification| {
                let mut source = "Apple Watch".to_string();
                if let Some(device) = fields.get("Device").filter(|d| !d.is_empty()) {
                    source = format!("{source} ({device})");
                }
                if let Some(version) = fields.get("Software Version").filter(|v| !v.is_empty()) {
                    source = format!("{source}, software {version}");
                }
                DeviceInterpretation {
                    source,
                    statements: vec![classification.clone()],
                    measurements: Vec::new(),
                }
            });
    Ok(Recording {
        channels: vec![Channel {
            name: if name.is_empty() { "ECG".into() } else { name },
            unit: fields.get("Unit").cloned().unwrap_or_default(),
            samples,
        }],
        sampling_rate_hz,
        start: fields.get("Recorded Date").and_then(|d| iso(d)),
        metadata,
        device_interpretation,
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use crate::ReadOptions;

    pub(crate) const SAMPLE: &str = "Name,Test Person\nDate of Birth,\"Jan 15, 1990\"\n\
        Recorded Date,2026-03-14 09:15:00 -0400\nClassification,Sinus Rhythm\nSymptoms,\n\
        Software Version,1.90\nDevice,\"Watch6,7\"\nSample Rate,512 hertz\n\n\nLead,Lead I\n\
        Unit,µV\n\n\n-145.098\n-158.419\n12\n";

    #[test]
    fn reads_the_header_and_one_value_a_line_in_both_decimal_styles() {
        let en = crate::csv::read(SAMPLE.as_bytes(), &ReadOptions::default()).unwrap();
        let pt_text = SAMPLE
            .replace("-145.098", "-145,098")
            .replace("-158.419", "\"-158,419\"");
        let pt = crate::csv::read(pt_text.as_bytes(), &ReadOptions::default()).unwrap();
        assert_eq!(en, pt);
        assert_eq!(en.sampling_rate_hz, 512.0);
        assert_eq!(en.channels[0].name, "I");
        assert_eq!(en.channels[0].unit, "µV");
        assert_eq!(en.channels[0].samples, vec![-145.098, -158.419, 12.0]);
        assert_eq!(en.start.as_deref(), Some("2026-03-14T09:15:00-04:00"));
        assert_eq!(en.metadata["lead"], "Lead I");
        assert!(!en.metadata.values().any(|v| v.contains("Test Person")));
        let device = en.device_interpretation.unwrap();
        assert_eq!(device.source, "Apple Watch (Watch6,7), software 1.90");
        assert_eq!(device.statements, ["Sinus Rhythm"]);
    }

    #[test]
    fn a_broken_export_says_what_is_wrong() {
        let bad_rate = SAMPLE.replace("512 hertz", "fast");
        let err = crate::csv::read(bad_rate.as_bytes(), &ReadOptions::default()).unwrap_err();
        assert!(err.to_string().contains("sample rate"), "{err}");
        let bad_value = SAMPLE.replace("-158.419", "-158.4x");
        let err = crate::csv::read(bad_value.as_bytes(), &ReadOptions::default()).unwrap_err();
        assert!(err.to_string().contains("line 16"), "{err}");
        let empty = SAMPLE.replace("-145.098\n-158.419\n12\n", "");
        let err = crate::csv::read(empty.as_bytes(), &ReadOptions::default()).unwrap_err();
        assert!(err.to_string().contains("no samples"), "{err}");
    }
}
