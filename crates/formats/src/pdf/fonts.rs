//! Font decoding: what characters a shown string's codes stand for, and how far each glyph moves
//! the pen (PDF 32000-1:2008 §9.6-9.10).
//!
//! Simple fonts (one byte a code) decode through a `ToUnicode` CMap when the font has one, else
//! through their `/Encoding` (WinAnsi, MacRoman or Standard, with `/Differences` of the common
//! glyph names). Composite fonts (`Type0`, two bytes a code) need `ToUnicode`; without it, a
//! TrueType font's glyph numbers are read in the standard Macintosh glyph order (glyph 3 = space,
//! glyph 36 = "A"), which is what the MUSE prints' subset-free fonts use.

use std::collections::HashMap;

/// Most CMap entries one font may declare (a full two-byte range is 65536).
const MAX_CMAP_ENTRIES: usize = 1 << 16;

/// A font, reduced to decoding and advance widths.
#[derive(Debug, Default)]
pub(crate) struct Font {
    /// Two-byte codes (a `Type0` font with an Identity or other two-byte CMap).
    pub two_byte: bool,
    /// Code to text, from `ToUnicode` or `/Differences`.
    pub map: HashMap<u32, String>,
    /// The base single-byte encoding when no map entry applies.
    pub base: BaseEncoding,
    /// Advance widths in thousandths of the font size.
    pub widths: HashMap<u32, f64>,
    /// Width of codes without an entry.
    pub default_width: f64,
}

/// The built-in single-byte encodings.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BaseEncoding {
    #[default]
    Standard,
    WinAnsi,
    MacRoman,
    /// Glyph numbers in the standard Macintosh order (composite fonts without `ToUnicode`).
    MacGlyphOrder,
}

impl Font {
    /// The codes of `bytes` with their byte lengths.
    pub(crate) fn codes<'a>(&self, bytes: &'a [u8]) -> impl Iterator<Item = (u32, usize)> + 'a {
        let step = if self.two_byte { 2 } else { 1 };
        bytes.chunks(step).map(move |c| {
            (
                c.iter().fold(0u32, |acc, &b| acc << 8 | u32::from(b)),
                c.len(),
            )
        })
    }

    /// The text code `code` stands for (empty when unknown).
    pub(crate) fn decode(&self, code: u32) -> String {
        if let Some(s) = self.map.get(&code) {
            return s.clone();
        }
        let c = match self.base {
            BaseEncoding::MacGlyphOrder => (3..=97)
                .contains(&code)
                .then(|| char::from_u32(code + 29))
                .flatten(),
            BaseEncoding::Standard if code < 128 => match code {
                0x27 => Some('\u{2019}'),
                0x60 => Some('\u{2018}'),
                _ => char::from_u32(code),
            },
            BaseEncoding::WinAnsi if code < 256 => win_ansi(code as u8),
            BaseEncoding::MacRoman if code < 256 => mac_roman(code as u8),
            _ => None,
        };
        c.filter(|c| !c.is_control() || *c == ' ')
            .map(String::from)
            .unwrap_or_default()
    }

    /// Advance of `code` in thousandths of the font size.
    pub(crate) fn width(&self, code: u32) -> f64 {
        self.widths
            .get(&code)
            .copied()
            .unwrap_or(self.default_width)
    }
}

fn win_ansi(b: u8) -> Option<char> {
    const HIGH: [u16; 32] = [
        0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039,
        0x0152, 0, 0x017D, 0, 0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC,
        0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
    ];
    match b {
        0x80..=0x9f => {
            char::from_u32(u32::from(HIGH[usize::from(b - 0x80)])).filter(|&c| c != '\0')
        }
        _ => Some(char::from(b)),
    }
}

fn mac_roman(b: u8) -> Option<char> {
    const HIGH: &str = "ÄÅÇÉÑÖÜáàâäãåçéèêëíìîïñóòôöõúùûü†°¢£§•¶ß®©™´¨≠ÆØ∞±≤≥¥µ∂∑∏π∫ªºΩæø¿¡¬√ƒ≈∆«»… ÀÃÕŒœ–—“”‘’÷◊ÿŸ⁄€‹›ﬁﬂ‡·‚„‰ÂÊÁËÈÍÎÏÌÓÔ\u{f8ff}ÒÚÛÙıˆ˜¯˘˙˚¸˝˛ˇ";
    if b < 0x80 {
        return Some(char::from(b));
    }
    HIGH.chars().nth(usize::from(b - 0x80))
}

