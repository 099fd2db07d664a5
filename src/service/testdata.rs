//! The test-data endpoint: generates orders that each go the way a client's
//! would (create, pay, and mark paid when the payment went through), each
//! with a trace id of its own and its own log records and spans. The
//! requests are made already read (no JSON text, no headers to parse) and
//! served by the gateway's own steps, so their records are the same as a
//! client's would be.

use crate::prelude::*;

use alloc::rc::Rc;

use crate::json::message::msg;

use crate::domain::money::Money;
use crate::domain::{order, BatchReport, PaymentMethod};
use crate::gateway::exchange::{exchange_inner, Inner, InnerCaller};
use crate::gateway::Backend;
use crate::observe::TraceId;

/// The users the generated orders belong to.
const USERS: usize = 20;

/// What every generated order is described as.
const DESCRIPTION: &str = "generated test order";

/// Runs `count` simulated clients. Returns the report and the simulated
/// time their requests took together.
pub fn run(svc: &mut Backend, count: u32) -> (BatchReport, u64) {
    let mut report = BatchReport {
        count,
        succeeded: 0,
        failed: 0,
        order_ids: Vec::with_capacity(count as usize),
    };
    let users: Vec<InnerCaller> = (1..=USERS)
        .map(|n| InnerCaller::new(Rc::from(msg!("batch-user-", n))))
        .collect();
    // The orders' texts, shared in their table once for the run rather
    // than looked up for every order; let go at the end where no order
    // took them.
    let texts: Vec<Rc<str>> = users
        .iter()
        .map(|user| svc.orders.texts.share(user.user_id()))
        .collect();
    let description = svc.orders.texts.share(DESCRIPTION);
    let mut spent = 0;
    let passed = passed_over(svc, count);
    if room_for_all(svc, count) {
        // Every order of the run is made: room for them all at once.
        svc.orders.reserve(count as usize);
    }
    for n in 0..count {
        let kept = n >= passed;
        let trace = TraceId::fresh(&mut svc.streams.traces);
        let rng = &mut svc.streams.batch;
        let pick = rng.below(USERS as u64) as usize;
        let (Some(user), Some(text)) = (users.get(pick), texts.get(pick)) else {
            continue;
        };
        let cents = 100 + rng.below(49_901);
        let method = PaymentMethod::ALL
            .get(rng.below(3) as usize)
            .copied()
            .unwrap_or(PaymentMethod::ALL[0]);
        let Some(price) = Money::positive(cents as f64 / 100.0) else {
            continue;
        };
        let create = Inner::Create(text, price, &description);
        let (_, created, ms) = exchange_inner(svc, create, trace, user, kept);
        spent += ms;
        let Some(code) = created else {
            continue;
        };
        let order_id = code.text(order::PREFIX);
        let pay = Inner::Pay(&order_id, price, method);
        let (code, _, ms) = exchange_inner(svc, pay, trace, user, kept);
        spent += ms;
        if code != 0 {
            report.failed += 1;
            report.order_ids.push(order_id);
            continue;
        }
        report.succeeded += 1;
        let (_, _, ms) = exchange_inner(svc, Inner::MarkPaid(&order_id), trace, user, kept);
        spent += ms;
        report.order_ids.push(order_id);
    }
    for text in texts.into_iter().chain([description]) {
        svc.orders.texts.release(&text);
    }
    (report, spent)
}

/// How many of the first orders of a run of `count` have records and
/// spans that the later orders of the same run are sure to push out of
/// the log (it keeps `logCapacity` of each): those are counted as written
/// and dropped, and never made. When every order of the run has room
/// under `maxOrders`, each one writes at least six records and five spans
/// (create: three and two; pay, approved or not: three and three), so
/// order `n`'s are gone once five spans of each of the `count - 1 - n`
/// after it are written past `logCapacity`. Without that room, none is
/// passed over. The log, its counts and its spans come out the same.
fn passed_over(svc: &Backend, count: u32) -> u32 {
    if !room_for_all(svc, count) {
        return 0;
    }
    let capacity = svc.journal.capacity();
    // The first `n` with 5 * (count - 1 - n) < capacity.
    let sure = (capacity / 5 + usize::from(capacity % 5 != 0)) as u64;
    u64::from(count).saturating_sub(sure) as u32
}

/// Whether every order of a run of `count` fits under `maxOrders`.
fn room_for_all(svc: &Backend, count: u32) -> bool {
    svc.orders.len().saturating_add(count as usize) <= svc.settings.max_orders
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::clock::VirtualClock;
    use crate::sim::Settings;

    fn backend() -> Backend {
        let clock = Box::new(VirtualClock::starting_at(0));
        Backend::new(Settings::with_seed(3), clock).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn texts_shared_for_a_run_are_let_go_where_no_order_took_them() {
        let mut svc = backend();
        run(&mut svc, 1);
        // One order: its user and the description, not the other users.
        assert_eq!(svc.orders.len(), 1);
        assert_eq!(svc.orders.texts.len(), 2);
        run(&mut svc, 200);
        assert_eq!(svc.orders.texts.len(), USERS + 1);
    }
}
