//! Tracing, native: B3 (multi and single header) and W3C traceparent in,
//! the right ids in the log records, the spans and the response headers
//! out, and the shape of each request's span tree.

mod common;

use common::*;
use orderpay::observe::{Component, Span};
use orderpay::observe::{LogRecord, LogStatus};
use orderpay::{RawRequest, Response, Service};
use serde_json::{json, Value};

const TRACE: &str = "463ac35c9f6413ad48485a3953bb6124";
const TRACE_64: &str = "463ac35c9f6413ad";
const CALLER: &str = "a2fb4a1d1a96d312";
const W3C_TRACE: &str = "4bf92f3577b34da6a3ce929d0e0e4736";
const W3C_PARENT: &str = "00f067aa0ba902b7";

// ---------------------------------------------------------------- helpers

fn header<'a>(r: &'a Response, name: &str) -> &'a str {
    r.header(name)
        .unwrap_or_else(|| panic!("no {name} header in {:?}", r.headers))
}

fn is_lower_hex(id: &str, len: usize) -> bool {
    id.len() == len
        && id
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
        && id.bytes().any(|b| b != b'0')
}

/// The records one request wrote: those of its gateway span (gateway and
/// response records) and of its service span.
fn records_of(svc: &Service, r: &Response) -> Vec<LogRecord> {
    let trace = header(r, "x-b3-traceid");
    let gateway = header(r, "x-b3-spanid");
    svc.logs(None)
        .into_iter()
        .filter(|rec| {
            rec.trace_id == trace
                && (rec.span_id == gateway || rec.parent_span_id.as_deref() == Some(gateway))
        })
        .collect()
}

/// The spans of one request: its gateway span and every span under it.
fn spans_of(svc: &Service, r: &Response) -> Vec<Span> {
    let trace = header(r, "x-b3-traceid");
    let mut ids = vec![header(r, "x-b3-spanid").to_owned()];
    let mut out = Vec::new();
    for span in svc.spans().into_iter().filter(|s| s.trace_id == trace) {
        if ids.contains(&span.span_id)
            || span
                .parent_span_id
                .as_ref()
                .is_some_and(|p| ids.contains(p))
        {
            ids.push(span.span_id.clone());
            out.push(span);
        }
    }
    out
}

/// The components of a request's spans, in the order they were recorded.
fn components(spans: &[Span]) -> Vec<Component> {
    spans.iter().map(|s| s.component).collect()
}

fn a_created_order(svc: &mut Service) -> String {
    create_order_id(svc)
}

fn with_outcome(req: RawRequest, value: &str) -> RawRequest {
    req.with_header("X-Sim-Outcome", value)
}

