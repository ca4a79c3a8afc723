//! The CirCor DigiScope phonocardiogram dataset (the George B. Moody PhysioNet Challenge 2022):
//! its patients, murmur labels and recordings ([`read_patients`]), its expert segmentation of each
//! recording ([`read_segments`]) and the children seen in both campaigns ([`group_keys`]). How well
//! the product's heart-sound segmentation agrees with the experts' is scored in [`segmentation`].
//!
//! The training set lies under `$CARDIO_DATASETS/circor/training_data` (942 patients, 3163
//! recordings at 4 kHz), a 10-patient sample under `$CARDIO_DATASETS/circor_sample/training_data`
//! (see each `SOURCE.md`). Each patient has a `PATIENT.txt` (a first line `PATIENT N_RECORDINGS
//! RATE`, one line per recording `SITE PATIENT_SITE.hea PATIENT_SITE.wav PATIENT_SITE.tsv`, then
//! `#Field: value` lines, `nan` for none), and each recording a `.wav` and a `.tsv` of segments
//! `start_s end_s state` (0 unannotated, 1 S1, 2 systole, 3 S2, 4 diastole).
//!
//! What the files do that a reader must allow for. In the official release (its `SHA256SUMS.txt`):
//! a recording line may name no `.tsv` (patient 50782's `MV_1`; the folder's `50782_MV.tsv`,
//! the single row `0 0 28`, belongs to no recording), so [`RecordingRef::tsv`] is optional; two
//! recordings at one site are `PATIENT_SITE_1.wav` and `PATIENT_SITE_2.wav`; segments may overlap
//! or leave gaps of under a millisecond, repeat a state, break the S1-systole-S2-diastole order
//! or last zero seconds, and [`read_segments`] keeps them as written. Beside the patients, the
//! folder holds `RECORDS`, `training_data.csv` and, in the copy `SOURCE.md` names, files that are
//! not in the release (`2530_AV.txt`... of samples as text, `test.m`, `test.asv`); only the name
//! rule `DIGITS.txt` keeps them out of [`read_patients`].
//!
//! Oliveira, J., Renna, F., Costa, P. D., et al. (2022), "The CirCor DigiScope Dataset: From Murmur
//! Detection to Murmur Classification", *IEEE Journal of Biomedical and Health Informatics* 26(6),
//! 2524-2535, doi:10.1109/JBHI.2021.3137048. Reyna, M. A., Kiarashi, Y., Elola, A., et al. (2023),
//! "Heart murmur detection from phonocardiogram recordings: The George B. Moody PhysioNet Challenge
//! 2022", *PLOS Digital Health* 2(9), e0000324.
//!
//! ```no_run
//! use cardio_lab::circor;
//!
//! let dir = std::path::Path::new("/data/circor/training_data");
//! let patients = circor::read_patients(dir).unwrap();
//! let groups = circor::group_keys(&patients);
//! for (patient, group) in patients.iter().zip(&groups) {
//!     println!("{} (child {group}): {:?}, {} recordings", patient.id, patient.murmur,
//!         patient.recordings.len());
//! }
//! ```

pub mod murmur;
pub mod segmentation;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Serialize;

/// The training set's folder under `$CARDIO_DATASETS`.
pub const FOLDER: &str = "circor/training_data";

/// The 10-patient sample's folder under `$CARDIO_DATASETS`.
pub const SAMPLE_FOLDER: &str = "circor_sample/training_data";

/// Why the dataset could not be read.
#[derive(Debug, thiserror::Error)]
pub enum CircorError {
    /// A file or folder could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file or folder.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// A line of a file is malformed.
    #[error("{path} line {line}: {reason}")]
    Parse {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// What is wrong, in words.
        reason: String,
    },
    /// A file lacks a line it must have, or a folder holds no patient.
    #[error("{path}: {reason}")]
    Missing {
        /// The file or folder.
        path: PathBuf,
        /// What is missing, in words.
        reason: String,
    },
}

/// An auscultation site (the murmur model's table).
pub use cardio_models::murmur::site::Site;

