//! A model-based test of the order and payment state machines: random
//! sequences of operations (create, get, pay with the outcome forced by
//! `X-Sim-Outcome`, a test card's `cardNumber` or left to the draw, mark
//! paid, delete, get payment, refund, on known, deleted and unknown ids;
//! under a scenario rule of kind `challenge`, `pending` or `reversal` now
//! and then; challenges ended by the buyer, the clock moved across due
//! times, snapshots restored midway) run against the service and against a
//! reference model in plain Rust, and every answer and the state after
//! each sequence are compared.
//!
//! CI runs 1,500 sequences; the long run is
//! `MODEL_SEQUENCES=100000 cargo test --release --test model -- --nocapture`.

mod properties;

use std::collections::{BTreeMap, BTreeSet};

use orderpay::domain::OrderStatus;
use orderpay::sim::clock::VirtualClock;
use orderpay::sim::random::Rng;
use orderpay::sim::test_card::{CardOutcome, CARDS};
use orderpay::{RawRequest, Service, Settings};
use serde_json::{json, Value};

#[derive(Debug, Clone, PartialEq)]
struct Order {
    user_id: String,
    price: f64,
    paid: bool,
}

/// A payment's status, with the decline code of a failed one.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Status {
    Success,
    Refunded,
    RequiresAction,
    Pending,
    Failed(&'static str),
}

impl Status {
    fn name(self) -> &'static str {
        match self {
            Status::Success => "SUCCESS",
            Status::Refunded => "REFUNDED",
            Status::RequiresAction => "REQUIRES_ACTION",
            Status::Pending => "PENDING",
            Status::Failed(_) => "FAILED",
        }
    }
}

/// What a payment that changes later does when its plan ends.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Step {
    /// Ends itself with `outcome` when due (or waits for the buyer);
    /// fails with `code`; once passed, declined with `after` if any.
    Challenge {
        outcome: Option<&'static str>,
        code: &'static str,
        after: Option<&'static str>,
    },
    Pending {
        pass: bool,
        code: &'static str,
    },
    Reversal {
        code: &'static str,
    },
}

#[derive(Debug, Clone, Copy, PartialEq)]
struct Plan {
    /// `None` waits for the buyer.
    due: Option<i64>,
    step: Step,
}

#[derive(Debug, Clone, PartialEq)]
struct Payment {
    order_id: String,
    amount: f64,
    method: &'static str,
    status: Status,
    plan: Option<Plan>,
    /// Challenged once: the challenge page is served for it.
    challenged: bool,
    /// The `returnUrl` a challenged payment keeps.
    return_url: bool,
}

impl Payment {
    /// The plan ends when due: the status it leaves.
    fn resolve(&mut self) {
        let Some(plan) = self.plan.take() else { return };
        self.status = match plan.step {
            Step::Challenge {
                outcome: Some("pass"),
                ..
            } => Status::Success,
            Step::Challenge { code, .. } => Status::Failed(code),
            Step::Pending { pass: true, .. } => Status::Success,
            Step::Pending { code, .. } => Status::Failed(code),
            Step::Reversal { code } if self.status == Status::Success => Status::Failed(code),
            Step::Reversal { .. } => self.status,
        };
    }

    /// The buyer ends its open challenge.
    fn complete(&mut self, outcome: &str) {
        if let Some(Plan {
            step: Step::Challenge { code, after, .. },
            ..
        }) = self.plan.take()
        {
            self.status = match (outcome, after) {
                ("pass", None) => Status::Success,
                ("pass", Some(declined)) => Status::Failed(declined),
                _ => Status::Failed(code),
            };
        }
    }
}

/// The scenario rule of a sequence: it takes the pays by `WALLET_A`.
#[derive(Debug, Clone, Copy)]
struct Rule {
    step: Step,
    /// Its `afterMs` or `forMs`; `None` waits for the buyer.
    wait: Option<i64>,
    starts: Status,
}

/// The spec's state machines, as simply as they can be written.
#[derive(Default)]
struct Model {
    orders: BTreeMap<String, Order>,
    deleted: BTreeSet<String>,
    payments: BTreeMap<String, Payment>,
    rule: Option<Rule>,
}

