//! The events: every state change, kept compactly in a bounded log
//! (10,000, the oldest dropped and counted), written as JSON text only
//! when read. The text of an event is exactly what a webhook delivery
//! sends (Stripe's shape: `{id, object, type, created, createdAt,
//! traceId, data: {object}}`), the resource as a read shows it.
//! Events are kept whether or not anyone reads them; `on` says whether
//! webhooks were turned on (an endpoint registered, or the events read),
//! and only then do they enter a snapshot.

use crate::prelude::*;

use alloc::collections::VecDeque;

use super::envelope;
use crate::domain::code::Code;
use crate::domain::event_id::event_id;
use crate::domain::transition::{Declined, Detail, EventType, Gone, Transition};
use crate::domain::{order, Order, OrderStatus, Orders, PaymentStatus, Payments, Rejection};
use crate::json::Out;
use crate::observe::{SpanId, TraceId};
use crate::sim::third_party::Failure;

/// How many events are kept; older ones are dropped.
pub const MAX_EVENTS: usize = 10_000;

/// One event: when, in which trace (and the span of the request that
/// caused it, the parent of its deliveries' spans), and what changed.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    pub at: i64,
    /// The trace id's parts (`TraceId::parts`), kept apart so that its
    /// flag packs beside `kind` (see `trace`).
    trace: [u64; 2],
    wide: bool,
    pub span: SpanId,
    pub kind: EventType,
    /// The order's or the payment's code (a declined pay's order's).
    pub code: Code,
    pub(crate) detail: Detail,
}

impl Event {
    /// The trace it happened in.
    pub fn trace(&self) -> TraceId {
        let [high, low] = self.trace;
        TraceId::from_parts([high, low, u64::from(self.wide)])
    }
}

/// The bounded log of events, numbered from 0 in the order they happened.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Events {
    pub(crate) kept: VecDeque<Event>,
    /// The number the next event gets; those below `next - kept.len()`
    /// were dropped.
    pub(crate) next: u64,
    /// Events dropped from the log while a delivery of theirs was still
    /// unfinished, kept (by number) until none is: a receiver down for
    /// hours of retries still gets every event.
    pub(crate) awaited: Vec<(u64, Event)>,
    /// Whether webhooks are on: an endpoint was registered or the
    /// events were read (or a snapshot holding them was restored).
    pub(crate) on: bool,
}

/// What an event's text is written from: the log (a deleted order's
/// event holds it), the tables of orders and payments, the seed.
pub struct Sources<'a> {
    pub events: &'a Events,
    pub orders: &'a Orders,
    pub payments: &'a Payments,
    pub seed: u64,
}

impl Events {
    /// Keeps the event of `made`; its number.
    #[inline(always)]
    pub fn push(&mut self, made: Transition, at: i64, (trace, span): (TraceId, SpanId)) -> u64 {
        if self.kept.len() >= MAX_EVENTS {
            self.kept.pop_front();
        }
        let [high, low, wide] = trace.parts();
        self.kept.push_back(Event {
            at,
            trace: [high, low],
            wide: wide != 0,
            span,
            kind: made.kind,
            code: made.code,
            detail: made.detail,
        });
        let seq = self.next;
        self.next += 1;
        seq
    }

    /// Whether the log is full: the next push drops the oldest event.
    #[inline(always)]
    pub fn is_full(&self) -> bool {
        self.kept.len() >= MAX_EVENTS
    }

    /// Drops the oldest event from the full log before a push; kept aside
    /// while `awaited` says a delivery of it is unfinished (those set
    /// aside before and no longer awaited go).
    #[cold]
    #[inline(never)]
    pub fn drop_oldest(&mut self, awaited: impl Fn(u64) -> bool) {
        let seq = self.first();
        self.awaited.retain(|(n, _)| awaited(*n));
        if let Some(event) = self.kept.pop_front() {
            if awaited(seq) {
                self.awaited.push((seq, event));
            }
        }
    }

    /// How many events there have been (kept or dropped).
    pub fn count(&self) -> u64 {
        self.next
    }

    /// The number of the oldest event kept.
    pub fn first(&self) -> u64 {
        self.next - self.kept.len() as u64
    }

    /// How many events were dropped from the log.
    pub fn dropped(&self) -> u64 {
        self.first()
    }

    pub fn len(&self) -> usize {
        self.kept.len()
    }

    pub fn is_empty(&self) -> bool {
        self.kept.is_empty()
    }

    /// The event numbered `seq`, while it is kept (in the log, or aside
    /// for an unfinished delivery).
    pub fn get(&self, seq: u64) -> Option<&Event> {
        let Some(i) = seq.checked_sub(self.first()) else {
            return self.awaited.iter().find(|(n, _)| *n == seq).map(|(_, e)| e);
        };
        self.kept.get(usize::try_from(i).ok()?)
    }

