//! The content-stream interpreter: turns a page's drawing operators (PDF 32000-1:2008 §8-9) into
//! the stroked and filled paths, text runs and image placements an ECG reader needs, all in page
//! space (the current transformation matrix applied).
//!
//! It tracks what matters for an ECG print and nothing more: the CTM (`cm`, `q`/`Q`), the stroke
//! colour and line width, path construction (`m l c v y re h`) and painting (`S s f F f* B B* b b*
//! n`), the text state (`BT ET Tf Tc Tw Tz TL Ts Td TD Tm T* Tj TJ ' "`) and `Do` (form XObjects are
//! interpreted in place, images are counted). Curves keep their end points only (an ECG trace is a
//! polyline). Every loop is bounded by [`Budget`].

use super::fonts::Font;
use super::Limits;
use std::collections::HashMap;
use std::rc::Rc;

/// An affine matrix `[a b c d e f]` as PDF writes it.
pub(crate) type Matrix = [f64; 6];

pub(crate) const IDENTITY: Matrix = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0];

/// `m` applied first, then `n` (PDF's `m × n`).
pub(crate) fn multiply(m: &Matrix, n: &Matrix) -> Matrix {
    [
        m[0] * n[0] + m[1] * n[2],
        m[0] * n[1] + m[1] * n[3],
        m[2] * n[0] + m[3] * n[2],
        m[2] * n[1] + m[3] * n[3],
        m[4] * n[0] + m[5] * n[2] + n[4],
        m[4] * n[1] + m[5] * n[3] + n[5],
    ]
}

pub(crate) fn apply(m: &Matrix, x: f64, y: f64) -> [f64; 2] {
    [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]]
}

/// How much `m` scales lengths (the square root of its determinant's magnitude).
fn scale_of(m: &Matrix) -> f64 {
    (m[0] * m[3] - m[1] * m[2]).abs().sqrt()
}

/// A painted subpath, in page space.
#[derive(Debug, Clone)]
pub(crate) struct Path {
    /// The vertices (curves reduced to their end points).
    pub points: Vec<[f64; 2]>,
    /// Stroke colour as RGB in 0..=1 when the path was stroked; `None` when only filled.
    pub stroke: Option<[f32; 3]>,
    /// Fill colour when filled with a plain colour.
    pub fill: Option<[f32; 3]>,
    /// Line width in page units.
    pub width: f64,
}

/// One shown string, in page space.
#[derive(Debug, Clone)]
pub(crate) struct Run {
    /// The decoded text.
    pub text: String,
    /// Where its first glyph's origin lies.
    pub origin: [f64; 2],
    /// Where the pen stood after its last glyph.
    pub end: [f64; 2],
    /// The font size in page units (the length of the text space's unit vertical vector).
    pub size: f64,
}

/// Everything drawn on one page.
#[derive(Debug, Default)]
pub(crate) struct Drawing {
    pub paths: Vec<Path>,
    pub runs: Vec<Run>,
    /// Image XObjects and inline images painted.
    pub images: usize,
    /// Vertices kept, for the budget.
    pub vertices: usize,
}

/// A form or image XObject a page's resources name.
pub(crate) enum XObject {
    Image,
    Form {
        content: Rc<Vec<u8>>,
        matrix: Matrix,
        resources: Rc<Resources>,
    },
}

/// The named resources the interpreter needs, resolved ahead of time by the document layer.
#[derive(Default)]
pub(crate) struct Resources {
    pub fonts: HashMap<Vec<u8>, Rc<Font>>,
    pub xobjects: HashMap<Vec<u8>, Rc<XObject>>,
}

