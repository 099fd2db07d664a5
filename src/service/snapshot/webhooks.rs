//! Events, webhook endpoints and deliveries in a snapshot: the members
//! `events` and `webhooks`, written only once webhooks are on (an
//! endpoint registered, or the events read), so a service that never
//! turns them on writes the snapshot it always did; a snapshot with either
//! member turns them on when restored, and one without has none. Read
//! back refused naming the field (`snapshot.webhooks.deliveries[0].state`).
//! An attempt in flight when the snapshot was taken is due again.

use crate::prelude::*;

use alloc::rc::Rc;

use super::fields::{
    array_at, got_text, int, member, object, out_of_range, safe_count_in, text, uint, wrong, Item,
    Read,
};
use crate::domain::code::Code;
use crate::domain::delivery::{Attempt, Deliveries, Delivery, DeliveryState};
use crate::domain::money::Money;
use crate::domain::transition::{Detail, EventType, Gone, Transition};
use crate::domain::webhook::{endpoint_number, Endpoints};
use crate::domain::{order, payment, PaymentMethod};
use crate::gateway::events::Events;
use crate::gateway::webhook_spec;
use crate::json::message::{Msg, Path, Place};
use crate::json::{Json, Out};
use crate::observe::{SpanId, TraceId};
use crate::sim::invalid::Invalid;
use crate::sim::scenario::DeliveryFault;
use crate::sim::third_party::Failure;

/// `"events": {next, kept: [{at, type, id, trace, span, gone?, declined?}]}`
/// and `"webhooks": {endpoints, lastEndpoint, deliveries, lastDelivery,
/// held}`, when webhooks are on.
pub(super) fn write(
    out: &mut Out,
    events: &Events,
    endpoints: &Endpoints,
    deliveries: &Deliveries,
) {
    if !events.on {
        return;
    }
    out.key("events");
    out.begin_object();
    out.key("next");
    out.uint(events.next);
    out.key("kept");
    out.begin_array();
    for (_, e) in events.after(None) {
        write_event(out, e);
    }
    out.end_array();
    out.end_object();
    out.key("webhooks");
    out.begin_object();
    out.key("endpoints");
    out.begin_array();
    for endpoint in endpoints.iter() {
        webhook_spec::write_open(out, endpoint);
        out.end_object();
    }
    out.end_array();
    out.key("lastEndpoint");
    out.uint(endpoints.last);
    out.key("deliveries");
    out.begin_array();
    deliveries.iter().for_each(|d| write_delivery(out, d));
    out.end_array();
    out.key("lastDelivery");
    out.uint(deliveries.last);
    out.key("held");
    out.begin_array();
    for (rule, n) in &deliveries.held {
        out.begin_array();
        out.str(rule);
        out.uint(*n);
        out.end_array();
    }
    out.end_array();
    out.end_object();
}

fn write_event(out: &mut Out, e: &crate::gateway::events::Event) {
    out.begin_object();
    out.key("at");
    out.int(e.at);
    out.key("type");
    out.plain(e.kind.as_str());
    out.key("id");
    let prefix = match (&e.detail, Transition::payment_status(e.kind)) {
        (Detail::Declined(..), _) | (_, None) => order::PREFIX,
        _ => payment::PREFIX,
    };
    out.str(&e.code.text(prefix));
    out.key("trace");
    out.comma_then_quote();
    e.trace().push_hex(&mut out.text);
    out.text.push('"');
    out.key("span");
    out.hex64(e.span.0);
    match &e.detail {
        Detail::None => {}
        Detail::Gone(g) => {
            out.key("gone");
            out.begin_object();
            out.key("userId");
            out.str(&g.user_id);
            out.key("description");
            out.str(&g.description);
            out.key("price");
            out.num(g.price.get());
            out.key("createdAt");
            out.int(g.created_at);
            out.end_object();
        }
        Detail::Declined(amount, method, failure) => {
            out.key("declined");
            out.begin_object();
            out.key("amount");
            out.num(amount.get());
            out.key("paymentMethod");
            out.plain(method.as_str());
            out.key("failure");
            out.str(&failure_text(*failure));
            out.end_object();
        }
    }
    out.end_object();
}

