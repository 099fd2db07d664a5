//! The payments that change later, on the service's clock: a 3-D Secure
//! challenge, a pending payment, a reversal. Each keeps its plan (when
//! it is due, what happens, what caused it, the trace it belongs to);
//! when it comes due is the due queue's business (`due`).

use crate::prelude::*;

use alloc::rc::Rc;

use super::code::Code;
use super::hashing::ByCode;
use super::payment_status::PaymentStatus;
use crate::sim::planned_change::PlannedChange;
use crate::sim::scenario::document::REVERSAL_REASON;
use crate::sim::scenario::{Fault, Outcome, Then};
use crate::sim::test_card::{CardOutcome, TestCard};

/// What happens when a plan comes due (or the buyer ends a challenge).
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// Waiting for the buyer; `outcome` ends it by itself at the due
    /// time. A failed or abandoned one fails with `fail_code`; a passed
    /// one is declined with `declined_after` when there is one.
    Challenge {
        outcome: Option<Outcome>,
        fail_code: &'static str,
        declined_after: Option<&'static str>,
    },
    /// Processing: then succeeds, or fails with `code`.
    Pending { pass: bool, code: &'static str },
    /// A success reversed: fails with `code` and `reason`.
    Reversal { code: &'static str, reason: Rc<str> },
}

impl Step {
    /// The kind, as a scenario names it.
    pub fn kind(&self) -> &'static str {
        match self {
            Step::Challenge { .. } => "challenge",
            Step::Pending { .. } => "pending",
            Step::Reversal { .. } => "reversal",
        }
    }

    /// The state a pay with this step starts in.
    pub fn starts_in(&self) -> PaymentStatus {
        match self {
            Step::Challenge { .. } => PaymentStatus::RequiresAction,
            Step::Pending { .. } => PaymentStatus::Pending,
            Step::Reversal { .. } => PaymentStatus::Success,
        }
    }

    /// A scenario's `then` of a kind that changes later: the step, and
    /// how long until it is due (`None` waits for the buyer).
    fn of_rule(then: &Then) -> Option<(Step, Option<u64>)> {
        Some(match *then {
            Then::Challenge {
                outcome,
                after_ms,
                code,
            } => {
                let step = Step::Challenge {
                    outcome,
                    fail_code: code,
                    declined_after: None,
                };
                (step, outcome.map(|_| after_ms))
            }
            Then::Pending { for_ms, pass, code } => (Step::Pending { pass, code }, Some(for_ms)),
            Then::Reversal { after_ms, code } => {
                let reason = Rc::from(REVERSAL_REASON);
                (Step::Reversal { code, reason }, Some(after_ms))
            }
            _ => return None,
        })
    }

    /// A test card's outcome that changes later: the step, and how long
    /// until it is due (a card's challenge waits for the buyer).
    fn of_card(outcome: &CardOutcome) -> Option<(Step, Option<u64>)> {
        Some(match *outcome {
            CardOutcome::Succeeds | CardOutcome::Declines(_) => return None,
            CardOutcome::Challenge { declined_after } => {
                let step = Step::Challenge {
                    outcome: None,
                    fail_code: "authentication_required",
                    declined_after,
                };
                (step, None)
            }
            CardOutcome::Pending { for_ms, pass, code } => {
                (Step::Pending { pass, code }, Some(for_ms))
            }
            CardOutcome::Reversal {
                after_ms,
                code,
                reason,
            } => {
                let reason = Rc::from(reason);
                (Step::Reversal { code, reason }, Some(after_ms))
            }
        })
    }
}

