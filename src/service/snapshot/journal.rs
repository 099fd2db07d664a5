//! Records and spans read back from a snapshot's JSON into their compact
//! form: the inverse of `render`, refusing what it would never write. With
//! the snapshot's other readers, on their field helpers; its refusals are
//! short (`` `seq`: expected a whole number ``), `journal_error` places them.

use crate::prelude::*;

use crate::json::message::{msg, Whole};

use alloc::borrow::Cow;
use alloc::collections::VecDeque;
use alloc::rc::Rc;

use super::fields::{out_of, Ticked};
use super::record_fields::{
    attr_int, attr_text, attribute, expected_at, field, int, optional, text, uint, Read,
};
use crate::domain::code::Code;
use crate::domain::payment::{PaymentStatus, PREFIX as PAYMENT};
use crate::domain::payment_plan::Cause;
use crate::domain::route_table::template_named;
use crate::domain::test_card;
use crate::json::Json;
use crate::observe::entry::{Answer, DueRecord, Entry, Extra, Kept};
use crate::observe::event_class::EventClass;
use crate::observe::ids::{SpanId, TraceId};
use crate::observe::journal::Journal;
use crate::observe::payment_span::PaymentSpan;
use crate::observe::request_line::{method_word, Call};
use crate::observe::span_entry::{DueSpan, Mark, Part, SpanEntry, Why};
use crate::observe::status::LogStatus;
use crate::sim::planned_change::PlannedChange;
use crate::sim::scenario::document::{decline_code, DECLINE_CODES, KINDS};
use crate::sim::scenario::Fault;
use crate::sim::scenario::Outcome;
use crate::sim::third_party::{DecidedBy, Failure, Verdict, VerdictExtras};

fn small<T: TryFrom<i64>>(o: &Json<'_>, name: &str) -> Read<T> {
    T::try_from(int(o, name)?).map_err(|_| out_of(&Ticked(name), "out of range").msg)
}

fn number(o: &Json<'_>, name: &str) -> Read<f64> {
    field(o, name)?
        .as_f64()
        .ok_or_else(|| expected_at(name, "a number"))
}

fn trace(o: &Json<'_>) -> Read<TraceId> {
    TraceId::parse(text(o, "traceId")?).ok_or_else(|| "`traceId`: not a trace id".to_owned())
}

fn span_id(o: &Json<'_>, name: &str) -> Read<SpanId> {
    SpanId::parse(text(o, name)?).ok_or_else(|| msg!("`", name, "`: not a span id"))
}

fn parent(o: &Json<'_>) -> Read<Option<SpanId>> {
    optional(o, "parentSpanId", text)?
        .map(|p| SpanId::parse(p).ok_or_else(|| "`parentSpanId`: not a span id".to_owned()))
        .transpose()
}

fn status(o: &Json<'_>) -> Read<LogStatus> {
    status_word(text(o, "status")?)
}

pub(super) fn status_word(word: &str) -> Read<LogStatus> {
    match word {
        "success" => Ok(LogStatus::Success),
        "server_error" => Ok(LogStatus::ServerError),
        "client_error" => Ok(LogStatus::ClientError),
        other => Err(msg!("`status`: unknown ", Whole(other))),
    }
}

pub(super) fn event_class(word: &str) -> Read<EventClass> {
    [EventClass::Order, EventClass::Payment, EventClass::Test]
        .into_iter()
        .find(|c| c.as_str() == word)
        .ok_or_else(|| msg!("`event_class`: unknown ", Whole(word)))
}

/// The calls read last, so the records and spans of one request share one
/// `Call`, as they do in a running service.
#[derive(Default)]
pub struct Calls {
    /// Calls of records, by method, uri and user.
    records: VecDeque<Rc<Call>>,
    /// Every call the records made, in their order. The gateway spans come
    /// in the same order, later: each looks for its call from `next` on,
    /// and shares it when it is the same, with no copy and no route
    /// matched again.
    made: Vec<Rc<Call>>,
    next: usize,
    /// Calls of spans, by span name, uri (when the span gives one) and user.
    spans: VecDeque<(Box<str>, bool, Rc<Call>)>,
}

/// Enough for the records and spans of a request and its neighbours.
const RECENT: usize = 4;

/// How many of the records' calls past `next` a gateway span looks at.
const AHEAD: usize = 8;

/// A span's name as its method, the path it names and the route that path
/// matches. A malformed method is kept as given, spaces and all; a route
/// template never holds one, so the name splits at its last space, and
/// only when what follows is the route of what precedes.
fn split_name(name: &str) -> (&str, &str, Option<&'static str>) {
    // The last space, found by byte (no UTF-8 character holds that byte).
    let space = name.bytes().rposition(|b| b == b' ');
    let named = space
        .and_then(|at| Some((name.get(..at)?, name.get(at + 1..)?)))
        .and_then(|(method, path)| Some((method, path, template_named(method, path)?)));
    match named {
        Some((method, path, template)) => (method, path, Some(template)),
        None => (name, "", template_named(name, "")),
    }
}

