//! Heart cycles of a segmentation (rule-based and HSMM) and the per-cycle block of timing,
//! amplitude, band-power and cepstral features of the four states (Potes et al. 2016).

use cardio_signal::pcg;

use super::spectra::{band_power, cepstra, spectral_centroid, spectral_entropy, Spectra};
use super::stats::{mean, mean_abs, median, sd, span};
use super::{ANALYSIS_HZ, BANDS, FRAME, MIN_STATE, N_CEPSTRA, S1_HALF, S2_HALF};

/// One cardiac cycle: S1 onset, S2 onset and the next S1 onset (seconds), and the sample ranges of
/// its four states at 1 kHz.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Cycle {
    pub(super) s1: f64,
    pub(super) s2: f64,
    pub(super) next_s1: f64,
    pub(super) windows: [std::ops::Range<usize>; 4],
}

/// Cycles of the rule-based segmentation: fixed windows around the S1 and S2 envelope peaks.
pub(super) fn rule_cycles(seg: &pcg::Segmentation, n: usize) -> Vec<Cycle> {
    let min_len = (MIN_STATE * ANALYSIS_HZ) as usize;
    seg.cycles
        .iter()
        .filter(|&&(a, b, c)| b > a && c > b && c - a < 2.5)
        .map(|&(a, b, c)| Cycle {
            s1: a,
            s2: b,
            next_s1: c,
            windows: [
                span(a - S1_HALF, a + S1_HALF, n),
                span(a + S1_HALF, b - S2_HALF, n),
                span(b - S2_HALF, b + S2_HALF, n),
                span(b + S2_HALF, c - S1_HALF, n),
            ],
        })
        .filter(|c| c.windows.iter().all(|w| w.len() >= min_len))
        .collect()
}

/// Cycles of the duration-dependent segmentation ([`crate::pcg_model::hsmm`]).
pub(super) fn hsmm_cycles(seg: &pcg::Segmentation, n: usize) -> Vec<Cycle> {
    let (Some(hr), Some(sys)) = (seg.heart_rate_bpm, seg.systole_s) else {
        return Vec::new();
    };
    let ef = pcg::ENVELOPE_HZ;
    let states = crate::pcg_model::hsmm::decode(&seg.envelope, ef, hr, sys);
    let to_s = |i: usize| i as f64 / ef;
    crate::pcg_model::hsmm::cycles(&states)
        .into_iter()
        .map(|w| Cycle {
            s1: to_s(w[0].start),
            s2: to_s(w[2].start),
            next_s1: to_s(w[3].end),
            windows: [
                span(to_s(w[0].start), to_s(w[0].end), n),
                span(to_s(w[1].start), to_s(w[1].end), n),
                span(to_s(w[2].start), to_s(w[2].end), n),
                span(to_s(w[3].start), to_s(w[3].end), n),
            ],
        })
        .filter(|c| c.windows.iter().all(|w| !w.is_empty()))
        .collect()
}

