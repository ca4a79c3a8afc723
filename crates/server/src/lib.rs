//! # cardio-server: the Cardio HTTP API and web app host, as a library
//!
//! [`app`] builds the whole axum [`Router`] from an [`AppState`]; tests drive it in-process and
//! the `cardio serve` command runs it through [`Application`]. One module per resource, each owning
//! its routes, request and response types and SQL:
//!
//! - [`auth`]: accounts, sessions, sign-in rate limiting, display name and password changes;
//! - [`notifications`]: in-app notifications, as the notification settings ask;
//! - [`profile`]: the profile page's activity figures; [`settings`]: each user's preferences,
//!   whose session timeout the session check enforces (against the [`clock`]);
//! - [`health`]: `GET /api/health`; [`system`]: storage figures and the release notes;
//!   [`data_settings`]: the server-wide Data Encryption and Auto Backup switches; [`backup`]: SQLite
//!   backups (API, `cardio backup`/`restore`, the daily task) of the database and the [`blobs`];
//! - [`patients`], [`clinical`], [`screenings`]: a doctor's patients, their clinical parameters and
//!   screening sessions, every query scoped to the doctor;
//! - [`dashboard`]: the home page's figures;
//! - [`predict`]: the clinical, ECG, PCG and PPG predictions of spec §7, served by the models of
//!   [`models`] and kept as [`analyses`] (uploaded files in the [`blobs`] store), and [`combine`],
//!   the rule of a screening's combined result (computed on every read of the screening);
//!   [`waveforms`] gives the viewers a window of a stored recording;
//! - [`fhir`]: a patient's data as a FHIR R4 Bundle;
//! - [`report_pdf`]: the PDF report of an analysis or a screening;
//! - [`reports`]: the Reports page's figures and the CSV export of the doctor's analyses;
//!   [`export_zip`]: Export All, a period's CSV, PDF reports and FHIR bundles as one streamed ZIP;
//! - [`reviews`]: the owning doctor's sign-off of an analysis or a screening, with its history;
//! - [`sharing`]: results a doctor shares with the patient's own (`user`) account;
//! - [`devices`]: network devices (tokens, heartbeats, pushed recordings in the doctor's inbox) and
//!   each user's connection log;
//! - [`audit`]: the trail of who read or changed which patient's data;
//! - [`openapi`]: the OpenAPI document the web client is generated from;
//! - [`web`]: the built React app with client-side routes falling back to `index.html`.
//!
//! Cross-cutting pieces: [`config`], [`db`] (SQLite or PostgreSQL through one code path),
//! [`error`] (the single error-to-response mapping), [`extract`] and [`csrf`].
//!
//! ```no_run
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let config = cardio_server::config::Config::default();
//! let app = cardio_server::Application::build(config).await?;
//! println!("listening on {}", app.local_addr());
//! app.run_until_stopped().await?;
//! # Ok(()) }
//! ```

pub mod analyses;
pub mod audit;
pub mod auth;
pub mod backup;
pub mod blobs;
pub mod client_addr;
pub mod clinical;
pub mod clock;
pub mod combine;
pub mod config;
pub mod csrf;
pub mod dashboard;
pub mod data_settings;
pub mod db;
pub mod devices;
pub mod error;
pub mod export_zip;
pub mod extract;
pub mod fhir;
pub mod health;
pub mod models;
pub mod notifications;
pub mod openapi;
pub mod orphans;
pub mod patients;
pub mod predict;
pub mod profile;
pub mod record_id;
pub mod recordings;
pub mod report_pdf;
pub mod reports;
pub mod reviews;
pub mod screenings;
pub mod serve;
pub mod settings;
pub mod sharing;
pub mod state;
pub mod system;
pub mod waveforms;
pub mod web;

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
        let blobs = blobs::BlobStore::open(&config.data_dir, config.data_key.clone())?;
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
