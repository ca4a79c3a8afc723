//! The server's clock: wall time by default, movable forward in tests.
//!
//! Sessions are created and checked against [`Clock::now_ms`] (the idle timeout and the absolute
//! lifetime), so that API tests can let half an hour pass with [`Clock::advance`] instead of
//! sleeping. Other timestamps keep using [`crate::platform::db::now_ms`].

use std::{
    sync::{
        atomic::{AtomicI64, Ordering},
        Arc,
    },
    time::Duration,
};

/// Wall-clock time plus an offset that only tests move. Clones share the offset.
#[derive(Clone, Debug, Default)]
pub struct Clock {
    offset_ms: Arc<AtomicI64>,
}

impl Clock {
    /// The system clock (no offset).
    pub fn system() -> Self {
        Self::default()
    }

    /// Milliseconds since the Unix epoch, as this clock tells it.
    pub fn now_ms(&self) -> i64 {
        crate::platform::db::now_ms() + self.offset_ms.load(Ordering::Relaxed)
    }

    /// Moves this clock (and every clone of it) forward.
    pub fn advance(&self, by: Duration) {
        let ms = i64::try_from(by.as_millis()).unwrap_or(i64::MAX / 4);
        self.offset_ms.fetch_add(ms, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_clock_tells_wall_time() {
        let before = crate::platform::db::now_ms();
        let now = Clock::system().now_ms();
        assert!(now >= before && now - before < 1_000, "{now} vs {before}");
    }

    #[test]
    fn advancing_moves_every_clone() {
        let clock = Clock::system();
        let other = clock.clone();
        let before = other.now_ms();
        clock.advance(Duration::from_hours(1));
        let after = other.now_ms();
        assert!(after - before >= 3_600_000 && after - before < 3_601_000);
    }
}