/// Everything a request must show about the trace it joined: the response
/// headers, the ids in its log records and, when sampled, its spans (gateway
/// under the caller's span, service under the gateway, third party under
/// the payment service). Returns the spans.
fn assert_in_trace(
    svc: &Service,
    r: &Response,
    trace: &str,
    caller: Option<&str>,
    sampled: bool,
) -> Vec<Span> {
    assert_eq!(header(r, "x-b3-traceid"), trace);
    let gateway = header(r, "x-b3-spanid");
    assert!(is_lower_hex(gateway, 16), "{gateway}");
    assert_ne!(Some(gateway), caller, "the gateway has a span of its own");
    assert_eq!(r.header("x-b3-parentspanid"), caller);
    assert_eq!(header(r, "x-b3-sampled"), if sampled { "1" } else { "0" });
    assert_eq!(
        header(r, "traceparent"),
        format!(
            "00-{trace:0>32}-{gateway}-{}",
            if sampled { "01" } else { "00" }
        )
    );

    let records = records_of(svc, r);
    assert_eq!(stage_name(&records[0]), "gateway");
    assert_eq!(stage_name(&records[records.len() - 1]), "response");
    let mut service_span = None;
    for rec in &records {
        assert_eq!(rec.trace_id, trace);
        if stage_name(rec) == "service" {
            assert_eq!(rec.parent_span_id.as_deref(), Some(gateway));
            assert!(is_lower_hex(&rec.span_id, 16));
            assert_ne!(rec.span_id, gateway);
            service_span = Some(rec.span_id.clone());
        } else {
            assert_eq!(rec.span_id, gateway);
            assert_eq!(rec.parent_span_id.as_deref(), caller);
        }
    }

    let spans = spans_of(svc, r);
    if !sampled {
        assert!(spans.is_empty(), "{spans:#?}");
        return spans;
    }
    assert_eq!(spans[0].component, Component::Gateway);
    assert_eq!(spans[0].span_id, gateway);
    assert_eq!(spans[0].parent_span_id.as_deref(), caller);
    for span in &spans {
        assert_eq!(span.trace_id, trace);
    }
    match &service_span {
        None => assert_eq!(spans.len(), 1, "{spans:#?}"),
        Some(id) => {
            assert_eq!(&spans[1].span_id, id);
            assert_eq!(spans[1].parent_span_id.as_deref(), Some(gateway));
            if let Some(third) = spans.get(2) {
                assert_eq!(third.component, Component::ThirdParty);
                assert_eq!(third.parent_span_id.as_ref(), Some(id));
            }
        }
    }
    let mut ids: Vec<&str> = spans.iter().map(|s| s.span_id.as_str()).collect();
    ids.extend(caller);
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), spans.len() + usize::from(caller.is_some()));
    spans
}

/// A pay request for a fresh order of a service that always approves.
fn pay_setup() -> (Service, RawRequest) {
    let mut svc = always_approves(3);
    let order = a_created_order(&mut svc);
    (svc, pay_request(&order, 1.0, "CARD"))
}

// ---------------------------------------------------------- B3 multi

#[test]
fn b3_multi_headers_join_the_callers_trace_under_its_span() {
    for (trace_name, span_name, sampled_name) in [
        ("X-B3-TraceId", "X-B3-SpanId", "X-B3-Sampled"),
        ("x-b3-traceid", "x-b3-spanid", "x-b3-sampled"),
    ] {
        let (mut svc, pay) = pay_setup();
        let r = svc.handle(
            pay.with_header(trace_name, TRACE)
                .with_header(span_name, CALLER)
                .with_header(sampled_name, "1"),
        );
        assert_eq!(r.body.code, 0);
        let spans = assert_in_trace(&svc, &r, TRACE, Some(CALLER), true);
        assert_eq!(
            components(&spans),
            [
                Component::Gateway,
                Component::PaymentService,
                Component::ThirdParty
            ]
        );
    }
}

#[test]
fn b3_multi_on_an_order_read_gives_gateway_and_order_service_spans() {
    let mut svc = service(4);
    let order = a_created_order(&mut svc);
    let r = svc.handle(
        get(&format!("/api/order/{order}"))
            .with_header("X-B3-TraceId", TRACE)
            .with_header("X-B3-SpanId", CALLER)
            .with_header("X-B3-ParentSpanId", "0020000000000001"),
    );
    let spans = assert_in_trace(&svc, &r, TRACE, Some(CALLER), true);
    assert_eq!(
        components(&spans),
        [Component::Gateway, Component::OrderService]
    );
}

#[test]
fn a_b3_trace_id_without_a_span_id_makes_the_gateway_the_root() {
    let (mut svc, pay) = pay_setup();
    let r = svc.handle(pay.with_header("X-B3-TraceId", TRACE));
    assert_in_trace(&svc, &r, TRACE, None, true);
    // An invalid span id is dropped, the valid trace id kept.
    let (mut svc, pay) = pay_setup();
    let r = svc.handle(
        pay.with_header("X-B3-TraceId", TRACE)
            .with_header("X-B3-SpanId", "A2FB4A1D1A96D312"),
    );
    assert_in_trace(&svc, &r, TRACE, None, true);
}

