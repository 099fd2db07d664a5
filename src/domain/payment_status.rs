//! The states of a payment: the spec's SUCCESS and REFUNDED, and those a
//! payment that changes later passes through (REQUIRES_ACTION, PENDING,
//! FAILED). Its own file, so the plans and the payments both read it.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "SCREAMING_SNAKE_CASE"))]
pub enum PaymentStatus {
    Success,
    Refunded,
    RequiresAction,
    Pending,
    Failed,
}

impl PaymentStatus {
    pub const ALL: [PaymentStatus; 5] = [
        PaymentStatus::Success,
        PaymentStatus::Refunded,
        PaymentStatus::RequiresAction,
        PaymentStatus::Pending,
        PaymentStatus::Failed,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            PaymentStatus::Success => "SUCCESS",
            PaymentStatus::Refunded => "REFUNDED",
            PaymentStatus::RequiresAction => "REQUIRES_ACTION",
            PaymentStatus::Pending => "PENDING",
            PaymentStatus::Failed => "FAILED",
        }
    }

    /// Exactly as `as_str` writes it.
    pub fn parse(text: &str) -> Option<PaymentStatus> {
        PaymentStatus::ALL.into_iter().find(|s| s.as_str() == text)
    }
}