/// What the model says an answer must be: code 0 with this data (or none),
/// or a business error with this msg, or a 400.
#[derive(Debug, PartialEq)]
enum Expect {
    Ok(Option<Value>),
    Rejected(&'static str),
    /// A 409: a second pay while a challenge is open.
    Conflict(String),
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
        self.payments.get(id).map(|p| payment_like(id, p))
    }

    /// Every plan due by `now` ends, as the service resolves them.
    fn resolve_due(&mut self, now: i64) {
        for p in self.payments.values_mut() {
            if p.plan
                .and_then(|plan| plan.due)
                .is_some_and(|due| due <= now)
            {
                p.resolve();
            }
        }
    }

    /// The payment of `order_id` awaiting its challenge, if any.
    fn open_challenge(&self, order_id: &str) -> Option<&String> {
        self.payments
            .iter()
            .find(|(_, p)| p.order_id == order_id && p.status == Status::RequiresAction)
            .map(|(id, _)| id)
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
            Some(p) if p.status != Status::Success => {
                Expect::Rejected("Only success payment can be refunded")
            }
            Some(p) => {
                p.status = Status::Refunded;
                Expect::Ok(None)
            }
        }
    }
}

/// A payment's data as the model knows it: `nextAction` only while a
/// challenge is open, `failureCode` only once failed.
fn payment_like(id: &str, p: &Payment) -> Value {
    let mut like = json!({"paymentId": id, "orderId": p.order_id, "amount": p.amount,
                          "paymentMethod": p.method, "status": p.status.name(),
                          "nextAction": null, "failureCode": null});
    if p.status == Status::RequiresAction {
        like["nextAction"] =
            json!({"type": "redirect", "url": format!("/api/payment/{id}/challenge")});
    }
    if let Status::Failed(code) = p.status {
        like["failureCode"] = json!(code);
    }
    like
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
    /// The last answer's HTTP status.
    status: u16,
    /// Whether the events were read from the start (webhooks on).
    events_on: bool,
}

/// The test card and `returnUrl` of a pay.
#[derive(Default)]
struct Extras {
    card: Option<CardOutcome>,
    return_url: bool,
    /// An unknown card or a bad URL: a 400.
    bad: bool,
}

/// One pay's inputs.
struct Pay {
    order_id: String,
    amount: f64,
    method: &'static str,
    forced: Option<&'static str>,
    extras: Extras,
}

/// What the model says a pay turns into: an answer it knows, an approved
/// payment (its status, and its plan's step and wait), or the draw's.
enum Turns {
    Answer(Expect),
    Approved(Status, Option<(Step, Option<i64>)>),
    Draw,
}

impl Run {
    fn send(&mut self, request: RawRequest) -> (i32, String, Value) {
        self.ops += 1;
        let what = format!("{} {:?}", request.method, request.path);
        let response =
            properties::step(&mut self.svc, request).unwrap_or_else(|e| panic!("{what}: {e}"));
        let data = serde_json::to_value(&response.body.data).unwrap_or_default();
        self.last = (response.body.code, response.body.msg.clone(), data.clone());
        self.status = response.status;
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
            Expect::Conflict(m) => self.status == 409 && code == -1 && msg == *m && data.is_null(),
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
        let mut body = json!({"orderId": order_id, "amount": amount, "paymentMethod": method});
        let extras = self.extras(&mut body);
        let mut request = post_json("/api/payment/pay", &body);
        if let Some(outcome) = forced {
            request = request.with_header("X-Sim-Outcome", outcome);
        }
        let pay = Pay {
            order_id,
            amount,
            method,
            forced,
            extras,
        };
        if self.rng.below(3) == 0 {
            request = request.with_header("Idempotency-Key", &format!("k-{}", self.ops));
            self.keyed
                .push((request.clone(), (0, String::new(), Value::Null)));
            self.pay_as(request, pay);
            // Only a 2xx answer is kept under its key (a 400 or a 409 is
            // answered afresh when sent again).
            if !(200..300).contains(&self.status) {
                self.keyed.pop();
            } else if let Some(kept) = self.keyed.last_mut() {
                kept.1 = self.last.clone();
            }
            return;
        }
        self.pay_as(request, pay);
    }

