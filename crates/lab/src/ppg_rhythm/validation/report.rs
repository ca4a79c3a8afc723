//! The validation report of the PPG rhythm model and its rendering as the model card's tables.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use super::bidmc::BidmcReport;
use super::cells::AfCell;
use super::FOLDS;
use crate::clinical::metrics::Calibration;

/// Counts of windows per source, length and label.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DataRow {
    /// Dataset.
    pub source: String,
    /// Window length, seconds.
    pub length_s: f64,
    /// Windows per label (`normal`, `af`, `irregular`, `other_non_af`).
    pub windows: BTreeMap<String, usize>,
    /// Persons with at least one window.
    pub persons: usize,
}

/// AF results of the CV's held-out windows after beat-time jitter.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JitterCheck {
    /// Standard deviation of each beat time's error, ms.
    pub jitter_ms: f64,
    /// All sources, per length.
    pub cells: Vec<AfCell>,
}

/// 3-class confusion of one window length on MIT-BIH.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Confusion {
    /// Window length, seconds.
    pub length_s: f64,
    /// `counts[truth][predicted]`, truth `normal, af, irregular, other_non_af`, predicted `normal,
    /// af, irregular`.
    pub counts: [[usize; 3]; 4],
}

/// Train on one source, test on the other.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct External {
    /// Training source.
    pub train: String,
    /// Test source.
    pub test: String,
    /// Training windows.
    pub train_windows: usize,
    /// AF threshold chosen by inner CV on the training source.
    pub threshold: f64,
    /// AF results on the test source per length.
    pub cells: Vec<AfCell>,
}

/// The whole validation.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// Windows per source, length and label.
    pub data: Vec<DataRow>,
    /// The AF thresholds chosen inside the CV's training folds (distinct values).
    pub fold_thresholds: Vec<f64>,
    /// The AF threshold chosen from the CV's out-of-fold predictions (the deployed one).
    pub threshold: f64,
    /// Grouped CV, AF per source and length.
    pub cv: Vec<AfCell>,
    /// Calibration of the out-of-fold `P(af)` per window length (seconds), all sources.
    pub cv_calibration: Vec<(f64, Calibration)>,
    /// The CV's held-out windows with beat-time jitter (PPG-like timing noise), all sources.
    pub cv_jittered: Vec<JitterCheck>,
    /// 3-class confusion on MIT-BIH (CV predictions).
    pub confusion: Vec<Confusion>,
    /// CinC 2017 → MIT-BIH and MIT-BIH → CinC 2017.
    pub external: Vec<External>,
    /// Heart rate on BIDMC through the predict path (absent without the dataset).
    pub bidmc: Option<BidmcReport>,
    /// Split-gain importance of the final AF stage, largest first (empty for `evaluate`).
    pub importance: Vec<(String, f64)>,
}

impl Report {
    /// The CV cell of a source and length.
    pub fn cv_cell(&self, source: &str, length_s: f64) -> Option<&AfCell> {
        self.cv
            .iter()
            .find(|c| c.source == source && c.length_s == length_s)
    }
}

pub(super) fn pct(v: f64) -> String {
    if v.is_finite() {
        format!("{:.1}", 100.0 * v)
    } else {
        "–".into()
    }
}

pub(super) fn ci(c: (f64, f64)) -> String {
    format!("{}–{}", pct(c.0), pct(c.1))
}

pub(super) fn af_table(f: &mut fmt::Formatter<'_>, cells: &[AfCell]) -> fmt::Result {
    writeln!(
        f,
        "| source | window | windows (AF) | persons (with AF) | AF Se % (95 % CI) | AF Sp % (95 % CI) | AUROC |"
    )?;
    writeln!(f, "|---|---|---|---|---|---|---|")?;
    for c in cells {
        writeln!(
            f,
            "| {} | {:.0} s | {} ({}) | {} ({}) | {} ({}) | {} ({}) | {:.3} |",
            c.source,
            c.length_s,
            c.windows,
            c.af_windows,
            c.persons,
            c.af_persons,
            pct(c.se),
            ci(c.se_ci),
            pct(c.sp),
            ci(c.sp_ci),
            c.auroc
        )?;
    }
    Ok(())
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.data.is_empty() {
            self.fmt_validation(f)?;
        }
        self.fmt_bidmc(f)
    }
}

