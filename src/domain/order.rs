//! The order service: create, read, mark paid, delete, and the state
//! machine of the spec's part 3 (CREATED, then PAID; deleted only unpaid).

use crate::prelude::*;

use alloc::rc::Rc;

use super::chunks::Chunks;
use super::code::Code;
use super::hashing::{ByCode, ByText};
use super::id;
use super::money::Money;
use super::rejection::Rejection;
use super::transition::{EventType, Gone, Transition};

pub const MAX_USER_ID_CHARS: usize = 64;
pub const MAX_DESCRIPTION_CHARS: usize = 1000;

#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct Order {
    pub order_id: String,
    pub user_id: String,
    pub price: Money,
    pub status: OrderStatus,
    pub description: String,
    pub created_at: i64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "SCREAMING_SNAKE_CASE"))]
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

/// One kept order, compact: its id as a code, its texts shared with
/// every other order that has the same ones.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Row {
    pub code: Code,
    pub user_id: Rc<str>,
    pub description: Rc<str>,
    pub price: Money,
    pub created_at: i64,
    pub status: OrderStatus,
}

impl Row {
    pub fn order(&self) -> Order {
        Order {
            order_id: self.code.text(PREFIX),
            user_id: String::from(&*self.user_id),
            price: self.price,
            status: self.status,
            description: String::from(&*self.description),
            created_at: self.created_at,
        }
    }
}

pub const PREFIX: &str = "ORD";

/// Texts kept once however many orders carry them, and let go when the
/// last of those orders is deleted.
#[derive(Debug, Clone, Default)]
pub(crate) struct Texts(HashSet<Rc<str>, ByText>);

impl Texts {
    pub fn share(&mut self, text: &str) -> Rc<str> {
        if let Some(kept) = self.0.get(text) {
            return Rc::clone(kept);
        }
        let kept: Rc<str> = Rc::from(text);
        self.0.insert(Rc::clone(&kept));
        kept
    }

    /// How many texts are kept.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Forgets a text no order holds any more (its last holder is `text`;
    /// a deleted order's event may keep it, outside this table).
    pub fn release(&mut self, text: &Rc<str>) {
        if Rc::strong_count(text) == 2 {
            self.0.remove(&**text);
        }
    }
}

/// Every order of one service: rows in a vector, found by code through an
/// index (a hash table: a lookup runs on every request that names an
/// order). Deleted ids are remembered (as codes) so that an id is never
/// issued twice. Every table is hashed, none ordered: only a snapshot
/// lists them in order, and it sorts them when it is written.
#[derive(Debug, Clone, Default)]
pub struct Orders {
    pub(crate) rows: Chunks<Row>,
    pub(crate) index: HashMap<Code, u32, ByCode>,
    pub(crate) deleted: HashSet<Code, ByCode>,
    /// For each order content (by hash), how many ids it has had: the
    /// next identical order starts there instead of re-trying them all.
    /// The key is already a hash, so it is spread as a code is.
    pub(crate) made: HashMap<u64, u64, ByCode>,
    pub(crate) texts: Texts,
}

impl PartialEq for Orders {
    fn eq(&self, other: &Orders) -> bool {
        self.rows.len() == other.rows.len()
            && self.deleted == other.deleted
            && self.made == other.made
            && self.rows.iter().all(|r| other.row(r.code) == Some(r))
    }
}

impl Orders {
    pub(crate) fn row(&self, code: Code) -> Option<&Row> {
        self.index
            .get(&code)
            .and_then(|&i| self.rows.get(i as usize))
    }

    fn find(&self, order_id: &str) -> Option<usize> {
        let code = Code::parse(PREFIX, order_id)?;
        self.index.get(&code).map(|&i| i as usize)
    }

    /// Keeps a row (a new order, or one read from a snapshot).
    pub(crate) fn keep(&mut self, row: Row) {
        self.index.insert(row.code, self.rows.len() as u32);
        self.rows.push(row);
    }

    /// The id comes from the seed and the order's content, so a failure
    /// seen on an order replays in a fresh service with the same seed by
    /// creating the same order: its id, and so its payment outcomes, match.
    pub fn create(&mut self, new: NewOrder, seed: u64, now: i64) -> (Order, Transition) {
        let code = self.add(None, &new.user_id, new.price, &new.description, (seed, now));
        let made = Transition::order(EventType::OrderCreated, code);
        let order = Order {
            order_id: code.text(PREFIX),
            user_id: new.user_id,
            price: new.price,
            status: OrderStatus::Created,
            description: new.description,
            created_at: now,
        };
        (order, made)
    }

