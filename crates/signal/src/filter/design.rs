//! The steps of the design that follow SciPy (`scipy.signal` `bilinear_zpk` and `zpk2sos` with its
//! pole/zero pairing), and running a cascade of sections over a signal.

use crate::complex::C64;

pub(super) fn run_sections<'a, const K: usize>(
    sections: &[[f64; 6]],
    state: &mut [[f64; 2]],
    data: impl Iterator<Item = &'a mut f64>,
) {
    let mut c = [[0.0; 6]; K];
    c.copy_from_slice(&sections[..K]);
    let mut z = [[0.0; 2]; K];
    z.copy_from_slice(&state[..K]);
    for v in data {
        let mut x = *v;
        for k in 0..K {
            let [b0, b1, b2, _, a1, a2] = c[k];
            let y = b0 * x + z[k][0];
            z[k][0] = b1 * x - a1 * y + z[k][1];
            z[k][1] = b2 * x - a2 * y;
            x = y;
        }
        *v = x;
    }
    state[..K].copy_from_slice(&z);
}

/// Bilinear transform of zeros, poles and gain (SciPy's `bilinear_zpk`).
pub(super) fn bilinear_zpk(z: &[C64], p: &[C64], k: f64, fs: f64) -> (Vec<C64>, Vec<C64>, f64) {
    let fs2 = C64::real(2.0 * fs);
    let degree = p.len() - z.len();
    let mut zz: Vec<C64> = z.iter().map(|&q| (fs2 + q) / (fs2 - q)).collect();
    let pz: Vec<C64> = p.iter().map(|&q| (fs2 + q) / (fs2 - q)).collect();
    zz.extend(std::iter::repeat_n(C64::real(-1.0), degree));
    let num = z.iter().fold(C64::real(1.0), |acc, &q| acc * (fs2 - q));
    let den = p.iter().fold(C64::real(1.0), |acc, &q| acc * (fs2 - q));
    (zz, pz, k * (num / den).re)
}

/// SciPy's `_cplxreal`: one of each conjugate pair (positive imaginary part, sorted by real part),
/// then the real values sorted.
pub(super) fn cplxreal(z: &[C64]) -> Vec<C64> {
    let tol = 100.0 * f64::EPSILON;
    let mut z = z.to_vec();
    z.sort_by(|a, b| {
        a.re.total_cmp(&b.re)
            .then(a.im.abs().total_cmp(&b.im.abs()))
    });
    let mut reals = Vec::new();
    let mut pos = Vec::new();
    let mut neg = Vec::new();
    for q in z {
        if q.im.abs() <= tol * q.abs() {
            reals.push(C64::real(q.re));
        } else if q.im > 0.0 {
            pos.push(q);
        } else {
            neg.push(q);
        }
    }
    // Runs of equal real parts are sorted by |imag| already (stable sort on the same keys).
    let mut out: Vec<C64> = pos
        .iter()
        .zip(neg.iter())
        .map(|(a, b)| (*a + b.conj()) * 0.5)
        .collect();
    out.extend(reals);
    out
}

pub(super) fn is_real(q: C64) -> bool {
    q.im == 0.0
}

/// Index of the element of `from` nearest to `to` that is real / complex / either
/// (SciPy's `_nearest_real_complex_idx`).
pub(super) fn nearest_idx(from: &[C64], to: C64, which: Option<bool>) -> usize {
    let mut order: Vec<usize> = (0..from.len()).collect();
    order.sort_by(|&a, &b| (from[a] - to).abs().total_cmp(&(from[b] - to).abs()));
    match which {
        None => order[0],
        Some(real) => *order
            .iter()
            .find(|&&i| is_real(from[i]) == real)
            .expect("a matching root exists"),
    }
}

pub(super) fn idx_worst(p: &[C64]) -> usize {
    let mut best = 0;
    for (i, q) in p.iter().enumerate() {
        if (1.0 - q.abs()).abs() < (1.0 - p[best].abs()).abs() {
            best = i;
        }
    }
    best
}

/// Monic polynomial with the given roots, real part (numpy's `poly`), padded to `[c0, c1, c2]`
/// aligned to the right.
pub(super) fn poly2(roots: &[C64]) -> [f64; 3] {
    let mut a = vec![C64::real(1.0)];
    for &r in roots {
        let mut next = vec![C64::real(0.0); a.len() + 1];
        for (i, &c) in a.iter().enumerate() {
            next[i] = next[i] + c;
            next[i + 1] = next[i + 1] - c * r;
        }
        a = next;
    }
    let mut out = [0.0; 3];
    let off = 3 - a.len();
    for (i, c) in a.iter().enumerate() {
        out[off + i] = c.re;
    }
    out
}

pub(super) fn single_section(z: &[C64], p: &[C64]) -> [f64; 6] {
    let b = poly2(z);
    let a = poly2(p);
    [b[0], b[1], b[2], a[0], a[1], a[2]]
}

/// SciPy's `zpk2sos` with `pairing='nearest'` for digital filters.
pub(super) fn zpk2sos(mut z: Vec<C64>, mut p: Vec<C64>, k: f64) -> Vec<[f64; 6]> {
    if z.is_empty() && p.is_empty() {
        return vec![[k, 0.0, 0.0, 1.0, 0.0, 0.0]];
    }
    while p.len() < z.len() {
        p.push(C64::real(0.0));
    }
    while z.len() < p.len() {
        z.push(C64::real(0.0));
    }
    let n_sections = p.len().div_ceil(2);
    if p.len() % 2 == 1 {
        p.push(C64::real(0.0));
        z.push(C64::real(0.0));
    }
    let mut z = cplxreal(&z);
    let mut p = cplxreal(&p);
    let mut sos = vec![[0.0; 6]; n_sections];
    for si in (0..n_sections).rev() {
        let p1 = p.remove(idx_worst(&p));
        let n_real_p = p.iter().filter(|q| is_real(**q)).count();
        if is_real(p1) && n_real_p == 0 {
            let z1 = z.remove(nearest_idx(&z, p1, Some(true)));
            sos[si] = single_section(&[z1, C64::real(0.0)], &[p1, C64::real(0.0)]);
        } else if p.len() + 1 == z.len()
            && !is_real(p1)
            && n_real_p == 1
            && z.iter().filter(|q| is_real(**q)).count() == 1
        {
            let z1 = z.remove(nearest_idx(&z, p1, Some(false)));
            sos[si] = single_section(&[z1, z1.conj()], &[p1, p1.conj()]);
        } else {
            let p2 = if is_real(p1) {
                let reals: Vec<usize> = (0..p.len()).filter(|&i| is_real(p[i])).collect();
                let cand: Vec<C64> = reals.iter().map(|&i| p[i]).collect();
                p.remove(reals[idx_worst(&cand)])
            } else {
                p1.conj()
            };
            if z.is_empty() {
                sos[si] = single_section(&[], &[p1, p2]);
            } else {
                let z1 = z.remove(nearest_idx(&z, p1, None));
                if !is_real(z1) {
                    sos[si] = single_section(&[z1, z1.conj()], &[p1, p2]);
                } else if z.is_empty() {
                    sos[si] = single_section(&[z1], &[p1, p2]);
                } else {
                    let z2 = z.remove(nearest_idx(&z, p1, Some(true)));
                    sos[si] = single_section(&[z1, z2], &[p1, p2]);
                }
            }
        }
    }
    for c in &mut sos[0][..3] {
        *c *= k;
    }
    sos
}
