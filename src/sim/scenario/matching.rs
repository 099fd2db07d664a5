//! Whether a rule matches a request: each matcher given must hold, and a
//! field the request does not carry does not match.

use crate::prelude::*;

use super::document::{Rule, When};

/// What a request is, as the rules read it. The gateway fills it in once
/// its route and body are known.
pub struct Facts<'a> {
    /// The ids (`Words::route`) of the route's documented template
    /// (`/api/order/{orderId}`) and of its group (`order`).
    pub template: u8,
    pub group: u8,
    pub method: &'a str,
    /// Whether the request is a payment that reaches the third party: the
    /// only request a pay-only kind fires on.
    pub pays: bool,
    pub user_id: Option<&'a str>,
    pub payment_method: Option<&'a str>,
    pub amount: Option<f64>,
    pub order_id: Option<&'a str>,
    /// A header's value by its lower-case name.
    pub header: &'a dyn Fn(&str) -> Option<&'a str>,
}

/// Whether `rule` matches the request (its counts and conditions aside).
pub fn matches(rule: &Rule, facts: &Facts) -> bool {
    if rule.then.pay_only() && !facts.pays {
        return false;
    }
    let w: &When = &rule.when;
    let same = |want: &Option<String>, got: Option<&str>| match want {
        None => true,
        Some(want) => got == Some(want.as_str()),
    };
    if w.route
        .is_some_and(|id| id != facts.template && id != facts.group)
    {
        return false;
    }
    if w.method.is_some_and(|m| m != facts.method) {
        return false;
    }
    if !same(&w.user_id, facts.user_id)
        || !same(&w.payment_method, facts.payment_method)
        || !same(&w.order_id, facts.order_id)
    {
        return false;
    }
    if w.amount.is_some() && w.amount != facts.amount {
        return false;
    }
    match &w.header {
        None => true,
        Some((name, value)) => (facts.header)(name) == Some(value.as_str()),
    }
}
