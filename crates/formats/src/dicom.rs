//! DICOM waveforms: the 12-lead ECG (and other) waveform objects of DICOM PS3.3 C.10.9
//! (Waveform module), in a DICOM Part 10 file (PS3.10 7.1: a 128-byte preamble, `DICM`, the file
//! meta information group 0002 in explicit VR little endian, then the data set).
//!
//! Each item of the Waveform Sequence (5400,0100) is one multiplex group: `NumberOfWaveformChannels`
//! channels of `NumberOfWaveformSamples` samples at `SamplingFrequency`, interleaved sample by
//! sample in `WaveformData` (5400,1010) as `WaveformBitsAllocated`-bit integers of
//! `WaveformSampleInterpretation` (SS, US, SB, UB, SL, UL), with one Channel Definition Sequence
//! item per channel (C.10.9.1.4). A sample's physical value is
//! `sample x ChannelSensitivity x ChannelSensitivityCorrectionFactor + ChannelBaseline`
//! (C.10.9.1.4.3; the baseline is in the sensitivity's units), as pydicom's `waveform_array`
//! computes it; values equal to `WaveformPaddingValue` are NaN. Sensitivities in UCUM `uV`, `mV`,
//! `V` or `nV` are converted to mV; any other unit is kept as given. Lead names come from the
//! Channel Source Sequence (SCP-ECG code, else its meaning: "Lead I (Einthoven)" → `I`) and are
//! put in the standard order I, II, III, aVR, aVL, aVF, V1-V6.
//!
//! The first multiplex group whose `WaveformOriginality` is `ORIGINAL` is the recording; a group
//! labelled as a median beat ([`read_document`]) is given beside it. The Waveform Annotation
//! Sequence (0040,B020) gives the device interpretation: free-text statements
//! (`UnformattedTextValue`) and coded measurements (`ConceptNameCodeSequence` + `NumericValue`).
//!
//! Only the subset needed is decoded: implicit and explicit VR little endian, sequences and items of
//! defined and undefined length. The dicom-rs crates were measured first (`dicom-object` 0.8 with
//! default features off): 46 crates, among them the unmaintained `encoding` crate with its CJK
//! tables, and its parser allocates the length a value header claims before reading it (a 200-byte
//! file claiming a 4 GiB OB value asks for 4 GiB), against this crate's rule that every claimed
//! size is checked against the bytes present. This reader does that, caps nesting at
//! [`MAX_DEPTH`] and elements at [`MAX_ELEMENTS`], and never copies the sample data before
//! decoding it.

use std::collections::BTreeMap;

use crate::{
    checked_values, Channel, DeviceInterpretation, DeviceMeasurement, Format, FormatError,
    Recording, MAX_CHANNELS, MAX_VALUES,
};

const F: Format = Format::DicomWaveform;

/// Deepest nesting of sequences accepted (an ECG waveform object nests 3 deep).
pub const MAX_DEPTH: usize = 16;

/// Most data elements read from one file (an ECG object has a few hundred).
pub const MAX_ELEMENTS: usize = 1 << 20;

const EXPLICIT_LE: &str = "1.2.840.10008.1.2.1";
const IMPLICIT_LE: &str = "1.2.840.10008.1.2";

type Tag = (u16, u16);

const ITEM: Tag = (0xfffe, 0xe000);
const ITEM_END: Tag = (0xfffe, 0xe00d);
const SEQUENCE_END: Tag = (0xfffe, 0xe0dd);
const UNDEFINED: u32 = 0xffff_ffff;

const TRANSFER_SYNTAX: Tag = (0x0002, 0x0010);
const SOP_CLASS: Tag = (0x0008, 0x0016);
const ACQUISITION_DATETIME: Tag = (0x0008, 0x002a);
const CONTENT_DATE: Tag = (0x0008, 0x0023);
const CONTENT_TIME: Tag = (0x0008, 0x0033);
const MANUFACTURER: Tag = (0x0008, 0x0070);
const MODEL: Tag = (0x0008, 0x1090);
const SOFTWARE: Tag = (0x0018, 0x1020);
const CODE_VALUE: Tag = (0x0008, 0x0100);
const CODE_MEANING: Tag = (0x0008, 0x0104);
const ORIGINALITY: Tag = (0x003a, 0x0004);
const N_CHANNELS: Tag = (0x003a, 0x0005);
const N_SAMPLES: Tag = (0x003a, 0x0010);
const SAMPLING_FREQUENCY: Tag = (0x003a, 0x001a);
const GROUP_LABEL: Tag = (0x003a, 0x0020);
const CHANNEL_DEFINITIONS: Tag = (0x003a, 0x0200);
const CHANNEL_LABEL: Tag = (0x003a, 0x0203);
const CHANNEL_SOURCE: Tag = (0x003a, 0x0208);
const SENSITIVITY: Tag = (0x003a, 0x0210);
const SENSITIVITY_UNITS: Tag = (0x003a, 0x0211);
const CORRECTION: Tag = (0x003a, 0x0212);
const BASELINE: Tag = (0x003a, 0x0213);
const WAVEFORM_SEQUENCE: Tag = (0x5400, 0x0100);
const BITS_ALLOCATED: Tag = (0x5400, 0x1004);
const INTERPRETATION: Tag = (0x5400, 0x1006);
const PADDING: Tag = (0x5400, 0x100a);
const WAVEFORM_DATA: Tag = (0x5400, 0x1010);
const ANNOTATIONS: Tag = (0x0040, 0xb020);
const UNFORMATTED_TEXT: Tag = (0x0070, 0x0006);
const CONCEPT_NAME: Tag = (0x0040, 0xa043);
const NUMERIC_VALUE: Tag = (0x0040, 0xa30a);
const MEASUREMENT_UNITS: Tag = (0x0040, 0x08ea);

