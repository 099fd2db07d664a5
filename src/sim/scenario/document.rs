//! A scenario document: an ordered list of rules, each a matcher (`when`)
//! and a failure (`then`), as `parse.rs` reads it, checked.

use crate::prelude::*;

use super::delivery::Delivery;

/// At most this many rules in a document.
pub const MAX_RULES: usize = 100;
/// At most this many characters in a string of the document.
pub const MAX_TEXT: usize = 256;
/// At most this many characters in a name.
pub const MAX_NAME: usize = 64;
/// The longest simulated time a failure may take or add: one hour.
pub const MAX_MS: u64 = 3_600_000;
/// The longest wait of a payment's change (`challenge`, `pending`,
/// `reversal`): seven days.
pub const MAX_ASYNC_MS: u64 = 604_800_000;
/// The longest `Retry-After`, in seconds: one day.
pub const MAX_RETRY_AFTER: u64 = 86_400;

/// Stripe's decline codes a `decline` may give.
pub const DECLINE_CODES: [&str; 12] = [
    "generic_decline",
    "insufficient_funds",
    "lost_card",
    "stolen_card",
    "expired_card",
    "incorrect_cvc",
    "processing_error",
    "authentication_required",
    "card_declined",
    "do_not_honor",
    "card_velocity_exceeded",
    "fraudulent",
];

/// The decline code `text` names, as the one kept in `DECLINE_CODES`:
/// one finder for every reader of a code written back.
#[inline(never)]
pub fn decline_code(text: &str) -> Option<&'static str> {
    DECLINE_CODES.iter().find(|c| **c == text).copied()
}

/// The network faults, as the document names them.
pub const NETWORK_FAULTS: [&str; 6] = ["reset", "empty", "short", "hang", "dribble", "error"];

/// The kinds of `then` that act on a request, as the document names them
/// (the delivery kinds are `delivery::DELIVERY_KINDS`).
pub const KINDS: [&str; 9] = [
    "decline",
    "timeout",
    "processor_error",
    "http",
    "delay",
    "network",
    "challenge",
    "pending",
    "reversal",
];

/// How a challenge (3-D Secure) ends: the buyer passes, fails or
/// abandons it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Pass,
    Fail,
    Abandon,
}

impl Outcome {
    pub const ALL: [Outcome; 3] = [Outcome::Pass, Outcome::Fail, Outcome::Abandon];

    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Pass => "pass",
            Outcome::Fail => "fail",
            Outcome::Abandon => "abandon",
        }
    }

    /// Exactly `pass`, `fail` or `abandon`.
    pub fn parse(text: &str) -> Option<Outcome> {
        Outcome::ALL.into_iter().find(|o| o.as_str() == text)
    }
}

/// What a wrong outcome is told, in the same words wherever one is given
/// (the challenge page, `completeChallenge`, a snapshot's plan).
pub const OUTCOME_WORDS: &str = "must be pass, fail or abandon";

/// The statuses an `http` failure may answer.
pub const HTTP_STATUSES: [u16; 4] = [429, 502, 503, 504];

/// The words of the service a document is checked against: the layers
/// above know the routes and the payment methods, so they hand them in.
#[derive(Clone, Copy)]
pub struct Words {
    /// A documented template (`/api/order/{orderId}`) or a group (`order`).
    /// Its id: a template's or a group's, as `Facts` gives a request's.
    pub route: fn(&str) -> Option<u8>,
    pub payment_method: fn(&str) -> bool,
}

