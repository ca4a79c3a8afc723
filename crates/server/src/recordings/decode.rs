//! Decoding recordings with bounded memory: the one gate every decode passes (uploads, and the
//! viewers, PDF and FHIR reports and ZIP export that read a stored recording back), and a cache of
//! decoded recordings with their beat marks, so a viewer paging through a recording decodes it
//! and finds its beats once, not once per window (and an ECG's 12-lead reading once, when a
//! viewer first asks for its fiducials).
//!
//! **The gate** ([`DecodeGate`]) is a semaphore counted in MiB: a decode takes as many permits
//! as the memory it needs ([`need_bytes`]): what a file's header declares it holds where the format
//! says so before anything is inflated (MAT level 5, `cardio_formats::mat::declared_size`), else
//! the most a file of its size may decode to (the readers' own per-byte limit
//! `cardio_formats::max_decoded_values`), at most the whole budget. A file that declares more
//! than one decode of its size may take ([`max_decode_bytes`]: 1 GiB for a small file, up to
//! 4 GiB for a 48-hour Holter) is refused before it is decoded (a 5.1 MB MAT file of 67 M doubles
//! took 1.88 GB while it was charged the budget). Small recordings decode
//! side by side; a large or suspicious one waits until it can run alone. So eight concurrent reads
//! of the worst file one can build take the budget's memory, not eight times it (before the gate,
//! 8 concurrent waveform reads of a 1.7 MB MAT bomb took 8.5 GB).
//!
//! **The cache** ([`WindowCache`]) keeps decoded recordings, least recently used first out,
//! within [`CACHE_BUDGET_BYTES`]; a recording larger than that is not kept, but shared by the
//! requests that read it at the same time (one decode, not eight). Stored recordings
//! never change (content-addressed blobs), so an entry never goes stale. It holds nothing another
//! server instance would need.

use std::sync::{Arc, Mutex};

use cardio_formats::Recording;
use cardio_models::{
    analysis::Kind,
    waveform::{self, Marks, Waveform},
};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::platform::error::ApiError;

/// Memory the decodes in flight may take together, MiB.
pub const DECODE_BUDGET_MIB: u32 = 512;
/// The most memory one decode of a small file may take: a file whose header declares more than
/// [`max_decode_bytes`] of its size is refused (413).
pub const MAX_DECODE_BYTES: u64 = 1 << 30;
/// The most memory one decode may take, whatever the file's size: 48 hours of 2 leads at 360 Hz
/// in a 16-bit MAT file (249 MB, 124 M values) need 3.7 GB, a 24-hour Holter of 3 leads at
/// 200 Hz (104 MB, 52 M values) 1.6 GB.
pub const MAX_DECODE_BYTES_LARGE: u64 = 4 << 30;
/// Memory a decode may take per byte of its file, between the two limits: an honest recording
/// declares values in proportion to its size (a compressed 24-hour Holter of 26 MB needs
/// 1.4 GB, 55 bytes a byte), a bomb far more (a 4.3 MB file declaring 67 M doubles, 2 GB).
pub const DECODE_BYTES_PER_INPUT_BYTE: u64 = 64;

/// The most memory a decode of a file of `input_len` bytes may take: [`DECODE_BYTES_PER_INPUT_BYTE`]
/// per byte, at least [`MAX_DECODE_BYTES`] and at most [`MAX_DECODE_BYTES_LARGE`].
pub fn max_decode_bytes(input_len: usize) -> u64 {
    (input_len as u64)
        .saturating_mul(DECODE_BYTES_PER_INPUT_BYTE)
        .clamp(MAX_DECODE_BYTES, MAX_DECODE_BYTES_LARGE)
}
/// The memory a declared value takes while it is decoded: the reader's array, the channel, and a
/// working copy, 8 bytes each (beside the inflated bytes, counted apart).
const BYTES_PER_DECLARED_VALUE: u64 = 24;

/// The refusal of a file that declares more than one decode may take.
fn too_large(values: u64, need: u64, limit: u64) -> ApiError {
    ApiError::FileTooLarge(format!(
        "Cannot read the file: it declares {values} values, which would take {} MB of memory, \
         more than the {} MB one recording may use.",
        need.div_ceil(MIB as u64),
        limit / MIB as u64
    ))
}

