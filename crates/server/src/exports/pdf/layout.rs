//! A small flowing layout on A4 portrait pages over `printpdf`: a cursor that moves down the page,
//! text wrapped to the measured width of the embedded font, a new page when the next block does
//! not fit, and "Page n of N" footers written once the number of pages is known. A landscape A4
//! page ([`Writer::new_landscape_page`]) holds what is drawn at true scale across its width (the
//! 12-lead ECG).
//!
//! Coordinates are millimetres from the bottom-left corner, as in PDF.

use std::io::Cursor;

use printpdf::{
    Color, IndirectFontRef, Line, Mm, PdfDocument, PdfDocumentReference, PdfLayerIndex,
    PdfLayerReference, PdfPageIndex, Point, Rgb,
};

use crate::platform::error::ApiError;

/// DejaVu Sans (Latin, Greek, Cyrillic: every accent of Spanish and French), with its licence in
/// `assets/fonts/LICENSE-DejaVu.txt`. Embedded so the server never depends on system fonts; only
/// the glyphs a report uses are written into the PDF.
const REGULAR_TTF: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSans.ttf");
/// DejaVu Sans Bold, for headings and labels.
const BOLD_TTF: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSans-Bold.ttf");

/// A4 width, mm.
pub const PAGE_W: f32 = 210.0;
/// A4 height, mm.
pub const PAGE_H: f32 = 297.0;
/// Width of a landscape A4 page, mm.
pub const LANDSCAPE_W: f32 = PAGE_H;
/// Height of a landscape A4 page, mm.
pub const LANDSCAPE_H: f32 = PAGE_W;
/// Left and right margin, mm.
pub const MARGIN: f32 = 15.0;
/// Top margin, mm.
const TOP: f32 = 15.0;
/// Lowest point of the content (the footer lies below it), mm.
const BOTTOM: f32 = 18.0;
/// Millimetres per typographic point.
pub const MM_PER_PT: f32 = 25.4 / 72.0;
/// Size of a field's label and value, points.
const FIELD_PT: f32 = 9.0;
/// Space between a field's label and its value, mm.
const FIELD_GAP: f32 = 2.0;
/// Indent of a bullet's text from the margin, mm.
const BULLET_INDENT: f32 = 5.0;

/// Which face.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Face {
    /// DejaVu Sans.
    Regular,
    /// DejaVu Sans Bold.
    Bold,
}

/// Measures text in one of the embedded faces.
struct Metrics {
    face: ttf_parser::Face<'static>,
}

impl Metrics {
    fn new(bytes: &'static [u8]) -> Result<Self, ApiError> {
        let face = ttf_parser::Face::parse(bytes, 0)
            .map_err(|e| ApiError::Internal(format!("embedded font does not parse: {e}")))?;
        Ok(Self { face })
    }

    /// Width of `text` at `size_pt`, mm.
    fn width(&self, text: &str, size_pt: f32) -> f32 {
        let units: u32 = text
            .chars()
            .map(|c| {
                self.face
                    .glyph_index(c)
                    .and_then(|g| self.face.glyph_hor_advance(g))
                    .map_or(600, u32::from)
            })
            .sum();
        units as f32 / f32::from(self.face.units_per_em()) * size_pt * MM_PER_PT
    }
}

/// A report being laid out.
pub struct Writer {
    doc: PdfDocumentReference,
    regular: IndirectFontRef,
    bold: IndirectFontRef,
    regular_metrics: Metrics,
    bold_metrics: Metrics,
    /// Each page with its width, mm (portrait or landscape).
    pages: Vec<(PdfPageIndex, PdfLayerIndex, f32)>,
    layer: PdfLayerReference,
    /// Width of the current page, mm.
    page_w: f32,
    /// Top of the next block, mm from the bottom.
    y: f32,
    /// The document title (written into the document information by [`Writer::finish`]).
    title: String,
}

/// An RGB colour from 0-255 components.
pub fn rgb(r: u8, g: u8, b: u8) -> Color {
    Color::Rgb(Rgb::new(
        f32::from(r) / 255.0,
        f32::from(g) / 255.0,
        f32::from(b) / 255.0,
        None,
    ))
}

/// Text colour.
pub fn ink() -> Color {
    rgb(25, 30, 40)
}

/// Secondary text colour.
pub fn muted() -> Color {
    rgb(95, 105, 120)
}

