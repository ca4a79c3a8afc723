//! A doctor's sign-off of an analysis or a screening: the review state goes from pending (no review)
//! to reviewed (who, when, agreed or disagreed with the model's finding, a comment).
//!
//! Reviews are never edited in place: a new review supersedes the previous one, which stays in the
//! history (`GET .../reviews`, newest first). Only the doctor who owns the analysis or screening
//! reviews it (another doctor gets 404, a `user` account 403); every review is audited.

pub mod routes;
pub mod store;

pub use routes::router;
