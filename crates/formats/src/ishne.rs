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

use std::collections::BTreeMap;

use crate::{checked_values, Channel, Format, FormatError, Recording};

const F: Format = Format::Ishne;

/// The ISHNE lead codes 0..=19 (Table 2 of the specification).
const LEADS: [&str; 20] = [
    "unknown", "bipolar", "X", "Y", "Z", "I", "II", "III", "aVR", "aVL", "aVF", "V1", "V2", "V3",
    "V4", "V5", "V6", "ES", "AS", "AI",
];

/// Reads an ISHNE Holter ECG file.
///
/// # Errors
/// [`FormatError::Invalid`] for a short header, absurd lead counts, rates or offsets, or an ECG block
/// shorter than the header claims; [`FormatError::UnsupportedFeature`] for annotation files.
pub fn read(bytes: &[u8]) -> Result<Recording, FormatError> {
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
    let data = bytes
        .get(ecg_offset..)
        .filter(|_| ecg_offset >= 522)
        .ok_or_else(|| {
            FormatError::invalid(F, format!("ECG block offset {ecg_offset} outside the file"))
        })?;
    // Files written while recording may claim 0 samples; then the file's length decides.
    let available = data.len() / 2 / n_leads;
    // Some writers store the total sample count instead of the count per lead (ishneholterlib's
    // validity check accepts both); take the reading that fits the file.
    let total_available = data.len() / 2;
    let frames = if samples_per_lead == 0 {
        available
    } else if samples_per_lead.saturating_mul(n_leads) <= total_available {
        samples_per_lead
    } else if samples_per_lead <= total_available && samples_per_lead % n_leads == 0 {
        samples_per_lead / n_leads
    } else {
        samples_per_lead
    };
    let total = checked_values(F, frames, n_leads, data.len() / 2)?;
    let mut channels: Vec<Channel> = (0..n_leads)
        .map(|lead| {
            let code = usize::try_from(i16_at(148 + 2 * lead)).unwrap_or(0);
            Channel {
                name: LEADS
                    .get(code)
                    .map_or_else(|| format!("lead {code}"), |s| (*s).to_string()),
                unit: "mV".into(),
                samples: Vec::with_capacity(frames),
            }
        })
        .collect();
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
    for (k, pair) in data[..total * 2].chunks_exact(2).enumerate() {
        let lead = k % n_leads;
        let value = f64::from(i16::from_le_bytes([pair[0], pair[1]]));
        channels[lead].samples.push(value * scales[lead]);
    }
    // Duplicate names (e.g. two "bipolar" leads) get their position appended.
    let names: Vec<String> = channels.iter().map(|c| c.name.clone()).collect();
    for (i, c) in channels.iter_mut().enumerate() {
        if names.iter().filter(|n| **n == c.name).count() > 1 {
            c.name = format!("{} {}", c.name, i + 1);
        }
    }
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
    Ok(Recording {
        channels,
        sampling_rate_hz: f64::from(rate),
        start,
        metadata,
        device_interpretation: None,
    })
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
