//! Events and webhook deliveries in the core: every state change gives
//! exactly its event, and a service that never turns webhooks on answers,
//! records and saves byte for byte as it did before they existed.

mod common;

use common::*;
use orderpay::{RawRequest, Service};
use serde_json::{json, Value};

/// The answers of a flow, each as status, headers and envelope text.
struct Answers(Vec<String>);

impl Answers {
    fn send(&mut self, svc: &mut Service, request: RawRequest) -> Value {
        let r = svc.handle(request);
        let headers: Vec<String> = r.headers.iter().map(|(k, v)| format!("{k}={v}")).collect();
        self.0.push(format!(
            "{} {} {}",
            r.status,
            headers.join(";"),
            r.body.to_json()
        ));
        data(&r)
    }

    fn order(&mut self, svc: &mut Service) -> String {
        let made = self.send(svc, create_request("u1", 12.5, "tea"));
        made["orderId"].as_str().unwrap_or_default().to_owned()
    }
}

/// A flow through every kind of state change: creates, pays approved
/// and declined, the test cards that change later (a challenge passed, a
/// pending payment, a reversal), a refund, a mark-paid, a delete, test
/// data and the clock moved past every plan.
fn every_change(svc: &mut Service) -> Vec<String> {
    let mut a = Answers(Vec::new());
    let mut paid = Vec::new();
    for n in 0..4 {
        let id = a.order(svc);
        let r = a.send(svc, pay_request(&id, 12.5, "CARD"));
        if let Some(pid) = r["paymentId"].as_str() {
            paid.push(pid.to_owned());
        }
        if n == 3 {
            a.send(svc, post(&format!("/api/order/{id}/pay")));
        }
    }
    if let Some(pid) = paid.first() {
        a.send(svc, post(&format!("/api/payment/refund/{pid}")));
    }
    let gone = a.order(svc);
    a.send(svc, post(&format!("/api/order/delete/{gone}")));
    for card in ["4000002500003155", "4000084000000022", "4000000000000259"] {
        let id = a.order(svc);
        let body =
            json!({"orderId": id, "amount": 12.5, "paymentMethod": "CARD", "cardNumber": card});
        let r = a.send(svc, post_json("/api/payment/pay", &body));
        if card == "4000002500003155" {
            let pid = r["paymentId"].as_str().unwrap_or_default().to_owned();
            svc.complete_challenge(&pid, "pass")
                .expect("a challenge awaits");
        }
    }
    a.send(svc, get("/api/test/order/batch?count=5"));
    svc.advance(3 * 24 * 3600 * 1000);
    a.send(svc, get("/api/order/none"));
    a.0
}

/// The answers, the snapshot, the records (NDJSON), the spans, the OTLP
/// export and the counters of `every_change`, one after another.
fn transcript(mut svc: Service) -> String {
    let mut parts = every_change(&mut svc);
    parts.push(svc.snapshot());
    parts.push(svc.export_ndjson());
    parts.push(svc.spans_json());
    parts.push(svc.export_otlp_json());
    parts.push(svc.counters_json());
    parts.push(svc.logs_json(None));
    parts.join("\n") + "\n"
}

#[test]
fn a_service_that_never_turns_webhooks_on_answers_records_and_saves_as_before() {
    let got = transcript(exact_service(36, 0.3));
    let path = "tests/fixtures/webhooks-off.txt";
    let want = include_str!("fixtures/webhooks-off.txt");
    same_as_fixture(&got, path, want, 40);
}

/// Reads the events after `cursor` and moves it past them.
struct Reader(Option<String>);

impl Reader {
    fn new_events(&mut self, svc: &mut Service) -> Vec<Value> {
        let text = svc.events_json(self.0.as_deref()).expect("a known cursor");
        let events: Vec<Value> = serde_json::from_str(&text).expect("a JSON array");
        if let Some(last) = events.last() {
            self.0 = last["id"].as_str().map(str::to_owned);
        }
        events
    }

    /// The types of the new events.
    fn types(&mut self, svc: &mut Service) -> Vec<String> {
        let events = self.new_events(svc);
        events
            .iter()
            .map(|e| e["type"].as_str().unwrap_or_default().to_owned())
            .collect()
    }
}

fn card_pay(svc: &mut Service, order_id: &str, card: &str) -> Value {
    let body =
        json!({"orderId": order_id, "amount": 10.5, "paymentMethod": "CARD", "cardNumber": card});
    data(&svc.handle(post_json("/api/payment/pay", &body)))
}

