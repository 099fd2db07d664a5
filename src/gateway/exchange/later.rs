//! Payments that change later, at the gateway: the plan a scenario's
//! rule or a test card gives a pay, the payment kept with it, the plans
//! resolved on the service's clock, and a challenge the buyer ends.

use crate::prelude::*;

use alloc::rc::Rc;

use super::super::backend::Backend;
use super::super::error::ApiError;
use super::transition::{self, commit};
use super::work::Work;
use crate::domain::code::Code;
use crate::domain::payment::{PaymentStatus, PREFIX};
use crate::domain::payment_changes::NotAwaiting;
use crate::domain::payment_plan::{Cause, Change, Later, Plan, Step};
use crate::domain::test_card::{CardIx, CardOutcome, TestCard};
use crate::domain::transition::Transition;
use crate::domain::{NewPayment, Payment};
use crate::json::message::msg;
use crate::observe::payment_span::PaymentSpan;
use crate::observe::{At, Kept, LogStatus, Part, SpanEntry, SpanId, TraceId};
use crate::sim::planned_change::PlannedChange;
use crate::sim::scenario::{Fault, Outcome, Then};
use crate::sim::third_party::{Failure, Forced, Verdict};

/// What a pay that changes later starts as, and its plan's parts.
#[derive(Debug, PartialEq)]
pub(crate) struct Planned {
    status: PaymentStatus,
    step: Step,
    /// How long until it is due; `None` waits for the buyer.
    wait: Option<u64>,
    cause: Cause,
}

/// The plan of a scenario's rule of a kind that changes later.
pub(super) fn of_rule(fault: Option<&Fault>) -> Option<Box<Planned>> {
    let fault = fault?;
    let cause = Cause::Scenario(fault.rule.clone().unwrap_or_else(|| Rc::from("")));
    let planned = match fault.then {
        Then::Challenge {
            outcome,
            after_ms,
            code,
        } => Planned::challenge(outcome, code, None, outcome.map(|_| after_ms), cause),
        Then::Pending { for_ms, pass, code } => Planned::pending(for_ms, pass, code, cause),
        Then::Reversal { after_ms, code } => Planned::reversal(
            after_ms,
            code,
            crate::sim::scenario::document::REVERSAL_REASON,
            cause,
        ),
        _ => return None,
    };
    Some(Box::new(planned))
}

/// What a test card forces at the third party: a decline, or approval
/// (its payment may change later).
pub(super) fn card_forces(card: &TestCard) -> Forced {
    match card.outcome {
        CardOutcome::Declines(_) => Forced::Failure,
        _ => Forced::Success,
    }
}

/// A test card's verdict: named, with its decline code; or its plan.
#[inline(never)]
pub(super) fn by_card(card: &'static TestCard, verdict: &mut Verdict) -> Option<Box<Planned>> {
    verdict.card = CardIx::of(card.number);
    let cause = Cause::Card(card.number);
    let planned = match card.outcome {
        CardOutcome::Succeeds => return None,
        CardOutcome::Declines(code) => {
            verdict.failure = Failure::declined(code);
            return None;
        }
        CardOutcome::Challenge { declined_after } => {
            Planned::challenge(None, "authentication_required", declined_after, None, cause)
        }
        CardOutcome::Pending { for_ms, pass, code } => Planned::pending(for_ms, pass, code, cause),
        CardOutcome::Reversal {
            after_ms,
            code,
            reason,
        } => Planned::reversal(after_ms, code, reason, cause),
    };
    Some(Box::new(planned))
}

