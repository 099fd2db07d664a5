//! Scenarios: the document read or refused naming its path, the matchers
//! and conditions, and each failure kind as the gateway applies it.

mod common;

use common::*;
use orderpay::Service;
use serde_json::{json, Value};

fn set(svc: &mut Service, doc: &Value) {
    svc.set_scenario(Some(&doc.to_string()))
        .expect("a valid scenario");
}

fn refusal(doc: &str) -> String {
    let mut svc = service(1);
    svc.set_scenario(Some(doc)).expect_err("refused").msg
}

fn scenario(svc: &Service) -> Value {
    serde_json::from_str(&svc.scenario_json()).expect("JSON")
}

#[test]
fn bad_documents_are_refused_naming_the_json_path() {
    let cases = [
        (
            r#"{"rules":[{"then":{"kind":"http"}},{"then":{"kind":"http"}},{"when":{"until":"soon"},"then":{"kind":"http"}}]}"#,
            r#"scenario: rules[2].when.until: expected a whole number of ms, got "soon""#,
        ),
        (
            r#"{"rules":[{"when":{"rout":"/api/payment/pay"},"then":{"kind":"http"}}]}"#,
            r#"scenario: rules[0].when: unknown key "rout"; expected one of "#,
        ),
        (
            r#"{"rules":[{"then":{"kind":"http","status":500}}]}"#,
            "scenario: rules[0].then.status: expected one of 429, 502, 503, 504, got 500",
        ),
        (
            r#"{"rules":[{"when":{"route":"/api/nope"},"then":{"kind":"delay","ms":5}}]}"#,
            "scenario: rules[0].when.route: expected a documented route",
        ),
        (
            r#"{"rules":[{"when":{"probability":1.5},"then":{"kind":"delay"}}]}"#,
            "scenario: rules[0].when.probability: expected a number from 0 to 1, got 1.5",
        ),
        (
            r#"{"rules":[{"then":{"kind":"network","fault":"short","phase":"request"}}]}"#,
            "scenario: rules[0].then.phase: a short or dribble fault is always in the response",
        ),
        (
            r#"{"rules":[{"then":{"kind":"decline","code":"nope"}}]}"#,
            "scenario: rules[0].then.code: expected one of Stripe's decline codes",
        ),
        (
            r#"{"rules":[{"when":{"nth":0},"then":{"kind":"delay"}}]}"#,
            "scenario: rules[0].when.nth: expected a whole number of calls from 1 to ",
        ),
        (
            r#"{"rules":{}}"#,
            "scenario: rules: expected an array of rules, got an object",
        ),
        (
            "third-party-dwn",
            "scenario: expected a document's JSON text or a preset's name (",
        ),
        ("{", "scenario: not JSON: "),
        (
            r#"{"rules":[{"when":{}}]}"#,
            "scenario: rules[0]: then: missing",
        ),
    ];
    for (doc, want) in cases {
        let got = refusal(doc);
        assert!(got.starts_with(want), "{doc}\n got: {got}\nwant: {want}");
    }
}

