//! The simulation of issue 5, native: reproducible per-order outcomes,
//! forced outcomes and their explanation, simulated latency on a virtual
//! clock, and snapshots that continue exactly.

mod common;

use common::*;
use orderpay::observe::{Component, Span};
use orderpay::observe::{LogRecord, LogStatus, Stage};
use orderpay::sim::clock::VirtualClock;
use orderpay::sim::latency::{LatencyModel, Profile};
use orderpay::sim::random::keyed_unit;
use orderpay::sim::third_party::{DecidedBy, Decision, Forced};
use orderpay::{RawRequest, Response, Service, Settings};
use serde_json::{json, Value};

// ---------------------------------------------------------------- helpers

fn settings(seed: u64, failure_rate: f64) -> Settings {
    let mut settings = Settings::with_seed(seed);
    settings.failure_rate = failure_rate;
    settings
}

fn with_rate(seed: u64, failure_rate: f64) -> Service {
    service_with(settings(seed, failure_rate))
}

/// A service whose latency model is the default one with `overrides`.
fn with_latency(seed: u64, overrides: &str) -> Service {
    let mut settings = Settings::with_seed(seed);
    settings.latency = LatencyModel::default()
        .with_overrides(overrides)
        .expect("valid overrides");
    service_with(settings)
}

fn header<'a>(r: &'a Response, name: &str) -> &'a str {
    r.header(name)
        .unwrap_or_else(|| panic!("no {name} header in {:?}", r.headers))
}

/// The simulated time the response says the request took.
fn sim_ms(r: &Response) -> u64 {
    header(r, "x-sim-duration-ms")
        .parse()
        .expect("a whole number")
}

/// The log records one request wrote: those of its gateway span (the
/// gateway and response records) and of its service span.
fn records_of(svc: &Service, r: &Response) -> Vec<LogRecord> {
    records_in(&svc.logs(None), r)
}

fn records_in(logs: &[LogRecord], r: &Response) -> Vec<LogRecord> {
    let trace = header(r, "x-b3-traceid");
    let gateway = header(r, "x-b3-spanid");
    logs.iter()
        .filter(|rec| {
            rec.trace_id == trace
                && (rec.span_id == gateway || rec.parent_span_id.as_deref() == Some(gateway))
        })
        .cloned()
        .collect()
}

/// The service record of a request: duration, status and decision.
fn service_record(svc: &Service, r: &Response) -> Option<(u64, LogStatus, Option<Decision>)> {
    service_record_in(&svc.logs(None), r)
}

fn service_record_in(
    logs: &[LogRecord],
    r: &Response,
) -> Option<(u64, LogStatus, Option<Decision>)> {
    let found: Vec<_> = records_in(logs, r)
        .into_iter()
        .filter_map(|rec| match rec.stage {
            Stage::Service {
                duration,
                status,
                outcome,
                ..
            } => Some((duration, status, outcome)),
            _ => None,
        })
        .collect();
    assert!(found.len() <= 1, "{} service records", found.len());
    found.into_iter().next()
}

/// What the third party decided on a payment request, from its service record.
fn decision(svc: &Service, r: &Response) -> Decision {
    service_record(svc, r)
        .and_then(|(_, _, outcome)| outcome)
        .unwrap_or_else(|| panic!("no decision for {:?}", r.body))
}

/// The spans of one request: its gateway span and every span under it.
fn spans_of(svc: &Service, r: &Response) -> Vec<Span> {
    spans_in(&svc.spans(), r)
}

fn spans_in(spans: &[Span], r: &Response) -> Vec<Span> {
    let trace = header(r, "x-b3-traceid");
    let mut ids = vec![header(r, "x-b3-spanid").to_owned()];
    let mut out: Vec<Span> = Vec::new();
    for span in spans.iter().filter(|s| s.trace_id == trace) {
        let ours = ids.contains(&span.span_id)
            || span
                .parent_span_id
                .as_ref()
                .is_some_and(|p| ids.contains(p));
        if ours {
            ids.push(span.span_id.clone());
            out.push(span.clone());
        }
    }
    out
}

fn span_of(spans: &[Span], component: Component) -> Span {
    let found: Vec<&Span> = spans.iter().filter(|s| s.component == component).collect();
    assert_eq!(found.len(), 1, "{component:?} spans in {spans:#?}");
    found[0].clone()
}

fn order_id_of(r: &Response) -> String {
    data(r)["orderId"]
        .as_str()
        .unwrap_or_else(|| panic!("no orderId in {:?}", r.body))
        .to_owned()
}

fn with_outcome(req: RawRequest, value: &str) -> RawRequest {
    req.with_header("X-Sim-Outcome", value)
}

fn bounds(p: &Profile) -> std::ops::RangeInclusive<u64> {
    p.base_ms..=p.base_ms + p.spread_ms + p.tail_ms
}

