//! Signal analysis of a whole recording: pick the channel, run the modality's pipeline from
//! `cardio-signal`, and report beats, heart rate, HRV, quality and (optionally) a windowed
//! heart-rate series. This is what `cardio analyze` prints and what the models' features start from.

use cardio_formats::{Channel, Recording};
use cardio_signal::{ecg, hrv, pcg, ppg, quality::Quality, stats, SamplingRate, SignalError};

/// Mains frequency to notch out of an ECG (re-exported for callers that do not use the signal crate).
pub use cardio_signal::ecg::Powerline;
use serde::Serialize;

/// Which kind of signal a channel holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// Electrocardiogram.
    Ecg,
    /// Photoplethysmogram.
    Ppg,
    /// Phonocardiogram.
    Pcg,
}

impl std::str::FromStr for Kind {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "ecg" => Ok(Self::Ecg),
            "ppg" => Ok(Self::Ppg),
            "pcg" => Ok(Self::Pcg),
            other => Err(format!("unknown kind {other:?}: use ecg, ppg or pcg")),
        }
    }
}

/// A channel chosen by position or by name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChannelChoice {
    /// Zero-based index.
    Index(usize),
    /// Name, compared trimmed and case-insensitively.
    Name(String),
}

impl std::str::FromStr for ChannelChoice {
    type Err = std::convert::Infallible;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(s.trim()
            .parse()
            .map_or_else(|_| Self::Name(s.trim().to_owned()), Self::Index))
    }
}

/// Options of an analysis.
#[derive(Debug, Clone, Default)]
pub struct AnalyzeOptions {
    /// The kind; inferred from the recording when `None`.
    pub kind: Option<Kind>,
    /// The channel; chosen by kind when `None` (ECG: lead II, MLII, I, else the first).
    pub channel: Option<ChannelChoice>,
    /// Mains frequency to notch out of ECG (default 50 Hz).
    pub powerline: Option<ecg::Powerline>,
    /// Heart-rate series window and step, seconds.
    pub hr_window: Option<(f64, f64)>,
    /// PPG: the accelerometer channels recorded with the pulse; found by name
    /// ([`crate::accel::find_axes`]) when `None`. With them the heart rate and its series are
    /// motion-compensated ([`crate::accel`]).
    pub accel: Option<Vec<ChannelChoice>>,
}

