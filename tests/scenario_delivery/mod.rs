//! The delivery kinds of a scenario: read with their defaults or refused
//! naming the path, decided per event with today's conditions, never on
//! a request (nor a request's rule on an event), seeded, written in an
//! attempt's record and read back, saved and restored.

use orderpay::gateway::scenario::WORDS;
use orderpay::json::read;
use orderpay::json::write::Out;
use orderpay::sim::scenario::delivery::EVENT_TYPES;
use orderpay::sim::scenario::{
    shuffled, Delivery, DeliveryFault, EventFacts, Fault, Fields, Order, Scenario, Then,
};
use serde_json::json;

use super::common::*;
use super::{refusal, scenario, set};

fn read(doc: &serde_json::Value, seed: u64) -> Scenario {
    Scenario::read(&doc.to_string(), WORDS, seed, T0).expect("a valid scenario")
}

fn event(event_type: &str) -> EventFacts<'_> {
    EventFacts {
        event_type,
        fields: Fields::default(),
    }
}

/// The rule names that fire for `n` events of `event_type`, one a ms.
fn fire(s: &mut Scenario, event_type: &str, n: i64) -> Vec<Option<String>> {
    (0..n)
        .map(|i| {
            s.decide_delivery(&event(event_type), T0 + i)
                .map(|f| f.rule.to_string())
        })
        .collect()
}

fn rule(kind: serde_json::Value) -> serde_json::Value {
    json!({ "rules": [{ "name": "r", "then": kind }] })
}

#[test]
fn each_delivery_kind_reads_with_its_defaults_or_its_fields() {
    let cases = [
        (
            json!({"kind": "duplicate"}),
            Delivery::Duplicate { times: 2 },
        ),
        (
            json!({"kind": "duplicate", "times": 10}),
            Delivery::Duplicate { times: 10 },
        ),
        (json!({"kind": "late"}), Delivery::Late { ms: 60_000 }),
        (
            json!({"kind": "late", "ms": 604_800_000}),
            Delivery::Late { ms: 604_800_000 },
        ),
        (
            json!({"kind": "reorder"}),
            Delivery::Reorder {
                hold: 2,
                order: Order::Reverse,
            },
        ),
        (
            json!({"kind": "reorder", "hold": 100, "order": "shuffle"}),
            Delivery::Reorder {
                hold: 100,
                order: Order::Shuffle { seed: 0 },
            },
        ),
        (
            json!({"kind": "stale_timestamp"}),
            Delivery::StaleTimestamp { age_s: 600 },
        ),
        (
            json!({"kind": "stale_timestamp", "ageS": 301}),
            Delivery::StaleTimestamp { age_s: 301 },
        ),
        (json!({"kind": "tampered_body"}), Delivery::TamperedBody),
        (json!({"kind": "wrong_signature"}), Delivery::WrongSignature),
        (json!({"kind": "drop"}), Delivery::Drop { attempts: 1 }),
        (
            json!({"kind": "drop", "attempts": 10}),
            Delivery::Drop { attempts: 10 },
        ),
    ];
    for (then, want) in cases {
        let s = read(&rule(then.clone()), 1);
        assert_eq!(s.doc.rules[0].then, Then::Delivery(want), "{then}");
        assert_eq!(s.doc.rules[0].then.kind(), then["kind"].as_str().unwrap());
    }
}

#[test]
fn bad_delivery_rules_are_refused_naming_the_json_path() {
    let cases = [
        (json!({"kind": "duplicate", "times": 1}), "rules[0].then.times: expected a whole number of deliveries from 2 to 10, got 1"),
        (json!({"kind": "duplicate", "times": 11}), "rules[0].then.times: expected a whole number of deliveries from 2 to 10, got 11"),
        (json!({"kind": "late", "ms": 0}), "rules[0].then.ms: expected a whole number of ms from 1 to 604800000, got 0"),
        (json!({"kind": "late", "ms": "soon"}), "rules[0].then.ms: expected a whole number of ms, got \"soon\""),
        (json!({"kind": "reorder", "hold": 1}), "rules[0].then.hold: expected a whole number of events from 2 to 100, got 1"),
        (json!({"kind": "reorder", "order": "random"}), "rules[0].then.order: expected reverse or shuffle, got \"random\""),
        (json!({"kind": "reorder", "order": "shuffle", "seed": 5}), "rules[0].then: unknown key \"seed\"; expected one of kind, hold, order"),
        (json!({"kind": "stale_timestamp", "ageS": 0}), "rules[0].then.ageS: expected a whole number of seconds from 1 to 604800, got 0"),
        (json!({"kind": "stale_timestamp", "age": 600}), "rules[0].then: unknown key \"age\"; expected one of kind, ageS"),
        (json!({"kind": "tampered_body", "ms": 1}), "rules[0].then: unknown key \"ms\"; expected one of kind"),
        (json!({"kind": "wrong_signature", "secret": "x"}), "rules[0].then: unknown key \"secret\"; expected one of kind"),
        (json!({"kind": "drop", "attempts": 0}), "rules[0].then.attempts: expected a whole number of attempts from 1 to 10, got 0"),
        (json!({"kind": "drop", "attempts": 11}), "rules[0].then.attempts: expected a whole number of attempts from 1 to 10, got 11"),
        (json!({"kind": "duplicat"}), "rules[0].then.kind: expected one of decline, timeout, processor_error, http, delay, network, challenge, pending, reversal, or a delivery kind: duplicate, late, reorder, stale_timestamp, tampered_body, wrong_signature, drop, got \"duplicat\""),
    ];
    for (then, want) in cases {
        let got = refusal(&rule(then.clone()).to_string());
        assert_eq!(got, format!("scenario: {want}"), "{then}");
    }
}

