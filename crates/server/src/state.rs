//! `AppState`: what every handler can reach (the database, the configuration, the models and the
//! clock sessions are checked against).

use std::sync::Arc;

use crate::{blobs::BlobStore, clock::Clock, config::Config, db::Db, models::ModelRegistry};

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
    /// The blob store under the data folder, with the configured data key (or the key file).
    /// Writers take [`crate::data_settings::blob_writer`], which applies the encryption setting.
    pub blobs: BlobStore,
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
            blobs: BlobStore::with_key(&config.data_dir, config.data_key.clone()),
            config: Arc::new(config),
            models: Arc::new(models),
            clock: Clock::system(),
        }
    }
}