impl Calls {
    pub(super) fn of_record(&mut self, method: &str, uri: &str, user: Option<&str>) -> Rc<Call> {
        let same =
            |c: &&Rc<Call>| c.method == method && &*c.uri == uri && c.user_id.as_deref() == user;
        if let Some(call) = self.records.iter().find(same) {
            return call.clone();
        }
        // The gateway record's call has no user, the response's has: the
        // second takes the first one's route rather than match it again.
        // A path met before that is matched anew, which costs less than
        // searching a table of the paths seen, most of them new (a path
        // names its order).
        let template = match self
            .records
            .iter()
            .find(|c| &*c.uri == uri && c.method == method)
        {
            Some(c) => c.template,
            None => template_named(method, uri),
        };
        let call = Call {
            method: method_word(method),
            uri: Cow::Owned(uri.to_owned()),
            template,
            user_id: user.map(Into::into),
        }
        .shared();
        if self.records.len() == RECENT {
            self.records.pop_back();
        }
        self.records.push_front(call.clone());
        self.made.push(call.clone());
        call
    }

    /// The request line of a span, from its name (`POST
    /// /api/order/create`) and, for the gateway's, its attributes.
    fn span_call(&mut self, name: &str, uri: Option<&str>, user: Option<&str>) -> Call {
        let (method, path, template) = split_name(name);
        Call {
            method: method_word(method),
            uri: Cow::Owned(uri.unwrap_or(path).to_owned()),
            template,
            user_id: user.map(Into::into),
        }
    }

    /// The records' call a gateway span names, when it is exactly the
    /// call `span_call` would make of the span.
    fn of_records(&mut self, name: &str, uri: &str, user: Option<&str>) -> Option<Rc<Call>> {
        let (method, _, template) = split_name(name);
        let ahead = self.made.get(self.next..)?.iter().take(AHEAD);
        let found = ahead.clone().position(|c| {
            &*c.uri == uri
                && *c.method == *method
                && c.template == template
                && c.user_id.as_deref() == user
        })?;
        self.next += found + 1;
        ahead.clone().nth(found).cloned()
    }

    pub(super) fn of_span(
        &mut self,
        name: &str,
        uri: Option<&str>,
        user: Option<&str>,
    ) -> Rc<Call> {
        if let Some(uri) = uri {
            if let Some(call) = self.of_records(name, uri, user) {
                return call;
            }
        }
        let same = |(n, given, c): &&(Box<str>, bool, Rc<Call>)| {
            &**n == name
                && *given == uri.is_some()
                && uri.is_none_or(|u| &*c.uri == u)
                && c.user_id.as_deref() == user
        };
        if let Some((_, _, call)) = self.spans.iter().find(same) {
            return call.clone();
        }
        let call = self.span_call(name, uri, user).shared();
        if self.spans.len() == RECENT {
            self.spans.pop_back();
        }
        self.spans
            .push_front((name.into(), uri.is_some(), call.clone()));
        call
    }
}

fn call(o: &Json<'_>, user_id: Option<&str>, calls: &mut Calls) -> Read<Rc<Call>> {
    let method = text(o, "method")?;
    let uri = text(o, "uri")?;
    Ok(calls.of_record(method, uri, user_id))
}

/// A pay's `outcome.async`, field by field.
fn planned(a: &Json<'_>) -> Read<PlannedChange> {
    let due = field(a, "dueAt")?;
    Ok(PlannedChange {
        kind: PlannedChange::kind_of(text(a, "kind")?).ok_or("kind`: unknown")?,
        due: match due.as_u64() {
            _ if due.is_null() => None,
            Some(ms) => Some(i64::try_from(ms).map_err(|_| "dueAt`: too large")?),
            None => return Err("dueAt`: expected a time or null".into()),
        },
        outcome: match optional(a, "outcome", text)? {
            None => None,
            Some(o) => Some(Outcome::parse(o).ok_or("outcome`: unknown")?),
        },
        code: match optional(a, "code", text)? {
            None => None,
            Some(c) => Some(
                Failure::declined(c)
                    .decline_code()
                    .ok_or("code`: not a decline code")?,
            ),
        },
    })
}

