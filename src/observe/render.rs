//! Records and spans as JSON text, written by hand straight from their
//! compact form: the one place their wire format is spelled out, for
//! `logs()`, `spans()`, NDJSON and snapshots alike.

use super::payment_span::PaymentSpan;
use super::webhook_attempt::WebhookAttempt;
use crate::domain::payment_plan::Cause;
use crate::prelude::*;

use super::entry::{Answer, Entry, Kept};
use super::event_class::EventClass;
use super::ids::SpanId;
use super::request_line::Call;
use super::span_entry::{DueSpan, Mark, Part, SpanEntry};
use super::status::LogStatus;
use super::tape::{Tape, Written};
use super::utc::push_iso8601;
use crate::domain::route_table::uri_group;
use crate::json::write::{escape_into, push_f64, push_hex64, push_int, push_uint};
use crate::json::Out;
use crate::sim::planned_change::PlannedChange;
use crate::sim::third_party::{Failure, Verdict};

impl LogStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            LogStatus::Success => "success",
            LogStatus::ServerError => "server_error",
            LogStatus::ClientError => "client_error",
        }
    }
}

/// `"traceId":"…","spanId":"…","parentSpanId":…`, the first members of a
/// record and of a span. Records and spans have fixed keys, so they are
/// written as fixed fragments and values straight into the text: one
/// call a fragment rather than one a comma, quote and key.
fn ids(t: &mut String, trace: &super::ids::TraceId, span: SpanId, parent: Option<SpanId>) {
    t.push_str("\"traceId\":\"");
    trace.push_hex(t);
    t.push_str("\",\"spanId\":\"");
    push_hex64(t, span.0);
    match parent {
        Some(p) => {
            t.push_str("\",\"parentSpanId\":\"");
            push_hex64(t, p.0);
            t.push('"');
        }
        None => t.push_str("\",\"parentSpanId\":null"),
    }
}

/// One log record as a JSON object, the spec's field names: the members
/// every record has, then those of its stage.
pub fn record(out: &mut Out, r: &Entry) {
    out.begin_object();
    fields(out, r);
    out.end_object();
}

/// One log record as an NDJSON line's object: `@timestamp`, its time in
/// ISO 8601 as log stores index it (Elasticsearch, Kibana), then the
/// record's own fields, the epoch `timestamp` among them.
pub fn ndjson_record(out: &mut Out, r: &Entry) {
    out.begin_object();
    out.text.push_str("\"@timestamp\":\"");
    push_iso8601(&mut out.text, r.timestamp);
    out.text.push_str("\",");
    fields(out, r);
    out.end_object();
}

/// A record's members, in the order `logs()` has always written them;
/// a response record's `fault` last, when a scenario gave one.
fn fields(out: &mut Out, r: &Entry) {
    if let Some(f) = match &r.stage {
        Kept::Response(_, answer) => answer.fault(),
        _ => None,
    } {
        fields_of(&mut out.text, r);
        out.text.push_str(",\"fault\":");
        out.reset();
        return f.write(out);
    }
    fields_of(&mut out.text, r);
}

fn fields_of(t: &mut String, r: &Entry) {
    t.push_str("\"seq\":");
    push_uint(t, r.seq);
    t.push_str(",\"timestamp\":");
    push_int(t, r.timestamp);
    t.push(',');
    ids(t, &r.trace, r.span, r.parent);
    match &r.stage {
        Kept::Gateway(call) => {
            t.push_str(",\"stage\":\"gateway\"");
            request_line(t, &call.method, &call.uri);
        }
        Kept::Service {
            event_class,
            duration,
            status,
            outcome,
        } => service_stage(t, *event_class, *duration, *status, outcome.as_ref()),
        Kept::Response(call, answer) => response_stage(t, call, answer),
        Kept::Due(due) => due.members(t),
    }
}

/// The members of a service record: which service, how long it took,
/// and the third party's decision where it made one.
fn service_stage(
    t: &mut String,
    event_class: EventClass,
    duration: u64,
    status: LogStatus,
    outcome: Option<&Verdict>,
) {
    t.push_str(",\"stage\":\"service\",\"event_class\":\"");
    t.push_str(event_class.as_str());
    t.push_str("\",\"duration\":");
    push_uint(t, duration);
    t.push_str(",\"status\":\"");
    t.push_str(status.as_str());
    t.push('"');
    if let Some(verdict) = outcome {
        t.push_str(",\"outcome\":");
        decision(t, verdict);
    }
}

