//! The ECG grid: many thin light parallel lines (or thin rectangles) at a regular pitch. Its pitch
//! is the page's millimetre (1-mm minor lines) or five of them (5-mm major lines only), which
//! checks or replaces the print's nominal scale of 72/25.4 points a millimetre.

use super::page::{luminance, Page};

/// Points in one millimetre of a page printed at scale.
pub(crate) const PT_PER_MM: f64 = 72.0 / 25.4;

/// A grid found on a page.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Grid {
    /// Points per millimetre it implies.
    pub pt_per_mm: f64,
}

/// Whether a colour is a grid colour: light (pink, red, green, blue or grey paper lines).
pub(crate) fn is_light(c: [f32; 3]) -> bool {
    luminance(c) > 0.45 && c.iter().copied().fold(0.0f32, f32::max) > 0.55
}

/// Axis-aligned segments longer than `min_len` of a polyline: (is it horizontal, its position).
fn straight_segments(points: &[[f64; 2]], min_len: f64, out: &mut Vec<(bool, f64)>) {
    for w in points.windows(2) {
        let (du, dv) = (w[1][0] - w[0][0], w[1][1] - w[0][1]);
        if dv.abs() < 1e-3 * du.abs() && du.abs() > min_len {
            out.push((true, w[0][1]));
        } else if du.abs() < 1e-3 * dv.abs() && dv.abs() > min_len {
            out.push((false, w[0][0]));
        }
    }
}

/// The most common spacing of sorted distinct positions (0.05-pt bins), with how often it occurs.
fn pitch_of(mut positions: Vec<f64>) -> Option<(f64, usize)> {
    positions.sort_by(f64::total_cmp);
    positions.dedup_by(|a, b| (*a - *b).abs() < 0.05);
    let mut diffs: Vec<f64> = positions.windows(2).map(|w| w[1] - w[0]).collect();
    diffs.sort_by(f64::total_cmp);
    let mut best: Option<(f64, usize)> = None;
    let mut i = 0;
    while i < diffs.len() {
        let j = diffs[i..].partition_point(|&d| d - diffs[i] < 0.05) + i;
        let n = j - i;
        if best.is_none_or(|(_, m)| n > m) {
            best = Some((diffs[i..j].iter().sum::<f64>() / n as f64, n));
        }
        i = j;
    }
    best
}

/// Finds the page's grid, if it has one.
pub(crate) fn find(page: &Page) -> Option<Grid> {
    let mut segments = Vec::new();
    for s in page.strokes.iter().filter(|s| is_light(s.color)) {
        straight_segments(&s.points, 10.0, &mut segments);
    }
    for (points, _) in page.fills.iter().filter(|(_, c)| is_light(*c)) {
        straight_segments(points, 10.0, &mut segments);
    }
    let best = [true, false]
        .into_iter()
        .filter_map(|horizontal| {
            let positions: Vec<f64> = segments
                .iter()
                .filter(|(h, _)| *h == horizontal)
                .map(|&(_, p)| p)
                .collect();
            pitch_of(positions)
        })
        .filter(|&(pitch, n)| n >= 8 && pitch > 0.5)
        .max_by_key(|&(_, n)| n)?;
    let pitch = best.0;
    let ratio = pitch / PT_PER_MM;
    let pt_per_mm = if (0.8..1.25).contains(&ratio) || pitch < 8.0 {
        pitch
    } else {
        pitch / 5.0
    };
    Some(Grid { pt_per_mm })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pdf::page::Stroke;

    #[test]
    fn a_pink_millimetre_grid_gives_its_pitch() {
        let mut page = Page::default();
        for k in 0..40 {
            let x = 10.0 + f64::from(k) * PT_PER_MM;
            page.strokes.push(Stroke {
                points: vec![[x, 0.0], [x, 300.0]],
                color: [1.0, 0.84, 0.87],
                width: 0.1,
            });
        }
        let grid = find(&page).unwrap();
        assert!((grid.pt_per_mm - PT_PER_MM).abs() < 1e-6);
    }

    #[test]
    fn black_lines_are_not_a_grid() {
        let mut page = Page::default();
        for k in 0..40 {
            let x = f64::from(k) * 3.0;
            page.strokes.push(Stroke {
                points: vec![[x, 0.0], [x, 300.0]],
                color: [0.0; 3],
                width: 0.1,
            });
        }
        assert!(find(&page).is_none());
    }
}
