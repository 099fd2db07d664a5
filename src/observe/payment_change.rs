//! The log record of a payment's change of state (`stage: "payment"`),
//! written in the trace of the pay that planned it: the payment, its
//! states before and after, the kind of plan, what caused it and, for a
//! failure, its code and reason.

use crate::prelude::*;

use crate::domain::payment::PREFIX;
use crate::domain::payment_plan::{Cause, Change};
use crate::json::write::escape_into;

/// The members after the ids: `,"stage":"payment","event_class":"payment",
/// "paymentId":…,"from":…,"to":…,"kind":…,"cause":{…}` and, for a failure,
/// `"failureCode"` and `"failureReason"`.
pub fn members(t: &mut String, c: &Change) {
    t.push_str(",\"stage\":\"payment\",\"event_class\":\"payment\",\"paymentId\":\"");
    c.code.push(PREFIX, t);
    for (key, value) in [
        ("\",\"from\":\"", c.from.as_str()),
        ("\",\"to\":\"", c.to.as_str()),
        ("\",\"kind\":\"", c.kind),
    ] {
        t.push_str(key);
        t.push_str(value);
    }
    t.push_str("\",\"cause\":");
    match c.by_buyer {
        Some(outcome) => {
            t.push_str("{\"rule\":\"buyer\",\"outcome\":\"");
            t.push_str(outcome.as_str());
            t.push_str("\",\"planned\":");
            cause(t, &c.cause);
            t.push('}');
        }
        None => cause(t, &c.cause),
    }
    if let Some((code, reason)) = &c.failure {
        t.push_str(",\"failureCode\":\"");
        t.push_str(code);
        t.push_str("\",\"failureReason\":");
        escape_into(t, reason);
    }
}

/// The members as one JSON object's text, for the tape.
pub fn object(c: &Change) -> String {
    let mut t = String::with_capacity(200);
    members(&mut t, c);
    // The members start with a comma: the object's brace takes its place
    // (a new string, not `replace_range`, whose splicing code is not
    // otherwise in the module).
    let mut o = String::with_capacity(t.len() + 1);
    o.push('{');
    o.push_str(t.get(1..).unwrap_or_default());
    o.push('}');
    o
}

/// `{"rule":"scenario","scenarioRule":…}` or `{"rule":"card","card":…}`.
fn cause(t: &mut String, c: &Cause) {
    match c {
        Cause::Scenario(name) => {
            t.push_str("{\"rule\":\"scenario\",\"scenarioRule\":");
            escape_into(t, name);
        }
        Cause::Card(number) => {
            t.push_str("{\"rule\":\"card\",\"card\":\"");
            t.push_str(number);
            t.push('"');
        }
    }
    t.push('}');
}