/// The members of a response record: the request line, then the answer
/// as the caller got it.
fn response_stage(t: &mut String, call: &Call, answer: &Answer) {
    t.push_str(",\"stage\":\"response\"");
    request_line(t, &call.method, &call.uri);
    t.push_str(",\"event_class\":");
    match answer.event_class {
        Some(class) => {
            t.push('"');
            t.push_str(class.as_str());
            t.push('"');
        }
        None => t.push_str("null"),
    }
    t.push_str(",\"duration\":");
    match answer.duration {
        Some(d) => push_uint(t, d),
        None => t.push_str("null"),
    }
    t.push_str(",\"status\":\"");
    t.push_str(answer.status.as_str());
    t.push_str("\",\"httpStatus\":");
    push_uint(t, u64::from(answer.http_status));
    t.push_str(",\"code\":");
    push_int(t, i64::from(answer.code));
    t.push_str(",\"msg\":");
    escape_into(t, &answer.msg);
    t.push_str(",\"userId\":");
    match call.user_id.as_deref() {
        Some(user) => escape_into(t, user),
        None => t.push_str("null"),
    }
    if answer.replay() {
        t.push_str(",\"replay\":true");
    }
}

/// `,"method":…,"uri":…,"uri_group":…`
fn request_line(t: &mut String, method: &str, uri: &str) {
    t.push_str(",\"method\":");
    escape_into(t, method);
    t.push_str(",\"uri\":");
    escape_into(t, uri);
    t.push_str(",\"uri_group\":");
    match uri_group(uri) {
        Some(group) => {
            t.push('"');
            t.push_str(group);
            t.push('"');
        }
        None => t.push_str("null"),
    }
}

/// `outcome.async`: what a payment that changes later will do.
#[cold]
fn planned(t: &mut String, p: &PlannedChange) {
    t.push_str(",\"async\":{\"kind\":\"");
    t.push_str(p.kind);
    t.push_str("\",\"dueAt\":");
    match p.due {
        Some(due) => push_int(t, due),
        None => t.push_str("null"),
    }
    if let Some(o) = p.outcome {
        t.push_str(",\"outcome\":\"");
        t.push_str(o.as_str());
        t.push('"');
    }
    if let Some(code) = p.code {
        t.push_str(",\"code\":\"");
        t.push_str(code);
        t.push('"');
    }
    t.push('}');
}

/// The third party's decision and its reason, as the service record
/// carries it.
fn decision(t: &mut String, v: &Verdict) {
    t.push_str("{\"approved\":");
    t.push_str(if v.approved { "true" } else { "false" });
    t.push_str(",\"rule\":\"");
    t.push_str(v.rule.as_str());
    t.push('"');
    if let Some(name) = v.scenario_rule() {
        t.push_str(",\"scenarioRule\":");
        escape_into(t, name);
    }
    if let Some(card) = v.card {
        t.push_str(",\"card\":\"");
        t.push_str(card.number());
        t.push('"');
    }
    if let Some(p) = v.planned() {
        planned(t, p);
    }
    t.push_str(",\"attempt\":");
    push_uint(t, u64::from(v.attempt));
    t.push_str(",\"draw\":");
    push_f64(t, v.draw);
    t.push_str(",\"threshold\":");
    push_f64(t, v.threshold);
    if let Some(code) = v.failure.decline_code() {
        t.push_str(",\"declineCode\":\"");
        t.push_str(code);
        t.push('"');
    }
    match v.failure.third_party() {
        None => {}
        Some(("", status)) => {
            t.push_str(",\"thirdParty\":");
            push_uint(t, u64::from(status));
        }
        Some((word, _)) => {
            t.push_str(",\"thirdParty\":\"");
            t.push_str(word);
            t.push('"');
        }
    }
    t.push_str(",\"reason\":");
    escape_into(t, &v.reason());
    t.push('}');
}

