//! The payment service: pay (through the simulated third party), read,
//! refund, and the state machine of the spec's part 3 (SUCCESS, then
//! REFUNDED), with the states a payment that changes later passes
//! through (REQUIRES_ACTION, PENDING, FAILED; see `payment_plan`).
//! Paying does not touch the order; the order pay endpoint does.

use crate::prelude::*;

use super::chunks::Chunks;
use super::code::Code;
use super::hashing::ByCode;
use super::id;
use super::money::Money;
pub use super::payment_method::PaymentMethod;
use super::payment_plan::{Later, Plans};
pub use super::payment_status::PaymentStatus;
use super::rejection::Rejection;
use super::test_card::TestCard;
use super::transition::Transition;
use crate::sim::random::Rng;
use core::hash::BuildHasher;
use hashbrown::HashTable;

#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct Payment {
    pub payment_id: String,
    pub order_id: String,
    pub amount: Money,
    pub status: PaymentStatus,
    pub payment_method: PaymentMethod,
    pub paid_at: i64,
    /// What only a payment that changes later shows (`nextAction`,
    /// `failureCode`, `failureReason`): boxed, so every other payment
    /// stays the size it was.
    #[cfg_attr(
        feature = "serde",
        serde(
            flatten,
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "extras_or_none"
        )
    )]
    pub extras: Option<Box<PaymentExtras>>,
}

/// The members of a payment that changes later.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct PaymentExtras {
    /// Where the buyer goes to authenticate: only while `REQUIRES_ACTION`.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub next_action: Option<NextAction>,
    /// A decline code: only when `FAILED`.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub failure_code: Option<String>,
    /// Why, in words: only when `FAILED`.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub failure_reason: Option<String>,
}

/// A flattened `PaymentExtras` with none of its members reads as none.
#[cfg(feature = "serde")]
fn extras_or_none<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Option<Box<PaymentExtras>>, D::Error> {
    let extras: PaymentExtras = serde::Deserialize::deserialize(d)?;
    Ok((extras != PaymentExtras::default()).then(|| Box::new(extras)))
}

impl Payment {
    /// `nextAction`, while `REQUIRES_ACTION`.
    pub fn next_action(&self) -> Option<&NextAction> {
        self.extras.as_ref()?.next_action.as_ref()
    }

    /// `failureCode`, when `FAILED`.
    pub fn failure_code(&self) -> Option<&str> {
        self.extras.as_ref()?.failure_code.as_deref()
    }

    /// `failureReason`, when `FAILED`.
    pub fn failure_reason(&self) -> Option<&str> {
        self.extras.as_ref()?.failure_reason.as_deref()
    }
}

/// `{"type": "redirect", "url": …}`: the challenge page's path.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct NextAction {
    #[cfg_attr(feature = "serde", serde(rename = "type"))]
    pub kind: String,
    pub url: String,
}

/// The challenge page's path of a payment: `/api/payment/{id}/challenge`.
pub fn challenge_path(payment_id: &str) -> String {
    let mut url = String::with_capacity(payment_id.len() + 23);
    for part in ["/api/payment/", payment_id, "/challenge"] {
        url.push_str(part);
    }
    url
}

/// A pay request that parsed: only valid values inside.
#[derive(Debug, Clone, PartialEq)]
pub struct NewPayment {
    pub order_id: String,
    pub amount: Money,
    pub method: PaymentMethod,
    /// `cardNumber` and `returnUrl`, when the body gave either (boxed:
    /// rare, and a pay stays the size it was).
    pub extras: Option<Box<PayExtras>>,
}

/// What a pay's body may add to the spec's fields.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PayExtras {
    /// The test card the body named (`cardNumber`), if any.
    pub card: Option<&'static TestCard>,
    /// Where the challenge page sends the buyer back (`returnUrl`).
    pub return_url: Option<String>,
}

impl NewPayment {
    /// The test card the body named, if any.
    pub fn card(&self) -> Option<&'static TestCard> {
        self.extras.as_ref()?.card
    }
}

/// One kept payment, compact: its id and its order's as codes.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Row {
    pub code: Code,
    pub order: Code,
    pub amount: Money,
    pub paid_at: i64,
    pub method: PaymentMethod,
    pub status: PaymentStatus,
}

