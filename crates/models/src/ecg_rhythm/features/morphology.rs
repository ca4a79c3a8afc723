//! Morphology of the median beat (QRS width, R/Q/S/T amplitudes, ST level, template correlation,
//! P wave and PR interval, fragmentation) and the atrial activity left after QRST cancellation
//! (Slocum et al. 1992): the part of [`super::Extractor`] that reads beat shapes.

use cardio_signal::ecg::delineate;

use super::quality::{detrend, energy};
use super::stats::{fraction, mean, median, median_in_place, pearson, sd};
use super::{fs_model, Extractor, Row, FEATURE_NAMES, MODEL_FS};

impl Extractor {
    pub(super) fn morphology(
        &self,
        y: &[f64],
        peaks: &[usize],
        beats: &[cardio_signal::ecg::Beat],
        rr: &[f64],
        v: &mut Row,
    ) -> Morph {
        let f = MODEL_FS;
        let pre = (0.30 * f) as usize;
        let post = (0.50 * f) as usize;
        let w = pre + post + 1;
        let complete: Vec<usize> = peaks
            .iter()
            .copied()
            .filter(|&p| p >= pre && p + post < y.len())
            .collect();
        // Per-beat delineation from the signal crate.
        let widths: Vec<f64> = beats.iter().map(|b| b.qrs_width_s).collect();
        let qrs_width = median(&widths);
        v.put("qrs_width_median_s", qrs_width.unwrap_or(f64::NAN));
        v.put("qrs_width_sd_s", sd(&widths).unwrap_or(f64::NAN));
        v.put(
            "wide_qrs_fraction",
            fraction(widths.iter().map(|&w| w > 0.12)),
        );
        let p_wave_fraction = if beats.is_empty() {
            None
        } else {
            Some(fraction(beats.iter().map(|b| b.p_wave)))
        };
        let mut out = Morph {
            qrs_width_s: qrs_width,
            p_wave_fraction,
            pr_s: None,
        };
        if complete.len() < 3 {
            for name in [
                "r_amplitude_mv",
                "r_amplitude_over_sd",
                "template_qrs_width_s",
                "beat_corr_mean",
                "beat_corr_min",
                "beat_corr_sd",
                "beat_corr_below_0_9",
                "qrs_corr_mean",
                "qrs_corr_below_0_9",
                "polarity",
                "q_depth",
                "s_depth",
                "st_level",
                "t_amplitude",
                "t_peak_s",
                "qrs_energy_fraction",
                "p_amplitude",
                "p_peak_to_r_s",
                "p_area",
                "p_snr",
                "p_corr_mean",
                "residual_ratio",
                "fwave_ratio",
                "fwave_band_fraction",
                "tq_residual_ratio",
            ] {
                v.put(name, f64::NAN);
            }
            v.put("p_wave_fraction", p_wave_fraction.unwrap_or(f64::NAN));
            return out;
        }
        // Median beat.
        let mut template = vec![0.0; w];
        let mut column = Vec::with_capacity(complete.len());
        for (k, t) in template.iter_mut().enumerate() {
            column.clear();
            column.extend(complete.iter().map(|&p| y[p - pre + k]));
            *t = median_in_place(&mut column);
        }
        // Baseline: the flattest 40 ms before the QRS (PR segment / TP), robustly the median of
        // the template from 300 to 60 ms before R.
        let base = median(&template[..pre - (0.06 * f) as usize]).unwrap_or(0.0);
        let r_val = template[pre] - base;
        let polarity = if r_val >= 0.0 { 1.0 } else { -1.0 };
        let r_amp = r_val.abs().max(1e-6);
        let norm: Vec<f64> = template
            .iter()
            .map(|t| (t - base) * polarity / r_amp)
            .collect();
        let sd_y = sd(y).unwrap_or(1.0).max(1e-9);
        v.put("r_amplitude_mv", r_amp);
        v.put("r_amplitude_over_sd", r_amp / sd_y);
        // QRS width of the template by the signal crate's delineation.
        let tb = delineate(&template, &[pre], fs_model());
        v.put(
            "template_qrs_width_s",
            tb.first().map_or(f64::NAN, |b| b.qrs_width_s),
        );
        // Beat-to-template correlation, whole beat and QRS (± 60 ms).
        let q = (0.06 * f) as usize;
        let mut corr = Vec::with_capacity(complete.len());
        let mut qcorr = Vec::with_capacity(complete.len());
        for &p in &complete {
            let seg = &y[p - pre..=p + post];
            corr.push(pearson(seg, &template));
            qcorr.push(pearson(
                &seg[pre - q..=pre + q],
                &template[pre - q..=pre + q],
            ));
        }
        v.put("beat_corr_mean", mean(&corr));
        v.put("beat_corr_min", corr.iter().copied().fold(1.0, f64::min));
        v.put("beat_corr_sd", sd(&corr).unwrap_or(0.0));
        v.put(
            "beat_corr_below_0_9",
            fraction(corr.iter().map(|&c| c < 0.9)),
        );
        v.put("qrs_corr_mean", mean(&qcorr));
        v.put(
            "qrs_corr_below_0_9",
            fraction(qcorr.iter().map(|&c| c < 0.9)),
        );
        v.put("polarity", polarity);
        // Beat-to-beat R amplitude and template agreement over 5-s windows (local noise).
        let amps: Vec<f64> = complete.iter().map(|&p| (y[p] - base).abs()).collect();
        v.put(
            "r_amplitude_cv",
            sd(&amps).unwrap_or(0.0) / mean(&amps).max(1e-9),
        );
        let win = (5.0 * f) as usize;
        let n_win = y.len().div_ceil(win);
        let mut sums = vec![(0.0, 0usize); n_win];
        for (&p, &c) in complete.iter().zip(&corr) {
            let slot = &mut sums[(p / win).min(n_win - 1)];
            slot.0 += c;
            slot.1 += 1;
        }
        let per_win: Vec<f64> = sums
            .iter()
            .filter(|s| s.1 > 0)
            .map(|s| s.0 / s.1 as f64)
            .collect();
        v.put(
            "window_beat_corr_min",
            per_win.iter().copied().fold(1.0, f64::min),
        );
        v.put(
            "window_beat_corr_low_fraction",
            fraction(per_win.iter().map(|&c| c < 0.8)),
        );
        // Fragmentation: local extrema of the template within the QRS (± 60 ms).
        v.put(
            "qrs_extrema",
            norm[pre - q..=pre + q]
                .windows(3)
                .filter(|w| (w[1] - w[0]) * (w[2] - w[1]) < 0.0)
                .count() as f64,
        );
        // The median beat itself, every 25 ms from 250 ms before to 450 ms after R (mean of
        // ± 10 ms around each point), in units of the R amplitude.
        let half = (0.01 * f) as usize;
        for name in FEATURE_NAMES.iter().filter(|n| n.starts_with("tpl_")) {
            let ms: f64 = name[5..].parse().unwrap_or(0.0);
            let ms = if name.as_bytes()[4] == b'm' { -ms } else { ms };
            let at = (pre as f64 + ms / 1000.0 * f).round() as usize;
            let (lo, hi) = (at.saturating_sub(half), (at + half).min(w - 1));
            v.put(name, mean(&norm[lo..=hi]));
        }
        v.put(
            "q_depth",
            norm[pre - q..pre].iter().copied().fold(0.0, f64::min),
        );
        v.put(
            "s_depth",
            norm[pre..=pre + q].iter().copied().fold(0.0, f64::min),
        );
        v.put("st_level", norm[pre + (0.10 * f) as usize]);
        // T wave: largest deviation 120 ms after R up to 60 % of the median RR (at most 500 ms).
        let rr_med = median(rr).unwrap_or(0.8);
        let t_end = ((0.6 * rr_med).clamp(0.2, 0.5) * f) as usize;
        let t_start = (0.12 * f) as usize;
        let (mut t_amp, mut t_at) = (0.0_f64, t_start);
        for k in t_start..t_end.max(t_start + 1) {
            if norm[pre + k].abs() > t_amp.abs() {
                t_amp = norm[pre + k];
                t_at = k;
            }
        }
        v.put("t_amplitude", t_amp);
        v.put("t_peak_s", t_at as f64 / f);
        v.put(
            "t_area",
            norm[pre + t_start..pre + t_end.max(t_start + 1)]
                .iter()
                .sum::<f64>()
                / f,
        );
        let qrs_e: f64 = norm[pre - q..=pre + q].iter().map(|v| v * v).sum();
        let all_e: f64 = norm.iter().map(|v| v * v).sum();
        v.put("qrs_energy_fraction", qrs_e / all_e.max(1e-12));
        // P wave on the template: 300 to 80 ms before R, after removing the line between the ends;
        // the window starts no earlier than 45 % of the median RR before R (previous T wave).
        let p_lo = pre - ((0.45 * rr_med).clamp(0.15, 0.30) * f) as usize;
        let p_hi = pre - (0.08 * f) as usize;
        let seg = detrend(&norm[p_lo..=p_hi]);
        let (mut p_amp, mut p_at) = (0.0, 0);
        for (k, s) in seg.iter().enumerate() {
            if s.abs() > p_amp {
                p_amp = s.abs();
                p_at = k;
            }
        }
        let p_area = seg.iter().map(|s| s.abs()).sum::<f64>() / f;
        v.put("p_amplitude", p_amp);
        let pr = (p_hi - p_lo - p_at + (0.08 * f) as usize) as f64 / f;
        v.put("p_peak_to_r_s", pr);
        out.pr_s = Some(pr);
        v.put("p_area", p_area);
        // P-segment consistency: energy of the template's P segment against the mean energy of
        // the beats' P segments around it; and each beat's P segment's correlation with it.
        let t_seg: Vec<f64> = detrend(&template[p_lo..=p_hi]);
        let t_e = energy(&t_seg);
        let mut resid_e = 0.0;
        let mut pcorr = Vec::with_capacity(complete.len());
        for &p in &complete {
            let b = detrend(&y[p - pre + p_lo..=p - pre + p_hi]);
            resid_e += b
                .iter()
                .zip(&t_seg)
                .map(|(a, t)| (a - t) * (a - t))
                .sum::<f64>();
            pcorr.push(pearson(&b, &t_seg));
        }
        resid_e /= complete.len() as f64;
        v.put("p_snr", (t_e / resid_e.max(1e-12)).ln_1p());
        v.put("p_wave_fraction", p_wave_fraction.unwrap_or(f64::NAN));
        v.put("p_corr_mean", mean(&pcorr));
        // QRST cancellation: subtract the template from every beat (within the RR bounds).
        let mut residual = y.to_vec();
        let mut covered = vec![false; y.len()];
        for (i, &p) in peaks.iter().enumerate() {
            let back = if i > 0 {
                pre.min((peaks[i] - peaks[i - 1]) * 45 / 100)
            } else {
                pre.min(p)
            };
            let fwd = if i + 1 < peaks.len() {
                post.min((peaks[i + 1] - peaks[i]) * 55 / 100)
            } else {
                post.min(y.len() - 1 - p)
            };
            for k in (p - back)..=(p + fwd) {
                residual[k] -= template[k + pre - p];
                covered[k] = true;
            }
        }
        let resid_total = energy(&residual);
        let scale = r_amp * r_amp * y.len() as f64;
        v.put("residual_ratio", (resid_total / scale).sqrt());
        let fw = self.fwave.filter(&residual);
        let fw_e = energy(&fw);
        v.put("fwave_ratio", (fw_e / scale).sqrt());
        v.put("fwave_band_fraction", fw_e / resid_total.max(1e-12));
        // Residual in the TQ stretches only (from 60 % of RR after R to 100 ms before the next R).
        let mut tq_e = 0.0;
        let mut tq_n = 0usize;
        for w2 in peaks.windows(2) {
            let s = w2[0] + (w2[1] - w2[0]) * 6 / 10;
            let e = w2[1].saturating_sub((0.1 * f) as usize);
            for v in fw.iter().take(e).skip(s) {
                tq_e += v * v;
                tq_n += 1;
            }
        }
        v.put(
            "tq_residual_ratio",
            if tq_n > 0 {
                (tq_e / tq_n as f64).sqrt() / r_amp
            } else {
                f64::NAN
            },
        );
        out
    }
}

pub(super) struct Morph {
    pub(super) qrs_width_s: Option<f64>,
    pub(super) p_wave_fraction: Option<f64>,
    pub(super) pr_s: Option<f64>,
}
