//! The small 1-D convolutional networks of the signal models (the PPG rhythm network, the heart-sound
//! network): a stack of `same`-padded convolutions with ReLU (batch norm folded into the weights by
//! the training), a max-pool by 2 after each but the last, the mean over time and a linear head, and
//! the reader of their little-endian weights (`f32`, or `f16` for networks stored in half precision).
//!
//! The forward pass is written here (a few loops) rather than through a neural-network runtime: the
//! networks are too small to be worth a dependency, and the loops over contiguous time are left to
//! the compiler to vectorise.

/// One convolution with its batch norm folded in.
#[derive(Debug, Clone, PartialEq)]
pub struct Conv {
    cin: usize,
    cout: usize,
    taps: usize,
    /// `[out][in][tap]`.
    weight: Vec<f32>,
    bias: Vec<f32>,
}

/// A convolution stack and its linear head.
#[derive(Debug, Clone, PartialEq)]
pub struct Stack {
    convs: Vec<Conv>,
    /// `[classes][width of the last convolution]`.
    head_weight: Vec<f32>,
    head_bias: Vec<f32>,
}

/// Reads little-endian floats (`f32`, or `f16` widened to `f32`) off the front of a byte slice.
#[derive(Debug)]
pub struct Reader<'a> {
    bytes: &'a [u8],
    half: bool,
}

impl<'a> Reader<'a> {
    /// A reader of `f32`s in `bytes`.
    pub fn new(bytes: &'a [u8]) -> Self {
        Self { bytes, half: false }
    }

    /// A reader of half-precision (IEEE 754 binary16) floats in `bytes`.
    pub fn half(bytes: &'a [u8]) -> Self {
        Self { bytes, half: true }
    }

    /// The next `n` floats, `None` when fewer are left.
    pub fn floats(&mut self, n: usize) -> Option<Vec<f32>> {
        let width = if self.half { 2 } else { 4 };
        let size = n.checked_mul(width)?;
        if self.bytes.len() < size {
            return None;
        }
        let (head, rest) = self.bytes.split_at(size);
        self.bytes = rest;
        Some(if self.half {
            head.chunks_exact(2)
                .map(|c| half::f16::from_le_bytes([c[0], c[1]]).to_f32())
                .collect()
        } else {
            head.chunks_exact(4)
                .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect()
        })
    }

    /// Whether every byte has been read.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }
}

impl Stack {
    /// Reads a stack of `layers` (`(in channels, out channels, taps)` each: weight `[out][in][tap]`
    /// then bias) and a head of `classes` rows (weight then bias); `None` when the bytes end early.
    pub fn read(
        r: &mut Reader<'_>,
        layers: &[(usize, usize, usize)],
        classes: usize,
    ) -> Option<Self> {
        let convs = layers
            .iter()
            .map(|&(cin, cout, taps)| {
                Some(Conv {
                    cin,
                    cout,
                    taps,
                    weight: r.floats(cout * cin * taps)?,
                    bias: r.floats(cout)?,
                })
            })
            .collect::<Option<Vec<_>>>()?;
        let width = layers.last().map_or(0, |l| l.1);
        Some(Self {
            convs,
            head_weight: r.floats(classes * width)?,
            head_bias: r.floats(classes)?,
        })
    }

    /// The head's logits for `input`, the first layer's channels as rows of `len` samples.
    pub fn logits(&self, input: &[f32], len: usize) -> Vec<f64> {
        let mut h = input.to_vec();
        let mut len = len;
        let last = self.convs.len().saturating_sub(1);
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
        self.head_bias
            .iter()
            .enumerate()
            .map(|(c, &b)| {
                let w = &self.head_weight[c * pooled.len()..(c + 1) * pooled.len()];
                f64::from(b)
                    + w.iter()
                        .zip(&pooled)
                        .map(|(&a, x)| f64::from(a) * x)
                        .sum::<f64>()
            })
            .collect()
    }
}

/// The softmax of `logits`.
pub fn softmax(logits: &[f64]) -> Vec<f64> {
    let top = logits.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let exp: Vec<f64> = logits.iter().map(|l| (l - top).exp()).collect();
    let sum: f64 = exp.iter().sum();
    exp.iter().map(|e| e / sum).collect()
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

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes(v: &[f32]) -> Vec<u8> {
        v.iter().flat_map(|f| f.to_le_bytes()).collect()
    }

    #[test]
    fn a_two_layer_stack_computes_by_hand() {
        // Layer 1: 1 -> 1, taps [1, 2, 1], bias 0; layer 2: 1 -> 1, tap [1], bias -1;
        // head: 2 classes, weights [1] and [-1], biases 0 and 0.5.
        let weights = bytes(&[1.0, 2.0, 1.0, 0.0, 1.0, -1.0, 1.0, -1.0, 0.0, 0.5]);
        let mut reader = Reader::new(&weights);
        let stack = Stack::read(&mut reader, &[(1, 1, 3), (1, 1, 1)], 2).unwrap();
        assert!(reader.is_empty());
        // Input [1, 0, 0, 1]: conv -> [1, 1, 1, 3] (zero padded), pool -> [1, 3],
        // conv 2 -> relu([0, 2]) = [0, 2], mean 1.
        let logits = stack.logits(&[1.0, 0.0, 0.0, 1.0], 4);
        assert_eq!(logits, vec![1.0, -0.5]);
        let probs = softmax(&logits);
        assert!((probs[0] - 1.0 / (1.0 + (-1.5f64).exp())).abs() < 1e-12);
    }

    #[test]
    fn half_precision_weights_read_as_the_same_stack() {
        // 1.0, 2.0, 1.0, 0.0, 1.0, -1.0, 1.0, -1.0, 0.0, 0.5 as binary16.
        let halves: [u16; 10] = [
            0x3C00, 0x4000, 0x3C00, 0x0000, 0x3C00, 0xBC00, 0x3C00, 0xBC00, 0x0000, 0x3800,
        ];
        let weights: Vec<u8> = halves.iter().flat_map(|h| h.to_le_bytes()).collect();
        let mut reader = Reader::half(&weights);
        let stack = Stack::read(&mut reader, &[(1, 1, 3), (1, 1, 1)], 2).unwrap();
        assert!(reader.is_empty());
        assert_eq!(stack.logits(&[1.0, 0.0, 0.0, 1.0], 4), vec![1.0, -0.5]);
        assert!(Stack::read(
            &mut Reader::half(&weights[..19]),
            &[(1, 1, 3), (1, 1, 1)],
            2
        )
        .is_none());
    }

    #[test]
    fn short_bytes_are_refused() {
        let w = bytes(&[1.0, 2.0]);
        assert!(Stack::read(&mut Reader::new(&w), &[(1, 1, 3)], 1).is_none());
    }
}
