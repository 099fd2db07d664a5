//! Damaged snapshots: every field of a snapshot that has every kind of
//! record in it is changed to out-of-range, wrong-type and missing values,
//! one at a time. Each is refused with the field named, or else gives a
//! service that answers every route correctly: none is accepted and then
//! broken. And the clock: no time a JS Date cannot hold gets in.

mod common;
mod properties;

use orderpay::sim::clock::VirtualClock;
use orderpay::sim::invalid::{Invalid, InvalidKind};
use orderpay::sim::third_party::Forced;
use orderpay::sim::time_limits::{MAX_TIME_MS, MIN_TIME_MS};
use orderpay::{RawRequest, Service, Settings};
use serde_json::{json, Value};

const T0: i64 = 1_700_000_000_000;

fn restore(text: &str) -> Result<Service, Invalid> {
    Service::restore(text, Box::new(VirtualClock::starting_at(T0)))
}

/// A service whose snapshot holds one of everything: live, paid, deleted
/// and refunded orders and payments, declined attempts, records of every
/// stage (an outcome, a caller's parent span, a user id), spans with
/// attributes, dropped records, a pending forceNext, a virtual clock,
/// answers kept by `Idempotency-Key` (a decline and a payment), events, a
/// URL and a handler endpoint, deliveries and their attempts (one failed,
/// its retry pending; the rest delivered) with their records and spans.
fn rich_snapshot() -> String {
    let mut settings = Settings::with_seed(11);
    settings.log_capacity = 15;
    let mut svc = Service::new(settings, Box::new(VirtualClock::starting_at(T0)))
        .unwrap_or_else(|e| panic!("{e}"));
    let send = |svc: &mut Service, request: RawRequest| {
        properties::step(svc, request).unwrap_or_else(|e| panic!("{e}"))
    };
    let json_post = |path: &str, body: Value| {
        RawRequest::new("POST", path)
            .with_header("Content-Type", "application/json")
            .with_header("X-User-Id", "u-7")
            .with_header("X-B3-TraceId", "463ac35c9f6413ad")
            .with_header("X-B3-SpanId", "00f067aa0ba902b7")
            .with_body(&body.to_string())
    };
    add_endpoints(&mut svc);
    let mut ids = Vec::new();
    for price in [9.5, 20.0] {
        let created = send(
            &mut svc,
            json_post(
                "/api/order/create",
                json!({"userId": "u-7", "price": price, "description": "two teas"}),
            ),
        );
        let data = serde_json::to_value(&created.body.data).unwrap_or_default();
        ids.push(data["orderId"].as_str().unwrap_or_default().to_owned());
    }
    send(
        &mut svc,
        RawRequest::new("GET", "/api/test/order/batch?count=1"),
    );
    send(
        &mut svc,
        RawRequest::new("POST", &format!("/api/order/delete/{}", ids[1])),
    );
    let pay = json!({"orderId": ids[0], "amount": 9.5, "paymentMethod": "WALLET_B"});
    let pay = |outcome: &str| {
        let request = json_post("/api/payment/pay", pay.clone());
        let key = format!("k-{outcome}");
        request
            .with_header("X-Sim-Outcome", outcome)
            .with_header("Idempotency-Key", &key)
    };
    send(&mut svc, pay("failure"));
    let paid = send(&mut svc, pay("success"));
    let payment = serde_json::to_value(&paid.body.data).unwrap_or_default();
    let payment_id = payment["paymentId"].as_str().unwrap_or_default();
    send(
        &mut svc,
        RawRequest::new("POST", &format!("/api/order/{}/pay", ids[0])),
    );
    send(
        &mut svc,
        RawRequest::new("POST", &format!("/api/payment/refund/{payment_id}")),
    );
    send(&mut svc, RawRequest::new("GET", "/api/ordr/x"));
    deliver(&mut svc);
    svc.force_next(Forced::Failure, 2);
    svc.snapshot()
}

/// A URL endpoint for orders created and a handler for refunds.
fn add_endpoints(svc: &mut Service) {
    for spec in [
        r#"{"url":"http://127.0.0.1:9/h","events":["order.created"]}"#,
        r#"{"handler":true,"events":["payment.refunded"],"header":"Stripe-Signature"}"#,
    ] {
        svc.add_webhook(spec).unwrap_or_else(|e| panic!("{e}"));
    }
}

