//! Measurements of the median beat and the rhythm features of the whole recording.
//!
//! Intervals come from the global fiducials of the median beats (earliest onset, latest offset
//! across leads: the CSE convention, Willems, J. L. et al. (1985), *Circulation* 71(3), 523-534;
//! Kligfield, P. et al. (2007), AHA/ACCF/HRS recommendations part I, *Circulation* 115,
//! 1306-1324): P duration, PR (P onset to QRS onset), QRS, QT (QRS onset to T end). The rate is
//! the mean RR of all beats. QTc (Rautaharju, P. M. et al. (2009), part IV, *Circulation* 119,
//! e241-e250): Bazett `QT/√RR` (shown, as the carts print it), Fridericia `QT/∛RR`,
//! Framingham `QT + 154 (1 - RR)` ms, Hodges `QT + 1.75 (HR - 60)` ms, RR in seconds.
//!
//! The frontal axes are fitted by least squares over every limb lead present on the hexaxial
//! reference system (I 0°, II 60°, III 120°, aVR -150°, aVL -30°, aVF 90°); two non-opposite limb
//! leads suffice. The QRS axis is fitted to each lead's net QRS amplitude, the algebraic sum of its
//! deflections (R + R' - |Q| - |S|), the manifest axis of Einthoven's triangle (Einthoven, W.,
//! Fahr, G., de Waart, A. (1913), *Pflügers Arch* 150, 275-315) as read from leads I and III with
//! Dieuaide's table (Dieuaide, F. R. (1921), *Arch Intern Med* 27, 558-580): when the leads obey
//! Einthoven's law (III = II - I) the fit gives that angle, `tan α = (2·III + I) / (√3·I)`. The
//! P and T axes are fitted to the net area of the wave.
//! Amplitudes (mV) are measured from the level at the QRS onset (the PR segment): P, Q, R, S, R'
//! (a second positive deflection after S), T, ST at J and at J + 60 ms. Sokolow-Lyon is
//! `SV1 + max(RV5, RV6)` (Sokolow, M., Lyon, T. P. (1949), *Am Heart J* 37, 161-186), Cornell
//! `RaVL + SV3` (Casale, P. N. et al. (1985), *J Am Coll Cardiol* 6, 572-580), as cited by Hancock,
//! E. W. et al. (2009), part V, *Circulation* 119, e251-e261.

use cardio_signal::ecg::{global_fiducials, GlobalFiducials, Waves};
use cardio_signal::SamplingRate;
use serde::Serialize;

use super::median::{median_f64, GroupBeats, MedianBeats};
use super::Lead;

/// The amplitudes of one lead's median beat, mV from the PR level.
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct LeadAmplitudes {
    /// The lead.
    pub lead: &'static str,
    /// P-wave amplitude (the largest deflection, signed).
    pub p_mv: Option<f64>,
    /// Q wave (the negative deflection before R; 0 when none).
    pub q_mv: f64,
    /// R wave (0 when none).
    pub r_mv: f64,
    /// S wave (the negative deflection after R; 0 when none).
    pub s_mv: f64,
    /// R' (a positive deflection after S; 0 when none).
    pub r_prime_mv: f64,
    /// T-wave amplitude (the largest deflection, signed).
    pub t_mv: Option<f64>,
    /// ST level at J (QRS offset).
    pub st_j_mv: f64,
    /// ST level 60 ms after J.
    pub st_j60_mv: Option<f64>,
    /// The mean of the last 40 ms of the QRS (terminal force: positive in V1 for RBBB).
    pub terminal_mv: f64,
    /// Net QRS area, mV·ms.
    #[serde(skip)]
    pub qrs_area: f64,
}

impl LeadAmplitudes {
    /// QRS peak to peak.
    pub fn qrs_pp_mv(&self) -> f64 {
        self.r_mv.max(self.r_prime_mv) - self.q_mv.min(self.s_mv)
    }

    /// Net QRS amplitude, the algebraic sum of the deflections: R + R' - |Q| - |S|.
    pub fn qrs_net_mv(&self) -> f64 {
        self.r_mv + self.r_prime_mv + self.q_mv + self.s_mv
    }
}

