//! Loading the PhysioNet/CinC Challenge 2016 training set, all 3240 recordings at 1 kHz
//! (`$CARDIO_DATASETS/cinc2016`, sites a-f, with 300 of site e's normal recordings, and
//! `$CARDIO_DATASETS/cinc2016_site_e_rest`, the other 1658; see each `SOURCE.md`), and extracting
//! every recording's features, two threads at a time.
//!
//! Liu, C., Springer, D., Li, Q., et al. (2016), "An open access database for the evaluation of heart
//! sound algorithms", *Physiological Measurement* 37(12), 2181-2213.

use std::path::{Path, PathBuf};

use cardio_models::pcg_model::features::{self, Extracted};
use cardio_models::pcg_model::network::{self, Network};
use cardio_models::pcg_model::spectrogram;

use super::PcgError;

/// The six training sets (recording sites) of the challenge.
pub const SITES: [&str; 6] = ["a", "b", "c", "d", "e", "f"];

/// One labelled recording.
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    /// Site letter (`a`-`f`).
    pub site: String,
    /// Record name, e.g. `a0001`.
    pub name: String,
    /// Reference label: abnormal (`1`) or normal (`-1`).
    pub abnormal: bool,
    /// The `.wav` file.
    pub path: PathBuf,
}

/// The dataset folders under `$CARDIO_DATASETS` that together hold the 3240 recordings.
pub const FOLDERS: [&str; 2] = ["cinc2016", "cinc2016_site_e_rest"];

/// The labelled recordings of `root/cinc2016/training-{a..f}` (sites in order, names as listed),
/// then those of `root/cinc2016_site_e_rest/training-e`.
///
/// # Errors
/// [`PcgError::MissingDataset`] without either folder; [`PcgError::Parse`] on a malformed
/// `REFERENCE.csv` line.
pub fn load(root: &Path) -> Result<Vec<Record>, PcgError> {
    for folder in FOLDERS {
        let dir = root.join(folder);
        if !dir.is_dir() {
            return Err(PcgError::MissingDataset {
                path: dir.display().to_string(),
            });
        }
    }
    let mut records = Vec::new();
    let folders = SITES
        .iter()
        .map(|site| {
            (
                *site,
                root.join(FOLDERS[0]).join(format!("training-{site}")),
            )
        })
        .chain([("e", root.join(FOLDERS[1]).join("training-e"))]);
    for (site, folder) in folders {
        let reference = folder.join("REFERENCE.csv");
        let text = std::fs::read_to_string(&reference).map_err(|_| PcgError::MissingDataset {
            path: reference.display().to_string(),
        })?;
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() {
                continue;
            }
            let parse = |reason: &str| PcgError::Parse {
                file: reference.display().to_string(),
                line: i + 1,
                reason: reason.into(),
            };
            let (name, label) = line.split_once(',').ok_or_else(|| parse("no comma"))?;
            let abnormal = match label.trim() {
                "1" => true,
                "-1" => false,
                _ => return Err(parse("label is neither 1 nor -1")),
            };
            let name = name.trim().to_string();
            records.push(Record {
                site: site.into(),
                path: folder.join(format!("{name}.wav")),
                name,
                abnormal,
            });
        }
    }
    Ok(records)
}

/// The heart-sound network's probabilities of abnormal for one recording
/// ([`cardio_models::pcg_model::network`]), each `NaN` when the recording gives no spectrogram.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NetworkScores {
    /// By the network trained without the recording's outer CV fold.
    pub cv: f64,
    /// By the network trained without the recording's site.
    pub without_site: f64,
    /// By the deployed network (trained on every recording, this one too).
    pub deployed: f64,
    /// `inner[k]`: by the network of outer fold `k`'s inner CV that was trained without this
    /// recording's inner fold (`NaN` for the recording's own outer fold).
    pub inner: [f64; network::FOLDS],
}

impl NetworkScores {
    /// No score (a recording that gives no spectrogram).
    pub const NONE: Self = Self {
        cv: f64::NAN,
        without_site: f64::NAN,
        deployed: f64::NAN,
        inner: [f64::NAN; network::FOLDS],
    };
}

