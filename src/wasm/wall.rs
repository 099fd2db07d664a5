//! The wall-clock time of the request being handled, read by the JS layer
//! as it makes the call (`Date.now()` is one inlined instruction there),
//! so the core's reads of the clock during the request do not each call
//! out to the host. Outside a request, the clock asks the host.

use core::sync::atomic::{AtomicI64, Ordering::Relaxed};

/// The module runs on one thread; an atomic is the static `core` offers
/// for it (plain loads and stores on `wasm32`).
static HANDED: AtomicI64 = AtomicI64::new(NONE);

/// No time handed in: a value no JS `Date` holds.
const NONE: i64 = i64::MIN;

/// The time handed in with the request being handled, if any.
pub fn handed() -> Option<i64> {
    let ms = HANDED.load(Relaxed);
    (ms != NONE).then_some(ms)
}

/// Runs `f` with `now_ms` as the wall-clock time; a value that is not a
/// time a JS `Date` holds is ignored, and the host is asked instead.
pub fn during<T>(now_ms: f64, f: impl FnOnce() -> T) -> T {
    let valid = now_ms.is_finite() && now_ms.abs() <= 8.64e15;
    let previous = HANDED.swap(if valid { now_ms as i64 } else { NONE }, Relaxed);
    let result = f();
    HANDED.store(previous, Relaxed);
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_time_holds_during_the_call_only() {
        assert_eq!(handed(), None);
        assert_eq!(during(1_700_000_000_123.0, handed), Some(1_700_000_000_123));
        assert_eq!(handed(), None);
        assert_eq!(during(f64::NAN, handed), None);
        assert_eq!(during(1e300, handed), None);
    }
}