/// What planned a payment's change: a scenario's rule (by name) or a test
/// card (its number), written in the change's record as the `cause`
/// `{rule: "scenario", scenarioRule}` or `{rule: "card", card}`. A plan
/// that comes due on the clock keeps the cause that planned it. A
/// challenge the buyer ends (the challenge page or `completeChallenge`)
/// is no cause of its own: its `Change` carries `by_buyer`, and its
/// record's cause is `{rule: "buyer", outcome, planned}`, with this cause
/// as `planned`.
#[derive(Debug, Clone, PartialEq)]
pub enum Cause {
    Scenario(Rc<str>),
    Card(&'static str),
}

/// Where the pay that planned the change stands in its trace: the trace
/// id's parts (`TraceId::parts`) and the payment service's span, so each
/// change is recorded in that trace.
pub type Origin = [u64; 4];

/// One change to come: made by `Plan::new` (for a rule or a card, by
/// `of_rule` or `of_card`), read back from a snapshot, and told in the
/// pay's record by `note`.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    /// When it comes due; `None` waits for the buyer.
    pub due: Option<i64>,
    pub step: Step,
    pub cause: Cause,
    /// When the payment's present state began.
    pub since: i64,
    pub origin: Origin,
}

impl Plan {
    /// The plan of a scenario's rule (its `fault`) for a pay at `now`;
    /// `None` when its kind does not change the payment later.
    pub fn of_rule(fault: &Fault, now: i64) -> Option<Plan> {
        let (step, wait) = Step::of_rule(&fault.then)?;
        let name = fault.rule.clone().unwrap_or_else(|| Rc::from(""));
        Some(Plan::new(step, wait, Cause::Scenario(name), now))
    }

    /// The plan of a test card for a pay at `now`; `None` for a card
    /// that succeeds or declines at once.
    pub fn of_card(card: &TestCard, now: i64) -> Option<Plan> {
        let (step, wait) = Step::of_card(&card.outcome)?;
        Some(Plan::new(step, wait, Cause::Card(card.number), now))
    }

    /// A plan made at `now`, due `wait` ms later (`None` waits for the
    /// buyer); its trace is set by the pay's records (`set_origin`).
    pub fn new(step: Step, wait: Option<u64>, cause: Cause, now: i64) -> Plan {
        let after = |ms: u64| now.saturating_add(i64::try_from(ms).unwrap_or(i64::MAX));
        Plan {
            due: wait.map(after),
            step,
            cause,
            since: now,
            origin: [0; 4],
        }
    }

    /// What the pay's record says of it (`outcome.async`).
    pub fn note(&self) -> PlannedChange {
        let (outcome, code) = match &self.step {
            Step::Challenge {
                outcome, fail_code, ..
            } => (*outcome, Some(*fail_code)),
            Step::Pending { pass: true, .. } => (Some(Outcome::Pass), None),
            Step::Pending { code, .. } => (Some(Outcome::Fail), Some(*code)),
            Step::Reversal { code, .. } => (None, Some(*code)),
        };
        PlannedChange {
            kind: self.step.kind(),
            due: self.due,
            outcome,
            code,
        }
    }
}

/// What a payment that changes later keeps beside its row: its plan (until
/// it resolves), whether it was challenged (its page is served then),
/// the pay's `returnUrl` (a challenged one's), and a failure's code and
/// reason.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Later {
    pub plan: Option<Plan>,
    pub challenged: bool,
    pub return_url: Option<Rc<str>>,
    pub failure: Option<(&'static str, Rc<str>)>,
}

/// One change made: the payment, its states before and after, when, and
/// why; for the records and spans of it.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    pub code: Code,
    pub from: PaymentStatus,
    pub to: PaymentStatus,
    pub at: i64,
    pub since: i64,
    pub kind: &'static str,
    pub cause: Cause,
    /// The buyer's outcome, when the buyer ended a challenge.
    pub by_buyer: Option<Outcome>,
    pub failure: Option<(&'static str, Rc<str>)>,
    pub origin: Origin,
}

/// The payments that change later, by code. What each keeps lives in a
/// list, found by code through an index of positions (a payment's
/// keeping is never dropped).
#[derive(Debug, Clone, Default)]
pub struct Plans {
    index: HashMap<Code, u32, ByCode>,
    kept: Vec<(Code, Later)>,
}

impl PartialEq for Plans {
    /// The same payments keep the same, in whatever order they came.
    fn eq(&self, other: &Plans) -> bool {
        self.kept.len() == other.kept.len()
            && self.kept.iter().all(|(c, l)| other.get(*c) == Some(l))
    }
}

