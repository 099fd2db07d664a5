//! The delivery kinds of `then` read and checked (`delivery.rs` says
//! what each does), and the refusal of a matcher a rule's side cannot
//! use: a request's in a delivery rule, `event` in a request's rule.

use crate::prelude::*;

use super::delivery::{
    Delivery, Order, MAX_AGE_S, MAX_DROPPED, MAX_DUPLICATES, MAX_HOLD, MAX_LATE_MS,
};
use super::reading::{whole, word, At, Given, Refusal};
use crate::sim::invalid::InvalidKind;

/// A `then` of a delivery kind; `get` finds a member beside its path, as
/// `parse::read_then` hands it; `record`: as a fault's record writes it
/// (a shuffle with its `seed`).
pub(super) fn read<'j, 'a, 'p>(
    kind: &str,
    get: &dyn Fn(&'static str) -> Given<'j, 'a, 'p>,
    record: bool,
) -> Result<Delivery, Box<Refusal>> {
    let count = |name: &'static str, min: u64, max: u64, default: u64, what: &str| match get(name) {
        Some((v, at)) => whole(v, &at, min, max, what),
        None => Ok(default),
    };
    let calls = "a whole number of deliveries";
    Ok(match kind {
        "duplicate" => Delivery::Duplicate {
            times: count("times", 2, MAX_DUPLICATES, 2, calls)? as u32,
        },
        "late" => Delivery::Late {
            ms: count("ms", 1, MAX_LATE_MS, 60_000, "a whole number of ms")?,
        },
        "reorder" => Delivery::Reorder {
            hold: count("hold", 2, MAX_HOLD, 2, "a whole number of events")? as u32,
            order: read_order(get("order"), get("seed"), record)?,
        },
        "stale_timestamp" => Delivery::StaleTimestamp {
            age_s: count("ageS", 1, MAX_AGE_S, 600, "a whole number of seconds")?,
        },
        "tampered_body" => Delivery::TamperedBody,
        "wrong_signature" => Delivery::WrongSignature,
        _ => Delivery::Drop {
            attempts: count("attempts", 1, MAX_DROPPED, 1, "a whole number of attempts")? as u32,
        },
    })
}

/// A reorder's `order`: `reverse` (the default) or `shuffle`; in a
/// record, a shuffle's `seed` beside it.
fn read_order(order: Given, seed: Given, record: bool) -> Result<Order, Box<Refusal>> {
    let shuffle = match order {
        Some((v, at)) => word(v, &at, &["reverse", "shuffle"], "reverse or shuffle")? == "shuffle",
        None => false,
    };
    let seed = match seed {
        Some((v, at)) if record && shuffle => whole(v, &at, 0, (1 << 53) - 1, "a seed")?,
        Some((_, at)) => {
            let problem = "only in a shuffle's record".to_owned();
            return Err(at.refuse(InvalidKind::WrongType, problem));
        }
        None => 0,
    };
    Ok(match shuffle {
        true => Order::Shuffle { seed },
        false => Order::Reverse,
    })
}

/// The refusal of a matcher a rule's kind cannot use: `what` it matches,
/// and what the rule's kind matches instead.
pub(super) fn wrong_matcher(at: &At, delivery: bool) -> Box<Refusal> {
    let problem = if delivery {
        "matches a request; a delivery kind's rule matches events: use event, userId, orderId, paymentMethod or amount"
    } else {
        "matches an event; only a delivery kind's rule (duplicate, late, reorder, stale_timestamp, tampered_body, wrong_signature, drop) takes it"
    };
    at.refuse(InvalidKind::WrongType, problem.to_owned())
}
