//! The protocol the JS sender drives: the core decides what is delivered
//! and when, the JS layer signs and sends. Endpoints are registered and
//! removed here; an event committed while any exists gets a delivery per
//! endpoint that wants its type (`plan`); `take_due` hands over the
//! attempts due, each marked in flight, as JSON; `report` records how one
//! went and schedules the next; `resend` makes one due now.
//!
//! An attempt is `{delivery, n, endpoint, url, secret, header, timestamp,
//! body, signed?, sign, drop, traceparent, b3}`: `timestamp` is its due
//! time on the service's clock (Unix s; earlier under a `stale_timestamp`
//! fault), `body` the event's text (a `tampered_body` fault sends another
//! and gives the text to sign as `signed`), `sign` `"ok"` (`"wrong"`: sign
//! with another secret) and `drop` false (true: lost on the sender's side,
//! reported as no answer), as the delivery's fault decides
//! (`delivery_faults`); the trace headers name the attempt's own span, a
//! child of the span of the request that caused the event.

use crate::prelude::*;

use super::attempt_record::attempt_span;
use super::backend::Backend;
use super::delivery_faults;
use super::events::{Event, Sources};
use super::webhook_spec;
use crate::domain::delivery::{Attempt, Delivery, DeliveryState, DELIVERY_PREFIX};
use crate::domain::due::DueWork;
use crate::domain::event_id::event_id;
use crate::domain::webhook::{endpoint_number, number_of, Endpoint, MAX_ENDPOINTS};
use crate::json::message::{msg, Q};
use crate::json::Out;
use crate::sim::invalid::Invalid;

/// Registers the endpoint `spec` (JSON text, see `webhook_spec`); it, as
/// listed. Turns webhooks on.
pub fn add(svc: &mut Backend, spec: &str) -> Result<String, Invalid> {
    if svc.endpoints.len() >= MAX_ENDPOINTS {
        let problem = msg!("at most 100 endpoints at once; remove one first");
        return Err(Invalid::out_of_range("webhooks", problem));
    }
    let n = svc.endpoints.next_number();
    let endpoint = webhook_spec::read(spec, svc.settings.seed, n)?;
    let mut out = Out::with_capacity(160);
    webhook_spec::write_open(&mut out, &endpoint);
    out.end_object();
    svc.endpoints.add(endpoint);
    svc.events.on = true;
    Ok(out.text)
}

/// Removes the endpoint `id`; its deliveries not yet made stop (failed).
pub fn remove(svc: &mut Backend, id: &str) -> Result<(), Invalid> {
    let n = endpoint_number(id).filter(|&n| svc.endpoints.remove(n));
    let Some(n) = n else {
        return Err(Invalid::out_of_range(
            "id",
            msg!("no webhook endpoint ", Q(id)),
        ));
    };
    svc.deliveries.stop_for(n);
    Ok(())
}

/// The endpoints, each with its deliveries (oldest first), as JSON.
pub fn list(svc: &Backend) -> String {
    let mut out = Out::with_capacity(256);
    out.begin_array();
    for endpoint in svc.endpoints.iter() {
        webhook_spec::write_open(&mut out, endpoint);
        out.key("deliveries");
        out.begin_array();
        for d in svc.deliveries.iter().filter(|d| d.endpoint == endpoint.n) {
            write_delivery(&mut out, svc, d);
        }
        out.end_array();
        out.end_object();
    }
    out.end_array();
    out.text
}

/// The deliveries of event `seq` (of type and time `event`'s), one per
/// endpoint that wants its type, the first attempt due at once.
#[cold]
#[inline(never)]
pub(crate) fn plan(svc: &mut Backend, seq: u64) {
    let Some(event) = svc.events.get(seq) else {
        return;
    };
    let (kind, at) = (event.kind, event.at);
    let wanting = svc.endpoints.iter().filter(|e| e.wants(kind));
    let numbers: Vec<u64> = wanting.map(|e| e.n).collect();
    for endpoint in numbers {
        delivery_faults::deliver(svc, seq, at, endpoint);
    }
}

/// The attempts that came due (`catch_up` took them off the due queue),
/// each marked in flight, as a JSON array, by due time (ties by delivery).
pub fn take_due(svc: &mut Backend) -> String {
    let due = svc.deliveries.take_ready();
    let mut out = Out::with_capacity(512 * due.len() + 2);
    out.begin_array();
    for n in due {
        write_attempt(&mut out, svc, n);
    }
    out.end_array();
    out.text
}

/// One attempt due, as `take_due` lists it; a delivery whose event or
/// endpoint is gone fails instead.
fn write_attempt(out: &mut Out, svc: &mut Backend, n: u64) {
    let found = svc.deliveries.get(n).and_then(|d| {
        let event = svc.events.get(d.event)?;
        let endpoint = svc.endpoints.get(d.endpoint)?;
        Some((d, event, endpoint))
    });
    let Some((d, event, endpoint)) = found else {
        if let Some(d) = svc.deliveries.get_mut(n) {
            (d.state, d.next_at) = (DeliveryState::Failed, None);
        }
        return;
    };
    let attempt = d.next_attempt();
    let shaped = delivery_faults::shape(d, attempt, d.next_at.unwrap_or(0));
    let sources = Sources {
        events: &svc.events,
        orders: &svc.orders,
        payments: &svc.payments,
        seed: svc.settings.seed,
    };
    let mut body = Out::with_capacity(400);
    sources.write(&mut body, d.event, event);
    out.begin_object();
    out.key("delivery");
    out.plain(&d.id());
    out.key("n");
    out.uint(u64::from(attempt));
    out.key("endpoint");
    out.plain(&endpoint.id());
    out.key("url");
    out.opt_str(endpoint.url.as_deref());
    out.key("secret");
    out.str(&endpoint.secret);
    out.key("header");
    out.plain(endpoint.header.as_str());
    out.key("timestamp");
    out.int(shaped.timestamp);
    out.key("body");
    if shaped.tampered {
        out.str(&delivery_faults::tampered(&body.text));
        out.key("signed");
    }
    out.str(&body.text);
    out.key("sign");
    out.plain(if shaped.wrong { "wrong" } else { "ok" });
    out.key("drop");
    out.bool(shaped.drop);
    trace_headers(out, svc.settings.seed, event, d.n, attempt);
    out.end_object();
}

