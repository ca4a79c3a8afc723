//! From a PPG [`Recording`] to a [`Prediction`]: channel choice, pulse detection, quality gating per
//! window, the rhythm classifier per window and the vote over windows.
//!
//! 1. **Channel**: the first channel named `PLETH`, `PPG`, `PULSE`, `IR` or `RED` (in that order,
//!    case-insensitive), else the first channel whose name has one of these as a word or starts
//!    with `PPG`/`PLETH` (`PPG1`, `IR LED`), else the first channel.
//! 2. **Unusable** ([`PredictError::Unusable`]) when the file cannot be judged at all: no channel,
//!    a sampling rate outside [`MIN_RATE_HZ`]-[`MAX_RATE_HZ`], under [`MIN_SECONDS`] of signal,
//!    more than half of the samples missing, or fewer than [`MIN_PULSES`] pulses found.
//! 3. **Pulses**: `cardio_signal::ppg::analyze` over the whole signal (band-pass and Elgendi et al.
//!    2013 systolic peaks, sub-sample refined); missing samples are held at the last valid value.
//! 4. **Windows**: the model learnt 10-s windows, so a recording is cut into `max(1, ⌊d / 10 s⌋)`
//!    equal consecutive windows (each 10-20 s long; a recording under 20 s is one window).
//! 5. **Quality gate per window** ([`super::window::window_quality`]): the basic checks of
//!    `cardio_signal::quality` (flat line, clipping), a median rate of 30-220 bpm, no gap over 3 s and
//!    a beat-template correlation of at least 0.86 (Orphanidou et al. 2015, as
//!    `cardio_signal::quality::ppg`, whose 40-180 bpm rate range is widened here so that AF with a
//!    fast ventricular rate is not called noise), no missing sample, and at least
//!    [`super::features::MIN_INTERVALS`] pulse intervals. A window that fails is noisy; a
//!    usable one gets its feature row ([`super::window::analyse`]) and six rhythm probabilities:
//!    the boosted trees', with `P(af)` blended with the waveform network's ([`super::network`], on
//!    the window of the recording resampled once to 50 Hz) by the model's `network_weight`.
//! 6. **Label**: `noisy` when the usable windows cover less than half of the recording (a label, not
//!    an error: the pulses were there but could not be trusted); otherwise the rhythm probabilities
//!    are the duration-weighted mean over the usable windows (a soft vote) and the label is AF when
//!    the mean `P(af)` reaches the model's AF threshold, otherwise the more probable of irregular and
//!    normal. The share of usable windows called AF (the AF burden) is reported beside it.
//!    `details.rhythm_probabilities` holds the mean probability of each of the six rhythms.
//! 7. **Numbers**: `confidence` is the probability of the label (for `noisy`, the share of the
//!    recording that was too noisy); `risk_score` is the mean `P(af) + P(irregular)` of the usable
//!    windows (0 when none is usable), also for `noisy`; `details.probabilities` holds the three rhythm classes and
//!    `noisy` (the rhythm classes are `null` when the label is `noisy`). Heart rate is 60 000 / the
//!    median pulse interval of the usable windows (none when no window is usable); with
//!    accelerometer channels beside the pulse (named like `acc_x`, see [`crate::accel`]) it is the
//!    median of the motion-compensated rate of 8-s windows (`details.heart_rate_source`).
//! 8. **Long recordings** (over [`super::whole::LONG_S`]): read whole instead, in consecutive
//!    10-s windows each through the plausibility gate, with episodes, the AF burden and one
//!    decision from the whole record ([`super::whole`]); steps 1-3 and the figures of step 7 are
//!    the same.

use cardio_formats::{Channel, Recording};
use cardio_signal::{hrv, ppg, stats, SamplingRate};
use serde_json::{json, Map, Value};

use super::classifier::{Rhythm, RhythmProbabilities, WindowLabel};
use super::{network, whole as record, window};
use super::{Model, MODEL_ID};
use crate::catalogue::{self, whole, Advice};
use crate::gate::{self, GateModality};
use crate::prediction::{ModelInfo, PredictError, Prediction};

