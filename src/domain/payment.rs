//! The payment service: pay (through the simulated third party), read,
//! refund, and the state machine of the spec's part 3 (SUCCESS, then
//! REFUNDED). Paying does not touch the order; the order pay endpoint does.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::id;
use super::money::Money;
use super::rejection::Rejection;
use crate::sim::random::Rng;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Payment {
    pub payment_id: String,
    pub order_id: String,
    pub amount: Money,
    pub status: PaymentStatus,
    pub payment_method: PaymentMethod,
    pub paid_at: i64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
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

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum PaymentMethod {
    #[serde(rename = "CARD")]
    Card,
    #[serde(rename = "WALLET_A")]
    WalletA,
    #[serde(rename = "WALLET_B")]
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

/// Every payment of one service, and how many attempts each order has had
/// (the attempt number is part of what the third party decides on).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Payments {
    by_id: BTreeMap<String, Payment>,
    attempts: BTreeMap<String, u32>,
}

impl Payments {
    /// Counts an attempt on the order and returns its number, from 1.
    pub fn next_attempt(&mut self, order_id: &str) -> u32 {
        if let Some(n) = self.attempts.get_mut(order_id) {
            *n = n.saturating_add(1);
            return *n;
        }
        self.attempts.insert(order_id.to_owned(), 1);
        1
    }

    /// Records an approved payment. A declined one leaves no record: the
    /// spec shows no payment for it.
    pub fn record(&mut self, new: NewPayment, ids: &mut Rng, now: i64) -> Payment {
        let payment_id = id::fresh("PAY", ids, |id| self.by_id.contains_key(id));
        let payment = Payment {
            payment_id: payment_id.clone(),
            order_id: new.order_id,
            amount: new.amount,
            status: PaymentStatus::Success,
            payment_method: new.method,
            paid_at: now,
        };
        self.by_id.insert(payment_id, payment.clone());
        payment
    }

    pub fn get(&self, payment_id: &str) -> Result<&Payment, Rejection> {
        self.by_id.get(payment_id).ok_or(Rejection::PaymentNotFound)
    }

    pub fn refund(&mut self, payment_id: &str) -> Result<(), Rejection> {
        let payment = self
            .by_id
            .get_mut(payment_id)
            .ok_or(Rejection::PaymentNotFound)?;
        match payment.status {
            PaymentStatus::Success => {
                payment.status = PaymentStatus::Refunded;
                Ok(())
            }
            PaymentStatus::Refunded => Err(Rejection::OnlySuccessCanBeRefunded),
        }
    }

    pub fn len(&self) -> usize {
        self.by_id.len()
    }

    pub fn is_empty(&self) -> bool {
        self.by_id.is_empty()
    }

    /// The payments by id and the attempts per order id: what a restored
    /// snapshot is checked against.
    pub(crate) fn parts(&self) -> (&BTreeMap<String, Payment>, &BTreeMap<String, u32>) {
        (&self.by_id, &self.attempts)
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
            order_id: "ORD-1".into(),
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
        assert_eq!(payments.next_attempt("A"), 1);
        assert_eq!(payments.next_attempt("A"), 2);
        assert_eq!(payments.next_attempt("B"), 1);
    }
}
