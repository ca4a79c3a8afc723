//! Server configuration: where to listen, which database, where files live, how cookies behave.
//!
//! Values come from command-line flags first, then the environment, then these defaults; the CLI
//! does the parsing and hands a finished [`Config`] to [`crate::Application::build`].

use std::{fmt, net::SocketAddr, path::PathBuf, time::Duration};

/// Sign-ups allowed per client address an hour unless the configuration says otherwise.
pub const MAX_SIGNUPS_PER_CLIENT: u32 = 10;

/// Default listening address.
pub const DEFAULT_ADDR: &str = "127.0.0.1:8080";
/// Default database: a SQLite file under `./data/`, created on first start.
pub const DEFAULT_DATABASE_URL: &str = "sqlite://./data/cardio.db";
/// Default lifetime of a session cookie.
pub const DEFAULT_SESSION_TTL: Duration = Duration::from_hours(12);

/// Default largest upload (a recording's files together), 256 MiB: a 24-hour Holter is
/// 50-250 MB (ISHNE, 3 leads at 200 Hz: 104 MB; EDF, 2 leads at 250 Hz in 16 bits: 86 MB).
/// Uploads are spooled to disk as they arrive, so the limit bounds disk, not memory, while one
/// arrives. Other bodies (JSON, avatars, documents) keep their own small limits.
pub const DEFAULT_MAX_UPLOAD_BYTES: usize = 256 * 1024 * 1024;

/// Default number of backups kept.
pub const DEFAULT_BACKUP_KEEP: usize = 7;

/// Default of [`Config::header_read_timeout`].
pub const DEFAULT_HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);
/// Default of [`Config::max_connections`]: far more than a clinic's browsers and devices open,
/// few enough that file descriptors and per-connection buffers stay bounded.
pub const DEFAULT_MAX_CONNECTIONS: usize = 1024;

/// Everything the server needs to start.
#[derive(Clone)]
pub struct Config {
    /// Address to bind; port 0 picks a free port.
    pub addr: SocketAddr,
    /// `sqlite://...` or `postgres://...`.
    pub database_url: String,
    /// Folder for uploads and recordings (the blob store).
    pub data_dir: PathBuf,
    /// Folder holding the built web app (`index.html` and assets).
    pub web_dir: PathBuf,
    /// Mark the session cookie `Secure` (set when served over https).
    pub secure_cookies: bool,
    /// How long a session lasts after sign-in.
    pub session_ttl: Duration,
    /// Extra origins (scheme://host[:port]) allowed to send state-changing requests, besides the
    /// server's own.
    pub allowed_origins: Vec<String>,
    /// Largest recording upload accepted; larger ones are answered 413.
    pub max_upload_bytes: usize,
    /// Outgoing mail: SMTP or the outbox folder, and the base of links in messages.
    pub mail: MailConfig,
    /// The data key (`CARDIO_DATA_KEY`); `None`: the key file in the data folder, created on first
    /// start. Its `Debug` shows only a fingerprint.
    pub data_key: Option<crate::platform::blobs::DataKey>,
    /// Where the blobs live when not in the data folder: `s3://bucket/prefix` (`CARDIO_BLOB_URL`),
    /// with the `AWS_*` variables of the environment.
    pub blob_url: Option<String>,
    /// How many SQLite backups to keep under `<data dir>/backups` (the newest ones).
    pub backup_keep: usize,
    /// Reverse proxies whose `X-Forwarded-For` names the client (see [`crate::platform::client_addr`]);
    /// empty: the header is ignored.
    pub trusted_proxies: Vec<ipnet::IpNet>,
    /// How long a connection may take to send a request's headers (and how long an idle
    /// keep-alive connection is kept) before it is closed: a slow sender cannot pin it.
    pub header_read_timeout: Duration,
    /// Connections served at once; further ones wait in the listen backlog until one closes.
    pub max_connections: usize,
    /// Sign-ups allowed per client address an hour.
    pub signups_per_hour: u32,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            addr: DEFAULT_ADDR.parse().expect("default address is valid"),
            database_url: DEFAULT_DATABASE_URL.to_owned(),
            data_dir: PathBuf::from("./data"),
            web_dir: PathBuf::from("./web/dist"),
            secure_cookies: false,
            session_ttl: DEFAULT_SESSION_TTL,
            allowed_origins: Vec::new(),
            max_upload_bytes: DEFAULT_MAX_UPLOAD_BYTES,
            mail: MailConfig::default(),
            data_key: None,
            blob_url: None,
            backup_keep: DEFAULT_BACKUP_KEEP,
            trusted_proxies: Vec::new(),
            header_read_timeout: DEFAULT_HEADER_READ_TIMEOUT,
            max_connections: DEFAULT_MAX_CONNECTIONS,
            signups_per_hour: MAX_SIGNUPS_PER_CLIENT,
        }
    }
}