/// The attempts due, the first answered 500 (its retry pending), the rest 204.
fn deliver(svc: &mut Service) {
    let due: Vec<Value> = serde_json::from_str(&svc.take_due()).unwrap_or_default();
    for (i, attempt) in due.iter().enumerate() {
        let (status, error) = if i == 0 {
            (500, "Internal Server Error")
        } else {
            (204, "")
        };
        let id = attempt["delivery"].as_str().unwrap_or_default();
        let n = attempt["n"].as_u64().unwrap_or(0) as u32;
        svc.report_attempt(id, n, status, 9, error)
            .unwrap_or_else(|e| panic!("{e}"));
    }
}

/// Every place in a JSON value, as a list of steps from the root.
#[derive(Clone, Debug)]
enum Step {
    Key(String),
    Index(usize),
}

fn places(value: &Value, here: Vec<Step>, out: &mut Vec<Vec<Step>>) {
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                let mut at = here.clone();
                at.push(Step::Key(key.clone()));
                places(child, at.clone(), out);
                out.push(at);
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                let mut at = here.clone();
                at.push(Step::Index(i));
                places(child, at.clone(), out);
                out.push(at);
            }
        }
        _ => {}
    }
}

/// A place with the index of a record or span replaced by what kind of
/// record or span it is.
fn kind_of(root: &Value, place: &[Step]) -> String {
    let mut node = root;
    let mut out = String::new();
    for (depth, step) in place.iter().enumerate() {
        match step {
            Step::Key(k) => {
                out.push('.');
                out.push_str(k);
                node = &node[k.as_str()];
            }
            Step::Index(i) => {
                node = &node[*i];
                let in_journal = depth == 2 && matches!(&place[0], Step::Key(k) if k == "journal");
                if in_journal && depth + 1 < place.len() {
                    let kind = [
                        "stage",
                        "component",
                        "outcome",
                        "parentSpanId",
                        "userId",
                        "event_class",
                    ]
                    .map(|f| match &node[f] {
                        Value::Null => "-".to_owned(),
                        Value::String(s) => s.clone(),
                        _ => "+".to_owned(),
                    });
                    out.push_str(&format!("[{}]", kind.join(",")));
                } else {
                    out.push_str(&format!("[{i}]"));
                }
            }
        }
    }
    out
}

/// The value with the place replaced (`Some`) or removed (`None`).
fn changed(root: &Value, place: &[Step], with: Option<&Value>) -> Value {
    let mut copy = root.clone();
    let Some((last, parents)) = place.split_last() else {
        return copy;
    };
    let mut node = &mut copy;
    for step in parents {
        node = match step {
            Step::Key(k) => &mut node[k.as_str()],
            Step::Index(i) => &mut node[*i],
        };
    }
    match (last, with, node) {
        (Step::Key(k), Some(v), Value::Object(map)) => {
            map.insert(k.clone(), v.clone());
        }
        (Step::Key(k), None, Value::Object(map)) => {
            map.remove(k);
        }
        (Step::Index(i), Some(v), Value::Array(items)) => items[*i] = v.clone(),
        (Step::Index(i), None, Value::Array(items)) => {
            items.remove(*i);
        }
        _ => {}
    }
    copy
}

/// Out-of-range and wrong-type values for any field.
fn replacements() -> Vec<Value> {
    let mut values = vec![
        Value::Null,
        json!(true),
        json!(""),
        json!("x"),
        json!("ORD-BAD"),
        json!("a".repeat(2000)),
        json!("\u{0}"),
        json!([]),
        json!({}),
        json!(0),
        json!(-1),
        json!(1.5),
        json!(1e300),
        json!(-1e300),
        json!(9_007_199_254_740_992u64),
        json!(u64::MAX),
        json!(u32::MAX),
        json!(i64::MIN),
        json!(MAX_TIME_MS + 1),
    ];
    values.extend([json!(-9_223_372_036_854_775_801i64), json!(0.0)]);
    values
}

