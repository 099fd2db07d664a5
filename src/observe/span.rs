//! One timed piece of a request's work, and who did it, as tracing tools
//! draw it.

use super::event_class::EventClass;
#[cfg(feature = "serde")]
use super::status::LogStatus;

/// Who did the work a span covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum Component {
    Gateway,
    OrderService,
    PaymentService,
    ThirdParty,
    TestData,
    /// The webhook sender, delivering an event.
    Webhook,
}

impl Component {
    /// The service component that serves an event class.
    pub fn of(class: EventClass) -> Component {
        match class {
            EventClass::Order => Component::OrderService,
            EventClass::Payment => Component::PaymentService,
            EventClass::Test => Component::TestData,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Component::Gateway => "gateway",
            Component::OrderService => "order-service",
            Component::PaymentService => "payment-service",
            Component::ThirdParty => "third-party",
            Component::TestData => "test-data",
            Component::Webhook => "webhook",
        }
    }
}

#[cfg(feature = "serde")]
/// One timed piece of a request's work, as tracing tools draw it: the
/// form `spans()` hands out (the journal keeps a compact `SpanEntry`).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct Span {
    pub trace_id: String,
    pub span_id: String,
    pub parent_span_id: Option<String>,
    pub name: String,
    pub component: Component,
    /// Unix ms; simulated time measured from the request's arrival.
    pub start: i64,
    pub end: i64,
    pub status: LogStatus,
    /// Key and value pairs, OpenTelemetry semantic-convention names.
    pub attributes: Vec<(String, serde_json::Value)>,
}