    /// A test card and a `returnUrl` now and then, in `body`: a card of
    /// the table (with spaces or dashes, or not), or one it has not; a
    /// good or a bad URL.
    fn extras(&mut self, body: &mut Value) -> Extras {
        let mut extras = Extras::default();
        match self.rng.below(8) {
            0..=2 => {
                let card = &CARDS[self.rng.below(CARDS.len() as u64) as usize];
                let (a, b) = card.number.split_at(8);
                body["cardNumber"] = match self.rng.below(3) {
                    0 => json!(card.number),
                    1 => json!(format!("{} {} {}", &a[..4], &a[4..], b)),
                    _ => json!(format!("{}-{}-{}", &a[..4], &a[4..], b)),
                };
                extras.card = Some(card.outcome);
            }
            3 if self.rng.below(4) == 0 => {
                body["cardNumber"] =
                    json!(["1234", "4242", "", "4242.4242.4242.4242"][self.rng.below(4) as usize]);
                extras.bad = true;
            }
            _ => {}
        }
        match self.rng.below(6) {
            0 => {
                body["returnUrl"] =
                    json!(["/back", "https://shop.example/r?x=1"][self.rng.below(2) as usize]);
                extras.return_url = true;
            }
            1 if self.rng.below(4) == 0 => {
                body["returnUrl"] =
                    json!(["//evil.example", "ftp://x", "/a\nb"][self.rng.below(3) as usize]);
                extras.bad = true;
            }
            _ => {}
        }
        extras
    }

    /// What the model says a pay turns into.
    fn judge(&self, pay: &Pay) -> Turns {
        let Pay {
            order_id,
            amount,
            method,
            forced,
            extras,
        } = pay;
        // A card number goes with CARD only: with a wallet, a 400.
        if extras.bad || (extras.card.is_some() && *method != "CARD") {
            return Turns::Answer(Expect::BadRequest);
        }
        if *amount <= 0.0 {
            return Turns::Answer(Expect::Rejected("amount must be > 0"));
        }
        if !self.model.orders.contains_key(order_id) {
            return Turns::Answer(Expect::Rejected("Order not found"));
        }
        if let Some(open) = self.model.open_challenge(order_id) {
            let msg = format!("Order {order_id} has a payment awaiting authentication: {open}");
            return Turns::Answer(Expect::Conflict(msg));
        }
        if let Some(rule) = self.model.rule.filter(|_| *method == "WALLET_A") {
            return Turns::Approved(rule.starts, Some((rule.step, rule.wait)));
        }
        let waits = |ms: u64| Some(ms as i64);
        match (extras.card, forced) {
            (Some(CardOutcome::Succeeds), _) => Turns::Approved(Status::Success, None),
            (Some(CardOutcome::Declines(_)), _) | (None, Some("failure")) => {
                Turns::Answer(Expect::Rejected("Third party payment failed"))
            }
            (Some(CardOutcome::Challenge { declined_after }), _) => {
                let step = Step::Challenge {
                    outcome: None,
                    code: "authentication_required",
                    after: declined_after,
                };
                Turns::Approved(Status::RequiresAction, Some((step, None)))
            }
            (Some(CardOutcome::Pending { for_ms, pass, code }), _) => {
                let step = Step::Pending { pass, code };
                Turns::Approved(Status::Pending, Some((step, waits(for_ms))))
            }
            (Some(CardOutcome::Reversal { after_ms, code, .. }), _) => {
                let step = Step::Reversal { code };
                Turns::Approved(Status::Success, Some((step, waits(after_ms))))
            }
            (None, Some(_)) => Turns::Approved(Status::Success, None),
            // The draw decides: the model follows it, whichever it is.
            (None, None) => Turns::Draw,
        }
    }

