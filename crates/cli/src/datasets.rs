//! Where the public datasets are: the folder every `train` and `eval` command reads by default.

use std::path::PathBuf;

/// `$CARDIO_DATASETS`, else `~/.cache/cardio-datasets` (where `../shared/datasets/unpack` puts them).
pub fn default_root() -> PathBuf {
    std::env::var_os("CARDIO_DATASETS").map_or_else(
        || {
            std::env::var_os("HOME")
                .map_or_else(|| PathBuf::from("."), PathBuf::from)
                .join(".cache")
                .join("cardio-datasets")
        },
        PathBuf::from,
    )
}