/// Why a recording could not be analysed.
#[derive(Debug, thiserror::Error)]
pub enum AnalysisError {
    /// The recording has no channel.
    #[error("the recording has no channels")]
    NoChannels,
    /// The chosen channel does not exist.
    #[error("no channel {0} in the recording (channels: {1})")]
    NoSuchChannel(String, String),
    /// The signal methods refused the input.
    #[error(transparent)]
    Signal(#[from] SignalError),
}

/// Heart-rate variability of the beat-to-beat intervals; absent parts need more beats.
#[derive(Debug, Clone, Default, Serialize)]
pub struct HrvReport {
    /// Number of beat-to-beat intervals used.
    pub intervals: usize,
    /// Mean NN, ms.
    pub mean_nn_ms: Option<f64>,
    /// SDNN, ms.
    pub sdnn_ms: Option<f64>,
    /// RMSSD, ms.
    pub rmssd_ms: Option<f64>,
    /// pNN50, percent.
    pub pnn50: Option<f64>,
    /// LF power (0.04-0.15 Hz), ms².
    pub lf_ms2: Option<f64>,
    /// HF power (0.15-0.4 Hz), ms².
    pub hf_ms2: Option<f64>,
    /// LF/HF.
    pub lf_hf: Option<f64>,
    /// Poincaré SD1, ms.
    pub sd1_ms: Option<f64>,
    /// Poincaré SD2, ms.
    pub sd2_ms: Option<f64>,
    /// Sample entropy (m = 2, r = 0.2 SD).
    pub sample_entropy: Option<f64>,
    /// Coefficient of variation of the intervals.
    pub cv: Option<f64>,
    /// RMSSD / mean NN.
    pub normalized_rmssd: Option<f64>,
    /// Turning-point ratio.
    pub turning_point_ratio: Option<f64>,
}

/// One window of the heart-rate series.
#[derive(Debug, Clone, Serialize)]
pub struct HrPoint {
    /// Seconds.
    pub start_s: f64,
    /// Seconds.
    pub end_s: f64,
    /// `None` where the window is unusable.
    pub bpm: Option<f64>,
}

/// Quality as reported.
#[derive(Debug, Clone, Serialize)]
pub struct QualityReport {
    /// 0 (unusable) to 1 (clean).
    pub score: f64,
    /// Good enough to analyse.
    pub usable: bool,
    /// Why, in a sentence.
    pub reason: String,
}

impl From<Quality> for QualityReport {
    fn from(q: Quality) -> Self {
        Self {
            score: q.score,
            usable: q.usable,
            reason: q.reason,
        }
    }
}

/// The result of analysing one channel.
#[derive(Debug, Clone, Serialize)]
pub struct Analysis {
    /// The kind analysed.
    pub kind: Kind,
    /// The channel's name (trimmed).
    pub channel: String,
    /// Samples per second.
    pub sampling_rate_hz: f64,
    /// Seconds.
    pub duration_s: f64,
    /// Beat times, seconds from the start: R peaks (ECG), systolic peaks (PPG), S1 (PCG).
    pub beats_s: Vec<f64>,
    /// Mean heart rate, bpm.
    pub heart_rate_bpm: Option<f64>,
    /// Variability of the beat intervals.
    pub hrv: HrvReport,
    /// Signal quality.
    pub quality: QualityReport,
    /// PCG: S1 times, seconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub s1_s: Option<Vec<f64>>,
    /// PCG: S2 times, seconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub s2_s: Option<Vec<f64>>,
    /// ECG: median QRS width, seconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub qrs_width_s: Option<f64>,
    /// ECG: share of beats with a P wave, 0-1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub p_wave_fraction: Option<f64>,
    /// Windowed heart rate, when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hr_series: Option<Vec<HrPoint>>,
    /// PPG: the accelerometer channels whose motion was taken out of the heart rate (names,
    /// trimmed); absent without them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub accel_channels: Option<Vec<String>>,
    /// ECG with channels named as standard leads: every lead read, with every beat's fiducials
    /// in seconds (`p_on, p_peak, p_off, qrs_on, r_peak, qrs_off, t_on, t_peak, t_off`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub leads: Option<Vec<crate::ecg12::LeadBeats>>,
    /// ECG with standard leads: the record's measurements from the median beat.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub measurements: Option<serde_json::Map<String, serde_json::Value>>,
    /// ECG with three standard leads or more: the interpretation statements (a computer
    /// interpretation, unconfirmed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub statements: Option<Vec<crate::ecg12::Statement>>,
    /// ECG with standard leads: what the leads could not give, and why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_measured: Option<Vec<String>>,
}

/// Guesses the kind of a recording: audio is PCG, a pleth/PPG channel is PPG, anything else ECG.
pub fn infer_kind(recording: &Recording) -> Kind {
    let format = recording
        .metadata
        .get("format")
        .map(|f| f.to_ascii_lowercase())
        .unwrap_or_default();
    if ["wav", "flac", "mp3", "ogg", "vorbis", "audio"]
        .iter()
        .any(|a| format.contains(a))
    {
        return Kind::Pcg;
    }
    let names: Vec<String> = recording
        .channels
        .iter()
        .map(|c| c.name.trim().to_ascii_lowercase())
        .collect();
    let is_ppg = |n: &str| n.contains("pleth") || n.contains("ppg") || n == "pulse";
    let is_ecg = |n: &str| {
        n.contains("ecg")
            || n.contains("ekg")
            || [
                "i", "ii", "iii", "mlii", "avr", "avl", "avf", "v", "v1", "v2", "v3", "v4", "v5",
                "v6",
            ]
            .contains(&n)
    };
    if names.iter().any(|n| is_ppg(n)) && !names.iter().any(|n| is_ecg(n)) {
        Kind::Ppg
    } else {
        Kind::Ecg
    }
}

/// The accelerometer channels of a PPG analysis: the chosen ones, else those named like axes.
fn pick_accel(
    recording: &Recording,
    choice: Option<&[ChannelChoice]>,
) -> Result<Vec<usize>, AnalysisError> {
    let Some(choice) = choice else {
        return Ok(crate::accel::find_axes(recording));
    };
    choice
        .iter()
        .map(|c| {
            let chosen = pick_channel(recording, Kind::Ppg, Some(c))?;
            Ok(recording
                .channels
                .iter()
                .position(|x| std::ptr::eq(x, chosen))
                .unwrap_or(0))
        })
        .collect()
}

fn pick_channel<'a>(
    recording: &'a Recording,
    kind: Kind,
    choice: Option<&ChannelChoice>,
) -> Result<&'a Channel, AnalysisError> {
    if recording.channels.is_empty() {
        return Err(AnalysisError::NoChannels);
    }
    let names = || {
        recording
            .channels
            .iter()
            .enumerate()
            .map(|(i, c)| format!("{i}: {}", c.name.trim()))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match choice {
        Some(ChannelChoice::Index(i)) => recording
            .channels
            .get(*i)
            .ok_or_else(|| AnalysisError::NoSuchChannel(i.to_string(), names())),
        Some(ChannelChoice::Name(name)) => recording
            .channel(name)
            .ok_or_else(|| AnalysisError::NoSuchChannel(format!("{name:?}"), names())),
        None => {
            let preferred: &[&str] = match kind {
                Kind::Ecg => &["II", "MLII", "ECG", "I", "V", "V5"],
                Kind::Ppg => &["PLETH", "PPG", "PULSE"],
                Kind::Pcg => &["mono", "PCG"],
            };
            Ok(preferred
                .iter()
                .find_map(|name| recording.channel(name))
                .unwrap_or(&recording.channels[0]))
        }
    }
}

