//! The heart-sound network: a small 1-D convolutional network over time whose input channels are the
//! [`spectrogram::BANDS`] bands of the recording's normalised log-mel spectrogram
//! ([`super::spectrogram`]); it gives the probability that the heart sounds are abnormal, which the
//! model blends with the boosted trees' ([`blend`]).
//!
//! After the CNN of Potes C, Parvaneh S, Rahman A, Conroy B, "Ensemble of feature-based and deep
//! learning-based classifiers for detection of abnormal heart sounds", *Computing in Cardiology*
//! 2016;43:621-624 (best entry of the PhysioNet/CinC Challenge 2016, features and a CNN together),
//! on log-mel bands as Rubin J et al., "Recognizing abnormal heart sounds using deep learning",
//! KHD@IJCAI 2017, made small (five convolutions, 47 k weights, about 25 M multiply-adds for 60 s)
//! for one CPU core. The whole recording (up to 60 s) goes through in one pass: the network ends in
//! the mean over time.
//!
//! The weights (`params/pcg-cnn.bin`) are trained by `training/pcg_cnn/train.py` (`make train-pcg`):
//! one network per outer fold of the card's 5-fold CV, one per held-out site of its
//! leave-one-site-out check (sites a-f), then the deployed one, so that `cardio eval pcg` scores
//! every recording with a network that never saw it. Format, little-endian: `CPCGCNN1`, a `u32`
//! count ([`COUNT`]) and per network each convolution's weight `[out][in][tap]` (batch norm folded
//! in) and bias, then the head's weight `[2][64]` and bias; the forward pass is
//! [`crate::conv1d`]'s.
//!
//! `params/pcg-cnn-inner.bin` holds, in the same layout with the magic `CPCGCNH1` and half-precision
//! floats, the [`INNER_COUNT`] networks of the inner CV: for outer fold `k`, one per fold `j` of the
//! inner 5-fold CV inside its training recordings (at `5k + j`). Only the validation uses them: their
//! out-of-fold probabilities choose each outer fold's blend weight and threshold ([`blend`]) without
//! its test recordings.

use std::sync::OnceLock;

use super::spectrogram::{self, Spectrogram};
use crate::conv1d::{softmax, Reader, Stack};

/// Where the training writes the weights.
pub const WEIGHTS_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/params/pcg-cnn.bin");
/// The committed weights, compiled in.
const WEIGHTS: &[u8] = include_bytes!("../../params/pcg-cnn.bin");
/// The committed inner-CV networks, compiled in.
const INNER_WEIGHTS: &[u8] = include_bytes!("../../params/pcg-cnn-inner.bin");
/// Leading bytes of the weights file.
const MAGIC: &[u8; 8] = b"CPCGCNN1";
/// Leading bytes of the inner networks' file (half precision).
const INNER_MAGIC: &[u8; 8] = b"CPCGCNH1";
/// `(in channels, out channels, taps)` of each convolution.
const LAYERS: [(usize, usize, usize); 5] = [
    (spectrogram::BANDS, 32, 5),
    (32, 32, 5),
    (32, 64, 5),
    (64, 64, 3),
    (64, 64, 3),
];
/// Outer folds of the card's CV.
pub const FOLDS: usize = 5;
/// Sites of the leave-one-site-out check, in order.
pub const SITES: usize = 6;
/// Networks in the file: the folds', the sites', the deployed one.
pub const COUNT: usize = FOLDS + SITES + 1;
/// Folds of the inner CV inside each outer fold's training recordings.
pub const INNER_FOLDS: usize = 5;
/// Networks in the inner file: [`INNER_FOLDS`] per outer fold.
pub const INNER_COUNT: usize = FOLDS * INNER_FOLDS;

/// Errors of the weights file.
#[derive(Debug, Clone, thiserror::Error, PartialEq, Eq)]
#[error("heart-sound network weights: {0}")]
pub struct WeightsError(String);