/// Shortest recording judged, seconds.
pub const MIN_SECONDS: f64 = 8.0;
/// Lowest sampling rate accepted, Hz.
pub const MIN_RATE_HZ: f64 = 20.0;
/// Highest sampling rate accepted, Hz.
pub const MAX_RATE_HZ: f64 = 10_000.0;
/// Fewest pulses in the whole recording.
pub const MIN_PULSES: usize = 4;
/// The window length the model learnt, seconds; windows are this long up to twice as long.
pub const WINDOW_S: f64 = 10.0;
/// The sentence that ends every list of recommendations.
pub use crate::prediction::DISCLAIMER;
/// Pulse intervals whose coefficient of variation is below this are exactly regular, as no heart
/// beats (a test pattern, a blinking light, a machine): a window of them is never called AF or
/// irregular (it is left out as unusable instead).
pub const REGULAR_CV: f64 = 0.003;

const PREFERRED: [&str; 5] = ["PLETH", "PPG", "PULSE", "IR", "RED"];

/// The channel a PPG prediction reads (see the module docs); `None` without channels.
pub fn pick_channel(rec: &Recording) -> Option<&Channel> {
    for want in PREFERRED {
        if let Some(c) = rec.channel(want) {
            return Some(c);
        }
    }
    let wordy = |c: &&Channel| {
        let upper = c.name.trim().to_ascii_uppercase();
        upper.starts_with("PPG")
            || upper.starts_with("PLETH")
            || upper
                .split(|ch: char| !ch.is_ascii_alphanumeric())
                .any(|w| PREFERRED.contains(&w))
    };
    rec.channels
        .iter()
        .find(wordy)
        .or_else(|| rec.channels.first())
}

/// The windows `(start, end)` in seconds of a recording of `duration_s`: `max(1, ⌊d / 10⌋)` equal
/// consecutive windows (see the module docs).
pub fn plan_windows(duration_s: f64) -> Vec<(f64, f64)> {
    if duration_s.is_nan() || duration_s <= 0.0 {
        return Vec::new();
    }
    let n = ((duration_s / WINDOW_S).floor() as usize).max(1);
    let len = duration_s / n as f64;
    (0..n)
        .map(|k| {
            let end = if k + 1 == n {
                duration_s
            } else {
                (k + 1) as f64 * len
            };
            (k as f64 * len, end)
        })
        .collect()
}

/// What one window gave.
#[derive(Debug, Clone)]
struct WindowResult {
    start_s: f64,
    end_s: f64,
    quality_score: f64,
    reason: String,
    intervals_ms: Vec<f64>,
    probabilities: Option<RhythmProbabilities>,
}

fn num(v: f64) -> Value {
    if v.is_finite() {
        json!(v)
    } else {
        Value::Null
    }
}

fn round(v: f64, digits: i32) -> f64 {
    let k = 10f64.powi(digits);
    (v * k).round() / k
}

fn median(values: &[f64]) -> Option<f64> {
    (!values.is_empty()).then(|| stats::median(values))
}

/// The display text of a label.
pub fn label_text(label: &str) -> &'static str {
    match label {
        "af" => "Atrial fibrillation suspected",
        "irregular" => "Irregular pulse rhythm, not typical of atrial fibrillation",
        "noisy" => "Signal too noisy to judge the rhythm",
        _ => "Regular pulse rhythm",
    }
}

fn advice(
    label: &str,
    hr: Option<f64>,
    af_burden: Option<f64>,
    likeliest_irregular: Option<Rhythm>,
) -> Vec<Advice> {
    let tachycardia = matches!(likeliest_irregular, Some(Rhythm::Vt | Rhythm::Svt));
    let codes: &[&str] = match label {
        "af" => &["ppg.af_1", "ppg.af_2", "ppg.af_3"],
        "irregular" if tachycardia => &[
            "ppg.tachycardia_1",
            "ppg.tachycardia_2",
            "ppg.repeat_at_rest",
        ],
        "irregular" => &["ppg.irregular_1", "ppg.irregular_2", "ppg.repeat_at_rest"],
        "noisy" => &["ppg.noisy_1", "ppg.noisy_2", "ppg.noisy_3"],
        _ => &["ppg.normal_1", "ppg.normal_2"],
    };
    let mut out: Vec<Advice> = codes.iter().map(|code| Advice::new(code)).collect();
    if let Some(b) = af_burden.filter(|b| *b > 0.0) {
        if label == "normal" {
            // Not "no sign of atrial fibrillation" when some windows looked like it.
            out[0] = Advice::new("ppg.normal_af_windows").with("percent", whole(100.0 * b));
        } else if label == "irregular" {
            out.push(Advice::new("ppg.af_burden").with("percent", whole(100.0 * b)));
        }
    }
    if let Some(hr) = hr {
        if label != "noisy" && hr > 120.0 {
            out.push(Advice::new("ppg.fast").with("bpm", whole(hr)));
        } else if label != "noisy" && hr < 40.0 {
            out.push(Advice::new("ppg.slow").with("bpm", whole(hr)));
        }
    }
    out.push(Advice::new("disclaimer"));
    out
}

