//! Properties the service keeps whatever it is sent, checked by the native
//! tests (seeded, on stable) and by the cargo-fuzz targets in
//! `tests/fuzz-rust/` alike: no panic, every answer a well-formed
//! envelope, a turned-away request changes nothing, every number a JS
//! number holds exactly, and a restored service answers every route.
#![allow(dead_code)]

use orderpay::domain::event_id::event_id;
use orderpay::domain::Orders;
use orderpay::domain::Payments;
use orderpay::gateway::idempotency::IdempotencyKeys;
use orderpay::observe::LogRecord;
use orderpay::sim::third_party::Forced;
use orderpay::{RawRequest, Response, Service, Settings};
use serde_json::{json, Value};

/// `Number.MAX_SAFE_INTEGER`.
pub const MAX_SAFE: u64 = (1 << 53) - 1;

/// The statuses the service answers with.
const STATUSES: [u16; 11] = [200, 303, 400, 404, 405, 409, 413, 414, 415, 431, 507];

/// The first number in `value` that a JS number cannot hold exactly, by
/// its path.
pub fn unsafe_number(value: &Value, at: &str) -> Option<String> {
    match value {
        Value::Number(n) => {
            let safe = match (n.as_u64(), n.as_i64()) {
                (Some(u), _) => u <= MAX_SAFE,
                (None, Some(i)) => i.unsigned_abs() <= MAX_SAFE,
                _ => n.as_f64().is_some_and(f64::is_finite),
            };
            (!safe).then(|| format!("{at} = {n}"))
        }
        Value::Array(items) => items
            .iter()
            .enumerate()
            .find_map(|(i, v)| unsafe_number(v, &format!("{at}[{i}]"))),
        Value::Object(map) => map
            .iter()
            .find_map(|(k, v)| unsafe_number(v, &format!("{at}.{k}"))),
        _ => None,
    }
}

fn safe_json<T: serde::Serialize>(value: &T, what: &str) -> Result<(), String> {
    let json = serde_json::to_value(value).map_err(|e| format!("{what}: {e}"))?;
    match unsafe_number(&json, what) {
        Some(bad) => Err(format!("not representable in JS: {bad}")),
        None => Ok(()),
    }
}

/// One answer: the status one of the service's, the code the status (or
/// 0 / -1 on a 200), data only on success, a 4xx msg naming its field,
/// the headers every answer carries, and every number representable.
pub fn check_response(r: &Response) -> Result<(), String> {
    let body = &r.body;
    let fail = |why: &str| Err(format!("{why}: {} {body:?}", r.status));
    if !STATUSES.contains(&r.status) {
        return fail("a status the service does not answer with");
    }
    let code_ok = match r.status {
        200 => body.code == 0 || body.code == -1,
        // A business conflict (a pay while a challenge is open).
        409 => body.code == -1,
        s => body.code == i32::from(s),
    };
    if !code_ok {
        return fail("code does not match the status");
    }
    if body.code == 0 && body.msg != "success" {
        return fail("code 0 without msg success");
    }
    if body.code != 0 && body.data.is_some() {
        return fail("data on a failure");
    }
    if body.msg.is_empty() {
        return fail("an empty msg");
    }
    if r.status == 404 {
        if !body.msg.starts_with("No route for ") {
            return fail("a 404 msg that is not No route for");
        }
    } else if r.status >= 400 {
        let named = body
            .msg
            .split_once(": ")
            .is_some_and(|(field, problem)| !field.is_empty() && !problem.is_empty());
        if !named {
            return fail("a 4xx msg that does not name a field");
        }
    }
    for name in ["content-type", "x-b3-traceid", "x-b3-spanid", "traceparent"] {
        if r.header(name).is_none() {
            return fail(&format!("no {name} header"));
        }
    }
    if (r.status == 405) != r.header("allow").is_some() {
        return fail("allow header without a 405, or a 405 without it");
    }
    safe_json(body, "body")
}

/// What a request may change: everything but the log, its spans and the
/// trace-id stream (a refused request is logged, with a fresh trace id).
#[derive(Debug, PartialEq)]
pub struct Business {
    orders: Orders,
    payments: Payments,
    forced: Option<(Forced, u32)>,
    settings: Settings,
    now: i64,
    keys: IdempotencyKeys,
    /// How many events there have been.
    events: u64,
}

