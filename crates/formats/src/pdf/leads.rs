//! From drawn lines to leads: which polylines are traces (long, dark, running left to right) and
//! which are calibration pulses (a 1-mV square step), which lead each trace is (the nearest lead
//! label), where it lies in time, and its samples.
//!
//! Time: on a page whose rows show different leads side by side (3x4 pieces of 2.5 s, rhythm
//! strips, CardioSoft's six leads) every row starts at the page's first trace, so a piece's offset
//! is its distance from there; on a page whose rows all show one lead (Kardia 1L) each row
//! continues the one above. A lead found again on a later page (Kardia 6L, pages 2-5) continues
//! where it stopped. When one page shows a lead twice over the same time (the 2.5-s II piece and
//! the 10-s II rhythm strip of a MUSE print), the longer drawing is kept: the rhythm strip gives
//! that lead's samples and the lead spans all 10 s.
//!
//! Baseline (0 mV): the foot of the row's calibration pulse, else a dark straight line the row is
//! drawn on (Kardia's row lines), else the trace's median.

use super::grid::{self, is_light, PT_PER_MM};
use super::page::{luminance, Page, Stroke};
use super::text::{self, Line};
use super::{Limits, SAMPLING_RATE_HZ};
use crate::{Channel, Format, FormatError, Recording};
use std::collections::BTreeMap;

/// A calibration pulse.
#[derive(Debug, Clone, Copy)]
struct Pulse {
    u_end: f64,
    foot: f64,
    height: f64,
}

/// One trace polyline, placed.
#[derive(Debug)]
struct Piece<'p> {
    points: &'p [[f64; 2]],
    u0: f64,
    u1: f64,
    median: f64,
    step: f64,
    row: usize,
    lead: Option<String>,
    baseline: f64,
    t0: f64,
}

fn median(mut v: Vec<f64>) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn pulse(s: &Stroke, mm: f64) -> Option<Pulse> {
    let p = &s.points;
    if p.len() < 4 || is_light(s.color) {
        return None;
    }
    let (lo, hi) = p
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), q| {
            (a.min(q[1]), b.max(q[1]))
        });
    let u0 = p.iter().map(|q| q[0]).fold(f64::INFINITY, f64::min);
    let u1 = p.iter().map(|q| q[0]).fold(f64::NEG_INFINITY, f64::max);
    let height = hi - lo;
    if !(2.5 * mm..=40.0 * mm).contains(&height) || u1 - u0 > 15.0 * mm || u1 - u0 < 1.0 * mm {
        return None;
    }
    let tol = 0.03 * height;
    if !p
        .iter()
        .all(|q| (q[1] - lo).abs() < tol || (q[1] - hi).abs() < tol)
    {
        return None;
    }
    let foot = p[0][1];
    let up = if (foot - lo).abs() < tol {
        height
    } else {
        -height
    };
    Some(Pulse {
        u_end: u1,
        foot,
        height: up,
    })
}

fn is_trace(s: &Stroke, mm: f64) -> bool {
    let p = &s.points;
    if p.len() < 20 || is_light(s.color) || luminance(s.color) > 0.6 {
        return false;
    }
    let extent = p[p.len() - 1][0] - p[0][0];
    if extent < 10.0 * mm {
        return false;
    }
    let back = p.windows(2).filter(|w| w[1][0] < w[0][0] - 0.01).count();
    if back * 100 > p.len() {
        return false;
    }
    let (lo, hi) = p
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), q| {
            (a.min(q[1]), b.max(q[1]))
        });
    hi - lo > 0.05 * mm
}

/// Dark horizontal straight lines at least 50 mm long: (v, u from, u to).
fn row_lines(page: &Page, mm: f64) -> Vec<(f64, f64, f64)> {
    let mut out = Vec::new();
    for s in page.strokes.iter().filter(|s| !is_light(s.color)) {
        for w in s.points.windows(2) {
            let (du, dv) = (w[1][0] - w[0][0], w[1][1] - w[0][1]);
            if dv.abs() < 1e-6 && du.abs() > 50.0 * mm {
                out.push((w[0][1], w[0][0].min(w[1][0]), w[0][0].max(w[1][0])));
            }
        }
    }
    out
}