/// The measurements of a 12-lead ECG (key names as serialised).
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct Measurements {
    /// Ventricular rate, beats per minute (60 000 / mean RR).
    pub heart_rate_bpm: Option<f64>,
    /// Mean RR interval.
    pub rr_ms: Option<f64>,
    /// P-wave duration.
    pub p_ms: Option<f64>,
    /// PR interval (P onset to QRS onset).
    pub pr_ms: Option<f64>,
    /// QRS duration.
    pub qrs_ms: Option<f64>,
    /// QT interval (QRS onset to T end).
    pub qt_ms: Option<f64>,
    /// QTc by Bazett (the one shown).
    pub qtc_bazett_ms: Option<f64>,
    /// QTc by Fridericia.
    pub qtc_fridericia_ms: Option<f64>,
    /// QTc by the Framingham linear formula.
    pub qtc_framingham_ms: Option<f64>,
    /// QTc by Hodges.
    pub qtc_hodges_ms: Option<f64>,
    /// The QTc shown: `bazett`.
    pub qtc_shown: &'static str,
    /// Frontal P axis, degrees (-180, 180].
    pub p_axis_deg: Option<f64>,
    /// Frontal QRS axis.
    pub qrs_axis_deg: Option<f64>,
    /// Frontal T axis.
    pub t_axis_deg: Option<f64>,
    /// Sokolow-Lyon voltage SV1 + max(RV5, RV6), mV.
    pub sokolow_lyon_mv: Option<f64>,
    /// Cornell voltage RaVL + SV3, mV.
    pub cornell_mv: Option<f64>,
    /// Per-lead amplitudes of the median beats.
    pub amplitudes: Vec<LeadAmplitudes>,
    /// The global fiducials of the median beat (beat samples).
    #[serde(skip)]
    pub fiducials: GlobalFiducials,
}

impl Measurements {
    /// The amplitudes of one lead.
    pub fn lead(&self, lead: Lead) -> Option<&LeadAmplitudes> {
        self.amplitudes.iter().find(|a| a.lead == lead.name())
    }
}

/// Rhythm features of the whole rhythm span (what the rhythm statements read).
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct Rhythm {
    /// Beats found.
    pub beats: usize,
    /// Median absolute successive RR difference over the median RR.
    pub rr_irregularity: Option<f64>,
    /// Longest minus shortest RR among the dominant, non-premature beats, ms.
    pub rr_range_ms: Option<f64>,
    /// Share of beats with a P wave: found by the delineator in at least a quarter of the leads,
    /// or matching the median beat's P wave (the larger of [`Self::p_delineated`] and
    /// [`Self::p_matched`]).
    pub p_fraction: f64,
    /// Share of beats whose P wave the delineator found in at least a quarter of the leads.
    pub p_delineated: f64,
    /// Share of beats whose P window (all leads) correlates at least [`P_MATCH`] with the median
    /// beat's P wave.
    pub p_matched: f64,
    /// Standard deviation of the beats' PR intervals, ms.
    pub pr_sd_ms: Option<f64>,
    /// Premature beats of the dominant QRS morphology (supraventricular).
    pub premature_supraventricular: usize,
    /// Beats of another QRS morphology.
    pub other_morphology: usize,
    /// Beats of another QRS morphology that are also premature (ventricular premature beats).
    pub premature_other_morphology: usize,
    /// RR intervals at least 1.7 times the median.
    pub pauses: usize,
    /// Share of beats preceded by a pacing spike.
    pub paced_fraction: f64,
    /// Dominant atrial frequency between the QRS complexes, per minute ([`super::atrial`]).
    pub atrial_rate_per_min: Option<f64>,
    /// Its organisation: share of the 2.5-12 Hz power on it and its harmonic (0-1).
    pub atrial_organisation: Option<f64>,
    /// The median over beats of the largest pacing-spike ratio (second difference before the QRS
    /// over the QRS peak to peak).
    pub spike_ratio: f64,
}

