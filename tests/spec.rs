//! The spec's tables, row by row: part 3 (states and transitions), part 4
//! (endpoints, with the typical flow end to end) and part 7 (errors).

mod common;

use common::*;
use orderpay::Service;
use serde_json::{json, Value};

// ---------------------------------------------------------------- part 3: order

#[test]
fn create_returns_a_created_order_with_an_ord_id_and_created_at_from_the_clock() {
    let mut svc = exact_service(1, 0.0);
    let response = svc.handle(create_request("user-42", 99.5, "two teas"));
    assert_eq!(response.status, 200);
    let order = data(&response);
    let order_id = order["orderId"]
        .as_str()
        .expect("orderId is a string")
        .to_owned();
    assert_order_id(&order_id);
    assert_eq!(
        body(&response),
        success(json!({
            "orderId": order_id,
            "userId": "user-42",
            "price": 99.5,
            "status": "CREATED",
            "description": "two teas",
            "createdAt": T0 + ORDER_MS as i64,
        }))
    );
    assert_eq!(svc.orders().len(), 1);
}

#[test]
fn created_at_is_the_virtual_clock_time_when_the_service_handled_the_create() {
    let mut svc = service(2);
    let order = create_order(&mut svc, "u", 3.0);
    let records = last_records(&svc, 3);
    let gateway_at = records[0].timestamp;
    let answered_at = records[2].timestamp;
    assert_eq!(gateway_at, T0);
    assert_eq!(order["createdAt"].as_i64(), Some(answered_at));
    assert!(answered_at > T0, "the create took some simulated time");
}

#[test]
fn order_ids_are_ord_and_eight_upper_case_letters_or_digits_and_unique() {
    let mut svc = always_approves(3);
    let mut ids = std::collections::BTreeSet::new();
    for _ in 0..500 {
        let id = create_order_id(&mut svc);
        assert_order_id(&id);
        assert!(ids.insert(id.clone()), "{id} issued twice");
    }
}

#[test]
fn get_order_returns_the_order_as_created() {
    let mut svc = service(4);
    let created = create_order(&mut svc, "reader", 12.25);
    let id = created["orderId"].as_str().unwrap();
    let response = svc.handle(get(&format!("/api/order/{id}")));
    assert_eq!(response.status, 200);
    assert_eq!(body(&response), success(created));
}

#[test]
fn order_pay_returns_null_data_and_the_order_becomes_paid() {
    let mut svc = service(5);
    let created = create_order(&mut svc, "payer", 20.0);
    let id = created["orderId"].as_str().unwrap();
    let response = svc.handle(post(&format!("/api/order/{id}/pay")));
    assert_eq!(response.status, 200);
    assert_eq!(body(&response), success(Value::Null));
    let after = data(&svc.handle(get(&format!("/api/order/{id}"))));
    let mut expected = created.clone();
    expected["status"] = json!("PAID");
    assert_eq!(after, expected);
}

#[test]
fn deleting_an_unpaid_order_returns_null_data_and_the_order_is_gone() {
    let mut svc = service(6);
    let id = create_order_id(&mut svc);
    let response = svc.handle(post(&format!("/api/order/delete/{id}")));
    assert_eq!(response.status, 200);
    assert_eq!(body(&response), success(Value::Null));
    assert_eq!(svc.orders().len(), 0);
    let read = svc.handle(get(&format!("/api/order/{id}")));
    assert_eq!(read.status, 200);
    assert_eq!(body(&read), business_error("Order not found"));
}

#[test]
fn deleting_an_order_twice_says_order_not_found_the_second_time() {
    let mut svc = service(7);
    let id = create_order_id(&mut svc);
    svc.handle(post(&format!("/api/order/delete/{id}")));
    let again = svc.handle(post(&format!("/api/order/delete/{id}")));
    assert_eq!(again.status, 200);
    assert_eq!(body(&again), business_error("Order not found"));
}

#[test]
fn deleting_a_paid_order_is_refused_and_the_order_is_unchanged() {
    let mut svc = service(8);
    let id = create_order_id(&mut svc);
    svc.handle(post(&format!("/api/order/{id}/pay")));
    let before = data(&svc.handle(get(&format!("/api/order/{id}"))));
    let response = svc.handle(post(&format!("/api/order/delete/{id}")));
    assert_eq!(response.status, 200);
    assert_eq!(
        body(&response),
        business_error("Paid order cannot be deleted")
    );
    assert_eq!(svc.orders().len(), 1);
    let after = data(&svc.handle(get(&format!("/api/order/{id}"))));
    assert_eq!(after, before);
    assert_eq!(after["status"], json!("PAID"));
}

