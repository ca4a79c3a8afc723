//! The heart-sound validation's report as the model card prints it (`cardio eval pcg`): the table of
//! every validation, the means, the calibration, the settings and blends each fold chose, the top
//! features.

use std::fmt::{self, Write as _};

use super::blend::Blend;
use super::data::SITES;
use super::validation::{
    config_candidates, Interval, Report, Scores, Settings, BOOTSTRAP, MIN_CYCLES, THRESHOLD,
};

fn row(s: &Scores) -> String {
    let iv = |i: &Interval| format!("{:.3} [{:.3}-{:.3}]", i.value, i.low, i.high);
    format!(
        "| {} | {} ({}) | {} | {} | {} | {:.1}% ({} / {}) | {} | {:.3} |",
        s.name,
        s.n,
        s.n_abnormal,
        iv(&s.macc),
        iv(&s.se),
        iv(&s.sp),
        100.0 * s.unsure_fraction,
        s.unsure_normal,
        s.unsure_abnormal,
        iv(&s.auroc),
        s.macc_without_gate,
    )
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "PCG model (pcg-gbdt, network and trees blended): CinC 2016 training sets a-f at 1 kHz, {} recordings ({} abnormal, {:.0}%), {} features, network weight {} and threshold {} (chosen on out-of-fold probabilities; each outer fold's by its inner CV), unsure = quality gate (basic checks, periodicity, at least {MIN_CYCLES} cycles)",
            self.records,
            self.abnormal,
            100.0 * self.abnormal as f64 / self.records.max(1) as f64,
            self.features,
            self.final_blend.weight,
            self.final_blend.threshold,
        );
        let _ = writeln!(
            s,
            "| validation | n (abnormal) | MAcc [95% CI] | Se [95% CI] | Sp [95% CI] | unsure (normal / abnormal) | AUROC [95% CI] | MAcc without gate |"
        );
        let _ = writeln!(s, "|---|---|---|---|---|---|---|---|");
        let _ = writeln!(s, "{}", row(&self.cv));
        for part in &self.cv_alone {
            let _ = writeln!(s, "{}", row(part));
        }
        for site in &self.cv_per_site {
            let _ = writeln!(s, "{}", row(site));
        }
        for site in &self.leave_one_site_out {
            let _ = writeln!(s, "{}", row(site));
        }
        let _ = writeln!(s, "{}", row(&self.training_fit));
        let _ = writeln!(
            s,
            "\nLeave-one-site-out mean MAcc over the six sites: {:.3}",
            self.leave_one_site_out_mean_macc
        );
        let _ = writeln!(
            s,
            "Leave-one-site-out mean MAcc of each part alone: boosted trees {:.3}, network {:.3}",
            self.leave_one_site_out_alone_mean_macc.0, self.leave_one_site_out_alone_mean_macc.1
        );
        let _ = writeln!(
            s,
            "Se counts unsure as referred, Sp counts unsure as an error; CIs: {BOOTSTRAP} seeded bootstrap resamples of recordings (percentile); AUROC: DeLong CI on analysable recordings; MAcc without gate: classifier alone."
        );
        let c = &self.cv_calibration;
        let _ = writeln!(
            s,
            "\nCalibration of the CV probability of abnormal ({} analysable recordings, gate not applied): {}\n\n{}",
            c.bins.iter().map(|b| b.count).sum::<usize>(),
            c.summary(),
            c.markdown_table()
        );
        let _ = writeln!(
            s,
            "Recordings that could not be analysed (counted as unsure): {}",
            self.failed.len()
        );
        for (name, why) in &self.failed {
            let _ = writeln!(s, "- {name}: {why}");
        }
        let describe = |st: &Settings| {
            let c = &config_candidates(0)[st.config];
            format!(
                "config {} ({} rounds, depth {}, colsample {}), min periodicity {:.1} (inner MAcc {:.3})",
                st.config, c.rounds, c.max_depth, c.colsample, st.min_periodicity, st.inner_macc
            )
        };
        let _ = writeln!(s, "\nSettings chosen by the inner 5-fold CV:");
        for (f, st) in self.cv_settings.iter().enumerate() {
            let _ = writeln!(s, "- outer fold {}: {}", f + 1, describe(st));
        }
        for (site, st) in SITES.iter().zip(&self.leave_one_site_out_settings) {
            let _ = writeln!(s, "- without site {site}: {}", describe(st));
        }
        let _ = writeln!(s, "- final model: {}", describe(&self.final_settings));
        let pair = |b: &Blend| {
            format!(
                "network weight {:.2}, threshold {:.2} (MAcc {:.3} where chosen)",
                b.weight, b.threshold, b.macc
            )
        };
        let _ = writeln!(
            s,
            "\nBlend and threshold (each outer fold's by its inner CV with the inner networks; each held-out site's and the deployed one on the outer CV's out-of-fold probabilities; the parts alone are scored at {THRESHOLD}):"
        );
        for (f, b) in self.cv_blends.iter().enumerate() {
            let _ = writeln!(s, "- outer fold {}: {}", f + 1, pair(b));
        }
        for (site, b) in SITES.iter().zip(&self.leave_one_site_out_blends) {
            let _ = writeln!(s, "- without site {site}: {}", pair(b));
        }
        let _ = writeln!(s, "- deployed: {}", pair(&self.final_blend));
        let _ = writeln!(
            s,
            "\nTop features of the final model (share of split gain):"
        );
        for imp in &self.top_features {
            let _ = writeln!(s, "- {}: {:.3}", imp.feature, imp.share);
        }
        f.write_str(&s)
    }
}
