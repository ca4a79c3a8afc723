//! Loading the UCI Heart Disease files and mapping the raw UCI codes to the intake form's codes.
//!
//! The four `processed.<site>.data` files hold 14 comma-separated attributes with `?` for a missing
//! value; `num` (0-4) > 0 means angiographic disease (> 50 % diameter narrowing). The thirteen
//! attributes are mapped exactly as the form and the API code them:
//!
//! | form field | UCI | mapping |
//! |---|---|---|
//! | `age` | `age` | years |
//! | `chest_pain_type` | `cp` 1-4 | `cp - 1` (0 typical angina ... 3 asymptomatic) |
//! | `cholesterol` | `chol` mg/dl | `0` (Switzerland, some VA/Hungary rows) and `?` are missing |
//! | `fasting_blood_sugar` | `fbs` 0/1 = "> 120 mg/dl" | the form's mg/dl enters as `value > 120` |
//! | `exercise_induced_angina` | `exang` 0/1 | as is |
//! | `vessels_colored_by_flourosopy` | `ca` 0-3 | as is, `?` missing |
//! | `thalassemia` | `thal` 3/6/7 | 0 normal, 1 fixed defect, 2 reversible defect, `?` missing |
//! | `sex` | `sex` 1/0 | male / female |
//! | `resting_blood_pressure` | `trestbps` mm Hg | `0` (one Swiss row) and `?` are missing |
//! | `resting_ecg` | `restecg` 0/1/2 | as is |
//! | `max_heart_rate` | `thalach` bpm | as is |
//! | `st_depression` | `oldpeak` mm | as is (negative values are kept) |
//! | `st_slope` | `slope` 1/2/3 | `slope - 1`: 0 up, 1 flat, 2 down |
//!
//! Identical rows (all 14 raw attributes equal within a site) are removed before any validation.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use cardio_models::clinical::{ClinicalError, ClinicalInput, Sex};

/// The four sites of the UCI collection, in the order of `heart-disease.names`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Site {
    /// Cleveland Clinic Foundation (303 patients; the only site with `ca` and `thal` mostly present).
    Cleveland,
    /// Hungarian Institute of Cardiology, Budapest (294).
    Hungary,
    /// University Hospitals Zurich and Basel (123; `chol` always 0 = missing).
    Switzerland,
    /// V.A. Medical Center, Long Beach (200).
    Va,
}

impl Site {
    /// Every site.
    pub const ALL: [Self; 4] = [Self::Cleveland, Self::Hungary, Self::Switzerland, Self::Va];

    /// The file name of the site's processed data.
    pub fn file_name(self) -> &'static str {
        match self {
            Self::Cleveland => "processed.cleveland.data",
            Self::Hungary => "processed.hungarian.data",
            Self::Switzerland => "processed.switzerland.data",
            Self::Va => "processed.va.data",
        }
    }

    /// A short name for tables.
    pub fn name(self) -> &'static str {
        match self {
            Self::Cleveland => "Cleveland",
            Self::Hungary => "Hungary",
            Self::Switzerland => "Switzerland",
            Self::Va => "VA Long Beach",
        }
    }
}

/// One patient mapped to the form's codes (see the module table), with the target.
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    /// The form's seven fields.
    pub input: ClinicalInput,
    /// `num > 0`: angiographic coronary artery disease.
    pub disease: bool,
}

/// The folder of the UCI data under a datasets root (`$CARDIO_DATASETS/uci_heart`).
pub fn dataset_dir(root: &Path) -> PathBuf {
    root.join("uci_heart")
}

/// Reads one site's processed file, maps it and removes identical rows.
///
/// # Errors
/// [`ClinicalError::MissingDataset`] when the file is absent, [`ClinicalError::Parse`] on a malformed
/// line or a code outside the documented ranges.
pub fn load_site(root: &Path, site: Site) -> Result<Vec<Record>, ClinicalError> {
    let path = dataset_dir(root).join(site.file_name());
    let text = std::fs::read_to_string(&path).map_err(|_| ClinicalError::MissingDataset {
        path: path.display().to_string(),
    })?;
    parse_processed(&text).map_err(|(line, reason)| ClinicalError::Parse {
        file: site.file_name().into(),
        line,
        reason,
    })
}