    /// The kept events numbered after `after` (all with `None`), oldest
    /// first, with their numbers.
    pub fn after(&self, after: Option<u64>) -> impl Iterator<Item = (u64, &Event)> + '_ {
        let first = self.first();
        let from = after.map_or(first, |a| a.saturating_add(1).max(first));
        let skip = usize::try_from(from - first).unwrap_or(usize::MAX);
        self.kept
            .iter()
            .enumerate()
            .skip(skip)
            .map(move |(i, e)| (first + i as u64, e))
    }

    /// The order deleted with `code`, from its event, while kept.
    fn gone(&self, code: Code) -> Option<&Gone> {
        self.kept.iter().rev().find_map(|e| match &e.detail {
            Detail::Gone(gone) if e.code == code => Some(&**gone),
            _ => None,
        })
    }
}

impl Sources<'_> {
    /// The events after `after` as a JSON array of their texts.
    pub fn json_after(&self, after: Option<u64>) -> String {
        let mut out = Out::with_capacity(256);
        out.begin_array();
        for (seq, event) in self.events.after(after) {
            self.write(&mut out, seq, event);
        }
        out.end_array();
        out.text
    }

    /// The event's text, as listed and as a delivery sends it.
    pub fn write(&self, out: &mut Out, seq: u64, event: &Event) {
        out.begin_object();
        out.key("id");
        out.str(&event_id(self.seed, seq));
        out.key("object");
        out.plain("event");
        out.key("type");
        out.plain(event.kind.as_str());
        out.key("created");
        out.int(event.at.div_euclid(1000));
        out.key("createdAt");
        out.int(event.at);
        out.key("traceId");
        out.comma_then_quote();
        event.trace().push_hex(&mut out.text);
        out.text.push('"');
        out.key("data");
        out.begin_object();
        out.key("object");
        self.resource(out, event);
        out.end_object();
        out.end_object();
    }

    /// The resource as a read showed it after the change: its row now,
    /// with the status the event's type names.
    fn resource(&self, out: &mut Out, event: &Event) {
        match (&event.detail, Transition::payment_status(event.kind)) {
            (&Detail::Declined(amount, method, failure), _) => {
                let asked = Declined {
                    amount,
                    method,
                    failure,
                };
                declined(out, event, &asked);
            }
            (_, Some(status)) => {
                let row = self.payments.row(event.code);
                let Some(mut row) = row.cloned() else {
                    return out.null();
                };
                row.status = status;
                envelope::payment(out, &row.payment_with(&self.payments.plans));
            }
            (Detail::Gone(gone), None) => envelope::order(out, &order_of(event, gone)),
            (Detail::None, None) => match self.orders.row(event.code) {
                Some(row) => {
                    let mut order = row.order();
                    order.status = order_status(event.kind);
                    envelope::order(out, &order);
                }
                None => match self.events.gone(event.code) {
                    Some(gone) => envelope::order(out, &order_of(event, gone)),
                    None => out.null(),
                },
            },
        }
    }
}

/// The status of an order after the change of type `kind`.
fn order_status(kind: EventType) -> OrderStatus {
    match kind {
        EventType::OrderPaid => OrderStatus::Paid,
        _ => OrderStatus::Created,
    }
}

/// The order of `event`, deleted since, as it was then.
fn order_of(event: &Event, gone: &Gone) -> Order {
    Order {
        order_id: event.code.text(order::PREFIX),
        user_id: String::from(&*gone.user_id),
        price: gone.price,
        status: order_status(event.kind),
        description: String::from(&*gone.description),
        created_at: gone.created_at,
    }
}

/// A pay declined at once: what it asked for, `paymentId` null (no
/// payment is kept), FAILED with the decline's code (`processing_error`
/// when the third party timed out or failed) and the answer's words.
fn declined(out: &mut Out, event: &Event, d: &Declined) {
    let code = match d.failure {
        Failure::TimedOut | Failure::Status(_) => "processing_error",
        failure => failure.decline_code().unwrap_or("generic_decline"),
    };
    out.begin_object();
    out.key("paymentId");
    out.null();
    out.key("orderId");
    out.str(&event.code.text(order::PREFIX));
    out.key("amount");
    out.num(d.amount.get());
    out.key("status");
    out.plain(PaymentStatus::Failed.as_str());
    out.key("paymentMethod");
    out.plain(d.method.as_str());
    out.key("paidAt");
    out.int(event.at);
    out.key("failureCode");
    out.str(code);
    out.key("failureReason");
    out.str(Rejection::ThirdPartyFailed.msg());
    out.end_object();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_event_is_kept_in_64_bytes() {
        assert_eq!(core::mem::size_of::<Event>(), 64);
    }
}