/// The per-cycle block of features (see [`block_names`]).
pub(super) fn cycle_block(
    x: &[f64],
    cycles: &[Cycle],
    analysed_s: f64,
    heart_rate: f64,
    spectra: &mut Spectra,
    bank: &[Vec<f64>],
    durations: bool,
) -> Vec<f64> {
    let cyc: Vec<f64> = cycles.iter().map(|c| c.next_s1 - c.s1).collect();
    let sys: Vec<f64> = cycles.iter().map(|c| c.s2 - c.s1).collect();
    let dia: Vec<f64> = cycles.iter().map(|c| c.next_s1 - c.s2).collect();
    let ratio =
        |a: &[f64], b: &[f64]| -> Vec<f64> { a.iter().zip(b).map(|(a, b)| a / b).collect() };
    let sys_cyc = ratio(&sys, &cyc);
    let dia_cyc = ratio(&dia, &cyc);
    let sys_dia = ratio(&sys, &dia);
    let s1_len: Vec<f64> = cycles
        .iter()
        .map(|c| c.windows[0].len() as f64 / ANALYSIS_HZ)
        .collect();
    let s2_len: Vec<f64> = cycles
        .iter()
        .map(|c| c.windows[2].len() as f64 / ANALYSIS_HZ)
        .collect();

    let bins = FRAME / 2 + 1;
    let mut state_psd = vec![vec![0.0; bins]; 4];
    let mut band_log_rel: Vec<Vec<Vec<f64>>> = vec![vec![Vec::new(); BANDS.len()]; 4];
    let mut sys_over_s1: Vec<Vec<f64>> = vec![Vec::new(); BANDS.len()];
    let mut dia_over_s2: Vec<Vec<f64>> = vec![Vec::new(); BANDS.len()];
    let (mut amp_s1_s2, mut amp_sys_s1, mut amp_dia_s2) = (Vec::new(), Vec::new(), Vec::new());
    let (mut amp_sys, mut amp_dia) = (Vec::new(), Vec::new());
    for c in cycles {
        let amps: Vec<f64> = c.windows.iter().map(|w| mean_abs(&x[w.clone()])).collect();
        amp_s1_s2.push((amps[0] / amps[2]).ln());
        amp_sys_s1.push((amps[1] / amps[0]).ln());
        amp_dia_s2.push((amps[3] / amps[2]).ln());
        amp_sys.push(amps[1]);
        amp_dia.push(amps[3]);
        let psds: Vec<Vec<f64>> = c
            .windows
            .iter()
            .map(|w| spectra.psd(&x[w.clone()]))
            .collect();
        // Reference: the mean power of the whole cycle's sounds and intervals.
        let total: f64 = psds.iter().map(|p| band_power(p, 25.0, 400.0)).sum::<f64>() / 4.0;
        for (s, psd) in psds.iter().enumerate() {
            for (k, v) in psd.iter().enumerate() {
                state_psd[s][k] += v / total.max(1e-300);
            }
            for (bi, &(lo, hi)) in BANDS.iter().enumerate() {
                band_log_rel[s][bi].push((band_power(psd, lo, hi) / total + 1e-12).ln());
            }
        }
        for (bi, &(lo, hi)) in BANDS.iter().enumerate() {
            let e = |s: usize| band_power(&psds[s], lo, hi) + 1e-12 * total;
            sys_over_s1[bi].push((e(1) / e(0)).ln());
            dia_over_s2[bi].push((e(3) / e(2)).ln());
        }
    }
    let cv = |v: &[f64]| sd(v) / mean(v);
    let per_minute = cycles.len() as f64 / analysed_s * 60.0;
    let mut v = vec![
        per_minute / heart_rate,
        mean(&cyc),
        sd(&cyc),
        mean(&sys),
        sd(&sys),
        mean(&dia),
        sd(&dia),
        mean(&sys_cyc),
        sd(&sys_cyc),
        mean(&dia_cyc),
        sd(&dia_cyc),
        mean(&sys_dia),
        sd(&sys_dia),
    ];
    if durations {
        v.extend([mean(&s1_len), mean(&s2_len)]);
    }
    v.extend([
        median(&amp_s1_s2),
        median(&amp_sys_s1),
        median(&amp_dia_s2),
        cv(&amp_sys),
        cv(&amp_dia),
    ]);
    for per_state in &band_log_rel {
        for b in per_state {
            v.push(median(b));
        }
    }
    for s in [1, 3] {
        for b in &band_log_rel[s] {
            v.push(sd(b));
        }
    }
    for bi in 0..BANDS.len() {
        v.push(median(&sys_over_s1[bi]));
        v.push(median(&dia_over_s2[bi]));
    }
    for psd in &state_psd {
        if cycles.is_empty() {
            v.extend(std::iter::repeat_n(f64::NAN, 2 + N_CEPSTRA));
            continue;
        }
        let avg: Vec<f64> = psd.iter().map(|p| p / cycles.len() as f64).collect();
        v.push(spectral_entropy(&avg));
        v.push(spectral_centroid(&avg));
        v.extend(cepstra(&avg, bank, 1.0));
    }
    v
}
