//! The page's words: text runs gathered into lines, the paper speed and gain they state
//! ("25mm/s", "10 mm/mV", "3 * 5s 50mm/s"), lead names, and the device's own interpretation
//! (Kardia determination and heart rate; GE MUSE 12SL and GE CardioSoft measurements and
//! statements, in English or German).

use super::page::TextRun;
use crate::{DeviceInterpretation, DeviceMeasurement};

/// A line of text in the reading frame.
#[derive(Debug, Clone)]
pub(crate) struct Line {
    pub text: String,
    /// The line's pieces between wide gaps, with where each starts.
    pub parts: Vec<(f64, String)>,
}

/// Gathers runs on one baseline into lines, left to right; a wide gap is written as two spaces.
pub(crate) fn lines(runs: &[TextRun]) -> Vec<Line> {
    let mut sorted: Vec<&TextRun> = runs.iter().collect();
    sorted.sort_by(|a, b| b.v.total_cmp(&a.v).then(a.u.total_cmp(&b.u)));
    let mut rows: Vec<Vec<&TextRun>> = Vec::new();
    for r in sorted {
        match rows.last_mut() {
            Some(row) if (row[0].v - r.v).abs() < 0.3 * r.size.max(row[0].size) => row.push(r),
            _ => rows.push(vec![r]),
        }
    }
    let mut out = Vec::new();
    for mut row in rows {
        row.sort_by(|a, b| a.u.total_cmp(&b.u));
        let mut text = String::new();
        let mut parts: Vec<(f64, String)> = Vec::new();
        let mut end = f64::NEG_INFINITY;
        for r in &row {
            let gap = r.u - end;
            if text.is_empty() || gap > 1.5 * r.size {
                parts.push((r.u, String::new()));
            }
            if let Some(part) = parts.last_mut() {
                part.1.push_str(&r.text);
            }
            if !text.is_empty() {
                if gap > 1.5 * r.size {
                    text.push_str("  ");
                } else if gap > 0.15 * r.size && !text.ends_with(' ') && !r.text.starts_with(' ') {
                    text.push(' ');
                }
            }
            text.push_str(&r.text);
            end = end.max(r.u_end);
        }
        out.push(Line { text, parts });
    }
    out
}

/// The numbers in `s` (a comma as decimal separator accepted), with their end offsets.
fn numbers(s: &str) -> Vec<(f64, usize, usize)> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let neg = b[i] == b'-' && b.get(i + 1).is_some_and(u8::is_ascii_digit);
        if b[i].is_ascii_digit() || neg {
            let start = i;
            i += usize::from(neg);
            while i < b.len()
                && (b[i].is_ascii_digit()
                    || ((b[i] == b'.' || b[i] == b',')
                        && b.get(i + 1).is_some_and(u8::is_ascii_digit)))
            {
                i += 1;
            }
            if let Ok(v) = s[start..i].replace(',', ".").parse::<f64>() {
                out.push((v, start, i));
            }
        } else {
            i += 1;
        }
    }
    out
}

/// The first value stated before `unit` (e.g. "25 mm/s", "3 * 5s 50mm/s": 50).
fn value_before(text: &str, unit: &str) -> Option<f64> {
    let lower = text.to_ascii_lowercase();
    let mut from = 0;
    while let Some(p) = lower[from..].find(unit) {
        let at = from + p;
        let head = lower[..at].trim_end();
        if let Some(&(v, _, end)) = numbers(head).last() {
            if end == head.len() && v > 0.0 {
                return Some(v);
            }
        }
        from = at + unit.len();
    }
    None
}

/// Paper speed (mm/s) and gain (mm/mV) stated in the text, first found.
pub(crate) fn speed_and_gain(lines: &[Line]) -> (Option<f64>, Option<f64>) {
    let speed = lines
        .iter()
        .find_map(|l| value_before(&l.text, "mm/s").filter(|v| (1.0..=200.0).contains(v)));
    let gain = lines
        .iter()
        .find_map(|l| value_before(&l.text, "mm/mv").filter(|v| (0.5..=100.0).contains(v)));
    (speed, gain)
}

