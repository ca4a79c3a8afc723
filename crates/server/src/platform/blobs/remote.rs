//! The S3-compatible backend of the blob store, through the `object_store` crate: the same sealed
//! bytes as the local folder, under `<prefix>/<first two hex digits>/<SHA-256 hex>` in a bucket,
//! and a small marker object (`<prefix>/cardio-store.json`) naming the fingerprint of the data key
//! the store is written with, so that an instance given another key refuses to start instead of
//! failing on every read.
//!
//! The store's callers are blocking (they run on Tokio's blocking pool or in the CLI), and
//! `object_store` is asynchronous: every call runs on a small runtime owned by the store and the
//! caller waits for its answer on a channel, which works from any thread (a blocking-pool thread, a
//! plain thread, or, as a last resort, an async worker that it then blocks).
//!
//! A bucket that does not answer must not hold a request until the server's own request timeout
//! (30 s, answered 408): every call is given [`CALL_TIMEOUT`] in all, retries included, and a call
//! that runs out is a [`BlobError::Remote`] (503, "The recording store is not answering").
//!
//! Configuration is the standard AWS one: `s3://bucket/prefix` with `AWS_ENDPOINT_URL`,
//! `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_REGION` and `AWS_ALLOW_HTTP` read from the
//! environment ([`object_store::aws::AmazonS3Builder::from_env`]).

use std::{
    future::Future,
    sync::Arc,
    time::{Duration, SystemTime},
};

use object_store::{
    aws::{AmazonS3Builder, AmazonS3ConfigKey},
    path::Path as ObjectPath,
    BackoffConfig, ClientConfigKey, ObjectStore, ObjectStoreExt as _, PutPayload, RetryConfig,
};
use tokio_stream::StreamExt as _;

use super::BlobError;

/// The marker object's name under the prefix.
pub const MARKER: &str = "cardio-store.json";

/// The longest one call on the bucket may take, retries included: well under the server's request
/// timeout (`crate::REQUEST_TIMEOUT`, 30 s), so that a frozen bucket is answered 503 with its
/// reason, not 408 after the whole request time.
pub const CALL_TIMEOUT: Duration = Duration::from_secs(10);

/// A bucket (and prefix) holding blobs.
pub struct Remote {
    store: Arc<dyn ObjectStore>,
    prefix: String,
    url: String,
    runtime: OwnedRuntime,
    call_timeout: Duration,
}

impl std::fmt::Debug for Remote {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Remote")
            .field("url", &self.url)
            .finish_non_exhaustive()
    }
}

/// One object of a listing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listed {
    /// The blob's name (its SHA-256 hex), or the object's last path segment for other objects.
    pub name: String,
    /// Size in bytes as stored.
    pub size: u64,
    /// When it was last written.
    pub modified: SystemTime,
}

/// Why a blob URL is not usable.
#[derive(Debug, thiserror::Error)]
pub enum UrlError {
    /// Not `s3://bucket[/prefix]`.
    #[error("the blob store URL must be s3://bucket or s3://bucket/prefix, not {0:?}")]
    Scheme(String),
    /// The client could not be built from the URL and the AWS_* variables.
    #[error("cannot configure the S3 client for {url}: {message}")]
    Client {
        /// The URL.
        url: String,
        /// What `object_store` said.
        message: String,
    },
    /// The runtime for the client could not be started.
    #[error("cannot start the S3 client's runtime: {0}")]
    Runtime(#[from] std::io::Error),
}

/// Splits `s3://bucket/some/prefix` into the bucket and the prefix (no leading or trailing `/`).
///
/// # Errors
/// [`UrlError::Scheme`] for anything that is not an `s3://` URL with a bucket.
pub fn parse_url(url: &str) -> Result<(String, String), UrlError> {
    let rest = url
        .strip_prefix("s3://")
        .ok_or_else(|| UrlError::Scheme(url.to_owned()))?;
    let (bucket, prefix) = rest.split_once('/').unwrap_or((rest, ""));
    if bucket.is_empty() || bucket.contains(['?', '#', ' ']) {
        return Err(UrlError::Scheme(url.to_owned()));
    }
    Ok((bucket.to_owned(), prefix.trim_matches('/').to_owned()))
}

impl Remote {
    /// A client of `s3://bucket/prefix`, configured from the `AWS_*` environment variables.
    ///
    /// # Errors
    /// [`UrlError`] when the URL or the configuration is not usable (nothing is requested yet).
    pub fn from_url(url: &str) -> Result<Self, UrlError> {
        Self::build(url, AmazonS3Builder::from_env(), CALL_TIMEOUT)
    }