/// The memory a decode of `files` needs, in bytes: for a file whose header declares what it holds
/// (MAT level 5), the input three times (the upload, its decrypted copy, the reader's copy), the
/// bytes its compressed parts inflate to and each declared value at
/// `BYTES_PER_DECLARED_VALUE`; for any other, the most a file of its size may decode to
/// ([`DecodeGate::weight`]'s bound).
///
/// # Errors
/// 413 when a file declares more than [`max_decode_bytes`] of its size, with a sentence that
/// says how much.
pub fn need_bytes(files: &[&[u8]]) -> Result<u64, ApiError> {
    let mut need = 0u64;
    for file in files {
        let input = file.len() as u64;
        // A file whose compressed parts declare more than a file of its size may inflate to is
        // refused by the reader itself before it inflates anything (with its own reason): it is
        // charged the per-byte bound like any other.
        let inflate_limit =
            (cardio_formats::max_decoded_values(file.len()) as u64).saturating_mul(8);
        let bytes = match cardio_formats::mat::declared_size(file)
            .filter(|d| d.inflated_bytes <= inflate_limit)
        {
            Some(declared) => {
                let bytes = input
                    .saturating_mul(3)
                    .saturating_add(declared.inflated_bytes)
                    .saturating_add(declared.values.saturating_mul(BYTES_PER_DECLARED_VALUE));
                let limit = max_decode_bytes(file.len());
                if bytes > limit {
                    return Err(too_large(declared.values, bytes, limit));
                }
                bytes
            }
            None => worst_case_bytes(file.len()),
        };
        need = need.saturating_add(bytes);
    }
    Ok(need)
}

/// The most memory a decode of `input_bytes` of files may need (the input, its decrypted copy and
/// the readers' working copy; the values at 8 bytes each, twice, as readers build channels from
/// an interleaved buffer).
fn worst_case_bytes(input_bytes: usize) -> u64 {
    let values = cardio_formats::max_decoded_values(input_bytes);
    input_bytes
        .saturating_mul(3)
        .saturating_add(values.saturating_mul(16)) as u64
}

/// Memory the cache of decoded recordings may take.
pub const CACHE_BUDGET_BYTES: usize = 128 << 20;
const MIB: usize = 1 << 20;

/// The decode gate (see the module documentation). Clones share the permits.
#[derive(Clone, Debug)]
pub struct DecodeGate {
    permits: Arc<Semaphore>,
    budget_mib: u32,
}

impl Default for DecodeGate {
    fn default() -> Self {
        Self::new(DECODE_BUDGET_MIB)
    }
}

impl DecodeGate {
    /// A gate of `budget_mib` MiB.
    pub fn new(budget_mib: u32) -> Self {
        let budget_mib = budget_mib.max(1);
        Self {
            permits: Arc::new(Semaphore::new(budget_mib as usize)),
            budget_mib,
        }
    }

    /// The MiB a decode of `input_bytes` of files may need at most (the input, its decrypted copy
    /// and the readers' working copy; the values at 8 bytes each, twice, as readers build channels
    /// from an interleaved buffer), capped at the budget.
    pub fn weight(&self, input_bytes: usize) -> u32 {
        self.permits_for(worst_case_bytes(input_bytes))
    }

    /// The permits (MiB) of a decode that needs `bytes`, at most the budget (a decode that needs
    /// more, up to [`MAX_DECODE_BYTES`], runs alone).
    fn permits_for(&self, bytes: u64) -> u32 {
        u32::try_from(bytes.div_ceil(MIB as u64))
            .unwrap_or(u32::MAX)
            .clamp(1, self.budget_mib)
    }

    /// Waits for the permits of a decode of `files`, charged what it needs ([`need_bytes`]).
    ///
    /// # Errors
    /// 413 when a file declares more than one decode may take ([`need_bytes`]).
    pub async fn acquire_for(&self, files: &[&[u8]]) -> Result<OwnedSemaphorePermit, ApiError> {
        let permits = self.permits_for(need_bytes(files)?);
        self.permits
            .clone()
            .acquire_many_owned(permits)
            .await
            .map_err(|_| ApiError::Internal("decode gate closed".into()))
    }

