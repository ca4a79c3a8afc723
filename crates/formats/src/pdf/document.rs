//! The file layer: loads the PDF's object structure with `lopdf` under explicit limits and hands
//! each page's decoded content stream, rotation and resolved resources (fonts, form XObjects,
//! images) to the interpreter.
//!
//! `lopdf` inflates object streams while it loads, without a bound; so before it sees the file,
//! every zlib stream in it is inflated once into a counter and the file is refused when the total
//! passes the byte budget ([`Limits::decoded_bytes`]). Content streams, forms and CMaps are then
//! decoded here (not by `lopdf`), each against the same budget. Any panic inside `lopdf` is caught
//! and reported as an invalid file.

use super::content::{Matrix, Resources, XObject, IDENTITY};
use super::fonts::{self, BaseEncoding, Font};
use super::Limits;
use crate::{Format, FormatError};
use lopdf::{Dictionary, Document, Object, ObjectId};
use std::collections::HashMap;
use std::rc::Rc;

/// One page, ready to interpret.
pub(crate) struct Page {
    /// Clockwise display rotation in degrees (0, 90, 180 or 270).
    pub rotate: i64,
    /// The decoded content stream(s), concatenated.
    pub content: Vec<u8>,
    /// Its resources.
    pub resources: Rc<Resources>,
}

fn invalid(reason: impl Into<String>) -> FormatError {
    FormatError::invalid(Format::Pdf, reason)
}

/// Inflates every zlib stream of the raw file into a counter; errors when the total passes `budget`.
fn check_inflated_size(bytes: &[u8], budget: usize) -> Result<(), FormatError> {
    let mut total = 0usize;
    let mut buf = vec![0u8; 1 << 16];
    let mut from = 0;
    while let Some(p) = find(&bytes[from..], b"stream") {
        let at = from + p;
        from = at + 6;
        if at >= 3 && &bytes[at - 3..at] == b"end" {
            continue;
        }
        let mut start = at + 6;
        if bytes.get(start) == Some(&b'\r') {
            start += 1;
        }
        if bytes.get(start) == Some(&b'\n') {
            start += 1;
        }
        let data = &bytes[start.min(bytes.len())..];
        let mut inflater = flate2::Decompress::new(true);
        loop {
            let before_in = inflater.total_in();
            let before_out = inflater.total_out();
            let rest = &data[(before_in as usize).min(data.len())..];
            let status = inflater.decompress(rest, &mut buf, flate2::FlushDecompress::None);
            let produced = (inflater.total_out() - before_out) as usize;
            total = total.saturating_add(produced);
            if total > budget {
                return Err(FormatError::TooLarge(format!(
                    "a PDF whose compressed streams inflate to more than {budget} bytes"
                )));
            }
            match status {
                Ok(flate2::Status::Ok | flate2::Status::BufError)
                    if produced > 0 || inflater.total_in() > before_in => {}
                _ => break,
            }
        }
    }
    Ok(())
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// Loads the document and prepares its pages.
///
/// # Errors
/// [`FormatError::TooLarge`] when a limit is passed, [`FormatError::Invalid`] when the structure
/// cannot be read, [`FormatError::UnsupportedFeature`] for an encrypted file.
pub(crate) fn load(bytes: &[u8], limits: &Limits) -> Result<Vec<Page>, FormatError> {
    check_inflated_size(bytes, limits.decoded_bytes)?;
    let loaded = std::panic::catch_unwind(|| Document::load_mem(bytes));
    let doc = match loaded {
        Ok(Ok(doc)) => doc,
        Ok(Err(e)) => return Err(invalid(format!("cannot read its structure ({e})"))),
        Err(_) => return Err(invalid("cannot read its structure (the file is damaged)")),
    };
    if doc.objects.len() > limits.objects {
        return Err(FormatError::TooLarge(format!(
            "a PDF of {} objects (at most {})",
            doc.objects.len(),
            limits.objects
        )));
    }
    if doc.is_encrypted() && doc.trailer.get(b"Encrypt").is_ok() {
        return Err(FormatError::feature(
            Format::Pdf,
            "an encrypted PDF cannot be read: export it again without a password",
        ));
    }
    let pages = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let mut loader = Loader {
            doc: &doc,
            limits,
            decoded: 0,
            builds: 0,
            fonts: HashMap::new(),
            forms: HashMap::new(),
        };
        loader.pages()
    }));
    pages.unwrap_or_else(|_| Err(invalid("cannot read its structure (its pages are damaged)")))
}

