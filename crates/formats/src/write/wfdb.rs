//! WFDB writer: one record as a header (`.hea`, PhysioNet `header(5)`) and one signal file
//! (`.dat`, `signal(5)` format 16: 16-bit little-endian two's complement, frames interleaved).
//!
//! One signal per lead. Voltages are stored in mV (µV and V converted), other units as they are.
//! Each signal's gain (ADC units per physical unit) is chosen so that its largest |value| maps to
//! about 30000, within int16 with margin; an integer when it is at least 1, else four significant
//! digits, so the header states it exactly. The baseline is 0, the description is the lead name,
//! the checksum and initial value are those of the samples written. NaN becomes WFDB's invalid
//! sample value, -32768.

use std::fmt::Write as _;

use super::{ascii, cannot_write, frames, sample, to_millivolts};
use crate::{FormatError, Recording};

/// The value the largest |sample| of a signal is stored as.
const FULL_SCALE: f64 = 30_000.0;
/// Format 16's invalid-sample code.
const INVALID: i16 = i16::MIN;

/// The header text and the `.dat` bytes of `recording` as record `record` (the header names the
/// signal file `<record>.dat`).
///
/// # Errors
/// [`FormatError::CannotWrite`] when the rate is not positive, there are no channels, or the record
/// name is empty or holds a space.
pub fn write(recording: &Recording, record: &str) -> Result<(String, Vec<u8>), FormatError> {
    let n = frames(recording, "the WFDB record")?;
    if record.is_empty() || record.contains(char::is_whitespace) {
        return Err(cannot_write(
            "the WFDB record",
            "the record name must be non-empty and without spaces",
        ));
    }
    let signals: Vec<(f64, String, f64)> = recording
        .channels
        .iter()
        .map(|c| match to_millivolts(&c.unit) {
            Some(factor) => (factor, "mV".to_string(), 0.0),
            None => (1.0, ascii(c.unit.trim()).replace(' ', "_"), 0.0),
        })
        .zip(&recording.channels)
        .map(|((factor, unit, _), c)| {
            let largest = c
                .samples
                .iter()
                .filter(|v| v.is_finite())
                .fold(0.0f64, |m, v| m.max((v * factor).abs()));
            (factor, unit, gain_for(largest))
        })
        .collect();
    let mut digital = vec![Vec::with_capacity(n); signals.len()];
    let mut data = Vec::with_capacity(2 * n * signals.len());
    for i in 0..n {
        for (s, (channel, (factor, _, gain))) in recording.channels.iter().zip(&signals).enumerate()
        {
            let v = sample(&channel.samples, i) * factor;
            let d = if v.is_finite() {
                (v * gain).round().clamp(-32767.0, 32767.0) as i16
            } else {
                INVALID
            };
            digital[s].push(d);
            data.extend_from_slice(&d.to_le_bytes());
        }
    }
    let mut header = format!(
        "{record} {} {} {n}",
        signals.len(),
        recording.sampling_rate_hz
    );
    if let Some(start) = recording.start.as_deref().and_then(start_fields) {
        header.push(' ');
        header.push_str(&start);
    }
    header.push('\n');
    for ((channel, (_, unit, gain)), values) in
        recording.channels.iter().zip(&signals).zip(&digital)
    {
        let checksum = values.iter().fold(0i16, |acc, &v| acc.wrapping_add(v));
        let initial = values.first().copied().unwrap_or(0);
        let units = if unit.is_empty() {
            String::new()
        } else {
            format!("/{unit}")
        };
        let _ = writeln!(
            header,
            "{record}.dat 16 {gain}(0){units} 16 0 {initial} {checksum} 0 {}",
            ascii(channel.name.trim())
        );
    }
    Ok((header, data))
}

/// ADC units per physical unit for a signal whose largest |value| is `largest`.
fn gain_for(largest: f64) -> f64 {
    if largest <= 0.0 || !largest.is_finite() {
        return 200.0;
    }
    let raw = FULL_SCALE / largest;
    if raw >= 1.0 {
        raw.floor()
    } else {
        // Four significant digits, rounded down, and read back from their decimal text so that
        // the header's `{}` prints exactly those digits.
        let decimals = (3 - raw.log10().floor() as i32).clamp(0, 300);
        let magnitude = 10f64.powi(-decimals);
        let floored = (raw / magnitude).floor() * magnitude;
        let text = format!("{:.*}", decimals as usize, floored);
        text.parse::<f64>().ok().filter(|g| *g > 0.0).unwrap_or(raw)
    }
}

/// `HH:MM:SS DD/MM/YYYY` (or only the time) from an ISO 8601 start.
fn start_fields(start: &str) -> Option<String> {
    let (date, time) = match start.split_once('T') {
        Some((d, t)) => (Some(d), t),
        None if start.contains(':') => (None, start),
        None => return None,
    };
    let time: String = time
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == ':' || *c == '.')
        .collect();
    if time.split(':').count() != 3 {
        return None;
    }
    match date.map(|d| d.split('-').collect::<Vec<_>>()) {
        Some(parts) if parts.len() == 3 => {
            Some(format!("{time} {}/{}/{}", parts[2], parts[1], parts[0]))
        }
        Some(_) => None,
        None => Some(time),
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{recording, temp_dir};
    use super::*;

    #[test]
    fn reads_back_within_one_step_with_nan_as_invalid() {
        for (rate, unit, scale) in [
            (500.0, "uV", 1000.0),
            (360.0, "mV", 1.0),
            (128.5, "V", 1e-3),
        ] {
            let rec = recording(rate, 4.0, unit, scale);
            let dir = temp_dir(&format!("wfdb{}", rate as u32));
            let (header, data) = write(&rec, "rec").unwrap();
            std::fs::write(dir.join("rec.hea"), &header).unwrap();
            std::fs::write(dir.join("rec.dat"), &data).unwrap();
            let back = crate::read_path(&dir.join("rec.hea")).unwrap();
            assert!(!back.metadata.contains_key("checksum_mismatch"), "{header}");
            assert_eq!(back.sampling_rate_hz, rate);
            assert_eq!(back.start.as_deref(), Some("2021-03-04T05:06:07"));
            let names: Vec<_> = back.channels.iter().map(|c| c.name.as_str()).collect();
            assert_eq!(names, ["II", "aVR"]);
            let factor = to_millivolts(unit).unwrap();
            for (a, b) in rec.channels.iter().zip(&back.channels) {
                assert_eq!(b.unit, "mV");
                assert_eq!(a.samples.len(), b.samples.len());
                let step = 1.5 / FULL_SCALE;
                for (x, y) in a.samples.iter().zip(&b.samples) {
                    if x.is_nan() {
                        assert!(y.is_nan());
                    } else {
                        assert!((x * factor - y).abs() <= step, "{x} {y}");
                    }
                }
            }
            std::fs::remove_dir_all(&dir).unwrap();
        }
    }

    #[test]
    fn gains_fit_int16_and_records_need_a_name() {
        assert_eq!(gain_for(3.0), 10_000.0);
        assert_eq!(gain_for(0.0), 200.0);
        let g = gain_for(1e6);
        assert!(g * 1e6 <= 32767.0 && g * 1e6 > 29_000.0, "{g}");
        let rec = recording(100.0, 1.0, "mV", 1.0);
        assert!(write(&rec, "a b").is_err());
        assert_eq!(start_fields("05:06:07").as_deref(), Some("05:06:07"));
    }
}