    /// [`DecodeGate::acquire_for`] from blocking code (a `spawn_blocking` thread).
    ///
    /// # Errors
    /// As [`DecodeGate::acquire_for`].
    pub fn acquire_for_blocking(&self, files: &[&[u8]]) -> Result<OwnedSemaphorePermit, ApiError> {
        tokio::runtime::Handle::current().block_on(self.acquire_for(files))
    }

    /// [`DecodeGate::acquire_for_blocking`] for work on a decoded recording that needs `bytes`
    /// (a long ECG's beats classed, see [`crate::recordings::beat_classes`]).
    ///
    /// # Errors
    /// 500 when the gate is closed.
    pub fn acquire_bytes_blocking(&self, bytes: u64) -> Result<OwnedSemaphorePermit, ApiError> {
        let permits = self.permits_for(bytes);
        tokio::runtime::Handle::current().block_on(async {
            self.permits
                .clone()
                .acquire_many_owned(permits)
                .await
                .map_err(|_| ApiError::Internal("decode gate closed".into()))
        })
    }

    /// Permits free now (for tests).
    pub fn available_mib(&self) -> usize {
        self.permits.available_permits()
    }
}

/// A decoded recording with the marks of its analysed channel.
#[derive(Debug)]
pub struct Prepared {
    /// The samples.
    pub recording: Recording,
    /// The channel the marks belong to.
    pub channel: usize,
    /// The marks, or why there are none.
    pub marks: Result<Marks, String>,
    /// The 12-lead reading of an ECG with three standard leads or more, read on first use
    /// ([`Prepared::ecg12`]).
    ecg12: std::sync::OnceLock<Option<cardio_models::ecg12::Ecg12>>,
    /// A long ECG's beats with their classes, found on first use ([`Prepared::classed_beats`]).
    classed: std::sync::OnceLock<Option<crate::recordings::beat_classes::ClassedBeats>>,
    pub(crate) bytes: usize,
    /// Size and modification time of each stored file when it was decoded: a file changed on
    /// disk since (restored, or altered and so to be refused) is read again, never served from
    /// here.
    pub(crate) stamps: Vec<FileStamp>,
}

/// What a stored file looked like on disk.
pub(crate) type FileStamp = Option<(u64, std::time::SystemTime)>;

impl Prepared {
    /// Decodes-once state of `recording`, marking `channel` for a viewer of `kind`.
    pub fn new(recording: Recording, kind: Kind, analysed_channel: Option<usize>) -> Self {
        let channel = waveform::marked_channel(&recording, analysed_channel);
        let marks = if recording.channels.is_empty() {
            Err(String::new())
        } else {
            waveform::marks(&recording, kind, channel)
        };
        let samples: usize = recording.channels.iter().map(|c| c.samples.len()).sum();
        let marked = marks
            .as_ref()
            .map_or(0, |m| m.beats.len() + m.s1.len() + m.s2.len());
        Self {
            recording,
            channel,
            marks,
            ecg12: std::sync::OnceLock::new(),
            classed: std::sync::OnceLock::new(),
            bytes: (samples + marked) * std::mem::size_of::<f64>(),
            stamps: Vec::new(),
        }
    }

    /// The 12-lead reading of the recording (see [`crate::recordings::ecg12_marks::reading`]),
    /// read once, on the first call, and kept with the samples.
    pub fn ecg12(&self) -> Option<&cardio_models::ecg12::Ecg12> {
        self.ecg12
            .get_or_init(|| crate::recordings::ecg12_marks::reading(&self.recording))
            .as_ref()
    }

    /// The beats of the marked channel with their classes (see
    /// [`crate::recordings::beat_classes`]), found by `find` on the first call and kept with the
    /// samples. The cache is per analysis, so what `find` reads of the analysis stays the same.
    pub fn classed_beats(
        &self,
        find: impl FnOnce(&Recording, usize) -> Option<crate::recordings::beat_classes::ClassedBeats>,
    ) -> Option<&crate::recordings::beat_classes::ClassedBeats> {
        self.classed
            .get_or_init(|| find(&self.recording, self.channel))
            .as_ref()
    }