/// The Challenge's murmur score over patients, `(5·TP_present + 3·TP_unknown + TP_absent) /
/// (5·N_present + 3·N_unknown + N_absent)` (Reyna et al. 2023), with the sensitivity on Present
/// and the specificity on Absent patients, for calls of Present or Absent only (an Unknown
/// patient is never right).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct MurmurTally {
    num: f64,
    den: f64,
    tp: f64,
    n_present: f64,
    tn: f64,
    n_absent: f64,
}

impl MurmurTally {
    /// Counts a patient whose reference label is `truth`, called Present or not.
    pub fn add(&mut self, truth: Murmur, called_present: bool) {
        match truth {
            Murmur::Present => {
                self.den += 5.0;
                self.n_present += 1.0;
                if called_present {
                    self.num += 5.0;
                    self.tp += 1.0;
                }
            }
            Murmur::Unknown => self.den += 3.0,
            Murmur::Absent => {
                self.den += 1.0;
                self.n_absent += 1.0;
                if !called_present {
                    self.num += 1.0;
                    self.tn += 1.0;
                }
            }
        }
    }

    /// The weighted accuracy; NaN without patients.
    pub fn weighted_accuracy(&self) -> f64 {
        share(self.num, self.den)
    }

    /// Present patients called Present; NaN without any.
    pub fn sensitivity(&self) -> f64 {
        share(self.tp, self.n_present)
    }

    /// Absent patients not called Present; NaN without any.
    pub fn specificity(&self) -> f64 {
        share(self.tn, self.n_absent)
    }
}

/// `num / den`, NaN when `den` is 0.
fn share(num: f64, den: f64) -> f64 {
    if den > 0.0 {
        num / den
    } else {
        f64::NAN
    }
}

/// The patient-level murmur label (`#Murmur:`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Murmur {
    /// A murmur was heard.
    Present,
    /// No murmur was heard.
    Absent,
    /// The annotator could not tell (the recordings' quality).
    Unknown,
}

impl Murmur {
    /// `Present`, `Absent` or `Unknown`; `None` for anything else.
    pub fn from_label(label: &str) -> Option<Self> {
        match label {
            "Present" => Some(Self::Present),
            "Absent" => Some(Self::Absent),
            "Unknown" => Some(Self::Unknown),
            _ => None,
        }
    }
}

/// A systolic or diastolic murmur as the annotator described it (the dataset's words, e.g.
/// `Holosystolic`, `Plateau`, `III/VI`, `Medium`, `Blowing`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MurmurDescription {
    /// When in the phase (`Early-systolic`, `Holosystolic`, `Early-diastolic`...).
    pub timing: String,
    /// Intensity profile (`Plateau`, `Diamond`, `Crescendo`, `Decrescendo`).
    pub shape: Option<String>,
    /// Levine grade (`I/VI`-`III/VI`) or diastolic grade (`I/IV`-`III/IV`).
    pub grading: Option<String>,
    /// `Low`, `Medium` or `High`.
    pub pitch: Option<String>,
    /// `Blowing`, `Harsh` or `Musical`.
    pub quality: Option<String>,
}

/// One recording of a patient.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RecordingRef {
    /// The recording's name, its `.wav` without the extension (`50782_MV_1`).
    pub name: String,
    /// Where the stethoscope was.
    pub site: Site,
    /// The `.wav` file (4 kHz, 16-bit, mono).
    pub wav: PathBuf,
    /// The `.tsv` segmentation, when the patient file names one.
    pub tsv: Option<PathBuf>,
}

/// One patient (`PATIENT.txt`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Patient {
    /// Patient id (`50782`).
    pub id: String,
    /// The same child's id in the other campaign (`#Additional ID`).
    pub additional_id: Option<String>,
    /// `CC2014` or `CC2015`.
    pub campaign: String,
    /// Whether a murmur was heard.
    pub murmur: Murmur,
    /// Where it was heard (`#Murmur locations`, in the file's order).
    pub locations: Vec<Site>,
    /// Where it was loudest.
    pub most_audible: Option<Site>,
    /// The systolic murmur, when there is one.
    pub systolic: Option<MurmurDescription>,
    /// The diastolic murmur, when there is one.
    pub diastolic: Option<MurmurDescription>,
    /// The recordings, in the file's order.
    pub recordings: Vec<RecordingRef>,
}

