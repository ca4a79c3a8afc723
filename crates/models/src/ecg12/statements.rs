//! The interpretation statements: ONE table ([`STATEMENTS`]) of code, English text, criterion,
//! the measurements it reads, the guideline cited, its class and the rule itself. The rules, the
//! catalogue, the PDF and FHIR all read this table; nothing about a statement lives elsewhere.
//!
//! After the AHA/ACCF/HRS Recommendations for the Standardization and Interpretation of the
//! Electrocardiogram (*Circulation*, 2007-2009):
//! - part I, Kligfield, P. et al. (2007), *Circulation* 115, 1306-1324 (the ECG and its measurement);
//! - part II, Mason, J. W. et al. (2007), *Circulation* 115, 1325-1332 (the statements: rhythm,
//!   AV conduction, axis);
//! - part III, Surawicz, B. et al. (2009), *Circulation* 119, e235-e240 (intraventricular
//!   conduction: complete RBBB QRS >= 120 ms with rsR' in V1 and a wide S in I and V6; incomplete
//!   110-119 ms; complete LBBB >= 120 ms, broad R in I, aVL, V5, V6, no q in I, V5, V6; LAFB axis
//!   -45 to -90 with qR in aVL; LPFB axis 90-180 with rS in I and qR in III; nonspecific IVCD
//!   >= 110 ms without the BBB morphology);
//! - part IV, Rautaharju, P. M. et al. (2009), *Circulation* 119, e241-e250 (ST, T, U, QT: long
//!   QTc >= 450 ms men, >= 460 ms women; short <= 390 ms);
//! - part V, Hancock, E. W. et al. (2009), *Circulation* 119, e251-e261 (hypertrophy: Sokolow-Lyon
//!   > 3.5 mV; Cornell > 2.8 mV men, > 2.0 mV women);
//! - part VI, Wagner, G. S. et al. (2009), *Circulation* 119, e262-e270 (acute ischaemia: ST
//!   elevation at J >= 0.1 mV in two contiguous leads, in V2-V3 >= 0.2 mV men >= 40 y, >= 0.25 mV
//!   men < 40 y, >= 0.15 mV women; ST depression >= 0.05 mV).
//!
//! Where the guideline gives no number (the share of beats with a P wave, how irregular AF is,
//! what a pacing spike is, how variable the PR of AV dissociation is) the threshold was chosen
//! on LUDB (`cardio eval ecg12`), which makes LUDB a development set for those rules. Without
//! the sex, the limits that are stricter for specificity are used (QTc 460 ms, Cornell 2.8 mV,
//! V2-V3 ST 0.2 mV); without the age, 40 years or more is assumed.

use std::fmt::Write as _;

use serde::Serialize;

use super::measure::{LeadAmplitudes, Measurements, Rhythm};
use super::{Lead, Sex};

const PART_I: &str =
    "Kligfield et al. 2007, AHA/ACCF/HRS ECG recommendations part I, Circulation 115:1306-1324";
const PART_II: &str =
    "Mason et al. 2007, AHA/ACCF/HRS ECG recommendations part II, Circulation 115:1325-1332";
const PART_III: &str =
    "Surawicz et al. 2009, AHA/ACCF/HRS ECG recommendations part III, Circulation 119:e235-e240";
const PART_IV: &str =
    "Rautaharju et al. 2009, AHA/ACCF/HRS ECG recommendations part IV, Circulation 119:e241-e250";
const PART_V: &str =
    "Hancock et al. 2009, AHA/ACCF/HRS ECG recommendations part V, Circulation 119:e251-e261";
const PART_VI: &str =
    "Wagner et al. 2009, AHA/ACCF/HRS ECG recommendations part VI, Circulation 119:e262-e270";

/// ST depression at J (and 60 ms after it: horizontal or down-sloping) in two contiguous leads,
/// mV: the 0.1 mV, as the carts' ischaemia statements use it (part VI gives 0.05 mV for
/// a new depression against an earlier ECG, which a single ECG cannot show).
pub const ST_DEPRESSION_MV: f64 = -0.1;

/// Atrial flutter's atrial rate, per minute (AHA/ACCF/HRS part II: 240-340/min).
pub const FLUTTER_RATE: (f64, f64) = (240.0, 340.0);
/// Organisation of the atrial activity from which it is flutter (chosen on LUDB: its two typical
/// flutters without pacing read 0.75 and 0.67, its atrial fibrillations at most 0.73 (one coarse
/// fibrillation) and otherwise 0.41, its sinus rhythms without P waves found at most 0.30).
pub const FLUTTER_ORGANISATION: f64 = 0.5;

/// Share of beats with a P wave for an atrial rhythm with P waves (chosen on LUDB).
pub const P_PRESENT: f64 = 0.8;
/// Share of beats with a P wave below which P waves are absent (chosen on LUDB).
pub const P_ABSENT: f64 = 0.8;
/// RR irregularity (median |ΔRR| / median RR) above which the rhythm is irregular (LUDB).
pub const IRREGULAR: f64 = 0.06;
/// PR standard deviation above which P and QRS are dissociated (LUDB).
pub const PR_DISSOCIATED_MS: f64 = 60.0;
/// Share of beats with a pacing spike for a paced rhythm (LUDB).
pub const PACED: f64 = 0.5;

/// What a statement adds to the overall category.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Class {
    /// A normal finding (sinus rhythm).
    Normal,
    /// A borderline finding.
    Borderline,
    /// An abnormal finding.
    Abnormal,
    /// The overall category itself.
    Summary,
}

/// The overall category of the ECG.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Category {
    /// Normal ECG.
    Normal,
    /// Borderline ECG.
    Borderline,
    /// Abnormal ECG.
    Abnormal,
}

/// The frontal QRS axis in the categories LUDB names (its cardiologists' convention).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AxisCategory {
    /// 30° to 70°.
    Normal,
    /// 70° to 90°.
    Vertical,
    /// 0° to 30°.
    Horizontal,
    /// Below 0° (to -90°).
    LeftDeviation,
    /// Above 90° (to 180°, and -90° to -180°).
    RightDeviation,
}

impl AxisCategory {
    /// The ranges, lower bound inclusive, degrees.
    pub const RANGES: &'static str = "horizontal 0-30°, normal 30-70°, vertical 70-90°, left deviation -90-0°, right deviation 90-180° and -180--90°";

    /// The category of an axis in degrees (-180, 180].
    pub fn of(deg: f64) -> Self {
        if (-90.0..0.0).contains(&deg) {
            Self::LeftDeviation
        } else if (0.0..30.0).contains(&deg) {
            Self::Horizontal
        } else if (30.0..70.0).contains(&deg) {
            Self::Normal
        } else if (70.0..=90.0).contains(&deg) {
            Self::Vertical
        } else {
            Self::RightDeviation
        }
    }

    /// The snake-case label.
    pub fn label(self) -> &'static str {
        match self {
            Self::Normal => "normal",
            Self::Vertical => "vertical",
            Self::Horizontal => "horizontal",
            Self::LeftDeviation => "left_deviation",
            Self::RightDeviation => "right_deviation",
        }
    }
}

/// What the rules read.
pub struct Facts<'a> {
    /// The measurements.
    pub m: &'a Measurements,
    /// The rhythm features.
    pub rhythm: &'a Rhythm,
    /// The patient's sex, when given.
    pub sex: Option<Sex>,
}

