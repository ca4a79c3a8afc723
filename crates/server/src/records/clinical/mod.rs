//! Clinical parameters (spec §3): the seven values of the clinical form, stored with a timestamp so a
//! patient has a history, optionally attached to a screening.
//!
//! The request uses the prototype's snake_case names, spelling included
//! (`vessels_colored_by_flourosopy`); the ranges are the form's (spec §5) and the model's.

pub mod routes;
pub mod store;

pub use routes::router;
