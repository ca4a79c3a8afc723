//! The features of every beat of a long lead for the N / S / V beat classifier: how premature the
//! beat is and how its shape differs from the beats around it.
//!
//! The features are **patient-relative**, as inter-patient beat classification needs them to be
//! (de Chazal P, O'Dwyer M, Reilly RB 2004, "Automatic classification of heartbeats using ECG
//! morphology and heartbeat interval features", IEEE Trans Biomed Eng 51(7):1196-1206: the
//! pre-, post-, local and average RR intervals; Llamedo M, Martínez JP 2011, "Heartbeat
//! classification using feature selection driven by database generalization criteria", IEEE
//! Trans Biomed Eng 58(3):616-625: RR intervals normalised by the patient's own rhythm):
//!
//! - **intervals**, as ratios only: the RR before the beat over the RR after it, and each over
//!   the **dominant beats' interval** (the median RR before the beats of the neighbourhood's
//!   dominant template, below: the underlying rhythm's interval, which the premature beats do not
//!   set even where they are most of the beats) and over the local long interval (the 90th
//!   percentile of the 40 intervals around the beat); the share of premature beats around it;
//!   and the local irregularity (the median normalised successive RR difference around the
//!   beat, high in atrial fibrillation, where an early beat is no ectopic beat). No raw interval
//!   and no ratio to the median of all the beats around: with them the trees learnt DS1's
//!   patients' rates and "premature against the local median", which frequent atrial ectopy
//!   defeats (4-fold record-grouped CV inside DS1, pooled: S Se 41.0 -> 49.0 %, +P 20.1 ->
//!   23.9 %, V Se 89.3 -> 92.3 %, +P 78.1 -> 78.6 % without them; `cards/holter.md`);
//! - **shape**: the beat against the neighbourhood's **dominant template**, the sample-wise
//!   median of the beats around it that are not premature (the template of template-matching
//!   beat classifiers; Hamilton 2002, Open source ECG analysis, Computers in Cardiology 29): the
//!   correlation of the QRS (±60 and ±100 ms), of the P-wave region (-300 to -60 ms) and of the T
//!   region (+120 to +420 ms), amplitude, width, slope, area and energy ratios, the offset of the
//!   main peak, and six points of the QRS difference.
//!
//! The shape is read on a fixed time grid (linear interpolation), so the features do not depend
//! on the sampling rate. Nothing here is fitted: the classifier that reads the features is
//! [`super::Classifier`].

// x (the signal), n (beats), f (a beat's features), s and t (a beat's and the template's
// shapes) are short on purpose: the formulas read like the papers'.
#![allow(clippy::many_single_char_names)]

use cardio_signal::stats::pearson;

/// Number of features of a beat.
pub const N_FEATURES: usize = 27;

/// Feature names, in order (written into the committed parameters with the model).
pub const NAMES: [&str; N_FEATURES] = [
    "pre_over_post",
    "local_irregularity",
    "local_premature_fraction",
    "qrs_corr_60ms",
    "qrs_corr_100ms",
    "qrs_log_amplitude_ratio",
    "qrs_rms_difference",
    "qrs_width_ms",
    "qrs_width_ratio",
    "qrs_slope_ratio",
    "qrs_area_ratio",
    "r_value_ratio",
    "peak_offset_ms",
    "p_corr",
    "p_energy_ratio",
    "t_corr",
    "t_energy_ratio",
    "diff_m75ms",
    "diff_m45ms",
    "diff_m15ms",
    "diff_p15ms",
    "diff_p45ms",
    "diff_p75ms",
    "pre_over_local_long",
    "post_over_local_long",
    "pre_over_dominant",
    "post_over_dominant",
];

/// Neighbourhood of a template and of the dominant beats' interval, s either side of its block.
pub const NEIGHBOURHOOD_S: f64 = 120.0;
/// Beats share a template per block of this length, s.
pub const BLOCK_S: f64 = 60.0;
/// Most beats of a neighbourhood used for its template (evenly picked).
pub const TEMPLATE_BEATS: usize = 160;
/// Intervals either side of a beat in its local rhythm.
pub const LOCAL: usize = 10;
/// Intervals either side of a beat whose upper quantile is its local long interval.
pub const LOCAL_LONG: usize = 20;
/// The quantile of the local long interval: the rhythm's own interval where ectopic beats are
/// most of the beats (frequent atrial premature beats shorten the median, not the longer
/// intervals of the underlying rhythm).
pub const LONG_QUANTILE: f64 = 0.9;
/// A beat whose RR before it is under this fraction of the local rhythm is premature.
pub const PREMATURE: f64 = 0.88;
/// Grid step of the shape, s.
const STEP_S: f64 = 0.005;

