//! `AppState`: what every handler can reach (the database and the configuration).

use std::sync::Arc;

use crate::{config::Config, db::Db};

/// Shared, cheaply cloned state of the application.
#[derive(Clone, Debug)]
pub struct AppState {
    /// The database pool.
    pub db: Db,
    /// The configuration the server started with.
    pub config: Arc<Config>,
}

impl AppState {
    /// Bundles a database and a configuration.
    pub fn new(db: Db, config: Config) -> Self {
        Self {
            db,
            config: Arc::new(config),
        }
    }
}
