//! `Idempotency-Key` (docs/idempotency.md): the first request with a key
//! runs and its answer is kept; the same request again replays it and
//! runs nothing; the key with another request is a 400; 4xx answers are
//! not kept; keys expire 24 hours of the service's clock after first use;
//! past `idempotencyKeys` a new key is a 507; keys live in snapshots.

mod common;

use common::*;
use orderpay::sim::clock::VirtualClock;
use orderpay::sim::third_party::Forced;
use orderpay::{RawRequest, Response, Service, Settings};
use serde_json::{json, Value};

const DAY_MS: i64 = 24 * 60 * 60 * 1000;

fn keyed(request: RawRequest, key: &str) -> RawRequest {
    request.with_header("Idempotency-Key", key)
}

fn pay(order_id: &str, key: &str) -> RawRequest {
    keyed(pay_request(order_id, 10.5, "CARD"), key)
}

fn replayed(response: &Response) -> Option<&str> {
    response.header("idempotent-replayed")
}

fn msg(response: &Response) -> String {
    response.body.msg.clone()
}

/// Orders, payments and payment attempts: what a request that runs changes.
fn state(svc: &Service) -> (usize, usize, String) {
    let snapshot: Value = serde_json::from_str(&svc.snapshot()).expect("snapshot");
    let attempts = snapshot["payments"]["attempts"].to_string();
    (svc.orders().len(), svc.payments().len(), attempts)
}

fn records_of(svc: &Service, trace: &str) -> Vec<Value> {
    logs_json(svc)
        .into_iter()
        .filter(|r| r["traceId"] == trace)
        .collect()
}

fn restore(text: &str) -> Service {
    Service::restore(text, Box::new(VirtualClock::starting_at(T0))).expect("restores")
}

