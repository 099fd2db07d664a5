//! One log record of the spec's part 6, and the stage of the request that
//! wrote it.

use super::event_class::EventClass;
use super::status::LogStatus;
use crate::sim::third_party::Decision;

/// One log record, in the form `logs()` hands out (the journal keeps a
/// compact `Entry`). The field names are the spec's own, snake and camel
/// case mixed as it writes them.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct LogRecord {
    /// Position in the journal, counting from 1; gaps show dropped records.
    pub seq: u64,
    /// Unix time in milliseconds.
    pub timestamp: i64,
    #[cfg_attr(feature = "serde", serde(rename = "traceId"))]
    pub trace_id: String,
    /// The span this record belongs to: the gateway's for the gateway and
    /// response records, the service's for the service record.
    #[cfg_attr(feature = "serde", serde(rename = "spanId"))]
    pub span_id: String,
    #[cfg_attr(feature = "serde", serde(rename = "parentSpanId"))]
    pub parent_span_id: Option<String>,
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub stage: Stage,
}

/// What the record is about, by the stage of the request that wrote it.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(tag = "stage", rename_all = "lowercase"))]
pub enum Stage {
    /// The gateway received the request.
    Gateway {
        method: String,
        uri: String,
        uri_group: Option<String>,
    },
    /// A service handled it.
    Service {
        event_class: EventClass,
        duration: u64,
        status: LogStatus,
        /// For payment pay: what the third party decided, and why.
        #[cfg_attr(
            feature = "serde",
            serde(default, skip_serializing_if = "Option::is_none")
        )]
        outcome: Option<Decision>,
    },
    /// The answer went out: the whole logging context.
    Response {
        method: String,
        uri: String,
        uri_group: Option<String>,
        event_class: Option<EventClass>,
        duration: Option<u64>,
        status: LogStatus,
        #[cfg_attr(feature = "serde", serde(rename = "httpStatus"))]
        http_status: u16,
        code: i32,
        msg: String,
        #[cfg_attr(feature = "serde", serde(rename = "userId"))]
        user_id: Option<String>,
        /// Only on a replay of an answer kept under an `Idempotency-Key`.
        #[cfg_attr(
            feature = "serde",
            serde(default, skip_serializing_if = "core::ops::Not::not")
        )]
        replay: bool,
    },
    /// A payment changed state, in the trace of the pay that planned it.
    #[cfg(feature = "serde")]
    #[serde(rename_all = "camelCase")]
    Payment {
        #[serde(rename = "event_class")]
        event_class: EventClass,
        payment_id: String,
        from: String,
        to: String,
        kind: String,
        /// `{rule: "scenario", scenarioRule}`, `{rule: "card", card}`, or
        /// `{rule: "buyer", outcome, planned}`.
        cause: serde_json::Value,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        failure_code: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        failure_reason: Option<String>,
    },
    /// A webhook delivery attempt, in the trace of the request that
    /// caused its event: `url`, or `handler: true` for an in-process one.
    #[cfg(feature = "serde")]
    #[serde(rename_all = "camelCase")]
    Webhook {
        endpoint_id: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        url: Option<String>,
        #[serde(default, skip_serializing_if = "core::ops::Not::not")]
        handler: bool,
        delivery_id: String,
        event_id: String,
        event_type: String,
        attempt: u32,
        status: LogStatus,
        http_status: Option<u16>,
        duration_ms: u64,
        error: Option<String>,
        next_attempt_at: Option<i64>,
        /// `{kind, rule, …}`, when a delivery rule's fault touched it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        fault: Option<serde_json::Value>,
    },
}