fn hrv_report(rr_ms: &[f64]) -> HrvReport {
    let mut report = HrvReport {
        intervals: rr_ms.len(),
        ..HrvReport::default()
    };
    if let Ok(t) = hrv::time_domain(rr_ms) {
        report.mean_nn_ms = Some(t.mean_nn_ms);
        report.sdnn_ms = Some(t.sdnn_ms);
        report.rmssd_ms = Some(t.rmssd_ms);
        report.pnn50 = Some(t.pnn50);
    }
    if let Ok(f) = hrv::frequency_domain(rr_ms) {
        report.lf_ms2 = Some(f.lf_ms2);
        report.hf_ms2 = Some(f.hf_ms2);
        report.lf_hf = Some(f.lf_hf).filter(|v| v.is_finite());
    }
    if let Ok(n) = hrv::non_linear(rr_ms) {
        report.sd1_ms = Some(n.sd1_ms);
        report.sd2_ms = Some(n.sd2_ms);
        report.sample_entropy = Some(n.sample_entropy).filter(|v| v.is_finite());
    }
    if let Ok(i) = hrv::irregularity(rr_ms) {
        report.cv = Some(i.cv);
        report.normalized_rmssd = Some(i.normalized_rmssd);
        report.turning_point_ratio = Some(i.turning_point_ratio);
    }
    report
}

fn intervals_ms(times_s: &[f64]) -> Vec<f64> {
    times_s.windows(2).map(|w| (w[1] - w[0]) * 1000.0).collect()
}

fn median(values: &[f64]) -> Option<f64> {
    stats::median_upper(values)
}