/// Sequences this reader looks into, so that they are recognised in implicit VR too.
const SEQUENCES: [Tag; 7] = [
    WAVEFORM_SEQUENCE,
    CHANNEL_DEFINITIONS,
    CHANNEL_SOURCE,
    SENSITIVITY_UNITS,
    ANNOTATIONS,
    CONCEPT_NAME,
    MEASUREMENT_UNITS,
];

/// Value representations whose explicit-VR header has a 4-byte length (PS3.5 7.1.2).
const LONG_VRS: [&[u8; 2]; 13] = [
    b"OB", b"OD", b"OF", b"OL", b"OV", b"OW", b"SQ", b"SV", b"UC", b"UN", b"UR", b"UT", b"UV",
];

/// The standard 12-lead order.
const STANDARD_LEADS: [&str; 12] = [
    "I", "II", "III", "aVR", "aVL", "aVF", "V1", "V2", "V3", "V4", "V5", "V6",
];

/// SCP-ECG lead codes (EN 1064 / ISO 11073-91064, the `SCPECG` scheme of PS3.16 CID 3001).
const SCPECG_LEADS: [(&str, &str); 12] = [
    ("5.6.3-9-1", "I"),
    ("5.6.3-9-2", "II"),
    ("5.6.3-9-61", "III"),
    ("5.6.3-9-62", "aVR"),
    ("5.6.3-9-63", "aVL"),
    ("5.6.3-9-64", "aVF"),
    ("5.6.3-9-3", "V1"),
    ("5.6.3-9-4", "V2"),
    ("5.6.3-9-5", "V3"),
    ("5.6.3-9-6", "V4"),
    ("5.6.3-9-7", "V5"),
    ("5.6.3-9-8", "V6"),
];

/// Annotation concept meanings (PS3.16 CID 3250, SCP-ECG) and their measurement keys.
const MEASUREMENTS: [(&str, &str); 13] = [
    ("ventricular heart rate", "heart_rate_bpm"),
    ("heart rate", "heart_rate_bpm"),
    ("atrial heart rate", "atrial_rate_bpm"),
    ("pr interval", "pr_ms"),
    ("qrs duration", "qrs_ms"),
    ("qt interval", "qt_ms"),
    ("qtc interval", "qtc_ms"),
    ("p duration", "p_ms"),
    ("rr interval", "rr_ms"),
    ("pp interval", "pp_ms"),
    ("p axis", "p_axis_deg"),
    ("qrs axis", "qrs_axis_deg"),
    ("t axis", "t_axis_deg"),
];

/// A DICOM waveform file's recording and, when it has one, its median beat.
#[derive(Debug, Clone, PartialEq)]
pub struct Document {
    /// The first original multiplex group (the rhythm), with the device interpretation.
    pub rhythm: Recording,
    /// A multiplex group labelled as a median (representative) beat, when there is one.
    pub median: Option<Recording>,
}

/// One data element: its value bytes, or its items when it is a sequence.
#[derive(Debug)]
struct Element<'a> {
    tag: Tag,
    value: &'a [u8],
    items: Vec<Item<'a>>,
}

type Item<'a> = Vec<Element<'a>>;

/// What a data element's value is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Value,
    Sequence,
    /// A sequence in implicit VR inside an explicit-VR data set (a UN of undefined length).
    ImplicitSequence,
}

struct Parser {
    explicit: bool,
    elements: usize,
}

fn invalid(reason: impl Into<String>) -> FormatError {
    FormatError::invalid(F, reason)
}

fn u16_at(data: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(data.get(at..at + 2)?.try_into().ok()?))
}

fn u32_at(data: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(data.get(at..at + 4)?.try_into().ok()?))
}

fn truncated(at: usize) -> FormatError {
    invalid(format!(
        "data element at byte {at} runs past the end of the file"
    ))
}

