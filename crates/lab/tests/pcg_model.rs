//! The CinC 2016 loader and the committed heart-sound model on real recordings (when
//! `CARDIO_DATASETS` holds `cinc2016` and `cinc2016_site_e_rest`, the reference lists load with
//! their counts and a few recordings of two sites are classified), and the validation's blend and
//! headline keys on made-up data.

use cardio_lab::pcg_model;
use cardio_lab::pcg_model::data::{NetworkScores, Record};
use cardio_lab::pcg_model::validation::{validate, Dataset};
use cardio_models::gate::Verdict;
use cardio_models::pcg_model::features::Measured;
use cardio_models::pcg_model::model;

#[test]
fn real_recordings_of_two_sites_are_classified() {
    let Some(root) = cardio_testkit::datasets(&["cinc2016", "cinc2016_site_e_rest"]) else {
        return;
    };
    let records = pcg_model::data::load(&root).unwrap();
    assert_eq!(records.len(), 3240);
    assert_eq!(records.iter().filter(|r| r.site == "e").count(), 2141);
    assert_eq!(records.iter().filter(|r| r.abnormal).count(), 665);
    for site in ["a", "e"] {
        for r in records.iter().filter(|r| r.site == site).take(2) {
            let rec = cardio_formats::read_path(&r.path).unwrap();
            let p = model().unwrap().predict(&rec).unwrap();
            assert!(["normal", "abnormal", "unsure"].contains(&p.label.as_str()));
            assert!((0.0..=1.0).contains(&p.risk_score));
        }
    }
}

/// A recording's measurements that pass every quality check.
fn clean_measurements() -> Measured {
    Measured {
        duration_s: 20.0,
        analysed_s: 20.0,
        sampling_rate_hz: 1000.0,
        channel_index: 0,
        channel_name: "pcg".into(),
        heart_rate_bpm: Some(70.0),
        systole_s: Some(0.3),
        median_cycle_s: Some(0.85),
        median_systole_s: Some(0.3),
        median_diastole_s: Some(0.55),
        cycle_sd_s: Some(0.02),
        cycles: 20,
        quality_score: 0.9,
        quality_usable: true,
        quality_reason: "usable".into(),
        basic_problem: None,
        gate: Verdict {
            plausible: true,
            reason: "usable".into(),
            p_real: 0.99,
        },
    }
}

/// 6 sites x 20 recordings, 7 of each 20 abnormal; the trees' one feature is noise; every network
/// (fold, site, deployed, inner) gives `p_net(abnormal)`. One recording cannot be analysed: it is
/// unsure (a referral for Se, an error for Sp).
fn made_up(p_net: impl Fn(bool) -> f64) -> Dataset {
    let mut records = Vec::new();
    let mut extracted = Vec::new();
    let mut network = Vec::new();
    let mut s: u64 = 11;
    for (k, site) in pcg_model::data::SITES.iter().enumerate() {
        for j in 0..20 {
            let abnormal = j % 3 == 0;
            records.push(Record {
                site: (*site).into(),
                name: format!("{site}{j:04}"),
                abnormal,
                path: std::path::PathBuf::new(),
            });
            s = s.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            let noise = (s >> 40) as f64 / f64::from(1u32 << 24);
            extracted.push(if k == 2 && j == 1 {
                Err("too short".to_string())
            } else {
                Ok((vec![noise], clean_measurements()))
            });
            let p = p_net(abnormal);
            network.push(NetworkScores {
                cv: p,
                without_site: p,
                deployed: p,
                inner: [p; 5],
            });
        }
    }
    Dataset {
        records,
        extracted,
        network,
    }
}

#[test]
fn the_validation_blends_the_network_and_reports_the_headline_keys() {
    // The network's probabilities separate the labels around 0.5, so the blend calls every
    // analysable recording right.
    let data = made_up(|abnormal| if abnormal { 0.9 } else { 0.1 });
    let (report, _, _) = validate(&data, &["noise".to_string()]);

    assert_eq!(report.n_recordings, 120);
    assert_eq!(report.cv_macc, 0.5 * (1.0 + 77.0 / 78.0));
    assert!(report.cv_macc_ci[0] <= report.cv_macc && report.cv_macc <= report.cv_macc_ci[1]);
    assert_eq!(report.unsure_rate, 1.0 / 120.0);
    assert_eq!(
        report.loso_macc_by_site.keys().collect::<Vec<_>>(),
        ["a", "b", "c", "d", "e", "f"]
    );
    assert_eq!(report.loso_macc_by_site["a"], 1.0);
    assert_eq!(report.loso_macc_by_site["c"], 0.5 * (1.0 + 12.0 / 13.0));
    assert_eq!(report.cv_alone[1].macc.value, report.cv_macc);
    assert!(
        report.cv_alone[0].macc.value < 0.8,
        "{:?}",
        report.cv_alone[0]
    );
    let json = serde_json::to_value(&report).unwrap();
    for key in ["n_recordings", "cv_macc", "loso_macc_mean", "unsure_rate"] {
        assert!(json[key].is_number(), "{key}");
    }
    assert!(json["cv_macc_ci"][1].is_number());
    assert!(json["loso_macc_by_site"]["f"].is_number());
    let text = report.to_string();
    assert!(
        text.contains("| 5-fold CV, network alone | 120 (42) | "),
        "{text}"
    );
}

#[test]
fn the_blend_weight_and_threshold_come_from_the_inner_probabilities() {
    // The network separates the labels but below 0.5 (abnormal 0.4, normal 0.2): at a fixed 0.5 it
    // calls everything normal; the inner networks show the same, so each outer fold's inner CV
    // picks a threshold between 0.2 and 0.4 and the blend calls every analysable recording right.
    let data = made_up(|abnormal| if abnormal { 0.4 } else { 0.2 });

    let (report, _, _) = validate(&data, &["noise".to_string()]);

    assert_eq!(report.cv_macc, 0.5 * (1.0 + 77.0 / 78.0));
    assert_eq!(report.cv_alone[1].macc.value, 0.5 * (77.0 / 78.0));
    assert_eq!(report.cv_blends.len(), 5);
    for b in report.cv_blends.iter().chain([&report.final_blend]) {
        assert!(b.threshold > 0.2 && b.threshold <= 0.4, "{b:?}");
        assert!(b.weight > 0.0, "{b:?}");
    }
    assert_eq!(report.leave_one_site_out_blends.len(), 6);
    assert!(report.to_string().contains(&format!(
        "- deployed: network weight {:.2}, threshold {:.2}",
        report.final_blend.weight, report.final_blend.threshold
    )));
}