#[test]
fn invalid_b3_trace_ids_are_ignored_for_a_fresh_trace() {
    for bad in [
        "463AC35C9F6413AD",
        "463ac35c9f6413a",
        "0000000000000000",
        "00000000000000000000000000000000",
        "463ac35c9f6413ad48485a3953bb612",
        "not-a-trace-id",
    ] {
        let (mut svc, pay) = pay_setup();
        let r = svc.handle(
            pay.with_header("X-B3-TraceId", bad)
                .with_header("X-B3-SpanId", CALLER),
        );
        assert_eq!(r.body.code, 0, "tracing never breaks a request");
        let trace = header(&r, "x-b3-traceid").to_owned();
        assert!(is_lower_hex(&trace, 32), "{bad}: {trace}");
        assert_ne!(trace, bad);
        assert_in_trace(&svc, &r, &trace, None, true);
    }
}

// -------------------------------------------------------- B3 single

#[test]
fn the_single_b3_header_in_each_of_its_forms() {
    let cases: [(String, Option<&str>, Option<&str>, bool); 6] = [
        (
            format!("{TRACE}-{CALLER}-1-05e3ac9a4f6e3b90"),
            Some(TRACE),
            Some(CALLER),
            true,
        ),
        (
            format!("{TRACE}-{CALLER}-1"),
            Some(TRACE),
            Some(CALLER),
            true,
        ),
        (format!("{TRACE}-{CALLER}"), Some(TRACE), Some(CALLER), true),
        (
            format!("{TRACE}-{CALLER}-d"),
            Some(TRACE),
            Some(CALLER),
            true,
        ),
        (
            format!("{TRACE_64}-{CALLER}"),
            Some(TRACE_64),
            Some(CALLER),
            true,
        ),
        (
            format!("{TRACE}-{CALLER}-0"),
            Some(TRACE),
            Some(CALLER),
            false,
        ),
    ];
    for (value, trace, caller, sampled) in cases {
        let (mut svc, pay) = pay_setup();
        let before = svc.spans().len();
        let r = svc.handle(pay.with_header("b3", &value));
        assert_eq!(r.body.code, 0, "{value}");
        let spans = assert_in_trace(&svc, &r, trace.unwrap(), caller, sampled);
        assert_eq!(svc.spans().len(), before + spans.len(), "{value}");
        assert_eq!(spans.len(), if sampled { 3 } else { 0 }, "{value}");
    }
}

#[test]
fn a_lone_b3_sampling_decision_starts_a_fresh_trace_with_that_decision() {
    for (value, sampled) in [("0", false), ("1", true), ("d", true)] {
        let (mut svc, pay) = pay_setup();
        let r = svc.handle(pay.with_header("B3", value));
        let trace = header(&r, "x-b3-traceid").to_owned();
        assert!(is_lower_hex(&trace, 32));
        assert_in_trace(&svc, &r, &trace, None, sampled);
    }
}

#[test]
fn a_malformed_single_b3_header_is_ignored() {
    for bad in [
        "nonsense",
        "nonsense-e457b5a2e4d86bd1",
        &format!("{TRACE}-xyz"),
        &format!("{TRACE}-{CALLER}-7"),
        &format!("{TRACE}-{CALLER}-1-{CALLER}-extra"),
    ] {
        let (mut svc, pay) = pay_setup();
        let r = svc.handle(pay.with_header("b3", bad));
        let trace = header(&r, "x-b3-traceid").to_owned();
        assert_ne!(trace, TRACE, "{bad}");
        assert_in_trace(&svc, &r, &trace, None, true);
    }
}

// ---------------------------------------------------------- traceparent

#[test]
fn w3c_traceparent_joins_the_callers_trace() {
    for (flags, sampled) in [("01", true), ("03", true), ("00", false), ("02", false)] {
        let (mut svc, pay) = pay_setup();
        let r = svc.handle(pay.with_header(
            "traceparent",
            &format!("00-{W3C_TRACE}-{W3C_PARENT}-{flags}"),
        ));
        assert_eq!(r.body.code, 0);
        let spans = assert_in_trace(&svc, &r, W3C_TRACE, Some(W3C_PARENT), sampled);
        assert_eq!(spans.len(), if sampled { 3 } else { 0 });
    }
}