fn verdict(o: &Json<'_>) -> Read<Verdict> {
    Ok(Verdict {
        approved: field(o, "approved")?
            .as_bool()
            .ok_or("`approved`: expected a boolean")?,
        rule: DecidedBy::parse(text(o, "rule")?).ok_or("`rule`: unknown")?,
        attempt: small(o, "attempt")?,
        draw: number(o, "draw")?,
        threshold: number(o, "threshold")?,
        failure: Failure::read(
            optional(o, "declineCode", text)?,
            o.get("thirdParty").and_then(Json::as_str),
            o.get("thirdParty").and_then(Json::as_u64),
        )
        .ok_or("`declineCode`, `thirdParty`: not what a scenario gives")?,
        extras: VerdictExtras::of(
            optional(o, "scenarioRule", text)?.map(Rc::from),
            match o.get("async") {
                None => None,
                Some(a) => Some(planned(a).map_err(|e| String::from("`async.") + &e)?),
            },
        ),
        card: match optional(o, "card", text)? {
            None => None,
            Some(number) => Some(
                crate::domain::test_card::find(number)
                    .and_then(|c| crate::domain::test_card::CardIx::of(c.number))
                    .ok_or("`card`: not a test card's number")?,
            ),
        },
    })
}

fn record(o: &Json<'_>, calls: &mut Calls) -> Read<Entry> {
    let stage = match text(o, "stage")? {
        "gateway" => Kept::Gateway(call(o, None, calls)?),
        "service" => Kept::Service {
            event_class: event_class(text(o, "event_class")?)?,
            duration: uint(o, "duration")?,
            status: status(o)?,
            outcome: match o.get("outcome") {
                None | Some(Json::Null) => None,
                Some(v) => Some(verdict(v)?),
            },
        },
        "response" => Kept::Response(
            call(o, optional(o, "userId", text)?, calls)?,
            Answer {
                event_class: optional(o, "event_class", text)?
                    .map(event_class)
                    .transpose()?,
                duration: optional(o, "duration", uint)?,
                status: status(o)?,
                http_status: small(o, "httpStatus")?,
                code: small(o, "code")?,
                msg: Cow::Owned(text(o, "msg")?.to_owned()),
                extra: match (o.get("replay"), o.get("fault")) {
                    (None, None) => None,
                    (Some(Json::Bool(true)), None) => Some(Box::new(Extra::Replay)),
                    (None, Some(v)) => Some(Box::new(Extra::Fault(
                        Fault::read(v).ok_or("`fault`: not a failure a scenario gives")?,
                    ))),
                    _ => return Err("`replay`: expected true, or no member".to_owned()),
                },
            },
        ),
        "webhook" => Kept::Due(Box::new(DueRecord::Webhook(Rc::new(
            super::attempt_record::of_record(o)?,
        )))),
        "payment" => {
            let [high, low, wide] = trace(o)?.parts();
            let parent = parent(o)?.map_or(0, |p| p.0);
            let at = int(o, "timestamp")?;
            let change = super::change_record::read(o, at, [high, low, wide, parent])?;
            Kept::Due(Box::new(DueRecord::Payment(change)))
        }
        other => return Err(msg!("`stage`: unknown ", Whole(other))),
    };
    Ok(Entry {
        seq: uint(o, "seq")?,
        timestamp: int(o, "timestamp")?,
        trace: trace(o)?,
        span: span_id(o, "spanId")?,
        parent: parent(o)?,
        stage,
    })
}

/// A payment change's span, from its attributes.
#[inline(never)]
fn payment_part(o: &Json<'_>) -> Read<Part> {
    let text = |key: &str| attribute(o, key).and_then(Json::as_str);
    let read = || {
        let status = |key: &str| text(key).and_then(PaymentStatus::parse);
        let cause = match text("orderpay.card") {
            Some(number) => Cause::Card(test_card::find(number)?.number),
            None => Cause::Scenario(Rc::from(text("orderpay.scenario_rule")?)),
        };
        let failure_code = match text("orderpay.failure_code") {
            Some(given) => Some(decline_code(given)?),
            None => None,
        };
        Some(PaymentSpan {
            code: Code::parse(PAYMENT, text("orderpay.payment.id")?)?,
            from: status("orderpay.payment.from")?,
            to: status("orderpay.payment.to")?,
            by_buyer: text("orderpay.rule")? == "buyer",
            cause,
            failure_code,
        })
    };
    let span = read().ok_or("span attributes of a payment's change: not as written")?;
    Ok(Part::Due(Box::new(DueSpan::Payment(span))))
}

/// A gateway span's status or code: none (0) when a network fault in
/// the request phase left no answer.
fn answered<T: TryFrom<i64> + Default>(o: &Json<'_>, key: &str) -> Read<T> {
    match attribute(o, key) {
        None => Ok(T::default()),
        Some(_) => attr_int(o, key),
    }
}

