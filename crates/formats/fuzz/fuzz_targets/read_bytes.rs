//! Any bytes, any name hint: detection and every reader behind `read_bytes`.
#![no_main]

use cardio_formats::{read_bytes, ReadOptions};
use libfuzzer_sys::fuzz_target;

const NAMES: [&str; 9] = [
    "x.hea", "x.atr", "x.mat", "x.edf", "x.csv", "x.wav", "x.mp3", "x.ecg", "x",
];

fuzz_target!(|data: &[u8]| {
    let (name, bytes) = match data.split_first() {
        Some((first, rest)) => (NAMES[usize::from(*first) % NAMES.len()], rest),
        None => ("x", data),
    };
    let _ = read_bytes(
        bytes,
        Some(name),
        &ReadOptions {
            sampling_rate_hz: Some(250.0),
        },
    );
});