#[test]
fn every_field_damaged_is_refused_or_answers_every_route() {
    let snapshot = rich_snapshot();
    let root: Value = serde_json::from_str(&snapshot).unwrap_or_default();
    let mut all = Vec::new();
    places(&root, Vec::new(), &mut all);
    // Records and spans of the same kind hold the same fields: damage
    // every field of the first of each kind, and remove every one.
    let mut seen = std::collections::BTreeSet::new();
    all.retain(|place| seen.insert(kind_of(&root, place)));
    assert!(all.len() > 250, "only {} places", all.len());
    eprintln!("{} places", all.len());
    let (mut refused, mut accepted, mut broken) = (0, 0, Vec::new());
    let values = replacements();
    for place in &all {
        let variants = std::iter::once(None).chain(values.iter().map(Some));
        for with in variants {
            let text = changed(&root, place, with).to_string();
            match restore(&text) {
                Err(e) => {
                    refused += 1;
                    assert!(e.msg.starts_with("snapshot") && e.msg.contains(": "), "{e}");
                }
                Ok(mut svc) => {
                    accepted += 1;
                    if let Err(why) = properties::answers_every_route(&mut svc) {
                        broken.push(format!("{place:?} = {with:?}: {why}"));
                    }
                }
            }
        }
    }
    eprintln!(
        "{} damaged snapshots: {refused} refused, {accepted} accepted, {} accepted then broken",
        refused + accepted,
        broken.len()
    );
    assert!(broken.is_empty(), "{}", broken.join("\n"));
    assert!(refused > accepted, "{refused} refused, {accepted} accepted");
}

fn refusal(snapshot: &str, from: &str, to: &str) -> Invalid {
    assert!(snapshot.contains(from), "{from} is not in the snapshot");
    restore(&snapshot.replacen(from, to, 1))
        .err()
        .unwrap_or_else(|| panic!("{from} -> {to} was accepted"))
}

/// Damages of the rich snapshot and the refusal each gets: the text
/// replaced, what replaces it, the start of the message and its kind.
const FIRST_BAD_FIELDS: [(&str, &str, &str, InvalidKind); 7] = [
    (
        "\"clock\":",
        "\"clock\":-9223372036854775801,\"x\":",
        "snapshot.clock: must be a whole number of milliseconds from -8640000000000000 to 8640000000000000 (the range of a JS Date), got -9223372036854775801",
        InvalidKind::OutOfRange,
    ),
    (
        "\"next_seq\":",
        "\"next_seq\":18446744073709551615,\"x\":",
        "snapshot.journal.next_seq: must be a whole number from 1 to 9007199254740991, got 18446744073709551615",
        InvalidKind::OutOfRange,
    ),
    (
        "\"seed\":11",
        "\"seed\":\"11\"",
        "snapshot.settings.seed: invalid type: string \"11\", expected a whole number",
        InvalidKind::WrongType,
    ),
    (
        "\"format\":1",
        "\"format\":2",
        "snapshot.format: format 2 is not the supported 1",
        InvalidKind::OutOfRange,
    ),
    (
        "\"failureRate\":0.3",
        "\"failureRate\":1.5",
        "snapshot.settings.failureRate: must be a number from 0 to 1, got 1.5",
        InvalidKind::OutOfRange,
    ),
    (
        "\"forced_next\":[\"failure\",2]",
        "\"forced_next\":[\"failure\",0]",
        "snapshot.forced_next: a pending forced outcome must cover at least 1 attempt, got 0",
        InvalidKind::OutOfRange,
    ),
    (
        "\"userId\":\"u-7\",\"price\"",
        "\"userId\":\" \",\"price\"",
        "snapshot.orders.live[",
        InvalidKind::OutOfRange,
    ),
];

#[test]
fn the_first_bad_field_is_named_with_its_path_and_kind() {
    let snapshot = rich_snapshot();
    for (from, to, msg, kind) in FIRST_BAD_FIELDS {
        let e = refusal(&snapshot, from, to);
        assert!(e.msg.starts_with(msg), "{from} -> {to}: {}", e.msg);
        assert_eq!(e.kind, kind, "{}", e.msg);
    }
    let missing = refusal(&snapshot, "\"logCapacity\":15,", "");
    assert_eq!(
        (missing.msg.as_str(), missing.kind),
        (
            "snapshot.settings: missing field `logCapacity`",
            InvalidKind::WrongType
        )
    );
    let not_json = restore("not a snapshot").err().unwrap_or_default();
    assert!(not_json
        .msg
        .starts_with("snapshot: not a snapshot of this service"));
    assert_eq!(not_json.kind, InvalidKind::WrongType);
}

