//! Results shared with the patient (the `user` role of spec §6).
//!
//! A doctor invites the email of one of their patient records (`POST /api/patients/{id}/share`),
//! which is told so by e-mail; the account with that email, once its address is verified, sees the
//! invitation
//! (`GET /api/shared/invitations`) and accepts it. From then on that account sees, and only it,
//! what the doctor shares of that record: the reviewed results by default, every result when the
//! doctor chooses (`GET /api/shared/results`), each with its PDF report
//! (`GET /api/shared/analyses/{id}/report.pdf`). The doctor revokes with
//! `DELETE /api/patients/{id}/share`, which takes effect on the next request.
//!
//! Doctor endpoints keep the owner scoping of every patient query (another doctor's patient is a
//! 404); the `/api/shared` endpoints are for `user` accounts (a doctor gets 403) and read a
//! record only through an active share of the signed-in account. Invitations, acceptances,
//! revocations and every read of shared data are audited.

/// The message for a doctor account on a patient's endpoint.
pub const PATIENTS_ONLY: &str = "Only patient accounts can see shared results.";
/// The message for an invitation that is not (or no longer) open to this account.
pub const INVITATION_NOT_FOUND: &str = "Invitation not found.";
/// The message for accepting before the account's email address is verified.
pub const VERIFY_EMAIL_FIRST: &str = "Verify your email address before accepting a shared record.";
/// The message for a patient record with nothing shared.
pub const NOT_SHARED: &str = "This patient's results are not shared.";
/// The message for an invitation that lost the race with another sent at the same time (a record
/// has at most one open share).
pub const SHARED_AT_THE_SAME_TIME: &str = "This patient's results were shared from another request at the same time. Reload the page to see the current share.";
/// The message for an invite without an address when the record has none.
pub const EMAIL_NEEDED: &str = "Enter the patient's email address to share results.";

pub mod routes;
pub mod store;

pub use routes::router;