/// A session through every route, both payment outcomes, both forcing
/// rules, bad input, incoming trace headers, a batch and a clock jump.
fn busy_session(svc: &mut Service) -> Vec<Response> {
    let mut out = Vec::new();
    let mut ids = Vec::new();
    for i in 0..8 {
        let r = svc.handle(create_request(
            &format!("user-{i}"),
            3.5 + f64::from(i),
            "busy",
        ));
        ids.push(order_id_of(&r));
        out.push(r);
    }
    svc.force_next(Forced::Failure, 2);
    for id in &ids {
        out.push(svc.handle(get(&format!("/api/order/{id}"))));
        for _ in 0..2 {
            let r = svc.handle(pay_request(id, 5.0, "WALLET_B").with_header("X-User-Id", "payer"));
            let paid = r.body.code == 0;
            let payment = data(&r)["paymentId"].as_str().map(str::to_owned);
            out.push(r);
            if let Some(payment) = payment.filter(|_| paid) {
                out.push(svc.handle(post(&format!("/api/order/{id}/pay"))));
                out.push(svc.handle(post(&format!("/api/payment/refund/{payment}"))));
                out.push(svc.handle(get(&format!("/api/payment/{payment}"))));
                break;
            }
        }
    }
    out.push(svc.handle(with_outcome(pay_request(&ids[0], 1.0, "CARD"), "failure")));
    out.push(svc.handle(with_outcome(pay_request(&ids[1], 1.0, "CARD"), "SUCCESS")));
    out.push(svc.handle(with_outcome(pay_request(&ids[2], 1.0, "CARD"), "maybe")));
    svc.advance(60_000);
    out.push(
        svc.handle(
            create_request("traced", 9.99, "with b3")
                .with_header("X-B3-TraceId", "463ac35c9f6413ad48485a3953bb6124")
                .with_header("X-B3-SpanId", "a2fb4a1d1a96d312"),
        ),
    );
    out.push(
        svc.handle(get(&format!("/api/order/{}", ids[3])).with_header(
            "traceparent",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00",
        )),
    );
    out.push(svc.handle(get("/api/test/order/batch?count=4")));
    out.push(svc.handle(post_text("/api/order/create", "{not json")));
    out.push(svc.handle(get("/api/ordr/x")));
    out.push(svc.handle(post(&format!("/api/order/delete/{}", ids[7]))));
    out
}

// ------------------------------------------------- reproducible sessions

