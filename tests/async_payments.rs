//! Asynchronous payments: each path of the state machine (a challenge
//! passed, failed, abandoned, ended by its rule; a pending payment that
//! succeeds or fails; a reversal, before and after a refund), the test
//! cards, the refusal of a second pay while a challenge is open, the
//! challenge page, and the defaults left exactly as they were.

mod common;

use common::*;
use orderpay::{RawRequest, Response, Service};
use serde_json::{json, Value};

/// Sets a scenario whose one rule, "async", gives every pay `then`.
fn set(svc: &mut Service, then: Value) {
    let doc =
        json!({"rules": [{"name": "async", "when": {"route": "/api/payment/pay"}, "then": then}]});
    svc.set_scenario(Some(&doc.to_string()))
        .expect("a valid scenario");
}

/// `svc` with the scenario of `set`.
fn with_rule(mut svc: Service, then: Value) -> Service {
    set(&mut svc, then);
    svc
}

fn pay_body(order_id: &str, extra: Value) -> RawRequest {
    let mut body = json!({"orderId": order_id, "amount": 12.5, "paymentMethod": "CARD"});
    if let (Some(b), Some(e)) = (body.as_object_mut(), extra.as_object()) {
        for (k, v) in e {
            b.insert(k.clone(), v.clone());
        }
    }
    post_json("/api/payment/pay", &body)
}

/// Pays a fresh order; the envelope.
fn pay(svc: &mut Service, extra: Value) -> Value {
    let order = create_order_id(svc);
    body(&svc.handle(pay_body(&order, extra)))
}

/// Pays a fresh order with a test card; the envelope.
fn pay_card(svc: &mut Service, number: &str) -> Value {
    pay(svc, json!({"cardNumber": number}))
}

/// Pays a fresh order with nothing more; the whole response.
fn pay_response(svc: &mut Service) -> Response {
    let order = create_order_id(svc);
    svc.handle(pay_body(&order, json!({})))
}

fn refund(svc: &mut Service, payment_id: &str) -> Response {
    svc.handle(post(&format!("/api/payment/refund/{payment_id}")))
}

fn status_of(svc: &mut Service, payment_id: &str) -> Value {
    data(&svc.handle(get(&format!("/api/payment/{payment_id}"))))
}

fn id(payment: &Value) -> String {
    payment["data"]["paymentId"]
        .as_str()
        .expect("a payment")
        .to_owned()
}

fn counters(svc: &Service) -> Value {
    serde_json::from_str(&svc.counters_json()).expect("JSON")
}

fn spans(svc: &Service) -> Value {
    serde_json::from_str(&svc.spans_json()).expect("JSON")
}

fn restore(text: &str) -> Service {
    restored(text).expect("restores")
}

/// Why a snapshot is refused.
fn refusal(text: &str) -> String {
    restored(text).err().expect("refused").msg
}

fn restored(text: &str) -> Result<Service, orderpay::sim::invalid::Invalid> {
    Service::restore(
        text,
        Box::new(orderpay::sim::clock::VirtualClock::starting_at(0)),
    )
}

/// A restore of `svc`'s snapshot writes the same snapshot.
fn assert_restores_exactly(svc: &Service) {
    let text = svc.snapshot();
    assert_eq!(restore(&text).snapshot(), text);
}

#[test]
fn a_challenge_waits_then_the_buyer_passes_it() {
    let mut svc = with_rule(always_declines(1), json!({"kind": "challenge"}));
    let paid = pay(&mut svc, json!({}));
    assert_eq!(paid["code"], 0);
    let p = &paid["data"];
    assert_eq!(p["status"], "REQUIRES_ACTION");
    let pid = id(&paid);
    let url = format!("/api/payment/{pid}/challenge");
    assert_eq!(p["nextAction"], json!({"type": "redirect", "url": url}));
    assert_eq!(svc.next_due(), None);
    assert_eq!(svc.challenges().len(), 1);
    // Counted as it starts, before any change.
    let counters = counters(&svc);
    assert_eq!(counters["payments"]["changes"]["requiresAction"], 1);
    assert_eq!(counters["payments"]["changes"]["pending"], 0);
    svc.advance(1_000_000);
    assert_eq!(status_of(&mut svc, &pid)["status"], "REQUIRES_ACTION");
    let done = svc.complete_challenge(&pid, "pass").expect("open");
    assert_eq!(done.status.as_str(), "SUCCESS");
    assert!(done.next_action().is_none());
    assert_eq!(status_of(&mut svc, &pid)["status"], "SUCCESS");
    assert!(svc.challenges().is_empty());
    // Then it refunds as any success.
    let refund = refund(&mut svc, &pid);
    assert_eq!(body(&refund)["code"], 0);
}