/// One statement of the table.
pub struct StatementDef {
    /// Stable code (also the catalogue's text key `ecg12.<code>`).
    pub code: &'static str,
    /// Its SNOMED CT concept, where one exists (the ECG findings of the PhysioNet/Computing in
    /// Cardiology Challenge 2020-2021 diagnosis mapping, Perez Alday et al. 2020; atrial
    /// fibrillation as the disorder 49436004); `None` for the overall category.
    pub snomed: Option<&'static str>,
    /// English text.
    pub text: &'static str,
    /// The criterion, in words.
    pub criterion: &'static str,
    /// The measurement keys it reads.
    pub reads: &'static [&'static str],
    /// The guideline cited.
    pub guideline: &'static str,
    /// What it adds to the overall category.
    pub class: Class,
    /// The rule: the values that made it fire, `None` when it does not.
    pub rule: fn(&Facts) -> Option<String>,
}

/// A statement that fired.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Statement {
    /// The table's code.
    pub code: &'static str,
    /// English text.
    pub text: &'static str,
    /// The criterion.
    pub criterion: &'static str,
    /// The values that fired it ("PR 330 ms > 200 ms").
    pub values: String,
}

impl Facts<'_> {
    fn hr(&self) -> Option<f64> {
        self.m.heart_rate_bpm
    }
    fn paced(&self) -> bool {
        self.rhythm.paced_fraction >= PACED
    }
    fn irregular(&self) -> bool {
        self.rhythm.rr_irregularity.is_some_and(|v| v > IRREGULAR)
    }
    /// No P waves and organised atrial activity at 240-340/min (flutter waves).
    fn flutter(&self) -> bool {
        !self.paced()
            && self.rhythm.p_fraction < P_ABSENT
            && self
                .rhythm
                .atrial_rate_per_min
                .is_some_and(|r| (FLUTTER_RATE.0..=FLUTTER_RATE.1).contains(&r))
            && self
                .rhythm
                .atrial_organisation
                .is_some_and(|o| o >= FLUTTER_ORGANISATION)
    }
    fn af(&self) -> bool {
        !self.paced() && !self.flutter() && self.rhythm.p_fraction < P_ABSENT && self.irregular()
    }
    fn dissociated(&self) -> bool {
        !self.paced()
            && self.rhythm.p_fraction >= P_ABSENT
            && !self.irregular()
            && self.rhythm.pr_sd_ms.is_some_and(|s| s > PR_DISSOCIATED_MS)
    }
    fn sinus(&self) -> bool {
        !self.paced() && !self.af() && !self.dissociated() && self.rhythm.p_fraction >= P_PRESENT
    }
    fn amp(&self, l: Lead) -> Option<&LeadAmplitudes> {
        self.m.lead(l)
    }
    fn qrs(&self) -> Option<f64> {
        self.m.qrs_ms
    }
    fn terminal(&self, l: Lead) -> Option<f64> {
        self.amp(l).map(|a| a.terminal_mv)
    }
    /// Terminal QRS positive in V1 and negative in I and V6 (those present).
    fn right_morphology(&self) -> Option<String> {
        let v1 = self.terminal(Lead::V1)?;
        let lateral: Vec<(Lead, f64)> = [Lead::I, Lead::V6]
            .into_iter()
            .filter_map(|l| self.terminal(l).map(|t| (l, t)))
            .collect();
        (v1 > 0.0 && !lateral.is_empty() && lateral.iter().all(|(_, t)| *t < 0.0)).then(|| {
            let mut s = format!("terminal QRS V1 {v1:+.2} mV");
            for (l, t) in lateral {
                let _ = write!(s, ", {} {t:+.2} mV", l.name());
            }
            s
        })
    }
    /// V1 predominantly negative (QS or rS: S more than twice the R); a broad monophasic R in I and V6 (those present: R
    /// more than twice the S) without a q deeper than 0.1 mV.
    fn left_morphology(&self) -> Option<String> {
        let v1 = self.amp(Lead::V1)?;
        let v1_neg = -v1.q_mv.min(v1.s_mv);
        let lateral: Vec<&LeadAmplitudes> = [Lead::I, Lead::V6]
            .into_iter()
            .filter_map(|l| self.amp(l))
            .collect();
        // A terminal R' in V1 with terminal S in I and V6 is the right morphology, not both.
        let ok = v1_neg > 2.0 * v1.r_mv.max(v1.r_prime_mv)
            && self.right_morphology().is_none()
            && !lateral.is_empty()
            && lateral
                .iter()
                .all(|a| a.r_mv > -2.0 * a.s_mv && a.q_mv > -0.1);
        ok.then(|| {
            let mut s = format!("V1 R {:.2} mV, S {:.2} mV", mv(v1.r_mv), mv(v1_neg));
            for a in lateral {
                let _ = write!(
                    s,
                    "; {} R {:.2} mV, S {:.2} mV, q {:.2} mV",
                    a.lead,
                    mv(a.r_mv),
                    mv(-a.s_mv),
                    mv(-a.q_mv)
                );
            }
            s
        })
    }
    /// The voltage criteria of LVH that are met (Hancock et al. 2009), outside a wide or paced QRS.
    fn lvh_voltage(&self) -> Option<String> {
        if self.paced() || self.qrs().is_some_and(|q| q >= 120.0) {
            return None;
        }
        let cornell_limit = if self.sex == Some(Sex::Female) {
            2.0
        } else {
            2.8
        };
        let mut parts = Vec::new();
        if let Some(s) = self.m.sokolow_lyon_mv.filter(|s| *s > 3.5) {
            parts.push(format!("Sokolow-Lyon {s:.2} mV > 3.5 mV"));
        }
        if let Some(c) = self.m.cornell_mv.filter(|c| *c > cornell_limit) {
            parts.push(format!("Cornell {c:.2} mV > {cornell_limit:.1} mV"));
        }
        (!parts.is_empty()).then(|| parts.join("; "))
    }
    /// ST-T changes in the lateral leads (the "strain" of LVH): T <= -0.1 mV or ST at J
    /// <= -0.05 mV in I, aVL, V5 or V6.
    fn lateral_repolarisation(&self) -> bool {
        [Lead::I, Lead::AVL, Lead::V5, Lead::V6].iter().any(|&l| {
            self.amp(l)
                .is_some_and(|a| a.t_mv.is_some_and(|t| t <= -0.1) || a.st_j_mv <= -0.05)
        })
    }
    fn wide(&self, lo: f64, hi: f64) -> Option<f64> {
        self.qrs().filter(|q| *q >= lo && *q < hi)
    }
    fn axis(&self) -> Option<f64> {
        self.m.qrs_axis_deg
    }
    fn ivcd_right(&self) -> Option<String> {
        let q = self.wide(120.0, f64::INFINITY)?;
        if self.paced() {
            return None;
        }
        self.right_morphology()
            .map(|m| format!("QRS {q:.0} ms >= 120 ms; {m}"))
    }
    fn ivcd_left(&self) -> Option<String> {
        let q = self.wide(120.0, f64::INFINITY)?;
        if self.paced() {
            return None;
        }
        self.left_morphology()
            .map(|m| format!("QRS {q:.0} ms >= 120 ms; {m}"))
    }
    fn incomplete(&self, right: bool) -> Option<String> {
        let q = self.wide(110.0, 120.0)?;
        if self.paced() {
            return None;
        }
        let m = if right {
            self.right_morphology()
        } else {
            self.left_morphology()
        }?;
        Some(format!("QRS {q:.0} ms in 110-119 ms; {m}"))
    }
    fn no_wide_or_paced(&self) -> bool {
        !self.paced() && self.qrs().is_some_and(|q| q < 120.0)
    }
}

/// A voltage as the values print it: to 0.01 mV, never "-0.00".
fn mv(v: f64) -> f64 {
    (v * 100.0).round() / 100.0 + 0.0
}

