//! The binding, exercised in a real browser (headless Chromium) through
//! wasm-bindgen-test: JS values in, JS values out, as a page sees them.
#![cfg(target_arch = "wasm32")]

use js_sys::{Array, Function, Reflect, JSON};
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

use orderpay::wasm::{handle, logs, Service};

wasm_bindgen_test_configure!(run_in_browser);

/// A JS value made by JS code, so tests pass what a page would.
fn js(expr: &str) -> JsValue {
    Function::new_no_args(&format!("return ({expr});"))
        .call0(&JsValue::NULL)
        .unwrap()
}

fn get(value: &JsValue, path: &str) -> JsValue {
    path.split('.').fold(value.clone(), |v, key| {
        Reflect::get(&v, &key.into()).unwrap()
    })
}

fn text(value: &JsValue, path: &str) -> String {
    get(value, path).as_string().unwrap_or_default()
}

fn num(value: &JsValue, path: &str) -> f64 {
    get(value, path).as_f64().unwrap_or(f64::NAN)
}

fn service(options: &str) -> Service {
    Service::new(js(options)).unwrap()
}

fn create(s: &Service) -> JsValue {
    s.handle(
        "POST".into(),
        "/api/order/create".into(),
        js("{userId: 'u1', price: 12.5, description: 'tea'}"),
        JsValue::UNDEFINED,
    )
}

#[wasm_bindgen_test]
fn the_typical_flow_runs_through_the_js_api() {
    let s = service("{seed: 7, failureRate: 0}");
    let order = create(&s);
    assert_eq!(num(&order, "code"), 0.0);
    assert_eq!(text(&order, "msg"), "success");
    let id = text(&order, "data.orderId");
    assert!(id.starts_with("ORD-") && id.len() == 12, "{id}");
    let read = s.handle(
        "GET".into(),
        format!("/api/order/{id}").into(),
        JsValue::NULL,
        JsValue::NULL,
    );
    assert_eq!(text(&read, "data.status"), "CREATED");
    let pay_body = js(&format!(
        "JSON.stringify({{orderId: '{id}', amount: 12.5, paymentMethod: 'CARD'}})"
    ));
    let paid = s.handle(
        "POST".into(),
        "/api/payment/pay".into(),
        pay_body,
        JsValue::UNDEFINED,
    );
    assert_eq!(text(&paid, "data.status"), "SUCCESS");
    let payment_id = text(&paid, "data.paymentId");
    let marked = s.handle(
        "POST".into(),
        format!("/api/order/{id}/pay").into(),
        JsValue::UNDEFINED,
        JsValue::UNDEFINED,
    );
    assert!(get(&marked, "data").is_null());
    let delete = s.handle(
        "POST".into(),
        format!("/api/order/delete/{id}").into(),
        JsValue::UNDEFINED,
        JsValue::UNDEFINED,
    );
    assert_eq!(
        (num(&delete, "code"), text(&delete, "msg")),
        (-1.0, "Paid order cannot be deleted".into())
    );
    let payment = s.handle(
        "GET".into(),
        format!("/api/payment/{payment_id}").into(),
        JsValue::UNDEFINED,
        JsValue::UNDEFINED,
    );
    assert_eq!(text(&payment, "data.orderId"), id);
    let refund = s.handle(
        "POST".into(),
        format!("/api/payment/refund/{payment_id}").into(),
        JsValue::UNDEFINED,
        JsValue::UNDEFINED,
    );
    assert_eq!(num(&refund, "code"), 0.0);
    let again = s.handle(
        "POST".into(),
        format!("/api/payment/refund/{payment_id}").into(),
        JsValue::UNDEFINED,
        JsValue::UNDEFINED,
    );
    assert_eq!(text(&again, "msg"), "Only success payment can be refunded");
}