#[test]
fn malformed_traceparents_are_ignored() {
    for bad in [
        format!("ff-{W3C_TRACE}-{W3C_PARENT}-01"),
        format!("00-{}-{W3C_PARENT}-01", "0".repeat(32)),
        format!("00-{}-{W3C_PARENT}-01", W3C_TRACE.to_uppercase()),
        format!("00-{W3C_TRACE}-{W3C_PARENT}"),
        format!("00-{TRACE_64}-{W3C_PARENT}-01"),
        format!("00-{W3C_TRACE}-{W3C_PARENT}-zz"),
    ] {
        let (mut svc, pay) = pay_setup();
        let r = svc.handle(pay.with_header("traceparent", &bad));
        let trace = header(&r, "x-b3-traceid").to_owned();
        assert_ne!(trace, W3C_TRACE, "{bad}");
        assert_in_trace(&svc, &r, &trace, None, true);
    }
}

#[test]
fn a_traceparent_with_an_invalid_parent_id_is_ignored_whole() {
    for parent in ["0000000000000000", "00F067AA0BA902B7", "00f067aa0ba902"] {
        let (mut svc, pay) = pay_setup();
        let r = svc.handle(pay.with_header("traceparent", &format!("00-{W3C_TRACE}-{parent}-01")));
        assert_ne!(header(&r, "x-b3-traceid"), W3C_TRACE, "parent-id {parent}");
    }
}

// ----------------------------------------------------------- precedence

#[test]
fn x_b3_wins_over_b3_which_wins_over_traceparent() {
    let multi = [("X-B3-TraceId", TRACE), ("X-B3-SpanId", CALLER)];
    let single_trace = "80f198ee56343ba864fe8b2a57d3eff7";
    let single_span = "e457b5a2e4d86bd1";
    let single = format!("{single_trace}-{single_span}-1");
    let parent = format!("00-{W3C_TRACE}-{W3C_PARENT}-01");

    let send = |with_multi: bool, with_single: bool, with_parent: bool| {
        let (mut svc, mut pay) = pay_setup();
        if with_multi {
            for (n, v) in multi {
                pay = pay.with_header(n, v);
            }
        }
        if with_single {
            pay = pay.with_header("b3", &single);
        }
        if with_parent {
            pay = pay.with_header("traceparent", &parent);
        }
        let r = svc.handle(pay);
        (svc, r)
    };
    let (svc, r) = send(true, true, true);
    assert_in_trace(&svc, &r, TRACE, Some(CALLER), true);
    let (svc, r) = send(true, false, true);
    assert_in_trace(&svc, &r, TRACE, Some(CALLER), true);
    let (svc, r) = send(false, true, true);
    assert_in_trace(&svc, &r, single_trace, Some(single_span), true);
    let (svc, r) = send(false, false, true);
    assert_in_trace(&svc, &r, W3C_TRACE, Some(W3C_PARENT), true);

    // The winner brings its own parent and sampling, never a mix: X-B3
    // without a span id has no parent even when b3 has one, and its
    // sampling decision is its own.
    let (mut svc, pay) = pay_setup();
    let r = svc.handle(
        pay.with_header("X-B3-TraceId", TRACE)
            .with_header("b3", &format!("{single_trace}-{single_span}-0"))
            .with_header("traceparent", &format!("00-{W3C_TRACE}-{W3C_PARENT}-00")),
    );
    assert_in_trace(&svc, &r, TRACE, None, true);

    // An invalid X-B3-TraceId does not win: the next valid source does.
    let (mut svc, pay) = pay_setup();
    let r = svc.handle(
        pay.with_header("X-B3-TraceId", "XYZ")
            .with_header("X-B3-SpanId", CALLER)
            .with_header("b3", &single)
            .with_header("traceparent", &parent),
    );
    assert_in_trace(&svc, &r, single_trace, Some(single_span), true);
}

// --------------------------------------------------------------- 64 bit

