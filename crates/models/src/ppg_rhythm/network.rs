//! The waveform network of the PPG rhythm model: a small 1-D convolutional network that reads the
//! pulse waveform of a window and gives the six rhythm probabilities; its `P(af)` is blended with
//! the boosted trees' ([`super::classifier`], see [`blend`]).
//!
//! After Liu Z, Zhou B, Jiang Z, et al. "Multiclass Arrhythmia Detection and Classification From
//! Photoplethysmography Signals Using a Deep Convolutional Neural Network", *J. Am. Heart Assoc.*
//! 2022;11(7):e023555, made small (five convolutions, 31 k weights, about 2.4 M multiply-adds per
//! 10-s window) so that it runs on one CPU core inside the `cardio` binary.
//!
//! - Input ([`prepare`]): the window resampled to [`RATE_HZ`] (polyphase, as the training's
//!   `scipy.signal.resample_poly`), its least-squares line removed, divided by its standard
//!   deviation.
//! - Layers: five convolutions (`same` padding, batch norm folded into the weights, ReLU), a
//!   max-pool by 2 after each but the last, the mean over time and a linear layer to six logits.
//!
//! The weights (`params/ppg-rhythm-cnn.bin`) are trained by `training/ppg_rhythm_cnn/train.py`:
//! one network per outer fold of the card's patient-grouped CV (with the blend weight and AF
//! threshold chosen inside that fold's training patients), then the deployed one. The format is
//! little-endian: `CPPGCNN1`, a `u32` count, and per network its `f32` blend weight and threshold,
//! each convolution's weight `[out][in][tap]` and bias, and the head's weight `[6][64]` and bias.
//! This forward pass is written here (a few loops) rather than through a neural-network runtime:
//! the model is too small to be worth a dependency, and the loops over contiguous time are left to
//! the compiler to vectorise.

use std::sync::OnceLock;

use cardio_signal::resample::Resampler;

use super::PpgRhythmError;

/// The rate the network reads, Hz.
pub const RATE_HZ: f64 = 50.0;
/// The fewest samples at [`RATE_HZ`] the network reads (3 s).
pub const MIN_SAMPLES: usize = 150;
/// Where the training writes the weights.
pub const WEIGHTS_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/params/ppg-rhythm-cnn.bin");
/// The committed weights, compiled in.
const WEIGHTS: &[u8] = include_bytes!("../../params/ppg-rhythm-cnn.bin");
/// Leading bytes of the weights file.
const MAGIC: &[u8; 8] = b"CPPGCNN1";
/// `(in channels, out channels, taps)` of each convolution.
const LAYERS: [(usize, usize, usize); 5] = [
    (1, 16, 7),
    (16, 32, 5),
    (32, 32, 5),
    (32, 64, 5),
    (64, 64, 3),
];
/// Rhythm classes of the head.
const CLASSES: usize = 6;

/// One convolution with its batch norm folded in.
#[derive(Debug, Clone, PartialEq)]
struct Conv {
    cin: usize,
    cout: usize,
    taps: usize,
    /// `[out][in][tap]`.
    weight: Vec<f32>,
    bias: Vec<f32>,
}

/// One trained network and the blend it was validated with.
#[derive(Debug, Clone, PartialEq)]
pub struct Network {
    /// Weight of the network's probabilities in the blend with the trees' (0 to 1).
    pub blend_weight: f64,
    /// AF threshold on the blended `P(af)`.
    pub threshold: f64,
    convs: Vec<Conv>,
    /// `[6][64]`.
    head_weight: Vec<f32>,
    head_bias: Vec<f32>,
}

/// The networks of the weights file: one per outer CV fold, then the deployed one.
#[derive(Debug, Clone, PartialEq)]
pub struct Networks {
    /// The network trained without fold `k`'s patients, for each fold `k` of the card's CV.
    pub folds: Vec<Network>,
    /// The network trained on every patient.
    pub deployed: Network,
}

/// Reads little-endian `f32`s off the front of a byte slice.
struct Reader<'a> {
    bytes: &'a [u8],
}

impl Reader<'_> {
    fn floats(&mut self, n: usize) -> Result<Vec<f32>, PpgRhythmError> {
        let size = n * 4;
        if self.bytes.len() < size {
            return Err(PpgRhythmError::Params(
                "the network weights end too early".into(),
            ));
        }
        let (head, rest) = self.bytes.split_at(size);
        self.bytes = rest;
        Ok(head
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect())
    }
}