/// Why interpretation stopped early: a limit was reached.
#[derive(Debug)]
pub(crate) struct OverBudget(pub &'static str);

/// Work left for one page (operators, vertices, text runs), shared by nested forms.
pub(crate) struct Budget {
    pub operators: usize,
    pub vertices: usize,
    pub runs: usize,
}

impl Budget {
    pub(crate) fn new(limits: &Limits) -> Self {
        Self {
            operators: limits.operators_per_page,
            vertices: limits.vertices,
            runs: limits.text_runs,
        }
    }
}

#[derive(Debug, Clone)]
enum Operand {
    Num(f64),
    Name(Vec<u8>),
    Str(Vec<u8>),
    Array(Vec<Operand>),
    Other,
}

impl Operand {
    fn num(&self) -> Option<f64> {
        match self {
            Operand::Num(v) => Some(*v),
            _ => None,
        }
    }
}

/// A tokenizer over content-stream bytes.
struct Lexer<'a> {
    bytes: &'a [u8],
    pos: usize,
}

enum Token<'a> {
    Operand(Operand),
    ArrayEnd,
    DictEnd,
    Operator(&'a [u8]),
}

fn is_white(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n' | b'\x0c' | b'\0')
}

fn is_delimiter(b: u8) -> bool {
    matches!(
        b,
        b'(' | b')' | b'<' | b'>' | b'[' | b']' | b'{' | b'}' | b'/' | b'%'
    )
}

const MAX_NESTING: usize = 16;

impl<'a> Lexer<'a> {
    fn skip_white(&mut self) {
        while let Some(&b) = self.bytes.get(self.pos) {
            if is_white(b) {
                self.pos += 1;
            } else if b == b'%' {
                while let Some(&c) = self.bytes.get(self.pos) {
                    if c == b'\n' || c == b'\r' {
                        break;
                    }
                    self.pos += 1;
                }
            } else {
                break;
            }
        }
    }

