//! The log records of part 6: gateway, service and response per request,
//! joined by the trace id; outcomes; trace and user headers; the bound.

mod common;

use common::*;
use orderpay::observe::{EventClass, LogStatus, Stage};
use orderpay::{RawRequest, Service, Settings};
use serde_json::{json, Value};

/// Sends a request and returns its response and the records it wrote.
fn logged(svc: &mut Service, req: RawRequest) -> (orderpay::Response, Vec<Value>) {
    let before = svc.logs(None).last().map(|r| r.seq);
    let response = svc.handle(req);
    let mut records: Vec<Value> = svc
        .logs(before)
        .iter()
        .map(|r| serde_json::to_value(r).unwrap())
        .collect();
    // Span linkage is checked here once; the exact comparisons below are
    // about the spec's fields (tests/tracing.rs covers spans and outcomes).
    let gateway_span = records[0]["spanId"].clone();
    let trace = records[0]["traceId"].clone();
    for record in &mut records {
        let map = record.as_object_mut().unwrap();
        let span = map.remove("spanId").unwrap();
        let parent = map.remove("parentSpanId").unwrap();
        map.remove("outcome");
        if map["traceId"] != trace {
            continue; // a test-data order's own request
        } else if map["stage"] == "service" {
            assert_eq!(parent, gateway_span);
        } else {
            assert_eq!((&span, &parent), (&gateway_span, &Value::Null));
        }
    }
    (response, records)
}

#[test]
fn a_create_writes_gateway_service_and_response_records_exactly() {
    let mut svc = exact_service(1, 0.0);
    let (response, records) = logged(&mut svc, create_request("u", 1.0, ""));
    let trace = trace_of(&response);
    assert!(is_fresh_trace_id(&trace), "{trace}");
    let at = T0 + ORDER_MS as i64;
    assert_eq!(
        records,
        vec![
            json!({"seq": 1, "timestamp": T0, "traceId": trace, "stage": "gateway",
                   "method": "POST", "uri": "/api/order/create", "uri_group": "/order/*"}),
            json!({"seq": 2, "timestamp": T0, "traceId": trace, "stage": "service",
                   "event_class": "order", "duration": ORDER_MS, "status": "success"}),
            json!({"seq": 3, "timestamp": at, "traceId": trace, "stage": "response",
                   "method": "POST", "uri": "/api/order/create", "uri_group": "/order/*",
                   "event_class": "order", "duration": ORDER_MS, "status": "success",
                   "httpStatus": 200, "code": 0, "msg": "success", "userId": null}),
        ]
    );
}

#[test]
fn a_successful_payment_is_logged_as_payment_success_with_the_third_party_time() {
    let mut svc = exact_service(2, 0.0);
    let order_id = create_order_id(&mut svc);
    let start = T0 + ORDER_MS as i64;
    let (response, records) = logged(&mut svc, pay_request(&order_id, 1.0, "CARD"));
    let trace = trace_of(&response);
    let duration = PAYMENT_MS + THIRD_PARTY_MS;
    let end = start + duration as i64;
    assert_eq!(
        records,
        vec![
            json!({"seq": 4, "timestamp": start, "traceId": trace, "stage": "gateway",
                   "method": "POST", "uri": "/api/payment/pay", "uri_group": "/payment/*"}),
            json!({"seq": 5, "timestamp": start, "traceId": trace, "stage": "service",
                   "event_class": "payment", "duration": duration, "status": "success"}),
            json!({"seq": 6, "timestamp": end, "traceId": trace, "stage": "response",
                   "method": "POST", "uri": "/api/payment/pay", "uri_group": "/payment/*",
                   "event_class": "payment", "duration": duration, "status": "success",
                   "httpStatus": 200, "code": 0, "msg": "success", "userId": null}),
        ]
    );
}

