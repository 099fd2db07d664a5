//! A rule's `when`: the matchers (route, method, the body's fields, a
//! header; a delivery rule's event type) and the conditions on the count, the clock and chance.

use crate::prelude::*;

use crate::json::read::Json;
use crate::sim::invalid::InvalidKind;

use super::delivery::EVENT_TYPES;
use super::document::{When, Words, MAX_TEXT};
use super::reading::{member, number, object, text, time, whole, word, At, Refusal};

const KEYS: [&str; 16] = [
    "event",
    "route",
    "method",
    "userId",
    "paymentMethod",
    "amount",
    "orderId",
    "header",
    "nth",
    "every",
    "calls",
    "from",
    "until",
    "forMs",
    "probability",
    "times",
];

/// The largest count a rule may name.
const MAX_COUNT: u64 = 1 << 32;

/// Reads `when`, with the place it is at.
pub(super) fn read(v: &Json, at: &At, words: Words) -> Result<When, Box<Refusal>> {
    let members = object(v, at, &KEYS)?;
    let mut when = When::default();
    for (key, value) in members {
        let here = At::Key(at, key);
        read_matcher(&mut when, key, value, &here, words)?;
        read_condition(&mut when, key, value, &here)?;
    }
    if let (Some(from), Some(until)) = (when.from, when.until) {
        if until <= from {
            let problem = "until: must be after from".to_owned();
            return Err(at.refuse(InvalidKind::OutOfRange, problem));
        }
    }
    Ok(when)
}

/// The matchers on what the request is.
fn read_matcher(
    w: &mut When,
    key: &str,
    v: &Json,
    at: &At,
    words: Words,
) -> Result<(), Box<Refusal>> {
    match key {
        "route" => {
            let route = text(v, at, MAX_TEXT)?;
            let what = "a documented route (/api/payment/pay, /api/order/{orderId}, …) or a group (order, payment, test)";
            w.route = Some((words.route)(&route).ok_or_else(|| at.range(what, v))?);
        }
        "method" => w.method = Some(word(v, at, &["GET", "POST"], "GET or POST")?),
        "userId" => w.user_id = Some(text(v, at, MAX_TEXT)?),
        "orderId" => w.order_id = Some(text(v, at, MAX_TEXT)?),
        "paymentMethod" => {
            let method = text(v, at, MAX_TEXT)?;
            if !(words.payment_method)(&method) {
                return Err(at.range("one of CARD, WALLET_A, WALLET_B", v));
            }
            w.payment_method = Some(method);
        }
        "amount" => w.amount = Some(number(v, at)?),
        "header" => w.header = Some(read_header(v, at)?),
        "event" => {
            let what = "an event type (order.created, order.paid, order.deleted, payment.succeeded, payment.failed, payment.requires_action, payment.pending, payment.refunded) or a group (order.*, payment.*)";
            let name = word(v, at, &EVENT_TYPES, what)?;
            w.event = EVENT_TYPES.iter().position(|e| *e == name).map(|i| i as u8);
        }
        _ => {}
    }
    Ok(())
}

/// `{name, value}`: the name a header's token, matched in any case.
fn read_header(v: &Json, at: &At) -> Result<(String, String), Box<Refusal>> {
    let members = object(v, at, &["name", "value"])?;
    let (Some(name), Some(value)) = (member(members, "name"), member(members, "value")) else {
        let problem = "expected both name and value".to_owned();
        return Err(at.refuse(InvalidKind::WrongType, problem));
    };
    let name_at = At::Key(at, "name");
    let name = text(name, &name_at, MAX_TEXT)?;
    let token = |b: u8| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b);
    if name.is_empty() || !name.bytes().all(token) {
        return Err(name_at.range(
            "a header name (letters, digits, -)",
            member(members, "name").unwrap_or(&Json::Null),
        ));
    }
    let value = text(value, &At::Key(at, "value"), MAX_TEXT)?;
    Ok((name.to_ascii_lowercase(), value))
}

/// The conditions on the count, the clock and chance.
fn read_condition(w: &mut When, key: &str, v: &Json, at: &At) -> Result<(), Box<Refusal>> {
    let count = "a whole number of calls";
    match key {
        "nth" => w.nth = Some(whole(v, at, 1, MAX_COUNT, count)?),
        "every" => w.every = Some(whole(v, at, 1, MAX_COUNT, count)?),
        "times" => w.times = Some(whole(v, at, 1, MAX_COUNT, count)?),
        "calls" => w.calls = Some(read_calls(v, at)?),
        "from" => w.from = Some(time(v, at)?),
        "until" => w.until = Some(time(v, at)?),
        "forMs" => w.for_ms = Some(whole(v, at, 1, 1 << 53, "a whole number of ms")?),
        "probability" => {
            let p = number(v, at)?;
            if !(0.0..=1.0).contains(&p) {
                return Err(at.range("a number from 0 to 1", v));
            }
            w.probability = Some(p);
        }
        _ => {}
    }
    Ok(())
}

/// `{from, to}`: the matches from N to M, inclusive.
fn read_calls(v: &Json, at: &At) -> Result<(u64, u64), Box<Refusal>> {
    let members = object(v, at, &["from", "to"])?;
    let count = "a whole number of calls";
    let from = match member(members, "from") {
        Some(n) => whole(n, &At::Key(at, "from"), 1, MAX_COUNT, count)?,
        None => 1,
    };
    let to = match member(members, "to") {
        Some(n) => whole(n, &At::Key(at, "to"), 1, MAX_COUNT, count)?,
        None => MAX_COUNT,
    };
    if to < from {
        let problem = "to: must not be before from".to_owned();
        return Err(at.refuse(InvalidKind::OutOfRange, problem));
    }
    Ok((from, to))
}
