//! The span of a payment's change of state: one per change, in the trace
//! of the pay that planned it, under the pay's payment-service span, from
//! when the previous state began to the change (`payment PENDING →
//! SUCCESS`), with what caused it.

use crate::prelude::*;

use crate::domain::code::Code;
use crate::domain::payment::{PaymentStatus, PREFIX};
use crate::domain::payment_plan::{Cause, Change};

/// What a change's span keeps: the payment, its states before and after,
/// the rule that changed it (`scenario`, `card`, or `buyer` when the
/// buyer ended a challenge), the rule or card planned, a failure's code.
#[derive(Debug, Clone, PartialEq)]
pub struct PaymentSpan {
    pub code: Code,
    pub from: PaymentStatus,
    pub to: PaymentStatus,
    pub by_buyer: bool,
    pub cause: Cause,
    pub failure_code: Option<&'static str>,
}

impl PaymentSpan {
    pub fn of(c: &Change) -> PaymentSpan {
        PaymentSpan {
            code: c.code,
            from: c.from,
            to: c.to,
            by_buyer: c.by_buyer.is_some(),
            cause: c.cause.clone(),
            failure_code: c.failure.as_ref().map(|f| f.0),
        }
    }

    /// `payment REQUIRES_ACTION → SUCCESS`.
    pub fn push_name(&self, out: &mut String) {
        out.push_str("payment ");
        out.push_str(self.from.as_str());
        out.push_str(" → ");
        out.push_str(self.to.as_str());
    }

    /// `orderpay.rule`: `buyer`, `scenario` or `card`.
    pub fn rule(&self) -> &'static str {
        match (self.by_buyer, &self.cause) {
            (true, _) => "buyer",
            (false, Cause::Scenario(_)) => "scenario",
            (false, Cause::Card(_)) => "card",
        }
    }

    /// The payment's id, as text.
    pub fn payment_id(&self) -> String {
        self.code.text(PREFIX)
    }
}
