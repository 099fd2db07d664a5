//! A state change of an order or a payment, as the domain reports it:
//! every mutator that changes state returns one, `#[must_use]`, so no
//! caller can change state without handing it to the one place that
//! commits it (`gateway::exchange::transition::commit`), which writes its
//! event. It is small: the type and the row's code (an order or a payment
//! changes only its status, which the type names), and only what a read
//! of the row cannot show (a deleted order, a pay declined at once).

use crate::prelude::*;

use alloc::rc::Rc;

use super::code::Code;
use super::money::Money;
use super::payment_method::PaymentMethod;
use super::payment_status::PaymentStatus;
use crate::sim::third_party::Failure;

/// The eight kinds of event, named as webhooks name them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventType {
    OrderCreated,
    OrderPaid,
    OrderDeleted,
    PaymentSucceeded,
    PaymentFailed,
    PaymentRequiresAction,
    PaymentPending,
    PaymentRefunded,
}

impl EventType {
    pub const ALL: [EventType; 8] = [
        EventType::OrderCreated,
        EventType::OrderPaid,
        EventType::OrderDeleted,
        EventType::PaymentSucceeded,
        EventType::PaymentFailed,
        EventType::PaymentRequiresAction,
        EventType::PaymentPending,
        EventType::PaymentRefunded,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            EventType::OrderCreated => "order.created",
            EventType::OrderPaid => "order.paid",
            EventType::OrderDeleted => "order.deleted",
            EventType::PaymentSucceeded => "payment.succeeded",
            EventType::PaymentFailed => "payment.failed",
            EventType::PaymentRequiresAction => "payment.requires_action",
            EventType::PaymentPending => "payment.pending",
            EventType::PaymentRefunded => "payment.refunded",
        }
    }

    /// Exactly as `as_str` writes it.
    pub fn parse(text: &str) -> Option<EventType> {
        EventType::ALL.into_iter().find(|t| t.as_str() == text)
    }

    /// The event of a payment entering `status`.
    pub fn of_payment(status: PaymentStatus) -> EventType {
        match status {
            PaymentStatus::Success => EventType::PaymentSucceeded,
            PaymentStatus::Refunded => EventType::PaymentRefunded,
            PaymentStatus::RequiresAction => EventType::PaymentRequiresAction,
            PaymentStatus::Pending => EventType::PaymentPending,
            PaymentStatus::Failed => EventType::PaymentFailed,
        }
    }
}

/// What an event keeps beyond its type and its resource's code: nothing,
/// for most (a read of the row, with the status the type names, shows the
/// resource as it was then); the order itself, once deleted; what a pay
/// declined at once asked for (no payment is kept).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Detail {
    None,
    Gone(Box<Gone>),
    /// What a declined pay asked for (amount, method) and the third
    /// party's failure: its fields in the variant, so the tag shares
    /// their padding and an event stays 64 bytes.
    Declined(Money, PaymentMethod, Failure),
}

/// An order as it was when deleted (its code is the transition's).
#[derive(Debug, Clone, PartialEq)]
pub struct Gone {
    pub user_id: Rc<str>,
    pub description: Rc<str>,
    pub price: Money,
    pub created_at: i64,
}

/// What a declined pay asked for, and the third party's failure.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Declined {
    pub amount: Money,
    pub method: PaymentMethod,
    pub failure: Failure,
}

/// One state change: its event's type, the code of the order or payment
/// it changed, and what a read of that row cannot show.
#[must_use = "a state change is committed through exchange::transition::commit, which writes its event"]
#[derive(Debug, Clone, PartialEq)]
pub struct Transition {
    pub kind: EventType,
    pub code: Code,
    pub(crate) detail: Detail,
}

impl Transition {
    /// An order's change to `kind`.
    pub(crate) fn order(kind: EventType, code: Code) -> Transition {
        Transition {
            kind,
            code,
            detail: Detail::None,
        }
    }

    /// An order deleted, as it was.
    pub(crate) fn order_gone(code: Code, gone: Gone) -> Transition {
        Transition {
            kind: EventType::OrderDeleted,
            code,
            detail: Detail::Gone(Box::new(gone)),
        }
    }

    /// A payment's change into `status`.
    pub(crate) fn payment(code: Code, status: PaymentStatus) -> Transition {
        Transition {
            kind: EventType::of_payment(status),
            code,
            detail: Detail::None,
        }
    }

    /// A pay for the order `order` declined at once.
    pub fn declined(order: Code, declined: Declined) -> Transition {
        Transition {
            kind: EventType::PaymentFailed,
            code: order,
            detail: Detail::Declined(declined.amount, declined.method, declined.failure),
        }
    }

    /// The status the type names, of an order or a payment.
    pub fn payment_status(kind: EventType) -> Option<PaymentStatus> {
        PaymentStatus::ALL
            .into_iter()
            .find(|s| EventType::of_payment(*s) == kind)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_type_reads_back_as_written_and_nothing_else() {
        for t in EventType::ALL {
            assert_eq!(EventType::parse(t.as_str()), Some(t));
        }
        for bad in ["order", "payment.*", "Order.created", ""] {
            assert_eq!(EventType::parse(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn a_payment_entering_each_state_has_its_own_type() {
        let kinds: Vec<_> = PaymentStatus::ALL
            .into_iter()
            .map(EventType::of_payment)
            .collect();
        for t in EventType::ALL
            .iter()
            .filter(|t| t.as_str().starts_with("payment."))
        {
            assert_eq!(kinds.iter().filter(|k| *k == t).count(), 1, "{t:?}");
        }
    }
}
