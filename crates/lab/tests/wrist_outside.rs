//! The wrist tracker on the SPC 2015 recording it was never tuned on (`Extra_TrainingData`), with
//! the product's settings: every window scored, and the rate within the target (MAE <= 3 bpm).

use cardio_lab::eval::ppg_hr::evaluate_external;
use cardio_signal::motion::TrackerSettings;

#[test]
fn the_extra_recording_is_tracked_within_three_bpm() {
    let Some(root) =
        cardio_testkit::datasets(&["ieee_spc2015/Extra_TrainingData/DATA_S04_T01.mat"])
    else {
        return;
    };
    let rows = evaluate_external(&root, &TrackerSettings::default()).unwrap();
    assert_eq!(rows.len(), 1);
    let (row, _) = &rows[0];
    assert_eq!(row.recording, "DATA_S04_T01");
    assert_eq!(row.windows, 107);
    let mae = row.motion_mae_bpm.unwrap();
    assert!(mae < 3.0, "MAE {mae}");
}
