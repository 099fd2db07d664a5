use orderpay::sim::clock::VirtualClock;
use orderpay::{RawRequest, Service, Settings};
fn svc(seed: u64) -> Service {
    Service::new(
        Settings::with_seed(seed),
        Box::new(VirtualClock::starting_at(0)),
    )
    .unwrap()
}
fn main() {
    let mut s = svc(1);
    for n in 125..131 {
        let body = format!(
            "{{\"userId\":\"u\",\"price\":1,\"x\":{}{}}}",
            "[".repeat(n - 1),
            "]".repeat(n - 1)
        );
        let r = s.handle(RawRequest::new("POST", "/api/order/create").with_body(&body));
        println!("levels {n}: {} {}", r.status, r.body.msg);
    }
    let r = s.handle(
        RawRequest::new("POST", "/api/order/create")
            .with_body(r#"{"":1,"":2,"userId":"u","price":1}"#),
    );
    println!("dup empty: {}", r.body.msg);
    let r = s.handle(RawRequest::new("GET", "/api/order/create"));
    println!("405: {}", r.body.msg);
    let r = s.handle(RawRequest::new("POST", "/api/ordr/create"));
    println!("404: {}", r.body.msg);
    for seed in 1..40u64 {
        let mut s = svc(seed);
        let r = s.handle(
            RawRequest::new("POST", "/api/order/create")
                .with_body(r#"{"userId":"u-1","price":25.5,"description":"two coffees"}"#),
        );
        let id = serde_json::to_value(&r.body).unwrap()["data"]["orderId"]
            .as_str()
            .unwrap()
            .to_owned();
        let r = s.handle(
            RawRequest::new("POST", "/api/payment/pay").with_body(&format!(
                r#"{{"orderId":"{id}","amount":25.5,"paymentMethod":"CARD"}}"#
            )),
        );
        if r.body.code != 0 {
            println!("seed {seed} fails: {}", r.body.msg);
        }
    }
}
