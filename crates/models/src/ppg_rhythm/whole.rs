//! A long PPG read whole (issue 41, "long recordings are read whole"): the rhythm model on
//! consecutive [`WINDOW_S`]-s windows, each through the plausibility gate and the window's own
//! quality check, merged into `af` and `noisy` episodes with the AF burden, and the result's one
//! decision made from the whole record — as `crate::ecg_rhythm::holter` does for a long ECG.
//!
//! - **Long**: longer than [`LONG_S`] (60 s, as for the ECG model). Up to a minute a PPG is one
//!   spot reading, judged exactly as before by the soft vote of [`super::predict`]; over a whole
//!   record a soft vote would dilute a paroxysm of AF into the sinus rhythm around it.
//! - **Windows**: consecutive windows of [`WINDOW_S`] = 10 s, the last one taking the remainder
//!   (10-20 s). Ten seconds is what the model was trained and validated on: the boosted trees and
//!   the waveform network learnt the 10-s segments of Liu et al. 2022 (patient-grouped CV, card
//!   `cards/ppg.md`), and the plausibility gate learnt real PPG from the same 10-s segments; the
//!   short path's windows are 10-20 s too. A 30-s window (the ECG's) was never validated here.
//! - **Each window**: the plausibility gate ([`crate::gate`], on the window's samples), the
//!   window's quality check ([`super::window`]: rate, gaps, pulse-template correlation, missing
//!   samples, the exactly-regular rule) and the rhythm model (trees blended with the network).
//!   A window refused by either is `noisy`.
//! - **Episodes** ([`crate::ecg_rhythm::holter::episodes`]): consecutive noisy windows merge into
//!   `noisy` episodes; consecutive AF windows merge into runs, and a run is an `af` episode when it
//!   lasts at least [`MIN_AF_EPISODE_S`] (30 s, three windows: the least duration of an episode of
//!   clinical AF in the ESC 2020 guidelines, Hindricks et al., Eur Heart J 2021;42:373-498). A
//!   shorter run of AF-like windows is not an episode: it is counted in `af_windows` and named in
//!   the advice ("N % of the analysed windows looked like atrial fibrillation"), as for a short
//!   recording. Single 10-s windows like AF are not rare in sinus rhythm (BIDMC, card): without
//!   the 30-s rule an ICU monitor's 8 minutes of sinus rhythm would be called AF.
//! - **Rate episodes**: runs of judged windows whose pulse rate (60 000 over the median pulse
//!   interval) is over 100 bpm (`tachycardia`) or under 60 bpm (`bradycardia`), the long ECG's
//!   thresholds, lasting at least [`MIN_RATE_EPISODE_S`] (30 s, the ECG's window).
//! - **Burden**: AF episode seconds over analysed (not noisy) seconds.
//! - **Label** (one decision): `af` when any AF episode was found; otherwise, among the windows
//!   called normal or irregular, `irregular` when those called irregular cover more time than
//!   those called normal, else `normal`; `noisy` when no window was analysed, or when the only
//!   analysed windows are a few AF-like ones too short for an episode.
//! - **Confidence**: the mean probability (on the decision scale) of the label over the windows
//!   that carry it (the AF episodes' windows for `af`): each of them has the label as its own, so
//!   their mean does too (`crate::consistency`); for `noisy`, the share of the record too noisy.

use serde_json::{json, Map, Value};

use super::classifier::{RhythmProbabilities, WindowLabel};
use crate::catalogue::{minutes, whole, Advice};
use crate::ecg_rhythm::holter::beats::{BRADYCARDIA_BPM, TACHYCARDIA_BPM};
use crate::ecg_rhythm::holter::episodes::{self, Episode, Kind};

/// A PPG longer than this is read whole, s.
pub const LONG_S: f64 = 60.0;
/// Length of a window, s: the model's own (see the module documentation).
pub const WINDOW_S: f64 = super::predict::WINDOW_S;
/// Least duration of an AF episode, s.
pub const MIN_AF_EPISODE_S: f64 = 30.0;
/// Least duration of a tachycardia or bradycardia episode, s: the long ECG's window (30 s), so
/// that a pulse record and an ECG of the same heart give the same episodes.
pub const MIN_RATE_EPISODE_S: f64 = crate::ecg_rhythm::holter::WINDOW_S;

/// Whether a PPG of `duration_s` is read whole.
pub fn is_long(duration_s: f64) -> bool {
    duration_s > LONG_S + 1e-9
}

