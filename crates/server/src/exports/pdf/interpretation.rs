//! An ECG's measurements and interpretation as the report prints them, the way carts do ("PR 176
//! ms", "QT/QTc 380/412 ms (Bazett)", "P/QRS/T axes 45/60/40°", "—" for what was not measured),
//! and its statements: those the doctor confirmed (with who and when) or else Cardio's own, marked
//! unconfirmed; a coded statement in the report's language through the models' catalogue, the
//! doctor's own words as written.

use cardio_models::catalogue;
use serde_json::{Map, Value};

use super::strings::Strings;
use crate::records::{analyses::store::Analysis, reviews::store::Review};

/// Printed for a value that was not measured.
pub const NOT_MEASURED: &str = "—";

/// The QTc formulas as `qtc_shown` names them, with their printed names; the first is the default.
const QTC_FORMULAS: [(&str, &str); 4] = [
    ("bazett", "Bazett"),
    ("fridericia", "Fridericia"),
    ("framingham", "Framingham"),
    ("hodges", "Hodges"),
];

/// A value of `measurements` as a whole number, if measured.
fn whole(m: &Map<String, Value>, key: &str) -> Option<String> {
    m.get(key)
        .and_then(Value::as_f64)
        .filter(|v| v.is_finite())
        .map(|v| format!("{:.0}", v.round() + 0.0))
}

/// Values joined by "/" with `unit` after them ("380/412 ms"); [`NOT_MEASURED`] for a missing one,
/// and alone when none was measured.
fn joined(values: &[Option<String>], unit: &str) -> String {
    if values.iter().all(Option::is_none) {
        return NOT_MEASURED.to_owned();
    }
    let text = values
        .iter()
        .map(|v| v.as_deref().unwrap_or(NOT_MEASURED))
        .collect::<Vec<_>>()
        .join("/");
    format!("{text}{unit}")
}

/// The measurements of a result's `details.measurements` as (label, value): rate, PR, QRS, QT/QTc
/// (with the formula `qtc_shown` names, Bazett by default) and the P/QRS/T axes; `None` when the
/// result has none.
pub fn measurements(s: &Strings, details: &Value) -> Option<Vec<(String, String)>> {
    let m = details.get("measurements")?.as_object()?;
    let shown = m.get("qtc_shown").and_then(Value::as_str).unwrap_or("");
    let (formula, name) = QTC_FORMULAS
        .iter()
        .find(|(key, _)| *key == shown)
        .copied()
        .unwrap_or(QTC_FORMULAS[0]);
    let qtc = format!("qtc_{formula}_ms");
    let qt = joined(&[whole(m, "qt_ms"), whole(m, &qtc)], " ms");
    let qt = if qt == NOT_MEASURED {
        qt
    } else {
        format!("{qt} ({name})")
    };
    Some(vec![
        (
            s.rate.to_owned(),
            joined(&[whole(m, "heart_rate_bpm")], " bpm"),
        ),
        ("PR".to_owned(), joined(&[whole(m, "pr_ms")], " ms")),
        ("QRS".to_owned(), joined(&[whole(m, "qrs_ms")], " ms")),
        ("QT/QTc".to_owned(), qt),
        (
            s.axes.to_owned(),
            joined(
                &[
                    whole(m, "p_axis_deg"),
                    whole(m, "qrs_axis_deg"),
                    whole(m, "t_axis_deg"),
                ],
                "°",
            ),
        ),
    ])
}

/// The statements printed for an ECG, under their heading.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Interpretation {
    /// "Interpretation confirmed by … on …", or the unconfirmed heading.
    pub heading: String,
    /// The statements in order, in the report's language.
    pub statements: Vec<String>,
}

/// A statement of the table in the report's language (`reasons.templates.e12_<code>`), else the
/// stored English text.
pub fn statement_text(s: &Strings, code: &str, english: &str) -> String {
    catalogue::lookup(s.catalogue, &format!("reasons.templates.e12_{code}"))
        .map_or_else(|| english.to_owned(), str::to_owned)
}

