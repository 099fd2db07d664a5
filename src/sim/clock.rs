//! Time is handed in, never read from the machine, so the core stays
//! deterministic: a real clock in the browser, a virtual one in tests.

/// A source of Unix time in milliseconds.
pub trait Clock {
    fn now_ms(&mut self) -> i64;

    /// Simulated time has passed (a service's latency). A wall clock ignores
    /// it: real time moves on its own. A virtual clock moves by exactly this.
    fn advance(&mut self, _ms: u64) {}

    /// The time to save in a snapshot: a virtual clock's own state. A wall
    /// clock has none to save (`None`), and a restored service reads the
    /// wall again.
    fn saved(&self) -> Option<i64> {
        None
    }
}

/// A clock that starts where it is told and moves only by simulated time
/// or an explicit `advance`, so a whole session, timestamps included,
/// replays to the byte.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VirtualClock {
    now: i64,
}

impl VirtualClock {
    pub fn starting_at(now_ms: i64) -> Self {
        VirtualClock { now: now_ms }
    }
}

impl Clock for VirtualClock {
    fn now_ms(&mut self) -> i64 {
        self.now
    }

    fn advance(&mut self, ms: u64) {
        let step = i64::try_from(ms).unwrap_or(i64::MAX);
        self.now = self.now.saturating_add(step);
    }

    fn saved(&self) -> Option<i64> {
        Some(self.now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn virtual_clock_moves_only_when_advanced() {
        let mut clock = VirtualClock::starting_at(1_700_000_000_000);
        assert_eq!(clock.now_ms(), 1_700_000_000_000);
        assert_eq!(clock.now_ms(), 1_700_000_000_000);
        clock.advance(250);
        assert_eq!(clock.now_ms(), 1_700_000_000_250);
        clock.advance(u64::MAX);
        assert_eq!(clock.now_ms(), i64::MAX);
    }
}
