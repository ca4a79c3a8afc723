//! Accounts: sign-in, sessions and two-factor, each user's settings, profile and notifications.

pub mod auth;
pub mod notifications;
pub mod profile;
pub mod settings;
