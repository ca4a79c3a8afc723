//! The accelerometer channels recorded beside a pulse (wrist devices, the IEEE SPC 2015 files),
//! found by name or chosen by the user, and the motion-compensated heart rate of a PPG with them
//! (`cardio_signal::motion`, TROIKA-like spectral tracking with the accelerometer as noise
//! reference).
//!
//! Names recognised (case, spaces, `_`, `-` and brackets ignored): `accx`, `accelx`,
//! `accelerometerx`, `ax`, and the same with the axis first (`xacc`), for the axes x, y and z.
//!
//! ```
//! use cardio_formats::{Channel, Recording};
//! use cardio_models::accel::find_axes;
//!
//! let ch = |n: &str| Channel { name: n.into(), unit: String::new(), samples: vec![0.0; 4] };
//! let rec = Recording {
//!     channels: vec![ch("ppg"), ch("acc_x"), ch("accY"), ch("AZ")],
//!     sampling_rate_hz: 25.0,
//!     start: None,
//!     metadata: Default::default(),
//!     device_interpretation: None,
//! };
//! assert_eq!(find_axes(&rec), vec![1, 2, 3]);
//! ```

use cardio_formats::Recording;
use cardio_signal::motion::{self, TrackerSettings};
use cardio_signal::{SamplingRate, SignalError};

/// Window of the motion-compensated heart rate, seconds (as the IEEE SPC 2015).
pub const WINDOW_S: f64 = 8.0;
/// Step of the motion-compensated heart rate, seconds.
pub const STEP_S: f64 = 2.0;

fn squashed(name: &str) -> String {
    name.chars()
        .filter(char::is_ascii_alphanumeric)
        .collect::<String>()
        .to_ascii_lowercase()
}

/// The axis (`'x'`, `'y'` or `'z'`) a channel name gives, if it names an accelerometer axis.
pub fn axis_of(name: &str) -> Option<char> {
    let s = squashed(name);
    for stem in ["accelerometer", "accel", "acc", "a"] {
        for axis in ['x', 'y', 'z'] {
            if s == format!("{stem}{axis}") || (stem != "a" && s == format!("{axis}{stem}")) {
                return Some(axis);
            }
        }
    }
    None
}

/// Indices of the accelerometer channels of a recording, in x, y, z order (each axis once, the first
/// channel naming it); empty when none is named like one.
pub fn find_axes(rec: &Recording) -> Vec<usize> {
    ['x', 'y', 'z']
        .into_iter()
        .filter_map(|axis| {
            rec.channels
                .iter()
                .position(|c| axis_of(&c.name) == Some(axis))
        })
        .collect()
}

/// The motion-compensated heart rate, 8-s windows every 2 s, of the PPG `ppg` with the
/// accelerometer channels `axes` of `rec` (the product's [`TrackerSettings::default`]), with
/// what the tracker checked of it ([`motion::Track::unconfirmed`]: the rate follows the arm).
///
/// # Errors
/// As `cardio_signal::motion::WindowSpectra::compute` (a non-finite sample, an invalid rate).
pub fn heart_rate(
    rec: &Recording,
    ppg: &[f64],
    axes: &[usize],
    window_s: f64,
    step_s: f64,
) -> Result<motion::Track, SignalError> {
    let fs = SamplingRate::new(rec.sampling_rate_hz)?;
    let acc: Vec<&[f64]> = axes
        .iter()
        .filter_map(|&i| rec.channels.get(i).map(|c| c.samples.as_slice()))
        .collect();
    Ok(
        motion::WindowSpectra::compute(&[ppg], &acc, fs, window_s, step_s)?
            .follow_checked(&TrackerSettings::default()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axis_names_are_recognised_and_others_are_not() {
        for (name, axis) in [
            ("acc_x", Some('x')),
            ("accY", Some('y')),
            ("ACC Z", Some('z')),
            ("ax", Some('x')),
            ("accel-y", Some('y')),
            ("Accelerometer[z]", Some('z')),
            ("x_acc", Some('x')),
            ("ACC_X", Some('x')),
            ("axis", None),
            ("ppg", None),
            ("acc", None),
            ("xa", None),
            ("max", None),
        ] {
            assert_eq!(axis_of(name), axis, "{name}");
        }
    }
}
