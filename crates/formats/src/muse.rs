//! GE MUSE XML (`<RestingECG>`), the export of GE Healthcare's MUSE cardiology system: a 12-lead
//! resting ECG with the cart's 12SL measurements and statements.
//!
//! GE publishes no specification of this layout (MUSE ships a `restecg.dtd` with the product, not
//! in public); what this reader takes was read from the export files themselves (MUSE 9.0.10):
//!
//! - `<Waveform>` blocks, one `Rhythm` (10 s) and one `Median` (a representative beat), each with
//!   `SampleBase` and `SampleExponent` (rate = base x 10^exponent) and one `<LeadData>` per stored
//!   lead: `LeadID`, `LeadSampleCountTotal`, `LeadSampleSize` (2), `LeadAmplitudeUnitsPerBit`,
//!   `LeadAmplitudeUnits` (`MICROVOLTS`) and `WaveFormData`, base64 of little-endian int16 samples.
//!   The cart stores eight leads (I, II, V1-V6); III, aVR, aVL and aVF are derived as the cart
//!   derives them (Einthoven and Goldberger): III = II - I, aVR = -(I + II)/2, aVL = I - II/2,
//!   aVF = II - I/2. A lead the file stores is never replaced by a derived one.
//! - `<RestingECGMeasurements>` (vent. rate, PR, QRS, QT, QTc, P/R/T axes) and `<Diagnosis>`
//!   (`DiagnosisStatement`s, joined into lines where `StmtFlag` is `ENDSLINE`, as MUSE prints
//!   them) become the recording's [`DeviceInterpretation`]; `<OriginalDiagnosis>` is used when
//!   the document has no `<Diagnosis>`. Statements a person inserted (`USERINSERT`, such as
//!   "Confirmed by ...") are not the device's: they go to the metadata as `overreader_statements`.
//! - `<TestDemographics>`: `AcquisitionDate` (`MM-DD-YYYY`) and `AcquisitionTime` give the start;
//!   the device, the 12SL version and the status go to the metadata. Patient names are not kept.
//!
//! Leads are in millivolts, in the standard order I, II, III, aVR, aVL, aVF, V1-V6, then any other
//! lead the file stores. [`read`] gives the rhythm; [`read_document`] gives the median beats too.

use std::collections::BTreeMap;

use base64::Engine as _;
use quick_xml::events::Event;
use quick_xml::Reader;

use crate::{
    checked_values, Channel, DeviceInterpretation, DeviceMeasurement, Format, FormatError,
    Recording, MAX_CHANNELS, MAX_VALUES,
};

const F: Format = Format::MuseXml;

/// Deepest element nesting accepted (MUSE documents nest 4 deep).
const MAX_DEPTH: usize = 64;

/// Most diagnosis statements kept (a 12SL reading has a handful).
const MAX_STATEMENTS: usize = 256;

/// The standard 12-lead order.
const STANDARD_LEADS: [&str; 12] = [
    "I", "II", "III", "aVR", "aVL", "aVF", "V1", "V2", "V3", "V4", "V5", "V6",
];

/// `<RestingECGMeasurements>` element, its key in [`crate::DEVICE_MEASUREMENT_KEYS`], its unit.
const MEASUREMENTS: [(&str, &str, &str); 9] = [
    ("VentricularRate", "heart_rate_bpm", "bpm"),
    ("AtrialRate", "atrial_rate_bpm", "bpm"),
    ("PRInterval", "pr_ms", "ms"),
    ("QRSDuration", "qrs_ms", "ms"),
    ("QTInterval", "qt_ms", "ms"),
    ("QTCorrected", "qtc_ms", "ms"),
    ("PAxis", "p_axis_deg", "°"),
    ("RAxis", "qrs_axis_deg", "°"),
    ("TAxis", "t_axis_deg", "°"),
];

