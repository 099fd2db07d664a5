//! The counters the service keeps: over seeded sessions they equal a model
//! the test keeps from the answers alone, however many records the log
//! dropped; they survive a snapshot, are rebuilt from an older one's
//! records, and refuse damage.

mod common;

use std::collections::BTreeMap;

use common::*;
use orderpay::observe::counters::{Counters, EDGES_MS, RUNNING_POINTS};
use orderpay::observe::EventClass;
use orderpay::sim::clock::VirtualClock;
use orderpay::sim::third_party::{DecidedBy, Forced};
use orderpay::{RawRequest, Response, Service, Settings};
use serde_json::{json, Value};

/// A small seeded generator for the sessions (not the service's own).
struct Dice(u64);

impl Dice {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

/// What the counters should say, kept from the answers the test saw.
#[derive(Default)]
struct Model {
    rows: BTreeMap<(Option<&'static str>, u16, i32), u64>,
    /// Per rule: (approved, declined).
    rules: BTreeMap<&'static str, (u64, u64)>,
    outcomes: Vec<bool>,
    /// Per class: each bucket's count, the sum and the longest.
    durations: BTreeMap<&'static str, (Vec<u64>, u64, u64)>,
    forced: Option<(Forced, u32)>,
}

/// The bucket of a duration: how many edges it reaches.
fn bucket(ms: u64) -> usize {
    EDGES_MS.iter().filter(|&&edge| edge <= ms).count()
}

impl Model {
    fn request(&mut self, route: Option<&'static str>, r: &Response) {
        *self.rows.entry((route, r.status, r.body.code)).or_default() += 1;
        if r.status == 200 {
            let ms: u64 = r.header("x-sim-duration-ms").unwrap().parse().unwrap();
            let class = match route {
                Some(t) if t.starts_with("/api/order/") => "order",
                Some(t) if t.starts_with("/api/payment/") => "payment",
                _ => "test",
            };
            self.duration(class, ms);
        }
    }

    fn duration(&mut self, class: &'static str, ms: u64) {
        let (buckets, sum, max) = self
            .durations
            .entry(class)
            .or_insert_with(|| (vec![0; EDGES_MS.len() + 1], 0, 0));
        buckets[bucket(ms)] += 1;
        *sum += ms;
        *max = (*max).max(ms);
    }

    fn attempt(&mut self, rule: &'static str, approved: bool) {
        let entry = self.rules.entry(rule).or_default();
        if approved {
            entry.0 += 1;
        } else {
            entry.1 += 1;
        }
        self.outcomes.push(approved);
    }

    /// A payment pay that reached the third party; the header, else a
    /// pending forceNext, else the draw decided it.
    fn pay(&mut self, header: bool, r: &Response) {
        let rule = if header {
            "header"
        } else if let Some((outcome, left)) = self.forced {
            self.forced = (left > 1).then_some((outcome, left - 1));
            "forced-next"
        } else {
            "draw"
        };
        self.attempt(rule, r.body.code == 0);
    }