#[test]
fn a_refused_document_changes_nothing() {
    let mut svc = service(1);
    set(
        &mut svc,
        &json!({"rules": [{"then": {"kind": "http", "status": 503}}]}),
    );
    let before = svc.scenario_json();
    assert!(svc
        .set_scenario(Some(r#"{"rules":[{"then":{}}]}"#))
        .is_err());
    assert_eq!(svc.scenario_json(), before);
}

#[test]
fn every_preset_reads_and_is_a_document() {
    for (name, text) in orderpay::sim::scenario::presets::PRESETS {
        let mut svc = service(1);
        svc.set_scenario(Some(name)).expect(name);
        let by_text = scenario(&svc);
        svc.set_scenario(Some(text)).expect(name);
        assert_eq!(scenario(&svc), by_text, "{name}");
        assert_eq!(by_text["document"]["name"], json!(name));
    }
}

#[test]
fn an_http_rule_answers_its_status_with_retry_after_and_runs_nothing() {
    let mut svc = service(1);
    set(
        &mut svc,
        &json!({"rules": [{"name": "busy", "when": {"route": "order", "method": "POST"},
        "then": {"kind": "http", "status": 429, "retryAfter": 7}}]}),
    );
    let r = svc.handle(create_request("u-1", 10.0, "x"));
    assert_eq!(r.status, 429);
    assert_eq!(
        body(&r),
        json!({"code": 429, "msg": "Too Many Requests (scenario rule \"busy\")", "data": null})
    );
    assert_eq!(r.header("retry-after"), Some("7"));
    assert_eq!(r.header("x-orderpay-rule"), Some("busy"));
    assert_eq!(r.header("x-orderpay-fault"), Some("http"));
    // Nothing ran: no order was made.
    let batch = svc.handle(get("/api/order/ORD-AAAAAAAA"));
    assert_eq!(batch.status, 200, "a GET is not matched by a POST rule");
    assert!(!svc.snapshot().contains("\"x\""));
    let s = scenario(&svc);
    assert_eq!(
        s["rules"][0],
        json!({"name": "busy", "seen": 1, "fired": 1})
    );
}

#[test]
fn nth_every_and_calls_count_the_matches() {
    let mut svc = always_approves(1);
    set(
        &mut svc,
        &json!({"rules": [
            {"name": "third", "when": {"route": "/api/order/create", "nth": 3}, "then": {"kind": "http", "status": 503}},
            {"name": "even", "when": {"route": "/api/order/create", "every": 2}, "then": {"kind": "http", "status": 502}},
            {"name": "2-3", "when": {"route": "/api/order/create", "calls": {"from": 2, "to": 3}}, "then": {"kind": "http", "status": 504}}
        ]}),
    );
    let statuses: Vec<u16> = (0..8)
        .map(|_| svc.handle(create_request("u", 1.0, "")).status)
        .collect();
    // A rule sees only the requests no rule before it fired on.
    assert_eq!(statuses, [200, 502, 503, 504, 502, 504, 502, 200]);
    let s = scenario(&svc);
    assert_eq!(
        s["rules"][0],
        json!({"name": "third", "seen": 8, "fired": 1})
    );
    assert_eq!(
        s["rules"][1],
        json!({"name": "even", "seen": 7, "fired": 3})
    );
    assert_eq!(s["rules"][2], json!({"name": "2-3", "seen": 4, "fired": 2}));
}

#[test]
fn probability_draws_from_the_scenarios_own_seeded_stream() {
    let run = |seed| {
        let mut svc = service(seed);
        set(
            &mut svc,
            &json!({"rules": [{"when": {"probability": 0.5}, "then": {"kind": "http", "status": 503}}]}),
        );
        (0..64)
            .map(|_| svc.handle(get("/api/order/ORD-AAAAAAAA")).status)
            .collect::<Vec<_>>()
    };
    let a = run(7);
    assert_eq!(a, run(7));
    assert_ne!(a, run(8));
    let failed = a.iter().filter(|s| **s == 503).count();
    assert!((16..=48).contains(&failed), "{failed}");
}

#[test]
fn a_request_phase_network_fault_answers_nothing_and_runs_nothing() {
    let mut svc = service(1);
    set(
        &mut svc,
        &json!({"rules": [{"name": "cut", "when": {"route": "/api/order/create"},
        "then": {"kind": "network", "fault": "reset"}}]}),
    );
    let r = svc.handle(create_request("u-1", 10.0, "gone"));
    assert_eq!(r.status, 0);
    let fault = r.headers.fault().expect("a fault");
    assert_eq!(
        fault.network(),
        Some(("reset", orderpay::sim::scenario::Phase::Request))
    );
    assert!(!svc.snapshot().contains("gone"), "no order was made");
}

#[test]
fn a_response_phase_network_fault_runs_the_service_and_keeps_its_answer() {
    let mut svc = service(1);
    set(
        &mut svc,
        &json!({"rules": [{"when": {"route": "/api/order/create"},
        "then": {"kind": "network", "fault": "reset", "phase": "response"}}]}),
    );
    let r = svc.handle(create_request("u-1", 10.0, "kept"));
    assert_eq!((r.status, r.body.code), (200, 0));
    assert!(r.headers.fault().is_some());
    assert!(svc.snapshot().contains("kept"), "the order was made");
}

#[test]
fn the_header_sets_a_scenario_for_one_request_and_keeps_no_counts() {
    let mut svc = service(1);
    let doc = json!({"rules": [{"when": {"nth": 1}, "then": {"kind": "http", "status": 502}}]})
        .to_string();
    for _ in 0..2 {
        let r = svc.handle(get("/api/order/ORD-AAAAAAAA").with_header("X-Orderpay-Scenario", &doc));
        assert_eq!(r.status, 502);
    }
    let r = svc
        .handle(get("/api/order/ORD-AAAAAAAA").with_header("X-Orderpay-Scenario", "{\"rules\":7}"));
    assert_eq!(r.status, 400);
    assert_eq!(
        r.body.msg,
        "X-Orderpay-Scenario: rules: expected an array of rules, got 7"
    );
    assert_eq!(svc.scenario_json(), "null");
}

#[test]
fn clearing_the_scenario_brings_back_the_spec() {
    let mut svc = service(1);
    set(
        &mut svc,
        &json!({"rules": [{"then": {"kind": "http", "status": 503}}]}),
    );
    assert_eq!(svc.handle(get("/api/order/ORD-AAAAAAAA")).status, 503);
    svc.set_scenario(None).expect("clears");
    let r = svc.handle(get("/api/order/ORD-AAAAAAAA"));
    assert_eq!(r.status, 200);
    assert!(r.header("x-orderpay-fault").is_none());
}
