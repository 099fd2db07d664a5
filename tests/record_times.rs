//! Each log record's timestamp agrees with its span: the gateway record
//! where the gateway's span starts (the request's arrival), the service
//! record where the service's span starts, the response record where the
//! gateway's span ends (arrival plus the simulated duration), clamped
//! where the clock stops, as spans are.

mod common;

use std::collections::HashMap;

use common::*;
use orderpay::observe::{Span, Stage};
use orderpay::sim::clock::VirtualClock;
use orderpay::sim::time_limits::MAX_TIME_MS;
use orderpay::{Service, Settings};

/// Checks every record held against its span; returns how many it checked.
fn every_record_agrees_with_its_span(svc: &Service) -> usize {
    let spans: HashMap<String, Span> = svc
        .spans()
        .into_iter()
        .map(|s| (s.span_id.clone(), s))
        .collect();
    let records = svc.logs(None);
    for r in &records {
        let span = spans
            .get(&r.span_id)
            .unwrap_or_else(|| panic!("no span for {r:?}"));
        let (expected, which) = match r.stage {
            Stage::Gateway { .. } => (span.start, "gateway record at the gateway span's start"),
            Stage::Service { .. } => (span.start, "service record at the service span's start"),
            Stage::Response { .. } => (span.end, "response record at the gateway span's end"),
            Stage::Payment { .. } => (span.end, "a payment's change at its span's end"),
            Stage::Webhook { .. } => (span.start, "a webhook attempt at its span's start"),
        };
        assert_eq!(r.timestamp, expected, "{which}: {r:?}");
    }
    records.len()
}

#[test]
fn the_typical_flow_stamps_each_record_where_its_span_starts_or_ends() {
    let mut svc = service(21);
    let order = create_order_id(&mut svc);
    svc.handle(get(&format!("/api/order/{order}")));
    let pay = svc.handle(pay_request(&order, 10.5, "CARD"));
    svc.handle(post(&format!("/api/order/{order}/pay")));
    if let Some(id) = data(&pay)["paymentId"].as_str() {
        svc.handle(get(&format!("/api/payment/{id}")));
        svc.handle(post(&format!("/api/payment/refund/{id}")));
    }
    svc.handle(post(&format!("/api/order/delete/{order}")));
    svc.handle(get("/api/nowhere"));
    assert!(every_record_agrees_with_its_span(&svc) >= 17);
    // A request that took simulated time: its records are not all at one
    // time, unlike a wall clock's now.
    let records = last_records(&svc, 2);
    let paid = svc
        .logs(None)
        .into_iter()
        .filter(|r| matches!(&r.stage, Stage::Response { uri, .. } if uri == "/api/payment/pay"))
        .map(|r| r.timestamp)
        .next();
    let arrived = svc
        .logs(None)
        .into_iter()
        .find(|r| matches!(&r.stage, Stage::Gateway { uri, .. } if uri == "/api/payment/pay"))
        .map(|r| r.timestamp);
    let took: i64 = pay.header("x-sim-duration-ms").unwrap().parse().unwrap();
    assert!(took >= 60);
    assert_eq!(paid, arrived.map(|t| t + took));
    // The unknown path took none: gateway and response at one time.
    assert!(matches!(records[0].stage, Stage::Gateway { .. }));
    assert_eq!(records[0].timestamp, records[1].timestamp);
}

#[test]
fn the_test_data_runners_inner_requests_agree_with_their_spans_too() {
    let mut svc = service(22);
    let r = svc.handle(get("/api/test/order/batch?count=40"));
    assert_eq!(r.status, 200);
    let checked = every_record_agrees_with_its_span(&svc);
    assert!(checked >= 3 * 40, "{checked}");
    // The run's own response record ends after all of its orders.
    let last = svc.logs(None).pop().unwrap();
    let took: i64 = r.header("x-sim-duration-ms").unwrap().parse().unwrap();
    let first = svc.logs(None)[0].timestamp;
    assert_eq!(last.timestamp, first + took);
}

#[test]
fn where_the_clock_stops_records_stop_with_their_spans() {
    let mut settings = Settings::with_seed(23);
    settings.failure_rate = 0.0;
    let start = MAX_TIME_MS - 50;
    let mut svc = Service::new(settings, Box::new(VirtualClock::starting_at(start))).unwrap();
    let order = create_order_id(&mut svc);
    let pay = svc.handle(pay_request(&order, 10.5, "CARD"));
    assert_eq!(pay.status, 200);
    assert!(every_record_agrees_with_its_span(&svc) == 6);
    let last = svc.logs(None).pop().unwrap();
    assert_eq!(last.timestamp, MAX_TIME_MS, "clamped as the span is");
}
