//! Administration: the audit trail, backups, data settings, orphaned files and system figures.

pub mod audit;
pub mod backup;
pub mod data_settings;
pub mod orphans;
pub mod system;
