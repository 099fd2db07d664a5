//! The test-data endpoint: GET /api/test/order/batch?count=N.

mod common;

use std::collections::BTreeSet;

use common::*;
use orderpay::observe::{LogRecord, Stage};
use orderpay::{Service, Settings};
use serde_json::{json, Value};

fn batch(svc: &mut Service, count: &str) -> orderpay::Response {
    svc.handle(get(&format!("/api/test/order/batch?count={count}")))
}

fn order_ids(report: &Value) -> Vec<String> {
    report["orderIds"]
        .as_array()
        .expect("orderIds")
        .iter()
        .map(|v| v.as_str().unwrap().to_owned())
        .collect()
}

fn uri(record: &LogRecord) -> &str {
    match &record.stage {
        Stage::Gateway { uri, .. } | Stage::Response { uri, .. } => uri,
        Stage::Service { .. } | Stage::Payment { .. } | Stage::Webhook { .. } => "",
    }
}

#[test]
fn a_batch_reports_count_succeeded_failed_and_order_ids() {
    let mut svc = service(1);
    let response = batch(&mut svc, "50");
    assert_eq!(
        (
            response.status,
            response.body.code,
            response.body.msg.as_str()
        ),
        (200, 0, "success")
    );
    let report = data(&response);
    let keys: BTreeSet<&str> = report
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        BTreeSet::from(["count", "succeeded", "failed", "orderIds"])
    );
    let ids = order_ids(&report);
    assert_eq!(report["count"], 50);
    let (succeeded, failed) = (
        report["succeeded"].as_u64().unwrap(),
        report["failed"].as_u64().unwrap(),
    );
    assert_eq!(succeeded + failed, 50);
    assert_eq!(ids.len(), 50);
    ids.iter().for_each(|id| assert_order_id(id));
    assert_eq!(
        ids.iter().collect::<BTreeSet<_>>().len(),
        50,
        "ids are distinct"
    );
    assert_eq!(svc.orders().len(), 50);
    assert_eq!(svc.payments().len() as u64, succeeded);
}

#[test]
fn every_generated_order_exists_and_exactly_the_succeeded_ones_are_paid() {
    let mut svc = service(2);
    let report = data(&batch(&mut svc, "200"));
    let mut paid = 0;
    for id in order_ids(&report) {
        let order = data(&svc.handle(get(&format!("/api/order/{id}"))));
        assert_eq!(order["orderId"], json!(id));
        let price = order["price"].as_f64().unwrap();
        assert!((1.0..=500.0).contains(&price), "{price}");
        match order["status"].as_str().unwrap() {
            "PAID" => paid += 1,
            "CREATED" => {}
            other => panic!("{id}: status {other}"),
        }
    }
    assert_eq!(paid, report["succeeded"].as_u64().unwrap());
    assert_eq!(200 - paid, report["failed"].as_u64().unwrap());
}

#[test]
fn about_thirty_percent_of_a_2000_order_batch_fails() {
    let (low, high) = five_sigma_bounds(2000, 0.3);
    for seed in [1, 2, 3] {
        let mut svc = service(seed);
        let report = data(&batch(&mut svc, "2000"));
        let failed = report["failed"].as_u64().unwrap();
        assert!(
            (low..=high).contains(&failed),
            "seed {seed}: {failed} of 2000 failed"
        );
        assert_eq!(report["succeeded"].as_u64().unwrap() + failed, 2000);
    }
}

#[test]
fn a_batch_follows_the_failure_rate_setting() {
    let mut approving = always_approves(3);
    let report = data(&batch(&mut approving, "40"));
    assert_eq!(
        (report["succeeded"].clone(), report["failed"].clone()),
        (json!(40), json!(0))
    );
    assert_eq!(approving.payments().len(), 40);
    let mut declining = always_declines(3);
    let report = data(&batch(&mut declining, "40"));
    assert_eq!(
        (report["succeeded"].clone(), report["failed"].clone()),
        (json!(0), json!(40))
    );
    assert_eq!(declining.payments().len(), 0);
    for id in order_ids(&report) {
        assert_eq!(
            data(&declining.handle(get(&format!("/api/order/{id}"))))["status"],
            "CREATED"
        );
    }
}

/// The records split into runs of one trace id.
fn runs_of_one_trace(records: &[LogRecord]) -> Vec<&[LogRecord]> {
    let mut runs: Vec<&[LogRecord]> = Vec::new();
    let mut start = 0;
    for i in 1..=records.len() {
        if i == records.len() || records[i].trace_id != records[start].trace_id {
            runs.push(&records[start..i]);
            start = i;
        }
    }
    runs
}

