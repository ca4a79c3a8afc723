//! Every sentence the 12-lead interpretation writes reads in Spanish and French: each statement's
//! text and criterion, the values that fired it (from measurements made to fire every rule, from
//! named LUDB records and from the ECG documents), what could not be measured and the
//! interpretation's status, all read by the models' catalogue
//! (`cardio_models::catalogue::reason`).

use cardio_models::catalogue::{reason, Language};
use cardio_models::ecg12::statements::{interpret, Facts};
use cardio_models::ecg12::{
    analyze, Lead, LeadAmplitudes, Measurements, Rhythm, Sex, STATEMENTS, UNCONFIRMED,
};

/// English words that must not be left in a translated sentence.
const ENGLISH: [&str; 12] = [
    "beat",
    "rate ",
    "waves",
    " with ",
    "axis",
    "largest",
    "range",
    "premature",
    " at J",
    "rhythm",
    "morphology",
    "irregularity",
];

/// The sentences among `texts` that Spanish or French does not read (or reads with English left).
fn untranslated<'a>(texts: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let mut out = Vec::new();
    for english in texts {
        for language in [Language::Es, Language::Fr] {
            let text = reason(language, english);
            // Measurement keys (`qrs_axis_deg`) stay as they are.
            let words: Vec<&str> = text.split(' ').filter(|w| !w.contains('_')).collect();
            let words = words.join(" ");
            let left = ENGLISH.iter().find(|w| words.contains(*w));
            if text == english || left.is_some() {
                out.push(format!("{language:?}: {english:?} -> {text:?}"));
            }
        }
    }
    out
}

#[test]
fn every_statement_text_and_criterion_reads_in_spanish_and_french() {
    let texts = STATEMENTS.iter().flat_map(|d| [d.text, d.criterion]);
    let missing = untranslated(texts.chain([UNCONFIRMED]));
    assert!(missing.is_empty(), "{missing:#?}");
    assert_eq!(
        reason(Language::Es, "1st-degree AV block"),
        "Bloqueo AV de primer grado"
    );
    assert_eq!(
        reason(Language::Fr, UNCONFIRMED),
        "interprétation informatique, non confirmée"
    );
}

/// A normal adult ECG's measurements (the table's own example).
fn normal() -> (Measurements, Rhythm) {
    cardio_models::ecg12::statements::example_normal()
}

fn set(m: &mut Measurements, leads: &[Lead], f: impl Fn(&mut LeadAmplitudes)) {
    for a in &mut m.amplitudes {
        if leads.iter().any(|l| l.name() == a.lead) {
            f(a);
        }
    }
}

fn without(m: &mut Measurements, lead: Lead) {
    m.amplitudes.retain(|a| a.lead != lead.name());
}

/// The left bundle branch block morphology: V1 rS, broad R without q in I and V6.
fn left_morphology(m: &mut Measurements) {
    set(m, &[Lead::I, Lead::V6], |a| {
        a.q_mv = 0.0;
        a.s_mv = -0.1;
    });
    set(m, &[Lead::V1], |a| {
        a.r_mv = 0.1;
        a.s_mv = -0.9;
    });
}

