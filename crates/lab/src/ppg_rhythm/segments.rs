//! The labelled segments as the model sees them: each 10-s segment through the predict path's
//! window analysis ([`cardio_models::ppg_rhythm::window::analyse_segment`]) and the waveform
//! network's input ([`network::prepare`]), at its own 100 Hz and, for the camera check, resampled
//! to 30 Hz.

use cardio_models::ppg_rhythm::classifier::Rhythm;
use cardio_models::ppg_rhythm::network;
use cardio_signal::resample::Resampler;

use super::liu2022::{Segment, RATE_HZ};

/// The camera rate of the check, Hz.
pub const CAMERA_RATE_HZ: f64 = 30.0;

/// One segment's feature rows.
#[derive(Debug, Clone)]
pub struct Row {
    /// The patient.
    pub patient: String,
    /// The rhythm.
    pub rhythm: Rhythm,
    /// The feature row at 100 Hz; `None` when the window is too noisy or has too few pulses.
    pub features: Option<Vec<f64>>,
    /// The feature row of the segment resampled to [`CAMERA_RATE_HZ`].
    pub camera: Option<Vec<f64>>,
    /// The waveform network's input from the segment ([`network::prepare`]).
    pub wave: Option<Vec<f32>>,
    /// The waveform network's input from the segment resampled to [`CAMERA_RATE_HZ`].
    pub wave_camera: Option<Vec<f32>>,
}

/// The rows of every segment (two threads).
pub fn rows(segments: &[Segment]) -> Vec<Row> {
    let to_camera = Resampler::between(RATE_HZ, CAMERA_RATE_HZ).ok();
    // The network's resamplers, planned once for all segments.
    let to_network = Resampler::between(RATE_HZ, network::RATE_HZ).ok();
    let camera_to_network = Resampler::between(CAMERA_RATE_HZ, network::RATE_HZ).ok();
    let one = |s: &Segment| {
        let features = cardio_models::ppg_rhythm::window::analyse_segment(&s.samples, RATE_HZ)
            .ok()
            .and_then(|w| w.features);
        let at_camera = to_camera.as_ref().map(|r| r.process(&s.samples));
        let camera = at_camera.as_ref().and_then(|x| {
            cardio_models::ppg_rhythm::window::analyse_segment(x, CAMERA_RATE_HZ)
                .ok()
                .and_then(|w| w.features)
        });
        let wave_of = |x: &[f64], r: &Option<Resampler>| {
            r.as_ref().and_then(|r| network::prepare(&r.process(x)))
        };
        Row {
            patient: s.patient.clone(),
            rhythm: s.rhythm,
            features,
            camera,
            wave: wave_of(&s.samples, &to_network),
            wave_camera: at_camera.and_then(|x| wave_of(&x, &camera_to_network)),
        }
    };
    let half = segments.len() / 2;
    let (a, b) = std::thread::scope(|sc| {
        let h = sc.spawn(|| segments[..half].iter().map(one).collect::<Vec<_>>());
        let b: Vec<Row> = segments[half..].iter().map(one).collect();
        (h.join(), b)
    });
    let mut out = a.unwrap_or_default();
    out.extend(b);
    out
}