#[test]
fn a_challenge_failed_or_abandoned_fails_authentication_required() {
    for outcome in ["fail", "abandon"] {
        let mut svc = with_rule(service(2), json!({"kind": "challenge"}));
        let pid = id(&pay(&mut svc, json!({})));
        let done = svc.complete_challenge(&pid, outcome).expect("open");
        assert_eq!(done.status.as_str(), "FAILED");
        let p = status_of(&mut svc, &pid);
        assert_eq!(p["failureCode"], "authentication_required", "{outcome}");
        assert!(p["failureReason"]
            .as_str()
            .is_some_and(|r| r.contains("authentication")));
        // Only SUCCESS refunds.
        let refund = refund(&mut svc, &pid);
        assert_eq!(
            body(&refund),
            business_error("Only success payment can be refunded")
        );
    }
}

#[test]
fn a_challenge_with_an_outcome_ends_itself_on_the_clock() {
    let mut svc = with_rule(
        service(3),
        json!({"kind": "challenge", "outcome": "fail", "afterMs": 5000, "code": "do_not_honor"}),
    );
    let paid = pay(&mut svc, json!({}));
    let pid = id(&paid);
    let paid_at = paid["data"]["paidAt"].as_i64().expect("paidAt");
    assert_eq!(svc.next_due(), Some(paid_at + 5000));
    svc.advance(4000);
    assert_eq!(status_of(&mut svc, &pid)["status"], "REQUIRES_ACTION");
    svc.advance(1000);
    let p = status_of(&mut svc, &pid);
    assert_eq!(
        (&p["status"], &p["failureCode"]),
        (&json!("FAILED"), &json!("do_not_honor"))
    );
    assert_eq!(svc.next_due(), None);
}

#[test]
fn pending_succeeds_or_fails_after_for_ms_resolved_before_the_next_request() {
    let mut svc = with_rule(service(4), json!({"kind": "pending", "forMs": 30000}));
    let paid = pay(&mut svc, json!({}));
    assert_eq!(paid["data"]["status"], "PENDING");
    // Counted as it starts, before any change.
    let counters = counters(&svc);
    assert_eq!(counters["payments"]["changes"]["pending"], 1);
    let pid = id(&paid);
    svc.advance(29_000);
    assert_eq!(status_of(&mut svc, &pid)["status"], "PENDING");
    svc.advance(1_000);
    assert_eq!(status_of(&mut svc, &pid)["status"], "SUCCESS");

    let mut svc = with_rule(
        service(4),
        json!({"kind": "pending", "forMs": 10, "outcome": "fail", "code": "insufficient_funds"}),
    );
    let pid = id(&pay(&mut svc, json!({})));
    // The next request, taking its own latency, resolves it first.
    svc.advance(10);
    let p = status_of(&mut svc, &pid);
    assert_eq!(
        (&p["status"], &p["failureCode"]),
        (&json!("FAILED"), &json!("insufficient_funds"))
    );
    assert!(p.get("nextAction").is_none());
}

#[test]
fn a_reversal_fails_a_success_later_and_leaves_a_refund_alone() {
    let mut svc = with_rule(service(5), json!({"kind": "reversal", "afterMs": 60000}));
    let paid = pay(&mut svc, json!({}));
    assert_eq!(paid["data"]["status"], "SUCCESS");
    let pid = id(&paid);
    svc.advance(60_000);
    let p = status_of(&mut svc, &pid);
    assert_eq!(
        (&p["status"], &p["failureCode"], &p["failureReason"]),
        (
            &json!("FAILED"),
            &json!("generic_decline"),
            &json!("reversed after it succeeded")
        )
    );

    let mut svc = with_rule(service(5), json!({"kind": "reversal", "afterMs": 100}));
    let pid = id(&pay(&mut svc, json!({})));
    let refund = refund(&mut svc, &pid);
    assert_eq!(body(&refund)["code"], 0);
    svc.advance(1000);
    let p = status_of(&mut svc, &pid);
    assert_eq!(p["status"], "REFUNDED");
    assert!(p.get("failureCode").is_none());
}

