//! Vector ECG PDF (structure, content streams, fonts, the trace analysis).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = cardio_formats::pdf::read(data);
});
