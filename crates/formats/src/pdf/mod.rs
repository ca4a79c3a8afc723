//! Vector ECG documents in PDF: the traces an electrocardiograph or an ECG app drew on its grid are
//! read back into samples.
//!
//! A device's PDF print keeps each lead as a polyline (GE MUSE and AliveCor Kardia: one vertex a
//! sample), its grid as thin light lines, and its lead names, paper speed, gain and its own
//! interpretation as text. Reading it back:
//!
//! 1. [`document`] loads the file structure with `lopdf` (cross-reference tables, object streams,
//!    fonts), under the limits of [`Limits`];
//! 2. [`content`] interprets each page's content stream: paths with their colour and width, text
//!    runs with their position, images;
//! 3. [`page`] turns the page's drawing into the reading frame (the page's `/Rotate` applied; time to
//!    the right, voltage up) and joins pieces of one polyline;
//! 4. [`grid`] finds the grid pitch (the page's millimetre), [`text`] the lines of text, the paper
//!    speed and gain, and the device's interpretation;
//! 5. [`leads`] tells traces from grid and calibration pulses, names each trace by the nearest lead
//!    label, places it in time (3x4 pieces, rhythm strips, rows and pages that continue a lead) and
//!    resamples every lead to 500 Hz.
//!
//! What is hand-written, and why: the content-stream interpreter, font decoding and everything after
//! it. `lopdf`'s own content parser allocates an object per operand and its text decoding ignores
//! `/Differences` and two-byte fonts without `ToUnicode`; an ECG page holds 10^5 operators and a
//! reader needs only paths, colours and positioned text, so a small interpreter that tracks the CTM
//! and graphics state is faster and bounded by our own budget. `lopdf` keeps what it does well: the
//! file's object structure.
//!
//! Refusals: a page whose ECG is a picture (an image and no trace) is refused with
//! [`SCANNED`]; a document without grid, pulse or trace with [`NO_ECG`].

mod content;
mod document;
mod fonts;
mod grid;
mod leads;
mod page;
mod text;

use crate::{max_decoded_values, FormatError, Recording};

/// The sentence for a PDF whose ECG is a raster image.
pub const SCANNED: &str = "This PDF holds a scanned picture of the ECG, not its drawing: export the ECG from the device as PDF, XML or EDF";

/// The sentence for a PDF without any ECG drawing.
pub const NO_ECG: &str = "This PDF holds no ECG drawing (no ECG grid, calibration pulse or trace was found): export the ECG from the device as PDF, XML or EDF";

/// The sampling rate traces are resampled to.
pub const SAMPLING_RATE_HZ: f64 = 500.0;

/// The reader's limits, from the input's size.
#[derive(Debug, Clone)]
pub(crate) struct Limits {
    /// Largest PDF read.
    pub file_bytes: usize,
    /// Most indirect objects.
    pub objects: usize,
    /// Most pages.
    pub pages: usize,
    /// Most bytes all decompressed streams together may give.
    pub decoded_bytes: usize,
    /// Most content-stream operators a page may run (forms included).
    pub operators_per_page: usize,
    /// Most path vertices a page may build.
    pub vertices: usize,
    /// Most text runs a page may show.
    pub text_runs: usize,
    /// Deepest `q` nesting kept.
    pub graphics_stack: usize,
    /// Deepest nesting of form XObjects.
    pub form_depth: usize,
    /// Most form XObjects prepared in all.
    pub form_builds: usize,
    /// Longest recording produced, in seconds.
    pub seconds: f64,
}

impl Limits {
    pub(crate) fn for_input(len: usize) -> Self {
        Self {
            file_bytes: 64 << 20,
            objects: 200_000,
            pages: 200,
            decoded_bytes: max_decoded_values(len),
            operators_per_page: 4_000_000,
            vertices: 4_000_000,
            text_runs: 200_000,
            graphics_stack: 256,
            form_depth: 8,
            form_builds: 10_000,
            seconds: 3600.0,
        }
    }
}

/// Reads the ECG drawn in a PDF.
///
/// # Errors
/// [`FormatError::TooLarge`] when a limit is passed, [`FormatError::Invalid`] for a broken file,
/// [`FormatError::UnsupportedFeature`] for a scanned ECG, a PDF without ECG, or an encrypted file.
pub fn read(bytes: &[u8]) -> Result<Recording, FormatError> {
    let limits = Limits::for_input(bytes.len());
    if bytes.len() > limits.file_bytes {
        return Err(FormatError::TooLarge(format!(
            "a PDF of {} bytes (at most {})",
            bytes.len(),
            limits.file_bytes
        )));
    }
    let pages = document::load(bytes, &limits)?;
    let mut drawn = Vec::with_capacity(pages.len());
    let mut vertices = 0usize;
    for p in &pages {
        let mut budget = content::Budget::new(&limits);
        budget.vertices = limits.vertices.saturating_sub(vertices);
        let drawing = content::interpret(
            &p.content,
            &p.resources,
            content::IDENTITY,
            &mut budget,
            &limits,
        )
        .map_err(|e| FormatError::TooLarge(format!("a PDF page's {}", e.0)))?;
        vertices += drawing.vertices;
        drawn.push(page::Page::new(drawing, p.rotate));
    }
    leads::recording(&drawn, &limits)
}

#[cfg(test)]
pub(crate) mod tests;