/// The networks that score one recording: its outer fold's, its site's, the deployed one and, for
/// each outer fold whose training it is in, the inner network trained without it.
#[derive(Debug, Clone, Copy)]
pub struct Scorers<'a> {
    /// Trained without the recording's outer fold.
    pub cv: &'a Network,
    /// Trained without the recording's site.
    pub without_site: &'a Network,
    /// Trained on every recording.
    pub deployed: &'a Network,
    /// Per outer fold, the inner network trained without the recording (`None` in its own fold).
    pub inner: [Option<&'a Network>; network::FOLDS],
}

/// What one recording gives: its features (or why it cannot be analysed) and the network's scores.
pub type Analysed = (Result<Extracted, String>, NetworkScores);

/// The features of one recording file, or the reason it cannot be analysed, and the scores of the
/// networks of `nets`.
///
/// # Errors
/// [`PcgError::Read`] when the file cannot be read.
pub fn extract_file(path: &Path, nets: &Scorers<'_>) -> Result<Analysed, PcgError> {
    let rec = cardio_formats::read_path(path).map_err(|e| PcgError::Read {
        path: path.display().to_string(),
        reason: e.to_string(),
    })?;
    let prepared = features::prepare(&rec);
    let spec = prepared
        .as_ref()
        .ok()
        .and_then(|p| spectrogram::spectrogram(&p.x));
    let score = |net: &Network| spec.as_ref().map_or(f64::NAN, |s| net.p_abnormal(s));
    let scores = NetworkScores {
        cv: score(nets.cv),
        without_site: score(nets.without_site),
        deployed: score(nets.deployed),
        inner: nets.inner.map(|n| n.map_or(f64::NAN, score)),
    };
    let extracted = prepared
        .and_then(|p| features::extract(&p))
        .map_err(|e| e.to_string());
    Ok((extracted, scores))
}

/// Features and network scores of every record, in order, on two threads; `folds` is each
/// record's outer CV fold (the inner folds follow from them,
/// [`super::validation::inner_folds_of_outer`]). A recording that cannot be analysed gets the
/// reason instead.
///
/// # Errors
/// [`PcgError::Read`] when a file cannot be read; [`PcgError::Network`] when the committed
/// network weights do not load.
pub fn extract_all(records: &[Record], folds: &[usize]) -> Result<Vec<Analysed>, PcgError> {
    const THREADS: usize = 2;
    let nets = network::networks().map_err(|e| PcgError::Network(e.to_string()))?;
    let inner_nets = network::inner_networks().map_err(|e| PcgError::Network(e.to_string()))?;
    let inner: Vec<Vec<Option<usize>>> = (0..network::FOLDS)
        .map(|k| super::validation::inner_folds_of_outer(records, folds, k))
        .collect();
    let job = |i: usize| -> Result<Analysed, PcgError> {
        let r = &records[i];
        let site = SITES.iter().position(|s| *s == r.site).unwrap_or(0);
        let scorers = Scorers {
            cv: &nets.folds[folds[i]],
            without_site: &nets.without_site[site],
            deployed: &nets.deployed,
            inner: std::array::from_fn(|k| inner[k][i].map(|j| &inner_nets.by_outer_fold[k][j])),
        };
        extract_file(&r.path, &scorers)
    };
    let job = &job;
    let parts: Vec<Result<Vec<(usize, Analysed)>, PcgError>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..THREADS)
            .map(|t| {
                s.spawn(move || {
                    (t..records.len())
                        .step_by(THREADS)
                        .map(|i| job(i).map(|a| (i, a)))
                        .collect::<Result<Vec<_>, _>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join().unwrap_or_else(|_| {
                    Err(PcgError::Read {
                        path: String::new(),
                        reason: "feature thread panicked".into(),
                    })
                })
            })
            .collect()
    });
    let mut out: Vec<Option<Analysed>> = vec![None; records.len()];
    for part in parts {
        for (i, a) in part? {
            out[i] = Some(a);
        }
    }
    Ok(out
        .into_iter()
        .map(|a| a.unwrap_or_else(|| (Err("not processed".into()), NetworkScores::NONE)))
        .collect())
}
