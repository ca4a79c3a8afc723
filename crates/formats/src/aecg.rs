//! HL7 annotated ECG (aECG) XML, HL7 Version 3 Standard: Regulated Studies - Annotated ECG,
//! Release 1 (ANSI/HL7 V3 ECG, R1-2004), the format the FDA ECG warehouse receives.
//!
//! An `AnnotatedECG` holds `series`; each series holds a `sequenceSet` of `sequence`s. One sequence
//! carries the time axis (`TIME_ABSOLUTE` as `GLIST_TS` with a `head` time stamp, or `TIME_RELATIVE` as
//! `GLIST_PQ`; its `increment` gives the sample interval), the others one lead each (code
//! `MDC_ECG_LEAD_*`, value `SLIST_PQ` or `SLIST_INT`: physical value = `origin + scale * digit`). This
//! reader takes the first rhythm series and skips derived series (representative beats under
//! `derivation`). Leads in microvolts are converted to millivolts.

use std::collections::BTreeMap;

use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;

use crate::{Channel, Format, FormatError, Recording, MAX_CHANNELS, MAX_VALUES};

const F: Format = Format::Hl7Aecg;

/// Deepest element nesting accepted (real aECG documents nest about 15 deep).
const MAX_DEPTH: usize = 256;

#[derive(Default)]
struct Sequence {
    code: String,
    value_type: String,
    head: Option<String>,
    increment: Option<(f64, String)>,
    origin: f64,
    scale: Option<(f64, String)>,
    digits: String,
}

fn attribute(e: &BytesStart, name: &str) -> Option<String> {
    e.attributes().flatten().find_map(|a| {
        (a.key.local_name().as_ref() == name.as_bytes())
            .then(|| a.unescape_value().ok().map(|v| v.trim().to_string()))
            .flatten()
    })
}

fn number_attribute(e: &BytesStart, name: &str) -> Option<f64> {
    attribute(e, name)?
        .parse()
        .ok()
        .filter(|v: &f64| v.is_finite())
}

/// `MDC_ECG_LEAD_AVR` → `aVR`, `MDC_ECG_LEAD_II` → `II`.
fn lead_name(code: &str) -> String {
    let short = code.strip_prefix("MDC_ECG_LEAD_").unwrap_or(code);
    match short {
        "AVR" => "aVR".into(),
        "AVL" => "aVL".into(),
        "AVF" => "aVF".into(),
        other => other.to_string(),
    }
}

/// HL7 TS `20021122091000.000[+0100]` → `2002-11-22T09:10:00.000`.
fn iso_time(ts: &str) -> Option<String> {
    let digits: String = ts.chars().take_while(char::is_ascii_digit).collect();
    if digits.len() < 14 {
        return None;
    }
    let mut out = format!(
        "{}-{}-{}T{}:{}:{}",
        &digits[0..4],
        &digits[4..6],
        &digits[6..8],
        &digits[8..10],
        &digits[10..12],
        &digits[12..14]
    );
    if let Some(fraction) = ts[digits.len()..].strip_prefix('.') {
        let fraction: String = fraction.chars().take_while(char::is_ascii_digit).collect();
        if !fraction.is_empty() {
            out.push('.');
            out.push_str(&fraction);
        }
    }
    Some(out)
}

