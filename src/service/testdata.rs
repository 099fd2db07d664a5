//! The test-data endpoint: generates orders that each go the way a client's
//! would (create, pay, and mark paid when the payment went through), through
//! the gateway, with a trace id of their own and their own log records.

use crate::domain::{BatchReport, PaymentMethod};
use crate::gateway::exchange::exchange;
use crate::gateway::{Backend, Data, RawRequest, Response};
use crate::json::Out;
use crate::observe::TraceId;

fn body(members: impl FnOnce(&mut Out)) -> String {
    let mut out = Out::with_capacity(128);
    out.begin_object();
    members(&mut out);
    out.end_object();
    out.text
}

/// Runs `count` simulated clients. Returns the report and the simulated
/// time their requests took together.
pub fn run(svc: &mut Backend, count: u32) -> (BatchReport, u64) {
    let mut report = BatchReport {
        count,
        succeeded: 0,
        failed: 0,
        order_ids: Vec::new(),
    };
    let mut spent = 0;
    for _ in 0..count {
        let trace_id = TraceId::fresh(&mut svc.streams.traces).hex();
        let rng = &mut svc.streams.batch;
        let user = format!("batch-user-{}", 1 + rng.below(20));
        let price = (100 + rng.below(49_901)) as f64 / 100.0;
        let method = PaymentMethod::ALL[rng.below(3) as usize].as_str();
        let call = |method: &str, path: &str| {
            RawRequest::new(method, path)
                .with_header("X-B3-TraceId", &trace_id)
                .with_header("X-User-Id", &user)
        };

        let create = call("POST", "/api/order/create").with_body(&body(|out| {
            out.key("userId");
            out.str(&user);
            out.key("price");
            out.num(price);
            out.key("description");
            out.plain("generated test order");
        }));
        let (created, ms) = send(svc, create);
        spent += ms;
        let Some(Data::Order(order)) = created.body.data else {
            continue;
        };
        report.order_ids.push(order.order_id.clone());

        let pay = call("POST", "/api/payment/pay").with_body(&body(|out| {
            out.key("orderId");
            out.str(&order.order_id);
            out.key("amount");
            out.num(price);
            out.key("paymentMethod");
            out.plain(method);
        }));
        let (paid, ms) = send(svc, pay);
        spent += ms;
        if paid.body.code != 0 {
            report.failed += 1;
            continue;
        }
        report.succeeded += 1;
        let (_, ms) = send(
            svc,
            call("POST", &format!("/api/order/{}/pay", order.order_id)),
        );
        spent += ms;
    }
    (report, spent)
}

fn send(svc: &mut Backend, request: RawRequest) -> (Response, u64) {
    let exchange = exchange(svc, request, run);
    (exchange.response, exchange.duration.unwrap_or(0))
}