/// A time grid relative to the R peak: `count` points from `from_s` every `step_s`.
#[derive(Clone, Copy)]
struct Grid {
    from_s: f64,
    step_s: f64,
    count: usize,
}

const QRS: Grid = Grid {
    from_s: -0.1,
    step_s: STEP_S,
    count: 41,
};
const P_REGION: Grid = Grid {
    from_s: -0.3,
    step_s: 0.01,
    count: 25,
};
const T_REGION: Grid = Grid {
    from_s: 0.12,
    step_s: 0.01,
    count: 31,
};

/// Index in the QRS grid of a time relative to the R peak.
fn qrs_index(t_s: f64) -> usize {
    ((t_s - QRS.from_s) / QRS.step_s).round() as usize
}

/// `x` (at `fs`) at time `t` s by linear interpolation; 0 outside.
fn at(x: &[f64], fs: f64, t: f64) -> f64 {
    let p = t * fs;
    if p < 0.0 {
        return 0.0;
    }
    let i = p.floor() as usize;
    if i + 1 >= x.len() {
        return x.last().copied().filter(|_| i < x.len()).unwrap_or(0.0);
    }
    let f = p - i as f64;
    x[i] * (1.0 - f) + x[i + 1] * f
}

/// The grid's samples around a beat at `t` s.
fn shape(x: &[f64], fs: f64, t: f64, g: Grid) -> Vec<f64> {
    (0..g.count)
        .map(|k| at(x, fs, t + g.from_s + g.step_s * k as f64))
        .collect()
}

fn median_of(v: &mut [f64]) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    let m = v.len() / 2;
    *v.select_nth_unstable_by(m, f64::total_cmp).1
}

fn demean(v: &[f64]) -> Vec<f64> {
    let m = v.iter().sum::<f64>() / v.len().max(1) as f64;
    v.iter().map(|x| x - m).collect()
}

fn ptp(v: &[f64]) -> f64 {
    let (lo, hi) = v
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &x| {
            (lo.min(x), hi.max(x))
        });
    (hi - lo).max(0.0)
}

fn sd(v: &[f64]) -> f64 {
    let d = demean(v);
    (d.iter().map(|x| x * x).sum::<f64>() / d.len().max(1) as f64).sqrt()
}

/// Width of a QRS on the grid, s: the span of the points whose deviation from the median exceeds
/// a quarter of the largest deviation.
fn width(v: &[f64]) -> f64 {
    let mut s = v.to_vec();
    let m = median_of(&mut s);
    let dev: Vec<f64> = v.iter().map(|x| (x - m).abs()).collect();
    let top = dev.iter().copied().fold(0.0, f64::max);
    if top <= 0.0 {
        return 0.0;
    }
    let above: Vec<usize> = (0..dev.len()).filter(|&i| dev[i] > 0.25 * top).collect();
    match (above.first(), above.last()) {
        (Some(a), Some(b)) => (b - a) as f64 * QRS.step_s,
        _ => 0.0,
    }
}

fn max_slope(v: &[f64]) -> f64 {
    v.windows(2)
        .map(|w| (w[1] - w[0]).abs())
        .fold(0.0, f64::max)
}

fn area(v: &[f64]) -> f64 {
    demean(v).iter().map(|x| x.abs()).sum()
}

fn ratio(a: f64, b: f64) -> f64 {
    if b.abs() > 1e-9 {
        a / b
    } else {
        f64::NAN
    }
}

/// The median template (sample by sample) of `shapes`.
fn template(shapes: &[&Vec<f64>]) -> Vec<f64> {
    let len = shapes.first().map_or(0, |s| s.len());
    let mut column = Vec::with_capacity(shapes.len());
    (0..len)
        .map(|i| {
            column.clear();
            column.extend(shapes.iter().map(|s| s[i]));
            median_of(&mut column)
        })
        .collect()
}

/// The three shapes of one beat.
struct Shapes {
    qrs: Vec<f64>,
    p: Vec<f64>,
    t: Vec<f64>,
}

/// One template per block: the QRS, P and T templates and the median RR before the template's own
/// beats (the underlying rhythm's interval).
struct Template {
    shapes: Shapes,
    dominant_rr_s: f64,
}