#[test]
fn a_matcher_of_the_other_side_is_refused_naming_it() {
    let delivery = "a delivery kind's rule matches events: use event, userId, orderId, paymentMethod or amount";
    let cases = [
        (json!({"route": "order"}), json!({"kind": "duplicate"}), format!("rules[0].when.route: matches a request; {delivery}")),
        (json!({"method": "POST"}), json!({"kind": "late"}), format!("rules[0].when.method: matches a request; {delivery}")),
        (
            json!({"event": "order.paid", "header": {"name": "x-case", "value": "a"}}),
            json!({"kind": "drop"}),
            format!("rules[0].when.header: matches a request; {delivery}"),
        ),
        (
            json!({"event": "order.paid"}),
            json!({"kind": "delay"}),
            "rules[0].when.event: matches an event; only a delivery kind's rule (duplicate, late, reorder, stale_timestamp, tampered_body, wrong_signature, drop) takes it".to_owned(),
        ),
        (
            json!({"event": "payment.paid"}),
            json!({"kind": "duplicate"}),
            "rules[0].when.event: expected an event type (order.created, order.paid, order.deleted, payment.succeeded, payment.failed, payment.requires_action, payment.pending, payment.refunded) or a group (order.*, payment.*), got \"payment.paid\"".to_owned(),
        ),
    ];
    for (when, then, want) in cases {
        let doc = json!({ "rules": [{ "when": when, "then": then }] });
        assert_eq!(
            refusal(&doc.to_string()),
            format!("scenario: {want}"),
            "{doc}"
        );
    }
}

#[test]
fn a_delivery_rule_never_fires_on_a_request_nor_a_request_rule_on_an_event() {
    let doc = json!({ "rules": [
        { "name": "every delivery", "then": { "kind": "duplicate" } },
        { "name": "every create", "when": { "route": "/api/order/create" }, "then": { "kind": "http", "status": 503 } },
    ]});
    let mut svc = service(1);
    set(&mut svc, &doc);
    let r = svc.handle(create_request("u-1", 5.0, "x"));
    assert_eq!(r.status, 503);
    let rules = &scenario(&svc)["rules"];
    assert_eq!(rules[0]["seen"], 0);
    assert_eq!(
        (rules[1]["seen"].clone(), rules[1]["fired"].clone()),
        (json!(1), json!(1))
    );

    let mut s = read(&doc, 1);
    let fault = s
        .decide_delivery(&event("order.created"), T0)
        .expect("fires");
    assert_eq!(fault.rule.as_ref(), "every delivery");
    assert_eq!(fault.kind, Delivery::Duplicate { times: 2 });
    assert_eq!(s.progress.counts, vec![(1, 1), (0, 0)]);
    // With no delivery rule, an event meets none and counts nothing.
    let mut s = read(&json!({ "rules": [{ "then": { "kind": "delay" } }] }), 1);
    assert_eq!(s.decide_delivery(&event("order.created"), T0), None);
    assert_eq!(s.progress.counts, vec![(0, 0)]);
}

