//! What a scenario's delivery rule does to the delivery of one event to
//! one endpoint, applied: the scenario decides (`Scenario::decide_delivery`,
//! once per event and endpoint), this file makes the deliveries
//! (`duplicate`: several; `late`: the first attempt later; `reorder`: held,
//! then released in the rule's order) and shapes each attempt the fault
//! touches (`stale_timestamp`, `tampered_body`, `wrong_signature`, `drop`),
//! which names the fault in its record.

use crate::prelude::*;

use alloc::rc::Rc;

use super::backend::Backend;
use crate::domain::delivery::{after, Delivery};
use crate::domain::due::DueWork;
use crate::domain::order;
use crate::domain::transition::Detail;
use crate::sim::scenario::{self, DeliveryFault, EventFacts, Fields};

/// The deliveries of event `seq` (at `at`) to `endpoint`, made as the
/// scenario's delivery rules say, each put on the due queue.
pub(crate) fn deliver(svc: &mut Backend, seq: u64, at: i64, endpoint: u64) {
    let fault = decide(svc, seq);
    let Some(fault) = fault else {
        let n = svc.deliveries.add(seq, endpoint, Some(at));
        svc.due.push(at, DueWork::Attempt(n));
        return;
    };
    let (times, due) = match fault.kind {
        scenario::Delivery::Duplicate { times } => (times.max(1), Some(at)),
        scenario::Delivery::Late { ms } => (1, Some(after(at, ms))),
        scenario::Delivery::Reorder { .. } => (1, None),
        _ => (1, Some(at)),
    };
    for _ in 0..times {
        let n = svc.deliveries.add(seq, endpoint, due);
        if let Some(d) = svc.deliveries.get_mut(n) {
            d.fault = Some(Box::new(fault.clone()));
        }
        match due {
            Some(due) => svc.due.push(due, DueWork::Attempt(n)),
            None => hold(svc, &fault, n, at),
        }
    }
}

/// Holds delivery `n` for a `reorder`; once the rule holds its count,
/// releases them all at `now`, a millisecond apart, in the rule's order.
fn hold(svc: &mut Backend, fault: &DeliveryFault, n: u64, now: i64) {
    let scenario::Delivery::Reorder { hold, order } = fault.kind else {
        return;
    };
    svc.deliveries.held.push((Rc::clone(&fault.rule), n));
    let held = svc.deliveries.held.iter().filter(|(r, _)| *r == fault.rule);
    let held: Vec<u64> = held.map(|&(_, n)| n).collect();
    if held.len() < hold as usize {
        return;
    }
    svc.deliveries.held.retain(|(r, _)| *r != fault.rule);
    for (i, place) in order.permutation(held.len()).into_iter().enumerate() {
        let (Some(&n), due) = (held.get(place), after(now, i as u64)) else {
            continue;
        };
        if let Some(d) = svc.deliveries.get_mut(n) {
            d.next_at = Some(due);
            svc.due.push(due, DueWork::Attempt(n));
        }
    }
}

/// The scenario's decision for event `seq`, when it has delivery rules.
fn decide(svc: &mut Backend, seq: u64) -> Option<DeliveryFault> {
    let has_rules = svc.scenario.as_ref()?.has_delivery_rules();
    if !has_rules {
        return None;
    }
    let event = svc.events.get(seq)?;
    let (order_id, user, method, amount) = match (&event.detail, event.kind.as_str()) {
        (Detail::Declined(amount, method, _), _) => {
            let user = svc.orders.row(event.code).map(|r| Rc::clone(&r.user_id));
            (event.code, user, Some(method.as_str()), Some(amount.get()))
        }
        (_, t) if t.starts_with("payment.") => {
            let row = svc.payments.row(event.code);
            let order = row.map_or(event.code, |r| r.order);
            let user = svc.orders.row(order).map(|r| Rc::clone(&r.user_id));
            let method = row.map(|r| r.method.as_str());
            (order, user, method, row.map(|r| r.amount.get()))
        }
        (Detail::Gone(gone), _) => (event.code, Some(Rc::clone(&gone.user_id)), None, None),
        _ => {
            let user = svc.orders.row(event.code).map(|r| Rc::clone(&r.user_id));
            (event.code, user, None, None)
        }
    };
    let order_id = order_id.text(order::PREFIX);
    let facts = EventFacts {
        event_type: event.kind.as_str(),
        fields: Fields {
            user_id: user.as_deref(),
            payment_method: method,
            amount,
            order_id: Some(&order_id),
        },
    };
    let now = event.at;
    svc.scenario.as_mut()?.decide_delivery(&facts, now)
}

/// How attempt `n` of `d` goes out: its timestamp (Unix s), the body sent
/// and the one signed (when they differ), whether it is signed wrongly,
/// whether it is dropped, and the fault that touched it.
pub(crate) struct Shaped {
    pub timestamp: i64,
    pub tampered: bool,
    pub wrong: bool,
    pub drop: bool,
    pub fault: Option<DeliveryFault>,
}

/// Attempt `n` of `d`, due at `due`, as its delivery's fault shapes it.
pub(crate) fn shape(d: &Delivery, n: u32, due: i64) -> Shaped {
    let mut shaped = Shaped {
        timestamp: due.div_euclid(1000),
        tampered: false,
        wrong: false,
        drop: false,
        fault: None,
    };
    let Some(fault) = d.fault.as_deref() else {
        return shaped;
    };
    let touched = match fault.kind {
        scenario::Delivery::StaleTimestamp { age_s } => {
            let age = i64::try_from(age_s).unwrap_or(i64::MAX);
            shaped.timestamp = shaped.timestamp.saturating_sub(age);
            true
        }
        scenario::Delivery::TamperedBody => {
            shaped.tampered = true;
            true
        }
        scenario::Delivery::WrongSignature => {
            shaped.wrong = true;
            true
        }
        scenario::Delivery::Drop { attempts } => {
            shaped.drop = n <= attempts;
            shaped.drop
        }
        _ => n == 1,
    };
    if touched {
        shaped.fault = Some(fault.clone());
    }
    shaped
}

/// The body a tampered attempt sends: the event's text with a member
/// added after it was signed, still JSON.
pub(crate) fn tampered(body: &str) -> String {
    let rest = body.strip_prefix('{').unwrap_or(body);
    let mut text = String::with_capacity(body.len() + 17);
    text.push_str("{\"tampered\":true,");
    text.push_str(rest);
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tampered_body_is_still_json_and_differs() {
        let body = r#"{"id":"evt_1","object":"event"}"#;
        let t = tampered(body);
        assert_ne!(t, body);
        assert!(t.starts_with("{\"tampered\":true,\"id\""), "{t}");
    }
}
