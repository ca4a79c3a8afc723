//! Screening sessions, kept on the server so that the workflow survives a reload.
//!
//! The prototype passed intake → clinical → PCG → PPG → ECG state through navigation, and a reload
//! lost it. Here `POST /api/screenings` creates a draft for a patient; the workflow pages carry its
//! id in the URL (`/clinical-data?screening=ID`), the clinical step attaches its parameters, and
//! later steps attach recordings and results.
//!
//! `POST /api/screenings/{id}/combine` completes a screening. A completed screening's combined
//! result is not stored: it is computed from the screening's current analyses whenever the
//! screening is read ([`crate::records::combine::combine_analyses`]), so a modality added or replaced after
//! completion (a pulse recorded later, a second ECG) is in the very next read, never stale. (The
//! `combined_json` column of migration 0004, which kept a copy, is no longer written or read.)

/// The message for a screening that does not exist for this doctor.
pub const SCREENING_NOT_FOUND: &str = "Screening not found.";

pub mod routes;
pub mod store;

pub use routes::router;