/// Measures the median beats (module doc); what cannot be measured is said in `not_measured`.
pub fn measure(
    medians: &MedianBeats,
    waves: &[(Lead, Waves)],
    main: &GroupBeats,
    fs: SamplingRate,
    not_measured: &mut Vec<String>,
) -> Measurements {
    let hz = fs.hz();
    let ms = |samples: usize| samples as f64 * 1000.0 / hz;
    let per_lead: Vec<Waves> = waves.iter().map(|(_, w)| *w).collect();
    let mut g: GlobalFiducials = robust_global(&per_lead, fs);
    let beats = &main.delineation.beats;
    let rr_ms = (beats.len() >= 2)
        .then(|| ms(beats[beats.len() - 1] - beats[0]) / (beats.len() - 1) as f64);
    let mut m = Measurements {
        heart_rate_bpm: rr_ms.map(|rr| 60_000.0 / rr),
        rr_ms,
        qtc_shown: "bazett",
        ..Measurements::default()
    };
    let span = |a: Option<usize>, b: Option<usize>| match (a, b) {
        (Some(a), Some(b)) if b > a => Some(ms(b - a)),
        _ => None,
    };
    // A long PR reaches the edge of the delineator's P search (280 ms before the QRS onset): the
    // P onset is then read from the spatial magnitude of the median beats, when earlier.
    if let (Some(p_on), Some(on)) = (g.p_on, g.qrs_on) {
        if ms(on.saturating_sub(p_on)) >= LONG_PR_MS {
            if let Some((a, _)) = p_from_magnitude(medians, &g, hz).filter(|(a, _)| *a < p_on) {
                g.p_on = Some(a);
            }
        }
    }
    m.fiducials = g;
    m.p_ms = span(g.p_on, g.p_off);
    m.pr_ms = span(g.p_on, g.qrs_on);
    m.qrs_ms = span(g.qrs_on, g.qrs_off);
    m.qt_ms = span(g.qrs_on, g.t_off);
    if m.pr_ms.is_none() {
        not_measured.push("pr_ms, p_ms: no P wave found in the median beat".into());
    }
    if m.qrs_ms.is_none() {
        not_measured.push("qrs_ms: no QRS boundaries in the median beat".into());
    }
    if let (Some(qt), Some(rr)) = (m.qt_ms, m.rr_ms) {
        let rr_s = rr / 1000.0;
        let hr = 60.0 / rr_s;
        m.qtc_bazett_ms = Some(qt / rr_s.sqrt());
        m.qtc_fridericia_ms = Some(qt / rr_s.cbrt());
        m.qtc_framingham_ms = Some(qt + 154.0 * (1.0 - rr_s));
        m.qtc_hodges_ms = Some(qt + 1.75 * (hr - 60.0));
    } else {
        not_measured.push("qt_ms, qtc: no T-wave end in the median beat".into());
    }
    let Some(on) = g.qrs_on else {
        return m;
    };
    let off = g.qrs_off.filter(|&o| o > on);
    for (lead, x) in &medians.leads {
        m.amplitudes.push(amplitudes(*lead, x, &g, on, off, hz));
    }
    // Axes by least squares over the limb leads.
    let limb: Vec<(f64, &[f64])> = medians
        .leads
        .iter()
        .filter_map(|(l, x)| l.frontal_angle().map(|a| (a, x.as_slice())))
        .collect();
    let base_of = |x: &[f64]| level(x, on, hz);
    let t_start = off.map(|o| o + (0.04 * hz) as usize);
    // The QRS axis from the net amplitudes (the algebraic sum of the deflections) of the limb
    // leads (module doc).
    if off.is_some() {
        let net: Vec<(f64, f64)> = m
            .amplitudes
            .iter()
            .filter_map(|a| {
                let lead = Lead::parse(a.lead)?;
                lead.frontal_angle().map(|ang| (ang, a.qrs_net_mv()))
            })
            .collect();
        m.qrs_axis_deg = fit_axis(&net);
    }
    m.p_axis_deg = match (g.p_on, g.p_off) {
        (Some(a), Some(b)) if b > a => axis(&limb, a, b, base_of),
        _ => None,
    };
    m.t_axis_deg = match (t_start, g.t_off) {
        (Some(a), Some(b)) if b > a => axis(&limb, a, b, base_of),
        _ => None,
    };
    if m.qrs_axis_deg.is_none() {
        not_measured.push(
            "qrs_axis_deg, p_axis_deg, t_axis_deg: need two limb leads that are not opposite"
                .into(),
        );
    }
    let r = |l: Lead| m.lead(l).map(|a| a.r_mv);
    let s = |l: Lead| m.lead(l).map(|a| -a.s_mv);
    let sokolow = match (s(Lead::V1), r(Lead::V5), r(Lead::V6)) {
        (Some(s1), Some(r5), Some(r6)) => Some(s1 + r5.max(r6)),
        (Some(s1), Some(r5), None) => Some(s1 + r5),
        (Some(s1), None, Some(r6)) => Some(s1 + r6),
        _ => None,
    };
    let cornell = r(Lead::AVL).zip(s(Lead::V3)).map(|(a, b)| a + b);
    m.sokolow_lyon_mv = sokolow;
    m.cornell_mv = cornell;
    if m.sokolow_lyon_mv.is_none() {
        not_measured.push("sokolow_lyon_mv: needs V1 and V5 or V6".into());
    }
    if m.cornell_mv.is_none() {
        not_measured.push("cornell_mv: needs aVL and V3".into());
    }
    m
}

