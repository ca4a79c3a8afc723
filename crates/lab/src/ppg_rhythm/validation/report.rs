//! The validation report of the PPG rhythm model: the five headline figures first (what
//! `cardio eval ppg --format json` leads with), then every table of the model card.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::bidmc::BidmcReport;
use super::metrics::{Ci, PathFigures};
use super::{BOOTSTRAP, INNER_FOLDS};

/// The wrist heart-rate check on the IEEE SPC 2015 training recordings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SpcSummary {
    /// The method scored.
    pub method: String,
    /// Recordings.
    pub recordings: usize,
    /// Windows with a reference.
    pub windows: usize,
    /// Pooled MAE over the windows, bpm (each recording with the settings chosen on the others).
    pub mae_bpm: f64,
    /// Pooled MAE of the peak-based rate without the accelerometer, bpm.
    pub peak_mae_bpm: f64,
    /// Pooled MAE of the product's settings (chosen on all twelve: not held out), bpm.
    pub product_settings_mae_bpm: f64,
    /// Per recording: name, MAE held out, MAE of the peak-based rate, bpm.
    pub per_recording: Vec<(String, f64, f64)>,
}

/// The report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// Patient-grouped CV AF sensitivity at 100 Hz (a noisy AF segment is a miss).
    pub cv_af_sensitivity: f64,
    /// Patient-grouped CV AF specificity against every non-AF rhythm.
    pub cv_af_specificity_all: f64,
    /// Patient-grouped CV AF specificity against sinus rhythm.
    pub cv_sinus_specificity: f64,
    /// Wrist heart-rate MAE on the IEEE SPC 2015 training recordings (leave one recording out),
    /// bpm; `NaN` (JSON `null`) when the dataset is absent.
    pub spc_loro_mae_bpm: f64,
    /// Heart-rate MAE of the windowed PPG rate on BIDMC (8-s windows every 2 s), bpm; `NaN` when
    /// absent.
    pub bidmc_mae_bpm: f64,
    /// Patients.
    pub patients: usize,
    /// Segments.
    pub segments: usize,
    /// Folds.
    pub folds: usize,
    /// The deployed AF threshold on the blended `P(af)`.
    pub threshold: f64,
    /// The deployed network's weight in the blend.
    pub blend_weight: f64,
    /// `(network weight, AF threshold)` each fold chose inside its training patients.
    pub fold_blends: Vec<(f64, f64)>,
    /// The figures at 100 Hz.
    pub native: PathFigures,
    /// The figures of the same segments resampled to 30 Hz.
    pub camera: PathFigures,
    /// Split-gain importance of the model's features.
    pub importance: Vec<(String, f64)>,
    /// BIDMC through the predict path.
    pub bidmc: Option<BidmcReport>,
    /// IEEE SPC 2015.
    pub spc: Option<SpcSummary>,
}

fn pct(v: f64) -> String {
    if v.is_finite() {
        format!("{:.1}", 100.0 * v)
    } else {
        "–".into()
    }
}

fn ci(c: &Ci) -> String {
    format!(
        "{} ({}–{}) [{}/{}]",
        pct(c.value),
        pct(c.low),
        pct(c.high),
        c.hits,
        c.n
    )
}

fn num(v: f64, digits: usize) -> String {
    if v.is_finite() {
        format!("{v:.digits$}")
    } else {
        "–".into()
    }
}