#[test]
fn plans_resolve_in_due_order_each_at_its_due_time() {
    let mut svc = with_rule(service(6), json!({"kind": "pending", "forMs": 500}));
    let a = id(&pay(&mut svc, json!({})));
    let b = id(&pay(&mut svc, json!({})));
    let due_a = svc.next_due().expect("due");
    svc.advance(100_000);
    assert_eq!(svc.next_due(), None);
    for pid in [a, b] {
        assert_eq!(status_of(&mut svc, &pid)["status"], "SUCCESS");
    }
    assert!(due_a < svc.now());
}

/// Many plans due out of the order they were made, four at each of three
/// times: each comes due at its time, ties in payment id order, after a
/// restore too (the due queue is made again from the saved plans).
#[test]
fn many_plans_come_due_by_time_then_by_payment_id() {
    let mut svc = with_rule(service(18), json!({"kind": "pending", "forMs": 600_000}));
    let ids: Vec<String> = (0..12).map(|_| id(&pay(&mut svc, json!({})))).collect();
    let base = svc.now() + 10_000;
    let mut tree: Value = serde_json::from_str(&svc.snapshot()).expect("JSON");
    let steps = [2, 0, 1, 0, 2, 1, 1, 2, 0, 0, 2, 1];
    for (pid, step) in ids.iter().zip(steps) {
        tree["paymentPlans"][pid]["plan"]["due"] = json!(base + 1000 * step);
    }
    let mut svc = restore(&tree.to_string());
    assert_eq!(svc.next_due(), Some(base));
    let mut want: Vec<(i64, String)> = ids
        .iter()
        .zip(steps)
        .map(|(pid, step)| (base + 1000 * step, pid.clone()))
        .collect();
    want.sort();
    let changes = |svc: &Service| -> Vec<(i64, String)> {
        let records = logs_json(svc)
            .into_iter()
            .filter(|r| r["stage"] == "payment");
        let at = |r: &Value| r["timestamp"].as_i64().expect("timestamp");
        let pid = |r: &Value| r["paymentId"].as_str().expect("id").to_owned();
        records.map(|r| (at(&r), pid(&r))).collect()
    };
    let ahead = u64::try_from(base + 1000 - svc.now()).expect("ahead");
    svc.advance(ahead);
    assert_eq!(changes(&svc), want[..8]);
    assert_eq!(svc.next_due(), Some(base + 2000));
    svc.advance(5000);
    assert_eq!(changes(&svc), want);
    assert_eq!(svc.next_due(), None);
}

/// A card's decline under a scenario whose rule does not fire: the card's
/// code, not a decline drawn under the scenario (`generic_decline`).
#[test]
fn a_card_decline_under_a_scenario_is_the_cards() {
    let card = json!({"cardNumber": "4000-0000-0000-9995"});
    let mut scened = always_approves(7);
    let rule = json!({"rules": [{"when": {"route": "/api/test/order/batch"}, "then": {"kind": "http", "status": 503}}]});
    scened.set_scenario(Some(&rule.to_string())).expect("valid");
    let order = create_order_id(&mut scened);
    let declined = scened.handle(pay_body(&order, card.clone()));
    assert_eq!(
        declined.header("x-orderpay-decline-code"),
        Some("insufficient_funds")
    );
    assert_eq!(declined.header("x-orderpay-fault"), None);
    let response = logs_json(&scened).pop().expect("a response record");
    assert_eq!(response.get("fault"), None, "{response}");
}