/// A third party's failure as a word: `drawn`, `declined:<code>`,
/// `timeout`, `status:<n>` or `none`.
fn failure_text(f: Failure) -> String {
    match f {
        Failure::None => "none".into(),
        Failure::Drawn => "drawn".into(),
        Failure::TimedOut => "timeout".into(),
        Failure::Declined(_) => {
            crate::json::message::msg!("declined:", f.decline_code().unwrap_or(""))
        }
        Failure::Status(n) => crate::json::message::msg!("status:", &*n.to_string()),
    }
}

fn failure_of(text: &str) -> Option<Failure> {
    match text {
        "none" => Some(Failure::None),
        "drawn" => Some(Failure::Drawn),
        "timeout" => Some(Failure::TimedOut),
        _ => {
            if let Some(code) = text.strip_prefix("declined:") {
                let known = crate::sim::scenario::document::DECLINE_CODES.contains(&code);
                return known.then(|| Failure::declined(code));
            }
            text.strip_prefix("status:")?
                .parse()
                .ok()
                .map(Failure::Status)
        }
    }
}

fn write_delivery(out: &mut Out, d: &Delivery) {
    out.begin_object();
    for (key, value) in [("n", d.n), ("event", d.event), ("endpoint", d.endpoint)] {
        out.key(key);
        out.uint(value);
    }
    out.key("state");
    out.plain(d.state.as_str());
    out.key("nextAt");
    match d.next_at {
        Some(t) => out.int(t),
        None => out.null(),
    }
    out.key("scheduled");
    out.uint(u64::from(d.scheduled));
    out.key("resent");
    out.bool(d.resent);
    if let Some(fault) = &d.fault {
        out.key("fault");
        fault.write(out);
    }
    out.key("attempts");
    out.begin_array();
    for a in &d.attempts {
        out.begin_object();
        out.key("n");
        out.uint(u64::from(a.n));
        out.key("at");
        out.int(a.at);
        out.key("status");
        out.opt_uint(a.status.map(u64::from));
        out.key("error");
        out.opt_str(a.error.as_deref());
        out.key("durationMs");
        out.uint(a.duration_ms);
        if let Some(fault) = &a.fault {
            out.key("fault");
            fault.write(out);
        }
        out.end_object();
    }
    out.end_array();
    out.end_object();
}

/// The events and webhooks of a snapshot: none (off) without either member.
pub(super) fn read(tree: &Json, seed: u64) -> Read<(Events, Endpoints, Deliveries)> {
    let mut events = Events::default();
    if let Some(v) = tree.get("events") {
        events = read_events(v)?;
    }
    let (mut endpoints, mut deliveries) = (Endpoints::default(), Deliveries::default());
    if let Some(v) = tree.get("webhooks") {
        events.on = true;
        endpoints = read_endpoints(v, seed)?;
        deliveries = read_deliveries(v, [events.next, endpoints.last])?;
    }
    Ok((events, endpoints, deliveries))
}

fn read_events(v: &Json) -> Read<Events> {
    let at = "snapshot.events";
    let next = safe_count_in(v, &at, "next")?;
    let kept = array_at(member(v, &at, "kept")?, &Path(&at, "kept"))?;
    let mut events = Events {
        on: true,
        ..Events::default()
    };
    let first = next.checked_sub(kept.len() as u64);
    let Some(first) = first.filter(|_| kept.len() <= crate::gateway::events::MAX_EVENTS) else {
        let problem = "must be at most 10000 events, and no more than next";
        return Err(Invalid::out_of_range("snapshot.events.kept", problem));
    };
    events.next = first;
    for (i, e) in kept.iter().enumerate() {
        let here = Item("snapshot.events.kept", i);
        let (made, at_ms, origin) = read_event(e, &here)?;
        events.push(made, at_ms, origin);
    }
    events.next = next;
    Ok(events)
}

