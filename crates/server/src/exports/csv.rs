//! The cells of every CSV the server writes (the analyses export, and the same file in the ZIP
//! export), made safe to open in a spreadsheet.

use std::borrow::Cow;

/// The characters a spreadsheet reads as the start of a formula (OWASP, "CSV injection").
const FORMULA_STARTS: [char; 6] = ['=', '+', '-', '@', '\t', '\r'];

/// `text` as a CSV cell that a spreadsheet shows as text: one that starts like a formula gets a
/// leading `'` (a file named `=cmd|' -C calc'!A0.csv` is written `'=cmd|' -C calc'!A0.csv`).
pub fn cell(text: &str) -> Cow<'_, str> {
    if text.starts_with(FORMULA_STARTS) {
        Cow::Owned(format!("'{text}"))
    } else {
        Cow::Borrowed(text)
    }
}

#[cfg(test)]
mod tests {
    use super::cell;

    #[test]
    fn cells_that_start_like_a_formula_are_written_as_text() {
        for text in ["=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx"] {
            assert_eq!(cell(text), format!("'{text}"), "{text:?}");
        }
        for text in ["ecg.csv", "", "a=b", "0.7500", "'quoted"] {
            assert_eq!(cell(text), text);
        }
    }
}