#[test]
fn test_cards_take_their_outcomes() {
    let mut svc = always_declines(7);
    let ok = pay_card(&mut svc, "4242 4242 4242 4242");
    assert_eq!(
        (ok["code"].clone(), ok["data"]["status"].clone()),
        (json!(0), json!("SUCCESS"))
    );
    let mut svc = always_approves(7);
    let order = create_order_id(&mut svc);
    let card = json!({"cardNumber": "4000-0000-0000-9995"}); // dashes, as typed
    let declined = svc.handle(pay_body(&order, card.clone()));
    assert_eq!(
        body(&declined),
        business_error("Third party payment failed")
    );
    // The card's code, in the header a scenario's decline sends; no rule
    // or fault of a scenario's.
    assert_eq!(
        declined.header("x-orderpay-decline-code"),
        Some("insufficient_funds")
    );
    assert_eq!(declined.header("x-orderpay-fault"), None);
    assert_eq!(declined.header("x-orderpay-rule"), None);
    let record = logs_json(&svc)
        .into_iter()
        .rfind(|r| r["stage"] == "service")
        .expect("a service record");
    assert_eq!(record["outcome"]["rule"], "card");
    assert_eq!(record["outcome"]["card"], "4000000000009995");
    assert_eq!(record["outcome"]["declineCode"], "insufficient_funds");
    let challenged = pay_card(&mut svc, "4000002500003155");
    assert_eq!(challenged["data"]["status"], "REQUIRES_ACTION");
    let pid = id(&challenged);
    let then_declined = pay_card(&mut svc, "4000008260003178");
    let pid2 = id(&then_declined);
    let done = svc.complete_challenge(&pid2, "pass").expect("open");
    assert_eq!(done.failure_code(), Some("insufficient_funds"));
    assert_eq!(svc.challenges().len(), 1);
    assert_eq!(svc.challenges()[0].payment_id, pid);
    let pending = pay_card(&mut svc, "4000084000000022");
    assert_eq!(pending["data"]["status"], "PENDING");
    // In progress: the challenge and the pending payment, in id order; a success is not.
    let mut open = vec![pid.clone(), id(&pending)];
    open.sort();
    let listed: Vec<String> = svc
        .in_progress(true)
        .into_iter()
        .map(|p| p.payment_id)
        .collect();
    assert_eq!(listed, open);
    assert!(svc.virtual_clock());
    let reversed = pay_card(&mut svc, "4000000000000259");
    let rid = id(&reversed);
    svc.advance(60_000);
    assert_eq!(svc.in_progress(true).len(), 1, "the challenge alone");
    let p = status_of(&mut svc, &id(&pending));
    assert_eq!(p["failureCode"], "insufficient_funds");
    let r = status_of(&mut svc, &rid);
    assert_eq!(
        (&r["failureCode"], &r["failureReason"]),
        (&json!("fraudulent"), &json!("disputed as fraudulent"))
    );
}

#[test]
fn an_unknown_card_or_a_bad_return_url_is_a_400_naming_it() {
    let mut svc = service(8);
    let bad = pay_card(&mut svc, "1234");
    assert_eq!(bad["code"], 400);
    assert!(
        bad["msg"]
            .as_str()
            .is_some_and(|m| m.starts_with("cardNumber: ")),
        "{bad}"
    );
    let bad = pay(&mut svc, json!({"cardNumber": 4242424242424242u64}));
    assert!(
        bad["msg"]
            .as_str()
            .is_some_and(|m| m.starts_with("cardNumber: ")),
        "{bad}"
    );
    for url in [
        "//evil.example",
        "ftp://x",
        "javascript:alert(1)",
        "/a\nb",
        "http://",
    ] {
        let bad = pay(&mut svc, json!({"returnUrl": url}));
        assert_eq!(bad["code"], 400, "{url}");
        assert!(
            bad["msg"]
                .as_str()
                .is_some_and(|m| m.starts_with("returnUrl: ")),
            "{bad}"
        );
    }
    let long = format!("/{}", "a".repeat(2048));
    assert_eq!(pay(&mut svc, json!({"returnUrl": long}))["code"], 400);
    for url in ["/done", "https://shop.example/back?x=1"] {
        assert_ne!(
            pay(&mut svc, json!({"returnUrl": url}))["code"],
            400,
            "{url}"
        );
    }
}

#[test]
fn paying_again_while_a_challenge_is_open_is_a_409_and_not_counted() {
    let mut svc = with_rule(service(9), json!({"kind": "challenge"}));
    let order = create_order_id(&mut svc);
    let first = body(&svc.handle(pay_body(&order, json!({}))));
    let pid = id(&first);
    let again = svc.handle(pay_body(&order, json!({})));
    assert_eq!(again.status, 409);
    assert_eq!(
        body(&again),
        json!({"code": -1, "msg": format!("Order {order} has a payment awaiting authentication: {pid}"), "data": null})
    );
    svc.complete_challenge(&pid, "abandon").expect("open");
    let third = svc.handle(pay_body(&order, json!({})));
    assert_eq!(third.status, 200);
}