/// [`advice`] as English sentences.
#[cfg(test)]
fn recommendations(
    label: &str,
    hr: Option<f64>,
    af_burden: Option<f64>,
    likeliest_irregular: Option<Rhythm>,
) -> Vec<String> {
    catalogue::english(&advice(label, hr, af_burden, likeliest_irregular))
}

impl Model {
    /// Predicts the rhythm of a PPG recording (see the module docs for every step).
    ///
    /// # Errors
    /// [`PredictError::Unusable`] with a message for the user when the recording cannot be judged:
    /// no channel, a sampling rate outside 20-10000 Hz, under 8 s, mostly missing samples, or fewer
    /// than 4 pulses.
    pub fn predict(&self, rec: &Recording) -> Result<Prediction, PredictError> {
        let channel = pick_channel(rec)
            .ok_or_else(|| PredictError::Unusable("The recording has no signal channel.".into()))?;
        let fs_hz = rec.sampling_rate_hz;
        if !(fs_hz.is_finite() && (MIN_RATE_HZ..=MAX_RATE_HZ).contains(&fs_hz)) {
            return Err(PredictError::Unusable(format!(
                "Sampling rate {fs_hz} Hz is not supported for PPG; it must be between {MIN_RATE_HZ:.0} and {MAX_RATE_HZ:.0} Hz."
            )));
        }
        let x = &channel.samples;
        let duration = x.len() as f64 / fs_hz;
        if duration < MIN_SECONDS {
            return Err(PredictError::Unusable(format!(
                "Recording too short: {duration:.1} s; at least {MIN_SECONDS:.0} s is needed."
            )));
        }
        let missing = x.iter().filter(|v| !v.is_finite()).count();
        if missing * 2 > x.len() {
            return Err(PredictError::Unusable(format!(
                "{:.0} % of the pulse signal's samples are missing; at most half may be.",
                100.0 * missing as f64 / x.len() as f64
            )));
        }
        if let Some(reason) = gate::impossible(x, GateModality::Ppg, 0.5) {
            return Err(PredictError::Unusable(reason));
        }
        let first = x.iter().copied().find(|v| v.is_finite()).unwrap_or(0.0);
        let mut held = first;
        let filled: Vec<f64> = x
            .iter()
            .map(|&v| {
                if v.is_finite() {
                    held = v;
                }
                held
            })
            .collect();
        let fs = SamplingRate::new(fs_hz)
            .map_err(|e| PredictError::Unusable(format!("Invalid sampling rate: {e}.")))?;
        let analysis = ppg::analyze(&filled, fs).map_err(|e| {
            PredictError::Unusable(format!("The pulse signal cannot be analysed: {e}."))
        })?;
        if analysis.peaks.len() < MIN_PULSES {
            return Err(PredictError::Unusable(format!(
                "No usable pulse found: {} pulse(s) detected in {duration:.1} s; at least {MIN_PULSES} are needed.",
                analysis.peaks.len()
            )));
        }

        let long = record::is_long(duration);
        let gate = gate::gate(GateModality::Ppg)?;
        // A long record is judged by the gate window by window, not as a whole.
        let whole_verdict = (!long).then(|| gate.judge(&filled, fs_hz));
        let net = network::deployed()
            .map_err(|e| PredictError::ModelNotLoaded(format!("{MODEL_ID}: {e}")))?;
        let wave = network::resample(&filled, fs_hz).unwrap_or_default();
        let edges = if long {
            record::window_edges(duration)
        } else {
            plan_windows(duration)
        };
        let mut windows: Vec<WindowResult> = edges
            .into_iter()
            .map(|(a, b)| self.window(x, &analysis, fs, a, b, (net, &wave)))
            .collect();
        let mut verdicts = Vec::new();
        if long {
            for w in &mut windows {
                let s0 = ((w.start_s * fs_hz).round() as usize).min(filled.len());
                let s1 = ((w.end_s * fs_hz).round() as usize).clamp(s0, filled.len());
                let v = gate.judge(&filled[s0..s1], fs_hz);
                if !v.plausible {
                    w.probabilities = None;
                    w.quality_score = 0.0;
                    w.reason = format!("too noisy: {}", v.reason);
                }
                verdicts.push(v);
            }
        } else if let Some(verdict) = whole_verdict.as_ref().filter(|v| !v.plausible) {
            // Not a plausible pulse recording: no window is judged.
            for w in &mut windows {
                w.probabilities = None;
                w.quality_score = 0.0;
                w.reason = format!("too noisy: {}", verdict.reason);
            }
        }
        let threshold = self.params.af_threshold;
        let total: f64 = windows.iter().map(|w| w.end_s - w.start_s).sum();
        let usable: Vec<&WindowResult> = windows
            .iter()
            .filter(|w| w.probabilities.is_some())
            .collect();
        let usable_s: f64 = usable.iter().map(|w| w.end_s - w.start_s).sum();
        let usable_share = if total > 0.0 { usable_s / total } else { 0.0 };
        let weighted: Vec<(RhythmProbabilities, f64)> = usable
            .iter()
            .filter_map(|w| w.probabilities.map(|p| (p, w.end_s - w.start_s)))
            .collect();
        let mean_probs = RhythmProbabilities::weighted_mean(&weighted);
        let af_windows = usable
            .iter()
            .filter(|w| {
                w.probabilities
                    .is_some_and(|p| p.label(threshold).0 == WindowLabel::Af)
            })
            .count();
        let af_burden = (!usable.is_empty()).then(|| af_windows as f64 / usable.len() as f64);
        // A long record's one decision, from every window (`whole`).
        let decision = long.then(|| {
            let judged: Vec<record::Judged> = windows
                .iter()
                .map(|w| record::Judged {
                    start_s: w.start_s,
                    end_s: w.end_s,
                    shown: w.probabilities.map(|p| p.on_decision_scale(threshold)),
                    rate_bpm: median(&w.intervals_ms)
                        .filter(|ms| *ms > 0.0)
                        .map(|ms| 60_000.0 / ms),
                })
                .collect();
            record::decide(&judged, duration)
        });
        let noisy = decision
            .as_ref()
            .map_or(usable_share < 0.5, |d| !d.usable());
        let (label, confidence) = match (&mean_probs, noisy) {
            (Some(p), false) => {
                let (l, c) = p.label(threshold);
                (l.name(), c)
            }
            _ => ("noisy", 1.0 - usable_share),
        };
        // What is reported: the probabilities on the decision's scale, so that the label is the
        // likelier of AF and its absence and a finding never comes with a low risk.
        let shown = mean_probs.map(|p| p.on_decision_scale(threshold));
        let confidence = match (shown, label) {
            (Some(p), "af") => p.af(),
            (Some(p), "irregular") => p.irregular(),
            (Some(p), "normal") => p.normal(),
            _ => confidence,
        };
        let (label, confidence, shown) = match &decision {
            Some(d) => (d.label, d.confidence, d.shown),
            None => (label, confidence, shown),
        };
        // A long record shows the gate's verdict of the window that speaks most for the label.
        let verdict = decision
            .as_ref()
            .and_then(|d| d.best_window)
            .and_then(|i| verdicts.get(i).cloned())
            .or(whole_verdict)
            .unwrap_or_else(|| gate.judge(&filled, fs_hz));
        // The finding screened for is an irregular rhythm: AF or another irregularity.
        let risk = shown.map_or(0.0, |p| p.af() + p.irregular());

        // Interval figures over the usable windows only: none is shown when no window passed
        // its quality check.
        let source: Vec<&WindowResult> = if long && noisy {
            Vec::new()
        } else {
            usable.clone()
        };
        let intervals: Vec<f64> = source
            .iter()
            .flat_map(|w| w.intervals_ms.iter().copied())
            .collect();
        // With accelerometer channels beside the pulse (a wrist device), the rate is the
        // motion-compensated one over the whole recording; otherwise the pulse intervals'.
        let axes = crate::accel::find_axes(rec);
        let motion_track = if axes.is_empty() {
            None
        } else {
            crate::accel::heart_rate(
                rec,
                &filled,
                &axes,
                crate::accel::WINDOW_S,
                crate::accel::STEP_S,
            )
            .ok()
        };
        // A track that stays on the arm's rhythm gives no rate: unsure, not a guess.
        let motion_unconfirmed = motion_track
            .as_ref()
            .is_some_and(cardio_signal::motion::Track::unconfirmed);
        let motion_hr = motion_track
            .as_ref()
            .and_then(|t| median(&t.windows.iter().filter_map(|w| w.bpm).collect::<Vec<_>>()));
        let hr = if motion_unconfirmed {
            None
        } else {
            motion_hr.or_else(|| median(&intervals).map(|m| 60_000.0 / m))
        };
        let td = hrv::time_domain(&intervals).ok();
        let irr = hrv::irregularity(&intervals).ok();
        let quality_score = windows
            .iter()
            .map(|w| w.quality_score * (w.end_s - w.start_s))
            .sum::<f64>()
            / total.max(f64::MIN_POSITIVE);
        // The reason agrees with the label: why it is noisy, or how much of it was usable.
        let first_refusal = windows
            .iter()
            .find(|w| w.probabilities.is_none())
            .map(|w| w.reason.as_str());
        let reason = if let Some(d) = &decision {
            record::quality_reason(d, windows.len(), first_refusal)
        } else if noisy {
            windows
                .iter()
                .find(|w| w.probabilities.is_none())
                .map(|w| w.reason.clone())
                .unwrap_or_default()
        } else if usable.len() == windows.len() {
            windows
                .first()
                .map(|w| w.reason.clone())
                .unwrap_or_default()
        } else {
            format!(
                "usable: {} of {} windows ({:.0} % of the recording) passed the quality check; the others were left out",
                usable.len(),
                windows.len(),
                100.0 * usable_share
            )
        };

        let mut details = Map::new();
        details.insert(
            "model".into(),
            ModelInfo {
                id: MODEL_ID.into(),
                version: self.params.version.clone(),
                metric: self.params.validation.metric.clone(),
                value: self.params.validation.value,
            }
            .to_value(),
        );
        // A noisy recording has no rhythm probabilities: only the share of it that was too noisy.
        let probs = match (shown, noisy) {
            (Some(p), false) => json!({
                "normal": num(round(p.normal(), 4)),
                "af": num(round(p.af(), 4)),
                "irregular": num(round(p.irregular(), 4)),
                "noisy": 0.0,
            }),
            _ => json!({
                "normal": Value::Null,
                "af": Value::Null,
                "irregular": Value::Null,
                "noisy": num(round(1.0 - usable_share, 4)),
            }),
        };
        details.insert("probabilities".into(), probs);
        details.insert(
            "rhythm_probabilities".into(),
            Value::Object(
                Rhythm::ALL
                    .into_iter()
                    .map(|r| {
                        let v = match (shown, noisy) {
                            (Some(p), false) => num(round(p.of(r), 4)),
                            _ => Value::Null,
                        };
                        (r.name().to_string(), v)
                    })
                    .collect(),
            ),
        );
        details.insert(
            "af_probability".into(),
            shown.map_or(Value::Null, |p| num(round(p.af(), 4))),
        );
        details.insert(
            "heart_rate_bpm".into(),
            hr.map_or(Value::Null, |v| num(round(v, 1))),
        );
        details.insert(
            "heart_rate_source".into(),
            json!(if motion_unconfirmed {
                "motion-compensated (accelerometer): unconfirmed, the rate follows the arm's rhythm"
            } else if motion_hr.is_some() {
                "motion-compensated (accelerometer)"
            } else {
                "pulse intervals"
            }),
        );
        details.insert(
            "accel_channels".into(),
            json!(axes
                .iter()
                .map(|&i| rec.channels[i].name.trim())
                .collect::<Vec<_>>()),
        );
        details.insert("pulse_count".into(), json!(analysis.peaks.len()));
        details.insert("intervals_used".into(), json!(intervals.len()));
        details.insert(
            "mean_interval_ms".into(),
            td.map_or(Value::Null, |t| num(round(t.mean_nn_ms, 1))),
        );
        details.insert(
            "sdnn_ms".into(),
            td.map_or(Value::Null, |t| num(round(t.sdnn_ms, 1))),
        );
        details.insert(
            "rmssd_ms".into(),
            td.map_or(Value::Null, |t| num(round(t.rmssd_ms, 1))),
        );
        details.insert(
            "interval_cv".into(),
            irr.map_or(Value::Null, |i| num(round(i.cv, 4))),
        );
        details.insert(
            "normalized_rmssd".into(),
            irr.map_or(Value::Null, |i| num(round(i.normalized_rmssd, 4))),
        );
        details.insert("quality_score".into(), num(round(quality_score, 3)));
        details.insert("quality_reason".into(), json!(reason));
        details.insert("quality_usable".into(), json!(!noisy));
        details.insert("gate".into(), gate::details(&verdict, GateModality::Ppg));
        details.insert("usable_fraction".into(), num(round(usable_share, 3)));
        details.insert("windows".into(), json!(windows.len()));
        details.insert("windows_usable".into(), json!(usable.len()));
        details.insert("af_windows".into(), json!(af_windows));
        details.insert(
            "af_burden".into(),
            af_burden.map_or(Value::Null, |b| num(round(b, 3))),
        );
        details.insert("duration_s".into(), num(round(duration, 2)));
        details.insert("channel".into(), json!(channel.name));
        details.insert("sampling_rate_hz".into(), num(fs_hz));
        details.insert(
            "window_results".into(),
            Value::Array(
                windows
                    .iter()
                    .map(|w| {
                        json!({
                            "start_s": num(round(w.start_s, 2)),
                            "end_s": num(round(w.end_s, 2)),
                            "label": w.probabilities.map_or("noisy", |p| p.label(threshold).0.name()),
                            "af_probability": w.probabilities.map_or(Value::Null, |p| num(round(p.on_decision_scale(threshold).af(), 4))),
                            "quality_score": num(round(w.quality_score, 3)),
                        })
                    })
                    .collect(),
            ),
        );
        let mut advice = advice(
            label,
            hr,
            decision
                .as_ref()
                .map_or(af_burden, record::Decision::af_window_share),
            shown.map(|p| p.likeliest_irregular()),
        );
        if let Some(d) = &decision {
            record::details(d, &mut details);
            let disclaimer = advice.pop();
            advice.extend(record::advice(d));
            advice.extend(disclaimer);
        }
        Ok(Prediction {
            label: label.into(),
            prediction: label_text(label).into(),
            confidence: confidence.clamp(0.0, 1.0),
            risk_score: risk.clamp(0.0, 1.0),
            recommendations: catalogue::english(&advice),
            advice,
            details,
        })
    }