struct Loader<'d> {
    doc: &'d Document,
    limits: &'d Limits,
    decoded: usize,
    builds: usize,
    fonts: HashMap<ObjectId, Rc<Font>>,
    forms: HashMap<ObjectId, Rc<XObject>>,
}

impl<'d> Loader<'d> {
    fn pages(&mut self) -> Result<Vec<Page>, FormatError> {
        let ids: Vec<ObjectId> = self.doc.page_iter().take(self.limits.pages + 1).collect();
        if ids.len() > self.limits.pages {
            return Err(FormatError::TooLarge(format!(
                "a PDF of more than {} pages",
                self.limits.pages
            )));
        }
        let mut pages = Vec::new();
        for id in ids {
            let Ok(page) = self.doc.get_dictionary(id) else {
                continue;
            };
            let rotate = self
                .inherited(page, b"Rotate")
                .and_then(|o| o.as_i64().ok())
                .unwrap_or(0)
                .rem_euclid(360);
            let mut content = Vec::new();
            if let Ok(contents) = page.get(b"Contents") {
                let items: Vec<&Object> = match self.deref(contents) {
                    Some(Object::Array(items)) => items.iter().collect(),
                    Some(other) => vec![other],
                    None => vec![],
                };
                for item in items.into_iter().take(self.limits.objects) {
                    if let Some(Object::Stream(_)) = self.deref(item) {
                        let data = self.stream_data(item)?;
                        content.extend_from_slice(&data);
                        content.push(b'\n');
                    }
                }
            }
            let resources = self
                .inherited(page, b"Resources")
                .and_then(|r| self.dict(r))
                .map_or_else(
                    || Ok(Rc::new(Resources::default())),
                    |r| self.resources(r, 0),
                )?;
            pages.push(Page {
                rotate: (rotate / 90) * 90,
                content,
                resources,
            });
        }
        Ok(pages)
    }