#[test]
fn the_first_request_runs_and_the_same_one_again_replays_it_running_nothing() {
    let mut svc = always_approves(7);
    let order = create_order_id(&mut svc);
    let first = svc.handle(pay(&order, "pay-1"));
    assert_eq!((first.status, first.body.code), (200, 0));
    assert_eq!(replayed(&first), None);
    let before = state(&svc);
    let now = svc.now();
    // The draw would approve again: a declining forceNext shows none is made.
    svc.force_next(Forced::Failure, 1);
    let again = svc.handle(pay(&order, "pay-1"));
    assert_eq!(replayed(&again), Some("true"));
    assert_eq!((again.status, body(&again)), (200, body(&first)));
    assert_eq!(state(&svc), before, "no second payment, no attempt counted");
    assert_eq!(svc.now(), now, "no simulated time spent");
    assert_eq!(
        svc.forced_next(),
        Some((Forced::Failure, 1)),
        "no outcome used"
    );
    assert_ne!(trace_of(&again), trace_of(&first), "a request of its own");
    let records = records_of(&svc, &trace_of(&again));
    let stages: Vec<&str> = records
        .iter()
        .map(|r| r["stage"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(stages, ["gateway", "response"], "no service record");
    assert_eq!(records[1]["replay"], true);
    assert_eq!(records[1]["httpStatus"], 200);
    let first_response = records_of(&svc, &trace_of(&first)).pop().expect("response");
    assert_eq!(first_response.get("replay"), None, "only replays say so");
    let spans: Value = serde_json::from_str(&svc.spans_json()).expect("spans");
    let spans_of_replay = spans
        .as_array()
        .expect("array")
        .iter()
        .filter(|s| s["traceId"] == trace_of(&again).as_str())
        .count();
    assert_eq!(
        spans_of_replay, 1,
        "the gateway's span only: no third party"
    );
}

#[test]
fn an_order_create_replays_the_order_as_it_was_made() {
    let mut svc = always_approves(8);
    let create = || keyed(create_request("u-1", 12.0, "mug"), "create-1");
    let first = svc.handle(create());
    let order = data(&first)["orderId"].as_str().expect("id").to_owned();
    svc.handle(post(&format!("/api/order/{order}/pay")));
    let again = svc.handle(create());
    assert_eq!(replayed(&again), Some("true"));
    assert_eq!(
        data(&again)["status"],
        "CREATED",
        "the answer kept, not the order now"
    );
    assert_eq!(body(&again), body(&first));
    assert_eq!(svc.orders().len(), 1);
}

#[test]
fn a_decline_is_kept_and_replayed_without_a_second_draw() {
    let mut svc = always_declines(9);
    let order = create_order_id(&mut svc);
    let first = svc.handle(pay(&order, "k-decline"));
    assert_eq!(body(&first), business_error("Third party payment failed"));
    svc.force_next(Forced::Success, 1);
    let before = state(&svc);
    let again = svc.handle(pay(&order, "k-decline"));
    assert_eq!(replayed(&again), Some("true"));
    assert_eq!(body(&again), business_error("Third party payment failed"));
    assert_eq!(state(&svc), before);
    let last = logs_json(&svc).pop().expect("response record");
    assert_eq!(
        (last["status"].clone(), last["replay"].clone()),
        (json!("server_error"), json!(true))
    );
    // Another key is another payment: it runs, and the forced outcome applies.
    let other = svc.handle(pay(&order, "k-other"));
    assert_eq!((other.body.code, replayed(&other)), (0, None));
}

#[test]
fn the_key_with_another_path_or_body_is_a_400_naming_it_and_changes_nothing() {
    let mut svc = always_approves(10);
    let order = create_order_id(&mut svc);
    let first = svc.handle(pay(&order, "k-1"));
    let before = state(&svc);
    let other_body = svc.handle(keyed(pay_request(&order, 99.0, "CARD"), "k-1"));
    assert_eq!((other_body.status, other_body.body.code), (400, 400));
    assert_eq!(
        msg(&other_body),
        "Idempotency-Key: \"k-1\" was first used with another body; use a new key for another request"
    );
    let other_path = svc.handle(keyed(create_request("u-1", 3.0, "x"), "k-1"));
    assert_eq!(other_path.status, 400);
    assert_eq!(
        msg(&other_path),
        "Idempotency-Key: \"k-1\" was first used with path /api/payment/pay, not /api/order/create; \
         use a new key for another request"
    );
    let other_route = svc.handle(keyed(post(&format!("/api/order/{order}/pay")), "k-1"));
    assert_eq!(other_route.status, 400);
    assert_eq!(state(&svc), before, "nothing ran");
    for refused in [&other_body, &other_path, &other_route] {
        assert_eq!(replayed(refused), None);
    }
    let again = svc.handle(pay(&order, "k-1"));
    assert_eq!(
        (replayed(&again), body(&again)),
        (Some("true"), body(&first)),
        "still kept"
    );
}

#[test]
fn other_methods_ignore_the_key() {
    let mut svc = always_approves(11);
    let order = create_order_id(&mut svc);
    let read = svc.handle(keyed(get(&format!("/api/order/{order}")), "k-get"));
    assert_eq!((read.status, replayed(&read)), (200, None));
    let read_bad = svc.handle(keyed(get(&format!("/api/order/{order}")), "bad\u{1}key"));
    assert_eq!(read_bad.status, 200, "not even checked");
    // Nothing was kept under it: a POST with the key runs.
    let paid = svc.handle(pay(&order, "k-get"));
    assert_eq!((paid.body.code, replayed(&paid)), (0, None));
}

#[test]
fn a_refused_request_is_not_kept_and_can_be_retried_with_its_key() {
    let mut svc = always_approves(12);
    let order = create_order_id(&mut svc);
    let bad = svc.handle(keyed(pay_request(&order, 10.5, "BITCOIN"), "k-retry"));
    assert_eq!(bad.status, 400);
    let bad_again = svc.handle(keyed(pay_request(&order, 10.5, "BITCOIN"), "k-retry"));
    assert_eq!(
        (bad_again.status, replayed(&bad_again)),
        (400, None),
        "ran again"
    );
    let fixed = svc.handle(pay(&order, "k-retry"));
    assert_eq!(
        (fixed.status, fixed.body.code, replayed(&fixed)),
        (200, 0, None)
    );
    assert_eq!(svc.payments().len(), 1);
    let again = svc.handle(pay(&order, "k-retry"));
    assert_eq!(replayed(&again), Some("true"));
    // A 507 past maxOrders ran nothing either: not kept.
    let mut settings = Settings::with_seed(1);
    settings.max_orders = 0;
    let mut full = service_with(settings);
    let refused = full.handle(keyed(create_request("u", 1.0, "d"), "k-full"));
    assert_eq!(refused.status, 507);
    let refused_again = full.handle(keyed(create_request("u", 1.0, "d"), "k-full"));
    assert_eq!(
        (refused_again.status, replayed(&refused_again)),
        (507, None)
    );
}

#[test]
fn keys_expire_24_hours_of_the_service_clock_after_first_use() {
    let mut svc = always_approves(13);
    let order = create_order_id(&mut svc);
    let first_used = svc.now();
    let first = svc.handle(pay(&order, "k-day"));
    let elapsed = svc.now() - first_used;
    svc.advance((DAY_MS - 1 - elapsed) as u64);
    let within = svc.handle(pay(&order, "k-day"));
    assert_eq!(
        (replayed(&within), body(&within)),
        (Some("true"), body(&first))
    );
    svc.advance(1);
    let after = svc.handle(pay(&order, "k-day"));
    assert_eq!((after.body.code, replayed(&after)), (0, None), "runs again");
    assert_ne!(body(&after), body(&first), "a second payment");
    assert_eq!(svc.payments().len(), 2);
}

#[test]
fn past_the_bound_a_new_key_is_a_507_naming_idempotency_keys_until_keys_expire() {
    let mut settings = Settings::with_seed(14);
    settings.failure_rate = 0.0;
    settings.idempotency_keys = 2;
    let mut svc = service_with(settings);
    let order = create_order_id(&mut svc);
    let started = svc.now();
    svc.handle(pay(&order, "k-a"));
    svc.handle(pay(&order, "k-b"));
    let before = state(&svc);
    let full = svc.handle(pay(&order, "k-c"));
    assert_eq!((full.status, full.body.code), (507, 507));
    assert!(
        msg(&full).starts_with("idempotencyKeys: the service already keeps 2 idempotency keys"),
        "{}",
        msg(&full)
    );
    assert_eq!(state(&svc), before, "nothing ran");
    let kept = svc.handle(pay(&order, "k-a"));
    assert_eq!(replayed(&kept), Some("true"), "kept keys still replay");
    let without = svc.handle(pay_request(&order, 10.5, "CARD"));
    assert_eq!(without.body.code, 0, "requests without a key still run");
    let elapsed = svc.now() - started;
    svc.advance((DAY_MS - elapsed) as u64);
    let room = svc.handle(pay(&order, "k-c"));
    assert_eq!(
        (room.status, room.body.code, replayed(&room)),
        (200, 0, None)
    );
}

#[test]
fn a_key_is_1_to_255_printable_ascii_characters() {
    let mut svc = always_approves(15);
    let order = create_order_id(&mut svc);
    let ok = svc.handle(pay(&order, &"~".repeat(255)));
    assert_eq!((ok.status, ok.body.code), (200, 0));
    let cases = [
        ("k".repeat(256), "must be at most 255 characters, got 256"),
        ("a\u{1}b".to_owned(), "got a control character at byte 1"),
        ("a\u{7f}".to_owned(), "got a control character at byte 1"),
        ("clé".to_owned(), "got a non-ASCII character at byte 2"),
        (String::new(), "got an empty key"),
    ];
    let before = state(&svc);
    for (key, problem) in cases {
        let refused = svc.handle(pay(&order, &key));
        assert_eq!((refused.status, refused.body.code), (400, 400), "{key:?}");
        let text = msg(&refused);
        assert!(
            text.starts_with("Idempotency-Key: ") && text.ends_with(problem),
            "{text}"
        );
    }
    assert_eq!(state(&svc), before);
}

/// The same calls on two services: their answers, byte for byte.
fn run_on(svc: &mut Service, order: &str) -> Vec<String> {
    let calls = [
        pay(order, "k-1"),
        pay(order, "k-2"),
        pay(order, "k-new"),
        keyed(pay_request(order, 1.0, "CARD"), "k-1"),
        pay_request(order, 10.5, "WALLET_A"),
    ];
    let mut answers: Vec<String> = calls.into_iter().map(|r| svc.handle(r).to_json()).collect();
    svc.advance(DAY_MS as u64);
    answers.push(svc.handle(pay(order, "k-1")).to_json());
    answers.push(svc.snapshot());
    answers
}

#[test]
fn keys_are_in_snapshots_and_a_restore_continues_identically() {
    let mut svc = exact_service(16, 0.5);
    let order = create_order_id(&mut svc);
    let plain: Value = serde_json::from_str(&svc.snapshot()).expect("snapshot");
    assert_eq!(
        plain.get("idempotency"),
        None,
        "written only when keys exist"
    );
    assert_eq!(
        plain["settings"].get("idempotencyKeys"),
        None,
        "the default is not written"
    );
    svc.handle(pay(&order, "k-1"));
    svc.handle(pay(&order, "k-2"));
    let text = svc.snapshot();
    let snapshot: Value = serde_json::from_str(&text).expect("snapshot");
    let kept = &snapshot["idempotency"]["k-1"];
    assert_eq!(
        (kept["method"].clone(), kept["path"].clone()),
        (json!("POST"), json!("/api/payment/pay"))
    );
    let mut restored = restore(&text);
    assert_eq!(restored.snapshot(), text, "read back to the byte");
    assert_eq!(run_on(&mut restored, &order), run_on(&mut svc, &order));
}

/// A snapshot that keeps one answer, under "k-1".
fn snapshot_with_a_key() -> Value {
    let mut svc = always_approves(17);
    let order = create_order_id(&mut svc);
    svc.handle(pay(&order, "k-1"));
    serde_json::from_str(&svc.snapshot()).expect("snapshot")
}

fn refusal_of(snapshot: &Value) -> String {
    let clock = Box::new(VirtualClock::starting_at(T0));
    Service::restore(&snapshot.to_string(), clock)
        .err()
        .map(|e| e.msg)
        .unwrap_or_default()
}

#[test]
fn damaged_keys_in_a_snapshot_are_refused_naming_the_path() {
    let good = snapshot_with_a_key();
    let cases = [
        ("status", json!(400), "status: must be from 200 to 299"),
        ("body", json!("xyz"), "body: must be 16 hex digits"),
        ("method", json!("GET"), "method: must be POST"),
        ("firstUsed", json!("soon"), "firstUsed: invalid type"),
        (
            "firstUsed",
            json!(i64::MAX),
            "firstUsed: must be a whole number of milliseconds",
        ),
        ("data", json!(3), "data: invalid type"),
        (
            "data",
            json!("{\"paymentId\":"),
            "data: must be the JSON text of an object",
        ),
        ("path", json!(null), "path: invalid type"),
        ("code", json!(10_000_000_000_i64), "code: too large"),
        ("msg", json!(false), "msg: invalid type"),
    ];
    for (field, value, refusal) in cases {
        let mut damaged = good.clone();
        damaged["idempotency"]["k-1"][field] = value;
        let error = refusal_of(&damaged);
        let at = "snapshot.idempotency[\"k-1\"].";
        assert!(
            error.starts_with(&format!("{at}{refusal}")),
            "{field}: {error}"
        );
    }
}

#[test]
fn a_snapshot_with_a_bad_key_or_more_keys_than_its_bound_is_refused() {
    let good = snapshot_with_a_key();
    let mut bad_key = good.clone();
    let entry = bad_key["idempotency"]["k-1"].take();
    bad_key["idempotency"] = json!({ "clé": entry });
    let error = refusal_of(&bad_key);
    assert!(
        error.starts_with("snapshot.idempotency[\"clé\"]: "),
        "{error}"
    );
    let mut too_many = good.clone();
    too_many["settings"]["idempotencyKeys"] = json!(0);
    let error = refusal_of(&too_many);
    let want = "snapshot.settings.idempotencyKeys: must be at least the 1 idempotency keys";
    assert!(error.starts_with(want), "{error}");
    let mut past_max = good;
    past_max["settings"]["idempotencyKeys"] = json!(1_000_001);
    let error = refusal_of(&past_max);
    assert!(
        error.starts_with("snapshot.settings.idempotencyKeys: must be at most 1000000"),
        "{error}"
    );
}

#[test]
fn the_option_is_bounded_and_named() {
    let mut settings = Settings::with_seed(1);
    settings.idempotency_keys = 1_000_001;
    let refused = Service::new(settings, Box::new(VirtualClock::starting_at(T0))).err();
    assert_eq!(
        refused.as_deref(),
        Some("idempotencyKeys: must be at most 1000000, got 1000001")
    );
}

/// A scenario whose rule gives `then` to the first payment only.
fn first_payment(then: Value) -> String {
    json!({"rules": [{"when": {"route": "/api/payment/pay", "nth": 1}, "then": then}]}).to_string()
}

#[test]
fn an_unknown_outcome_is_not_kept_a_scenario_decline_is() {
    for (then, kept) in [
        (json!({"kind": "timeout", "afterMs": 1000}), false),
        (json!({"kind": "processor_error", "status": 503}), false),
        (
            json!({"kind": "decline", "code": "insufficient_funds"}),
            true,
        ),
    ] {
        let mut svc = always_approves(18);
        let order = create_order_id(&mut svc);
        svc.set_scenario(Some(&first_payment(then.clone())))
            .expect("a scenario");
        let first = svc.handle(pay(&order, "k-scenario"));
        assert_eq!(body(&first), business_error("Third party payment failed"));
        let retry = svc.handle(pay(&order, "k-scenario"));
        assert_eq!(replayed(&retry).is_some(), kept, "{then}");
        let code = if kept { -1 } else { 0 };
        assert_eq!(retry.body.code, code, "{then}: the retry ran when not kept");
    }
}

#[test]
fn a_gateway_failure_is_not_kept() {
    let mut svc = always_approves(19);
    let order = create_order_id(&mut svc);
    let rule = json!({"rules": [{"when": {"route": "/api/payment/pay", "nth": 1},
        "then": {"kind": "http", "status": 503}}]});
    svc.set_scenario(Some(&rule.to_string()))
        .expect("a scenario");
    assert_eq!(svc.handle(pay(&order, "k-503")).status, 503);
    let retry = svc.handle(pay(&order, "k-503"));
    assert_eq!(
        (retry.status, retry.body.code, replayed(&retry)),
        (200, 0, None)
    );
}

#[test]
fn a_replay_is_marked_on_its_gateway_span_and_counted_and_a_restore_keeps_both() {
    let mut svc = always_approves(7);
    let order = create_order_id(&mut svc);
    svc.handle(pay(&order, "pay-1"));
    let counters = || -> Value { serde_json::from_str(&svc.counters_json()).expect("JSON") };
    assert!(counters().get("replays").is_none(), "none before a replay");
    assert!(!svc.spans_json().contains("orderpay.replay"));
    let again = svc.handle(pay(&order, "pay-1"));
    let again_too = svc.handle(pay(&order, "pay-1"));
    let counters: Value = serde_json::from_str(&svc.counters_json()).expect("JSON");
    assert_eq!(counters["replays"], json!(2));
    assert!(counters.get("faults").is_none());
    let spans: Value = serde_json::from_str(&svc.spans_json()).expect("JSON");
    for r in [&again, &again_too] {
        let id = r.header("x-b3-spanid").expect("a span");
        let span = spans
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["spanId"] == id)
            .expect("the gateway span");
        let attributes = span["attributes"].as_array().unwrap();
        assert_eq!(attributes.last(), Some(&json!(["orderpay.replay", true])));
    }
    let restored = restore(&svc.snapshot());
    assert_eq!(restored.counters_json(), svc.counters_json());
    assert_eq!(restored.spans_json(), svc.spans_json());
    assert_eq!(restored.export_otlp_json(), svc.export_otlp_json());
}
