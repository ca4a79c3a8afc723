//! The waveform network of the PPG rhythm model: a small 1-D convolutional network that reads the
//! pulse waveform of a window and gives the six rhythm probabilities; its `P(af)` is blended with
//! the boosted trees' ([`super::classifier`], see [`blend`]).
//!
//! After Liu Z, Zhou B, Jiang Z, et al. "Multiclass Arrhythmia Detection and Classification From
//! Photoplethysmography Signals Using a Deep Convolutional Neural Network", *J. Am. Heart Assoc.*
//! 2022;11(7):e023555, made small (six convolutions, 134 k weights, about 7 M multiply-adds per
//! 10-s window) so that it runs on one CPU core inside the `cardio` binary.
//!
//! - Input ([`prepare`]): the window resampled to [`RATE_HZ`] (polyphase, as the training's
//!   `scipy.signal.resample_poly`), its least-squares line removed, divided by its standard
//!   deviation.
//! - Layers: six convolutions (`same` padding, batch norm folded into the weights, ReLU), a
//!   max-pool by 2 after each but the last, the mean over time and a linear layer to six logits.
//!
//! The weights (`params/ppg-rhythm-cnn.bin`) are trained by `training/ppg_rhythm_cnn/train.py`:
//! one network per outer fold of the card's patient-grouped CV (with the blend weight and AF
//! threshold chosen inside that fold's training patients), then the deployed one. The format is
//! little-endian: `CPPGCNN2`, a `u32` count, and per network its `f32` blend weight and threshold,
//! each convolution's weight `[out][in][tap]` and bias, and the head's weight `[6][128]` and bias.
//! The forward pass is [`crate::conv1d`]'s.

use std::sync::OnceLock;

use cardio_signal::resample::Resampler;

use super::PpgRhythmError;
use crate::conv1d::{softmax, Reader, Stack};

/// The rate the network reads, Hz.
pub const RATE_HZ: f64 = 50.0;
/// The fewest samples at [`RATE_HZ`] the network reads (3 s).
pub const MIN_SAMPLES: usize = 150;
/// Where the training writes the weights.
pub const WEIGHTS_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/params/ppg-rhythm-cnn.bin");
/// The committed weights, compiled in.
const WEIGHTS: &[u8] = include_bytes!("../../params/ppg-rhythm-cnn.bin");
/// Leading bytes of the weights file.
const MAGIC: &[u8; 8] = b"CPPGCNN2";
/// `(in channels, out channels, taps)` of each convolution.
const LAYERS: [(usize, usize, usize); 6] = [
    (1, 32, 9),
    (32, 32, 7),
    (32, 64, 7),
    (64, 64, 5),
    (64, 128, 5),
    (128, 128, 3),
];
/// Rhythm classes of the head.
const CLASSES: usize = 6;

/// One trained network and the blend it was validated with.
#[derive(Debug, Clone, PartialEq)]
pub struct Network {
    /// Weight of the network's probabilities in the blend with the trees' (0 to 1).
    pub blend_weight: f64,
    /// AF threshold on the blended `P(af)`.
    pub threshold: f64,
    /// The convolutions and the head (six logits).
    stack: Stack,
}

/// The networks of the weights file: one per outer CV fold, then the deployed one.
#[derive(Debug, Clone, PartialEq)]
pub struct Networks {
    /// The network trained without fold `k`'s patients, for each fold `k` of the card's CV.
    pub folds: Vec<Network>,
    /// The network trained on every patient.
    pub deployed: Network,
}

impl Networks {
    /// Parses a weights file (format in the module docs).
    ///
    /// # Errors
    /// [`PpgRhythmError::Params`] for another format, a truncated file or trailing bytes.
    pub fn parse(bytes: &[u8]) -> Result<Self, PpgRhythmError> {
        let (count, body) = header(bytes)?;
        let mut r = Reader::new(body);
        let mut nets = (0..count)
            .map(|_| Network::read(&mut r))
            .collect::<Result<Vec<_>, _>>()?;
        if !r.is_empty() {
            return Err(bad("trailing bytes"));
        }
        let deployed = nets.pop().ok_or_else(|| bad("no network"))?;
        Ok(Self {
            folds: nets,
            deployed,
        })
    }

