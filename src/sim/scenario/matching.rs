//! Whether a rule matches a request, or a delivery rule an event: each
//! matcher given must hold, and a
//! field the request does not carry does not match. The route is tried
//! first, the cheapest test and the one most rules fail; an order is
//! looked up only when a pay-only rule that got that far asks.

use crate::prelude::*;

use super::delivery::{self, EVENTS_ONLY};
use super::document::{Rule, Then, When};

/// What a request is, as the rules read it. The gateway fills it in once
/// its route and body are known; what costs a look-up is asked for.
pub struct Facts<'a> {
    /// The ids (`Words::route`) of the route's documented template
    /// (`/api/order/{orderId}`) and of its group (`order`).
    pub template: u8,
    pub group: u8,
    pub method: &'a str,
    /// The body's fields (and the path's order id).
    pub fields: Fields<'a>,
    /// Whether the request is a payment that reaches the third party: the
    /// only request a pay-only kind fires on. Asked last: it looks the
    /// order up.
    pub pays: &'a dyn Fn() -> bool,
    /// A header's value by its lower-case name.
    pub header: &'a dyn Fn(&str) -> Option<&'a str>,
}

/// The fields a rule may read of a request's body (userId: else the
/// `X-User-Id` header; orderId: else the path's).
#[derive(Clone, Copy, Default)]
pub struct Fields<'a> {
    pub user_id: Option<&'a str>,
    pub payment_method: Option<&'a str>,
    pub amount: Option<f64>,
    pub order_id: Option<&'a str>,
}

/// An event as delivery rules match it: its type (`payment.succeeded`)
/// and the fields of its resource (userId: the order's, a payment's
/// order's; orderId: likewise; paymentMethod and amount: a payment's).
#[derive(Clone, Copy)]
pub struct EventFacts<'a> {
    pub event_type: &'a str,
    pub fields: Fields<'a>,
}

/// Whether `rule` matches the request (its counts and conditions aside).
/// A delivery rule's route (`delivery::EVENTS_ONLY`) is no request's.
pub fn matches(rule: &Rule, facts: &Facts) -> bool {
    let w: &When = &rule.when;
    if w.route
        .is_some_and(|r| r != facts.template && r != facts.group)
    {
        return false;
    }
    if w.method.is_some_and(|m| m != facts.method) {
        return false;
    }
    if let Some((name, value)) = &w.header {
        if (facts.header)(name) != Some(value.as_str()) {
            return false;
        }
    }
    if w.reads_body() {
        let got = &facts.fields;
        let same = |want: &Option<String>, got: Option<&str>| match want {
            None => true,
            Some(want) => got == Some(want.as_str()),
        };
        if !same(&w.user_id, got.user_id)
            || !same(&w.payment_method, got.payment_method)
            || !same(&w.order_id, got.order_id)
            || w.amount.is_some() && w.amount != got.amount
        {
            return false;
        }
    }
    !rule.then.pay_only() || (facts.pays)()
}

/// Whether `rule`, a delivery rule, matches the event (its counts and
/// conditions aside); a request's rule never does. The event is matched
/// as a request on the route `EVENTS_ONLY` would be, with no method and
/// no header (which a delivery rule never names), so the fields are
/// compared in one place.
pub fn matches_event(rule: &Rule, event: &EventFacts) -> bool {
    let as_request = Facts {
        template: EVENTS_ONLY,
        group: EVENTS_ONLY,
        method: "",
        fields: event.fields,
        pays: &|| false,
        header: &|_| None,
    };
    matches!(rule.then, Then::Delivery(_))
        && rule
            .when
            .event
            .is_none_or(|e| delivery::names(e, event.event_type))
        && matches(rule, &as_request)
}