/// The standard name of a lead label ("aVR", "V1", "V4R"), or `None` when `s` is no lead name.
pub(crate) fn lead_name(s: &str) -> Option<String> {
    let t: String = s.trim().trim_end_matches([':', '*']).trim().to_string();
    let upper = t.to_ascii_uppercase();
    let name = match upper.as_str() {
        "I" | "II" | "III" => upper,
        "AVR" | "AVL" | "AVF" => format!("aV{}", &upper[2..]),
        "-AVR" => "-aVR".to_string(),
        _ => {
            let rest = upper.strip_prefix('V')?;
            let (digits, suffix) = rest.split_at(
                rest.find(|c: char| !c.is_ascii_digit())
                    .unwrap_or(rest.len()),
            );
            let n: u32 = digits.parse().ok()?;
            if !(1..=9).contains(&n) || !(suffix.is_empty() || suffix == "R") {
                return None;
            }
            format!("V{n}{suffix}")
        }
    };
    Some(name)
}

/// Keys, document labels (lower case, as they start a phrase) and how many values each label
/// gives, in the order of `keys`.
const LABELS: &[(&str, &[&str], &str)] = &[
    ("vent. rate", &["heart_rate_bpm"], "bpm"),
    ("ventricular rate", &["heart_rate_bpm"], "bpm"),
    ("herzfrequenz", &["heart_rate_bpm"], "/min"),
    ("heart rate", &["heart_rate_bpm"], "bpm"),
    ("atrial rate", &["atrial_rate_bpm"], "bpm"),
    ("pr interval", &["pr_ms"], "ms"),
    ("pq intervall", &["pr_ms"], "ms"),
    ("pq interval", &["pr_ms"], "ms"),
    ("qrs duration", &["qrs_ms"], "ms"),
    ("qrs dauer", &["qrs_ms"], "ms"),
    ("qt/qtc", &["qt_ms", "qtc_ms"], "ms"),
    (
        "p-r-t axes",
        &["p_axis_deg", "qrs_axis_deg", "t_axis_deg"],
        "°",
    ),
    (
        "p-qrs-t winkel",
        &["p_axis_deg", "qrs_axis_deg", "t_axis_deg"],
        "°",
    ),
    (
        "p-qrs-t axes",
        &["p_axis_deg", "qrs_axis_deg", "t_axis_deg"],
        "°",
    ),
    ("p dauer", &["p_ms"], "ms"),
    ("p duration", &["p_ms"], "ms"),
    ("rr/pp intervall", &["rr_ms", "pp_ms"], "ms"),
    ("rr/pp", &["rr_ms", "pp_ms"], "ms"),
];

/// The measurements stated in `lines` (each label once, first found).
fn measurements(lines: &[Line]) -> Vec<DeviceMeasurement> {
    let mut out: Vec<DeviceMeasurement> = Vec::new();
    for line in lines {
        let lower = line.text.to_lowercase();
        for (label, keys, unit) in LABELS {
            let Some(at) = lower.find(label) else {
                continue;
            };
            if keys.iter().any(|k| out.iter().any(|m| m.key == *k)) {
                continue;
            }
            // The values follow the label, before the next letters of another label.
            let after = &line.text[at + label.len()..];
            let stop = after
                .char_indices()
                .skip_while(|(_, c)| !c.is_ascii_digit() && *c != '-')
                .find(|(_, c)| {
                    c.is_alphabetic()
                        && *c != 'm'
                        && *c != 's'
                        && *c != 'B'
                        && *c != 'P'
                        && *c != 'M'
                })
                .map_or(after.len(), |(i, _)| i);
            let values: Vec<f64> = numbers(&after[..stop])
                .into_iter()
                .map(|(v, _, _)| v)
                .collect();
            if values.len() < keys.len() {
                continue;
            }
            let doc_label = line.text[at..at + label.len()].to_string();
            for (key, value) in keys.iter().zip(values) {
                out.push(DeviceMeasurement {
                    key: (*key).to_string(),
                    label: doc_label.clone(),
                    value,
                    unit: (*unit).to_string(),
                });
            }
        }
    }
    out
}