#[test]
fn marking_a_paid_order_paid_again_is_refused_with_order_already_paid() {
    let mut svc = service(9);
    let id = create_order_id(&mut svc);
    let first = svc.handle(post(&format!("/api/order/{id}/pay")));
    assert_eq!(body(&first), success(Value::Null));
    let second = svc.handle(post(&format!("/api/order/{id}/pay")));
    assert_eq!(second.status, 200);
    assert_eq!(body(&second), business_error("Order already paid"));
    assert_eq!(
        data(&svc.handle(get(&format!("/api/order/{id}"))))["status"],
        json!("PAID")
    );
}

// -------------------------------------------------------------- part 3: payment

#[test]
fn a_successful_payment_returns_success_with_a_pay_id_and_the_request_fields() {
    let mut svc = exact_service(10, 0.0);
    let order_id = create_order_id(&mut svc); // clock: T0 + ORDER_MS
    let response = svc.handle(pay_request(&order_id, 10.5, "CARD"));
    assert_eq!(response.status, 200);
    let payment = data(&response);
    let payment_id = payment["paymentId"].as_str().expect("paymentId").to_owned();
    assert_payment_id(&payment_id);
    assert_eq!(
        body(&response),
        success(json!({
            "paymentId": payment_id,
            "orderId": order_id,
            "amount": 10.5,
            "status": "SUCCESS",
            "paymentMethod": "CARD",
            "paidAt": T0 + (ORDER_MS + PAYMENT_MS + THIRD_PARTY_MS) as i64,
        }))
    );
    assert_eq!(svc.payments().len(), 1);
}

#[test]
fn every_documented_payment_method_is_accepted_and_echoed() {
    let mut svc = always_approves(11);
    for method in ["CARD", "WALLET_A", "WALLET_B"] {
        let order_id = create_order_id(&mut svc);
        let payment = pay_ok(&mut svc, &order_id, 10.5, method);
        assert_eq!(payment["paymentMethod"], json!(method));
        assert_eq!(payment["orderId"], json!(order_id));
    }
    assert_eq!(svc.payments().len(), 3);
}

#[test]
fn get_payment_returns_the_payment_as_made() {
    let mut svc = always_approves(12);
    let order_id = create_order_id(&mut svc);
    let payment = pay_ok(&mut svc, &order_id, 7.75, "WALLET_A");
    let id = payment["paymentId"].as_str().unwrap();
    let response = svc.handle(get(&format!("/api/payment/{id}")));
    assert_eq!(response.status, 200);
    assert_eq!(body(&response), success(payment));
}

#[test]
fn a_failed_third_party_call_is_a_business_error_and_stores_no_payment() {
    let mut svc = always_declines(13);
    let order_id = create_order_id(&mut svc);
    let response = svc.handle(pay_request(&order_id, 10.5, "CARD"));
    assert_eq!(response.status, 200);
    assert_eq!(
        body(&response),
        business_error("Third party payment failed")
    );
    assert_eq!(svc.payments().len(), 0);
}

#[test]
fn paying_through_the_payment_endpoint_does_not_change_the_order() {
    let mut svc = always_approves(14);
    let created = create_order(&mut svc, "u", 10.5);
    let id = created["orderId"].as_str().unwrap();
    pay_ok(&mut svc, id, 10.5, "CARD");
    assert_eq!(data(&svc.handle(get(&format!("/api/order/{id}")))), created);
}

#[test]
fn refunding_a_successful_payment_returns_null_data_and_the_payment_is_refunded() {
    let mut svc = always_approves(15);
    let order_id = create_order_id(&mut svc);
    let payment = pay_ok(&mut svc, &order_id, 10.5, "CARD");
    let id = payment["paymentId"].as_str().unwrap();
    let response = svc.handle(post(&format!("/api/payment/refund/{id}")));
    assert_eq!(response.status, 200);
    assert_eq!(body(&response), success(Value::Null));
    let mut expected = payment.clone();
    expected["status"] = json!("REFUNDED");
    assert_eq!(
        data(&svc.handle(get(&format!("/api/payment/{id}")))),
        expected
    );
}

#[test]
fn refunding_twice_is_refused_and_the_payment_stays_refunded() {
    let mut svc = always_approves(16);
    let order_id = create_order_id(&mut svc);
    let payment = pay_ok(&mut svc, &order_id, 10.5, "CARD");
    let id = payment["paymentId"].as_str().unwrap();
    svc.handle(post(&format!("/api/payment/refund/{id}")));
    let again = svc.handle(post(&format!("/api/payment/refund/{id}")));
    assert_eq!(again.status, 200);
    assert_eq!(
        body(&again),
        business_error("Only success payment can be refunded")
    );
    assert_eq!(
        data(&svc.handle(get(&format!("/api/payment/{id}"))))["status"],
        json!("REFUNDED")
    );
}

