//! A log record as the journal keeps it: numbers and enums, the request
//! line shared, and no text made until someone reads it.

use crate::prelude::*;

use alloc::borrow::Cow;
use alloc::rc::Rc;

use super::event_class::EventClass;
use super::ids::{SpanId, TraceId};
use super::request_line::Call;
use super::status::LogStatus;
use crate::sim::scenario::Fault;
use crate::sim::third_party::Verdict;

/// One log record of the spec's part 6, compact.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub seq: u64,
    pub timestamp: i64,
    pub trace: TraceId,
    pub span: SpanId,
    pub parent: Option<SpanId>,
    pub stage: Kept,
}

/// What the record is about, by the stage of the request that wrote it.
#[derive(Debug, Clone, PartialEq)]
pub enum Kept {
    Gateway(Rc<Call>),
    Service {
        event_class: EventClass,
        duration: u64,
        status: LogStatus,
        outcome: Option<Verdict>,
    },
    Response(Rc<Call>, Answer),
    /// Due work done outside a request's answer (boxed: rare, and a
    /// record stays small; one variant, so that dropping a request's
    /// records costs no more for it).
    Due(Box<DueRecord>),
}

/// A record of due work.
#[derive(Debug, Clone, PartialEq)]
pub enum DueRecord {
    /// A payment's change of state, in the trace of the pay that planned it.
    Payment(crate::domain::payment_plan::Change),
    /// A webhook delivery attempt, in the trace of the request that
    /// caused its event (shared with its span).
    Webhook(Rc<super::webhook_attempt::WebhookAttempt>),
}

impl DueRecord {
    /// The members after the ids (`,"stage":…`).
    pub fn members(&self, t: &mut String) {
        match self {
            DueRecord::Payment(change) => super::payment_change::members(t, change),
            DueRecord::Webhook(w) => w.members(t),
        }
    }

    /// The members as one JSON object's text, for the tape.
    pub fn object(&self) -> String {
        match self {
            DueRecord::Payment(change) => super::payment_change::object(change),
            DueRecord::Webhook(w) => w.object(),
        }
    }
}

/// The answer a response record reports.
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    pub event_class: Option<EventClass>,
    pub duration: Option<u64>,
    pub status: LogStatus,
    pub http_status: u16,
    pub code: i32,
    pub msg: Cow<'static, str>,
    /// A replay, or a scenario's failure: none by default. One pointer,
    /// so a record stays within 128 bytes, moved without a call.
    pub extra: Option<Box<Extra>>,
}

/// What an answer may carry besides: a replay of an answer kept under an
/// `Idempotency-Key` (nothing ran), or the failure a scenario's rule gave
/// the request (or a drawn decline under a scenario), as `request()`
/// reports it.
#[derive(Debug, Clone, PartialEq)]
pub enum Extra {
    Replay,
    Fault(Fault),
}

impl Answer {
    pub fn replay(&self) -> bool {
        matches!(self.extra.as_deref(), Some(Extra::Replay))
    }

    pub fn fault(&self) -> Option<&Fault> {
        match self.extra.as_deref() {
            Some(Extra::Fault(fault)) => Some(fault),
            _ => None,
        }
    }
}

/// Where in a trace a record is written.
#[derive(Debug, Clone, Copy)]
pub struct At {
    pub trace: TraceId,
    pub span: SpanId,
    pub parent: Option<SpanId>,
}