    /// An order under an id the caller picked (a Pact provider state's
    /// "an order ORD-… exists"); `None` when that id is live or was
    /// deleted. Counted in `made` as an id of its content, so a snapshot
    /// of it checks; a later create of that content draws past it.
    pub fn place(
        &mut self,
        code: Code,
        user_id: &str,
        price: Money,
        description: &str,
        now: i64,
    ) -> Option<()> {
        if self.index.contains_key(&code) || self.deleted.contains(&code) {
            return None;
        }
        self.add(Some(code), user_id, price, description, (0, now));
        Some(())
    }

    /// `create` without the answer: keeps the order and returns its code.
    /// The test-data runner creates thousands of orders a call and reads
    /// none of them back, so it borrows the texts and copies nothing.
    /// `chosen`: the id to keep it under (`place`), else drawn. The
    /// caller makes the `Transition` of a created order (`place` has none).
    pub(crate) fn add(
        &mut self,
        chosen: Option<Code>,
        user_id: &str,
        price: Money,
        description: &str,
        (seed, now): (u64, i64),
    ) -> Code {
        let user_id = self.texts.share(user_id);
        let description = self.texts.share(description);
        self.insert(chosen, user_id, price, description, (seed, now))
    }

    /// `add` with the texts already shared (`Texts::share` of this
    /// table): the test-data runner shares its few texts once a run, not
    /// once an order.
    pub(crate) fn add_shared(
        &mut self,
        user_id: Rc<str>,
        price: Money,
        description: Rc<str>,
        seed: u64,
        now: i64,
    ) -> (Code, Transition) {
        let code = self.insert(None, user_id, price, description, (seed, now));
        (code, Transition::order(EventType::OrderCreated, code))
    }

    /// Keeps a new order under `chosen`, or the id its content draws
    /// from the seed; either way counted in `made` for its content.
    fn insert(
        &mut self,
        chosen: Option<Code>,
        user_id: Rc<str>,
        price: Money,
        description: Rc<str>,
        (seed, now): (u64, i64),
    ) -> Code {
        let hash = content_hash(&user_id, price, &description);
        let taken = |c: Code| self.index.contains_key(&c) || self.deleted.contains(&c);
        let made = self.made.entry(hash).or_insert(0);
        let (code, next) = match chosen {
            Some(code) => (code, made.wrapping_add(1)),
            None => id::keyed_code(seed, hash, *made, taken),
        };
        *made = next;
        let row = Row {
            code,
            user_id,
            description,
            price,
            created_at: now,
            status: OrderStatus::Created,
        };
        self.keep(row);
        code
    }

    /// Room for `more` orders in the tables, made at once rather than by
    /// doubling as they come: for a run of test data.
    pub(crate) fn reserve(&mut self, more: usize) {
        self.index.reserve(more);
        self.made.reserve(more);
    }

    pub fn get(&self, order_id: &str) -> Result<Order, Rejection> {
        self.find(order_id)
            .and_then(|i| self.rows.get(i))
            .map(Row::order)
            .ok_or(Rejection::OrderNotFound)
    }

    pub fn exists(&self, order_id: &str) -> bool {
        self.existing(order_id).is_some()
    }

    /// The code of the order with this id, if there is one: read once
    /// by a payment, which then counts, judges and records it by code.
    pub(crate) fn existing(&self, order_id: &str) -> Option<Code> {
        let code = Code::parse(PREFIX, order_id)?;
        self.index.contains_key(&code).then_some(code)
    }

    /// CREATED to PAID. Marking a PAID order again is refused, so that a
    /// client that pays twice sees it rather than a silent success.
    pub fn mark_paid(&mut self, order_id: &str) -> Result<Transition, Rejection> {
        let i = self.find(order_id).ok_or(Rejection::OrderNotFound)?;
        let row = self.rows.get_mut(i).ok_or(Rejection::OrderNotFound)?;
        match row.status {
            OrderStatus::Created => {
                row.status = OrderStatus::Paid;
                Ok(Transition::order(EventType::OrderPaid, row.code))
            }
            OrderStatus::Paid => Err(Rejection::OrderAlreadyPaid),
        }
    }

