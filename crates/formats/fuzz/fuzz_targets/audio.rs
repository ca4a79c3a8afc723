//! WAV, FLAC, MP3 and OGG through symphonia; the first byte picks the container hint.
#![no_main]

use cardio_formats::{audio, Format};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((first, rest)) = data.split_first() else {
        return;
    };
    let format = [Format::Wav, Format::Flac, Format::Mp3, Format::Ogg][usize::from(*first) % 4];
    let _ = audio::read(rest, format);
});
