//! PCG sanity on the PhysioNet/CinC 2016 training recordings (Liu et al. 2016): the share of
//! recordings `cardio_signal::pcg::segment` judges usable, and for those whether the heart rate from
//! the detected S1 sounds (60 / median S1-S1 interval) agrees with the envelope-autocorrelation
//! estimate (Springer et al. 2016) within 10%.
//!
//! There is no beat-level reference in the challenge data, so this checks that segmentation and the
//! robust cycle-length estimate agree, not that either is right. A usable recording with fewer than
//! two S1 counts as a disagreement; a usable recording without an autocorrelation rate is not
//! compared.

use std::path::Path;

use cardio_signal::{pcg, SamplingRate};
use serde::Serialize;

use super::{dataset_dir, files_ending, median, percent, AbsError, EvalError};

/// Relative tolerance of the agreement, as a fraction of the autocorrelation rate.
pub const AGREEMENT: f64 = 0.1;

/// Heart rate from S1 times: 60 / the median S1-S1 interval (upper-middle); `None` under two S1.
pub fn s1_rate(s1_s: &[f64]) -> Option<f64> {
    let intervals: Vec<f64> = s1_s.windows(2).map(|w| w[1] - w[0]).collect();
    median(&intervals).map(|m| 60.0 / m)
}

/// Counts of one site (`training-a` ...) or of all.
#[derive(Debug, Clone, Default, Serialize)]
pub struct PcgGroup {
    /// `training-a` ..., or `all`.
    pub site: String,
    /// Recordings analysed.
    pub recordings: usize,
    /// Recordings that could not be read or segmented.
    pub failed: usize,
    /// Recordings judged usable.
    pub usable: usize,
    /// Usable share, percent of the analysed.
    pub usable_pct: Option<f64>,
    /// Usable recordings compared (with an autocorrelation rate, or fewer than two S1).
    pub compared: usize,
    /// Of those, S1 rate within 10% of the autocorrelation rate.
    pub agree: usize,
    /// Agreement, percent of the compared.
    pub agree_pct: Option<f64>,
    /// Recordings with both rates.
    pub with_s1: usize,
    /// Mean |S1 rate - autocorrelation rate| over those, bpm.
    pub mae_bpm: Option<f64>,
    /// Median of the same, bpm.
    pub median_abs_diff_bpm: Option<f64>,
    #[serde(skip)]
    diffs: Vec<f64>,
}

impl PcgGroup {
    fn named(site: &str) -> Self {
        Self {
            site: site.to_owned(),
            ..Self::default()
        }
    }

    fn add(&mut self, outcome: Option<&pcg::Segmentation>) {
        let Some(seg) = outcome else {
            self.failed += 1;
            return;
        };
        self.recordings += 1;
        if !seg.quality.usable {
            return;
        }
        self.usable += 1;
        match (s1_rate(&seg.s1_s), seg.heart_rate_bpm) {
            (None, _) => self.compared += 1,
            (Some(hr_s1), Some(hr_ac)) => {
                self.compared += 1;
                let d = (hr_s1 - hr_ac).abs();
                self.diffs.push(d);
                self.agree += usize::from(d <= AGREEMENT * hr_ac);
            }
            (Some(_), None) => {}
        }
    }

    fn merge(&mut self, other: &Self) {
        self.recordings += other.recordings;
        self.failed += other.failed;
        self.usable += other.usable;
        self.compared += other.compared;
        self.agree += other.agree;
        self.diffs.extend_from_slice(&other.diffs);
    }

    fn finish(&mut self) {
        self.usable_pct = percent(self.usable, self.recordings);
        self.agree_pct = percent(self.agree, self.compared);
        self.with_s1 = self.diffs.len();
        let mut e = AbsError::default();
        for d in &self.diffs {
            e.add(*d, 0.0);
        }
        self.mae_bpm = e.mae();
        self.median_abs_diff_bpm = median(&self.diffs);
    }
}

/// The CinC 2016 evaluation.
#[derive(Debug, Clone, Default, Serialize)]
pub struct PcgReport {
    /// One group per site folder.
    pub sites: Vec<PcgGroup>,
    /// All sites.
    pub all: PcgGroup,
}

/// Evaluates every `training-*/*.wav` of `$root/cinc2016`.
///
/// A recording that cannot be read or segmented is counted as failed, not an error.
///
/// # Errors
/// [`EvalError::MissingDataset`] without the folder.
pub fn evaluate(root: &Path) -> Result<PcgReport, EvalError> {
    let dir = dataset_dir(root, "cinc2016", "")?;
    let mut sites: Vec<_> = std::fs::read_dir(&dir)
        .map_err(|source| {
            EvalError::read(
                &dir,
                cardio_formats::FormatError::Io {
                    path: dir.display().to_string(),
                    reason: source,
                },
            )
        })?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    sites.sort();
    let mut report = PcgReport {
        all: PcgGroup::named("all"),
        ..PcgReport::default()
    };
    for site in sites {
        let name = site
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        let mut group = PcgGroup::named(name);
        for wav in files_ending(&site, ".wav")? {
            let seg = cardio_formats::read_path(&wav).ok().and_then(|rec| {
                let fs = SamplingRate::new(rec.sampling_rate_hz).ok()?;
                pcg::segment(&rec.channels.first()?.samples, fs).ok()
            });
            group.add(seg.as_ref());
        }
        report.all.merge(&group);
        group.finish();
        report.sites.push(group);
    }
    report.all.finish();
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use cardio_signal::quality::Quality;

    fn segmentation(usable: bool, hr: Option<f64>, s1_s: Vec<f64>) -> pcg::Segmentation {
        pcg::Segmentation {
            heart_rate_bpm: hr,
            systole_s: None,
            s1_s,
            s2_s: Vec::new(),
            cycles: Vec::new(),
            envelope: Vec::new(),
            quality: Quality {
                score: if usable { 1.0 } else { 0.0 },
                usable,
                reason: String::new(),
            },
        }
    }

    #[test]
    fn the_s1_rate_uses_the_median_interval() {
        assert_eq!(s1_rate(&[0.0, 1.0, 2.0, 2.5, 3.5]), Some(60.0));
        assert_eq!(s1_rate(&[1.0]), None);
    }

    #[test]
    fn agreement_counts_usable_recordings_within_ten_percent() {
        let mut g = PcgGroup::named("x");
        g.add(Some(&segmentation(true, Some(60.0), vec![0.0, 1.0, 2.0]))); // 60 vs 60: agree
        g.add(Some(&segmentation(true, Some(100.0), vec![0.0, 1.0, 2.0]))); // 60 vs 100: no
        g.add(Some(&segmentation(true, Some(60.0), vec![0.0]))); // one S1: compared, no
        g.add(Some(&segmentation(false, Some(60.0), vec![0.0, 1.0]))); // unusable
        g.add(None); // failed
        g.finish();
        assert_eq!(
            (
                g.recordings,
                g.failed,
                g.usable,
                g.compared,
                g.agree,
                g.with_s1
            ),
            (4, 1, 3, 3, 1, 2)
        );
        assert_eq!(g.usable_pct, Some(75.0));
        assert_eq!(g.agree_pct, Some(100.0 / 3.0));
        assert_eq!(g.mae_bpm, Some(20.0));
        assert_eq!(g.median_abs_diff_bpm, Some(40.0));
    }
}