    /// A client of `url` from `builder`, whose calls give up after `call_timeout` (retries and
    /// each attempt bounded within it).
    fn build(
        url: &str,
        builder: AmazonS3Builder,
        call_timeout: Duration,
    ) -> Result<Self, UrlError> {
        let (bucket, prefix) = parse_url(url)?;
        // Two TLS back ends are linked (the mail client's and the S3 client's): name the one
        // every client uses, or rustls refuses to pick (a "builder error" on the first request).
        // Already named (a second store in this process) is fine.
        let _ = rustls::crypto::ring::default_provider().install_default();
        let attempt = call_timeout / 2;
        let store = builder
            .with_bucket_name(bucket)
            // Set key by key: `with_client_options` would drop what the environment set
            // (AWS_ALLOW_HTTP among them).
            .with_config(
                AmazonS3ConfigKey::Client(ClientConfigKey::ConnectTimeout),
                format!("{}ms", attempt.min(Duration::from_secs(3)).as_millis()),
            )
            .with_config(
                AmazonS3ConfigKey::Client(ClientConfigKey::Timeout),
                format!("{}ms", attempt.as_millis()),
            )
            .with_retry(RetryConfig {
                backoff: BackoffConfig::default(),
                max_retries: 2,
                retry_timeout: call_timeout,
            })
            .build()
            .map_err(|e| UrlError::Client {
                url: url.to_owned(),
                message: e.to_string(),
            })?;
        Ok(Self {
            store: Arc::new(store),
            prefix,
            url: url.to_owned(),
            runtime: OwnedRuntime::new()?,
            call_timeout,
        })
    }

    /// The URL the store was made from.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The object path of a name under the prefix.
    fn path(&self, name: &str) -> ObjectPath {
        if self.prefix.is_empty() {
            ObjectPath::from(name)
        } else {
            ObjectPath::from(format!("{}/{name}", self.prefix))
        }
    }

    /// The object path of a blob.
    fn blob_path(&self, sha256: &str) -> ObjectPath {
        self.path(&format!("{}/{sha256}", &sha256[..2]))
    }

