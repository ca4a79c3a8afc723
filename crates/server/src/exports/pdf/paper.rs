//! The signal strips: the ECG on standard paper (25 mm/s, 10 mm/mV, 1 mm and 5 mm grid, a 1 mV
//! calibration pulse; 10 s as two rows of 5 s) and the PCG and PPG traces with the detected beats
//! marked (S1 and S2, pulse peaks).

use cardio_models::waveform::Waveform;

use super::layout::{muted, rgb, Face, Writer, MARGIN, PAGE_W};

/// Paper speed, mm per second.
pub const MM_PER_S: f32 = 25.0;
/// Gain, mm per millivolt.
pub const MM_PER_MV: f32 = 10.0;
/// Seconds per ECG row.
const ROW_S: f32 = 5.0;
/// Height of one ECG row, mm (3 mV).
const ROW_H: f32 = 30.0;
/// Room for the calibration pulse before the trace, mm.
const CAL_W: f32 = 10.0;

/// Height of the ECG block (caption, two rows, gaps), mm.
pub const ECG_HEIGHT: f32 = 2.0 * (ROW_H + 4.0) + 15.0;
/// Height of a PCG or PPG block (caption, strip, gaps), mm.
pub const SIGNAL_HEIGHT: f32 = STRIP_H + 17.0;
/// Height of a PCG or PPG strip, mm.
const STRIP_H: f32 = 28.0;

/// The samples of the analysed channel between `from` and `to` seconds (window-relative), as
/// `(t, value)` with `t` from the window's start; invalid samples as `None`.
fn samples(w: &Waveform, from: f64, to: f64) -> Vec<(f64, Option<f32>)> {
    let Some(channel) = w.channels.get(w.analysed_channel) else {
        return Vec::new();
    };
    channel
        .samples
        .iter()
        .enumerate()
        .map(|(i, v)| (i as f64 / w.sampling_rate_hz, *v))
        .filter(|(t, _)| *t >= from && *t <= to)
        .collect()
}

/// The median of the finite values (the baseline a strip is centred on).
pub fn median(values: impl Iterator<Item = f32>) -> f32 {
    let mut v: Vec<f32> = values.filter(|v| v.is_finite()).collect();
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(f32::total_cmp);
    v[v.len() / 2]
}

/// Draws runs of points as polylines, breaking at invalid samples.
fn trace(out: &Writer, points: impl Iterator<Item = Option<(f32, f32)>>, width_pt: f32) {
    let color = rgb(20, 20, 30);
    let mut run: Vec<(f32, f32)> = Vec::new();
    for p in points {
        if let Some(p) = p {
            run.push(p);
        } else {
            out.stroke(&run, width_pt, &color);
            run.clear();
        }
    }
    out.stroke(&run, width_pt, &color);
}

/// The min-max envelope of `points` per column of the strip (`mm_per_s` mm per second, columns of
/// 0.25 mm), as runs of `(column, min, max)` to draw as one polyline each. A run breaks only where
/// a sample is missing or invalid, never at a column no sample falls in: a 30-Hz camera pulse has
/// fewer samples than a 10-s strip has columns, and breaking there drew it as scattered dots.
fn envelope_runs(
    points: &[(f64, Option<f32>)],
    mm_per_s: f32,
    columns: usize,
) -> Vec<Vec<(usize, f32, f32)>> {
    let mut runs: Vec<Vec<(usize, f32, f32)>> = vec![Vec::new()];
    for (t, v) in points {
        let c = ((*t as f32 * mm_per_s) / 0.25) as usize;
        if c > columns {
            continue;
        }
        let Some(v) = v.filter(|v| v.is_finite()) else {
            if runs.last().is_some_and(|r| !r.is_empty()) {
                runs.push(Vec::new());
            }
            continue;
        };
        let run = runs.last_mut().expect("runs is never empty");
        match run.last_mut() {
            Some((last, lo, hi)) if *last == c => {
                *lo = lo.min(v);
                *hi = hi.max(v);
            }
            _ => run.push((c, v, v)),
        }
    }
    runs.retain(|r| !r.is_empty());
    runs
}