impl fmt::Debug for Config {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Config")
            .field("addr", &self.addr)
            .field("database_url", &redact_url_password(&self.database_url))
            .field("data_dir", &self.data_dir)
            .field("blob_url", &self.blob_url)
            .field("web_dir", &self.web_dir)
            .field("secure_cookies", &self.secure_cookies)
            .field("session_ttl", &self.session_ttl)
            .field("allowed_origins", &self.allowed_origins)
            .field("max_upload_bytes", &self.max_upload_bytes)
            .field("mail", &self.mail)
            .field("data_key", &self.data_key)
            .field("backup_keep", &self.backup_keep)
            .field("trusted_proxies", &self.trusted_proxies)
            .field("header_read_timeout", &self.header_read_timeout)
            .field("max_connections", &self.max_connections)
            .field("signups_per_hour", &self.signups_per_hour)
            .finish()
    }
}

/// Replaces the password of a `scheme://user:password@host/...` URL with `***`, so that a
/// database URL can be logged.
pub fn redact_url_password(url: &str) -> String {
    let Some(scheme_end) = url.find("://") else {
        return url.to_owned();
    };
    let rest = &url[scheme_end + 3..];
    let authority_end = rest.find('/').unwrap_or(rest.len());
    let authority = &rest[..authority_end];
    let Some(at) = authority.rfind('@') else {
        return url.to_owned();
    };
    let userinfo = &authority[..at];
    match userinfo.find(':') {
        Some(colon) => format!(
            "{}://{}:***{}",
            &url[..scheme_end],
            &userinfo[..colon],
            &rest[at..]
        ),
        None => url.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redacts_the_password_of_a_database_url() {
        assert_eq!(
            redact_url_password("postgres://cardio:s3cret@db:5432/cardio"),
            "postgres://cardio:***@db:5432/cardio"
        );
    }

    #[test]
    fn leaves_urls_without_password_alone() {
        for url in [
            "sqlite://./data/cardio.db",
            "postgres://postgres@127.0.0.1/x",
        ] {
            assert_eq!(redact_url_password(url), url);
        }
    }

    #[test]
    fn debug_output_never_shows_the_password() {
        let config = Config {
            database_url: "postgres://u:topsecret@h/db".into(),
            ..Config::default()
        };
        let printed = format!("{config:?}");
        assert!(!printed.contains("topsecret"), "{printed}");
        assert!(printed.contains("postgres://u:***@h/db"));
    }
}

/// The sender address when none is configured.
pub const DEFAULT_FROM: &str = "Cardio <cardio@localhost>";
/// Mail settings: where messages go and what links in them point at.
#[derive(Clone)]
pub struct MailConfig {
    /// lettre's URL format: `smtps://user:pass@host:465` (TLS), `smtp://user:pass@host:587?tls=required`
    /// (STARTTLS) or `smtp://host:25` (no TLS, a relay on the same network); `None`: write messages to
    /// the outbox folder.
    pub smtp_url: Option<String>,
    /// The `From:` mailbox.
    pub from: String,
    /// The address people reach the web app at (`https://cardio.example.org`), the base of links in
    /// messages; `None`: `http://<listening address>`. Never taken from a request's headers, which
    /// the sender of a reset request controls.
    pub public_url: Option<String>,
}

impl Default for MailConfig {
    fn default() -> Self {
        Self {
            smtp_url: None,
            from: DEFAULT_FROM.to_owned(),
            public_url: None,
        }
    }
}

impl fmt::Debug for MailConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MailConfig")
            .field(
                "smtp_url",
                &self.smtp_url.as_deref().map(redact_url_password),
            )
            .field("from", &self.from)
            .field("public_url", &self.public_url)
            .finish()
    }
}