#[test]
fn complete_challenge_refuses_naming_the_argument() {
    let mut svc = service(10);
    let e = svc
        .complete_challenge("PAY-NOPE0000", "maybe")
        .expect_err("refused");
    assert!(e.msg.starts_with("outcome: "), "{}", e.msg);
    let e = svc
        .complete_challenge("PAY-NOPE0000", "pass")
        .expect_err("refused");
    assert!(e.msg.starts_with("paymentId: "), "{}", e.msg);
    let paid = pay_card(&mut svc, "4242424242424242");
    let e = svc
        .complete_challenge(&id(&paid), "pass")
        .expect_err("refused");
    assert!(e.msg.contains("SUCCESS"), "{}", e.msg);
}

#[test]
fn the_challenge_page_is_served_for_a_challenged_payment_only() {
    let mut svc = service(11);
    let plain = pay_card(&mut svc, "4242424242424242");
    let before = svc.handle(get(&format!("/api/payment/{}/challenge", id(&plain))));
    assert_eq!(before.status, 404);
    let paid = pay_card(&mut svc, "4000002500003155");
    let pid = id(&paid);
    let path = format!("/api/payment/{pid}/challenge");
    let page = svc.handle(get(&path));
    assert_eq!(page.status, 200);
    assert_eq!(
        page.header("content-type"),
        Some("text/html; charset=utf-8")
    );
    let html = &page.body.page().expect("a page").html;
    assert!(html.contains("<title>orderpay test authentication</title>"));
    assert!(html.contains(&pid) && html.contains("12.5"));
    for o in ["pass", "fail", "abandon"] {
        assert!(html.contains(&format!("action=\"?outcome={o}\"")), "{o}");
    }
    assert!(!html.contains("<script") && !html.contains("src="));
    let bad = svc.handle(post(&format!("{path}?outcome=maybe")));
    assert_eq!(bad.status, 400);
    assert!(body(&bad)["msg"]
        .as_str()
        .is_some_and(|m| m.starts_with("outcome: ")));
    let done = svc.handle(post(&format!("{path}?outcome=pass")));
    assert_eq!(done.status, 200);
    assert!(done.body.page().is_some_and(|p| p.html.contains("SUCCESS")));
    let again = svc.handle(post(&format!("{path}?outcome=pass")));
    assert_eq!(
        (again.status, body(&again)["code"].clone()),
        (409, json!(-1))
    );
    let after = svc.handle(get(&path));
    assert!(after.body.page().is_some_and(|p| !p.html.contains("<form")));
}

/// A browser's answer to a challenge already over (Back, then a click):
/// the 409 as a page saying how it ended; any other client's the
/// envelope. Both change nothing and are logged alike (code -1).
#[test]
fn an_answer_to_a_challenge_already_over_is_a_409_page_to_a_browser_only() {
    const BROWSER: &str = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
    for (outcome, ended) in [
        ("pass", "SUCCESS."),
        ("fail", "FAILED (the buyer failed authentication)."),
        ("abandon", "FAILED (the buyer abandoned authentication)."),
    ] {
        let mut svc = service(14);
        let pid = id(&pay_card(&mut svc, "4000002500003155"));
        let path = format!("/api/payment/{pid}/challenge");
        // The answer's own page says what the buyer's answer did, a Cancel's as plainly as a Complete's.
        let answered = svc.handle(post(&format!("{path}?outcome={outcome}")));
        assert_eq!(answered.status, 200);
        let html = &answered.body.page().expect("a page").html;
        assert!(
            html.contains(&format!("Answered: the payment is now {ended}</p>")),
            "{html}"
        );
        let again =
            |accept: &str| post(&format!("{path}?outcome=pass")).with_header("Accept", accept);
        let shown = svc.handle(again(BROWSER));
        assert_eq!(shown.status, 409, "{outcome}");
        assert_eq!(
            shown.header("content-type"),
            Some("text/html; charset=utf-8")
        );
        let html = &shown.body.page().expect("a page").html;
        assert!(html.contains("This challenge is already over"), "{html}");
        assert!(
            html.contains(&format!("changed nothing: the payment is {ended}</p>")),
            "{html}"
        );
        assert!(html.contains(&pid) && !html.contains("<form"), "{html}");
        for json in ["*/*", "application/json", "", "application/json, text/html"] {
            let enveloped = svc.handle(again(json));
            assert_eq!(enveloped.status, 409, "{json:?}");
            assert!(enveloped.body.page().is_none(), "{json:?}");
            assert_eq!(body(&enveloped)["code"], json!(-1));
        }
        // The four answers again, each logged as the refusal it is.
        let records = logs_json(&svc);
        let responses: Vec<_> = records
            .iter()
            .filter(|r| r["stage"] == "response")
            .collect();
        for r in &responses[responses.len() - 4..] {
            assert_eq!((&r["httpStatus"], &r["code"]), (&json!(409), &json!(-1)));
            assert!(r["msg"]
                .as_str()
                .is_some_and(|m| m.contains("not awaiting")));
        }
        let expected = if outcome == "pass" {
            "SUCCESS"
        } else {
            "FAILED"
        };
        let status = &status_of(&mut svc, &pid)["status"];
        assert_eq!(status, &json!(expected), "nothing changed");
    }
}

