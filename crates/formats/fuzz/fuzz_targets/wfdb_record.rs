//! A WFDB header and its signal file, split at the first NUL byte.
#![no_main]

use cardio_formats::wfdb;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let split = data.iter().position(|&b| b == 0).unwrap_or(data.len());
    let (header, signal) = data.split_at(split);
    let _ = wfdb::read_record(header, |_| Ok(signal.to_vec()));
});
