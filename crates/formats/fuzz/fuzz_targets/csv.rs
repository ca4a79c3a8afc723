//! Delimited text.
#![no_main]

use cardio_formats::{csv, ReadOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = csv::read(data, &ReadOptions::default());
    let _ = csv::read(
        data,
        &ReadOptions {
            sampling_rate_hz: Some(125.0),
        },
    );
});
