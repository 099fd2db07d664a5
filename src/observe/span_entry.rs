//! A span as the journal keeps it: ids as numbers, its attributes as the
//! few fixed facts they are made from, its name from the shared request
//! line.

use crate::prelude::*;

use alloc::borrow::Cow;
use alloc::rc::Rc;

use super::event_class::EventClass;
use super::ids::{SpanId, TraceId};
use super::payment_span::PaymentSpan;
use super::request_line::Call;
use super::span::Component;
use super::status::LogStatus;
use crate::sim::third_party::Verdict;

#[derive(Debug, Clone, PartialEq)]
pub struct SpanEntry {
    pub trace: TraceId,
    pub span: SpanId,
    pub parent: Option<SpanId>,
    /// Unix ms; simulated time measured from the request's arrival.
    pub start: i64,
    pub end: i64,
    pub status: LogStatus,
    pub part: Part,
}

/// Whose work the span covers, with what its attributes say.
#[derive(Debug, Clone, PartialEq)]
pub enum Part {
    Gateway {
        call: Rc<Call>,
        http_status: u16,
        code: i32,
        msg: Cow<'static, str>,
        /// A replay or a scenario's failure: none by default.
        mark: Option<Box<Mark>>,
    },
    Service {
        call: Rc<Call>,
        class: EventClass,
    },
    ThirdParty {
        approved: bool,
        attempt: u32,
        why: Why,
    },
    /// Due work done outside a request's answer (boxed: rare, and a span
    /// stays small; one variant, so that dropping a request's spans costs
    /// no more for it).
    Due(Box<DueSpan>),
}

/// The span of due work.
#[derive(Debug, Clone, PartialEq)]
pub enum DueSpan {
    /// A payment's change of state.
    Payment(PaymentSpan),
    /// A webhook delivery attempt (shared with its record).
    Webhook(Rc<super::webhook_attempt::WebhookAttempt>),
}

/// What a gateway span says besides the answer: a replay of a kept
/// answer, or a scenario's failure (its kind, rule and decline code).
#[derive(Debug, Clone, PartialEq)]
pub enum Mark {
    Replay,
    Fault(&'static str, Option<Rc<str>>, Option<&'static str>),
}

/// The third party's reason: made from its verdict when read, or the
/// text a restored snapshot brought.
#[derive(Debug, Clone, PartialEq)]
pub enum Why {
    Verdict(Verdict),
    Given(Box<str>),
}

impl Why {
    pub fn text(&self) -> Cow<'_, str> {
        match self {
            Why::Verdict(v) => Cow::Owned(v.reason()),
            Why::Given(text) => Cow::Borrowed(text),
        }
    }
}

impl SpanEntry {
    pub fn component(&self) -> Component {
        match &self.part {
            Part::Gateway { .. } => Component::Gateway,
            Part::Service { class, .. } => Component::of(*class),
            Part::ThirdParty { .. } => Component::ThirdParty,
            Part::Due(due) => match &**due {
                DueSpan::Payment(_) => Component::PaymentService,
                DueSpan::Webhook(_) => Component::Webhook,
            },
        }
    }

    /// The message of the span's OTLP error status: the kind of a fault
    /// that failed the request (all but a decline and a delay), else
    /// `server_error` for a server error; none when nothing failed.
    pub fn error(&self) -> Option<&'static str> {
        match &self.part {
            Part::Gateway { mark: Some(m), .. } => match &**m {
                Mark::Fault(kind, ..) if !matches!(*kind, "decline" | "delay") => Some(*kind),
                _ => None,
            },
            _ => None,
        }
        .or((self.status == LogStatus::ServerError).then_some("server_error"))
    }

    pub fn push_name(&self, out: &mut String) {
        match &self.part {
            Part::Gateway { call, .. } | Part::Service { call, .. } => call.push_span_name(out),
            Part::ThirdParty { .. } => out.push_str("authorize payment"),
            Part::Due(due) => match &**due {
                DueSpan::Payment(p) => p.push_name(out),
                DueSpan::Webhook(w) => w.push_name(out),
            },
        }
    }
}
