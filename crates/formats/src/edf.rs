//! European Data Format: EDF (Kemp et al. 1992), EDF+ (Kemp and Olivan 2003) and BioSemi's BDF.
//!
//! A 256-byte ASCII header (version, patient, recording, start date `dd.mm.yy` and time `hh.mm.ss`,
//! header size, reserved field with `EDF+C`/`EDF+D`, number of data records, record duration, number of
//! signals `ns`) is followed by `ns` 256-byte signal headers stored field by field (label, transducer,
//! physical dimension, physical minimum and maximum, digital minimum and maximum, prefiltering, samples
//! per record). Each data record then holds every signal's samples for that record in turn: 16-bit
//! little-endian two's complement in EDF, 24-bit in BDF. Physical values are
//! `pmin + (d - dmin) * (pmax - pmin) / (dmax - dmin)`.
//!
//! EDF+ `EDF Annotations` signals carry text, not samples, and are skipped. A [`Recording`] has one
//! rate, so when signals differ in rate the reader keeps those at the rate of the first ECG-like signal
//! (label with `ECG`/`EKG`), else at the most common rate, and lists the others in the metadata
//! under `skipped_signals`. Years follow the EDF clipping rule: `yy` 85-99 is 19yy, 00-84 is 20yy.

use std::collections::BTreeMap;

use crate::{Channel, Format, FormatError, Recording, MAX_CHANNELS, MAX_VALUES};

struct Signal {
    label: String,
    transducer: String,
    unit: String,
    physical_min: f64,
    physical_max: f64,
    digital_min: f64,
    digital_max: f64,
    prefiltering: String,
    samples_per_record: usize,
}

impl Signal {
    fn is_annotation(&self) -> bool {
        self.label == "EDF Annotations" || self.label == "BDF Annotations"
    }
}

fn ascii(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|&b| {
            if b.is_ascii() && !b.is_ascii_control() {
                char::from(b)
            } else {
                ' '
            }
        })
        .collect::<String>()
        .trim()
        .to_string()
}

