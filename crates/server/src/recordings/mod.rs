//! Recordings: predictions from uploads and devices, the models that serve them, decoding and waveform windows.

pub mod beat_classes;
pub mod decode;
pub mod devices;
pub mod ecg12_marks;
pub mod models;
pub mod predict;
pub mod registry;
pub mod stored;
pub mod waveforms;