/// A PR from the delineator at least this long is checked against the P magnitude, ms.
pub const LONG_PR_MS: f64 = 260.0;

/// Where the P onset and offset are cut, as a fraction of the P magnitude over the PR segment's.
pub const P_MAGNITUDE_CUT: f64 = 0.2;

/// The P wave of the median beats from their spatial magnitude (the sum over leads of the
/// absolute deviation from the level at the QRS onset): the peak of the magnitude between the
/// previous beat's T end (20 ms after it) and 40 ms before the QRS onset, the onset and offset
/// where the magnitude falls below 20 % of that peak. Returns `(p_on, p_off)` in beat samples.
pub fn p_from_magnitude(
    medians: &MedianBeats,
    fid: &GlobalFiducials,
    hz: f64,
) -> Option<(usize, usize)> {
    let on = fid.qrs_on?;
    let len = medians.len;
    let hi = on.checked_sub((0.04 * hz) as usize)?;
    let floor = fid
        .t_off
        .and_then(|t| (t + (0.02 * hz) as usize).checked_sub(len))
        .unwrap_or(0);
    let lo = floor.max(on.saturating_sub((0.5 * hz) as usize));
    if hi <= lo + 4 || medians.leads.is_empty() {
        return None;
    }
    let raw: Vec<f64> = (lo..hi)
        .map(|i| {
            medians
                .leads
                .iter()
                .map(|(_, x)| (x[i] - level(x, on, hz)).abs())
                .sum::<f64>()
        })
        .collect();
    // A 20-ms moving average.
    let w = ((0.01 * hz) as usize).max(1);
    let mag: Vec<f64> = (0..raw.len())
        .map(|i| {
            let (a, b) = (i.saturating_sub(w), (i + w + 1).min(raw.len()));
            raw[a..b].iter().sum::<f64>() / (b - a) as f64
        })
        .collect();
    let (pk, pv) = mag
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.total_cmp(b.1))
        .map(|(i, v)| (i, *v))?;
    let floor = mag[pk..].iter().copied().fold(f64::INFINITY, f64::min);
    if pv <= floor {
        return None;
    }
    let cut = floor + P_MAGNITUDE_CUT * (pv - floor);
    let start = (0..pk).rev().find(|&i| mag[i] < cut)?;
    let end = (pk..mag.len()).find(|&i| mag[i] < cut)?;
    Some((lo + start, lo + end))
}

/// Leads that must agree on a global fiducial: 3 of 6 or more leads, 2 of 3-5, else 1.
fn support(n: usize) -> usize {
    match n {
        0..=2 => 1,
        3..=5 => 2,
        _ => 3,
    }
}

