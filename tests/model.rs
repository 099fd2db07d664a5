//! A model-based test of the order and payment state machines: random
//! sequences of operations (create, get, pay with the outcome forced by
//! `X-Sim-Outcome` or left to the draw, mark paid, delete, get payment,
//! refund, on known, deleted and unknown ids) run against the service and
//! against a reference model in plain Rust, and every answer and the state
//! after each sequence are compared.
//!
//! CI runs 1,500 sequences; the long run is
//! `MODEL_SEQUENCES=100000 cargo test --release --test model -- --nocapture`.

mod properties;

use std::collections::{BTreeMap, BTreeSet};

use orderpay::domain::payment::PaymentStatus;
use orderpay::domain::OrderStatus;
use orderpay::sim::clock::VirtualClock;
use orderpay::sim::random::Rng;
use orderpay::{RawRequest, Service, Settings};
use serde_json::{json, Value};

#[derive(Debug, Clone, PartialEq)]
struct Order {
    user_id: String,
    price: f64,
    paid: bool,
}

#[derive(Debug, Clone, PartialEq)]
struct Payment {
    order_id: String,
    amount: f64,
    method: &'static str,
    refunded: bool,
}

/// The spec's state machines, as simply as they can be written.
#[derive(Default)]
struct Model {
    orders: BTreeMap<String, Order>,
    deleted: BTreeSet<String>,
    payments: BTreeMap<String, Payment>,
}

/// What the model says an answer must be: code 0 with this data (or none),
/// or a business error with this msg, or a 400.
#[derive(Debug, PartialEq)]
enum Expect {
    Ok(Option<Value>),
    Rejected(&'static str),
    BadRequest,
}

const METHODS: [&str; 3] = ["CARD", "WALLET_A", "WALLET_B"];

impl Model {
    fn order_json(&self, id: &str) -> Option<Value> {
        self.orders.get(id).map(|o| {
            json!({"orderId": id, "userId": o.user_id, "price": o.price,
                   "status": if o.paid { "PAID" } else { "CREATED" }})
        })
    }

    fn payment_json(&self, id: &str) -> Option<Value> {
        self.payments.get(id).map(|p| {
            json!({"paymentId": id, "orderId": p.order_id, "amount": p.amount,
                   "paymentMethod": p.method,
                   "status": if p.refunded { "REFUNDED" } else { "SUCCESS" }})
        })
    }

    fn mark_paid(&mut self, id: &str) -> Expect {
        match self.orders.get_mut(id) {
            None => Expect::Rejected("Order not found"),
            Some(o) if o.paid => Expect::Rejected("Order already paid"),
            Some(o) => {
                o.paid = true;
                Expect::Ok(None)
            }
        }
    }

    fn delete(&mut self, id: &str) -> Expect {
        match self.orders.get(id) {
            None => Expect::Rejected("Order not found"),
            Some(o) if o.paid => Expect::Rejected("Paid order cannot be deleted"),
            Some(_) => {
                self.orders.remove(id);
                self.deleted.insert(id.to_owned());
                Expect::Ok(None)
            }
        }
    }

    fn refund(&mut self, id: &str) -> Expect {
        match self.payments.get_mut(id) {
            None => Expect::Rejected("Payment not found"),
            Some(p) if p.refunded => Expect::Rejected("Only success payment can be refunded"),
            Some(p) => {
                p.refunded = true;
                Expect::Ok(None)
            }
        }
    }
}

/// The fields of the answer's data the model knows (it leaves out the
/// times, which the clock decides).
fn known_fields(data: &Value, like: &Value) -> Value {
    match like.as_object() {
        Some(fields) => fields
            .keys()
            .map(|k| (k.clone(), data[k.as_str()].clone()))
            .collect::<serde_json::Map<_, _>>()
            .into(),
        None => data.clone(),
    }
}

struct Run {
    svc: Service,
    model: Model,
    rng: Rng,
    ops: u64,
    /// The last answer: code, msg, data.
    last: (i32, String, Value),
    /// Payments sent with an `Idempotency-Key`, and what they answered:
    /// sent again, they must answer the same and change nothing.
    keyed: Vec<(RawRequest, (i32, String, Value))>,
}

impl Run {
    fn send(&mut self, request: RawRequest) -> (i32, String, Value) {
        self.ops += 1;
        let what = format!("{} {:?}", request.method, request.path);
        let response =
            properties::step(&mut self.svc, request).unwrap_or_else(|e| panic!("{what}: {e}"));
        let data = serde_json::to_value(&response.body.data).unwrap_or_default();
        self.last = (response.body.code, response.body.msg.clone(), data.clone());
        (response.body.code, response.body.msg, data)
    }

    /// A keyed payment sent again: the answer it had, and no change (the
    /// model is left as it is, and compared with the service later).
    fn replay(&mut self) {
        if self.keyed.is_empty() {
            return self.pay();
        }
        let at = self.rng.below(self.keyed.len() as u64) as usize;
        let (request, answer) = self.keyed[at].clone();
        let what = format!("replay of {:?}", request.headers);
        assert_eq!(self.send(request), answer, "{what}");
    }