    /// Deletes a CREATED order; the transition shows it as it was.
    pub fn delete(&mut self, order_id: &str) -> Result<Transition, Rejection> {
        let i = self.find(order_id).ok_or(Rejection::OrderNotFound)?;
        match self.rows.get(i).map(|r| r.status) {
            None => Err(Rejection::OrderNotFound),
            Some(OrderStatus::Paid) => Err(Rejection::PaidOrderCannotBeDeleted),
            Some(OrderStatus::Created) => {
                let Some(row) = self.rows.swap_remove(i) else {
                    return Err(Rejection::OrderNotFound);
                };
                self.index.remove(&row.code);
                if let Some(moved) = self.rows.get(i) {
                    self.index.insert(moved.code, i as u32);
                }
                self.deleted.insert(row.code);
                self.texts.release(&row.user_id);
                self.texts.release(&row.description);
                let gone = Gone {
                    user_id: row.user_id,
                    description: row.description,
                    price: row.price,
                    created_at: row.created_at,
                };
                Ok(Transition::order_gone(row.code, gone))
            }
        }
    }

    /// The rows' positions in code order (codes sort as ids do).
    pub(crate) fn sorted_rows(&self) -> Vec<u32> {
        let keys = self.index.iter().map(|(&code, &i)| (code, i)).collect();
        super::code::in_code_order(keys)
            .into_iter()
            .map(|(_, i)| i)
            .collect()
    }

    /// The deleted ids in code order, as snapshots list them.
    pub(crate) fn sorted_deleted(&self) -> Vec<Code> {
        let keys = self.deleted.iter().map(|&code| (code, 0)).collect();
        super::code::in_code_order(keys)
            .into_iter()
            .map(|(code, _)| code)
            .collect()
    }

    /// The content hashes and their counts, by hash, as snapshots list them.
    pub(crate) fn sorted_made(&self) -> Vec<(u64, u64)> {
        let made: Vec<(u64, u64)> = self.made.iter().map(|(&h, &n)| (h, n)).collect();
        let keys = made.iter().enumerate();
        let keys = keys.map(|(i, &(hash, _))| (Code(hash), i as u32)).collect();
        super::code::in_code_order(keys)
            .into_iter()
            .filter_map(|(_, i)| made.get(i as usize).copied())
            .collect()
    }

    pub fn len(&self) -> usize {
        self.rows.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }
}

/// The hash (FNV-1a) of an order's content as its id is keyed by: user,
/// price as `{}` writes it, description, joined by NUL. Hashed as it is
/// written, so no key text is made.
fn content_hash(user_id: &str, price: Money, description: &str) -> u64 {
    let mut h = Fnv::default();
    h.add(user_id.as_bytes());
    h.add(b"\0");
    with_display(price.get(), |text| h.add(text));
    h.add(b"\0");
    h.add(description.as_bytes());
    h.0
}

/// FNV-1a fed piece by piece, so what is written is hashed, not kept.
struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Self {
        Fnv(crate::sim::random::fnv1a(b""))
    }
}

impl Fnv {
    fn add(&mut self, bytes: &[u8]) {
        self.0 = crate::sim::random::fnv1a_from(self.0, bytes);
    }
}

/// `value` as `{}` writes it (the shortest text that reads back, with no
/// exponent), without the formatting machinery for the usual prices: a
/// number of cents below 2^43 is written as its digits. Others go the
/// long way. The order ids depend on this text, so it must not change.
#[cfg(test)]
fn push_display(out: &mut impl core::fmt::Write, value: f64) {
    with_display(value, |text| {
        let _ = out.write_str(core::str::from_utf8(text).unwrap_or_default());
    });
}