#[test]
fn the_same_seed_and_calls_give_byte_identical_ndjson_snapshot_and_otlp() {
    let mut a = service(2024);
    let mut b = service(2024);
    let ra = busy_session(&mut a);
    let rb = busy_session(&mut b);
    assert_eq!(ra, rb);
    let ndjson = a.export_ndjson();
    assert_eq!(ndjson, b.export_ndjson());
    assert_eq!(a.snapshot(), b.snapshot());
    assert_eq!(a.export_otlp(), b.export_otlp());
    assert_eq!(a.now(), b.now());

    // The journal is the whole session, times included, on the virtual
    // clock; each line is its record with `@timestamp` first, the record's
    // time in ISO 8601.
    let mut lines: Vec<Value> = ndjson
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect();
    assert!(ndjson.lines().all(|l| l.starts_with(r#"{"@timestamp":""#)));
    assert_eq!(lines[0]["@timestamp"], json!("2023-11-14T22:13:20.000Z"));
    let stamps: Vec<Value> = lines
        .iter_mut()
        .filter_map(|l| l.as_object_mut()?.remove("@timestamp"))
        .collect();
    assert_eq!(stamps.len(), lines.len());
    // Later times too: the last line's is its record's time (T0 is
    // 22:13:20 of that day; the session ends within the hour).
    let since = a.now() - T0;
    let second = 22 * 3600 + 13 * 60 + 20 + since / 1000;
    assert!(second < 86_400, "the session ends that day ({since} ms)");
    let expected = format!(
        "2023-11-14T{:02}:{:02}:{:02}.{:03}Z",
        second / 3600,
        second / 60 % 60,
        second % 60,
        since % 1000
    );
    assert_eq!(stamps[stamps.len() - 1], json!(expected));
    assert_eq!(lines, logs_json(&a));
    assert!(lines.len() > 100, "{} records", lines.len());
    assert_eq!(lines[0]["timestamp"], json!(T0));
    assert_eq!(lines[lines.len() - 1]["timestamp"], json!(a.now()));
    assert!(a.now() > T0 + 60_000);
    for rule in ["draw", "header", "forced-next"] {
        assert!(
            ndjson.contains(&format!("\"rule\":\"{rule}\"")),
            "no {rule} outcome in the session"
        );
    }
    // The seed is what makes it so: another seed, another journal.
    let mut c = service(2025);
    busy_session(&mut c);
    assert_ne!(c.export_ndjson(), ndjson);
}

#[test]
fn a_session_started_at_another_time_differs_only_by_that_time() {
    let start = T0 + 86_400_000;
    let mut early = service(9);
    let mut late = Service::new(
        Settings::with_seed(9),
        Box::new(VirtualClock::starting_at(start)),
    )
    .unwrap();
    busy_session(&mut early);
    busy_session(&mut late);
    let shift = |v: &Value| v.as_i64().unwrap() + 86_400_000;
    let (e, l) = (logs_json(&early), logs_json(&late));
    assert_eq!(e.len(), l.len());
    for (mut e, l) in e.into_iter().zip(l) {
        e["timestamp"] = json!(shift(&e["timestamp"]));
        assert_eq!(e, l);
    }
}

// ------------------------------------------- outcomes per order, replayed

/// Order contents seen "in the playground"; 12 of them, 3 attempts each.
fn target(i: u32) -> RawRequest {
    create_request(
        &format!("replay-{i}"),
        10.0 + f64::from(i) * 1.25,
        "seen in the playground",
    )
}

/// Unrelated traffic: reads, other orders and their payments, requests
/// that fail in every way, a batch and a clock jump.
fn noise(svc: &mut Service, k: u32, target_order: Option<&str>) {
    svc.handle(get("/api/order/ORD-NOPE0000"));
    svc.handle(get("/api/payment/PAY-NOPE0000"));
    let other = order_id_of(&svc.handle(create_request(&format!("noise-{k}"), 2.0, "")));
    svc.handle(get(&format!("/api/order/{other}")));
    svc.handle(pay_request(&other, 2.0, "CARD"));
    svc.handle(pay_request(&other, 2.0, "WALLET_A"));
    svc.handle(post_text("/api/order/create", "{\"userId\":"));
    svc.handle(create_request("noise", -1.0, ""));
    svc.handle(get("/api/nothing/here"));
    svc.handle(RawRequest::new("PUT", "/api/payment/pay"));
    svc.handle(with_outcome(pay_request(&other, 2.0, "CARD"), "sometimes"));
    if let Some(order) = target_order {
        // Failed requests on the very order: none of them is an attempt.
        svc.handle(pay_request(order, 1.0, "BITCOIN"));
        svc.handle(pay_request(order, 0.0, "CARD"));
        svc.handle(with_outcome(pay_request(order, 1.0, "CARD"), "nope"));
        svc.handle(get(&format!("/api/order/{order}")));
    }
    if k % 4 == 0 {
        svc.handle(get("/api/test/order/batch?count=6"));
    }
    svc.advance(u64::from(k) * 1_000);
}

/// A target order's id and each of its attempts as (attempt, approved, draw).
type Outcomes = (String, Vec<(u32, bool, f64)>);

fn target_outcomes(svc: &mut Service, noisy: bool) -> Vec<Outcomes> {
    (0..12)
        .map(|i| {
            if noisy {
                noise(svc, i, None);
            }
            let order = order_id_of(&svc.handle(target(i)));
            let attempts = (0..3)
                .map(|_| {
                    if noisy {
                        noise(svc, 100 + i, Some(&order));
                    }
                    let r = svc.handle(pay_request(&order, 5.0, "CARD"));
                    let d = decision(svc, &r);
                    assert_eq!(d.approved, r.body.code == 0);
                    (d.attempt, d.approved, d.draw)
                })
                .collect();
            (order, attempts)
        })
        .collect()
}

#[test]
fn a_payment_outcome_does_not_change_when_unrelated_requests_come_before_it() {
    let quiet = target_outcomes(&mut service(77), false);
    let noisy = target_outcomes(&mut service(77), true);
    assert_eq!(quiet, noisy);
    for (_, attempts) in &quiet {
        let numbers: Vec<u32> = attempts.iter().map(|a| a.0).collect();
        assert_eq!(numbers, [1, 2, 3]);
    }
    // Both outcomes occur, so a change would have shown.
    let approved: Vec<bool> = quiet
        .iter()
        .flat_map(|(_, a)| a.iter().map(|a| a.1))
        .collect();
    assert!(approved.contains(&true) && approved.contains(&false));
    // And the outcome is the seed's: another seed decides these otherwise.
    let other = target_outcomes(&mut service(78), false);
    assert_ne!(
        quiet.iter().map(|(_, a)| a).collect::<Vec<_>>(),
        other.iter().map(|(_, a)| a).collect::<Vec<_>>()
    );
}

/// Seen in a session with seed 42: the first payment of this order fails
/// and the second succeeds. Pinned, and the Node test
/// (tests/node/otlp.test.mjs) checks the WebAssembly build decides alike.
const PINNED_ORDER_ID: &str = "ORD-2SC7XMIT";
const PINNED_FIRST_DRAW: f64 = 0.1004408566832824;

#[test]
fn a_failure_seen_once_replays_alone_in_three_lines() {
    let mut svc = service(42);
    let order = order_id_of(&svc.handle(create_request("alice", 19.99, "lamp")));
    assert_eq!(
        svc.handle(pay_request(&order, 19.99, "CARD")).body.msg,
        "Third party payment failed"
    );

    // What those lines rest on, pinned: the id, the draw and its reason.
    assert_eq!(order, PINNED_ORDER_ID);
    let first = svc.logs(None)[svc.logs(None).len() - 2].clone();
    match first.stage {
        Stage::Service {
            outcome: Some(d), ..
        } => {
            assert_eq!((d.attempt, d.approved, d.rule), (1, false, DecidedBy::Draw));
            assert_eq!(d.draw, PINNED_FIRST_DRAW);
            assert_eq!(d.reason, "draw 0.1004 < failure rate 0.3: declined");
        }
        other => panic!("not a payment's service record: {other:?}"),
    }
    let retry = svc.handle(pay_request(&order, 19.99, "CARD"));
    assert_eq!((retry.body.code, decision(&svc, &retry).attempt), (0, 2));
}

// ------------------------------------------------------- forced outcomes

#[test]
fn x_sim_outcome_decides_its_attempt_in_any_letter_case_and_says_so() {
    let cases = [
        (0.0, "failure", false),
        (0.0, "FAILURE", false),
        (0.0, "Failure", false),
        (0.0, " failure ", false),
        (1.0, "success", true),
        (1.0, "SUCCESS", true),
        (1.0, "sUcCeSs", true),
    ];
    for (rate, value, approved) in cases {
        for name in ["X-Sim-Outcome", "x-sim-outcome", "X-SIM-OUTCOME"] {
            let mut svc = with_rate(5, rate);
            let order = create_order_id(&mut svc);
            let r = svc.handle(pay_request(&order, 1.0, "CARD").with_header(name, value));
            assert_eq!(r.status, 200, "{name}: {value}");
            if approved {
                assert_eq!(data(&r)["status"], "SUCCESS", "{name}: {value}");
                assert_eq!(svc.payments().len(), 1);
            } else {
                assert_eq!(body(&r), business_error("Third party payment failed"));
                assert_eq!(svc.payments().len(), 0);
            }
            let d = decision(&svc, &r);
            let (verdict, would) = if approved {
                ("approved", "declined")
            } else {
                ("declined", "approved")
            };
            assert_eq!(
                (d.approved, d.rule, d.attempt),
                (approved, DecidedBy::Header, 1)
            );
            assert_eq!(d.threshold, rate);
            assert_eq!(d.draw, keyed_unit(5, &order, 1));
            assert_eq!(
                d.reason,
                format!(
                    "forced {verdict} by the X-Sim-Outcome header (the draw {:.4} would have {would})",
                    d.draw
                )
            );
            let status = service_record(&svc, &r).unwrap().1;
            let expected = if approved {
                LogStatus::Success
            } else {
                LogStatus::ServerError
            };
            assert_eq!(status, expected);
            // Without the header the rate decides, the other way.
            let free = svc.handle(pay_request(&order, 1.0, "CARD"));
            assert_eq!(free.body.code == 0, !approved);
            assert_eq!(decision(&svc, &free).rule, DecidedBy::Draw);
        }
    }
}

#[test]
fn an_invalid_x_sim_outcome_is_a_400_naming_the_header_and_changes_nothing() {
    for value in [
        "",
        "fail",
        "ok",
        "successful",
        "1",
        "true",
        "success,failure",
        "declined",
    ] {
        let mut svc = with_rate(6, 0.5);
        let order = create_order_id(&mut svc);
        svc.force_next(Forced::Failure, 2);
        let (orders, payments, now, spans) = (
            svc.orders().clone(),
            svc.payments().clone(),
            svc.now(),
            svc.spans().len(),
        );
        let r = svc.handle(with_outcome(pay_request(&order, 1.0, "CARD"), value));
        assert_eq!(r.status, 400, "{value:?}");
        assert_eq!(
            body(&r),
            json!({"code": 400, "msg": format!("X-Sim-Outcome: must be success or failure, got {value:?}"), "data": null}),
            "{value:?}"
        );
        // No attempt, no payment, nothing forced used up, no time spent.
        assert_eq!(svc.orders(), &orders);
        assert_eq!(svc.payments(), &payments);
        assert_eq!(svc.forced_next(), Some((Forced::Failure, 2)));
        assert_eq!((svc.now(), sim_ms(&r)), (now, 0));
        assert!(service_record(&svc, &r).is_none());
        let records = records_of(&svc, &r);
        assert_eq!(records.len(), 2);
        match &records[1].stage {
            Stage::Response {
                status,
                http_status,
                duration,
                ..
            } => assert_eq!(
                (*status, *http_status, *duration),
                (LogStatus::ClientError, 400, None)
            ),
            other => panic!("{other:?}"),
        }
        assert_eq!(svc.spans().len(), spans + 1, "only the gateway span");
        // The next valid attempt is the order's first, and is the forced one.
        let next = svc.handle(pay_request(&order, 1.0, "CARD"));
        let d = decision(&svc, &next);
        assert_eq!(
            (d.attempt, d.rule, d.approved),
            (1, DecidedBy::ForcedNext, false)
        );
        assert_eq!(svc.forced_next(), Some((Forced::Failure, 1)));
    }
}

#[test]
fn force_next_failure_3_fails_exactly_the_next_three_attempts_then_the_draw_resumes() {
    let mut svc = with_rate(7, 0.0);
    let orders: Vec<String> = (0..3)
        .map(|i| order_id_of(&svc.handle(create_request(&format!("f{i}"), 4.0, ""))))
        .collect();
    assert_eq!(svc.forced_next(), None);
    svc.force_next(Forced::Failure, 3);
    assert_eq!(svc.forced_next(), Some((Forced::Failure, 3)));
    // Requests that are not attempts use none of it.
    svc.handle(get(&format!("/api/order/{}", orders[0])));
    svc.handle(create_request("other", 1.0, ""));
    svc.handle(pay_request("ORD-NOPE0000", 1.0, "CARD"));
    svc.handle(pay_request(&orders[0], 0.0, "CARD"));
    svc.handle(pay_request(&orders[0], 1.0, "card"));
    svc.handle(get("/api/test/order/batch?count=abc"));
    assert_eq!(svc.forced_next(), Some((Forced::Failure, 3)));

    let mut seen = Vec::new();
    for (i, left) in [(0, Some(2)), (1, Some(1)), (0, None)] {
        let r = svc.handle(pay_request(&orders[i], 1.0, "CARD"));
        assert_eq!(body(&r), business_error("Third party payment failed"));
        let d = decision(&svc, &r);
        assert_eq!(
            (d.approved, d.rule, d.threshold),
            (false, DecidedBy::ForcedNext, 0.0)
        );
        assert_eq!(
            d.reason,
            format!(
                "forced declined by the forceNext (the draw {:.4} would have approved)",
                d.draw
            )
        );
        assert_eq!(svc.forced_next(), left.map(|n| (Forced::Failure, n)));
        seen.push(d.attempt);
    }
    assert_eq!(seen, [1, 1, 2]);
    for i in [0, 1, 2, 2] {
        let r = svc.handle(pay_request(&orders[i], 1.0, "CARD"));
        assert_eq!(r.body.code, 0);
        assert_eq!(decision(&svc, &r).rule, DecidedBy::Draw);
    }
    assert_eq!(svc.payments().len(), 4);
}

#[test]
fn force_next_success_passes_the_next_n_and_zero_clears_it() {
    let mut svc = with_rate(8, 1.0);
    let order = create_order_id(&mut svc);
    svc.force_next(Forced::Success, 2);
    let codes: Vec<(i32, DecidedBy)> = (0..4)
        .map(|_| {
            let r = svc.handle(pay_request(&order, 1.0, "CARD"));
            (r.body.code, decision(&svc, &r).rule)
        })
        .collect();
    assert_eq!(
        codes,
        [
            (0, DecidedBy::ForcedNext),
            (0, DecidedBy::ForcedNext),
            (-1, DecidedBy::Draw),
            (-1, DecidedBy::Draw)
        ]
    );
    svc.force_next(Forced::Success, 5);
    svc.force_next(Forced::Success, 0);
    assert_eq!(svc.forced_next(), None);
    let r = svc.handle(pay_request(&order, 1.0, "CARD"));
    assert_eq!(
        (r.body.code, decision(&svc, &r).rule),
        (-1, DecidedBy::Draw)
    );
    // A later instruction replaces an earlier one.
    svc.force_next(Forced::Failure, 4);
    svc.force_next(Forced::Success, 1);
    assert_eq!(svc.forced_next(), Some((Forced::Success, 1)));
    let r = svc.handle(pay_request(&order, 1.0, "CARD"));
    assert_eq!(
        (r.body.code, decision(&svc, &r).rule),
        (0, DecidedBy::ForcedNext)
    );
    assert_eq!(svc.forced_next(), None);
}

#[test]
fn the_header_wins_over_force_next_for_its_own_request_only() {
    let mut svc = with_rate(9, 0.0);
    let order = create_order_id(&mut svc);
    svc.force_next(Forced::Failure, 2);
    let r = svc.handle(with_outcome(pay_request(&order, 1.0, "CARD"), "success"));
    assert_eq!(r.body.code, 0);
    let d = decision(&svc, &r);
    assert_eq!(
        (d.approved, d.rule, d.attempt),
        (true, DecidedBy::Header, 1)
    );
    // The header's request is not one of the forced ones: both are left.
    assert_eq!(svc.forced_next(), Some((Forced::Failure, 2)));
    let rules: Vec<(bool, DecidedBy)> = (0..3)
        .map(|_| {
            let r = svc.handle(pay_request(&order, 1.0, "CARD"));
            let d = decision(&svc, &r);
            (d.approved, d.rule)
        })
        .collect();
    assert_eq!(
        rules,
        [
            (false, DecidedBy::ForcedNext),
            (false, DecidedBy::ForcedNext),
            (true, DecidedBy::Draw)
        ]
    );
    // And a header saying failure wins over a forced success.
    svc.force_next(Forced::Success, 1);
    let r = svc.handle(with_outcome(pay_request(&order, 1.0, "CARD"), "failure"));
    assert_eq!(
        (r.body.code, decision(&svc, &r).rule),
        (-1, DecidedBy::Header)
    );
    assert_eq!(svc.forced_next(), Some((Forced::Success, 1)));
}

// ------------------------------------------------ the draw and its share

/// Pays `n` fresh orders once each (and every tenth a second time);
/// checks each explanation against its outcome; returns the first
/// attempts' failures.
fn first_attempt_failures(seed: u64, rate: f64, n: u64) -> u64 {
    let mut settings = settings(seed, rate);
    settings.log_capacity = 4;
    let mut svc = service_with(settings);
    let mut failed = 0;
    for i in 0..n {
        let order = order_id_of(&svc.handle(create_request(&format!("share-{i}"), 7.25, "")));
        for attempt in 1..=(if i % 10 == 0 { 2 } else { 1 }) {
            let r = svc.handle(pay_request(&order, 7.25, "CARD"));
            let d = decision(&svc, &r);
            assert_eq!(
                (d.rule, d.attempt, d.threshold),
                (DecidedBy::Draw, attempt, rate)
            );
            assert_eq!(d.draw, keyed_unit(seed, &order, u64::from(attempt)));
            assert!((0.0..1.0).contains(&d.draw));
            assert_eq!(d.approved, d.draw >= d.threshold, "{d:?}");
            assert_eq!(r.body.code == 0, d.approved);
            let (sign, verdict) = if d.approved {
                (">=", "approved")
            } else {
                ("<", "declined")
            };
            assert_eq!(
                d.reason,
                format!("draw {:.4} {sign} failure rate {rate}: {verdict}", d.draw)
            );
            if attempt == 1 && !d.approved {
                failed += 1;
            }
        }
    }
    failed
}

#[test]
fn the_failure_share_stays_within_five_sigma_for_several_seeds() {
    const N: u64 = 2000;
    for rate in [0.3, 0.5] {
        let (low, high) = five_sigma_bounds(N, rate);
        let counts: Vec<u64> = [1, 99, 31_337, u64::MAX]
            .into_iter()
            .map(|seed| first_attempt_failures(seed, rate, N))
            .collect();
        for count in &counts {
            assert!(
                (low..=high).contains(count),
                "rate {rate}: {count} of {N} failed, outside {low}..={high}: {counts:?}"
            );
        }
        // The seeds draw differently: not one count for all.
        assert!(counts.windows(2).any(|w| w[0] != w[1]), "{counts:?}");
    }
}

#[test]
fn the_explanation_says_why_for_every_payment_and_the_spans_agree() {
    let mut svc = with_rate(12, 0.3);
    let orders: Vec<String> = (0..40)
        .map(|i| order_id_of(&svc.handle(create_request(&format!("why-{i}"), 3.0, ""))))
        .collect();
    let mut outcomes = Vec::new();
    for round in 1..=3u32 {
        for order in &orders {
            let r = svc.handle(pay_request(order, 3.0, "CARD"));
            let d = decision(&svc, &r);
            assert_eq!(d.attempt, round);
            assert_eq!(d.approved, d.draw >= d.threshold);
            assert_eq!(d.threshold, 0.3);
            let (_, status, _) = service_record(&svc, &r).unwrap();
            let third = span_of(&spans_of(&svc, &r), Component::ThirdParty);
            let attribute = |key: &str| {
                third
                    .attributes
                    .iter()
                    .find(|(k, _)| k == key)
                    .map(|(_, v)| v.clone())
            };
            assert_eq!(attribute("orderpay.approved"), Some(json!(d.approved)));
            assert_eq!(attribute("orderpay.attempt"), Some(json!(d.attempt)));
            assert_eq!(attribute("orderpay.reason"), Some(json!(d.reason)));
            let expected = if d.approved {
                LogStatus::Success
            } else {
                LogStatus::ServerError
            };
            assert_eq!((status, third.status), (expected, expected));
            outcomes.push(d.approved);
        }
    }
    assert!(outcomes.contains(&true) && outcomes.contains(&false));
}

// --------------------------------------------------------------- latency

/// Which profile a served request spends, by its route.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Step {
    Order,
    Payment,
    Pay,
    Batch,
    Refused,
}

/// A mixed session; every request with the step it should take.
fn timed_session(svc: &mut Service, rounds: u32) -> Vec<(Step, u64, u64, Response)> {
    let mut out = Vec::new();
    let mut send = |svc: &mut Service, step: Step, req: RawRequest| {
        let before = svc.now();
        let r = svc.handle(req);
        let after = svc.now();
        out.push((
            step,
            u64::try_from(before).unwrap(),
            u64::try_from(after).unwrap(),
            r.clone(),
        ));
        r
    };
    for i in 0..rounds {
        let created = send(
            svc,
            Step::Order,
            create_request(&format!("t{i}"), 2.5, "timed"),
        );
        let order = order_id_of(&created);
        send(svc, Step::Order, get(&format!("/api/order/{order}")));
        let paid = send(svc, Step::Pay, pay_request(&order, 2.5, "CARD"));
        send(
            svc,
            Step::Pay,
            with_outcome(pay_request(&order, 2.5, "CARD"), "failure"),
        );
        send(svc, Step::Payment, pay_request("ORD-NOPE0000", 2.5, "CARD"));
        if let Some(payment) = data(&paid)["paymentId"].as_str() {
            send(svc, Step::Order, post(&format!("/api/order/{order}/pay")));
            send(svc, Step::Payment, get(&format!("/api/payment/{payment}")));
            send(
                svc,
                Step::Payment,
                post(&format!("/api/payment/refund/{payment}")),
            );
        } else {
            send(
                svc,
                Step::Order,
                post(&format!("/api/order/delete/{order}")),
            );
        }
        send(svc, Step::Refused, post_text("/api/order/create", "[]"));
        send(svc, Step::Refused, get("/api/unknown"));
        if i % 25 == 0 {
            send(svc, Step::Batch, get("/api/test/order/batch?count=3"));
            svc.advance(5_000);
        }
    }
    out
}

/// The batch's own step: its duration less that of the requests it made,
/// which are the response records logged inside it.
fn batch_own_ms(logs: &[LogRecord], r: &Response) -> u64 {
    let records = records_in(logs, r);
    let (from, to) = (records[0].seq, records[1].seq);
    let inner: u64 = logs
        .iter()
        .filter(|rec| rec.seq > from && rec.seq < to)
        .filter_map(|rec| match rec.stage {
            Stage::Response { duration, .. } => duration,
            _ => None,
        })
        .sum();
    sim_ms(r) - inner
}

#[test]
fn durations_stay_within_each_profile_and_the_third_party_within_payment() {
    let model = LatencyModel::default();
    let mut svc = service(31);
    let session = timed_session(&mut svc, 300);
    let (logs, all_spans) = (svc.logs(None), svc.spans());
    let mut third_party = Vec::new();
    let mut orders = Vec::new();
    for (step, _, _, r) in &session {
        let ms = sim_ms(r);
        match step {
            Step::Order => {
                assert!(bounds(&model.order).contains(&ms), "order {ms}");
                orders.push(ms);
            }
            Step::Payment => assert!(bounds(&model.payment).contains(&ms), "payment {ms}"),
            Step::Batch => {
                let own = batch_own_ms(&logs, r);
                assert!(bounds(&model.test).contains(&own), "test {own}");
            }
            Step::Refused => assert_eq!(ms, 0),
            Step::Pay => {
                let spans = spans_in(&all_spans, r);
                let gateway = span_of(&spans, Component::Gateway);
                let payment = span_of(&spans, Component::PaymentService);
                let third = span_of(&spans, Component::ThirdParty);
                // The payment span covers the request; the call lies inside it.
                assert_eq!((payment.start, payment.end), (gateway.start, gateway.end));
                assert_eq!(payment.end - payment.start, i64::try_from(ms).unwrap());
                assert!(
                    payment.start < third.start && third.end <= payment.end,
                    "{spans:#?}"
                );
                let own = u64::try_from(third.start - payment.start).unwrap();
                let call = u64::try_from(third.end - third.start).unwrap();
                assert!(bounds(&model.payment).contains(&own), "payment {own}");
                assert!(
                    bounds(&model.third_party).contains(&call),
                    "third party {call}"
                );
                assert_eq!(own + call, ms);
                third_party.push(call);
            }
        }
    }
    // The draws spread over the profile and the tail shows: the bounds
    // above were not met by one constant.
    let spread_top = model.third_party.base_ms + model.third_party.spread_ms;
    assert!(third_party.len() >= 600);
    assert!(third_party
        .iter()
        .any(|&c| c < model.third_party.base_ms + 20));
    assert!(third_party
        .iter()
        .any(|&c| c > spread_top - 20 && c <= spread_top));
    assert!(third_party.iter().any(|&c| c > spread_top), "no slow tail");
    let order_top = model.order.base_ms + model.order.spread_ms;
    assert!(orders.iter().any(|&c| c > order_top), "no slow order step");
}

#[test]
fn defaults_are_a_few_ms_for_services_and_tens_to_hundreds_for_the_third_party() {
    let m = LatencyModel::default();
    for p in [m.order, m.payment] {
        assert!(p.base_ms >= 1 && p.base_ms + p.spread_ms <= 10, "{p:?}");
    }
    let t = m.third_party;
    assert!(
        t.base_ms >= 10 && (100..1000).contains(&(t.base_ms + t.spread_ms)),
        "{t:?}"
    );
    assert!(t.tail_chance > 0.0 && t.tail_ms > 0, "{t:?}");
}

#[test]
fn the_service_record_and_the_response_tell_the_same_duration() {
    let mut svc = service(32);
    let session = timed_session(&mut svc, 30);
    let (logs, spans) = (svc.logs(None), svc.spans());
    for (step, _, _, r) in session {
        let records = records_in(&logs, &r);
        let response_duration = match &records[records.len() - 1].stage {
            Stage::Response { duration, .. } => *duration,
            other => panic!("{other:?}"),
        };
        match service_record_in(&logs, &r) {
            Some((duration, _, _)) => {
                assert_ne!(step, Step::Refused);
                assert_eq!(header(&r, "x-sim-duration-ms"), duration.to_string());
                assert_eq!(response_duration, Some(duration));
                let gateway = span_of(&spans_in(&spans, &r), Component::Gateway);
                assert_eq!(
                    gateway.end - gateway.start,
                    i64::try_from(duration).unwrap()
                );
            }
            None => {
                assert_eq!(step, Step::Refused);
                assert_eq!(
                    (header(&r, "x-sim-duration-ms"), response_duration),
                    ("0", None)
                );
            }
        }
    }
}

#[test]
fn the_virtual_clock_moves_by_exactly_the_durations_and_advance() {
    let mut svc = service(33);
    assert_eq!(svc.now(), T0);
    let session = timed_session(&mut svc, 60);
    let logs = svc.logs(None);
    let mut expected = T0;
    for (i, (_, before, after, r)) in session.iter().enumerate() {
        let (before, after) = (
            i64::try_from(*before).unwrap(),
            i64::try_from(*after).unwrap(),
        );
        // Only the clock jumps of the session happen between requests.
        if before != expected {
            assert_eq!(before - expected, 5_000, "request {i}");
            assert!(matches!(session[i - 1].0, Step::Batch));
        }
        assert_eq!(
            after - before,
            i64::try_from(sim_ms(r)).unwrap(),
            "request {i}"
        );
        let records = records_in(&logs, r);
        // Gateway and service records where their spans start, the
        // response where the request ends.
        let last = records.len() - 1;
        for rec in &records[..last] {
            assert_eq!(rec.timestamp, before);
        }
        assert_eq!(records[last].timestamp, after);
        // A create or a payment is stamped when its simulated work ends.
        let uri = match &records[0].stage {
            Stage::Gateway { uri, .. } => uri.clone(),
            other => panic!("{other:?}"),
        };
        if uri == "/api/order/create" && r.body.code == 0 {
            assert_eq!(data(r)["createdAt"], json!(after));
        }
        if uri == "/api/payment/pay" && r.body.code == 0 {
            assert_eq!(data(r)["paidAt"], json!(after));
        }
        expected = after;
    }
    assert_eq!(svc.now(), expected);
    svc.advance(1234);
    let r = svc.handle(create_request("late", 1.0, ""));
    assert_eq!(records_of(&svc, &r)[0].timestamp, expected + 1234);
    assert_eq!(
        data(&r)["createdAt"],
        json!(expected + 1234 + i64::try_from(sim_ms(&r)).unwrap())
    );
}

#[test]
fn latency_overrides_of_zero_make_every_request_instant() {
    let zero = r#"{"baseMs":0,"spreadMs":0,"tailMs":0}"#;
    let mut svc = with_latency(
        34,
        &format!(r#"{{"order":{zero},"payment":{zero},"thirdParty":{zero},"test":{zero}}}"#),
    );
    let session = timed_session(&mut svc, 30);
    let logs = svc.logs(None);
    for (_, before, after, r) in &session {
        assert_eq!(sim_ms(r), 0);
        assert_eq!(before, after);
        if let Some((duration, _, _)) = service_record_in(&logs, r) {
            assert_eq!(duration, 0);
        }
    }
    // Only the session's own clock jumps moved time.
    assert_eq!(svc.now(), T0 + 2 * 5_000);
    for span in svc.spans() {
        assert_eq!(span.end, span.start, "{span:?}");
    }
}

#[test]
fn a_third_party_override_sets_the_call_and_leaves_the_rest() {
    let mut svc = with_latency(
        35,
        r#"{"thirdParty":{"baseMs":500,"spreadMs":0,"tailMs":0}}"#,
    );
    let model = LatencyModel::default();
    assert_eq!(svc.settings().latency.order, model.order);
    assert_eq!(svc.settings().latency.payment, model.payment);
    let session = timed_session(&mut svc, 40);
    let spans = svc.spans();
    for (step, _, _, r) in session {
        let ms = sim_ms(&r);
        match step {
            Step::Pay => {
                let payment = &model.payment;
                let range = payment.base_ms + 500
                    ..=payment.base_ms + payment.spread_ms + payment.tail_ms + 500;
                assert!(range.contains(&ms), "pay took {ms}");
                let third = span_of(&spans_in(&spans, &r), Component::ThirdParty);
                assert_eq!(third.end - third.start, 500);
            }
            Step::Order => assert!(bounds(&model.order).contains(&ms), "{ms}"),
            Step::Payment => assert!(bounds(&model.payment).contains(&ms), "{ms}"),
            Step::Batch | Step::Refused => {}
        }
    }
}

#[test]
fn an_order_override_is_exact_when_it_has_no_spread_or_tail() {
    let mut svc = with_latency(
        36,
        r#"{"order":{"baseMs":1000,"spreadMs":0,"tailChance":0}}"#,
    );
    let r = svc.handle(create_request("slow", 1.0, ""));
    assert_eq!(sim_ms(&r), 1000);
    assert_eq!(data(&r)["createdAt"], json!(T0 + 1000));
    assert_eq!(svc.now(), T0 + 1000);
}

// ------------------------------------------------------------- snapshots

/// The rest of a run: pays the orders made before, makes new ones, forces
/// and reads; every response, in order.
fn continuation(svc: &mut Service, earlier: &[String]) -> Vec<Response> {
    let mut out = Vec::new();
    for order in earlier {
        out.push(svc.handle(pay_request(order, 6.0, "WALLET_A")));
    }
    for i in 0..6 {
        let r = svc.handle(create_request(
            &format!("after-{i}"),
            6.0,
            "after the snapshot",
        ));
        let order = order_id_of(&r);
        out.push(r);
        let paid = svc.handle(pay_request(&order, 6.0, "CARD"));
        if let Some(payment) = data(&paid)["paymentId"].as_str() {
            out.push(svc.handle(post(&format!("/api/payment/refund/{payment}"))));
        }
        out.push(paid);
    }
    svc.force_next(Forced::Success, 1);
    out.push(svc.handle(with_outcome(
        pay_request(&earlier[0], 6.0, "CARD"),
        "failure",
    )));
    out.push(svc.handle(pay_request(&earlier[0], 6.0, "CARD")));
    svc.advance(777);
    out.push(svc.handle(get("/api/test/order/batch?count=3")));
    out.push(
        svc.handle(
            get(&format!("/api/order/{}", earlier[1]))
                .with_header("b3", "80f198ee56343ba864fe8b2a57d3eff7-e457b5a2e4d86bd1-1"),
        ),
    );
    out
}

#[test]
fn a_snapshot_mid_run_with_force_next_pending_continues_identically() {
    let mut settings = settings(51, 0.4);
    settings.latency = LatencyModel::default()
        .with_overrides(r#"{"thirdParty":{"baseMs":90,"tailChance":0.5}}"#)
        .unwrap();
    let mut original = service_with(settings);
    let earlier: Vec<String> = (0..4)
        .map(|i| order_id_of(&original.handle(create_request(&format!("before-{i}"), 6.0, ""))))
        .collect();
    original.handle(pay_request(&earlier[3], 6.0, "CARD"));
    original.force_next(Forced::Failure, 3);
    let first = original.handle(pay_request(&earlier[3], 6.0, "CARD"));
    assert_eq!(decision(&original, &first).rule, DecidedBy::ForcedNext);
    assert_eq!(original.forced_next(), Some((Forced::Failure, 2)));

    let snapshot = original.snapshot();
    let mut restored =
        Service::restore(&snapshot, Box::new(VirtualClock::starting_at(0))).expect("restores");
    assert_eq!(restored.forced_next(), Some((Forced::Failure, 2)));
    assert_eq!(restored.now(), original.now());
    assert_eq!(restored.settings(), original.settings());

    let a = continuation(&mut original, &earlier);
    let b = continuation(&mut restored, &earlier);
    assert_eq!(a, b);
    assert_eq!(original.logs(None), restored.logs(None));
    assert_eq!(original.spans(), restored.spans());
    assert_eq!(original.export_ndjson(), restored.export_ndjson());
    assert_eq!(original.export_otlp(), restored.export_otlp());
    assert_eq!(original.snapshot(), restored.snapshot());
    assert_eq!(original.now(), restored.now());

    // The pending instruction was carried over: exactly two more forced
    // failures, then the draw.
    let rules: Vec<DecidedBy> = a[..4].iter().map(|r| decision(&restored, r).rule).collect();
    assert_eq!(
        rules,
        [
            DecidedBy::ForcedNext,
            DecidedBy::ForcedNext,
            DecidedBy::Draw,
            DecidedBy::Draw
        ]
    );
    assert_eq!((a[0].body.code, a[1].body.code), (-1, -1));
    assert_eq!(restored.forced_next(), None);
}