pub const PREFIX: &str = "PAY";

impl Row {
    pub fn payment(&self) -> Payment {
        Payment {
            payment_id: self.code.text(PREFIX),
            order_id: self.order.text(super::order::PREFIX),
            amount: self.amount,
            status: self.status,
            payment_method: self.method,
            paid_at: self.paid_at,
            extras: None,
        }
    }

    /// `payment`, with what a payment that changes later shows: its
    /// challenge's page, or its failure.
    pub(crate) fn payment_with(&self, plans: &Plans) -> Payment {
        let mut p = self.payment();
        match self.status {
            PaymentStatus::RequiresAction => {
                p.extras = Some(Box::new(PaymentExtras {
                    next_action: Some(NextAction {
                        kind: "redirect".to_owned(),
                        url: challenge_path(&p.payment_id),
                    }),
                    ..PaymentExtras::default()
                }));
            }
            PaymentStatus::Failed => {
                let failure = plans.get(self.code).and_then(|l| l.failure.as_ref());
                if let Some((code, reason)) = failure {
                    p.extras = Some(Box::new(PaymentExtras {
                        failure_code: Some((*code).to_owned()),
                        failure_reason: Some(String::from(&**reason)),
                        next_action: None,
                    }));
                }
            }
            _ => {}
        }
        p
    }
}

/// Every payment of one service (rows in a vector, found by code through
/// an index), and how many attempts each order has had (the attempt
/// number is part of what the third party decides on).
#[derive(Debug, Clone, Default)]
pub struct Payments {
    pub(crate) rows: Chunks<Row>,
    /// The rows' positions, hashed by their rows' codes: 4 bytes a slot,
    /// where a map would keep the code beside each (16 with padding).
    /// Only a snapshot lists payments in order, and it sorts them when it
    /// is written (`sorted_rows`).
    pub(crate) index: HashTable<u32>,
    /// By order code, hashed; `sorted_attempts` lists them in order.
    pub(crate) attempts: HashMap<Code, u32, ByCode>,
    /// The payments that change later (empty unless a scenario's rule or
    /// a test card made one).
    pub(crate) plans: Plans,
}

impl PartialEq for Payments {
    fn eq(&self, other: &Payments) -> bool {
        self.rows.len() == other.rows.len()
            && self.attempts == other.attempts
            && self.plans == other.plans
            && self
                .rows
                .iter()
                .all(|r| other.position(r.code).and_then(|i| other.rows.get(i)) == Some(r))
    }
}

impl Payments {
    pub(crate) fn find(&self, payment_id: &str) -> Option<usize> {
        let code = Code::parse(PREFIX, payment_id)?;
        self.position(code)
    }

    /// The row of the payment with this code, if there is one.
    pub(crate) fn position(&self, code: Code) -> Option<usize> {
        let rows = &self.rows;
        let same = |&i: &u32| rows.get(i as usize).map(|r| r.code) == Some(code);
        self.index.find(hash(code), same).map(|&i| i as usize)
    }

    /// The row of the payment with this code.
    pub(crate) fn row(&self, code: Code) -> Option<&Row> {
        self.position(code).and_then(|i| self.rows.get(i))
    }

    pub(crate) fn contains(&self, code: Code) -> bool {
        self.position(code).is_some()
    }

    /// Keeps a row (a new payment, or one read from a snapshot).
    pub(crate) fn keep(&mut self, row: Row) {
        let at = self.rows.len() as u32;
        self.index
            .insert_unique(hash(row.code), at, rehasher(&self.rows));
        self.rows.push(row);
    }

    /// Counts an attempt on the order and returns its number, from 1. Only
    /// orders the service has are counted; any other id counts as 1.
    pub fn next_attempt(&mut self, order_id: &str) -> u32 {
        match Code::parse(super::order::PREFIX, order_id) {
            Some(code) => self.next_attempt_of(code),
            None => 1,
        }
    }

    /// `next_attempt` of an order's code.
    pub(crate) fn next_attempt_of(&mut self, order: Code) -> u32 {
        let n = self.attempts.entry(order).or_insert(0);
        *n = n.saturating_add(1);
        *n
    }