/// `None` for the dataset's `nan` (or nothing), else the value.
fn given(value: &str) -> Option<&str> {
    let v = value.trim();
    (!v.is_empty() && v != "nan").then_some(v)
}

/// Whether `name` is a plain file name with the extension `ext`.
fn plain_file(name: &str, ext: &str) -> bool {
    name.len() > ext.len() + 1
        && name.ends_with(ext)
        && name[..name.len() - ext.len()].ends_with('.')
        && !name.contains(['/', '\\'])
}

/// Reads one `PATIENT.txt`. The files it names must sit beside it.
///
/// # Errors
/// [`CircorError::Read`] when it cannot be read; [`CircorError::Parse`] on a malformed line (the
/// first line, a recording line, a site, a murmur label, a `#` line without `:`, a repeated field,
/// a named file that does not exist, a recording count that differs from the first line's);
/// [`CircorError::Missing`] without a first line, `#Murmur` or `#Campaign`.
pub fn read_patient(path: &Path) -> Result<Patient, CircorError> {
    let text = std::fs::read_to_string(path).map_err(|source| CircorError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    let dir = path.parent().unwrap_or_else(|| Path::new("."));
    let parse = |line: usize, reason: String| CircorError::Parse {
        path: path.to_path_buf(),
        line,
        reason,
    };
    let missing = |reason: &str| CircorError::Missing {
        path: path.to_path_buf(),
        reason: reason.into(),
    };
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty());
    let (first_no, first) = lines
        .next()
        .ok_or_else(|| missing("empty: no first line `PATIENT N_RECORDINGS RATE`"))?;
    let head: Vec<&str> = first.split_whitespace().collect();
    let [id, count, rate] = head[..] else {
        return Err(parse(
            first_no,
            format!("expected `PATIENT N_RECORDINGS RATE`, got {first:?}"),
        ));
    };
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    if id != stem {
        return Err(parse(
            first_no,
            format!("patient {id:?} in a file named {stem:?}"),
        ));
    }
    let declared: usize = count.parse().map_err(|_| {
        parse(
            first_no,
            format!("recording count {count:?} is not a count"),
        )
    })?;
    if !rate.parse::<f64>().is_ok_and(|r| r.is_finite() && r > 0.0) {
        return Err(parse(
            first_no,
            format!("sampling rate {rate:?} is not a rate"),
        ));
    }

    let mut recordings = Vec::new();
    let mut fields: BTreeMap<&str, (usize, &str)> = BTreeMap::new();
    for (no, line) in lines {
        if let Some(field) = line.strip_prefix('#') {
            let (key, value) = field
                .split_once(':')
                .ok_or_else(|| parse(no, format!("{line:?} has no `:`")))?;
            if fields.insert(key.trim(), (no, value.trim())).is_some() {
                return Err(parse(no, format!("`#{}` given twice", key.trim())));
            }
            continue;
        }
        let parts: Vec<&str> = line.split_whitespace().collect();
        let (site, wav, tsv) = match parts[..] {
            [site, _hea, wav] => (site, wav, None),
            [site, _hea, wav, tsv] => (site, wav, Some(tsv)),
            _ => {
                return Err(parse(
                    no,
                    format!("expected `SITE NAME.hea NAME.wav [NAME.tsv]`, got {line:?}"),
                ))
            }
        };
        let site = Site::from_label(site)
            .ok_or_else(|| parse(no, format!("site {site:?} is not AV, PV, TV, MV or Phc")))?;
        let file = |name: &str, ext: &str| -> Result<PathBuf, CircorError> {
            if !plain_file(name, ext) {
                return Err(parse(
                    no,
                    format!("{name:?} is not a plain .{ext} file name"),
                ));
            }
            let p = dir.join(name);
            if p.is_file() {
                Ok(p)
            } else {
                Err(parse(
                    no,
                    format!("names {}, which does not exist", p.display()),
                ))
            }
        };
        let wav_path = file(wav, "wav")?;
        let tsv_path = tsv.map(|t| file(t, "tsv")).transpose()?;
        recordings.push(RecordingRef {
            name: wav[..wav.len() - 4].to_string(),
            site,
            wav: wav_path,
            tsv: tsv_path,
        });
    }
    if recordings.len() != declared {
        return Err(parse(
            first_no,
            format!("declares {declared} recordings, lists {}", recordings.len()),
        ));
    }

    let value = |key: &str| fields.get(key).and_then(|&(_, v)| given(v));
    let site_of = |key: &str, v: &str| -> Result<Site, CircorError> {
        Site::from_label(v).ok_or_else(|| {
            parse(
                fields[key].0,
                format!("`#{key}`: {v:?} is not AV, PV, TV, MV or Phc"),
            )
        })
    };
    let (murmur_no, murmur_text) = *fields
        .get("Murmur")
        .ok_or_else(|| missing("no `#Murmur:` line"))?;
    let murmur = Murmur::from_label(murmur_text).ok_or_else(|| {
        parse(
            murmur_no,
            format!("`#Murmur`: {murmur_text:?} is not Present, Absent or Unknown"),
        )
    })?;
    let campaign = value("Campaign")
        .ok_or_else(|| missing("no `#Campaign:` line (or it is nan)"))?
        .to_string();
    let locations = value("Murmur locations")
        .map(|v| {
            v.split('+')
                .map(|s| site_of("Murmur locations", s.trim()))
                .collect::<Result<Vec<_>, _>>()
        })
        .transpose()?
        .unwrap_or_default();
    let most_audible = value("Most audible location")
        .map(|v| site_of("Most audible location", v))
        .transpose()?;
    let description = |phase: &str| {
        let part = |what: &str| value(&format!("{phase} murmur {what}")).map(str::to_string);
        part("timing").map(|timing| MurmurDescription {
            timing,
            shape: part("shape"),
            grading: part("grading"),
            pitch: part("pitch"),
            quality: part("quality"),
        })
    };
    Ok(Patient {
        id: id.to_string(),
        additional_id: value("Additional ID").map(str::to_string),
        campaign,
        murmur,
        locations,
        most_audible,
        systolic: description("Systolic"),
        diastolic: description("Diastolic"),
        recordings,
    })
}