impl Parser {
    /// The header at `pos`: tag, what the value is, its length, and where it starts.
    fn header(&self, data: &[u8], pos: usize) -> Result<(Tag, Kind, u32, usize), FormatError> {
        let group = u16_at(data, pos).ok_or_else(|| truncated(pos))?;
        let element = u16_at(data, pos + 2).ok_or_else(|| truncated(pos))?;
        let tag = (group, element);
        if group == 0xfffe {
            let len = u32_at(data, pos + 4).ok_or_else(|| truncated(pos))?;
            return Ok((tag, Kind::Value, len, pos + 8));
        }
        if self.explicit || group == 0x0002 {
            let vr: &[u8; 2] = data
                .get(pos + 4..pos + 6)
                .and_then(|v| v.try_into().ok())
                .ok_or_else(|| truncated(pos))?;
            if LONG_VRS.contains(&vr) {
                let len = u32_at(data, pos + 8).ok_or_else(|| truncated(pos))?;
                let kind = match vr {
                    b"SQ" => Kind::Sequence,
                    b"UN" if len == UNDEFINED => Kind::ImplicitSequence,
                    _ => Kind::Value,
                };
                return Ok((tag, kind, len, pos + 12));
            }
            let len = u16_at(data, pos + 6).ok_or_else(|| truncated(pos))?;
            return Ok((tag, Kind::Value, u32::from(len), pos + 8));
        }
        let len = u32_at(data, pos + 4).ok_or_else(|| truncated(pos))?;
        // Implicit VR names no VR: an undefined length, or a tag known as a sequence, is one.
        let kind = if len == UNDEFINED || SEQUENCES.contains(&tag) {
            Kind::Sequence
        } else {
            Kind::Value
        };
        Ok((tag, kind, len, pos + 8))
    }

    /// The elements of `data[pos..end]`, or up to an item delimiter when `end` is `None`; returns
    /// them and the position after them.
    fn elements<'a>(
        &mut self,
        data: &'a [u8],
        mut pos: usize,
        end: Option<usize>,
        depth: usize,
    ) -> Result<(Item<'a>, usize), FormatError> {
        if depth > MAX_DEPTH {
            return Err(invalid(format!("sequences nested deeper than {MAX_DEPTH}")));
        }
        let mut out = Vec::new();
        loop {
            match end {
                Some(end) if pos >= end => return Ok((out, pos)),
                None if pos >= data.len() => {
                    return Err(invalid("an item of undefined length has no end"))
                }
                _ => {}
            }
            let (tag, sequence, len, start) = self.header(data, pos)?;
            if tag == ITEM_END {
                if end.is_none() {
                    return Ok((out, start));
                }
                return Err(invalid(format!(
                    "item delimiter out of place at byte {pos}"
                )));
            }
            self.elements += 1;
            if self.elements > MAX_ELEMENTS {
                return Err(FormatError::TooLarge(format!(
                    "more than {MAX_ELEMENTS} data elements"
                )));
            }
            let (element, next) = if matches!(sequence, Kind::Sequence | Kind::ImplicitSequence) {
                let explicit = self.explicit;
                // A UN of undefined length holds a sequence in implicit VR (PS3.5 6.2.2).
                if sequence == Kind::ImplicitSequence {
                    self.explicit = false;
                }
                let result = self.sequence(data, start, len, depth + 1);
                self.explicit = explicit;
                let (items, next) = result?;
                (
                    Element {
                        tag,
                        value: &[],
                        items,
                    },
                    next,
                )
            } else {
                if len == UNDEFINED {
                    return Err(FormatError::feature(
                        F,
                        format!(
                            "element ({:04X},{:04X}) of undefined length (encapsulated data)",
                            tag.0, tag.1
                        ),
                    ));
                }
                let stop = start
                    .checked_add(len as usize)
                    .filter(|&s| s <= data.len() && end.is_none_or(|e| s <= e))
                    .ok_or_else(|| truncated(pos))?;
                (
                    Element {
                        tag,
                        value: &data[start..stop],
                        items: Vec::new(),
                    },
                    stop,
                )
            };
            if end.is_some_and(|e| next > e) {
                return Err(truncated(pos));
            }
            out.push(element);
            pos = next;
        }
    }

    /// The items of a sequence whose value starts at `start`.
    fn sequence<'a>(
        &mut self,
        data: &'a [u8],
        start: usize,
        len: u32,
        depth: usize,
    ) -> Result<(Vec<Item<'a>>, usize), FormatError> {
        let end = if len == UNDEFINED {
            None
        } else {
            Some(
                start
                    .checked_add(len as usize)
                    .filter(|&e| e <= data.len())
                    .ok_or_else(|| truncated(start))?,
            )
        };
        let mut items = Vec::new();
        let mut pos = start;
        loop {
            match end {
                Some(end) if pos >= end => return Ok((items, end)),
                None if pos >= data.len() => {
                    return Err(invalid("a sequence of undefined length has no end"))
                }
                _ => {}
            }
            let (tag, _, item_len, item_start) = self.header(data, pos)?;
            match tag {
                SEQUENCE_END if end.is_none() => return Ok((items, item_start)),
                ITEM => {
                    let item_end = if item_len == UNDEFINED {
                        None
                    } else {
                        Some(
                            item_start
                                .checked_add(item_len as usize)
                                .filter(|&e| e <= end.unwrap_or(data.len()))
                                .ok_or_else(|| truncated(pos))?,
                        )
                    };
                    self.elements += 1;
                    if self.elements > MAX_ELEMENTS {
                        return Err(FormatError::TooLarge(format!(
                            "more than {MAX_ELEMENTS} data elements"
                        )));
                    }
                    let (item, next) = self.elements(data, item_start, item_end, depth)?;
                    items.push(item);
                    pos = next;
                }
                _ => {
                    return Err(invalid(format!(
                        "expected a sequence item at byte {pos}, found ({:04X},{:04X})",
                        tag.0, tag.1
                    )))
                }
            }
        }
    }
}

