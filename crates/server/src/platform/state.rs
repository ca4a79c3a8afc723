//! `AppState`: what every handler can reach (the database, the configuration, the models and the
//! clock sessions are checked against).

use std::sync::Arc;

use crate::{
    platform::blobs::BlobStore,
    platform::clock::Clock,
    platform::config::Config,
    platform::db::Db,
    recordings::decode::{DecodeGate, WindowCache},
    recordings::registry::ModelRegistry,
};

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
    /// Writers take [`crate::admin::data_settings::blob_writer`], which applies the encryption setting.
    pub blobs: BlobStore,
    /// Slots for CPU-bound work (model inference): one per core. Fifty uploads at once would
    /// otherwise be fifty runnable threads on two cores, and the threads that hold the database's
    /// write connection or answer the other requests would wait their turn behind them.
    pub compute_slots: Arc<tokio::sync::Semaphore>,
    /// The memory gate every decode of a recording passes, uploads and read-backs alike
    /// (see [`crate::recordings::decode`]).
    pub decode_gate: DecodeGate,
    /// Decoded recordings with their marks, for the viewers and reports.
    pub window_cache: WindowCache,
    /// This process's id among the instances sharing the database (health, task leases).
    pub instance_id: Arc<str>,
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
            compute_slots: Arc::new(tokio::sync::Semaphore::new(
                std::thread::available_parallelism().map_or(2, std::num::NonZeroUsize::get),
            )),
            decode_gate: DecodeGate::default(),
            window_cache: WindowCache::default(),
            instance_id: crate::platform::ids::new().into(),
        }
    }
}