/// Leads whose value passes `test`, when two contiguous leads do.
fn contiguous(
    pairs: &[(Lead, Lead)],
    value: impl Fn(Lead) -> Option<f64>,
    test: impl Fn(Lead, f64) -> bool,
    unit: &str,
) -> Option<String> {
    let mut hits: Vec<(Lead, f64)> = Vec::new();
    for &(a, b) in pairs {
        if let (Some(va), Some(vb)) = (value(a), value(b)) {
            if test(a, va) && test(b, vb) {
                for (l, v) in [(a, va), (b, vb)] {
                    if !hits.iter().any(|(h, _)| *h == l) {
                        hits.push((l, v));
                    }
                }
            }
        }
    }
    if hits.is_empty() {
        return None;
    }
    hits.sort_by_key(|(l, _)| *l);
    Some(
        hits.iter()
            .map(|(l, v)| format!("{} {v:+.2} {unit}", l.name()))
            .collect::<Vec<_>>()
            .join(", "),
    )
}

/// Contiguous lead pairs (Cabrera order in the limb leads, neighbours in the chest leads).
const CONTIGUOUS: [(Lead, Lead); 9] = [
    (Lead::AVL, Lead::I),
    (Lead::I, Lead::II),
    (Lead::II, Lead::AVF),
    (Lead::AVF, Lead::III),
    (Lead::V1, Lead::V2),
    (Lead::V2, Lead::V3),
    (Lead::V3, Lead::V4),
    (Lead::V4, Lead::V5),
    (Lead::V5, Lead::V6),
];

/// Pairs where the T wave is normally upright (III and V1 left out).
const T_UPRIGHT: [(Lead, Lead); 7] = [
    (Lead::AVL, Lead::I),
    (Lead::I, Lead::II),
    (Lead::II, Lead::AVF),
    (Lead::V2, Lead::V3),
    (Lead::V3, Lead::V4),
    (Lead::V4, Lead::V5),
    (Lead::V5, Lead::V6),
];

fn st_elevation_limit(sex: Option<Sex>, lead: Lead) -> f64 {
    match (lead, sex) {
        (Lead::V2 | Lead::V3, Some(Sex::Female)) => 0.15,
        (Lead::V2 | Lead::V3, _) => 0.2,
        _ => 0.1,
    }
}