    /// Runs `future` on the store's runtime and waits for it.
    fn block<T: Send + 'static>(
        &self,
        future: impl Future<Output = Result<T, object_store::Error>> + Send + 'static,
    ) -> Result<T, object_store::Error> {
        let (tx, rx) = std::sync::mpsc::sync_channel(1);
        let task = self.runtime.handle().spawn(async move {
            let _ = tx.send(future.await);
        });
        match rx.recv_timeout(self.call_timeout) {
            Ok(answer) => answer,
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                task.abort();
                Err(object_store::Error::Generic {
                    store: "S3",
                    source: format!("no answer in {} s", self.call_timeout.as_secs_f64()).into(),
                })
            }
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                Err(object_store::Error::Generic {
                    store: "S3",
                    source: "the request was dropped".into(),
                })
            }
        }
    }

    /// Writes `content` (already sealed) as the blob `sha256`, replacing what is there.
    pub fn put(&self, sha256: &str, content: Vec<u8>) -> Result<(), BlobError> {
        let (store, path) = (self.store.clone(), self.blob_path(sha256));
        self.block(async move { store.put(&path, PutPayload::from(content)).await })
            .map(|_| ())
            .map_err(|e| remote_error(&e))
    }

    /// The stored bytes of the blob `sha256`; a missing object is an I/O `NotFound`.
    pub fn get(&self, sha256: &str) -> Result<Vec<u8>, BlobError> {
        self.get_path(self.blob_path(sha256))
    }

    fn get_path(&self, path: ObjectPath) -> Result<Vec<u8>, BlobError> {
        let store = self.store.clone();
        self.block(async move { store.get(&path).await?.bytes().await })
            .map(|bytes| bytes.to_vec())
            .map_err(|e| remote_error(&e))
    }

    /// The size and time of the blob `sha256`, `None` when it is missing or cannot be asked.
    pub fn stamp(&self, sha256: &str) -> Option<(u64, SystemTime)> {
        let (store, path) = (self.store.clone(), self.blob_path(sha256));
        let meta = self.block(async move { store.head(&path).await }).ok()?;
        Some((meta.size, meta.last_modified.into()))
    }

    /// Every object under the prefix whose last segment is a SHA-256 hex name.
    pub fn list(&self) -> Result<Vec<Listed>, BlobError> {
        let is_blob = |name: &str| name.len() == 64 && name.bytes().all(|b| b.is_ascii_hexdigit());
        Ok(self
            .objects_under(&self.prefix)?
            .into_iter()
            .filter_map(|meta| {
                let name = meta.location.filename().filter(|n| is_blob(n))?.to_owned();
                Some(Listed {
                    name,
                    size: meta.size,
                    modified: meta.last_modified.into(),
                })
            })
            .collect())
    }

    /// Every object under the folder `prefix` (the whole bucket when empty), as the store lists them.
    fn objects_under(&self, prefix: &str) -> Result<Vec<object_store::ObjectMeta>, BlobError> {
        let store = self.store.clone();
        let prefix = prefix.trim_matches('/');
        let prefix = (!prefix.is_empty()).then(|| ObjectPath::from(prefix));
        self.block(async move {
            let mut objects = Vec::new();
            let mut stream = store.list(prefix.as_ref());
            while let Some(meta) = stream.next().await {
                objects.push(meta?);
            }
            Ok(objects)
        })
        .map_err(|e| remote_error(&e))
    }

    /// Removes the blob `sha256` (a missing one is removed already).
    pub fn delete(&self, sha256: &str) -> Result<(), BlobError> {
        let (store, path) = (self.store.clone(), self.blob_path(sha256));
        match self.block(async move { store.delete(&path).await }) {
            Ok(()) | Err(object_store::Error::NotFound { .. }) => Ok(()),
            Err(e) => Err(remote_error(&e)),
        }
    }

    /// The key fingerprint the marker names, `None` when there is no marker yet.
    pub fn marker_fingerprint(&self) -> Result<Option<String>, BlobError> {
        match self.get_path(self.path(MARKER)) {
            Ok(bytes) => {
                let marker: Marker = serde_json::from_slice(&bytes).map_err(|e| {
                    BlobError::Remote(format!("{MARKER} in {} is not readable: {e}", self.url))
                })?;
                Ok(Some(marker.key_fingerprint))
            }
            Err(BlobError::Io(err)) if err.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(err) => Err(err),
        }
    }

    /// Writes the marker naming `fingerprint`.
    pub fn write_marker(&self, fingerprint: &str) -> Result<(), BlobError> {
        let text = serde_json::to_vec_pretty(&Marker {
            key_fingerprint: fingerprint.to_owned(),
        })
        .expect("a marker serialises");
        let (store, path) = (self.store.clone(), self.path(MARKER));
        self.block(async move { store.put(&path, PutPayload::from(text)).await })
            .map(|_| ())
            .map_err(|e| remote_error(&e))
    }
}

/// Reading any object of the bucket by its full key, whatever the prefix: what `cardio predict`
/// uses to read recordings kept in a bucket.
impl Remote {
    /// The keys of every object under the folder `prefix` (path segments: `a/b` lists `a/b/...`,
    /// not `a/bc`; the whole bucket when empty), in key order.
    ///
    /// # Errors
    /// The bucket cannot be listed.
    pub fn keys_under(&self, prefix: &str) -> Result<Vec<String>, BlobError> {
        let mut keys: Vec<String> = self
            .objects_under(prefix)?
            .into_iter()
            .map(|meta| meta.location.to_string())
            .collect();
        keys.sort_unstable();
        Ok(keys)
    }

    /// Whether the object `key` exists.
    ///
    /// # Errors
    /// The bucket failing (a missing object is `false`).
    pub fn exists(&self, key: &str) -> Result<bool, BlobError> {
        let (store, path) = (self.store.clone(), ObjectPath::from(key));
        match self.block(async move { store.head(&path).await }) {
            Ok(_) => Ok(true),
            Err(object_store::Error::NotFound { .. }) => Ok(false),
            Err(e) => Err(remote_error(&e)),
        }
    }

