//! Bounded memory: past `maxOrders`, creating an order is a 507 that names
//! the setting and how to make room, and changes nothing; nothing is
//! evicted, and deleting an order makes room again.

mod common;

use common::*;
use orderpay::Settings;

fn bounded(max_orders: usize) -> orderpay::Service {
    let mut settings = Settings::with_seed(3);
    settings.max_orders = max_orders;
    service_with(settings)
}

#[test]
fn past_max_orders_a_create_is_507_naming_the_setting_and_changes_nothing() {
    let mut svc = bounded(2);
    let first = create_order(&mut svc, "u-1", 1.5)["orderId"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    create_order(&mut svc, "u-2", 2.5);
    let snapshot = svc.snapshot();
    let refused = svc.handle(create_request("u-3", 3.5, "one too many"));
    assert_eq!(refused.status, 507);
    assert_eq!(refused.body.code, 507);
    assert_eq!(refused.body.data, None);
    assert!(
        refused.body.msg.starts_with("maxOrders: "),
        "{}",
        refused.body.msg
    );
    assert!(
        refused.body.msg.contains("delete orders"),
        "{}",
        refused.body.msg
    );
    assert!(refused.body.msg.contains("reset"), "{}", refused.body.msg);
    assert_eq!(svc.orders().len(), 2);
    // Nothing evicted: the first order is still there.
    assert_eq!(svc.handle(get(&format!("/api/order/{first}"))).body.code, 0);
    // Nothing else changed either: the same state but for the log.
    let mut twin = orderpay::Service::restore(
        &snapshot,
        Box::new(orderpay::sim::clock::VirtualClock::starting_at(0)),
    )
    .unwrap();
    twin.handle(create_request("u-3", 3.5, "one too many"));
    assert_eq!(svc.orders(), twin.orders());
    // Deleting an order makes room.
    assert_eq!(
        svc.handle(post(&format!("/api/order/delete/{first}")))
            .body
            .code,
        0
    );
    assert_eq!(
        svc.handle(create_request("u-3", 3.5, "now it fits")).status,
        200
    );
}

#[test]
fn the_507_is_logged_as_a_server_error_without_a_service_record() {
    let mut svc = bounded(0);
    svc.handle(create_request("u-1", 1.0, ""));
    let logs = logs_json(&svc);
    assert_eq!(logs.len(), 2, "{logs:?}");
    assert_eq!(logs[1]["httpStatus"], 507);
    assert_eq!(logs[1]["status"], "server_error");
}

#[test]
fn the_default_is_a_million_and_old_snapshots_get_it() {
    let svc = service(1);
    assert_eq!(svc.settings().max_orders, 1_000_000);
    let old = svc.snapshot().replace(",\"maxOrders\":1000000", "");
    assert!(!old.contains("maxOrders"));
    let restored = orderpay::Service::restore(
        &old,
        Box::new(orderpay::sim::clock::VirtualClock::starting_at(0)),
    )
    .unwrap();
    assert_eq!(restored.settings().max_orders, 1_000_000);
}