/// The global fiducials of the median beat: the earliest onset (latest offset) that at least
/// [`support`] leads confirm within the CSE tolerance (10 ms, 20 ms for the T end), so that two
/// derived leads sharing one error (III and aVL are computed from I and II) cannot set it; with
/// fewer leads, [`global_fiducials`] of the delineator.
pub fn robust_global(per_lead: &[Waves], fs: SamplingRate) -> GlobalFiducials {
    let k = support(per_lead.len());
    if k < 2 {
        return global_fiducials(per_lead, fs);
    }
    let tol = ((0.01 * fs.hz()).round() as usize).max(1);
    let pick = |get: fn(&Waves) -> Option<usize>, earliest: bool, tol: usize| {
        let mut v: Vec<usize> = per_lead.iter().filter_map(get).collect();
        v.sort_unstable();
        if !earliest {
            v.reverse();
        }
        let need = k.min(v.len());
        if need == 0 {
            return None;
        }
        v.iter()
            .position(|&a| v.iter().filter(|&&b| a.abs_diff(b) <= tol).count() >= need)
            .map(|i| v[i])
    };
    GlobalFiducials {
        p_on: pick(|w| w.p_on, true, tol),
        p_off: pick(|w| w.p_off, false, tol),
        qrs_on: pick(|w| w.qrs_on, true, tol),
        qrs_off: pick(|w| w.qrs_off, false, tol),
        t_off: pick(|w| w.t_off, false, 2 * tol),
    }
}

/// The mean level over the 10 ms before `at` (the PR segment before the QRS onset).
fn level(x: &[f64], at: usize, f: f64) -> f64 {
    let w = ((0.01 * f) as usize).max(1);
    let hi = at.min(x.len());
    let lo = hi.saturating_sub(w);
    if hi == lo {
        return x.first().copied().unwrap_or(0.0);
    }
    x[lo..hi].iter().sum::<f64>() / (hi - lo) as f64
}

fn amplitudes(
    lead: Lead,
    x: &[f64],
    g: &GlobalFiducials,
    on: usize,
    off: Option<usize>,
    f: f64,
) -> LeadAmplitudes {
    let base = level(x, on, f);
    let at = |i: usize| x.get(i).map(|v| v - base);
    let off = off
        .unwrap_or((on + (0.1 * f) as usize).min(x.len() - 1))
        .min(x.len() - 1);
    let mut a = LeadAmplitudes {
        lead: lead.name(),
        ..LeadAmplitudes::default()
    };
    if off <= on {
        return a;
    }
    let seg: Vec<f64> = x[on..=off].iter().map(|v| v - base).collect();
    let argmax = |s: &[f64]| {
        s.iter()
            .enumerate()
            .max_by(|a, b| a.1.total_cmp(b.1))
            .map_or((0, 0.0), |(i, v)| (i, *v))
    };
    let argmin = |s: &[f64]| {
        s.iter()
            .enumerate()
            .min_by(|a, b| a.1.total_cmp(b.1))
            .map_or((0, 0.0), |(i, v)| (i, *v))
    };
    let (ri, rv) = argmax(&seg);
    if rv > 0.0 {
        a.r_mv = rv;
        a.q_mv = argmin(&seg[..=ri]).1.min(0.0);
        let (si, sv) = argmin(&seg[ri..]);
        a.s_mv = sv.min(0.0);
        if sv < 0.0 {
            let (_, rp) = argmax(&seg[ri + si..]);
            if rp > 0.05 {
                a.r_prime_mv = rp;
            }
        }
    } else {
        a.q_mv = argmin(&seg).1;
    }
    let tail = ((0.04 * f) as usize).clamp(1, seg.len());
    a.terminal_mv = seg[seg.len() - tail..].iter().sum::<f64>() / tail as f64;
    a.qrs_area = seg.iter().sum::<f64>() * 1000.0 / f;
    a.st_j_mv = at(off).unwrap_or(0.0);
    a.st_j60_mv = at(off + (0.06 * f) as usize);
    let extreme = |lo: usize, hi: usize| -> Option<f64> {
        let hi = hi.min(x.len().saturating_sub(1));
        (hi > lo).then(|| {
            x[lo..=hi]
                .iter()
                .map(|v| v - base)
                .max_by(|a, b| a.abs().total_cmp(&b.abs()))
                .unwrap_or(0.0)
        })
    };
    a.p_mv = match (g.p_on, g.p_off) {
        (Some(p0), Some(p1)) => extreme(p0, p1),
        _ => None,
    };
    a.t_mv = g
        .t_off
        .and_then(|t1| extreme(off + (0.08 * f) as usize, t1));
    a
}