/// Orders patient ids as numbers (shorter first), whatever their length.
fn id_order(a: &str, b: &str) -> std::cmp::Ordering {
    (a.len(), a).cmp(&(b.len(), b))
}

/// Every patient of a folder: each `DIGITS.txt` file ([`read_patient`]), by id as a number.
///
/// # Errors
/// [`CircorError::Read`] when the folder cannot be listed; [`CircorError::Missing`] when it holds
/// no patient; [`read_patient`]'s errors for the first file that fails.
pub fn read_patients(dir: &Path) -> Result<Vec<Patient>, CircorError> {
    let entries = std::fs::read_dir(dir).map_err(|source| CircorError::Read {
        path: dir.to_path_buf(),
        source,
    })?;
    let mut ids: Vec<String> = entries
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|n| {
            let id = n.strip_suffix(".txt")?;
            (!id.is_empty() && id.bytes().all(|b| b.is_ascii_digit())).then(|| id.to_string())
        })
        .collect();
    ids.sort_by(|a, b| id_order(a, b));
    if ids.is_empty() {
        return Err(CircorError::Missing {
            path: dir.to_path_buf(),
            reason: "no PATIENT.txt file (DIGITS.txt)".into(),
        });
    }
    ids.iter()
        .map(|id| read_patient(&dir.join(format!("{id}.txt"))))
        .collect()
}

/// The root of `i` in a union-find forest, halving the path on the way.
fn root(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}

