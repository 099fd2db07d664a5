//! Asynchronous payments at the gateway: the plan a scenario's rule or a
//! test card gives a pay, the payment kept with it and its plan put on
//! the due queue, and the record of each change made.

use crate::prelude::*;

use alloc::rc::Rc;

use super::super::backend::Backend;
use super::super::error::ApiError;
use super::work::Work;
use crate::domain::code::Code;
use crate::domain::due::DueWork;
use crate::domain::payment::PREFIX;
use crate::domain::payment_plan::{Change, Later, Plan, Step};
use crate::domain::test_card::{CardIx, CardOutcome, TestCard};
use crate::domain::transition::Transition;
use crate::domain::{NewPayment, Payment};
use crate::json::message::msg;
use crate::observe::payment_span::PaymentSpan;
use crate::observe::{At, DueRecord, DueSpan, Kept, LogStatus, Part, SpanEntry, SpanId, TraceId};
use crate::sim::scenario::Fault;
use crate::sim::third_party::{DecidedBy, Failure, Forced, Verdict};

/// The plan of the pay `verdict` approved, when its payment changes
/// later: a scenario's rule's (the request's `fault`) or its test card's.
pub(super) fn plan_of(
    verdict: &Verdict,
    fault: Option<&Fault>,
    card: Option<&'static TestCard>,
    now: i64,
) -> Option<Box<Plan>> {
    let plan = match (verdict.rule, fault, card) {
        (DecidedBy::Scenario, Some(fault), _) => Plan::of_rule(fault, now),
        (DecidedBy::Card, _, Some(card)) => Plan::of_card(card, now),
        _ => None,
    };
    plan.map(Box::new)
}

/// What a test card forces at the third party: a decline, or approval
/// (its payment may change later).
pub(super) fn card_forces(card: &TestCard) -> Forced {
    match card.outcome {
        CardOutcome::Declines(_) => Forced::Failure,
        _ => Forced::Success,
    }
}

/// A test card's verdict: named, with its decline code.
#[inline(never)]
pub(super) fn by_card(card: &'static TestCard, verdict: &mut Verdict) {
    verdict.card = CardIx::of(card.number);
    if let CardOutcome::Declines(code) = card.outcome {
        verdict.failure = Failure::declined(code);
    }
}

/// Keeps the payment with its plan and puts the plan on the due queue
/// (and the pay's verdict says so); a challenged one keeps the pay's
/// `returnUrl`.
#[cold]
#[inline(never)]
pub(super) fn record(
    svc: &mut Backend,
    mut new: NewPayment,
    order: Code,
    now: i64,
    plan: Plan,
    work: &mut Work,
) -> (Payment, Transition) {
    if let Some((_, _, verdict)) = work.third_party.as_mut() {
        verdict.set_planned(plan.note());
    }
    let challenged = matches!(plan.step, Step::Challenge { .. });
    let status = plan.step.starts_in();
    svc.counters.count_start(status);
    let due = plan.due;
    let later = Later {
        plan: Some(plan),
        challenged,
        return_url: new
            .extras
            .take()
            .and_then(|e| e.return_url)
            .filter(|_| challenged)
            .map(Rc::from),
        failure: None,
    };
    let ids = &mut svc.streams.ids;
    let (payment, made) = svc
        .payments
        .record_later(new, order, ids, now, (status, later));
    work.planned = Code::parse(PREFIX, &payment.payment_id);
    if let (Some(at), Some(code)) = (due, work.planned) {
        svc.due.push(at, DueWork::Plan(code));
    }
    (payment, made)
}

/// A second pay while a challenge is open: 409, code -1.
#[cold]
pub(super) fn challenge_open(order_id: &str, open: Code) -> ApiError {
    ApiError::Conflict(msg!(
        "Order ",
        order_id,
        " has a payment awaiting authentication: ",
        open.text(PREFIX)
    ))
}

/// The record of a change, in the trace of the pay that planned it: its
/// own span id, a child of the pay's payment-service span; at its time.
pub(super) fn write_change(svc: &mut Backend, change: Change) {
    let [high, low, wide, parent] = change.origin;
    let at = At {
        trace: TraceId::from_parts([high, low, wide]),
        span: SpanId::fresh(&mut svc.streams.traces),
        parent: (parent != 0).then_some(SpanId(parent)),
    };
    svc.counters.count_change(&change);
    if parent != 0 {
        let span = SpanEntry {
            trace: at.trace,
            span: at.span,
            parent: at.parent,
            start: change.since,
            end: change.at,
            status: LogStatus::Success,
            part: Part::Due(Box::new(DueSpan::Payment(PaymentSpan::of(&change)))),
        };
        svc.journal.record_span(span, &mut svc.spare_call);
    }
    svc.journal.write(
        change.at,
        at,
        Kept::Due(Box::new(DueRecord::Payment(change))),
    );
}
