//! L2-penalised logistic regression fitted by Newton's method, and Platt scaling.
//!
//! The objective is the mean log-loss plus `lambda / 2 * |w|^2` over the coefficients (the intercept is
//! not penalised), so `lambda` means the same for any number of rows. Newton steps solve the penalised
//! Hessian system by Cholesky; with `lambda > 0` the problem is strictly convex and the fit converges
//! even on separable data. Everything is plain `f64` arithmetic in a fixed order: deterministic.
//! The logistic function itself ([`sigmoid`]) is part of the shipped model and lives there.

pub use cardio_models::clinical::model::sigmoid;

/// A fitted linear logit `intercept + coefficients · x`.
#[derive(Debug, Clone, PartialEq)]
pub struct Logistic {
    /// Unpenalised intercept.
    pub intercept: f64,
    /// One coefficient per column of the design matrix.
    pub coefficients: Vec<f64>,
}

impl Logistic {
    /// The logit (log-odds) of one row.
    pub fn logit(&self, x: &[f64]) -> f64 {
        self.intercept
            + self
                .coefficients
                .iter()
                .zip(x)
                .map(|(w, v)| w * v)
                .sum::<f64>()
    }
}

/// Fits `P(y = 1 | x) = sigmoid(b + w · x)` minimising mean log-loss + `lambda / 2 * |w|^2`.
///
/// `rows` all have the same length; `y` has one label per row. Returns zeros for an empty input.
#[allow(clippy::many_single_char_names, clippy::needless_range_loop)] // matrix notation
pub fn fit(rows: &[Vec<f64>], y: &[bool], lambda: f64) -> Logistic {
    let p = rows.first().map_or(0, Vec::len);
    let n = rows.len();
    // Parameter vector: [intercept, w_0 .. w_{p-1}].
    let mut beta = vec![0.0; p + 1];
    if n == 0 {
        return Logistic {
            intercept: 0.0,
            coefficients: vec![0.0; p],
        };
    }
    let positives = y.iter().filter(|&&v| v).count() as f64;
    let prior = ((positives + 0.5) / (n as f64 + 1.0)).clamp(1e-6, 1.0 - 1e-6);
    beta[0] = (prior / (1.0 - prior)).ln();
    let inv_n = 1.0 / n as f64;
    // Rows with a leading 1 for the intercept.
    let aug: Vec<Vec<f64>> = rows
        .iter()
        .map(|r| std::iter::once(1.0).chain(r.iter().copied()).collect())
        .collect();
    for _ in 0..100 {
        let mut grad = vec![0.0; p + 1];
        let mut hess = vec![vec![0.0; p + 1]; p + 1];
        for (x, &label) in aug.iter().zip(y) {
            let z: f64 = beta.iter().zip(x).map(|(w, v)| w * v).sum();
            let prob = sigmoid(z);
            let r = (prob - f64::from(u8::from(label))) * inv_n;
            let weight = (prob * (1.0 - prob)).max(1e-12) * inv_n;
            for (a, &xa) in x.iter().enumerate() {
                grad[a] += r * xa;
                let wa = weight * xa;
                for (h, &xb) in hess[a][..=a].iter_mut().zip(x) {
                    *h += wa * xb;
                }
            }
        }
        for a in 1..=p {
            grad[a] += lambda * beta[a];
            hess[a][a] += lambda;
        }
        // Tiny ridge on the intercept keeps the system solvable when every label is equal.
        hess[0][0] += 1e-10;
        for a in 0..=p {
            for b in 0..a {
                hess[b][a] = hess[a][b];
            }
        }
        let Some(step) = cholesky_solve(&hess, &grad) else {
            break;
        };
        let mut largest: f64 = 0.0;
        for (b, s) in beta.iter_mut().zip(&step) {
            *b -= s;
            largest = largest.max(s.abs());
        }
        if largest < 1e-10 {
            break;
        }
    }
    Logistic {
        intercept: beta[0],
        coefficients: beta[1..].to_vec(),
    }
}

/// Solves `A x = b` for a symmetric positive definite `A`; `None` when it is not.
#[allow(clippy::many_single_char_names, clippy::needless_range_loop)] // matrix notation
fn cholesky_solve(a: &[Vec<f64>], b: &[f64]) -> Option<Vec<f64>> {
    let n = b.len();
    let mut l = vec![vec![0.0; n]; n];
    for i in 0..n {
        for j in 0..=i {
            let s: f64 = (0..j).map(|k| l[i][k] * l[j][k]).sum();
            if i == j {
                let d = a[i][i] - s;
                if d <= 0.0 || !d.is_finite() {
                    return None;
                }
                l[i][j] = d.sqrt();
            } else {
                l[i][j] = (a[i][j] - s) / l[j][j];
            }
        }
    }
    let mut z = vec![0.0; n];
    for i in 0..n {
        let s: f64 = (0..i).map(|k| l[i][k] * z[k]).sum();
        z[i] = (b[i] - s) / l[i][i];
    }
    let mut x = vec![0.0; n];
    for i in (0..n).rev() {
        let s: f64 = (i + 1..n).map(|k| l[k][i] * x[k]).sum();
        x[i] = (z[i] - s) / l[i][i];
    }
    Some(x)
}

/// Platt scaling: `P = sigmoid(a * logit + b)` fitted on out-of-fold logits (Platt 1999).
pub fn fit_platt(logits: &[f64], y: &[bool]) -> (f64, f64) {
    let rows: Vec<Vec<f64>> = logits.iter().map(|&s| vec![s]).collect();
    let m = fit(&rows, y, 1e-6);
    (m.coefficients.first().copied().unwrap_or(1.0), m.intercept)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn separates_a_tiny_separable_set() {
        let rows = vec![
            vec![-2.0, 0.1],
            vec![-1.5, -0.3],
            vec![-1.0, 0.2],
            vec![1.0, -0.1],
            vec![1.4, 0.3],
            vec![2.1, 0.0],
        ];
        let y = [false, false, false, true, true, true];

        let m = fit(&rows, &y, 0.01);

        assert!(m.coefficients[0] > 1.0, "{m:?}");
        for (row, &label) in rows.iter().zip(&y) {
            assert_eq!(sigmoid(m.logit(row)) > 0.5, label, "{row:?}");
        }
        // The penalty keeps the fit finite and shrinks it as lambda grows.
        let strong = fit(&rows, &y, 1.0);
        assert!(strong.coefficients[0].abs() < m.coefficients[0].abs());
        assert!(m.coefficients.iter().all(|w| w.is_finite()));
    }

    #[test]
    fn fits_the_known_maximum_likelihood_of_one_binary_feature() {
        // x = 0: 1 of 4 positive; x = 1: 3 of 4 positive. MLE: b = ln(1/3), w = ln 9.
        let rows: Vec<Vec<f64>> = [0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0]
            .iter()
            .map(|&v| vec![v])
            .collect();
        let y = [true, false, false, false, true, true, true, false];

        let m = fit(&rows, &y, 0.0);

        assert!((m.intercept - (1.0f64 / 3.0).ln()).abs() < 1e-8, "{m:?}");
        assert!((m.coefficients[0] - 9.0f64.ln()).abs() < 1e-8, "{m:?}");
    }

    #[test]
    fn sigmoid_is_stable_at_the_extremes() {
        assert_eq!(sigmoid(0.0), 0.5);
        assert!(sigmoid(800.0) <= 1.0 && sigmoid(-800.0) >= 0.0);
    }
}