impl Plans {
    pub fn is_empty(&self) -> bool {
        self.kept.is_empty()
    }

    pub fn get(&self, code: Code) -> Option<&Later> {
        let at = *self.index.get(&code)?;
        self.kept.get(at as usize).map(|(_, l)| l)
    }

    pub(crate) fn get_mut(&mut self, code: Code) -> Option<&mut Later> {
        let at = *self.index.get(&code)?;
        self.kept.get_mut(at as usize).map(|(_, l)| l)
    }

    /// The payments that keep something (only those whose challenge is
    /// open, when `open_only`), in no order, as `in_code_order` takes them.
    pub(crate) fn keys(&self, open_only: bool) -> Vec<(Code, u32)> {
        let mut keys = Vec::with_capacity(self.kept.len());
        for (code, later) in &self.kept {
            if !open_only || open(later) {
                keys.push((*code, 0));
            }
        }
        keys
    }

    /// Keeps what a payment keeps for later.
    pub(crate) fn keep(&mut self, code: Code, later: Later) {
        match self.get_mut(code) {
            Some(kept) => *kept = later,
            None => {
                self.index.insert(code, self.kept.len() as u32);
                self.kept.push((code, later));
            }
        }
    }

    /// Where the pay that made the plan stands in its trace.
    pub(crate) fn set_origin(&mut self, code: Code, origin: Origin) {
        let plan = self.get_mut(code).and_then(|l| l.plan.as_mut());
        if let Some(plan) = plan {
            plan.origin = origin;
        }
    }

    /// The due time of the payment's plan, while it has one.
    pub fn due_of(&self, code: Code) -> Option<i64> {
        self.get(code)?.plan.as_ref()?.due
    }

    /// The plans with a due time, in no order: what the due queue holds
    /// of them, made again when a service is restored.
    pub fn dues(&self) -> impl Iterator<Item = (i64, Code)> + '_ {
        let due = |(code, later): &(Code, Later)| Some((later.plan.as_ref()?.due?, *code));
        self.kept.iter().filter_map(due)
    }

    /// The payments whose challenge is open.
    pub(crate) fn open_challenges(&self) -> impl Iterator<Item = Code> + '_ {
        self.kept
            .iter()
            .filter_map(|(code, later)| open(later).then_some(*code))
    }
}

/// Whether the payment's challenge is open.
fn open(later: &Later) -> bool {
    matches!(
        later.plan.as_ref().map(|p| &p.step),
        Some(Step::Challenge { .. })
    )
}

/// The state a step ends in, and a failure's code and reason; `outcome`
/// is a challenge's (the buyer's or its rule's). A reversal of a payment
/// already refunded changes nothing.
pub fn end_of(
    step: &Step,
    outcome: Option<Outcome>,
    from: PaymentStatus,
) -> (PaymentStatus, Option<(&'static str, Rc<str>)>) {
    let failed =
        |code: &'static str, reason: &str| (PaymentStatus::Failed, Some((code, Rc::from(reason))));
    match step {
        Step::Challenge {
            fail_code,
            declined_after,
            ..
        } => match (outcome.unwrap_or(Outcome::Abandon), declined_after) {
            (Outcome::Pass, None) => (PaymentStatus::Success, None),
            (Outcome::Pass, Some(code)) => failed(code, "declined after authentication"),
            (Outcome::Fail, _) => failed(fail_code, "the buyer failed authentication"),
            (Outcome::Abandon, _) => failed(fail_code, "the buyer abandoned authentication"),
        },
        Step::Pending { pass: true, .. } => (PaymentStatus::Success, None),
        Step::Pending { code, .. } => failed(code, "declined after processing"),
        Step::Reversal { code, reason } if from == PaymentStatus::Success => {
            (PaymentStatus::Failed, Some((*code, Rc::clone(reason))))
        }
        Step::Reversal { .. } => (from, None),
    }
}
