//! Numbers as the report prints them, shared by the result sections and the Holter summary.

/// A probability or a share as the screen shows it: times 100 with one decimal (spec §9), so 0.998
/// is 99.8%, never a rounded 100%.
pub fn percent(value: f64) -> String {
    format!("{:.1}%", value * 100.0)
}