/// Unicode text for a glyph name of a `/Differences` array (the names ECG prints use; `uniXXXX`).
pub(crate) fn glyph_name(name: &[u8]) -> Option<String> {
    const NAMES: &[(&str, &str)] = &[
        ("space", " "),
        ("zero", "0"),
        ("one", "1"),
        ("two", "2"),
        ("three", "3"),
        ("four", "4"),
        ("five", "5"),
        ("six", "6"),
        ("seven", "7"),
        ("eight", "8"),
        ("nine", "9"),
        ("period", "."),
        ("comma", ","),
        ("colon", ":"),
        ("semicolon", ";"),
        ("hyphen", "-"),
        ("minus", "-"),
        ("slash", "/"),
        ("parenleft", "("),
        ("parenright", ")"),
        ("bracketleft", "["),
        ("bracketright", "]"),
        ("percent", "%"),
        ("asterisk", "*"),
        ("plus", "+"),
        ("equal", "="),
        ("less", "<"),
        ("greater", ">"),
        ("degree", "°"),
        ("mu", "µ"),
        ("micro", "µ"),
        ("underscore", "_"),
        ("quoteright", "'"),
        ("quotesingle", "'"),
        ("adieresis", "ä"),
        ("odieresis", "ö"),
        ("udieresis", "ü"),
        ("Adieresis", "Ä"),
        ("Odieresis", "Ö"),
        ("Udieresis", "Ü"),
        ("germandbls", "ß"),
        ("eacute", "é"),
        ("egrave", "è"),
    ];
    let name = std::str::from_utf8(name).ok()?;
    if name.len() == 1 && name.is_ascii() {
        return Some(name.to_string());
    }
    if let Some(hex) = name.strip_prefix("uni") {
        return u32::from_str_radix(hex.get(..4)?, 16)
            .ok()
            .and_then(char::from_u32)
            .map(String::from);
    }
    NAMES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, s)| (*s).to_string())
}

/// Parses a `ToUnicode` CMap's `bfchar` and `bfrange` sections into `map`; returns whether codes
/// are two bytes long (from the source codes' length).
pub(crate) fn parse_to_unicode(data: &[u8], map: &mut HashMap<u32, String>) -> bool {
    let tokens = cmap_tokens(data);
    let mut two_byte = false;
    let mut i = 0;
    let mut section = "";
    while i < tokens.len() {
        match &tokens[i] {
            CmapToken::Word(w) if w == "beginbfchar" => section = "char",
            CmapToken::Word(w) if w == "beginbfrange" => section = "range",
            CmapToken::Word(w) if w.starts_with("end") => section = "",
            CmapToken::Hex(src) if section == "char" => {
                if let Some(CmapToken::Hex(dst)) = tokens.get(i + 1) {
                    two_byte |= src.len() >= 2;
                    if map.len() < MAX_CMAP_ENTRIES {
                        map.insert(code_of(src), utf16(dst));
                    }
                    i += 1;
                }
            }
            CmapToken::Hex(lo) if section == "range" => {
                two_byte |= lo.len() >= 2;
                let (Some(CmapToken::Hex(hi)), Some(dst)) = (tokens.get(i + 1), tokens.get(i + 2))
                else {
                    i += 1;
                    continue;
                };
                let (lo, hi) = (code_of(lo), code_of(hi));
                match dst {
                    CmapToken::Hex(first) => {
                        let base = utf16(first);
                        let mut chars: Vec<char> = base.chars().collect();
                        for code in lo..=hi.min(lo.saturating_add(255)) {
                            if map.len() >= MAX_CMAP_ENTRIES {
                                break;
                            }
                            map.insert(code, chars.iter().collect());
                            if let Some(last) = chars.last_mut() {
                                *last = char::from_u32(*last as u32 + 1).unwrap_or(*last);
                            }
                        }
                    }
                    CmapToken::Array(items) => {
                        for (code, item) in (lo..=hi).zip(items) {
                            if map.len() < MAX_CMAP_ENTRIES {
                                map.insert(code, utf16(item));
                            }
                        }
                    }
                    CmapToken::Word(_) => {}
                }
                i += 2;
            }
            _ => {}
        }
        i += 1;
    }
    two_byte
}