/// Parses the text of a `processed.*.data` file, dropping identical rows (first one kept).
///
/// # Errors
/// `(line number, reason)` of the first malformed line.
pub fn parse_processed(text: &str) -> Result<Vec<Record>, (usize, String)> {
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        if fields.len() != 14 {
            return Err((i + 1, format!("{} fields, expected 14", fields.len())));
        }
        let record = map_row(&fields).map_err(|reason| (i + 1, reason))?;
        // Identical rows: compare the parsed values of all 14 attributes, so "63" and "63.0" agree.
        let key: Vec<String> = fields
            .iter()
            .map(|f| {
                f.parse::<f64>()
                    .map_or_else(|_| "?".into(), |v| v.to_string())
            })
            .collect();
        if seen.insert(key) {
            out.push(record);
        }
    }
    Ok(out)
}

/// A numeric attribute; `?` is missing.
fn value(field: &str, name: &str) -> Result<Option<f64>, String> {
    if field == "?" {
        return Ok(None);
    }
    field
        .parse::<f64>()
        .map(Some)
        .map_err(|_| format!("{name}: {field:?} is not a number"))
}

/// A small integer code; `?` is missing.
fn code(field: &str, name: &str) -> Result<Option<u8>, String> {
    match value(field, name)? {
        None => Ok(None),
        Some(v) if v.fract() == 0.0 && (0.0..=255.0).contains(&v) => Ok(Some(v as u8)),
        Some(v) => Err(format!("{name}: {v} is not a code")),
    }
}

