//! CSV writer: a header line `time_s,<lead>,<lead>...`, then one row per sample (RFC 4180; names
//! holding a comma or a quote are quoted). Voltages are written in mV (µV and V converted), other
//! units as they are; a cell is left empty where its lead holds no value (NaN: a lead printed only
//! for part of the time). The time column has enough decimals to give the rate back exactly: as
//! many as the sample step needs when it is a short decimal (3 at 500 Hz), else three more than the
//! rate's digits.

use std::fmt::Write as _;

use super::{frames, sample, to_millivolts};
use crate::{FormatError, Recording};

/// The CSV text of `recording`.
///
/// # Errors
/// [`FormatError::CannotWrite`] when the rate is not positive or there are no channels.
pub fn write(recording: &Recording) -> Result<String, FormatError> {
    let n = frames(recording, "the CSV")?;
    let rate = recording.sampling_rate_hz;
    let decimals = time_decimals(rate);
    let factors: Vec<f64> = recording
        .channels
        .iter()
        .map(|c| to_millivolts(&c.unit).unwrap_or(1.0))
        .collect();
    let mut out = String::with_capacity(16 * (n + 1) * (recording.channels.len() + 1));
    out.push_str("time_s");
    for channel in &recording.channels {
        out.push(',');
        out.push_str(&quoted(channel.name.trim()));
    }
    out.push('\n');
    for i in 0..n {
        let _ = write!(out, "{:.*}", decimals, i as f64 / rate);
        for (channel, &factor) in recording.channels.iter().zip(&factors) {
            out.push(',');
            let v = sample(&channel.samples, i);
            if v.is_finite() {
                let mv = if factor == 1e-3 {
                    v / 1000.0
                } else {
                    v * factor
                };
                let _ = write!(out, "{mv}");
            }
        }
        out.push('\n');
    }
    Ok(out)
}

/// Decimals of the time column at `rate` Hz.
fn time_decimals(rate: f64) -> usize {
    let step = 1.0 / rate;
    for d in 0..=9 {
        let scaled = step * 10f64.powi(d);
        if (scaled - scaled.round()).abs() < 1e-9 * scaled.max(1.0) {
            return d as usize;
        }
    }
    (rate.log10().ceil().max(0.0) as usize + 3).min(12)
}

fn quoted(name: &str) -> String {
    if name.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", name.replace('"', "\"\""))
    } else {
        name.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::recording;
    use super::*;
    use crate::ReadOptions;

    #[test]
    fn reads_back_with_names_rate_mv_and_empty_cells() {
        for (rate, unit, scale) in [
            (500.0, "uV", 1000.0),
            (360.0, "mV", 1.0),
            (257.0, "V", 1e-3),
        ] {
            let rec = recording(rate, 3.0, unit, scale);
            let text = write(&rec).unwrap();
            assert!(text.starts_with("time_s,II,aVR\n"), "{}", &text[..40]);
            let back =
                crate::read_bytes(text.as_bytes(), Some("x.csv"), &ReadOptions::default()).unwrap();
            assert!(
                (back.sampling_rate_hz - rate).abs() < 1e-6,
                "{rate}: {}",
                back.sampling_rate_hz
            );
            let names: Vec<_> = back.channels.iter().map(|c| c.name.as_str()).collect();
            assert_eq!(names, ["II", "aVR"]);
            let factor = to_millivolts(unit).unwrap();
            for (a, b) in rec.channels.iter().zip(&back.channels) {
                assert_eq!(a.samples.len(), b.samples.len());
                for (x, y) in a.samples.iter().zip(&b.samples) {
                    if x.is_nan() {
                        assert!(y.is_nan());
                    } else {
                        assert!((x * factor - y).abs() < 1e-9, "{x} {y}");
                    }
                }
            }
        }
    }

    #[test]
    fn time_decimals_follow_the_step() {
        assert_eq!(time_decimals(500.0), 3);
        assert_eq!(time_decimals(250.0), 3);
        assert_eq!(time_decimals(1000.0), 3);
        assert_eq!(time_decimals(1.0), 0);
        assert_eq!(time_decimals(360.0), 6);
        assert_eq!(quoted("a,b"), "\"a,b\"");
    }
}