/// One group key per patient: patients linked by `#Additional ID` (the same child, recorded in
/// both campaigns), directly or through others, share a key, the smallest id among them (as a
/// number); an unlinked patient's key is its id. An additional id that is no patient of the list
/// still takes part, so two patients naming the same absent id share a key. For folds and
/// bootstrap draws by child ([`crate::resample::grouped_folds`]).
pub fn group_keys(patients: &[Patient]) -> Vec<String> {
    // Union-find over every id named, as a patient or as an additional id.
    let mut index: BTreeMap<&str, usize> = BTreeMap::new();
    for p in patients {
        for id in std::iter::once(p.id.as_str()).chain(p.additional_id.as_deref()) {
            let n = index.len();
            index.entry(id).or_insert(n);
        }
    }
    let mut parent: Vec<usize> = (0..index.len()).collect();
    for p in patients {
        if let Some(other) = &p.additional_id {
            let (a, b) = (
                root(&mut parent, index[p.id.as_str()]),
                root(&mut parent, index[other.as_str()]),
            );
            parent[a.max(b)] = a.min(b);
        }
    }
    let mut smallest: BTreeMap<usize, &str> = BTreeMap::new();
    for (&id, &i) in &index {
        let r = root(&mut parent, i);
        let slot = smallest.entry(r).or_insert(id);
        if id_order(id, slot).is_lt() {
            *slot = id;
        }
    }
    patients
        .iter()
        .map(|p| smallest[&root(&mut parent, index[p.id.as_str()])].to_string())
        .collect()
}

/// A state of the expert segmentation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum State {
    /// 0: not annotated (noise, or left out by the annotator).
    Unannotated,
    /// 1: the first heart sound.
    S1,
    /// 2: systole.
    Systole,
    /// 3: the second heart sound.
    S2,
    /// 4: diastole.
    Diastole,
}

impl State {
    /// The state of the dataset's code `0`-`4`.
    pub fn from_code(code: u8) -> Option<Self> {
        [
            Self::Unannotated,
            Self::S1,
            Self::Systole,
            Self::S2,
            Self::Diastole,
        ]
        .get(usize::from(code))
        .copied()
    }
}

/// One row of a `.tsv` segmentation.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Segment {
    /// Start, seconds from the recording's start.
    pub start_s: f64,
    /// End, seconds.
    pub end_s: f64,
    /// What the stretch is.
    pub state: State,
}

impl Segment {
    /// The middle of the stretch, seconds.
    pub fn centre_s(&self) -> f64 {
        f64::midpoint(self.start_s, self.end_s)
    }
}

