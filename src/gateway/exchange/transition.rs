//! The one place state changes are committed: every change of an order
//! or a payment (create, pay, decline, refund, mark paid, delete, the
//! test data's, a plan coming due, the buyer's answer to a challenge)
//! comes here as the domain's `#[must_use]` `Transition`, and its event
//! is written, in the trace of the request (or the pay) that caused it,
//! and handed to delivery when a webhook endpoint is registered.

use super::super::backend::Backend;
use super::super::webhooks;
use crate::domain::payment_plan::Origin as PlanOrigin;
use crate::domain::transition::Transition;
use crate::observe::{SpanId, TraceId};

/// Commits `made`, changed at `at` in the trace `origin` (the trace and
/// the span of the request that caused it): its event is written.
#[inline(always)]
pub(crate) fn commit(svc: &mut Backend, made: Transition, at: i64, origin: Origin) {
    if svc.events.is_full() && !svc.deliveries.is_empty() {
        let deliveries = &svc.deliveries;
        svc.events.drop_oldest(|n| deliveries.awaits_event(n));
    }
    let seq = svc.events.push(made, at, origin);
    if !svc.endpoints.is_empty() {
        webhooks::plan(svc, seq);
    }
}

/// Where a request's changes are committed: its trace, and its span.
pub(super) type Origin = (TraceId, SpanId);

/// Commits a change made now by the request at `origin`.
#[inline(always)]
pub(super) fn commit_now(svc: &mut Backend, made: Transition, origin: Origin) {
    let at = svc.clock.now_ms();
    commit(svc, made, at, origin);
}

/// The trace and span of a payment's plan (`Origin`): the pay's.
pub(super) fn of_plan([high, low, wide, span]: PlanOrigin) -> Origin {
    (TraceId::from_parts([high, low, wide]), SpanId(span))
}
