//! What every area stands on: the database, errors, extractors, ids, configuration, state and the server loop.

pub mod audit;
pub mod blobs;
pub mod client_addr;
pub mod clock;
pub mod config;
pub mod csrf;
pub mod db;
pub mod error;
pub mod error_codes;
pub mod extract;
pub mod health;
pub mod ids;
pub mod lease;
pub mod serve;
pub mod state;
pub mod web;