    /// Forgets the attempts of a deleted order: its id is never issued
    /// again, and paying it is refused before attempts are counted.
    pub fn forget_attempts(&mut self, order_id: &str) {
        if let Some(code) = Code::parse(super::order::PREFIX, order_id) {
            self.attempts.remove(&code);
        }
    }

    /// Records an approved payment. A declined one leaves no record: the
    /// spec shows no payment for it.
    pub fn record(&mut self, new: NewPayment, ids: &mut Rng, now: i64) -> (Payment, Transition) {
        let order = Code::parse(super::order::PREFIX, &new.order_id).unwrap_or(Code(0));
        self.record_for(new, order, ids, now)
    }

    /// `record` with the order's code already read (`Orders::existing`).
    pub(crate) fn record_for(
        &mut self,
        new: NewPayment,
        order: Code,
        ids: &mut Rng,
        now: i64,
    ) -> (Payment, Transition) {
        self.record_as(new, order, ids, now, PaymentStatus::Success)
    }

    /// `record_for`, the payment starting in `status`.
    fn record_as(
        &mut self,
        new: NewPayment,
        order: Code,
        ids: &mut Rng,
        now: i64,
        status: PaymentStatus,
    ) -> (Payment, Transition) {
        let (payment_id, code) = id::fresh_code(PREFIX, ids, |c| self.contains(c));
        let made = self.keep_new(code, order, (new.amount, new.method, status), now);
        let payment = Payment {
            payment_id,
            order_id: new.order_id,
            amount: new.amount,
            status,
            payment_method: new.method,
            paid_at: now,
            extras: None,
        };
        (payment, made)
    }

    /// `record_for` a payment that changes later: it starts in `status`
    /// and keeps `later` (its plan).
    #[inline(never)]
    pub(crate) fn record_later(
        &mut self,
        new: NewPayment,
        order: Code,
        ids: &mut Rng,
        now: i64,
        (status, later): (PaymentStatus, Later),
    ) -> (Payment, Transition) {
        let (payment, made) = self.record_as(new, order, ids, now, status);
        let code = made.code;
        self.plans.keep(code, later);
        let shown = self.position(code).and_then(|i| self.rows.get(i));
        (
            shown.map_or(payment, |row| row.payment_with(&self.plans)),
            made,
        )
    }

    /// `record` without the answer, for the test-data runner, which reads
    /// none of its payments back: the same draws, no text written.
    pub(crate) fn add(
        &mut self,
        order: Code,
        amount: Money,
        method: PaymentMethod,
        ids: &mut Rng,
        now: i64,
    ) -> Transition {
        let code = id::fresh_code_only(PREFIX, ids, |c| self.contains(c));
        let success = (amount, method, PaymentStatus::Success);
        self.keep_new(code, order, success, now)
    }

    fn keep_new(
        &mut self,
        code: Option<Code>,
        order: Code,
        (amount, method, status): (Money, PaymentMethod, PaymentStatus),
        now: i64,
    ) -> Transition {
        let row = Row {
            code: code.unwrap_or(Code(0)),
            order,
            amount,
            paid_at: now,
            method,
            status,
        };
        let made = Transition::payment(row.code, status);
        self.keep(row);
        made
    }

    pub fn get(&self, payment_id: &str) -> Result<Payment, Rejection> {
        self.find(payment_id)
            .and_then(|i| self.rows.get(i))
            .map(|row| row.payment_with(&self.plans))
            .ok_or(Rejection::PaymentNotFound)
    }

    pub fn refund(&mut self, payment_id: &str) -> Result<Transition, Rejection> {
        let i = self.find(payment_id).ok_or(Rejection::PaymentNotFound)?;
        let row = self.rows.get_mut(i).ok_or(Rejection::PaymentNotFound)?;
        match row.status {
            PaymentStatus::Success => {
                row.status = PaymentStatus::Refunded;
                Ok(Transition::payment(row.code, PaymentStatus::Refunded))
            }
            _ => Err(Rejection::OnlySuccessCanBeRefunded),
        }
    }