/// A span's call, shared with the spans before it when the same.
fn span_call_of(o: &Json<'_>, calls: &mut Calls) -> Read<Rc<Call>> {
    let name = text(o, "name")?;
    let uri = attribute(o, "url.path").and_then(Json::as_str);
    let user = attribute(o, "enduser.id").and_then(Json::as_str);
    Ok(calls.of_span(name, uri, user))
}

/// A gateway span's replay or scenario failure, from its attributes.
fn mark(o: &Json<'_>) -> Read<Option<Box<Mark>>> {
    if attribute(o, "orderpay.replay").is_some() {
        return Ok(Some(Box::new(Mark::Replay)));
    }
    let word = |key, words: &[&'static str]| {
        let given = attribute(o, key).and_then(Json::as_str);
        words.iter().find(|w| Some(**w) == given).copied()
    };
    if attribute(o, "orderpay.fault.kind").is_none() {
        return Ok(None);
    }
    let kind = word("orderpay.fault.kind", &KINDS)
        .ok_or("span attribute `orderpay.fault.kind`: unknown")?;
    let rule = attribute(o, "orderpay.rule").and_then(Json::as_str);
    let code = word("payment.decline_code", &DECLINE_CODES);
    Ok(Some(Box::new(Mark::Fault(kind, rule.map(Rc::from), code))))
}

fn span(o: &Json<'_>, calls: &mut Calls) -> Read<SpanEntry> {
    let part = match text(o, "component")? {
        "gateway" => Part::Gateway {
            call: span_call_of(o, calls)?,
            http_status: answered(o, "http.response.status_code")?,
            code: answered(o, "orderpay.code")?,
            msg: Cow::Owned(attr_text(o, "orderpay.msg")?.to_owned()),
            mark: mark(o)?,
        },
        "third-party" => Part::ThirdParty {
            approved: attribute(o, "orderpay.approved")
                .and_then(Json::as_bool)
                .ok_or("span attribute `orderpay.approved`: expected a boolean")?,
            attempt: attr_int(o, "orderpay.attempt")?,
            why: Why::Given(attr_text(o, "orderpay.reason")?.into()),
        },
        "payment-service" if attribute(o, "orderpay.payment.id").is_some() => payment_part(o)?,
        "webhook" => Part::Due(Box::new(DueSpan::Webhook(Rc::new(
            super::attempt_record::of_span(o)?,
        )))),
        _ => Part::Service {
            call: span_call_of(o, calls)?,
            class: event_class(attr_text(o, "orderpay.event_class")?)?,
        },
    };
    let entry = SpanEntry {
        trace: trace(o)?,
        span: span_id(o, "spanId")?,
        parent: parent(o)?,
        start: int(o, "start")?,
        end: int(o, "end")?,
        status: status(o)?,
        part,
    };
    if entry.component().name() != text(o, "component")? {
        return Err("span `component`: does not match its attributes".to_owned());
    }
    Ok(entry)
}

/// A journal's list `name`: there, and an array.
fn array(o: &Json<'_>, name: &str) -> Read<()> {
    field(o, name)?
        .as_array()
        .ok_or_else(|| expected_at(name, "an array"))?;
    Ok(())
}

/// The journal of a snapshot, its records and spans read one by one as
/// the text came (`record_at`, `span_at`), each with its first refusal.
/// A list is read whenever it is there and an array, checked here first,
/// so a list not read is never one that had rows.
pub fn journal_with(
    o: &Json<'_>,
    records: Option<Read<VecDeque<Entry>>>,
    spans: Option<Read<VecDeque<SpanEntry>>>,
) -> Read<Journal> {
    Ok(Journal {
        capacity: usize::try_from(uint(o, "capacity")?).map_err(|_| "`capacity`: too large")?,
        records: {
            array(o, "records")?;
            records.unwrap_or_else(|| Ok(VecDeque::new()))?
        },
        dropped: uint(o, "dropped")?,
        next_seq: uint(o, "next_seq")?,
        spans: {
            array(o, "spans")?;
            spans.unwrap_or_else(|| Ok(VecDeque::new()))?
        },
    })
}

/// The `i`th record of a snapshot's journal, refused as `journal` would.
pub fn record_at(o: &Json<'_>, i: usize, calls: &mut Calls) -> Read<Entry> {
    record(o, calls).map_err(|e| msg!("records[", i, "]: ", e))
}

/// The `i`th span of a snapshot's journal, refused as `journal` would.
pub fn span_at(o: &Json<'_>, i: usize, calls: &mut Calls) -> Read<SpanEntry> {
    span(o, calls).map_err(|e| msg!("spans[", i, "]: ", e))
}