/// The statements, in the order they are printed.
pub const STATEMENTS: &[StatementDef] = &[
    StatementDef {
        code: "sinus_rhythm",
        snomed: Some("426783006"),
        text: "Sinus rhythm",
        criterion: "P waves before at least 80 % of the beats with a constant PR, rate 60-100 bpm",
        reads: &["heart_rate_bpm", "pr_ms"],
        guideline: PART_II,
        class: Class::Normal,
        rule: |f| {
            let hr = f.hr()?;
            (f.sinus() && (60.0..=100.0).contains(&hr)).then(|| {
                format!(
                    "P waves in {:.0} % of beats; rate {hr:.0} bpm in 60-100",
                    100.0 * f.rhythm.p_fraction
                )
            })
        },
    },
    StatementDef {
        code: "sinus_bradycardia",
        snomed: Some("426177001"),
        text: "Sinus bradycardia",
        criterion: "sinus rhythm at a rate below 60 bpm",
        reads: &["heart_rate_bpm"],
        guideline: PART_II,
        class: Class::Normal,
        rule: |f| {
            let hr = f.hr()?;
            (f.sinus() && hr < 60.0).then(|| format!("sinus rhythm, rate {hr:.0} bpm < 60 bpm"))
        },
    },
    StatementDef {
        code: "sinus_tachycardia",
        snomed: Some("427084000"),
        text: "Sinus tachycardia",
        criterion: "sinus rhythm at a rate above 100 bpm",
        reads: &["heart_rate_bpm"],
        guideline: PART_II,
        class: Class::Borderline,
        rule: |f| {
            let hr = f.hr()?;
            (f.sinus() && hr > 100.0).then(|| format!("sinus rhythm, rate {hr:.0} bpm > 100 bpm"))
        },
    },
    StatementDef {
        code: "sinus_arrhythmia",
        snomed: Some("427393009"),
        text: "Sinus arrhythmia",
        criterion: "sinus rhythm whose RR of the dominant beats varies by more than 120 ms",
        reads: &["rr_ms"],
        guideline: PART_II,
        class: Class::Normal,
        rule: |f| {
            let range = f.rhythm.rr_range_ms?;
            (f.sinus() && range > 120.0)
                .then(|| format!("RR range {range:.0} ms > 120 ms"))
        },
    },
    StatementDef {
        code: "atrial_fibrillation",
        snomed: Some("49436004"),
        text: "Atrial fibrillation",
        criterion: "no P waves (in under 80 % of beats: neither delineated in a quarter of the leads nor matching the median P wave) and irregular RR (median |ΔRR| > 6 % of the median RR)",
        reads: &["rr_ms"],
        guideline: PART_II,
        class: Class::Abnormal,
        rule: |f| {
            f.af().then(|| {
                format!(
                    "P waves in {:.0} % of beats < 80 %; RR irregularity {:.0} % > 6 %",
                    100.0 * f.rhythm.p_fraction,
                    100.0 * f.rhythm.rr_irregularity.unwrap_or(0.0)
                )
            })
        },
    },
    StatementDef {
        code: "atrial_flutter",
        snomed: Some("164890007"),
        text: "Atrial flutter",
        criterion: "no P waves (in under 80 % of beats) and organised atrial activity at 240-340/min between the QRS complexes in II, III, aVF and V1 (at least half the 2.5-12 Hz power on the atrial rate and its harmonic)",
        reads: &["rr_ms"],
        guideline: PART_II,
        class: Class::Abnormal,
        rule: |f| {
            f.flutter().then(|| {
                format!(
                    "P waves in {:.0} % of beats < 80 %; atrial rate {:.0}/min, organisation {:.2} >= 0.5",
                    100.0 * f.rhythm.p_fraction,
                    f.rhythm.atrial_rate_per_min.unwrap_or(0.0),
                    f.rhythm.atrial_organisation.unwrap_or(0.0)
                )
            })
        },
    },
    StatementDef {
        code: "paced_rhythm",
        snomed: Some("10370003"),
        text: "Electronic ventricular pacemaker",
        criterion: "a pacing spike (second difference above 65 % of the QRS peak to peak) within 120 ms before the QRS of at least 50 % of the beats",
        reads: &[],
        guideline: PART_II,
        class: Class::Abnormal,
        rule: |f| {
            f.paced().then(|| {
                format!(
                    "pacing spikes before {:.0} % of beats >= 50 %",
                    100.0 * f.rhythm.paced_fraction
                )
            })
        },
    },
    StatementDef {
        code: "pac",
        snomed: Some("284470004"),
        text: "Premature atrial complexes",
        criterion: "a beat more than 20 % premature with the dominant QRS morphology (correlation >= 0.9), outside atrial fibrillation",
        reads: &["rr_ms"],
        guideline: PART_II,
        class: Class::Borderline,
        rule: |f| {
            let n = f.rhythm.premature_supraventricular;
            (n > 0 && !f.af() && !f.irregular())
                .then(|| format!("{n} premature beat(s) of the dominant QRS morphology"))
        },
    },
    StatementDef {
        code: "pvc",
        snomed: Some("427172004"),
        text: "Premature ventricular complexes",
        criterion: "a beat more than 20 % premature whose QRS correlates below 0.9 with the dominant template",
        reads: &["rr_ms"],
        guideline: PART_II,
        class: Class::Abnormal,
        rule: |f| {
            let n = f.rhythm.premature_other_morphology;
            (n > 0 && !f.paced()).then(|| {
                format!("{n} premature beat(s) of another QRS morphology (correlation < 0.9)")
            })
        },
    },
    StatementDef {
        code: "first_degree_av_block",
        snomed: Some("270492004"),
        text: "1st-degree AV block",
        criterion: "PR > 200 ms with a P wave before every QRS",
        reads: &["pr_ms"],
        guideline: PART_II,
        class: Class::Abnormal,
        rule: |f| {
            let pr = f.m.pr_ms?;
            (pr > 200.0 && f.sinus()).then(|| format!("PR {pr:.0} ms > 200 ms"))
        },
    },
    StatementDef {
        code: "short_pr",
        snomed: Some("49578007"),
        text: "Short PR interval",
        criterion: "PR < 120 ms in sinus rhythm",
        reads: &["pr_ms"],
        guideline: PART_II,
        class: Class::Borderline,
        rule: |f| {
            let pr = f.m.pr_ms?;
            (pr < 120.0 && f.sinus()).then(|| format!("PR {pr:.0} ms < 120 ms"))
        },
    },
    StatementDef {
        code: "second_degree_av_block",
        snomed: Some("195042002"),
        text: "2nd-degree AV block (possible)",
        criterion: "P waves present and a pause of at least 1.7 median RR in an otherwise regular rhythm",
        reads: &["rr_ms"],
        guideline: PART_II,
        class: Class::Abnormal,
        rule: |f| {
            let n = f.rhythm.pauses;
            (n > 0 && f.rhythm.p_fraction >= P_PRESENT && !f.af() && !f.paced())
                .then(|| format!("{n} pause(s) >= 1.7 x median RR with P waves present"))
        },
    },
    StatementDef {
        code: "third_degree_av_block",
        snomed: Some("27885002"),
        text: "3rd-degree AV block (AV dissociation)",
        criterion: "P waves present, regular RR and a PR that varies from beat to beat (SD > 60 ms)",
        reads: &["pr_ms", "rr_ms"],
        guideline: PART_II,
        class: Class::Abnormal,
        rule: |f| {
            f.dissociated().then(|| {
                format!(
                    "PR SD {:.0} ms > 60 ms with regular RR",
                    f.rhythm.pr_sd_ms.unwrap_or(0.0)
                )
            })
        },
    },
    StatementDef {
        code: "rbbb",
        snomed: Some("59118001"),
        text: "Complete right bundle branch block",
        criterion: "QRS >= 120 ms; terminal QRS (last 40 ms) positive in V1 (rsR', broad R) and negative in I and V6 (wide S)",
        reads: &["qrs_ms"],
        guideline: PART_III,
        class: Class::Abnormal,
        rule: |f| f.ivcd_right(),
    },
    StatementDef {
        code: "incomplete_rbbb",
        snomed: Some("713426002"),
        text: "Incomplete right bundle branch block",
        criterion: "QRS 110-119 ms with the right bundle branch block morphology",
        reads: &["qrs_ms"],
        guideline: PART_III,
        class: Class::Borderline,
        rule: |f| f.incomplete(true),
    },
    StatementDef {
        code: "lbbb",
        snomed: Some("164909002"),
        text: "Complete left bundle branch block",
        criterion: "QRS >= 120 ms; V1 predominantly negative (QS or rS, S more than twice the R); broad monophasic R in I and V6 (R more than twice the S) without a q deeper than 0.1 mV",
        reads: &["qrs_ms"],
        guideline: PART_III,
        class: Class::Abnormal,
        rule: |f| f.ivcd_left(),
    },
    StatementDef {
        code: "incomplete_lbbb",
        snomed: Some("251120003"),
        text: "Incomplete left bundle branch block",
        criterion: "QRS 110-119 ms with the left bundle branch block morphology",
        reads: &["qrs_ms"],
        guideline: PART_III,
        class: Class::Abnormal,
        rule: |f| f.incomplete(false),
    },
    StatementDef {
        code: "lafb",
        snomed: Some("445118002"),
        text: "Left anterior fascicular block",
        criterion: "QRS axis -45° to -90° with qR in aVL, QRS < 120 ms",
        reads: &["qrs_axis_deg", "qrs_ms"],
        guideline: PART_III,
        class: Class::Abnormal,
        rule: |f| {
            let axis = f.axis()?;
            let avl = f.amp(Lead::AVL)?;
            let qrs = f.qrs()?;
            ((-90.0..=-45.0).contains(&axis)
                && avl.q_mv < 0.0
                && avl.r_mv > -avl.q_mv
                && qrs < 120.0
                && !f.paced())
            .then(|| {
                format!(
                    "axis {axis:.0}° in -45..-90°; aVL q {:.2} mV R {:.2} mV",
                    avl.q_mv, avl.r_mv
                )
            })
        },
    },
    StatementDef {
        code: "lpfb",
        snomed: Some("445211001"),
        text: "Left posterior fascicular block",
        criterion: "QRS axis 90° to 180° with rS in I and qR in III, QRS < 120 ms",
        reads: &["qrs_axis_deg", "qrs_ms"],
        guideline: PART_III,
        class: Class::Abnormal,
        rule: |f| {
            let axis = f.axis()?;
            let i = f.amp(Lead::I)?;
            let iii = f.amp(Lead::III)?;
            ((90.0..=180.0).contains(&axis)
                && -i.s_mv > i.r_mv
                && iii.q_mv < 0.0
                && iii.r_mv > -iii.q_mv
                && f.qrs()? < 120.0
                && !f.paced())
            .then(|| format!("axis {axis:.0}° in 90..180°; rS in I, qR in III"))
        },
    },
    StatementDef {
        code: "ivcd",
        snomed: Some("698252002"),
        text: "Nonspecific intraventricular conduction delay",
        criterion: "QRS >= 110 ms without the morphology of a bundle branch block",
        reads: &["qrs_ms"],
        guideline: PART_III,
        class: Class::Abnormal,
        rule: |f| {
            let q = f.wide(110.0, f64::INFINITY)?;
            let bbb = f.ivcd_right().is_some()
                || f.ivcd_left().is_some()
                || f.incomplete(true).is_some()
                || f.incomplete(false).is_some();
            (!bbb && !f.paced()).then(|| format!("QRS {q:.0} ms >= 110 ms, no BBB morphology"))
        },
    },
    StatementDef {
        code: "left_axis_deviation",
        snomed: Some("39732003"),
        text: "Left axis deviation",
        criterion: "QRS axis -30° to -90°",
        reads: &["qrs_axis_deg"],
        guideline: PART_II,
        class: Class::Borderline,
        rule: |f| {
            let a = f.axis()?;
            ((-90.0..-30.0).contains(&a) && !f.paced())
                .then(|| format!("QRS axis {a:.0}° in -30..-90°"))
        },
    },
    StatementDef {
        code: "right_axis_deviation",
        snomed: Some("47665007"),
        text: "Right axis deviation",
        criterion: "QRS axis +90° to +180°",
        reads: &["qrs_axis_deg"],
        guideline: PART_II,
        class: Class::Borderline,
        rule: |f| {
            let a = f.axis()?;
            (a > 90.0 && a <= 180.0 && !f.paced())
                .then(|| format!("QRS axis {a:.0}° in 90..180°"))
        },
    },
    StatementDef {
        code: "lvh",
        snomed: Some("164873001"),
        text: "Left ventricular hypertrophy with repolarisation abnormality",
        criterion: "Sokolow-Lyon SV1 + max(RV5, RV6) > 3.5 mV, or Cornell RaVL + SV3 > 2.8 mV (men) / > 2.0 mV (women), with T <= -0.1 mV or ST <= -0.05 mV at J in I, aVL, V5 or V6",
        reads: &["sokolow_lyon_mv", "cornell_mv"],
        guideline: PART_V,
        class: Class::Abnormal,
        rule: |f| f.lvh_voltage().filter(|_| f.lateral_repolarisation()),
    },
    StatementDef {
        code: "lvh_voltage",
        snomed: Some("55827005"),
        text: "Voltage criteria for left ventricular hypertrophy (may be a normal variant)",
        criterion: "Sokolow-Lyon SV1 + max(RV5, RV6) > 3.5 mV, or Cornell RaVL + SV3 > 2.8 mV (men) / > 2.0 mV (women), without ST-T changes in I, aVL, V5 and V6",
        reads: &["sokolow_lyon_mv", "cornell_mv"],
        guideline: PART_V,
        class: Class::Borderline,
        rule: |f| f.lvh_voltage().filter(|_| !f.lateral_repolarisation()),
    },
    StatementDef {
        code: "rvh",
        snomed: Some("89792004"),
        text: "Right ventricular hypertrophy",
        criterion: "RV1 + max(SV5, SV6) > 1.05 mV with right axis deviation, QRS < 120 ms",
        reads: &["qrs_axis_deg", "qrs_ms"],
        guideline: PART_V,
        class: Class::Abnormal,
        rule: |f| {
            let r1 = f.amp(Lead::V1)?.r_mv;
            let s5 = f.amp(Lead::V5).map_or(0.0, |a| -a.s_mv);
            let s6 = f.amp(Lead::V6).map_or(0.0, |a| -a.s_mv);
            let v = r1 + s5.max(s6);
            let a = f.axis()?;
            (v > 1.05 && a > 90.0 && f.no_wide_or_paced())
                .then(|| format!("RV1 + SV5/6 {v:.2} mV > 1.05 mV; axis {a:.0}°"))
        },
    },
    StatementDef {
        code: "left_atrial_abnormality",
        snomed: Some("253352002"),
        text: "Left atrial abnormality",
        criterion: "P duration >= 120 ms",
        reads: &["p_ms"],
        guideline: PART_V,
        class: Class::Borderline,
        rule: |f| {
            let p = f.m.p_ms?;
            (p >= 120.0 && f.sinus()).then(|| format!("P {p:.0} ms >= 120 ms"))
        },
    },
    StatementDef {
        code: "right_atrial_abnormality",
        snomed: Some("253339007"),
        text: "Right atrial abnormality",
        criterion: "P amplitude >= 0.25 mV in II or >= 0.15 mV (positive) in V1",
        reads: &[],
        guideline: PART_V,
        class: Class::Borderline,
        rule: |f| {
            if !f.sinus() {
                return None;
            }
            let p2 = f.amp(Lead::II).and_then(|a| a.p_mv).filter(|p| *p >= 0.25);
            let p1 = f.amp(Lead::V1).and_then(|a| a.p_mv).filter(|p| *p >= 0.15);
            match (p2, p1) {
                (Some(p), _) => Some(format!("P in II {p:.2} mV >= 0.25 mV")),
                (None, Some(p)) => Some(format!("P in V1 {p:.2} mV >= 0.15 mV")),
                _ => None,
            }
        },
    },
    StatementDef {
        code: "st_elevation",
        snomed: Some("164931005"),
        text: "ST elevation (consider acute ischaemia)",
        criterion: "ST at J >= 0.1 mV in two contiguous leads; in V2-V3 >= 0.2 mV (men and unknown sex, 40 y or more assumed) or >= 0.15 mV (women); QRS < 120 ms",
        reads: &["qrs_ms"],
        guideline: PART_VI,
        class: Class::Abnormal,
        rule: |f| {
            if !f.no_wide_or_paced() {
                return None;
            }
            contiguous(
                &CONTIGUOUS,
                |l| f.amp(l).map(|a| a.st_j_mv),
                |l, v| v >= st_elevation_limit(f.sex, l),
                "mV at J",
            )
        },
    },
    StatementDef {
        code: "st_depression",
        snomed: Some("429622005"),
        text: "ST depression",
        criterion: "ST at J <= -0.1 mV in two contiguous leads, horizontal or down-sloping (ST 60 ms after J as low), QRS < 120 ms",
        reads: &["qrs_ms"],
        guideline: PART_VI,
        class: Class::Abnormal,
        rule: |f| {
            if !f.no_wide_or_paced() {
                return None;
            }
            // An up-sloping ST that is back above -0.1 mV 60 ms after J is not counted.
            let sloping_down = |l: Lead| {
                f.amp(l)
                    .is_some_and(|a| a.st_j60_mv.is_some_and(|v| v <= ST_DEPRESSION_MV))
            };
            contiguous(
                &CONTIGUOUS,
                |l| f.amp(l).map(|a| a.st_j_mv),
                |l, v| v <= ST_DEPRESSION_MV && sloping_down(l),
                "mV at J",
            )
        },
    },
    StatementDef {
        code: "t_inversion",
        snomed: Some("59931005"),
        text: "T-wave inversion",
        criterion: "T <= -0.1 mV in two contiguous leads where T is normally upright (I, II, aVL, aVF, V2-V6), QRS < 120 ms",
        reads: &["qrs_ms"],
        guideline: PART_IV,
        class: Class::Abnormal,
        rule: |f| {
            if !f.no_wide_or_paced() {
                return None;
            }
            contiguous(&T_UPRIGHT, |l| f.amp(l).and_then(|a| a.t_mv), |_, v| v <= -0.1, "mV")
        },
    },
    StatementDef {
        code: "long_qtc",
        snomed: Some("111975006"),
        text: "Prolonged QT interval",
        criterion: "QTc (Bazett) >= 450 ms (men) / >= 460 ms (women and unknown sex), QRS < 120 ms",
        reads: &["qtc_bazett_ms", "qrs_ms"],
        guideline: PART_IV,
        class: Class::Abnormal,
        rule: |f| {
            let qtc = f.m.qtc_bazett_ms?;
            let limit = if f.sex == Some(Sex::Male) { 450.0 } else { 460.0 };
            (qtc >= limit && f.no_wide_or_paced())
                .then(|| format!("QTc {qtc:.0} ms >= {limit:.0} ms"))
        },
    },
    StatementDef {
        code: "short_qtc",
        snomed: Some("77867006"),
        text: "Short QT interval",
        criterion: "QTc (Bazett) <= 390 ms",
        reads: &["qtc_bazett_ms"],
        guideline: PART_IV,
        class: Class::Borderline,
        rule: |f| {
            let qtc = f.m.qtc_bazett_ms?;
            (qtc <= 390.0 && !f.paced()).then(|| format!("QTc {qtc:.0} ms <= 390 ms"))
        },
    },
    StatementDef {
        code: "low_voltage",
        snomed: Some("251146004"),
        text: "Low QRS voltage",
        criterion: "QRS peak to peak < 0.5 mV in every limb lead or < 1.0 mV in every chest lead",
        reads: &[],
        guideline: PART_I,
        class: Class::Borderline,
        rule: |f| {
            let all = |leads: &[Lead], limit: f64| {
                let v: Option<Vec<f64>> =
                    leads.iter().map(|l| f.amp(*l).map(LeadAmplitudes::qrs_pp_mv)).collect();
                v.filter(|v| v.iter().all(|x| *x < limit))
                    .map(|v| v.into_iter().fold(0.0, f64::max))
            };
            let limb = [Lead::I, Lead::II, Lead::III, Lead::AVR, Lead::AVL, Lead::AVF];
            let chest = [Lead::V1, Lead::V2, Lead::V3, Lead::V4, Lead::V5, Lead::V6];
            if let Some(max) = all(&limb, 0.5) {
                Some(format!("largest limb-lead QRS {max:.2} mV < 0.5 mV"))
            } else {
                all(&chest, 1.0).map(|max| format!("largest chest-lead QRS {max:.2} mV < 1.0 mV"))
            }
        },
    },
    StatementDef {
        code: "normal_ecg",
        snomed: None,
        text: "Normal ECG",
        criterion: "no borderline or abnormal statement",
        reads: &[],
        guideline: PART_II,
        class: Class::Summary,
        rule: |_| None,
    },
    StatementDef {
        code: "borderline_ecg",
        snomed: None,
        text: "Borderline ECG",
        criterion: "a borderline statement and no abnormal one",
        reads: &[],
        guideline: PART_II,
        class: Class::Summary,
        rule: |_| None,
    },
    StatementDef {
        code: "abnormal_ecg",
        snomed: None,
        text: "Abnormal ECG",
        criterion: "at least one abnormal statement",
        reads: &[],
        guideline: PART_II,
        class: Class::Summary,
        rule: |_| None,
    },
];