#[wasm_bindgen_test]
fn results_are_plain_objects_with_null_data_not_maps_or_undefined() {
    let s = service("{seed: 1}");
    let order = create(&s);
    assert_eq!(
        get(&order, "constructor")
            .dyn_into::<Function>()
            .map(|f| f.name())
            .ok(),
        Some("Object".into())
    );
    assert!(get(&order, "data").is_object());
    let missing = s.handle(
        "GET".into(),
        "/api/order/ORD-NOPE0000".into(),
        JsValue::UNDEFINED,
        JsValue::UNDEFINED,
    );
    assert!(get(&missing, "data").is_null());
    assert_eq!(
        JSON::stringify(&missing).unwrap().as_string().unwrap(),
        r#"{"code":-1,"msg":"Order not found","data":null}"#
    );
}

#[wasm_bindgen_test]
fn request_gives_status_headers_and_echoes_the_trace_id() {
    let s = service("{seed: 1}");
    let headers = js(
        "new Headers({'X-B3-TraceId': '463ac35c9f6413ad48485a3953bb6124', 'x-user-id': 'alice'})",
    );
    let r = s.request(
        "GET".into(),
        "/api/order/none".into(),
        JsValue::UNDEFINED,
        headers,
    );
    assert_eq!(num(&r, "status"), 200.0);
    assert_eq!(
        text(&r, "headers.x-b3-traceid"),
        "463ac35c9f6413ad48485a3953bb6124"
    );
    assert_eq!(text(&r, "headers.content-type"), "application/json");
    let records = s.logs(JsValue::UNDEFINED);
    let response = Array::from(&records).get(2);
    assert_eq!(text(&response, "stage"), "response");
    assert_eq!(text(&response, "userId"), "alice");
    assert_eq!(
        text(&response, "traceId"),
        "463ac35c9f6413ad48485a3953bb6124"
    );
    let wrong = s.request(
        "DELETE".into(),
        "/api/order/create".into(),
        JsValue::UNDEFINED,
        js("{'X-B3-TRACEID': 'not-hex'}"),
    );
    assert_eq!(
        (num(&wrong, "status"), text(&wrong, "headers.allow")),
        (405.0, "POST".into())
    );
    assert_eq!(text(&wrong, "headers.x-b3-traceid").len(), 32);
}

#[wasm_bindgen_test]
fn no_input_throws_every_bad_one_is_an_envelope() {
    let s = service("{seed: 3}");
    let cases: [(JsValue, JsValue, JsValue, JsValue, f64, &str); 12] = [
        (
            "POST".into(),
            "/api/order/create".into(),
            js("{userId: 'u', price: 1}"),
            js("new Proxy({}, {ownKeys() { throw new Error('no keys'); }})"),
            400.0,
            "headers: no keys",
        ),
        (
            "POST".into(),
            "/api/order/create".into(),
            js("{userId: 'u', price: 1}"),
            js("{[Symbol.iterator]() { throw new Error('no iterator'); }}"),
            400.0,
            "headers: no iterator",
        ),
        (
            "POST".into(),
            "/api/order/create".into(),
            js("{get userId() { throw new Error('no getter'); }}"),
            JsValue::NULL,
            400.0,
            "body: cannot be turned into JSON: no getter",
        ),
        (
            js("42"),
            "/api/order/create".into(),
            JsValue::NULL,
            JsValue::NULL,
            400.0,
            "method:",
        ),
        (
            "GET".into(),
            js("{}"),
            JsValue::NULL,
            JsValue::NULL,
            400.0,
            "path:",
        ),
        (
            "POST".into(),
            "/api/order/create".into(),
            js("10n"),
            JsValue::NULL,
            400.0,
            "body:",
        ),
        (
            "POST".into(),
            "/api/order/create".into(),
            js("(() => { const o = {}; o.self = o; return o; })()"),
            JsValue::NULL,
            400.0,
            "body:",
        ),
        (
            "POST".into(),
            "/api/order/create".into(),
            js("'{not json'"),
            JsValue::NULL,
            400.0,
            "body: not valid JSON",
        ),
        (
            "POST".into(),
            "/api/order/create".into(),
            js("'x'.repeat(2 * 1024 * 1024)"),
            JsValue::NULL,
            413.0,
            "body:",
        ),
        (
            "POST".into(),
            "/api/order/create".into(),
            js("{userId: 'u', price: 1}"),
            js("{'X-User-Id': {}}"),
            400.0,
            "headers:",
        ),
        (
            "POST".into(),
            "/api/order/create".into(),
            js("{userId: 'u', price: 1}"),
            js("'a string'"),
            400.0,
            "headers:",
        ),
        (
            "GET".into(),
            js("'/' + 'a'.repeat(100000)"),
            JsValue::NULL,
            JsValue::NULL,
            414.0,
            "path:",
        ),
    ];
    for (method, path, body, headers, code, msg) in cases {
        let r = s.handle(method, path, body, headers);
        assert_eq!(num(&r, "code"), code, "{}", text(&r, "msg"));
        assert!(
            text(&r, "msg").starts_with(msg),
            "{} should start with {msg}",
            text(&r, "msg")
        );
        assert!(get(&r, "data").is_null());
    }
    // Nothing was created, and the service still answers.
    assert_eq!(num(&create(&s), "code"), 0.0);
}