#[test]
fn each_change_of_an_order_gives_exactly_its_event_and_a_refusal_none() {
    let (mut svc, mut read) = (always_approves(1), Reader(None));
    let order = create_order_id(&mut svc);
    assert_eq!(read.types(&mut svc), ["order.created"]);
    let again = create_order_id(&mut svc);
    assert_eq!(read.types(&mut svc), ["order.created"]);
    svc.handle(get(&format!("/api/order/{order}")));
    svc.handle(post_text("/api/order/create", "{\"userId\":"));
    svc.handle(post("/api/order/delete/ORD-NONE0000"));
    assert!(
        read.types(&mut svc).is_empty(),
        "reads and refusals change nothing"
    );
    svc.handle(post(&format!("/api/order/{order}/pay")));
    assert_eq!(read.types(&mut svc), ["order.paid"]);
    svc.handle(post(&format!("/api/order/{order}/pay")));
    svc.handle(post(&format!("/api/order/delete/{order}")));
    assert!(
        read.types(&mut svc).is_empty(),
        "paid twice, or deleted paid"
    );
    svc.handle(post(&format!("/api/order/delete/{again}")));
    let events = read.new_events(&mut svc);
    assert_eq!(events.len(), 1);
    assert_eq!(events[0]["type"], "order.deleted");
    assert_eq!(events[0]["data"]["object"]["orderId"], again.as_str());
    assert_eq!(events[0]["data"]["object"]["status"], "CREATED");
    // Read again later, each event still shows the order as it was then,
    // a deleted one too.
    let all = Reader(None).new_events(&mut svc);
    let shown: Vec<(&str, &str)> = all
        .iter()
        .map(|e| {
            (
                e["data"]["object"]["orderId"].as_str().unwrap_or_default(),
                e["data"]["object"]["status"].as_str().unwrap_or_default(),
            )
        })
        .collect();
    let (o, a) = (order.as_str(), again.as_str());
    assert_eq!(
        shown,
        [(o, "CREATED"), (a, "CREATED"), (o, "PAID"), (a, "CREATED")]
    );
    assert_eq!(all[1]["data"]["object"], all[3]["data"]["object"]);
}

#[test]
fn each_change_of_a_payment_gives_exactly_its_event() {
    let (mut svc, mut read) = (always_approves(2), Reader(None));
    let order = create_order_id(&mut svc);
    read.types(&mut svc);
    let paid = pay_ok(&mut svc, &order, 10.5, "CARD");
    assert_eq!(read.types(&mut svc), ["payment.succeeded"]);
    let pid = paid["paymentId"].as_str().expect("paymentId");
    svc.handle(post(&format!("/api/payment/refund/{pid}")));
    assert_eq!(read.types(&mut svc), ["payment.refunded"]);
    svc.handle(post(&format!("/api/payment/refund/{pid}")));
    assert!(read.types(&mut svc).is_empty(), "refunded twice");
    let other = create_order_id(&mut svc);
    read.types(&mut svc);
    let declined = pay_request(&other, 10.5, "WALLET_A").with_header("X-Sim-Outcome", "failure");
    svc.handle(declined);
    let events = read.new_events(&mut svc);
    assert_eq!(events.len(), 1);
    let object = &events[0]["data"]["object"];
    assert_eq!(events[0]["type"], "payment.failed");
    assert_eq!(
        object["paymentId"],
        Value::Null,
        "a declined pay keeps no payment"
    );
    assert_eq!(
        (
            &object["orderId"],
            &object["status"],
            &object["paymentMethod"]
        ),
        (&json!(other), &json!("FAILED"), &json!("WALLET_A"))
    );
    assert_eq!(object["failureCode"], "generic_decline");
    assert_eq!(object["failureReason"], "Third party payment failed");
}

#[test]
fn payments_that_change_later_give_an_event_at_each_state_they_enter() {
    let (mut svc, mut read) = (always_approves(3), Reader(None));
    let orders: Vec<String> = (0..3).map(|_| create_order_id(&mut svc)).collect();
    read.types(&mut svc);
    let challenged = card_pay(&mut svc, &orders[0], "4000002500003155");
    assert_eq!(read.types(&mut svc), ["payment.requires_action"]);
    let pid = challenged["paymentId"].as_str().expect("paymentId");
    svc.complete_challenge(pid, "pass").expect("awaiting");
    assert_eq!(read.types(&mut svc), ["payment.succeeded"]);
    card_pay(&mut svc, &orders[1], "4000084000000022");
    assert_eq!(read.types(&mut svc), ["payment.pending"]);
    card_pay(&mut svc, &orders[2], "4000000000000259");
    assert_eq!(read.types(&mut svc), ["payment.succeeded"]);
    svc.advance(24 * 3600 * 1000);
    let events = read.new_events(&mut svc);
    let types: Vec<&str> = events.iter().filter_map(|e| e["type"].as_str()).collect();
    assert_eq!(
        types,
        ["payment.failed", "payment.failed"],
        "the pending one, then the reversal"
    );
    let declined = &events[0]["data"]["object"];
    assert_eq!(declined["failureCode"], "insufficient_funds");
    let reversed = &events[1]["data"]["object"];
    assert_eq!(reversed["failureCode"], "fraudulent");
    assert_eq!(reversed["failureReason"], "disputed as fraudulent");
    let at = events[0]["createdAt"].as_i64().unwrap_or_default();
    assert!(
        at < svc.now(),
        "a change is stamped at its due time, not at the advance"
    );
}

#[test]
fn test_data_gives_the_events_of_each_order_it_makes() {
    let (mut svc, mut read) = (exact_service(4, 0.3), Reader(None));
    let report = data(&svc.handle(get("/api/test/order/batch?count=40")));
    let types = read.types(&mut svc);
    let count = |t: &str| types.iter().filter(|x| *x == t).count();
    let succeeded = report["succeeded"].as_u64().unwrap_or_default() as usize;
    assert_eq!(count("order.created"), 40);
    assert_eq!(count("payment.succeeded"), succeeded);
    assert_eq!(count("order.paid"), succeeded);
    assert_eq!(count("payment.failed"), 40 - succeeded);
    assert_eq!(types.len(), 40 + 2 * succeeded + (40 - succeeded));
}

