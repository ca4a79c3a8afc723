//! Reading LUDB (Kalyakulina, A. I. et al. (2020), *IEEE Access* 8, 186181-186190) with one gain
//! for every lead.
//!
//! LUDB's headers give each lead its own gain, and that gain is the lead's peak-to-peak in counts
//! over the record: every one of the 2400 leads spans exactly 1 "mV" as the header reads it (gains
//! 238 to 10 592 counts per "mV"). The counts themselves share one scale: they obey Einthoven's
//! law (III = II - I, aVR = -(I + II)/2) within about 1 % RMS, while the header's millivolts miss
//! it by 5 to 65 % (records 1, 2, 3, 50, 100, 150, 200). The headers' gains are therefore a
//! per-lead normalisation, not a calibration: read through them, the leads' relative amplitudes
//! (and so the frontal axis) are distorted and every QRS stays under 1 mV. [`read_ludb`] reads the
//! counts with one gain, [`LUDB_COUNTS_PER_MV`]: one count is taken as 1 µV. LUDB does not state
//! the cart's resolution; at 1 µV a count, the Sokolow-Lyon voltage of the raw annotated beats has
//! a median of 2.4 mV (quartiles 1.9-3.0 mV), within adult norms.

use std::path::Path;

use cardio_formats::{FormatError, Recording};

/// LUDB's counts per millivolt when read with one gain for every lead: one count is 1 µV.
pub const LUDB_COUNTS_PER_MV: f64 = 1000.0;

/// Reads a LUDB record with one gain for every lead, [`LUDB_COUNTS_PER_MV`] (module doc).
///
/// # Errors
/// What [`cardio_formats::read_path`] returns.
pub fn read_ludb(path: &Path) -> Result<Recording, FormatError> {
    let mut rec = cardio_formats::read_path(path)?;
    common_gain(&mut rec, LUDB_COUNTS_PER_MV);
    Ok(rec)
}

/// Re-reads a WFDB recording's channels with one gain, `counts_per_mv`, instead of each signal's
/// header gain (`signal.N.gain` of the metadata); a channel without a usable gain is left alone.
pub fn common_gain(rec: &mut Recording, counts_per_mv: f64) {
    for (i, ch) in rec.channels.iter_mut().enumerate() {
        let gain = rec
            .metadata
            .get(&format!("signal.{i}.gain"))
            .and_then(|g| g.parse::<f64>().ok())
            .filter(|g| g.is_finite() && *g != 0.0);
        if let Some(g) = gain {
            let k = g / counts_per_mv;
            ch.samples.iter_mut().for_each(|s| *s *= k);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Relative RMS of III - (II - I) over III.
    fn einthoven_error(rec: &Recording) -> f64 {
        let lead = |name: &str| {
            &rec.channels
                .iter()
                .find(|c| c.name.eq_ignore_ascii_case(name))
                .unwrap()
                .samples
        };
        let (i, ii, iii) = (lead("i"), lead("ii"), lead("iii"));
        let (mut err, mut sum) = (0.0, 0.0);
        for k in 0..iii.len() {
            err += (iii[k] - (ii[k] - i[k])).powi(2);
            sum += iii[k].powi(2);
        }
        (err / sum).sqrt()
    }

    #[test]
    fn per_lead_gains_are_undone_so_einthovens_law_holds() {
        // Counts that obey III = II - I, written with LUDB-like per-lead gains (each lead's
        // peak-to-peak): the header's millivolts break the law, one gain keeps it.
        let dir = std::env::temp_dir().join(format!("cardio-ludb-gain-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let i: Vec<i16> = (0i16..50).map(|k| (k - 25) * 8).collect();
        let ii: Vec<i16> = (0i16..50).map(|k| 300 - (k - 20).pow(2)).collect();
        let n = i.len();
        let iii: Vec<i16> = i.iter().zip(&ii).map(|(a, b)| b - a).collect();
        let mut bytes = Vec::new();
        for k in 0..n {
            for v in [i[k], ii[k], iii[k]] {
                bytes.extend_from_slice(&v.to_le_bytes());
            }
        }
        std::fs::write(dir.join("r.dat"), bytes).unwrap();
        let pp =
            |v: &[i16]| i32::from(*v.iter().max().unwrap()) - i32::from(*v.iter().min().unwrap());
        let header = format!(
            "r 3 500 {n}\nr.dat 16 {}(0)/mV 16 0 0 0 0 i\nr.dat 16 {}(0)/mV 16 0 0 0 0 ii\nr.dat 16 {}(0)/mV 16 0 0 0 0 iii\n",
            pp(&i),
            pp(&ii),
            pp(&iii)
        );
        std::fs::write(dir.join("r.hea"), header).unwrap();
        let path = dir.join("r.hea");
        let as_header = cardio_formats::read_path(&path).unwrap();
        assert!(einthoven_error(&as_header) > 0.1);
        let rec = read_ludb(&path).unwrap();
        assert!(einthoven_error(&rec) < 1e-9);
        // One count is 1 µV: lead I's first sample, -200 counts, is -0.2 mV.
        assert!((rec.channels[0].samples[0] + 0.2).abs() < 1e-12);
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn ludb_record_1_obeys_einthovens_law_with_one_gain() {
        let Some(path) = cardio_testkit::dataset_file("ludb/data/1.hea") else {
            return;
        };
        // Through the header's per-lead gains: about 60 % RMS; with one gain: about 1 %.
        let as_header = cardio_formats::read_path(&path).unwrap();
        assert!(einthoven_error(&as_header) > 0.3);
        let rec = read_ludb(&path).unwrap();
        assert!(einthoven_error(&rec) < 0.03, "{}", einthoven_error(&rec));
        // Every lead of the header's millivolts spans exactly 1 mV; with one gain, V5 spans more.
        let span = |r: &Recording, name: &str| {
            let x = &r.channels.iter().find(|c| c.name == name).unwrap().samples;
            x.iter().copied().fold(f64::NEG_INFINITY, f64::max)
                - x.iter().copied().fold(f64::INFINITY, f64::min)
        };
        assert!((span(&as_header, "v5") - 1.0).abs() < 1e-9);
        assert!(span(&rec, "v5") > 2.0, "{}", span(&rec, "v5"));
    }
}