    /// Parses only the deployed (last) network of a weights file: what prediction needs, without
    /// reading the fold networks that only validation uses (they are a sixth of the cost each).
    ///
    /// # Errors
    /// As [`Self::parse`]; a file whose length is not `count` whole networks is refused.
    pub fn parse_deployed(bytes: &[u8]) -> Result<Network, PpgRhythmError> {
        let (count, body) = header(bytes)?;
        let size = NETWORK_FLOATS * 4;
        if body.len() < count * size {
            return Err(short());
        }
        if body.len() > count * size {
            return Err(bad("trailing bytes"));
        }
        Network::read(&mut Reader::new(&body[(count - 1) * size..]))
    }
}

/// Floats of one network in the file: its blend weight and threshold, each convolution's weight and
/// bias, the head's weight and bias.
const NETWORK_FLOATS: usize = {
    let mut n = 2;
    let mut i = 0;
    while i < LAYERS.len() {
        let (cin, cout, taps) = LAYERS[i];
        n += cout * cin * taps + cout;
        i += 1;
    }
    n + CLASSES * LAYERS[LAYERS.len() - 1].1 + CLASSES
};

/// A format error of the weights file.
fn bad(what: &str) -> PpgRhythmError {
    PpgRhythmError::Params(format!("network weights: {what}"))
}

/// The error of a weights file that ends before its last network does.
fn short() -> PpgRhythmError {
    PpgRhythmError::Params("the network weights end too early".into())
}

/// The network count of a weights file and the bytes after its header.
fn header(bytes: &[u8]) -> Result<(usize, &[u8]), PpgRhythmError> {
    if bytes.len() < 12 || &bytes[..8] != MAGIC {
        return Err(bad("not a CPPGCNN2 file"));
    }
    let count = u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize;
    if !(2..=64).contains(&count) {
        return Err(bad(&format!("{count} networks (2 to 64 expected)")));
    }
    Ok((count, &bytes[12..]))
}

impl Network {
    /// Reads one network: its blend weight and threshold, then the stack.
    fn read(r: &mut Reader<'_>) -> Result<Self, PpgRhythmError> {
        let blend = r.floats(2).ok_or_else(short)?;
        let stack = Stack::read(r, &LAYERS, CLASSES).ok_or_else(short)?;
        // Stored as f32: back to the decimal the training chose (its grids are in 0.01 steps).
        let decimal = |v: f32| (f64::from(v) * 1e6).round() / 1e6;
        let net = Self {
            blend_weight: decimal(blend[0]),
            threshold: decimal(blend[1]),
            stack,
        };
        if !(0.0..=1.0).contains(&net.blend_weight) || !(0.0..=1.0).contains(&net.threshold) {
            return Err(bad("a blend weight or threshold outside 0-1"));
        }
        Ok(net)
    }
}

/// The committed networks, parsed once.
///
/// # Errors
/// [`PpgRhythmError::Params`] when the compiled-in weights do not parse.
pub fn networks() -> Result<&'static Networks, PpgRhythmError> {
    static NETS: OnceLock<Result<Networks, String>> = OnceLock::new();
    NETS.get_or_init(|| Networks::parse(WEIGHTS).map_err(|e| e.to_string()))
        .as_ref()
        .map_err(|e| PpgRhythmError::Params(e.clone()))
}

/// The committed deployed network alone, parsed once: what prediction uses (validation reads
/// every network through [`networks`]).
///
/// # Errors
/// [`PpgRhythmError::Params`] when the compiled-in weights do not parse.
pub fn deployed() -> Result<&'static Network, PpgRhythmError> {
    static NET: OnceLock<Result<Network, String>> = OnceLock::new();
    NET.get_or_init(|| Networks::parse_deployed(WEIGHTS).map_err(|e| e.to_string()))
        .as_ref()
        .map_err(|e| PpgRhythmError::Params(e.clone()))
}