fn find<'e, 'a>(item: &'e [Element<'a>], tag: Tag) -> Option<&'e Element<'a>> {
    item.iter().find(|e| e.tag == tag)
}

/// A text value, trimmed of the padding DICOM adds (spaces, NUL); ISO 8859-1 when not UTF-8.
fn text(item: &[Element], tag: Tag) -> Option<String> {
    let raw = find(item, tag)?.value;
    let s = match std::str::from_utf8(raw) {
        Ok(s) => s.to_string(),
        Err(_) => raw.iter().map(|&b| char::from(b)).collect(),
    };
    let s = s.trim_matches(|c: char| c == '\0' || c.is_whitespace());
    (!s.is_empty()).then(|| s.to_string())
}

/// The first value of a decimal string (DS) or integer string (IS).
fn decimal(item: &[Element], tag: Tag) -> Option<f64> {
    text(item, tag)?
        .split('\\')
        .next()?
        .trim()
        .parse()
        .ok()
        .filter(|v: &f64| v.is_finite())
}

/// An unsigned value (US or UL), by its length.
fn unsigned(item: &[Element], tag: Tag) -> Option<u32> {
    let v = find(item, tag)?.value;
    match v.len() {
        2 => u16_at(v, 0).map(u32::from),
        4 => u32_at(v, 0),
        _ => None,
    }
}

fn first_item<'e, 'a>(item: &'e [Element<'a>], tag: Tag) -> Option<&'e [Element<'a>]> {
    find(item, tag)?.items.first().map(Vec::as_slice)
}

/// Reads the first original multiplex group of a DICOM waveform file (see [`read_document`]).
///
/// # Errors
/// As [`read_document`].
pub fn read(bytes: &[u8]) -> Result<Recording, FormatError> {
    read_document(bytes).map(|d| d.rhythm)
}

/// Reads a DICOM waveform file: the rhythm and, when the file has one, the median beat.
///
/// # Errors
/// [`FormatError::Invalid`] for a file without the `DICM` prefix, a truncated element, a data set
/// without a Waveform Sequence or a group whose samples are fewer than it claims;
/// [`FormatError::UnsupportedFeature`] for a transfer syntax other than implicit or explicit VR
/// little endian, encapsulated data, or samples in mu-law / A-law; [`FormatError::TooLarge`] past
/// [`MAX_VALUES`] samples, [`MAX_CHANNELS`] channels or [`MAX_ELEMENTS`] elements.
pub fn read_document(bytes: &[u8]) -> Result<Document, FormatError> {
    if bytes.get(128..132) != Some(b"DICM") {
        return Err(invalid(
            "no DICM prefix at byte 128 (not a DICOM Part 10 file)",
        ));
    }
    let mut parser = Parser {
        explicit: true,
        elements: 0,
    };
    // The file meta information (group 0002) is explicit VR little endian.
    let mut pos = 132;
    let mut meta = Vec::new();
    while u16_at(bytes, pos) == Some(0x0002) {
        let (mut elements, next) =
            parser.elements(bytes, pos, Some(header_end(&parser, bytes, pos)?), 0)?;
        meta.append(&mut elements);
        pos = next;
    }
    let syntax = text(&meta, TRANSFER_SYNTAX).unwrap_or_else(|| EXPLICIT_LE.to_string());
    parser.explicit = match syntax.as_str() {
        EXPLICIT_LE => true,
        IMPLICIT_LE => false,
        other => {
            return Err(FormatError::feature(
                F,
                format!(
                    "transfer syntax {other} (implicit and explicit VR little endian are read)"
                ),
            ))
        }
    };
    let (set, _) = parser.elements(bytes, pos, Some(bytes.len()), 0)?;
    let sop_class = text(&set, SOP_CLASS).unwrap_or_default();
    let groups = &find(&set, WAVEFORM_SEQUENCE)
        .ok_or_else(|| {
            invalid(format!(
                "no Waveform Sequence (5400,0100): not a waveform object (SOP class {sop_class})"
            ))
        })?
        .items;
    let is_median =
        |g: &Item| text(g, GROUP_LABEL).is_some_and(|l| l.to_ascii_uppercase().contains("MEDIAN"));
    let rhythm_group = groups
        .iter()
        .find(|g| !is_median(g) && text(g, ORIGINALITY).as_deref() != Some("DERIVED"))
        .or_else(|| groups.iter().find(|g| !is_median(g)))
        .or(groups.first())
        .ok_or_else(|| invalid("the Waveform Sequence has no multiplex group"))?;
    let median_group = groups
        .iter()
        .find(|g| is_median(g) && !std::ptr::eq(*g, rhythm_group));
    let mut budget = MAX_VALUES;
    let mut metadata = BTreeMap::new();
    metadata.insert("format".into(), "DICOM waveform".into());
    if !sop_class.is_empty() {
        metadata.insert("sop_class".into(), sop_class);
    }
    metadata.insert("transfer_syntax".into(), syntax);
    for (tag, key) in [
        (MANUFACTURER, "manufacturer"),
        (MODEL, "model"),
        (SOFTWARE, "software"),
    ] {
        if let Some(v) = text(&set, tag) {
            metadata.insert(key.into(), v);
        }
    }
    let interpretation = interpretation(&set);
    let start = start_time(&set);
    let group_recording = |group: &Item, budget: &mut usize| -> Result<Recording, FormatError> {
        let (channels, rate) = multiplex_group(group, budget)?;
        let mut metadata = metadata.clone();
        if let Some(label) = text(group, GROUP_LABEL) {
            metadata.insert("multiplex_group".into(), label);
        }
        Ok(Recording {
            channels,
            sampling_rate_hz: rate,
            start: None,
            metadata,
            device_interpretation: interpretation.clone(),
        })
    };
    let mut rhythm = group_recording(rhythm_group, &mut budget)?;
    rhythm.start = start;
    let median = median_group
        .map(|g| group_recording(g, &mut budget))
        .transpose()?;
    Ok(Document { rhythm, median })
}