// ------------------------------------------------------ part 4 and 7: rejections

#[test]
fn a_price_not_above_zero_is_refused_with_http_200_and_code_minus_one() {
    for price in [
        json!(0),
        json!(0.0),
        json!(-0.0),
        json!(-1),
        json!(-0.01),
        json!(-1e300),
    ] {
        let mut svc = service(17);
        let mut twin = service(17);
        let response = svc.handle(post_json(
            "/api/order/create",
            &json!({"userId": "u", "price": price, "description": "d"}),
        ));
        assert_eq!(response.status, 200, "price {price}");
        assert_eq!(
            body(&response),
            business_error("price must be > 0"),
            "price {price}"
        );
        assert_eq!(svc.orders().len(), 0, "price {price}");
        // The refused create drew no id: the next order is the twin's first.
        assert_eq!(
            create_order_id(&mut svc),
            create_order_id(&mut twin),
            "price {price}"
        );
    }
}

#[test]
fn the_smallest_positive_price_is_accepted() {
    let mut svc = service(18);
    let order = create_order(&mut svc, "u", 0.01);
    assert_eq!(order["price"], json!(0.01));
    assert_eq!(order["status"], json!("CREATED"));
}

#[test]
fn an_amount_not_above_zero_is_refused_with_http_200_and_code_minus_one() {
    for amount in [json!(0), json!(-0.0), json!(-5), json!(-0.01)] {
        let mut svc = always_approves(19);
        let order_id = create_order_id(&mut svc);
        let response = svc.handle(post_json(
            "/api/payment/pay",
            &json!({"orderId": order_id, "amount": amount, "paymentMethod": "CARD"}),
        ));
        assert_eq!(response.status, 200, "amount {amount}");
        assert_eq!(
            body(&response),
            business_error("amount must be > 0"),
            "amount {amount}"
        );
        assert_eq!(svc.payments().len(), 0, "amount {amount}");
    }
}

#[test]
fn reading_an_unknown_order_says_order_not_found() {
    let mut svc = service(20);
    create_order_id(&mut svc);
    let response = svc.handle(get("/api/order/ORD-NOPE0000"));
    assert_eq!(response.status, 200);
    assert_eq!(body(&response), business_error("Order not found"));
}

#[test]
fn marking_an_unknown_order_paid_says_order_not_found() {
    let mut svc = service(21);
    let response = svc.handle(post("/api/order/ORD-NOPE0000/pay"));
    assert_eq!(response.status, 200);
    assert_eq!(body(&response), business_error("Order not found"));
    assert_eq!(svc.orders().len(), 0);
}

#[test]
fn deleting_an_unknown_order_says_order_not_found() {
    let mut svc = service(22);
    let id = create_order_id(&mut svc);
    let response = svc.handle(post("/api/order/delete/ORD-NOPE0000"));
    assert_eq!(response.status, 200);
    assert_eq!(body(&response), business_error("Order not found"));
    assert_eq!(svc.orders().len(), 1);
    assert_eq!(svc.handle(get(&format!("/api/order/{id}"))).body.code, 0);
}

#[test]
fn reading_an_unknown_payment_says_payment_not_found() {
    let mut svc = service(23);
    let response = svc.handle(get("/api/payment/PAY-NOPE0000"));
    assert_eq!(response.status, 200);
    assert_eq!(body(&response), business_error("Payment not found"));
}

#[test]
fn refunding_an_unknown_payment_says_payment_not_found() {
    let mut svc = service(24);
    let response = svc.handle(post("/api/payment/refund/PAY-NOPE0000"));
    assert_eq!(response.status, 200);
    assert_eq!(body(&response), business_error("Payment not found"));
}

#[test]
fn paying_for_an_unknown_order_says_order_not_found_and_stores_nothing() {
    let mut svc = always_approves(25);
    let response = svc.handle(pay_request("ORD-NOPE0000", 10.0, "CARD"));
    assert_eq!(response.status, 200);
    assert_eq!(body(&response), business_error("Order not found"));
    assert_eq!(svc.payments().len(), 0);
}

#[test]
fn paying_for_a_deleted_order_says_order_not_found() {
    let mut svc = always_approves(26);
    let id = create_order_id(&mut svc);
    svc.handle(post(&format!("/api/order/delete/{id}")));
    let response = svc.handle(pay_request(&id, 10.0, "CARD"));
    assert_eq!(body(&response), business_error("Order not found"));
    assert_eq!(svc.payments().len(), 0);
}