struct Placed {
    lead: String,
    page: usize,
    t1: f64,
    times: Vec<f64>,
    values: Vec<f64>,
}

/// Builds the recording from the analysed pages.
pub(crate) fn recording(pages: &[Page], limits: &Limits) -> Result<Recording, FormatError> {
    let page_lines: Vec<Vec<Line>> = pages.iter().map(|p| text::lines(&p.runs)).collect();
    let all_lines: Vec<Line> = page_lines.iter().flatten().cloned().collect();
    let (speed, gain) = text::speed_and_gain(&all_lines);
    let any_label = pages
        .iter()
        .any(|p| p.runs.iter().any(|r| text::lead_name(&r.text).is_some()));
    let single_lead_name = {
        let all = all_lines
            .iter()
            .map(|l| l.text.as_str())
            .collect::<String>();
        if all.contains("Kardia") || all.contains("AliveCor") || all.contains("Lead I") {
            "I"
        } else {
            "ECG"
        }
    };

    let mut placed: Vec<Placed> = Vec::new();
    let mut lead_end: BTreeMap<String, f64> = BTreeMap::new();
    let mut found_grid = false;
    let mut found_pulse = false;
    let mut images = 0;
    let mut metadata = BTreeMap::new();
    let mut gain_used = None;
    for (page_index, page) in pages.iter().enumerate() {
        images += page.images;
        let grid = grid::find(page);
        found_grid |= grid.is_some();
        let mm = grid.map_or(PT_PER_MM, |g| g.pt_per_mm);
        let pulses: Vec<Pulse> = page.strokes.iter().filter_map(|s| pulse(s, mm)).collect();
        found_pulse |= !pulses.is_empty();
        let speed = speed.unwrap_or(25.0);
        let gain = gain.unwrap_or_else(|| {
            // Without a stated gain, the pulse is 1 mV high.
            pulses
                .first()
                .map_or(10.0, |p| (p.height.abs() / mm).round())
        });
        gain_used = Some(gain);
        let pps = speed * mm;
        let ppmv = gain * mm;
        let mut pieces: Vec<Piece> = page
            .strokes
            .iter()
            .filter(|s| pulse(s, mm).is_none() && is_trace(s, mm))
            .map(|s| {
                let p = &s.points;
                let steps: Vec<f64> = p
                    .windows(2)
                    .map(|w| w[1][0] - w[0][0])
                    .filter(|d| *d > 1e-6)
                    .collect();
                Piece {
                    points: p,
                    u0: p[0][0],
                    u1: p[p.len() - 1][0],
                    median: median(p.iter().map(|q| q[1]).collect()),
                    step: median(steps),
                    row: 0,
                    lead: None,
                    baseline: 0.0,
                    t0: 0.0,
                }
            })
            .collect();
        if pieces.is_empty() {
            continue;
        }
        // Rows: from the top, a new row when the median drops by more than 8 mm or a piece
        // overlaps one already in the row.
        pieces.sort_by(|a, b| b.median.total_cmp(&a.median).then(a.u0.total_cmp(&b.u0)));
        let mut rows: Vec<Vec<usize>> = Vec::new();
        for i in 0..pieces.len() {
            let joins = rows.last().is_some_and(|row| {
                let first = &pieces[row[0]];
                first.median - pieces[i].median < 8.0 * mm
                    && row
                        .iter()
                        .all(|&j| pieces[j].u1 < pieces[i].u0 || pieces[i].u1 < pieces[j].u0)
            });
            if let (true, Some(row)) = (joins, rows.last_mut()) {
                row.push(i);
            } else {
                rows.push(vec![i]);
            }
        }
        for (r, row) in rows.iter().enumerate() {
            for &i in row {
                pieces[i].row = r;
            }
        }
        // Lead labels: nearest by distance from the label to the piece's start, each used once.
        let labels: Vec<(String, f64, f64)> = page
            .runs
            .iter()
            .filter_map(|r| text::lead_name(&r.text).map(|n| (n, r.u, r.v)))
            .collect();
        let mut pairs: Vec<(f64, usize, usize)> = Vec::new();
        for (i, p) in pieces.iter().enumerate() {
            for (k, (_, u, v)) in labels.iter().enumerate() {
                let du = if *u < p.u0 - 25.0 * mm || *u > p.u0 + 25.0 * mm {
                    continue;
                } else {
                    (u - p.u0).abs()
                };
                let dv = (v - p.median).abs();
                if dv > 25.0 * mm {
                    continue;
                }
                pairs.push((dv + 0.2 * du, i, k));
            }
        }
        pairs.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut used = vec![false; labels.len()];
        for (_, i, k) in pairs {
            if pieces[i].lead.is_none() && !used[k] {
                pieces[i].lead = Some(labels[k].0.clone());
                used[k] = true;
            }
        }
        for p in &mut pieces {
            if p.lead.is_none() && !any_label {
                p.lead = Some(single_lead_name.to_string());
            }
        }
        // Baselines.
        let lines = row_lines(page, mm);
        let row_spacing = {
            let medians: Vec<f64> = rows.iter().map(|r| pieces[r[0]].median).collect();
            let gaps: Vec<f64> = medians.windows(2).map(|w| w[0] - w[1]).collect();
            if gaps.is_empty() {
                20.0 * mm
            } else {
                median(gaps)
            }
        };
        for p in &mut pieces {
            let from_pulse = pulses
                .iter()
                .filter(|q| {
                    q.u_end <= p.u0 + 5.0 * mm && (q.foot - p.median).abs() < 0.5 * row_spacing
                })
                .min_by(|a, b| {
                    (a.foot - p.median)
                        .abs()
                        .total_cmp(&(b.foot - p.median).abs())
                })
                .map(|q| q.foot);
            let centre = 0.5 * (p.u0 + p.u1);
            let from_line = lines
                .iter()
                .filter(|(v, a, b)| (v - p.median).abs() < 2.0 * mm && *a <= centre && centre <= *b)
                .min_by(|x, y| (x.0 - p.median).abs().total_cmp(&(y.0 - p.median).abs()))
                .map(|l| l.0);
            p.baseline = from_pulse.or(from_line).unwrap_or(p.median);
        }
        // Time.
        let names: Vec<Option<&String>> = pieces.iter().map(|p| p.lead.as_ref()).collect();
        let one_lead = names.windows(2).all(|w| w[0] == w[1]);
        let continuation = one_lead && rows.len() > 1 && rows.iter().all(|r| r.len() == 1);
        if continuation {
            let mut t = 0.0;
            for row in &rows {
                let p = &mut pieces[row[0]];
                p.t0 = t;
                t += (p.u1 - p.u0) / pps + p.step / pps;
            }
        } else {
            let page_u0 = pieces.iter().map(|p| p.u0).fold(f64::INFINITY, f64::min);
            for p in &mut pieces {
                p.t0 = (p.u0 - page_u0) / pps;
            }
        }
        // Keep, per lead, the longest drawings that do not overlap in time.
        let mut order: Vec<usize> = (0..pieces.len()).collect();
        order.sort_by(|&a, &b| {
            (pieces[b].u1 - pieces[b].u0).total_cmp(&(pieces[a].u1 - pieces[a].u0))
        });
        let mut kept: Vec<usize> = Vec::new();
        for i in order {
            let p = &pieces[i];
            let (a0, a1) = (p.t0, p.t0 + (p.u1 - p.u0) / pps);
            let overlaps = kept.iter().any(|&j| {
                let q = &pieces[j];
                let (b0, b1) = (q.t0, q.t0 + (q.u1 - q.u0) / pps);
                q.lead == p.lead && a0.max(b0) < a1.min(b1) - 0.1 * (a1 - a0).min(b1 - b0)
            });
            if !overlaps {
                kept.push(i);
            }
        }
        kept.sort_by(|&a, &b| {
            pieces[a]
                .t0
                .total_cmp(&pieces[b].t0)
                .then(pieces[a].row.cmp(&pieces[b].row))
        });
        let offsets: BTreeMap<String, f64> = lead_end.clone();
        for i in kept {
            let p = &pieces[i];
            let lead = p
                .lead
                .clone()
                .unwrap_or_else(|| format!("ECG {}", p.row + 1));
            let offset = offsets.get(&lead).copied().unwrap_or(0.0);
            let t0 = offset + p.t0;
            let times: Vec<f64> = p.points.iter().map(|q| t0 + (q[0] - p.u0) / pps).collect();
            let values: Vec<f64> = p
                .points
                .iter()
                .map(|q| (q[1] - p.baseline) / ppmv)
                .collect();
            let t1 = times.last().copied().unwrap_or(t0);
            let end = lead_end.entry(lead.clone()).or_insert(0.0);
            *end = end.max(t1 + p.step / pps);
            placed.push(Placed {
                lead,
                page: page_index,
                t1,
                times,
                values,
            });
        }
    }
    if placed.is_empty() {
        let what = if images > 0 && !found_pulse {
            super::SCANNED
        } else {
            super::NO_ECG
        };
        return Err(FormatError::feature(Format::Pdf, what));
    }
    let duration = placed.iter().map(|p| p.t1).fold(0.0, f64::max);
    if !duration.is_finite() || duration > limits.seconds {
        return Err(FormatError::TooLarge(format!(
            "an ECG drawing of {duration:.0} s (at most {:.0} s)",
            limits.seconds
        )));
    }
    let fs = SAMPLING_RATE_HZ;
    let n = (duration * fs).floor() as usize + 1;
    let mut order: Vec<String> = Vec::new();
    for p in &placed {
        if !order.contains(&p.lead) {
            order.push(p.lead.clone());
        }
    }
    order.sort_by_key(|name| standard_rank(name));
    if order.len() * n > crate::MAX_VALUES {
        return Err(FormatError::TooLarge(format!(
            "{} sample values",
            order.len() * n
        )));
    }
    let mut channels = Vec::new();
    for name in order {
        let mut samples = vec![f64::NAN; n];
        for p in placed.iter().filter(|p| p.lead == name) {
            resample(&p.times, &p.values, fs, &mut samples);
        }
        channels.push(Channel {
            name,
            unit: "mV".into(),
            samples,
        });
    }
    metadata.insert("format".into(), "PDF (vector ECG)".into());
    metadata.insert(
        "paper_speed_mm_per_s".into(),
        format!("{}", speed.unwrap_or(25.0)),
    );
    if let Some(g) = gain.or(gain_used) {
        metadata.insert("gain_mm_per_mv".into(), format!("{g}"));
    }
    metadata.insert("pages_with_traces".into(), {
        let mut pages: Vec<usize> = placed.iter().map(|p| p.page + 1).collect();
        pages.dedup();
        pages
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(",")
    });
    if !found_grid {
        metadata.insert(
            "grid".into(),
            "none found; scale taken as printed (72/25.4 points a millimetre)".into(),
        );
    }
    Ok(Recording {
        channels,
        sampling_rate_hz: fs,
        start: None,
        metadata,
        device_interpretation: text::interpretation(&all_lines),
    })
}