fn path_tables(f: &mut fmt::Formatter<'_>, name: &str, p: &PathFigures) -> fmt::Result {
    writeln!(f, "**{name}**")?;
    writeln!(f)?;
    writeln!(f, "| figure | % (95 % CI) [n] |")?;
    writeln!(f, "|---|---|")?;
    writeln!(f, "| AF sensitivity | {} |", ci(&p.af_sensitivity))?;
    writeln!(
        f,
        "| AF specificity, all non-AF rhythms | {} |",
        ci(&p.af_specificity_all)
    )?;
    writeln!(
        f,
        "| AF specificity, sinus rhythm | {} |",
        ci(&p.sinus_specificity)
    )?;
    let s = &p.specificity_spread;
    writeln!(
        f,
        "| AF specificity, all non-AF, patient by patient | mean over {} patients {}, lowest {} (of {} segments), {} patients under 90 |",
        s.patients,
        pct(s.mean_over_patients),
        pct(s.lowest),
        s.lowest_segments,
        s.patients_under_90
    )?;
    writeln!(
        f,
        "| AF specificity, all non-AF, a new cohort of {} patients (95 % prediction interval) | {}–{} |",
        s.patients,
        pct(s.cohort_low),
        pct(s.cohort_high)
    )?;
    writeln!(
        f,
        "| AF sensitivity / specificity among segments judged | {} / {} |",
        pct(p.af_sensitivity_judged),
        pct(p.af_specificity_all_judged)
    )?;
    writeln!(f, "| refused as noisy | {} |", pct(p.noisy_share))?;
    writeln!(
        f,
        "| six-rhythm accuracy (usable segments) | {} |",
        pct(p.six_rhythm_accuracy)
    )?;
    writeln!(
        f,
        "| AUROC of P(af) (usable segments) | {} |",
        num(p.auroc, 3)
    )?;
    writeln!(f)?;
    writeln!(
        f,
        "| true rhythm | segments (patients) | normal | af | irregular | noisy |"
    )?;
    writeln!(f, "|---|---|---|---|---|---|")?;
    for c in &p.calls {
        let share = |k: usize| {
            if c.segments == 0 {
                "–".into()
            } else {
                format!("{:.1} %", 100.0 * k as f64 / c.segments as f64)
            }
        };
        writeln!(
            f,
            "| {} | {} ({}) | {} | {} | {} | {} |",
            c.rhythm.name(),
            c.segments,
            c.patients,
            share(c.normal),
            share(c.af),
            share(c.irregular),
            share(c.noisy)
        )?;
    }
    writeln!(f)
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "PPG rhythm: patient-grouped {}-fold CV on {} real-PPG segments of {} patients (Liu et al. 2022); boosted trees blended with the waveform network; network weight and AF threshold chosen by an inner {INNER_FOLDS}-fold CV in each fold ({}); deployed: weight {}, threshold {}; CIs: {BOOTSTRAP} bootstrap resamples of patients",
            self.folds,
            self.segments,
            self.patients,
            self.fold_blends
                .iter()
                .map(|(w, t)| format!("{}/{}", num(*w, 2), num(*t, 2)))
                .collect::<Vec<_>>()
                .join(", "),
            num(self.blend_weight, 2),
            num(self.threshold, 2)
        )?;
        writeln!(f)?;
        path_tables(f, "100 Hz (as recorded)", &self.native)?;
        path_tables(f, "30 Hz (resampled: the camera path)", &self.camera)?;
        if !self.importance.is_empty() {
            writeln!(f, "Feature importance (split gain, top 12):")?;
            for (name, v) in self.importance.iter().take(12) {
                writeln!(f, "- {name}: {}", num(*v, 3))?;
            }
            writeln!(f)?;
        }
        if let Some(b) = &self.bidmc {
            writeln!(
                f,
                "BIDMC through the predict path ({} records): heart rate against the monitor's PULSE",
                b.records
            )?;
            writeln!(f)?;
            writeln!(
                f,
                "| recordings | rate | n | unusable | noisy | normal / af / irregular | HR MAE bpm | within 5 bpm | ms per prediction |"
            )?;
            writeln!(f, "|---|---|---|---|---|---|---|---|---|")?;
            for s in &b.spans {
                let l = |k: &str| s.labels.get(k).copied().unwrap_or(0);
                writeln!(
                    f,
                    "| {} | {} Hz | {} | {} | {} | {} / {} / {} | {} | {} % | {} |",
                    s.span,
                    num(s.rate_hz, 0),
                    s.recordings,
                    s.unusable,
                    s.noisy,
                    l("normal"),
                    l("af"),
                    l("irregular"),
                    num(s.hr_mae_bpm, 2),
                    pct(s.within_5_bpm),
                    num(s.ms_per_recording, 2)
                )?;
            }
            writeln!(f)?;
        }
        if let Some(s) = &self.spc {
            writeln!(
                f,
                "IEEE SPC 2015 wrist PPG while running ({} recordings, {} windows of 8 s every 2 s), {}: MAE {} bpm (peak-based rate without the accelerometer: {} bpm; the product's settings, chosen on all twelve: {} bpm)",
                s.recordings,
                s.windows,
                s.method,
                num(s.mae_bpm, 2),
                num(s.peak_mae_bpm, 2),
                num(s.product_settings_mae_bpm, 2)
            )?;
            writeln!(f)?;
            writeln!(f, "| recording | MAE held out, bpm | peak-based MAE, bpm |")?;
            writeln!(f, "|---|---|---|")?;
            for (name, mae, peak) in &s.per_recording {
                writeln!(f, "| {name} | {} | {} |", num(*mae, 2), num(*peak, 2))?;
            }
            writeln!(f)?;
        }
        writeln!(
            f,
            "Headline: AF sensitivity {}, specificity (all non-AF) {}, specificity (sinus) {}, SPC MAE {} bpm, BIDMC windowed MAE {} bpm",
            pct(self.cv_af_sensitivity),
            pct(self.cv_af_specificity_all),
            pct(self.cv_sinus_specificity),
            num(self.spc_loro_mae_bpm, 2),
            num(self.bidmc_mae_bpm, 2)
        )
    }
}