#[test]
fn every_response_is_json_with_a_trace_header() {
    let mut svc = service(27);
    for response in [
        svc.handle(create_request("u", 1.0, "")),
        svc.handle(get("/api/order/ORD-NOPE0000")),
        svc.handle(get("/nowhere")),
    ] {
        assert_eq!(response.header("content-type"), Some("application/json"));
        assert!(is_fresh_trace_id(&trace_of(&response)));
    }
}

// ------------------------------------------------------- part 4: typical flow

#[test]
fn the_typical_flow_of_part_4_gives_these_exact_envelopes() {
    let mut svc = exact_service(28, 0.0);
    let order_ms = ORDER_MS as i64;
    let pay_ms = (PAYMENT_MS + THIRD_PARTY_MS) as i64;

    // 1. Create an order.
    let created = svc.handle(create_request("alice", 42.5, "a book"));
    let order_id = data(&created)["orderId"]
        .as_str()
        .expect("orderId")
        .to_owned();
    assert_order_id(&order_id);
    let order = json!({
        "orderId": order_id, "userId": "alice", "price": 42.5, "status": "CREATED",
        "description": "a book", "createdAt": T0 + order_ms,
    });
    assert_eq!(
        (created.status, body(&created)),
        (200, success(order.clone()))
    );

    // 2. Read the order.
    let read = svc.handle(get(&format!("/api/order/{order_id}")));
    assert_eq!((read.status, body(&read)), (200, success(order.clone())));

    // 3. Pay via the payment endpoint.
    let paid = svc.handle(pay_request(&order_id, 42.5, "WALLET_B"));
    let payment_id = data(&paid)["paymentId"]
        .as_str()
        .expect("paymentId")
        .to_owned();
    assert_payment_id(&payment_id);
    let payment = json!({
        "paymentId": payment_id, "orderId": order_id, "amount": 42.5, "status": "SUCCESS",
        "paymentMethod": "WALLET_B", "paidAt": T0 + 2 * order_ms + pay_ms,
    });
    assert_eq!((paid.status, body(&paid)), (200, success(payment.clone())));

    // 4. Mark the order paid.
    let marked = svc.handle(post(&format!("/api/order/{order_id}/pay")));
    assert_eq!((marked.status, body(&marked)), (200, success(Value::Null)));

    // 5. Deleting the paid order fails.
    let deleted = svc.handle(post(&format!("/api/order/delete/{order_id}")));
    assert_eq!(
        (deleted.status, body(&deleted)),
        (200, business_error("Paid order cannot be deleted"))
    );

    // 6. Read the payment.
    let read_payment = svc.handle(get(&format!("/api/payment/{payment_id}")));
    assert_eq!(
        (read_payment.status, body(&read_payment)),
        (200, success(payment.clone()))
    );

    // 7. Refund the payment.
    let refunded = svc.handle(post(&format!("/api/payment/refund/{payment_id}")));
    assert_eq!(
        (refunded.status, body(&refunded)),
        (200, success(Value::Null))
    );

    the_end_state_is_a_paid_order_and_a_refunded_payment(&mut svc, order, payment);
}

/// After the typical flow: order PAID, payment REFUNDED, each request
/// logged thrice, at the simulated time the calls took.
fn the_end_state_is_a_paid_order_and_a_refunded_payment(
    svc: &mut Service,
    order: Value,
    payment: Value,
) {
    let order_ms = ORDER_MS as i64;
    let pay_ms = (PAYMENT_MS + THIRD_PARTY_MS) as i64;
    let payment_ms = PAYMENT_MS as i64;
    let order_id = order["orderId"].as_str().expect("orderId").to_owned();
    let payment_id = payment["paymentId"].as_str().expect("paymentId").to_owned();
    let mut paid_order = order;
    paid_order["status"] = json!("PAID");
    assert_eq!(
        body(&svc.handle(get(&format!("/api/order/{order_id}")))),
        success(paid_order)
    );
    let mut refunded_payment = payment;
    refunded_payment["status"] = json!("REFUNDED");
    assert_eq!(
        body(&svc.handle(get(&format!("/api/payment/{payment_id}")))),
        success(refunded_payment)
    );
    assert_eq!(svc.logs(None).len(), 9 * 3);
    // Simulated time: five order calls, one pay with the third party, three
    // more payment calls (read, refund, read).
    assert_eq!(
        svc.logs(None).last().unwrap().timestamp,
        T0 + 5 * order_ms + pay_ms + 3 * payment_ms
    );
}