/// Standard 12-lead order first, other names after in their order of appearance.
fn standard_rank(name: &str) -> usize {
    const ORDER: [&str; 12] = [
        "I", "II", "III", "aVR", "aVL", "aVF", "V1", "V2", "V3", "V4", "V5", "V6",
    ];
    ORDER.iter().position(|n| *n == name).unwrap_or(ORDER.len())
}

/// Linear interpolation of `(times, values)` onto the grid `k / fs`, over the span they cover.
fn resample(times: &[f64], values: &[f64], fs: f64, out: &mut [f64]) {
    let (Some(&first), Some(&last)) = (times.first(), times.last()) else {
        return;
    };
    // A thousandth of a sample of slack: a piece that continues another starts at a sum of
    // durations, which rounding may put a hair after the sample it begins with.
    let start = (first * fs - 1e-3).ceil().max(0.0) as usize;
    let mut j = 0;
    for (k, slot) in out.iter_mut().enumerate().skip(start) {
        let t = k as f64 / fs;
        if k as f64 > last * fs + 1e-3 {
            break;
        }
        while j + 1 < times.len() && times[j + 1] < t {
            j += 1;
        }
        let (t0, t1) = (times[j], times.get(j + 1).copied().unwrap_or(times[j]));
        let (v0, v1) = (values[j], values.get(j + 1).copied().unwrap_or(values[j]));
        *slot = if t1 > t0 {
            v0 + (v1 - v0) * ((t - t0) / (t1 - t0)).clamp(0.0, 1.0)
        } else {
            v1
        };
    }
}
