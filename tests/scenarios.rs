//! Scenarios: the document read or refused naming its path, the matchers
//! and conditions, and each failure kind as the gateway applies it.

mod common;
mod scenario_delivery;

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
            // Every code, none cut off, so the message says what to write instead.
            r#"scenario: rules[0].then.code: expected one of Stripe's decline codes (generic_decline, insufficient_funds, lost_card, stolen_card, expired_card, incorrect_cvc, processing_error, authentication_required, card_declined, do_not_honor, card_velocity_exceeded, fraudulent), got "nope""#,
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
fn every_preset_reads_and_is_a_document_and_a_bare_name_is_refused_listing_them() {
    for (name, text) in presets() {
        let mut svc = service(1);
        svc.set_scenario(Some(&text)).expect(name);
        assert_eq!(scenario(&svc)["document"]["name"], json!(name));
        // The package turns a name into its document before the module
        // sees it; the module itself refuses the bare name, listing all.
        let refused = svc.set_scenario(Some(name)).expect_err(name).to_string();
        let listed = orderpay::sim::scenario::presets::NAMES.join(", ");
        assert!(
            refused.contains(&format!("({listed}), got \"{name}\"")),
            "{refused}"
        );
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

/// The service record of the last payment, as `logs()` shows it.
fn last_outcome(svc: &Service) -> Value {
    let logs: Value = serde_json::from_str(&svc.logs_json(None)).expect("JSON");
    let records = logs.as_array().expect("records");
    records
        .iter()
        .rev()
        .find(|r| r["stage"] == "service" && r.get("outcome").is_some())
        .expect("a decided record")["outcome"]
        .clone()
}

#[test]
fn a_decline_rule_declines_with_its_code_in_the_spec_envelope() {
    let mut svc = always_approves(1);
    set(
        &mut svc,
        &json!({"rules": [{"name": "broke", "when": {"route": "/api/payment/pay", "amount": 13.37},
        "then": {"kind": "decline", "code": "insufficient_funds"}}]}),
    );
    let order = create_order_id(&mut svc);
    let r = svc.handle(pay_request(&order, 13.37, "CARD"));
    assert_eq!(
        (r.status, body(&r)),
        (200, business_error("Third party payment failed"))
    );
    assert_eq!(
        r.header("x-orderpay-decline-code"),
        Some("insufficient_funds")
    );
    assert_eq!(r.header("x-orderpay-fault"), Some("decline"));
    assert_eq!(r.header("x-orderpay-rule"), Some("broke"));
    let outcome = last_outcome(&svc);
    assert_eq!(outcome["approved"], json!(false));
    assert_eq!(outcome["declineCode"], json!("insufficient_funds"));
    assert_eq!(outcome["thirdParty"], json!("declined"));
    assert!(outcome["reason"]
        .as_str()
        .unwrap()
        .starts_with("declined by a scenario's rule: insufficient_funds (the draw "));
    // Another amount is not matched: the spec's answer.
    assert_eq!(svc.handle(pay_request(&order, 10.0, "CARD")).body.code, 0);
}

#[test]
fn a_pay_only_rule_does_not_match_other_routes_or_an_unknown_order() {
    let mut svc = always_approves(1);
    set(&mut svc, &json!({"rules": [{"then": {"kind": "decline"}}]}));
    assert_eq!(svc.handle(create_request("u-1", 5.0, "")).status, 200);
    let unknown = svc.handle(pay_request("ORD-AAAAAAAA", 5.0, "CARD"));
    assert_eq!(unknown.body.msg, "Order not found");
    assert_eq!(
        scenario(&svc)["rules"][0],
        json!({"name": "rules[0]", "seen": 0, "fired": 0})
    );
}

#[test]
fn a_timeout_takes_its_simulated_time_then_declines() {
    let mut svc = exact_service(1, 0.0);
    set(
        &mut svc,
        &json!({"rules": [{"when": {"route": "/api/payment/pay"}, "then": {"kind": "timeout", "afterMs": 12000}}]}),
    );
    let order = create_order_id(&mut svc);
    let before = svc.now();
    let r = svc.handle(pay_request(&order, 10.5, "CARD"));
    assert_eq!(body(&r), business_error("Third party payment failed"));
    assert_eq!(r.header("x-orderpay-fault"), Some("timeout"));
    assert_eq!(svc.now() - before, (PAYMENT_MS + 12_000) as i64);
    assert_eq!(r.header("x-sim-duration-ms"), Some("12007"));
    assert_eq!(last_outcome(&svc)["thirdParty"], json!("timeout"));
}

#[test]
fn a_processor_error_shows_the_processors_status() {
    let mut svc = always_approves(1);
    set(
        &mut svc,
        &json!({"rules": [{"then": {"kind": "processor_error", "status": 503}}]}),
    );
    let order = create_order_id(&mut svc);
    let r = svc.handle(pay_request(&order, 10.5, "CARD"));
    assert_eq!(body(&r), business_error("Third party payment failed"));
    assert_eq!(last_outcome(&svc)["thirdParty"], json!(503));
    assert!(last_outcome(&svc)["reason"]
        .as_str()
        .unwrap()
        .starts_with("the third party answered 503"));
}

#[test]
fn a_delay_adds_its_time_and_answers_as_usual() {
    let mut svc = exact_service(1, 0.0);
    set(
        &mut svc,
        &json!({"rules": [{"when": {"route": "order"}, "then": {"kind": "delay", "ms": 3000}}]}),
    );
    let before = svc.now();
    let r = svc.handle(create_request("u-1", 1.0, ""));
    assert_eq!((r.status, r.body.code), (200, 0));
    assert_eq!(svc.now() - before, (3000 + ORDER_MS) as i64);
    assert_eq!(r.header("x-sim-duration-ms"), Some("3005"));
    assert_eq!(r.header("x-orderpay-fault"), Some("delay"));
}

#[test]
fn a_drawn_decline_reports_generic_decline_once_a_scenario_is_set() {
    let mut plain = always_declines(1);
    let order = create_order_id(&mut plain);
    let r = plain.handle(pay_request(&order, 10.5, "CARD"));
    assert_eq!(r.header("x-orderpay-decline-code"), None);
    assert!(last_outcome(&plain).get("declineCode").is_none());
    let mut svc = always_declines(1);
    set(
        &mut svc,
        &json!({"rules": [{"when": {"route": "/api/test/order/batch"}, "then": {"kind": "http", "status": 503}}]}),
    );
    let order = create_order_id(&mut svc);
    let r = svc.handle(pay_request(&order, 10.5, "CARD"));
    assert_eq!(r.header("x-orderpay-decline-code"), Some("generic_decline"));
    assert_eq!(r.header("x-orderpay-rule"), None);
    let outcome = last_outcome(&svc);
    assert_eq!(outcome["declineCode"], json!("generic_decline"));
    assert!(outcome.get("thirdParty").is_none());
    assert!(outcome["reason"].as_str().unwrap().starts_with("draw "));
}

#[test]
fn records_of_scenario_failures_survive_a_snapshot() {
    let mut svc = always_approves(1);
    set(
        &mut svc,
        &json!({"rules": [
            {"when": {"nth": 1}, "then": {"kind": "decline", "code": "lost_card"}},
            {"when": {"nth": 1}, "then": {"kind": "timeout"}},
            {"when": {"nth": 1}, "then": {"kind": "processor_error", "status": 502}}
        ]}),
    );
    let order = create_order_id(&mut svc);
    for _ in 0..4 {
        svc.handle(pay_request(&order, 10.5, "CARD"));
    }
    let restored = Service::restore(
        &svc.snapshot(),
        Box::new(orderpay::sim::clock::VirtualClock::starting_at(T0)),
    )
    .expect("restores");
    assert_eq!(restored.logs_json(None), svc.logs_json(None));
    assert_eq!(restored.export_ndjson(), svc.export_ndjson());
}

/// A mixed session: creates, pays (some declined by rules, some drawn),
/// reads, under a scenario with every counting condition and a draw.
fn session(svc: &mut Service, from: usize, to: usize) -> Vec<String> {
    (from..to)
        .map(|i| {
            let r = if i % 3 == 0 {
                svc.handle(create_request(&format!("u-{i}"), 10.0 + i as f64, ""))
            } else {
                let made = svc.handle(create_request("u", 10.5, ""));
                let order = data(&made)["orderId"]
                    .as_str()
                    .unwrap_or("ORD-AAAAAAAA")
                    .to_owned();
                svc.handle(pay_request(
                    &order,
                    10.5,
                    if i % 2 == 0 { "CARD" } else { "WALLET_A" },
                ))
            };
            svc.advance(1000);
            r.to_json()
        })
        .collect()
}

fn busy_scenario() -> Value {
    json!({"name": "busy", "rules": [
        {"when": {"route": "/api/payment/pay", "paymentMethod": "WALLET_A", "every": 2}, "then": {"kind": "decline", "code": "expired_card"}},
        {"when": {"probability": 0.3, "times": 4}, "then": {"kind": "http", "status": 503}},
        {"when": {"route": "order", "calls": {"from": 3, "to": 9}, "forMs": 20000}, "then": {"kind": "delay", "ms": 250}},
        {"when": {"nth": 5}, "then": {"kind": "network", "fault": "reset", "phase": "response"}}
    ]})
}

#[test]
fn the_same_seed_scenario_and_calls_give_the_same_answers_logs_and_snapshots() {
    let run = || {
        let mut svc = service(42);
        set(&mut svc, &busy_scenario());
        let answers = session(&mut svc, 0, 30);
        (answers, svc.logs_json(None), svc.snapshot())
    };
    assert_eq!(run(), run());
}

#[test]
fn a_snapshot_taken_mid_scenario_restores_and_continues_identically() {
    let mut svc = service(42);
    set(&mut svc, &busy_scenario());
    session(&mut svc, 0, 12);
    // Mid-way: every rule has fired, and the draw and counts go on.
    let fired: Vec<u64> = scenario(&svc)["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["fired"].as_u64().unwrap())
        .collect();
    assert!(fired.iter().all(|n| *n > 0), "{fired:?}");
    let snapshot = svc.snapshot();
    assert!(snapshot.contains("\"scenario\":{\"text\":"));
    let mut restored = Service::restore(
        &snapshot,
        Box::new(orderpay::sim::clock::VirtualClock::starting_at(T0)),
    )
    .expect("restores");
    assert_eq!(restored.scenario_json(), svc.scenario_json());
    assert_eq!(session(&mut restored, 12, 30), session(&mut svc, 12, 30));
    assert_eq!(restored.snapshot(), svc.snapshot());
    assert_eq!(restored.logs_json(None), svc.logs_json(None));
}

#[test]
fn a_damaged_scenario_in_a_snapshot_is_refused_naming_it() {
    let mut svc = service(42);
    set(&mut svc, &busy_scenario());
    let snapshot = svc.snapshot();
    let wall = || Box::new(orderpay::sim::clock::VirtualClock::starting_at(T0));
    let bad = snapshot.replace("\"counts\":[[0,0],", "\"counts\":[[0,1],");
    let err = Service::restore(&bad, wall()).err().expect("refused").msg;
    assert_eq!(
        err,
        "snapshot.scenario: counts[0]: expected [seen, fired], fired at most seen, got an array"
    );
    let bad = snapshot.replace("\\\"every\\\":2", "\\\"every\\\":0");
    let err = Service::restore(&bad, wall()).err().expect("refused").msg;
    assert!(
        err.starts_with("snapshot.scenario: text: rules[0].when.every: expected a whole number"),
        "{err}"
    );
}

#[test]
fn with_no_scenario_the_snapshot_has_no_scenario_key() {
    let mut svc = service(42);
    session(&mut svc, 0, 3);
    assert!(!svc.snapshot().contains("\"scenario\""));
}

/// The records, spans, counters and OTLP export of a service, as JSON.
fn explained(svc: &Service) -> (Vec<Value>, Vec<Value>, Value, Value) {
    let parse = |text: &str| serde_json::from_str::<Value>(text).expect("JSON");
    let logs = parse(&svc.logs_json(None))
        .as_array()
        .cloned()
        .expect("records");
    let spans = parse(&svc.spans_json()).as_array().cloned().expect("spans");
    (logs, spans, parse(&svc.counters_json()), svc.export_otlp())
}

/// The gateway span of the request whose answer `r` is, with its
/// attributes as an object.
fn gateway_span(spans: &[Value], r: &orderpay::gateway::Response) -> (Value, Value) {
    let span = r.header("x-b3-spanid").expect("a span id");
    let s = spans
        .iter()
        .find(|s| s["spanId"] == span)
        .expect("the gateway span");
    let attributes: serde_json::Map<String, Value> = s["attributes"]
        .as_array()
        .expect("attributes")
        .iter()
        .map(|pair| (pair[0].as_str().unwrap().to_owned(), pair[1].clone()))
        .collect();
    (s.clone(), Value::Object(attributes))
}

/// An OTLP span's status, by its span id.
fn otlp_status(otlp: &Value, span: &str) -> Value {
    otlp["resourceSpans"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r["scopeSpans"][0]["spans"].as_array().unwrap())
        .find(|s| s["spanId"] == span)
        .expect("the span")["status"]
        .clone()
}

#[test]
fn a_fired_rule_shows_in_its_record_its_gateway_span_otlp_and_the_counters() {
    let mut svc = always_approves(1);
    set(
        &mut svc,
        &json!({"rules": [
            {"name": "busy", "when": {"route": "/api/order/{orderId}", "nth": 1}, "then": {"kind": "http", "status": 429}},
            {"name": "broke", "when": {"route": "/api/payment/pay", "nth": 1}, "then": {"kind": "decline", "code": "insufficient_funds"}},
            {"name": "slow", "when": {"route": "/api/payment/pay", "nth": 1}, "then": {"kind": "timeout", "afterMs": 900}},
            {"name": "cut", "when": {"route": "/api/order/{orderId}"}, "then": {"kind": "network", "fault": "reset"}}
        ]}),
    );
    let order = create_order_id(&mut svc);
    let answers = [
        svc.handle(get(&format!("/api/order/{order}"))),
        svc.handle(pay_request(&order, 5.0, "CARD")),
        svc.handle(pay_request(&order, 5.0, "CARD")),
        svc.handle(get(&format!("/api/order/{order}"))),
    ];
    let (logs, spans, counters, otlp) = explained(&svc);
    let faults: Vec<Value> = logs
        .iter()
        .filter(|r| r["stage"] == "response")
        .map(|r| r.get("fault").cloned().unwrap_or(Value::Null))
        .collect();
    assert_eq!(
        faults,
        [
            Value::Null,
            json!({"kind": "http", "rule": "busy", "status": 429, "retryAfter": 1}),
            json!({"kind": "decline", "rule": "broke", "code": "insufficient_funds"}),
            json!({"kind": "timeout", "rule": "slow", "ms": 900}),
            json!({"kind": "network", "rule": "cut", "fault": "reset", "ms": 30000, "phase": "request"}),
        ]
    );
    // What the response record says is what request() says.
    for (r, want) in answers.iter().zip(&faults[1..]) {
        let mut out = orderpay::json::Out::default();
        r.headers.fault().expect("a fault").write(&mut out);
        assert_eq!(&serde_json::from_str::<Value>(&out.text).unwrap(), want);
    }
    assert_marked_spans(&answers, &spans, &otlp);
    assert_eq!(
        counters["faults"],
        json!({"byKind": {"decline": 1, "timeout": 1, "http": 1, "network": 1},
               "byRule": {"busy": 1, "broke": 1, "slow": 1, "cut": 1}})
    );
    assert!(counters.get("replays").is_none());
    let restored = Service::restore(
        &svc.snapshot(),
        Box::new(orderpay::sim::clock::VirtualClock::starting_at(T0)),
    )
    .expect("restores");
    assert_eq!(explained(&restored), explained(&svc));
    assert_eq!(restored.export_ndjson(), svc.export_ndjson());
    assert_eq!(restored.snapshot(), svc.snapshot());
}

/// The gateway spans of an http 429, a decline, a timeout and a network
/// fault: their attributes and their OTLP status.
fn assert_marked_spans(answers: &[orderpay::gateway::Response], spans: &[Value], otlp: &Value) {
    let expected = [
        ("http", "busy", None, Some("http")),
        (
            "decline",
            "broke",
            Some("insufficient_funds"),
            Some("server_error"),
        ),
        ("timeout", "slow", None, Some("timeout")),
        ("network", "cut", None, Some("network")),
    ];
    for (r, (kind, rule, code, error)) in answers.iter().zip(expected) {
        let (span, attributes) = gateway_span(spans, r);
        assert_eq!(attributes["orderpay.fault.kind"], json!(kind));
        assert_eq!(attributes["orderpay.rule"], json!(rule));
        assert_eq!(
            attributes.get("payment.decline_code"),
            code.map(|c| json!(c)).as_ref()
        );
        let status = otlp_status(otlp, span["spanId"].as_str().unwrap());
        assert_eq!(status, json!({"code": 2, "message": error}), "{kind}");
    }
}

#[test]
fn with_no_rule_fired_records_spans_and_counters_say_nothing_new() {
    let mut svc = always_declines(1);
    let order = create_order_id(&mut svc);
    svc.handle(pay_request(&order, 5.0, "CARD"));
    let everything = [
        svc.logs_json(None),
        svc.spans_json(),
        svc.counters_json(),
        svc.export_otlp_json(),
    ]
    .concat();
    for word in ["fault", "orderpay.rule", "decline_code", "replay"] {
        assert!(!everything.contains(word), "{word}");
    }
    let otlp = svc.export_otlp();
    let third = otlp["resourceSpans"][2]["scopeSpans"][0]["spans"][0].clone();
    assert_eq!(
        third["status"],
        json!({"code": 2, "message": "server_error"})
    );
}

#[test]
fn a_drawn_decline_under_a_scenario_is_a_decline_with_no_rule_everywhere() {
    let mut svc = always_declines(1);
    set(
        &mut svc,
        &json!({"rules": [{"when": {"route": "test"}, "then": {"kind": "delay"}}]}),
    );
    let order = create_order_id(&mut svc);
    let r = svc.handle(pay_request(&order, 5.0, "CARD"));
    let (logs, spans, counters, _) = explained(&svc);
    let last = logs.last().unwrap();
    assert_eq!(
        last["fault"],
        json!({"kind": "decline", "rule": null, "code": "generic_decline"})
    );
    let (_, attributes) = gateway_span(&spans, &r);
    assert!(attributes.get("orderpay.rule").is_none());
    assert_eq!(attributes["payment.decline_code"], json!("generic_decline"));
    assert_eq!(
        counters["faults"],
        json!({"byKind": {"decline": 1}, "byRule": {}})
    );
}

#[test]
fn damaged_faults_in_a_snapshot_are_refused_naming_them() {
    let mut svc = always_approves(1);
    set(
        &mut svc,
        &json!({"rules": [{"name": "busy", "then": {"kind": "http", "status": 503}}]}),
    );
    svc.handle(get("/api/order/ORD-AAAAAAAA"));
    let snapshot = svc.snapshot();
    let wall = || Box::new(orderpay::sim::clock::VirtualClock::starting_at(T0));
    for (from, to, want) in [
        (
            "\"status\":503,\"retryAfter\":1}",
            "\"status\":500,\"retryAfter\":1}",
            "`fault`: not a failure",
        ),
        (
            "\"retryAfter\":1}",
            "\"retryAfter\":1,\"x\":1}",
            "`fault`: not a failure",
        ),
        (
            "[\"orderpay.fault.kind\",\"http\"]",
            "[\"orderpay.fault.kind\",\"htp\"]",
            "span attribute `orderpay.fault.kind`: unknown",
        ),
        (
            "\"byKind\":{\"http\":1}",
            "\"byKind\":{\"http\":0}",
            "snapshot.counters.faults.byKind.http: unknown, repeated or 0",
        ),
        (
            "\"byRule\":{\"busy\":1}",
            "\"byRule\":{\"busy\":1,\"busy\":1}",
            "snapshot.counters.faults.byRule.busy",
        ),
    ] {
        assert!(snapshot.contains(from), "{from}");
        let err = Service::restore(&snapshot.replacen(from, to, 1), wall())
            .err()
            .expect("refused")
            .msg;
        assert!(err.contains(want), "{to}: {err}");
    }
}