/// The direction whose projections best fit `(lead angle, value)` pairs (least squares).
fn fit_axis(values: &[(f64, f64)]) -> Option<f64> {
    let (mut sxx, mut sxy, mut syy, mut bx, mut by) = (0.0, 0.0, 0.0, 0.0, 0.0);
    for (angle, v) in values {
        let (s, c) = angle.to_radians().sin_cos();
        sxx += c * c;
        sxy += c * s;
        syy += s * s;
        bx += c * v;
        by += s * v;
    }
    let det = sxx * syy - sxy * sxy;
    if det.abs() < 1e-6 {
        return None;
    }
    let ax = (syy * bx - sxy * by) / det;
    let ay = (sxx * by - sxy * bx) / det;
    if ax == 0.0 && ay == 0.0 {
        return None;
    }
    Some(ay.atan2(ax).to_degrees())
}

/// The frontal axis of the net area between `a` and `b` over the limb leads (least squares).
fn axis(
    limb: &[(f64, &[f64])],
    a: usize,
    b: usize,
    base_of: impl Fn(&[f64]) -> f64,
) -> Option<f64> {
    let areas: Vec<(f64, f64)> = limb
        .iter()
        .filter(|(_, x)| b < x.len())
        .map(|(angle, x)| {
            let base = base_of(x);
            (*angle, x[a..=b].iter().map(|v| v - base).sum())
        })
        .collect();
    fit_axis(&areas)
}

/// Correlation with the median beat's P wave for a beat's P wave to match it (chosen on LUDB).
pub const P_MATCH: f64 = 0.6;

/// The share of beats whose P window matches the median beat's P wave (see [`Rhythm::p_matched`]).
fn p_matched(
    main: &GroupBeats,
    leads: &[(Lead, &[f64])],
    medians: &MedianBeats,
    median_p: Option<(usize, usize)>,
    fs: f64,
) -> f64 {
    let Some((p0, p1)) = median_p else {
        return 0.0;
    };
    let margin = (0.02 * fs) as usize;
    let (a, b) = (p0.saturating_sub(margin), (p1 + margin).min(medians.len));
    if b <= a + 2 {
        return 0.0;
    }
    let pairs: Vec<(&[f64], &[f64])> = leads
        .iter()
        .filter_map(|(l, x)| medians.lead(*l).map(|m| (*x, m)))
        .collect();
    if pairs.is_empty() {
        return 0.0;
    }
    let demean = |v: &[f64]| {
        let mean = v.iter().sum::<f64>() / v.len() as f64;
        v.iter().map(|x| x - mean).collect::<Vec<f64>>()
    };
    let template: Vec<f64> = pairs.iter().flat_map(|(_, m)| demean(&m[a..b])).collect();
    let pre = medians.pre;
    let (mut matched, mut total) = (0u32, 0u32);
    for &beat in &main.delineation.beats {
        let Some(start) = (beat + a).checked_sub(pre) else {
            continue;
        };
        let end = start + (b - a);
        if pairs.iter().any(|(x, _)| end > x.len()) {
            continue;
        }
        total += 1;
        let v: Vec<f64> = pairs
            .iter()
            .flat_map(|(x, _)| demean(&x[start..end]))
            .collect();
        if super::median::pearson(&v, &template) >= P_MATCH {
            matched += 1;
        }
    }
    if total == 0 {
        0.0
    } else {
        f64::from(matched) / f64::from(total)
    }
}