/// One span as `spans()` shows it: attributes as `[key, value]` pairs.
pub fn span(out: &mut Out, s: &SpanEntry) {
    out.begin_object();
    let t = &mut out.text;
    ids(t, &s.trace, s.span, s.parent);
    t.push_str(",\"name\":");
    name(t, s);
    t.push_str(",\"component\":\"");
    t.push_str(s.component().name());
    t.push_str("\",\"start\":");
    push_int(t, s.start);
    t.push_str(",\"end\":");
    push_int(t, s.end);
    t.push_str(",\"status\":\"");
    t.push_str(s.status.as_str());
    t.push_str("\",\"attributes\":[");
    let mut first = true;
    attributes(s, &mut |key, value| {
        if !first {
            t.push(',');
        }
        first = false;
        t.push_str("[\"");
        t.push_str(key);
        t.push_str("\",");
        match value {
            Attr::Str(text) | Attr::Made(text) => escape_into(t, text),
            Attr::Int(n) => push_int(t, n),
            Attr::Bool(b) => t.push_str(if b { "true" } else { "false" }),
        }
        t.push(']');
    });
    t.push(']');
    out.end_object();
}

/// A span's name as a JSON string, for `spans()` and OTLP alike.
pub fn name(t: &mut String, s: &SpanEntry) {
    match &s.part {
        Part::Gateway { call, .. } | Part::Service { call, .. } => match call.template {
            // A template and a known method need no escaping; anything
            // else a caller sent goes through the escaper.
            Some(template) if call.method.bytes().all(|b| b.is_ascii_uppercase()) => {
                t.push('"');
                t.push_str(&call.method);
                t.push(' ');
                t.push_str(template);
                t.push('"');
            }
            _ => {
                let mut name = String::with_capacity(48);
                s.push_name(&mut name);
                escape_into(t, &name);
            }
        },
        Part::ThirdParty { .. } => t.push_str("\"authorize payment\""),
        Part::Due(_) => {
            let mut name = String::with_capacity(40);
            s.push_name(&mut name);
            escape_into(t, &name);
        }
    }
}