/// `traceparent` and `b3` of an attempt: the event's trace, the
/// attempt's span, sampled.
fn trace_headers(out: &mut Out, seed: u64, event: &Event, delivery: u64, n: u32) {
    let span = attempt_span(seed, delivery, n).hex();
    let mut trace = String::with_capacity(32);
    event.trace().push_hex_128(&mut trace);
    out.key("traceparent");
    out.plain(&msg!("00-", &trace, "-", &span, "-01"));
    out.key("b3");
    out.plain(&msg!(&trace, "-", &span, "-1"));
}

/// What the sender reports of an attempt it made.
pub struct Report<'a> {
    pub delivery: &'a str,
    pub n: u32,
    /// The receiver's status; 0 for no answer.
    pub status: u16,
    pub duration_ms: u64,
    /// Why it failed, if it did (empty: no error).
    pub error: &'a str,
}

/// Records the attempt `report` names (in flight), schedules the next or
/// finishes the delivery; the delivery as JSON.
pub fn report(svc: &mut Backend, report: &Report) -> Result<String, Invalid> {
    let n = delivery_number(svc, report.delivery)?;
    let Some(d) = svc.deliveries.get_mut(n) else {
        return Err(unknown_delivery(report.delivery));
    };
    if d.state != DeliveryState::InFlight || d.next_attempt() != report.n {
        let problem = msg!(
            "no attempt ",
            &*report.n.to_string(),
            " of ",
            report.delivery,
            " is in flight"
        );
        return Err(Invalid::out_of_range("n", problem));
    }
    let at = d.next_at.unwrap_or(0);
    let attempt = Attempt {
        n: report.n,
        at,
        status: (report.status != 0).then_some(report.status),
        error: (!report.error.is_empty()).then(|| report.error.chars().take(500).collect()),
        duration_ms: report.duration_ms,
        fault: delivery_faults::shape(d, report.n, at).fault,
    };
    d.record(attempt);
    schedule(svc, n);
    super::attempt_record::write(svc, n);
    Ok(delivery_json(svc, n))
}

/// A new attempt of `delivery` due now (see `Delivery::resend`); the
/// delivery as JSON.
pub fn resend(svc: &mut Backend, delivery: &str) -> Result<String, Invalid> {
    let n = delivery_number(svc, delivery)?;
    let now = svc.clock.now_ms();
    let Some(d) = svc.deliveries.get_mut(n) else {
        return Err(unknown_delivery(delivery));
    };
    if !d.resend(now) {
        let problem = msg!(delivery, " has an attempt in flight");
        return Err(Invalid::out_of_range("delivery", problem));
    }
    schedule(svc, n);
    Ok(delivery_json(svc, n))
}

/// Puts delivery `n`'s next attempt, if one is to come, on the due queue.
fn schedule(svc: &mut Backend, n: u64) {
    if let Some(at) = svc.deliveries.due_of(n) {
        svc.due.push(at, DueWork::Attempt(n));
    }
}

fn delivery_number(svc: &Backend, id: &str) -> Result<u64, Invalid> {
    number_of(DELIVERY_PREFIX, id)
        .filter(|&n| svc.deliveries.get(n).is_some())
        .ok_or_else(|| unknown_delivery(id))
}

fn unknown_delivery(id: &str) -> Invalid {
    Invalid::out_of_range("delivery", msg!("no delivery ", Q(id)))
}

fn delivery_json(svc: &Backend, n: u64) -> String {
    let mut out = Out::with_capacity(256);
    match svc.deliveries.get(n) {
        Some(d) => write_delivery(&mut out, svc, d),
        None => out.null(),
    }
    out.text
}

/// `{id, event, type, endpoint, state, attempts, nextAttemptAt}`.
fn write_delivery(out: &mut Out, svc: &Backend, d: &Delivery) {
    out.begin_object();
    out.key("id");
    out.plain(&d.id());
    out.key("event");
    out.plain(&event_id(svc.settings.seed, d.event));
    out.key("type");
    match svc.events.get(d.event) {
        Some(e) => out.plain(e.kind.as_str()),
        None => out.null(),
    }
    out.key("endpoint");
    out.plain(&Endpoint::id_of(d.endpoint));
    out.key("state");
    out.plain(d.state.as_str());
    out.key("attempts");
    out.begin_array();
    d.attempts.iter().for_each(|a| write_attempt_done(out, a));
    out.end_array();
    out.key("nextAttemptAt");
    match d.next_at {
        Some(t) => out.int(t),
        None => out.null(),
    }
    out.end_object();
}

/// `{n, at, status?, error?, durationMs, fault?}`.
fn write_attempt_done(out: &mut Out, a: &Attempt) {
    out.begin_object();
    out.key("n");
    out.uint(u64::from(a.n));
    out.key("at");
    out.int(a.at);
    if let Some(status) = a.status {
        out.key("status");
        out.uint(u64::from(status));
    }
    if let Some(error) = &a.error {
        out.key("error");
        out.str(error);
    }
    out.key("durationMs");
    out.uint(a.duration_ms);
    if let Some(fault) = &a.fault {
        out.key("fault");
        fault.write(out);
    }
    out.end_object();
}
