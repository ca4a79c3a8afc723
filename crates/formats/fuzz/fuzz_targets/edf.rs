//! EDF, EDF+ and BDF.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = cardio_formats::edf::read(data);
});