/// One trained network.
#[derive(Debug, Clone, PartialEq)]
pub struct Network {
    stack: Stack,
}

impl Network {
    /// The probability that the heart sounds of `spec` are abnormal.
    pub fn p_abnormal(&self, spec: &Spectrogram) -> f64 {
        softmax(&self.stack.logits(&spec.values, spec.frames))[1]
    }
}

/// The networks of the weights file.
#[derive(Debug, Clone, PartialEq)]
pub struct Networks {
    /// The network trained without outer fold `k`, for each fold of the card's CV.
    pub folds: Vec<Network>,
    /// The network trained without site `k` (a-f).
    pub without_site: Vec<Network>,
    /// The network trained on every recording.
    pub deployed: Network,
}

/// The `count` networks of a weights file that starts with `magic` (f16 when `half`).
fn parse_networks(
    bytes: &[u8],
    magic: [u8; 8],
    count: usize,
    half: bool,
) -> Result<Vec<Network>, WeightsError> {
    if bytes.len() < 12 || bytes[..8] != magic {
        return Err(WeightsError(format!(
            "not a {} file",
            String::from_utf8_lossy(&magic)
        )));
    }
    let found = u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize;
    if found != count {
        return Err(WeightsError(format!("{found} networks ({count} expected)")));
    }
    let mut r = if half {
        Reader::half(&bytes[12..])
    } else {
        Reader::new(&bytes[12..])
    };
    let nets = (0..count)
        .map(|_| {
            Stack::read(&mut r, &LAYERS, 2)
                .map(|stack| Network { stack })
                .ok_or_else(|| WeightsError("the file ends too early".into()))
        })
        .collect::<Result<Vec<_>, _>>()?;
    if !r.is_empty() {
        return Err(WeightsError("trailing bytes".into()));
    }
    Ok(nets)
}

impl Networks {
    /// Parses a weights file (format in the module docs).
    ///
    /// # Errors
    /// [`WeightsError`] for another format, another count, a truncated file or trailing bytes.
    pub fn parse(bytes: &[u8]) -> Result<Self, WeightsError> {
        let mut nets = parse_networks(bytes, *MAGIC, COUNT, false)?;
        let deployed = nets
            .pop()
            .ok_or_else(|| WeightsError("no network".into()))?;
        let without_site = nets.split_off(FOLDS);
        Ok(Self {
            folds: nets,
            without_site,
            deployed,
        })
    }
}

/// The inner-CV networks: `by_outer_fold[k][j]` was trained on outer fold `k`'s training
/// recordings without its inner fold `j`.
#[derive(Debug, Clone, PartialEq)]
pub struct InnerNetworks {
    /// [`INNER_FOLDS`] networks per outer fold.
    pub by_outer_fold: Vec<Vec<Network>>,
}

impl InnerNetworks {
    /// Parses an inner weights file (`CPCGCNH1`, half precision; format in the module docs).
    ///
    /// # Errors
    /// [`WeightsError`] for another format, another count, a truncated file or trailing bytes.
    pub fn parse(bytes: &[u8]) -> Result<Self, WeightsError> {
        let mut nets = parse_networks(bytes, *INNER_MAGIC, INNER_COUNT, true)?.into_iter();
        Ok(Self {
            by_outer_fold: (0..FOLDS)
                .map(|_| nets.by_ref().take(INNER_FOLDS).collect())
                .collect(),
        })
    }
}

/// The committed inner-CV networks, parsed once.
///
/// # Errors
/// [`WeightsError`] when the compiled-in weights do not parse.
pub fn inner_networks() -> Result<&'static InnerNetworks, WeightsError> {
    static NETS: OnceLock<Result<InnerNetworks, WeightsError>> = OnceLock::new();
    NETS.get_or_init(|| InnerNetworks::parse(INNER_WEIGHTS))
        .as_ref()
        .map_err(Clone::clone)
}