/// Measurements and rhythms made to fire every rule of the table (and each form of its values).
fn cases() -> Vec<(Measurements, Rhythm, Option<Sex>)> {
    let mut out = Vec::new();
    let mut case = |edit: &dyn Fn(&mut Measurements, &mut Rhythm), sex: Option<Sex>| {
        let (mut m, mut r) = normal();
        edit(&mut m, &mut r);
        out.push((m, r, sex));
    };
    case(&|_, _| {}, None);
    case(&|m, _| m.pr_ms = Some(330.0), None);
    case(&|m, _| m.heart_rate_bpm = Some(52.0), None);
    case(&|m, _| m.heart_rate_bpm = Some(115.0), None);
    case(
        &|_, r| {
            r.p_fraction = 0.1;
            r.rr_irregularity = Some(0.2);
        },
        None,
    );
    case(
        &|_, r| {
            r.p_fraction = 0.1;
            r.atrial_rate_per_min = Some(290.0);
            r.atrial_organisation = Some(0.7);
        },
        None,
    );
    // Neither sinus nor AF nor paced: no rhythm statement.
    case(&|_, r| r.p_fraction = 0.5, None);
    case(
        &|m, r| {
            r.paced_fraction = 0.9;
            m.qrs_ms = Some(160.0);
        },
        None,
    );
    case(&|_, r| r.pr_sd_ms = Some(90.0), None);
    case(&|_, r| r.pauses = 2, None);
    case(&|_, r| r.premature_supraventricular = 1, None);
    case(
        &|m, r| {
            r.other_morphology = 2;
            r.premature_other_morphology = 2;
            m.pr_ms = Some(260.0);
        },
        None,
    );
    case(
        &|m, r| {
            m.pr_ms = Some(100.0);
            m.p_ms = Some(130.0);
            r.rr_range_ms = Some(200.0);
            set(m, &[Lead::II], |a| a.p_mv = Some(0.3));
        },
        None,
    );
    case(&|m, _| set(m, &[Lead::V1], |a| a.p_mv = Some(0.2)), None);
    for qrs in [140.0, 114.0] {
        // Right bundle branch block with both lateral leads, then with I only.
        case(
            &|m, _| {
                m.qrs_ms = Some(qrs);
                set(m, &[Lead::V1], |a| {
                    a.r_prime_mv = 0.8;
                    a.terminal_mv = 0.4;
                });
            },
            None,
        );
        case(
            &|m, _| {
                m.qrs_ms = Some(qrs);
                set(m, &[Lead::V1], |a| a.terminal_mv = 0.4);
                without(m, Lead::V6);
            },
            None,
        );
        // Left bundle branch block with both lateral leads, then with V6 only.
        case(
            &|m, _| {
                m.qrs_ms = Some(qrs);
                left_morphology(m);
            },
            None,
        );
        case(
            &|m, _| {
                m.qrs_ms = Some(qrs);
                left_morphology(m);
                without(m, Lead::I);
            },
            None,
        );
    }
    case(&|m, _| m.qrs_ms = Some(114.0), None);
    case(
        &|m, _| {
            m.qrs_axis_deg = Some(-60.0);
            set(m, &[Lead::AVL], |a| {
                a.q_mv = -0.1;
                a.r_mv = 0.9;
            });
        },
        None,
    );
    case(
        &|m, _| {
            m.qrs_axis_deg = Some(120.0);
            set(m, &[Lead::I], |a| {
                a.r_mv = 0.2;
                a.s_mv = -0.6;
            });
            set(m, &[Lead::III], |a| {
                a.q_mv = -0.1;
                a.r_mv = 1.0;
            });
        },
        None,
    );
    case(
        &|m, _| {
            m.qrs_axis_deg = Some(110.0);
            set(m, &[Lead::V1], |a| a.r_mv = 0.9);
        },
        None,
    );
    case(&|m, _| m.cornell_mv = Some(2.4), Some(Sex::Female));
    case(&|m, _| m.sokolow_lyon_mv = Some(3.8), Some(Sex::Male));
    case(
        &|m, _| {
            m.sokolow_lyon_mv = Some(3.8);
            m.cornell_mv = Some(3.1);
        },
        None,
    );
    // The same voltages with T inversion in V5 and V6: LVH with repolarisation abnormality.
    case(
        &|m, _| {
            m.sokolow_lyon_mv = Some(3.8);
            set(m, &[Lead::V5, Lead::V6], |a| a.t_mv = Some(-0.3));
        },
        Some(Sex::Male),
    );
    // ST elevation in two and in three contiguous leads, ST depression and T inversion.
    case(
        &|m, _| set(m, &[Lead::II, Lead::AVF], |a| a.st_j_mv = 0.15),
        None,
    );
    case(
        &|m, _| {
            set(m, &[Lead::II, Lead::AVF, Lead::III], |a| a.st_j_mv = 0.15);
            set(m, &[Lead::V2, Lead::V3], |a| a.st_j_mv = 0.17);
        },
        Some(Sex::Female),
    );
    case(
        &|m, _| {
            set(m, &[Lead::V5, Lead::V6], |a| {
                a.st_j_mv = -0.1;
                a.st_j60_mv = Some(-0.12);
                a.t_mv = Some(-0.2);
            });
        },
        None,
    );
    case(
        &|m, _| {
            set(m, &[Lead::V3, Lead::V4, Lead::V5, Lead::V6], |a| {
                a.st_j_mv = -0.1;
                a.st_j60_mv = Some(-0.12);
                a.t_mv = Some(-0.2);
            });
        },
        None,
    );
    case(&|m, _| m.qtc_bazett_ms = Some(470.0), None);
    case(&|m, _| m.qtc_bazett_ms = Some(455.0), Some(Sex::Male));
    case(&|m, _| m.qtc_bazett_ms = Some(380.0), None);
    case(
        &|m, _| {
            for a in &mut m.amplitudes {
                a.r_mv = 0.3;
                a.s_mv = -0.1;
                a.q_mv = 0.0;
            }
        },
        None,
    );
    case(
        &|m, _| {
            let chest = [Lead::V1, Lead::V2, Lead::V3, Lead::V4, Lead::V5, Lead::V6];
            set(m, &chest, |a| {
                a.r_mv = 0.6;
                a.s_mv = -0.2;
                a.q_mv = 0.0;
            });
        },
        None,
    );
    out
}