    fn check(&mut self, request: RawRequest, expect: Expect) -> Value {
        let what = format!("{} {:?}", request.method, request.path);
        let (code, msg, data) = self.send(request);
        let matches = match &expect {
            Expect::Ok(None) => code == 0 && data.is_null(),
            Expect::Ok(Some(like)) => code == 0 && known_fields(&data, like) == *like,
            Expect::Rejected(m) => code == -1 && msg == *m && data.is_null(),
            Expect::BadRequest => code == 400,
        };
        assert!(
            matches,
            "{what}: the model expects {expect:?}, the service said {code} {msg} {data}"
        );
        data
    }

    /// An id to act on: a live one, a deleted one, or one never issued.
    fn pick(&mut self, live: Vec<String>, unknown: &str) -> String {
        let deleted: Vec<String> = self.model.deleted.iter().cloned().collect();
        match self.rng.below(10) {
            0 => unknown.to_owned(),
            1 if !deleted.is_empty() => {
                deleted[self.rng.below(deleted.len() as u64) as usize].clone()
            }
            _ if !live.is_empty() => live[self.rng.below(live.len() as u64) as usize].clone(),
            _ => unknown.to_owned(),
        }
    }

    fn pick_order(&mut self) -> String {
        let live = self.model.orders.keys().cloned().collect();
        self.pick(live, "ORD-ZZZZ0000")
    }

    fn pick_payment(&mut self) -> String {
        let live = self.model.payments.keys().cloned().collect();
        self.pick(live, "PAY-ZZZZ0000")
    }

    fn create(&mut self) {
        let user = format!("u{}", self.rng.below(3));
        let price = match self.rng.below(10) {
            0 => -(self.rng.below(100) as f64),
            _ => (1 + self.rng.below(100_000)) as f64 / 100.0,
        };
        let bad = self.rng.below(20) == 0;
        let body = if bad {
            json!({"userId": user, "price": price.to_string()})
        } else {
            json!({"userId": user, "price": price})
        };
        let request = post_json("/api/order/create", &body);
        if bad {
            self.check(request, Expect::BadRequest);
            return;
        }
        if price <= 0.0 {
            self.check(request, Expect::Rejected("price must be > 0"));
            return;
        }
        let like = json!({"userId": user, "price": price, "status": "CREATED"});
        let data = self.check(request, Expect::Ok(Some(like)));
        let id = data["orderId"].as_str().unwrap_or_default().to_owned();
        assert!(
            !self.model.orders.contains_key(&id) && !self.model.deleted.contains(&id),
            "{id} issued twice"
        );
        self.model.orders.insert(
            id,
            Order {
                user_id: user,
                price,
                paid: false,
            },
        );
    }

    fn pay(&mut self) {
        let order_id = self.pick_order();
        let amount = match self.rng.below(12) {
            0 => 0.0,
            _ => (1 + self.rng.below(10_000)) as f64 / 100.0,
        };
        let method = METHODS[self.rng.below(3) as usize];
        let forced = match self.rng.below(5) {
            0 => None,
            1 | 2 => Some("success"),
            _ => Some("failure"),
        };
        let mut request = post_json(
            "/api/payment/pay",
            &json!({"orderId": order_id, "amount": amount, "paymentMethod": method}),
        );
        if let Some(outcome) = forced {
            request = request.with_header("X-Sim-Outcome", outcome);
        }
        if self.rng.below(3) == 0 {
            request = request.with_header("Idempotency-Key", &format!("k-{}", self.ops));
            self.keyed
                .push((request.clone(), (0, String::new(), Value::Null)));
            self.pay_as(request, order_id, amount, method, forced);
            if let Some(kept) = self.keyed.last_mut() {
                kept.1 = self.last.clone();
            }
            return;
        }
        self.pay_as(request, order_id, amount, method, forced);
    }

    /// Payment pay of `request`, which says what the other arguments do.
    fn pay_as(
        &mut self,
        request: RawRequest,
        order_id: String,
        amount: f64,
        method: &'static str,
        forced: Option<&str>,
    ) {
        let like = json!({"orderId": order_id, "amount": amount, "paymentMethod": method, "status": "SUCCESS"});
        let expect = if amount <= 0.0 {
            Expect::Rejected("amount must be > 0")
        } else if !self.model.orders.contains_key(&order_id) {
            Expect::Rejected("Order not found")
        } else {
            match forced {
                Some("failure") => Expect::Rejected("Third party payment failed"),
                Some(_) => Expect::Ok(Some(like)),
                // The draw decides: the model follows it, whichever it is.
                None => {
                    let (code, msg, data) = self.send(request);
                    if code == 0 {
                        assert_eq!(known_fields(&data, &like), like);
                        self.record_payment(&data, order_id, amount, method);
                    } else {
                        assert_eq!((code, msg.as_str()), (-1, "Third party payment failed"));
                    }
                    return;
                }
            }
        };
        let approved = matches!(expect, Expect::Ok(_));
        let data = self.check(request, expect);
        if approved {
            self.record_payment(&data, order_id, amount, method);
        }
    }

