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

/// The parameters of a reason template that hold phrases of their own (translated in turn).
const PHRASES: [&str; 5] = ["noun", "what", "beats", "feature", "reason"];

enum Part<'a> {
    Text(&'a str),
    Hole(&'a str),
}

fn parts(template: &str) -> Vec<Part<'_>> {
    let mut out = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find("{{") {
        if open > 0 {
            out.push(Part::Text(&rest[..open]));
        }
        let Some(close) = rest[open..].find("}}") else {
            break;
        };
        out.push(Part::Hole(&rest[open + 2..open + close]));
        rest = &rest[open + close + 2..];
    }
    if !rest.is_empty() {
        out.push(Part::Text(rest));
    }
    out
}

/// The holes' names and the text each took.
type Filled<'t> = Vec<(String, &'t str)>;

/// The values of `parts`' holes when `text` is the template filled in (each hole one or more
/// characters, every split tried), or `None`.
fn fill<'t>(text: &'t str, parts: &[Part<'_>], found: &mut Filled<'t>) -> bool {
    match parts.split_first() {
        None => text.is_empty(),
        Some((Part::Text(lit), rest)) => text
            .strip_prefix(lit)
            .is_some_and(|after| fill(after, rest, found)),
        Some((Part::Hole(name), rest)) => {
            let ends: Vec<usize> = match rest.first() {
                None => vec![text.len()],
                Some(Part::Text(lit)) => text.match_indices(lit).map(|(i, _)| i).collect(),
                Some(Part::Hole(_)) => return false,
            };
            for end in ends.into_iter().filter(|&e| e > 0) {
                found.push(((*name).to_owned(), &text[..end]));
                if fill(&text[end..], rest, found) {
                    return true;
                }
                found.pop();
            }
            false
        }
    }
}

/// A phrase inside a reason (a modality's noun, a beat word, a gate feature, a nested reason).
fn phrase(language: Language, english: &str) -> String {
    let terms = Language::En
        .catalogue()
        .pointer("/reasons/terms")
        .and_then(Value::as_object);
    if let Some((key, _)) = terms.and_then(|t| t.iter().find(|(_, v)| v.as_str() == Some(english)))
    {
        return lookup(language, &format!("reasons.terms.{key}"))
            .unwrap_or(english)
            .to_owned();
    }
    reason(language, english)
}

/// A reason the signal checks, the plausibility gate or a model wrote in English (stored in a
/// result's details), in `language`: matched against the catalogue's English templates
/// (`reasons.templates`, the most specific first: the most fixed text), its phrases translated in
/// turn. A text no template matches is returned as it is.
pub fn reason(language: Language, english: &str) -> String {
    if language == Language::En {
        return english.to_owned();
    }
    let Some(templates) = Language::En
        .catalogue()
        .pointer("/reasons/templates")
        .and_then(Value::as_object)
    else {
        return english.to_owned();
    };
    let Some((key, found)) = best_match(templates, english) else {
        return english.to_owned();
    };
    let Some(target) = lookup(language, &format!("reasons.templates.{key}")) else {
        return english.to_owned();
    };
    let mut out = target.to_owned();
    for (name, value) in found {
        let shown = if PHRASES.contains(&name.as_str()) {
            phrase(language, value)
        } else {
            value.to_owned()
        };
        out = out.replace(&format!("{{{{{name}}}}}"), &shown);
    }
    out
}