    /// The rows' positions in code order (codes sort as ids do).
    pub(crate) fn sorted_rows(&self) -> Vec<u32> {
        let keys = self.rows.iter().enumerate();
        let keys = keys.map(|(i, r)| (r.code, i as u32)).collect();
        super::code::in_code_order(keys)
            .into_iter()
            .map(|(_, i)| i)
            .collect()
    }

    /// The attempts by order, in the order's code order, as snapshots
    /// list them.
    pub(crate) fn sorted_attempts(&self) -> Vec<(Code, u32)> {
        let keys = self.attempts.iter().map(|(&code, &n)| (code, n)).collect();
        super::code::in_code_order(keys)
    }

    pub fn len(&self) -> usize {
        self.rows.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }
}

/// Where a code goes in the index: the hash the orders' index uses.
/// The hash of the row at a position, for the index to grow by: one
/// closure type for every caller, so the table's growth is compiled once.
fn rehasher(rows: &Chunks<Row>) -> impl Fn(&u32) -> u64 + '_ {
    move |&i: &u32| rows.get(i as usize).map_or(0, |r| hash(r.code))
}

fn hash(code: Code) -> u64 {
    ByCode::default().hash_one(code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_documented_method_parses_and_nothing_else() {
        for m in ["CARD", "WALLET_A", "WALLET_B"] {
            assert_eq!(PaymentMethod::parse(m).map(PaymentMethod::as_str), Some(m));
        }
        for bad in ["card", "Card", "WALLET_C", "", " CARD"] {
            assert_eq!(PaymentMethod::parse(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn success_then_refunded_then_not_refundable_again() {
        let mut payments = Payments::default();
        let new = NewPayment {
            order_id: "ORD-00000001".into(),
            amount: Money::positive(5.0).unwrap(),
            method: PaymentMethod::Card,
            extras: None,
        };
        let (p, made) = payments.record(new, &mut Rng::new(2), 77);
        assert_eq!(
            made.kind,
            super::super::transition::EventType::PaymentSucceeded
        );
        assert_eq!((p.status, p.paid_at), (PaymentStatus::Success, 77));
        assert_eq!(
            payments.refund(&p.payment_id).map(|t| t.kind),
            Ok(super::super::transition::EventType::PaymentRefunded)
        );
        assert_eq!(
            payments.get(&p.payment_id).map(|p| p.status),
            Ok(PaymentStatus::Refunded)
        );
        assert_eq!(
            payments.refund(&p.payment_id).map(|t| t.kind),
            Err(Rejection::OnlySuccessCanBeRefunded)
        );
        assert_eq!(
            payments.refund("PAY-NOPE0000").map(|t| t.kind),
            Err(Rejection::PaymentNotFound)
        );
    }

    #[test]
    fn payments_and_attempts_are_listed_in_id_order_whatever_the_table_order() {
        let mut payments = Payments::default();
        let mut ids = Rng::new(9);
        for n in 0..500u32 {
            let order_id = format!("ORD-{:08}", (n * 7919) % 100_000_000);
            payments.next_attempt(&order_id);
            let new = NewPayment {
                order_id,
                amount: Money::positive(1.0).unwrap(),
                method: PaymentMethod::Card,
                extras: None,
            };
            let _ = payments.record(new, &mut ids, 0);
        }
        let ids: Vec<String> = payments
            .sorted_rows()
            .into_iter()
            .filter_map(|i| payments.rows.get(i as usize))
            .map(|r| r.payment().payment_id)
            .collect();
        assert_eq!(ids.len(), 500);
        assert!(ids.windows(2).all(|w| w[0] < w[1]), "payments by id");
        let orders: Vec<String> = payments
            .sorted_attempts()
            .iter()
            .map(|(code, _)| code.text(super::super::order::PREFIX))
            .collect();
        assert_eq!(orders.len(), 500);
        assert!(
            orders.windows(2).all(|w| w[0] < w[1]),
            "attempts by order id"
        );
    }

    #[test]
    fn attempts_count_per_order() {
        let mut payments = Payments::default();
        assert_eq!(payments.next_attempt("ORD-0000000A"), 1);
        assert_eq!(payments.next_attempt("ORD-0000000A"), 2);
        assert_eq!(payments.next_attempt("ORD-0000000B"), 1);
    }
}