    /// The bytes of the object `key`, refused without reading it when larger than `limit`.
    ///
    /// # Errors
    /// A missing object (I/O `NotFound`), one larger than `limit` (I/O `FileTooLarge`), or the
    /// bucket failing.
    pub fn object(&self, key: &str, limit: u64) -> Result<Vec<u8>, BlobError> {
        let (store, path) = (self.store.clone(), ObjectPath::from(key));
        let meta = {
            let (store, path) = (store.clone(), path.clone());
            self.block(async move { store.head(&path).await })
                .map_err(|e| remote_error(&e))?
        };
        if meta.size > limit {
            return Err(BlobError::Io(std::io::Error::new(
                std::io::ErrorKind::FileTooLarge,
                format!("{} bytes, more than {limit}", meta.size),
            )));
        }
        self.get_path(path)
    }
}

/// What the marker object holds (and the local store's marker file, [`super::BlobStore`]).
#[derive(serde::Serialize, serde::Deserialize)]
pub(super) struct Marker {
    /// [`super::DataKey::fingerprint`] of the key the store's blobs are sealed with.
    pub(super) key_fingerprint: String,
}

/// A missing object is an I/O `NotFound` (as for the local folder); anything else names the store.
fn remote_error(err: &object_store::Error) -> BlobError {
    match err {
        object_store::Error::NotFound { .. } => BlobError::Io(std::io::Error::new(
            std::io::ErrorKind::NotFound,
            "no such object",
        )),
        other => BlobError::Remote(other.to_string()),
    }
}

/// A runtime the store's requests run on, shut down in the background when dropped (dropping a
/// runtime from async code would panic).
struct OwnedRuntime(Option<tokio::runtime::Runtime>);

impl OwnedRuntime {
    fn new() -> std::io::Result<Self> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("cardio-s3")
            .enable_all()
            .build()?;
        Ok(Self(Some(runtime)))
    }

    fn handle(&self) -> &tokio::runtime::Handle {
        self.0.as_ref().expect("present until dropped").handle()
    }
}

impl Drop for OwnedRuntime {
    fn drop(&mut self) {
        if let Some(runtime) = self.0.take() {
            runtime.shutdown_background();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A bucket that accepts connections and never answers: a call gives up after its timeout with
    /// a remote error (503 for the request), however long the bucket stays silent.
    #[test]
    fn a_frozen_bucket_is_a_remote_error_within_the_call_timeout() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let held = std::thread::spawn(move || {
            let mut open = Vec::new();
            for stream in listener.incoming().take(8) {
                open.push(stream);
            }
            std::thread::sleep(Duration::from_secs(5));
        });
        let builder = AmazonS3Builder::new()
            .with_endpoint(format!("http://127.0.0.1:{port}"))
            .with_allow_http(true)
            .with_region("us-east-1")
            .with_access_key_id("test")
            .with_secret_access_key("test");
        let remote = Remote::build("s3://frozen", builder, Duration::from_secs(2)).unwrap();
        let started = std::time::Instant::now();
        let err = remote
            .put(&"ab".repeat(32), b"sealed".to_vec())
            .unwrap_err();
        let waited = started.elapsed();
        assert!(
            matches!(&err, BlobError::Remote(m) if m.contains("no answer") || m.contains("timed out") || m.contains("timeout")),
            "{err:?}"
        );
        assert!(waited >= Duration::from_secs(1), "waited {waited:?}");
        assert!(waited < Duration::from_secs(4), "waited {waited:?}");
        assert_eq!(CALL_TIMEOUT, Duration::from_secs(10));
        assert!(CALL_TIMEOUT < crate::REQUEST_TIMEOUT);
        drop(held);
    }

    #[test]
    fn urls_name_a_bucket_and_an_optional_prefix() {
        assert_eq!(
            parse_url("s3://records").unwrap(),
            ("records".into(), String::new())
        );
        assert_eq!(
            parse_url("s3://records/clinic-a/blobs/").unwrap(),
            ("records".into(), "clinic-a/blobs".into())
        );
        for bad in ["", "records", "file:///tmp/x", "s3://", "s3:///prefix"] {
            let err = parse_url(bad).unwrap_err();
            assert_eq!(
                err.to_string(),
                format!(
                    "the blob store URL must be s3://bucket or s3://bucket/prefix, not {bad:?}"
                )
            );
        }
    }
}