    fn check(&self, c: &Counters) {
        let rows: BTreeMap<_, _> = c
            .by_route
            .iter()
            .map(|r| {
                let route = r.route.as_deref().map(|t| {
                    ROUTES
                        .iter()
                        .copied()
                        .find(|x| *x == t)
                        .expect("a documented route")
                });
                ((route, r.http_status, r.code), r.count)
            })
            .collect();
        assert_eq!(rows, self.rows, "requests by route, status and code");
        assert_eq!(c.requests, self.rows.values().sum::<u64>());
        for (rule, name) in [
            (DecidedBy::Draw, "draw"),
            (DecidedBy::Header, "header"),
            (DecidedBy::ForcedNext, "forced-next"),
        ] {
            let d = c.decided_by(rule);
            let want = self.rules.get(name).copied().unwrap_or_default();
            assert_eq!((d.approved, d.declined), want, "rule {name}");
        }
        let attempts = self.outcomes.len() as u64;
        assert_eq!(c.attempts(), attempts);
        // The running share: point i is the approvals after (i + 1) * every.
        let every = c.every;
        assert!(every.is_power_of_two());
        assert!(c.running.len() <= RUNNING_POINTS);
        assert_eq!(c.running.len() as u64, attempts / every);
        if every > 1 {
            assert!(
                c.running.len() >= RUNNING_POINTS / 2,
                "spacing doubled too early"
            );
        }
        for (i, point) in c.running.iter().enumerate() {
            let upto = (i as u64 + 1) * every;
            let approved = self.outcomes[..upto as usize]
                .iter()
                .filter(|a| **a)
                .count();
            assert_eq!(*point, approved as u64, "running point {i}");
        }
        for (class, name) in [
            (EventClass::Order, "order"),
            (EventClass::Payment, "payment"),
            (EventClass::Test, "test"),
        ] {
            let h = c.durations_of(class);
            let empty = (vec![0; EDGES_MS.len() + 1], 0, 0);
            let want = self.durations.get(name).unwrap_or(&empty);
            assert_eq!(
                (h.buckets.to_vec(), h.sum_ms, h.max_ms),
                want.clone(),
                "durations of {name}"
            );
            assert_eq!(h.count, want.0.iter().sum::<u64>());
        }
    }
}

const CREATE: &str = "/api/order/create";
const GET_ORDER: &str = "/api/order/{orderId}";
const MARK_PAID: &str = "/api/order/{orderId}/pay";
const DELETE: &str = "/api/order/delete/{orderId}";
const PAY: &str = "/api/payment/pay";
const GET_PAYMENT: &str = "/api/payment/{paymentId}";
const REFUND: &str = "/api/payment/refund/{paymentId}";
const BATCH: &str = "/api/test/order/batch";
const ROUTES: [&str; 8] = [
    CREATE,
    GET_ORDER,
    MARK_PAID,
    DELETE,
    PAY,
    GET_PAYMENT,
    REFUND,
    BATCH,
];

/// A seeded session of every kind of request, good and bad, with forcing.
fn session(svc: &mut Service, model: &mut Model, seed: u64, n: usize) {
    let mut s = Session {
        svc,
        model,
        dice: Dice(seed),
        orders: Vec::new(),
        payments: Vec::new(),
    };
    for i in 0..n {
        match s.dice.below(14) {
            0..=2 => s.create(i),
            3..=5 => s.pay(),
            6 => {
                let id = s.some_order();
                s.send(GET_ORDER, get(&format!("/api/order/{id}")));
            }
            7 => {
                let id = s.some_order();
                s.send(MARK_PAID, post(&format!("/api/order/{id}/pay")));
            }
            8 => {
                let id = s.some_order();
                s.send(DELETE, post(&format!("/api/order/delete/{id}")));
            }
            9 => s.read_or_refund_a_payment(),
            10 => s.turned_away(),
            11 => s.force_next(),
            12 => {
                // A payment with a broken amount: a business error before
                // the third party, so no attempt.
                s.send(PAY, pay_request("ORD-ZZZZZZZZ", 0.0, "CARD"));
            }
            _ => s.send(GET_PAYMENT, get("/api/payment/PAY-ZZZZZZZZ")),
        }
    }
}

/// A session under way: the service and its model, the dice, and the
/// ids made so far.
struct Session<'a> {
    svc: &'a mut Service,
    model: &'a mut Model,
    dice: Dice,
    orders: Vec<String>,
    payments: Vec<String>,
}

/// One of `ids`, or now and then (always, when there is none) `unknown`.
fn pick(dice: &mut Dice, ids: &[String], unknown: &str) -> String {
    if ids.is_empty() || dice.below(5) == 0 {
        unknown.to_owned()
    } else {
        ids[dice.below(ids.len() as u64) as usize].clone()
    }
}

impl Session<'_> {
    fn some_order(&mut self) -> String {
        pick(&mut self.dice, &self.orders, "ORD-ZZZZZZZZ")
    }

    /// Sends a request on a known route, and counts it in the model.
    fn send(&mut self, route: &'static str, request: RawRequest) {
        let r = self.svc.handle(request);
        self.model.request(Some(route), &r);
    }

    fn create(&mut self, i: usize) {
        let r = self.svc.handle(create_request("u-1", 1.0 + i as f64, "d"));
        if let Some(id) = data(&r)["orderId"].as_str() {
            self.orders.push(id.to_owned());
        }
        self.model.request(Some(CREATE), &r);
    }