/// An attribute's value: OpenTelemetry's string, int or bool.
pub enum Attr<'a, 'm> {
    /// Text kept with the span (or in the program).
    Str(&'a str),
    /// Text made for this read, gone after it.
    Made(&'m str),
    Int(i64),
    Bool(bool),
}

/// A span's attributes, in order, with OpenTelemetry's semantic-convention
/// names, made from the facts the span keeps. `each` is a `dyn` callback so
/// the module holds one copy of this walk for its three writers (text,
/// tape, OTLP), not one per closure.
pub fn attributes<'a>(s: &'a SpanEntry, each: &mut dyn FnMut(&'static str, Attr<'a, '_>)) {
    match &s.part {
        Part::Gateway {
            call,
            http_status,
            code,
            msg,
            mark,
        } => {
            each("http.request.method", Attr::Str(&call.method));
            each("url.path", Attr::Str(&call.uri));
            // A request-phase network fault got no answer: no status, and
            // no code (0 would read as a success).
            if *http_status != 0 {
                each(
                    "http.response.status_code",
                    Attr::Int(i64::from(*http_status)),
                );
                each("orderpay.code", Attr::Int(i64::from(*code)));
            }
            each("orderpay.msg", Attr::Str(msg));
            if let Some(template) = call.template {
                each("http.route", Attr::Str(template));
            }
            if let Some(user) = &call.user_id {
                each("enduser.id", Attr::Str(user));
            }
            for (key, value) in marked(mark.as_deref()).into_iter().flatten() {
                each(key, value);
            }
        }
        Part::Service { class, .. } => each("orderpay.event_class", Attr::Str(class.as_str())),
        Part::ThirdParty {
            approved,
            attempt,
            why,
        } => {
            each("orderpay.approved", Attr::Bool(*approved));
            each("orderpay.attempt", Attr::Int(i64::from(*attempt)));
            each("orderpay.reason", Attr::Made(&why.text()));
        }
        Part::Due(due) => match &**due {
            DueSpan::Payment(p) => payment_attributes(p, each),
            DueSpan::Webhook(w) => webhook_attributes(w, each),
        },
    }
}

/// A payment change's span: the payment, its states, the rule, the
/// scenario's rule or card planned, a failure's code.
#[inline(never)]
fn payment_attributes<'a>(p: &'a PaymentSpan, each: &mut dyn FnMut(&'static str, Attr<'a, '_>)) {
    each("orderpay.payment.id", Attr::Made(&p.payment_id()));
    each("orderpay.payment.from", Attr::Str(p.from.as_str()));
    each("orderpay.payment.to", Attr::Str(p.to.as_str()));
    each("orderpay.rule", Attr::Str(p.rule()));
    match &p.cause {
        Cause::Scenario(name) => each("orderpay.scenario_rule", Attr::Str(name)),
        Cause::Card(number) => each("orderpay.card", Attr::Str(number)),
    }
    if let Some(code) = p.failure_code {
        each("orderpay.failure_code", Attr::Str(code));
    }
}

/// A webhook attempt's span: the request (`POST` and its URL, or the
/// handler), the answer, the endpoint, delivery, event and attempt, what
/// went wrong, the next attempt's time and the fault that touched it (its
/// kind, rule, and the whole fault as the record's JSON text).
#[inline(never)]
fn webhook_attributes<'a>(w: &'a WebhookAttempt, each: &mut dyn FnMut(&'static str, Attr<'a, '_>)) {
    each("http.request.method", Attr::Str("POST"));
    match &w.url {
        Some(url) => each("url.full", Attr::Str(url)),
        None => each("orderpay.webhook.handler", Attr::Bool(true)),
    }
    if let Some(status) = w.http_status {
        each("http.response.status_code", Attr::Int(i64::from(status)));
    }
    each("orderpay.webhook.endpoint", Attr::Str(&w.endpoint));
    each("orderpay.webhook.delivery", Attr::Str(&w.delivery));
    each("orderpay.event.id", Attr::Str(&w.event));
    each("orderpay.event.type", Attr::Str(w.event_type.as_str()));
    each("orderpay.webhook.attempt", Attr::Int(i64::from(w.n)));
    if let Some(error) = &w.error {
        each("error.type", Attr::Str(error));
    }
    if let Some(at) = w.next_at {
        each("orderpay.webhook.next_attempt_at", Attr::Int(at));
    }
    if let Some(fault) = &w.fault {
        each("orderpay.fault.kind", Attr::Str(fault.kind.kind()));
        each("orderpay.rule", Attr::Str(&fault.rule));
        let mut out = Out::default();
        fault.write(&mut out);
        each("orderpay.fault", Attr::Made(&out.text));
    }
}

/// What a gateway span's mark adds to its attributes: `orderpay.replay`,
/// or a fault's kind, rule and decline code (each when it has one).
fn marked(mark: Option<&Mark>) -> [Option<(&'static str, Attr<'_, 'static>)>; 3] {
    match mark {
        None => [None, None, None],
        Some(Mark::Replay) => [Some(("orderpay.replay", Attr::Bool(true))), None, None],
        Some(Mark::Fault(kind, rule, code)) => [
            Some(("orderpay.fault.kind", Attr::Str(kind))),
            rule.as_deref().map(|r| ("orderpay.rule", Attr::Str(r))),
            code.map(|c| ("payment.decline_code", Attr::Str(c))),
        ],
    }
}

/// Records as a JSON array.
pub fn records<'a>(all: impl Iterator<Item = &'a Entry>, count: usize) -> String {
    let mut out = Out::with_capacity(count * 260 + 2);
    out.begin_array();
    for r in all {
        record(&mut out, r);
    }
    out.end_array();
    out.text
}

/// Records as NDJSON: one object a line, as log shippers read them, each
/// with `@timestamp` first.
pub fn ndjson<'a>(all: impl Iterator<Item = &'a Entry>, count: usize) -> String {
    let mut text = String::with_capacity(count * 260);
    ndjson_lines(&mut text, all, usize::MAX);
    text
}

/// NDJSON lines of `records` until `text` holds at least `size` bytes (a
/// line is never split): how many were written. What `ndjson` writes,
/// a piece at a time.
pub fn ndjson_lines<'a>(
    text: &mut String,
    records: impl Iterator<Item = &'a Entry>,
    size: usize,
) -> usize {
    let mut out = Out::default();
    out.text = core::mem::take(text);
    let mut written = 0;
    for r in records {
        ndjson_record(&mut out, r);
        out.text.push('\n');
        out.reset();
        written += 1;
        if out.text.len() >= size {
            break;
        }
    }
    *text = out.text;
    written
}