/// Reads an EDF, EDF+ or BDF file.
///
/// # Errors
/// [`FormatError::Invalid`] for a header whose numbers do not parse or do not agree with the file's
/// size, [`FormatError::UnsupportedFeature`] when no signal holds samples.
pub fn read(bytes: &[u8]) -> Result<Recording, FormatError> {
    let bdf = bytes.first() == Some(&0xff);
    let format = if bdf { Format::Bdf } else { Format::Edf };
    let invalid = |reason: String| FormatError::invalid(format, reason);
    let header = bytes.get(..256).ok_or_else(|| {
        invalid(format!(
            "{} bytes, shorter than the 256-byte header",
            bytes.len()
        ))
    })?;
    let field = |range: std::ops::Range<usize>| ascii(&header[range]);
    let number = |name: &str, text: String| -> Result<f64, FormatError> {
        text.parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .ok_or_else(|| invalid(format!("{name} {text:?} is not a number")))
    };
    let integer = |name: &str, text: String| -> Result<i64, FormatError> {
        text.parse::<i64>()
            .map_err(|_| invalid(format!("{name} {text:?} is not an integer")))
    };
    let ns = usize::try_from(integer("number of signals", field(252..256))?)
        .map_err(|_| invalid("negative number of signals".into()))?;
    if ns == 0 || ns > MAX_CHANNELS {
        return Err(invalid(format!("{ns} signals")));
    }
    let header_bytes = 256 * (ns + 1);
    let declared = integer("header size", field(184..192))?;
    if usize::try_from(declared).ok() != Some(header_bytes) {
        return Err(invalid(format!(
            "header size {declared} does not match {ns} signals ({header_bytes} bytes)"
        )));
    }
    let signal_header = bytes
        .get(256..header_bytes)
        .ok_or_else(|| invalid("truncated signal headers".into()))?;
    // Fields are stored one after another for all signals: `width` bytes for each of the ns signals.
    let mut offset = 0;
    let mut column = |width: usize| -> Vec<String> {
        let values = (0..ns)
            .map(|i| ascii(&signal_header[offset + i * width..offset + (i + 1) * width]))
            .collect();
        offset += width * ns;
        values
    };
    let labels = column(16);
    let transducers = column(80);
    let units = column(8);
    let pmins = column(8);
    let pmaxs = column(8);
    let dmins = column(8);
    let dmaxs = column(8);
    let prefilterings = column(80);
    let counts = column(8);
    let mut signals = Vec::with_capacity(ns);
    for i in 0..ns {
        let spr = integer("samples per record", counts[i].clone())?;
        signals.push(Signal {
            label: labels[i].clone(),
            transducer: transducers[i].clone(),
            unit: units[i].clone(),
            physical_min: number("physical minimum", pmins[i].clone())?,
            physical_max: number("physical maximum", pmaxs[i].clone())?,
            digital_min: number("digital minimum", dmins[i].clone())?,
            digital_max: number("digital maximum", dmaxs[i].clone())?,
            prefiltering: prefilterings[i].clone(),
            samples_per_record: usize::try_from(spr)
                .map_err(|_| invalid(format!("signal {i}: negative samples per record")))?,
        });
    }
    let width = if bdf { 3 } else { 2 };
    let record_samples = signals
        .iter()
        .try_fold(0usize, |acc, s| acc.checked_add(s.samples_per_record))
        .ok_or_else(|| invalid("samples per record overflow".into()))?;
    let record_bytes = record_samples
        .checked_mul(width)
        .filter(|&b| b > 0)
        .ok_or_else(|| invalid("data records of zero or absurd size".into()))?;
    let data = &bytes[header_bytes..];
    let available = data.len() / record_bytes;
    let claimed = integer("number of data records", field(236..244))?;
    let n_records = if claimed < 0 {
        available // -1: unknown, as while recording
    } else {
        usize::try_from(claimed)
            .unwrap_or(usize::MAX)
            .min(available)
    };
    let duration = number("data record duration", field(244..252))?;
    if duration <= 0.0 {
        return Err(FormatError::feature(
            format,
            "data records of duration 0 (an annotation-only file) hold no signal",
        ));
    }
    // Pick the signals that share one rate.
    let sample_signals: Vec<usize> = (0..ns)
        .filter(|&i| !signals[i].is_annotation() && signals[i].samples_per_record > 0)
        .collect();
    let ecg_like = sample_signals.iter().find(|&&i| {
        let l = signals[i].label.to_ascii_uppercase();
        l.contains("ECG") || l.contains("EKG")
    });
    let chosen_spr = if let Some(&i) = ecg_like {
        signals[i].samples_per_record
    } else {
        let mut tally: BTreeMap<usize, usize> = BTreeMap::new();
        for &i in &sample_signals {
            *tally.entry(signals[i].samples_per_record).or_default() += 1;
        }
        // Most common; ties go to the higher rate (the later key).
        tally
            .into_iter()
            .max_by_key(|&(spr, n)| (n, spr))
            .map(|(spr, _)| spr)
            .ok_or_else(|| {
                FormatError::feature(format, "no signal holds samples (annotations only)")
            })?
    };
    let kept: Vec<usize> = sample_signals
        .iter()
        .copied()
        .filter(|&i| signals[i].samples_per_record == chosen_spr)
        .collect();
    let total = kept
        .len()
        .checked_mul(chosen_spr)
        .and_then(|v| v.checked_mul(n_records))
        .filter(|&v| v <= MAX_VALUES)
        .ok_or_else(|| FormatError::TooLarge(format!("{n_records} data records")))?;
    debug_assert!(total <= data.len());
    // Byte offset of each signal inside a record.
    let mut starts = Vec::with_capacity(ns);
    let mut acc = 0;
    for s in &signals {
        starts.push(acc);
        acc += s.samples_per_record * width;
    }
    let channels = kept
        .iter()
        .map(|&i| {
            let s = &signals[i];
            let span = s.digital_max - s.digital_min;
            let scale = if span == 0.0 {
                1.0
            } else {
                (s.physical_max - s.physical_min) / span
            };
            let mut samples = Vec::with_capacity(n_records * chosen_spr);
            for r in 0..n_records {
                let begin = r * record_bytes + starts[i];
                let chunk = &data[begin..begin + chosen_spr * width];
                samples.extend(chunk.chunks_exact(width).map(|c| {
                    let d = if bdf {
                        i32::from_le_bytes([0, c[0], c[1], c[2]]) >> 8
                    } else {
                        i32::from(i16::from_le_bytes([c[0], c[1]]))
                    };
                    s.physical_min + (f64::from(d) - s.digital_min) * scale
                }));
            }
            Channel {
                name: s.label.clone(),
                unit: s.unit.clone(),
                samples,
            }
        })
        .collect();
    let mut metadata = BTreeMap::new();
    metadata.insert("format".into(), format.to_string());
    let reserved = field(192..236);
    if reserved.starts_with("EDF+") || reserved.starts_with("BDF+") {
        metadata.insert("edf_plus".into(), reserved.clone());
        if reserved.ends_with('D') {
            metadata.insert("discontinuous".into(), "true".into());
        }
    }
    metadata.insert("patient".into(), field(8..88));
    metadata.insert("recording".into(), field(88..168));
    metadata.insert("record_duration_s".into(), duration.to_string());
    metadata.insert("data_records".into(), n_records.to_string());
    if claimed >= 0 && usize::try_from(claimed).ok() != Some(n_records) {
        metadata.insert(
            "truncated".into(),
            format!("header claims {claimed} data records, file holds {n_records}"),
        );
    }
    for (k, &i) in kept.iter().enumerate() {
        let s = &signals[i];
        for (key, value) in [
            ("transducer", &s.transducer),
            ("prefiltering", &s.prefiltering),
        ] {
            if !value.is_empty() {
                metadata.insert(format!("signal.{k}.{key}"), value.clone());
            }
        }
    }
    let skipped: Vec<String> = sample_signals
        .iter()
        .filter(|i| !kept.contains(i))
        .map(|&i| {
            format!(
                "{} ({} Hz)",
                signals[i].label,
                signals[i].samples_per_record as f64 / duration
            )
        })
        .collect();
    if !skipped.is_empty() {
        metadata.insert("skipped_signals".into(), skipped.join(", "));
    }
    Ok(Recording {
        channels,
        sampling_rate_hz: chosen_spr as f64 / duration,
        start: start_time(&field(168..176), &field(176..184)),
        metadata,
        device_interpretation: None,
    })
}

