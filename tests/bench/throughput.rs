//! Native throughput of the core on the same workload as tests/bench/run.mjs
//! runs in WebAssembly, so the two can be compared in one run. Prints one
//! JSON line; run through `node tests/bench/run.mjs`, or `cargo bench`.
//! Arguments: the number of clients (20000) and of rounds (3, the best
//! counts); `tests/bench/instructions.sh` runs one round under callgrind.

use std::time::Instant;

use orderpay::sim::clock::VirtualClock;
use orderpay::{RawRequest, Service, Settings};

/// One simulated client: create, read, pay (retrying a decline), mark paid.
fn client(service: &mut Service, n: u32) -> u32 {
    let body = format!(
        r#"{{"userId":"bench-{}","price":{}.5,"description":"benchmark order"}}"#,
        n % 50,
        n % 500 + 1
    );
    let created = service.handle(RawRequest::new("POST", "/api/order/create").with_body(&body));
    let order_id = match created.body.data {
        Some(orderpay::Data::Order(order)) => order.order_id,
        _ => return 1,
    };
    service.handle(RawRequest::new("GET", &format!("/api/order/{order_id}")));
    let pay = format!(r#"{{"orderId":"{order_id}","amount":1.5,"paymentMethod":"CARD"}}"#);
    let mut requests = 2;
    loop {
        requests += 1;
        if service
            .handle(RawRequest::new("POST", "/api/payment/pay").with_body(&pay))
            .body
            .code
            == 0
        {
            break;
        }
    }
    service.handle(RawRequest::new(
        "POST",
        &format!("/api/order/{order_id}/pay"),
    ));
    requests + 1
}

fn main() {
    let clients: u32 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(20_000);
    let rounds: u32 = std::env::args()
        .nth(2)
        .and_then(|a| a.parse().ok())
        .unwrap_or(3);
    let mut best = f64::MAX;
    let mut requests = 0;
    for _ in 0..rounds {
        let mut service = Service::new(
            Settings::with_seed(1),
            Box::new(VirtualClock::starting_at(0)),
        )
        .expect("settings");
        let start = Instant::now();
        requests = (0..clients).map(|n| client(&mut service, n)).sum::<u32>();
        best = best.min(start.elapsed().as_secs_f64());
    }
    println!(
        "{{\"runtime\":\"native\",\"clients\":{clients},\"requests\":{requests},\"seconds\":{best:.4},\"requestsPerSecond\":{:.0}}}",
        f64::from(requests) / best
    );
}
