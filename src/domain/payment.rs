//! The payment service: pay (through the simulated third party), read,
//! refund, and the state machine of the spec's part 3 (SUCCESS, then
//! REFUNDED). Paying does not touch the order; the order pay endpoint does.

use crate::prelude::*;

use alloc::collections::BTreeMap;

use super::chunks::Chunks;
use super::code::Code;
use super::id;
use super::money::Money;
use super::rejection::Rejection;
use crate::sim::random::Rng;

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
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "SCREAMING_SNAKE_CASE"))]
pub enum PaymentStatus {
    Success,
    Refunded,
}

impl PaymentStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            PaymentStatus::Success => "SUCCESS",
            PaymentStatus::Refunded => "REFUNDED",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum PaymentMethod {
    #[cfg_attr(feature = "serde", serde(rename = "CARD"))]
    Card,
    #[cfg_attr(feature = "serde", serde(rename = "WALLET_A"))]
    WalletA,
    #[cfg_attr(feature = "serde", serde(rename = "WALLET_B"))]
    WalletB,
}

impl PaymentMethod {
    pub const ALL: [PaymentMethod; 3] = [
        PaymentMethod::Card,
        PaymentMethod::WalletA,
        PaymentMethod::WalletB,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            PaymentMethod::Card => "CARD",
            PaymentMethod::WalletA => "WALLET_A",
            PaymentMethod::WalletB => "WALLET_B",
        }
    }

    /// Exact spelling only: `card` is a client bug worth a 400, not a guess.
    pub fn parse(text: &str) -> Option<PaymentMethod> {
        PaymentMethod::ALL.into_iter().find(|m| m.as_str() == text)
    }
}

/// A pay request that parsed: only valid values inside.
#[derive(Debug, Clone, PartialEq)]
pub struct NewPayment {
    pub order_id: String,
    pub amount: Money,
    pub method: PaymentMethod,
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
        }
    }
}

/// Every payment of one service (rows in a vector, found by code through
/// an index), and how many attempts each order has had (the attempt
/// number is part of what the third party decides on).
#[derive(Debug, Clone, Default)]
pub struct Payments {
    pub(crate) rows: Chunks<Row>,
    /// By code, in order: payments are looked up by id far less often
    /// than orders, and an ordered index costs less memory per payment.
    pub(crate) index: BTreeMap<Code, u32>,
    pub(crate) attempts: BTreeMap<Code, u32>,
}

impl PartialEq for Payments {
    fn eq(&self, other: &Payments) -> bool {
        self.rows.len() == other.rows.len()
            && self.attempts == other.attempts
            && self.rows.iter().all(|r| {
                other
                    .index
                    .get(&r.code)
                    .and_then(|&i| other.rows.get(i as usize))
                    == Some(r)
            })
    }
}

impl Payments {
    fn find(&self, payment_id: &str) -> Option<usize> {
        let code = Code::parse(PREFIX, payment_id)?;
        self.index.get(&code).map(|&i| i as usize)
    }

    /// Keeps a row (a new payment, or one read from a snapshot).
    pub(crate) fn keep(&mut self, row: Row) {
        self.index.insert(row.code, self.rows.len() as u32);
        self.rows.push(row);
    }

    /// Counts an attempt on the order and returns its number, from 1. Only
    /// orders the service has are counted; any other id counts as 1.
    pub fn next_attempt(&mut self, order_id: &str) -> u32 {
        let Some(code) = Code::parse(super::order::PREFIX, order_id) else {
            return 1;
        };
        let n = self.attempts.entry(code).or_insert(0);
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
    pub fn record(&mut self, new: NewPayment, ids: &mut Rng, now: i64) -> Payment {
        let (payment_id, code) = id::fresh_code(PREFIX, ids, |c| self.index.contains_key(&c));
        let order = Code::parse(super::order::PREFIX, &new.order_id).unwrap_or(Code(0));
        self.keep_new(code, order, new.amount, new.method, now);
        Payment {
            payment_id,
            order_id: new.order_id,
            amount: new.amount,
            status: PaymentStatus::Success,
            payment_method: new.method,
            paid_at: now,
        }
    }

    /// `record` without the answer, for the test-data runner, which reads
    /// none of its payments back: the same draws, no text written.
    pub(crate) fn add(
        &mut self,
        order_id: &str,
        amount: Money,
        method: PaymentMethod,
        ids: &mut Rng,
        now: i64,
    ) {
        let code = id::fresh_code_only(PREFIX, ids, |c| self.index.contains_key(&c));
        let order = Code::parse(super::order::PREFIX, order_id).unwrap_or(Code(0));
        self.keep_new(code, order, amount, method, now);
    }

    fn keep_new(
        &mut self,
        code: Option<Code>,
        order: Code,
        amount: Money,
        method: PaymentMethod,
        now: i64,
    ) {
        self.keep(Row {
            code: code.unwrap_or(Code(0)),
            order,
            amount,
            paid_at: now,
            method,
            status: PaymentStatus::Success,
        });
    }

    pub fn get(&self, payment_id: &str) -> Result<Payment, Rejection> {
        self.find(payment_id)
            .and_then(|i| self.rows.get(i))
            .map(Row::payment)
            .ok_or(Rejection::PaymentNotFound)
    }

    pub fn refund(&mut self, payment_id: &str) -> Result<(), Rejection> {
        let i = self.find(payment_id).ok_or(Rejection::PaymentNotFound)?;
        let row = self.rows.get_mut(i).ok_or(Rejection::PaymentNotFound)?;
        match row.status {
            PaymentStatus::Success => {
                row.status = PaymentStatus::Refunded;
                Ok(())
            }
            PaymentStatus::Refunded => Err(Rejection::OnlySuccessCanBeRefunded),
        }
    }

    /// The rows' positions in code order: the index is ordered by code,
    /// and codes sort as ids do.
    pub(crate) fn sorted_rows(&self) -> Vec<u32> {
        self.index.values().copied().collect()
    }

    pub fn len(&self) -> usize {
        self.rows.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }
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
        };
        let p = payments.record(new, &mut Rng::new(2), 77);
        assert_eq!((p.status, p.paid_at), (PaymentStatus::Success, 77));
        assert_eq!(payments.refund(&p.payment_id), Ok(()));
        assert_eq!(
            payments.get(&p.payment_id).map(|p| p.status),
            Ok(PaymentStatus::Refunded)
        );
        assert_eq!(
            payments.refund(&p.payment_id),
            Err(Rejection::OnlySuccessCanBeRefunded)
        );
        assert_eq!(
            payments.refund("PAY-NOPE0000"),
            Err(Rejection::PaymentNotFound)
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
