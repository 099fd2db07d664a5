//! The times a service may hold. Every timestamp ends up as a JS number,
//! often in a `Date`, so the clock stays within the range of a JS `Date`
//! (±8,640,000,000,000,000 ms, inside 2^53): values beyond it are refused
//! where they come in (`virtualTime`, `advance`, a snapshot's clock), and a
//! clock that simulated latency would push past it stops at the end.

use crate::prelude::*;

use crate::json::message::{msg, Piece};

use crate::json::number::display;
use crate::sim::clock::Clock;
use crate::sim::invalid::Invalid;

/// The last millisecond a JS `Date` can hold: 275760-09-13T00:00:00Z.
pub const MAX_TIME_MS: i64 = 8_640_000_000_000_000;
/// The first: 271822 BC.
pub const MIN_TIME_MS: i64 = -MAX_TIME_MS;
/// `Number.MAX_SAFE_INTEGER`: the largest whole number a JS number holds
/// exactly, and so the largest count (a `seq`, a seed) handed out.
pub const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// A time within the range, or a refusal naming `field`.
pub fn check_time(field: &str, ms: i64) -> Result<i64, Invalid> {
    if (MIN_TIME_MS..=MAX_TIME_MS).contains(&ms) {
        Ok(ms)
    } else {
        Err(out_of_range_time(field, ms))
    }
}

fn out_of_range_time(field: &str, ms: impl Piece) -> Invalid {
    Invalid::out_of_range(
        field,
        msg!(
            "must be a whole number of milliseconds from ",
            MIN_TIME_MS,
            " to ",
            MAX_TIME_MS,
            " (the range of a JS Date), got ",
            ms
        ),
    )
}

/// The start of a virtual clock, as a caller's number (`virtualTime`).
pub fn start_time(field: &str, ms: f64) -> Result<i64, Invalid> {
    let whole = ms.is_finite() && ms.fract() == 0.0;
    if whole && (MIN_TIME_MS as f64..=MAX_TIME_MS as f64).contains(&ms) {
        Ok(ms as i64)
    } else {
        Err(out_of_range_time(field, display(ms)))
    }
}

/// How far `advance(ms)` moves a clock that reads `now` (`None` for a
/// wall clock, which ignores the move but not a wrong argument).
pub fn advance_by(now: Option<i64>, ms: f64) -> Result<u64, Invalid> {
    let span = (MAX_TIME_MS - MIN_TIME_MS) as f64;
    if !(ms.is_finite() && ms.fract() == 0.0 && (0.0..=span).contains(&ms)) {
        return Err(Invalid::out_of_range(
            "ms",
            msg!(
                "must be a whole number of milliseconds, 0 or more, got ",
                display(ms)
            ),
        ));
    }
    let step = ms as i64;
    match now {
        Some(now) if now.saturating_add(step) > MAX_TIME_MS => Err(Invalid::out_of_range(
            "ms",
            msg!(
                "advancing by ",
                display(ms),
                " would move the clock past ",
                MAX_TIME_MS,
                ", the last time a JS Date can hold (it reads ",
                now,
                ")"
            ),
        )),
        _ => Ok(step.unsigned_abs()),
    }
}

/// Any clock, kept within the range: it reads at most `MAX_TIME_MS`, and
/// simulated time that would carry it further stops it there instead.
pub struct Bounded(pub Box<dyn Clock>);

impl Clock for Bounded {
    fn now_ms(&mut self) -> i64 {
        self.0.now_ms().clamp(MIN_TIME_MS, MAX_TIME_MS)
    }

    fn advance(&mut self, ms: u64) {
        let now = self.now_ms();
        let room = u64::try_from(MAX_TIME_MS.saturating_sub(now)).unwrap_or(0);
        self.0.advance(ms.min(room));
    }

    fn saved(&self) -> Option<i64> {
        self.0.saved().map(|t| t.clamp(MIN_TIME_MS, MAX_TIME_MS))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::clock::VirtualClock;

    #[test]
    fn the_range_is_js_dates_and_inside_safe_integers() {
        assert!(MAX_TIME_MS as u64 <= MAX_SAFE_INTEGER);
        assert_eq!(check_time("clock", MAX_TIME_MS), Ok(MAX_TIME_MS));
        assert_eq!(check_time("clock", MIN_TIME_MS), Ok(MIN_TIME_MS));
        let err = check_time("clock", MAX_TIME_MS + 1).err();
        assert_eq!(
            err.map(|e| e.msg),
            Some("clock: must be a whole number of milliseconds from -8640000000000000 to 8640000000000000 (the range of a JS Date), got 8640000000000001".to_owned())
        );
    }

    #[test]
    fn a_start_time_must_be_a_whole_number_in_range() {
        assert_eq!(start_time("virtualTime", 1.7e12), Ok(1_700_000_000_000));
        for bad in [f64::NAN, f64::INFINITY, 1.5, 9007199254740991.0, -1e300] {
            assert!(start_time("virtualTime", bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn advancing_past_the_end_is_refused_and_wrong_steps_too() {
        assert_eq!(advance_by(Some(0), 5.0), Ok(5));
        assert_eq!(advance_by(None, 1e15), Ok(1_000_000_000_000_000));
        assert!(advance_by(Some(MAX_TIME_MS - 4), 5.0).is_err());
        assert_eq!(advance_by(Some(MAX_TIME_MS - 5), 5.0), Ok(5));
        for bad in [-1.0, 0.5, f64::NAN, 1e300] {
            assert!(advance_by(None, bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_bounded_clock_stops_at_the_end() {
        let mut clock = Bounded(Box::new(VirtualClock::starting_at(MAX_TIME_MS - 10)));
        clock.advance(4);
        assert_eq!(clock.now_ms(), MAX_TIME_MS - 6);
        clock.advance(u64::MAX);
        assert_eq!(
            (clock.now_ms(), clock.saved()),
            (MAX_TIME_MS, Some(MAX_TIME_MS))
        );
    }
}