    /// A payment, now and then with its outcome forced by a header; an
    /// attempt where it reached the third party.
    fn pay(&mut self) {
        let id = self.some_order();
        let header = self.dice.below(6) == 0;
        let mut req = pay_request(&id, 2.0, "CARD");
        if header {
            let word = if self.dice.below(2) == 0 {
                "failure"
            } else {
                "SUCCESS"
            };
            req = req.with_header("X-Sim-Outcome", word);
        }
        let r = self.svc.handle(req);
        if let Some(id) = data(&r)["paymentId"].as_str() {
            self.payments.push(id.to_owned());
        }
        let reached = r.body.code == 0 || r.body.msg == "Third party payment failed";
        if reached {
            self.model.pay(header, &r);
        }
        self.model.request(Some(PAY), &r);
    }

    fn read_or_refund_a_payment(&mut self) {
        let id = pick(&mut self.dice, &self.payments, "PAY-ZZZZZZZZ");
        let path = if self.dice.below(2) == 0 {
            format!("/api/payment/{id}")
        } else {
            format!("/api/payment/refund/{id}")
        };
        let route = if path.contains("refund") {
            REFUND
        } else {
            GET_PAYMENT
        };
        self.send(
            route,
            if route == REFUND {
                post(&path)
            } else {
                get(&path)
            },
        );
    }

