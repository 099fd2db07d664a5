//! The service record names the rule that decided a payment: `"scenario"`
//! and the rule's name in `scenarioRule` when a scenario's rule did. A
//! snapshot keeps both; one written before them (a scenario's outcome
//! under `"draw"`, counters with no `byRule.scenario`) still restores.
//! `byRule.scenario` is there once a scenario's rule decided an attempt.

mod common;

use common::*;
use orderpay::sim::clock::VirtualClock;
use orderpay::sim::third_party::DecidedBy;
use orderpay::Service;
use serde_json::{json, Value};

fn restore(text: &str) -> Result<Service, String> {
    Service::restore(text, Box::new(VirtualClock::starting_at(0))).map_err(|e| e.msg)
}

/// A service under `insufficient-funds` that paid twice, both declined.
fn declined_twice() -> Service {
    let mut svc = service(4);
    svc.set_scenario(Some(
        r#"{"rules":[{"name":"every payment declined","when":{"route":"/api/payment/pay"},"then":{"kind":"decline","code":"insufficient_funds"}}]}"#,
    ))
        .expect("a scenario");
    let order = create_order_id(&mut svc);
    for _ in 0..2 {
        let reply = svc.handle(pay_request(&order, 10.5, "CARD"));
        assert_eq!(reply.body.code, -1);
    }
    svc
}

fn outcomes(svc: &Service) -> Vec<Value> {
    let logs: Value = serde_json::from_str(&svc.logs_json(None)).expect("JSON");
    logs.as_array()
        .expect("records")
        .iter()
        .filter_map(|r| r.get("outcome").cloned())
        .collect()
}

#[test]
fn a_scenarios_decline_names_its_rule_in_every_form_and_round_trips() {
    let svc = declined_twice();
    for outcome in outcomes(&svc) {
        assert_eq!(outcome["rule"], json!("scenario"));
        assert_eq!(outcome["scenarioRule"], json!("every payment declined"));
        assert_eq!(outcome["declineCode"], json!("insufficient_funds"));
    }
    let decision = svc
        .logs(None)
        .into_iter()
        .find_map(|r| match r.stage {
            orderpay::observe::Stage::Service { outcome, .. } => outcome,
            _ => None,
        })
        .expect("a decision");
    assert_eq!(decision.rule, DecidedBy::Scenario);
    assert_eq!(
        decision.scenario_rule.as_deref(),
        Some("every payment declined")
    );
    assert_eq!(decision.decline_code.as_deref(), Some("insufficient_funds"));
    let counters: Value = serde_json::from_str(&svc.counters_json()).expect("JSON");
    assert_eq!(
        counters["payments"]["byRule"]["scenario"],
        json!({"approved": 0, "declined": 2})
    );
    let restored = restore(&svc.snapshot()).expect("restores");
    assert_eq!(restored.logs_json(None), svc.logs_json(None));
    assert_eq!(restored.counters_json(), svc.counters_json());
}

#[test]
fn a_snapshot_written_before_scenario_was_a_rule_still_restores() {
    let svc = declined_twice();
    let mut old: Value = serde_json::from_str(&svc.snapshot()).expect("JSON");
    // As it was written before: the outcome under "draw", no scenarioRule,
    // and the counters' attempts under draw, with no `scenario`.
    for record in old["journal"]["records"].as_array_mut().expect("records") {
        if let Some(outcome) = record.get_mut("outcome").and_then(Value::as_object_mut) {
            outcome.insert("rule".into(), json!("draw"));
            outcome.shift_remove("scenarioRule");
        }
    }
    let by_rule = &mut old["counters"]["payments"]["byRule"];
    by_rule["draw"] = json!({"approved": 0, "declined": 2});
    by_rule
        .as_object_mut()
        .expect("byRule")
        .shift_remove("scenario");
    let restored = restore(&old.to_string()).expect("an older snapshot restores");
    for outcome in outcomes(&restored) {
        assert_eq!(outcome["rule"], json!("draw"));
        assert!(outcome.get("scenarioRule").is_none());
        assert_eq!(outcome["declineCode"], json!("insufficient_funds"));
    }
    let counters: Value = serde_json::from_str(&restored.counters_json()).expect("JSON");
    assert!(counters["payments"]["byRule"].get("scenario").is_none());
    assert_eq!(counters["payments"]["byRule"]["draw"]["declined"], json!(2));
    assert_eq!(counters["payments"]["declined"], json!(2));
}

#[test]
fn counters_have_no_by_rule_scenario_until_a_rule_decides() {
    let mut svc = service(4);
    let order = create_order_id(&mut svc);
    svc.handle(pay_request(&order, 10.5, "CARD"));
    let counters: Value = serde_json::from_str(&svc.counters_json()).expect("JSON");
    let by_rule = counters["payments"]["byRule"].as_object().expect("byRule");
    assert_eq!(
        by_rule.keys().collect::<Vec<_>>(),
        ["draw", "header", "forced-next"]
    );
}

#[test]
fn a_scenario_rule_without_what_a_scenario_did_is_refused() {
    let mut svc = service(4);
    let order = create_order_id(&mut svc);
    svc.handle(pay_request(&order, 10.5, "CARD"));
    let text = svc.snapshot();
    let mut bad: Value = serde_json::from_str(&text).expect("JSON");
    for record in bad["journal"]["records"].as_array_mut().expect("records") {
        if let Some(outcome) = record.get_mut("outcome") {
            outcome["rule"] = json!("scenario");
        }
    }
    let by_rule = &mut bad["counters"]["payments"]["byRule"];
    let draw = by_rule["draw"].clone();
    by_rule["scenario"] = draw;
    by_rule["draw"] = json!({"approved": 0, "declined": 0});
    let Err(refused) = restore(&bad.to_string()) else {
        panic!("a \"scenario\" outcome with nothing a scenario did restored");
    };
    assert!(
        refused.contains(".rule: \"scenario\" goes with"),
        "{refused}"
    );
}
