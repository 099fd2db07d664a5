//! A session of requests decoded from bytes: the input of the gateway
//! fuzz target, and of its seeded twin on stable. Each step is either a
//! raw request (method, path, body and headers from the bytes, or from a
//! dictionary of the words the gateway knows) or a well-formed call of a
//! route on an id an earlier answer gave, with now and then a clock move
//! or a snapshot round trip. Every answer goes through `properties::step`.

use orderpay::sim::clock::VirtualClock;
use orderpay::{RawRequest, Service, Settings};
use serde_json::{json, Value};

use crate::properties;

/// Reads the bytes front to back; past the end it reads zeros, so every
/// input is a session.
pub struct Bytes<'a> {
    data: &'a [u8],
    at: usize,
}

impl<'a> Bytes<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Bytes { data, at: 0 }
    }

    fn done(&self) -> bool {
        self.at >= self.data.len()
    }

    fn byte(&mut self) -> u8 {
        let b = self.data.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        b
    }

    fn u32(&mut self) -> u32 {
        u32::from_le_bytes([self.byte(), self.byte(), self.byte(), self.byte()])
    }

    fn pick<'w>(&mut self, words: &[&'w str]) -> &'w str {
        words[usize::from(self.byte()) % words.len()]
    }

    /// Up to 255 bytes of raw text (lossy UTF-8).
    fn raw(&mut self) -> String {
        let len = usize::from(self.byte());
        let end = (self.at + len).min(self.data.len());
        let text = String::from_utf8_lossy(self.data.get(self.at..end).unwrap_or_default());
        self.at += len;
        text.into_owned()
    }

    /// A word the gateway knows, or raw text, or the two joined.
    fn text(&mut self, words: &[&str]) -> String {
        match self.byte() % 4 {
            0 => self.raw(),
            1 => format!("{}{}", self.pick(words), self.raw()),
            _ => self.pick(words).to_owned(),
        }
    }
}

const METHODS: &[&str] = &[
    "GET", "POST", "get", "post", "PUT", "DELETE", "HEAD", "OPTIONS", " GET", "POST\n", "G3T", "",
    "PATCH",
];
const PATHS: &[&str] = &[
    "/api/order/create",
    "/api/order/",
    "/api/order/ORD-NOPE0000",
    "/api/order/ORD-NOPE0000/pay",
    "/api/order/delete/ORD-NOPE0000",
    "/api/payment/pay",
    "/api/payment/PAY-NOPE0000",
    "/api/payment/refund/PAY-NOPE0000",
    "/api/payment/PAY-NOPE0000/challenge",
    "/api/payment/PAY-NOPE0000/challenge?outcome=pass",
    "/api/payment/PAY-NOPE0000/challenge?outcome=maybe",
    "/api/test/order/batch?count=",
    "/api/test/order/batch?count=3",
    "/api/test/order/batch?count=%31",
    "/API/ORDER/CREATE",
    "/api/order/create/",
    "/api/ordr/create",
    "/api/order/create?x=1#f",
    "",
    "/",
    "api/order/create",
];
const HEADERS: &[&str] = &[
    "Content-Type",
    "content-type",
    "X-User-Id",
    "X-B3-TraceId",
    "X-B3-SpanId",
    "X-B3-ParentSpanId",
    "X-B3-Sampled",
    "X-B3-Flags",
    "b3",
    "traceparent",
    "X-Sim-Outcome",
    "x-sim-outcome",
    "Idempotency-Key",
];
const VALUES: &[&str] = &[
    "application/json",
    "text/plain",
    "application/vnd.api+json",
    "463ac35c9f6413ad",
    "463ac35c9f6413ad48485a3953bb6124",
    "0000000000000000",
    "1",
    "0",
    "d",
    "success",
    "failure",
    "SUCCESS",
    "00-463ac35c9f6413ad48485a3953bb6124-00f067aa0ba902b7-01",
    "00-463ac35c9f6413ad48485a3953bb6124-00f067aa0ba902b7-+1",
    "463ac35c9f6413ad-00f067aa0ba902b7-1",
    "",
];
const BODIES: &[&str] = &[
    r#"{"userId":"u","price":1}"#,
    r#"{"userId":"u","price":"1"}"#,
    r#"{"userId":"u","price":-1}"#,
    r#"{"userId":"u","price":1,"price":2}"#,
    r#"{"orderId":"ORD-NOPE0000","amount":1,"paymentMethod":"CARD"}"#,
    r#"{"orderId":"x","amount":1,"paymentMethod":"card"}"#,
    r#"{"orderId":"ORD-NOPE0000","amount":1,"paymentMethod":"CARD","cardNumber":"4000 0025 0000 3155","returnUrl":"/back"}"#,
    r#"{"orderId":"ORD-NOPE0000","amount":1,"paymentMethod":"CARD","cardNumber":4242,"returnUrl":"//x"}"#,
    r#"{"a":{"a":{"a":{"a":[[[[[[1]]]]]]}}}}"#,
    "[]",
    "null",
    "{",
    "",
    "1e999",
];