#[test]
fn each_generated_order_has_its_own_trace_id_shared_by_its_requests() {
    let mut svc = service(4);
    let response = batch(&mut svc, "60");
    let batch_trace = trace_of(&response);
    let report = data(&response);
    let ids = order_ids(&report);
    let records = svc.logs(None);
    // The batch's own gateway record first, its service and response last;
    // between them the generated requests, three records each.
    assert_eq!(records.first().unwrap().trace_id, batch_trace);
    assert_eq!(stage_name(&records[0]), "gateway");
    let n = records.len();
    assert_eq!(
        (stage_name(&records[n - 2]), stage_name(&records[n - 1])),
        ("service", "response")
    );
    assert!(records[n - 2..].iter().all(|r| r.trace_id == batch_trace));
    let inner = &records[1..n - 2];

    let runs = runs_of_one_trace(inner);
    assert_eq!(runs.len(), 60, "one run of records per generated order");
    let traces: BTreeSet<&str> = runs.iter().map(|r| r[0].trace_id.as_str()).collect();
    assert_eq!(traces.len(), 60, "trace ids differ between orders");
    assert!(!traces.contains(batch_trace.as_str()));

    let mut paid = 0;
    for (run, id) in runs.iter().zip(&ids) {
        assert!(is_fresh_trace_id(&run[0].trace_id));
        let uris: Vec<&str> = run.iter().step_by(3).map(uri).collect();
        let stages: Vec<&str> = run.iter().map(stage_name).collect();
        assert_eq!(
            stages
                .chunks(3)
                .filter(|c| *c == ["gateway", "service", "response"])
                .count(),
            run.len() / 3
        );
        let status = data(&svc.handle(get(&format!("/api/order/{id}"))))["status"].clone();
        if run.len() == 9 {
            paid += 1;
            assert_eq!(
                uris,
                [
                    "/api/order/create",
                    "/api/payment/pay",
                    &format!("/api/order/{id}/pay")
                ]
            );
            assert_eq!(status, "PAID");
        } else {
            assert_eq!(run.len(), 6, "{id}");
            assert_eq!(uris, ["/api/order/create", "/api/payment/pay"]);
            assert_eq!(status, "CREATED");
        }
        // The generated client's X-User-Id is the order's userId.
        let order = data(&svc.handle(get(&format!("/api/order/{id}"))));
        let Stage::Response { user_id, .. } = &run[2].stage else {
            panic!()
        };
        assert_eq!(user_id.as_deref(), order["userId"].as_str());
    }
    assert_eq!(paid, report["succeeded"].as_u64().unwrap());
}

#[test]
fn the_batch_is_logged_as_a_test_event_lasting_all_its_requests() {
    let mut svc = exact_service(5, 0.3);
    let report = data(&batch(&mut svc, "30"));
    let succeeded = report["succeeded"].as_u64().unwrap();
    let expected = TEST_MS + 30 * (ORDER_MS + PAYMENT_MS + THIRD_PARTY_MS) + succeeded * ORDER_MS;
    let records = svc.logs(None);
    let n = records.len();
    let json: Vec<Value> = records[n - 2..]
        .iter()
        .map(|r| serde_json::to_value(r).unwrap())
        .collect();
    let end = T0 + expected as i64;
    assert_eq!(json[0]["stage"], "service");
    assert_eq!(
        (
            &json[0]["event_class"],
            &json[0]["duration"],
            &json[0]["status"]
        ),
        (&json!("test"), &json!(expected), &json!("success"))
    );
    assert_eq!(
        json[0]["timestamp"], T0,
        "the service record at its span's start"
    );
    assert_eq!(
        (&json[1]["uri"], &json[1]["uri_group"], &json[1]["duration"]),
        (
            &json!("/api/test/order/batch"),
            &json!("/test/*"),
            &json!(expected)
        )
    );
    assert_eq!(json[1]["timestamp"], end);
    assert_eq!(records[0].timestamp, T0);
}

#[test]
fn count_bounds_one_and_ten_thousand_are_accepted() {
    let mut svc = service(6);
    let one = data(&batch(&mut svc, "1"));
    assert_eq!((one["count"].clone(), order_ids(&one).len()), (json!(1), 1));
    let mut settings = Settings::with_seed(6);
    settings.log_capacity = 0;
    let mut big = service_with(settings);
    let report = data(&batch(&mut big, "10000"));
    assert_eq!(report["count"], 10000);
    assert_eq!(order_ids(&report).len(), 10000);
    assert_eq!(big.orders().len(), 10000);
}

#[test]
fn bad_counts_are_400_naming_count_and_generate_nothing() {
    let cases = [
        ("?count=0", "\"0\""),
        ("?count=10001", "\"10001\""),
        ("?count=abc", "\"abc\""),
        ("", "nothing"),
        ("?other=5", "nothing"),
        ("?count=-1", "\"-1\""),
        ("?count=", "\"\""),
        ("?count=1.5", "\"1.5\""),
        ("?count=+5", "\"+5\""),
        ("?count=99999999999", "\"99999999999\""),
    ];
    for (query, got) in cases {
        let mut svc = service(7);
        let response = svc.handle(get(&format!("/api/test/order/batch{query}")));
        assert_eq!(response.status, 400, "{query}");
        assert_eq!(
            body(&response),
            json!({"code": 400, "msg": format!("count: must be a whole number from 1 to 10000, got {got}"), "data": null}),
            "{query}"
        );
        assert!(response.body.msg.starts_with("count:"));
        assert_eq!(svc.orders().len(), 0, "{query}");
        assert_eq!(svc.payments().len(), 0, "{query}");
        assert_eq!(
            svc.logs(None).len(),
            2,
            "{query}: gateway and response only"
        );
    }
}
