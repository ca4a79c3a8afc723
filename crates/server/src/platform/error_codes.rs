//! The codes of the server's error sentences, so that a reader sees them in their language.
//!
//! Every error body carries `code` and `params` beside the English `detail`. The one table of them
//! is `crates/server/catalogue/{en,es,fr}.json`, which the web app loads too: `templates` (code ->
//! sentence, holes written `{{name}}` as i18next reads them) and `terms` (the phrases that fill
//! holes, such as a form field's name). The English sentence an error was made with is matched
//! against the English templates (the most specific one wins, as the models' reasons are read), so
//! the server's constants stay the spec's exact strings. A hole's text is itself coded when it is
//! a term (`{"term": key}`) or another listed sentence (`{"code", "params"}`: a reader's reason
//! inside "Cannot read the file: ..."); anything else stays as written (numbers, file names).

use std::sync::LazyLock;

use cardio_models::catalogue::best_match;
use serde_json::{Map, Value};

/// The code of a sentence the table does not list (shown as its English `detail`).
pub const UNLISTED: &str = "unlisted";

/// How deep sentences nest inside each other's holes at most.
const MAX_DEPTH: usize = 4;

/// The English table: `templates` and `terms`.
fn english() -> &'static Value {
    static EN: LazyLock<Value> = LazyLock::new(|| {
        // Committed and checked by the tests below: a broken file is a build defect.
        serde_json::from_str(include_str!("../../catalogue/en.json")).unwrap_or(Value::Null)
    });
    &EN
}

fn section(name: &str) -> Option<&'static Map<String, Value>> {
    english().get(name).and_then(Value::as_object)
}

/// The code and parameters of `detail`, an English sentence of the server's.
pub fn code_of(detail: &str) -> (String, Map<String, Value>) {
    coded(detail, 0).unwrap_or_else(|| (UNLISTED.to_owned(), Map::new()))
}

fn coded(text: &str, depth: usize) -> Option<(String, Map<String, Value>)> {
    let templates = section("templates")?;
    let (code, holes) = best_match(templates, text)?;
    let params = holes
        .into_iter()
        .map(|(name, value)| (name, hole(value, depth + 1)))
        .collect();
    Some((code.to_owned(), params))
}

/// One hole's text: a term, a nested sentence, or the text itself.
fn hole(text: &str, depth: usize) -> Value {
    if let Some((key, _)) =
        section("terms").and_then(|t| t.iter().find(|(_, v)| v.as_str() == Some(text)))
    {
        return serde_json::json!({ "term": key });
    }
    if depth < MAX_DEPTH {
        if let Some((code, params)) = coded(text, depth) {
            return serde_json::json!({ "code": code, "params": params });
        }
    }
    Value::String(text.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(language: &str) -> Value {
        let text = match language {
            "en" => include_str!("../../catalogue/en.json"),
            "es" => include_str!("../../catalogue/es.json"),
            _ => include_str!("../../catalogue/fr.json"),
        };
        serde_json::from_str(text).expect(language)
    }

    fn holes(text: &str) -> Vec<String> {
        let mut found: Vec<String> = text
            .split("{{")
            .skip(1)
            .filter_map(|rest| rest.split_once("}}").map(|(name, _)| name.to_owned()))
            .collect();
        found.sort();
        found
    }

    #[test]
    fn every_code_and_term_reads_in_spanish_and_french_with_the_same_holes() {
        let en = table("en");
        for language in ["es", "fr"] {
            let other = table(language);
            for name in ["templates", "terms"] {
                let en_section = en[name].as_object().unwrap();
                let other_section = other[name].as_object().unwrap();
                let mut en_keys: Vec<&String> = en_section.keys().collect();
                let mut other_keys: Vec<&String> = other_section.keys().collect();
                en_keys.sort();
                other_keys.sort();
                assert_eq!(other_keys, en_keys, "{language} {name}");
                for (key, text) in other_section {
                    let text = text.as_str().unwrap();
                    let english = en_section[key].as_str().unwrap();
                    assert_eq!(holes(text), holes(english), "{language} {name}.{key}");
                    // Terms may be spelt alike ("Allergies" in French); sentences may not.
                    if name == "templates" && english.chars().any(char::is_lowercase) {
                        assert_ne!(text, english, "{language} {name}.{key} is not translated");
                    }
                }
            }
        }
    }

    #[test]
    fn sentences_get_their_code_and_nested_parameters() {
        assert_eq!(
            code_of("Patient not found."),
            ("patient_not_found".to_owned(), Map::new())
        );
        let (code, params) = code_of("First name is required.");
        assert_eq!(code, "field_required");
        assert_eq!(params["label"], serde_json::json!({"term": "first_name"}));
        let (code, params) = code_of("File too large: the limit is 256 MB.");
        assert_eq!(code, "file_too_large");
        assert_eq!(params["mb"], "256");
        let (code, params) = code_of("Cannot read the file: invalid CSV file: no rows of numbers");
        assert_eq!(code, "file_unreadable");
        assert_eq!(
            params["reason"],
            serde_json::json!({
                "code": "format_invalid",
                "params": {"format": "CSV", "reason": {"code": "reader_no_rows", "params": {}}}
            })
        );
        assert_eq!(code_of("Something new went wrong.").0, UNLISTED);
    }

    #[test]
    fn the_ecg_document_readers_refusals_get_their_codes() {
        let options = cardio_formats::ReadOptions::default();
        let apple = "Name,X\nSample Rate,512 hertz\nLead,Lead I\nUnit,µV\n\n";
        let cases = [
            (
                cardio_formats::read_bytes(b"<RestingECG></RestingECG>", None, &options),
                "reader_muse_no_rhythm",
            ),
            (
                cardio_formats::read_bytes(&[0; 64], Some("x.dcm"), &options),
                "reader_dicom_no_prefix",
            ),
            (
                cardio_formats::read_bytes(apple.as_bytes(), Some("ecg.csv"), &options),
                "reader_apple_no_samples",
            ),
        ];
        for (result, code) in cases {
            let err = result.unwrap_err();
            let (outer, params) = code_of(&format!("Cannot read the file: {err}"));
            assert_eq!(outer, "file_unreadable", "{err}");
            assert_eq!(params["reason"]["code"], "format_invalid", "{err}");
            assert_eq!(params["reason"]["params"]["reason"]["code"], code, "{err}");
        }
    }
}