/// Keeps the payment with its plan, due its wait after `now` (and the
/// pay's verdict says so); a challenged one keeps the pay's `returnUrl`.
#[cold]
#[inline(never)]
pub(super) fn record(
    svc: &mut Backend,
    mut new: NewPayment,
    order: Code,
    now: i64,
    planned: Planned,
    work: &mut Work,
) -> (Payment, Transition) {
    if let Some((_, _, verdict)) = work.third_party.as_mut() {
        verdict.set_planned(planned.note(now));
    }
    let challenged = matches!(planned.step, Step::Challenge { .. });
    svc.counters.count_start(planned.status);
    let wait = |ms: u64| now.saturating_add(i64::try_from(ms).unwrap_or(i64::MAX));
    let later = Later {
        plan: Some(Plan {
            due: planned.wait.map(wait),
            step: planned.step,
            cause: planned.cause,
            since: now,
            origin: [0; 4],
        }),
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
        .record_later(new, order, ids, now, (planned.status, later));
    svc.payments.plans.unanchored = Code::parse(PREFIX, &payment.payment_id);
    (payment, made)
}

impl Planned {
    /// A challenge for the buyer, or one its `outcome` ends after `wait`.
    fn challenge(
        outcome: Option<Outcome>,
        fail_code: &'static str,
        declined_after: Option<&'static str>,
        wait: Option<u64>,
        cause: Cause,
    ) -> Self {
        let step = Step::Challenge {
            outcome,
            fail_code,
            declined_after,
        };
        Planned {
            status: PaymentStatus::RequiresAction,
            step,
            wait,
            cause,
        }
    }

    /// Pending for `for_ms`, then succeeds (`pass`) or fails with `code`.
    fn pending(for_ms: u64, pass: bool, code: &'static str, cause: Cause) -> Self {
        Planned {
            status: PaymentStatus::Pending,
            step: Step::Pending { pass, code },
            wait: Some(for_ms),
            cause,
        }
    }

    /// A success, reversed after `after_ms` with `code` and `reason`.
    fn reversal(after_ms: u64, code: &'static str, reason: &'static str, cause: Cause) -> Self {
        Planned {
            status: PaymentStatus::Success,
            step: Step::Reversal {
                code,
                reason: Rc::from(reason),
            },
            wait: Some(after_ms),
            cause,
        }
    }

    /// What the pay's record says of it (`outcome.async`), due its wait
    /// after `now`.
    fn note(&self, now: i64) -> PlannedChange {
        let (outcome, code) = match &self.step {
            Step::Challenge {
                outcome, fail_code, ..
            } => (*outcome, Some(*fail_code)),
            Step::Pending { pass: true, .. } => (Some(Outcome::Pass), None),
            Step::Pending { code, .. } => (Some(Outcome::Fail), Some(*code)),
            Step::Reversal { code, .. } => (None, Some(*code)),
        };
        PlannedChange {
            kind: self.step.kind(),
            due: self
                .wait
                .map(|ms| now.saturating_add(i64::try_from(ms).unwrap_or(i64::MAX))),
            outcome,
            code,
        }
    }
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

/// Resolves what came due by `now`; the changes are what the records
/// and spans of them are written from.
#[cold]
#[inline(never)]
pub fn resolve_due(svc: &mut Backend, now: i64) {
    for (change, made) in svc.payments.resolve_due(now) {
        commit(svc, made, change.at, transition::of_plan(change.origin));
        write_change(svc, change);
    }
}

/// The record of a change, in the trace of the pay that planned it: its
/// own span id, a child of the pay's payment-service span; at its time.
fn write_change(svc: &mut Backend, change: Change) {
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
            part: Part::Payment(Box::new(PaymentSpan::of(&change))),
        };
        svc.journal.record_span(span, &mut svc.spare_call);
    }
    svc.journal
        .write(change.at, at, Kept::Payment(Box::new(change)));
}

/// Ends a challenge for the buyer at the service's time: the change, or
/// why not (a `paymentId` unknown or not awaiting one).
pub fn complete_challenge(
    svc: &mut Backend,
    payment_id: &str,
    outcome: Outcome,
) -> Result<Change, NotAwaiting> {
    let now = svc.clock.now_ms();
    if svc.payments.plans.any_due(now) {
        resolve_due(svc, now);
    }
    let (change, made) = svc.payments.complete_challenge(payment_id, outcome, now)?;
    commit(svc, made, change.at, transition::of_plan(change.origin));
    write_change(svc, change.clone());
    Ok(change)
}