/// One session, checked step by step.
pub fn run(data: &[u8]) -> Result<(), String> {
    let mut bytes = Bytes::new(data);
    let mut settings = Settings::with_seed(u64::from(bytes.u32()));
    settings.failure_rate = f64::from(bytes.byte() % 11) / 10.0;
    settings.log_capacity = usize::from(bytes.byte() % 40);
    let start = i64::from(bytes.u32()) * 1_000_000;
    let mut svc = Service::new(settings, Box::new(VirtualClock::starting_at(start)))
        .map_err(|e| format!("settings refused: {e}"))?;
    let mut ids: Vec<String> = Vec::new();
    let mut steps = 0;
    while !bytes.done() && steps < 64 {
        steps += 1;
        let request = match bytes.byte() % 9 {
            0 => {
                let ms = f64::from(bytes.u32()) * f64::from(bytes.u32());
                let before = svc.now();
                if svc.try_advance(ms).is_err() && svc.now() != before {
                    return Err("a refused advance moved the clock".into());
                }
                continue;
            }
            1 => {
                svc = round_trip(&mut svc)?;
                continue;
            }
            2..=4 => raw_request(&mut bytes),
            8 => {
                complete(&mut svc, &mut bytes, &ids)?;
                continue;
            }
            _ => route_call(&mut bytes, &ids),
        };
        let response = properties::step(&mut svc, request)?;
        if let Ok(Value::Object(data)) = serde_json::to_value(&response.body.data) {
            for key in ["orderId", "paymentId"] {
                if let Some(Value::String(id)) = data.get(key) {
                    ids.push(id.clone());
                }
            }
        }
    }
    Ok(())
}

/// The service through its snapshot: the copy snapshots alike.
fn round_trip(svc: &mut Service) -> Result<Service, String> {
    let snapshot = svc.snapshot();
    let copy = Service::restore(&snapshot, Box::new(VirtualClock::starting_at(0)))
        .map_err(|e| format!("a snapshot of the service is refused: {e}"))?;
    let again = copy.snapshot();
    if again != snapshot {
        let at = again
            .bytes()
            .zip(snapshot.bytes())
            .position(|(a, b)| a != b)
            .unwrap_or(again.len().min(snapshot.len()));
        let around = |s: &str| {
            s.get(at.saturating_sub(80)..(at + 80).min(s.len()))
                .unwrap_or_default()
                .to_owned()
        };
        return Err(format!(
            "a restored service snapshots differently, at byte {at}: {} became {}",
            around(&snapshot),
            around(&again)
        ));
    }
    Ok(copy)
}

/// Ends a challenge as a test would: done, or refused naming `outcome`
/// or `paymentId`.
fn complete(svc: &mut Service, bytes: &mut Bytes, ids: &[String]) -> Result<(), String> {
    let id = match ids.len() {
        0 => "PAY-NOPE0000".to_owned(),
        n => ids[usize::from(bytes.byte()) % n].clone(),
    };
    let outcome = bytes.pick(&["pass", "fail", "abandon", "maybe"]);
    match svc.complete_challenge(&id, outcome) {
        Ok(p) if p.payment_id == id && ["SUCCESS", "FAILED"].contains(&p.status.as_str()) => Ok(()),
        Ok(p) => Err(format!("completeChallenge({id}, {outcome}) gave {p:?}")),
        Err(e) if e.msg.starts_with("outcome: ") || e.msg.starts_with("paymentId: ") => Ok(()),
        Err(e) => Err(format!(
            "completeChallenge({id}, {outcome}) refused: {}",
            e.msg
        )),
    }
}