#[test]
fn a_64_bit_b3_trace_id_is_padded_to_32_hex_for_w3c_and_otlp_only() {
    let (mut svc, pay) = pay_setup();
    let r = svc.handle(
        pay.with_header("X-B3-TraceId", TRACE_64)
            .with_header("X-B3-SpanId", CALLER),
    );
    let padded = format!("0000000000000000{TRACE_64}");
    // B3 out as it came in; traceparent padded (checked in assert_in_trace).
    let spans = assert_in_trace(&svc, &r, TRACE_64, Some(CALLER), true);
    assert!(header(&r, "traceparent").starts_with(&format!("00-{padded}-")));
    for rec in records_of(&svc, &r) {
        assert_eq!(rec.trace_id, TRACE_64);
    }
    // Every OTLP span of the request carries the padded id.
    let otlp = svc.export_otlp();
    let exported: Vec<&Value> = otlp["resourceSpans"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|rs| rs["scopeSpans"][0]["spans"].as_array().unwrap())
        .filter(|s| spans.iter().any(|ours| s["spanId"] == json!(ours.span_id)))
        .collect();
    assert_eq!(exported.len(), 3);
    for span in exported {
        assert_eq!(span["traceId"], json!(padded));
    }
}

// ------------------------------------------------------------- sampling

#[test]
fn an_unsampled_request_records_no_spans_but_writes_its_logs() {
    let headers: [&[(&str, &str)]; 6] = [
        &[
            ("X-B3-TraceId", TRACE),
            ("X-B3-SpanId", CALLER),
            ("X-B3-Sampled", "0"),
        ],
        &[
            ("X-B3-TraceId", TRACE),
            ("X-B3-SpanId", CALLER),
            ("X-B3-Sampled", "false"),
        ],
        &[("b3", "463ac35c9f6413ad48485a3953bb6124-a2fb4a1d1a96d312-0")],
        &[("b3", "0")],
        &[(
            "traceparent",
            "00-463ac35c9f6413ad48485a3953bb6124-a2fb4a1d1a96d312-00",
        )],
        &[("X-B3-Sampled", "0"), ("b3", "0")],
    ];
    for pairs in headers {
        let (mut svc, mut pay) = pay_setup();
        for (n, v) in pairs {
            pay = pay.with_header(n, v);
        }
        let (spans, otlp, logs) = (svc.spans(), svc.export_otlp(), svc.logs(None).len());
        let r = svc.handle(pay);
        assert_eq!(r.body.code, 0);
        assert_eq!(svc.spans(), spans, "{pairs:?}");
        assert_eq!(svc.export_otlp(), otlp, "{pairs:?}");
        let trace = header(&r, "x-b3-traceid").to_owned();
        let caller = r.header("x-b3-parentspanid").map(str::to_owned);
        assert_in_trace(&svc, &r, &trace, caller.as_deref(), false);
        let records = records_of(&svc, &r);
        assert_eq!(svc.logs(None).len(), logs + 3);
        assert_eq!(
            records.iter().map(stage_name).collect::<Vec<_>>(),
            ["gateway", "service", "response"]
        );
    }
}

#[test]
fn the_b3_debug_flag_samples_whatever_x_b3_sampled_says() {
    let (mut svc, pay) = pay_setup();
    let r = svc.handle(
        pay.with_header("X-B3-TraceId", TRACE)
            .with_header("X-B3-SpanId", CALLER)
            .with_header("X-B3-Flags", "1")
            .with_header("X-B3-Sampled", "0"),
    );
    assert_eq!(
        assert_in_trace(&svc, &r, TRACE, Some(CALLER), true).len(),
        3
    );
}

#[test]
fn a_lone_x_b3_sampled_0_is_a_deny_decision_like_b3_0() {
    let (mut svc, pay) = pay_setup();
    let r = svc.handle(pay.with_header("X-B3-Sampled", "0"));
    assert_eq!(header(&r, "x-b3-sampled"), "0");
    assert!(spans_of(&svc, &r).is_empty());
}