/// Whether a beat's features have the RR intervals before and after it (not the first or last
/// beat): a beat without them is not classed.
pub fn has_intervals(f: &[f64; N_FEATURES]) -> bool {
    !f[0].is_nan()
}

/// The features of every beat `beats` (R-peak times, s) of `x` (the cleaned lead in mV at `fs`
/// Hz), in [`NAMES`] order; `NaN` where a feature is undefined (first and last beats). Empty
/// under three beats.
pub fn features(x: &[f64], fs: f64, beats: &[f64]) -> Vec<[f64; N_FEATURES]> {
    let n = beats.len();
    if n < 3 || fs <= 0.0 {
        return vec![[f64::NAN; N_FEATURES]; n];
    }
    // rr[k] = beats[k + 1] - beats[k].
    let rr: Vec<f64> = beats.windows(2).map(|w| w[1] - w[0]).collect();
    let pre = |i: usize| (i >= 1).then(|| rr[i - 1]);
    let post = |i: usize| rr.get(i).copied();
    let mut buf = Vec::with_capacity(2 * LOCAL + 1);
    let local: Vec<f64> = (0..n)
        .map(|i| {
            buf.clear();
            let a = i.saturating_sub(LOCAL);
            let b = (i + LOCAL).min(rr.len());
            buf.extend_from_slice(&rr[a..b]);
            median_of(&mut buf)
        })
        .collect();
    let local_long: Vec<f64> = (0..n)
        .map(|i| {
            buf.clear();
            let a = i.saturating_sub(LOCAL_LONG);
            let b = (i + LOCAL_LONG).min(rr.len());
            buf.extend_from_slice(&rr[a..b]);
            let k = ((buf.len() as f64 - 1.0) * LONG_QUANTILE).round() as usize;
            if buf.is_empty() {
                f64::NAN
            } else {
                *buf.select_nth_unstable_by(k, f64::total_cmp).1
            }
        })
        .collect();
    let nsd: Vec<f64> = (0..rr.len())
        .map(|k| {
            let j = if k == 0 { 1.min(rr.len() - 1) } else { k - 1 };
            (rr[k] - rr[j]).abs() / (0.5 * (rr[k] + rr[j])).max(1e-6)
        })
        .collect();
    let irregularity: Vec<f64> = (0..n)
        .map(|i| {
            buf.clear();
            let a = i.saturating_sub(LOCAL);
            let b = (i + LOCAL).min(nsd.len());
            buf.extend_from_slice(&nsd[a..b]);
            median_of(&mut buf)
        })
        .collect();
    let premature: Vec<bool> = (0..n)
        .map(|i| pre(i).is_some_and(|p| p < PREMATURE * local[i]))
        .collect();
    // The template's beats: not premature against the local long interval either.
    let early: Vec<bool> = (0..n)
        .map(|i| premature[i] || pre(i).is_some_and(|p| p < PREMATURE * local_long[i]))
        .collect();
    let premature_fraction: Vec<f64> = (0..n)
        .map(|i| {
            let a = i.saturating_sub(LOCAL);
            let b = (i + LOCAL + 1).min(n);
            premature[a..b].iter().filter(|p| **p).count() as f64 / (b - a) as f64
        })
        .collect();
    let shapes: Vec<Shapes> = beats
        .iter()
        .map(|&t| Shapes {
            qrs: shape(x, fs, t, QRS),
            p: shape(x, fs, t, P_REGION),
            t: shape(x, fs, t, T_REGION),
        })
        .collect();
    let templates = block_templates(beats, &rr, &early, &shapes);

    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let tpl = &templates[((beats[i] - beats[0]) / BLOCK_S).floor() as usize];
        let s = &shapes[i];
        let mut f = [f64::NAN; N_FEATURES];
        let (pr, po) = (pre(i).unwrap_or(f64::NAN), post(i).unwrap_or(f64::NAN));
        f[0] = ratio(pr, po);
        f[1] = irregularity[i];
        f[2] = premature_fraction[i];
        f[23] = ratio(pr, local_long[i]);
        f[24] = ratio(po, local_long[i]);
        f[25] = ratio(pr, tpl.dominant_rr_s);
        f[26] = ratio(po, tpl.dominant_rr_s);
        let t = &tpl.shapes;
        if t.qrs.len() != QRS.count {
            // No beat near enough for a template (a long gap in the record): no shape features.
            out.push(f.map(|v| if v.is_finite() { v } else { f64::NAN }));
            continue;
        }
        let (c60a, c60b) = (qrs_index(-0.06), qrs_index(0.06) + 1);
        f[3] = pearson(&s.qrs[c60a..c60b], &t.qrs[c60a..c60b]);
        f[4] = pearson(&s.qrs, &t.qrs);
        let (pb, pt) = (ptp(&s.qrs), ptp(&t.qrs));
        f[5] = if pb > 0.0 && pt > 0.0 {
            (pb / pt).ln()
        } else {
            f64::NAN
        };
        let (db, dt) = (demean(&s.qrs), demean(&t.qrs));
        let rms = (db
            .iter()
            .zip(&dt)
            .map(|(a, b)| (a - b) * (a - b))
            .sum::<f64>()
            / db.len() as f64)
            .sqrt();
        f[6] = ratio(rms, pt);
        let (wb, wt) = (width(&s.qrs), width(&t.qrs));
        f[7] = 1000.0 * wb;
        f[8] = ratio(wb, wt);
        f[9] = ratio(max_slope(&s.qrs), max_slope(&t.qrs));
        f[10] = ratio(area(&s.qrs), area(&t.qrs));
        let r = qrs_index(0.0);
        f[11] = ratio(db[r], dt[r]);
        let peak = |v: &[f64]| {
            (0..v.len())
                .max_by(|&a, &b| v[a].abs().total_cmp(&v[b].abs()))
                .unwrap_or(r)
        };
        f[12] = 1000.0 * (peak(&db) as f64 - peak(&dt) as f64) * QRS.step_s;
        f[13] = pearson(&s.p, &t.p);
        f[14] = ratio(sd(&s.p), sd(&t.p));
        f[15] = pearson(&s.t, &t.t);
        f[16] = ratio(sd(&s.t), sd(&t.t));
        for (k, dt_s) in [-0.075, -0.045, -0.015, 0.015, 0.045, 0.075]
            .into_iter()
            .enumerate()
        {
            let j = qrs_index(dt_s);
            f[17 + k] = ratio(db[j] - dt[j], pt);
        }
        out.push(f.map(|v| if v.is_finite() { v } else { f64::NAN }));
    }
    out
}