/// The interpretation the current review confirmed, if it confirmed one.
fn confirmed(s: &Strings, review: &Review, when: &str) -> Option<Interpretation> {
    let chosen = review.interpretation.as_ref()?;
    Some(Interpretation {
        heading: s
            .confirmed_by
            .replace("{name}", &review.reviewer_name)
            .replace("{date}", when),
        statements: chosen
            .iter()
            .map(|c| match &c.code {
                Some(code) => statement_text(s, code, &c.text),
                None => c.text.clone(),
            })
            .collect(),
    })
}

/// What an ECG analysis prints as its interpretation: the one its current review confirmed, else
/// Cardio's `details.statements` under the unconfirmed heading. `None` for a result without
/// statements, unless `multi_lead` (a record read across its leads says it made none).
/// `when` writes the review's time as the report does.
pub fn interpretation(
    s: &Strings,
    a: &Analysis,
    multi_lead: bool,
    when: impl Fn(&str) -> String,
) -> Option<Interpretation> {
    if let Some(found) = a
        .review
        .as_ref()
        .and_then(|r| confirmed(s, r, &when(&r.created_at)))
    {
        return Some(found);
    }
    let statements: Vec<String> = a
        .result
        .details
        .get("statements")
        .and_then(Value::as_array)
        .map(|list| {
            list.iter()
                .filter_map(|st| {
                    let text = st.get("text").and_then(Value::as_str).unwrap_or_default();
                    match st.get("code").and_then(Value::as_str) {
                        Some(code) => Some(statement_text(s, code, text)),
                        None => (!text.is_empty()).then(|| text.to_owned()),
                    }
                })
                .collect()
        })
        .unwrap_or_default();
    if statements.is_empty() && !multi_lead {
        return None;
    }
    Some(Interpretation {
        heading: s.unconfirmed.to_owned(),
        statements: if statements.is_empty() {
            vec![s.no_statements.to_owned()]
        } else {
            statements
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accounts::settings::Language;
    use crate::exports::pdf::strings;

    #[test]
    fn measurements_print_as_a_cart_prints_them() {
        let details = serde_json::json!({"measurements": {
            "heart_rate_bpm": 74.0, "pr_ms": 176.0, "qrs_ms": 88.0, "qt_ms": 380.0,
            "qtc_bazett_ms": 412.0, "qtc_fridericia_ms": 401.0, "qtc_shown": "bazett",
            "p_axis_deg": 45.0, "qrs_axis_deg": -30.0, "t_axis_deg": null,
        }});

        let shown = measurements(strings::of(Language::En), &details).unwrap();

        let text: Vec<String> = shown.iter().map(|(k, v)| format!("{k} {v}")).collect();
        assert_eq!(
            text,
            [
                "Rate 74 bpm",
                "PR 176 ms",
                "QRS 88 ms",
                "QT/QTc 380/412 ms (Bazett)",
                "P/QRS/T axes 45/-30/—°",
            ]
        );
    }

    #[test]
    fn the_qtc_shown_names_its_formula_and_what_was_not_measured_says_so() {
        let details = serde_json::json!({"measurements": {
            "qt_ms": 380.0, "qtc_bazett_ms": 412.0, "qtc_fridericia_ms": 401.0,
            "qtc_shown": "fridericia",
        }});

        let shown = measurements(strings::of(Language::Es), &details).unwrap();

        assert_eq!(shown[0], ("Frecuencia".into(), NOT_MEASURED.into()));
        assert_eq!(shown[1].1, NOT_MEASURED);
        assert_eq!(shown[3].1, "380/401 ms (Fridericia)");
        assert_eq!(shown[4].1, NOT_MEASURED);
        assert!(measurements(&strings::EN, &serde_json::json!({})).is_none());
    }

    #[test]
    fn a_coded_statement_is_in_the_reports_language() {
        let es = strings::of(Language::Es);
        assert_eq!(
            statement_text(es, "sinus_rhythm", "Sinus rhythm"),
            "Ritmo sinusal"
        );
        assert_eq!(statement_text(es, "no_such_code", "As stored"), "As stored");
    }
}