/// A MUSE document's two waveforms.
#[derive(Debug, Clone, PartialEq)]
pub struct Document {
    /// The rhythm waveform (10 s), with the device interpretation.
    pub rhythm: Recording,
    /// The median beat of every lead, when the document has one (same leads and units, its own
    /// rate; the same metadata and device interpretation).
    pub median: Option<Recording>,
}

#[derive(Default)]
struct Lead {
    id: String,
    count: Option<usize>,
    sample_size: Option<usize>,
    units_per_bit: Option<f64>,
    units: String,
    data: String,
}

#[derive(Default)]
struct Waveform {
    kind: String,
    base: Option<f64>,
    exponent: f64,
    leads: Vec<Lead>,
}

#[derive(Default)]
struct Statement {
    flags: Vec<String>,
    text: String,
}

#[derive(Default)]
struct Parsed {
    muse_version: String,
    demographics: BTreeMap<String, String>,
    measurements: BTreeMap<String, String>,
    diagnosis: Option<Vec<Statement>>,
    original_diagnosis: Option<Vec<Statement>>,
    rhythm: Option<Waveform>,
    median: Option<Waveform>,
}

/// Reads the rhythm waveform of a MUSE XML document (see [`read_document`]).
///
/// # Errors
/// As [`read_document`].
pub fn read(bytes: &[u8]) -> Result<Recording, FormatError> {
    read_document(bytes).map(|d| d.rhythm)
}

/// Reads a MUSE XML document: the rhythm waveform and the median beats, each with the device's
/// measurements and statements.
///
/// # Errors
/// [`FormatError::Invalid`] for malformed XML, a document without a rhythm waveform, a lead
/// whose data is not base64 or holds fewer samples than it claims; [`FormatError::UnsupportedFeature`]
/// for samples of another size than 2 bytes or an amplitude unit other than micro-, milli- or volts;
/// [`FormatError::TooLarge`] past [`MAX_VALUES`] samples or [`MAX_CHANNELS`] leads.
pub fn read_document(bytes: &[u8]) -> Result<Document, FormatError> {
    let parsed = parse(bytes)?;
    let rhythm_waveform = parsed
        .rhythm
        .as_ref()
        .ok_or_else(|| FormatError::invalid(F, "no Rhythm waveform"))?;
    let mut budget = MAX_VALUES;
    let (channels, rate) = channels(rhythm_waveform, &mut budget)?;
    let metadata = metadata(&parsed);
    let interpretation = interpretation(&parsed);
    let start = start_time(&parsed.demographics);
    let median = match &parsed.median {
        Some(w) => {
            let (channels, rate) = channels_or_none(w, &mut budget)?;
            let mut metadata = metadata.clone();
            metadata.insert("waveform".into(), "Median".into());
            channels.map(|channels| Recording {
                channels,
                sampling_rate_hz: rate,
                start: None,
                metadata,
                device_interpretation: interpretation.clone(),
            })
        }
        None => None,
    };
    let mut metadata = metadata;
    metadata.insert("waveform".into(), "Rhythm".into());
    Ok(Document {
        rhythm: Recording {
            channels,
            sampling_rate_hz: rate,
            start,
            metadata,
            device_interpretation: interpretation,
        },
        median,
    })
}

/// Text of a leaf element: UTF-8 when it is, ISO-8859-1 otherwise (MUSE writes ISO-8859-1).
fn push_text(out: &mut String, raw: &[u8]) {
    match std::str::from_utf8(raw) {
        Ok(s) => out.push_str(s),
        Err(_) => out.extend(raw.iter().map(|&b| char::from(b))),
    }
}