impl Writer {
    /// A document with one empty page.
    ///
    /// # Errors
    /// 500 when an embedded font cannot be loaded (never with the committed fonts).
    pub fn new(title: &str) -> Result<Self, ApiError> {
        let (doc, page, layer) = PdfDocument::new(title, Mm(PAGE_W), Mm(PAGE_H), "content");
        let title = title.to_owned();
        let font_error = |e: printpdf::Error| ApiError::Internal(format!("font: {e}"));
        let regular = doc
            .add_external_font(Cursor::new(REGULAR_TTF))
            .map_err(font_error)?;
        let bold = doc
            .add_external_font(Cursor::new(BOLD_TTF))
            .map_err(font_error)?;
        let current = doc.get_page(page).get_layer(layer);
        Ok(Self {
            doc,
            regular,
            bold,
            regular_metrics: Metrics::new(REGULAR_TTF)?,
            bold_metrics: Metrics::new(BOLD_TTF)?,
            pages: vec![(page, layer, PAGE_W)],
            layer: current,
            page_w: PAGE_W,
            y: PAGE_H - TOP,
            title,
        })
    }

    /// The layer of the current page, to draw on.
    pub fn layer(&self) -> &PdfLayerReference {
        &self.layer
    }

    /// Top of the next block, mm.
    pub fn y(&self) -> f32 {
        self.y
    }

    /// Moves the cursor down by `mm`.
    pub fn advance(&mut self, mm: f32) {
        self.y -= mm;
    }

    /// Width of the current page, mm.
    pub fn page_width(&self) -> f32 {
        self.page_w
    }

    /// Starts a new (portrait) page.
    pub fn new_page(&mut self) {
        self.add_page(PAGE_W, PAGE_H);
    }

    /// Starts a new landscape A4 page (297 x 210 mm); the next [`Self::new_page`] is portrait
    /// again.
    pub fn new_landscape_page(&mut self) {
        self.add_page(LANDSCAPE_W, LANDSCAPE_H);
    }

    fn add_page(&mut self, width: f32, height: f32) {
        let (page, layer) = self.doc.add_page(Mm(width), Mm(height), "content");
        self.pages.push((page, layer, width));
        self.layer = self.doc.get_page(page).get_layer(layer);
        self.page_w = width;
        self.y = height - TOP;
    }

    /// Starts a new page unless `height` mm still fit on this one.
    pub fn ensure(&mut self, height: f32) {
        if self.y - height < BOTTOM {
            self.new_page();
        }
    }

    /// Width of `text`, mm.
    pub fn width(&self, text: &str, size_pt: f32, face: Face) -> f32 {
        match face {
            Face::Regular => self.regular_metrics.width(text, size_pt),
            Face::Bold => self.bold_metrics.width(text, size_pt),
        }
    }

    /// Writes one line of text with its baseline at `y`.
    pub fn text_at(&self, text: &str, x: f32, y: f32, size_pt: f32, face: Face, color: Color) {
        let font = match face {
            Face::Regular => &self.regular,
            Face::Bold => &self.bold,
        };
        self.layer.set_fill_color(color);
        self.layer.use_text(text, size_pt, Mm(x), Mm(y), font);
    }

    /// Line height for a size, mm.
    pub fn line_height(size_pt: f32) -> f32 {
        size_pt * MM_PER_PT * 1.35
    }

    /// `text` broken into lines no wider than `width` mm (words longer than a line are cut).
    pub fn wrap(&self, text: &str, size_pt: f32, face: Face, width: f32) -> Vec<String> {
        let mut lines = Vec::new();
        for paragraph in text.split('\n') {
            let mut line = String::new();
            for word in paragraph.split_whitespace() {
                let candidate = if line.is_empty() {
                    word.to_owned()
                } else {
                    format!("{line} {word}")
                };
                if self.width(&candidate, size_pt, face) <= width || line.is_empty() {
                    line = candidate;
                } else {
                    lines.push(std::mem::take(&mut line));
                    word.clone_into(&mut line);
                }
                while self.width(&line, size_pt, face) > width && line.chars().count() > 1 {
                    let mut head = String::new();
                    for c in line.chars() {
                        head.push(c);
                        if self.width(&head, size_pt, face) > width {
                            head.pop();
                            break;
                        }
                    }
                    let rest = line[head.len()..].to_owned();
                    lines.push(head);
                    line = rest;
                }
            }
            lines.push(line);
        }
        lines
    }

    /// A wrapped paragraph from `x` to the right margin, moving the cursor below it.
    pub fn paragraph(&mut self, text: &str, x: f32, size_pt: f32, face: Face, color: &Color) {
        let width = self.page_w - MARGIN - x;
        let height = Self::line_height(size_pt);
        for line in self.wrap(text, size_pt, face, width) {
            self.ensure(height);
            self.y -= height;
            self.text_at(
                &line,
                x,
                self.y + height * 0.25,
                size_pt,
                face,
                color.clone(),
            );
        }
    }