/// Where the group-0002 element at `pos` ends (so that the meta group is parsed one element at a
/// time, before the transfer syntax of the rest is known).
fn header_end(parser: &Parser, data: &[u8], pos: usize) -> Result<usize, FormatError> {
    let (_, kind, len, start) = parser.header(data, pos)?;
    if kind != Kind::Value || len == UNDEFINED {
        return Err(invalid("a sequence in the file meta information"));
    }
    start
        .checked_add(len as usize)
        .filter(|&e| e <= data.len())
        .ok_or_else(|| truncated(pos))
}

/// `20130125105919.123` → `2013-01-25T10:59:19.123` (DT, DA + TM).
fn iso(date: &str, time: &str) -> Option<String> {
    let digits = |s: &str, n: usize| s.len() >= n && s.bytes().take(n).all(|b| b.is_ascii_digit());
    if !digits(date, 8) {
        return None;
    }
    let mut out = format!("{}-{}-{}", &date[0..4], &date[4..6], &date[6..8]);
    if digits(time, 6) {
        out = format!("{out}T{}:{}:{}", &time[0..2], &time[2..4], &time[4..6]);
        if let Some(fraction) = time[6..].strip_prefix('.') {
            let fraction: String = fraction.chars().take_while(char::is_ascii_digit).collect();
            if !fraction.is_empty() {
                out.push('.');
                out.push_str(&fraction);
            }
        }
    }
    Some(out)
}

fn start_time(set: &[Element]) -> Option<String> {
    if let Some(dt) = text(set, ACQUISITION_DATETIME) {
        if dt.len() >= 8 && dt.is_char_boundary(8) {
            return iso(&dt[..8], &dt[8..]);
        }
    }
    iso(
        &text(set, CONTENT_DATE)?,
        &text(set, CONTENT_TIME).unwrap_or_default(),
    )
}

/// A lead's standard name from its Channel Source Sequence code, else from its meaning
/// ("Lead I (Einthoven)", "Lead aVR"), else the channel label.
fn lead_name(channel: &[Element]) -> String {
    let source = first_item(channel, CHANNEL_SOURCE).unwrap_or_default();
    if let Some(code) = text(source, CODE_VALUE) {
        if let Some((_, name)) = SCPECG_LEADS.iter().find(|(c, _)| *c == code) {
            return (*name).to_string();
        }
    }
    let meaning = text(source, CODE_MEANING).or_else(|| text(channel, CHANNEL_LABEL));
    let Some(meaning) = meaning else {
        return String::new();
    };
    let short = meaning
        .split_once('(')
        .map_or(meaning.as_str(), |(head, _)| head)
        .trim();
    let short = short
        .strip_prefix("Lead ")
        .or_else(|| short.strip_prefix("lead "))
        .unwrap_or(short)
        .trim();
    STANDARD_LEADS
        .iter()
        .find(|s| s.eq_ignore_ascii_case(short))
        .map_or_else(|| meaning.clone(), |s| (*s).to_string())
}