    fn regular(&mut self) -> &'a [u8] {
        let start = self.pos;
        while let Some(&b) = self.bytes.get(self.pos) {
            if is_white(b) || is_delimiter(b) {
                break;
            }
            self.pos += 1;
        }
        &self.bytes[start..self.pos]
    }

    fn next(&mut self, depth: usize) -> Option<Token<'a>> {
        self.skip_white();
        let &b = self.bytes.get(self.pos)?;
        match b {
            b'/' => {
                self.pos += 1;
                Some(Token::Operand(Operand::Name(self.regular().to_vec())))
            }
            b'(' => Some(Token::Operand(Operand::Str(self.literal()))),
            b'<' if self.bytes.get(self.pos + 1) == Some(&b'<') => {
                self.pos += 2;
                self.skip_dict(depth);
                Some(Token::Operand(Operand::Other))
            }
            b'<' => Some(Token::Operand(Operand::Str(self.hex()))),
            b'>' => {
                self.pos += if self.bytes.get(self.pos + 1) == Some(&b'>') {
                    2
                } else {
                    1
                };
                Some(Token::DictEnd)
            }
            b'[' => {
                self.pos += 1;
                let mut items = Vec::new();
                loop {
                    if depth >= MAX_NESTING {
                        break;
                    }
                    match self.next(depth + 1) {
                        Some(Token::Operand(o)) => items.push(o),
                        Some(Token::ArrayEnd) | None => break,
                        // An operator inside an array is malformed: drop it.
                        Some(Token::DictEnd | Token::Operator(_)) => {}
                    }
                }
                Some(Token::Operand(Operand::Array(items)))
            }
            b']' => {
                self.pos += 1;
                Some(Token::ArrayEnd)
            }
            b'{' | b'}' | b')' => {
                self.pos += 1;
                Some(Token::Operand(Operand::Other))
            }
            _ => {
                let word = self.regular();
                if word.is_empty() {
                    self.pos += 1;
                    return Some(Token::Operand(Operand::Other));
                }
                if matches!(word[0], b'0'..=b'9' | b'+' | b'-' | b'.') {
                    let value = std::str::from_utf8(word)
                        .ok()
                        .and_then(|s| s.parse::<f64>().ok())
                        .filter(|v| v.is_finite());
                    return Some(Token::Operand(value.map_or(Operand::Other, Operand::Num)));
                }
                if matches!(word, b"true" | b"false" | b"null") {
                    return Some(Token::Operand(Operand::Other));
                }
                Some(Token::Operator(word))
            }
        }
    }

    fn skip_dict(&mut self, depth: usize) {
        // Inline dictionaries (marked-content properties) carry nothing we need.
        while let Some(t) = self.next(depth + 1) {
            if matches!(t, Token::DictEnd) || depth >= MAX_NESTING {
                break;
            }
        }
    }

    fn literal(&mut self) -> Vec<u8> {
        self.pos += 1;
        let mut out = Vec::new();
        let mut level = 1usize;
        while let Some(&b) = self.bytes.get(self.pos) {
            self.pos += 1;
            match b {
                b'(' => {
                    level += 1;
                    out.push(b);
                }
                b')' => {
                    level -= 1;
                    if level == 0 {
                        break;
                    }
                    out.push(b);
                }
                b'\\' => {
                    let Some(&e) = self.bytes.get(self.pos) else {
                        break;
                    };
                    self.pos += 1;
                    match e {
                        b'n' => out.push(b'\n'),
                        b'r' => out.push(b'\r'),
                        b't' => out.push(b'\t'),
                        b'b' => out.push(8),
                        b'f' => out.push(12),
                        b'\r' => {
                            if self.bytes.get(self.pos) == Some(&b'\n') {
                                self.pos += 1;
                            }
                        }
                        b'\n' => {}
                        b'0'..=b'7' => {
                            let mut v = u32::from(e - b'0');
                            for _ in 0..2 {
                                match self.bytes.get(self.pos) {
                                    Some(&d @ b'0'..=b'7') => {
                                        v = v * 8 + u32::from(d - b'0');
                                        self.pos += 1;
                                    }
                                    _ => break,
                                }
                            }
                            out.push((v & 0xff) as u8);
                        }
                        other => out.push(other),
                    }
                }
                _ => out.push(b),
            }
        }
        out
    }

    fn hex(&mut self) -> Vec<u8> {
        self.pos += 1;
        let mut digits = Vec::new();
        while let Some(&b) = self.bytes.get(self.pos) {
            self.pos += 1;
            if b == b'>' {
                break;
            }
            if let Some(d) = (b as char).to_digit(16) {
                digits.push(d as u8);
            }
        }
        if digits.len() % 2 == 1 {
            digits.push(0);
        }
        digits.chunks(2).map(|p| p[0] << 4 | p[1]).collect()
    }

    /// Skips an inline image's data after `ID`, up to and including `EI`.
    fn skip_inline_image(&mut self) {
        let rest = &self.bytes[self.pos.min(self.bytes.len())..];
        let end = rest
            .windows(4)
            .position(|w| is_white(w[0]) && &w[1..3] == b"EI" && is_white(w[3]))
            .map_or(rest.len(), |p| p + 4);
        self.pos += end;
    }
}

#[derive(Clone)]
struct GraphicsState {
    ctm: Matrix,
    stroke: Option<[f32; 3]>,
    fill: Option<[f32; 3]>,
    stroke_components: usize,
    fill_components: usize,
    line_width: f64,
    font: Option<Rc<Font>>,
    font_size: f64,
    char_spacing: f64,
    word_spacing: f64,
    h_scale: f64,
    leading: f64,
    rise: f64,
}

impl Default for GraphicsState {
    fn default() -> Self {
        Self {
            ctm: IDENTITY,
            stroke: Some([0.0; 3]),
            fill: Some([0.0; 3]),
            stroke_components: 1,
            fill_components: 1,
            line_width: 1.0,
            font: None,
            font_size: 0.0,
            char_spacing: 0.0,
            word_spacing: 0.0,
            h_scale: 1.0,
            leading: 0.0,
            rise: 0.0,
        }
    }
}

fn color(ops: &[Operand]) -> Option<[f32; 3]> {
    let n: Vec<f32> = ops
        .iter()
        .filter_map(Operand::num)
        .map(|v| v as f32)
        .collect();
    match n.len() {
        1 => Some([n[0]; 3]),
        3 => Some([n[0], n[1], n[2]]),
        4 => {
            let k = 1.0 - n[3];
            Some([(1.0 - n[0]) * k, (1.0 - n[1]) * k, (1.0 - n[2]) * k])
        }
        _ => None,
    }
    .map(|c| c.map(|v| v.clamp(0.0, 1.0)))
}

