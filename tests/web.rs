//! The binding's exports in a real browser (headless Chromium), through
//! wasm-bindgen-test: plain data in (strings, bytes, numbers), JSON text
//! out, as the package's JS layer calls them. What the JS layer does with
//! a caller's values (hostile ones included) is tested in Node
//! (`tests/node/boundary.test.mjs`) and by the fuzzer (`tests/fuzz/`).
#![cfg(target_arch = "wasm32")]

use js_sys::Reflect;
use serde_json::{json, Value};
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

use orderpay::wasm::{RawRestoring, Service};

wasm_bindgen_test_configure!(run_in_browser);

// Each test starts with `console_error_panic_hook::set_once()` (the
// runner has no setup of its own to put it in): a panic prints its
// message and stack with console.error, which the runner shows under a
// failed test.

fn service(seed: f64) -> Service {
    Service::new(Some(seed), None, None, None, None, None, None).unwrap()
}

fn parse(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

fn handle(s: &Service, method: &str, path: &str, body: Option<&str>, headers: &[&str]) -> Value {
    let headers = headers.iter().map(|h| (*h).to_owned()).collect();
    parse(&s.handle(
        method.into(),
        Some(path.into()),
        body.map(str::to_owned),
        None,
        headers,
        None,
    ))
}

/// `request`: the head, then the envelope's text after the first newline.
fn request(
    s: &Service,
    method: &str,
    path: &str,
    body: Option<&str>,
    headers: &[&str],
) -> (Value, Value) {
    let headers = headers.iter().map(|h| (*h).to_owned()).collect();
    let text = s.request(
        method.into(),
        Some(path.into()),
        body.map(str::to_owned),
        None,
        headers,
        None,
    );
    let (head, envelope) = text.split_once('\n').unwrap();
    (parse(head), parse(envelope))
}

fn create(s: &Service) -> Value {
    handle(
        s,
        "POST",
        "/api/order/create",
        Some(r#"{"userId":"u1","price":12.5,"description":"tea"}"#),
        &[],
    )
}

fn message(error: &JsValue) -> (String, String) {
    let get = |k: &str| {
        Reflect::get(error, &k.into())
            .ok()
            .and_then(|v| v.as_string())
            .unwrap_or_default()
    };
    (get("name"), get("message"))
}

#[wasm_bindgen_test]
fn the_typical_flow_runs_on_plain_data() {
    console_error_panic_hook::set_once();
    let s = Service::new(Some(7.0), Some(0.0), None, None, None, None, None).unwrap();
    let order = create(&s);
    assert_eq!(
        (order["code"].clone(), order["msg"].clone()),
        (json!(0), json!("success"))
    );
    let id = order["data"]["orderId"].as_str().unwrap().to_owned();
    assert!(id.starts_with("ORD-") && id.len() == 12, "{id}");
    let read = handle(&s, "GET", &format!("/api/order/{id}"), None, &[]);
    assert_eq!(read["data"]["status"], "CREATED");
    let pay = format!(r#"{{"orderId":"{id}","amount":12.5,"paymentMethod":"CARD"}}"#);
    let paid = handle(&s, "POST", "/api/payment/pay", Some(&pay), &[]);
    assert_eq!(paid["data"]["status"], "SUCCESS");
    let payment_id = paid["data"]["paymentId"].as_str().unwrap().to_owned();
    let marked = handle(&s, "POST", &format!("/api/order/{id}/pay"), None, &[]);
    assert_eq!(marked, json!({"code": 0, "msg": "success", "data": null}));
    let delete = handle(&s, "POST", &format!("/api/order/delete/{id}"), None, &[]);
    assert_eq!(
        delete,
        json!({"code": -1, "msg": "Paid order cannot be deleted", "data": null})
    );
    let payment = handle(&s, "GET", &format!("/api/payment/{payment_id}"), None, &[]);
    assert_eq!(payment["data"]["orderId"], json!(id));
    let refund = format!("/api/payment/refund/{payment_id}");
    assert_eq!(handle(&s, "POST", &refund, None, &[])["code"], 0);
    assert_eq!(
        handle(&s, "POST", &refund, None, &[])["msg"],
        "Only success payment can be refunded"
    );
}

#[wasm_bindgen_test]
fn bytes_are_read_as_utf8_where_a_body_is_read() {
    console_error_panic_hook::set_once();
    let s = service(1.0);
    let body = br#"{"userId":"u","price":2}"#.to_vec();
    let created = parse(&s.handle(
        "POST".into(),
        Some("/api/order/create".into()),
        None,
        Some(body),
        vec![],
        None,
    ));
    assert_eq!(created["data"]["userId"], "u");
    let broken = parse(&s.handle(
        "POST".into(),
        Some("/api/order/create".into()),
        None,
        Some(vec![0xff]),
        vec![],
        None,
    ));
    assert_eq!(broken["msg"], "body: not valid UTF-8 text");
}

#[wasm_bindgen_test]
fn request_gives_the_head_then_the_envelope_and_echoes_the_trace_id() {
    console_error_panic_hook::set_once();
    let s = service(1.0);
    let (head, body) = request(
        &s,
        "GET",
        "/api/order/none",
        None,
        &[
            "X-B3-TraceId",
            "463ac35c9f6413ad48485a3953bb6124",
            "x-user-id",
            "alice",
        ],
    );
    assert_eq!(head["status"], 200);
    assert_eq!(
        head["headers"]["x-b3-traceid"],
        "463ac35c9f6413ad48485a3953bb6124"
    );
    assert_eq!(head["headers"]["content-type"], "application/json");
    assert_eq!(
        body,
        json!({"code": -1, "msg": "Order not found", "data": null})
    );
    let records = parse(&s.logs(None));
    assert_eq!(records[2]["stage"], "response");
    assert_eq!(records[2]["userId"], "alice");
    let (wrong, _) = request(
        &s,
        "DELETE",
        "/api/order/create",
        None,
        &["X-B3-TRACEID", "not-hex"],
    );
    assert_eq!(
        (wrong["status"].clone(), wrong["headers"]["allow"].clone()),
        (json!(405), json!("POST"))
    );
    assert_eq!(wrong["headers"]["x-b3-traceid"].as_str().unwrap().len(), 32);
}

/// What the JS layer can leave behind (method, path, what it could not
/// read) and the answer each gets: its code and the start of its msg.
const LEFT_BEHIND: [(&str, Option<&str>, &str, i32, &str); 7] = [
    (
        "POST",
        Some("/api/order/create"),
        r#"{"unreadable":["headers","no keys"]}"#,
        400,
        "headers: no keys",
    ),
    (
        "",
        Some("/api/order/create"),
        r#"{"unreadable":["method","expected a string, got number"]}"#,
        400,
        "method: expected a string, got number",
    ),
    (
        "GET",
        None,
        r#"{"path":100001}"#,
        414,
        "path: 100001 bytes is over the limit of 8192 bytes",
    ),
    (
        "POST",
        Some("/api/order/create"),
        r#"{"body":2097152}"#,
        413,
        "body: 2097152 bytes is over the limit of 1048576 bytes",
    ),
    (
        "GET",
        Some("/api/order/create"),
        r#"{"headers":[10000000,20000000]}"#,
        431,
        "headers: 10000000 headers is over the limit of 1000 headers",
    ),
    (
        "GET",
        Some("/api/order/create"),
        r#"{"headers":[9,4831838208]}"#,
        431,
        "headers: 4294967295 bytes is over the limit of 65536 bytes",
    ),
    (
        "GET",
        Some("/api/order/create"),
        "not json",
        400,
        "request: not understood:",
    ),
];

#[wasm_bindgen_test]
fn what_the_js_layer_left_behind_is_answered_with_its_status_and_changes_nothing() {
    console_error_panic_hook::set_once();
    let s = service(3.0);
    let left = |method: &str, path: Option<&str>, left: &str| {
        parse(&s.handle(
            method.into(),
            path.map(str::to_owned),
            None,
            None,
            vec![],
            Some(left.to_owned()),
        ))
    };
    for (method, path, what, code, msg) in LEFT_BEHIND {
        let r = left(method, path, what);
        assert_eq!(r["code"], code, "{r}");
        assert!(
            r["msg"].as_str().unwrap().starts_with(msg),
            "{r} should start with {msg}"
        );
        assert!(r["data"].is_null());
    }
    assert_eq!(
        parse(&s.snapshot())["orders"],
        parse(&service(3.0).snapshot())["orders"]
    );
    assert_eq!(create(&s)["code"], 0);
}

/// seed, failureRate, logCapacity, virtualTime, latency; the error's name and a part of its message.
type Case = (
    Option<f64>,
    Option<f64>,
    Option<f64>,
    Option<f64>,
    Option<&'static str>,
    &'static str,
    &'static str,
);

#[wasm_bindgen_test]
fn options_out_of_range_throw_range_errors_naming_the_option() {
    console_error_panic_hook::set_once();
    let cases: [Case; 6] = [
        (
            None,
            Some(2.0),
            None,
            None,
            None,
            "RangeError",
            "failureRate",
        ),
        (Some(-1.0), None, None, None, None, "RangeError", "seed"),
        (Some(1.5), None, None, None, None, "RangeError", "seed"),
        (
            None,
            None,
            Some(f64::NAN),
            None,
            None,
            "RangeError",
            "logCapacity",
        ),
        (
            None,
            None,
            None,
            Some(1e300),
            None,
            "RangeError",
            "virtualTime",
        ),
        (
            None,
            None,
            None,
            None,
            Some(r#"{"thirdParty":{"baseMs":-5}}"#),
            "TypeError",
            "latency.thirdParty.baseMs:",
        ),
    ];
    for (seed, rate, capacity, time, latency, name, text) in cases {
        let error = Service::new(
            seed,
            rate,
            capacity,
            None,
            time,
            latency.map(str::to_owned),
            None,
        )
        .err()
        .unwrap();
        let (kind, msg) = message(&error);
        assert_eq!(kind, name, "{msg}");
        assert!(msg.contains(text), "{msg}");
    }
}

#[wasm_bindgen_test]
fn the_same_seed_replays_ids_and_outcomes_and_the_seed_is_readable() {
    console_error_panic_hook::set_once();
    let a = service(99.0);
    let b = service(a.seed());
    for _ in 0..5 {
        let (x, y) = (create(&a), create(&b));
        assert_eq!(x["data"]["orderId"], y["data"]["orderId"]);
        let pay = format!(
            r#"{{"orderId":{},"amount":1,"paymentMethod":"WALLET_A"}}"#,
            x["data"]["orderId"]
        );
        let p = handle(&a, "POST", "/api/payment/pay", Some(&pay), &[]);
        let q = handle(&b, "POST", "/api/payment/pay", Some(&pay), &[]);
        assert_eq!(
            (p["code"].clone(), p["msg"].clone()),
            (q["code"].clone(), q["msg"].clone())
        );
    }
    let random = Service::new(None, None, None, None, None, None, None).unwrap();
    assert!(random.seed() >= 0.0 && random.seed() <= 9_007_199_254_740_991.0);
}

#[wasm_bindgen_test]
fn the_log_is_bounded_and_says_how_much_it_dropped() {
    console_error_panic_hook::set_once();
    let s = Service::new(Some(5.0), None, Some(4.0), None, None, None, None).unwrap();
    create(&s);
    create(&s);
    assert_eq!(parse(&s.logs(None)).as_array().unwrap().len(), 4);
    assert_eq!(s.dropped_logs(), 2.0);
    let newest = parse(&s.logs(Some(5.0)));
    assert_eq!(newest.as_array().unwrap().len(), 1);
    assert_eq!(newest[0]["seq"], 6);
    s.clear_logs();
    assert_eq!(parse(&s.logs(None)), json!([]));
}

#[wasm_bindgen_test]
fn the_counters_count_every_request_whatever_the_log_dropped() {
    console_error_panic_hook::set_once();
    let s = Service::new(Some(5.0), None, Some(2.0), None, None, None, None).unwrap();
    create(&s);
    create(&s);
    s.clear_logs();
    let counters = parse(&s.counters());
    assert_eq!(counters["requests"], 2);
    assert_eq!(counters["byRoute"][0]["route"], "/api/order/create");
    assert_eq!(counters["durations"]["order"]["count"], 2);
    let restored = Service::restore(&s.snapshot()).unwrap();
    assert_eq!(parse(&restored.counters()), counters);
}

#[wasm_bindgen_test]
fn a_virtual_clock_and_a_snapshot_replay_a_session_to_the_byte() {
    console_error_panic_hook::set_once();
    let session = |s: &Service| {
        for _ in 0..3 {
            create(s);
        }
        s.advance(60_000.0).unwrap();
        s.logs(None)
    };
    let virtual_service = || {
        Service::new(
            Some(8.0),
            None,
            None,
            None,
            Some(1_700_000_000_000.0),
            None,
            None,
        )
        .unwrap()
    };
    let (a, b) = (virtual_service(), virtual_service());
    assert_eq!(session(&a), session(&b));
    assert!(a.now() >= 1_700_000_060_000.0);
    let restored = Service::restore(&a.snapshot()).unwrap();
    assert_eq!(restored.now(), a.now());
    assert_eq!(
        create(&restored)["data"]["orderId"],
        create(&a)["data"]["orderId"]
    );
    let error = Service::restore("{}").err().unwrap();
    assert!(message(&error).1.starts_with("snapshot:"));
}

#[wasm_bindgen_test]
fn forced_outcomes_from_the_header_and_from_force_next_are_explained_in_the_log() {
    console_error_panic_hook::set_once();
    let s = Service::new(Some(2.0), Some(0.0), None, None, None, None, None).unwrap();
    let id = create(&s)["data"]["orderId"].as_str().unwrap().to_owned();
    let pay = format!(r#"{{"orderId":"{id}","amount":1,"paymentMethod":"CARD"}}"#);
    let pay_with = |headers: &[&str]| handle(&s, "POST", "/api/payment/pay", Some(&pay), headers);
    assert_eq!(
        pay_with(&["x-sim-outcome", "FAILURE"])["msg"],
        "Third party payment failed"
    );
    s.force_next("failure", Some(2.0)).unwrap();
    assert_eq!(parse(&s.forced())["remaining"], 2);
    assert_eq!(pay_with(&[])["code"], -1);
    assert_eq!(pay_with(&[])["code"], -1);
    assert_eq!(parse(&s.forced()), Value::Null);
    assert_eq!(pay_with(&[])["code"], 0);
    let records = parse(&s.logs(None));
    let rules: Vec<&str> = records
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["stage"] == "service" && r["event_class"] == "payment")
        .map(|r| r["outcome"]["rule"].as_str().unwrap())
        .collect();
    assert_eq!(rules, ["header", "forced-next", "forced-next", "draw"]);
    assert_eq!(
        message(&s.force_next("maybe", None).err().unwrap()).0,
        "TypeError"
    );
    assert_eq!(
        message(&s.force_next("success", Some(0.5)).err().unwrap()).0,
        "RangeError"
    );
    let bad = pay_with(&["X-Sim-Outcome", "sometimes"]);
    assert!(bad["msg"]
        .as_str()
        .unwrap()
        .starts_with("X-Sim-Outcome: must be success or failure"));
}

#[wasm_bindgen_test]
fn trace_context_comes_in_from_traceparent_and_goes_out_in_the_headers_and_spans() {
    console_error_panic_hook::set_once();
    let s = Service::new(Some(4.0), Some(0.0), None, None, None, None, None).unwrap();
    let (head, _) = request(
        &s,
        "POST",
        "/api/order/create",
        Some(r#"{"userId":"u","price":3}"#),
        &[
            "traceparent",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        ],
    );
    let headers = &head["headers"];
    assert_eq!(headers["x-b3-traceid"], "4bf92f3577b34da6a3ce929d0e0e4736");
    assert_eq!(headers["x-b3-parentspanid"], "00f067aa0ba902b7");
    let gateway_span = headers["x-b3-spanid"].as_str().unwrap();
    assert_eq!(
        headers["traceparent"],
        format!("00-4bf92f3577b34da6a3ce929d0e0e4736-{gateway_span}-01")
    );
    let spans = parse(&s.spans());
    assert_eq!(spans.as_array().unwrap().len(), 2);
    assert_eq!(spans[0]["component"], "gateway");
    assert_eq!(spans[0]["parentSpanId"], "00f067aa0ba902b7");
    assert_eq!(spans[1]["parentSpanId"], gateway_span);
    let otlp = parse(&s.export_otlp());
    let span = &otlp["resourceSpans"][0]["scopeSpans"][0]["spans"][0];
    assert_eq!(span["traceId"], "4bf92f3577b34da6a3ce929d0e0e4736");
    assert!(span["startTimeUnixNano"]
        .as_str()
        .unwrap()
        .ends_with("000000"));
    let ndjson = s.export_ndjson();
    assert_eq!(ndjson.lines().count(), 3);
    assert!(ndjson
        .lines()
        .all(|line| serde_json::from_str::<Value>(line).is_ok()));
    assert_eq!(parse(&s.settings())["seed"], 4);
}

#[wasm_bindgen_test]
fn latency_overrides_set_the_simulated_durations() {
    console_error_panic_hook::set_once();
    let latency = r#"{"order":{"baseMs":10,"spreadMs":0,"tailChance":0},"payment":{"baseMs":5,"spreadMs":0,"tailChance":0},"thirdParty":{"baseMs":300,"spreadMs":0,"tailChance":0}}"#;
    let s = Service::new(
        Some(1.0),
        Some(0.0),
        None,
        None,
        Some(0.0),
        Some(latency.into()),
        None,
    )
    .unwrap();
    let id = create(&s)["data"]["orderId"].as_str().unwrap().to_owned();
    assert_eq!(s.now(), 10.0);
    let pay = format!(r#"{{"orderId":"{id}","amount":1,"paymentMethod":"CARD"}}"#);
    let (head, _) = request(&s, "POST", "/api/payment/pay", Some(&pay), &[]);
    assert_eq!(head["headers"]["x-sim-duration-ms"], "305");
    assert_eq!(s.now(), 315.0);
}

/// In the WebAssembly build, numbers the exact fast paths cannot write or
/// read (a random draw's 17 digits, 1e300, 5e-324) go to the JS engine.
/// Its answers, laid out as Rust lays them out, must be core's exactly.
#[wasm_bindgen_test]
fn numbers_through_the_js_engine_are_written_and_read_as_core_does() {
    console_error_panic_hook::set_once();
    use orderpay::json::number;
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut values = vec![
        0.1 + 0.2,
        1e300,
        5e-324,
        f64::MAX,
        1e21,
        1e16,
        123456789012345680.0,
    ];
    for _ in 0..20_000 {
        values.push((next() >> 11) as f64 / (1u64 << 53) as f64);
        let x = f64::from_bits(next());
        if x.is_finite() {
            values.push(x);
        }
    }
    for x in values {
        assert_eq!(number::debug(x), format!("{x:?}"));
        assert_eq!(number::display(x), format!("{x}"));
        assert_eq!(number::fixed(x, 4), format!("{x:.4}"));
        for text in [format!("{x:?}"), format!("{x:e}"), format!("{x}")] {
            let core = text.parse::<f64>().ok().map(f64::to_bits);
            assert_eq!(number::parse(&text).map(f64::to_bits), core, "{text}");
        }
    }
    for text in [
        "1e400",
        "-1e400",
        "12345678901234567890123",
        "2.4703282292062328e-324",
    ] {
        let core = text.parse::<f64>().ok().map(f64::to_bits);
        assert_eq!(number::parse(text).map(f64::to_bits), core, "{text}");
    }
}

#[wasm_bindgen_test]
fn pieces_and_a_restore_in_pieces_cross_as_plain_text() {
    console_error_panic_hook::set_once();
    let s = service(3.0);
    handle(&s, "GET", "/api/test/order/batch?count=60", None, &[]);
    let whole = s.snapshot();
    let mut pieces = s.snapshot_pieces().unwrap();
    let mut restoring = RawRestoring::new();
    let mut joined = String::new();
    let mut count = 0;
    while let Some(piece) = pieces.next(1000.0) {
        // Requests between pieces change the service, not the pieces.
        handle(&s, "GET", "/api/test/order/batch?count=2", None, &[]);
        restoring.push(&piece).unwrap();
        joined.push_str(&piece);
        count += 1;
    }
    assert!(count > 10, "{count} pieces");
    assert_eq!(joined, whole);
    assert_eq!(pieces.progress(), 1.0);
    assert_eq!(restoring.finish().unwrap().snapshot(), whole);
    let mut ndjson = String::new();
    let mut pieces = s.ndjson_pieces().unwrap();
    while let Some(piece) = pieces.next(0.0) {
        ndjson.push_str(&piece);
    }
    assert_eq!(ndjson, s.export_ndjson());
    let mut otlp = String::new();
    let mut pieces = s.otlp_pieces().unwrap();
    while let Some(piece) = pieces.next(5000.0) {
        otlp.push_str(&piece);
    }
    assert_eq!(parse(&otlp), parse(&s.export_otlp()));
}

#[wasm_bindgen_test]
fn a_damaged_snapshot_in_pieces_throws_what_restore_throws_and_ends_the_restore() {
    console_error_panic_hook::set_once();
    let s = service(4.0);
    handle(&s, "GET", "/api/test/order/batch?count=5", None, &[]);
    let damaged = s.snapshot().replacen("\"seed\":4", "\"seed\":\"4\"", 1);
    let whole = message(&Service::restore(&damaged).err().unwrap());
    let mut restoring = RawRestoring::new();
    for piece in damaged.as_bytes().chunks(100) {
        restoring.push(std::str::from_utf8(piece).unwrap()).unwrap();
    }
    assert_eq!(message(&restoring.finish().err().unwrap()), whole);
    assert_eq!(whole.0, "TypeError");
    let over = message(&restoring.push("{").err().unwrap());
    assert_eq!(over.0, "TypeError");
    assert!(over.1.contains("over"), "{}", over.1);
    // Text that is not JSON is refused by the piece that shows it (`x` could
    // still be the start of a word until the comma comes).
    let mut broken = RawRestoring::new();
    broken.push("{\"format\":x").unwrap();
    let refused = message(&broken.push(",").err().unwrap());
    assert!(
        refused.1.starts_with("snapshot: not a snapshot"),
        "{}",
        refused.1
    );
}

#[wasm_bindgen_test]
fn spans_of_one_trace_are_found_by_the_core_which_refuses_an_id_never_given() {
    console_error_panic_hook::set_once();
    let s = service(11.0);
    let trace = "463ac35c9f6413ad48485a3953bb6124";
    handle(
        &s,
        "GET",
        "/api/order/ORD-NONE0000",
        None,
        &["x-b3-traceid", trace],
    );
    create(&s);
    let all = parse(&s.spans_json(None).unwrap());
    let mine = parse(&s.spans_json(Some(trace.into())).unwrap());
    assert!(!mine.as_array().unwrap().is_empty());
    let expected: Vec<Value> = all
        .as_array()
        .unwrap()
        .iter()
        .filter(|sp| sp["traceId"] == trace)
        .cloned()
        .collect();
    assert_eq!(mine, Value::Array(expected));
    for bad in [
        "0000000000000000",
        "00000000000000000000000000000000",
        "XYZ",
        "",
    ] {
        let error = s.spans_json(Some(bad.into())).unwrap_err();
        assert!(error.is_instance_of::<js_sys::TypeError>(), "{bad:?}");
        let msg = Reflect::get(&error, &"message".into())
            .unwrap()
            .as_string()
            .unwrap();
        assert!(msg.starts_with("traceId: "), "{msg}");
        assert!(
            msg.ends_with(&format!("got {}", serde_json::to_string(bad).unwrap())),
            "{msg}"
        );
    }
}

#[wasm_bindgen_test]
fn a_page_of_the_log_says_its_last_seq_and_count_then_its_records() {
    console_error_panic_hook::set_once();
    let s = service(12.0);
    create(&s);
    create(&s);
    let page = s.logs_page(2.0, 3);
    let (head, text) = page.split_once('\n').unwrap();
    assert_eq!(head, "5 3");
    let records = parse(text);
    assert_eq!(
        records,
        Value::Array(parse(&s.logs(Some(2.0))).as_array().unwrap()[..3].to_vec())
    );
    assert_eq!(s.logs_page(6.0, 500), "6 0\n[]");
}