/// `x` at `fs_hz` resampled to [`RATE_HZ`] (unchanged when it is already at that rate).
///
/// # Errors
/// [`PpgRhythmError::Data`] for a rate the resampler cannot plan.
pub fn resample(x: &[f64], fs_hz: f64) -> Result<Vec<f64>, PpgRhythmError> {
    if (fs_hz - RATE_HZ).abs() < 1e-9 {
        return Ok(x.to_vec());
    }
    Resampler::between(fs_hz, RATE_HZ)
        .map(|r| r.process(x))
        .map_err(|e| PpgRhythmError::Data(e.to_string()))
}

/// The network's input from a window already at [`RATE_HZ`]: its least-squares line removed,
/// divided by its standard deviation; `None` under [`MIN_SAMPLES`] or for a flat or non-finite
/// window.
pub fn prepare(x: &[f64]) -> Option<Vec<f32>> {
    let n = x.len();
    if n < MIN_SAMPLES || x.iter().any(|v| !v.is_finite()) {
        return None;
    }
    let mean = x.iter().sum::<f64>() / n as f64;
    let mid = (n as f64 - 1.0) / 2.0;
    let (mut tt, mut ty) = (0.0, 0.0);
    for (i, v) in x.iter().enumerate() {
        let t = i as f64 - mid;
        tt += t * t;
        ty += t * (v - mean);
    }
    let slope = ty / tt;
    let y: Vec<f64> = x
        .iter()
        .enumerate()
        .map(|(i, v)| v - mean - slope * (i as f64 - mid))
        .collect();
    let sd = (y.iter().map(|v| v * v).sum::<f64>() / n as f64).sqrt();
    if sd <= 1e-12 {
        return None;
    }
    #[allow(clippy::cast_possible_truncation)]
    Some(y.iter().map(|v| (v / sd) as f32).collect())
}

/// The trees' probabilities with `P(af)` blended: `weight * net + (1 - weight) * tree`, and the
/// rest shared among the five other rhythms as the trees share it. The network decides only how
/// likely AF is, the one decision its blend weight was validated for; which non-AF rhythm it is
/// (normal or irregular, and which tachycardia) stays with the trees, which read the pulse rate
/// and intervals directly. The trees' alone when the network could not read the window.
pub fn blend(tree: [f64; 6], net: Option<[f64; 6]>, weight: f64) -> [f64; 6] {
    const AF: usize = 5;
    let Some(net) = net else { return tree };
    let af = (weight * net[AF] + (1.0 - weight) * tree[AF]).clamp(0.0, 1.0);
    let rest = 1.0 - tree[AF];
    let mut out = [0.0; 6];
    for (k, o) in out.iter_mut().enumerate().take(AF) {
        *o = if rest > 1e-12 {
            tree[k] / rest * (1.0 - af)
        } else {
            (1.0 - af) / 5.0
        };
    }
    out[AF] = af;
    out
}

impl Network {
    /// The six rhythm probabilities (sinus, PVC, PAC, VT, SVT, AF) of a [`prepare`]d window.
    pub fn probabilities(&self, input: &[f32]) -> [f64; 6] {
        let probs = softmax(&self.stack.logits(input, input.len()));
        let mut p = [0.0; CLASSES];
        for (d, v) in p.iter_mut().zip(probs) {
            *d = v;
        }
        p
    }