#[test]
fn a_payment_of_an_order_that_never_was_is_refused() {
    let mut root: Value = serde_json::from_str(&rich_snapshot()).unwrap_or_default();
    if let Some(payments) = root["payments"]["by_id"].as_object_mut() {
        for payment in payments.values_mut() {
            payment["orderId"] = json!("ORD-ZZZZZZZZ");
        }
    }
    let e = restore(&root.to_string()).err().unwrap_or_default();
    assert!(e.msg.starts_with("snapshot.payments.by_id[\"PAY-"), "{e}");
    assert!(
        e.msg
            .ends_with(".orderId: \"ORD-ZZZZZZZZ\" is not an order of this snapshot"),
        "{e}"
    );
}

#[test]
fn a_clock_a_js_date_cannot_hold_never_gets_in() {
    let mut svc = Service::new(
        Settings::with_seed(1),
        Box::new(VirtualClock::starting_at(MAX_TIME_MS - 1_000)),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    // advance refuses a move past the end, and the clock stays.
    let e = svc.try_advance(1e300).err().unwrap_or_default();
    assert_eq!(e.kind, InvalidKind::OutOfRange);
    assert!(e.msg.starts_with("ms: must be a whole number"), "{e}");
    let e = svc.try_advance(1_001.0).err().unwrap_or_default();
    assert!(
        e.msg
            .starts_with("ms: advancing by 1001 would move the clock past 8640000000000000"),
        "{e}"
    );
    for bad in [-1.0, 0.5, f64::NAN] {
        assert!(svc.try_advance(bad).is_err(), "{bad}");
    }
    assert_eq!(svc.now(), MAX_TIME_MS - 1_000);
    assert!(svc.try_advance(1_000.0).is_ok());
    assert_eq!(svc.now(), MAX_TIME_MS);
    // At the end of time the clock stops, and every route still answers
    // with numbers a JS number holds.
    properties::answers_every_route(&mut svc).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(svc.now(), MAX_TIME_MS);
    let last = svc.logs(None).last().map(|r| r.timestamp);
    assert_eq!(last, Some(MAX_TIME_MS));
    // Its snapshot restores.
    if let Err(e) = restore(&svc.snapshot()) {
        panic!("{e}");
    }
    // A time before the start is refused in a snapshot too.
    let early = svc.snapshot().replace(
        &format!("\"clock\":{MAX_TIME_MS}"),
        &format!("\"clock\":{}", MIN_TIME_MS - 1),
    );
    let e = restore(&early).err().unwrap_or_default();
    assert!(e.msg.starts_with("snapshot.clock: "), "{e}");
}

#[test]
fn virtual_time_is_checked_where_it_comes_in() {
    use orderpay::sim::time_limits::start_time;
    assert_eq!(start_time("virtualTime", 0.0), Ok(0));
    let e = start_time("virtualTime", 9_007_199_254_740_991.0)
        .err()
        .unwrap_or_default();
    assert_eq!(e.msg, "virtualTime: must be a whole number of milliseconds from -8640000000000000 to 8640000000000000 (the range of a JS Date), got 9007199254740991");
}

/// Every refusal of the damaged snapshots of the test above (each place
/// removed, then given each replacement), one a line as `kind: message`,
/// each message once, sorted.
fn refusals_of_damaged_snapshots() -> String {
    let root: Value = serde_json::from_str(&rich_snapshot()).unwrap_or_default();
    let mut all = Vec::new();
    places(&root, Vec::new(), &mut all);
    let mut seen = std::collections::BTreeSet::new();
    all.retain(|place| seen.insert(kind_of(&root, place)));
    let values = replacements();
    let mut lines = std::collections::BTreeSet::new();
    for place in &all {
        for with in std::iter::once(None).chain(values.iter().map(Some)) {
            if let Err(e) = restore(&changed(&root, place, with).to_string()) {
                lines.insert(format!("{:?}: {}\n", e.kind, e.msg));
            }
        }
    }
    lines.into_iter().collect()
}

/// The messages are part of what users see and match on: each refusal
/// reads byte for byte as it did when they were written with `format!`
/// (`tests/fixtures/refusals.txt`, written by that code; set
/// `ORDERPAY_WRITE_REFUSALS=1` to write it again after a deliberate change).
#[test]
fn every_refusal_reads_as_it_did() {
    common::same_as_fixture(
        &refusals_of_damaged_snapshots(),
        "tests/fixtures/refusals.txt",
        include_str!("fixtures/refusals.txt"),
        1000,
    );
}
