//! The registry of the screening models the prediction endpoints serve, loaded once when the
//! server starts, and each model's headline figures for `GET /api/models`.
//!
//! Each model's committed parameters are compiled into `cardio-models` and parsed on first use;
//! [`ModelRegistry::load`] does that at start so that a broken parameter file is known before the
//! first request, and an endpoint whose model failed answers 503 ("Model not loaded. Please check
//! backend server.") instead of failing on every call.

use std::{fmt, sync::Arc};

use cardio_formats::{Recording, StreamedRecord};
use cardio_models::prediction::{PredictError, Prediction};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// One validated figure of a model card.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Metric {
    /// Machine code, e.g. `cv_auroc`, `cv_mean_f1_nao`, `cv_macc`, `cv_af_sensitivity`.
    pub code: String,
    /// The measured value, 0-1.
    pub value: f64,
    /// Lower end of the 95% confidence interval, when known.
    pub ci_low: Option<f64>,
    /// Upper end of the 95% confidence interval, when known.
    pub ci_high: Option<f64>,
    /// The target the issue set, when there is one.
    pub target: Option<f64>,
}

/// What a model is and how well it did in validation (from its model card).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ModelSummary {
    /// `clinical`, `ecg`, `pcg` or `ppg`.
    pub modality: String,
    /// Stable identifier.
    pub id: String,
    /// Version of the parameters.
    pub version: String,
    /// The dataset it was validated on.
    pub dataset: String,
    /// Headline validation figures.
    pub metrics: Vec<Metric>,
}

/// A model that reads a recording.
pub trait SignalModel: Send + Sync {
    /// Predicts from one recording. CPU-bound: call it off the async executor.
    ///
    /// # Errors
    /// [`PredictError::Unusable`] when the recording cannot be judged.
    fn predict(&self, recording: &Recording) -> Result<Prediction, PredictError>;

    /// Predicts for a patient whose sex is known (from the patient record): the models with
    /// sex-specific limits (the 12-lead reading's QTc, Cornell voltage and ST elevation) use it;
    /// the others ignore it.
    ///
    /// # Errors
    /// As [`SignalModel::predict`].
    fn predict_for(
        &self,
        recording: &Recording,
        sex: Option<cardio_models::clinical::Sex>,
    ) -> Result<Prediction, PredictError> {
        let _ = sex;
        self.predict(recording)
    }

    /// Predicts from a record on disk (WFDB, ISHNE) read a stretch at a time (a day-long Holter
    /// record is never held whole); `None` when this model reads whole recordings only, or when
    /// the record is no longer than the seconds already read into `recording.head`.
    fn predict_streamed(
        &self,
        recording: &StreamedRecord,
    ) -> Option<Result<Prediction, PredictError>> {
        let _ = recording;
        None
    }