    /// A section heading with a rule under it; keeps `keep_with` mm of what follows on its page.
    pub fn heading(&mut self, text: &str, keep_with: f32) {
        let size = 12.0;
        let height = Self::line_height(size) + 2.0;
        self.ensure(height + keep_with);
        self.y -= 3.0;
        self.y -= Self::line_height(size);
        self.text_at(
            text,
            MARGIN,
            self.y + 1.0,
            size,
            Face::Bold,
            rgb(150, 20, 40),
        );
        self.stroke(
            &[(MARGIN, self.y - 0.3), (self.page_w - MARGIN, self.y - 0.3)],
            0.4,
            &rgb(220, 180, 185),
        );
        self.y -= 2.0;
    }

    /// A smaller heading (one modality's result).
    pub fn subheading(&mut self, text: &str, keep_with: f32) {
        let size = 10.5;
        self.ensure(Self::line_height(size) + 2.0 + keep_with);
        self.y -= 2.0;
        self.paragraph(text, MARGIN, size, Face::Bold, &ink());
        self.y -= 0.5;
    }

    /// The width of a label column, mm, that holds each of `labels` on one line as
    /// [`Self::field`] writes them, and at least `min`.
    pub fn label_column(&self, labels: &[&str], min: f32) -> f32 {
        labels
            .iter()
            .map(|label| (self.width(label, FIELD_PT, Face::Bold) + FIELD_GAP).ceil())
            .fold(min, f32::max)
    }

    /// "Label: value" with a bold label in a column of `label_width` mm and a wrapped value.
    pub fn field(&mut self, label: &str, value: &str, label_width: f32) {
        let size = FIELD_PT;
        let height = Self::line_height(size);
        let x = MARGIN + label_width;
        let lines = self.wrap(value, size, Face::Regular, self.page_w - MARGIN - x);
        self.ensure(height);
        let label_lines = self.wrap(label, size, Face::Bold, label_width - FIELD_GAP);
        let rows = lines.len().max(label_lines.len());
        for i in 0..rows {
            self.ensure(height);
            self.y -= height;
            let baseline = self.y + height * 0.25;
            if let Some(label) = label_lines.get(i) {
                self.text_at(label, MARGIN, baseline, size, Face::Bold, muted());
            }
            if let Some(line) = lines.get(i) {
                self.text_at(line, x, baseline, size, Face::Regular, ink());
            }
        }
    }

    /// A bulleted, wrapped item, kept whole on one page: one that does not fit in what is left
    /// of this page starts the next (only an item longer than a page is broken).
    pub fn bullet(&mut self, text: &str) {
        let size = 9.0;
        let height = Self::line_height(size);
        let x = MARGIN + BULLET_INDENT;
        let lines = self.wrap(text, size, Face::Regular, self.page_w - MARGIN - x);
        self.ensure(height * lines.len() as f32);
        self.text_at(
            "•",
            MARGIN + 1.0,
            self.y - height + height * 0.25,
            size,
            Face::Regular,
            ink(),
        );
        self.paragraph(text, x, size, Face::Regular, &ink());
    }

    /// A polyline.
    pub fn stroke(&self, points: &[(f32, f32)], width_pt: f32, color: &Color) {
        if points.len() < 2 {
            return;
        }
        self.layer.set_outline_color(color.clone());
        self.layer.set_outline_thickness(width_pt);
        self.layer.add_line(Line {
            points: points
                .iter()
                .map(|&(x, y)| (Point::new(Mm(x), Mm(y)), false))
                .collect(),
            is_closed: false,
        });
    }

    /// A filled rectangle.
    pub fn fill_rect(&self, x: f32, y: f32, w: f32, h: f32, color: Color) {
        self.layer.set_fill_color(color);
        self.layer
            .add_rect(printpdf::Rect::new(Mm(x), Mm(y), Mm(x + w), Mm(y + h)));
    }

    /// Writes the footers ("Page n of N" and `left`) and the finished PDF's bytes.
    ///
    /// # Errors
    /// 500 when the PDF cannot be written.
    pub fn finish(
        self,
        left: &str,
        page_label: impl Fn(usize, usize) -> String,
    ) -> Result<Vec<u8>, ApiError> {
        let total = self.pages.len();
        for (n, &(page, layer, page_w)) in self.pages.iter().enumerate() {
            let layer = self.doc.get_page(page).get_layer(layer);
            let size = 8.0;
            let label = page_label(n + 1, total);
            let width = self.width(&label, size, Face::Regular);
            layer.set_outline_color(rgb(200, 200, 205));
            layer.set_outline_thickness(0.3);
            layer.add_line(Line {
                points: vec![
                    (Point::new(Mm(MARGIN), Mm(13.0)), false),
                    (Point::new(Mm(page_w - MARGIN), Mm(13.0)), false),
                ],
                is_closed: false,
            });
            layer.set_fill_color(muted());
            layer.use_text(left, size, Mm(MARGIN), Mm(9.0), &self.regular);
            layer.use_text(
                label,
                size,
                Mm(page_w - MARGIN - width),
                Mm(9.0),
                &self.regular,
            );
        }
        let title = self.title.clone();
        let bytes = self
            .doc
            .save_to_bytes()
            .map_err(|e| ApiError::Internal(format!("the PDF could not be written: {e}")))?;
        with_unicode_title(&bytes, &title)
    }
}

