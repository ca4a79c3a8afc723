//! DICOM 12-lead ECG waveform, with its median beat.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = cardio_formats::dicom::read_document(data);
});