#[test]
fn the_challenge_page_sends_the_buyer_back_to_the_return_url() {
    for (url, back) in [
        (
            "/checkout/done",
            "/checkout/done?paymentId={}&status=FAILED",
        ),
        (
            "https://shop.example/r?x=1#top",
            "https://shop.example/r?x=1&paymentId={}&status=FAILED#top",
        ),
    ] {
        let mut svc = service(12);
        let paid = pay(
            &mut svc,
            json!({"cardNumber": "4000002500003155", "returnUrl": url}),
        );
        let pid = id(&paid);
        let done = svc.handle(post(&format!("/api/payment/{pid}/challenge?outcome=fail")));
        assert_eq!(done.status, 303);
        assert_eq!(
            done.header("location"),
            Some(back.replace("{}", &pid).as_str())
        );
        let records = logs_json(&svc);
        let last = records.last().expect("records");
        assert_eq!(
            (&last["uri_group"], &last["event_class"]),
            (&json!("/payment/*"), &json!("payment"))
        );
    }
}

#[test]
fn defaults_are_unchanged_and_the_same_calls_give_the_same_bytes() {
    let run = |cards: bool| {
        let mut svc = service(13);
        if cards {
            set(&mut svc, json!({"kind": "pending", "forMs": 700}));
        }
        let mut out = Vec::new();
        for _ in 0..5 {
            let order = create_order_id(&mut svc);
            let extra = if cards {
                json!({"cardNumber": "4000002500003155"})
            } else {
                json!({})
            };
            out.push(body(&svc.handle(pay_body(&order, extra))).to_string());
            svc.advance(300);
        }
        (out, svc.logs_json(None), svc.snapshot())
    };
    assert_eq!(run(true), run(true));
    let plain = run(false);
    assert!(plain
        .0
        .iter()
        .all(|p| !p.contains("nextAction") && !p.contains("failure")));
    assert!(!plain.1.contains("\"card\""));
}

#[test]
fn a_snapshot_keeps_the_plans_and_a_restore_continues_exactly() {
    let mut svc = with_rule(
        service(14),
        json!({"kind": "pending", "forMs": 5000, "outcome": "fail", "code": "lost_card"}),
    );
    let pending = id(&pay(&mut svc, json!({})));
    svc.set_scenario(None).expect("cleared");
    let challenged = id(&pay(
        &mut svc,
        json!({"cardNumber": "4000002500003155", "returnUrl": "/back"}),
    ));
    let reversed = id(&pay_card(&mut svc, "4000000000000259"));
    let text = svc.snapshot();
    assert!(text.contains("\"paymentPlans\""));
    let mut copy = restore(&text);
    assert_eq!(copy.snapshot(), text);
    assert_eq!(copy.next_due(), svc.next_due());
    for s in [&mut svc, &mut copy] {
        s.advance(70_000);
        s.complete_challenge(&challenged, "pass").expect("open");
    }
    assert_eq!(copy.snapshot(), svc.snapshot());
    for pid in [pending, challenged, reversed] {
        assert_eq!(status_of(&mut copy, &pid), status_of(&mut svc, &pid));
    }
    // Without plans, a snapshot has no such member.
    assert!(!service(14).snapshot().contains("paymentPlans"));
}