/// `text` as a PDF text string in UTF-16BE with its byte-order mark (PDF 32000-1 §7.9.2.2), which
/// every viewer decodes; printpdf writes the title's raw UTF-8, which viewers read as
/// PDFDocEncoding ("Cardio â€” …").
fn utf16_text(text: &str) -> Vec<u8> {
    let mut out = vec![0xFE, 0xFF];
    for unit in text.encode_utf16() {
        out.extend_from_slice(&unit.to_be_bytes());
    }
    out
}

/// The PDF `bytes` with the document information's `Title` rewritten as [`utf16_text`].
///
/// # Errors
/// 500 when the PDF cannot be read back or written.
fn with_unicode_title(bytes: &[u8], title: &str) -> Result<Vec<u8>, ApiError> {
    let error =
        |e: lopdf::Error| ApiError::Internal(format!("the PDF title could not be set: {e}"));
    let mut doc = lopdf::Document::load_mem(bytes).map_err(error)?;
    let info = doc
        .trailer
        .get(b"Info")
        .and_then(lopdf::Object::as_reference)
        .map_err(error)?;
    doc.get_object_mut(info)
        .and_then(lopdf::Object::as_dict_mut)
        .map_err(error)?
        .set(
            "Title",
            lopdf::Object::String(utf16_text(title), lopdf::StringFormat::Hexadecimal),
        );
    let mut out = Vec::with_capacity(bytes.len());
    doc.save_to(&mut out)
        .map_err(|e| ApiError::Internal(format!("the PDF could not be written: {e}")))?;
    Ok(out)
}

#[cfg(test)]
mod title_tests {
    use super::*;

    #[test]
    fn the_title_is_written_in_utf16_so_viewers_read_it_as_written() {
        let title = "Cardio — Informe de cribado (señal)";
        let bytes = Writer::new(title)
            .unwrap()
            .finish("footer", |n, t| format!("{n}/{t}"))
            .unwrap();
        let doc = lopdf::Document::load_mem(&bytes).unwrap();
        let info = doc.trailer.get(b"Info").unwrap().as_reference().unwrap();
        let stored = doc
            .get_object(info)
            .unwrap()
            .as_dict()
            .unwrap()
            .get(b"Title")
            .unwrap()
            .as_str()
            .unwrap()
            .to_vec();
        assert_eq!(&stored[..2], &[0xFE, 0xFF]);
        let units: Vec<u16> = stored[2..]
            .chunks_exact(2)
            .map(|c| u16::from_be_bytes([c[0], c[1]]))
            .collect();
        assert_eq!(String::from_utf16(&units).unwrap(), title);
    }
}

#[cfg(test)]
mod keep_tests {
    use super::*;

    const RECOMMENDATION: &str =
        "Repeat the recording at rest, seated, with the sensor held still, \
        and show the result to your doctor at the next visit; seek care at once for chest pain.";

    #[test]
    fn a_bullet_that_does_not_fit_moves_whole_to_the_next_page() {
        let mut out = Writer::new("t").unwrap();
        let height = Writer::line_height(9.0);
        let lines = out.wrap(
            RECOMMENDATION,
            9.0,
            Face::Regular,
            PAGE_W - 2.0 * MARGIN - 5.0,
        );
        assert_eq!(lines.len(), 2);
        // Room for one line and a half above the bottom margin.
        out.advance(out.y() - BOTTOM - 1.5 * height);

        out.bullet(RECOMMENDATION);

        assert_eq!(out.pages.len(), 2);
        assert!((out.y() - (PAGE_H - TOP - 2.0 * height)).abs() < 1e-4);
    }

    #[test]
    fn a_label_column_holds_the_clinical_model_on_one_line() {
        let mut out = Writer::new("t").unwrap();
        let label = "Clinical parameters model";
        let width = out.label_column(&["ECG (electrocardiogram)", label], 48.0);
        assert!(width > 48.0, "{width}");
        assert_eq!(out.label_column(&["ECG"], 48.0), 48.0);
        let top = out.y();

        out.field(label, "Performed", width);

        assert!((top - out.y() - Writer::line_height(9.0)).abs() < 1e-4);
    }
}
