//! What the JS host provides the core: the wall clock and a random seed.

use crate::sim::clock::Clock;

/// The largest whole number a JS `number` holds exactly.
pub const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

/// Wall-clock time from the JS host: handed in with a request, or asked for.
pub struct JsClock;

impl Clock for JsClock {
    fn now_ms(&mut self) -> i64 {
        super::wall::handed().unwrap_or_else(|| js_sys::Date::now() as i64)
    }
}

/// A seed that a `number` can hold exactly, so `service.seed` replays.
pub fn random_seed() -> u64 {
    let mut bytes = [0u8; 8];
    if getrandom::fill(&mut bytes).is_err() {
        bytes = (js_sys::Math::random() * MAX_SAFE_INTEGER)
            .to_bits()
            .to_le_bytes();
    }
    u64::from_le_bytes(bytes) & (MAX_SAFE_INTEGER as u64)
}
