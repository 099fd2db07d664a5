//! The order service: create, read, mark paid, delete, and the state
//! machine of the spec's part 3 (CREATED, then PAID; deleted only unpaid).

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::id;
use super::money::Money;
use super::rejection::Rejection;

pub const MAX_USER_ID_CHARS: usize = 64;
pub const MAX_DESCRIPTION_CHARS: usize = 1000;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Order {
    pub order_id: String,
    pub user_id: String,
    pub price: Money,
    pub status: OrderStatus,
    pub description: String,
    pub created_at: i64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum OrderStatus {
    Created,
    Paid,
}

impl OrderStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            OrderStatus::Created => "CREATED",
            OrderStatus::Paid => "PAID",
        }
    }
}

/// A create-order request that parsed: only valid values inside.
#[derive(Debug, Clone, PartialEq)]
pub struct NewOrder {
    pub user_id: String,
    pub price: Money,
    pub description: String,
}

/// Every order of one service. Deleted ids are remembered so that an id
/// is never issued twice.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Orders {
    live: BTreeMap<String, Order>,
    deleted: BTreeSet<String>,
    /// For each order content (by hash), how many ids it has had: the
    /// next identical order starts there instead of re-trying them all.
    made: BTreeMap<u64, u64>,
}

impl Orders {
    /// The id comes from the seed and the order's content, so a failure
    /// seen on an order replays in a fresh service with the same seed by
    /// creating the same order: its id, and so its payment outcomes, match.
    pub fn create(&mut self, new: NewOrder, seed: u64, now: i64) -> Order {
        let mut key = String::with_capacity(new.user_id.len() + new.description.len() + 24);
        key.push_str(&new.user_id);
        key.push('\u{0}');
        push_display(&mut key, new.price.get());
        key.push('\u{0}');
        key.push_str(&new.description);
        let hash = crate::sim::random::fnv1a(key.as_bytes());
        let taken = |id: &str| self.live.contains_key(id) || self.deleted.contains(id);
        let (order_id, next) = id::keyed(
            "ORD",
            seed,
            &key,
            self.made.get(&hash).copied().unwrap_or(0),
            taken,
        );
        self.made.insert(hash, next);
        let order = Order {
            order_id: order_id.clone(),
            user_id: new.user_id,
            price: new.price,
            status: OrderStatus::Created,
            description: new.description,
            created_at: now,
        };
        self.live.insert(order_id, order.clone());
        order
    }

    pub fn get(&self, order_id: &str) -> Result<&Order, Rejection> {
        self.live.get(order_id).ok_or(Rejection::OrderNotFound)
    }

    /// CREATED to PAID. Marking a PAID order again is refused, so that a
    /// client that pays twice sees it rather than a silent success.
    pub fn mark_paid(&mut self, order_id: &str) -> Result<(), Rejection> {
        let order = self
            .live
            .get_mut(order_id)
            .ok_or(Rejection::OrderNotFound)?;
        match order.status {
            OrderStatus::Created => {
                order.status = OrderStatus::Paid;
                Ok(())
            }
            OrderStatus::Paid => Err(Rejection::OrderAlreadyPaid),
        }
    }

    pub fn delete(&mut self, order_id: &str) -> Result<(), Rejection> {
        match self.get(order_id)?.status {
            OrderStatus::Paid => Err(Rejection::PaidOrderCannotBeDeleted),
            OrderStatus::Created => {
                self.live.remove(order_id);
                self.deleted.insert(order_id.to_owned());
                Ok(())
            }
        }
    }

    pub fn len(&self) -> usize {
        self.live.len()
    }

    pub fn is_empty(&self) -> bool {
        self.live.is_empty()
    }

    /// The live orders by id, the deleted ids, and the ids made per content
    /// hash: what a restored snapshot is checked against.
    pub(crate) fn parts(&self) -> OrderParts<'_> {
        (&self.live, &self.deleted, &self.made)
    }
}

pub(crate) type OrderParts<'a> = (
    &'a BTreeMap<String, Order>,
    &'a BTreeSet<String>,
    &'a BTreeMap<u64, u64>,
);

/// `value` as `{}` writes it (the shortest text that reads back, with no
/// exponent), without the formatting machinery for the usual prices: a
/// number of cents below 2^43 is written as its digits. Others go the
/// long way. The order ids depend on this text, so it must not change.
fn push_display(out: &mut String, value: f64) {
    let cents = (value * 100.0).round();
    if cents >= 0.0 && cents < (1u64 << 43) as f64 && cents / 100.0 == value {
        let cents = cents as u64;
        crate::json::write::push_uint(out, cents / 100);
        let fraction = cents % 100;
        if fraction != 0 {
            out.push('.');
            out.push(char::from(b'0' + (fraction / 10) as u8));
            if fraction % 10 != 0 {
                out.push(char::from(b'0' + (fraction % 10) as u8));
            }
        }
    } else {
        use std::fmt::Write as _;
        let _ = write!(out, "{value}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn new_order() -> NewOrder {
        NewOrder {
            user_id: "u1".into(),
            price: Money::positive(10.0).unwrap(),
            description: String::new(),
        }
    }

    #[test]
    fn prices_are_written_as_display_writes_them() {
        let mut rng = crate::sim::random::Rng::new(5);
        let samples = (0..20_000).map(|_| (1 + rng.below(10_000_000)) as f64 / 100.0);
        let odd = [
            0.1,
            0.3,
            1e-7,
            12.0,
            1e300,
            123456789.125,
            0.07,
            5e12,
            9e12 + 0.01,
        ];
        for value in samples.chain(odd) {
            let mut out = String::new();
            push_display(&mut out, value);
            assert_eq!(out, format!("{value}"));
        }
    }

    #[test]
    fn created_then_paid_then_not_deletable() {
        let mut orders = Orders::default();
        let order = orders.create(new_order(), 1, 1000);
        assert_eq!(
            (order.status, order.created_at),
            (OrderStatus::Created, 1000)
        );
        assert_eq!(orders.mark_paid(&order.order_id), Ok(()));
        assert_eq!(
            orders.get(&order.order_id).map(|o| o.status),
            Ok(OrderStatus::Paid)
        );
        assert_eq!(
            orders.mark_paid(&order.order_id),
            Err(Rejection::OrderAlreadyPaid)
        );
        assert_eq!(
            orders.delete(&order.order_id),
            Err(Rejection::PaidOrderCannotBeDeleted)
        );
        assert!(orders.get(&order.order_id).is_ok());
    }

    #[test]
    fn an_unpaid_order_is_deleted_and_then_unknown() {
        let mut orders = Orders::default();
        let order = orders.create(new_order(), 1, 0);
        assert_eq!(orders.delete(&order.order_id), Ok(()));
        assert_eq!(
            orders.get(&order.order_id).err(),
            Some(Rejection::OrderNotFound)
        );
        assert_eq!(
            orders.delete(&order.order_id),
            Err(Rejection::OrderNotFound)
        );
        assert_eq!(
            orders.mark_paid(&order.order_id),
            Err(Rejection::OrderNotFound)
        );
        // The same seed and content would make the same id; the deleted one is skipped.
        let again = orders.create(new_order(), 1, 0);
        assert_ne!(again.order_id, order.order_id);
    }
}