#[test]
fn a_third_party_failure_is_logged_as_server_error() {
    let mut svc = exact_service(3, 1.0);
    let order_id = create_order_id(&mut svc);
    let (response, records) = logged(&mut svc, pay_request(&order_id, 1.0, "CARD"));
    assert_eq!(response.status, 200);
    let trace = trace_of(&response);
    let duration = PAYMENT_MS + THIRD_PARTY_MS;
    let start = T0 + ORDER_MS as i64;
    let end = start + duration as i64;
    assert_eq!(
        records[1..],
        [
            json!({"seq": 5, "timestamp": start, "traceId": trace, "stage": "service",
                   "event_class": "payment", "duration": duration, "status": "server_error"}),
            json!({"seq": 6, "timestamp": end, "traceId": trace, "stage": "response",
                   "method": "POST", "uri": "/api/payment/pay", "uri_group": "/payment/*",
                   "event_class": "payment", "duration": duration, "status": "server_error",
                   "httpStatus": 200, "code": -1, "msg": "Third party payment failed", "userId": null}),
        ]
    );
}

#[test]
fn business_rejections_are_logged_as_success() {
    let mut svc = always_approves(4);
    let id = create_order_id(&mut svc);
    svc.handle(post(&format!("/api/order/{id}/pay")));
    let requests = [
        (create_request("u", 0.0, ""), "price must be > 0", "order"),
        (
            pay_request(&id, -1.0, "CARD"),
            "amount must be > 0",
            "payment",
        ),
        (
            post(&format!("/api/order/delete/{id}")),
            "Paid order cannot be deleted",
            "order",
        ),
        (
            post(&format!("/api/order/{id}/pay")),
            "Order already paid",
            "order",
        ),
        (get("/api/order/ORD-NOPE0000"), "Order not found", "order"),
        (
            pay_request("ORD-NOPE0000", 1.0, "CARD"),
            "Order not found",
            "payment",
        ),
        (
            get("/api/payment/PAY-NOPE0000"),
            "Payment not found",
            "payment",
        ),
        (
            post("/api/payment/refund/PAY-NOPE0000"),
            "Payment not found",
            "payment",
        ),
    ];
    for (req, msg, class) in requests {
        let (_, records) = logged(&mut svc, req);
        assert_eq!(records.len(), 3, "{msg}");
        assert_eq!(records[1]["stage"], "service", "{msg}");
        assert_eq!(records[1]["event_class"], class, "{msg}");
        assert_eq!(records[1]["status"], "success", "{msg}");
        assert_eq!(records[2]["status"], "success", "{msg}");
        assert_eq!(
            (records[2]["code"].clone(), records[2]["msg"].clone()),
            (json!(-1), json!(msg))
        );
    }
}

#[test]
fn every_request_writes_gateway_service_response_in_order_with_one_trace_id() {
    let mut svc = always_approves(5);
    let id = create_order_id(&mut svc);
    let payment = pay_ok(&mut svc, &id, 2.0, "WALLET_B");
    let pid = payment["paymentId"].as_str().unwrap().to_owned();
    svc.handle(get(&format!("/api/order/{id}")));
    svc.handle(post(&format!("/api/order/{id}/pay")));
    svc.handle(get(&format!("/api/payment/{pid}")));
    svc.handle(post(&format!("/api/payment/refund/{pid}")));
    let other = create_order_id(&mut svc);
    svc.handle(post(&format!("/api/order/delete/{other}")));
    let records = svc.logs(None);
    assert_eq!(records.len(), 8 * 3);
    let mut traces = std::collections::BTreeSet::new();
    for (i, request) in records.chunks(3).enumerate() {
        let stages: Vec<&str> = request.iter().map(stage_name).collect();
        assert_eq!(stages, ["gateway", "service", "response"], "request {i}");
        assert!(
            request.iter().all(|r| r.trace_id == request[0].trace_id),
            "request {i}"
        );
        assert!(
            traces.insert(request[0].trace_id.clone()),
            "request {i} reused a trace id"
        );
    }
    let seqs: Vec<u64> = records.iter().map(|r| r.seq).collect();
    assert_eq!(seqs, (1..=24).collect::<Vec<u64>>());
}