/// Reads an HL7 aECG XML document.
///
/// # Errors
/// [`FormatError::Invalid`] for malformed XML, a document without a rhythm series, a time sequence
/// without an increment, or a lead whose digits are not numbers.
pub fn read(bytes: &[u8]) -> Result<Recording, FormatError> {
    let mut reader = Reader::from_reader(bytes);
    reader.config_mut().trim_text(true);
    let mut stack: Vec<Vec<u8>> = Vec::new();
    let mut sequences: Vec<Sequence> = Vec::new();
    let mut current: Option<Sequence> = None;
    let mut in_series = false;
    let mut document_time: Option<String> = None;
    let mut derivation_depth = 0usize;
    loop {
        let event = reader.read_event().map_err(|e| {
            FormatError::invalid(
                F,
                format!("XML error at byte {}: {e}", reader.buffer_position()),
            )
        })?;
        match event {
            Event::Start(ref e) | Event::Empty(ref e) => {
                let name = e.local_name().as_ref().to_vec();
                let in_derivation = derivation_depth > 0;
                let parent = stack.last().map(Vec::as_slice);
                match name.as_slice() {
                    b"series" if !in_derivation => in_series = true,
                    b"low" if document_time.is_none() => document_time = attribute(e, "value"),
                    b"sequence" if in_series && !in_derivation => {
                        current = Some(Sequence::default());
                    }
                    _ => {}
                }
                if let Some(seq) = current.as_mut() {
                    match (name.as_slice(), parent) {
                        (b"code", Some(b"sequence")) => {
                            seq.code = attribute(e, "code").unwrap_or_default();
                        }
                        (b"value", Some(b"sequence")) => {
                            seq.value_type = attribute(e, "type").unwrap_or_default();
                        }
                        (b"head", Some(b"value")) => seq.head = attribute(e, "value"),
                        (b"increment", Some(b"value")) => {
                            seq.increment = number_attribute(e, "value")
                                .map(|v| (v, attribute(e, "unit").unwrap_or_default()));
                        }
                        (b"origin", Some(b"value")) => {
                            seq.origin = number_attribute(e, "value").unwrap_or(0.0);
                        }
                        (b"scale", Some(b"value")) => {
                            seq.scale = number_attribute(e, "value")
                                .map(|v| (v, attribute(e, "unit").unwrap_or_default()));
                        }
                        _ => {}
                    }
                }
                if matches!(event, Event::Start(_)) {
                    if name == b"derivation" {
                        derivation_depth += 1;
                    }
                    if stack.len() >= MAX_DEPTH {
                        return Err(FormatError::invalid(
                            F,
                            format!("elements nested deeper than {MAX_DEPTH}"),
                        ));
                    }
                    stack.push(name);
                }
            }
            Event::Text(ref t) => {
                if let (Some(seq), Some(b"digits")) =
                    (current.as_mut(), stack.last().map(Vec::as_slice))
                {
                    let text = t
                        .decode()
                        .map_err(|e| FormatError::invalid(F, format!("digits: {e}")))?;
                    seq.digits.push(' ');
                    seq.digits.push_str(&text);
                }
            }
            Event::End(_) => {
                let name = stack.pop().unwrap_or_default();
                match name.as_slice() {
                    b"sequence" => {
                        if let Some(seq) = current.take() {
                            if sequences.len() >= MAX_CHANNELS {
                                return Err(FormatError::TooLarge(format!(
                                    "more than {MAX_CHANNELS} sequences"
                                )));
                            }
                            sequences.push(seq);
                        }
                    }
                    // The first rhythm series is read; the rest of the document is not needed.
                    b"series" if in_series && derivation_depth == 0 => break,
                    b"derivation" => derivation_depth = derivation_depth.saturating_sub(1),
                    _ => {}
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    let time = sequences
        .iter()
        .find(|s| s.code.starts_with("TIME_"))
        .ok_or_else(|| {
            FormatError::invalid(
                F,
                "no rhythm series with a TIME_ABSOLUTE or TIME_RELATIVE sequence",
            )
        })?;
    let (step, unit) = time
        .increment
        .clone()
        .ok_or_else(|| FormatError::invalid(F, "the time sequence has no increment"))?;
    let seconds = match unit.as_str() {
        "ms" => step / 1000.0,
        "us" => step / 1e6,
        _ => step,
    };
    if seconds <= 0.0 {
        return Err(FormatError::invalid(
            F,
            format!("time increment {step} {unit}"),
        ));
    }
    let mut total = 0usize;
    let mut channels = Vec::new();
    for seq in sequences.iter().filter(|s| !s.code.starts_with("TIME_")) {
        let (scale, unit) = seq.scale.clone().unwrap_or((1.0, String::new()));
        let (factor, unit) = match unit.as_str() {
            "uV" => (1e-3, "mV".to_string()),
            "V" => (1e3, "mV".to_string()),
            _ => (1.0, unit),
        };
        let mut samples = Vec::new();
        for token in seq.digits.split_whitespace() {
            let d: f64 = token.parse().map_err(|_| {
                FormatError::invalid(F, format!("lead {}: digit {token:?}", seq.code))
            })?;
            samples.push((seq.origin + scale * d) * factor);
        }
        total += samples.len();
        if total > MAX_VALUES {
            return Err(FormatError::TooLarge(format!(
                "more than {MAX_VALUES} samples"
            )));
        }
        channels.push(Channel {
            name: lead_name(&seq.code),
            unit,
            samples,
        });
    }
    if channels.is_empty() {
        return Err(FormatError::invalid(
            F,
            "the rhythm series has no lead sequences",
        ));
    }
    let mut metadata = BTreeMap::new();
    metadata.insert("format".into(), "HL7 aECG".into());
    let start = time
        .head
        .as_deref()
        .and_then(iso_time)
        .or_else(|| document_time.as_deref().and_then(iso_time));
    Ok(Recording {
        channels,
        sampling_rate_hz: 1.0 / seconds,
        start,
        metadata,
        device_interpretation: None,
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) const SAMPLE: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<AnnotatedECG xmlns="urn:hl7-org:v3" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <id root="61d1a24f-b47e-41aa-ae95-f8ac302f4eeb"/>
  <effectiveTime><low value="20021122091000"/><high value="20021122091010"/></effectiveTime>
  <component>
    <series>
      <code code="RHYTHM" codeSystem="2.16.840.1.113883.5.4"/>
      <component>
        <sequenceSet>
          <component><sequence>
            <code code="TIME_ABSOLUTE" codeSystem="2.16.840.1.113883.5.4"/>
            <value xsi:type="GLIST_TS"><head value="20021122091000.000"/><increment value="2" unit="ms"/></value>
          </sequence></component>
          <component><sequence>
            <code code="MDC_ECG_LEAD_I" codeSystem="2.16.840.1.113883.6.24"/>
            <value xsi:type="SLIST_PQ"><origin value="0" unit="uV"/><scale value="5" unit="uV"/>
              <digits>0 200 -100
                 40</digits></value>
          </sequence></component>
          <component><sequence>
            <code code="MDC_ECG_LEAD_AVR" codeSystem="2.16.840.1.113883.6.24"/>
            <value xsi:type="SLIST_PQ"><origin value="100" unit="uV"/><scale value="2.5" unit="uV"/>
              <digits>0 40 -40 0</digits></value>
          </sequence></component>
        </sequenceSet>
      </component>
      <derivation><derivedSeries><component><sequenceSet><component><sequence>
        <code code="MDC_ECG_LEAD_II"/><value xsi:type="SLIST_PQ"><digits>9 9 9</digits></value>
      </sequence></component></sequenceSet></component></derivedSeries></derivation>
    </series>
  </component>
</AnnotatedECG>"#;

    #[test]
    fn reads_the_rhythm_leads_in_millivolts_at_the_increments_rate() {
        assert_eq!(
            crate::detect(SAMPLE.as_bytes(), None),
            Some(Format::Hl7Aecg)
        );
        let rec = read(SAMPLE.as_bytes()).unwrap();
        assert_eq!(rec.sampling_rate_hz, 500.0);
        let names: Vec<&str> = rec.channels.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(
            names,
            ["I", "aVR"],
            "the derived representative beat is skipped"
        );
        assert_eq!(rec.channels[0].unit, "mV");
        assert_eq!(rec.channels[0].samples, vec![0.0, 1.0, -0.5, 0.2]);
        assert_eq!(rec.channels[1].samples, vec![0.1, 0.2, 0.0, 0.1]);
        assert_eq!(rec.start.as_deref(), Some("2002-11-22T09:10:00.000"));
    }

    #[test]
    fn malformed_or_incomplete_documents_are_errors() {
        assert!(read(b"<AnnotatedECG><series></AnnotatedECG>").is_err());
        let no_increment = SAMPLE.replace(r#"<increment value="2" unit="ms"/>"#, "");
        assert!(read(no_increment.as_bytes())
            .unwrap_err()
            .to_string()
            .contains("increment"));
        let bad_digit = SAMPLE.replace("0 200 -100", "0 2x0 -100");
        assert!(read(bad_digit.as_bytes()).is_err());
        assert!(read(b"<AnnotatedECG/>").is_err());
        let deep = "<a>".repeat(10_000);
        assert!(read(deep.as_bytes())
            .unwrap_err()
            .to_string()
            .contains("nested"));
    }
}
