//! A doctor's records: patients, clinical parameters, screenings, analyses (with the murmur verdict over auscultation sites), reviews, sharing, reports and the dashboard.

pub mod analyses;
pub mod clinical;
pub mod combine;
pub mod dashboard;
pub mod murmur;
pub mod patients;
pub mod reports;
pub mod reviews;
pub mod screenings;
pub mod sharing;