impl Networks {
    /// Parses a weights file (format in the module docs).
    ///
    /// # Errors
    /// [`PpgRhythmError::Params`] for another format, a truncated file or trailing bytes.
    pub fn parse(bytes: &[u8]) -> Result<Self, PpgRhythmError> {
        let bad = |what: &str| PpgRhythmError::Params(format!("network weights: {what}"));
        if bytes.len() < 12 || &bytes[..8] != MAGIC {
            return Err(bad("not a CPPGCNN1 file"));
        }
        let count = u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize;
        if !(2..=64).contains(&count) {
            return Err(bad(&format!("{count} networks (2 to 64 expected)")));
        }
        let mut r = Reader {
            bytes: &bytes[12..],
        };
        let mut nets = Vec::with_capacity(count);
        for _ in 0..count {
            let blend = r.floats(2)?;
            let convs = LAYERS
                .iter()
                .map(|&(cin, cout, taps)| {
                    Ok(Conv {
                        cin,
                        cout,
                        taps,
                        weight: r.floats(cout * cin * taps)?,
                        bias: r.floats(cout)?,
                    })
                })
                .collect::<Result<Vec<_>, PpgRhythmError>>()?;
            let width = LAYERS[LAYERS.len() - 1].1;
            // Stored as f32: back to the decimal the training chose (its grids are in 0.01 steps).
            let decimal = |v: f32| (f64::from(v) * 1e6).round() / 1e6;
            let net = Network {
                blend_weight: decimal(blend[0]),
                threshold: decimal(blend[1]),
                convs,
                head_weight: r.floats(CLASSES * width)?,
                head_bias: r.floats(CLASSES)?,
            };
            if !(0.0..=1.0).contains(&net.blend_weight) || !(0.0..=1.0).contains(&net.threshold) {
                return Err(bad("a blend weight or threshold outside 0-1"));
            }
            nets.push(net);
        }
        if !r.bytes.is_empty() {
            return Err(bad("trailing bytes"));
        }
        let deployed = nets.pop().ok_or_else(|| bad("no network"))?;
        Ok(Self {
            folds: nets,
            deployed,
        })
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

/// Output channels of one register tile.
const TILE_OUT: usize = 2;
/// Time steps of one register tile.
const TILE_TIME: usize = 16;

impl Conv {
    /// `same`-padded convolution of `input` (`cin` rows of `len`) followed by ReLU.
    ///
    /// Computed in tiles of [`TILE_OUT`] channels by [`TILE_TIME`] steps whose sums stay in
    /// registers over the whole reduction (inputs × taps), from a zero-padded copy of the input, so
    /// that the loops have fixed lengths the compiler turns into vector instructions.
    fn forward(&self, input: &[f32], len: usize) -> Vec<f32> {
        let pad = self.taps / 2;
        let tiles = len.div_ceil(TILE_TIME);
        let stride = tiles * TILE_TIME + 2 * pad;
        let mut padded = vec![0.0f32; self.cin * stride];
        for (dst, src) in padded.chunks_exact_mut(stride).zip(input.chunks_exact(len)) {
            dst[pad..pad + len].copy_from_slice(src);
        }
        let mut out = vec![0.0f32; self.cout * len];
        let span = TILE_TIME + self.taps - 1;
        for o in (0..self.cout).step_by(TILE_OUT) {
            let outs = TILE_OUT.min(self.cout - o);
            for tile in 0..tiles {
                let t0 = tile * TILE_TIME;
                let mut acc = [[0.0f32; TILE_TIME]; TILE_OUT];
                for (r, a) in acc.iter_mut().enumerate().take(outs) {
                    *a = [self.bias[o + r]; TILE_TIME];
                }
                for (i, row) in padded.chunks_exact(stride).enumerate() {
                    let xs = &row[t0..t0 + span];
                    for j in 0..self.taps {
                        let mut xv = [0.0f32; TILE_TIME];
                        xv.copy_from_slice(&xs[j..j + TILE_TIME]);
                        for (r, a) in acc.iter_mut().enumerate().take(outs) {
                            let w = self.weight[((o + r) * self.cin + i) * self.taps + j];
                            for (s, x) in a.iter_mut().zip(xv) {
                                *s += w * x;
                            }
                        }
                    }
                }
                for (r, a) in acc.iter().enumerate().take(outs) {
                    let n = TILE_TIME.min(len - t0);
                    let dst = &mut out[(o + r) * len + t0..][..n];
                    for (d, v) in dst.iter_mut().zip(a) {
                        *d = v.max(0.0);
                    }
                }
            }
        }
        out
    }
}

/// Max-pool by 2 of `channels` rows of `len` (a last odd sample is dropped).
fn max_pool(x: &[f32], len: usize) -> (Vec<f32>, usize) {
    let half = len / 2;
    let out = x
        .chunks_exact(len)
        .flat_map(|row| (0..half).map(move |t| row[2 * t].max(row[2 * t + 1])))
        .collect();
    (out, half)
}

impl Network {
    /// The six rhythm probabilities (sinus, PVC, PAC, VT, SVT, AF) of a [`prepare`]d window.
    pub fn probabilities(&self, input: &[f32]) -> [f64; 6] {
        let mut h = input.to_vec();
        let mut len = input.len();
        let last = self.convs.len() - 1;
        for (k, conv) in self.convs.iter().enumerate() {
            h = conv.forward(&h, len);
            if k < last && len >= 2 {
                (h, len) = max_pool(&h, len);
            }
        }
        let pooled: Vec<f64> = h
            .chunks_exact(len.max(1))
            .map(|row| row.iter().map(|&v| f64::from(v)).sum::<f64>() / len.max(1) as f64)
            .collect();
        let mut logits = [0.0f64; CLASSES];
        for (c, l) in logits.iter_mut().enumerate() {
            let w = &self.head_weight[c * pooled.len()..(c + 1) * pooled.len()];
            *l = f64::from(self.head_bias[c])
                + w.iter()
                    .zip(&pooled)
                    .map(|(&a, b)| f64::from(a) * b)
                    .sum::<f64>();
        }
        let top = logits.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let exp: Vec<f64> = logits.iter().map(|l| (l - top).exp()).collect();
        let sum: f64 = exp.iter().sum();
        let mut p = [0.0; CLASSES];
        for (d, e) in p.iter_mut().zip(&exp) {
            *d = e / sum;
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
            "PPG rhythm model parameters cannot be loaded: network weights: not a CPPGCNN1 file"
        );
        let mut extra = WEIGHTS.to_vec();
        extra.push(0);
        assert!(Networks::parse(&extra)
            .unwrap_err()
            .to_string()
            .ends_with("trailing bytes"));
    }

    #[test]
    fn probabilities_sum_to_one_and_a_flat_or_short_window_is_refused() {
        let net = &networks().unwrap().deployed;
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
