//! The documented business answers: what the services say when they say
//! no. They live with the domain; the gateway decides how they look on
//! the wire (HTTP 200, code -1).

/// A documented business outcome: HTTP 200, code -1, and the exact msg of
/// the spec (or of the README's behaviour table where the spec is silent).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rejection {
    PriceNotPositive,
    AmountNotPositive,
    PaidOrderCannotBeDeleted,
    OrderAlreadyPaid,
    ThirdPartyFailed,
    OnlySuccessCanBeRefunded,
    OrderNotFound,
    PaymentNotFound,
}

impl Rejection {
    pub fn msg(self) -> &'static str {
        match self {
            Rejection::PriceNotPositive => "price must be > 0",
            Rejection::AmountNotPositive => "amount must be > 0",
            Rejection::PaidOrderCannotBeDeleted => "Paid order cannot be deleted",
            Rejection::OrderAlreadyPaid => "Order already paid",
            Rejection::ThirdPartyFailed => "Third party payment failed",
            Rejection::OnlySuccessCanBeRefunded => "Only success payment can be refunded",
            Rejection::OrderNotFound => "Order not found",
            Rejection::PaymentNotFound => "Payment not found",
        }
    }
}
