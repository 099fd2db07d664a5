//! Where a scenario stands: how often each rule matched (`seen`) and
//! fired (`fired`), when it was set, and its own seeded stream for the
//! `probability` draws, so that a scenario never moves the service's
//! other draws and a snapshot of all four continues identically.

use crate::prelude::*;

use super::document::{Document, Rule, When};
use crate::sim::random::Rng;

#[derive(Debug, Clone, PartialEq)]
pub struct Progress {
    /// The service's time when the scenario was set (`forMs` counts from it).
    pub set_at: i64,
    /// Per rule: (seen, fired).
    pub counts: Vec<(u64, u64)>,
    pub rng: Rng,
}

impl Progress {
    /// A fresh start for `doc`, set at `now`, its stream from `seed`.
    pub fn start(doc: &Document, seed: u64, now: i64) -> Progress {
        Progress {
            set_at: now,
            counts: vec![(0, 0); doc.rules.len()],
            rng: Rng::stream(seed, "scenario"),
        }
    }

    /// The rule that fires for a request the rules `matched` (called in
    /// order, at most once per rule), at time `now`: the first whose
    /// count, window, times and probability all allow it.
    pub fn fire(
        &mut self,
        doc: &Document,
        now: i64,
        mut matched: impl FnMut(&Rule) -> bool,
    ) -> Option<usize> {
        for (i, rule) in doc.rules.iter().enumerate() {
            if !matched(rule) {
                continue;
            }
            let counts = self.counts.get_mut(i)?;
            counts.0 = counts.0.saturating_add(1);
            let (seen, fired) = *counts;
            if allows(&rule.when, seen, fired, now, self.set_at) && self.draw(&rule.when) {
                if let Some(counts) = self.counts.get_mut(i) {
                    counts.1 = fired.saturating_add(1);
                }
                return Some(i);
            }
        }
        None
    }

    /// The probability's seeded draw, made only when the rest allowed.
    fn draw(&mut self, when: &When) -> bool {
        match when.probability {
            None => true,
            Some(p) => self.rng.unit() < p,
        }
    }
}

/// Whether the counts and the clock allow the `seen`th match to fire.
fn allows(w: &When, seen: u64, fired: u64, now: i64, set_at: i64) -> bool {
    if w.nth.is_some_and(|n| seen != n) || w.every.is_some_and(|k| seen % k != 0) {
        return false;
    }
    if w.calls.is_some_and(|(from, to)| seen < from || seen > to) {
        return false;
    }
    if w.from.is_some_and(|from| now < from) || w.until.is_some_and(|until| now >= until) {
        return false;
    }
    let for_ms = |ms: u64| set_at.saturating_add(i64::try_from(ms).unwrap_or(i64::MAX));
    if w.for_ms.is_some_and(|ms| now >= for_ms(ms)) {
        return false;
    }
    w.times.is_none_or(|n| fired < n)
}