pub fn business(svc: &mut Service) -> Business {
    Business {
        orders: svc.orders().clone(),
        payments: svc.payments().clone(),
        forced: svc.forced_next(),
        settings: svc.settings().clone(),
        now: svc.now(),
        keys: svc.idempotency_keys().clone(),
        events: svc.events().count(),
    }
}

/// Sends one request and checks its answer, that a 4xx left the state as
/// it was, and that the records it wrote hold only representable numbers.
pub fn step(svc: &mut Service, request: RawRequest) -> Result<Response, String> {
    // What came due by now ends first, as the request's arrival would
    // end it: not a change the request makes.
    svc.advance(0);
    let before = business(svc);
    let last_seq = svc.journal().next_seq().saturating_sub(1);
    let response = svc.handle(request);
    check_response(&response)?;
    let mut after = business(svc);
    if response.status == 409 {
        // A business refusal (code -1), like those answered with a 200:
        // it reached the payment service and took its time, no more.
        after.now = before.now;
    }
    if response.status >= 400 && after != before {
        return Err(format!(
            "a {} changed the state: {:?}",
            response.status, response.body
        ));
    }
    let written: Vec<LogRecord> = svc.logs(Some(last_seq));
    safe_json(&written, "logs")?;
    let seed = svc.settings().seed;
    if after.events > before.events && seed % 4 == 0 {
        // The events it made, readable; in a quarter of the services, as
        // reading them turns webhooks on (their snapshots keep them).
        let last = (before.events > 0).then(|| event_id(seed, before.events - 1));
        let made = svc
            .events_json(last.as_deref())
            .map_err(|e| e.to_string())?;
        let made: Value = serde_json::from_str(&made).map_err(|e| e.to_string())?;
        safe_json(&made, "events")?;
    }
    Ok(response)
}

fn expect(svc: &mut Service, request: RawRequest, code: i32, msg: &str) -> Result<Value, String> {
    let what = format!("{} {:?}", request.method, request.path);
    let response = step(svc, request)?;
    if response.body.code != code || (code != 0 && response.body.msg != msg) {
        return Err(format!(
            "{what}: expected {code} {msg}, got {:?}",
            response.body
        ));
    }
    serde_json::to_value(&response.body.data).map_err(|e| e.to_string())
}

fn post_json(path: &str, body: &Value) -> RawRequest {
    RawRequest::new("POST", path)
        .with_header("Content-Type", "application/json")
        .with_body(&body.to_string())
}

fn text_of(value: &Value, field: &str) -> Result<String, String> {
    value[field]
        .as_str()
        .map(str::to_owned)
        .ok_or_else(|| format!("no {field} in {value}"))
}

/// A service that can answer: every read and export representable, its
/// own snapshot restorable, and every route answered as the spec says,
/// through a whole order and payment life cycle.
pub fn answers_every_route(svc: &mut Service) -> Result<(), String> {
    reads_and_restores_itself(svc)?;
    if svc.orders().len() >= svc.settings().max_orders {
        return refuses_only_creating_when_full(svc);
    }
    let order_id = creates_and_reads_an_order(svc)?;
    let (payment, payment_id) = pays_the_order(svc, &order_id)?;
    reads_and_refunds_the_payment(svc, &payment, &payment_id)?;
    answers_unknown_ids_a_batch_and_bad_input(svc)?;
    safe_json(&svc.spans(), "spans")?;
    safe_json(&svc.export_otlp(), "exportOtlp")
}

/// Every read and export is representable, and its own snapshot restores.
fn reads_and_restores_itself(svc: &mut Service) -> Result<(), String> {
    safe_json(&svc.logs(None), "logs")?;
    safe_json(&svc.spans(), "spans")?;
    safe_json(&svc.export_otlp(), "exportOtlp")?;
    safe_json(svc.settings(), "settings")?;
    let _ = svc.export_ndjson();
    Service::restore(
        &svc.snapshot(),
        Box::new(orderpay::sim::clock::VirtualClock::starting_at(0)),
    )
    .map_err(|e| format!("its own snapshot is refused: {e}"))?;
    Ok(())
}