/// A whole document, checked.
#[derive(Debug, Clone, PartialEq)]
pub struct Document {
    pub name: Option<String>,
    pub rules: Vec<Rule>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Rule {
    /// As given, or `rules[i]`.
    pub name: String,
    pub when: When,
    pub then: Then,
}

/// The matchers and the conditions of a rule; absent means any.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct When {
    /// A route's or a group's id (`Words::route`): matched by number. A
    /// delivery rule's is `delivery::EVENTS_ONLY`, which no request has.
    pub route: Option<u8>,
    pub method: Option<&'static str>,
    pub user_id: Option<String>,
    pub payment_method: Option<String>,
    pub amount: Option<f64>,
    pub order_id: Option<String>,
    /// The header's name (lower case) and value.
    pub header: Option<(String, String)>,
    /// A delivery rule's event type or group (an id in
    /// `delivery::EVENT_TYPES`).
    pub event: Option<u8>,
    pub nth: Option<u64>,
    pub every: Option<u64>,
    pub calls: Option<(u64, u64)>,
    pub from: Option<i64>,
    pub until: Option<i64>,
    pub for_ms: Option<u64>,
    pub probability: Option<f64>,
    pub times: Option<u64>,
}

/// Where a network fault strikes: before the service runs, or after, its
/// answer lost on the way back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    Request,
    Response,
}

impl Phase {
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Request => "request",
            Phase::Response => "response",
        }
    }
}

/// What a rule that fires does.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Then {
    /// Pay only: the third party declines, with one of `DECLINE_CODES`.
    Decline { code: &'static str },
    /// Pay only: the third party does not answer within `after_ms`.
    Timeout { after_ms: u64 },
    /// Pay only: the third party answers a 5xx.
    ProcessorError { status: u16 },
    /// The gateway answers 429, 502, 503 or 504; nothing runs.
    Http { status: u16, retry_after: u64 },
    /// `ms` more of simulated time, then the answer as usual.
    Delay { ms: u64 },
    /// One of `NETWORK_FAULTS`.
    Network {
        fault: &'static str,
        ms: u64,
        phase: Phase,
    },
    /// Pay only: the payment waits for a 3-D Secure challenge; `outcome`
    /// (when given) ends it by itself after `after_ms`; `code` is the
    /// decline code of a failed or abandoned one.
    Challenge {
        outcome: Option<Outcome>,
        after_ms: u64,
        code: &'static str,
    },
    /// Pay only: the payment is processing for `for_ms`, then succeeds
    /// (`pass`) or fails with `code`.
    Pending {
        for_ms: u64,
        pass: bool,
        code: &'static str,
    },
    /// Pay only: the payment succeeds, then fails after `after_ms`, with
    /// `code` and the reason `REVERSAL_REASON`. `Then` stays `Copy`: a rule
    /// carries no text of its own for it to clone.
    Reversal { after_ms: u64, code: &'static str },
    /// Acts on a webhook's delivery, not on a request (`delivery.rs`).
    Delivery(Delivery),
}

/// A scenario's reversal's `failureReason`.
pub const REVERSAL_REASON: &str = "reversed after it succeeded";

impl Then {
    /// The kind, as the document names it.
    pub fn kind(&self) -> &'static str {
        match self {
            Then::Decline { .. } => "decline",
            Then::Timeout { .. } => "timeout",
            Then::ProcessorError { .. } => "processor_error",
            Then::Http { .. } => "http",
            Then::Delay { .. } => "delay",
            Then::Network { .. } => "network",
            Then::Challenge { .. } => "challenge",
            Then::Pending { .. } => "pending",
            Then::Reversal { .. } => "reversal",
            Then::Delivery(d) => d.kind(),
        }
    }

    /// Whether it acts at the third party, and so fires only on a payment.
    pub fn pay_only(&self) -> bool {
        matches!(
            self,
            Then::Decline { .. }
                | Then::Timeout { .. }
                | Then::ProcessorError { .. }
                | Then::Challenge { .. }
                | Then::Pending { .. }
                | Then::Reversal { .. }
        )
    }

    /// Whether the payment is kept and changes later on the service's
    /// clock (a challenge, a pending payment, a reversal).
    pub fn changes_later(&self) -> bool {
        matches!(
            self,
            Then::Challenge { .. } | Then::Pending { .. } | Then::Reversal { .. }
        )
    }
}

impl When {
    /// Whether it reads a field of the body.
    pub fn reads_body(&self) -> bool {
        self.user_id.is_some()
            || self.payment_method.is_some()
            || self.amount.is_some()
            || self.order_id.is_some()
    }
}