fn raw_request(bytes: &mut Bytes) -> RawRequest {
    let method = bytes.text(METHODS);
    let mut request = RawRequest::new(&method, &bytes.text(PATHS));
    if bytes.byte() % 2 == 0 {
        request = request.with_body(&bytes.text(BODIES));
    }
    for _ in 0..bytes.byte() % 4 {
        let name = bytes.text(HEADERS);
        let value = bytes.text(VALUES);
        request = request.with_header(&name, &value);
    }
    request
}

/// A well-formed call, so the fuzzer reaches deep states: on an id an
/// earlier answer gave (or an unknown one), with an outcome forced by
/// header now and then.
fn route_call(bytes: &mut Bytes, ids: &[String]) -> RawRequest {
    let id = match ids.len() {
        0 => "ORD-NOPE0000".to_owned(),
        n => ids[usize::from(bytes.byte()) % n].clone(),
    };
    let json = |path: &str, body: Value| {
        RawRequest::new("POST", path)
            .with_header("Content-Type", "application/json")
            .with_body(&body.to_string())
    };
    match bytes.byte() % 10 {
        0 | 1 => {
            let price = f64::from(bytes.u32() % 100_000) / 100.0;
            json(
                "/api/order/create",
                json!({"userId": format!("u{}", bytes.byte() % 4), "price": price}),
            )
        }
        2 => RawRequest::new("GET", &format!("/api/order/{id}")),
        3 => RawRequest::new("POST", &format!("/api/order/{id}/pay")),
        4 => RawRequest::new("POST", &format!("/api/order/delete/{id}")),
        5 => {
            let mut pay = json(
                "/api/payment/pay",
                json!({"orderId": id, "amount": 1.5, "paymentMethod": "WALLET_A"}),
            );
            if bytes.byte() % 2 == 0 {
                pay = pay.with_header("X-Sim-Outcome", bytes.pick(&["success", "failure"]));
            }
            if bytes.byte() % 2 == 0 {
                pay = with_card(pay, bytes, &id);
            }
            if bytes.byte() % 2 == 0 {
                pay = pay.with_header("Idempotency-Key", bytes.pick(&["k-1", "k-2", ""]));
            }
            pay
        }
        6 => RawRequest::new("GET", &format!("/api/payment/{id}")),
        7 => RawRequest::new("POST", &format!("/api/payment/refund/{id}")),
        8 => RawRequest::new("GET", &format!("/api/payment/{id}/challenge")),
        _ => {
            let outcome = bytes.pick(&["pass", "fail", "abandon", "maybe", ""]);
            RawRequest::new(
                "POST",
                &format!("/api/payment/{id}/challenge?outcome={outcome}"),
            )
        }
    }
}

/// A pay by a test card (one that waits, goes pending, is reversed or
/// declined, or no card at all), with a `returnUrl` now and then.
fn with_card(pay: RawRequest, bytes: &mut Bytes, id: &str) -> RawRequest {
    let card = bytes.pick(&[
        "4000002500003155",
        "4000 0082 6000 3178",
        "4000084000000014",
        "4000084000000022",
        "4000000000000259",
        "4000000000009995",
        "4242424242424242",
        "1234",
    ]);
    let mut body =
        json!({"orderId": id, "amount": 1.5, "paymentMethod": "CARD", "cardNumber": card});
    if bytes.byte() % 2 == 0 {
        body["returnUrl"] = json!(bytes.pick(&["/back", "https://shop.example/r?x=1", "//x"]));
    }
    let mut request = RawRequest::new("POST", "/api/payment/pay")
        .with_header("Content-Type", "application/json")
        .with_body(&body.to_string());
    for (name, value) in pay.headers {
        if !name.eq_ignore_ascii_case("content-type") {
            request = request.with_header(&name, &value);
        }
    }
    request
}
