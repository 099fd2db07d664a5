// The typical flow of one simulated client, as natively in
// tests/bench/throughput.rs and in the WebAssembly module's
// `benchTypicalFlow` (src/wasm/bench.rs, the `boundary-bench` feature),
// each of which brings it in with `include!`, with `Data`, `RawRequest`
// and `Service` in scope: the same requests in both, so their speeds
// compare.

/// One simulated client: create, read, pay (retrying a decline), mark paid.
fn client(service: &mut Service, n: u32) -> u32 {
    let body = format!(
        r#"{{"userId":"bench-{}","price":{}.5,"description":"benchmark order"}}"#,
        n % 50,
        n % 500 + 1
    );
    let created = service.handle(RawRequest::new("POST", "/api/order/create").with_body(&body));
    let order_id = match created.body.data {
        Some(Data::Order(order)) => order.order_id,
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
