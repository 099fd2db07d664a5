//! Shared helpers for the integration tests: building services and
//! requests, reading envelopes and log records.
#![allow(dead_code)]

pub mod docs;

use orderpay::observe::{LogRecord, Stage};
use orderpay::sim::clock::VirtualClock;
use orderpay::sim::latency::{LatencyModel, Profile};
use orderpay::{RawRequest, Response, Service, Settings};
use serde_json::{json, Value};

/// Where every virtual clock starts: 2023-11-14T22:13:20Z.
pub const T0: i64 = 1_700_000_000_000;

/// Fixed simulated latencies, so timestamps and durations are exact.
pub const ORDER_MS: u64 = 5;
pub const PAYMENT_MS: u64 = 7;
pub const THIRD_PARTY_MS: u64 = 100;
pub const TEST_MS: u64 = 1;

fn fixed(ms: u64) -> Profile {
    Profile {
        base_ms: ms,
        spread_ms: 0,
        tail_chance: 0.0,
        tail_ms: 0,
    }
}

pub fn fixed_latency() -> LatencyModel {
    LatencyModel {
        order: fixed(ORDER_MS),
        payment: fixed(PAYMENT_MS),
        third_party: fixed(THIRD_PARTY_MS),
        test: fixed(TEST_MS),
    }
}

/// Default settings (30% failures, default latency) with a seed.
pub fn service(seed: u64) -> Service {
    service_with(Settings::with_seed(seed))
}

pub fn service_with(settings: Settings) -> Service {
    Service::new(settings, Box::new(VirtualClock::starting_at(T0))).expect("valid settings")
}

/// Fixed latency and the given failure rate.
pub fn exact_service(seed: u64, failure_rate: f64) -> Service {
    let mut settings = Settings::with_seed(seed);
    settings.failure_rate = failure_rate;
    settings.latency = fixed_latency();
    service_with(settings)
}

/// Payments always succeed (failure rate 0), default latency.
pub fn always_approves(seed: u64) -> Service {
    let mut settings = Settings::with_seed(seed);
    settings.failure_rate = 0.0;
    service_with(settings)
}

/// Payments always fail (failure rate 1), default latency.
pub fn always_declines(seed: u64) -> Service {
    let mut settings = Settings::with_seed(seed);
    settings.failure_rate = 1.0;
    service_with(settings)
}

pub fn post_json(path: &str, body: &Value) -> RawRequest {
    RawRequest::new("POST", path)
        .with_header("Content-Type", "application/json")
        .with_body(&body.to_string())
}

pub fn post_text(path: &str, body: &str) -> RawRequest {
    RawRequest::new("POST", path)
        .with_header("Content-Type", "application/json")
        .with_body(body)
}

pub fn get(path: &str) -> RawRequest {
    RawRequest::new("GET", path)
}

pub fn post(path: &str) -> RawRequest {
    RawRequest::new("POST", path)
}

pub fn create_request(user_id: &str, price: f64, description: &str) -> RawRequest {
    post_json(
        "/api/order/create",
        &json!({"userId": user_id, "price": price, "description": description}),
    )
}

pub fn pay_request(order_id: &str, amount: f64, method: &str) -> RawRequest {
    post_json(
        "/api/payment/pay",
        &json!({"orderId": order_id, "amount": amount, "paymentMethod": method}),
    )
}

/// The whole response body as JSON.
pub fn body(response: &Response) -> Value {
    serde_json::to_value(&response.body).expect("envelope serializes")
}

pub fn data(response: &Response) -> Value {
    body(response)["data"].clone()
}

/// Creates an order that must succeed and returns its data.
pub fn create_order(svc: &mut Service, user_id: &str, price: f64) -> Value {
    let response = svc.handle(create_request(user_id, price, "test order"));
    assert_eq!(
        (response.status, response.body.code),
        (200, 0),
        "{:?}",
        response.body
    );
    data(&response)
}

pub fn create_order_id(svc: &mut Service) -> String {
    create_order(svc, "u-1", 10.5)["orderId"]
        .as_str()
        .expect("orderId")
        .to_owned()
}