#[test]
fn the_values_of_every_rule_read_in_spanish_and_french() {
    let mut values = Vec::new();
    for (m, r, sex) in cases() {
        let (statements, _) = interpret(&Facts {
            m: &m,
            rhythm: &r,
            sex,
        });
        values.extend(statements.into_iter().map(|s| (s.code, s.values)));
    }
    // Every rule of the table fired.
    let fired: Vec<&str> = values.iter().map(|(code, _)| *code).collect();
    for d in STATEMENTS {
        assert!(fired.contains(&d.code), "{} never fired", d.code);
    }
    let missing = untranslated(values.iter().map(|(_, v)| v.as_str()));
    assert!(missing.is_empty(), "{missing:#?}");
    assert_eq!(
        reason(
            Language::Fr,
            "II +0.15 mV at J, III +0.15 mV at J, aVF +0.15 mV at J"
        ),
        "II +0.15 mV au point J, III +0.15 mV au point J, aVF +0.15 mV au point J"
    );
    assert_eq!(
        reason(Language::Es, "pvc, first_degree_av_block"),
        "complejos ventriculares prematuros, bloqueo AV de primer grado"
    );
}

#[test]
fn real_records_and_ecg_documents_write_sentences_that_read_in_spanish_and_french() {
    let files = [
        "ludb/data/1.hea",
        "ludb/data/8.hea",
        "ludb/data/13.hea",
        "ludb/data/23.hea",
        "ludb/data/44.hea",
        "ecg_documents/ge-muse-example.xml",
        "ecg_documents/ge-muse-fictitious.pdf",
        "ecg_documents/cardiosoft-testmann.pdf",
    ];
    let Some(root) = cardio_testkit::datasets(&files) else {
        return;
    };
    let mut texts = vec![UNCONFIRMED.to_owned()];
    for file in files {
        let rec = cardio_formats::read_path(&root.join(file)).unwrap();
        let e = analyze(&rec, None).unwrap();
        assert_eq!(e.status, UNCONFIRMED);
        texts.extend(e.statements.iter().map(|s| s.values.clone()));
        texts.extend(e.not_measured.iter().cloned());
    }
    let missing = untranslated(texts.iter().map(String::as_str));
    assert!(missing.is_empty(), "{missing:#?}");
}

/// The sentences the measurement code pushes on `not_measured`, read from its source.
fn not_measured_sentences() -> Vec<String> {
    let sources = [
        include_str!("../src/ecg12/measure.rs"),
        include_str!("../src/ecg12/mod.rs"),
    ];
    let mut out = Vec::new();
    for source in sources {
        for (at, _) in source.match_indices("not_measured.push(") {
            let rest = &source[at..];
            let open = rest.find('"').unwrap() + 1;
            let close = open + rest[open..].find('"').unwrap();
            out.push(rest[open..close].to_owned());
        }
    }
    out
}

#[test]
fn every_not_measured_sentence_reads_in_spanish_and_french() {
    let mut sentences = not_measured_sentences();
    assert!(sentences.len() >= 6, "{sentences:?}");
    // A record with one or two leads says why it has no statements.
    sentences.push(cardio_models::ecg12::report::FEW_LEADS.to_owned());
    let missing = untranslated(sentences.iter().map(String::as_str));
    assert!(missing.is_empty(), "{missing:#?}");
    assert_eq!(
        reason(Language::Es, "cornell_mv: needs aVL and V3"),
        "cornell_mv: se necesitan aVL y V3"
    );
}
