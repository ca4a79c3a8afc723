//! # cardio-server: the Cardio HTTP API and web app host, as a library
//!
//! [`app`] builds the whole axum [`Router`] from an [`AppState`]; tests drive it in-process and
//! the `cardio serve` command runs it through [`Application`]. The modules are grouped by area
//! (the layering rule and the folder tree are in `docs/architecture.md`):
//!
//! - [`platform`]: what every area stands on: the database, the one error-to-response mapping,
//!   extractors, CSRF, the clock, ids, the configuration, the blob store, the application state,
//!   the server loop and the web app host;
//! - [`accounts`]: sign-in, sessions, two-factor, each user's settings, profile and notifications;
//! - [`records`]: a doctor's patients, clinical parameters, screenings, analyses, reviews, shared
//!   results, the Reports page and the dashboard, every query scoped to the doctor;
//! - [`recordings`]: predictions from uploaded or device-pushed recordings, the models that serve
//!   them, bounded-memory decoding and the viewers' waveform windows;
//! - [`exports`]: the ZIP export, FHIR bundles and PDF reports;
//! - [`admin`]: the audit trail, backups, data settings, orphaned-file sweeping and system figures;
//! - [`openapi`]: the OpenAPI document of every route (the web client is generated from it).
//!
//! ```no_run
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let config = cardio_server::platform::config::Config::default();
//! let app = cardio_server::Application::build(config).await?;
//! println!("listening on {}", app.local_addr());
//! app.run_until_stopped().await?;
//! # Ok(()) }
//! ```

pub mod accounts;
pub mod admin;
pub mod exports;
pub mod openapi;
pub mod platform;
pub mod recordings;
pub mod records;

use accounts::{auth, notifications, profile, settings};
use admin::{audit, backup, data_settings, orphans, system};
use exports::{fhir, pdf as report_pdf, zip as export_zip};
use platform::{blobs, config, csrf, db, error, health, serve, state, web};
use recordings::{devices, models, predict, waveforms};
use records::{analyses, clinical, dashboard, patients, reports, reviews, screenings, sharing};

use std::{net::SocketAddr, time::Duration};

use axum::{
    extract::{DefaultBodyLimit, Request},
    http::{header, HeaderValue, StatusCode},
    middleware,
    response::IntoResponse,
    routing::get,
    Router,
};
use tower_http::{
    compression::CompressionLayer, set_header::SetResponseHeaderLayer, timeout::TimeoutLayer,
    trace::TraceLayer,
};

pub use ipnet;
pub use state::AppState;

/// Largest JSON body the API accepts (uploads get their own limits).
pub const JSON_BODY_LIMIT: usize = 64 * 1024;
/// Requests taking longer are answered 408 (the prototype's client timeout, spec §9).
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// Builds the application: the API under `/api`, the web app everywhere else.
#[allow(clippy::needless_pass_by_value)] // taking the state by value is the natural call shape
pub fn app(state: AppState) -> Router {
    let api = Router::new()
        .merge(health::router())
        .nest("/auth", auth::router())
        .merge(patients::router())
        .merge(clinical::router())
        .merge(screenings::router())
        .merge(audit::router())
        .merge(dashboard::router())
        .merge(predict::router(state.config.max_upload_bytes))
        .merge(analyses::router())
        .merge(waveforms::router())
        .merge(reviews::router())
        .merge(sharing::router())
        .merge(reports::router())
        .merge(export_zip::router())
        .merge(fhir::router())
        .merge(system::router())
        .merge(data_settings::router())
        .merge(backup::router())
        .merge(report_pdf::router())
        .merge(models::router())
        .merge(profile::router())
        .merge(settings::router())
        .merge(notifications::router())
        .merge(devices::router(state.config.max_upload_bytes))
        .route("/openapi.json", get(openapi_document))
        .fallback(|| async { error::ApiError::NotFound("Not found.".into()) })
        .layer(middleware::from_fn_with_state(
            state.clone(),
            csrf::reject_cross_origin,
        ))
        .layer(DefaultBodyLimit::max(JSON_BODY_LIMIT))
        .layer(SetResponseHeaderLayer::overriding(
            header::CACHE_CONTROL,
            HeaderValue::from_static("no-store"),
        ))
        .with_state(state.clone());

    Router::new()
        .nest("/api", api)
        .merge(web::router(&state.config.web_dir))
        .layer(SetResponseHeaderLayer::overriding(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .layer(SetResponseHeaderLayer::overriding(
            header::X_FRAME_OPTIONS,
            HeaderValue::from_static("DENY"),
        ))
        .layer(CompressionLayer::new())
        .layer(TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            REQUEST_TIMEOUT,
        ))
        .layer(request_tracing())
}

async fn openapi_document() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "application/json")],
        openapi::json(),
    )
}

