//! Heart-sound segmentation by a duration-dependent (hidden semi-Markov) model over the four states
//! S1 → systole → S2 → diastole, decoded with the Viterbi algorithm on the homomorphic envelope.
//!
//! Schmidt, S. E., Holst-Hansen, C., Graff, C., Toft, E., Struijk, J. J. (2010), "Segmentation of
//! heart sound recordings by a duration-dependent hidden Markov model", *Physiological Measurement*
//! 31(4), 513-529; Springer, D. B., Tarassenko, L., Clifford, G. D. (2016), "Logistic
//! regression-HSMM-based heart sound segmentation", *IEEE Trans. Biomed. Eng.* 63(4), 822-832 (state
//! duration priors: S1 122 ± 22 ms, S2 92 ± 22 ms, systole and diastole from the heart rate and the
//! systolic interval of the envelope autocorrelation).
//!
//! Springer's emission probabilities come from a logistic regression trained on hand-annotated
//! recordings, which are not available here. This decoder uses a fixed, untrained emission instead:
//! the probability of "a heart sound" is a logistic function of the z-scored envelope (see
//! [`sound_probability`]), the two sound states share it, the two silent states share its
//! complement. S1 and S2 are therefore told apart only by the duration model (systole shorter than
//! diastole), as in Springer's method.

/// State codes of the decoded sequence.
pub const S1: u8 = 0;
/// Systole.
pub const SYSTOLE: u8 = 1;
/// S2.
pub const S2: u8 = 2;
/// Diastole.
pub const DIASTOLE: u8 = 3;

/// Probability that an envelope sample (z-scored) belongs to a heart sound:
/// `1 / (1 + exp(-3 (e - 0.5)))`, floored at 0.02 and capped at 0.98.
pub fn sound_probability(e: f64) -> f64 {
    (1.0 / (1.0 + (-3.0 * (e - 0.5)).exp())).clamp(0.02, 0.98)
}

/// Mean and standard deviation of each state's duration, in envelope samples.
fn durations(ef: f64, heart_rate_bpm: f64, systole_s: f64) -> [(f64, f64); 4] {
    let cycle = 60.0 / heart_rate_bpm;
    let (s1, s2) = (0.122, 0.092);
    let sys = (systole_s - s1).max(0.08);
    let dia = (cycle - systole_s - s2).max(0.1);
    [
        (s1 * ef, 0.022 * ef),
        (sys * ef, 0.025 * ef),
        (s2 * ef, 0.022 * ef),
        (dia * ef, (0.07 * dia + 0.006) * ef),
    ]
}

/// Decodes the most likely state of every envelope sample (at `ef` hertz), given the heart rate and
/// systolic interval. Returns an empty vector when the inputs cannot be used (no samples, rates not
/// finite or outside 30-250 bpm).
pub fn decode(env: &[f64], ef: f64, heart_rate_bpm: f64, systole_s: f64) -> Vec<u8> {
    let t_len = env.len();
    if t_len < 2
        || !(heart_rate_bpm.is_finite() && (30.0..=250.0).contains(&heart_rate_bpm))
        || !(systole_s.is_finite() && systole_s > 0.0)
        || !(ef.is_finite() && ef > 0.0)
    {
        return Vec::new();
    }
    let dur = durations(ef, heart_rate_bpm, systole_s);
    // Allowed durations: mean ± 3 SD, at least one sample.
    let range: Vec<(usize, usize)> = dur
        .iter()
        .map(|&(m, s)| {
            let s = s.max(1.0);
            let lo = (m - 3.0 * s).round().max(1.0) as usize;
            let hi = ((m + 3.0 * s).round() as usize).max(lo);
            (lo, hi)
        })
        .collect();
    let log_dur = |j: usize, d: usize| {
        let (m, s) = dur[j];
        let s = s.max(1.0);
        let z = (d as f64 - m) / s;
        -0.5 * z * z - s.ln()
    };
    // Prefix sums of log emissions: cum[j][t] = Σ_{s < t} log b_j(s).
    let mut cum = vec![vec![0.0; t_len + 1]; 4];
    for (t, &e) in env.iter().enumerate() {
        let p = if e.is_finite() {
            sound_probability(e)
        } else {
            0.5
        };
        for (j, c) in cum.iter_mut().enumerate() {
            let b = if j == 0 || j == 2 { p } else { 1.0 - p };
            c[t + 1] = c[t] + b.ln();
        }
    }
    let emis = |j: usize, start: usize, end: usize| cum[j][end] - cum[j][start];
    let prev = |j: usize| (j + 3) % 4;
    // delta[t][j]: best log score of a path whose segment of state j ends at sample t (inclusive);
    // back[t][j]: that segment's duration.
    let mut delta = vec![[f64::NEG_INFINITY; 4]; t_len];
    let mut back = vec![[0usize; 4]; t_len];
    for t in 0..t_len {
        for j in 0..4 {
            let (lo, hi) = range[j];
            // A first segment may be cut by the start of the recording: no duration term.
            if t < hi {
                let score = emis(j, 0, t + 1);
                if score > delta[t][j] {
                    delta[t][j] = score;
                    back[t][j] = t + 1;
                }
            }
            for d in lo..=hi.min(t) {
                let before = delta[t - d][prev(j)];
                if before == f64::NEG_INFINITY {
                    continue;
                }
                let score = before + log_dur(j, d) + emis(j, t + 1 - d, t + 1);
                if score > delta[t][j] {
                    delta[t][j] = score;
                    back[t][j] = d;
                }
            }
        }
    }
    // The last segment may be cut by the end of the recording: no duration term either.
    let mut best = (f64::NEG_INFINITY, 0usize, 0usize); // (score, state, duration)
    for j in 0..4 {
        if delta[t_len - 1][j] > best.0 {
            best = (delta[t_len - 1][j], j, back[t_len - 1][j]);
        }
        for d in 1..range[j].1.min(t_len) {
            let before = delta[t_len - 1 - d][prev(j)];
            let score = before + emis(j, t_len - d, t_len);
            if score > best.0 {
                best = (score, j, d);
            }
        }
    }
    let mut states = vec![S1; t_len];
    let (mut end, mut j, mut d) = (t_len, best.1, best.2.max(1));
    loop {
        let start = end.saturating_sub(d);
        for s in &mut states[start..end] {
            *s = j as u8;
        }
        if start == 0 {
            break;
        }
        end = start;
        j = prev(j);
        d = back[end - 1][j].max(1);
    }
    states
}