    /// Payment pay of `request`, which `pay` describes.
    fn pay_as(&mut self, request: RawRequest, pay: Pay) {
        let like =
            json!({"orderId": pay.order_id, "amount": pay.amount, "paymentMethod": pay.method});
        let (status, plan) = match self.judge(&pay) {
            Turns::Answer(expect) => {
                self.check(request, expect);
                return;
            }
            Turns::Approved(status, plan) => (status, plan),
            Turns::Draw => {
                let (code, msg, data) = self.send(request);
                if code == 0 {
                    assert_eq!(known_fields(&data, &like), like);
                    self.record_payment(&data, &pay, Status::Success, None);
                } else {
                    assert_eq!((code, msg.as_str()), (-1, "Third party payment failed"));
                }
                return;
            }
        };
        let data = self.check(request, Expect::Ok(Some(like)));
        self.record_payment(&data, &pay, status, plan);
    }

    fn record_payment(
        &mut self,
        data: &Value,
        pay: &Pay,
        status: Status,
        plan: Option<(Step, Option<i64>)>,
    ) {
        let id = data["paymentId"].as_str().unwrap_or_default().to_owned();
        assert!(!self.model.payments.contains_key(&id), "{id} issued twice");
        let paid_at = data["paidAt"].as_i64().unwrap_or_default();
        let challenged = status == Status::RequiresAction;
        let payment = Payment {
            order_id: pay.order_id.clone(),
            amount: pay.amount,
            method: pay.method,
            status,
            plan: plan.map(|(step, wait)| Plan {
                due: wait.map(|ms| paid_at + ms),
                step,
            }),
            challenged,
            return_url: challenged && pay.extras.return_url,
        };
        let like = payment_like(&id, &payment);
        assert_eq!(known_fields(data, &like), like, "the pay's answer");
        self.model.payments.insert(id, payment);
    }

    /// Ends a challenge as the buyer: through `complete_challenge`, or
    /// the challenge page's form (or only looks at the page).
    fn complete(&mut self) {
        let open: Vec<String> = (self.model.payments.iter())
            .filter(|(_, p)| p.challenged)
            .map(|(id, _)| id.clone())
            .collect();
        let id = match self.rng.below(3) {
            0 => self.pick_payment(),
            _ => self.pick(open, "PAY-ZZZZ0000"),
        };
        let outcome = ["pass", "fail", "abandon"][self.rng.below(3) as usize];
        let payment = self.model.payments.get(&id).cloned();
        let awaiting = payment
            .as_ref()
            .is_some_and(|p| p.status == Status::RequiresAction);
        let path = format!("/api/payment/{id}/challenge");
        self.ops += 1;
        match self.rng.below(5) {
            0 | 1 => {
                let done = self.svc.complete_challenge(&id, outcome);
                if awaiting {
                    let p = self.model.payments.get_mut(&id).expect("known");
                    p.complete(outcome);
                    let got = done.unwrap_or_else(|e| panic!("{id} {outcome}: {}", e.msg));
                    assert_eq!(got.status.as_str(), p.status.name(), "{id} {outcome}");
                } else {
                    let e = done.err().unwrap_or_else(|| panic!("{id}: not refused"));
                    assert!(e.msg.starts_with("paymentId: "), "{}", e.msg);
                }
            }
            2 => {
                let page = self.svc.handle(RawRequest::new("GET", &path));
                let challenged = payment.is_some_and(|p| p.challenged);
                assert_eq!(page.status, if challenged { 200 } else { 404 }, "{path}");
            }
            _ => {
                let done = self.svc.handle(RawRequest::new(
                    "POST",
                    &format!("{path}?outcome={outcome}"),
                ));
                let want = match payment {
                    Some(p) if awaiting && p.return_url => 303,
                    Some(_) if awaiting => 200,
                    Some(p) if p.challenged => 409,
                    _ => 404,
                };
                assert_eq!(done.status, want, "POST {path}?outcome={outcome}");
                if awaiting {
                    if let Some(p) = self.model.payments.get_mut(&id) {
                        p.complete(outcome);
                    }
                }
            }
        }
    }

    /// Moves the clock, across due times now and then.
    fn advance(&mut self) {
        let ms = [0, 10, 1_000, 5_000, 30_000, 60_000, 3_600_000][self.rng.below(7) as usize];
        self.svc.advance(ms);
        let now = self.svc.now();
        self.model.resolve_due(now);
    }