/// The table entry of a code.
pub fn def(code: &str) -> Option<&'static StatementDef> {
    STATEMENTS.iter().find(|d| d.code == code)
}

/// Runs every rule of the table, then the overall category (a summary statement naming the
/// statements it rests on). `None` category when nothing could be said (no rate, no QRS).
pub fn interpret(f: &Facts) -> (Vec<Statement>, Option<Category>) {
    let mut out = Vec::new();
    let mut worst: Option<Class> = None;
    let mut borderline = Vec::new();
    let mut abnormal = Vec::new();
    for d in STATEMENTS.iter().filter(|d| d.class != Class::Summary) {
        if let Some(values) = (d.rule)(f) {
            match d.class {
                Class::Abnormal => abnormal.push(d.code),
                Class::Borderline => borderline.push(d.code),
                _ => {}
            }
            worst = Some(match (worst, d.class) {
                (Some(Class::Abnormal), _) | (_, Class::Abnormal) => Class::Abnormal,
                (Some(Class::Borderline), _) | (_, Class::Borderline) => Class::Borderline,
                _ => Class::Normal,
            });
            out.push(statement(d, values));
        }
    }
    if f.m.heart_rate_bpm.is_none() || f.m.qrs_ms.is_none() {
        return (out, None);
    }
    let (code, category, values) = if !abnormal.is_empty() {
        ("abnormal_ecg", Category::Abnormal, abnormal.join(", "))
    } else if !borderline.is_empty() {
        (
            "borderline_ecg",
            Category::Borderline,
            borderline.join(", "),
        )
    } else if worst == Some(Class::Normal) {
        (
            "normal_ecg",
            Category::Normal,
            "no borderline or abnormal statement".to_string(),
        )
    } else {
        // No rhythm statement fired at all: not a normal ECG.
        (
            "borderline_ecg",
            Category::Borderline,
            "rhythm not classified".to_string(),
        )
    };
    if let Some(d) = def(code) {
        out.push(statement(d, values));
    }
    (out, Some(category))
}