/// The ECG on standard paper: 10 s of the analysed lead in two rows of 5 s.
pub fn ecg(out: &mut Writer, w: &Waveform, caption: &str, calibration: &str) {
    let rows = 2;
    out.ensure(ECG_HEIGHT);
    let lead = w
        .channels
        .get(w.analysed_channel)
        .map(|c| c.name.clone())
        .unwrap_or_default();
    out.advance(5.0);
    out.text_at(
        &format!("{caption} {lead} · 25 mm/s · 10 mm/mV"),
        MARGIN,
        out.y() + 1.0,
        8.0,
        Face::Regular,
        muted(),
    );
    let grid_w = CAL_W + ROW_S * MM_PER_S;
    let left = MARGIN;
    for row in 0..rows {
        let top = out.y() - 1.0;
        let bottom = top - ROW_H;
        grid(out, left, bottom, grid_w, ROW_H);
        let from = f64::from(row as f32 * ROW_S);
        let to = from + f64::from(ROW_S);
        let points = samples(w, from, to);
        let baseline_mv = median(points.iter().filter_map(|(_, v)| *v));
        let mid = bottom + ROW_H / 2.0;
        // Calibration pulse: 1 mV (10 mm) high, 0.2 s (5 mm) wide.
        let x0 = left + 1.5;
        out.stroke(
            &[
                (x0, mid),
                (x0 + 2.0, mid),
                (x0 + 2.0, mid + MM_PER_MV),
                (x0 + 7.0, mid + MM_PER_MV),
                (x0 + 7.0, mid),
                (x0 + 8.5, mid),
            ],
            0.7,
            &rgb(20, 20, 30),
        );
        if row == 0 {
            out.text_at(
                calibration,
                x0 + 0.6,
                mid + MM_PER_MV + 1.2,
                6.0,
                Face::Regular,
                muted(),
            );
        }
        let x_start = left + CAL_W;
        trace(
            out,
            points.iter().map(|(t, v)| {
                v.filter(|v| v.is_finite()).map(|v| {
                    let x = x_start + (t - from) as f32 * MM_PER_S;
                    let y = mid + (v - baseline_mv) * MM_PER_MV;
                    (x, y.clamp(bottom, bottom + ROW_H))
                })
            }),
            0.6,
        );
        // Seconds from the recording's start (a strip of a long record starts later than 0).
        out.text_at(
            &format!("{:.0} s", w.start_s + from),
            x_start + 0.5,
            bottom + 1.0,
            6.0,
            Face::Regular,
            muted(),
        );
        out.advance(ROW_H + 4.0);
    }
    out.advance(2.0);
}

/// One straight line of ECG paper, mm.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GridLine {
    /// One end.
    pub from: (f32, f32),
    /// The other end.
    pub to: (f32, f32),
    /// A 5 mm line (else a 1 mm one).
    pub major: bool,
}

/// The lines of standard ECG paper over a box: one every 1 mm, every fifth one major.
pub fn grid_lines(left: f32, bottom: f32, width: f32, height: f32) -> Vec<GridLine> {
    let mut lines = Vec::new();
    for mm in 0..=(width.round() as u32) {
        let x = left + mm as f32;
        lines.push(GridLine {
            from: (x, bottom),
            to: (x, bottom + height),
            major: mm % 5 == 0,
        });
    }
    for mm in 0..=(height.round() as u32) {
        let y = bottom + mm as f32;
        lines.push(GridLine {
            from: (left, y),
            to: (left + width, y),
            major: mm % 5 == 0,
        });
    }
    lines
}

/// Draws ECG paper: the box's tint, then `lines`, the minor ones first so the major lie on top.
pub fn draw_grid(out: &Writer, (x, y, w, h): (f32, f32, f32, f32), lines: &[GridLine]) {
    out.fill_rect(x, y, w, h, rgb(255, 247, 247));
    let minor = rgb(248, 200, 205);
    let major = rgb(230, 130, 140);
    for pass in [false, true] {
        let (color, width) = if pass { (&major, 0.5) } else { (&minor, 0.15) };
        for line in lines.iter().filter(|l| l.major == pass) {
            out.stroke(&[line.from, line.to], width, color);
        }
    }
}

/// Standard ECG paper: 1 mm minor and 5 mm major lines.
fn grid(out: &Writer, left: f32, bottom: f32, width: f32, height: f32) {
    draw_grid(
        out,
        (left, bottom, width, height),
        &grid_lines(left, bottom, width, height),
    );
}

