//! API tests: one test binary driving `cardio_server::app` in-process, each test on its own
//! throwaway database, on SQLite always and on PostgreSQL when `TEST_POSTGRES_URL` is set.

mod helpers;

mod admin;
mod audit;
mod auth;
mod clinical;
mod combine;
mod data_storage;
mod decode_limits;
mod devices;
mod email_links;
mod export_zip;
mod fhir;
mod health;
mod isolation;
mod logging;
mod migrations;
mod murmur_sites;
mod notifications;
mod patients;
mod predict;
mod profile;
mod report_pdf;
mod reports;
mod reviews;
mod screenings;
mod settings;
mod share_races;
mod sharing;
mod sign_in_limits;
mod system;
mod trained_models;
mod two_factor;
mod uploads;
mod waveforms;
mod web;
