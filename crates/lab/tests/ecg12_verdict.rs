//! The probabilities an ECG result gives when its rhythm is decided by the 12-lead statements
//! come from `VERDICT_COUNTS`: the counts `cardio eval ecg12` recomputes on LUDB must be those
//! committed, so a change to the rules or the delineator that moves them fails here.

use cardio_models::ecg12::report::VERDICT_COUNTS;

#[test]
fn the_committed_verdict_counts_are_those_ludb_gives_today() {
    let Some(root) = cardio_testkit::datasets(&["ludb/ludb.csv", "ludb/data/1.hea"]) else {
        return;
    };
    let report = cardio_lab::ecg12::evaluate(&root).unwrap();
    assert_eq!(report.records, 200);
    assert_eq!(
        report.rhythm_verdict.counts, VERDICT_COUNTS,
        "update VERDICT_COUNTS (crates/models/src/ecg12/report.rs) and the 12-lead card from `cardio eval ecg12`"
    );
}
