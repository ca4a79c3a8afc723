//! MATLAB level 4 and level 5 files.
#![no_main]

use cardio_formats::{mat, ReadOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = mat::read_matrices(data);
    let _ = mat::read_recording(
        data,
        &ReadOptions {
            sampling_rate_hz: Some(300.0),
        },
    );
});
