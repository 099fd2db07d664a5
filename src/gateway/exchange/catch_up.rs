//! The one way work due on the service's clock is done: `catch_up(now)`
//! takes what the due queue holds at or before `now`, in due order, and
//! does each at its due time. A request's arrival, `advance` and a
//! buyer's answer to a challenge all call it; nothing else resolves due
//! work.

use super::super::backend::Backend;
use super::async_payment::write_change;
use super::transition::{self, commit};
use crate::domain::delivery::Deliveries;
use crate::domain::due::{Due, DueWork};
use crate::domain::Payments;

/// Does everything due at or before `now`; one compare when nothing is.
#[inline(always)]
pub fn catch_up(svc: &mut Backend, now: i64) {
    if svc.due.any_due(now) {
        resolve(svc, now);
    }
}

/// Takes each entry due by `now`, soonest first, and does its work.
#[cold]
#[inline(never)]
fn resolve(svc: &mut Backend, now: i64) {
    loop {
        let (payments, deliveries) = (&svc.payments, &svc.deliveries);
        let Some((at, work)) = svc
            .due
            .take_due(now, |at, w| holds(payments, deliveries, at, w))
        else {
            break;
        };
        match work {
            DueWork::Plan(code) => {
                if let Some((change, made)) = svc.payments.resolve_plan(code, at) {
                    commit(svc, made, change.at, transition::of_plan(change.origin));
                    write_change(svc, change);
                }
            }
            DueWork::Attempt(n) => svc.deliveries.came_due(n, at),
        }
    }
}

/// Drops the entries at the queue's head that no longer hold, after work
/// was taken out of turn (a buyer ended a challenge).
pub(super) fn drop_stale(svc: &mut Backend) {
    let (payments, deliveries) = (&svc.payments, &svc.deliveries);
    svc.due
        .drop_stale(|at, w| holds(payments, deliveries, at, w));
}

/// Whether an entry still holds: the work is still due at `at`.
fn holds(payments: &Payments, deliveries: &Deliveries, at: i64, work: DueWork) -> bool {
    match work {
        DueWork::Plan(code) => payments.plans.due_of(code) == Some(at),
        DueWork::Attempt(n) => deliveries.due_of(n) == Some(at),
    }
}

/// The due queue of restored state: an entry for each piece of work it
/// holds with a due time (the queue is not saved; it is made again).
pub fn queue_of(payments: &Payments, deliveries: &Deliveries) -> Due {
    let mut due = Due::default();
    for (at, code) in payments.plans.dues() {
        due.push(at, DueWork::Plan(code));
    }
    for d in deliveries.iter() {
        if let Some(at) = deliveries.due_of(d.n) {
            due.push(at, DueWork::Attempt(d.n));
        }
    }
    due
}