#[test]
fn damaged_plans_are_refused_naming_the_field() {
    let mut svc = service(15);
    let pid = id(&pay_card(&mut svc, "4000002500003155"));
    let text = svc.snapshot();
    let mut tree: Value = serde_json::from_str(&text).expect("JSON");
    let cases = [
        (
            "kind",
            json!("later"),
            ".plan.kind: must be challenge, pending or reversal",
        ),
        (
            "code",
            json!("nope"),
            ".plan.code: must be one of the decline codes",
        ),
        ("due", json!("soon"), ".plan.due: "),
        (
            "trace",
            json!("xyz"),
            ".plan.trace: must be 32 lower-case hex digits",
        ),
        (
            "name",
            json!("1234"),
            ".plan.name: must be a test card's number",
        ),
    ];
    for (field, value, want) in cases {
        let mut damaged = tree.clone();
        damaged["paymentPlans"][&pid]["plan"][field] = value;
        let msg = refusal(&damaged.to_string());
        let at = format!("snapshot.paymentPlans[\"{pid}\"]{want}");
        assert!(msg.starts_with(&at), "{msg} / {at}");
    }
    let plans = tree["paymentPlans"].as_object_mut().expect("plans");
    let kept = plans.remove(&pid).expect("kept");
    plans.insert("PAY-NOPE0000".into(), kept);
    let msg = refusal(&tree.to_string());
    assert!(
        msg.starts_with("snapshot.paymentPlans[\"PAY-NOPE0000\"]"),
        "{msg}"
    );
}

#[test]
fn each_change_is_a_payment_record_in_the_pays_trace_and_counted() {
    let mut svc = with_rule(
        service(16),
        json!({"kind": "pending", "forMs": 1000, "outcome": "fail", "code": "lost_card"}),
    );
    let paid = pay_response(&mut svc);
    let trace = trace_of(&paid);
    let pid = id(&body(&paid));
    svc.advance(1000);
    let records = logs_json(&svc);
    let change = records
        .iter()
        .find(|r| r["stage"] == "payment")
        .expect("a payment record");
    assert_eq!(change["traceId"], json!(trace));
    assert_eq!(
        (
            &change["paymentId"],
            &change["from"],
            &change["to"],
            &change["kind"]
        ),
        (
            &json!(pid),
            &json!("PENDING"),
            &json!("FAILED"),
            &json!("pending")
        )
    );
    assert_eq!(
        change["cause"],
        json!({"rule": "scenario", "scenarioRule": "async"})
    );
    assert_eq!(change["failureCode"], "lost_card");
    let pay_record = records
        .iter()
        .find(|r| {
            r["stage"] == "service" && r["traceId"] == json!(trace) && r.get("outcome").is_some()
        })
        .expect("the pay's service record");
    assert_eq!(change["parentSpanId"], pay_record["spanId"]);
    let counters = counters(&svc);
    assert_eq!(counters["payments"]["changes"]["failed"], 1);
    assert!(!service_counters_of_plain().contains("changes"));
    // The record survives a snapshot, and the typed logs read it.
    assert_restores_exactly(&svc);
    assert!(svc.logs(None).iter().any(|r| stage_name(r) == "payment"));

    let mut svc = service(17);
    let pid = id(&pay_card(&mut svc, "4000002500003155"));
    svc.complete_challenge(&pid, "abandon").expect("open");
    let change = logs_json(&svc)
        .into_iter()
        .rfind(|r| r["stage"] == "payment")
        .expect("record");
    assert_eq!(
        change["cause"],
        json!({"rule": "buyer", "outcome": "abandon", "planned": {"rule": "card", "card": "4000002500003155"}})
    );
}

fn service_counters_of_plain() -> String {
    let mut svc = service(16);
    pay(&mut svc, json!({}));
    svc.counters_json()
}