/// Maps the 14 raw attributes (`age sex cp trestbps chol fbs restecg thalach exang oldpeak slope ca
/// thal num`) to the form's codes.
pub fn map_row(f: &[&str]) -> Result<Record, String> {
    let age = value(f[0], "age")?.ok_or("age is missing")?;
    let cp = code(f[2], "cp")?.ok_or("cp is missing")?;
    let chest_pain_type = match cp {
        1..=4 => cp - 1,
        other => return Err(format!("cp: {other} outside 1-4")),
    };
    let cholesterol = value(f[4], "chol")?.filter(|&c| c > 0.0);
    let fasting_blood_sugar_high = match code(f[5], "fbs")? {
        None => None,
        Some(0) => Some(false),
        Some(1) => Some(true),
        Some(other) => return Err(format!("fbs: {other} is not 0/1")),
    };
    let exercise_induced_angina = match code(f[8], "exang")? {
        None => None,
        Some(v @ 0..=1) => Some(v),
        Some(other) => return Err(format!("exang: {other} is not 0/1")),
    };
    let vessels = match code(f[11], "ca")? {
        None => None,
        Some(v @ 0..=3) => Some(v),
        Some(other) => return Err(format!("ca: {other} outside 0-3")),
    };
    let thalassemia = match code(f[12], "thal")? {
        None => None,
        Some(3) => Some(0),
        Some(6) => Some(1),
        Some(7) => Some(2),
        Some(other) => return Err(format!("thal: {other} is not 3, 6 or 7")),
    };
    let sex = match code(f[1], "sex")? {
        None => None,
        Some(0) => Some(Sex::Female),
        Some(1) => Some(Sex::Male),
        Some(other) => return Err(format!("sex: {other} is not 0/1")),
    };
    let resting_ecg = match code(f[6], "restecg")? {
        None => None,
        Some(v @ 0..=2) => Some(v),
        Some(other) => return Err(format!("restecg: {other} outside 0-2")),
    };
    let st_slope = match code(f[10], "slope")? {
        None => None,
        Some(v @ 1..=3) => Some(v - 1),
        Some(other) => return Err(format!("slope: {other} outside 1-3")),
    };
    let num = code(f[13], "num")?.ok_or("num is missing")?;
    Ok(Record {
        input: ClinicalInput {
            age,
            chest_pain_type,
            cholesterol,
            // The data only says "> 120 mg/dl" or not; 121 / 100 stand for that as mg/dl.
            fasting_blood_sugar: fasting_blood_sugar_high
                .map(|high| if high { 121.0 } else { 100.0 }),
            exercise_induced_angina,
            vessels_colored_by_flourosopy: vessels,
            thalassemia,
            sex,
            resting_blood_pressure: value(f[3], "trestbps")?.filter(|&v| v > 0.0),
            resting_ecg,
            max_heart_rate: value(f[7], "thalach")?,
            st_depression: value(f[9], "oldpeak")?,
            st_slope,
        },
        disease: num > 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_uci_codes_map_to_the_form_codes() {
        let text = "63.0,1.0,1.0,145.0,233.0,1.0,2.0,150.0,0.0,2.3,3.0,0.0,6.0,0\n\
                    67.0,1.0,4.0,160.0,286.0,0.0,2.0,108.0,1.0,1.5,2.0,3.0,3.0,2\n\
                    29,1,2,140,0,?,0,170,1,0,?,?,7,0\n";

        let rows = parse_processed(text).unwrap();

        assert_eq!(rows.len(), 3);
        let a = &rows[0].input;
        assert_eq!(a.age, 63.0);
        assert_eq!(a.chest_pain_type, 0);
        assert_eq!(a.cholesterol, Some(233.0));
        assert!(a.fasting_blood_sugar.unwrap() > 120.0);
        assert_eq!(a.exercise_induced_angina, Some(0));
        assert_eq!(a.vessels_colored_by_flourosopy, Some(0));
        assert_eq!(a.thalassemia, Some(1));
        assert_eq!(a.sex, Some(Sex::Male));
        assert_eq!(a.resting_blood_pressure, Some(145.0));
        assert_eq!(a.resting_ecg, Some(2));
        assert_eq!(a.max_heart_rate, Some(150.0));
        assert_eq!(a.st_depression, Some(2.3));
        assert_eq!(a.st_slope, Some(2));
        assert!(!rows[0].disease);
        let b = &rows[1].input;
        assert_eq!(b.chest_pain_type, 3);
        assert!(b.fasting_blood_sugar.unwrap() <= 120.0);
        assert_eq!(b.vessels_colored_by_flourosopy, Some(3));
        assert_eq!(b.thalassemia, Some(0));
        assert!(rows[1].disease);
        let c = &rows[2].input;
        assert_eq!(c.chest_pain_type, 1);
        assert_eq!(c.cholesterol, None, "chol 0 means missing");
        assert_eq!(c.fasting_blood_sugar, None);
        assert_eq!(c.vessels_colored_by_flourosopy, None);
        assert_eq!(c.thalassemia, Some(2));
        assert_eq!(c.st_slope, None);
        assert_eq!(c.resting_ecg, Some(0));
    }

    #[test]
    fn identical_rows_are_removed_once() {
        let row = "49,0,2,160,180,0,0,156,0,1,2,?,?,1";
        let text = format!("{row}\n49.0,0.0,2.0,160.0,180.0,0.0,0.0,156.0,0.0,1.0,2.0,?,?,1\n{row}\n50,0,2,160,180,0,0,156,0,1,2,?,?,1\n");

        let rows = parse_processed(&text).unwrap();

        assert_eq!(rows.len(), 2);
    }

    #[test]
    fn codes_outside_the_documented_ranges_are_errors() {
        let err = parse_processed("63,1,5,145,233,1,2,150,0,2.3,3,0,6,0").unwrap_err();
        assert_eq!(err.0, 1);
        assert!(err.1.contains("cp"), "{}", err.1);
        assert!(parse_processed("63,1,1,145,233,1,2,150,0,2.3,3,0,5,0").is_err());
        assert!(parse_processed("63,1,1,145").is_err());
    }
}
