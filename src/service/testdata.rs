//! The test-data endpoint: generates orders that each go the way a client's
//! would (create, pay, and mark paid when the payment went through), each
//! with a trace id of its own and its own log records and spans. The
//! requests are made already read (no JSON text, no headers to parse) and
//! served by the gateway's own steps, so their records are the same as a
//! client's would be.

use std::rc::Rc;

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
        .map(|n| InnerCaller::new(Rc::from(format!("batch-user-{n}"))))
        .collect();
    let mut spent = 0;
    for _ in 0..count {
        let trace = TraceId::fresh(&mut svc.streams.traces);
        let rng = &mut svc.streams.batch;
        let Some(user) = users.get(rng.below(USERS as u64) as usize) else {
            continue;
        };
        let cents = 100 + rng.below(49_901);
        let method = PaymentMethod::ALL[rng.below(3) as usize];
        let Some(price) = Money::positive(cents as f64 / 100.0) else {
            continue;
        };
        let create = Inner::Create(user.user_id(), price, DESCRIPTION);
        let (_, created, ms) = exchange_inner(svc, create, trace, user);
        spent += ms;
        let Some(code) = created else {
            continue;
        };
        let order_id = code.text(order::PREFIX);
        let pay = Inner::Pay(&order_id, price, method);
        let (code, _, ms) = exchange_inner(svc, pay, trace, user);
        spent += ms;
        if code != 0 {
            report.failed += 1;
            report.order_ids.push(order_id);
            continue;
        }
        report.succeeded += 1;
        let (_, _, ms) = exchange_inner(svc, Inner::MarkPaid(&order_id), trace, user);
        spent += ms;
        report.order_ids.push(order_id);
    }
    (report, spent)
}
