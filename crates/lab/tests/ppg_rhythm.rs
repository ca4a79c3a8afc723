//! The PPG rhythm model's data and validation: (when `CARDIO_DATASETS` holds them) the MIT-BIH
//! windows of record 201 are labelled AF and mostly called AF by the committed model, and the
//! grouped CV separates random from regular synthetic intervals and prints its table.

use cardio_lab::ppg_rhythm::{self, data};
use cardio_models::ppg_rhythm::model;

#[test]
fn mitdb_af_windows_of_record_201_are_labelled_and_mostly_called_af() {
    let Some(root) = cardio_testkit::datasets(&["mitdb/201.atr"]) else {
        return;
    };
    let records = data::load_mitdb(&root, Some(&["201"])).unwrap();
    assert_eq!(records.len(), 1);
    assert_eq!(records[0].group, "mitdb/201+202");
    let windows = data::windows_of(&records[0], 0, 30.0);
    let af: Vec<&data::Window> = windows
        .iter()
        .filter(|w| w.label == data::WindowLabel::Af)
        .collect();
    assert!(af.len() >= 10, "{}", af.len());
    let m = model().unwrap();
    let called = af
        .iter()
        .filter(|w| m.params.classifier.predict(&w.features).af >= m.params.af_threshold)
        .count();
    assert!(called * 10 >= af.len() * 8, "{called} of {}", af.len());
}

/// A CinC-like record of 30 s: regular (normal) or random (AF) intervals.
fn synthetic_record(i: usize, af: bool) -> data::BeatRecord {
    let mut s: u64 = 1000 + i as u64;
    let mut t = 0.3;
    let mut beats_s = Vec::new();
    while t < 30.0 {
        beats_s.push(t);
        s = s.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        let u = ((s >> 33) % 1000) as f64 / 1000.0;
        t += if af { 0.45 + 0.6 * u } else { 0.8 + 0.02 * u };
    }
    data::BeatRecord {
        source: data::Source::Cinc2017,
        record: format!("S{i}"),
        group: format!("cinc2017/S{i}"),
        duration_s: 30.0,
        beats_s,
        record_label: Some(if af {
            data::WindowLabel::Af
        } else {
            data::WindowLabel::Normal
        }),
        beat_codes: Vec::new(),
        beat_rhythms: Vec::new(),
        beat_in_vf: Vec::new(),
    }
}

#[test]
fn the_grouped_cv_separates_random_from_regular_intervals_and_prints_its_table() {
    let records: Vec<data::BeatRecord> = (0..20).map(|i| synthetic_record(i, i % 4 == 0)).collect();
    let windows = ppg_rhythm::windows_of_records(&records);
    // Three 10-s windows and one 30-s window per record.
    assert_eq!(windows.len(), 80);

    let report = ppg_rhythm::validation::validate(&windows).unwrap();

    let ten = report.cv_cell("cinc2017", 10.0).unwrap();
    assert_eq!(
        (ten.windows, ten.af_windows, ten.persons, ten.af_persons),
        (60, 15, 20, 5)
    );
    assert_eq!((ten.se, ten.sp), (1.0, 1.0));
    let text = report.to_string();
    assert!(text.contains("## Grouped 5-fold CV"), "{text}");
    assert!(
        text.contains("| cinc2017 | 10 s | 60 (15) | 20 (5) | 100.0"),
        "{text}"
    );
}
