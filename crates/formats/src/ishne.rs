//! ISHNE Holter ECG files (`.ecg`), version 1.0.
//!
//! Specification: Badilini F. for the ISHNE Standard Output Format Task Force, "The ISHNE Holter
//! Standard Output File Format", Annals of Noninvasive Electrocardiology 3(3), 1998. Layout, all
//! little-endian: the magic `ISHNE1.0`, a 2-byte CRC, a 512-byte fixed header (variable block size,
//! samples per lead, offsets of the variable block and of the ECG block, version, patient names and
//! id, sex, race, birth/record/file dates as day-month-year, start time as hour-minute-second, number
//! of leads, 12 lead codes, 12 lead qualities, 12 amplitude resolutions in nV, pacemaker code, recorder,
//! sampling rate, ...), a variable-length block, then the ECG as 16-bit samples interleaved lead by
//! lead. Physical values are `sample * resolution` nV, given here in mV. ISHNE annotation files
//! (`ANN  1.0`) hold no signal and are refused.

use std::{
    collections::BTreeMap,
    fs::File,
    io::Read,
    path::{Path, PathBuf},
    sync::Mutex,
};

use crate::stream::{io_error, open_limited, read_at, ChannelFile, StreamedRecord};
use crate::{checked_values, Channel, Format, FormatError, Recording};

const F: Format = Format::Ishne;

/// The ISHNE lead codes 0..=19 (Table 2 of the specification).
const LEADS: [&str; 20] = [
    "unknown", "bipolar", "X", "Y", "Z", "I", "II", "III", "aVR", "aVL", "aVF", "V1", "V2", "V3",
    "V4", "V5", "V6", "ES", "AS", "AI",
];

/// What an ISHNE header says of its ECG block, its leads and its recording.
struct Layout {
    /// Byte where the ECG block starts.
    ecg_offset: usize,
    /// Samples per lead.
    frames: usize,
    /// Lead names (duplicates with their position appended).
    names: Vec<String>,
    /// mV per unit of each lead.
    scales: Vec<f64>,
    rate: f64,
    start: Option<String>,
    metadata: BTreeMap<String, String>,
}

