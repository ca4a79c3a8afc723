//! The screening models the prediction endpoints serve, loaded once when the server starts.
//!
//! Each model's committed parameters are compiled into `cardio-models` and parsed on first use;
//! [`ModelRegistry::load`] does that at start so that a broken parameter file is known before the
//! first request, and an endpoint whose model failed answers 503 ("Model not loaded. Please check
//! backend server.") instead of failing on every call.

use std::{fmt, sync::Arc};

use cardio_formats::Recording;
use cardio_models::prediction::{PredictError, Prediction};

/// A model that reads a recording.
pub trait SignalModel: Send + Sync {
    /// Predicts from one recording. CPU-bound: call it off the async executor.
    ///
    /// # Errors
    /// [`PredictError::Unusable`] when the recording cannot be judged.
    fn predict(&self, recording: &Recording) -> Result<Prediction, PredictError>;
}

/// A loaded model, or why it could not be loaded (logged at start, never sent to clients).
pub type Loaded<T> = Result<T, String>;

/// Every model of the server.
#[derive(Clone)]
pub struct ModelRegistry {
    /// The clinical risk model's parameters.
    pub clinical: Loaded<&'static cardio_models::clinical::ClinicalParams>,
    /// The ECG rhythm model.
    pub ecg: Loaded<Arc<dyn SignalModel>>,
    /// The heart-sound model.
    pub pcg: Loaded<Arc<dyn SignalModel>>,
    /// The pulse (PPG) model.
    pub ppg: Loaded<Arc<dyn SignalModel>>,
}

impl fmt::Debug for ModelRegistry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let state = |ok: bool| if ok { "loaded" } else { "not loaded" };
        f.debug_struct("ModelRegistry")
            .field("clinical", &state(self.clinical.is_ok()))
            .field("ecg", &state(self.ecg.is_ok()))
            .field("pcg", &state(self.pcg.is_ok()))
            .field("ppg", &state(self.ppg.is_ok()))
            .finish()
    }
}

impl ModelRegistry {
    /// Loads the committed parameters of every model; failures are logged and kept.
    pub fn load() -> Self {
        let registry = Self {
            clinical: cardio_models::clinical::params().map_err(|e| e.to_string()),
            ecg: Err("the ECG rhythm model is not part of this build".into()),
            pcg: Err("the heart-sound model is not part of this build".into()),
            ppg: Err("the PPG model is not part of this build".into()),
        };
        for (name, error) in [
            ("clinical", registry.clinical.as_ref().err()),
            ("ecg", registry.ecg.as_ref().err()),
            ("pcg", registry.pcg.as_ref().err()),
            ("ppg", registry.ppg.as_ref().err()),
        ] {
            if let Some(error) = error {
                tracing::error!(model = name, %error, "model not loaded");
            }
        }
        registry
    }
}
