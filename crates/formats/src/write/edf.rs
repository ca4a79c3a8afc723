//! EDF+ writer (Kemp and Olivan 2003): a continuous recording (`EDF+C` in the reserved field) with
//! one 16-bit signal per lead and the `EDF Annotations` signal that EDF+ requires, holding each data
//! record's time-keeping TAL (`+<onset>` followed by two 20s and a 0).
//!
//! Each lead's label is its name, its physical dimension its unit; the physical minimum and maximum
//! are the data's own with a 1% margin (printed in the header's 8 characters, rounded outward), the
//! digital range -32768..32767. Data records last 1 s when the rate is a whole number of Hz, else the
//! shortest whole number of seconds (up to 60) that holds a whole number of samples, else the whole
//! recording as one record. The last record is padded with zeros.
//!
//! EDF has no missing-value code, so samples that hold no value (NaN: a lead printed only for part
//! of the time) are written as 0 in physical units.

use super::{ascii, cannot_write, frames, sample};
use crate::{FormatError, Recording};

/// Bytes of the annotation signal in each record (two per sample).
const ANNOTATION_SAMPLES: usize = 32;

/// One lead's physical limits as printed in the header and as read back from that text.
struct Scale {
    pmin: f64,
    pmax: f64,
    pmin_text: String,
    pmax_text: String,
}