/// `push_display`'s text, handed to `take` as bytes: hashed as it is,
/// with no check that digits are text.
fn with_display(value: f64, take: impl FnOnce(&[u8])) {
    let cents = (value * 100.0).round();
    if cents >= 0.0 && cents < (1u64 << 43) as f64 && cents / 100.0 == value {
        let cents = cents as u64;
        // Written backwards into a buffer large enough for any of them:
        // the fraction's digits and `.`, then the whole part's digits.
        let mut text = [0u8; 24];
        let mut at = text.len();
        let fraction = cents % 100;
        if fraction != 0 {
            // `.05` and `.5`, never `.50`.
            let (tens, ones) = (fraction / 10, fraction % 10);
            if ones != 0 {
                at -= 1;
                text[at] = b'0' + ones as u8;
            }
            at -= 1;
            text[at] = b'0' + tens as u8;
            at -= 1;
            text[at] = b'.';
        }
        let mut whole = cents / 100;
        // By iterator, from the end of what is left: no index to check.
        let (left, _) = text.split_at_mut(at);
        for slot in left.iter_mut().rev() {
            *slot = b'0' + (whole % 10) as u8;
            at -= 1;
            whole /= 10;
            if whole == 0 {
                break;
            }
        }
        take(text.get(at..).unwrap_or_default());
    } else {
        let mut text = String::new();
        crate::json::number::push_display(&mut text, value);
        take(text.as_bytes());
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
    fn an_existing_order_gives_its_code_and_no_other_id_does() {
        let mut orders = Orders::default();
        let id = orders.create(new_order(), 1, 0).0.order_id;
        let code = Code::parse(PREFIX, &id);
        assert!(code.is_some());
        assert_eq!(orders.existing(&id), code);
        assert!(orders.exists(&id));
        for other in ["ORD-ZZZZZZZZ", "ord-", "", "PAY-AAAAAAAA", "ORD-aaaaaaaa"] {
            assert_eq!(orders.existing(other), None, "{other}");
            assert!(!orders.exists(other));
        }
        assert_eq!(
            orders.delete(&id).map(|t| t.kind),
            Ok(EventType::OrderDeleted)
        );
        assert_eq!(orders.existing(&id), None);
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
        let (order, _) = orders.create(new_order(), 1, 1000);
        assert_eq!(
            (order.status, order.created_at),
            (OrderStatus::Created, 1000)
        );
        assert_eq!(
            orders.mark_paid(&order.order_id).map(|t| t.kind),
            Ok(EventType::OrderPaid)
        );
        assert_eq!(
            orders.get(&order.order_id).map(|o| o.status),
            Ok(OrderStatus::Paid)
        );
        assert_eq!(
            orders.mark_paid(&order.order_id).map(|t| t.kind),
            Err(Rejection::OrderAlreadyPaid)
        );
        assert_eq!(
            orders.delete(&order.order_id).map(|t| t.kind),
            Err(Rejection::PaidOrderCannotBeDeleted)
        );
        assert!(orders.get(&order.order_id).is_ok());
        assert_eq!(orders.texts.0.len(), 2);
    }

    #[test]
    fn deleted_ids_and_content_counts_are_listed_in_order_whatever_the_table_order() {
        let mut orders = Orders::default();
        for n in 0..500 {
            let new = NewOrder {
                user_id: format!("u{n}"),
                ..new_order()
            };
            let (order, _) = orders.create(new, 1, 0);
            assert_eq!(
                orders.delete(&order.order_id).map(|t| t.kind),
                Ok(EventType::OrderDeleted)
            );
        }
        let deleted: Vec<String> = orders
            .sorted_deleted()
            .iter()
            .map(|c| c.text(PREFIX))
            .collect();
        assert_eq!(deleted.len(), 500);
        assert!(deleted.windows(2).all(|w| w[0] < w[1]), "deleted by id");
        let made = orders.sorted_made();
        assert_eq!(made.len(), 500);
        assert!(made.windows(2).all(|w| w[0].0 < w[1].0), "made by hash");
        assert!(made
            .iter()
            .all(|&(hash, n)| orders.made.get(&hash) == Some(&n)));
    }

    #[test]
    fn an_unpaid_order_is_deleted_and_then_unknown() {
        let mut orders = Orders::default();
        let (order, _) = orders.create(new_order(), 1, 0);
        assert_eq!(
            orders.delete(&order.order_id).map(|t| t.kind),
            Ok(EventType::OrderDeleted)
        );
        assert_eq!(
            orders.get(&order.order_id).err(),
            Some(Rejection::OrderNotFound)
        );
        assert_eq!(
            orders.delete(&order.order_id).map(|t| t.kind),
            Err(Rejection::OrderNotFound)
        );
        assert_eq!(
            orders.mark_paid(&order.order_id).map(|t| t.kind),
            Err(Rejection::OrderNotFound)
        );
        assert!(
            orders.texts.0.is_empty(),
            "texts let go with their last order"
        );
        // The same seed and content would make the same id; the deleted one is skipped.
        let (again, _) = orders.create(new_order(), 1, 0);
        assert_ne!(again.order_id, order.order_id);
    }
}