impl Report {
    fn fmt_validation(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "## Interval windows (ECG-derived)\n")?;
        writeln!(
            f,
            "| source | window | persons | normal | af | irregular | other non-AF |"
        )?;
        writeln!(f, "|---|---|---|---|---|---|---|")?;
        for d in &self.data {
            let g = |k: &str| d.windows.get(k).copied().unwrap_or(0);
            writeln!(
                f,
                "| {} | {:.0} s | {} | {} | {} | {} | {} |",
                d.source,
                d.length_s,
                d.persons,
                g("normal"),
                g("af"),
                g("irregular"),
                g("other_non_af")
            )?;
        }
        writeln!(
            f,
            "\n## Grouped {FOLDS}-fold CV (persons never straddle folds)\n\nAF = P(af) >= threshold chosen by inner CV in the training folds: {:?}; deployed threshold (from this CV's out-of-fold predictions): {}\n",
            self.fold_thresholds, self.threshold
        )?;
        af_table(f, &self.cv)?;
        for (len, c) in &self.cv_calibration {
            writeln!(
                f,
                "\nCalibration of the out-of-fold P(af), {len:.0}-s windows, all sources: {}\n\n{}",
                c.summary(),
                c.markdown_table()
            )?;
        }
        for j in &self.cv_jittered {
            writeln!(
                f,
                "\nThe same held-out windows with every beat time moved by Gaussian noise of SD {} ms (PPG-like timing noise):\n",
                j.jitter_ms
            )?;
            af_table(f, &j.cells)?;
        }
        writeln!(
            f,
            "\n## MIT-BIH 3-class confusion (CV), rows truth, columns predicted\n"
        )?;
        for c in &self.confusion {
            writeln!(f, "{:.0}-s windows:\n", c.length_s)?;
            writeln!(f, "| truth \\ predicted | normal | af | irregular |")?;
            writeln!(f, "|---|---|---|---|")?;
            for (name, row) in ["normal", "af", "irregular", "other non-AF"]
                .iter()
                .zip(&c.counts)
            {
                writeln!(f, "| {name} | {} | {} | {} |", row[0], row[1], row[2])?;
            }
            writeln!(f)?;
        }
        writeln!(f, "## External checks\n")?;
        for e in &self.external {
            writeln!(
                f,
                "Train {} ({} windows, threshold {} by inner CV) → test {}:\n",
                e.train, e.train_windows, e.threshold, e.test
            )?;
            af_table(f, &e.cells)?;
            writeln!(f)?;
        }
        Ok(())
    }

    fn fmt_bidmc(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(b) = &self.bidmc {
            writeln!(
                f,
                "## BIDMC through the predict path ({} records, fingertip PLETH at 125 Hz and resampled to 100 Hz, reference: monitor PULSE)\n",
                b.records
            )?;
            writeln!(
                f,
                "| recordings | rate | n | unusable | noisy | normal / af / irregular | HR scored | HR MAE bpm | within 5 bpm | ms per prediction | AF calls PPG vs ECG (both / PPG only / ECG only / neither) | kappa |"
            )?;
            writeln!(f, "|---|---|---|---|---|---|---|---|---|---|---|---|")?;
            for s in &b.spans {
                let g = |k: &str| s.labels.get(k).copied().unwrap_or(0);
                writeln!(
                    f,
                    "| {} | {:.0} Hz | {} | {} | {} | {} / {} / {} | {} | {:.2} | {} % | {:.2} | {} / {} / {} / {} | {:.2} |",
                    s.span,
                    s.rate_hz,
                    s.recordings,
                    s.unusable,
                    s.noisy,
                    g("normal"),
                    g("af"),
                    g("irregular"),
                    s.scored,
                    s.hr_mae_bpm,
                    pct(s.within_5_bpm),
                    s.ms_per_recording,
                    s.ppg_vs_ecg_af[0],
                    s.ppg_vs_ecg_af[1],
                    s.ppg_vs_ecg_af[2],
                    s.ppg_vs_ecg_af[3],
                    s.ppg_vs_ecg_kappa
                )?;
            }
            writeln!(f)?;
        }
        if !self.importance.is_empty() {
            writeln!(f, "## AF stage: split-gain importance (share)\n")?;
            for (n, v) in self.importance.iter().take(10) {
                writeln!(f, "- {n}: {v:.3}")?;
            }
        }
        Ok(())
    }
}
