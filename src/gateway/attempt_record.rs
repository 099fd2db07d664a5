//! The log record and the span of a webhook delivery attempt, written when
//! the sender reports it: in the trace of the request that caused the
//! event, a child of that request's span, with the attempt's own span id
//! (the one its `traceparent` and `b3` headers named), at the attempt's
//! time on the service's clock, lasting as long as the sender reported.

use crate::prelude::*;

use alloc::rc::Rc;

use super::backend::Backend;
use crate::domain::event_id::event_id;
use crate::observe::span_entry::{DueSpan, Part, SpanEntry};
use crate::observe::webhook_attempt::WebhookAttempt;
use crate::observe::{At, DueRecord, Kept, SpanId};
use crate::sim::random::mix;

/// Writes the last attempt of delivery `n` (recorded, its next attempt
/// scheduled) to the journal; nothing when its event or endpoint is gone.
#[cold]
#[inline(never)]
pub(super) fn write(svc: &mut Backend, n: u64) {
    let found = svc.deliveries.get(n).and_then(|d| {
        let attempt = d.attempts.last()?;
        let event = svc.events.get(d.event)?;
        let endpoint = svc.endpoints.get(d.endpoint)?;
        Some((d, attempt, event, endpoint))
    });
    let Some((d, attempt, event, endpoint)) = found else {
        return;
    };
    let kept = Rc::new(WebhookAttempt {
        endpoint: endpoint.id().into(),
        url: endpoint.url.as_deref().map(Box::from),
        delivery: d.id().into(),
        event: event_id(svc.settings.seed, d.event).into(),
        event_type: event.kind,
        n: attempt.n,
        http_status: attempt.status,
        duration_ms: attempt.duration_ms,
        error: attempt.error.as_deref().map(Box::from),
        next_at: d.next_at,
        fault: attempt.fault.clone(),
    });
    let at = At {
        trace: event.trace(),
        span: attempt_span(svc.settings.seed, d.n, attempt.n),
        parent: Some(event.span),
    };
    let span = SpanEntry {
        trace: at.trace,
        span: at.span,
        parent: at.parent,
        start: attempt.at,
        end: attempt.at.saturating_add_unsigned(attempt.duration_ms),
        status: kept.status(),
        part: Part::Due(Box::new(DueSpan::Webhook(Rc::clone(&kept)))),
    };
    svc.journal.record_span(span, &mut svc.spare_call);
    svc.journal.write(
        attempt.at,
        at,
        Kept::Due(Box::new(DueRecord::Webhook(kept))),
    );
}

/// The span of attempt `n` of delivery `delivery`: from the seed and the
/// two numbers, never drawn, so no other id moves.
pub(crate) fn attempt_span(seed: u64, delivery: u64, n: u32) -> SpanId {
    let id = mix(seed ^ mix(delivery ^ 0x7764_0000_0000_0000) ^ u64::from(n));
    SpanId(id.max(1))
}