/// Spans as a JSON array.
pub fn spans<'a>(all: impl Iterator<Item = &'a SpanEntry>, count: usize) -> String {
    let mut out = Out::with_capacity(count * 330 + 2);
    out.begin_array();
    for s in all {
        span(&mut out, s);
    }
    out.end_array();
    out.text
}

/// The shapes of records on a tape (`tape.rs`), each followed by its
/// fields in the order `record_on_tape` writes them: the JS layer's
/// `tape.js` reads them in that order.
pub mod shape {
    pub const GATEWAY: f64 = 0.0;
    pub const SERVICE: f64 = 1.0;
    /// A service record with the third party's decision.
    pub const DECIDED: f64 = 2.0;
    pub const RESPONSE: f64 = 3.0;
    /// `DECIDED`, then what a scenario made of it: the decline code, the
    /// third party's word or status, and the scenario's rule's name.
    pub const FAILED: f64 = 4.0;
    /// A response record of a replay (`"replay": true`).
    pub const REPLAYED: f64 = 5.0;
    /// `RESPONSE`, then its `fault` as JSON text.
    pub const FAULTED: f64 = 6.0;
    /// A payment's change or a webhook attempt: the members after the
    /// ids as one JSON object's text.
    pub const PAYMENT: f64 = 7.0;
    /// `SERVICE`, then its outcome as one JSON object's text: a
    /// decision a test card made, or one a scenario's rule made that
    /// changes later (its `card` or `scenarioRule`).
    pub const NOTED: f64 = 8.0;
}

/// The type of an attribute's value on a tape.
pub mod attr_type {
    pub const STR: f64 = 0.0;
    pub const INT: f64 = 1.0;
    pub const BOOL: f64 = 2.0;
}

/// A record's shape on a tape.
fn shape_of(r: &Entry) -> f64 {
    match &r.stage {
        Kept::Gateway(_) => shape::GATEWAY,
        Kept::Service { outcome: None, .. } => shape::SERVICE,
        Kept::Service {
            outcome: Some(v), ..
        } if noted(v) => shape::NOTED,
        Kept::Service {
            outcome: Some(v), ..
        } if v.failure != Failure::None => shape::FAILED,
        Kept::Service { .. } => shape::DECIDED,
        Kept::Response(_, answer) if answer.replay() => shape::REPLAYED,
        Kept::Response(_, answer) if answer.fault().is_some() => shape::FAULTED,
        Kept::Response(..) => shape::RESPONSE,
        Kept::Due(_) => shape::PAYMENT,
    }
}

/// Whether a decision goes on a tape whole, as text: one a test card
/// made, or an approval a scenario's rule made (a payment that changes
/// later), whose `card` or `scenarioRule` the fixed shapes lack.
fn noted(v: &Verdict) -> bool {
    v.card.is_some() || (v.scenario_rule().is_some() && v.failure == Failure::None)
}

/// One log record on a tape: the fields `record` writes as text, in its
/// order; `null` is a string index of -1 or a NaN number.
pub fn record_on_tape<'a>(tape: &mut Tape<'a>, r: &'a Entry) {
    let shape = shape_of(r);
    tape.num(shape);
    tape.int(r.seq as i64);
    tape.int(r.timestamp);
    tape.trace(&r.trace);
    tape.span(r.span);
    tape.opt_span(r.parent);
    match &r.stage {
        Kept::Gateway(call) => request_line_on_tape(tape, &call.method, &call.uri),
        Kept::Due(due) => tape.fresh(&due.object()),
        Kept::Service {
            event_class,
            duration,
            status,
            outcome,
        } => {
            tape.word(event_class.as_str());
            tape.int(*duration as i64);
            tape.word(status.as_str());
            if let Some(v) = outcome.as_ref().filter(|v| noted(v)) {
                let mut t = String::with_capacity(200);
                decision(&mut t, v);
                tape.fresh(&t);
            } else if let Some(v) = outcome {
                tape.flag(v.approved);
                tape.word(v.rule.as_str());
                tape.int(i64::from(v.attempt));
                tape.opt_num(Some(v.draw));
                tape.opt_num(Some(v.threshold));
                tape.fresh(&v.reason());
                if v.failure != Failure::None {
                    tape.opt_word(v.failure.decline_code());
                    let third = v.failure.third_party();
                    tape.opt_word(third.map(|(w, _)| w).filter(|w| !w.is_empty()));
                    tape.opt_num(third.filter(|t| t.1 > 0).map(|t| f64::from(t.1)));
                    tape.opt_word(v.scenario_rule());
                }
            }
        }
        Kept::Response(call, answer) => {
            request_line_on_tape(tape, &call.method, &call.uri);
            tape.opt_word(answer.event_class.map(|c| c.as_str()));
            tape.opt_num(answer.duration.map(|d| d as f64));
            tape.word(answer.status.as_str());
            tape.int(i64::from(answer.http_status));
            tape.int(i64::from(answer.code));
            tape.word(&answer.msg);
            tape.opt_word(call.user_id.as_deref());
            if let Some(fault) = answer.fault() {
                let mut out = Out::default();
                fault.write(&mut out);
                tape.fresh(&out.text);
            }
        }
    }
}