/// Components of a colour space operand of `CS`/`cs` (a name of the page's resources is an ICC
/// profile or similar: its component count is learnt from the first `SC`/`scn`).
fn components(ops: &[Operand]) -> usize {
    match ops.last() {
        Some(Operand::Name(n)) if n == b"DeviceRGB" || n == b"CalRGB" => 3,
        Some(Operand::Name(n)) if n == b"DeviceCMYK" => 4,
        Some(Operand::Name(n)) if n == b"Pattern" => 0,
        _ => 1,
    }
}

struct Interpreter<'b> {
    out: Drawing,
    budget: &'b mut Budget,
    stack: Vec<GraphicsState>,
    gs: GraphicsState,
    subpaths: Vec<(Vec<[f64; 2]>, bool)>,
    text_matrix: Matrix,
    line_matrix: Matrix,
    max_stack: usize,
    max_form_depth: usize,
}

/// Interprets a page's content with its resources.
///
/// # Errors
/// [`OverBudget`] when a limit is reached (what was drawn so far is discarded).
pub(crate) fn interpret(
    content: &[u8],
    resources: &Resources,
    base: Matrix,
    budget: &mut Budget,
    limits: &Limits,
) -> Result<Drawing, OverBudget> {
    let mut it = Interpreter {
        out: Drawing::default(),
        budget,
        stack: Vec::new(),
        gs: GraphicsState {
            ctm: base,
            ..GraphicsState::default()
        },
        subpaths: Vec::new(),
        text_matrix: IDENTITY,
        line_matrix: IDENTITY,
        max_stack: limits.graphics_stack,
        max_form_depth: limits.form_depth,
    };
    it.run(content, resources, 0)?;
    Ok(it.out)
}