/// Cardiac cycles of a decoded sequence as sample ranges `[s1, systole, s2, diastole]` (in envelope
/// samples), each cycle starting at an S1 onset and ending at the next S1 onset.
pub fn cycles(states: &[u8]) -> Vec<[std::ops::Range<usize>; 4]> {
    // Runs of equal state: (state, start, end).
    let mut runs: Vec<(u8, usize, usize)> = Vec::new();
    for (t, &s) in states.iter().enumerate() {
        match runs.last_mut() {
            Some(r) if r.0 == s => r.2 = t + 1,
            _ => runs.push((s, t, t + 1)),
        }
    }
    runs.windows(5)
        .filter(|w| w[0].0 == S1 && w[4].0 == S1)
        .map(|w| {
            [
                w[0].1..w[0].2,
                w[1].1..w[1].2,
                w[2].1..w[2].2,
                w[3].1..w[3].2,
            ]
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An envelope with a loud S1 every 0.8 s and a softer S2 0.3 s later, at 50 Hz.
    fn envelope(seconds: f64) -> Vec<f64> {
        (0..(seconds * 50.0) as usize)
            .map(|i| {
                let ph = (i as f64 / 50.0) % 0.8;
                let bump = |c: f64, a: f64| a * (-((ph - c) * (ph - c)) / 0.0008).exp();
                bump(0.1, 3.0) + bump(0.4, 2.0) - 0.5
            })
            .collect()
    }

    #[test]
    fn decodes_s1_at_the_first_bump_and_s2_at_the_second() {
        let env = envelope(10.0);

        let states = decode(&env, 50.0, 75.0, 0.3);
        let found = cycles(&states);

        assert!(found.len() >= 10, "{}", found.len());
        for c in &found {
            let s1_mid = (c[0].start + c[0].end) as f64 / 2.0 / 50.0;
            let s2_mid = (c[2].start + c[2].end) as f64 / 2.0 / 50.0;
            assert!((s1_mid % 0.8 - 0.1).abs() < 0.05, "S1 at {s1_mid}");
            assert!((s2_mid % 0.8 - 0.4).abs() < 0.05, "S2 at {s2_mid}");
        }
    }

    #[test]
    fn unusable_inputs_give_no_states() {
        assert!(decode(&[], 50.0, 75.0, 0.3).is_empty());
        assert!(decode(&envelope(5.0), 50.0, f64::NAN, 0.3).is_empty());
        assert!(decode(&envelope(5.0), 50.0, 400.0, 0.3).is_empty());
        assert!(cycles(&[S1, SYSTOLE, S2]).is_empty());
    }
}
