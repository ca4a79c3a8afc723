//! The inputs of `cardio predict ecg|pcg|ppg`: files on disk, or objects of an S3-compatible bucket
//! named by `s3://bucket/key` (one object) or `s3://bucket/prefix/` (every recording under it, in
//! key order, so that every machine of a sharded run sees the same list).
//!
//! Under a prefix, a WFDB record counts once, by its `.hea` (its signal and annotation files, the
//! objects with the header's stem, are read through it), and objects whose name has no extension
//! (`RECORDS`, `ANSWERS`) or starts with a dot are left out. The bucket is reached with the
//! standard `AWS_ENDPOINT_URL`, `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_REGION` and
//! `AWS_ALLOW_HTTP` variables.

use std::{
    collections::{HashMap, HashSet},
    path::PathBuf,
    sync::Arc,
};

use anyhow::{anyhow, Context};
use cardio_formats::{FormatError, ReadOptions, Recording, MAX_FILE_BYTES};
use cardio_server::platform::blobs::{remote::Remote, BlobError};

/// One recording to score.
#[derive(Clone, Debug)]
pub enum Input {
    /// A file on disk (a WFDB record by its `.hea`).
    Local(PathBuf),
    /// An object of a bucket.
    Object {
        /// The bucket's client.
        bucket: Arc<Remote>,
        /// `s3://bucket/key`, as printed.
        url: String,
        /// The object's key.
        key: String,
    },
}

impl Input {
    /// What the output rows call it: the path as given, or the object's URL.
    pub fn name(&self) -> String {
        match self {
            Self::Local(path) => path.display().to_string(),
            Self::Object { url, .. } => url.clone(),
        }
    }

    /// Reads the recording.
    ///
    /// # Errors
    /// The file or object cannot be read, or the reader refuses it; a file whose rate cannot be
    /// known is told which flag gives it.
    pub fn read(&self, options: &ReadOptions) -> anyhow::Result<Recording> {
        let read = match self {
            Self::Local(path) => cardio_formats::read_path_with(path, options),
            Self::Object { bucket, key, .. } => read_object(bucket, key, options),
        };
        read.map_err(|err| match err {
            FormatError::NoSamplingRate(_) => anyhow!("{err}: pass --sampling-rate"),
            other => other.into(),
        })
    }
}

/// The inputs the arguments name, in order: paths as they are, `s3://` URLs resolved to their
/// object or to the recordings under their prefix.
///
/// # Errors
/// An `s3://` URL that is malformed, whose bucket cannot be listed, or under which nothing is.
pub fn resolve(args: &[PathBuf]) -> anyhow::Result<Vec<Input>> {
    let mut buckets: HashMap<String, Arc<Remote>> = HashMap::new();
    let mut inputs = Vec::with_capacity(args.len());
    for arg in args {
        let Some(url) = arg.to_str().filter(|s| s.starts_with("s3://")) else {
            inputs.push(Input::Local(arg.clone()));
            continue;
        };
        let (bucket_name, key) = cardio_server::platform::blobs::remote::parse_url(url)?;
        let bucket = if let Some(bucket) = buckets.get(&bucket_name) {
            bucket.clone()
        } else {
            let bucket = Arc::new(Remote::from_url(&format!("s3://{bucket_name}"))?);
            buckets.insert(bucket_name.clone(), bucket.clone());
            bucket
        };
        let object = |key: String| Input::Object {
            bucket: bucket.clone(),
            url: format!("s3://{bucket_name}/{key}"),
            key,
        };
        let list = |prefix: &str| {
            bucket
                .keys_under(prefix)
                .with_context(|| format!("cannot list {url}"))
        };
        // One object when the key names one (and the URL does not end in a slash), else a prefix.
        let is_object = !key.is_empty()
            && !url.ends_with('/')
            && bucket
                .exists(&key)
                .with_context(|| format!("cannot read {url}"))?;
        if is_object {
            inputs.push(object(key));
            continue;
        }
        let found = recordings_among(list(&key)?);
        if found.is_empty() {
            anyhow::bail!("{url}: no object of that name and no recording under it");
        }
        inputs.extend(found.into_iter().map(object));
    }
    Ok(inputs)
}

/// The keys that are recordings: a WFDB record by its header only, no extension-less or hidden
/// names.
pub fn recordings_among(keys: Vec<String>) -> Vec<String> {
    let split = |key: &str| -> (String, String, String) {
        let (dir, name) = key.rsplit_once('/').unwrap_or(("", key));
        let (stem, ext) = name.rsplit_once('.').unwrap_or((name, ""));
        (dir.to_owned(), stem.to_owned(), ext.to_ascii_lowercase())
    };
    let records: HashSet<(String, String)> = keys
        .iter()
        .map(|k| split(k))
        .filter(|(_, _, ext)| ext == "hea")
        .map(|(dir, stem, _)| (dir, stem))
        .collect();
    keys.into_iter()
        .filter(|key| {
            let (dir, stem, ext) = split(key);
            let hidden = key.rsplit('/').next().is_some_and(|n| n.starts_with('.'));
            !hidden && !ext.is_empty() && (ext == "hea" || !records.contains(&(dir, stem)))
        })
        .collect()
}

/// Reads an object, its companion files (a WFDB record's signal files, a MATLAB file's header)
/// from the same "folder" of the bucket.
fn read_object(
    bucket: &Remote,
    key: &str,
    options: &ReadOptions,
) -> Result<Recording, FormatError> {
    let (dir, name) = key.rsplit_once('/').map_or(("", key), |(d, n)| (d, n));
    let fetch = |key: &str| {
        bucket.object(key, MAX_FILE_BYTES).map_err(|err| match err {
            BlobError::Io(io) if io.kind() == std::io::ErrorKind::FileTooLarge => {
                FormatError::TooLarge(format!("{key} (larger than {MAX_FILE_BYTES} bytes)"))
            }
            other => FormatError::Io {
                path: key.to_owned(),
                reason: std::io::Error::other(other.to_string()),
            },
        })
    };
    let bytes = fetch(key)?;
    cardio_formats::read_with_siblings(&bytes, Some(name), options, |file| {
        if dir.is_empty() {
            fetch(file)
        } else {
            fetch(&format!("{dir}/{file}"))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_prefix_lists_each_record_once_and_no_bookkeeping_files() {
        let keys = [
            "mitdb/100.atr",
            "mitdb/100.dat",
            "mitdb/100.hea",
            "mitdb/RECORDS",
            "mitdb/.hidden.csv",
            "cinc/A0001.hea",
            "cinc/A0001.mat",
            "ppg/s1.csv",
            "pcg/a0001.wav",
            "pcg/a0001.hea",
            "pcg/a0002.wav",
        ]
        .map(String::from)
        .to_vec();
        assert_eq!(
            recordings_among(keys),
            [
                "mitdb/100.hea",
                "cinc/A0001.hea",
                "ppg/s1.csv",
                "pcg/a0001.hea",
                "pcg/a0002.wav"
            ]
        );
    }

    #[test]
    fn paths_stay_paths_and_bad_urls_are_refused() {
        let inputs = resolve(&[PathBuf::from("a.csv"), PathBuf::from("dir/b.wav")]).unwrap();
        let names: Vec<String> = inputs.iter().map(Input::name).collect();
        assert_eq!(names, ["a.csv", "dir/b.wav"]);
        let err = resolve(&[PathBuf::from("s3://")]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the blob store URL must be s3://bucket or s3://bucket/prefix, not \"s3://\""
        );
    }
}
