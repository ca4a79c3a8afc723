//! A page's drawing in the reading frame: the page's `/Rotate` applied so that time runs to the
//! right (`u`) and voltage up (`v`), in PDF points; pieces of one polyline that a producer wrote as
//! consecutive paths (Kardia writes a trace in 30-point chunks) joined again.

use super::content::{Drawing, Path};

/// A stroked polyline.
#[derive(Debug, Clone)]
pub(crate) struct Stroke {
    /// Vertices `[u, v]`.
    pub points: Vec<[f64; 2]>,
    /// RGB in 0..=1.
    pub color: [f32; 3],
    /// Line width in points.
    pub width: f64,
}

/// A text run in the reading frame.
#[derive(Debug, Clone)]
pub(crate) struct TextRun {
    pub text: String,
    /// Start of the baseline.
    pub u: f64,
    pub v: f64,
    /// End of the run along `u`.
    pub u_end: f64,
    /// Font size in points.
    pub size: f64,
}

/// One page, ready for analysis.
#[derive(Debug, Default)]
pub(crate) struct Page {
    pub strokes: Vec<Stroke>,
    /// Filled shapes' outlines (grids drawn as thin filled rectangles).
    pub fills: Vec<(Vec<[f64; 2]>, [f32; 3])>,
    pub runs: Vec<TextRun>,
    pub images: usize,
}

/// The perceived lightness of a colour, 0 (black) to 1 (white).
pub(crate) fn luminance(c: [f32; 3]) -> f64 {
    f64::from(0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2])
}

fn frame(rotate: i64) -> impl Fn([f64; 2]) -> [f64; 2] {
    move |[x, y]| match rotate {
        90 => [y, -x],
        180 => [-x, -y],
        270 => [-y, x],
        _ => [x, y],
    }
}

fn close(a: [f64; 2], b: [f64; 2]) -> bool {
    (a[0] - b[0]).abs() < 0.01 && (a[1] - b[1]).abs() < 0.01
}

impl Page {
    pub(crate) fn new(drawing: Drawing, rotate: i64) -> Self {
        let to = frame(rotate);
        let mut page = Page {
            images: drawing.images,
            ..Page::default()
        };
        for Path {
            points,
            stroke,
            fill,
            width,
        } in drawing.paths
        {
            let points: Vec<[f64; 2]> = points.into_iter().map(&to).collect();
            if let Some(color) = fill {
                page.fills.push((points.clone(), color));
            }
            let Some(color) = stroke else {
                continue;
            };
            if let Some(last) = page.strokes.last_mut() {
                let joins = last.color == color
                    && (last.width - width).abs() < 1e-6
                    && points.len() > 1
                    && last.points.last().is_some_and(|&end| close(end, points[0]));
                if joins {
                    last.points.extend_from_slice(&points[1..]);
                    continue;
                }
            }
            page.strokes.push(Stroke {
                points,
                color,
                width,
            });
        }
        for run in drawing.runs {
            let [u, v] = to(run.origin);
            let [u_end, _] = to(run.end);
            page.runs.push(TextRun {
                text: run.text,
                u,
                v,
                u_end: u_end.max(u),
                size: run.size,
            });
        }
        page
    }
}