impl Interpreter<'_> {
    fn run(&mut self, content: &[u8], res: &Resources, depth: usize) -> Result<(), OverBudget> {
        let mut lexer = Lexer {
            bytes: content,
            pos: 0,
        };
        let mut ops: Vec<Operand> = Vec::new();
        let stack_floor = self.stack.len();
        while let Some(token) = lexer.next(0) {
            match token {
                Token::Operand(o) => {
                    if ops.len() < 64 {
                        ops.push(o);
                    }
                }
                Token::ArrayEnd | Token::DictEnd => {}
                Token::Operator(op) => {
                    if self.budget.operators == 0 {
                        return Err(OverBudget("operators per page"));
                    }
                    self.budget.operators -= 1;
                    if op == b"ID" {
                        lexer.skip_inline_image();
                        self.out.images += 1;
                    } else {
                        self.operator(op, &ops, res, depth, stack_floor)?;
                    }
                    ops.clear();
                }
            }
        }
        // A form restores the state it was entered with, whatever it left unbalanced.
        self.stack.truncate(stack_floor);
        Ok(())
    }

    fn nums<const N: usize>(ops: &[Operand]) -> Option<[f64; N]> {
        if ops.len() < N {
            return None;
        }
        let mut out = [0.0; N];
        for (slot, o) in out.iter_mut().zip(&ops[ops.len() - N..]) {
            *slot = o.num()?;
        }
        Some(out)
    }

    fn point(&mut self, x: f64, y: f64, new: bool) -> Result<(), OverBudget> {
        if self.budget.vertices == 0 {
            return Err(OverBudget("path vertices"));
        }
        self.budget.vertices -= 1;
        let p = apply(&self.gs.ctm, x, y);
        if new || self.subpaths.is_empty() {
            self.subpaths.push((vec![p], false));
        } else if let Some((points, _)) = self.subpaths.last_mut() {
            points.push(p);
        }
        Ok(())
    }

    fn paint(&mut self, stroke: bool, fill: bool, close: bool) {
        let width = self.gs.line_width * scale_of(&self.gs.ctm);
        for (mut points, closed) in self.subpaths.drain(..) {
            let closed = closed || close;
            if closed && points.len() > 1 && points.first() != points.last() {
                points.push(points[0]);
            }
            if !stroke && !fill {
                continue;
            }
            self.out.vertices += points.len();
            self.out.paths.push(Path {
                points,
                stroke: if stroke { self.gs.stroke } else { None },
                fill: if fill { self.gs.fill } else { None },
                width,
            });
        }
    }

    fn show(&mut self, bytes: &[u8], adjust_after: &[(usize, f64)]) -> Result<(), OverBudget> {
        let Some(font) = self.gs.font.clone() else {
            return Ok(());
        };
        if self.budget.runs == 0 {
            return Err(OverBudget("text runs"));
        }
        self.budget.runs -= 1;
        let gs = &self.gs;
        let to_page = |tm: &Matrix| {
            multiply(
                &multiply(
                    &[
                        gs.font_size * gs.h_scale,
                        0.0,
                        0.0,
                        gs.font_size,
                        0.0,
                        gs.rise,
                    ],
                    tm,
                ),
                &gs.ctm,
            )
        };
        let up_of = |tm: &Matrix| {
            let m = to_page(tm);
            let (o, u) = (apply(&m, 0.0, 0.0), apply(&m, 0.0, 1.0));
            ((u[0] - o[0]).powi(2) + (u[1] - o[1]).powi(2)).sqrt()
        };
        let size = up_of(&self.text_matrix);
        let mut runs = Vec::new();
        let mut text = String::new();
        let mut origin = apply(&to_page(&self.text_matrix), 0.0, 0.0);
        let mut adjust = adjust_after.iter().peekable();
        let mut offset = 0usize;
        for (code, len) in font.codes(bytes) {
            if text.is_empty() {
                origin = apply(&to_page(&self.text_matrix), 0.0, 0.0);
            }
            text.push_str(&font.decode(code));
            let w = font.width(code) / 1000.0;
            let space = if len == 1 && code == 32 {
                gs.word_spacing
            } else {
                0.0
            };
            let mut tx = (w * gs.font_size + gs.char_spacing + space) * gs.h_scale;
            offset += len;
            let mut jump = false;
            while let Some(&&(at, amount)) = adjust.peek() {
                if at > offset {
                    break;
                }
                adjust.next();
                tx -= amount / 1000.0 * gs.font_size * gs.h_scale;
                // A wide adjustment places the next text elsewhere (right-aligned columns are
                // written right to left): it starts a run of its own.
                jump |= amount.abs() >= 1000.0;
                // A wide negative adjustment is how many producers write a space.
                if amount < -200.0 && !text.ends_with(' ') {
                    text.push(' ');
                }
            }
            self.text_matrix = multiply(&[1.0, 0.0, 0.0, 1.0, tx, 0.0], &self.text_matrix);
            if jump {
                let end = apply(&to_page(&self.text_matrix), 0.0, 0.0);
                runs.push((std::mem::take(&mut text), origin, end));
            }
        }
        let end = apply(&to_page(&self.text_matrix), 0.0, 0.0);
        runs.push((text, origin, end));
        for (text, origin, end) in runs {
            if !text.trim().is_empty() {
                self.out.runs.push(Run {
                    text,
                    origin,
                    end,
                    size,
                });
            }
        }
        Ok(())
    }

    fn next_line(&mut self, tx: f64, ty: f64) {
        self.line_matrix = multiply(&[1.0, 0.0, 0.0, 1.0, tx, ty], &self.line_matrix);
        self.text_matrix = self.line_matrix;
    }

    fn operator(
        &mut self,
        op: &[u8],
        ops: &[Operand],
        res: &Resources,
        depth: usize,
        stack_floor: usize,
    ) -> Result<(), OverBudget> {
        match op {
            b"q" if self.stack.len() < self.max_stack => self.stack.push(self.gs.clone()),
            b"Q" if self.stack.len() > stack_floor => {
                if let Some(gs) = self.stack.pop() {
                    self.gs = gs;
                }
            }
            b"cm" => {
                if let Some(m) = Self::nums::<6>(ops) {
                    self.gs.ctm = multiply(&m, &self.gs.ctm);
                }
            }
            b"w" => {
                if let Some([w]) = Self::nums::<1>(ops) {
                    self.gs.line_width = w.abs();
                }
            }
            b"RG" | b"G" | b"K" => self.gs.stroke = color(ops),
            b"rg" | b"g" | b"k" => self.gs.fill = color(ops),
            b"CS" => {
                self.gs.stroke_components = components(ops);
                self.gs.stroke = Some([0.0; 3]);
            }
            b"cs" => {
                self.gs.fill_components = components(ops);
                self.gs.fill = Some([0.0; 3]);
            }
            b"SC" | b"SCN" => {
                self.gs.stroke = if self.gs.stroke_components == 0 {
                    None
                } else {
                    color(ops)
                };
            }
            b"sc" | b"scn" => {
                self.gs.fill = if self.gs.fill_components == 0 {
                    None
                } else {
                    color(ops)
                };
            }
            b"m" => {
                if let Some([x, y]) = Self::nums::<2>(ops) {
                    self.point(x, y, true)?;
                }
            }
            b"l" => {
                if let Some([x, y]) = Self::nums::<2>(ops) {
                    self.point(x, y, false)?;
                }
            }
            b"c" => {
                if let Some([_, _, _, _, x, y]) = Self::nums::<6>(ops) {
                    self.point(x, y, false)?;
                }
            }
            b"v" | b"y" => {
                if let Some([_, _, x, y]) = Self::nums::<4>(ops) {
                    self.point(x, y, false)?;
                }
            }
            b"re" => {
                if let Some([x, y, w, h]) = Self::nums::<4>(ops) {
                    self.point(x, y, true)?;
                    self.point(x + w, y, false)?;
                    self.point(x + w, y + h, false)?;
                    self.point(x, y + h, false)?;
                    self.point(x, y, false)?;
                    if let Some(last) = self.subpaths.last_mut() {
                        last.1 = true;
                    }
                }
            }
            b"h" => {
                if let Some(last) = self.subpaths.last_mut() {
                    last.1 = true;
                }
            }
            b"S" => self.paint(true, false, false),
            b"s" => self.paint(true, false, true),
            b"f" | b"F" | b"f*" => self.paint(false, true, false),
            b"B" | b"B*" => self.paint(true, true, false),
            b"b" | b"b*" => self.paint(true, true, true),
            b"n" => self.paint(false, false, false),
            b"BT" => {
                self.text_matrix = IDENTITY;
                self.line_matrix = IDENTITY;
            }
            b"Tf" => {
                if let (Some(Operand::Name(name)), Some(Operand::Num(size))) =
                    (ops.first(), ops.get(1))
                {
                    self.gs.font = res.fonts.get(name).cloned();
                    self.gs.font_size = *size;
                }
            }
            b"Tc" => {
                if let Some([v]) = Self::nums::<1>(ops) {
                    self.gs.char_spacing = v;
                }
            }
            b"Tw" => {
                if let Some([v]) = Self::nums::<1>(ops) {
                    self.gs.word_spacing = v;
                }
            }
            b"Tz" => {
                if let Some([v]) = Self::nums::<1>(ops) {
                    self.gs.h_scale = v / 100.0;
                }
            }
            b"TL" => {
                if let Some([v]) = Self::nums::<1>(ops) {
                    self.gs.leading = v;
                }
            }
            b"Ts" => {
                if let Some([v]) = Self::nums::<1>(ops) {
                    self.gs.rise = v;
                }
            }
            b"Td" => {
                if let Some([x, y]) = Self::nums::<2>(ops) {
                    self.next_line(x, y);
                }
            }
            b"TD" => {
                if let Some([x, y]) = Self::nums::<2>(ops) {
                    self.gs.leading = -y;
                    self.next_line(x, y);
                }
            }
            b"Tm" => {
                if let Some(m) = Self::nums::<6>(ops) {
                    self.line_matrix = m;
                    self.text_matrix = m;
                }
            }
            b"T*" => self.next_line(0.0, -self.gs.leading),
            b"Tj" => {
                if let Some(Operand::Str(s)) = ops.last() {
                    self.show(s, &[])?;
                }
            }
            b"'" | b"\"" => {
                if op == b"\"" {
                    if let [Operand::Num(aw), Operand::Num(ac), ..] = ops {
                        self.gs.word_spacing = *aw;
                        self.gs.char_spacing = *ac;
                    }
                }
                self.next_line(0.0, -self.gs.leading);
                if let Some(Operand::Str(s)) = ops.last() {
                    self.show(s, &[])?;
                }
            }
            b"TJ" => {
                if let Some(Operand::Array(items)) = ops.last() {
                    let mut bytes = Vec::new();
                    let mut adjust = Vec::new();
                    for item in items {
                        match item {
                            Operand::Str(s) => bytes.extend_from_slice(s),
                            Operand::Num(n) => adjust.push((bytes.len(), *n)),
                            _ => {}
                        }
                    }
                    self.show(&bytes, &adjust)?;
                }
            }
            b"Do" => {
                if let Some(Operand::Name(name)) = ops.last() {
                    match res.xobjects.get(name).map(AsRef::as_ref) {
                        Some(XObject::Image) => self.out.images += 1,
                        Some(XObject::Form {
                            content,
                            matrix,
                            resources,
                        }) if depth < self.max_form_depth => {
                            let saved = self.gs.clone();
                            self.stack.push(saved.clone());
                            self.gs.ctm = multiply(matrix, &self.gs.ctm);
                            let content = Rc::clone(content);
                            let resources = Rc::clone(resources);
                            self.run(&content, &resources, depth + 1)?;
                            self.stack.pop();
                            self.gs = saved;
                        }
                        _ => {}
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(content: &str) -> Drawing {
        let limits = Limits::for_input(1 << 20);
        let mut budget = Budget::new(&limits);
        interpret(
            content.as_bytes(),
            &Resources::default(),
            IDENTITY,
            &mut budget,
            &limits,
        )
        .unwrap()
    }

    #[test]
    fn a_stroked_path_is_kept_in_page_space_with_its_colour_and_width() {
        let d = run("q 2 0 0 2 10 20 cm 1 0 0 RG 0.5 w 0 0 m 1 1 l 2 0 l S Q");
        assert_eq!(d.paths.len(), 1);
        let p = &d.paths[0];
        assert_eq!(p.points, vec![[10.0, 20.0], [12.0, 22.0], [14.0, 20.0]]);
        assert_eq!(p.stroke, Some([1.0, 0.0, 0.0]));
        assert!((p.width - 1.0).abs() < 1e-12);
    }

    #[test]
    fn graphics_state_is_restored_by_q_and_unbalanced_q_is_ignored() {
        let d = run("Q Q q 0 g 3 w Q 0 0 m 5 0 l S");
        assert!((d.paths[0].width - 1.0).abs() < 1e-12);
    }

    #[test]
    fn an_operator_budget_stops_a_long_stream() {
        let limits = Limits {
            operators_per_page: 10,
            ..Limits::for_input(1 << 20)
        };
        let mut budget = Budget::new(&limits);
        let content = "0 0 m 1 1 l ".repeat(20);
        assert!(interpret(
            content.as_bytes(),
            &Resources::default(),
            IDENTITY,
            &mut budget,
            &limits
        )
        .is_err());
    }

    #[test]
    fn garbage_does_not_stop_the_lexer() {
        let d = run("<< /A [1 2 (x\\)y) <41> >> ] ] >> BI /W 1 ID \x00\x01 EI 0 0 m 1 0 l S");
        assert_eq!(d.paths.len(), 1);
        assert_eq!(d.images, 1);
    }
}
