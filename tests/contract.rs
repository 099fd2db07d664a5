//! The documentation's contract, claim by claim: where README.md or a
//! file of docs/ quotes a message, a limit, a default or a range, the
//! value is read out of the documentation and checked against the code
//! (its constants, or the service's answer), so the two cannot drift
//! apart. The decisions on edge cases the documentation states are tested
//! here too.

mod common;

use common::*;
use orderpay::RawRequest;

#[test]
fn traceparent_flags_must_be_two_hex_digits() {
    let mut svc = service(1);
    let parent = "00f067aa0ba902b7";
    let trace = "4bf92f3577b34da6a3ce929d0e0e4736";
    for (flags, honoured) in [
        ("01", true),
        ("00", true),
        ("+1", false),
        ("0x", false),
        ("1", false),
        ("0A", false),
    ] {
        let header = format!("00-{trace}-{parent}-{flags}");
        let response =
            svc.handle(get("/api/order/ORD-NOPE0000").with_header("traceparent", &header));
        assert_eq!(trace_of(&response) == trace, honoured, "flags {flags:?}");
    }
}

#[test]
fn a_duplicate_key_that_is_not_a_plain_word_is_quoted_in_the_msg() {
    let mut svc = service(1);
    let msg = |svc: &mut orderpay::Service, body: &str| {
        svc.handle(post_text("/api/order/create", body)).body.msg
    };
    assert_eq!(
        msg(&mut svc, r#"{"":1,"":2,"userId":"u","price":1}"#),
        r#""": given more than once in the body"#
    );
    assert_eq!(
        msg(&mut svc, r#"{"a: b":1,"a: b":2}"#),
        r#""a: b": given more than once in the body"#
    );
    assert_eq!(
        msg(&mut svc, r#"{"userId":"u","userId":"v","price":1}"#),
        "userId: given more than once in the body"
    );
}

#[test]
fn a_method_that_is_not_letters_only_is_a_400_even_with_only_spaces_around() {
    let mut svc = service(1);
    for method in [" GET", "GET ", "POST\n", "\tGET", "G ET", "GET1", ""] {
        let response = svc.handle(RawRequest::new(method, "/api/order/ORD-NOPE0000"));
        assert_eq!(response.status, 400, "{method:?}");
        assert!(
            response
                .body
                .msg
                .starts_with("method: must be an HTTP method such as GET or POST, got "),
            "{method:?}: {}",
            response.body.msg
        );
    }
    for method in ["get", "Get", "GET"] {
        let response = svc.handle(RawRequest::new(method, "/api/order/ORD-NOPE0000"));
        assert_eq!(response.body.msg, "Order not found", "{method:?}");
    }
}

// --- The documentation, read and checked against the code ---

use orderpay::domain::order::{MAX_DESCRIPTION_CHARS, MAX_USER_ID_CHARS};
use orderpay::gateway::parse::MAX_COUNT;
use orderpay::gateway::request::{
    MAX_BODY_BYTES, MAX_HEADER_BYTES, MAX_HEADER_COUNT, MAX_PATH_BYTES,
};
use orderpay::json::read::MAX_DEPTH as MAX_NESTING;
use orderpay::sim::latency::{LatencyModel, Profile, MAX_STEP_MS};
use orderpay::sim::settings::{DEFAULT_FAILURE_RATE, DEFAULT_LOG_CAPACITY};
use orderpay::sim::time_limits::{MAX_SAFE_INTEGER, MAX_TIME_MS, MIN_TIME_MS};
use serde_json::json;

fn readme() -> String {
    common::docs::docs_text()
}

fn says(docs: &str, claim: &str) {
    assert!(
        docs.contains(claim),
        "neither README.md nor docs/ says: {claim}"
    );
}

#[test]
fn the_limits_and_defaults_it_quotes_are_the_codes() {
    let r = readme();
    says(
        &r,
        &format!("| Body over {} MiB | 413", MAX_BODY_BYTES >> 20),
    );
    says(
        &r,
        &format!(
            "| Path over {} KiB | 414; headers over {} KiB together, or more than {} of them: 431",
            MAX_PATH_BYTES >> 10,
            MAX_HEADER_BYTES >> 10,
            MAX_HEADER_COUNT
        ),
    );
    says(
        &r,
        &format!("required string, 1 to {MAX_USER_ID_CHARS} characters"),
    );
    says(&r, &format!("at most {MAX_DESCRIPTION_CHARS} characters"));
    says(
        &r,
        &format!("required, digits only, 1 to {MAX_COUNT}; else 400"),
    );
    says(
        &r,
        &format!("more than {MAX_NESTING} levels of nesting (the body object is the first)"),
    );
    says(
        &r,
        &format!("`failureRate` (0 to 1, default {DEFAULT_FAILURE_RATE})"),
    );
    says(
        &r,
        &format!("`logCapacity` (default {DEFAULT_LOG_CAPACITY})"),
    );
    says(&r, "`seed` (a whole number up to 2^53 - 1");
    assert_eq!(MAX_SAFE_INTEGER, (1 << 53) - 1);
    says(
        &r,
        &format!("a whole number from {MIN_TIME_MS} to {MAX_TIME_MS}, the range of a JS `Date`"),
    );
    says(&r, &format!("±{MAX_TIME_MS} ms"));
    says(&r, &format!("latencies up to {MAX_STEP_MS} ms"));
    says(
        &r,
        &format!("must be a whole number from 1 to {MAX_SAFE_INTEGER}, got 18446744073709551615"),
    );
}

#[test]
fn the_nesting_limit_it_states_is_where_the_parser_stops() {
    let mut svc = service(1);
    let nested = |levels: usize| {
        let inner = levels - 1;
        format!(
            r#"{{"userId":"u","price":1,"x":{}{}}}"#,
            "[".repeat(inner),
            "]".repeat(inner)
        )
    };
    let answer = svc.handle(post_text("/api/order/create", &nested(MAX_NESTING)));
    assert_eq!(answer.body.code, 0, "{}", answer.body.msg);
    let answer = svc.handle(post_text("/api/order/create", &nested(MAX_NESTING + 1)));
    assert_eq!(answer.status, 400, "{}", answer.body.msg);
}

#[test]
fn the_latency_ranges_it_states_are_the_models() {
    let r = readme();
    let model = LatencyModel::default();
    let range = |p: &Profile| {
        format!(
            "{} to {} ms, with a {}% tail of up to {} ms more",
            p.base_ms,
            p.base_ms + p.spread_ms,
            p.tail_chance * 100.0,
            p.tail_ms
        )
    };
    let most = |p: &Profile| p.base_ms + p.spread_ms + p.tail_ms;
    says(
        &r,
        &format!(
            "The order service takes {} (so at most {} ms)",
            range(&model.order),
            most(&model.order)
        ),
    );
    says(
        &r,
        &format!(
            "the payment service {} (at most {} ms)",
            range(&model.payment),
            most(&model.payment)
        ),
    );
    says(
        &r,
        &format!(
            "the third party {} (at most {} ms)",
            range(&model.third_party),
            most(&model.third_party)
        ),
    );
    // And the draws keep to them.
    let mut rng = orderpay::sim::random::Rng::new(9);
    for p in [model.order, model.payment, model.third_party] {
        let draws: Vec<u64> = (0..20_000).map(|_| p.draw(&mut rng)).collect();
        let lo = draws.iter().min().copied().unwrap_or(0);
        let hi = draws.iter().max().copied().unwrap_or(0);
        assert!(lo >= p.base_ms && hi <= most(&p), "{lo}..{hi} for {p:?}");
        let tail = draws
            .iter()
            .filter(|&&d| d > p.base_ms + p.spread_ms)
            .count() as f64
            / 20_000.0;
        assert!(
            tail <= p.tail_chance * 1.3,
            "{tail} of the draws past the spread for {p:?}"
        );
    }
}

/// Every msg the documentation quotes, and the request that gets it.
#[test]
fn the_messages_it_quotes_are_the_services() {
    let r = readme();
    let mut svc = service(1);
    let order = create_order_id(&mut svc);
    let mut check = |request: RawRequest, quoted: &str| {
        let answer = svc.handle(request);
        assert_eq!(answer.body.msg, quoted);
        says(&r, quoted);
    };
    check(
        post("/api/ordr/create"),
        "No route for POST /api/ordr/create; did you mean POST /api/order/create?",
    );
    check(get("/api/order/create"), "method: GET is not allowed on /api/order/create; use POST, or did you mean GET /api/order/{orderId}?");
    check(
        RawRequest::new("DELETE", "/api/order/create"),
        "method: DELETE is not allowed on /api/order/create; use POST",
    );
    check(
        post_json("/api/order/create", &json!({"userId": "u", "price": "12"})),
        "price: expected a number, got string \"12\"",
    );
    check(
        post_text("/api/order/create", r#"{"":1,"":2}"#),
        "\"\": given more than once in the body",
    );
    check(
        post_text(
            "/api/order/create",
            r#"{"userId":"u","userId":"v","price":1}"#,
        ),
        "userId: given more than once in the body",
    );
    check(get("/api/order/ORD-NOPE0000"), "Order not found");
    check(get("/api/payment/PAY-NOPE0000"), "Payment not found");
    check(
        pay_request("ORD-NOPE0000", 0.0, "CARD"),
        "amount must be > 0",
    );
    check(
        pay_request(&order, 1.0, "CARD").with_header("X-Sim-Outcome", "maybe"),
        "X-Sim-Outcome: must be success or failure, got \"maybe\"",
    );
    check(
        pay_request(&order, 1.0, "CARD").with_header("X-Sim-Outcome", "FAILURE"),
        "Third party payment failed",
    );
    check(
        pay_request(&order, 1.0, "CARD").with_header("X-Sim-Outcome", "SUCCESS"),
        "success",
    );
    check(post(&format!("/api/order/{order}/pay")), "success");
    check(
        post(&format!("/api/order/{order}/pay")),
        "Order already paid",
    );
}

#[test]
fn the_silent_spots_it_now_states() {
    let r = readme();
    let mut svc = service(1);
    // Header names differing only in case: the first wins.
    says(
        &r,
        "the first one given wins (`X-User-Id: a` then `x-user-id: b` is user `a`)",
    );
    svc.handle(
        get("/api/order/ORD-NOPE0000")
            .with_header("X-User-Id", "a")
            .with_header("x-user-id", "b"),
    );
    let user = logs_json(&svc).last().map(|r| r["userId"].clone());
    assert_eq!(user, Some(json!("a")));
    // count is not percent-decoded, and the first of two counts is taken.
    says(
        &r,
        "(`count=%31` is a 400), and a repeated `count` takes the first",
    );
    assert_eq!(
        svc.handle(get("/api/test/order/batch?count=%31")).status,
        400
    );
    let two = svc.handle(get("/api/test/order/batch?count=2&count=5"));
    assert_eq!(data(&two)["count"], 2);
    // x-b3-parentspanid only when the caller sent a span.
    says(
        &r,
        "and `x-b3-parentspanid` only when the caller sent a span of its own",
    );
    let alone = svc.handle(get("/api/order/ORD-NOPE0000"));
    assert_eq!(alone.header("x-b3-parentspanid"), None);
    let child = svc.handle(
        get("/api/order/ORD-NOPE0000")
            .with_header("X-B3-TraceId", "463ac35c9f6413ad")
            .with_header("X-B3-SpanId", "00f067aa0ba902b7"),
    );
    assert_eq!(child.header("x-b3-parentspanid"), Some("00f067aa0ba902b7"));
    // Nested duplicate keys are not checked: nested objects are ignored.
    says(
        &r,
        "Nested objects are unknown fields, which are ignored, so their keys are not checked",
    );
    let nested = svc.handle(post_text(
        "/api/order/create",
        r#"{"userId":"u","price":1,"x":{"a":1,"a":2}}"#,
    ));
    assert_eq!(nested.body.code, 0);
    // Methods are not trimmed.
    says(&r, "(`\" GET\"` and `\"POST\\n\"` are not trimmed)");
}

#[test]
fn the_replay_example_replays_a_failure() {
    let r = readme();
    says(&r, "const service = new Service({ seed: 4 });");
    says(
        &r,
        r#"paymentMethod: "CARD" }).msg); // Third party payment failed"#,
    );
    let mut svc = service(4);
    let created = create_order_id_for(&mut svc);
    let paid = svc.handle(pay_request(&created, 25.5, "CARD"));
    assert_eq!(paid.body.msg, "Third party payment failed");
}

fn create_order_id_for(svc: &mut orderpay::Service) -> String {
    let answer = svc.handle(create_request("u-1", 25.5, "two coffees"));
    data(&answer)["orderId"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}