#[test]
fn uri_and_groups_follow_the_path_without_the_query() {
    let mut svc = service(6);
    let id = create_order_id(&mut svc);
    let cases = [
        (
            get(&format!("/api/order/{id}?verbose=1&x=2")),
            format!("/api/order/{id}"),
            "/order/*",
            "order",
        ),
        (
            post(&format!("/api/order/{id}/pay?again")),
            format!("/api/order/{id}/pay"),
            "/order/*",
            "order",
        ),
        (
            get("/api/payment/PAY-NOPE0000?a=b"),
            "/api/payment/PAY-NOPE0000".to_owned(),
            "/payment/*",
            "payment",
        ),
        (
            post("/api/payment/refund/PAY-NOPE0000?"),
            "/api/payment/refund/PAY-NOPE0000".to_owned(),
            "/payment/*",
            "payment",
        ),
        (
            get("/api/test/order/batch?count=1"),
            "/api/test/order/batch".to_owned(),
            "/test/*",
            "test",
        ),
    ];
    for (req, uri, group, class) in cases {
        let (_, records) = logged(&mut svc, req);
        assert_eq!(
            (&records[0]["uri"], &records[0]["uri_group"]),
            (&json!(uri), &json!(group))
        );
        let response = records.last().unwrap();
        assert_eq!(response["stage"], "response");
        assert_eq!(
            (&response["uri"], &response["uri_group"]),
            (&json!(uri), &json!(group))
        );
        assert_eq!(response["event_class"], class, "{uri}");
        let service = records
            .iter()
            .rev()
            .find(|r| r["stage"] == "service" && r["traceId"] == records[0]["traceId"])
            .unwrap();
        assert_eq!(service["event_class"], class, "{uri}");
    }
}

#[test]
fn client_errors_write_no_service_record_and_are_logged_as_client_error() {
    let mut svc = service(7);
    let big = format!(
        r#"{{"userId":"u","price":1,"description":"{}"}}"#,
        "x".repeat(1024 * 1024)
    );
    let cases = [
        (
            post_text("/api/order/create", "{"),
            400,
            "/api/order/create",
            json!("/order/*"),
            json!("order"),
        ),
        (
            get("/api/test/order/batch?count=0"),
            400,
            "/api/test/order/batch",
            json!("/test/*"),
            json!("test"),
        ),
        (
            get("/api/nothing/here"),
            404,
            "/api/nothing/here",
            Value::Null,
            Value::Null,
        ),
        (
            get("/api/order/create"),
            405,
            "/api/order/create",
            json!("/order/*"),
            json!("order"),
        ),
        (
            post_text("/api/payment/pay", &big),
            413,
            "/api/payment/pay",
            json!("/payment/*"),
            json!("payment"),
        ),
        (
            RawRequest::new("POST", "/api/order/create")
                .with_header("Content-Type", "text/plain")
                .with_body("{}"),
            415,
            "/api/order/create",
            json!("/order/*"),
            json!("order"),
        ),
    ];
    for (req, status, uri, group, class) in cases {
        let method = req.method.clone();
        let (response, records) = logged(&mut svc, req);
        assert_eq!(response.status, status, "{uri}");
        let trace = trace_of(&response);
        let stages: Vec<&Value> = records.iter().map(|r| &r["stage"]).collect();
        assert_eq!(
            stages,
            [&json!("gateway"), &json!("response")],
            "{status} {uri}"
        );
        let seq = records[0]["seq"].as_u64().unwrap();
        let at = records[0]["timestamp"].clone();
        assert_eq!(
            records[1],
            json!({"seq": seq + 1, "timestamp": at, "traceId": trace, "stage": "response",
                   "method": method, "uri": uri, "uri_group": group, "event_class": class,
                   "duration": null, "status": "client_error", "httpStatus": status,
                   "code": status, "msg": response.body.msg, "userId": null}),
            "{status} {uri}"
        );
    }
}

#[test]
fn a_valid_b3_trace_id_header_is_the_trace_id_in_any_header_name_case() {
    let cases = [
        ("X-B3-TraceId", "463ac35c9f6413ad"),
        ("x-b3-traceid", "463ac35c9f6413ad48485a3953bb6124"),
        ("X-B3-TRACEID", "0123456789abcdef"),
        ("x-B3-tRaCeId", "fedcba98765432100123456789abcdef"),
    ];
    for (name, trace) in cases {
        let mut svc = service(8);
        let id = create_order_id(&mut svc);
        let before = svc.logs(None).len();
        let response = svc.handle(get(&format!("/api/order/{id}")).with_header(name, trace));
        assert_eq!(response.body.code, 0);
        assert_eq!(response.header("x-b3-traceid"), Some(trace), "{name}");
        let records = &svc.logs(None)[before..];
        assert_eq!(records.len(), 3);
        assert!(
            records.iter().all(|r| r.trace_id == trace),
            "{name}: {records:?}"
        );
    }
}