    fn deref(&self, object: &'d Object) -> Option<&'d Object> {
        self.doc.dereference(object).ok().map(|(_, o)| o)
    }

    fn dict(&self, object: &'d Object) -> Option<&'d Dictionary> {
        match self.deref(object)? {
            Object::Dictionary(d) => Some(d),
            Object::Stream(s) => Some(&s.dict),
            _ => None,
        }
    }

    /// A page attribute, from the page or the nearest page-tree node above it.
    fn inherited(&self, mut node: &'d Dictionary, key: &[u8]) -> Option<&'d Object> {
        for _ in 0..32 {
            if let Ok(v) = node.get(key) {
                return Some(v);
            }
            node = self.dict(node.get(b"Parent").ok()?)?;
        }
        None
    }

    /// The decoded bytes of a stream object (no filter or FlateDecode), against the byte budget.
    fn stream_data(&mut self, object: &Object) -> Result<Vec<u8>, FormatError> {
        let Some(Object::Stream(stream)) = self.doc.dereference(object).ok().map(|(_, o)| o) else {
            return Ok(Vec::new());
        };
        let filters: Vec<Vec<u8>> =
            match stream.dict.get(b"Filter").ok().and_then(|f| self.deref(f)) {
                Some(Object::Name(n)) => vec![n.clone()],
                Some(Object::Array(items)) => items
                    .iter()
                    .filter_map(|i| i.as_name().ok().map(<[u8]>::to_vec))
                    .collect(),
                _ => vec![],
            };
        let left = self.limits.decoded_bytes.saturating_sub(self.decoded);
        let data = match filters.as_slice() {
            [] => stream.content.clone(),
            [f] if f == b"FlateDecode" || f == b"Fl" => inflate(&stream.content, left)?,
            // Other filters (LZW, ASCII85, images' DCT) carry nothing the reader uses.
            _ => Vec::new(),
        };
        self.decoded += data.len();
        if self.decoded > self.limits.decoded_bytes {
            return Err(FormatError::TooLarge(format!(
                "a PDF whose streams decode to more than {} bytes",
                self.limits.decoded_bytes
            )));
        }
        Ok(data)
    }

    fn resources(
        &mut self,
        dict: &'d Dictionary,
        depth: usize,
    ) -> Result<Rc<Resources>, FormatError> {
        let mut res = Resources::default();
        if let Some(fonts) = dict.get(b"Font").ok().and_then(|f| self.dict(f)) {
            for (name, value) in fonts.iter().take(1024) {
                if let Some(font) = self.font(value)? {
                    res.fonts.insert(name.clone(), font);
                }
            }
        }
        if let Some(xobjects) = dict.get(b"XObject").ok().and_then(|x| self.dict(x)) {
            for (name, value) in xobjects.iter().take(1024) {
                if let Some(x) = self.xobject(value, dict, depth)? {
                    res.xobjects.insert(name.clone(), x);
                }
            }
        }
        Ok(Rc::new(res))
    }

    fn xobject(
        &mut self,
        value: &'d Object,
        parent_resources: &'d Dictionary,
        depth: usize,
    ) -> Result<Option<Rc<XObject>>, FormatError> {
        let id = value.as_reference().ok();
        if let Some(x) = id.and_then(|id| self.forms.get(&id)) {
            return Ok(Some(Rc::clone(x)));
        }
        let Some(Object::Stream(stream)) = self.deref(value) else {
            return Ok(None);
        };
        let subtype = stream
            .dict
            .get(b"Subtype")
            .and_then(Object::as_name)
            .unwrap_or(b"");
        let x = match subtype {
            b"Image" => XObject::Image,
            b"Form" if depth < self.limits.form_depth => {
                self.builds += 1;
                if self.builds > self.limits.form_builds {
                    return Ok(None);
                }
                let content = Rc::new(self.stream_data(value)?);
                let matrix = stream
                    .dict
                    .get(b"Matrix")
                    .ok()
                    .and_then(|m| self.matrix(m))
                    .unwrap_or(IDENTITY);
                let own = stream
                    .dict
                    .get(b"Resources")
                    .ok()
                    .and_then(|r| self.dict(r));
                let resources = self.resources(own.unwrap_or(parent_resources), depth + 1)?;
                XObject::Form {
                    content,
                    matrix,
                    resources,
                }
            }
            _ => return Ok(None),
        };
        let x = Rc::new(x);
        if let Some(id) = id {
            self.forms.insert(id, Rc::clone(&x));
        }
        Ok(Some(x))
    }

    fn matrix(&self, m: &'d Object) -> Option<Matrix> {
        let Object::Array(items) = self.deref(m)? else {
            return None;
        };
        let v: Vec<f64> = items
            .iter()
            .filter_map(|i| i.as_float().ok().map(f64::from))
            .collect();
        (v.len() == 6 && v.iter().all(|x| x.is_finite()))
            .then(|| [v[0], v[1], v[2], v[3], v[4], v[5]])
    }

    fn number(&self, o: &'d Object) -> Option<f64> {
        self.deref(o)?
            .as_float()
            .ok()
            .map(f64::from)
            .filter(|v| v.is_finite())
    }

    fn font(&mut self, value: &'d Object) -> Result<Option<Rc<Font>>, FormatError> {
        let id = value.as_reference().ok();
        if let Some(f) = id.and_then(|id| self.fonts.get(&id)) {
            return Ok(Some(Rc::clone(f)));
        }
        let Some(dict) = self.dict(value) else {
            return Ok(None);
        };
        let mut font = Font {
            default_width: 500.0,
            ..Font::default()
        };
        let subtype = dict
            .get(b"Subtype")
            .and_then(Object::as_name)
            .unwrap_or(b"");
        if subtype == b"Type0" {
            font.two_byte = true;
            font.base = BaseEncoding::MacGlyphOrder;
            font.default_width = 1000.0;
            let descendant = dict
                .get(b"DescendantFonts")
                .ok()
                .and_then(|d| match self.deref(d) {
                    Some(Object::Array(a)) => a.first().and_then(|f| self.dict(f)),
                    _ => None,
                });
            if let Some(cid) = descendant {
                if let Some(dw) = cid.get(b"DW").ok().and_then(|v| self.number(v)) {
                    font.default_width = dw;
                }
                if let Some(Object::Array(w)) = cid.get(b"W").ok().and_then(|w| self.deref(w)) {
                    self.cid_widths(w, &mut font);
                }
            }
        } else {
            if let Some(missing) = dict
                .get(b"FontDescriptor")
                .ok()
                .and_then(|d| self.dict(d))
                .and_then(|d| d.get(b"MissingWidth").ok())
                .and_then(|v| self.number(v))
            {
                font.default_width = missing;
            }
            let first = dict
                .get(b"FirstChar")
                .ok()
                .and_then(|v| self.number(v))
                .unwrap_or(0.0)
                .clamp(0.0, 255.0) as u32;
            if let Some(Object::Array(widths)) =
                dict.get(b"Widths").ok().and_then(|w| self.deref(w))
            {
                for (i, w) in widths.iter().take(256).enumerate() {
                    if let Some(w) = self.number(w) {
                        font.widths.insert(first + i as u32, w);
                    }
                }
            }
            match dict.get(b"Encoding").ok().and_then(|e| self.deref(e)) {
                Some(Object::Name(n)) => font.base = base_encoding(n),
                Some(Object::Dictionary(enc)) => {
                    if let Ok(n) = enc.get(b"BaseEncoding").and_then(Object::as_name) {
                        font.base = base_encoding(n);
                    }
                    if let Some(Object::Array(diffs)) =
                        enc.get(b"Differences").ok().and_then(|d| self.deref(d))
                    {
                        let mut code = 0u32;
                        for item in diffs.iter().take(4096) {
                            match item {
                                Object::Integer(c) => code = (*c).clamp(0, 255) as u32,
                                Object::Name(name) => {
                                    if let Some(text) = fonts::glyph_name(name) {
                                        font.map.insert(code, text);
                                    }
                                    code = (code + 1).min(255);
                                }
                                _ => {}
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        if let Ok(to_unicode) = dict.get(b"ToUnicode") {
            if matches!(self.deref(to_unicode), Some(Object::Stream(_))) {
                let data = self.stream_data(to_unicode)?;
                fonts::parse_to_unicode(&data, &mut font.map);
            }
        }
        let font = Rc::new(font);
        if let Some(id) = id {
            self.fonts.insert(id, Rc::clone(&font));
        }
        Ok(Some(font))
    }

    fn cid_widths(&self, w: &'d [Object], font: &mut Font) {
        let mut i = 0;
        while i < w.len() && font.widths.len() < 1 << 16 {
            let Some(first) = self.number(&w[i]) else {
                break;
            };
            let first = first.clamp(0.0, 65535.0) as u32;
            match w.get(i + 1).and_then(|o| self.deref(o)) {
                Some(Object::Array(ws)) => {
                    for (k, v) in ws.iter().take(1 << 16).enumerate() {
                        if let Some(v) = self.number(v) {
                            font.widths.insert(first + k as u32, v);
                        }
                    }
                    i += 2;
                }
                Some(_) => {
                    let last = w
                        .get(i + 1)
                        .and_then(|o| self.number(o))
                        .unwrap_or(0.0)
                        .clamp(0.0, 65535.0) as u32;
                    let v = w
                        .get(i + 2)
                        .and_then(|o| self.number(o))
                        .unwrap_or(font.default_width);
                    for c in first..=last.min(first + (1 << 16)) {
                        font.widths.insert(c, v);
                        if font.widths.len() >= 1 << 16 {
                            break;
                        }
                    }
                    i += 3;
                }
                None => break,
            }
        }
    }
}

fn base_encoding(name: &[u8]) -> BaseEncoding {
    match name {
        b"WinAnsiEncoding" => BaseEncoding::WinAnsi,
        b"MacRomanEncoding" => BaseEncoding::MacRoman,
        _ => BaseEncoding::Standard,
    }
}

/// Inflates zlib data (or raw deflate, which some producers write) up to `limit` bytes.
fn inflate(data: &[u8], limit: usize) -> Result<Vec<u8>, FormatError> {
    use std::io::Read;
    let too_large = || {
        FormatError::TooLarge(format!(
            "a PDF whose streams decode to more than {limit} bytes in all"
        ))
    };
    let mut out = Vec::new();
    let mut reader = flate2::read::ZlibDecoder::new(data).take(limit as u64 + 1);
    // A truncated or damaged stream keeps what inflated before the damage, as viewers do.
    let ok = reader.read_to_end(&mut out).is_ok();
    if !ok && out.is_empty() {
        let mut raw = flate2::read::DeflateDecoder::new(data).take(limit as u64 + 1);
        let _ = raw.read_to_end(&mut out);
    }
    if out.len() > limit {
        return Err(too_large());
    }
    Ok(out)
}
