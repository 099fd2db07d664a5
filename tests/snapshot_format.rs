//! A snapshot written by the earlier, serde-based writer (format 1, before
//! `maxOrders`) restores with the hand-written reader, and is written back
//! with the same content: every order, payment, record and span, the
//! random state, the clock and the pending `forceNext`.

use orderpay::sim::clock::VirtualClock;
use orderpay::{RawRequest, Service};
use serde_json::Value;

const OLD: &str = include_str!("fixtures/snapshot-format-1.json");

fn restore(text: &str) -> Service {
    Service::restore(text, Box::new(VirtualClock::starting_at(0))).expect("restores")
}

#[test]
fn an_older_snapshot_restores_and_is_written_back_with_the_same_content() {
    let restored = restore(OLD);
    let mut again: Value = serde_json::from_str(&restored.snapshot()).expect("JSON");
    let old: Value = serde_json::from_str(OLD).expect("JSON");
    // The additions since: maxOrders, at its default, and the counters,
    // rebuilt from the records (tests/counters.rs checks them).
    assert_eq!(again["settings"]["maxOrders"], 1_000_000);
    if let Some(settings) = again["settings"].as_object_mut() {
        settings.remove("maxOrders");
    }
    assert!(again["counters"].is_object());
    if let Some(all) = again.as_object_mut() {
        all.remove("counters");
    }
    assert_eq!(again, old);
    assert_eq!(restored.forced_next().map(|(_, n)| n), Some(2));
    assert!(restored.orders().len() >= 4);
    assert!(restored.journal().len() > 20);
}

#[test]
fn an_older_snapshot_continues_like_a_new_one() {
    let mut restored = restore(OLD);
    let reply = restored.handle(
        RawRequest::new("POST", "/api/order/create")
            .with_body(r#"{"userId":"u-9","price":3,"description":"after restore"}"#),
    );
    assert_eq!((reply.status, reply.body.code), (200, 0));
    let mut twice = restore(&restore(OLD).snapshot());
    let same = twice.handle(
        RawRequest::new("POST", "/api/order/create")
            .with_body(r#"{"userId":"u-9","price":3,"description":"after restore"}"#),
    );
    assert_eq!(reply.body, same.body);
    assert_eq!(restored.logs(None), twice.logs(None));
}
