//! The changes of the payments that change later, made on the service's
//! clock: a plan that came due (the due queue says which, and when), a
//! challenge the buyer ends, and the reads of the open challenges.

use crate::prelude::*;

use super::code::{self, Code};
use super::payment::{Payment, PaymentStatus, Payments, PREFIX};
use super::payment_plan::{end_of, Change, Plan, Step};
use super::transition::Transition;
use crate::sim::scenario::Outcome;

/// Why a challenge cannot be ended: no such payment, or the state it is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotAwaiting {
    Unknown,
    In(PaymentStatus),
}

/// `PAY-… is not awaiting a challenge: it is FAILED` after `lead`, the
/// same words on the challenge page and from `completeChallenge`.
pub fn not_awaiting_text(lead: &str, payment_id: &str, status: PaymentStatus) -> String {
    crate::json::message::msg!(
        lead,
        payment_id,
        " is not awaiting a challenge: it is ",
        status.as_str()
    )
}

impl Payments {
    /// Resolves the payment's plan due at `at`: the change made, or
    /// `None` when it holds no plan due then (taken out of turn).
    #[cold]
    #[inline(never)]
    pub fn resolve_plan(&mut self, code: Code, at: i64) -> Option<(Change, Transition)> {
        if self.plans.due_of(code) != Some(at) {
            return None;
        }
        let plan = self.plans.get_mut(code)?.plan.take()?;
        let outcome = match &plan.step {
            Step::Challenge { outcome, .. } => *outcome,
            _ => None,
        };
        self.apply(code, plan, outcome, at, None)
    }

    /// Ends the open challenge of `payment_id` with the buyer's `outcome`
    /// at `now`; otherwise says why not.
    pub fn complete_challenge(
        &mut self,
        payment_id: &str,
        outcome: Outcome,
        now: i64,
    ) -> Result<(Change, Transition), NotAwaiting> {
        let i = self.find(payment_id).ok_or(NotAwaiting::Unknown)?;
        let row = self.rows.get(i).ok_or(NotAwaiting::Unknown)?;
        let (code, status) = (row.code, row.status);
        let open = self.plans.get_mut(code).and_then(|l| {
            let challenge = matches!(l.plan.as_ref()?.step, Step::Challenge { .. });
            challenge.then(|| l.plan.take()).flatten()
        });
        let plan = match open {
            Some(plan) if status == PaymentStatus::RequiresAction => plan,
            _ => return Err(NotAwaiting::In(status)),
        };
        let change = self.apply(code, plan, Some(outcome), now, Some(outcome));
        change.ok_or(NotAwaiting::Unknown)
    }

    /// Moves the payment to the state its plan ends in.
    fn apply(
        &mut self,
        code: Code,
        plan: Plan,
        outcome: Option<Outcome>,
        at: i64,
        by_buyer: Option<Outcome>,
    ) -> Option<(Change, Transition)> {
        let row = self.position(code).and_then(|i| self.rows.get_mut(i))?;
        let from = row.status;
        let (to, failure) = end_of(&plan.step, outcome, from);
        row.status = to;
        let made = Transition::payment(code, to);
        if let Some(later) = self.plans.get_mut(code) {
            if failure.is_some() {
                later.failure.clone_from(&failure);
            }
        }
        let change = Change {
            code,
            from,
            to,
            at,
            since: plan.since,
            kind: plan.step.kind(),
            cause: plan.cause,
            by_buyer,
            failure,
            origin: plan.origin,
        };
        Some((change, made))
    }

    /// The payment of `order` whose challenge is open, if one is.
    pub(crate) fn awaiting_challenge(&self, order: Code) -> Option<Code> {
        if self.plans.is_empty() {
            return None;
        }
        let mut open = self.plans.open_challenges().filter(|c| {
            let row = self.position(*c).and_then(|i| self.rows.get(i));
            row.is_some_and(|r| r.order == order && r.status == PaymentStatus::RequiresAction)
        });
        open.next()
    }

    /// Whether the payment is, or was, challenged: its page is served.
    pub fn was_challenged(&self, payment_id: &str) -> bool {
        let code = code::Code::parse(PREFIX, payment_id);
        let later = code.and_then(|c| self.plans.get(c));
        later.is_some_and(|l| l.challenged)
    }

    /// The payment's `returnUrl`, when its pay gave one.
    pub fn return_url(&self, payment_id: &str) -> Option<&str> {
        let code = code::Code::parse(PREFIX, payment_id)?;
        self.plans.get(code)?.return_url.as_deref()
    }

    /// The payments awaiting a challenge (REQUIRES_ACTION), in id order;
    /// with `pending`, those waiting for the service's clock (PENDING) too.
    pub fn in_progress(&self, pending: bool) -> Vec<Payment> {
        let mut awaiting = Vec::new();
        for (c, _) in code::in_code_order(self.plans.keys(!pending)) {
            let row = self.position(c).and_then(|i| self.rows.get(i));
            if let Some(r) = row.filter(|r| {
                r.status == PaymentStatus::RequiresAction
                    || (pending && r.status == PaymentStatus::Pending)
            }) {
                awaiting.push(r.payment_with(&self.plans));
            }
        }
        awaiting
    }
}