// ------------------------------------------------------------ span trees

/// Sends `req` with no incoming context: its trace is new, 32 hex digits,
/// and holds the spans of `expected`, the gateway's the root.
fn fresh_root(
    traces: &mut Vec<String>,
    svc: &mut Service,
    req: RawRequest,
    expected: &[Component],
) -> Response {
    let r = svc.handle(req);
    let trace = header(&r, "x-b3-traceid").to_owned();
    assert!(is_lower_hex(&trace, 32));
    assert!(!traces.contains(&trace), "a trace id used twice");
    traces.push(trace.clone());
    let spans = assert_in_trace(svc, &r, &trace, None, true);
    assert_eq!(components(&spans), expected, "{:?}", r.body);
    r
}

/// Pays `order` until a payment goes through (at most 20 tries), each
/// try a fresh root with the third party below; the payment's id.
fn paid_as_fresh_roots(traces: &mut Vec<String>, svc: &mut Service, order: &str) -> String {
    use Component::*;
    let mut payment = None;
    for _ in 0..20 {
        let req = pay_request(order, 2.0, "CARD");
        let r = fresh_root(traces, svc, req, &[Gateway, PaymentService, ThirdParty]);
        if r.body.code == 0 {
            payment = data(&r)["paymentId"].as_str().map(str::to_owned);
            break;
        }
    }
    payment.expect("one of 20 attempts went through")
}

#[test]
fn without_incoming_context_each_request_is_a_fresh_root_with_its_service_below() {
    use Component::*;
    let mut svc = service(5);
    let order = a_created_order(&mut svc);
    let second = a_created_order(&mut svc);
    let mut traces = Vec::new();
    let orders = [
        create_request("u", 2.0, ""),
        get(&format!("/api/order/{order}")),
        get("/api/order/ORD-NOPE0000"),
    ];
    for req in orders {
        fresh_root(&mut traces, &mut svc, req, &[Gateway, OrderService]);
    }
    let payment = paid_as_fresh_roots(&mut traces, &mut svc, &order);
    let rest: [(RawRequest, &[Component]); 8] = [
        (
            with_outcome(pay_request(&second, 2.0, "CARD"), "failure"),
            &[Gateway, PaymentService, ThirdParty],
        ),
        (
            pay_request("ORD-NOPE0000", 2.0, "CARD"),
            &[Gateway, PaymentService],
        ),
        (
            post(&format!("/api/order/{order}/pay")),
            &[Gateway, OrderService],
        ),
        (
            post(&format!("/api/order/delete/{order}")),
            &[Gateway, OrderService],
        ),
        (
            get(&format!("/api/payment/{payment}")),
            &[Gateway, PaymentService],
        ),
        (
            post(&format!("/api/payment/refund/{payment}")),
            &[Gateway, PaymentService],
        ),
        (
            post(&format!("/api/payment/refund/{payment}")),
            &[Gateway, PaymentService],
        ),
        (get("/api/test/order/batch?count=2"), &[Gateway, TestData]),
    ];
    for (req, expected) in rest {
        fresh_root(&mut traces, &mut svc, req, expected);
    }
}

#[test]
fn the_batch_s_generated_requests_each_have_a_trace_of_their_own() {
    let mut svc = always_approves(6);
    let before = svc.spans().len();
    let r = svc.handle(get("/api/test/order/batch?count=3"));
    let own = spans_of(&svc, &r);
    let batch_trace = header(&r, "x-b3-traceid");
    let inner: Vec<Span> = svc.spans()[before..]
        .iter()
        .filter(|s| s.trace_id != batch_trace)
        .cloned()
        .collect();
    assert_eq!(own.len() + inner.len(), svc.spans().len() - before);
    // Three orders, each created, paid (approved) and marked paid: 2 + 3 + 2 spans.
    assert_eq!(inner.len(), 3 * 7);
    let mut traces: Vec<&str> = inner.iter().map(|s| s.trace_id.as_str()).collect();
    traces.dedup();
    assert_eq!(traces.len(), 3);
    for span in &inner {
        match span.component {
            Component::Gateway => assert_eq!(span.parent_span_id, None),
            _ => assert!(span.parent_span_id.is_some()),
        }
    }
}