/// Pays for an order; the service must approve it. Returns the payment data.
pub fn pay_ok(svc: &mut Service, order_id: &str, amount: f64, method: &str) -> Value {
    let response = svc.handle(pay_request(order_id, amount, method));
    assert_eq!(
        (response.status, response.body.code),
        (200, 0),
        "{:?}",
        response.body
    );
    data(&response)
}

pub fn business_error(msg: &str) -> Value {
    json!({"code": -1, "msg": msg, "data": null})
}

pub fn success(data: Value) -> Value {
    json!({"code": 0, "msg": "success", "data": data})
}

pub fn is_code_8(code: &str) -> bool {
    code.len() == 8
        && code
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
}

pub fn assert_order_id(id: &str) {
    let code = id
        .strip_prefix("ORD-")
        .unwrap_or_else(|| panic!("{id} does not start with ORD-"));
    assert!(is_code_8(code), "{id} is not ORD- and 8 of [A-Z0-9]");
}

pub fn assert_payment_id(id: &str) {
    let code = id
        .strip_prefix("PAY-")
        .unwrap_or_else(|| panic!("{id} does not start with PAY-"));
    assert!(is_code_8(code), "{id} is not PAY- and 8 of [A-Z0-9]");
}

pub fn is_fresh_trace_id(id: &str) -> bool {
    id.len() == 32
        && id
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

pub fn trace_of(response: &Response) -> String {
    response
        .header("x-b3-traceid")
        .expect("x-b3-traceid header")
        .to_owned()
}

/// The log records as JSON values.
pub fn logs_json(svc: &Service) -> Vec<Value> {
    svc.logs(None)
        .iter()
        .map(|r| serde_json::to_value(r).expect("record serializes"))
        .collect()
}

pub fn stage_name(record: &LogRecord) -> &'static str {
    match record.stage {
        Stage::Gateway { .. } => "gateway",
        Stage::Service { .. } => "service",
        Stage::Response { .. } => "response",
        Stage::Payment { .. } => "payment",
        Stage::Webhook { .. } => "webhook",
    }
}

/// The records of the last request that was handled, when it wrote `n`.
pub fn last_records(svc: &Service, n: usize) -> Vec<LogRecord> {
    let all = svc.logs(None);
    assert!(all.len() >= n, "only {} records", all.len());
    all[all.len() - n..].to_vec()
}

/// Binomial bounds: mean +- 5 standard deviations.
pub fn five_sigma_bounds(n: u64, p: f64) -> (u64, u64) {
    let mean = n as f64 * p;
    let sd = (n as f64 * p * (1.0 - p)).sqrt();
    (
        (mean - 5.0 * sd).floor() as u64,
        (mean + 5.0 * sd).ceil() as u64,
    )
}

/// Checks `got` against a fixture line by line, naming the first line
/// that differs; with `ORDERPAY_WRITE_REFUSALS` set, writes `got` to
/// `path` first (after a deliberate change). `want` is the fixture's text
/// as built (`include_str!` of `path`); it must hold more than `at_least`
/// lines, so an empty or cut fixture cannot pass.
pub fn same_as_fixture(got: &str, path: &str, want: &str, at_least: usize) {
    if std::env::var_os("ORDERPAY_WRITE_REFUSALS").is_some() {
        std::fs::write(path, got).unwrap_or_else(|e| panic!("{path}: {e}"));
    }
    let mut lines = got.lines().zip(want.lines()).enumerate();
    if let Some((i, (g, w))) = lines.find(|(_, (g, w))| g != w) {
        panic!("{path}, line {}: got\n{g}\nwant\n{w}", i + 1);
    }
    assert_eq!(got.lines().count(), want.lines().count());
    assert!(want.lines().count() > at_least, "{}", want.lines().count());
}

/// The presets' documents, by name, as the package ships them
/// (`src/sim/scenario/presets/NAME.json`, in `NAMES`' order).
pub fn presets() -> Vec<(&'static str, String)> {
    orderpay::sim::scenario::presets::NAMES
        .iter()
        .map(|name| {
            let path = format!(
                "{}/src/sim/scenario/presets/{name}.json",
                env!("CARGO_MANIFEST_DIR")
            );
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
            (*name, text)
        })
        .collect()
}