/// Minimum share of leads with a P wave for a beat to count as having one.
pub const P_LEAD_SHARE: f64 = 0.25;
/// Pacing spike: the largest second difference before the QRS, over the QRS peak-to-peak.
pub const SPIKE_RATIO: f64 = 0.65;

/// The rhythm features of the rhythm group (`leads` as delineated, in the same order).
pub fn rhythm(
    main: &GroupBeats,
    leads: &[(Lead, &[f64])],
    medians: &MedianBeats,
    median_p: Option<(usize, usize)>,
    fs: f64,
) -> Rhythm {
    let beats = &main.delineation.beats;
    let n_leads = main.delineation.leads.len().max(1);
    let ms = |s: usize| s as f64 * 1000.0 / fs;
    let mut r = Rhythm {
        beats: beats.len(),
        ..Rhythm::default()
    };
    let rr: Vec<f64> = beats.windows(2).map(|w| ms(w[1] - w[0])).collect();
    if rr.len() >= 2 {
        let med = median_f64(&mut rr.clone());
        let mut d: Vec<f64> = rr.windows(2).map(|w| (w[1] - w[0]).abs()).collect();
        r.rr_irregularity = Some(median_f64(&mut d) / med);
        r.pauses = rr.iter().filter(|&&v| v >= 1.7 * med).count();
    }
    // RR range of the dominant beats (both ends of the interval dominant, not premature).
    let used = &main.selection.used;
    let dom: Vec<f64> = beats
        .windows(2)
        .filter(|w| used.contains(&w[0]) && used.contains(&w[1]))
        .map(|w| ms(w[1] - w[0]))
        .collect();
    if dom.len() >= 2 {
        let lo = dom.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = dom.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        r.rr_range_ms = Some(hi - lo);
    }
    let need = ((P_LEAD_SHARE * n_leads as f64).ceil() as usize).max(1);
    let mut with_p = 0u32;
    let mut prs = Vec::new();
    for (i, g) in main.global.iter().enumerate() {
        let count = main
            .delineation
            .leads
            .iter()
            .filter(|l| l.get(i).is_some_and(|w| w.p_peak.is_some()))
            .count();
        if count >= need {
            with_p += 1;
            if let (Some(p), Some(q)) = (g.p_on, g.qrs_on) {
                if q > p {
                    prs.push(ms(q - p));
                }
            }
        }
    }
    r.p_delineated = if beats.is_empty() {
        0.0
    } else {
        f64::from(with_p) / beats.len() as f64
    };
    r.p_matched = p_matched(main, leads, medians, median_p, fs);
    r.p_fraction = r.p_delineated.max(r.p_matched);
    if prs.len() >= 3 {
        let mean = prs.iter().sum::<f64>() / prs.len() as f64;
        let var = prs.iter().map(|p| (p - mean).powi(2)).sum::<f64>() / (prs.len() - 1) as f64;
        r.pr_sd_ms = Some(var.sqrt());
    }
    for (i, corr) in main.selection.correlation.iter().enumerate() {
        if corr.is_some_and(|c| c < super::median::MIN_CORRELATION) {
            r.other_morphology += 1;
            if main.selection.premature[i] {
                r.premature_other_morphology += 1;
            }
        } else if main.selection.premature[i] {
            r.premature_supraventricular += 1;
        }
    }
    // Pacing spikes: a second difference before the QRS that is large next to the QRS itself.
    let (pre, post, half) = (
        (0.12 * fs) as usize,
        (0.04 * fs) as usize,
        (0.06 * fs) as usize,
    );
    let mut paced = 0u32;
    let mut ratios = Vec::with_capacity(beats.len());
    for &b in beats {
        let ratio = leads
            .iter()
            .map(|(_, x)| {
                if b < pre.max(half) + 1 || b + post.max(half) + 1 >= x.len() {
                    return 0.0;
                }
                let qrs = &x[b - half..b + half];
                let pp = qrs.iter().copied().fold(f64::NEG_INFINITY, f64::max)
                    - qrs.iter().copied().fold(f64::INFINITY, f64::min);
                let d2 = (b - pre..b + post)
                    .map(|i| (x[i + 1] - 2.0 * x[i] + x[i - 1]).abs())
                    .fold(0.0, f64::max);
                if pp > 0.0 {
                    d2 / pp
                } else {
                    0.0
                }
            })
            .fold(0.0, f64::max);
        if ratio > SPIKE_RATIO {
            paced += 1;
        }
        ratios.push(ratio);
    }
    if !ratios.is_empty() {
        r.spike_ratio = median_f64(&mut ratios);
    }
    r.paced_fraction = if beats.is_empty() {
        0.0
    } else {
        f64::from(paced) / beats.len() as f64
    };
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    fn net(lead: &'static str, q: f64, r: f64, s: f64) -> LeadAmplitudes {
        LeadAmplitudes {
            lead,
            q_mv: q,
            r_mv: r,
            s_mv: s,
            ..LeadAmplitudes::default()
        }
    }

    /// The limb leads' net amplitudes of a unit QRS vector at `deg` (Einthoven's law holds:
    /// III = II - I; the augmented leads are 3/2 of the unipolar projections, √3/2 of the unit).
    fn limb(deg: f64) -> Vec<(f64, f64)> {
        [0.0, 60.0, 120.0, -150.0, -30.0, 90.0]
            .iter()
            .enumerate()
            .map(|(i, &ang)| {
                let k = if i < 3 { 1.0 } else { 3f64.sqrt() / 2.0 };
                (ang, k * (deg - ang).to_radians().cos())
            })
            .collect()
    }

    #[test]
    fn the_net_amplitude_is_the_algebraic_sum_of_the_deflections() {
        // qRs: q -0.1, R 1.2, S -0.5 -> 0.6; RSR': 0.4 - 0.6 + 0.3 = 0.1; QS -0.8 -> -0.8.
        assert!((net("I", -0.1, 1.2, -0.5).qrs_net_mv() - 0.6).abs() < 1e-12);
        let rsr = LeadAmplitudes {
            r_prime_mv: 0.3,
            ..net("V1", 0.0, 0.4, -0.6)
        };
        assert!((rsr.qrs_net_mv() - 0.1).abs() < 1e-12);
        assert!((net("III", -0.8, 0.0, 0.0).qrs_net_mv() + 0.8).abs() < 1e-12);
    }

    #[test]
    fn net_amplitudes_in_i_and_iii_give_einthovens_angle() {
        // I: R 1.0, S -0.5 (net 0.5); III: q -0.1, R 0.2, S -0.9 (net -0.8): tan α =
        // (2·III + I) / (√3·I) = -1.1 / 0.866, α = -51.8°; II = I + III = -0.3.
        let i = net("I", 0.0, 1.0, -0.5).qrs_net_mv();
        let iii = net("III", -0.1, 0.2, -0.9).qrs_net_mv();
        let expected = (2.0 * iii + i).atan2(3f64.sqrt() * i).to_degrees();
        assert!((expected + 51.8).abs() < 0.1, "{expected}");
        let two = fit_axis(&[(0.0, i), (120.0, iii)]).unwrap();
        assert!((two - expected).abs() < 1e-9, "{two}");
        let three = fit_axis(&[(0.0, i), (60.0, i + iii), (120.0, iii)]).unwrap();
        assert!((three - expected).abs() < 1e-9, "{three}");
        // Equal net amplitudes in I and III: 60°; I alone positive, III = -I/2: 0°.
        assert!((fit_axis(&[(0.0, 0.7), (120.0, 0.7)]).unwrap() - 60.0).abs() < 1e-9);
        assert!(fit_axis(&[(0.0, 1.0), (120.0, -0.5)]).unwrap().abs() < 1e-9);
    }

    #[test]
    fn six_limb_leads_give_the_vectors_angle_in_every_category() {
        for deg in [-75.0, -20.0, 15.0, 50.0, 80.0, 135.0, -150.0] {
            let got = fit_axis(&limb(deg)).unwrap();
            let diff = (got - deg).rem_euclid(360.0);
            assert!(diff.min(360.0 - diff) < 1e-9, "{deg}: {got}");
        }
    }
}
