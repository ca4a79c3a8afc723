//! The auscultation sites a heart-sound recording is taken at: the four valve areas of the chest
//! where a murmur is listened for (and CirCor's "other" site), one table read by the murmur model's
//! data, the server's uploads and the command line.

use std::fmt;

use serde::{Deserialize, Serialize};

/// An auscultation site.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Site {
    /// Aortic valve area: second right intercostal space at the sternal border (`AV`).
    #[serde(rename = "AV")]
    Av,
    /// Pulmonary valve area: second left intercostal space at the sternal border (`PV`).
    #[serde(rename = "PV")]
    Pv,
    /// Tricuspid valve area: fourth left intercostal space at the lower sternal border (`TV`).
    #[serde(rename = "TV")]
    Tv,
    /// Mitral valve area: fifth intercostal space at the mid-clavicular line, the apex (`MV`).
    #[serde(rename = "MV")]
    Mv,
    /// Any other site (`Phc`, CirCor's spelling; not offered by the product).
    Phc,
}

impl Site {
    /// Every site, in CirCor's order.
    pub const ALL: [Self; 5] = [Self::Av, Self::Pv, Self::Tv, Self::Mv, Self::Phc];

    /// The four valve areas of the auscultation protocol, in the order they are listened to.
    pub const VALVES: [Self; 4] = [Self::Av, Self::Pv, Self::Tv, Self::Mv];

    /// The short code: `AV`, `PV`, `TV`, `MV`, `Phc`.
    pub fn label(self) -> &'static str {
        match self {
            Self::Av => "AV",
            Self::Pv => "PV",
            Self::Tv => "TV",
            Self::Mv => "MV",
            Self::Phc => "Phc",
        }
    }

    /// The site spelled as [`Site::label`] spells it; `None` for anything else.
    pub fn from_label(label: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.label() == label)
    }

    /// One of the four valve areas spelled as [`Site::label`] spells it; `None` for anything else.
    pub fn valve(label: &str) -> Option<Self> {
        Self::VALVES.into_iter().find(|s| s.label() == label)
    }

    /// The area's English name, as a FHIR body site's text.
    pub fn area(self) -> &'static str {
        match self {
            Self::Av => "Aortic valve area",
            Self::Pv => "Pulmonary valve area",
            Self::Tv => "Tricuspid valve area",
            Self::Mv => "Mitral valve area",
            Self::Phc => "Other auscultation site",
        }
    }
}

impl fmt::Display for Site {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_read_back_and_only_the_valves_are_offered() {
        for s in Site::ALL {
            assert_eq!(Site::from_label(s.label()), Some(s));
            assert_eq!(serde_json::to_value(s).unwrap(), s.label());
        }
        assert_eq!(Site::valve("MV"), Some(Site::Mv));
        assert_eq!(Site::valve("Phc"), None);
        assert_eq!(Site::from_label("mv"), None);
    }
}