    /// [`Self::probabilities`] of a window at [`RATE_HZ`], `None` when [`prepare`] refuses it.
    pub fn call(&self, x: &[f64]) -> Option<[f64; 6]> {
        prepare(x).map(|input| self.probabilities(&input))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_committed_weights_parse_into_five_folds_and_a_deployed_network() {
        let nets = networks().unwrap();
        assert_eq!(nets.folds.len(), 5);
        assert!(nets.deployed.blend_weight > 0.0);
        assert_eq!(deployed().unwrap(), &nets.deployed);
        assert_eq!(WEIGHTS.len(), 12 + 6 * NETWORK_FLOATS * 4);
    }

    #[test]
    fn a_truncated_or_foreign_file_is_refused_with_a_reason() {
        let err = Networks::parse(&WEIGHTS[..WEIGHTS.len() - 3]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "PPG rhythm model parameters cannot be loaded: the network weights end too early"
        );
        let err = Networks::parse(b"NOTAFILE\x02\0\0\0").unwrap_err();
        assert_eq!(
            err.to_string(),
            "PPG rhythm model parameters cannot be loaded: network weights: not a CPPGCNN2 file"
        );
        let mut extra = WEIGHTS.to_vec();
        extra.push(0);
        assert!(Networks::parse(&extra)
            .unwrap_err()
            .to_string()
            .ends_with("trailing bytes"));
        // The deployed network alone: the same refusals.
        for (bytes, tail) in [
            (
                &WEIGHTS[..WEIGHTS.len() - 3],
                "the network weights end too early",
            ),
            (&extra[..], "network weights: trailing bytes"),
            (
                &b"NOTAFILE\x02\0\0\0"[..],
                "network weights: not a CPPGCNN2 file",
            ),
            (
                &b"CPPGCNN2\x01\0\0\0"[..],
                "network weights: 1 networks (2 to 64 expected)",
            ),
        ] {
            let err = Networks::parse_deployed(bytes).unwrap_err().to_string();
            assert!(err.ends_with(tail), "{err}");
        }
    }

    #[test]
    fn probabilities_sum_to_one_and_a_flat_or_short_window_is_refused() {
        let net = deployed().unwrap();
        let x: Vec<f64> = (0..500)
            .map(|i| (2.0 * std::f64::consts::PI * 1.2 * f64::from(i) / RATE_HZ).sin())
            .collect();
        let p = net.call(&x).unwrap();
        assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        assert!(net.call(&[1.0; 500]).is_none());
        assert!(net.call(&x[..MIN_SAMPLES - 1]).is_none());
    }

    #[test]
    fn the_blend_moves_p_af_only_and_shares_the_rest_as_the_trees_do() {
        let tree = [0.4, 0.1, 0.1, 0.1, 0.1, 0.2];
        let net = [0.0, 0.0, 0.0, 0.9, 0.0, 0.1];
        let b = blend(tree, Some(net), 0.5);
        let want = [0.425, 0.10625, 0.10625, 0.10625, 0.10625, 0.15];
        for (b, w) in b.iter().zip(want) {
            assert!((b - w).abs() < 1e-12, "{b} {w}");
        }
        assert_eq!(blend(tree, None, 0.5), tree);
        let all_af = blend(
            [0.0, 0.0, 0.0, 0.0, 0.0, 1.0],
            Some([1.0, 0.0, 0.0, 0.0, 0.0, 0.0]),
            0.5,
        );
        assert_eq!(all_af, [0.1, 0.1, 0.1, 0.1, 0.1, 0.5]);
    }

    #[test]
    fn prepare_removes_a_line_and_scales_to_unit_deviation() {
        let x: Vec<f64> = (0..200)
            .map(|i| 3.0 + 0.5 * f64::from(i) + if i % 2 == 0 { 1.0 } else { -1.0 })
            .collect();
        let y = prepare(&x).unwrap();
        let mean = y.iter().map(|&v| f64::from(v)).sum::<f64>() / 200.0;
        let sd = (y.iter().map(|&v| f64::from(v).powi(2)).sum::<f64>() / 200.0).sqrt();
        assert!(mean.abs() < 1e-6, "{mean}");
        assert!((sd - 1.0).abs() < 1e-5, "{sd}");
        assert!((f64::from(y[0]) - 1.0).abs() < 0.05, "{}", y[0]);
    }
}
