//! Snapshots: a service restored from one continues exactly as the
//! original would have.

use orderpay::sim::clock::VirtualClock;
use orderpay::{RawRequest, Service, Settings};

fn service(seed: u64) -> Service {
    Service::new(
        Settings::with_seed(seed),
        Box::new(VirtualClock::starting_at(1_700_000_000_000)),
    )
    .unwrap()
}

fn create(s: &mut Service, n: u32) -> String {
    let body = format!(
        r#"{{"userId":"u{n}","price":{}.5,"description":"d"}}"#,
        n + 1
    );
    let r = s.handle(RawRequest::new("POST", "/api/order/create").with_body(&body));
    serde_json::to_value(&r.body).unwrap()["data"]["orderId"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// A run of creates, pays and mark-paids; returns every response as JSON.
fn run(s: &mut Service, from: u32, to: u32) -> Vec<String> {
    let mut out = Vec::new();
    for n in from..to {
        let id = create(s, n);
        let pay = format!(r#"{{"orderId":"{id}","amount":1,"paymentMethod":"CARD"}}"#);
        let paid = s.handle(RawRequest::new("POST", "/api/payment/pay").with_body(&pay));
        let marked = s.handle(RawRequest::new("POST", &format!("/api/order/{id}/pay")));
        out.push(serde_json::to_string(&(paid.body, marked.body)).unwrap());
    }
    out
}

#[test]
fn a_restored_service_continues_exactly_as_the_original() {
    let mut original = service(21);
    run(&mut original, 0, 10);
    let snapshot = original.snapshot();
    let mut restored = Service::restore(&snapshot, Box::new(VirtualClock::starting_at(0))).unwrap();
    assert_eq!(run(&mut original, 10, 30), run(&mut restored, 10, 30));
    assert_eq!(original.logs(None), restored.logs(None));
    assert_eq!(original.snapshot(), restored.snapshot());
}

#[test]
fn a_snapshot_round_trips_to_the_same_text() {
    let mut s = service(4);
    run(&mut s, 0, 5);
    let snapshot = s.snapshot();
    let restored = Service::restore(&snapshot, Box::new(VirtualClock::starting_at(0))).unwrap();
    assert_eq!(restored.snapshot(), snapshot);
    assert_eq!(restored.orders().len(), 5);
}

#[test]
fn the_virtual_clock_comes_back_with_the_snapshot() {
    let mut s = service(4);
    s.advance(5_000);
    let now = s.now();
    let mut restored =
        Service::restore(&s.snapshot(), Box::new(VirtualClock::starting_at(0))).unwrap();
    assert_eq!(restored.now(), now);
}

#[test]
fn a_broken_snapshot_is_refused_with_a_reason() {
    for bad in ["", "{}", "[1,2]", r#"{"format":2}"#] {
        let error = Service::restore(bad, Box::new(VirtualClock::starting_at(0)))
            .err()
            .unwrap_or_default();
        assert!(error.starts_with("snapshot: "), "{bad}: {error}");
    }
    let mut s = service(1);
    run(&mut s, 0, 1);
    let tampered = s.snapshot().replace("\"price\":1.5", "\"price\":-3");
    assert!(Service::restore(&tampered, Box::new(VirtualClock::starting_at(0))).is_err());
}

/// A Pact provider state's order (`place_order`): under the id asked
/// for, read back by the gateway, kept by a snapshot, and refused for a
/// malformed or taken id, a price not above 0, or past maxOrders,
/// changing nothing.
#[test]
fn an_order_placed_under_a_chosen_id_is_read_back_and_snapshotted() {
    let mut s = service(3);
    let at = s.place_order("ORD-PACT0001", "u1", 9.5, "tea").unwrap();
    let got = s.handle(RawRequest::new("GET", "/api/order/ORD-PACT0001"));
    let data = &serde_json::to_value(&got.body).unwrap()["data"];
    assert_eq!(data["orderId"], "ORD-PACT0001");
    assert_eq!(
        (data["userId"].as_str(), data["price"].as_f64()),
        (Some("u1"), Some(9.5))
    );
    assert_eq!(
        (data["status"].as_str(), data["createdAt"].as_i64()),
        (Some("CREATED"), Some(at))
    );
    for (id, price) in [
        ("ORD-PACT0001", 1.0),
        ("ORD-pact0002", 1.0),
        ("ORD-PACT002", 1.0),
        ("ORD-PACT0002", 0.0),
    ] {
        assert_eq!(s.place_order(id, "u1", price, ""), None, "{id} {price}");
    }
    assert_eq!(s.orders().len(), 1);
    let restored = Service::restore(&s.snapshot(), Box::new(VirtualClock::starting_at(0))).unwrap();
    assert_eq!(restored.snapshot(), s.snapshot());
    // The same content created later gets an id of its own.
    assert_ne!(create(&mut s, 0), "ORD-PACT0001");
    let mut full = Service::new(
        Settings {
            max_orders: 1,
            ..Settings::with_seed(1)
        },
        Box::new(VirtualClock::starting_at(0)),
    )
    .unwrap();
    assert!(full.place_order("ORD-PACT0001", "u1", 1.0, "").is_some());
    assert_eq!(full.place_order("ORD-PACT0002", "u1", 1.0, ""), None);
}