#[test]
fn each_change_is_a_span_under_the_pays_payment_service_span() {
    let mut svc = with_rule(
        service(18),
        json!({"kind": "pending", "forMs": 1000, "outcome": "fail", "code": "lost_card"}),
    );
    let paid = pay_response(&mut svc);
    let trace = trace_of(&paid);
    let pid = id(&body(&paid));
    let paid_at = body(&paid)["data"]["paidAt"].as_i64().expect("paidAt");
    svc.advance(1000);
    let spans = spans(&svc);
    let spans = spans.as_array().expect("an array");
    let change = spans
        .iter()
        .find(|s| s["name"] == "payment PENDING → FAILED")
        .expect("a change's span");
    let parent = spans
        .iter()
        .find(|s| {
            s["traceId"] == json!(trace)
                && s["component"] == "payment-service"
                && s["name"] != change["name"]
        })
        .expect("the pay's payment-service span");
    assert_eq!(change["traceId"], json!(trace));
    assert_eq!(change["parentSpanId"], parent["spanId"]);
    assert_eq!(change["component"], "payment-service");
    assert_eq!(
        (change["start"].as_i64(), change["end"].as_i64()),
        (Some(paid_at), Some(paid_at + 1000))
    );
    assert_eq!(
        change["attributes"],
        json!([
            ["orderpay.payment.id", pid],
            ["orderpay.payment.from", "PENDING"],
            ["orderpay.payment.to", "FAILED"],
            ["orderpay.rule", "scenario"],
            ["orderpay.scenario_rule", "async"],
            ["orderpay.failure_code", "lost_card"]
        ])
    );
    // The span survives a snapshot, and OTLP carries it.
    assert_restores_exactly(&svc);
    assert!(svc.export_otlp_json().contains("payment PENDING → FAILED"));
}

#[test]
fn a_challenge_the_buyer_ends_is_a_span_of_the_buyers_rule() {
    let mut svc = service(19);
    let pid = id(&pay_card(&mut svc, "4000002500003155"));
    svc.complete_challenge(&pid, "pass").expect("open");
    let spans = spans(&svc);
    let change = spans
        .as_array()
        .and_then(|s| {
            s.iter()
                .find(|s| s["name"] == "payment REQUIRES_ACTION → SUCCESS")
        })
        .expect("a change's span");
    assert_eq!(
        change["attributes"],
        json!([
            ["orderpay.payment.id", pid],
            ["orderpay.payment.from", "REQUIRES_ACTION"],
            ["orderpay.payment.to", "SUCCESS"],
            ["orderpay.rule", "buyer"],
            ["orderpay.card", "4000002500003155"]
        ])
    );
    assert_restores_exactly(&svc);
}

#[test]
fn the_pays_record_says_what_is_planned_and_a_snapshot_keeps_it() {
    let mut svc = service(20);
    let waits = pay_card(&mut svc, "4000002500003155");
    set(
        &mut svc,
        json!({"kind": "pending", "forMs": 5000, "outcome": "fail", "code": "lost_card"}),
    );
    let pending = pay(&mut svc, json!({}));
    let paid_at = pending["data"]["paidAt"].as_i64().expect("paidAt");
    let planned: Vec<Value> = logs_json(&svc)
        .into_iter()
        .filter(|r| r["stage"] == "service")
        .filter_map(|r| r["outcome"].get("async").cloned())
        .collect();
    assert_eq!(
        planned,
        [
            json!({"kind": "challenge", "dueAt": null, "code": "authentication_required"}),
            json!({"kind": "pending", "dueAt": paid_at + 5000, "outcome": "fail", "code": "lost_card"}),
        ]
    );
    assert_eq!(waits["data"]["status"], "REQUIRES_ACTION");
    // The typed logs carry it too, and a restore goes on exactly.
    let typed = serde_json::to_string(&svc.logs(None)).expect("JSON");
    assert!(typed.contains("\"async\":{\"kind\":\"pending\""), "{typed}");
    let text = svc.snapshot();
    let mut copy = restore(&text);
    assert_eq!(copy.snapshot(), text);
    copy.advance(5000);
    svc.advance(5000);
    assert_eq!(copy.snapshot(), svc.snapshot());
    // A pay that changes nothing later says nothing of it.
    let mut plain = service(20);
    pay(&mut plain, json!({}));
    assert!(!plain.logs_json(None).contains("\"async\""));
}
