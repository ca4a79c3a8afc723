//! Reading a stored recording back: the files of an analysis from the blob store, decoded under
//! the memory gate and kept in the cache of [`super::decode`] with their beat marks (the viewers,
//! the PDF and FHIR reports and the ZIP export read recordings this way).

use std::sync::Arc;

use cardio_models::{analysis::Kind, waveform::Waveform};

use super::{
    decode::{DecodeGate, FileStamp, Prepared, WindowCache},
    predict::upload::{into_recording, Upload, UploadedFile},
};
use crate::{
    platform::{blobs::BlobStore, error::ApiError, state::AppState},
    records::analyses::store::Analysis,
};

/// What reads a stored recording back: the blob store, the decode gate and the cache.
#[derive(Clone, Debug)]
pub struct Recordings {
    /// Where the files are.
    pub blobs: BlobStore,
    /// The gate every decode passes.
    pub gate: DecodeGate,
    /// Decoded recordings.
    pub cache: WindowCache,
}

impl Recordings {
    /// The reader of the application's blob store, decode gate and cache.
    pub fn of(state: &AppState) -> Self {
        Self {
            blobs: state.blobs.clone(),
            gate: state.decode_gate.clone(),
            cache: state.window_cache.clone(),
        }
    }

    /// The decoded recording of `analysis` with its marks for a viewer of `kind`: from the cache,
    /// or read from the blob store and decoded under the gate (blocking: file I/O and signal
    /// work; call it from a blocking thread).
    ///
    /// # Errors
    /// 500 when a blob is missing; 413/415/422 when the file cannot be read again.
    pub fn prepared(&self, analysis: &Analysis, kind: Kind) -> Result<Arc<Prepared>, ApiError> {
        let stamps: Vec<FileStamp> = analysis
            .files
            .iter()
            .map(|f| self.blobs.stamp(&f.sha256))
            .collect();
        // Concurrent reads of this recording queue here and share the first one's decode.
        let slot = self.cache.slot(&analysis.id, kind);
        let mut shared = slot
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(done) = shared.as_ref().filter(|p| p.stamps == stamps) {
            return Ok(done.clone());
        }
        if let Some(hit) = self.cache.get(&analysis.id, kind) {
            if hit.stamps == stamps {
                tracing::debug!(analysis = %analysis.id, "decoded recording from the cache");
                return Ok(hit);
            }
        }
        // The stored files first (no larger than an upload may be): the gate charges the decode
        // what their headers declare, or what files of their size may decode to.
        let upload = stored_upload(&self.blobs, analysis)?;
        let inputs: Vec<&[u8]> = upload.files.iter().map(|f| f.bytes.as_slice()).collect();
        let permit = self.gate.acquire_for_blocking(&inputs)?;
        drop(inputs);
        let recording = into_recording(upload)?;
        let names: Vec<String> = recording.channels.iter().map(|c| c.name.clone()).collect();
        let channel = analysed_channel(analysis, &names);
        let mut prepared = Prepared::new(recording, kind, channel);
        prepared.stamps = stamps;
        let prepared = Arc::new(prepared);
        drop(permit);
        *shared = Some(prepared.clone());
        self.cache.insert(&analysis.id, kind, prepared.clone());
        tracing::debug!(
            analysis = %analysis.id,
            bytes = prepared.bytes,
            cached = self.cache.bytes(),
            "decoded recording"
        );
        Ok(prepared)
    }

    /// A window of `analysis`'s recording with its marks (blocking; see [`Recordings::prepared`]).
    ///
    /// # Errors
    /// As [`Recordings::prepared`], and 422 when it cannot be shown.
    pub fn window(
        &self,
        analysis: &Analysis,
        kind: Kind,
        start_s: f64,
        duration_s: f64,
    ) -> Result<Waveform, ApiError> {
        self.prepared(analysis, kind)?
            .window(kind, start_s, duration_s)
    }
}

/// The channel the model analysed, from what it wrote in `details` (`channel_index`, else the
/// channel's name).
pub fn analysed_channel(analysis: &Analysis, names: &[String]) -> Option<usize> {
    let details = &analysis.result.details;
    if let Some(index) = details
        .get("channel_index")
        .and_then(serde_json::Value::as_u64)
    {
        return usize::try_from(index).ok();
    }
    let name = details.get("channel")?.as_str()?;
    names.iter().position(|n| n.trim() == name.trim())
}

/// Reads the stored files back into the upload they came from (blocking I/O).
pub fn stored_upload(blobs: &BlobStore, analysis: &Analysis) -> Result<Upload, ApiError> {
    let files = analysis
        .files
        .iter()
        .map(|f| {
            let bytes = blobs.get(&f.sha256)?;
            Ok(UploadedFile {
                name: f.name.clone(),
                content_type: None,
                bytes,
            })
        })
        .collect::<Result<Vec<_>, ApiError>>()?;
    Ok(Upload {
        files,
        patient_id: None,
        screening_id: None,
        site: analysis.site,
        sampling_rate: analysis
            .result
            .details
            .get("sampling_rate_hz")
            .and_then(serde_json::Value::as_f64),
    })
}