/// The bytes of `recording` as an EDF+ file.
///
/// # Errors
/// [`FormatError::CannotWrite`] when the rate is not positive, there are no channels, too many for
/// the header, or a value too large for the header's 8-character physical limits.
pub fn write(recording: &Recording) -> Result<Vec<u8>, FormatError> {
    let n = frames(recording, "the EDF file")?;
    let rate = recording.sampling_rate_hz;
    let leads = recording.channels.len();
    if leads + 1 > 9999 {
        return Err(cannot_write("the EDF file", "more than 9998 channels"));
    }
    let (duration, per_record) = record_layout(rate, n);
    let records = n.div_ceil(per_record).max(1);

    let mut scales = Vec::with_capacity(leads);
    for channel in &recording.channels {
        let (lo, hi) = channel
            .samples
            .iter()
            .map(|&v| if v.is_finite() { v } else { 0.0 })
            .fold((0.0f64, 0.0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
        let range = if hi > lo { hi - lo } else { 1.0 };
        let (pmin_text, pmin) = limit(lo - 0.01 * range, false)?;
        let (pmax_text, pmax) = limit(hi + 0.01 * range, true)?;
        scales.push(Scale {
            pmin,
            pmax,
            pmin_text,
            pmax_text,
        });
    }

    let ns = leads + 1;
    let mut out = Vec::with_capacity(
        256 * (ns + 1) + records * (2 * leads * per_record + 2 * ANNOTATION_SAMPLES),
    );
    let field = |out: &mut Vec<u8>, text: &str, width: usize| {
        let text = ascii(text);
        let bytes = text.as_bytes();
        let take = bytes.len().min(width);
        out.extend_from_slice(&bytes[..take]);
        out.extend(std::iter::repeat_n(b' ', width - take));
    };
    let (date, time, startdate) = start_fields(recording.start.as_deref());
    field(&mut out, "0", 8);
    field(&mut out, "X X X X", 80);
    field(&mut out, &format!("Startdate {startdate} X X X"), 80);
    field(&mut out, &date, 8);
    field(&mut out, &time, 8);
    field(&mut out, &(256 * (ns + 1)).to_string(), 8);
    field(&mut out, "EDF+C", 44);
    field(&mut out, &records.to_string(), 8);
    field(&mut out, &number(duration, 8)?, 8);
    field(&mut out, &ns.to_string(), 4);
    for channel in &recording.channels {
        field(&mut out, channel.name.trim(), 16);
    }
    field(&mut out, "EDF Annotations", 16);
    for _ in 0..ns {
        field(&mut out, "", 80);
    }
    for channel in &recording.channels {
        field(&mut out, channel.unit.trim(), 8);
    }
    field(&mut out, "", 8);
    for s in &scales {
        field(&mut out, &s.pmin_text, 8);
    }
    field(&mut out, "-1", 8);
    for s in &scales {
        field(&mut out, &s.pmax_text, 8);
    }
    field(&mut out, "1", 8);
    for _ in 0..ns {
        field(&mut out, "-32768", 8);
    }
    for _ in 0..ns {
        field(&mut out, "32767", 8);
    }
    for _ in 0..ns {
        field(&mut out, "", 80);
    }
    for _ in 0..leads {
        field(&mut out, &per_record.to_string(), 8);
    }
    field(&mut out, &ANNOTATION_SAMPLES.to_string(), 8);
    for _ in 0..ns {
        field(&mut out, "", 32);
    }

    for r in 0..records {
        for (channel, s) in recording.channels.iter().zip(&scales) {
            let step = (s.pmax - s.pmin) / 65535.0;
            for i in r * per_record..(r + 1) * per_record {
                let v = sample(&channel.samples, i);
                let v = if v.is_finite() { v } else { 0.0 };
                let d = ((v - s.pmin) / step - 32768.0)
                    .round()
                    .clamp(-32768.0, 32767.0) as i16;
                out.extend_from_slice(&d.to_le_bytes());
            }
        }
        let mut tal = format!("+{}\u{14}\u{14}\0", number(r as f64 * duration, 20)?).into_bytes();
        if tal.len() > 2 * ANNOTATION_SAMPLES {
            return Err(cannot_write("the EDF file", "the recording is too long"));
        }
        tal.resize(2 * ANNOTATION_SAMPLES, 0);
        out.extend_from_slice(&tal);
    }
    Ok(out)
}

/// The record duration in seconds and the samples per record at `rate` for `n` samples.
fn record_layout(rate: f64, n: usize) -> (f64, usize) {
    for seconds in 1..=60u32 {
        let samples = rate * f64::from(seconds);
        if (samples - samples.round()).abs() < 1e-9 * samples && samples.round() >= 1.0 {
            return (f64::from(seconds), samples.round() as usize);
        }
    }
    let n = n.max(1);
    (n as f64 / rate, n)
}

/// A physical limit as at most 8 characters, rounded outward (up for a maximum), and its value.
fn limit(value: f64, up: bool) -> Result<(String, f64), FormatError> {
    for decimals in (0..=6i32).rev() {
        let scale = 10f64.powi(decimals);
        let decimals = decimals.unsigned_abs() as usize;
        let rounded = if up {
            (value * scale).ceil() / scale
        } else {
            (value * scale).floor() / scale
        };
        let text = format!("{rounded:.decimals$}");
        if text.len() <= 8 {
            let parsed = text.parse::<f64>().unwrap_or(rounded);
            return Ok((text, parsed));
        }
    }
    Err(cannot_write(
        "the EDF file",
        format!("the value {value} does not fit the header's 8 characters"),
    ))
}

/// `value` with as many decimals as fit in `width` characters, trailing zeros dropped.
fn number(value: f64, width: usize) -> Result<String, FormatError> {
    for decimals in (0..=9usize).rev() {
        let mut text = format!("{value:.decimals$}");
        if text.contains('.') {
            text = text.trim_end_matches('0').trim_end_matches('.').to_string();
        }
        if text.len() <= width {
            return Ok(text);
        }
    }
    Err(cannot_write(
        "the EDF file",
        format!("the number {value} does not fit {width} characters"),
    ))
}

/// The header's `dd.mm.yy` and `hh.mm.ss`, and the recording field's `dd-MMM-yyyy` (or `X`), from
/// an ISO 8601 start; 01.01.85 00.00.00 when unknown (the EDF+ convention for an unknown date).
fn start_fields(start: Option<&str>) -> (String, String, String) {
    const MONTHS: [&str; 12] = [
        "JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC",
    ];
    let start = start.unwrap_or("");
    let (date, time) = match start.split_once('T') {
        Some((d, t)) => (Some(d), t),
        None => (None, start),
    };
    let hms: Vec<u32> = time
        .get(..8)
        .unwrap_or("")
        .split(':')
        .filter_map(|p| p.parse().ok())
        .collect();
    let time = match hms.as_slice() {
        [h, m, s] if *h < 24 && *m < 60 && *s < 61 => format!("{h:02}.{m:02}.{s:02}"),
        _ => "00.00.00".into(),
    };
    let ymd: Vec<u32> = date
        .unwrap_or("")
        .split('-')
        .filter_map(|p| p.parse().ok())
        .collect();
    match ymd.as_slice() {
        [y, m, d] if (1985..=2084).contains(y) && (1..=12).contains(m) && (1..=31).contains(d) => (
            format!("{d:02}.{m:02}.{:02}", y % 100),
            time,
            format!("{d:02}-{}-{y}", MONTHS[(*m - 1) as usize]),
        ),
        _ => ("01.01.85".into(), time, "X".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::recording;
    use super::*;
    use crate::ReadOptions;

    #[test]
    fn reads_back_within_one_step_with_nan_as_zero() {
        for (rate, unit, scale) in [
            (500.0, "uV", 1000.0),
            (360.0, "mV", 1.0),
            (128.5, "mV", 1.0),
        ] {
            let rec = recording(rate, 4.0, unit, scale);
            let bytes = write(&rec).unwrap();
            assert_eq!(&bytes[192..197], b"EDF+C");
            let back = crate::read_bytes(&bytes, Some("x.edf"), &ReadOptions::default()).unwrap();
            assert!(
                (back.sampling_rate_hz - rate).abs() < 1e-9,
                "{}",
                back.sampling_rate_hz
            );
            assert_eq!(back.start.as_deref(), Some("2021-03-04T05:06:07"));
            let names: Vec<_> = back.channels.iter().map(|c| c.name.as_str()).collect();
            assert_eq!(names, ["II", "aVR"]);
            for (a, b) in rec.channels.iter().zip(&back.channels) {
                assert_eq!(b.unit, unit.replace('µ', "u"));
                assert!(b.samples.len() >= a.samples.len());
                let step = 1.02 * 3.0 * scale / 65535.0;
                for (x, y) in a.samples.iter().zip(&b.samples) {
                    let x = if x.is_nan() { 0.0 } else { *x };
                    assert!((x - y).abs() <= step, "{x} {y}");
                }
            }
        }
    }

    #[test]
    fn record_layout_and_header_numbers() {
        assert_eq!(record_layout(500.0, 10), (1.0, 500));
        assert_eq!(record_layout(128.5, 10), (2.0, 257));
        assert_eq!(record_layout(1.0 / 3.0, 10), (3.0, 1));
        assert_eq!(limit(-1.234_567_89, false).unwrap().0, "-1.23457");
        assert_eq!(limit(1.234_567_89, true).unwrap().0, "1.234568");
        assert_eq!(number(2.5, 8).unwrap(), "2.5");
        assert_eq!(start_fields(Some("05:06:07")).1, "05.06.07");
        assert_eq!(start_fields(None).0, "01.01.85");
    }
}
