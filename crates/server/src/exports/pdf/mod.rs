//! The PDF screening report, generated on the server: `GET /api/analyses/{id}/report.pdf` and
//! `GET /api/screenings/{id}/report.pdf`.
//!
//! A report holds the clinic header (product and doctor), the patient's demographics, the
//! clinical parameters, per modality the finding, confidence, risk band (spec §9: above 0.7 high,
//! above 0.4 moderate, else low), the measured values, the model and its version and the signal
//! strip (the ECG on standard paper, PCG and PPG with their detected beats), for a screening the
//! combined result and its rule, the recommendations, the doctor's current review (or "Not yet
//! reviewed"), the disclaimers and "Page n of N" — all in the user's saved language.
//!
//! - [`data`]: what a report shows, gathered from the records; [`render`]: writing it;
//!   [`routes`]: the two downloads;
//! - [`strings`]: the report's words per language;
//! - [`layout`]: pages, wrapped text and footers over `printpdf`, with DejaVu Sans embedded
//!   (subset to the glyphs used);
//! - [`paper`]: the strips; [`twelve`]: the 12-lead page at true scale (landscape);
//! - [`interpretation`]: an ECG's measurements and statements as carts print them;
//! - [`holter`]: the summary of a long ECG read whole (episodes, AF burden, rate trend, strips);
//! - [`murmur`]: a heart murmur at each auscultation site and over the sites, in words;
//! - [`numbers`]: numbers as the report prints them (percentages).
//!
//! Only the owner downloads a report (another account's record is a 404; a screening needs a
//! doctor account, as the screening endpoints do); every download is audited as an export. The
//! recordings are read again from the blob store on the blocking pool; one that cannot be read
//! still gets its text and a line saying the strip is unavailable.

pub mod data;
pub mod holter;
pub mod interpretation;
pub mod layout;
pub mod murmur;
pub mod numbers;
pub mod paper;
pub mod render;
pub mod routes;
pub mod strings;
pub mod twelve;

pub use routes::router;

/// The product name in the header.
pub const PRODUCT: &str = "Cardio";

/// A PDF document (the OpenAPI schema of the downloads: a binary string).
#[derive(utoipa::ToSchema)]
#[schema(value_type = String, format = Binary)]
pub struct PdfFile(pub Vec<u8>);
