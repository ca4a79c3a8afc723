//! The blend of the heart-sound network and the boosted trees: the candidate network weights and
//! thresholds, and the choice of the pair with the best MAcc on out-of-fold probabilities
//! ([`choose_blend`]). The validation ([`super::validation`]) makes the choice inside each outer
//! fold's training recordings, from the inner CV's probabilities (the trees' and the inner
//! networks'), so that no test recording is looked at.

use serde::{Deserialize, Serialize};

use super::validation::{finite, macc_of, Dataset, THRESHOLD};
use cardio_models::pcg_model::network::blend;

/// Network weights of the blend the inner CV chooses from, the first fixed before any result.
pub const BLEND_WEIGHTS: [f64; 5] = [0.75, 1.0, 0.5, 0.25, 0.0];
/// Threshold candidates: [`THRESHOLD`] first, then outwards by 0.05 down to 0.2 and up to 0.8.
pub fn threshold_candidates() -> Vec<f64> {
    let mut t = vec![THRESHOLD];
    for k in 1..=6 {
        let step = 0.05 * f64::from(k);
        t.push(THRESHOLD - step);
        t.push(THRESHOLD + step);
    }
    t
}

/// The blend of the network and the trees, and the threshold of abnormal, chosen on out-of-fold
/// probabilities.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Blend {
    /// Weight of the network ([`cardio_models::pcg_model::network::blend`]).
    pub weight: f64,
    /// Blended probability at or above which a gated-in recording is called abnormal.
    pub threshold: f64,
    /// MAcc of the choice on the probabilities it was chosen on.
    pub macc: f64,
}

/// The pair of [`BLEND_WEIGHTS`] and [`threshold_candidates`] with the best MAcc (gate applied,
/// `min_periodicity`) on `rows`, whose out-of-fold probabilities are `trees` and `network` (in
/// the order of `rows`); on a tie the earlier candidate stays (the a-priori pair first).
pub fn choose_blend(
    data: &Dataset,
    rows: &[usize],
    trees: &[f64],
    network: &[f64],
    min_periodicity: f64,
) -> Blend {
    let mut best = Blend {
        weight: BLEND_WEIGHTS[0],
        threshold: THRESHOLD,
        macc: f64::NEG_INFINITY,
    };
    for weight in BLEND_WEIGHTS {
        let p: Vec<f64> = trees
            .iter()
            .zip(network)
            .map(|(&t, &n)| blend(weight, t, finite(n)))
            .collect();
        for threshold in threshold_candidates() {
            let macc = macc_of(data, rows, &p, min_periodicity, threshold);
            if macc > best.macc {
                best = Blend {
                    weight,
                    threshold,
                    macc,
                };
            }
        }
    }
    best
}