/// The holes' names and the text each took, of the template among `templates` (key -> English
/// text with `{{name}}` holes) that `english` fills in; the most specific one (the most fixed
/// text) when several do. `None` when none does.
pub fn best_match<'c, 't>(
    templates: &'c Map<String, Value>,
    english: &'t str,
) -> Option<(&'c str, Vec<(String, &'t str)>)> {
    let mut best: Option<(usize, &str, Filled<'_>)> = None;
    for (key, template) in templates {
        let Some(template) = template.as_str() else {
            continue;
        };
        let parts = parts(template);
        let mut found = Vec::new();
        if !fill(english, &parts, &mut found) {
            continue;
        }
        let fixed: usize = parts
            .iter()
            .map(|p| match p {
                Part::Text(t) => t.len(),
                Part::Hole(_) => 0,
            })
            .sum();
        if best.as_ref().is_none_or(|(f, _, _)| fixed > *f) {
            best = Some((fixed, key.as_str(), found));
        }
    }
    best.map(|(_, key, found)| (key, found))
}

/// A whole number for a sentence (`37`, not `37.0`): the value rounded as `{:.0}` would show it.
pub fn whole(value: f64) -> Value {
    Value::String(format!("{value:.0}"))
}

/// Minutes for a sentence, from seconds: one decimal under 10 min (`4.3`), whole minutes above.
pub fn minutes(seconds: f64) -> Value {
    let m = seconds / 60.0;
    if m < 10.0 {
        Value::String(format!("{m:.1}"))
    } else {
        whole(m)
    }
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
                // Acronyms (modality names, "ECG", "QRS") are the same in every language.
                if en.chars().any(char::is_lowercase) {
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

    /// The reasons the code writes, produced by the code itself, each read in Spanish and French.
    #[test]
    fn the_reasons_the_checks_write_read_in_every_language() {
        use crate::gate::{self, features::FEATURE_NAMES, GateModality};
        use cardio_signal::{quality, SamplingRate};
        let fs = SamplingRate::new(100.0).unwrap();
        let sine: Vec<f64> = (0..1000).map(|i| (f64::from(i) / 10.0).sin()).collect();
        let mut with_nan = sine.clone();
        with_nan[5] = f64::NAN;
        let mut reasons: Vec<String> = [
            quality::basic_checks(&sine[..200], fs),
            quality::basic_checks(&with_nan, fs),
            quality::basic_checks(&[1.0; 1000], fs),
        ]
        .into_iter()
        .map(|q| q.unwrap().reason)
        .collect();
        reasons.push(quality::ecg(&sine, fs, &[]).reason);
        // The gate's hand rules on measured features: too few beats, then a beat rate too high.
        let mut f = vec![0.0; FEATURE_NAMES.len()];
        let at = |name: &str| FEATURE_NAMES.iter().position(|n| *n == name).unwrap();
        f[at("beat_rate_bpm")] = f64::NAN;
        for m in [GateModality::Ecg, GateModality::Pcg, GateModality::Ppg] {
            f[at("log_amplitude_mv")] = 0.0;
            reasons.push(gate::hand_rules(&f, m).unwrap());
        }
        f[at("beat_rate_bpm")] = 400.0;
        reasons.push(gate::hand_rules(&f, GateModality::Ppg).unwrap());
        reasons.push(format!("too noisy: {}", reasons[3]));
        for english in &reasons {
            for language in [Language::Es, Language::Fr] {
                let text = reason(language, english);
                assert_ne!(&text, english, "{language:?}: {english}");
                // No English phrase left inside (the nested beat words and nouns are translated).
                for word in ["found", "samples", "beats", "heart sounds", "recording"] {
                    assert!(
                        !text.contains(word),
                        "{language:?}: {text} (from {english})"
                    );
                }
            }
        }
        assert_eq!(
            reason(
                Language::Es,
                "no repeating beat pattern: fewer than 3 heart sounds were found"
            ),
            "ningún patrón de latidos repetido: se encontraron menos de 3 (ruidos cardíacos)"
        );
        assert_eq!(
            reason(
                Language::Fr,
                "too noisy: this does not look like a real pulse (PPG) recording: the share of power at 0.5-8 Hz is 3 %, where real recordings lie within 40 % to 99 % (probability of a real recording 0.02)"
            ),
            "trop de bruit : cela ne ressemble pas à un vrai enregistrement (enregistrement du pouls (PPG)) : la part de puissance à 0.5-8 Hz vaut 3 %, alors que les vrais enregistrements se situent entre 40 % et 99 % (probabilité d'un vrai enregistrement 0.02)"
        );
        assert_eq!(reason(Language::Es, "something else"), "something else");
        assert_eq!(
            reason(Language::En, "flat line: the signal does not vary"),
            "flat line: the signal does not vary"
        );
    }
}
