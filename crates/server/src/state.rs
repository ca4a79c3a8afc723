//! `AppState`: what every handler can reach (the database, the configuration, the models and the
//! clock sessions are checked against).

use std::sync::Arc;

use crate::{clock::Clock, config::Config, db::Db, models::ModelRegistry};

/// Shared, cheaply cloned state of the application.
#[derive(Clone, Debug)]
pub struct AppState {
    /// The database pool.
    pub db: Db,
    /// The configuration the server started with.
    pub config: Arc<Config>,
    /// The screening models, loaded once at start.
    pub models: Arc<ModelRegistry>,
    /// The clock sessions are created and checked against (tests move it forward).
    pub clock: Clock,
}

impl AppState {
    /// Bundles a database and a configuration, and loads the models.
    pub fn new(db: Db, config: Config) -> Self {
        Self::with_models(db, config, ModelRegistry::load())
    }

    /// Bundles a database, a configuration and given models (tests replace a model this way).
    pub fn with_models(db: Db, config: Config, models: ModelRegistry) -> Self {
        Self {
            db,
            config: Arc::new(config),
            models: Arc::new(models),
            clock: Clock::system(),
        }
    }
}