    fn record_payment(
        &mut self,
        data: &Value,
        order_id: String,
        amount: f64,
        method: &'static str,
    ) {
        let id = data["paymentId"].as_str().unwrap_or_default().to_owned();
        assert!(!self.model.payments.contains_key(&id), "{id} issued twice");
        self.model.payments.insert(
            id,
            Payment {
                order_id,
                amount,
                method,
                refunded: false,
            },
        );
    }

    fn step(&mut self) {
        match self.rng.below(10) {
            9 => self.replay(),
            0 | 1 => self.create(),
            2 => {
                let id = self.pick_order();
                let expect = match self.model.order_json(&id) {
                    Some(order) => Expect::Ok(Some(order)),
                    None => Expect::Rejected("Order not found"),
                };
                self.check(RawRequest::new("GET", &format!("/api/order/{id}")), expect);
            }
            3 | 4 => self.pay(),
            5 => {
                let id = self.pick_order();
                let expect = self.model.mark_paid(&id);
                self.check(
                    RawRequest::new("POST", &format!("/api/order/{id}/pay")),
                    expect,
                );
            }
            6 => {
                let id = self.pick_order();
                let expect = self.model.delete(&id);
                self.check(
                    RawRequest::new("POST", &format!("/api/order/delete/{id}")),
                    expect,
                );
            }
            7 => {
                let id = self.pick_payment();
                let expect = match self.model.payment_json(&id) {
                    Some(payment) => Expect::Ok(Some(payment)),
                    None => Expect::Rejected("Payment not found"),
                };
                self.check(
                    RawRequest::new("GET", &format!("/api/payment/{id}")),
                    expect,
                );
            }
            _ => {
                let id = self.pick_payment();
                let expect = self.model.refund(&id);
                self.check(
                    RawRequest::new("POST", &format!("/api/payment/refund/{id}")),
                    expect,
                );
            }
        }
    }

    /// The whole state of the service against the model's.
    fn compare_state(&self) {
        let orders = self.svc.orders();
        assert_eq!(orders.len(), self.model.orders.len());
        for (id, o) in &self.model.orders {
            let got = orders.get(id).unwrap_or_else(|_| panic!("{id} missing"));
            let status = if o.paid {
                OrderStatus::Paid
            } else {
                OrderStatus::Created
            };
            assert_eq!(
                (got.user_id.as_str(), got.price.get(), got.status),
                (o.user_id.as_str(), o.price, status),
                "{id}"
            );
        }
        for id in &self.model.deleted {
            assert!(orders.get(id).is_err(), "deleted {id} still there");
        }
        let payments = self.svc.payments();
        assert_eq!(payments.len(), self.model.payments.len());
        for (id, p) in &self.model.payments {
            let got = payments.get(id).unwrap_or_else(|_| panic!("{id} missing"));
            let status = if p.refunded {
                PaymentStatus::Refunded
            } else {
                PaymentStatus::Success
            };
            assert_eq!(
                (
                    got.order_id.as_str(),
                    got.amount.get(),
                    got.payment_method.as_str(),
                    got.status
                ),
                (p.order_id.as_str(), p.amount, p.method, status),
                "{id}"
            );
        }
    }
}

fn post_json(path: &str, body: &Value) -> RawRequest {
    RawRequest::new("POST", path)
        .with_header("Content-Type", "application/json")
        .with_body(&body.to_string())
}

#[test]
fn random_sequences_agree_with_the_reference_model() {
    let sequences: u64 = std::env::var("MODEL_SEQUENCES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1_500);
    let mut seeds = Rng::new(0x3a7e);
    let mut ops = 0;
    let started = std::time::Instant::now();
    for n in 0..sequences {
        let seed = seeds.next_u64() >> 11;
        let mut settings = Settings::with_seed(seed);
        settings.failure_rate = (seed % 11) as f64 / 10.0;
        settings.log_capacity = 64;
        let svc = Service::new(settings, Box::new(VirtualClock::starting_at(0)))
            .unwrap_or_else(|e| panic!("{e}"));
        let mut run = Run {
            svc,
            model: Model::default(),
            rng: Rng::new(seed),
            ops: 0,
            last: (0, String::new(), Value::Null),
            keyed: Vec::new(),
        };
        let length = 1 + run.rng.below(40);
        for _ in 0..length {
            run.step();
        }
        run.compare_state();
        // Now and then, the state goes through a snapshot and on.
        if n % 10 == 0 {
            let snapshot = run.svc.snapshot();
            run.svc = Service::restore(&snapshot, Box::new(VirtualClock::starting_at(0)))
                .unwrap_or_else(|e| panic!("{e}"));
            for _ in 0..length {
                run.step();
            }
            run.compare_state();
        }
        ops += run.ops;
    }
    eprintln!(
        "{sequences} sequences, {ops} operations, no divergence from the model, in {:.1} s",
        started.elapsed().as_secs_f64()
    );
}
