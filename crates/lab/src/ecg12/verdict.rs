//! The 12-lead rhythm verdict against LUDB's rhythm: the counts behind the probabilities an ECG
//! result gives when its rhythm is decided by the 12-lead statements
//! (`cardio_models::ecg12::report::VERDICT_COUNTS`), recomputed by `cardio eval ecg12`.

use std::fmt::Write as _;

use cardio_models::ecg12::{Ecg12, Verdict};
use serde::Serialize;

use super::{LudbRow, Proportion};

/// LUDB's rhythm in the rhythm model's classes: AF or flutter; a sinus rhythm with
/// extrasystoles, pacing or a 2nd/3rd-degree AV block; otherwise a sinus rhythm.
pub fn truth(row: &LudbRow) -> Verdict {
    let rhythm = &row.rhythm;
    if rhythm.contains("atrial fibrillation") || rhythm.contains("atrial flutter") {
        Verdict::Af
    } else if !row.extrasystoles.trim().is_empty()
        || !row.pacing.trim().is_empty()
        || row.conduction.contains("iii degree")
        || row.conduction.contains("ii degree av")
    {
        Verdict::Other
    } else {
        Verdict::Normal
    }
}

/// The verdicts against LUDB's rhythm.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct VerdictTable {
    /// Rows: our verdict (normal, af, other); columns: LUDB's rhythm, same order. Records the
    /// reading failed on are left out.
    pub counts: [[usize; 3]; 3],
    /// Share of records whose verdict is LUDB's class.
    pub agreement: Proportion,
}

/// Counts the verdicts of the records read.
pub fn table(results: &[(LudbRow, Result<Ecg12, String>)]) -> VerdictTable {
    let mut counts = [[0usize; 3]; 3];
    for (row, res) in results {
        if let Ok(e) = res {
            counts[Verdict::of(e) as usize][truth(row) as usize] += 1;
        }
    }
    let hits: usize = (0..3).map(|i| counts[i][i]).sum();
    let n: usize = counts.iter().flatten().sum();
    VerdictTable {
        counts,
        agreement: Proportion::wilson(hits, n),
    }
}

/// The table as `cardio eval ecg12` prints it.
pub fn show(t: &VerdictTable) -> String {
    let mut s = format!(
        "\nrhythm verdict (12-lead statements) against LUDB's rhythm: agreement {}\n{:<12}{:>10}{:>10}{:>10}\n",
        t.agreement.show(),
        "ours \\ LUDB",
        "normal",
        "af",
        "other"
    );
    for v in Verdict::ALL {
        let c = t.counts[v as usize];
        let _ = writeln!(s, "{:<12}{:>10}{:>10}{:>10}", v.code(), c[0], c[1], c[2]);
    }
    s
}
