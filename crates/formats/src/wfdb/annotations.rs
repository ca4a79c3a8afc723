//! WFDB annotation files in the MIT format (`annot(5)`) and the standard beat symbols of
//! `ecgcodes.h`.

use crate::{Format, FormatError};

/// One annotation of a WFDB annotation file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Annotation {
    /// The sample (frame number) it refers to.
    pub sample: u64,
    /// The annotation code (`ecgcodes.h`, 1..=49).
    pub code: u8,
    /// The code's mnemonic symbol (`N`, `V`, `+`, ...).
    pub symbol: String,
    /// The `subtyp` field.
    pub subtype: i16,
    /// The `chan` field.
    pub channel: u16,
    /// The `num` field.
    pub num: i16,
    /// Auxiliary text (rhythm annotations carry e.g. `(AFIB`), when present.
    pub aux: Option<String>,
}

/// The standard symbol of an annotation code (`ecgcodes.h` / `annot(5)`); `[n]` for codes without one.
pub fn symbol_for_code(code: u8) -> String {
    const SYMBOLS: [&str; 42] = [
        " ", "N", "L", "R", "a", "V", "F", "J", "A", "S", "E", "j", "/", "Q", "~", "", "|", "",
        "s", "T", "*", "D", "\"", "=", "p", "B", "^", "t", "+", "u", "?", "!", "[", "]", "e", "n",
        "@", "x", "f", "(", ")", "r",
    ];
    match SYMBOLS.get(usize::from(code)) {
        Some(s) if !s.is_empty() => (*s).to_string(),
        _ => format!("[{code}]"),
    }
}

/// Reads a WFDB annotation file in MIT format (`annot(5)`).
///
/// # Errors
/// [`FormatError::Invalid`] when a SKIP or AUX field runs past the end of the file or a time becomes
/// negative.
pub fn read_annotations(bytes: &[u8]) -> Result<Vec<Annotation>, FormatError> {
    const ANN: Format = Format::WfdbAnnotation;
    let truncated = || FormatError::invalid(ANN, "truncated SKIP or AUX field");
    let mut out: Vec<Annotation> = Vec::new();
    let mut time: i64 = 0;
    let (mut num, mut channel) = (0i16, 0u16);
    let mut pos = 0;
    while let Some(word) = bytes.get(pos..pos + 2) {
        pos += 2;
        let word = u16::from_le_bytes([word[0], word[1]]);
        let (code, value) = ((word >> 10) as u8, word & 0x3ff);
        match code {
            0 if value == 0 => break,
            59 => {
                // SKIP: a 32-bit interval follows, high 16-bit word first (PDP-11 order).
                let b = bytes.get(pos..pos + 4).ok_or_else(truncated)?;
                pos += 4;
                let interval = i32::from_le_bytes([b[2], b[3], b[0], b[1]]);
                time += i64::from(interval);
            }
            60 => {
                if let Some(last) = out.last_mut() {
                    last.num = i16::try_from(value).unwrap_or_default();
                    num = i16::try_from(value).unwrap_or_default();
                }
            }
            61 => {
                if let Some(last) = out.last_mut() {
                    last.subtype = i16::try_from(value).unwrap_or_default();
                }
            }
            62 => {
                if let Some(last) = out.last_mut() {
                    last.channel = value;
                    channel = value;
                }
            }
            63 => {
                let len = usize::from(value);
                let text = bytes.get(pos..pos + len).ok_or_else(truncated)?;
                pos += len + (len & 1);
                if let Some(last) = out.last_mut() {
                    let text = String::from_utf8_lossy(text);
                    last.aux = Some(text.trim_end_matches('\0').to_string());
                }
            }
            _ => {
                time += i64::from(value);
                let sample = u64::try_from(time).map_err(|_| {
                    FormatError::invalid(ANN, format!("negative annotation time {time}"))
                })?;
                out.push(Annotation {
                    sample,
                    code,
                    symbol: symbol_for_code(code),
                    subtype: 0,
                    channel,
                    num,
                    aux: None,
                });
            }
        }
    }
    Ok(out)
}