/// The header of an ISHNE file of `file_len` bytes whose first bytes are `bytes` (at least the
/// 522-byte header).
fn layout(bytes: &[u8], file_len: usize) -> Result<Layout, FormatError> {
    if bytes.starts_with(b"ANN  1.0") {
        return Err(FormatError::feature(
            F,
            "ISHNE annotation files hold no signal",
        ));
    }
    if !bytes.starts_with(b"ISHNE1.0") {
        return Err(FormatError::invalid(F, "no ISHNE1.0 magic number"));
    }
    let header = bytes
        .get(10..522)
        .ok_or_else(|| FormatError::invalid(F, "shorter than the 522-byte header"))?;
    let i32_at =
        |o: usize| i32::from_le_bytes([header[o], header[o + 1], header[o + 2], header[o + 3]]);
    let i16_at = |o: usize| i16::from_le_bytes([header[o], header[o + 1]]);
    let text = |o: usize, n: usize| {
        String::from_utf8_lossy(&header[o..o + n])
            .trim_matches(|c: char| c == '\0' || c.is_whitespace())
            .to_string()
    };
    let samples_per_lead = usize::try_from(i32_at(4))
        .map_err(|_| FormatError::invalid(F, "negative number of samples"))?;
    let ecg_offset = usize::try_from(i32_at(12))
        .map_err(|_| FormatError::invalid(F, "negative ECG block offset"))?;
    let n_leads = usize::try_from(i16_at(146))
        .ok()
        .filter(|n| (1..=12).contains(n))
        .ok_or_else(|| {
            FormatError::invalid(F, format!("{} leads (1 to 12 allowed)", i16_at(146)))
        })?;
    let rate = i16_at(262);
    if rate <= 0 {
        return Err(FormatError::invalid(F, format!("sampling rate {rate}")));
    }
    let data_len = file_len
        .checked_sub(ecg_offset)
        .filter(|_| ecg_offset >= 522)
        .ok_or_else(|| {
            FormatError::invalid(F, format!("ECG block offset {ecg_offset} outside the file"))
        })?;
    // Files written while recording may claim 0 samples; then the file's length decides.
    let available = data_len / 2 / n_leads;
    // Some writers store the total sample count instead of the count per lead (ishneholterlib's
    // validity check accepts both); take the reading that fits the file.
    let total_available = data_len / 2;
    let frames = if samples_per_lead == 0 {
        available
    } else if samples_per_lead.saturating_mul(n_leads) <= total_available {
        samples_per_lead
    } else if samples_per_lead <= total_available && samples_per_lead % n_leads == 0 {
        samples_per_lead / n_leads
    } else {
        samples_per_lead
    };
    checked_values(F, frames, n_leads, total_available)?;
    let mut names: Vec<String> = (0..n_leads)
        .map(|lead| {
            let code = usize::try_from(i16_at(148 + 2 * lead)).unwrap_or(0);
            LEADS
                .get(code)
                .map_or_else(|| format!("lead {code}"), |s| (*s).to_string())
        })
        .collect();
    // Duplicate names (e.g. two "bipolar" leads) get their position appended.
    let given = names.clone();
    for (i, name) in names.iter_mut().enumerate() {
        if given.iter().filter(|n| *n == name).count() > 1 {
            *name = format!("{name} {}", i + 1);
        }
    }
    let scales: Vec<f64> = (0..n_leads)
        .map(|lead| {
            let nv = f64::from(i16_at(196 + 2 * lead));
            if nv > 0.0 {
                nv * 1e-6
            } else {
                1e-6
            }
        })
        .collect();
    let mut metadata = BTreeMap::new();
    metadata.insert("format".into(), "ISHNE".into());
    for (key, value) in [
        ("patient_first_name", text(18, 40)),
        ("patient_last_name", text(58, 40)),
        ("patient_id", text(98, 20)),
        ("recorder", text(222, 40)),
    ] {
        if !value.is_empty() {
            metadata.insert(key.into(), value);
        }
    }
    match i16_at(118) {
        1 => metadata.insert("sex".into(), "male".into()),
        2 => metadata.insert("sex".into(), "female".into()),
        _ => None,
    };
    let pacemaker = i16_at(220);
    if pacemaker != 0 {
        metadata.insert("pacemaker".into(), pacemaker.to_string());
    }
    let date = (i16_at(128), i16_at(130), i16_at(132));
    let time = (i16_at(140), i16_at(142), i16_at(144));
    let clock = match time {
        (hour @ 0..=23, minute @ 0..=59, second @ 0..=60) => {
            Some(format!("{hour:02}:{minute:02}:{second:02}"))
        }
        _ => None,
    };
    let start = match (date, clock) {
        ((day @ 1..=31, month @ 1..=12, year @ 1900..=2999), Some(clock)) => {
            Some(format!("{year:04}-{month:02}-{day:02}T{clock}"))
        }
        (_, clock) => clock,
    };
    Ok(Layout {
        ecg_offset,
        frames,
        names,
        scales,
        rate: f64::from(rate),
        start,
        metadata,
    })
}

impl Layout {
    /// Lead `lead` of the interleaved 16-bit samples `data` (whole frames), in mV.
    fn lead_of(&self, data: &[u8], lead: usize) -> Vec<f64> {
        let width = self.names.len();
        data.chunks_exact(2 * width)
            .map(|frame| {
                let o = 2 * lead;
                f64::from(i16::from_le_bytes([frame[o], frame[o + 1]])) * self.scales[lead]
            })
            .collect()
    }

    /// The recording of `channels`' samples.
    fn recording(&self, samples: Vec<Vec<f64>>) -> Recording {
        Recording {
            channels: self
                .names
                .iter()
                .zip(samples)
                .map(|(name, samples)| Channel {
                    name: name.clone(),
                    unit: "mV".into(),
                    samples,
                })
                .collect(),
            sampling_rate_hz: self.rate,
            start: self.start.clone(),
            metadata: self.metadata.clone(),
            device_interpretation: None,
        }
    }
}

/// Reads an ISHNE Holter ECG file.
///
/// # Errors
/// [`FormatError::Invalid`] for a short header, absurd lead counts, rates or offsets, or an ECG block
/// shorter than the header claims; [`FormatError::UnsupportedFeature`] for annotation files.
pub fn read(bytes: &[u8]) -> Result<Recording, FormatError> {
    let layout = layout(bytes, bytes.len())?;
    let width = layout.names.len();
    let data = &bytes[layout.ecg_offset..layout.ecg_offset + layout.frames * width * 2];
    let samples = (0..width).map(|lead| layout.lead_of(data, lead)).collect();
    Ok(layout.recording(samples))
}