    /// The service through a snapshot, midway: it goes on exactly.
    fn restore(&mut self) {
        let (snapshot, now, due) = (self.svc.snapshot(), self.svc.now(), self.svc.next_due());
        self.svc = Service::restore(&snapshot, Box::new(VirtualClock::starting_at(0)))
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            (self.svc.now(), self.svc.next_due()),
            (now, due),
            "the clock and the plans go on"
        );
        assert_eq!(self.svc.snapshot(), snapshot);
    }

    fn step(&mut self) {
        // What came due by now ends first, as the service's next request
        // (or call) resolves it.
        let now = self.svc.now();
        self.model.resolve_due(now);
        match self.rng.below(20) {
            16 | 17 => self.replay(),
            0..=3 => self.create(),
            18 => self.complete(),
            19 if self.rng.below(4) == 0 => self.restore(),
            19 => self.advance(),
            4 | 5 => {
                let id = self.pick_order();
                let expect = match self.model.order_json(&id) {
                    Some(order) => Expect::Ok(Some(order)),
                    None => Expect::Rejected("Order not found"),
                };
                self.check(RawRequest::new("GET", &format!("/api/order/{id}")), expect);
            }
            6..=9 => self.pay(),
            10 => {
                let id = self.pick_order();
                let expect = self.model.mark_paid(&id);
                self.check(
                    RawRequest::new("POST", &format!("/api/order/{id}/pay")),
                    expect,
                );
            }
            11 => {
                let id = self.pick_order();
                let expect = self.model.delete(&id);
                self.check(
                    RawRequest::new("POST", &format!("/api/order/delete/{id}")),
                    expect,
                );
            }
            12 | 13 => {
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

    /// Half the sequences run under a scenario rule of a kind that
    /// changes later, taking the pays by `WALLET_A`.
    fn set_rule(&mut self) {
        let Some((rule, then)) = rule(&mut self.rng) else {
            return;
        };
        let doc = json!({"name": "async", "rules": [{"name": "later",
            "when": {"route": "/api/payment/pay", "paymentMethod": "WALLET_A"}, "then": then}]});
        self.svc
            .set_scenario(Some(&doc.to_string()))
            .unwrap_or_else(|e| panic!("{doc}: {}", e.msg));
        self.model.rule = Some(rule);
    }

    /// The whole state of the service against the model's, once what is
    /// due by now has ended.
    fn compare_state(&mut self) {
        self.svc.advance(0);
        let now = self.svc.now();
        self.model.resolve_due(now);
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
            assert_eq!(
                (
                    got.order_id.as_str(),
                    got.amount.get(),
                    got.payment_method.as_str(),
                    got.status.as_str(),
                    got.failure_code()
                ),
                (
                    p.order_id.as_str(),
                    p.amount,
                    p.method,
                    p.status.name(),
                    match p.status {
                        Status::Failed(code) => Some(code),
                        _ => None,
                    }
                ),
                "{id}"
            );
        }
        self.compare_events();
    }

    /// The events agree with the states the model sees: the last event of
    /// each order and payment is the one of the state it is in now (a
    /// deleted order's, `order.deleted`), every event names one the model
    /// has had, and a declined pay's names no payment.
    fn compare_events(&mut self) {
        // Half the services have webhooks on from the start (the events
        // read), so their snapshots keep the events; the other half never
        // turn them on, and a restore starts their log anew.
        if !self.events_on {
            return;
        }
        let text = self.svc.events_json(None).unwrap_or_else(|e| panic!("{e}"));
        let events: Vec<Value> = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}"));
        let mut last: BTreeMap<String, String> = BTreeMap::new();
        for e in &events {
            let (kind, object) = (e["type"].as_str().unwrap_or_default(), &e["data"]["object"]);
            let id = match kind.split('.').next() {
                Some("order") => object["orderId"].as_str(),
                _ => object["paymentId"].as_str(),
            };
            match id {
                Some(id) => {
                    last.insert(id.to_owned(), kind.to_owned());
                }
                None => assert_eq!(kind, "payment.failed", "only a decline names no payment"),
            }
        }
        let mut want: BTreeMap<String, String> = BTreeMap::new();
        for (id, o) in &self.model.orders {
            let kind = if o.paid {
                "order.paid"
            } else {
                "order.created"
            };
            want.insert(id.clone(), kind.to_owned());
        }
        for id in &self.model.deleted {
            want.insert(id.clone(), "order.deleted".to_owned());
        }
        for (id, p) in &self.model.payments {
            let kind = match p.status {
                Status::Success => "payment.succeeded",
                Status::Refunded => "payment.refunded",
                Status::RequiresAction => "payment.requires_action",
                Status::Pending => "payment.pending",
                Status::Failed(_) => "payment.failed",
            };
            want.insert(id.clone(), kind.to_owned());
        }
        assert_eq!(last, want, "the last event of each order and payment");
    }
}