/// Request tracing that records the method, the path (never the query string, which may carry
/// search terms) and the status; no headers, no bodies, no cookies.
fn request_tracing() -> TraceLayer<
    tower_http::classify::SharedClassifier<tower_http::classify::ServerErrorsAsFailures>,
    impl Fn(&Request) -> tracing::Span + Clone,
> {
    TraceLayer::new_for_http().make_span_with(|req: &Request| {
        tracing::info_span!("request", method = %req.method(), path = %req.uri().path())
    })
}

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// The database could not be opened or migrated.
    #[error(transparent)]
    Db(#[from] db::DbError),
    /// The address could not be bound.
    #[error("cannot listen on the address: {0}")]
    Bind(#[source] std::io::Error),
    /// The data key (`CARDIO_DATA_KEY` or the key file) is unusable.
    #[error("data key: {0}")]
    DataKey(#[from] blobs::KeyError),
    /// The blob store URL is not usable.
    #[error("{0}")]
    BlobUrl(#[from] blobs::remote::UrlError),
    /// The blob store cannot be reached or was written with another key.
    #[error("the blob store {url} cannot be used: {reason}")]
    BlobStore {
        /// The store's URL.
        url: String,
        /// Why (in the message, not as a source, so that an error chain says it once).
        reason: blobs::BlobError,
    },
}

/// A bound, ready-to-run server.
pub struct Application {
    listener: tokio::net::TcpListener,
    router: Router,
    state: AppState,
}

impl Application {
    /// Opens the database, runs migrations, resolves the data key (creating the key file on first
    /// start) and binds the address (port 0 picks a free port).
    ///
    /// # Errors
    /// See [`StartError`].
    pub async fn build(config: config::Config) -> Result<Self, StartError> {
        let mut blobs = blobs::BlobStore::with_key(&config.data_dir, config.data_key.clone());
        let url = match &config.blob_url {
            Some(url) => {
                blobs = blobs.with_remote(blobs::remote::Remote::from_url(url)?);
                url.clone()
            }
            None => blobs.root().display().to_string(),
        };
        // The store must answer, and be sealed with this key, before the server takes requests
        // (the key file is made here on first start, never over sealed recordings).
        let check = blobs.clone();
        let unusable = |reason| StartError::BlobStore {
            url: url.clone(),
            reason,
        };
        tokio::task::spawn_blocking(move || check.check_key())
            .await
            .map_err(|e| unusable(blobs::BlobError::Remote(e.to_string())))?
            .map_err(|err| match err {
                blobs::BlobError::Key(key) => StartError::DataKey(key),
                other => unusable(other),
            })?;
        let db = db::Db::connect(&config.database_url).await?;
        let listener = tokio::net::TcpListener::bind(config.addr)
            .await
            .map_err(StartError::Bind)?;
        // The address actually bound (port 0 picks one): the base of e-mail links and the
        // server's own origin.
        let mut config = config;
        config.addr = listener.local_addr().map_err(StartError::Bind)?;
        let mut state = AppState::new(db, config);
        state.blobs = blobs;
        let router = app(state.clone());
        Ok(Self {
            listener,
            router,
            state,
        })
    }

    /// The address actually bound.
    pub fn local_addr(&self) -> SocketAddr {
        self.listener
            .local_addr()
            .expect("a bound listener has an address")
    }

    /// Serves until Ctrl-C or SIGTERM, then finishes open requests. The daily automatic backup
    /// ([`backup::auto_backup_task`]) and the orphan sweep ([`orphans::sweep_task`]) run beside
    /// it.
    ///
    /// # Errors
    /// None today (a failed accept is logged and retried); kept for callers' `?`.
    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        let auto_backup = tokio::spawn(backup::auto_backup_task(self.state.clone()));
        let sweep = tokio::spawn(orphans::sweep_task(self.state.clone()));
        let limits = serve::Limits {
            header_read_timeout: self.state.config.header_read_timeout,
            max_connections: self.state.config.max_connections,
        };
        serve::serve(self.listener, self.router, limits, shutdown_signal()).await;
        auto_backup.abort();
        sweep.abort();
        // A sweep cut short gives its lease back, so the next start (or another instance) sweeps.
        orphans::release_lease(&self.state).await;
        Ok(())
    }
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        if let Ok(mut sig) =
            tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        {
            sig.recv().await;
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_server_on_port_0_links_to_the_port_it_bound() {
        let dir = std::env::temp_dir().join(format!("cardio-start-{}", uuid::Uuid::new_v4()));
        let config = config::Config {
            addr: "127.0.0.1:0".parse().unwrap(),
            database_url: format!("sqlite://{}/cardio.db", dir.display()),
            data_dir: dir.clone(),
            ..config::Config::default()
        };

        let app = Application::build(config).await.unwrap();

        let bound = app.local_addr();
        assert_ne!(bound.port(), 0);
        assert_eq!(app.state.config.addr, bound);
        assert_eq!(
            auth::mail::public_base(&app.state.config),
            format!("http://{bound}")
        );
        drop(app);
        let _ = std::fs::remove_dir_all(dir);
    }
}