fn read_event(v: &Json, at: &dyn Place) -> Read<(Transition, i64, (TraceId, SpanId))> {
    object(v, at)?;
    let kind_text = text(v, at, "type")?;
    let kind = EventType::parse(kind_text)
        .ok_or_else(|| got_text(&Path(at, "type"), "must be an event type", kind_text))?;
    let id = text(v, at, "id")?;
    let declined = v.get("declined");
    let prefix = match (declined, Transition::payment_status(kind)) {
        (Some(_), _) | (_, None) => order::PREFIX,
        _ => payment::PREFIX,
    };
    let code = Code::parse(prefix, id).ok_or_else(|| {
        got_text(
            &Path(at, "id"),
            "must be the id of its order or payment",
            id,
        )
    })?;
    let trace_text = text(v, at, "trace")?;
    let trace = TraceId::parse(trace_text)
        .ok_or_else(|| got_text(&Path(at, "trace"), "must be a trace id", trace_text))?;
    let span_text = text(v, at, "span")?;
    let span = SpanId::parse(span_text)
        .ok_or_else(|| got_text(&Path(at, "span"), "must be a span id", span_text))?;
    let mut made = Transition::order(kind, code);
    if let Some(g) = v.get("gone") {
        made = Transition::order_gone(code, read_gone(g, &Path(at, "gone"))?);
    } else if let Some(d) = declined {
        let here = Path(at, "declined");
        let amount = money_of(d, &here)?;
        let method_text = text(d, &here, "paymentMethod")?;
        let method = PaymentMethod::parse(method_text).ok_or_else(|| {
            got_text(
                &Path(&here, "paymentMethod"),
                "must be a payment method",
                method_text,
            )
        })?;
        let failure_text = text(d, &here, "failure")?;
        let failure = failure_of(failure_text)
            .ok_or_else(|| got_text(&Path(&here, "failure"), "must be a failure", failure_text))?;
        made = Transition::declined(
            code,
            crate::domain::transition::Declined {
                amount,
                method,
                failure,
            },
        );
    }
    made.kind = kind;
    Ok((made, int(v, at, "at")?, (trace, span)))
}

fn money_of(v: &Json, at: &dyn Place) -> Read<Money> {
    super::fields::money(v, at, "amount")
}

fn read_gone(v: &Json, at: &dyn Place) -> Read<Gone> {
    object(v, at)?;
    Ok(Gone {
        user_id: Rc::from(text(v, at, "userId")?),
        description: Rc::from(text(v, at, "description")?),
        price: super::fields::money(v, at, "price")?,
        created_at: int(v, at, "createdAt")?,
    })
}

fn read_endpoints(v: &Json, seed: u64) -> Read<Endpoints> {
    let at = "snapshot.webhooks";
    let list = array_at(member(v, &at, "endpoints")?, &Path(&at, "endpoints"))?;
    let mut endpoints = Endpoints::default();
    for (i, e) in list.iter().enumerate() {
        let here = Item("snapshot.webhooks.endpoints", i);
        let id = text(e, &here, "id")?;
        let n = endpoint_number(id)
            .filter(|&n| endpoints.get(n).is_none())
            .ok_or_else(|| got_text(&Path(&here, "id"), "must be a new endpoint id", id))?;
        let endpoint = webhook_spec::of_json(e, seed, n, true).map_err(|e| {
            let mut m = crate::json::message::Msg::new("");
            here.write_place(&mut m);
            m.s(".").s(&e.msg);
            Invalid {
                kind: e.kind,
                msg: m.text(),
            }
        })?;
        endpoints.add(endpoint);
    }
    let last = safe_count_in(v, &at, "lastEndpoint")?;
    endpoints.last = endpoints.last.max(last);
    Ok(endpoints)
}

