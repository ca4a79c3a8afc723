//! `GET /api/analyses/{id}/waveform`: a time window of an analysis's stored recording for the
//! waveform viewers (ECG paper, PCG with S1/S2, PPG with pulse peaks), read again from the blob
//! store with the same readers the prediction used, and the beats found in the whole recording
//! (decoded under the memory gate and cached, see [`crate::recordings::decode`]); for a 12-lead
//! ECG, the reading's fiducials and median beats ([`crate::recordings::ecg12_marks`]); for a long
//! ECG read whole, the result's own beats with the class of each
//! ([`crate::recordings::beat_classes`]).
//!
//! Only the owner reads it (another user's analysis is a 404); each read is audited.

use axum::{extract::State, routing::get, Router};
use cardio_models::{
    analysis::Kind,
    waveform::{Waveform, WaveformChannel},
};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::platform::extract::Path;
use crate::{
    accounts::auth::{session::CurrentUser, ClientAddr},
    platform::error::{ApiError, ErrorBody},
    platform::extract::Json,
    platform::state::AppState,
    recordings::beat_classes,
    recordings::ecg12_marks::{self, Ecg12MarksView},
    recordings::stored::Recordings,
    records::analyses::{self, store::Modality, ANALYSIS_NOT_FOUND},
};

/// The 404 text for an analysis without a recording (a clinical one).
pub const NO_RECORDING: &str = "This analysis has no recording to show.";
/// Window length when the client does not ask, seconds.
pub const DEFAULT_WINDOW_S: f64 = 10.0;

/// The routes of this module, mounted under `/api`.
pub fn router() -> Router<AppState> {
    Router::new().route("/analyses/{id}/waveform", get(read))
}

/// Which part of the recording.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct WaveformQuery {
    /// Start of the window, seconds (default 0; clamped to the recording).
    pub start_s: Option<f64>,
    /// Length of the window, seconds (default 10, 0.5-60).
    pub duration_s: Option<f64>,
}

impl crate::platform::extract::QueryRules for WaveformQuery {
    const INVALID: &'static str = "start_s and duration_s must be numbers.";
}

/// One channel of the window.
#[derive(Debug, Serialize, ToSchema)]
pub struct WaveformChannelView {
    /// The file's label (e.g. "II", "PLETH").
    pub name: String,
    /// Unit of the samples ("mV" for ECG).
    pub unit: String,
    /// Samples at `sampling_rate_hz`; null where the file marks a sample invalid.
    pub samples: Vec<Option<f32>>,
}

/// A window of a stored recording with the whole recording's detected beats.
#[derive(Debug, Serialize, ToSchema)]
pub struct WaveformView {
    /// `ecg`, `pcg` or `ppg`.
    pub kind: String,
    /// Rate of the returned samples, hertz (at most 500 for ECG, 250 for PPG, 2000 for PCG).
    pub sampling_rate_hz: f64,
    /// The file's own rate, hertz.
    pub source_rate_hz: f64,
    /// Length of the whole recording, seconds.
    pub duration_s: f64,
    /// Start of the returned window, seconds.
    pub start_s: f64,
    /// End of the returned window, seconds.
    pub end_s: f64,
    /// Channels in file order (at most 16).
    pub channels: Vec<WaveformChannelView>,
    /// Index of the channel the model analysed (the marks belong to it).
    pub analysed_channel: usize,
    /// Beat times in the whole recording, seconds: R peaks, pulse peaks, or S1 (for a long ECG
    /// whose result classed its beats, the beats that reading found).
    pub beats_s: Vec<f64>,
    /// For a long ECG whose result classed its beats, the class of each beat of `beats_s`, one
    /// character a beat: `n` normal, `s` supraventricular ectopic, `v` ventricular ectopic
    /// (null otherwise).
    pub beat_classes: Option<String>,
    /// PCG S1 times, seconds.
    pub s1_s: Vec<f64>,
    /// PCG S2 times, seconds.
    pub s2_s: Vec<f64>,
    /// Why no beats could be marked, when none were.
    pub marks_note: Option<String>,
    /// The 12-lead reading's marks for an ECG with three standard leads or more (null otherwise,
    /// or when the reading fails): global and per-lead fiducials inside the window, the median
    /// beats.
    pub ecg12: Option<Ecg12MarksView>,
}