    /// The model card's headline.
    fn summary(&self) -> ModelSummary;
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
            ecg: load_signal(cardio_models::ecg_rhythm::model(), |m| Arc::new(Ecg(m))),
            pcg: load_signal(cardio_models::pcg_model::model(), |m| Arc::new(Pcg(m))),
            ppg: load_signal(cardio_models::ppg_rhythm::model(), |m| Arc::new(Ppg(m))),
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

/// A model's loader result as a registry entry.
fn load_signal<M>(
    loaded: Result<&'static M, PredictError>,
    wrap: impl FnOnce(&'static M) -> Arc<dyn SignalModel>,
) -> Loaded<Arc<dyn SignalModel>> {
    loaded.map(wrap).map_err(|e| e.to_string())
}

fn metric(code: &str, value: f64, ci: Option<(f64, f64)>, target: Option<f64>) -> Metric {
    Metric {
        code: code.into(),
        value,
        ci_low: ci.map(|c| c.0),
        ci_high: ci.map(|c| c.1),
        target,
    }
}

/// The heart-sound model of `cardio_models::pcg_model`.
struct Pcg(&'static cardio_models::pcg_model::Model);

impl SignalModel for Pcg {
    fn predict(&self, recording: &Recording) -> Result<Prediction, PredictError> {
        self.0.predict(recording)
    }

    fn summary(&self) -> ModelSummary {
        let p = self.0.params();
        let v = &p.validation;
        ModelSummary {
            modality: "pcg".into(),
            id: p.model_id.clone(),
            version: p.version.clone(),
            dataset: "PhysioNet/CinC Challenge 2016 heart sounds (1582 recordings, sites a-f)"
                .into(),
            metrics: vec![
                metric(
                    "cv_macc",
                    v.cv_macc,
                    Some((v.cv_macc_ci_low, v.cv_macc_ci_high)),
                    Some(0.86),
                ),
                metric("loso_macc", v.leave_one_site_out_mean_macc, None, None),
            ],
        }
    }
}

/// The ECG rhythm model of `cardio_models::ecg_rhythm`.
struct Ecg(&'static cardio_models::ecg_rhythm::Model);

impl SignalModel for Ecg {
    fn predict(&self, recording: &Recording) -> Result<Prediction, PredictError> {
        self.0.predict(recording)
    }

    fn predict_for(
        &self,
        recording: &Recording,
        sex: Option<cardio_models::clinical::Sex>,
    ) -> Result<Prediction, PredictError> {
        self.0.predict_for(recording, sex)
    }

    fn predict_streamed(
        &self,
        recording: &StreamedRecord,
    ) -> Option<Result<Prediction, PredictError>> {
        let head = recording
            .head
            .channels
            .first()
            .map_or(0, |c| c.samples.len());
        (recording.n_frames > head).then(|| self.0.predict_streamed(recording, None))
    }

    fn summary(&self) -> ModelSummary {
        let p = &self.0.params;
        let v = &p.validation;
        ModelSummary {
            modality: "ecg".into(),
            id: p.model_id.clone(),
            version: p.version.clone(),
            dataset: "PhysioNet/CinC Challenge 2017 single-lead ECGs (8528 recordings)".into(),
            metrics: vec![
                metric(
                    "cv_mean_f1_nao",
                    v.cv_mean_f1_nao,
                    Some((v.cv_mean_f1_nao_ci_low, v.cv_mean_f1_nao_ci_high)),
                    Some(0.83),
                ),
                metric("cv_af_sensitivity", v.cv_af_sensitivity, None, None),
                metric("cv_af_specificity", v.cv_af_specificity, None, None),
            ],
        }
    }
}

/// The pulse model of `cardio_models::ppg_rhythm`.
struct Ppg(&'static cardio_models::ppg_rhythm::Model);

impl SignalModel for Ppg {
    fn predict(&self, recording: &Recording) -> Result<Prediction, PredictError> {
        self.0.predict(recording)
    }

    fn summary(&self) -> ModelSummary {
        let p = &self.0.params;
        let v = &p.validation;
        let mut metrics = vec![
            metric("cv_af_sensitivity", v.cv_af_sensitivity, None, Some(0.90)),
            metric(
                "cv_af_specificity_all",
                v.cv_af_specificity_all,
                None,
                Some(0.90),
            ),
            metric(
                "cv_sinus_specificity",
                v.cv_sinus_specificity,
                None,
                Some(0.98),
            ),
        ];
        if let Some(mae) = v.bidmc_hr_mae_bpm {
            metrics.push(metric("hr_mae_bpm", mae, None, None));
        }
        ModelSummary {
            modality: "ppg".into(),
            id: p.model_id.clone(),
            version: p.version.clone(),
            dataset:
                "Rhythm: real fingertip PPG of 28 arrhythmia patients (Liu et al. 2022); heart rate: BIDMC PPG"
                    .into(),
            metrics,
        }
    }
}

fn clinical_summary(params: &cardio_models::clinical::ClinicalParams) -> ModelSummary {
    let v = &params.validation;
    ModelSummary {
        modality: "clinical".into(),
        id: params.model_id.clone(),
        version: params.version.clone(),
        dataset: "UCI Heart Disease (Cleveland; external check on Hungary)".into(),
        metrics: vec![
            Metric {
                code: "cv_auroc".into(),
                value: v.cv_auroc,
                ci_low: Some(v.cv_auroc_ci_low),
                ci_high: Some(v.cv_auroc_ci_high),
                target: Some(0.90),
            },
            Metric {
                code: "external_auroc".into(),
                value: v.external_cleveland_to_hungary_auroc,
                ci_low: None,
                ci_high: None,
                target: None,
            },
        ],
    }
}

impl ModelRegistry {
    /// The summaries of the loaded models, in the workflow's order (clinical, PCG, PPG, ECG).
    pub fn summaries(&self) -> Vec<ModelSummary> {
        let mut out = Vec::new();
        if let Ok(params) = &self.clinical {
            out.push(clinical_summary(params));
        }
        for model in [&self.pcg, &self.ppg, &self.ecg].into_iter().flatten() {
            out.push(model.summary());
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Every result's `details.model.metric` names the model's headline figure; the welcome page
    // lists the same figure under the same code (it was `af_sensitivity_10s` here and
    // `cv_af_sensitivity_10s` in the PPG results).
    #[test]
    fn each_signal_models_headline_code_is_its_first_listed_figure() {
        let registry = ModelRegistry::load();
        let ppg = cardio_models::ppg_rhythm::model().unwrap();
        for (model, headline) in [
            (&registry.ecg, cardio_models::ecg_rhythm::METRIC),
            (&registry.pcg, cardio_models::pcg_model::METRIC),
            (&registry.ppg, ppg.params.validation.metric.as_str()),
        ] {
            let summary = model.as_ref().unwrap().summary();
            assert_eq!(summary.metrics[0].code, headline, "{}", summary.modality);
        }
        assert_eq!(ppg.params.validation.metric, "cv_af_sensitivity");
    }
}