    /// Turned away: a bad body, a wrong method, an unknown path.
    fn turned_away(&mut self) {
        let svc = &mut *self.svc;
        let (route, r) = match self.dice.below(3) {
            0 => (
                Some(CREATE),
                svc.handle(post_text(CREATE, r#"{"userId":"u","price":"12"}"#)),
            ),
            1 => (Some(CREATE), svc.handle(RawRequest::new("PATCH", CREATE))),
            _ => (None, svc.handle(get("/api/ordr/create"))),
        };
        assert!(r.status >= 400);
        self.model.request(route, &r);
    }

    /// forceNext, counted only where it decides an attempt.
    fn force_next(&mut self) {
        let outcome = if self.dice.below(2) == 0 {
            Forced::Failure
        } else {
            Forced::Success
        };
        let count = self.dice.below(4) as u32;
        self.svc.force_next(outcome, count);
        self.model.forced = (count > 0).then_some((outcome, count));
    }
}

fn small_log(seed: u64, capacity: usize) -> Service {
    let mut settings = Settings::with_seed(seed);
    settings.log_capacity = capacity;
    service_with(settings)
}

#[test]
fn counts_equal_the_model_over_seeded_sessions_however_much_the_log_dropped() {
    for seed in [1, 7, 42] {
        let mut svc = small_log(seed, 10);
        let mut model = Model::default();
        session(&mut svc, &mut model, seed, 5000);
        assert!(svc.journal().dropped() > 5000, "the log dropped records");
        assert!(
            model.outcomes.len() > 2 * RUNNING_POINTS,
            "the running share was thinned"
        );
        model.check(svc.counters());
        // The JSON form says the same.
        let json: Value = serde_json::from_str(&svc.counters_json()).unwrap();
        assert_eq!(json["requests"], json!(svc.counters().requests));
        assert_eq!(json["payments"]["attempts"], json!(model.outcomes.len()));
        assert_eq!(json["complete"], json!(true));
    }
}

#[test]
fn a_log_of_capacity_zero_changes_nothing_in_the_counts() {
    let mut none = small_log(5, 0);
    let mut all = small_log(5, 100_000);
    let (mut a, mut b) = (Model::default(), Model::default());
    session(&mut none, &mut a, 5, 400);
    session(&mut all, &mut b, 5, 400);
    assert_eq!(none.logs(None).len(), 0);
    a.check(none.counters());
    assert_eq!(none.counters(), all.counters());
}

/// A test-data run: every inner request counted on its route, its
/// attempt by its rule, and its duration; the run itself as a test.
#[test]
fn test_data_runs_count_each_order_they_make() {
    let mut svc = exact_service(9, 0.3);
    svc.force_next(Forced::Failure, 5);
    let r = svc.handle(get("/api/test/order/batch?count=60"));
    let report = data(&r);
    let (count, succeeded) = (
        report["count"].as_u64().unwrap(),
        report["succeeded"].as_u64().unwrap(),
    );
    let failed = count - succeeded;
    let c = svc.counters();
    assert_eq!(c.on_route(Some(CREATE)), count);
    assert_eq!(c.on_route(Some(PAY)), count);
    assert_eq!(c.on_route(Some(MARK_PAID)), succeeded);
    assert_eq!(c.on_route(Some(BATCH)), 1);
    assert_eq!(c.requests, 2 * count + succeeded + 1);
    let forced = c.decided_by(DecidedBy::ForcedNext);
    assert_eq!((forced.approved, forced.declined), (0, 5));
    let draw = c.decided_by(DecidedBy::Draw);
    assert_eq!((draw.approved, draw.declined + 5), (succeeded, failed));
    let orders = c.durations_of(EventClass::Order);
    assert_eq!(orders.count, count + succeeded);
    assert_eq!(orders.buckets[bucket(ORDER_MS)], count + succeeded);
    let payments = c.durations_of(EventClass::Payment);
    assert_eq!(payments.buckets[bucket(PAYMENT_MS + THIRD_PARTY_MS)], count);
    let test = c.durations_of(EventClass::Test);
    let run_ms: u64 = r.header("x-sim-duration-ms").unwrap().parse().unwrap();
    assert_eq!((test.count, test.max_ms, test.sum_ms), (1, run_ms, run_ms));
}

#[test]
fn counters_survive_a_snapshot_and_continue_as_the_original_would() {
    let mut svc = small_log(3, 25);
    let mut model = Model::default();
    session(&mut svc, &mut model, 3, 900);
    let text = svc.snapshot();
    let mut restored = Service::restore(&text, Box::new(VirtualClock::starting_at(0))).unwrap();
    assert_eq!(restored.counters(), svc.counters());
    assert_eq!(restored.snapshot(), text);
    let mut twin = Model::default();
    session(&mut svc, &mut model, 11, 300);
    session(&mut restored, &mut twin, 11, 300);
    assert_eq!(restored.counters(), svc.counters());
    model.check(restored.counters());
}

#[test]
fn emptying_the_log_keeps_the_counts_and_a_new_service_starts_at_zero() {
    let mut svc = service(4);
    let mut model = Model::default();
    session(&mut svc, &mut model, 4, 200);
    let before = svc.counters().clone();
    svc.clear_logs();
    assert_eq!(svc.counters(), &before);
    let fresh = service(4);
    assert_eq!(fresh.counters(), &Counters::default());
    assert_eq!(fresh.counters().requests, 0);
}

const OLD: &str = include_str!("fixtures/snapshot-format-1.json");

/// The counts an older snapshot's records allow, read from its JSON by the
/// test itself.
fn counts_of_records(snapshot: &Value) -> (u64, u64, u64, BTreeMap<String, u64>) {
    let records = snapshot["journal"]["records"].as_array().unwrap();
    let (mut requests, mut approved, mut declined) = (0, 0, 0);
    let mut by_uri = BTreeMap::new();
    for r in records {
        match r["stage"].as_str().unwrap() {
            "response" => {
                requests += 1;
                *by_uri
                    .entry(r["uri"].as_str().unwrap().to_owned())
                    .or_insert(0) += 1;
            }
            "service" if r["outcome"].is_object() => {
                if r["outcome"]["approved"] == json!(true) {
                    approved += 1;
                } else {
                    declined += 1;
                }
            }
            _ => {}
        }
    }
    (requests, approved, declined, by_uri)
}

#[test]
fn an_older_snapshot_gets_its_counters_rebuilt_from_its_records() {
    let old: Value = serde_json::from_str(OLD).unwrap();
    assert!(
        old.get("counters").is_none(),
        "the fixture predates counters"
    );
    let restored = Service::restore(OLD, Box::new(VirtualClock::starting_at(0))).unwrap();
    let c = restored.counters();
    let (requests, approved, declined, by_uri) = counts_of_records(&old);
    assert!(requests > 5 && approved + declined > 0);
    assert_eq!(c.requests, requests);
    assert_eq!((c.approved(), c.declined()), (approved, declined));
    assert_eq!(c.on_route(Some(CREATE)), by_uri["/api/order/create"]);
    // Its log held every record it wrote: the counts are whole.
    assert!(c.complete);
    // Written back, they are part of the snapshot from then on.
    let again =
        Service::restore(&restored.snapshot(), Box::new(VirtualClock::starting_at(0))).unwrap();
    assert_eq!(again.counters(), c);
}

#[test]
fn an_older_snapshot_whose_log_dropped_records_says_its_counts_are_not_whole() {
    let mut old: Value = serde_json::from_str(OLD).unwrap();
    let journal = &mut old["journal"];
    let records = journal["records"].as_array_mut().unwrap();
    let cut = records
        .iter()
        .position(|r| r["stage"] == "gateway" && r["seq"].as_u64() > Some(12))
        .unwrap();
    records.drain(..cut);
    journal["dropped"] = json!(cut);
    let restored =
        Service::restore(&old.to_string(), Box::new(VirtualClock::starting_at(0))).unwrap();
    let c = restored.counters();
    assert!(!c.complete, "counted from the oldest record held only");
    let (requests, approved, declined, _) = counts_of_records(&old);
    assert_eq!(c.requests, requests);
    assert_eq!((c.approved(), c.declined()), (approved, declined));
    let json: Value = serde_json::from_str(&restored.counters_json()).unwrap();
    assert_eq!(json["complete"], json!(false));
}

fn damaged(change: impl FnOnce(&mut Value)) -> String {
    let mut svc = service(8);
    let mut model = Model::default();
    session(&mut svc, &mut model, 8, 300);
    let mut snap: Value = serde_json::from_str(&svc.snapshot()).unwrap();
    change(&mut snap["counters"]);
    match Service::restore(&snap.to_string(), Box::new(VirtualClock::starting_at(0))) {
        Ok(_) => panic!("damage was accepted"),
        Err(e) => e.msg,
    }
}

#[test]
fn damaged_counters_in_a_snapshot_are_refused_with_the_field_named() {
    let msg = damaged(|c| c["requests"] = json!(-1));
    assert!(msg.starts_with("snapshot.counters.requests: "), "{msg}");
    let msg = damaged(|c| c["requests"] = json!(1));
    assert!(
        msg.starts_with("snapshot.counters.byRoute: counts add up to"),
        "{msg}"
    );
    let msg = damaged(|c| c["payments"]["byRule"]["draw"]["approved"] = json!("3"));
    assert!(
        msg.starts_with("snapshot.counters.payments.byRule.draw.approved: "),
        "{msg}"
    );
    let msg = damaged(|c| c["payments"]["attempts"] = json!(0));
    assert!(
        msg.starts_with("snapshot.counters.payments.attempts: must equal"),
        "{msg}"
    );
    let msg = damaged(|c| c["payments"]["running"]["approved"] = json!([]));
    assert!(
        msg.starts_with("snapshot.counters.payments.running.approved: "),
        "{msg}"
    );
    let msg = damaged(|c| c["durations"]["edgesMs"] = json!([1, 2]));
    assert!(
        msg.starts_with("snapshot.counters.durations.edgesMs: "),
        "{msg}"
    );
    let msg = damaged(|c| c["durations"]["order"]["count"] = json!(1));
    assert!(
        msg.starts_with("snapshot.counters.durations.order.count: "),
        "{msg}"
    );
    let msg = damaged(|c| c["byRoute"][0]["httpStatus"] = json!(99));
    assert!(
        msg.starts_with("snapshot.counters.byRoute[0].httpStatus: "),
        "{msg}"
    );
    let msg = damaged(|c| c["complete"] = json!("yes"));
    assert!(msg.starts_with("snapshot.counters.complete: "), "{msg}");
    let msg = damaged(|c| {
        let first = c["byRoute"][0].clone();
        c["byRoute"].as_array_mut().unwrap().push(first);
    });
    assert!(msg.contains("given more than once"), "{msg}");
}

#[test]
fn counters_rebuilt_from_a_whole_log_equal_those_counted_live() {
    let mut svc = small_log(6, 1_000_000);
    let mut model = Model::default();
    session(&mut svc, &mut model, 6, 3000);
    svc.handle(get("/api/test/order/batch?count=30"));
    let mut snap: Value = serde_json::from_str(&svc.snapshot()).unwrap();
    if let Some(all) = snap.as_object_mut() {
        all.remove("counters");
    }
    let rebuilt =
        Service::restore(&snap.to_string(), Box::new(VirtualClock::starting_at(0))).unwrap();
    assert_eq!(rebuilt.counters(), svc.counters());
    assert!(rebuilt.counters().complete);
}