/// Window edges `(start, end)` of a record of `duration_s`: consecutive [`WINDOW_S`] windows, the
/// last one taking the remainder.
pub fn window_edges(duration_s: f64) -> Vec<(f64, f64)> {
    episodes::window_edges(duration_s, WINDOW_S)
}

/// One window's verdict: its edges and its rhythm probabilities on the decision scale (`None`
/// when the gate or the quality check refused it).
#[derive(Debug, Clone, Copy)]
pub struct Judged {
    /// Start, s.
    pub start_s: f64,
    /// End, s.
    pub end_s: f64,
    /// The probabilities on the decision scale (AF at 0.5), `None` when noisy.
    pub shown: Option<RhythmProbabilities>,
    /// The pulse rate, bpm (60 000 over the median pulse interval; `None` when noisy or unknown).
    pub rate_bpm: Option<f64>,
}

impl Judged {
    /// The window's label (`None` when noisy).
    pub fn label(&self) -> Option<WindowLabel> {
        self.shown.map(|p| p.label(0.5).0)
    }

    fn seconds(&self) -> f64 {
        (self.end_s - self.start_s).max(0.0)
    }
}

/// The one decision over a whole record.
#[derive(Debug, Clone)]
pub struct Decision {
    /// `normal`, `af`, `irregular` or `noisy`.
    pub label: &'static str,
    /// The probability of the label (for `noisy`, the share of the record too noisy).
    pub confidence: f64,
    /// The mean probabilities of the windows that carry the label (`None` for `noisy`).
    pub shown: Option<RhythmProbabilities>,
    /// `af`, `noisy`, `tachycardia` and `bradycardia` episodes, sorted by start.
    pub episodes: Vec<Episode>,
    /// Length of the record, s.
    pub duration_s: f64,
    /// Seconds in windows that were judged.
    pub analysed_s: f64,
    /// Seconds in noisy windows.
    pub noisy_s: f64,
    /// AF episode seconds over analysed seconds.
    pub af_burden: f64,
    /// Windows called AF (in an episode or not).
    pub af_windows: usize,
    /// Windows judged.
    pub analysed_windows: usize,
    /// Index of the window that speaks most for the label (its gate verdict is shown).
    pub best_window: Option<usize>,
}

impl Decision {
    /// Whether the record could be judged.
    pub fn usable(&self) -> bool {
        self.label != "noisy"
    }

    /// The share of analysed windows called AF (`None` when none was analysed), for the advice.
    pub fn af_window_share(&self) -> Option<f64> {
        (self.analysed_windows > 0).then(|| self.af_windows as f64 / self.analysed_windows as f64)
    }

    /// The AF episodes.
    pub fn af(&self) -> Vec<Episode> {
        self.episodes
            .iter()
            .filter(|e| e.kind == Kind::Af)
            .copied()
            .collect()
    }
}

/// The AF episodes from windows `(start_s, end_s, af)`: runs of consecutive AF windows that last
/// at least [`MIN_AF_EPISODE_S`].
pub fn af_episodes(windows: &[(f64, f64, bool)]) -> Vec<Episode> {
    episodes::runs(Kind::Af, windows)
        .into_iter()
        .filter(|e| e.duration_s() >= MIN_AF_EPISODE_S - 1e-9)
        .collect()
}

/// Tachycardia and bradycardia episodes: runs of consecutive judged windows whose pulse rate is
/// over [`TACHYCARDIA_BPM`] (under [`BRADYCARDIA_BPM`]), the long ECG's thresholds, lasting at
/// least [`MIN_RATE_EPISODE_S`].
pub fn rate_episodes(windows: &[Judged]) -> Vec<Episode> {
    let runs = |kind: Kind, f: &dyn Fn(f64) -> bool| {
        let flags: Vec<(f64, f64, bool)> = windows
            .iter()
            .map(|w| {
                let rate = w.rate_bpm.filter(|_| w.shown.is_some());
                (w.start_s, w.end_s, rate.is_some_and(f))
            })
            .collect();
        episodes::runs(kind, &flags)
            .into_iter()
            .filter(|e| e.duration_s() >= MIN_RATE_EPISODE_S - 1e-9)
            .collect::<Vec<_>>()
    };
    let mut out = runs(Kind::Tachycardia, &|r| r > TACHYCARDIA_BPM);
    out.extend(runs(Kind::Bradycardia, &|r| r < BRADYCARDIA_BPM));
    out
}