#[test]
fn an_event_is_the_resource_as_a_read_shows_it_in_the_trace_of_its_request() {
    let mut svc = always_approves(5);
    let made = svc.handle(create_request("u9", 3.25, "jam"));
    let events: Vec<Value> =
        serde_json::from_str(&svc.events_json(None).expect("events")).expect("JSON");
    let event = &events[0];
    let id = event["id"].as_str().unwrap_or_default();
    assert!(id.starts_with("evt_") && id.len() == 26, "{id}");
    assert_eq!(event["object"], "event");
    assert_eq!(event["traceId"], trace_of(&made).as_str());
    let created_at = event["createdAt"].as_i64().unwrap_or_default();
    assert_eq!(event["created"].as_i64(), Some(created_at / 1000));
    assert_eq!(event["data"]["object"], data(&made));
    let keys: Vec<&String> = event
        .as_object()
        .map(|o| o.keys().collect())
        .unwrap_or_default();
    assert_eq!(
        keys,
        [
            "id",
            "object",
            "type",
            "created",
            "createdAt",
            "traceId",
            "data"
        ]
    );
    let same = always_approves(5);
    let mut same = same;
    same.handle(create_request("u9", 3.25, "jam"));
    let again: Vec<Value> =
        serde_json::from_str(&same.events_json(None).expect("events")).expect("JSON");
    assert_eq!(again[0]["id"], event["id"], "the same seed, the same ids");
}

#[test]
fn events_after_an_id_and_an_unknown_id_refused_naming_after() {
    let mut svc = always_approves(6);
    for _ in 0..3 {
        create_order_id(&mut svc);
    }
    let all: Vec<Value> = serde_json::from_str(&svc.events_json(None).expect("all")).expect("JSON");
    let first = all[0]["id"].as_str().expect("id");
    let after: Vec<Value> =
        serde_json::from_str(&svc.events_json(Some(first)).expect("after")).expect("JSON");
    assert_eq!(after, all[1..]);
    let other = always_approves(7).events_json(None).expect("none");
    assert_eq!(other, "[]");
    for bad in ["evt_nope", "", "ORD-AAAAAAAA"] {
        let refused = svc.events_json(Some(bad)).expect_err(bad);
        assert!(refused.to_string().starts_with("after: "), "{refused}");
    }
}

#[test]
fn the_event_log_keeps_the_newest_ten_thousand() {
    let mut svc = always_approves(8);
    create_order_id(&mut svc);
    let oldest = Reader(None).new_events(&mut svc)[0]["id"].clone();
    svc.handle(get("/api/test/order/batch?count=3500"));
    let text = svc.events_json(None).expect("events");
    let all: Vec<Value> = serde_json::from_str(&text).expect("JSON");
    assert_eq!(all.len(), 10_000);
    let ids: std::collections::HashSet<&str> =
        all.iter().filter_map(|e| e["id"].as_str()).collect();
    assert_eq!(ids.len(), 10_000, "ids are unique");
    let last = all.last().and_then(|e| e["type"].as_str());
    assert_eq!(last, Some("order.paid"), "the newest kept");
    let first = all[0]["id"].as_str().expect("id");
    let rest: Vec<Value> =
        serde_json::from_str(&svc.events_json(Some(first)).expect("after")).expect("JSON");
    assert_eq!(rest.len(), 9_999);
    let dropped = svc
        .events_json(oldest.as_str())
        .expect("a dropped id is one of ours");
    assert_eq!(dropped, text, "after an event dropped: every one kept");
}

/// Takes every attempt due, again and again, answering each with
/// `status(attempt)`, until none is due; the attempts handed over.
fn deliver_due(svc: &mut Service, status: impl Fn(&Value) -> u16) -> Vec<Value> {
    let mut all = Vec::new();
    loop {
        let due: Vec<Value> = serde_json::from_str(&svc.take_due()).expect("JSON");
        if due.is_empty() {
            return all;
        }
        for attempt in due {
            let (id, n) = (
                attempt["delivery"].as_str().unwrap_or_default(),
                attempt["n"].as_u64().unwrap_or(0),
            );
            svc.report_attempt(id, n as u32, status(&attempt), 12, "")
                .expect("an attempt in flight");
            all.push(attempt);
        }
    }
}

fn endpoints(svc: &Service) -> Vec<Value> {
    serde_json::from_str(&svc.webhooks_json()).expect("JSON")
}