impl From<Waveform> for WaveformView {
    fn from(w: Waveform) -> Self {
        let kind = match w.kind {
            Kind::Ecg => "ecg",
            Kind::Pcg => "pcg",
            Kind::Ppg => "ppg",
        };
        Self {
            kind: kind.into(),
            sampling_rate_hz: w.sampling_rate_hz,
            source_rate_hz: w.source_rate_hz,
            duration_s: w.duration_s,
            start_s: w.start_s,
            end_s: w.end_s,
            channels: w
                .channels
                .into_iter()
                .map(
                    |WaveformChannel {
                         name,
                         unit,
                         samples,
                     }| WaveformChannelView {
                        name,
                        unit,
                        samples,
                    },
                )
                .collect(),
            analysed_channel: w.analysed_channel,
            beats_s: w.beats_s,
            beat_classes: None,
            s1_s: w.s1_s,
            s2_s: w.s2_s,
            marks_note: w.marks_note,
            ecg12: None,
        }
    }
}

/// A window of one of the signed-in user's analysed recordings, with the detected beats.
#[utoipa::path(
    get, path = "/api/analyses/{id}/waveform", operation_id = "get_analysis_waveform", tag = "analyses",
    params(("id" = String, Path, description = "Analysis id"), WaveformQuery),
    responses(
        (status = 200, description = "The window and the beats", body = WaveformView),
        (status = 401, description = "Not signed in.", body = ErrorBody),
        (status = 404, description = "Analysis not found. / This analysis has no recording to show.", body = ErrorBody),
        (status = 422, description = "Bad window, or the stored file cannot be read again.", body = ErrorBody),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn read(
    State(state): State<AppState>,
    user: CurrentUser,
    ClientAddr(client): ClientAddr,
    Path(id): Path<String>,
    crate::platform::extract::RuledQuery(query): crate::platform::extract::RuledQuery<
        WaveformQuery,
    >,
) -> Result<Json<WaveformView>, ApiError> {
    let user_id = user.user.id.as_str();
    let mut tx = state.db.begin().await?;
    let analysis = analyses::store::find(&mut tx, &id, user_id)
        .await?
        .ok_or_else(|| ApiError::NotFound(ANALYSIS_NOT_FOUND.into()))?;
    let kind = match analysis.modality {
        Modality::Ecg => Kind::Ecg,
        Modality::Pcg => Kind::Pcg,
        Modality::Ppg => Kind::Ppg,
        Modality::Clinical => return Err(ApiError::NotFound(NO_RECORDING.into())),
    };
    if analysis.files.is_empty() {
        return Err(ApiError::NotFound(NO_RECORDING.into()));
    }
    analyses::store::audit_read(&mut tx, user_id, &client, &analysis, "analysis_waveform").await?;
    tx.commit().await?;
    let recordings = Recordings::of(&state);
    let classes_wanted = kind == Kind::Ecg && beat_classes::counted(&analysis.result.details);
    let af = beat_classes::af_spans(&analysis.result.details);
    let start_s = query.start_s.unwrap_or(0.0);
    let duration_s = query.duration_s.unwrap_or(DEFAULT_WINDOW_S);
    let view = tokio::task::spawn_blocking(move || -> Result<WaveformView, ApiError> {
        let prepared = recordings.prepared(&analysis, kind)?;
        let window = prepared.window(kind, start_s, duration_s)?;
        let (start, end) = (window.start_s, window.end_s);
        let mut view = WaveformView::from(window);
        if kind == Kind::Ecg {
            let fs = prepared.recording.sampling_rate_hz;
            view.ecg12 = prepared
                .ecg12()
                .map(|e| ecg12_marks::view(e, fs, start, end));
        }
        if classes_wanted {
            let classed = prepared.classed_beats(|rec, lead| {
                // As much memory as a decode: it waits on the gate like one.
                let _permit = recordings
                    .gate
                    .acquire_bytes_blocking(beat_classes::need_bytes(rec, lead))
                    .ok()?;
                beat_classes::classed(rec, lead, &af)
            });
            if let Some(classed) = classed {
                view.beats_s.clone_from(&classed.beats);
                view.beat_classes = Some(classed.codes.clone());
            }
        }
        Ok(view)
    })
    .await??;
    Ok(Json(view))
}