enum CmapToken {
    Word(String),
    Hex(Vec<u8>),
    Array(Vec<Vec<u8>>),
}

fn hex_bytes(s: &[u8]) -> Vec<u8> {
    let digits: Vec<u8> = s
        .iter()
        .filter_map(|&b| (b as char).to_digit(16).map(|d| d as u8))
        .collect();
    digits
        .chunks(2)
        .map(|p| p[0] << 4 | p.get(1).copied().unwrap_or(0))
        .collect()
}

fn cmap_tokens(data: &[u8]) -> Vec<CmapToken> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < data.len() && out.len() < 4 * MAX_CMAP_ENTRIES {
        match data[i] {
            b'<' if data.get(i + 1) != Some(&b'<') => {
                let end = data[i..]
                    .iter()
                    .position(|&b| b == b'>')
                    .map_or(data.len(), |p| i + p);
                out.push(CmapToken::Hex(hex_bytes(&data[i + 1..end])));
                i = end + 1;
            }
            b'[' => {
                let end = data[i..]
                    .iter()
                    .position(|&b| b == b']')
                    .map_or(data.len(), |p| i + p);
                let mut items = Vec::new();
                let mut j = i + 1;
                while j < end {
                    if data[j] == b'<' {
                        let e = data[j..end]
                            .iter()
                            .position(|&b| b == b'>')
                            .map_or(end, |p| j + p);
                        items.push(hex_bytes(&data[j + 1..e]));
                        j = e;
                    }
                    j += 1;
                }
                out.push(CmapToken::Array(items));
                i = end + 1;
            }
            b if b.is_ascii_alphabetic() => {
                let end = data[i..]
                    .iter()
                    .position(|b| !b.is_ascii_alphanumeric())
                    .map_or(data.len(), |p| i + p);
                out.push(CmapToken::Word(
                    String::from_utf8_lossy(&data[i..end]).into_owned(),
                ));
                i = end;
            }
            _ => i += 1,
        }
    }
    out
}

fn code_of(bytes: &[u8]) -> u32 {
    bytes
        .iter()
        .take(4)
        .fold(0u32, |acc, &b| acc << 8 | u32::from(b))
}

fn utf16(bytes: &[u8]) -> String {
    let units: Vec<u16> = bytes
        .chunks(2)
        .map(|p| u16::from(p[0]) << 8 | u16::from(p.get(1).copied().unwrap_or(0)))
        .collect();
    char::decode_utf16(units)
        .map(|r| r.unwrap_or('\u{fffd}'))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_to_unicode_cmap_maps_chars_and_ranges() {
        let cmap = b"1 begincodespacerange <0000> <FFFF> endcodespacerange\n\
            2 beginbfchar <0003> <0020> <002C> <0049> endbfchar\n\
            1 beginbfrange <0014> <0016> <0031> endbfrange\n\
            1 beginbfrange <0024> <0025> [<0041> <0042>] endbfrange";
        let mut map = HashMap::new();
        assert!(parse_to_unicode(cmap, &mut map));
        assert_eq!(map[&0x2c], "I");
        assert_eq!(map[&0x03], " ");
        assert_eq!(map[&0x16], "3");
        assert_eq!(map[&0x25], "B");
    }

    #[test]
    fn single_byte_encodings_decode_latin_letters() {
        let font = Font {
            base: BaseEncoding::MacRoman,
            ..Font::default()
        };
        assert_eq!(font.decode(0xA1), "°");
        assert_eq!(font.decode(0x9A), "ö");
        let font = Font {
            base: BaseEncoding::WinAnsi,
            ..Font::default()
        };
        assert_eq!(font.decode(0xB0), "°");
        assert_eq!(font.decode(b'A'.into()), "A");
    }

    #[test]
    fn mac_glyph_order_reads_truetype_glyph_numbers() {
        let font = Font {
            two_byte: true,
            base: BaseEncoding::MacGlyphOrder,
            ..Font::default()
        };
        let text: String = font
            .codes(&[0, 0x24, 0, 0x35, 0, 3])
            .map(|(c, _)| font.decode(c))
            .collect();
        assert_eq!(text, "AR ");
    }
}