fn request_line_on_tape<'a>(tape: &mut Tape<'a>, method: &'a str, uri: &'a str) {
    tape.word(method);
    tape.word(uri);
    tape.opt_word(uri_group(uri));
}

/// Records on a tape, for `logs()`.
pub fn records_tape<'a>(all: impl Iterator<Item = &'a Entry>, count: usize) -> Written {
    let mut tape = Tape::new(count * 12, false);
    for r in all {
        record_on_tape(&mut tape, r);
    }
    tape.finish()
}

/// A span's name on a tape: one string for each route and method.
pub fn name_on_tape<'a>(tape: &mut Tape<'a>, s: &'a SpanEntry) {
    match &s.part {
        Part::Gateway { call, .. } | Part::Service { call, .. } => match call.template {
            Some(template) => tape.pair(&call.method, template),
            None => tape.word(&call.method),
        },
        Part::ThirdParty { .. } => tape.word("authorize payment"),
        Part::Due(_) => {
            let mut name = String::with_capacity(40);
            s.push_name(&mut name);
            tape.fresh(&name);
        }
    }
}

/// A span's attributes on a tape: how many, then each key, type and value.
pub fn attributes_on_tape<'a>(tape: &mut Tape<'a>, s: &'a SpanEntry) {
    let count_at = tape.numbers.len();
    tape.num(0.0);
    let mut count = 0u32;
    attributes(s, &mut |key, value| {
        count += 1;
        tape.word(key);
        match value {
            Attr::Str(text) => {
                tape.num(attr_type::STR);
                tape.word(text);
            }
            Attr::Made(text) => {
                tape.num(attr_type::STR);
                tape.fresh(text);
            }
            Attr::Int(n) => {
                tape.num(attr_type::INT);
                tape.int(n);
            }
            Attr::Bool(b) => {
                tape.num(attr_type::BOOL);
                tape.flag(b);
            }
        }
    });
    if let Some(slot) = tape.numbers.get_mut(count_at) {
        *slot = f64::from(count);
    }
}

/// Spans on a tape, for `spans()`: each the fields `span` writes as
/// text, in its order.
pub fn spans_tape<'a>(all: impl Iterator<Item = &'a SpanEntry>, count: usize) -> Written {
    spans_on_tape(all, count, None)
}

/// Each span's fields in `span`'s order, on a tape: for `spans()`, and for
/// the OTLP export (`otlp::export_tape`), whose JS layer makes its spans of
/// the same fields. Given `otlp_version`, the tape is for OTLP: that
/// version first, and the trace ids and times as OTLP writes them. One
/// function for both, so the module holds one copy of the walk.
#[inline(never)]
pub fn spans_on_tape<'a>(
    all: impl Iterator<Item = &'a SpanEntry>,
    count: usize,
    otlp_version: Option<&'static str>,
) -> Written {
    let mut tape = Tape::new(count * 30 + 1, otlp_version.is_some());
    if let Some(version) = otlp_version {
        tape.word(version);
    }
    for s in all {
        tape.trace(&s.trace);
        tape.span(s.span);
        tape.opt_span(s.parent);
        name_on_tape(&mut tape, s);
        tape.word(s.component().name());
        tape.time(s.start);
        tape.time(s.end);
        if otlp_version.is_some() {
            // OTLP's status: its error message, or none.
            tape.opt_word(s.error());
        } else {
            tape.word(s.status.as_str());
        }
        attributes_on_tape(&mut tape, s);
    }
    tape.finish()
}
