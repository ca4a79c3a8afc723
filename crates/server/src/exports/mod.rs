//! Exports: the ZIP of a period, FHIR bundles and PDF reports.

pub mod csv;
pub mod fhir;
pub mod pdf;
pub mod zip;