    /// The window `[start_s, start_s + duration_s)` for a viewer of `kind`.
    ///
    /// # Errors
    /// 422 when the recording cannot be shown.
    pub fn window(&self, kind: Kind, start_s: f64, duration_s: f64) -> Result<Waveform, ApiError> {
        waveform::window_with_marks(
            &self.recording,
            kind,
            self.channel,
            &self.marks,
            start_s,
            duration_s,
        )
        .map_err(|e| ApiError::Validation(format!("The recording cannot be shown: {e}.")))
    }
}

/// The cache of decoded recordings, by analysis id and viewer kind (see the module
/// documentation). Clones share it.
#[derive(Clone, Debug)]
pub struct WindowCache {
    inner: Arc<Mutex<CacheInner>>,
    budget: usize,
}

type Key = (String, &'static str);

#[derive(Debug)]
struct CacheInner {
    entries: lru::LruCache<Key, Arc<Prepared>>,
    bytes: usize,
    /// Every recording decoded lately, also those too large to keep, for as long as a request
    /// still holds it: concurrent reads of one large recording share one decode instead of each
    /// making its own.
    in_use: std::collections::HashMap<Key, std::sync::Weak<Prepared>>,
    /// One decode per recording at a time: the requests that want the same recording wait on its
    /// slot and take what the first one decoded (the slot lives while any of them holds it).
    slots: std::collections::HashMap<Key, std::sync::Weak<Slot>>,
}

/// Where the first of several concurrent reads of a recording leaves what it decoded.
type Slot = Mutex<Option<Arc<Prepared>>>;

impl Default for WindowCache {
    fn default() -> Self {
        Self::new(CACHE_BUDGET_BYTES)
    }
}

fn kind_key(kind: Kind) -> &'static str {
    match kind {
        Kind::Ecg => "ecg",
        Kind::Pcg => "pcg",
        Kind::Ppg => "ppg",
    }
}

impl WindowCache {
    /// A cache of at most `budget` bytes.
    pub fn new(budget: usize) -> Self {
        Self {
            inner: Arc::new(Mutex::new(CacheInner {
                entries: lru::LruCache::unbounded(),
                bytes: 0,
                in_use: std::collections::HashMap::new(),
                slots: std::collections::HashMap::new(),
            })),
            budget,
        }
    }

    /// The decoded recording of `analysis_id` for `kind`, if cached (and now the most recent) or
    /// still held by a request.
    pub fn get(&self, analysis_id: &str, kind: Kind) -> Option<Arc<Prepared>> {
        let mut inner = self.lock();
        let key = (analysis_id.to_owned(), kind_key(kind));
        if let Some(hit) = inner.entries.get(&key) {
            return Some(hit.clone());
        }
        inner.in_use.get(&key).and_then(std::sync::Weak::upgrade)
    }