#[test]
fn refused_requests_have_only_a_gateway_span() {
    let mut svc = service(7);
    let order = a_created_order(&mut svc);
    let refused: Vec<(RawRequest, u16)> = vec![
        (post_text("/api/order/create", "{not json"), 400),
        (post_json("/api/order/create", &json!({"price": 1})), 400),
        (with_outcome(pay_request(&order, 1.0, "CARD"), "maybe"), 400),
        (pay_request(&order, 1.0, "card"), 400),
        (get("/api/test/order/batch?count=0"), 400),
        (get("/api/ordr/x"), 404),
        (RawRequest::new("PUT", &format!("/api/order/{order}")), 405),
        (
            RawRequest::new("POST", "/api/order/create")
                .with_header("Content-Type", "text/plain")
                .with_body("{}"),
            415,
        ),
    ];
    for (req, status) in refused {
        let r = svc.handle(
            req.with_header("X-B3-TraceId", TRACE)
                .with_header("X-B3-SpanId", CALLER),
        );
        assert_eq!(r.status, status, "{:?}", r.body);
        let spans = assert_in_trace(&svc, &r, TRACE, Some(CALLER), true);
        assert_eq!(components(&spans), [Component::Gateway], "{:?}", r.body);
        let gateway = &spans[0];
        assert_eq!((gateway.start, gateway.end), (gateway.start, gateway.start));
        assert_eq!(gateway.status, LogStatus::ClientError);
        assert!(gateway
            .attributes
            .contains(&("http.response.status_code".to_owned(), json!(status))));
    }
}

#[test]
fn span_names_use_the_route_templates() {
    let mut svc = always_approves(8);
    let order = a_created_order(&mut svc);
    let other = a_created_order(&mut svc);
    let paid = svc.handle(pay_request(&order, 1.0, "CARD"));
    let payment = data(&paid)["paymentId"].as_str().unwrap().to_owned();
    let cases = [
        (create_request("n", 1.0, ""), "POST /api/order/create"),
        (
            get(&format!("/api/order/{order}")),
            "GET /api/order/{orderId}",
        ),
        (
            post(&format!("/api/order/{order}/pay")),
            "POST /api/order/{orderId}/pay",
        ),
        (
            post(&format!("/api/order/delete/{other}")),
            "POST /api/order/delete/{orderId}",
        ),
        (pay_request(&order, 1.0, "CARD"), "POST /api/payment/pay"),
        (
            get(&format!("/api/payment/{payment}")),
            "GET /api/payment/{paymentId}",
        ),
        (
            post(&format!("/api/payment/refund/{payment}")),
            "POST /api/payment/refund/{paymentId}",
        ),
        (
            get("/api/test/order/batch?count=1"),
            "GET /api/test/order/batch",
        ),
        (
            get(&format!("/api/order/{order}?verbose=1")),
            "GET /api/order/{orderId}",
        ),
        (
            RawRequest::new("DELETE", &format!("/api/order/{order}")),
            "DELETE /api/order/{orderId}",
        ),
    ];
    for (req, name) in cases {
        let r = svc.handle(req);
        let spans = spans_of(&svc, &r);
        assert!(!spans.is_empty());
        for span in &spans {
            let expected = if span.component == Component::ThirdParty {
                "authorize payment"
            } else {
                name
            };
            assert_eq!(span.name, expected, "{:?}", span.component);
        }
    }
}

#[test]
fn an_unrouted_path_s_span_is_named_by_its_method_alone() {
    let mut svc = service(9);
    for path in ["/api/ordr/x", "/health", "/api/order/a/b/c/d"] {
        let r = svc.handle(get(path));
        assert_eq!(r.status, 404);
        assert_eq!(spans_of(&svc, &r)[0].name, "GET", "{path}");
    }
}

