//! GE MUSE XML (`<RestingECG>`), with its median beats.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = cardio_formats::muse::read_document(data);
});