/// The decision over `windows` of a record of `duration_s` (see the module documentation).
pub fn decide(windows: &[Judged], duration_s: f64) -> Decision {
    let flags = |f: &dyn Fn(&Judged) -> bool| -> Vec<(f64, f64, bool)> {
        windows.iter().map(|w| (w.start_s, w.end_s, f(w))).collect()
    };
    let noisy_runs = episodes::runs(Kind::Noisy, &flags(&|w| w.shown.is_none()));
    let af = af_episodes(&flags(&|w| w.label() == Some(WindowLabel::Af)));
    let mut all = af.clone();
    all.extend(noisy_runs);
    all.extend(rate_episodes(windows));
    all.sort_by(|a, b| a.start_s.total_cmp(&b.start_s).then(a.kind.cmp(&b.kind)));
    let noisy_s = episodes::seconds(&all, Kind::Noisy);
    let analysed_s = (duration_s - noisy_s).max(0.0);
    let af_burden = episodes::af_burden(&all, analysed_s);
    let in_af = |w: &Judged| {
        w.label() == Some(WindowLabel::Af)
            && af
                .iter()
                .any(|e| w.start_s >= e.start_s - 1e-9 && w.end_s <= e.end_s + 1e-9)
    };
    let time = |l: WindowLabel| -> f64 {
        windows
            .iter()
            .filter(|w| w.label() == Some(l))
            .map(Judged::seconds)
            .sum()
    };
    let (normal, irregular) = (time(WindowLabel::Normal), time(WindowLabel::Irregular));
    let label = if !af.is_empty() {
        Some(WindowLabel::Af)
    } else if normal + irregular <= 0.0 {
        None
    } else if irregular > normal {
        Some(WindowLabel::Irregular)
    } else {
        Some(WindowLabel::Normal)
    };
    let carries = |w: &Judged| match label {
        Some(WindowLabel::Af) => in_af(w),
        Some(l) => w.label() == Some(l),
        None => false,
    };
    let chosen: Vec<(RhythmProbabilities, f64)> = windows
        .iter()
        .filter(|w| carries(w))
        .filter_map(|w| w.shown.map(|p| (p, 1.0)))
        .collect();
    let shown = RhythmProbabilities::weighted_mean(&chosen);
    let (label, confidence) = match (label, shown) {
        (Some(l), Some(p)) => {
            let c = match l {
                WindowLabel::Af => p.af(),
                WindowLabel::Irregular => p.irregular(),
                WindowLabel::Normal => p.normal(),
            };
            (l.name(), c)
        }
        _ => ("noisy", noisy_s / duration_s.max(f64::MIN_POSITIVE)),
    };
    let k = |w: &Judged| match (label, w.shown) {
        ("af", Some(p)) => p.af(),
        ("irregular", Some(p)) => p.irregular(),
        (_, Some(p)) => p.normal(),
        _ => 0.0,
    };
    let best_window = windows
        .iter()
        .enumerate()
        .filter(|(_, w)| label == "noisy" || carries(w))
        .max_by(|(_, a), (_, b)| k(a).total_cmp(&k(b)))
        .map(|(i, _)| i);
    Decision {
        label,
        confidence: confidence.clamp(0.0, 1.0),
        shown: if label == "noisy" { None } else { shown },
        episodes: all,
        duration_s,
        analysed_s,
        noisy_s,
        af_burden,
        af_windows: windows
            .iter()
            .filter(|w| w.label() == Some(WindowLabel::Af))
            .count(),
        analysed_windows: windows.iter().filter(|w| w.shown.is_some()).count(),
        best_window,
    }
}

/// The advice a whole record adds before the disclaimer: the AF episodes, then how much of the
/// record was analysed.
pub fn advice(d: &Decision) -> Vec<Advice> {
    let mut out = Vec::new();
    let af = d.af();
    if d.label == "af" {
        let longest = af.iter().map(Episode::duration_s).fold(0.0, f64::max);
        out.push(
            Advice::new("ppg.holter_af")
                .with("episodes", af.len())
                .with("percent", whole(100.0 * d.af_burden))
                .with("longest", minutes(longest)),
        );
    }
    out.push(
        Advice::new("ppg.holter_analysed")
            .with("total", minutes(d.duration_s))
            .with("analysed", minutes(d.analysed_s))
            .with("noisy", minutes(d.noisy_s)),
    );
    out
}

