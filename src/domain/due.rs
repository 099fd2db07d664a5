//! The one queue of work that comes due on the service's clock: each
//! entry is a time and what is due then, soonest first, ties broken by
//! what is due (see `DueWork`). The soonest time is kept in one field, so
//! a request with nothing due pays one compare. Work that was taken or
//! changed out of turn stays in the queue and is skipped when it comes
//! up (the owner of the work says which entries still hold).

use alloc::collections::BinaryHeap;
use core::cmp::Reverse;

use super::code::Code;

/// What comes due. The order of the variants, then of their keys, breaks
/// a tie between entries due at the same time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum DueWork {
    /// A payment's plan (`payment_plan::Plan`), by the payment's code:
    /// codes sort as their ids, so ties go by payment id.
    Plan(Code),
    /// A webhook delivery's next attempt (`delivery::Delivery`), by the
    /// delivery's number: after the plans due at the same time, whose
    /// events it may deliver.
    Attempt(u64),
}

/// The entries, soonest first, and the soonest time.
#[derive(Debug, Clone)]
pub struct Due {
    heap: BinaryHeap<Reverse<(i64, DueWork)>>,
    /// The soonest time in the queue; `i64::MAX` when it is empty.
    next: i64,
}

impl Default for Due {
    fn default() -> Due {
        Due {
            heap: BinaryHeap::new(),
            next: i64::MAX,
        }
    }
}

impl Due {
    /// Puts `work` in the queue, due at `at`.
    pub fn push(&mut self, at: i64, work: DueWork) {
        self.next = self.next.min(at);
        self.heap.push(Reverse((at, work)));
    }

    /// Whether something is due at `now`: the one compare a request pays.
    #[inline(always)]
    pub fn any_due(&self, now: i64) -> bool {
        self.next <= now
    }

    /// The soonest time something is due, if anything is.
    pub fn next_due(&self) -> Option<i64> {
        (self.next != i64::MAX).then_some(self.next)
    }

    /// The entry due first at or before `now`, taken out of the queue;
    /// entries that no longer hold (`holds` says no) are dropped on the
    /// way, so the soonest time left is one that holds.
    pub fn take_due(
        &mut self,
        now: i64,
        holds: impl Fn(i64, DueWork) -> bool,
    ) -> Option<(i64, DueWork)> {
        self.drop_stale(&holds);
        let Reverse(first) = *self.heap.peek()?;
        if first.0 > now {
            return None;
        }
        self.heap.pop();
        self.drop_stale(&holds);
        Some(first)
    }

    /// Drops the entries at the head that no longer hold, after work was
    /// taken out of turn, so that the soonest time is one that holds.
    pub fn drop_stale(&mut self, holds: impl Fn(i64, DueWork) -> bool) {
        while let Some(&Reverse((at, work))) = self.heap.peek() {
            if holds(at, work) {
                break;
            }
            self.heap.pop();
        }
        self.next = self.heap.peek().map_or(i64::MAX, |e| e.0 .0);
    }

    pub fn len(&self) -> usize {
        self.heap.len()
    }

    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(text: &str) -> DueWork {
        let code = Code::parse("PAY", text).unwrap_or_else(|| panic!("{text}"));
        DueWork::Plan(code)
    }

    #[test]
    fn entries_come_due_by_time_then_by_payment_id() {
        let mut due = Due::default();
        let entries = [
            (300, "PAY-ZZZZ0001"),
            (100, "PAY-B0000000"),
            (300, "PAY-0AAAAAAA"),
            (200, "PAY-AAAAAAAA"),
            (100, "PAY-A0000000"),
            (300, "PAY-M0000000"),
            (50, "PAY-99999999"),
        ];
        for (at, id) in entries {
            due.push(at, plan(id));
        }
        assert_eq!(due.next_due(), Some(50));
        assert!(!due.any_due(49) && due.any_due(50));
        assert_eq!(due.take_due(49, |_, _| true), None);
        let mut taken = Vec::new();
        while let Some(entry) = due.take_due(250, |_, _| true) {
            taken.push(entry);
        }
        let expected = [
            (50, plan("PAY-99999999")),
            (100, plan("PAY-A0000000")),
            (100, plan("PAY-B0000000")),
            (200, plan("PAY-AAAAAAAA")),
        ];
        assert_eq!(taken, expected);
        assert_eq!(due.next_due(), Some(300));
        let rest: Vec<_> = core::iter::from_fn(|| due.take_due(i64::MAX, |_, _| true)).collect();
        let expected = [
            (300, plan("PAY-0AAAAAAA")),
            (300, plan("PAY-M0000000")),
            (300, plan("PAY-ZZZZ0001")),
        ];
        assert_eq!(rest, expected);
        assert_eq!((due.next_due(), due.any_due(i64::MAX - 1)), (None, false));
    }

    #[test]
    fn entries_that_no_longer_hold_are_skipped_and_leave_no_due_time() {
        let mut due = Due::default();
        due.push(10, plan("PAY-AAAAAAAA"));
        due.push(20, plan("PAY-BBBBBBBB"));
        due.push(30, plan("PAY-CCCCCCCC"));
        let gone = plan("PAY-AAAAAAAA");
        due.drop_stale(|_, w| w != gone);
        assert_eq!(due.next_due(), Some(20));
        let late = plan("PAY-CCCCCCCC");
        let holds = |_, w| w != late;
        assert_eq!(due.take_due(100, holds), Some((20, plan("PAY-BBBBBBBB"))));
        assert_eq!(due.next_due(), None);
        assert_eq!(due.take_due(100, holds), None);
        assert!(due.is_empty());
    }
}
