//! The sentences a person reads about a result, in English, Spanish and French: the findings
//! (`findings.<modality>.<label>`), the recommendations (`advice.…`), the combination rule and the
//! modality names. Models return codes with parameters ([`Advice`]); this catalogue, shared with
//! the web app (which loads the same files, `catalogue/{en,es,fr}.json`), turns them into text.
//!
//! Placeholders are written `{{name}}`, as i18next reads them; a parameter named `modality` holds
//! a modality code and is shown as that modality's name in the reader's language.

use std::sync::LazyLock;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// A language of the catalogue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Language {
    /// English (also the fallback for a key another language lacks).
    En,
    /// Spanish.
    Es,
    /// French.
    Fr,
}

impl Language {
    /// Every language, English first.
    pub const ALL: [Self; 3] = [Self::En, Self::Es, Self::Fr];

    /// The language of an ISO 639-1 code (`en`, `es`, `fr`).
    pub fn from_code(code: &str) -> Option<Self> {
        match code {
            "en" => Some(Self::En),
            "es" => Some(Self::Es),
            "fr" => Some(Self::Fr),
            _ => None,
        }
    }

    fn catalogue(self) -> &'static Value {
        static EN: LazyLock<Value> = LazyLock::new(|| parse(include_str!("../catalogue/en.json")));
        static ES: LazyLock<Value> = LazyLock::new(|| parse(include_str!("../catalogue/es.json")));
        static FR: LazyLock<Value> = LazyLock::new(|| parse(include_str!("../catalogue/fr.json")));
        match self {
            Self::En => &EN,
            Self::Es => &ES,
            Self::Fr => &FR,
        }
    }
}

fn parse(text: &str) -> Value {
    // The files are committed and checked by the tests below: a broken one is a build defect.
    serde_json::from_str(text).unwrap_or(Value::Null)
}

/// One recommendation as the catalogue key under `advice.` and its parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Advice {
    /// Key under `advice.`, e.g. `ecg.af_1`.
    pub code: String,
    /// Values of the sentence's placeholders (numbers already rounded as they are shown).
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub params: Map<String, Value>,
}

impl Advice {
    /// Advice without parameters.
    pub fn new(code: &str) -> Self {
        Self {
            code: code.to_owned(),
            params: Map::new(),
        }
    }

    /// Adds a parameter.
    #[must_use]
    pub fn with(mut self, name: &str, value: impl Into<Value>) -> Self {
        self.params.insert(name.to_owned(), value.into());
        self
    }

    /// The sentence in `language`.
    pub fn text(&self, language: Language) -> String {
        render(language, &format!("advice.{}", self.code), &self.params)
    }
}

/// The sentences of `advice` in English (what a result's `recommendations` hold).
pub fn english(advice: &[Advice]) -> Vec<String> {
    advice.iter().map(|a| a.text(Language::En)).collect()
}

/// The text at a dotted `key`, if the language has it.
pub fn lookup(language: Language, key: &str) -> Option<&'static str> {
    key.split('.')
        .try_fold(language.catalogue(), |node, part| node.get(part))
        .and_then(Value::as_str)
}

/// The text at `key` in `language` (English when that language lacks it, the key itself when no
/// language has it), with its placeholders filled from `params`.
pub fn render(language: Language, key: &str, params: &Map<String, Value>) -> String {
    let Some(template) = lookup(language, key).or_else(|| lookup(Language::En, key)) else {
        return key.to_owned();
    };
    let mut out = template.to_owned();
    for (name, value) in params {
        let shown = match (name.as_str(), value) {
            ("modality", Value::String(code)) => modality_name(language, code)
                .unwrap_or(code.as_str())
                .to_owned(),
            (_, Value::String(text)) => text.clone(),
            (_, other) => other.to_string(),
        };
        out = out.replace(&format!("{{{{{name}}}}}"), &shown);
    }
    out
}

/// A modality's name (`clinical`, `pcg`, `ppg`, `ecg`) in `language`.
pub fn modality_name(language: Language, code: &str) -> Option<&'static str> {
    lookup(language, &format!("modalities.{code}"))
}

/// A model's finding (`findings.<modality>.<label>`) in `language`, if the catalogue has it.
pub fn finding(language: Language, modality: &str, label: &str) -> Option<&'static str> {
    lookup(language, &format!("findings.{modality}.{label}"))
}

/// A whole number for a sentence (`37`, not `37.0`): the value rounded as `{:.0}` would show it.
pub fn whole(value: f64) -> Value {
    Value::String(format!("{value:.0}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leaves(value: &Value, prefix: &str, out: &mut Vec<(String, String)>) {
        match value {
            Value::Object(map) => {
                for (k, v) in map {
                    let key = if prefix.is_empty() {
                        k.clone()
                    } else {
                        format!("{prefix}.{k}")
                    };
                    leaves(v, &key, out);
                }
            }
            Value::String(s) => out.push((prefix.to_owned(), s.clone())),
            other => out.push((prefix.to_owned(), other.to_string())),
        }
    }

    fn placeholders(text: &str) -> Vec<String> {
        let mut found: Vec<String> = text
            .split("{{")
            .skip(1)
            .filter_map(|rest| rest.split_once("}}").map(|(name, _)| name.to_owned()))
            .collect();
        found.sort();
        found
    }

    #[test]
    fn every_language_has_every_key_with_the_same_placeholders() {
        let mut english = Vec::new();
        leaves(Language::En.catalogue(), "", &mut english);
        assert!(english.len() > 60, "{}", english.len());
        for language in [Language::Es, Language::Fr] {
            let mut other = Vec::new();
            leaves(language.catalogue(), "", &mut other);
            let keys = |v: &[(String, String)]| {
                let mut k: Vec<String> = v.iter().map(|(k, _)| k.clone()).collect();
                k.sort();
                k
            };
            assert_eq!(keys(&other), keys(&english), "{language:?}");
            for (key, text) in &other {
                let en = &english.iter().find(|(k, _)| k == key).unwrap().1;
                assert!(!text.trim().is_empty(), "{language:?} {key}");
                assert_eq!(placeholders(text), placeholders(en), "{language:?} {key}");
                // Modality names are acronyms in every language but "clinical".
                if !key.starts_with("modalities.") || key == "modalities.clinical" {
                    assert_ne!(text, en, "{language:?} {key} is not translated");
                }
            }
        }
    }

    #[test]
    fn the_english_disclaimer_is_the_models_constant() {
        assert_eq!(
            Advice::new("disclaimer").text(Language::En),
            crate::prediction::DISCLAIMER
        );
    }

    #[test]
    fn renders_parameters_and_modality_names_in_the_language() {
        let advice = Advice::new("combined.not_performed").with("modality", "clinical");
        assert_eq!(
            advice.text(Language::En),
            "Clinical was not performed in this screening; its risk is unknown, not low."
        );
        assert_eq!(
            advice.text(Language::Es),
            "Clínico no se realizó en este cribado; su riesgo es desconocido, no bajo."
        );
        let fast = Advice::new("ppg.fast").with("bpm", whole(131.4));
        assert_eq!(
            fast.text(Language::Fr),
            "La fréquence du pouls est rapide (131 bpm) ; si c'est au repos, consultez rapidement."
        );
        assert_eq!(
            render(Language::Fr, "advice.nope", &Map::new()),
            "advice.nope"
        );
        assert_eq!(
            finding(Language::Es, "ecg", "af"),
            Some("Sospecha de fibrilación auricular")
        );
    }
}