#[test]
fn the_event_matcher_takes_a_type_or_a_group_and_the_resources_fields() {
    let mut s = read(
        &json!({ "rules": [
            { "name": "paid", "when": { "event": "order.paid" }, "then": { "kind": "late", "ms": 5 } },
            { "name": "payments", "when": { "event": "payment.*", "userId": "u-2" }, "then": { "kind": "drop" } },
            { "name": "wallet", "when": { "paymentMethod": "WALLET_A", "amount": 13.37 }, "then": { "kind": "tampered_body" } },
        ]}),
        1,
    );
    let mut decide = |t: &str, fields: Fields| {
        let facts = EventFacts {
            event_type: t,
            fields,
        };
        s.decide_delivery(&facts, T0).map(|f| f.rule.to_string())
    };
    let u2 = Fields {
        user_id: Some("u-2"),
        ..Fields::default()
    };
    let wallet = Fields {
        payment_method: Some("WALLET_A"),
        amount: Some(13.37),
        ..Fields::default()
    };
    assert_eq!(
        decide("order.paid", Fields::default()).as_deref(),
        Some("paid")
    );
    assert_eq!(decide("order.created", u2).as_deref(), None);
    assert_eq!(decide("payment.refunded", u2).as_deref(), Some("payments"));
    assert_eq!(
        decide("payment.refunded", Fields::default()).as_deref(),
        None
    );
    assert_eq!(
        decide("payment.succeeded", wallet).as_deref(),
        Some("wallet")
    );
    assert_eq!(
        decide(
            "order.deleted",
            Fields {
                amount: Some(13.38),
                ..wallet
            }
        )
        .as_deref(),
        None
    );
    assert_eq!(EVENT_TYPES.len(), 10);
}

#[test]
fn the_conditions_count_events_as_they_count_requests() {
    let when = |when: serde_json::Value| json!({ "rules": [{ "name": "r", "when": when, "then": { "kind": "wrong_signature" } }] });
    let fired = |doc, n| -> Vec<usize> {
        let mut s = read(&doc, 1);
        let got = fire(&mut s, "payment.succeeded", n);
        got.iter()
            .enumerate()
            .filter(|(_, r)| r.is_some())
            .map(|(i, _)| i + 1)
            .collect()
    };
    assert_eq!(fired(when(json!({"nth": 3})), 6), vec![3]);
    assert_eq!(fired(when(json!({"every": 2})), 6), vec![2, 4, 6]);
    assert_eq!(
        fired(when(json!({"calls": {"from": 2, "to": 4}})), 6),
        vec![2, 3, 4]
    );
    assert_eq!(fired(when(json!({"times": 2})), 6), vec![1, 2]);
    // The n-th event is at T0 + n - 1.
    assert_eq!(
        fired(when(json!({"from": T0 + 2, "until": T0 + 4})), 6),
        vec![3, 4]
    );
    assert_eq!(fired(when(json!({"forMs": 3})), 6), vec![1, 2, 3]);
    let half = when(json!({"probability": 0.5}));
    let a = fired(half.clone(), 64);
    assert_eq!(a, fired(half.clone(), 64), "the same seed, the same draws");
    assert!(a.len() > 16 && a.len() < 48, "{a:?}");
    let mut other = read(&half, 2);
    let b: Vec<usize> = fire(&mut other, "payment.succeeded", 64)
        .iter()
        .enumerate()
        .filter(|(_, r)| r.is_some())
        .map(|(i, _)| i + 1)
        .collect();
    assert_ne!(a, b, "another seed, other draws");
    // A rule that matched but did not fire lets the next one try.
    let doc = json!({ "rules": [
        { "name": "second", "when": { "nth": 2 }, "then": { "kind": "drop" } },
        { "name": "rest", "then": { "kind": "late" } },
    ]});
    let mut s = read(&doc, 1);
    let names = fire(&mut s, "order.created", 3);
    assert_eq!(
        names,
        vec![
            Some("rest".into()),
            Some("second".into()),
            Some("rest".into())
        ]
    );
    assert_eq!(s.progress.counts, vec![(3, 1), (2, 2)]);
}

#[test]
fn a_shuffle_draws_its_seed_from_the_scenarios_stream_and_gives_a_permutation() {
    let doc = rule(json!({"kind": "reorder", "hold": 5, "order": "shuffle"}));
    let seeds = |seed| -> Vec<u64> {
        let mut s = read(&doc, seed);
        (0..4)
            .map(|i| {
                match s
                    .decide_delivery(&event("order.paid"), T0 + i)
                    .map(|f| f.kind)
                {
                    Some(Delivery::Reorder {
                        hold: 5,
                        order: Order::Shuffle { seed },
                    }) => seed,
                    other => panic!("{other:?}"),
                }
            })
            .collect()
    };
    let a = seeds(7);
    assert_eq!(a, seeds(7));
    assert_ne!(a, seeds(8));
    assert!(a.iter().all(|s| *s < 1 << 53), "{a:?}");
    for seed in a {
        let p = Order::Shuffle { seed }.permutation(5);
        let mut sorted = p.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, vec![0, 1, 2, 3, 4]);
        assert_ne!(p, sorted, "a reorder reorders");
        assert_eq!(p, shuffled(5, seed));
    }
    // Reverse draws nothing: a probability after it sees the same stream.
    let mut s = read(&rule(json!({"kind": "reorder"})), 7);
    let before = s.progress.rng.clone();
    let f = s.decide_delivery(&event("order.paid"), T0).expect("fires");
    assert_eq!(
        f.kind,
        Delivery::Reorder {
            hold: 2,
            order: Order::Reverse
        }
    );
    assert_eq!(s.progress.rng, before);
}

