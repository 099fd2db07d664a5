//! A webhook delivery attempt as the journal keeps it: the log record of
//! stage `webhook` and the span `webhook POST <url>` (or `webhook
//! handler`), both made of these facts, in the trace of the request that
//! caused the event, at the attempt's time on the service's clock. Rare,
//! so kept whole (ids as text) and shared by the record and the span.

use crate::prelude::*;

use crate::domain::transition::EventType;
use crate::json::write::{escape_into, push_int, push_uint};
use crate::json::Out;
use crate::sim::scenario::DeliveryFault;

use super::status::LogStatus;

/// One attempt, once reported.
#[derive(Debug, Clone, PartialEq)]
pub struct WebhookAttempt {
    /// `we_<n>`.
    pub endpoint: Box<str>,
    /// The endpoint's URL; none for an in-process handler.
    pub url: Option<Box<str>>,
    /// `wd_<n>`.
    pub delivery: Box<str>,
    /// `evt_…`.
    pub event: Box<str>,
    pub event_type: EventType,
    pub n: u32,
    /// The receiver's status; none when no answer came.
    pub http_status: Option<u16>,
    pub duration_ms: u64,
    pub error: Option<Box<str>>,
    /// When the next attempt is due; none when the delivery finished.
    pub next_at: Option<i64>,
    pub fault: Option<DeliveryFault>,
}

impl WebhookAttempt {
    /// `success` for a 2xx, `client_error` for a 4xx, else (no answer, a
    /// 5xx or anything else) `server_error`.
    pub fn status(&self) -> LogStatus {
        match self.http_status {
            Some(200..=299) => LogStatus::Success,
            Some(400..=499) => LogStatus::ClientError,
            _ => LogStatus::ServerError,
        }
    }

    /// `webhook POST http://…` or `webhook handler`.
    pub fn push_name(&self, out: &mut String) {
        match &self.url {
            Some(url) => {
                out.push_str("webhook POST ");
                out.push_str(url);
            }
            None => out.push_str("webhook handler"),
        }
    }

    /// The members after the ids: `,"stage":"webhook","endpointId":…,
    /// "url":…` (or `"handler":true`), `"deliveryId"`, `"eventId"`,
    /// `"eventType"`, `"attempt"`, `"status"`, `"httpStatus"`,
    /// `"durationMs"`, `"error"`, `"nextAttemptAt"`, and `"fault"` when one
    /// touched the attempt.
    pub fn members(&self, t: &mut String) {
        t.push_str(",\"stage\":\"webhook\",\"endpointId\":");
        escape_into(t, &self.endpoint);
        match &self.url {
            Some(url) => {
                t.push_str(",\"url\":");
                escape_into(t, url);
            }
            None => t.push_str(",\"handler\":true"),
        }
        t.push_str(",\"deliveryId\":");
        escape_into(t, &self.delivery);
        t.push_str(",\"eventId\":");
        escape_into(t, &self.event);
        t.push_str(",\"eventType\":\"");
        t.push_str(self.event_type.as_str());
        t.push_str("\",\"attempt\":");
        push_uint(t, u64::from(self.n));
        t.push_str(",\"status\":\"");
        t.push_str(self.status().as_str());
        t.push_str("\",\"httpStatus\":");
        match self.http_status {
            Some(s) => push_uint(t, u64::from(s)),
            None => t.push_str("null"),
        }
        t.push_str(",\"durationMs\":");
        push_uint(t, self.duration_ms);
        t.push_str(",\"error\":");
        match &self.error {
            Some(e) => escape_into(t, e),
            None => t.push_str("null"),
        }
        t.push_str(",\"nextAttemptAt\":");
        match self.next_at {
            Some(at) => push_int(t, at),
            None => t.push_str("null"),
        }
        if let Some(fault) = &self.fault {
            t.push_str(",\"fault\":");
            let mut out = Out::default();
            fault.write(&mut out);
            t.push_str(&out.text);
        }
    }

    /// The members as one JSON object's text, for the tape.
    pub fn object(&self) -> String {
        let mut t = String::with_capacity(300);
        self.members(&mut t);
        let mut o = String::with_capacity(t.len() + 1);
        o.push('{');
        o.push_str(t.get(1..).unwrap_or_default());
        o.push('}');
        o
    }
}
