//! Stored predictions ("analyses"): every result the prediction endpoints return is kept with the
//! user who asked, the optional patient and screening, the model and version, and for recordings
//! the stored file's hash. `GET /api/analyses` lists the signed-in user's own, newest first;
//! `GET /api/analyses/{id}` reads one (audited).

/// The 404 text for an analysis that is not the user's (or does not exist).
pub const ANALYSIS_NOT_FOUND: &str = "Analysis not found.";

/// Most rows one list call returns.
pub const MAX_LIMIT: i64 = 500;

pub mod routes;
pub mod store;

pub use routes::router;