/// A rule's `afterMs` or `forMs`.
fn wait(rng: &mut Rng) -> i64 {
    [0, 10, 1_000, 30_000, 60_000][rng.below(5) as usize]
}

/// A rule's decline `code`.
fn code(rng: &mut Rng) -> &'static str {
    ["do_not_honor", "lost_card", "insufficient_funds"][rng.below(3) as usize]
}

/// A `challenge` rule: waiting for the buyer, or ending itself.
fn challenge_rule(rng: &mut Rng, then: &mut Value) -> (Step, Option<i64>, Status) {
    then["kind"] = json!("challenge");
    let outcome = match rng.below(2) {
        0 => None,
        _ => Some(["pass", "fail", "abandon"][rng.below(3) as usize]),
    };
    let mut after = outcome.map(|_| 0);
    if let Some(o) = outcome {
        then["outcome"] = json!(o);
        if rng.below(3) != 0 {
            let ms = wait(rng);
            then["afterMs"] = json!(ms);
            after = Some(ms);
        }
    }
    let mut fails = "authentication_required";
    if rng.below(2) == 0 {
        fails = code(rng);
        then["code"] = json!(fails);
    }
    let step = Step::Challenge {
        outcome,
        code: fails,
        after: None,
    };
    (step, after, Status::RequiresAction)
}

/// A rule of kind `challenge`, `pending` or `reversal` with its
/// options drawn (each left to its default now and then), and its JSON.
fn rule(rng: &mut Rng) -> Option<(Rule, Value)> {
    let mut then = json!({});
    let (step, wait, starts) = match rng.below(8) {
        0 | 1 => challenge_rule(rng, &mut then),
        2 | 3 => {
            then["kind"] = json!("pending");
            let mut for_ms = 30_000;
            if rng.below(3) != 0 {
                for_ms = wait(rng);
                then["forMs"] = json!(for_ms);
            }
            let (pass, mut fails) = (rng.below(2) == 0, "generic_decline");
            if pass && rng.below(2) == 0 {
                then["outcome"] = json!("pass");
            } else if !pass {
                then["outcome"] = json!("fail");
                if rng.below(2) == 0 {
                    fails = code(rng);
                    then["code"] = json!(fails);
                }
            }
            let step = Step::Pending { pass, code: fails };
            (step, Some(for_ms), Status::Pending)
        }
        4 | 5 => {
            then["kind"] = json!("reversal");
            let mut after = 60_000;
            if rng.below(3) != 0 {
                after = wait(rng);
                then["afterMs"] = json!(after);
            }
            let mut fails = "generic_decline";
            if rng.below(2) == 0 {
                fails = code(rng);
                then["code"] = json!(fails);
            }
            (Step::Reversal { code: fails }, Some(after), Status::Success)
        }
        _ => return None,
    };
    Some((Rule { step, wait, starts }, then))
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
    let mut reached = BTreeMap::new();
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
            status: 0,
            events_on: seed % 2 == 1,
        };
        if run.events_on {
            run.svc.events_json(None).unwrap_or_else(|e| panic!("{e}"));
        }
        run.set_rule();
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
        for p in run.model.payments.values() {
            *reached.entry(p.status.name()).or_insert(0u64) += 1;
        }
    }
    eprintln!(
        "{sequences} sequences, {ops} operations, no divergence from the model, in {:.1} s; \
         payments at the end by status: {reached:?}",
        started.elapsed().as_secs_f64()
    );
}