/// `dd.mm.yy` + `hh.mm.ss` → ISO 8601 with the EDF clipping year rule.
fn start_time(date: &str, time: &str) -> Option<String> {
    let parts = |text: &str| -> Option<Vec<u32>> {
        text.split('.').map(|p| p.trim().parse().ok()).collect()
    };
    let (ymd, hms) = (parts(date)?, parts(time)?);
    match (ymd.as_slice(), hms.as_slice()) {
        (
            [day @ 1..=31, month @ 1..=12, yy @ 0..=99],
            [hour @ 0..=23, minute @ 0..=59, second @ 0..=60],
        ) => {
            let year = if *yy >= 85 { 1900 + yy } else { 2000 + yy };
            Some(format!(
                "{year:04}-{month:02}-{day:02}T{hour:02}:{minute:02}:{second:02}"
            ))
        }
        _ => None,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// One signal for [`edf`]: label, unit, physical and digital ranges, samples per record.
    pub(crate) struct Spec<'a> {
        pub label: &'a str,
        pub unit: &'a str,
        pub physical: (f64, f64),
        pub digital: (i32, i32),
        pub per_record: usize,
    }

    type Column<'c> = (usize, &'c dyn Fn(&Spec) -> String);

    fn pad(out: &mut Vec<u8>, text: &str, width: usize) {
        let mut field = text.as_bytes().to_vec();
        field.resize(width, b' ');
        out.extend(field);
    }

    /// An EDF (or BDF when `bdf`) file; `records[r][s]` holds signal `s`'s digital values in record `r`.
    pub(crate) fn edf(
        bdf: bool,
        reserved: &str,
        duration: &str,
        specs: &[Spec],
        records: &[Vec<Vec<i32>>],
    ) -> Vec<u8> {
        let ns = specs.len();
        let mut out = Vec::new();
        if bdf {
            out.extend(b"\xffBIOSEMI");
        } else {
            pad(&mut out, "0", 8);
        }
        pad(&mut out, "X M 01-JAN-1970 Patient", 80);
        pad(&mut out, "Startdate 05-MAR-2021 X X X", 80);
        pad(&mut out, "05.03.21", 8);
        pad(&mut out, "13.45.07", 8);
        pad(&mut out, &(256 * (ns + 1)).to_string(), 8);
        pad(&mut out, reserved, 44);
        pad(&mut out, &records.len().to_string(), 8);
        pad(&mut out, duration, 8);
        pad(&mut out, &ns.to_string(), 4);
        let columns: [Column; 10] = [
            (16, &|s| s.label.to_string()),
            (80, &|_| "AgAgCl electrode".to_string()),
            (8, &|s| s.unit.to_string()),
            (8, &|s| s.physical.0.to_string()),
            (8, &|s| s.physical.1.to_string()),
            (8, &|s| s.digital.0.to_string()),
            (8, &|s| s.digital.1.to_string()),
            (80, &|_| "HP:0.1Hz".to_string()),
            (8, &|s| s.per_record.to_string()),
            (32, &|_| String::new()),
        ];
        for (width, value) in columns {
            for s in specs {
                pad(&mut out, &value(s), width);
            }
        }
        for record in records {
            for values in record {
                for &v in values {
                    if bdf {
                        out.extend(&v.to_le_bytes()[..3]);
                    } else {
                        out.extend((v as i16).to_le_bytes());
                    }
                }
            }
        }
        out
    }

    fn ecg(per_record: usize) -> Spec<'static> {
        Spec {
            label: "ECG I",
            unit: "mV",
            physical: (-5.0, 5.0),
            digital: (-2048, 2047),
            per_record,
        }
    }

    #[test]
    fn reads_records_scales_digital_to_physical_and_gives_the_start() {
        let bytes = edf(
            false,
            "",
            "1",
            &[ecg(4)],
            &[vec![vec![-2048, 2047, 0, 1]], vec![vec![5, 6, 7, 8]]],
        );
        let rec = read(&bytes).unwrap();
        assert_eq!(rec.sampling_rate_hz, 4.0);
        assert_eq!(rec.channels[0].name, "ECG I");
        assert_eq!(rec.channels[0].unit, "mV");
        let s = &rec.channels[0].samples;
        assert_eq!(s.len(), 8);
        assert_eq!((s[0], s[1]), (-5.0, 5.0));
        assert!((s[2] - (-5.0 + 2048.0 * 10.0 / 4095.0)).abs() < 1e-12);
        assert_eq!(rec.start.as_deref(), Some("2021-03-05T13:45:07"));
        assert_eq!(rec.metadata["signal.0.prefiltering"], "HP:0.1Hz");
    }

    #[test]
    fn edf_plus_annotations_are_skipped_and_other_rates_listed() {
        let annotations = Spec {
            label: "EDF Annotations",
            unit: "",
            physical: (-1.0, 1.0),
            digital: (-32768, 32767),
            per_record: 3,
        };
        let resp = Spec {
            label: "Resp",
            unit: "a.u.",
            physical: (0.0, 1.0),
            digital: (0, 100),
            per_record: 1,
        };
        let bytes = edf(
            false,
            "EDF+C",
            "0.5",
            &[resp, ecg(2), annotations],
            &[vec![vec![50], vec![0, 0], vec![0x142b, 0x1400, 0]]],
        );
        let rec = read(&bytes).unwrap();
        assert_eq!(rec.sampling_rate_hz, 4.0);
        assert_eq!(rec.channels.len(), 1);
        assert_eq!(rec.channels[0].name, "ECG I");
        assert_eq!(rec.metadata["skipped_signals"], "Resp (2 Hz)");
        assert_eq!(rec.metadata["edf_plus"], "EDF+C");
    }

    #[test]
    fn reads_bdf_24_bit_samples() {
        let spec = Spec {
            label: "EXG1",
            unit: "uV",
            physical: (-262_144.0, 262_143.0),
            digital: (-8_388_608, 8_388_607),
            per_record: 2,
        };
        let rec = read(&edf(
            true,
            "24BIT",
            "1",
            &[spec],
            &[vec![vec![-8_388_608, 8_388_607]]],
        ))
        .unwrap();
        assert_eq!(rec.channels[0].samples, vec![-262_144.0, 262_143.0]);
        assert_eq!(rec.metadata["format"], "BDF");
    }

    #[test]
    fn a_truncated_file_keeps_its_whole_records_and_says_so() {
        let mut bytes = edf(
            false,
            "",
            "1",
            &[ecg(4)],
            &[vec![vec![1, 2, 3, 4]], vec![vec![5, 6, 7, 8]]],
        );
        bytes.truncate(bytes.len() - 3);
        let rec = read(&bytes).unwrap();
        assert_eq!(rec.channels[0].samples.len(), 4);
        assert!(rec.metadata["truncated"].contains("claims 2"));
    }

    #[test]
    fn inconsistent_headers_are_errors() {
        let good = edf(false, "", "1", &[ecg(4)], &[vec![vec![1, 2, 3, 4]]]);
        let mut wrong_size = good.clone();
        wrong_size[184..192].copy_from_slice(b"9999    ");
        assert!(read(&wrong_size)
            .unwrap_err()
            .to_string()
            .contains("header size"));
        let mut huge = good.clone();
        huge[252..256].copy_from_slice(b"9999");
        assert!(read(&huge).is_err());
        let mut zero_duration = good.clone();
        zero_duration[244..252].copy_from_slice(b"0       ");
        assert!(read(&zero_duration).is_err());
        assert!(read(&good[..100]).is_err());
    }

    #[test]
    fn is_detected_by_content() {
        let bytes = edf(false, "", "1", &[ecg(4)], &[vec![vec![1, 2, 3, 4]]]);
        assert_eq!(crate::detect(&bytes, None), Some(Format::Edf));
    }
}