/// One lead of an ISHNE file on disk, read a stretch at a time.
#[derive(Debug)]
struct LeadFile {
    file: Mutex<File>,
    path: PathBuf,
    ecg_offset: u64,
    width: usize,
    lead: usize,
    frames: usize,
    scale: f64,
}

impl ChannelFile for LeadFile {
    fn len(&self) -> usize {
        self.frames
    }

    fn read(&self, from: usize, to: usize) -> Result<Vec<f64>, FormatError> {
        let to = to.min(self.frames);
        if from >= to {
            return Ok(Vec::new());
        }
        let frame = 2 * self.width as u64;
        let bytes = read_at(
            &self.file,
            &self.path,
            self.ecg_offset + from as u64 * frame,
            (to - from) as u64 * frame,
        )?;
        let o = 2 * self.lead;
        Ok(bytes
            .chunks_exact(2 * self.width)
            .map(|f| f64::from(i16::from_le_bytes([f[o], f[o + 1]])) * self.scale)
            .collect())
    }
}

/// Opens the ISHNE file `path` for reading a stretch at a time ([`crate::stream`]), with its
/// first `head_s` seconds read; `None` when the file is no longer than that (read it whole).
///
/// # Errors
/// As [`read`], and [`FormatError::Io`] when the file cannot be read.
pub fn open(path: &Path, head_s: f64) -> Result<Option<StreamedRecord>, FormatError> {
    let (file, size) = open_limited(path)?;
    let mut header = Vec::new();
    (&file)
        .take(522)
        .read_to_end(&mut header)
        .map_err(io_error(path))?;
    let size =
        usize::try_from(size).map_err(|_| FormatError::TooLarge(path.display().to_string()))?;
    let layout = layout(&header, size)?;
    let width = layout.names.len();
    let mut signals = Vec::with_capacity(width);
    for (lead, scale) in layout.scales.iter().enumerate() {
        let (file, _) = open_limited(path)?;
        signals.push(LeadFile {
            file: Mutex::new(file),
            path: path.to_path_buf(),
            ecg_offset: layout.ecg_offset as u64,
            width,
            lead,
            frames: layout.frames,
            scale: *scale,
        });
    }
    let head_frames = if head_s.is_finite() && head_s > 0.0 {
        ((head_s * layout.rate).round() as usize).min(layout.frames)
    } else {
        0
    };
    if layout.frames <= head_frames {
        return Ok(None);
    }
    let samples = signals
        .iter()
        .map(|s| s.read(0, head_frames))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Some(StreamedRecord {
        head: layout.recording(samples),
        n_frames: layout.frames,
        signals: signals
            .into_iter()
            .map(|s| Box::new(s) as Box<dyn ChannelFile>)
            .collect(),
    }))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// An ISHNE file with the given leads (code, resolution in nV) and interleaved samples.
    pub(crate) fn ishne(leads: &[(i16, i16)], rate: i16, samples: &[i16]) -> Vec<u8> {
        let mut header = vec![0u8; 512];
        let put16 =
            |h: &mut Vec<u8>, o: usize, v: i16| h[o..o + 2].copy_from_slice(&v.to_le_bytes());
        let per_lead = i32::try_from(samples.len() / leads.len()).unwrap();
        header[4..8].copy_from_slice(&per_lead.to_le_bytes());
        header[8..12].copy_from_slice(&522i32.to_le_bytes());
        header[12..16].copy_from_slice(&522i32.to_le_bytes());
        header[18..22].copy_from_slice(b"Jane");
        header[98..103].copy_from_slice(b"ID-42");
        put16(&mut header, 118, 2);
        for (o, v) in [
            (128, 7),
            (130, 3),
            (132, 2019),
            (140, 9),
            (142, 5),
            (144, 30),
        ] {
            put16(&mut header, o, v);
        }
        put16(&mut header, 146, i16::try_from(leads.len()).unwrap());
        for (i, (code, res)) in leads.iter().enumerate() {
            put16(&mut header, 148 + 2 * i, *code);
            put16(&mut header, 196 + 2 * i, *res);
        }
        put16(&mut header, 262, rate);
        let mut out = b"ISHNE1.0\0\0".to_vec();
        out.extend(header);
        out.extend(samples.iter().flat_map(|v| v.to_le_bytes()));
        out
    }

    #[test]
    fn reads_interleaved_leads_scaled_by_their_resolution() {
        let bytes = ishne(
            &[(6, 2500), (11, 1000)],
            200,
            &[400, -1000, -400, 2000, 0, 0],
        );
        assert_eq!(crate::detect(&bytes, None), Some(Format::Ishne));
        let rec = read(&bytes).unwrap();
        assert_eq!(rec.sampling_rate_hz, 200.0);
        let names: Vec<&str> = rec.channels.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["II", "V1"]);
        assert_eq!(rec.channels[0].samples, vec![1.0, -1.0, 0.0]);
        assert_eq!(rec.channels[1].samples, vec![-1.0, 2.0, 0.0]);
        assert_eq!(rec.start.as_deref(), Some("2019-03-07T09:05:30"));
        assert_eq!(rec.metadata["patient_first_name"], "Jane");
        assert_eq!(rec.metadata["sex"], "female");
    }

    #[test]
    fn a_total_sample_count_in_place_of_the_per_lead_count_is_accepted() {
        let mut bytes = ishne(&[(6, 1000), (7, 1000)], 100, &[1, 2, 3, 4]);
        bytes[14..18].copy_from_slice(&4i32.to_le_bytes());
        let rec = read(&bytes).unwrap();
        assert_eq!(rec.channels[1].samples.len(), 2);
    }

    #[test]
    fn a_file_shorter_than_its_claimed_samples_is_invalid() {
        let mut bytes = ishne(&[(6, 2500)], 200, &[1, 2, 3, 4]);
        bytes.truncate(bytes.len() - 2);
        assert!(read(&bytes).unwrap_err().to_string().contains("truncated"));
    }

    #[test]
    fn a_file_read_a_stretch_at_a_time_gives_the_samples_of_a_whole_read() {
        let leads = [(5, 2500), (6, 1000), (11, 3000)];
        let frames = 1201;
        let samples: Vec<i16> = (0..frames * 3)
            .map(|i| i16::try_from((i * 7919 + 13) % 60_000).unwrap_or(0) - 30_000)
            .collect();
        let bytes = ishne(&leads, 200, &samples);
        let whole = read(&bytes).unwrap();
        let dir = std::env::temp_dir().join(format!("cardio-ishne-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("day.ecg");
        std::fs::write(&path, &bytes).unwrap();

        let streamed = crate::open_path(&path, 2.0).unwrap().unwrap();
        assert!(crate::open_path(&path, 6.005).unwrap().is_none());

        assert_eq!(streamed.n_frames, frames);
        let mut head = whole.clone();
        for c in &mut head.channels {
            c.samples.truncate(400);
        }
        assert_eq!(streamed.head, head);
        for (signal, channel) in streamed.signals.iter().zip(&whole.channels) {
            assert_eq!(signal.len(), frames);
            for (a, b) in [(0, frames), (1, 2), (399, 1200), (1200, 5000)] {
                assert_eq!(
                    signal.read(a, b).unwrap(),
                    channel.samples[a..b.min(frames)]
                );
            }
        }
        std::fs::write(&path, &bytes[..bytes.len() - 2]).unwrap();
        let err = crate::open_path(&path, 2.0).unwrap_err();
        assert!(err.to_string().contains("truncated"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn absurd_headers_and_annotation_files_are_errors() {
        let good = ishne(&[(6, 2500)], 200, &[1, 2]);
        let mut no_leads = good.clone();
        no_leads[10 + 146..10 + 148].copy_from_slice(&0i16.to_le_bytes());
        assert!(read(&no_leads).is_err());
        let mut bad_offset = good.clone();
        bad_offset[10 + 12..10 + 16].copy_from_slice(&i32::MAX.to_le_bytes());
        assert!(read(&bad_offset).is_err());
        assert!(read(b"ANN  1.0 and more").is_err());
        assert!(read(&good[..100]).is_err());
    }
}