/// The deliveries; `issued`: how many events there have been, and the
/// last endpoint's number.
fn read_deliveries(v: &Json, issued: [u64; 2]) -> Read<Deliveries> {
    let at = "snapshot.webhooks";
    let list = array_at(member(v, &at, "deliveries")?, &Path(&at, "deliveries"))?;
    let mut deliveries = Deliveries::default();
    for (i, d) in list.iter().enumerate() {
        let here = Item("snapshot.webhooks.deliveries", i);
        let delivery = read_delivery(d, &here, issued)?;
        if delivery.n <= deliveries.last {
            return Err(Invalid::out_of_range(
                "snapshot.webhooks.deliveries",
                "must be in order of n",
            ));
        }
        deliveries.last = delivery.n;
        deliveries.kept.push_back(delivery);
    }
    deliveries.last = deliveries.last.max(safe_count_in(v, &at, "lastDelivery")?);
    let held = array_at(member(v, &at, "held")?, &Path(&at, "held"))?;
    for (i, h) in held.iter().enumerate() {
        let pair = h.as_array().filter(|p| p.len() == 2);
        let rule = pair.and_then(|p| p.first()?.as_str());
        let n = pair.and_then(|p| p.get(1)?.as_u64());
        let (Some(rule), Some(n)) = (rule, n) else {
            return Err(wrong(
                &Item("snapshot.webhooks.held", i),
                h,
                "a [rule, delivery] pair",
            ));
        };
        deliveries.held.push((Rc::from(rule), n));
    }
    Ok(deliveries)
}

/// One delivery, naming an event the log has had and an endpoint once
/// registered (`issued`, as `read_deliveries`).
fn read_delivery(v: &Json, at: &dyn Place, [events, endpoints]: [u64; 2]) -> Read<Delivery> {
    object(v, at)?;
    let state_text = text(v, at, "state")?;
    let state = DeliveryState::parse(state_text)
        .ok_or_else(|| got_text(&Path(at, "state"), "must be a delivery state", state_text))?;
    let next_at = match member(v, at, "nextAt")? {
        Json::Null => None,
        _ => Some(int(v, at, "nextAt")?),
    };
    let event = uint(v, at, "event")?;
    if event >= events {
        let mut problem = Msg::new("must name an event the log has had, got ");
        return Err(out_of_range(&Path(at, "event"), problem.uint(event)));
    }
    let endpoint = uint(v, at, "endpoint")?;
    if endpoint == 0 || endpoint > endpoints {
        let mut problem = Msg::new("must name an endpoint once registered, got ");
        return Err(out_of_range(&Path(at, "endpoint"), problem.uint(endpoint)));
    }
    let resent = match member(v, at, "resent")? {
        Json::Bool(b) => *b,
        other => return Err(wrong(&Path(at, "resent"), other, "a boolean")),
    };
    let attempts = array_at(member(v, at, "attempts")?, &Path(at, "attempts"))?;
    let mut list = crate::json::message::Msg::new("");
    Path(at, "attempts").write_place(&mut list);
    let list = list.text();
    let attempts = attempts
        .iter()
        .enumerate()
        .map(|(i, a)| read_attempt(a, &Item(&list, i)))
        .collect::<Read<Vec<Attempt>>>()?;
    // An attempt in flight when the snapshot was taken is due again.
    let state = match state {
        DeliveryState::InFlight => DeliveryState::Pending,
        s => s,
    };
    Ok(Delivery {
        n: safe_count_in(v, at, "n")?,
        event,
        endpoint,
        state,
        attempts,
        next_at,
        scheduled: u32::try_from(uint(v, at, "scheduled")?).unwrap_or(u32::MAX),
        resent,
        fault: v.get("fault").and_then(DeliveryFault::read).map(Box::new),
    })
}

fn read_attempt(v: &Json, at: &dyn Place) -> Read<Attempt> {
    object(v, at)?;
    let status = match member(v, at, "status")? {
        Json::Null => None,
        s => Some(
            s.as_u64()
                .and_then(|n| u16::try_from(n).ok())
                .ok_or_else(|| wrong(&Path(at, "status"), s, "an HTTP status"))?,
        ),
    };
    let error = match member(v, at, "error")? {
        Json::Null => None,
        _ => Some(text(v, at, "error")?.to_owned()),
    };
    Ok(Attempt {
        n: u32::try_from(uint(v, at, "n")?).unwrap_or(u32::MAX),
        at: int(v, at, "at")?,
        status,
        error,
        duration_ms: uint(v, at, "durationMs")?,
        fault: v.get("fault").and_then(DeliveryFault::read),
    })
}