#[wasm_bindgen_test]
fn a_body_whose_tojson_calls_the_service_again_does_not_trap() {
    // All in JS, through the exported class: the body's toJSON re-enters
    // the very service that is converting it.
    let scenario = Function::new_with_args(
        "s",
        "let inner; \
         const body = { toJSON() { inner = s.handle('GET', '/api/order/ORD-00000000'); return {userId: 'u', price: 2}; } }; \
         const outer = s.handle('POST', '/api/order/create', body); \
         return { outer, inner, after: s.handle('GET', '/api/order/' + outer.data.orderId) };",
    );
    let result = scenario
        .call1(&JsValue::NULL, &JsValue::from(service("{seed: 3}")))
        .unwrap();
    assert_eq!(text(&result, "inner.msg"), "Order not found");
    assert_eq!(num(&result, "outer.code"), 0.0);
    assert_eq!(text(&result, "after.data.userId"), "u");
}

#[wasm_bindgen_test]
fn bad_options_throw_errors_naming_the_option() {
    for (options, name, kind) in [
        ("{failurerate: 0.5}", "failurerate", "TypeError"),
        ("{failureRate: 2}", "failureRate", "RangeError"),
        ("{seed: -1}", "seed", "RangeError"),
        ("{seed: 1.5}", "seed", "RangeError"),
        ("{logCapacity: 'many'}", "logCapacity", "TypeError"),
        ("'seed'", "options", "TypeError"),
    ] {
        let error = Service::new(js(options)).err().expect(options);
        assert_eq!(text(&error, "name"), kind, "{options}");
        assert!(
            text(&error, "message").contains(name),
            "{options}: {}",
            text(&error, "message")
        );
    }
}

#[wasm_bindgen_test]
fn the_same_seed_replays_ids_and_outcomes_and_the_seed_is_readable() {
    let a = service("{seed: 99}");
    let b = Service::new(js(&format!("{{seed: {}}}", a.seed()))).unwrap();
    for _ in 0..5 {
        let (x, y) = (create(&a), create(&b));
        assert_eq!(text(&x, "data.orderId"), text(&y, "data.orderId"));
        let body = js(&format!(
            "{{orderId: '{}', amount: 1, paymentMethod: 'WALLET_A'}}",
            text(&x, "data.orderId")
        ));
        let (p, q) = (
            a.handle(
                "POST".into(),
                "/api/payment/pay".into(),
                body.clone(),
                JsValue::UNDEFINED,
            ),
            b.handle(
                "POST".into(),
                "/api/payment/pay".into(),
                body,
                JsValue::UNDEFINED,
            ),
        );
        assert_eq!(
            (num(&p, "code"), text(&p, "msg")),
            (num(&q, "code"), text(&q, "msg"))
        );
    }
    let random = service("undefined");
    assert!(random.seed() >= 0.0 && random.seed() <= 9_007_199_254_740_991.0);
}