/// How a group's samples are stored.
#[derive(Clone, Copy)]
enum Sample {
    I8,
    U8,
    I16,
    U16,
    I32,
    U32,
}

impl Sample {
    fn size(self) -> usize {
        match self {
            Sample::I8 | Sample::U8 => 1,
            Sample::I16 | Sample::U16 => 2,
            Sample::I32 | Sample::U32 => 4,
        }
    }

    fn value(self, b: &[u8]) -> f64 {
        match self {
            Sample::I8 => f64::from(b[0].cast_signed()),
            Sample::U8 => f64::from(b[0]),
            Sample::I16 => f64::from(i16::from_le_bytes([b[0], b[1]])),
            Sample::U16 => f64::from(u16::from_le_bytes([b[0], b[1]])),
            Sample::I32 => f64::from(i32::from_le_bytes([b[0], b[1], b[2], b[3]])),
            Sample::U32 => f64::from(u32::from_le_bytes([b[0], b[1], b[2], b[3]])),
        }
    }
}

/// The channels of one multiplex group in physical units, in the standard lead order, and its rate.
fn multiplex_group(group: &Item, budget: &mut usize) -> Result<(Vec<Channel>, f64), FormatError> {
    let label = text(group, GROUP_LABEL).unwrap_or_else(|| "waveform".into());
    let rate = decimal(group, SAMPLING_FREQUENCY)
        .filter(|r| *r > 0.0)
        .ok_or_else(|| invalid(format!("multiplex group {label} has no sampling frequency")))?;
    let n_channels = unsigned(group, N_CHANNELS).unwrap_or(0) as usize;
    let n_samples = unsigned(group, N_SAMPLES).unwrap_or(0) as usize;
    if n_channels == 0 || n_channels > MAX_CHANNELS {
        return Err(invalid(format!(
            "multiplex group {label} has {n_channels} channels"
        )));
    }
    let bits = unsigned(group, BITS_ALLOCATED).unwrap_or(16);
    let kind = text(group, INTERPRETATION).unwrap_or_else(|| "SS".into());
    let sample = match (kind.as_str(), bits) {
        ("SB", 8) => Sample::I8,
        ("UB", 8) => Sample::U8,
        ("SS", 16) => Sample::I16,
        ("US", 16) => Sample::U16,
        ("SL", 32) => Sample::I32,
        ("UL", 32) => Sample::U32,
        _ => {
            return Err(FormatError::feature(
                F,
                format!("waveform samples {kind} of {bits} bits (SB, UB, SS, US, SL, UL are read)"),
            ))
        }
    };
    let data = find(group, WAVEFORM_DATA)
        .map(|e| e.value)
        .ok_or_else(|| invalid(format!("multiplex group {label} has no Waveform Data")))?;
    let values = checked_values(F, n_channels, n_samples, data.len() / sample.size())?;
    *budget = budget
        .checked_sub(values)
        .ok_or_else(|| FormatError::TooLarge(format!("more than {MAX_VALUES} samples")))?;
    let definitions = find(group, CHANNEL_DEFINITIONS)
        .map(|e| e.items.as_slice())
        .unwrap_or_default();
    if definitions.len() != n_channels {
        return Err(invalid(format!(
            "multiplex group {label} defines {} channels for {n_channels}",
            definitions.len()
        )));
    }
    let padding = find(group, PADDING)
        .filter(|p| p.value.len() >= sample.size())
        .map(|p| sample.value(p.value));
    let frame = n_channels * sample.size();
    let mut channels = Vec::with_capacity(n_channels);
    for (k, definition) in definitions.iter().enumerate() {
        let sensitivity = decimal(definition, SENSITIVITY).unwrap_or(1.0);
        let correction = decimal(definition, CORRECTION).unwrap_or(1.0);
        let baseline = decimal(definition, BASELINE).unwrap_or(0.0);
        let unit = first_item(definition, SENSITIVITY_UNITS)
            .and_then(|u| text(u, CODE_VALUE))
            .unwrap_or_default();
        let (to_unit, unit) = match unit.as_str() {
            "uV" => (1e-3, "mV".to_string()),
            "mV" => (1.0, "mV".to_string()),
            "V" => (1e3, "mV".to_string()),
            "nV" => (1e-6, "mV".to_string()),
            _ => (1.0, unit),
        };
        let offset = k * sample.size();
        let samples = data
            .chunks_exact(frame)
            .take(n_samples)
            .map(|f| {
                let raw = sample.value(&f[offset..offset + sample.size()]);
                if padding == Some(raw) {
                    f64::NAN
                } else {
                    (raw * sensitivity * correction + baseline) * to_unit
                }
            })
            .collect();
        let mut name = lead_name(definition);
        if name.is_empty() {
            name = format!("channel {}", k + 1);
        }
        channels.push(Channel {
            name,
            unit,
            samples,
        });
    }
    channels.sort_by_key(|c| {
        STANDARD_LEADS
            .iter()
            .position(|s| *s == c.name)
            .unwrap_or(STANDARD_LEADS.len())
    });
    Ok((channels, rate))
}