/// The device's own interpretation printed on the pages, when there is one.
pub(crate) fn interpretation(lines: &[Line]) -> Option<DeviceInterpretation> {
    let all: String = lines
        .iter()
        .map(|l| l.text.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    let measurements = measurements(lines);
    let mut statements = Vec::new();
    let source;
    if all.contains("AliveCor") || all.contains("Kardia") {
        source = if all.contains("6L") || lines.iter().any(|l| l.text.trim() == "aVF") {
            "AliveCor KardiaMobile 6L".to_string()
        } else {
            "AliveCor KardiaMobile".to_string()
        };
        // The determination follows its label on the same line or on the line below.
        let determination = lines.iter().enumerate().find_map(|(i, l)| {
            let at = l.text.find("Determination:")?;
            let rest = l.text[at + "Determination:".len()..].trim();
            let d = rest.split("  ").next().unwrap_or(rest).trim();
            let d = if d.is_empty() {
                lines.get(i + 1)?.text.trim()
            } else {
                d
            };
            (!d.is_empty()).then(|| d.to_string())
        });
        statements.extend(determination);
    } else if let Some(l) = lines.iter().find(|l| l.text.contains("CardioSoft")) {
        source = l
            .text
            .split("  ")
            .find(|p| p.contains("CardioSoft"))
            .unwrap_or("GE CardioSoft")
            .trim()
            .to_string();
    } else if all.contains("MUSE")
        || measurements
            .iter()
            .any(|m| m.label.eq_ignore_ascii_case("vent. rate"))
    {
        source = "GE MUSE".to_string();
        statements = muse_statements(lines);
    } else {
        source = String::new();
    }
    if measurements.is_empty() && statements.is_empty() {
        return None;
    }
    Some(DeviceInterpretation {
        source,
        statements,
        measurements,
    })
}

/// The 12SL statements of a MUSE print: the column right of the measurements, from the line of
/// "Vent. rate" down to the end of that column.
fn muse_statements(lines: &[Line]) -> Vec<String> {
    let Some(first) = lines
        .iter()
        .position(|l| l.text.to_ascii_lowercase().contains("vent. rate"))
    else {
        return Vec::new();
    };
    let Some(&(column, _)) = lines[first].parts.last() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for l in &lines[first..] {
        let Some((_, text)) = l.parts.iter().find(|(u, _)| (u - column).abs() < 2.0) else {
            break;
        };
        out.push(text.trim().to_string());
        if out.len() >= 30 {
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(text: &str) -> Line {
        Line {
            text: text.into(),
            parts: vec![(0.0, text.into())],
        }
    }

    #[test]
    fn speed_and_gain_are_read_in_the_spellings_devices_print() {
        for (text, speed, gain) in [
            ("Scale: 25mm/s, 10mm/mV", 25.0, 10.0),
            ("50mm/s  10mm/mV   0.01-20Hz", 50.0, 10.0),
            ("25 mm/s 10 mm/mV", 25.0, 10.0),
        ] {
            assert_eq!(
                speed_and_gain(&[line(text)]),
                (Some(speed), Some(gain)),
                "{text}"
            );
        }
        assert_eq!(
            speed_and_gain(&[line("RUHE-EKG / 3 * 5s 50mm/s")]).0,
            Some(50.0)
        );
    }

    #[test]
    fn lead_labels_are_normalised() {
        assert_eq!(lead_name("AVR").as_deref(), Some("aVR"));
        assert_eq!(lead_name(" V1 ").as_deref(), Some("V1"));
        assert_eq!(lead_name("V4r").as_deref(), Some("V4R"));
        assert_eq!(lead_name("III").as_deref(), Some("III"));
        assert_eq!(lead_name("Vent"), None);
        assert_eq!(lead_name("V10"), None);
    }

    #[test]
    fn german_measurements_map_to_stable_keys() {
        let lines = [
            line("Herzfrequenz  75/min"),
            line("QT/QTc  366/408ms"),
            line("P-QRS-T Winkel  68/69/60°"),
        ];
        let m = measurements(&lines);
        let get = |k: &str| m.iter().find(|m| m.key == k).map(|m| m.value);
        assert_eq!(get("heart_rate_bpm"), Some(75.0));
        assert_eq!(get("qtc_ms"), Some(408.0));
        assert_eq!(get("qrs_axis_deg"), Some(69.0));
    }
}