/// The character an entity reference stands for (`&amp;`, `&#233;`), when it is predefined.
fn entity(name: &[u8]) -> Option<char> {
    match name {
        b"amp" => Some('&'),
        b"lt" => Some('<'),
        b"gt" => Some('>'),
        b"quot" => Some('"'),
        b"apos" => Some('\''),
        [b'#', b'x' | b'X', hex @ ..] => u32::from_str_radix(std::str::from_utf8(hex).ok()?, 16)
            .ok()
            .and_then(char::from_u32),
        [b'#', dec @ ..] => std::str::from_utf8(dec)
            .ok()?
            .parse()
            .ok()
            .and_then(char::from_u32),
        _ => None,
    }
}

fn xml_error(reader: &Reader<&[u8]>, e: impl std::fmt::Display) -> FormatError {
    FormatError::invalid(
        F,
        format!("XML error at byte {}: {e}", reader.buffer_position()),
    )
}

/// What the walk through the document holds: the finished parts and the open ones.
#[derive(Default)]
struct Walk {
    /// The text of the element being read.
    text: String,
    parsed: Parsed,
    waveform: Option<Waveform>,
    lead: Option<Lead>,
    statements: Option<Vec<Statement>>,
    statement: Option<Statement>,
}

fn parse(bytes: &[u8]) -> Result<Parsed, FormatError> {
    let mut reader = Reader::from_reader(bytes);
    let mut stack: Vec<Vec<u8>> = Vec::new();
    let mut walk = Walk::default();
    let mut root_seen = false;
    loop {
        let event = reader.read_event().map_err(|e| xml_error(&reader, e))?;
        match event {
            Event::Start(ref e) | Event::Empty(ref e) => {
                let name = e.local_name().as_ref().to_vec();
                if stack.is_empty() {
                    if name != b"RestingECG" || root_seen {
                        return Err(FormatError::invalid(
                            F,
                            "the root element is not RestingECG",
                        ));
                    }
                    root_seen = true;
                }
                walk.start(&name, stack.len());
                if matches!(event, Event::Start(_)) {
                    if stack.len() >= MAX_DEPTH {
                        return Err(FormatError::invalid(
                            F,
                            format!("elements nested deeper than {MAX_DEPTH}"),
                        ));
                    }
                    stack.push(name);
                } else {
                    // An empty element ends at once.
                    walk.end(&name, stack.last().map(Vec::as_slice))?;
                }
            }
            Event::Text(ref t) => push_text(&mut walk.text, t),
            Event::CData(ref t) => push_text(&mut walk.text, t),
            Event::GeneralRef(ref r) => {
                if let Some(c) = entity(r) {
                    walk.text.push(c);
                }
            }
            Event::End(_) => {
                let name = stack.pop().unwrap_or_default();
                walk.end(&name, stack.last().map(Vec::as_slice))?;
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if !root_seen {
        return Err(FormatError::invalid(
            F,
            "the root element is not RestingECG",
        ));
    }
    Ok(walk.parsed)
}

impl Walk {
    /// An element opens at `depth` (0 for the root).
    fn start(&mut self, name: &[u8], depth: usize) {
        self.text.clear();
        match name {
            b"Waveform" => self.waveform = Some(Waveform::default()),
            b"LeadData" if self.waveform.is_some() => self.lead = Some(Lead::default()),
            b"Diagnosis" | b"OriginalDiagnosis" if depth == 1 => self.statements = Some(Vec::new()),
            b"DiagnosisStatement" if self.statements.is_some() => {
                self.statement = Some(Statement::default());
            }
            _ => {}
        }
    }

    /// An element closes; its text is in `self.text`.
    fn end(&mut self, name: &[u8], parent: Option<&[u8]>) -> Result<(), FormatError> {
        let text = std::mem::take(&mut self.text);
        let value = || text.trim().to_string();
        let number = || text.trim().parse::<f64>().ok().filter(|v| v.is_finite());
        if let Some(l) = self.lead.as_mut() {
            match name {
                b"LeadID" => l.id = value(),
                b"LeadSampleCountTotal" => l.count = text.trim().parse().ok(),
                b"LeadSampleSize" => l.sample_size = text.trim().parse().ok(),
                b"LeadAmplitudeUnitsPerBit" => l.units_per_bit = number(),
                b"LeadAmplitudeUnits" => l.units = value(),
                b"WaveFormData" => l.data = text,
                b"LeadData" => {
                    let done = self.lead.take().unwrap_or_default();
                    if let Some(w) = self.waveform.as_mut() {
                        if w.leads.len() >= MAX_CHANNELS {
                            return Err(FormatError::TooLarge(format!(
                                "more than {MAX_CHANNELS} leads"
                            )));
                        }
                        w.leads.push(done);
                    }
                }
                _ => {}
            }
            return Ok(());
        }
        if let Some(w) = self.waveform.as_mut() {
            match name {
                b"WaveformType" => w.kind = value(),
                b"SampleBase" => w.base = number(),
                b"SampleExponent" => w.exponent = number().unwrap_or(0.0),
                b"Waveform" => {
                    let done = self.waveform.take().unwrap_or_default();
                    let slot = if done.kind.eq_ignore_ascii_case("rhythm") {
                        &mut self.parsed.rhythm
                    } else if done.kind.eq_ignore_ascii_case("median") {
                        &mut self.parsed.median
                    } else {
                        return Ok(());
                    };
                    // The first waveform of each kind is read.
                    slot.get_or_insert(done);
                }
                _ => {}
            }
            return Ok(());
        }
        if let Some(s) = self.statement.as_mut() {
            match name {
                b"StmtFlag" => s.flags.push(value()),
                b"StmtText" => s.text = value(),
                b"DiagnosisStatement" => {
                    let done = self.statement.take().unwrap_or_default();
                    if let Some(list) = self.statements.as_mut() {
                        if list.len() < MAX_STATEMENTS {
                            list.push(done);
                        }
                    }
                }
                _ => {}
            }
            return Ok(());
        }
        let parsed = &mut self.parsed;
        match (parent, name) {
            (Some(b"MuseInfo"), b"MuseVersion") => parsed.muse_version = value(),
            (Some(b"TestDemographics"), field) => {
                let field = String::from_utf8_lossy(field).into_owned();
                parsed.demographics.insert(field, value());
            }
            (Some(b"RestingECGMeasurements"), field) => {
                let field = String::from_utf8_lossy(field).into_owned();
                parsed.measurements.insert(field, value());
            }
            (Some(b"RestingECG"), b"Diagnosis" | b"OriginalDiagnosis") => {
                let list = self.statements.take().unwrap_or_default();
                let slot = if name == b"Diagnosis" {
                    &mut parsed.diagnosis
                } else {
                    &mut parsed.original_diagnosis
                };
                slot.get_or_insert(list);
            }
            _ => {}
        }
        Ok(())
    }
}

/// A limb lead derived from leads I and II.
type Derivation = fn(f64, f64) -> f64;

/// The limb leads a cart derives from I and II (Einthoven, Goldberger).
const DERIVED: [(&str, Derivation); 4] = [
    ("III", |i, ii| ii - i),
    ("aVR", |i, ii| -(i + ii) / 2.0),
    ("aVL", |i, ii| i - ii / 2.0),
    ("aVF", |i, ii| ii - i / 2.0),
];

/// The channels of one waveform in millivolts, with the derived limb leads, and its rate.
fn channels(waveform: &Waveform, budget: &mut usize) -> Result<(Vec<Channel>, f64), FormatError> {
    let kind = &waveform.kind;
    let rate = waveform
        .base
        .map(|b| b * 10f64.powf(waveform.exponent))
        .filter(|r| r.is_finite() && *r > 0.0)
        .ok_or_else(|| FormatError::invalid(F, format!("the {kind} waveform has no SampleBase")))?;
    let mut stored = Vec::with_capacity(waveform.leads.len());
    for lead in &waveform.leads {
        stored.push(lead_channel(lead, budget)?);
    }
    if stored.is_empty() {
        return Err(FormatError::invalid(
            F,
            format!("the {kind} waveform has no leads"),
        ));
    }
    let find = |name: &str| stored.iter().position(|c| c.name == name);
    let mut derived = Vec::new();
    if let (Some(i), Some(ii)) = (find("I"), find("II")) {
        let (i, ii) = (&stored[i].samples, &stored[ii].samples);
        let n = i.len().min(ii.len());
        for (name, f) in DERIVED {
            if find(name).is_none() {
                take_budget(budget, n)?;
                derived.push(Channel {
                    name: name.into(),
                    unit: "mV".into(),
                    samples: i.iter().zip(ii).map(|(&a, &b)| f(a, b)).collect(),
                });
            }
        }
    }
    let mut all: Vec<Channel> = stored.into_iter().chain(derived).collect();
    // Standard leads first in their order, then the others as the file gives them.
    all.sort_by_key(|c| {
        STANDARD_LEADS
            .iter()
            .position(|s| *s == c.name)
            .unwrap_or(STANDARD_LEADS.len())
    });
    Ok((all, rate))
}

/// [`channels`] for a waveform that may hold no leads (a median block left empty).
fn channels_or_none(
    waveform: &Waveform,
    budget: &mut usize,
) -> Result<(Option<Vec<Channel>>, f64), FormatError> {
    if waveform.leads.is_empty() {
        return Ok((None, 0.0));
    }
    channels(waveform, budget).map(|(c, r)| (Some(c), r))
}

fn take_budget(budget: &mut usize, n: usize) -> Result<(), FormatError> {
    *budget = budget
        .checked_sub(n)
        .ok_or_else(|| FormatError::TooLarge(format!("more than {MAX_VALUES} samples")))?;
    Ok(())
}

/// MUSE's lead names as the standard ones (`AVR` → `aVR`).
fn lead_name(id: &str) -> String {
    match id.to_ascii_uppercase().as_str() {
        "AVR" => "aVR".into(),
        "AVL" => "aVL".into(),
        "AVF" => "aVF".into(),
        _ => id.to_string(),
    }
}

fn lead_channel(lead: &Lead, budget: &mut usize) -> Result<Channel, FormatError> {
    let name = lead_name(&lead.id);
    if let Some(size) = lead.sample_size.filter(|&s| s != 2) {
        return Err(FormatError::feature(
            F,
            format!("lead {name}: samples of {size} bytes (2-byte samples are read)"),
        ));
    }
    let scale = match lead.units.to_ascii_uppercase().as_str() {
        "MICROVOLTS" | "" => 1e-3,
        "MILLIVOLTS" => 1.0,
        "VOLTS" => 1e3,
        other => {
            return Err(FormatError::feature(
                F,
                format!("lead {name}: amplitude unit {other}"),
            ))
        }
    };
    let per_bit = lead.units_per_bit.unwrap_or(1.0);
    let compact: Vec<u8> = lead
        .data
        .bytes()
        .filter(|b| !b.is_ascii_whitespace())
        .collect();
    let raw = base64::engine::general_purpose::STANDARD
        .decode(&compact)
        .map_err(|e| FormatError::invalid(F, format!("lead {name}: WaveFormData: {e}")))?;
    let present = raw.len() / 2;
    let n = match lead.count {
        Some(claimed) => checked_values(F, claimed, 1, present)?,
        None => present,
    };
    take_budget(budget, n)?;
    let samples = raw
        .chunks_exact(2)
        .take(n)
        .map(|b| f64::from(i16::from_le_bytes([b[0], b[1]])) * per_bit * scale)
        .collect();
    Ok(Channel {
        name,
        unit: "mV".into(),
        samples,
    })
}

/// `09-22-2020` and `09:03:32` → `2020-09-22T09:03:32`.
fn start_time(demographics: &BTreeMap<String, String>) -> Option<String> {
    let date = demographics.get("AcquisitionDate")?;
    let mut parts = date.split(['-', '/']);
    let (month, day, year) = (parts.next()?, parts.next()?, parts.next()?);
    let all_digits = |s: &str, n: usize| s.len() == n && s.bytes().all(|b| b.is_ascii_digit());
    if !(all_digits(month, 2) && all_digits(day, 2) && all_digits(year, 4)) {
        return None;
    }
    let date = format!("{year}-{month}-{day}");
    match demographics.get("AcquisitionTime") {
        Some(time)
            if time.len() == 8
                && time.bytes().enumerate().all(|(k, b)| {
                    if k == 2 || k == 5 {
                        b == b':'
                    } else {
                        b.is_ascii_digit()
                    }
                }) =>
        {
            Some(format!("{date}T{time}"))
        }
        _ => Some(date),
    }
}

fn metadata(parsed: &Parsed) -> BTreeMap<String, String> {
    let mut metadata = BTreeMap::new();
    metadata.insert("format".into(), "GE MUSE XML".into());
    if !parsed.muse_version.is_empty() {
        metadata.insert("muse_version".into(), parsed.muse_version.clone());
    }
    for (field, key) in [
        ("AcquisitionDevice", "acquisition_device"),
        ("AcquisitionSoftwareVersion", "acquisition_software"),
        ("AnalysisSoftwareVersion", "analysis_software"),
        ("Status", "status"),
        ("DataType", "data_type"),
    ] {
        if let Some(v) = parsed.demographics.get(field).filter(|v| !v.is_empty()) {
            metadata.insert(key.into(), v.clone());
        }
    }
    let inserted: Vec<&str> = diagnosis(parsed)
        .iter()
        .filter(|s| s.flags.iter().any(|f| f == "USERINSERT"))
        .map(|s| s.text.as_str())
        .collect();
    if !inserted.is_empty() {
        metadata.insert("overreader_statements".into(), inserted.join("\n"));
    }
    metadata
}

fn diagnosis(parsed: &Parsed) -> &[Statement] {
    parsed
        .diagnosis
        .as_deref()
        .or(parsed.original_diagnosis.as_deref())
        .unwrap_or_default()
}

/// The statements as printed lines (a statement flagged `ENDSLINE` ends its line) and the
/// measurements, or `None` when the document has neither.
fn interpretation(parsed: &Parsed) -> Option<DeviceInterpretation> {
    let mut statements = Vec::new();
    let mut line = String::new();
    for s in diagnosis(parsed) {
        if s.flags.iter().any(|f| f == "USERINSERT") {
            continue;
        }
        if !s.text.is_empty() {
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&s.text);
        }
        if s.flags.iter().any(|f| f == "ENDSLINE") && !line.is_empty() {
            statements.push(std::mem::take(&mut line));
        }
    }
    if !line.is_empty() {
        statements.push(line);
    }
    let measurements: Vec<DeviceMeasurement> = MEASUREMENTS
        .iter()
        .filter_map(|(label, key, unit)| {
            let value = parsed
                .measurements
                .get(*label)?
                .trim()
                .parse::<f64>()
                .ok()?;
            value.is_finite().then(|| DeviceMeasurement {
                key: (*key).into(),
                label: (*label).into(),
                value,
                unit: (*unit).into(),
            })
        })
        .collect();
    if statements.is_empty() && measurements.is_empty() {
        return None;
    }
    let mut source = "GE MUSE".to_string();
    if !parsed.muse_version.is_empty() {
        source.push(' ');
        source.push_str(&parsed.muse_version);
    }
    if let Some(v) = parsed
        .demographics
        .get("AnalysisSoftwareVersion")
        .filter(|v| !v.is_empty())
    {
        source.push_str(", 12SL ");
        source.push_str(v);
    }
    Some(DeviceInterpretation {
        source,
        statements,
        measurements,
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Base64 of little-endian int16 samples.
    fn b64(samples: &[i16]) -> String {
        let bytes: Vec<u8> = samples.iter().flat_map(|v| v.to_le_bytes()).collect();
        base64::engine::general_purpose::STANDARD.encode(bytes)
    }

    fn lead(id: &str, samples: &[i16]) -> String {
        format!(
            "<LeadData><LeadByteCountTotal>{}</LeadByteCountTotal><LeadSampleCountTotal>{}</LeadSampleCountTotal>\
             <LeadAmplitudeUnitsPerBit>5</LeadAmplitudeUnitsPerBit><LeadAmplitudeUnits>MICROVOLTS</LeadAmplitudeUnits>\
             <LeadID>{id}</LeadID><LeadSampleSize>2</LeadSampleSize><WaveFormData>\n{}\n</WaveFormData></LeadData>",
            samples.len() * 2,
            samples.len(),
            b64(samples)
        )
    }

    /// A small MUSE document: rhythm I, II, V1 at 500 Hz and a median beat of I, II at 250 Hz.
    pub(crate) fn sample() -> String {
        format!(
            r#"<?xml version="1.0" encoding="ISO-8859-1"?>
<!DOCTYPE RestingECG SYSTEM "restecg.dtd">
<RestingECG>
  <MuseInfo><MuseVersion>9.0.10.18530</MuseVersion></MuseInfo>
  <PatientDemographics><PatientLastName>TEST</PatientLastName></PatientDemographics>
  <TestDemographics><AcquisitionDevice>MAC55</AcquisitionDevice><Status>CONFIRMED</Status>
    <AcquisitionTime>09:03:32</AcquisitionTime><AcquisitionDate>09-22-2020</AcquisitionDate>
    <AnalysisSoftwareVersion>239</AnalysisSoftwareVersion></TestDemographics>
  <RestingECGMeasurements><VentricularRate>56</VentricularRate><QTCorrected>418</QTCorrected>
    <RAxis>-22</RAxis><QOnset>211</QOnset></RestingECGMeasurements>
  <Diagnosis><Modality>RESTING</Modality>
    <DiagnosisStatement><StmtText>Sinus bradycardia</StmtText></DiagnosisStatement>
    <DiagnosisStatement><StmtFlag>ENDSLINE</StmtFlag><StmtText>with 1st degree A-V block</StmtText></DiagnosisStatement>
    <DiagnosisStatement><StmtFlag>ENDSLINE</StmtFlag><StmtText>Otherwise normal ECG &amp; more</StmtText></DiagnosisStatement>
    <DiagnosisStatement><StmtFlag>USERINSERT</StmtFlag><StmtText>Confirmed by Dr. X</StmtText></DiagnosisStatement>
  </Diagnosis>
  <Waveform><WaveformType>Median</WaveformType><SampleBase>250</SampleBase><SampleExponent>0</SampleExponent>
    {}{}</Waveform>
  <Waveform><WaveformType>Rhythm</WaveformType><SampleBase>500</SampleBase><SampleExponent>0</SampleExponent>
    {}{}{}</Waveform>
</RestingECG>"#,
            lead("I", &[1, 2]),
            lead("II", &[3, 4]),
            lead("I", &[100, -200, 0]),
            lead("II", &[300, 100, -40]),
            lead("V1", &[7, 8, 9]),
        )
    }

    fn close(a: &[f64], b: &[f64]) -> bool {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-12)
    }

    #[test]
    fn reads_the_rhythm_with_derived_limb_leads_in_the_standard_order() {
        let doc = read_document(sample().as_bytes()).unwrap();
        let rec = &doc.rhythm;
        assert_eq!(rec.sampling_rate_hz, 500.0);
        let names: Vec<&str> = rec.channels.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["I", "II", "III", "aVR", "aVL", "aVF", "V1"]);
        assert!(rec.channels.iter().all(|c| c.unit == "mV"));
        let lead = |n: &str| rec.channel(n).unwrap().samples.clone();
        assert!(close(&lead("I"), &[0.5, -1.0, 0.0]));
        assert!(close(&lead("II"), &[1.5, 0.5, -0.2]));
        assert!(close(&lead("III"), &[1.0, 1.5, -0.2]));
        assert!(close(&lead("aVR"), &[-1.0, 0.25, 0.1]));
        assert!(close(&lead("aVL"), &[-0.25, -1.25, 0.1]));
        assert!(close(&lead("aVF"), &[1.25, 1.0, -0.2]));
        assert_eq!(rec.start.as_deref(), Some("2020-09-22T09:03:32"));
        assert_eq!(rec.metadata["acquisition_device"], "MAC55");
        assert_eq!(rec.metadata["overreader_statements"], "Confirmed by Dr. X");
        assert!(!rec.metadata.values().any(|v| v.contains("TEST")));
        let median = doc.median.unwrap();
        assert_eq!(median.sampling_rate_hz, 250.0);
        assert_eq!(median.channels.len(), 6);
        assert!(close(&median.channels[0].samples, &[0.005, 0.01]));
    }

    #[test]
    fn statements_are_joined_into_printed_lines_and_measurements_get_stable_keys() {
        let rec = read(sample().as_bytes()).unwrap();
        let device = rec.device_interpretation.unwrap();
        assert_eq!(device.source, "GE MUSE 9.0.10.18530, 12SL 239");
        assert_eq!(
            device.statements,
            [
                "Sinus bradycardia with 1st degree A-V block",
                "Otherwise normal ECG & more"
            ]
        );
        let keys: Vec<(&str, f64, &str)> = device
            .measurements
            .iter()
            .map(|m| (m.key.as_str(), m.value, m.unit.as_str()))
            .collect();
        assert_eq!(
            keys,
            [
                ("heart_rate_bpm", 56.0, "bpm"),
                ("qtc_ms", 418.0, "ms"),
                ("qrs_axis_deg", -22.0, "°")
            ]
        );
        assert!(device
            .measurements
            .iter()
            .all(|m| crate::DEVICE_MEASUREMENT_KEYS.contains(&m.key.as_str())));
    }

    #[test]
    fn broken_documents_are_errors() {
        let text = sample();
        let no_rhythm = text.replace("Rhythm", "Other");
        assert!(read(no_rhythm.as_bytes())
            .unwrap_err()
            .to_string()
            .contains("no Rhythm waveform"));
        let short = text.replace(
            "<LeadSampleCountTotal>3</LeadSampleCountTotal>",
            "<LeadSampleCountTotal>30</LeadSampleCountTotal>",
        );
        assert!(read(short.as_bytes())
            .unwrap_err()
            .to_string()
            .contains("claims"));
        let bad_base64 = text.replacen("<WaveFormData>\n", "<WaveFormData>\n*", 1);
        assert!(read(bad_base64.as_bytes()).is_err());
        let bytes4 = text.replace("<LeadSampleSize>2<", "<LeadSampleSize>4<");
        assert!(matches!(
            read(bytes4.as_bytes()),
            Err(FormatError::UnsupportedFeature { .. })
        ));
        assert!(read(b"<AnnotatedECG/>").is_err());
        assert!(read(b"<RestingECG>").is_err());
        let deep = format!("<RestingECG>{}", "<a>".repeat(10_000));
        assert!(read(deep.as_bytes())
            .unwrap_err()
            .to_string()
            .contains("nested"));
    }

    #[test]
    fn latin1_text_is_read() {
        let text = sample().replace("Dr. X", "Dr. M\u{fc}ller");
        let latin1: Vec<u8> = text.chars().map(|c| c as u32 as u8).collect();
        let rec = read(&latin1).unwrap();
        assert_eq!(
            rec.metadata["overreader_statements"],
            "Confirmed by Dr. Müller"
        );
    }
}