#[test]
fn an_invalid_b3_trace_id_is_replaced_by_a_fresh_one() {
    let bad = [
        "",
        "463AC35C9F6413AD",                     // upper case
        "463ac35c9f6413a",                      // 15
        "463ac35c9f6413ad0",                    // 17
        "463ac35c9f6413ad48485a3953bb61240",    // 33
        "463ac35c9f6413ad48485a3953bb612",      // 31
        "g63ac35c9f6413ad",                     // not hex
        "463ac35c-9f64-13ad-4848-5a3953bb6124", // uuid form
        "463ac35c9f64 13ad",
    ];
    for trace in bad {
        let mut svc = service(9);
        let mut twin = service(9);
        let response = svc.handle(create_request("u", 1.0, "").with_header("X-B3-TraceId", trace));
        let plain = twin.handle(create_request("u", 1.0, ""));
        let fresh = trace_of(&response);
        assert!(is_fresh_trace_id(&fresh), "{trace:?} -> {fresh}");
        assert_ne!(fresh, trace);
        // The fresh id is the one the service would have drawn anyway.
        assert_eq!(fresh, trace_of(&plain), "{trace:?}");
        assert!(svc.logs(None).iter().all(|r| r.trace_id == fresh));
        assert_eq!(response.body, plain.body);
    }
}

#[test]
fn the_response_trace_header_equals_the_logged_trace_id_for_every_outcome() {
    let mut svc = service(10);
    let requests = [
        create_request("u", 1.0, ""),
        create_request("u", -1.0, ""),
        get("/api/order/ORD-NOPE0000"),
        post_text("/api/order/create", "nope"),
        get("/nowhere"),
        RawRequest::new("", "/api/order/create"),
    ];
    for req in requests {
        let before = svc.logs(None).last().map(|r| r.seq);
        let response = svc.handle(req);
        let trace = trace_of(&response);
        let records = svc.logs(before);
        assert!(!records.is_empty());
        assert!(
            records.iter().all(|r| r.trace_id == trace),
            "{:?}",
            response.body
        );
    }
}

#[test]
fn the_user_id_header_goes_into_the_response_record_only() {
    let mut svc = service(11);
    let response =
        svc.handle(create_request("body-user", 1.0, "").with_header("x-USER-id", "header-user"));
    assert_eq!(data(&response)["userId"], "body-user");
    let records = last_records(&svc, 3);
    match &records[2].stage {
        Stage::Response { user_id, .. } => assert_eq!(user_id.as_deref(), Some("header-user")),
        other => panic!("{other:?}"),
    }
    let json = serde_json::to_value(&records[2]).unwrap();
    assert_eq!(json["userId"], "header-user");
    // Without the header the record has no user.
    svc.handle(get("/api/order/ORD-NOPE0000"));
    assert_eq!(
        serde_json::to_value(&last_records(&svc, 1)[0]).unwrap()["userId"],
        Value::Null
    );
}

#[test]
fn the_user_id_header_is_logged_on_client_errors_too() {
    let mut svc = service(12);
    svc.handle(post_text("/api/order/create", "[]").with_header("X-User-Id", "who"));
    let records = last_records(&svc, 2);
    assert_eq!(serde_json::to_value(&records[1]).unwrap()["userId"], "who");
}

