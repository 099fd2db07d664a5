//! The core is deterministic: one seed and one sequence of calls give the
//! same responses and the same log records, timestamps included.

mod common;

use common::*;
use orderpay::{RawRequest, Response, Service};
use serde_json::json;

/// A session touching every route, business errors, bad input and the
/// batch endpoint; ids read from earlier answers feed later requests.
fn session(svc: &mut Service) -> Vec<Response> {
    let mut out = Vec::new();
    let mut send = |svc: &mut Service, req: RawRequest| {
        let r = svc.handle(req);
        out.push(r.clone());
        r
    };
    let mut order_ids = Vec::new();
    for i in 0..20 {
        let r = send(
            svc,
            create_request(&format!("user-{i}"), 1.0 + f64::from(i), "session"),
        );
        order_ids.push(data(&r)["orderId"].as_str().unwrap().to_owned());
    }
    let mut payment_ids = Vec::new();
    for id in &order_ids {
        send(svc, get(&format!("/api/order/{id}")));
        let r = send(
            svc,
            pay_request(id, 5.0, "WALLET_A").with_header("X-User-Id", "payer"),
        );
        if r.body.code == 0 {
            payment_ids.push(data(&r)["paymentId"].as_str().unwrap().to_owned());
            send(svc, post(&format!("/api/order/{id}/pay")));
        } else {
            send(svc, post(&format!("/api/order/delete/{id}")));
        }
    }
    for id in &payment_ids {
        send(svc, post(&format!("/api/payment/refund/{id}")));
        send(svc, get(&format!("/api/payment/{id}")));
    }
    send(svc, post_text("/api/order/create", "{not json"));
    send(svc, create_request("u", -1.0, ""));
    send(svc, get("/api/ordr/x"));
    send(svc, get("/api/test/order/batch?count=25"));
    send(svc, create_request("after-batch", 3.0, ""));
    out
}

#[test]
fn the_same_seed_and_calls_give_identical_responses_and_logs() {
    let mut a = service(77);
    let mut b = service(77);
    let ra = session(&mut a);
    let rb = session(&mut b);
    assert_eq!(ra, rb);
    assert_eq!(
        serde_json::to_string(&ra).unwrap(),
        serde_json::to_string(&rb).unwrap()
    );
    assert_eq!(a.logs(None), b.logs(None));
    assert_eq!(
        serde_json::to_string(&logs_json(&a)).unwrap(),
        serde_json::to_string(&logs_json(&b)).unwrap()
    );
    assert_eq!(a.orders(), b.orders());
    assert_eq!(a.payments(), b.payments());
    // The session did real work, with both payment outcomes.
    assert!(ra
        .iter()
        .any(|r| r.body.msg == "Third party payment failed"));
    assert!(ra.iter().any(|r| data(r)["status"] == json!("SUCCESS")));
}

#[test]
fn different_seeds_give_different_order_ids_payment_ids_and_trace_ids() {
    let mut a = always_approves(1);
    let mut b = always_approves(2);
    let order_a = svc_create(&mut a);
    let order_b = svc_create(&mut b);
    assert_ne!(order_a.0, order_b.0);
    assert_ne!(order_a.1, order_b.1, "trace ids");
    let pay_a = pay_ok(&mut a, &order_a.0, 1.0, "CARD");
    let pay_b = pay_ok(&mut b, &order_b.0, 1.0, "CARD");
    assert_ne!(pay_a["paymentId"], pay_b["paymentId"]);
}

fn svc_create(svc: &mut Service) -> (String, String) {
    let r = svc.handle(create_request("u", 1.0, ""));
    (
        data(&r)["orderId"].as_str().unwrap().to_owned(),
        trace_of(&r),
    )
}

#[test]
fn different_seeds_give_different_id_sequences() {
    let ids = |seed| {
        let mut svc = service(seed);
        (0..10)
            .map(|_| create_order_id(&mut svc))
            .collect::<Vec<_>>()
    };
    let a = ids(100);
    assert_eq!(a, ids(100));
    for seed in [0, 101, u64::MAX] {
        let other = ids(seed);
        assert!(
            a.iter().all(|id| !other.contains(id)),
            "seed {seed} repeats an id of seed 100"
        );
    }
}

#[test]
fn reading_does_not_change_the_next_order_id() {
    // Trace ids and latency come from their own streams: a service that
    // only created orders and one that also read them issue the same ids.
    let mut reader = service(5);
    let mut writer = service(5);
    let first = create_order_id(&mut reader);
    assert_eq!(create_order_id(&mut writer), first);
    for _ in 0..5 {
        reader.handle(get(&format!("/api/order/{first}")));
        reader.handle(get("/api/payment/PAY-NOPE0000"));
    }
    assert_eq!(create_order_id(&mut reader), create_order_id(&mut writer));
}