#[test]
fn an_endpoint_gets_an_id_a_secret_from_the_seed_and_every_type_by_default() {
    let mut svc = always_approves(20);
    let made: Value = serde_json::from_str(
        &svc.add_webhook(r#"{"url":"http://127.0.0.1:9/hook"}"#)
            .expect("taken"),
    )
    .expect("JSON");
    assert_eq!(made["id"], "we_1");
    assert_eq!(made["events"], json!(["*"]));
    assert_eq!(made["header"], "Orderpay-Signature");
    let secret = made["secret"].as_str().unwrap_or_default();
    assert!(
        secret.starts_with("whsec_") && secret.len() == 38,
        "{secret}"
    );
    let mut again = always_approves(20);
    let same: Value =
        serde_json::from_str(&again.add_webhook(r#"{"handler":true}"#).expect("taken"))
            .expect("JSON");
    assert_eq!(
        same["secret"], made["secret"],
        "the same seed, the same secret"
    );
    assert_eq!(same["handler"], true);
    let refused = svc
        .add_webhook(r#"{"url":"mailto:x"}"#)
        .expect_err("not http");
    assert!(refused.to_string().starts_with("url: "), "{refused}");
    assert_eq!(endpoints(&svc).len(), 1, "a refusal adds nothing");
    svc.remove_webhook("we_1").expect("known");
    assert!(svc.remove_webhook("we_1").is_err());
    assert!(endpoints(&svc).is_empty());
}

#[test]
fn each_event_is_delivered_once_to_each_endpoint_that_wants_its_type() {
    let mut svc = always_approves(21);
    svc.add_webhook(r#"{"url":"http://127.0.0.1:9/all"}"#)
        .expect("taken");
    svc.add_webhook(r#"{"handler":true,"events":["order.paid"]}"#)
        .expect("taken");
    let order = create_order_id(&mut svc);
    pay_ok(&mut svc, &order, 10.5, "CARD");
    svc.handle(post(&format!("/api/order/{order}/pay")));
    let attempts = deliver_due(&mut svc, |_| 200);
    let to: Vec<(&str, String)> = attempts
        .iter()
        .map(|a| {
            let body: Value =
                serde_json::from_str(a["body"].as_str().unwrap_or_default()).expect("JSON");
            (
                a["endpoint"].as_str().unwrap_or_default(),
                body["type"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect();
    assert_eq!(
        to,
        [
            ("we_1", "order.created".into()),
            ("we_1", "payment.succeeded".into()),
            ("we_1", "order.paid".into()),
            ("we_2", "order.paid".into())
        ]
    );
    an_attempt_is_the_event_in_its_trace(&mut svc, &attempts[0]);
    for e in endpoints(&svc) {
        let states: Vec<&str> = e["deliveries"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|d| d["state"].as_str())
            .collect();
        assert!(states.iter().all(|s| *s == "delivered"), "{states:?}");
    }
    assert!(
        deliver_due(&mut svc, |_| 200).is_empty(),
        "nothing more is due"
    );
}

/// The first attempt handed over: the first event's text, stamped with
/// its time, in its trace, to be signed as it is.
fn an_attempt_is_the_event_in_its_trace(svc: &mut Service, first: &Value) {
    let events: Vec<Value> =
        serde_json::from_str(&svc.events_json(None).expect("events")).expect("JSON");
    assert_eq!(
        first["body"].as_str(),
        Some(events[0].to_string().as_str()),
        "the body is the event's text"
    );
    let trace = events[0]["traceId"].as_str().unwrap_or_default();
    let traceparent = first["traceparent"].as_str().unwrap_or_default();
    assert!(
        traceparent.starts_with(&format!("00-{trace}-")) && traceparent.ends_with("-01"),
        "{traceparent}"
    );
    assert_eq!(
        first["timestamp"].as_i64(),
        Some(events[0]["created"].as_i64().unwrap_or(0))
    );
    assert_eq!(
        (first["sign"].as_str(), first["drop"].as_bool()),
        (Some("ok"), Some(false))
    );
}

#[test]
fn a_failing_receiver_is_retried_for_three_days_on_the_schedule_each_attempt_at_its_time() {
    let mut svc = always_approves(22);
    svc.add_webhook(r#"{"handler":true}"#).expect("taken");
    create_order_id(&mut svc);
    let first = deliver_due(&mut svc, |_| 500);
    assert_eq!(
        first.len(),
        1,
        "the first attempt at once, then the retries wait"
    );
    let next = svc.next_due().expect("a retry is due");
    let at = first[0]["timestamp"].as_i64().unwrap_or(0) * 1000;
    assert!(
        (next - at - 60_000).abs() < 1000,
        "the first retry a minute later"
    );
    svc.advance(3 * 24 * 3600 * 1000);
    let retries = deliver_due(&mut svc, |_| 500);
    assert_eq!(retries.len(), 9);
    let delivery = &endpoints(&svc)[0]["deliveries"][0];
    let times: Vec<i64> = delivery["attempts"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|a| a["at"].as_i64())
        .collect();
    let gaps: Vec<i64> = times.windows(2).map(|w| (w[1] - w[0]) / 60_000).collect();
    assert_eq!(
        gaps,
        [1, 5, 30, 120, 300, 600, 600, 840, 1440],
        "minutes between attempts"
    );
    assert_eq!(delivery["state"], "failed");
    assert_eq!(delivery["nextAttemptAt"], Value::Null);
    assert_eq!(svc.next_due(), None);
    let stamps: Vec<i64> = retries
        .iter()
        .filter_map(|a| a["timestamp"].as_i64())
        .collect();
    assert_eq!(
        stamps,
        times[1..]
            .iter()
            .map(|t| t.div_euclid(1000))
            .collect::<Vec<_>>(),
        "each signed at its own time"
    );
}

#[test]
fn a_failed_delivery_resent_by_hand_is_delivered_and_a_bad_report_is_refused() {
    let mut svc = always_approves(23);
    svc.add_webhook(r#"{"handler":true}"#).expect("taken");
    create_order_id(&mut svc);
    svc.advance(3 * 24 * 3600 * 1000);
    deliver_due(&mut svc, |_| 503);
    let refused = svc
        .report_attempt("wd_1", 11, 200, 1, "")
        .expect_err("none in flight");
    assert!(refused.to_string().starts_with("n: "), "{refused}");
    assert!(svc
        .resend("wd_9")
        .expect_err("unknown")
        .to_string()
        .starts_with("delivery: "));
    svc.resend("wd_1").expect("a finished delivery resent");
    let resent = deliver_due(&mut svc, |_| 200);
    assert_eq!(resent.len(), 1);
    assert_eq!(resent[0]["n"], 11);
    let delivery = &endpoints(&svc)[0]["deliveries"][0];
    assert_eq!(delivery["state"], "delivered");
    assert_eq!(delivery["attempts"][10]["status"], 200);
    assert_eq!(delivery["attempts"][9]["status"], 503);
}

#[test]
fn removing_an_endpoint_stops_its_deliveries() {
    let mut svc = always_approves(24);
    svc.add_webhook(r#"{"handler":true}"#).expect("taken");
    create_order_id(&mut svc);
    deliver_due(&mut svc, |_| 500);
    svc.remove_webhook("we_1").expect("known");
    svc.advance(3 * 24 * 3600 * 1000);
    assert!(deliver_due(&mut svc, |_| 200).is_empty());
    assert_eq!(svc.next_due(), None);
}

/// A service with one handler endpoint and the delivery rule `then` on
/// events of type `event`.
fn with_delivery_rule(seed: u64, event: &str, then: Value) -> Service {
    let mut svc = always_approves(seed);
    let doc = json!({"rules": [{"name": "r", "when": {"event": event}, "then": then}]});
    svc.set_scenario(Some(&doc.to_string()))
        .expect("a valid scenario");
    svc.add_webhook(r#"{"handler":true}"#).expect("taken");
    svc
}

fn types_of(attempts: &[Value]) -> Vec<String> {
    attempts
        .iter()
        .map(|a| {
            let body: Value =
                serde_json::from_str(a["body"].as_str().unwrap_or("{}")).unwrap_or_default();
            body["type"].as_str().unwrap_or_default().to_owned()
        })
        .collect()
}

#[test]
fn a_duplicate_rule_delivers_the_event_as_often_as_it_says_and_names_the_fault() {
    let mut svc = with_delivery_rule(
        30,
        "order.created",
        json!({"kind": "duplicate", "times": 3}),
    );
    create_order_id(&mut svc);
    let attempts = deliver_due(&mut svc, |_| 200);
    assert_eq!(types_of(&attempts), ["order.created"; 3]);
    let bodies: std::collections::HashSet<&str> =
        attempts.iter().filter_map(|a| a["body"].as_str()).collect();
    assert_eq!(bodies.len(), 1, "the same event each time");
    let deliveries = endpoints(&svc)[0]["deliveries"].clone();
    let fault = &deliveries[0]["attempts"][0]["fault"];
    assert_eq!(
        (&fault["kind"], &fault["rule"], &fault["times"]),
        (&json!("duplicate"), &json!("r"), &json!(3))
    );
}

#[test]
fn late_stale_tampered_wrong_and_dropped_attempts_go_out_as_their_rules_say() {
    let mut late = with_delivery_rule(31, "order.*", json!({"kind": "late", "ms": 90_000}));
    create_order_id(&mut late);
    assert!(deliver_due(&mut late, |_| 200).is_empty(), "not yet");
    late.advance(90_000);
    assert_eq!(deliver_due(&mut late, |_| 200).len(), 1);

    let mut stale = with_delivery_rule(32, "order.created", json!({"kind": "stale_timestamp"}));
    create_order_id(&mut stale);
    let a = &deliver_due(&mut stale, |_| 200)[0];
    let body: Value = serde_json::from_str(a["body"].as_str().unwrap_or("{}")).unwrap_or_default();
    assert_eq!(
        a["timestamp"].as_i64(),
        body["created"].as_i64().map(|c| c - 600)
    );

    let mut tampered = with_delivery_rule(33, "order.created", json!({"kind": "tampered_body"}));
    create_order_id(&mut tampered);
    let a = &deliver_due(&mut tampered, |_| 200)[0];
    assert_ne!(a["body"], a["signed"]);
    assert!(serde_json::from_str::<Value>(a["signed"].as_str().unwrap_or_default()).is_ok());

    let mut wrong = with_delivery_rule(34, "order.created", json!({"kind": "wrong_signature"}));
    create_order_id(&mut wrong);
    assert_eq!(deliver_due(&mut wrong, |_| 200)[0]["sign"], "wrong");

    let mut dropped =
        with_delivery_rule(35, "order.created", json!({"kind": "drop", "attempts": 2}));
    create_order_id(&mut dropped);
    dropped.advance(3600 * 1000);
    let sent = deliver_due(&mut dropped, |a| if a["drop"] == true { 0 } else { 200 });
    let drops: Vec<bool> = sent.iter().map(|a| a["drop"] == true).collect();
    assert_eq!(
        drops,
        [true, true, false],
        "the first two lost, the schedule goes on"
    );
    let attempts = endpoints(&dropped)[0]["deliveries"][0]["attempts"].clone();
    assert_eq!(attempts[1]["fault"]["kind"], "drop");
    assert_eq!(attempts[2].get("fault"), None, "the third was not touched");
}

#[test]
fn a_reorder_rule_holds_the_events_then_delivers_them_reversed() {
    let mut svc = with_delivery_rule(36, "order.created", json!({"kind": "reorder", "hold": 3}));
    let mut ids = Vec::new();
    for _ in 0..2 {
        ids.push(create_order_id(&mut svc));
        assert!(
            deliver_due(&mut svc, |_| 200).is_empty(),
            "held until three are"
        );
    }
    ids.push(create_order_id(&mut svc));
    // Released a millisecond apart, in the rule's order.
    svc.advance(10);
    let attempts = deliver_due(&mut svc, |_| 200);
    let order_ids: Vec<String> = attempts
        .iter()
        .map(|a| {
            let body: Value =
                serde_json::from_str(a["body"].as_str().unwrap_or("{}")).unwrap_or_default();
            body["data"]["object"]["orderId"]
                .as_str()
                .unwrap_or_default()
                .to_owned()
        })
        .collect();
    let reversed: Vec<String> = ids.into_iter().rev().collect();
    assert_eq!(order_ids, reversed);
}

fn restored(svc: &Service) -> Service {
    Service::restore(
        &svc.snapshot(),
        Box::new(orderpay::sim::clock::VirtualClock::starting_at(0)),
    )
    .expect("its own snapshot restores")
}

#[test]
fn a_snapshot_keeps_events_endpoints_and_deliveries_once_webhooks_are_on() {
    let mut svc = with_delivery_rule(40, "payment.*", json!({"kind": "drop", "attempts": 1}));
    svc.add_webhook(
        r#"{"url":"https://example.com/h","events":["order.deleted"],"header":"Stripe-Signature"}"#,
    )
    .expect("taken");
    let order = create_order_id(&mut svc);
    pay_ok(&mut svc, &order, 10.5, "CARD");
    let gone = create_order_id(&mut svc);
    svc.handle(post(&format!("/api/order/delete/{gone}")));
    deliver_due(&mut svc, |a| if a["drop"] == true { 0 } else { 500 });
    let text = svc.snapshot();
    assert!(text.contains("\"events\":{") && text.contains("\"webhooks\":{"));
    let mut back = restored(&svc);
    assert_eq!(back.snapshot(), text, "written back the same");
    assert_eq!(back.webhooks_json(), svc.webhooks_json());
    assert_eq!(back.events_json(None).ok(), svc.events_json(None).ok());
    assert_eq!(back.next_due(), svc.next_due());
    // The restored one goes on: its retries come due on its clock.
    back.advance(3 * 24 * 3600 * 1000);
    svc.advance(3 * 24 * 3600 * 1000);
    let (a, b) = (
        deliver_due(&mut back, |_| 200),
        deliver_due(&mut svc, |_| 200),
    );
    assert!(!a.is_empty());
    assert_eq!(a, b);
}

#[test]
fn a_damaged_webhooks_member_is_refused_naming_the_field() {
    let mut svc = always_approves(41);
    svc.add_webhook(r#"{"handler":true}"#).expect("taken");
    create_order_id(&mut svc);
    deliver_due(&mut svc, |_| 500);
    let text = svc.snapshot();
    let cases = [
        (
            "\"state\":\"pending\"",
            "\"state\":\"lost\"",
            "snapshot.webhooks.deliveries[0].state",
        ),
        (
            "\"type\":\"order.created\"",
            "\"type\":\"order.made\"",
            "snapshot.events.kept[0].type",
        ),
        (
            "\"id\":\"we_1\",\"handler\":true",
            "\"id\":\"we_1\",\"handler\":3",
            "snapshot.webhooks.endpoints[0].handler",
        ),
        (
            "\"n\":1,\"event\":0,",
            "\"n\":1,\"event\":9,",
            "snapshot.webhooks.deliveries[0].event: must name an event the log has had, got 9",
        ),
        (
            "\"event\":0,\"endpoint\":1,",
            "\"event\":0,\"endpoint\":2,",
            "snapshot.webhooks.deliveries[0].endpoint: must name an endpoint once registered, got 2",
        ),
        (
            "\"lastDelivery\":1",
            "\"lastDelivery\":\"x\"",
            "snapshot.webhooks.lastDelivery",
        ),
    ];
    for (from, to, field) in cases {
        assert!(text.contains(from), "{from}");
        let damaged = text.replacen(from, to, 1);
        let refused = Service::restore(
            &damaged,
            Box::new(orderpay::sim::clock::VirtualClock::starting_at(0)),
        )
        .err()
        .unwrap_or_else(|| panic!("{to} taken"));
        assert!(refused.to_string().starts_with(field), "{field}: {refused}");
    }
}

#[test]
fn a_reorder_batch_still_short_after_five_minutes_goes_out_in_the_order_its_events_came() {
    let mut svc = with_delivery_rule(37, "order.created", json!({"kind": "reorder", "hold": 3}));
    let first = create_order_id(&mut svc);
    svc.advance(1000);
    let second = create_order_id(&mut svc);
    svc.advance(4 * 60 * 1000);
    assert!(
        deliver_due(&mut svc, |_| 200).is_empty(),
        "held until the first has waited five minutes"
    );
    svc.advance(2 * 60 * 1000);
    let order_ids = |attempts: Vec<Value>| -> Vec<String> {
        let body = |a: &Value| -> Value {
            serde_json::from_str(a["body"].as_str().unwrap_or("{}")).unwrap_or_default()
        };
        let id = |a: &Value| {
            body(a)["data"]["object"]["orderId"]
                .as_str()
                .map(str::to_owned)
        };
        attempts.iter().filter_map(id).collect()
    };
    assert_eq!(
        order_ids(deliver_due(&mut svc, |_| 200)),
        vec![first.clone(), second.clone()]
    );
    // Once out, they are in no batch: a third event is held afresh.
    let third = create_order_id(&mut svc);
    assert!(
        deliver_due(&mut svc, |_| 200).is_empty(),
        "the third is held"
    );
    svc.advance(6 * 60 * 1000);
    assert_eq!(order_ids(deliver_due(&mut svc, |_| 200)), vec![third]);
    let states: Vec<String> = endpoints(&svc)[0]["deliveries"]
        .as_array()
        .map(|d| {
            d.iter()
                .map(|d| d["state"].as_str().unwrap_or_default().to_owned())
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(states, ["delivered", "delivered", "delivered"]);
    let _ = (first, second);
}

/// The records of stage `webhook` and the spans of component `webhook`.
fn attempt_records_and_spans(svc: &Service) -> (Vec<Value>, Vec<Value>) {
    let records: Vec<Value> = serde_json::from_str(&svc.logs_json(None)).expect("JSON");
    let spans: Vec<Value> = serde_json::from_str(&svc.spans_json()).expect("JSON");
    (
        records
            .into_iter()
            .filter(|r| r["stage"] == "webhook")
            .collect(),
        spans
            .into_iter()
            .filter(|s| s["component"] == "webhook")
            .collect(),
    )
}

/// A span's attribute `key`.
fn attr<'a>(span: &'a Value, key: &str) -> &'a Value {
    span["attributes"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|pair| pair[0] == key)
        .map_or(&Value::Null, |pair| &pair[1])
}

#[test]
fn each_reported_attempt_writes_a_record_and_a_span_in_the_trace_of_its_request() {
    let mut svc = always_approves(50);
    svc.add_webhook(r#"{"url":"http://127.0.0.1:9/hook","events":["order.created"]}"#)
        .expect("taken");
    create_order_id(&mut svc);
    let taken: Vec<Value> = serde_json::from_str(&svc.take_due()).expect("JSON");
    assert_eq!(
        attempt_records_and_spans(&svc).0.len(),
        0,
        "none before a report"
    );
    svc.report_attempt("wd_1", 1, 503, 37, "Service Unavailable")
        .expect("in flight");
    let (records, spans) = attempt_records_and_spans(&svc);
    let (r, s) = (&records[0], &spans[0]);
    assert_eq!((records.len(), spans.len()), (1, 1));
    let events: Vec<Value> =
        serde_json::from_str(&svc.events_json(None).expect("events")).expect("JSON");
    let all: Vec<Value> = serde_json::from_str(&svc.spans_json()).expect("JSON");
    let request_span = all
        .iter()
        .find(|s| s["traceId"] == events[0]["traceId"] && s["parentSpanId"].is_null())
        .expect("the request's span");
    let traceparent = taken[0]["traceparent"].as_str().unwrap_or_default();
    for x in [r, s] {
        assert_eq!(x["traceId"], events[0]["traceId"]);
        assert_eq!(
            x["parentSpanId"], request_span["spanId"],
            "under the request"
        );
        let span_id = x["spanId"].as_str().unwrap_or("?");
        assert!(traceparent.contains(span_id), "the span the headers named");
    }
    let at = taken[0]["timestamp"].as_i64().unwrap_or(0) * 1000;
    assert_eq!(
        r["timestamp"].as_i64().unwrap_or(0).div_euclid(1000) * 1000,
        at
    );
    let expected = json!({
        "stage": "webhook", "endpointId": "we_1", "url": "http://127.0.0.1:9/hook",
        "deliveryId": "wd_1", "eventId": events[0]["id"], "eventType": "order.created",
        "attempt": 1, "status": "server_error", "httpStatus": 503, "durationMs": 37,
        "error": "Service Unavailable", "nextAttemptAt": r["timestamp"].as_i64().unwrap_or(0) + 60_000,
    });
    for (key, value) in expected.as_object().into_iter().flatten() {
        assert_eq!(&r[key], value, "{key}");
    }
    assert_eq!(r.get("fault"), None);
    the_span_tells_the_attempt(s, r);
    the_exports_show_it(&svc);
}

/// The OTLP and NDJSON exports and the typed `logs()` show the attempt.
fn the_exports_show_it(svc: &Service) {
    let otlp = svc.export_otlp_json();
    assert!(
        otlp.contains("\"webhook POST http://127.0.0.1:9/hook\""),
        "in the OTLP export"
    );
    assert!(
        svc.export_ndjson().contains("\"stage\":\"webhook\""),
        "in the NDJSON export"
    );
    let typed = svc.logs(None);
    assert!(
        typed.iter().any(|r| matches!(
            &r.stage,
            orderpay::observe::Stage::Webhook {
                attempt: 1,
                http_status: Some(503),
                ..
            }
        )),
        "logs() reads it"
    );
}

/// What the span of the attempt record `r` tells: its name, times, status
/// and attributes.
fn the_span_tells_the_attempt(s: &Value, r: &Value) {
    assert_eq!(s["name"], "webhook POST http://127.0.0.1:9/hook");
    assert_eq!(
        (&s["start"], s["end"].as_i64()),
        (&r["timestamp"], r["timestamp"].as_i64().map(|t| t + 37))
    );
    assert_eq!(s["status"], "server_error");
    assert_eq!(attr(s, "http.response.status_code"), 503);
    assert_eq!(attr(s, "orderpay.webhook.delivery"), "wd_1");
    assert_eq!(attr(s, "orderpay.event.type"), "order.created");
    assert_eq!(attr(s, "orderpay.webhook.attempt"), 1);
}

#[test]
fn an_attempt_a_fault_touched_names_it_in_its_record_and_span() {
    let mut svc = with_delivery_rule(51, "order.created", json!({"kind": "drop", "attempts": 1}));
    create_order_id(&mut svc);
    deliver_due(&mut svc, |a| if a["drop"] == true { 0 } else { 200 });
    let (records, spans) = attempt_records_and_spans(&svc);
    assert_eq!(records.len(), 1);
    assert_eq!(records[0]["fault"]["kind"], "drop");
    assert!(records[0]["fault"]["rule"].is_string());
    assert_eq!(records[0]["httpStatus"], Value::Null);
    assert_eq!(spans[0]["name"], "webhook handler");
    assert_eq!(attr(&spans[0], "orderpay.fault.kind"), "drop");
    assert_eq!(
        attr(&spans[0], "orderpay.rule"),
        &records[0]["fault"]["rule"]
    );
}

#[test]
fn three_days_of_retries_give_a_record_and_a_span_for_each_attempt_at_its_time() {
    let mut svc = always_approves(52);
    svc.add_webhook(r#"{"handler":true}"#).expect("taken");
    create_order_id(&mut svc);
    deliver_due(&mut svc, |_| 500);
    svc.advance(3 * 24 * 3600 * 1000);
    deliver_due(&mut svc, |_| 500);
    let (records, spans) = attempt_records_and_spans(&svc);
    let delivery = &endpoints(&svc)[0]["deliveries"][0];
    let times: Vec<&Value> = delivery["attempts"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|a| &a["at"])
        .collect();
    assert_eq!(times.len(), 10);
    let stamps: Vec<&Value> = records.iter().map(|r| &r["timestamp"]).collect();
    assert_eq!(stamps, times, "each at its attempt's time");
    let starts: Vec<&Value> = spans.iter().map(|s| &s["start"]).collect();
    assert_eq!(starts, times);
    let next: Vec<&Value> = records.iter().map(|r| &r["nextAttemptAt"]).collect();
    assert_eq!(&next[..9], &times[1..], "each names the next");
    assert_eq!(next[9], &Value::Null, "the last: none");
    let ns: Vec<u64> = records
        .iter()
        .filter_map(|r| r["attempt"].as_u64())
        .collect();
    assert_eq!(ns, (1..=10).collect::<Vec<_>>());
    // Restored, they are the same, and written back the same.
    let back = restored(&svc);
    assert_eq!(attempt_records_and_spans(&back), (records, spans));
    assert_eq!(back.snapshot(), svc.snapshot());
    assert_eq!(back.export_otlp_json(), svc.export_otlp_json());
}

#[test]
fn a_damaged_attempt_record_or_span_is_refused_naming_the_field() {
    let mut svc = with_delivery_rule(53, "order.created", json!({"kind": "drop", "attempts": 1}));
    create_order_id(&mut svc);
    deliver_due(&mut svc, |a| if a["drop"] == true { 0 } else { 200 });
    let text = svc.snapshot();
    let cases = [
        (
            "\"deliveryId\":\"wd_1\"",
            "\"deliveryId\":\"x\"",
            "`deliveryId`",
        ),
        (
            "\"eventType\":\"order.created\"",
            "\"eventType\":\"o\"",
            "`eventType`",
        ),
        ("\"httpStatus\":null", "\"httpStatus\":200", "`status`"),
        ("\"durationMs\":12", "\"durationMs\":-1", "`durationMs`"),
        (
            "[\"orderpay.webhook.attempt\",1]",
            "[\"orderpay.webhook.attempt\",\"a\"]",
            "orderpay.webhook.attempt",
        ),
        (
            "[\"orderpay.fault\",\"{",
            "[\"orderpay.fault\",\"x{",
            "orderpay.fault",
        ),
    ];
    for (from, to, field) in cases {
        assert!(text.contains(from), "{from}");
        let damaged = text.replacen(from, to, 1);
        let refused = Service::restore(
            &damaged,
            Box::new(orderpay::sim::clock::VirtualClock::starting_at(0)),
        )
        .err()
        .unwrap_or_else(|| panic!("{to} taken"))
        .to_string();
        assert!(
            refused.starts_with("snapshot.journal") && refused.contains(field),
            "{field}: {refused}"
        );
    }
}

#[test]
fn an_event_dropped_from_the_log_while_its_delivery_retries_is_still_delivered() {
    let mut svc = always_approves(38);
    svc.add_webhook(r#"{"handler":true,"events":["order.created"]}"#)
        .expect("taken");
    let first = create_order_id(&mut svc);
    assert_eq!(
        deliver_due(&mut svc, |_| 500).len(),
        1,
        "the first attempt fails"
    );
    for _ in 0..10_000 {
        create_order_id(&mut svc);
        deliver_due(&mut svc, |_| 200);
    }
    let listed: Vec<Value> =
        serde_json::from_str(&svc.events_json(None).expect("on")).expect("JSON");
    let in_log = |id: &str| listed.iter().any(|e| e["data"]["object"]["orderId"] == id);
    assert!(!in_log(&first), "the first event left the log");
    svc.advance(2 * 60 * 1000);
    let retried = deliver_due(&mut svc, |_| 200);
    let bodies: Vec<Value> = retried
        .iter()
        .filter_map(|a| serde_json::from_str(a["body"].as_str()?).ok())
        .collect();
    assert_eq!(bodies.len(), 1, "{retried:?}");
    assert_eq!(bodies[0]["data"]["object"]["orderId"], first.as_str());
    let states: Vec<Value> = endpoints(&svc)[0]["deliveries"]
        .as_array()
        .map(|d| d.iter().map(|d| d["state"].clone()).collect())
        .unwrap_or_default();
    assert!(
        states.iter().all(|s| s == "delivered"),
        "every delivery delivered"
    );
}