/// Free-text statements and coded measurements of the Waveform Annotation Sequence.
fn interpretation(set: &[Element]) -> Option<DeviceInterpretation> {
    let annotations = find(set, ANNOTATIONS)?;
    let mut statements = Vec::new();
    let mut measurements = Vec::new();
    for a in &annotations.items {
        if let Some(t) = text(a, UNFORMATTED_TEXT) {
            statements.push(t);
            continue;
        }
        let (Some(concept), Some(value)) = (first_item(a, CONCEPT_NAME), decimal(a, NUMERIC_VALUE))
        else {
            continue;
        };
        let label = text(concept, CODE_MEANING)
            .or_else(|| text(concept, CODE_VALUE))
            .unwrap_or_default();
        let lower = label.to_ascii_lowercase();
        let key = MEASUREMENTS
            .iter()
            .find(|(m, _)| *m == lower)
            .map_or(label.as_str(), |(_, k)| k);
        let unit = first_item(a, MEASUREMENT_UNITS)
            .and_then(|u| text(u, CODE_VALUE))
            .unwrap_or_default();
        let unit = match unit.as_str() {
            "deg" => "°".to_string(),
            "/min" | "{beats}/min" => "bpm".to_string(),
            _ => unit,
        };
        measurements.push(DeviceMeasurement {
            key: key.to_string(),
            label: label.clone(),
            value,
            unit,
        });
    }
    if statements.is_empty() && measurements.is_empty() {
        return None;
    }
    let source = [text(set, MANUFACTURER), text(set, MODEL)]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(" ");
    Some(DeviceInterpretation {
        source: if source.is_empty() {
            "DICOM waveform annotation".into()
        } else {
            source
        },
        statements,
        measurements,
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// One explicit-VR little-endian element.
    fn element(group: u16, elem: u16, vr: &str, value: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend(group.to_le_bytes());
        out.extend(elem.to_le_bytes());
        out.extend(vr.as_bytes());
        if LONG_VRS.iter().any(|v| v.as_slice() == vr.as_bytes()) {
            out.extend([0, 0]);
            out.extend(u32::try_from(value.len()).unwrap().to_le_bytes());
        } else {
            out.extend(u16::try_from(value.len()).unwrap().to_le_bytes());
        }
        out.extend(value);
        out
    }

    /// A sequence of undefined length whose items are of undefined length.
    fn sequence(group: u16, elem: u16, items: &[Vec<u8>]) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend(group.to_le_bytes());
        out.extend(elem.to_le_bytes());
        out.extend(b"SQ\0\0");
        out.extend(UNDEFINED.to_le_bytes());
        for item in items {
            out.extend([0xfe, 0xff, 0x00, 0xe0]);
            out.extend(UNDEFINED.to_le_bytes());
            out.extend(item);
            out.extend([0xfe, 0xff, 0x0d, 0xe0, 0, 0, 0, 0]);
        }
        out.extend([0xfe, 0xff, 0xdd, 0xe0, 0, 0, 0, 0]);
        out
    }

    fn padded(text: &str) -> Vec<u8> {
        let mut v = text.as_bytes().to_vec();
        if v.len() % 2 == 1 {
            v.push(b' ');
        }
        v
    }

    fn channel(
        code: &str,
        meaning: &str,
        unit: &str,
        sensitivity: &str,
        baseline: &str,
    ) -> Vec<u8> {
        let source = [
            element(0x0008, 0x0100, "SH", &padded(code)),
            element(0x0008, 0x0104, "LO", &padded(meaning)),
        ]
        .concat();
        let units = element(0x0008, 0x0100, "SH", &padded(unit));
        [
            sequence(0x003a, 0x0208, &[source]),
            element(0x003a, 0x0210, "DS", &padded(sensitivity)),
            sequence(0x003a, 0x0211, &[units]),
            element(0x003a, 0x0212, "DS", &padded("2")),
            element(0x003a, 0x0213, "DS", &padded(baseline)),
        ]
        .concat()
    }

    /// A small DICOM ECG: a rhythm group of leads II and I (in that order) and a median group.
    pub(crate) fn sample() -> Vec<u8> {
        let samples: Vec<u8> = [10i16, -20, 30, 40, -50, 60]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        let group = |label: &str, originality: &str| {
            [
                element(0x003a, 0x0004, "CS", &padded(originality)),
                element(0x003a, 0x0005, "US", &2u16.to_le_bytes()),
                element(0x003a, 0x0010, "UL", &3u32.to_le_bytes()),
                element(0x003a, 0x001a, "DS", &padded("500")),
                element(0x003a, 0x0020, "SH", &padded(label)),
                sequence(
                    0x003a,
                    0x0200,
                    &[
                        channel("5.6.3-9-2", "Lead II", "uV", "2.5", "0"),
                        channel("", "Lead I (Einthoven)", "mV", "0.001", "0.5"),
                    ],
                ),
                element(0x5400, 0x1004, "US", &16u16.to_le_bytes()),
                element(0x5400, 0x1006, "CS", &padded("SS")),
                element(0x5400, 0x1010, "OW", &samples),
            ]
            .concat()
        };
        let concept = [element(0x0008, 0x0104, "LO", &padded("QRS Duration"))].concat();
        let ms = element(0x0008, 0x0100, "SH", &padded("ms"));
        let annotations = sequence(
            0x0040,
            0xb020,
            &[
                element(0x0070, 0x0006, "ST", &padded("SINUS RHYTHM")),
                [
                    sequence(0x0040, 0xa043, &[concept]),
                    sequence(0x0040, 0x08ea, &[ms]),
                    element(0x0040, 0xa30a, "DS", &padded("88")),
                ]
                .concat(),
            ],
        );
        let mut file = vec![0u8; 128];
        file.extend(b"DICM");
        file.extend(element(0x0002, 0x0010, "UI", &padded(EXPLICIT_LE)));
        file.extend(element(
            0x0008,
            0x0016,
            "UI",
            &padded("1.2.840.10008.5.1.4.1.1.9.1.1"),
        ));
        file.extend(element(0x0008, 0x002a, "DT", &padded("20130125105919")));
        file.extend(element(0x0008, 0x0070, "LO", &padded("Maker")));
        file.extend(annotations);
        file.extend(sequence(
            0x5400,
            0x0100,
            &[group("RHYTHM", "ORIGINAL"), group("MEDIAN BEAT", "DERIVED")],
        ));
        file
    }

    #[test]
    fn reads_channels_with_sensitivity_correction_and_baseline_in_standard_order() {
        let doc = read_document(&sample()).unwrap();
        let rec = &doc.rhythm;
        assert_eq!(rec.sampling_rate_hz, 500.0);
        let names: Vec<&str> = rec.channels.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["I", "II"]);
        // II: raw x 2.5 µV x 2, in mV; I: raw x 0.001 mV x 2 + 0.5 mV.
        let ii = &rec.channel("II").unwrap().samples;
        let i = &rec.channel("I").unwrap().samples;
        let close = |a: &[f64], b: &[f64]| a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-12);
        assert!(close(ii, &[0.05, 0.15, -0.25]), "{ii:?}");
        assert!(close(i, &[0.46, 0.58, 0.62]), "{i:?}");
        assert_eq!(rec.start.as_deref(), Some("2013-01-25T10:59:19"));
        assert_eq!(rec.metadata["multiplex_group"], "RHYTHM");
        let median = doc.median.unwrap();
        assert_eq!(median.metadata["multiplex_group"], "MEDIAN BEAT");
        let device = rec.device_interpretation.clone().unwrap();
        assert_eq!(device.source, "Maker");
        assert_eq!(device.statements, ["SINUS RHYTHM"]);
        assert_eq!(device.measurements[0].key, "qrs_ms");
        assert_eq!(device.measurements[0].value, 88.0);
        assert_eq!(device.measurements[0].unit, "ms");
    }

    #[test]
    fn broken_files_are_errors() {
        let file = sample();
        assert!(read(&file[..200]).is_err());
        assert!(read(&file[..file.len() - 3]).is_err());
        assert!(read(&[0u8; 64]).unwrap_err().to_string().contains("DICM"));
        // A huge claimed length is refused without allocating it.
        let mut huge = vec![0u8; 128];
        huge.extend(b"DICM");
        huge.extend(element(0x0002, 0x0010, "UI", &padded(EXPLICIT_LE)));
        huge.extend([
            0x00, 0x54, 0x10, 0x10, b'O', b'W', 0, 0, 0xf0, 0xff, 0xff, 0xff,
        ]);
        assert!(read(&huge)
            .unwrap_err()
            .to_string()
            .contains("past the end"));
        let big_endian = [
            vec![0u8; 128],
            b"DICM".to_vec(),
            element(0x0002, 0x0010, "UI", &padded("1.2.840.10008.1.2.2")),
        ]
        .concat();
        assert!(matches!(
            read(&big_endian),
            Err(FormatError::UnsupportedFeature { .. })
        ));
        // Nesting is bounded.
        let mut deep = [vec![0u8; 128], b"DICM".to_vec()].concat();
        for _ in 0..100 {
            deep.extend([
                0x00, 0x54, 0x00, 0x01, b'S', b'Q', 0, 0, 0xff, 0xff, 0xff, 0xff,
            ]);
            deep.extend([0xfe, 0xff, 0x00, 0xe0, 0xff, 0xff, 0xff, 0xff]);
        }
        assert!(read(&deep).unwrap_err().to_string().contains("nested"));
    }
}