    /// The decode slot of `analysis_id` for `kind` (see `CacheInner::slots`).
    pub(crate) fn slot(&self, analysis_id: &str, kind: Kind) -> Arc<Slot> {
        let mut inner = self.lock();
        let key = (analysis_id.to_owned(), kind_key(kind));
        if let Some(slot) = inner.slots.get(&key).and_then(std::sync::Weak::upgrade) {
            return slot;
        }
        inner.slots.retain(|_, held| held.strong_count() > 0);
        let slot = Arc::new(Mutex::new(None));
        inner.slots.insert(key, Arc::downgrade(&slot));
        slot
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, CacheInner> {
        self.inner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Keeps `prepared` unless it is larger than the whole budget, dropping the least recently
    /// used entries to make room; either way it is shared while a request holds it.
    pub fn insert(&self, analysis_id: &str, kind: Kind, prepared: Arc<Prepared>) {
        let mut inner = self.lock();
        inner.in_use.retain(|_, held| held.strong_count() > 0);
        inner.in_use.insert(
            (analysis_id.to_owned(), kind_key(kind)),
            Arc::downgrade(&prepared),
        );
        if prepared.bytes > self.budget {
            return;
        }
        let bytes = prepared.bytes;
        if let Some(old) = inner
            .entries
            .put((analysis_id.to_owned(), kind_key(kind)), prepared)
        {
            inner.bytes -= old.bytes;
        }
        inner.bytes += bytes;
        while inner.bytes > self.budget {
            match inner.entries.pop_lru() {
                Some((_, dropped)) => inner.bytes -= dropped.bytes,
                None => break,
            }
        }
    }

    /// Bytes held now.
    pub fn bytes(&self) -> usize {
        self.lock().bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cardio_formats::Channel;
    use std::collections::BTreeMap;

    fn recording(samples: usize) -> Recording {
        Recording {
            channels: vec![Channel {
                name: "II".into(),
                unit: "mV".into(),
                samples: vec![0.0; samples],
            }],
            sampling_rate_hz: 250.0,
            start: None,
            metadata: BTreeMap::new(),
            device_interpretation: None,
        }
    }

    #[test]
    fn the_gate_weighs_a_decode_by_what_its_size_may_decode_to() {
        let gate = DecodeGate::new(512);
        // A 300 kB file may decode to 4.8 M values (16 per byte): 74 MiB and change.
        assert_eq!(gate.weight(300_000), 75);
        // A 2 MB file may decode to 32 M values (495 MiB); a 4 MB one to more than the budget,
        // so it runs alone.
        assert_eq!(gate.weight(2_000_000), 495);
        assert_eq!(gate.weight(4_000_000), 512);
        assert_eq!(gate.weight(0), 64);
    }

    #[tokio::test]
    async fn a_decode_over_the_budget_waits_for_the_others() {
        let gate = DecodeGate::new(512);
        let (small_file, big_file) = (vec![b'1'; 300_000], vec![b'1'; 2_000_000]);
        let small = gate.acquire_for(&[&small_file]).await.unwrap();
        assert_eq!(gate.available_mib(), 512 - 75);
        let big = tokio::time::timeout(
            std::time::Duration::from_millis(50),
            gate.acquire_for(&[&big_file]),
        )
        .await;
        assert!(big.is_err(), "the big decode waits while a small one runs");
        drop(small);
        let big = gate.acquire_for(&[&big_file]).await.unwrap();
        assert_eq!(gate.available_mib(), 512 - 495);
        drop(big);
    }

    #[test]
    fn concurrent_reads_of_one_recording_share_one_slot_while_any_holds_it() {
        let cache = WindowCache::new(1);
        let first = cache.slot("a", Kind::Ecg);
        let second = cache.slot("a", Kind::Ecg);
        assert!(Arc::ptr_eq(&first, &second), "the same decode slot");
        assert!(!Arc::ptr_eq(&first, &cache.slot("a", Kind::Pcg)));
        // What the first decodes (too large for the cache) is what the second finds.
        *first.lock().unwrap() = Some(Arc::new(Prepared::new(recording(10), Kind::Ecg, None)));
        assert!(second.lock().unwrap().is_some());
        drop((first, second));
        assert!(
            cache.slot("a", Kind::Ecg).lock().unwrap().is_none(),
            "released once nobody waits"
        );
    }

    #[test]
    fn the_cache_keeps_the_most_recent_within_its_budget() {
        let entry = |n| Arc::new(Prepared::new(recording(n), Kind::Ecg, None));
        let one = entry(1000);
        let cache = WindowCache::new(one.bytes * 2 + 10);
        cache.insert("a", Kind::Ecg, one.clone());
        cache.insert("b", Kind::Ecg, entry(1000));
        assert!(cache.get("a", Kind::Ecg).is_some()); // "a" is now the most recent
        cache.insert("c", Kind::Ecg, entry(1000));
        assert!(
            cache.get("b", Kind::Ecg).is_none(),
            "least recently used out"
        );
        assert!(cache.get("a", Kind::Ecg).is_some());
        assert!(cache.get("c", Kind::Ecg).is_some());
        assert!(cache.get("a", Kind::Ppg).is_none(), "per viewer kind");
        assert!(cache.bytes() <= one.bytes * 2 + 10);
        let huge = entry(1_000_000);
        cache.insert("huge", Kind::Ecg, huge.clone());
        assert!(
            cache.get("huge", Kind::Ecg).is_some(),
            "larger than the budget, shared while held"
        );
        drop(huge);
        assert!(
            cache.get("huge", Kind::Ecg).is_none(),
            "and gone once nobody holds it"
        );
    }
}