    /// Quality, intervals and rhythm of one window `[a, b)` seconds; `wave` is the waveform network
    /// and the whole recording at its rate.
    fn window(
        &self,
        raw: &[f64],
        analysis: &ppg::PpgAnalysis,
        fs: SamplingRate,
        start_s: f64,
        end_s: f64,
        wave: (&network::Network, &[f64]),
    ) -> WindowResult {
        let hz = fs.hz();
        let len = analysis.cleaned.len();
        let s0 = ((start_s * hz).round() as usize).min(len);
        let s1 = ((end_s * hz).round() as usize).clamp(s0, len);
        let w = window::analyse(analysis, fs, s0, s1);
        let mut result = WindowResult {
            start_s,
            end_s,
            quality_score: w.quality.score,
            reason: w.quality.reason,
            intervals_ms: w.intervals_ms,
            probabilities: None,
        };
        if raw[s0..s1].iter().any(|v| !v.is_finite()) {
            result.reason = "samples are missing in this part of the recording".into();
            result.quality_score = 0.0;
            return result;
        }
        let probabilities = w.features.map(|f| {
            let tree = self.params.classifier.predict(&f);
            let (net, at_rate) = wave;
            let w0 = ((start_s * network::RATE_HZ).round() as usize).min(at_rate.len());
            let w1 = ((end_s * network::RATE_HZ).round() as usize).clamp(w0, at_rate.len());
            RhythmProbabilities {
                rhythms: network::blend(
                    tree.rhythms,
                    net.call(&at_rate[w0..w1]),
                    self.params.network_weight,
                ),
            }
        });
        let cv = (result.intervals_ms.len() >= 2)
            .then(|| stats::sd(&result.intervals_ms) / stats::mean(&result.intervals_ms));
        match (probabilities, cv) {
            (Some(p), Some(cv))
                if cv < REGULAR_CV
                    && p.label(self.params.af_threshold).0 != WindowLabel::Normal =>
            {
                result.reason = format!(
                    "the pulse intervals are exactly regular (interval CV {cv:.3}), yet the rhythm classifier called them irregular"
                );
            }
            _ => result.probabilities = probabilities,
        }
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(names: &[&str]) -> Recording {
        Recording {
            channels: names
                .iter()
                .map(|n| Channel {
                    name: (*n).into(),
                    unit: String::new(),
                    samples: vec![0.0; 4],
                })
                .collect(),
            sampling_rate_hz: 100.0,
            start: None,
            metadata: std::collections::BTreeMap::new(),
            device_interpretation: None,
        }
    }

    #[test]
    fn the_ppg_channel_is_chosen_by_name_then_first() {
        assert_eq!(
            pick_channel(&rec(&["RESP", "pleth", "II"])).unwrap().name,
            "pleth"
        );
        assert_eq!(pick_channel(&rec(&["RED", "IR"])).unwrap().name, "IR");
        assert_eq!(
            pick_channel(&rec(&["AIRFLOW", "PPG1"])).unwrap().name,
            "PPG1"
        );
        assert_eq!(
            pick_channel(&rec(&["AIRFLOW", "x"])).unwrap().name,
            "AIRFLOW"
        );
        assert_eq!(
            pick_channel(&rec(&["ecg", "IR LED"])).unwrap().name,
            "IR LED"
        );
        assert!(pick_channel(&rec(&[])).is_none());
    }

    #[test]
    fn windows_tile_the_recording() {
        assert_eq!(plan_windows(8.0), vec![(0.0, 8.0)]);
        assert_eq!(plan_windows(10.0), vec![(0.0, 10.0)]);
        assert_eq!(plan_windows(19.5), vec![(0.0, 19.5)]);
        assert_eq!(plan_windows(25.0), vec![(0.0, 12.5), (12.5, 25.0)]);
        assert_eq!(
            plan_windows(30.0),
            vec![(0.0, 10.0), (10.0, 20.0), (20.0, 30.0)]
        );
        assert!(plan_windows(f64::NAN).is_empty());
        assert!(plan_windows(0.0).is_empty());
    }

    #[test]
    fn every_recommendation_list_ends_with_the_disclaimer() {
        for label in ["normal", "af", "irregular", "noisy"] {
            let r = recommendations(label, Some(130.0), Some(0.2), Some(Rhythm::Svt));
            assert_eq!(r.last().map(String::as_str), Some(DISCLAIMER));
        }
        let r = recommendations("irregular", Some(70.0), Some(0.25), Some(Rhythm::Pvc));
        assert!(r
            .iter()
            .any(|s| s.starts_with("25 % of the analysed windows")));
    }

    #[test]
    fn a_regular_rhythm_with_windows_like_af_says_what_was_found() {
        let r = recommendations("normal", Some(70.0), Some(0.25), None);
        assert_eq!(
            r,
            [
                "The pulse rhythm is regular in most of this recording, but 25 % of the analysed windows looked like atrial fibrillation: repeat the recording, and arrange an ECG if this recurs.",
                "A single recording cannot rule out intermittent (paroxysmal) atrial fibrillation: record again, or ask for an ECG, if palpitations occur.",
                DISCLAIMER,
            ]
        );
        let r = recommendations("normal", Some(70.0), Some(0.0), None);
        assert_eq!(
            r[0],
            "The pulse rhythm is regular in this recording; no sign of atrial fibrillation was found."
        );
    }
}