#[test]
fn routed_server_spans_carry_http_route() {
    let mut svc = service(10);
    let order = a_created_order(&mut svc);
    let r = svc.handle(get(&format!("/api/order/{order}")));
    let gateway = &spans_of(&svc, &r)[0];
    assert!(gateway
        .attributes
        .contains(&("http.route".to_owned(), json!("/api/order/{orderId}"))));
}

#[test]
fn span_times_match_the_log_records_and_the_attributes_the_request() {
    let mut svc = always_approves(11);
    let order = a_created_order(&mut svc);
    svc.advance(10_000);
    let r = svc.handle(pay_request(&order, 1.0, "CARD").with_header("X-User-Id", "ann"));
    let records = records_of(&svc, &r);
    let spans = spans_of(&svc, &r);
    let (arrived, answered) = (records[0].timestamp, records[2].timestamp);
    assert_eq!(
        answered - arrived,
        header(&r, "x-sim-duration-ms").parse::<i64>().unwrap()
    );
    for span in &spans[..2] {
        assert_eq!(
            (span.start, span.end),
            (arrived, answered),
            "{:?}",
            span.component
        );
        assert_eq!(span.status, LogStatus::Success);
    }
    let attributes: Vec<(String, Value)> = spans[0].attributes.clone();
    assert_eq!(
        attributes,
        vec![
            ("http.request.method".to_owned(), json!("POST")),
            ("url.path".to_owned(), json!("/api/payment/pay")),
            ("http.response.status_code".to_owned(), json!(200)),
            ("orderpay.code".to_owned(), json!(0)),
            ("orderpay.msg".to_owned(), json!("success")),
            ("http.route".to_owned(), json!("/api/payment/pay")),
            ("enduser.id".to_owned(), json!("ann")),
        ]
    );
    assert_eq!(
        spans[1].attributes,
        vec![("orderpay.event_class".to_owned(), json!("payment"))]
    );
}

#[test]
fn the_otlp_export_holds_every_span_with_its_ids_times_and_kind() {
    let mut svc = service(12);
    let order = a_created_order(&mut svc);
    svc.handle(
        pay_request(&order, 1.0, "CARD")
            .with_header("traceparent", &format!("00-{W3C_TRACE}-{W3C_PARENT}-01")),
    );
    svc.handle(get("/api/nope"));
    let spans = svc.spans();
    let otlp = svc.export_otlp();
    let mut exported = Vec::new();
    for rs in otlp["resourceSpans"].as_array().unwrap() {
        let service_name = rs["resource"]["attributes"][0]["value"]["stringValue"].clone();
        assert_eq!(rs["resource"]["attributes"][0]["key"], "service.name");
        for span in rs["scopeSpans"][0]["spans"].as_array().unwrap() {
            exported.push((service_name.clone(), span.clone()));
        }
    }
    assert_eq!(exported.len(), spans.len());
    for ours in &spans {
        let (service_name, span) = exported
            .iter()
            .find(|(_, s)| s["spanId"] == json!(ours.span_id))
            .unwrap_or_else(|| panic!("{} not exported", ours.span_id));
        assert_eq!(service_name, &json!(ours.component.name()));
        assert_eq!(span["traceId"], json!(format!("{:0>32}", ours.trace_id)));
        assert_eq!(
            span.get("parentSpanId").and_then(Value::as_str),
            ours.parent_span_id.as_deref()
        );
        assert_eq!(span["name"], json!(ours.name));
        let nanos = |ms: i64| json!(format!("{ms}000000"));
        assert_eq!(span["startTimeUnixNano"], nanos(ours.start));
        assert_eq!(span["endTimeUnixNano"], nanos(ours.end));
        let kind = if ours.component == Component::ThirdParty {
            3
        } else {
            2
        };
        assert_eq!(span["kind"], json!(kind));
        let error = ours.status == LogStatus::ServerError;
        assert_eq!(
            span["status"].get("code").and_then(Value::as_i64),
            error.then_some(2)
        );
    }
}