fn written(f: &DeliveryFault) -> String {
    let mut out = Out::default();
    f.write(&mut out);
    out.text
}

#[test]
fn a_fault_is_written_as_an_attempts_record_shows_it_and_read_back() {
    let cases = [
        (
            Delivery::Duplicate { times: 3 },
            r#"{"kind":"duplicate","rule":"r","times":3}"#,
        ),
        (
            Delivery::Late { ms: 5 },
            r#"{"kind":"late","rule":"r","ms":5}"#,
        ),
        (
            Delivery::Reorder {
                hold: 4,
                order: Order::Reverse,
            },
            r#"{"kind":"reorder","rule":"r","hold":4,"order":"reverse"}"#,
        ),
        (
            Delivery::Reorder {
                hold: 2,
                order: Order::Shuffle { seed: 99 },
            },
            r#"{"kind":"reorder","rule":"r","hold":2,"order":"shuffle","seed":99}"#,
        ),
        (
            Delivery::StaleTimestamp { age_s: 600 },
            r#"{"kind":"stale_timestamp","rule":"r","ageS":600}"#,
        ),
        (
            Delivery::TamperedBody,
            r#"{"kind":"tampered_body","rule":"r"}"#,
        ),
        (
            Delivery::WrongSignature,
            r#"{"kind":"wrong_signature","rule":"r"}"#,
        ),
        (
            Delivery::Drop { attempts: 2 },
            r#"{"kind":"drop","rule":"r","attempts":2}"#,
        ),
    ];
    for (kind, want) in cases {
        let fault = DeliveryFault {
            rule: "r".into(),
            kind,
        };
        let text = written(&fault);
        assert_eq!(text, want);
        let tree = read::parse(&text).expect("JSON");
        assert_eq!(DeliveryFault::read(&tree), Some(fault));
        // Neither side reads the other's.
        assert_eq!(Fault::read(&tree), None, "{text}");
    }
    let request = read::parse(r#"{"kind":"delay","rule":"r","ms":5}"#).expect("JSON");
    assert_eq!(DeliveryFault::read(&request), None);
    let bad = read::parse(r#"{"kind":"drop","rule":"r","attempts":0}"#).expect("JSON");
    assert_eq!(DeliveryFault::read(&bad), None);
}

#[test]
fn delivery_rules_are_saved_and_restored_where_they_stood() {
    let doc = json!({ "rules": [
        { "name": "some", "when": { "probability": 0.5 }, "then": { "kind": "reorder", "order": "shuffle" } },
        { "name": "dup", "when": { "event": "order.*", "every": 2 }, "then": { "kind": "duplicate", "times": 3 } },
    ]});
    let mut s = read(&doc, 42);
    let run = |s: &mut Scenario, from: i64, to: i64| -> Vec<Option<DeliveryFault>> {
        (from..to)
            .map(|i| {
                let t = if i % 3 == 0 {
                    "order.paid"
                } else {
                    "payment.succeeded"
                };
                s.decide_delivery(&event(t), T0 + i)
            })
            .collect()
    };
    run(&mut s, 0, 10);
    let mut out = Out::default();
    s.write_saved(&mut out);
    let tree = read::parse(&out.text).expect("JSON");
    let mut restored = Scenario::read_saved(&tree, WORDS).expect("restores");
    assert_eq!(restored, s);
    assert_eq!(run(&mut restored, 10, 40), run(&mut s, 10, 40));
    assert!(
        s.progress.counts.iter().all(|(_, fired)| *fired > 0),
        "{:?}",
        s.progress.counts
    );

    // Through a whole service's snapshot too: the document as given.
    let mut svc = service(42);
    set(&mut svc, &doc);
    let snapshot = svc.snapshot();
    let back = orderpay::Service::restore(
        &snapshot,
        Box::new(orderpay::sim::clock::VirtualClock::starting_at(T0)),
    )
    .expect("restores");
    assert_eq!(back.scenario_json(), svc.scenario_json());
    assert_eq!(scenario(&back)["document"], doc);
}
