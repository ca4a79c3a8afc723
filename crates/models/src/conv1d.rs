//! The small 1-D convolutional networks of the signal models (the PPG rhythm network, the heart-sound
//! network): a stack of `same`-padded convolutions with ReLU (batch norm folded into the weights by
//! the training), a max-pool by 2 after each but the last, the mean over time and a linear head, and
//! the reader of their little-endian weights (`f32`, or `f16` for networks stored in half precision).
//!
//! The forward pass is written here rather than through a neural-network runtime (the networks are
//! too small to be worth one): each convolution is one matrix product (im2col) done by `faer`'s
//! single-threaded matrix product, whose kernels use the CPU's vector instructions (chosen at run
//! time). On the PPG network's layer shapes it is about 2.2 times as fast as `ndarray`'s SGEMM
//! (`matrixmultiply`), which was itself about twice as fast as the register-tiled loops before it.

use faer::linalg::matmul::matmul;
use faer::{Accum, MatMut, MatRef, Par};

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

impl Conv {
    /// `same`-padded convolution of `input` (`cin` rows of `len`) followed by ReLU.
    ///
    /// Computed as one matrix product: the input's shifted copies (im2col, `[in][tap]` rows of
    /// `len`, zero outside the input) multiplied by the weights `[out][in × tap]` with `faer`'s
    /// matrix product (its `gemm` kernels pick AVX2/FMA or AVX-512 at run time), on this thread.
    fn forward(&self, input: &[f32], len: usize) -> Vec<f32> {
        let pad = self.taps / 2;
        let rows = self.cin * self.taps;
        let mut col = vec![0.0f32; rows * len];
        for (i, src) in input.chunks_exact(len).enumerate() {
            for j in 0..self.taps {
                let dst = &mut col[(i * self.taps + j) * len..][..len];
                // dst[t] = src[t + j - pad] where that index is inside.
                let lo = pad.saturating_sub(j);
                let hi = (len + pad).saturating_sub(j).min(len);
                if lo < hi {
                    dst[lo..hi].copy_from_slice(&src[lo + j - pad..hi + j - pad]);
                }
            }
        }
        let w = MatRef::from_row_major_slice(&self.weight, self.cout, rows);
        let x = MatRef::from_row_major_slice(&col, rows, len);
        let mut out = vec![0.0f32; self.cout * len];
        matmul(
            MatMut::from_row_major_slice_mut(&mut out, self.cout, len),
            Accum::Replace,
            w,
            x,
            1.0,
            Par::Seq,
        );
        clear_upper_vector_state();
        for (row, &b) in out.chunks_exact_mut(len).zip(&self.bias) {
            for v in row {
                *v = (*v + b).max(0.0);
            }
        }
        out
    }
}

/// Marks the upper halves of the vector registers unused (`vzeroupper`) after `faer`'s product.
///
/// Its x86 kernels (generated assembly using AVX-512 where the CPU has it) return without doing so,
/// and until then the program's SSE code runs with a penalty on every instruction: on the 2-core
/// AMD EPYC this project is measured on, a 31-tap filter loop ran 3.6 times slower after a product
/// than before it (73 against 20 µs), which undid the product's own gain. `pulp` (the SIMD layer
/// `faer` is built on) gives the instruction a safe call behind its run-time AVX check.
fn clear_upper_vector_state() {
    #[cfg(target_arch = "x86_64")]
    if let Some(avx) = pulp::core_arch::x86::Avx::try_new() {
        avx._mm256_zeroupper();
    }
}

/// Max-pool by 2 of `channels` rows of `len` (a last odd sample is dropped).
fn max_pool(x: &[f32], len: usize) -> (Vec<f32>, usize) {
    let half = len / 2;
    let mut out = Vec::with_capacity(x.len() / len.max(1) * half);
    for row in x.chunks_exact(len) {
        out.extend(row[..2 * half].chunks_exact(2).map(|p| p[0].max(p[1])));
    }
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

    /// The convolution as its definition: out[o][t] = relu(b[o] + Σ_i Σ_j w[o][i][j] x[i][t + j - pad]).
    fn by_definition(conv: &Conv, x: &[f32], len: usize) -> Vec<f32> {
        let pad = conv.taps / 2;
        let mut out = vec![0.0f32; conv.cout * len];
        for o in 0..conv.cout {
            for t in 0..len {
                let mut sum = f64::from(conv.bias[o]);
                for i in 0..conv.cin {
                    for j in 0..conv.taps {
                        if let Some(k) = (t + j).checked_sub(pad).filter(|&k| k < len) {
                            let w = conv.weight[(o * conv.cin + i) * conv.taps + j];
                            sum += f64::from(w) * f64::from(x[i * len + k]);
                        }
                    }
                }
                out[o * len + t] = sum.max(0.0) as f32;
            }
        }
        out
    }

    #[test]
    fn the_matrix_product_is_the_convolution_on_every_layer_shape() {
        let mut seed = 7u32;
        let mut next = || {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (seed >> 8) as f32 / (1u32 << 24) as f32 - 0.5
        };
        // The PPG network's layers, and odd lengths, one tap, more taps than samples.
        for &(cin, cout, taps, len) in &[
            (1, 32, 9, 500),
            (32, 32, 7, 250),
            (64, 128, 5, 31),
            (128, 128, 3, 15),
            (3, 5, 1, 7),
            (2, 3, 9, 4),
            (1, 1, 3, 1),
        ] {
            let conv = Conv {
                cin,
                cout,
                taps,
                weight: (0..cout * cin * taps).map(|_| next()).collect(),
                bias: (0..cout).map(|_| next()).collect(),
            };
            let x: Vec<f32> = (0..cin * len).map(|_| next()).collect();
            let want = by_definition(&conv, &x, len);
            let got = conv.forward(&x, len);
            assert_eq!(got.len(), want.len());
            for (g, w) in got.iter().zip(&want) {
                assert!(
                    (g - w).abs() < 1e-4,
                    "{cin}->{cout}x{taps} on {len}: {g} vs {w}"
                );
            }
        }
    }

    #[test]
    fn short_bytes_are_refused() {
        let w = bytes(&[1.0, 2.0]);
        assert!(Stack::read(&mut Reader::new(&w), &[(1, 1, 3)], 1).is_none());
    }
}