/// One kind of mark: times in seconds from the recording's start, a label and an RGB colour.
pub type MarkSet<'a> = (&'a [f64], &'a str, (u8, u8, u8));

/// Marks drawn on a PCG or PPG strip.
pub struct Marks<'a> {
    /// The kinds of mark.
    pub sets: Vec<MarkSet<'a>>,
}

/// A PCG or PPG strip of `seconds` with the marks, scaled to its own range.
pub fn signal(out: &mut Writer, w: &Waveform, seconds: f64, caption: &str, marks: &Marks<'_>) {
    let h = STRIP_H;
    out.ensure(SIGNAL_HEIGHT);
    out.advance(5.0);
    out.text_at(caption, MARGIN, out.y() + 1.0, 8.0, Face::Regular, muted());
    let width = PAGE_W - 2.0 * MARGIN;
    let top = out.y() - 4.0;
    let bottom = top - h;
    let mm_per_s = width / seconds as f32;
    out.fill_rect(MARGIN, bottom, width, h, rgb(247, 249, 252));
    let light = rgb(215, 222, 232);
    for s in 0..=seconds as usize {
        let x = MARGIN + s as f32 * mm_per_s;
        out.stroke(&[(x, bottom), (x, top)], 0.2, &light);
        if s < seconds as usize {
            out.text_at(
                &format!("{s} s"),
                x + 0.5,
                bottom + 1.0,
                6.0,
                Face::Regular,
                muted(),
            );
        }
    }
    let points = samples(w, 0.0, seconds);
    let centre = median(points.iter().filter_map(|(_, v)| *v));
    let peak = points
        .iter()
        .filter_map(|(_, v)| *v)
        .filter(|v| v.is_finite())
        .fold(0.0_f32, |m, v| m.max((v - centre).abs()));
    let scale = if peak > 0.0 {
        (h / 2.0 - 1.5) / peak
    } else {
        0.0
    };
    let mid = bottom + h / 2.0;
    // Min and max per 0.25 mm column: an envelope that keeps every peak, whatever the rate.
    let columns = (width / 0.25) as usize;
    for run in envelope_runs(&points, mm_per_s, columns) {
        trace(
            out,
            run.iter().flat_map(|&(c, lo, hi)| {
                let x = MARGIN + c as f32 * 0.25;
                [
                    Some((x, mid + (lo - centre) * scale)),
                    Some((x + 0.125, mid + (hi - centre) * scale)),
                ]
            }),
            0.4,
        );
    }
    for (times, label, (r, g, b)) in &marks.sets {
        let color = rgb(*r, *g, *b);
        for t in times.iter().map(|t| t - w.start_s) {
            if !(0.0..=seconds).contains(&t) {
                continue;
            }
            let x = MARGIN + t as f32 * mm_per_s;
            out.stroke(&[(x, top - 3.0), (x, top - 0.5)], 0.8, &color);
            out.text_at(label, x - 1.2, top + 0.5, 5.5, Face::Bold, color.clone());
        }
    }
    out.advance(h + 8.0);
}

#[cfg(test)]
mod envelope_tests {
    use super::envelope_runs;

    #[test]
    fn a_slow_camera_pulse_is_one_line_not_dots() {
        // 10 s at 30 Hz on a 180-mm strip: 300 samples for 720 columns.
        let points: Vec<(f64, Option<f32>)> = (0..300)
            .map(|i| (f64::from(i) / 30.0, Some((f64::from(i) * 0.2).sin() as f32)))
            .collect();
        let runs = envelope_runs(&points, 18.0, 720);
        assert_eq!(runs.len(), 1);
        assert_eq!(runs[0].len(), 300);
    }

    #[test]
    fn a_missing_sample_breaks_the_line_and_fast_samples_share_columns() {
        let mut points: Vec<(f64, Option<f32>)> = (0..1000)
            .map(|i| (f64::from(i) / 100.0, Some(f64::from(i % 7) as f32)))
            .collect();
        points[500].1 = None;
        points[501].1 = Some(f32::NAN);
        let runs = envelope_runs(&points, 18.0, 720);
        assert_eq!(runs.len(), 2);
        let (c, lo, hi) = runs[0][10];
        assert_eq!(c, 10);
        assert!(lo <= hi);
    }
}