fn statement(d: &'static StatementDef, values: String) -> Statement {
    Statement {
        code: d.code,
        text: d.text,
        criterion: d.criterion,
        values,
    }
}

/// The measurements and rhythm of a normal adult ECG (sinus at 70 bpm, PR 160 ms, QRS 90 ms, QTc
/// 410 ms, QRS axis 60°, upright T in every lead): no abnormal statement fires on them, and the
/// statements' tests (here and in `tests/`) alter one value to fire one rule.
pub fn example_normal() -> (Measurements, Rhythm) {
    let amplitudes = Lead::ALL
        .into_iter()
        .map(|l| LeadAmplitudes {
            lead: l.name(),
            p_mv: Some(0.1),
            q_mv: -0.05,
            r_mv: 1.2,
            s_mv: -0.3,
            t_mv: Some(0.3),
            terminal_mv: -0.1,
            ..LeadAmplitudes::default()
        })
        .collect();
    let m = Measurements {
        heart_rate_bpm: Some(70.0),
        rr_ms: Some(857.0),
        p_ms: Some(100.0),
        pr_ms: Some(160.0),
        qrs_ms: Some(90.0),
        qt_ms: Some(380.0),
        qtc_bazett_ms: Some(410.0),
        qrs_axis_deg: Some(60.0),
        sokolow_lyon_mv: Some(2.0),
        cornell_mv: Some(1.0),
        amplitudes,
        ..Measurements::default()
    };
    let r = Rhythm {
        beats: 12,
        rr_irregularity: Some(0.01),
        rr_range_ms: Some(40.0),
        p_fraction: 1.0,
        p_delineated: 1.0,
        p_matched: 1.0,
        pr_sd_ms: Some(4.0),
        ..Rhythm::default()
    };
    (m, r)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn normal() -> (Measurements, Rhythm) {
        example_normal()
    }

    fn run(m: &Measurements, r: &Rhythm, sex: Option<Sex>) -> (Vec<Statement>, Option<Category>) {
        interpret(&Facts { m, rhythm: r, sex })
    }

    fn fired<'a>(s: &'a [Statement], code: &str) -> Option<&'a Statement> {
        s.iter().find(|s| s.code == code)
    }

    fn set(m: &mut Measurements, lead: Lead, f: impl Fn(&mut LeadAmplitudes)) {
        if let Some(a) = m.amplitudes.iter_mut().find(|a| a.lead == lead.name()) {
            f(a);
        }
    }

    #[test]
    fn a_normal_beat_is_a_normal_ecg_in_sinus_rhythm() {
        let (m, r) = normal();
        let (s, category) = run(&m, &r, None);
        let codes: Vec<&str> = s.iter().map(|s| s.code).collect();
        assert_eq!(codes, ["sinus_rhythm", "normal_ecg"]);
        assert_eq!(category, Some(Category::Normal));
    }

    #[test]
    fn a_pr_of_330_ms_fires_first_degree_av_block_with_its_values() {
        let (mut m, r) = normal();
        m.pr_ms = Some(330.0);
        let (s, category) = run(&m, &r, None);
        let st = fired(&s, "first_degree_av_block").unwrap();
        assert_eq!(st.values, "PR 330 ms > 200 ms");
        assert_eq!(st.text, "1st-degree AV block");
        assert_eq!(category, Some(Category::Abnormal));
        assert!(fired(&s, "abnormal_ecg")
            .unwrap()
            .values
            .contains("first_degree_av_block"));
    }

    #[test]
    fn a_qrs_of_140_ms_with_the_rbbb_morphology_fires_rbbb() {
        let (mut m, r) = normal();
        m.qrs_ms = Some(140.0);
        set(&mut m, Lead::V1, |a| {
            a.r_prime_mv = 0.8;
            a.terminal_mv = 0.4;
        });
        let (s, _) = run(&m, &r, None);
        let st = fired(&s, "rbbb").unwrap();
        assert!(
            st.values.starts_with("QRS 140 ms >= 120 ms"),
            "{}",
            st.values
        );
        assert!(fired(&s, "lbbb").is_none());
        assert!(fired(&s, "ivcd").is_none());
    }

    #[test]
    fn a_qrs_of_150_ms_with_the_lbbb_morphology_fires_lbbb() {
        let (mut m, r) = normal();
        m.qrs_ms = Some(150.0);
        for l in [Lead::I, Lead::V6] {
            set(&mut m, l, |a| {
                a.q_mv = 0.0;
                a.s_mv = -0.1;
            });
        }
        set(&mut m, Lead::V1, |a| {
            a.r_mv = 0.1;
            a.s_mv = -0.9;
        });
        let (s, _) = run(&m, &r, None);
        let st = fired(&s, "lbbb").unwrap();
        assert!(fired(&s, "rbbb").is_none());
        // A q of 0 prints as 0.00, never -0.00.
        assert!(st.values.ends_with("q 0.00 mV"), "{}", st.values);
        assert!(!st.values.contains("-0.00"), "{}", st.values);
        // A small terminal r' in V1 with terminal S in I and V6 is the right morphology: one of
        // the two blocks, never both.
        set(&mut m, Lead::V1, |a| a.terminal_mv = 0.05);
        for l in [Lead::I, Lead::V6] {
            set(&mut m, l, |a| a.terminal_mv = -0.05);
        }
        let (s, _) = run(&m, &r, None);
        assert!(fired(&s, "rbbb").is_some());
        assert!(fired(&s, "lbbb").is_none());
    }

    #[test]
    fn incomplete_rbbb_and_ivcd_split_at_the_morphology() {
        let (mut m, r) = normal();
        m.qrs_ms = Some(114.0);
        let (s, _) = run(&m, &r, None);
        assert!(fired(&s, "ivcd").is_some());
        set(&mut m, Lead::V1, |a| a.terminal_mv = 0.3);
        let (s, _) = run(&m, &r, None);
        assert!(fired(&s, "incomplete_rbbb").is_some());
        assert!(fired(&s, "ivcd").is_none());
    }

    #[test]
    fn an_axis_of_minus_60_with_qr_in_avl_fires_lafb_and_left_axis_deviation() {
        let (mut m, r) = normal();
        m.qrs_axis_deg = Some(-60.0);
        set(&mut m, Lead::AVL, |a| {
            a.q_mv = -0.1;
            a.r_mv = 0.9;
        });
        let (s, _) = run(&m, &r, None);
        assert!(fired(&s, "lafb").unwrap().values.contains("axis -60°"));
        assert!(fired(&s, "left_axis_deviation").is_some());
        // Without the q in aVL, only the axis.
        set(&mut m, Lead::AVL, |a| a.q_mv = 0.0);
        let (s, _) = run(&m, &r, None);
        assert!(fired(&s, "lafb").is_none());
        assert!(fired(&s, "left_axis_deviation").is_some());
    }

    #[test]
    fn an_axis_of_120_with_rs_in_i_and_qr_in_iii_fires_lpfb() {
        let (mut m, r) = normal();
        m.qrs_axis_deg = Some(120.0);
        set(&mut m, Lead::I, |a| {
            a.r_mv = 0.2;
            a.s_mv = -0.6;
        });
        set(&mut m, Lead::III, |a| {
            a.q_mv = -0.1;
            a.r_mv = 1.0;
        });
        let (s, _) = run(&m, &r, None);
        assert!(fired(&s, "lpfb").is_some());
        assert!(fired(&s, "right_axis_deviation").is_some());
    }

    #[test]
    fn the_rate_sets_sinus_bradycardia_and_tachycardia() {
        let (mut m, r) = normal();
        m.heart_rate_bpm = Some(52.0);
        let (s, _) = run(&m, &r, None);
        assert_eq!(
            fired(&s, "sinus_bradycardia").unwrap().values,
            "sinus rhythm, rate 52 bpm < 60 bpm"
        );
        assert!(fired(&s, "sinus_rhythm").is_none());
        m.heart_rate_bpm = Some(115.0);
        let (s, _) = run(&m, &r, None);
        assert!(fired(&s, "sinus_tachycardia").is_some());
    }

    #[test]
    fn absent_p_waves_and_an_irregular_rr_fire_atrial_fibrillation() {
        let (m, mut r) = normal();
        r.p_fraction = 0.1;
        r.rr_irregularity = Some(0.2);
        let (s, _) = run(&m, &r, None);
        assert!(fired(&s, "atrial_fibrillation").is_some());
        assert!(fired(&s, "sinus_rhythm").is_none());
        assert!(fired(&s, "first_degree_av_block").is_none());
        // Absent P waves with a regular RR is not atrial fibrillation.
        r.rr_irregularity = Some(0.01);
        let (s, _) = run(&m, &r, None);
        assert!(fired(&s, "atrial_fibrillation").is_none());
    }

    #[test]
    fn pacing_spikes_fire_a_paced_rhythm_and_silence_the_qrs_statements() {
        let (mut m, mut r) = normal();
        r.paced_fraction = 0.9;
        m.qrs_ms = Some(160.0);
        let (s, _) = run(&m, &r, None);
        assert!(fired(&s, "paced_rhythm").is_some());
        assert!(fired(&s, "ivcd").is_none());
        assert!(fired(&s, "sinus_rhythm").is_none());
    }

    #[test]
    fn dissociated_p_waves_fire_third_degree_av_block() {
        let (m, mut r) = normal();
        r.pr_sd_ms = Some(90.0);
        let (s, _) = run(&m, &r, None);
        assert!(fired(&s, "third_degree_av_block").is_some());
        assert!(fired(&s, "first_degree_av_block").is_none());
    }

    #[test]
    fn a_pause_fires_possible_second_degree_av_block() {
        let (m, mut r) = normal();
        r.pauses = 1;
        let (s, _) = run(&m, &r, None);
        assert!(fired(&s, "second_degree_av_block").is_some());
    }

    #[test]
    fn organised_atrial_activity_without_p_waves_is_flutter_not_fibrillation() {
        let (m, mut r) = normal();
        r.p_fraction = 0.2;
        r.rr_irregularity = Some(0.15);
        r.atrial_rate_per_min = Some(290.0);
        r.atrial_organisation = Some(0.4);
        let (s, _) = run(&m, &r, None);
        assert!(fired(&s, "atrial_fibrillation").is_some());
        assert!(fired(&s, "atrial_flutter").is_none());
        r.atrial_organisation = Some(0.7);
        let (s, _) = run(&m, &r, None);
        assert!(fired(&s, "atrial_fibrillation").is_none());
        assert_eq!(
            fired(&s, "atrial_flutter").unwrap().values,
            "P waves in 20 % of beats < 80 %; atrial rate 290/min, organisation 0.70 >= 0.5"
        );
        // Outside 240-340/min, or with P waves: no flutter.
        r.atrial_rate_per_min = Some(350.0);
        assert!(fired(&run(&m, &r, None).0, "atrial_flutter").is_none());
        r.atrial_rate_per_min = Some(290.0);
        r.p_fraction = 0.9;
        assert!(fired(&run(&m, &r, None).0, "atrial_flutter").is_none());
    }

    #[test]
    fn premature_beats_fire_pac_or_pvc_by_morphology() {
        let (m, mut r) = normal();
        r.premature_supraventricular = 1;
        let (s, _) = run(&m, &r, None);
        assert!(fired(&s, "pac").is_some());
        r.premature_supraventricular = 0;
        // Beats of another morphology that come on time (aberrant, noisy) are no PVC.
        r.other_morphology = 2;
        let (s, _) = run(&m, &r, None);
        assert!(fired(&s, "pvc").is_none());
        r.premature_other_morphology = 2;
        let (s, _) = run(&m, &r, None);
        assert_eq!(
            fired(&s, "pvc").unwrap().values,
            "2 premature beat(s) of another QRS morphology (correlation < 0.9)"
        );
    }

    #[test]
    fn short_pr_sinus_arrhythmia_and_atrial_abnormalities_fire_on_their_limits() {
        let (mut m, mut r) = normal();
        m.pr_ms = Some(100.0);
        m.p_ms = Some(130.0);
        r.rr_range_ms = Some(200.0);
        set(&mut m, Lead::II, |a| a.p_mv = Some(0.3));
        let (s, _) = run(&m, &r, None);
        for code in [
            "short_pr",
            "sinus_arrhythmia",
            "left_atrial_abnormality",
            "right_atrial_abnormality",
        ] {
            assert!(fired(&s, code).is_some(), "{code}");
        }
    }

    #[test]
    fn lvh_uses_the_cornell_limit_of_the_given_sex() {
        let (mut m, r) = normal();
        m.cornell_mv = Some(2.4);
        assert!(fired(&run(&m, &r, Some(Sex::Male)).0, "lvh").is_none());
        assert!(fired(&run(&m, &r, None).0, "lvh").is_none());
        assert!(fired(&run(&m, &r, None).0, "lvh_voltage").is_none());
        let (s, category) = run(&m, &r, Some(Sex::Female));
        // Voltage alone: the borderline statement, as the carts print it.
        assert_eq!(
            fired(&s, "lvh_voltage").unwrap().values,
            "Cornell 2.40 mV > 2.0 mV"
        );
        assert!(fired(&s, "lvh").is_none());
        assert_eq!(category, Some(Category::Borderline));
        m.sokolow_lyon_mv = Some(3.8);
        assert!(fired(&run(&m, &r, Some(Sex::Male)).0, "lvh_voltage").is_some());
        // With T inversion in V5 and V6: LVH with repolarisation abnormality, abnormal.
        for l in [Lead::V5, Lead::V6] {
            set(&mut m, l, |a| a.t_mv = Some(-0.3));
        }
        let (s, category) = run(&m, &r, Some(Sex::Male));
        assert_eq!(
            fired(&s, "lvh").unwrap().values,
            "Sokolow-Lyon 3.80 mV > 3.5 mV"
        );
        assert!(fired(&s, "lvh_voltage").is_none());
        assert_eq!(category, Some(Category::Abnormal));
    }

    #[test]
    fn rvh_needs_right_precordial_voltage_and_right_axis() {
        let (mut m, r) = normal();
        m.qrs_axis_deg = Some(110.0);
        set(&mut m, Lead::V1, |a| a.r_mv = 0.9);
        let (s, _) = run(&m, &r, None);
        assert!(fired(&s, "rvh").is_some());
    }

    #[test]
    fn st_elevation_needs_two_contiguous_leads_and_uses_the_v2_v3_limits_by_sex() {
        let (mut m, r) = normal();
        set(&mut m, Lead::II, |a| a.st_j_mv = 0.15);
        assert!(fired(&run(&m, &r, None).0, "st_elevation").is_none());
        set(&mut m, Lead::AVF, |a| a.st_j_mv = 0.12);
        let (s, _) = run(&m, &r, None);
        assert_eq!(
            fired(&s, "st_elevation").unwrap().values,
            "II +0.15 mV at J, aVF +0.12 mV at J"
        );
        let (mut m, r) = normal();
        set(&mut m, Lead::V2, |a| a.st_j_mv = 0.17);
        set(&mut m, Lead::V3, |a| a.st_j_mv = 0.17);
        assert!(fired(&run(&m, &r, Some(Sex::Male)).0, "st_elevation").is_none());
        assert!(fired(&run(&m, &r, Some(Sex::Female)).0, "st_elevation").is_some());
    }

    #[test]
    fn st_depression_and_t_inversion_fire_in_contiguous_leads() {
        let (mut m, r) = normal();
        for l in [Lead::V5, Lead::V6] {
            set(&mut m, l, |a| {
                a.st_j_mv = -0.1;
                a.st_j60_mv = Some(0.0);
                a.t_mv = Some(-0.2);
            });
        }
        // Up-sloping: back to the baseline 60 ms after J.
        let (s, _) = run(&m, &r, None);
        assert!(fired(&s, "st_depression").is_none());
        assert!(fired(&s, "t_inversion").is_some());
        for l in [Lead::V5, Lead::V6] {
            set(&mut m, l, |a| a.st_j60_mv = Some(-0.12));
        }
        let (s, _) = run(&m, &r, None);
        assert_eq!(
            fired(&s, "st_depression").unwrap().values,
            "V5 -0.10 mV at J, V6 -0.10 mV at J"
        );
    }

    #[test]
    fn qtc_limits_depend_on_the_sex() {
        let (mut m, r) = normal();
        m.qtc_bazett_ms = Some(455.0);
        assert!(fired(&run(&m, &r, Some(Sex::Male)).0, "long_qtc").is_some());
        assert!(fired(&run(&m, &r, Some(Sex::Female)).0, "long_qtc").is_none());
        m.qtc_bazett_ms = Some(380.0);
        assert_eq!(
            fired(&run(&m, &r, None).0, "short_qtc").unwrap().values,
            "QTc 380 ms <= 390 ms"
        );
    }

    #[test]
    fn small_complexes_fire_low_voltage() {
        let (mut m, r) = normal();
        for a in &mut m.amplitudes {
            a.r_mv = 0.3;
            a.s_mv = -0.1;
            a.q_mv = 0.0;
        }
        let (s, category) = run(&m, &r, None);
        assert!(fired(&s, "low_voltage").is_some());
        assert_eq!(category, Some(Category::Borderline));
    }

    #[test]
    fn every_code_is_unique_and_the_required_codes_are_in_the_table() {
        let required = [
            "sinus_rhythm",
            "sinus_bradycardia",
            "sinus_tachycardia",
            "sinus_arrhythmia",
            "atrial_fibrillation",
            "atrial_flutter",
            "paced_rhythm",
            "pac",
            "pvc",
            "first_degree_av_block",
            "short_pr",
            "second_degree_av_block",
            "third_degree_av_block",
            "rbbb",
            "incomplete_rbbb",
            "lbbb",
            "incomplete_lbbb",
            "lafb",
            "lpfb",
            "ivcd",
            "left_axis_deviation",
            "right_axis_deviation",
            "lvh",
            "rvh",
            "left_atrial_abnormality",
            "right_atrial_abnormality",
            "st_elevation",
            "st_depression",
            "t_inversion",
            "long_qtc",
            "short_qtc",
            "low_voltage",
            "normal_ecg",
            "borderline_ecg",
            "abnormal_ecg",
        ];
        for code in required {
            assert!(def(code).is_some(), "{code}");
        }
        let mut codes: Vec<&str> = STATEMENTS.iter().map(|d| d.code).collect();
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), STATEMENTS.len());
        assert!(STATEMENTS
            .iter()
            .all(|d| d.guideline.contains("Circulation")));
    }

    #[test]
    fn axis_categories_follow_ludbs_ranges() {
        assert_eq!(AxisCategory::of(-45.0), AxisCategory::LeftDeviation);
        assert_eq!(AxisCategory::of(15.0), AxisCategory::Horizontal);
        assert_eq!(AxisCategory::of(50.0), AxisCategory::Normal);
        assert_eq!(AxisCategory::of(80.0), AxisCategory::Vertical);
        assert_eq!(AxisCategory::of(120.0), AxisCategory::RightDeviation);
        assert_eq!(AxisCategory::of(-120.0), AxisCategory::RightDeviation);
    }
}