/// One template per [`BLOCK_S`] block from the first beat: the median shapes of the beats within
/// [`NEIGHBOURHOOD_S`] of the block that are not premature (all of them when too few are), at
/// most [`TEMPLATE_BEATS`] of them evenly picked, then again over those correlating with that
/// first template (the dominant beats, so that frequent ectopic beats do not blur it).
fn block_templates(
    beats: &[f64],
    rr: &[f64],
    premature: &[bool],
    shapes: &[Shapes],
) -> Vec<Template> {
    let first = beats[0];
    let last = beats[beats.len() - 1];
    let blocks = ((last - first) / BLOCK_S).floor() as usize + 1;
    let mut out = Vec::with_capacity(blocks);
    let mut lo = 0usize;
    let mut hi = 0usize;
    for b in 0..blocks {
        let from = first + BLOCK_S * b as f64 - NEIGHBOURHOOD_S;
        let to = first + BLOCK_S * (b + 1) as f64 + NEIGHBOURHOOD_S;
        while lo < beats.len() && beats[lo] < from {
            lo += 1;
        }
        hi = hi.max(lo);
        while hi < beats.len() && beats[hi] < to {
            hi += 1;
        }
        let mut chosen: Vec<usize> = (lo..hi).filter(|&i| !premature[i]).collect();
        if chosen.len() < 8 {
            chosen = (lo..hi).collect();
        }
        let stride = chosen.len().div_ceil(TEMPLATE_BEATS).max(1);
        let picked: Vec<usize> = chosen.into_iter().step_by(stride).collect();
        let first_qrs = template(&picked.iter().map(|&i| &shapes[i].qrs).collect::<Vec<_>>());
        let dominant: Vec<usize> = picked
            .iter()
            .copied()
            .filter(|&i| pearson(&shapes[i].qrs, &first_qrs) >= 0.8)
            .collect();
        let used = if dominant.len() >= 8 {
            dominant
        } else {
            picked
        };
        let mut dominant_rr: Vec<f64> = used
            .iter()
            .filter(|&&i| i >= 1)
            .map(|&i| rr[i - 1])
            .collect();
        out.push(Template {
            shapes: Shapes {
                qrs: template(&used.iter().map(|&i| &shapes[i].qrs).collect::<Vec<_>>()),
                p: template(&used.iter().map(|&i| &shapes[i].p).collect::<Vec<_>>()),
                t: template(&used.iter().map(|&i| &shapes[i].t).collect::<Vec<_>>()),
            },
            dominant_rr_s: median_of(&mut dominant_rr),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Gaussian QRS spikes (narrow, upward) at `normal` times and wide downward ones at `wide`.
    fn ecg(normal: &[f64], wide: &[f64], fs: f64, seconds: f64) -> Vec<f64> {
        let mut x = vec![0.0; (seconds * fs) as usize];
        let mut add = |t: f64, w: f64, a: f64| {
            for (k, v) in x.iter_mut().enumerate() {
                let s = k as f64 / fs - t;
                if s.abs() < 0.3 {
                    *v += a * (-(s * s) / (2.0 * w * w)).exp();
                }
            }
        };
        for &t in normal {
            add(t, 0.012, 1.0);
        }
        for &t in wide {
            add(t, 0.04, -1.2);
        }
        x
    }

    #[test]
    fn a_premature_wide_beat_stands_out_from_its_neighbours() {
        let fs = 360.0;
        let normal: Vec<f64> = (0..40).map(|k| 0.5 + 0.8 * f64::from(k)).collect();
        // A wide beat 0.45 s after the 20th normal beat.
        let wide = [normal[20] + 0.45];
        let mut all: Vec<f64> = normal.iter().copied().chain(wide).collect();
        all.sort_by(f64::total_cmp);
        let x = ecg(&normal, &wide, fs, 33.0);

        let f = features(&x, fs, &all);

        let i = all.iter().position(|t| *t == wide[0]).unwrap();
        let name = |n: &str| NAMES.iter().position(|m| *m == n).unwrap();
        let at = |k: usize, n: &str| f[k][name(n)];
        assert!(
            at(i, "pre_over_dominant") < 0.6,
            "{}",
            at(i, "pre_over_dominant")
        );
        assert!(at(i, "qrs_corr_100ms") < 0.0, "{}", at(i, "qrs_corr_100ms"));
        assert!(
            at(i, "qrs_width_ratio") > 2.0,
            "{}",
            at(i, "qrs_width_ratio")
        );
        let j = i - 5;
        assert!((at(j, "pre_over_dominant") - 1.0).abs() < 1e-9);
        assert!(at(j, "qrs_corr_100ms") > 0.99);
    }

    #[test]
    fn the_features_do_not_depend_on_the_sampling_rate() {
        let normal: Vec<f64> = (0..30).map(|k| 0.5 + 0.8 * f64::from(k)).collect();
        let a = features(&ecg(&normal, &[], 360.0, 25.0), 360.0, &normal);
        let b = features(&ecg(&normal, &[], 250.0, 25.0), 250.0, &normal);

        for (ra, rb) in a.iter().zip(&b).skip(2).take(20) {
            for k in [0, 3, 4, 8, 13, 15, 25] {
                assert!((ra[k] - rb[k]).abs() < 0.05, "{k}: {} vs {}", ra[k], rb[k]);
            }
        }
    }

    #[test]
    fn a_gap_of_minutes_without_beats_leaves_the_beats_around_it_their_features() {
        let fs = 100.0;
        let mut beats: Vec<f64> = (0..50).map(|k| 0.5 + 0.8 * f64::from(k)).collect();
        beats.extend((0..50).map(|k| 600.5 + 0.8 * f64::from(k)));
        let x = ecg(&beats, &[], fs, 650.0);

        let f = features(&x, fs, &beats);

        assert_eq!(f.len(), beats.len());
        let name = |n: &str| NAMES.iter().position(|m| *m == n).unwrap();
        assert!(f[60][name("qrs_corr_100ms")] > 0.99, "{:?}", f[60]);
        // The interval across the gap is long against the dominant beats' 0.8 s.
        assert!(
            f[49][name("post_over_dominant")] > 500.0 / 0.8 - 1.0,
            "{:?}",
            f[49]
        );
    }

    #[test]
    fn fewer_than_three_beats_give_undefined_features() {
        let f = features(&[0.0; 1000], 360.0, &[0.5, 1.3]);

        assert_eq!(f.len(), 2);
        assert!(f[0].iter().all(|v| v.is_nan()));
    }
}