#[wasm_bindgen_test]
fn the_log_is_bounded_and_says_how_much_it_dropped() {
    let s = service("{seed: 5, logCapacity: 4}");
    create(&s);
    create(&s);
    assert_eq!(Array::from(&s.logs(JsValue::UNDEFINED)).length(), 4);
    assert_eq!(s.dropped_logs(), 2.0);
    let newest = Array::from(&s.logs(JsValue::from(5.0)));
    assert_eq!(newest.length(), 1);
    assert_eq!(num(&newest.get(0), "seq"), 6.0);
    s.clear_logs();
    assert_eq!(Array::from(&s.logs(JsValue::UNDEFINED)).length(), 0);
}

#[wasm_bindgen_test]
fn the_free_functions_share_one_default_instance() {
    let before = Array::from(&logs(JsValue::UNDEFINED)).length();
    let r = handle(
        "GET".into(),
        "/api/test/order/batch?count=3".into(),
        JsValue::UNDEFINED,
        JsValue::UNDEFINED,
    );
    assert_eq!(num(&r, "data.count"), 3.0);
    assert!(Array::from(&logs(JsValue::UNDEFINED)).length() > before + 3 * 3 * 2);
}

#[wasm_bindgen_test]
fn a_virtual_clock_and_a_snapshot_replay_a_session_to_the_byte() {
    let session = |s: &Service| {
        for _ in 0..3 {
            create(s);
        }
        s.advance(JsValue::from(60_000.0)).unwrap();
        JSON::stringify(&s.logs(JsValue::UNDEFINED))
            .unwrap()
            .as_string()
            .unwrap()
    };
    let a = service("{seed: 8, virtualTime: 1700000000000}");
    let b = service("{seed: 8, virtualTime: 1700000000000}");
    assert_eq!(session(&a), session(&b));
    assert!(a.now() >= 1_700_000_060_000.0);
    let restored = Service::restore(JsValue::from(a.snapshot())).unwrap();
    assert_eq!(restored.now(), a.now());
    assert_eq!(
        text(&create(&restored), "data.orderId"),
        text(&create(&a), "data.orderId")
    );
    let error = Service::restore(js("'{}'")).err().unwrap();
    assert!(text(&error, "message").starts_with("snapshot:"));
}

fn pay_with(s: &Service, order_id: &str, headers: JsValue) -> JsValue {
    let body = js(&format!(
        "{{orderId: '{order_id}', amount: 1, paymentMethod: 'CARD'}}"
    ));
    s.handle("POST".into(), "/api/payment/pay".into(), body, headers)
}

#[wasm_bindgen_test]
fn forced_outcomes_from_the_header_and_from_force_next_are_explained_in_the_log() {
    let s = service("{seed: 2, failureRate: 0}");
    let id = text(&create(&s), "data.orderId");
    let forced = pay_with(&s, &id, js("{'x-sim-outcome': 'FAILURE'}"));
    assert_eq!(text(&forced, "msg"), "Third party payment failed");
    s.force_next(JsValue::from("failure"), JsValue::from(2.0))
        .unwrap();
    assert_eq!(num(&s.forced(), "remaining"), 2.0);
    assert_eq!(num(&pay_with(&s, &id, JsValue::UNDEFINED), "code"), -1.0);
    assert_eq!(num(&pay_with(&s, &id, JsValue::UNDEFINED), "code"), -1.0);
    assert!(s.forced().is_null());
    assert_eq!(num(&pay_with(&s, &id, JsValue::UNDEFINED), "code"), 0.0);
    let services: Vec<JsValue> = Array::from(&s.logs(JsValue::UNDEFINED))
        .iter()
        .filter(|r| text(r, "stage") == "service" && text(r, "event_class") == "payment")
        .collect();
    let rules: Vec<String> = services.iter().map(|r| text(r, "outcome.rule")).collect();
    assert_eq!(rules, ["header", "forced-next", "forced-next", "draw"]);
    assert!(text(&services[0], "outcome.reason").contains("X-Sim-Outcome"));
    let bad = s
        .force_next(JsValue::from("maybe"), JsValue::UNDEFINED)
        .err()
        .unwrap();
    assert_eq!(text(&bad, "name"), "TypeError");
    let bad_header = pay_with(&s, &id, js("{'X-Sim-Outcome': 'sometimes'}"));
    assert!(text(&bad_header, "msg").starts_with("X-Sim-Outcome: must be success or failure"));
}

