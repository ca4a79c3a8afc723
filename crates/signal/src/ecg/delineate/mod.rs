//! Beat delineation.
//!
//! - [`delineate`] ([`simple`]): QRS onset/offset and P-wave presence around given R peaks, one
//!   lead, slope thresholds (what the shipped models compute);
//! - [`WaveDelineator`] ([`waves`]): every wave (P, QRS, T: onset, peak, offset) of every lead of
//!   a multi-lead ECG with the wavelet transform ([`wavelet`]), and the global fiducials of each
//!   beat across leads ([`global_fiducials`]).

mod simple;
mod wavelet;
mod waves;

pub use simple::{delineate, Beat};
pub use waves::{
    global_fiducials, Delineation, GlobalFiducials, Thresholds, WaveDelineator, Waves, MAX_LEADS,
};