fn round(v: f64, decimals: i32) -> Value {
    let k = 10f64.powi(decimals);
    // + 0.0 turns a negative zero (an empty sum) into 0.
    let r = (v * k).round() / k + 0.0;
    if r.is_finite() {
        json!(r)
    } else {
        Value::Null
    }
}

/// The details a whole record adds: `episodes`, `af_burden`, `analysed_s`, `noisy_s`,
/// `duration_s`, `window_s`.
pub fn details(d: &Decision, details: &mut Map<String, Value>) {
    details.insert("duration_s".into(), round(d.duration_s, 2));
    details.insert("analysed_s".into(), round(d.analysed_s, 2));
    details.insert("noisy_s".into(), round(d.noisy_s, 2));
    details.insert("af_burden".into(), round(d.af_burden, 4));
    details.insert("window_s".into(), json!(WINDOW_S));
    details.insert("episodes".into(), episodes::to_json(&d.episodes));
}

/// The quality sentence of a whole record (read by the catalogue's `p_windows` and `h_none`).
pub fn quality_reason(d: &Decision, windows: usize, first_refusal: Option<&str>) -> String {
    if d.usable() {
        format!(
            "usable: {} of {} windows ({:.0} % of the recording) passed the quality check; the others were left out",
            d.analysed_windows,
            windows,
            100.0 * d.analysed_s / d.duration_s.max(1e-9)
        )
    } else if d.analysed_windows == 0 {
        format!(
            "too noisy: none of the {windows} windows of this recording passed the quality check"
        )
    } else {
        first_refusal.unwrap_or_default().to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ppg_rhythm::classifier::Rhythm;

    /// Probabilities on the decision scale whose label is `l` with probability `p`.
    fn probs(label: Option<WindowLabel>, p: f64) -> Option<RhythmProbabilities> {
        let rest = (1.0 - p) / 2.0;
        let mut rhythms = [0.0; 6];
        let (sinus, pvc, af) = (
            Rhythm::Sinus.index(),
            Rhythm::Pvc.index(),
            Rhythm::Af.index(),
        );
        let (top, others) = match label? {
            WindowLabel::Normal => (sinus, [pvc, af]),
            WindowLabel::Irregular => (pvc, [sinus, af]),
            WindowLabel::Af => (af, [sinus, pvc]),
        };
        rhythms[top] = p;
        for o in others {
            rhythms[o] = rest;
        }
        Some(RhythmProbabilities { rhythms })
    }

    /// Ten-second windows with the labels given (`None`: noisy) and probability `p` each.
    fn windows(labels: &[Option<WindowLabel>], p: f64) -> Vec<Judged> {
        labels
            .iter()
            .enumerate()
            .map(|(i, &l)| Judged {
                start_s: 10.0 * i as f64,
                end_s: 10.0 * (i + 1) as f64,
                shown: probs(l, p),
                rate_bpm: Some(72.0),
            })
            .collect()
    }

    const N: Option<WindowLabel> = Some(WindowLabel::Normal);
    const A: Option<WindowLabel> = Some(WindowLabel::Af);
    const I: Option<WindowLabel> = Some(WindowLabel::Irregular);
    const X: Option<WindowLabel> = None;

    #[test]
    fn tachycardia_and_bradycardia_are_runs_of_judged_windows_of_thirty_seconds_or_more() {
        let mut w = windows(&[N, N, N, N, N, N, N, N, N, X, N, N, N, N, N, N], 0.9);
        for (i, rate) in [
            120.0, 130.0, 125.0, 72.0, 48.0, 45.0, 72.0, 50.0, 50.0, 50.0, 50.0,
        ]
        .into_iter()
        .enumerate()
        {
            w[i].rate_bpm = Some(rate);
        }
        // Windows 12-15 under 60 bpm, 40 s; window 9 (noisy) breaks the run of 7-10.
        for x in &mut w[12..16] {
            x.rate_bpm = Some(55.0);
        }
        w[11].rate_bpm = None;

        let e = rate_episodes(&w);

        let kinds: Vec<(Kind, f64, f64)> = e.iter().map(|e| (e.kind, e.start_s, e.end_s)).collect();
        assert_eq!(
            kinds,
            vec![
                (Kind::Tachycardia, 0.0, 30.0),
                (Kind::Bradycardia, 120.0, 160.0)
            ]
        );
        let d = decide(&w, 160.0);
        assert!(d.episodes.iter().any(|e| e.kind == Kind::Tachycardia));
        assert_eq!(d.label, "normal");
    }

    #[test]
    fn a_record_over_a_minute_is_long_and_tiled_in_ten_second_windows() {
        assert!(!is_long(60.0));
        assert!(is_long(60.5));
        assert_eq!(window_edges(25.0), vec![(0.0, 10.0), (10.0, 25.0)]);
        let e = window_edges(480.008);
        assert_eq!(e.len(), 48);
        assert_eq!(e[47], (470.0, 480.008));
        assert!(window_edges(f64::NAN).is_empty());
    }

    #[test]
    fn three_consecutive_af_windows_make_an_episode_and_two_do_not() {
        let w = windows(&[N, A, A, N, A, A, A, A, N, N], 0.8);

        let d = decide(&w, 100.0);

        assert_eq!(d.label, "af");
        let af: Vec<(f64, f64)> = d.af().iter().map(|e| (e.start_s, e.end_s)).collect();
        assert_eq!(af, vec![(40.0, 80.0)]);
        assert_eq!(d.af_windows, 6);
        assert!((d.af_burden - 0.4).abs() < 1e-12);
        // The confidence is the mean P(af) of the episode's windows.
        assert!((d.confidence - 0.8).abs() < 1e-12);
        assert_eq!(d.best_window.map(|i| w[i].label()), Some(A));
    }

    #[test]
    fn noisy_windows_become_episodes_and_leave_the_analysed_time() {
        let w = windows(&[X, X, N, N, A, A, A, X, N, N], 0.7);

        let d = decide(&w, 100.0);

        let noisy: Vec<(f64, f64)> = d
            .episodes
            .iter()
            .filter(|e| e.kind == Kind::Noisy)
            .map(|e| (e.start_s, e.end_s))
            .collect();
        assert_eq!(noisy, vec![(0.0, 20.0), (70.0, 80.0)]);
        assert_eq!((d.noisy_s, d.analysed_s), (30.0, 70.0));
        assert!((d.af_burden - 30.0 / 70.0).abs() < 1e-12);
        assert_eq!(d.analysed_windows, 7);
    }

    #[test]
    fn without_an_episode_the_longer_of_normal_and_irregular_time_decides() {
        let normal = decide(&windows(&[N, N, A, I, N, A, A], 0.6), 70.0);
        let irregular = decide(&windows(&[I, I, N, I, A, N], 0.6), 60.0);

        assert_eq!(normal.label, "normal");
        assert_eq!(normal.af_burden, 0.0);
        assert_eq!(normal.af_windows, 3);
        assert!((normal.af_window_share().unwrap() - 3.0 / 7.0).abs() < 1e-12);
        assert!((normal.confidence - 0.6).abs() < 1e-12);
        assert_eq!(irregular.label, "irregular");
        assert!(irregular.shown.unwrap().af() < 0.5);
    }

    #[test]
    fn a_record_with_nothing_analysed_or_only_a_short_af_run_is_noisy() {
        let none = decide(&windows(&[X, X, X, X, X, X, X], 0.9), 70.0);
        let short_af = decide(&windows(&[X, A, A, X, X, X, X], 0.9), 70.0);

        assert_eq!(none.label, "noisy");
        assert_eq!(none.confidence, 1.0);
        assert!(none.shown.is_none());
        assert_eq!(none.analysed_s, 0.0);
        assert_eq!(
            quality_reason(&none, 7, None),
            "too noisy: none of the 7 windows of this recording passed the quality check"
        );
        assert_eq!(short_af.label, "noisy");
        assert!(short_af.af().is_empty());
        assert_eq!(
            quality_reason(&short_af, 7, Some("too noisy: x")),
            "too noisy: x"
        );
    }

    #[test]
    fn the_advice_names_the_episodes_and_the_analysed_time() {
        let d = decide(&windows(&[N, N, N, A, A, A, A, A, A, X, N, N], 0.9), 120.0);

        let s = crate::catalogue::english(&advice(&d));

        assert_eq!(
            s,
            [
                "Pulse like atrial fibrillation: 1 episode(s) of at least 30 s, burden 55 %, longest 1.0 min.",
                "The whole 2.0-min recording was read in 10-s windows: 1.8 min analysed, 0.2 min left out because of noise or artefact.",
            ]
        );
    }
}