/// Full, by its own settings: creating is refused, nothing else.
fn refuses_only_creating_when_full(svc: &mut Service) -> Result<(), String> {
    let full = step(
        svc,
        post_json("/api/order/create", &json!({"userId": "u", "price": 1})),
    )?;
    if full.status != 507 || !full.body.msg.starts_with("maxOrders: ") {
        return Err(format!(
            "a full service answered a create with {:?}",
            full.body
        ));
    }
    expect(
        svc,
        RawRequest::new("GET", "/api/order/ORD-NOPE0000"),
        -1,
        "Order not found",
    )?;
    Ok(())
}

/// An order is created and read back as created; its id.
fn creates_and_reads_an_order(svc: &mut Service) -> Result<String, String> {
    let order = expect(
        svc,
        post_json(
            "/api/order/create",
            &json!({"userId": "check", "price": 12.5, "description": "restored"}),
        ),
        0,
        "success",
    )?;
    let order_id = text_of(&order, "orderId")?;
    let got = expect(
        svc,
        RawRequest::new("GET", &format!("/api/order/{order_id}")),
        0,
        "success",
    )?;
    if got != order || order["status"] != "CREATED" {
        return Err(format!("get answered {got}, created {order}"));
    }
    Ok(order_id)
}

/// The order is paid after a failed attempt, marked paid once, and can
/// no longer be deleted; the payment and its id.
fn pays_the_order(svc: &mut Service, order_id: &str) -> Result<(Value, String), String> {
    let pay = json!({"orderId": order_id, "amount": 12.5, "paymentMethod": "CARD"});
    expect(
        svc,
        post_json("/api/payment/pay", &pay).with_header("X-Sim-Outcome", "failure"),
        -1,
        "Third party payment failed",
    )?;
    let payment = expect(
        svc,
        post_json("/api/payment/pay", &pay).with_header("X-Sim-Outcome", "success"),
        0,
        "success",
    )?;
    let payment_id = text_of(&payment, "paymentId")?;
    let order_path = format!("/api/order/{order_id}/pay");
    expect(svc, RawRequest::new("POST", &order_path), 0, "success")?;
    expect(
        svc,
        RawRequest::new("POST", &order_path),
        -1,
        "Order already paid",
    )?;
    expect(
        svc,
        RawRequest::new("POST", &format!("/api/order/delete/{order_id}")),
        -1,
        "Paid order cannot be deleted",
    )?;
    Ok((payment, payment_id))
}

/// The payment reads back as paid, and is refunded once.
fn reads_and_refunds_the_payment(
    svc: &mut Service,
    payment: &Value,
    payment_id: &str,
) -> Result<(), String> {
    let payment_path = format!("/api/payment/{payment_id}");
    let got = expect(svc, RawRequest::new("GET", &payment_path), 0, "success")?;
    if got != *payment {
        return Err(format!("get payment answered {got}, paid {payment}"));
    }
    let refund = format!("/api/payment/refund/{payment_id}");
    expect(svc, RawRequest::new("POST", &refund), 0, "success")?;
    expect(
        svc,
        RawRequest::new("POST", &refund),
        -1,
        "Only success payment can be refunded",
    )?;
    Ok(())
}

/// Unknown ids are not found, a batch is made, and a body without its
/// userId is a 400.
fn answers_unknown_ids_a_batch_and_bad_input(svc: &mut Service) -> Result<(), String> {
    expect(
        svc,
        RawRequest::new("GET", "/api/order/ORD-NOPE0000"),
        -1,
        "Order not found",
    )?;
    expect(
        svc,
        RawRequest::new("GET", "/api/payment/PAY-NOPE0000"),
        -1,
        "Payment not found",
    )?;
    let batch = expect(
        svc,
        RawRequest::new("GET", "/api/test/order/batch?count=2"),
        0,
        "success",
    )?;
    if batch["count"] != 2 {
        return Err(format!("batch answered {batch}"));
    }
    let bad = step(svc, post_json("/api/order/create", &json!({"price": 1})))?;
    if bad.status != 400 {
        return Err(format!("a body without userId got {:?}", bad.body));
    }
    Ok(())
}