/// Reads a `.tsv` segmentation: one `start_s end_s state` row a line (tabs or spaces), blank
/// lines skipped, rows kept in the file's order.
///
/// # Errors
/// [`CircorError::Read`] when it cannot be read; [`CircorError::Parse`] on a row without three
/// fields, a time that is not a finite number of seconds at or after zero, an end before its start,
/// or a state that is not 0-4.
pub fn read_segments(path: &Path) -> Result<Vec<Segment>, CircorError> {
    let text = std::fs::read_to_string(path).map_err(|source| CircorError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    let mut segments = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let parse = |reason: String| CircorError::Parse {
            path: path.to_path_buf(),
            line: i + 1,
            reason,
        };
        let parts: Vec<&str> = line.split_whitespace().collect();
        let [start, end, state] = parts[..] else {
            return Err(parse(format!(
                "expected `start_s end_s state`, got {line:?}"
            )));
        };
        let time = |v: &str| {
            v.parse::<f64>()
                .ok()
                .filter(|t| t.is_finite() && *t >= 0.0)
                .ok_or_else(|| parse(format!("{v:?} is not a time in seconds")))
        };
        let (start_s, end_s) = (time(start)?, time(end)?);
        if end_s < start_s {
            return Err(parse(format!(
                "ends at {end_s} s, before its start {start_s} s"
            )));
        }
        let state = state
            .parse::<u8>()
            .ok()
            .and_then(State::from_code)
            .ok_or_else(|| parse(format!("state {state:?} is not 0-4")))?;
        segments.push(Segment {
            start_s,
            end_s,
            state,
        });
    }
    Ok(segments)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample_dir() -> Option<PathBuf> {
        cardio_testkit::datasets(&[SAMPLE_FOLDER]).map(|root| root.join(SAMPLE_FOLDER))
    }

    /// A fresh folder under the system's temporary folder.
    fn temp_dir(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("cardio-circor-{tag}-{}", std::process::id()));
        std::fs::remove_dir_all(&dir).ok();
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn patient(id: &str, additional: Option<&str>) -> Patient {
        Patient {
            id: id.into(),
            additional_id: additional.map(str::to_string),
            campaign: "CC2015".into(),
            murmur: Murmur::Absent,
            locations: Vec::new(),
            most_audible: None,
            systolic: None,
            diastolic: None,
            recordings: Vec::new(),
        }
    }

    fn seg(start_s: f64, end_s: f64, code: u8) -> Segment {
        Segment {
            start_s,
            end_s,
            state: State::from_code(code).unwrap(),
        }
    }

    const PATIENT_TXT: &str = "7 1 4000\nAV 7_AV.hea 7_AV.wav 7_AV.tsv\n#Murmur: Absent\n\
                               #Campaign: CC2015\n#Additional ID: nan\n";

    #[test]
    fn the_murmur_tally_weighs_present_five_unknown_three_absent_one() {
        let mut t = MurmurTally::default();
        assert!(t.weighted_accuracy().is_nan());
        t.add(Murmur::Present, true);
        t.add(Murmur::Present, false);
        t.add(Murmur::Unknown, true);
        t.add(Murmur::Absent, false);
        t.add(Murmur::Absent, true);
        // (5 + 1) / (5 + 5 + 3 + 1 + 1)
        assert!((t.weighted_accuracy() - 6.0 / 15.0).abs() < 1e-12);
        assert_eq!((t.sensitivity(), t.specificity()), (0.5, 0.5));
    }

    #[test]
    fn the_sample_has_ten_patients_thirty_recordings_and_its_murmur_labels() {
        let Some(dir) = sample_dir() else {
            return;
        };

        let patients = read_patients(&dir).unwrap();

        assert_eq!(patients.len(), 10);
        let recordings: usize = patients.iter().map(|p| p.recordings.len()).sum();
        assert_eq!(recordings, 30);
        let count = |m: Murmur| patients.iter().filter(|p| p.murmur == m).count();
        assert_eq!(
            (
                count(Murmur::Present),
                count(Murmur::Absent),
                count(Murmur::Unknown)
            ),
            (4, 4, 2)
        );
        assert!(patients
            .iter()
            .all(|p| p.recordings.iter().all(|r| r.tsv.is_some())));
        let ids: Vec<&str> = patients.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(
            ids,
            [
                "50123", "50646", "50647", "50781", "84765", "85066", "85133", "85148", "85169",
                "85306"
            ]
        );
        // None is linked to another: ten children.
        assert_eq!(
            group_keys(&patients),
            ids.iter().map(ToString::to_string).collect::<Vec<_>>()
        );
    }

    #[test]
    fn patient_85133_is_read_field_by_field() {
        let Some(dir) = sample_dir() else {
            return;
        };

        let p = read_patient(&dir.join("85133.txt")).unwrap();

        let recording = |site: Site, tag: &str| RecordingRef {
            name: format!("85133_{tag}"),
            site,
            wav: dir.join(format!("85133_{tag}.wav")),
            tsv: Some(dir.join(format!("85133_{tag}.tsv"))),
        };
        assert_eq!(
            p,
            Patient {
                id: "85133".into(),
                additional_id: None,
                campaign: "CC2015".into(),
                murmur: Murmur::Present,
                locations: vec![Site::Av, Site::Mv, Site::Pv, Site::Tv],
                most_audible: Some(Site::Tv),
                systolic: Some(MurmurDescription {
                    timing: "Holosystolic".into(),
                    shape: Some("Plateau".into()),
                    grading: Some("III/VI".into()),
                    pitch: Some("Medium".into()),
                    quality: Some("Blowing".into()),
                }),
                diastolic: None,
                recordings: vec![
                    recording(Site::Av, "AV"),
                    recording(Site::Pv, "PV"),
                    recording(Site::Tv, "TV"),
                    recording(Site::Mv, "MV"),
                ],
            }
        );
    }

    #[test]
    fn a_sample_segmentation_starts_with_its_unannotated_stretch() {
        let Some(dir) = sample_dir() else {
            return;
        };

        let segments = read_segments(&dir.join("50123_MV.tsv")).unwrap();

        assert_eq!(segments[0], seg(0.0, 28.934, 0));
        assert_eq!(segments[1].state, State::Diastole);
        assert_eq!(segments[2].state, State::S1);
        assert!((segments[2].centre_s() - 29.100_268).abs() < 1e-9);
    }

    #[test]
    fn a_malformed_murmur_line_is_an_error_naming_the_file_and_line() {
        let dir = temp_dir("murmur");
        for f in ["7_AV.wav", "7_AV.tsv"] {
            std::fs::write(dir.join(f), b"").unwrap();
        }
        let path = dir.join("7.txt");
        std::fs::write(
            &path,
            PATIENT_TXT.replace("#Murmur: Absent", "#Murmur: Maybe"),
        )
        .unwrap();

        let err = read_patients(&dir).unwrap_err();

        match &err {
            CircorError::Parse { path: p, line, .. } => {
                assert_eq!(p, &path);
                assert_eq!(*line, 3);
            }
            other => panic!("{other:?}"),
        }
        assert!(err.to_string().contains("7.txt line 3"), "{err}");
        assert!(err.to_string().contains("\"Maybe\""), "{err}");
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn a_well_formed_temporary_patient_reads_and_its_faults_are_named() {
        let dir = temp_dir("faults");
        for f in ["7_AV.wav", "7_AV.tsv"] {
            std::fs::write(dir.join(f), b"").unwrap();
        }
        let path = dir.join("7.txt");
        let read = |text: &str| {
            std::fs::write(&path, text).unwrap();
            read_patient(&path)
        };
        let line_of = |r: Result<Patient, CircorError>| match r {
            Err(CircorError::Parse { line, .. }) => Some(line),
            _ => None,
        };

        let ok = read(PATIENT_TXT).unwrap();
        let bad_site = line_of(read(&PATIENT_TXT.replace("AV 7_AV.hea", "XX 7_AV.hea")));
        let absent_wav = line_of(read(&PATIENT_TXT.replace("7_AV.wav", "7_PV.wav")));
        let wrong_count = line_of(read(&PATIENT_TXT.replace("7 1 4000", "7 2 4000")));
        let no_colon = line_of(read(&PATIENT_TXT.replace("#Campaign: CC2015", "#Campaign")));
        let no_murmur = read(&PATIENT_TXT.replace("#Murmur: Absent\n", ""));

        assert_eq!(ok.recordings.len(), 1);
        assert_eq!(ok.murmur, Murmur::Absent);
        assert_eq!(bad_site, Some(2));
        assert_eq!(absent_wav, Some(2));
        assert_eq!(wrong_count, Some(1));
        assert_eq!(no_colon, Some(4));
        assert!(matches!(no_murmur, Err(CircorError::Missing { .. })));
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn a_malformed_segment_row_is_an_error_naming_the_file_and_line() {
        let dir = temp_dir("tsv");
        let path = dir.join("7_AV.tsv");
        let read = |text: &str| {
            std::fs::write(&path, text).unwrap();
            read_segments(&path)
        };

        let ok = read("0\t1.5\t0\n1.5\t1.6\t1\n\n").unwrap();
        let bad_state = read("0\t1.5\t0\n0\t0\t28\n").unwrap_err();
        let backwards = read("2\t1\t1\n").unwrap_err();
        let two_fields = read("0 1\n").unwrap_err();

        assert_eq!(ok, vec![seg(0.0, 1.5, 0), seg(1.5, 1.6, 1)]);
        assert!(
            bad_state
                .to_string()
                .ends_with("7_AV.tsv line 2: state \"28\" is not 0-4"),
            "{bad_state}"
        );
        assert!(matches!(backwards, CircorError::Parse { line: 1, .. }));
        assert!(matches!(two_fields, CircorError::Parse { line: 1, .. }));
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn a_missing_folder_is_an_error_naming_it() {
        let dir = std::env::temp_dir().join("cardio-circor-no-such-folder");

        let err = read_patients(&dir).unwrap_err();

        assert!(matches!(err, CircorError::Read { .. }));
        assert!(err.to_string().contains("cardio-circor-no-such-folder"));
    }

    #[test]
    fn patients_linked_by_additional_id_share_the_smallest_id_as_key() {
        let patients = [
            patient("50379", Some("23625")),
            patient("9979", None),
            patient("23625", Some("50379")),
            patient("100", Some("7")),
            patient("101", Some("7")),
        ];

        let keys = group_keys(&patients);

        assert_eq!(keys, ["23625", "9979", "23625", "7", "7"]);
    }
}