/// The committed networks, parsed once.
///
/// # Errors
/// [`WeightsError`] when the compiled-in weights do not parse.
pub fn networks() -> Result<&'static Networks, WeightsError> {
    static NETS: OnceLock<Result<Networks, WeightsError>> = OnceLock::new();
    NETS.get_or_init(|| Networks::parse(WEIGHTS))
        .as_ref()
        .map_err(Clone::clone)
}

/// `weight * network + (1 - weight) * trees` (the weight chosen by the validation's inner CV, in the
/// parameters); the trees' alone when the recording gave no spectrogram, the network's alone when
/// the trees gave no probability.
pub fn blend(weight: f64, trees: f64, network: Option<f64>) -> f64 {
    match network {
        Some(n) if trees.is_finite() => weight * n + (1.0 - weight) * trees,
        Some(n) => n,
        None => trees,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_committed_weights_parse_into_folds_sites_and_a_deployed_network() {
        let nets = networks().unwrap();
        assert_eq!(nets.folds.len(), FOLDS);
        assert_eq!(nets.without_site.len(), SITES);
        assert_ne!(nets.folds[0], nets.deployed);
    }

    #[test]
    fn a_truncated_or_foreign_file_is_refused_with_a_reason() {
        let err = Networks::parse(&WEIGHTS[..WEIGHTS.len() - 3]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "heart-sound network weights: the file ends too early"
        );
        let err = Networks::parse(b"CPPGCNN1\x0c\0\0\0").unwrap_err();
        assert_eq!(
            err.to_string(),
            "heart-sound network weights: not a CPCGCNN1 file"
        );
        let err = Networks::parse(b"CPCGCNN1\x02\0\0\0").unwrap_err();
        assert_eq!(
            err.to_string(),
            "heart-sound network weights: 2 networks (12 expected)"
        );
        let mut extra = WEIGHTS.to_vec();
        extra.push(0);
        assert_eq!(
            Networks::parse(&extra).unwrap_err().to_string(),
            "heart-sound network weights: trailing bytes"
        );
        assert_eq!(
            InnerNetworks::parse(WEIGHTS).unwrap_err().to_string(),
            "heart-sound network weights: not a CPCGCNH1 file"
        );
        assert_eq!(
            InnerNetworks::parse(&INNER_WEIGHTS[..INNER_WEIGHTS.len() - 1])
                .unwrap_err()
                .to_string(),
            "heart-sound network weights: the file ends too early"
        );
    }

    #[test]
    fn the_inner_networks_are_five_per_outer_fold_and_differ() {
        let inner = inner_networks().unwrap();
        assert_eq!(inner.by_outer_fold.len(), FOLDS);
        assert!(inner.by_outer_fold.iter().all(|f| f.len() == INNER_FOLDS));
        assert_ne!(inner.by_outer_fold[0][0], inner.by_outer_fold[0][1]);
        assert_ne!(inner.by_outer_fold[0][0], inner.by_outer_fold[1][0]);
    }

    #[test]
    fn a_probability_from_a_spectrogram_and_the_blend() {
        let x: Vec<f64> = (0..10_000)
            .map(|i| {
                let t = f64::from(i) / 1000.0;
                let on = if (t * 1.2).fract() < 0.15 { 1.0 } else { 0.02 };
                on * (2.0 * std::f64::consts::PI * 60.0 * t).sin()
            })
            .collect();
        let spec = spectrogram::spectrogram(&x).unwrap();
        let p = networks().unwrap().deployed.p_abnormal(&spec);
        assert!((0.0..=1.0).contains(&p), "{p}");
        assert_eq!(blend(0.75, 0.2, Some(0.6)), 0.75 * 0.6 + 0.25 * 0.2);
        assert_eq!(blend(0.5, 0.2, Some(0.6)), 0.5 * 0.6 + 0.5 * 0.2);
        assert_eq!(blend(0.75, 0.2, None), 0.2);
        assert_eq!(blend(0.75, f64::NAN, Some(0.6)), 0.6);
    }
}