#[test]
fn with_a_capacity_of_five_only_the_newest_five_records_are_kept() {
    let mut settings = Settings::with_seed(13);
    settings.log_capacity = 5;
    let mut svc = service_with(settings);
    create_order_id(&mut svc);
    create_order_id(&mut svc);
    let seqs: Vec<u64> = svc.logs(None).iter().map(|r| r.seq).collect();
    assert_eq!(seqs, vec![2, 3, 4, 5, 6]);
    assert_eq!(svc.journal().dropped(), 1);
    for _ in 0..2 {
        create_order_id(&mut svc);
    }
    let records = svc.logs(None);
    assert_eq!(
        records.iter().map(|r| r.seq).collect::<Vec<_>>(),
        vec![8, 9, 10, 11, 12]
    );
    assert_eq!(svc.journal().dropped(), 7);
    assert_eq!(svc.journal().len(), 5);
    // The newest record is the last request's response.
    assert_eq!(stage_name(&records[4]), "response");
}

#[test]
fn logs_after_a_seq_are_only_the_newer_ones() {
    let mut svc = service(14);
    create_order_id(&mut svc);
    create_order_id(&mut svc);
    let newer: Vec<u64> = svc.logs(Some(4)).iter().map(|r| r.seq).collect();
    assert_eq!(newer, vec![5, 6]);
    assert!(svc.logs(Some(6)).is_empty());
}

#[test]
fn with_the_default_latency_responses_are_later_than_the_gateway_by_the_duration() {
    let mut svc = service(15);
    let id = create_order_id(&mut svc);
    for _ in 0..30 {
        svc.handle(pay_request(&id, 1.0, "CARD"));
        svc.handle(get(&format!("/api/order/{id}")));
    }
    let records = svc.logs(None);
    let mut clock = T0;
    for request in records.chunks(3) {
        let (gateway, service, response) = (&request[0], &request[1], &request[2]);
        assert_eq!(
            gateway.timestamp, clock,
            "the gateway record is at the start"
        );
        let Stage::Service { duration, .. } = service.stage else {
            panic!("{service:?}")
        };
        let Stage::Response {
            duration: response_duration,
            ..
        } = response.stage
        else {
            panic!("{response:?}")
        };
        assert_eq!(response_duration, Some(duration));
        assert!(duration > 0);
        assert_eq!(
            service.timestamp, gateway.timestamp,
            "the service span starts with the request"
        );
        assert_eq!(response.timestamp, gateway.timestamp + duration as i64);
        clock = response.timestamp;
    }
}

#[test]
fn the_typed_service_record_of_a_declined_payment_is_payment_server_error() {
    let mut svc = always_declines(16);
    let id = create_order_id(&mut svc);
    svc.handle(pay_request(&id, 1.0, "CARD"));
    let records = last_records(&svc, 3);
    let Stage::Service {
        event_class,
        status,
        ..
    } = records[1].stage
    else {
        panic!("{:?}", records[1])
    };
    assert_eq!(
        (event_class, status),
        (EventClass::Payment, LogStatus::ServerError)
    );
    let Stage::Response {
        status,
        http_status,
        code,
        ..
    } = &records[2].stage
    else {
        panic!("{:?}", records[2])
    };
    assert_eq!(
        (*status, *http_status, *code),
        (LogStatus::ServerError, 200, -1)
    );
}

#[test]
fn the_logged_uri_never_contains_the_query_even_for_a_malformed_path() {
    let mut svc = service(17);
    let response = svc.handle(get("api/order/X?token=secret#frag"));
    assert_eq!(response.status, 400);
    let records = logs_json(&svc);
    assert_eq!(records.len(), 2);
    for record in records {
        let uri = record["uri"].as_str().unwrap();
        assert!(
            !uri.contains('?') && !uri.contains("secret") && !uri.contains('#'),
            "{uri}"
        );
    }
}

#[test]
fn the_logged_uri_drops_the_fragment_as_well_as_the_query() {
    let mut svc = service(18);
    svc.handle(get("/api/order/ORD-NOPE0000?a=1#section"));
    let records = logs_json(&svc);
    assert_eq!(records[0]["uri"], "/api/order/ORD-NOPE0000");
    assert_eq!(records[2]["uri"], "/api/order/ORD-NOPE0000");
}

#[test]
fn a_blank_user_id_header_is_logged_as_no_user() {
    let mut svc = service(12);
    svc.handle(get("/api/order/ORD-NOPE0000").with_header("X-User-Id", "  "));
    assert_eq!(
        serde_json::to_value(&last_records(&svc, 1)[0]).unwrap()["userId"],
        Value::Null
    );
}