#[wasm_bindgen_test]
fn trace_context_comes_in_from_traceparent_and_goes_out_in_the_headers_and_spans() {
    let s = service("{seed: 4, failureRate: 0}");
    let headers = js("{traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01'}");
    let body = js("{userId: 'u', price: 3}");
    let r = s.request("POST".into(), "/api/order/create".into(), body, headers);
    assert_eq!(
        text(&r, "headers.x-b3-traceid"),
        "4bf92f3577b34da6a3ce929d0e0e4736"
    );
    assert_eq!(text(&r, "headers.x-b3-parentspanid"), "00f067aa0ba902b7");
    let gateway_span = text(&r, "headers.x-b3-spanid");
    assert_eq!(
        text(&r, "headers.traceparent"),
        format!("00-4bf92f3577b34da6a3ce929d0e0e4736-{gateway_span}-01")
    );
    let spans = Array::from(&s.spans());
    assert_eq!(spans.length(), 2);
    assert_eq!(text(&spans.get(0), "component"), "gateway");
    assert_eq!(text(&spans.get(0), "parentSpanId"), "00f067aa0ba902b7");
    assert_eq!(text(&spans.get(1), "parentSpanId"), gateway_span);
    let otlp = s.export_otlp();
    let first = get(&otlp, "resourceSpans");
    let first = Array::from(&first).get(0);
    let span = Array::from(&get(
        &Array::from(&get(&first, "scopeSpans")).get(0),
        "spans",
    ))
    .get(0);
    assert_eq!(text(&span, "traceId"), "4bf92f3577b34da6a3ce929d0e0e4736");
    assert!(text(&span, "startTimeUnixNano").ends_with("000000"));
    let ndjson = s.export_ndjson();
    assert_eq!(ndjson.lines().count(), 3);
    assert!(ndjson.lines().all(|line| JSON::parse(line).is_ok()));
}

#[wasm_bindgen_test]
fn latency_overrides_set_the_simulated_durations() {
    let s = service("{seed: 1, failureRate: 0, virtualTime: 0, latency: {order: {baseMs: 10, spreadMs: 0, tailChance: 0}, payment: {baseMs: 5, spreadMs: 0, tailChance: 0}, thirdParty: {baseMs: 300, spreadMs: 0, tailChance: 0}}}");
    let id = text(&create(&s), "data.orderId");
    assert_eq!(s.now(), 10.0);
    let r = s.request(
        "POST".into(),
        "/api/payment/pay".into(),
        js(&format!(
            "{{orderId: '{id}', amount: 1, paymentMethod: 'CARD'}}"
        )),
        JsValue::UNDEFINED,
    );
    assert_eq!(text(&r, "headers.x-sim-duration-ms"), "305");
    assert_eq!(s.now(), 315.0);
    let error = Service::new(js("{latency: {thirdParty: {baseMs: -5}}}"))
        .err()
        .unwrap();
    assert!(text(&error, "message").starts_with("latency.thirdParty.baseMs:"));
}