/// Analyses one channel of a recording.
///
/// # Errors
/// [`AnalysisError`] when the channel does not exist or the signal cannot be processed (too short,
/// non-finite samples, an invalid rate).
pub fn analyze(recording: &Recording, options: &AnalyzeOptions) -> Result<Analysis, AnalysisError> {
    let kind = options.kind.unwrap_or_else(|| infer_kind(recording));
    let channel = pick_channel(recording, kind, options.channel.as_ref())?;
    let fs = SamplingRate::new(recording.sampling_rate_hz)?;
    let x = &channel.samples;
    let duration_s = x.len() as f64 / fs.hz();
    let mut analysis = Analysis {
        kind,
        channel: channel.name.trim().to_owned(),
        sampling_rate_hz: fs.hz(),
        duration_s,
        beats_s: Vec::new(),
        heart_rate_bpm: None,
        hrv: HrvReport::default(),
        quality: QualityReport {
            score: 0.0,
            usable: false,
            reason: String::new(),
        },
        s1_s: None,
        s2_s: None,
        qrs_width_s: None,
        p_wave_fraction: None,
        hr_series: None,
        accel_channels: None,
        leads: None,
        measurements: None,
        statements: None,
        not_measured: None,
    };
    let mut motion_series = None;
    match kind {
        Kind::Ecg => {
            let powerline = options.powerline.unwrap_or(ecg::Powerline::Hz50);
            let result = ecg::analyze(x, fs, powerline)?;
            analysis.beats_s = result.r_peaks.iter().map(|&i| i as f64 / fs.hz()).collect();
            analysis.heart_rate_bpm = result.heart_rate_bpm;
            analysis.quality = result.quality.into();
            analysis.qrs_width_s = median(
                &result
                    .beats
                    .iter()
                    .map(|b| b.qrs_width_s)
                    .collect::<Vec<_>>(),
            );
            if !result.beats.is_empty() {
                let with_p = result.beats.iter().filter(|b| b.p_wave).count();
                analysis.p_wave_fraction = Some(with_p as f64 / result.beats.len() as f64);
            }
            if let Ok(e) = crate::ecg12::analyze(recording, None) {
                let multi = e.leads_used.len() >= crate::ecg12::report::MIN_VERDICT_LEADS;
                analysis.measurements = Some(crate::ecg12::measurement_keys(&e));
                analysis.statements = Some(if multi {
                    e.statements.clone()
                } else {
                    Vec::new()
                });
                let mut notes = e.not_measured.clone();
                if !multi {
                    notes.push(crate::ecg12::report::FEW_LEADS.into());
                }
                analysis.not_measured = Some(notes);
                analysis.leads = Some(e.lead_beats);
            }
        }
        Kind::Ppg => {
            let result = ppg::analyze(x, fs)?;
            analysis.beats_s = result.peak_times_s;
            analysis.heart_rate_bpm = result.heart_rate_bpm;
            analysis.quality = result.quality.into();
            let axes = pick_accel(recording, options.accel.as_deref())?;
            if !axes.is_empty() {
                let (window_s, step_s) = options
                    .hr_window
                    .unwrap_or((crate::accel::WINDOW_S, crate::accel::STEP_S));
                let track = crate::accel::heart_rate(recording, x, &axes, window_s, step_s)?;
                if track.unconfirmed() {
                    // The track stays on the arm's rhythm: no rate rather than the arm's.
                    analysis.heart_rate_bpm = None;
                    motion_series = Some(
                        track
                            .windows
                            .into_iter()
                            .map(|w| ppg::HrWindow { bpm: None, ..w })
                            .collect(),
                    );
                } else {
                    let rates: Vec<f64> = track.windows.iter().filter_map(|w| w.bpm).collect();
                    if let Some(m) = median(&rates) {
                        analysis.heart_rate_bpm = Some(m);
                        motion_series = Some(track.windows);
                    }
                }
                analysis.accel_channels = Some(
                    axes.iter()
                        .map(|&i| recording.channels[i].name.trim().to_owned())
                        .collect(),
                );
            }
        }
        Kind::Pcg => {
            let result = pcg::segment(x, fs)?;
            analysis.beats_s.clone_from(&result.s1_s);
            analysis.heart_rate_bpm = result.heart_rate_bpm;
            analysis.quality = result.quality.into();
            analysis.s1_s = Some(result.s1_s);
            analysis.s2_s = Some(result.s2_s);
        }
    }
    analysis.hrv = hrv_report(&intervals_ms(&analysis.beats_s));
    if let Some((window_s, step_s)) = options.hr_window {
        let windows = motion_series.unwrap_or_else(|| {
            ppg::heart_rate_windows(&analysis.beats_s, duration_s, window_s, step_s)
        });
        analysis.hr_series = Some(
            windows
                .into_iter()
                .map(|w| HrPoint {
                    start_s: w.start_s,
                    end_s: w.end_s,
                    bpm: w.bpm,
                })
                .collect(),
        );
    }
    Ok(analysis)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn recording(name: &str, samples: Vec<f64>, fs: f64) -> Recording {
        Recording {
            channels: vec![Channel {
                name: name.into(),
                unit: "mV".into(),
                samples,
            }],
            sampling_rate_hz: fs,
            start: None,
            metadata: BTreeMap::new(),
            device_interpretation: None,
        }
    }

    /// Gaussian "R waves" every `period_s` seconds.
    fn spikes(fs: f64, seconds: f64, period_s: f64) -> Vec<f64> {
        (0..(fs * seconds) as usize)
            .map(|i| {
                let d = (i as f64 / fs) % period_s - period_s / 2.0;
                (-(d * d) / 2e-4).exp()
            })
            .collect()
    }

    #[test]
    fn analyses_a_synthetic_ecg_at_75_bpm() {
        let rec = recording("II", spikes(360.0, 30.0, 0.8), 360.0);
        let a = analyze(&rec, &AnalyzeOptions::default()).unwrap();
        assert_eq!(a.kind, Kind::Ecg);
        assert_eq!(a.channel, "II");
        assert!(
            (a.heart_rate_bpm.unwrap() - 75.0).abs() < 1.0,
            "{:?}",
            a.heart_rate_bpm
        );
        assert!((36..=38).contains(&a.beats_s.len()), "{}", a.beats_s.len());
        assert!((a.hrv.mean_nn_ms.unwrap() - 800.0).abs() < 5.0);
        assert_eq!(a.duration_s, 30.0);
    }

    #[test]
    fn reports_a_windowed_heart_rate_series() {
        let rec = recording("II", spikes(250.0, 30.0, 1.0), 250.0);
        let options = AnalyzeOptions {
            hr_window: Some((8.0, 2.0)),
            ..AnalyzeOptions::default()
        };
        let series = analyze(&rec, &options).unwrap().hr_series.unwrap();
        assert!(!series.is_empty());
        assert_eq!((series[0].start_s, series[0].end_s), (0.0, 8.0));
        let bpm = series.iter().filter_map(|w| w.bpm).collect::<Vec<_>>();
        assert!(bpm.iter().all(|b| (b - 60.0).abs() < 1.5), "{bpm:?}");
    }

    #[test]
    fn infers_the_kind_from_format_and_channel_names() {
        let mut audio = recording("mono", vec![0.0; 10], 4000.0);
        audio.metadata.insert("format".into(), "WAV".into());
        assert_eq!(infer_kind(&audio), Kind::Pcg);
        assert_eq!(
            infer_kind(&recording(" PLETH", vec![0.0; 10], 125.0)),
            Kind::Ppg
        );
        assert_eq!(
            infer_kind(&recording("MLII", vec![0.0; 10], 360.0)),
            Kind::Ecg
        );
    }

    #[test]
    fn a_wrist_pulse_with_accelerometer_channels_gets_the_motion_compensated_rate() {
        let fs = 50.0;
        let n = (40.0 * fs) as usize;
        let tone = |hz: f64, amp: f64| -> Vec<f64> {
            (0..n)
                .map(|i| amp * (2.0 * std::f64::consts::PI * hz * i as f64 / fs).sin())
                .collect()
        };
        // Pulse at 90 bpm; arm swing at 150 /min, stronger in the PPG than the pulse.
        let motion = tone(2.5, 1.5);
        let ppg: Vec<f64> = tone(1.5, 1.0)
            .iter()
            .zip(&motion)
            .map(|(a, b)| a + b)
            .collect();
        let channel = |name: &str, samples: Vec<f64>| Channel {
            name: name.into(),
            unit: String::new(),
            samples,
        };
        let rec = Recording {
            channels: vec![
                channel("ppg", ppg),
                channel("acc_x", motion.clone()),
                channel("acc_y", tone(2.5, 0.5)),
                channel("acc_z", vec![0.0; n]),
            ],
            sampling_rate_hz: fs,
            start: None,
            metadata: BTreeMap::new(),
            device_interpretation: None,
        };
        let options = AnalyzeOptions {
            kind: Some(Kind::Ppg),
            hr_window: Some((8.0, 2.0)),
            ..AnalyzeOptions::default()
        };

        let found = analyze(&rec, &options).unwrap();
        let chosen = analyze(
            &rec,
            &AnalyzeOptions {
                accel: Some(vec![ChannelChoice::Index(1)]),
                ..options.clone()
            },
        )
        .unwrap();

        assert_eq!(
            found.accel_channels.as_deref(),
            Some(&["acc_x".to_string(), "acc_y".into(), "acc_z".into()][..])
        );
        assert_eq!(found.channel, "ppg");
        assert!(
            (found.heart_rate_bpm.unwrap() - 90.0).abs() <= 1.0,
            "{found:?}"
        );
        let series = found.hr_series.unwrap();
        assert_eq!(series.len(), 17);
        assert!(series.iter().all(|w| (w.bpm.unwrap() - 90.0).abs() <= 1.0));
        assert_eq!(
            chosen.accel_channels.as_deref(),
            Some(&["acc_x".to_string()][..])
        );
        assert!((chosen.heart_rate_bpm.unwrap() - 90.0).abs() <= 1.0);
        let wrong = analyze(
            &rec,
            &AnalyzeOptions {
                accel: Some(vec!["gyro".parse().unwrap()]),
                ..options
            },
        )
        .unwrap_err();
        assert!(
            wrong.to_string().starts_with("no channel \"gyro\""),
            "{wrong}"
        );
    }

    #[test]
    fn names_the_channels_when_the_choice_is_wrong() {
        let rec = recording("II", spikes(360.0, 10.0, 0.8), 360.0);
        let err = analyze(
            &rec,
            &AnalyzeOptions {
                channel: Some("V9".parse().unwrap()),
                ..AnalyzeOptions::default()
            },
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "no channel \"V9\" in the recording (channels: 0: II)"
        );
        assert_eq!(
            "3".parse::<ChannelChoice>().unwrap(),
            ChannelChoice::Index(3)
        );
    }
}
