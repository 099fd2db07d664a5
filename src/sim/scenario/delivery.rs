//! The delivery faults: the kinds of `then` that act on a webhook's
//! delivery rather than on a request (`duplicate`, `late`, `reorder`,
//! `stale_timestamp`, `tampered_body`, `wrong_signature`, `drop`), their
//! bounds, the event types a delivery rule names, and the order a
//! `reorder` releases its held events in. `delivery_read` reads them;
//! the core applies them.

use crate::prelude::*;

use alloc::rc::Rc;

use crate::sim::random::Rng;

/// The delivery kinds, as the document names them.
pub const DELIVERY_KINDS: [&str; 7] = [
    "duplicate",
    "late",
    "reorder",
    "stale_timestamp",
    "tampered_body",
    "wrong_signature",
    "drop",
];

/// The event types `when.event` names, and the two groups after them.
pub const EVENT_TYPES: [&str; 10] = [
    "order.created",
    "order.paid",
    "order.deleted",
    "payment.succeeded",
    "payment.failed",
    "payment.requires_action",
    "payment.pending",
    "payment.refunded",
    "order.*",
    "payment.*",
];

/// The most deliveries a `duplicate` makes of one event to one endpoint.
pub const MAX_DUPLICATES: u64 = 10;
/// The most events a `reorder` holds.
pub const MAX_HOLD: u64 = 100;
/// The most attempts a `drop` loses: all ten of the retry schedule.
pub const MAX_DROPPED: u64 = 10;
/// The oldest a stale timestamp may be: seven days, in seconds.
pub const MAX_AGE_S: u64 = 604_800;
/// The latest a `late` delivery may be: seven days, as a payment's change.
pub const MAX_LATE_MS: u64 = 604_800_000;

/// What a delivery rule does to the delivery of one event to one endpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Delivery {
    /// Delivered `times` times in all (2 or more), each a delivery of its own.
    Duplicate { times: u32 },
    /// The first attempt `ms` after the event, not at once.
    Late { ms: u64 },
    /// Held until `hold` events are, then released in `order`.
    Reorder { hold: u32, order: Order },
    /// Signed with a timestamp `age_s` seconds before the attempt's time.
    StaleTimestamp { age_s: u64 },
    /// The body changed after it was signed.
    TamperedBody,
    /// Signed with another secret.
    WrongSignature,
    /// The first `attempts` attempts lost on the sender's side: no request
    /// reaches the receiver; the retry schedule goes on.
    Drop { attempts: u32 },
}

/// The order a `reorder` releases its held events in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    Reverse,
    /// Seeded: in a rule, 0; in a fault, the seed drawn from the
    /// scenario's stream when it fired (53 bits, so JSON keeps it).
    Shuffle {
        seed: u64,
    },
}

impl Delivery {
    /// The kind, as the document names it.
    pub fn kind(&self) -> &'static str {
        let i = match self {
            Delivery::Duplicate { .. } => 0,
            Delivery::Late { .. } => 1,
            Delivery::Reorder { .. } => 2,
            Delivery::StaleTimestamp { .. } => 3,
            Delivery::TamperedBody => 4,
            Delivery::WrongSignature => 5,
            Delivery::Drop { .. } => 6,
        };
        DELIVERY_KINDS[i]
    }
}

impl Order {
    /// The held events' places in the order they are delivered: the
    /// `i`th delivered is the `permutation(n)[i]`th held.
    pub fn permutation(self, n: usize) -> Vec<usize> {
        match self {
            Order::Reverse => (0..n).rev().collect(),
            Order::Shuffle { seed } => shuffled(n, seed),
        }
    }
}

/// A seeded shuffle of `0..n` (Fisher–Yates on its own stream from
/// `seed`), never the order given when `n` is 2 or more: a `reorder` always
/// reorders. The same `n` and `seed` give the same permutation.
pub fn shuffled(n: usize, seed: u64) -> Vec<usize> {
    let mut rng = Rng::new(seed);
    let mut places: Vec<usize> = (0..n).collect();
    loop {
        for i in (1..n).rev() {
            let j = rng.below(i as u64 + 1) as usize;
            places.swap(i, j);
        }
        if n < 2 || places.iter().enumerate().any(|(i, p)| i != *p) {
            return places;
        }
    }
}

/// The fault a delivery rule gives one event's delivery to one endpoint:
/// the rule's name and its kind with its parameters.
#[derive(Debug, Clone, PartialEq)]
pub struct DeliveryFault {
    pub rule: Rc<str>,
    pub kind: Delivery,
}

/// Whether `event` (an id in `EVENT_TYPES`) names `event_type`.
pub(super) fn names(event: u8, event_type: &str) -> bool {
    match EVENT_TYPES.get(usize::from(event)) {
        Some(&"order.*") => event_type.starts_with("order."),
        Some(&"payment.*") => event_type.starts_with("payment."),
        Some(name) => *name == event_type,
        None => false,
    }
}

/// A delivery rule's `when.route`: an id no request's template or group
/// has, so the request matcher's first test turns the rule away, and a
/// request pays nothing for the delivery rules beside its own.
pub const EVENTS_ONLY: u8 = u8::MAX;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shuffle_is_a_permutation_never_the_order_given_and_the_same_for_a_seed() {
        for n in 2..12 {
            for seed in 0..50 {
                let p = shuffled(n, seed);
                let mut sorted = p.clone();
                sorted.sort_unstable();
                assert_eq!(sorted, (0..n).collect::<Vec<_>>());
                assert!(p.iter().enumerate().any(|(i, x)| i != *x), "{n} {seed}");
                assert_eq!(p, shuffled(n, seed));
            }
        }
        assert_eq!(shuffled(0, 1), Vec::<usize>::new());
        assert_eq!(shuffled(1, 1), vec![0]);
        assert_eq!(Order::Reverse.permutation(3), vec![2, 1, 0]);
    }

    #[test]
    fn an_event_matcher_names_a_type_or_a_group() {
        let id = |t: &str| EVENT_TYPES.iter().position(|e| *e == t).unwrap() as u8;
        assert!(names(id("payment.succeeded"), "payment.succeeded"));
        assert!(!names(id("payment.succeeded"), "payment.failed"));
        assert!(names(id("order.*"), "order.paid"));
        assert!(!names(id("order.*"), "payment.paid"));
        assert!(names(id("payment.*"), "payment.refunded"));
        assert!(!names(EVENTS_ONLY, "order.paid"));
    }
}
