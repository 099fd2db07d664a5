//! Records and spans as JSON text, written by hand straight from their
//! compact form: the one place their wire format is spelled out, for
//! `logs()`, `spans()`, NDJSON and snapshots alike.

use super::entry::{Entry, Kept};
use super::ids::SpanId;
use super::span_entry::{Part, SpanEntry};
use super::status::LogStatus;
use crate::gateway::route::uri_group;
use crate::json::Out;
use crate::sim::third_party::Verdict;

impl LogStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            LogStatus::Success => "success",
            LogStatus::ServerError => "server_error",
            LogStatus::ClientError => "client_error",
        }
    }
}

fn ids(out: &mut Out, trace: &super::ids::TraceId, span: SpanId, parent: Option<SpanId>) {
    out.key("traceId");
    out.comma_then_quote();
    trace.push_hex(&mut out.text);
    out.text.push('"');
    out.key("spanId");
    out.hex64(span.0);
    out.key("parentSpanId");
    match parent {
        Some(p) => out.hex64(p.0),
        None => out.null(),
    }
}

/// One log record as a JSON object, the spec's field names.
pub fn record(out: &mut Out, r: &Entry) {
    out.begin_object();
    out.key("seq");
    out.uint(r.seq);
    out.key("timestamp");
    out.int(r.timestamp);
    ids(out, &r.trace, r.span, r.parent);
    match &r.stage {
        Kept::Gateway(call) => {
            out.key("stage");
            out.plain("gateway");
            request_line(out, &call.method, &call.uri);
        }
        Kept::Service {
            event_class,
            duration,
            status,
            outcome,
        } => {
            out.key("stage");
            out.plain("service");
            out.key("event_class");
            out.plain(event_class.as_str());
            out.key("duration");
            out.uint(*duration);
            out.key("status");
            out.plain(status.as_str());
            if let Some(verdict) = outcome {
                out.key("outcome");
                decision(out, verdict);
            }
        }
        Kept::Response(call, answer) => {
            out.key("stage");
            out.plain("response");
            request_line(out, &call.method, &call.uri);
            out.key("event_class");
            match answer.event_class {
                Some(class) => out.plain(class.as_str()),
                None => out.null(),
            }
            out.key("duration");
            out.opt_uint(answer.duration);
            out.key("status");
            out.plain(answer.status.as_str());
            out.key("httpStatus");
            out.uint(u64::from(answer.http_status));
            out.key("code");
            out.int(i64::from(answer.code));
            out.key("msg");
            out.str(&answer.msg);
            out.key("userId");
            out.opt_str(call.user_id.as_deref());
        }
    }
    out.end_object();
}

fn request_line(out: &mut Out, method: &str, uri: &str) {
    out.key("method");
    out.str(method);
    out.key("uri");
    out.str(uri);
    out.key("uri_group");
    match uri_group(uri) {
        Some(group) => out.plain(group),
        None => out.null(),
    }
}

/// The third party's decision and its reason, as the service record
/// carries it.
pub fn decision(out: &mut Out, v: &Verdict) {
    out.begin_object();
    out.key("approved");
    out.bool(v.approved);
    out.key("rule");
    out.plain(v.rule.as_str());
    out.key("attempt");
    out.uint(u64::from(v.attempt));
    out.key("draw");
    out.num(v.draw);
    out.key("threshold");
    out.num(v.threshold);
    out.key("reason");
    out.str(&v.reason());
    out.end_object();
}

/// One span as `spans()` shows it: attributes as `[key, value]` pairs.
pub fn span(out: &mut Out, s: &SpanEntry) {
    out.begin_object();
    ids(out, &s.trace, s.span, s.parent);
    out.key("name");
    let mut name = String::with_capacity(48);
    s.push_name(&mut name);
    out.str(&name);
    out.key("component");
    out.plain(s.component().name());
    out.key("start");
    out.int(s.start);
    out.key("end");
    out.int(s.end);
    out.key("status");
    out.plain(s.status.as_str());
    out.key("attributes");
    out.begin_array();
    attributes(s, |key, value| {
        out.begin_array();
        out.plain(key);
        match value {
            Attr::Str(text) => out.str(text),
            Attr::Int(n) => out.int(n),
            Attr::Bool(b) => out.bool(b),
        }
        out.end_array();
    });
    out.end_array();
    out.end_object();
}

/// An attribute's value: OpenTelemetry's string, int or bool.
pub enum Attr<'a> {
    Str(&'a str),
    Int(i64),
    Bool(bool),
}

/// A span's attributes, in order, with OpenTelemetry's semantic-convention
/// names, made from the facts the span keeps.
pub fn attributes(s: &SpanEntry, mut each: impl FnMut(&str, Attr)) {
    match &s.part {
        Part::Gateway {
            call,
            http_status,
            code,
            msg,
        } => {
            each("http.request.method", Attr::Str(&call.method));
            each("url.path", Attr::Str(&call.uri));
            each(
                "http.response.status_code",
                Attr::Int(i64::from(*http_status)),
            );
            each("orderpay.code", Attr::Int(i64::from(*code)));
            each("orderpay.msg", Attr::Str(msg));
            if let Some(template) = call.template {
                each("http.route", Attr::Str(template));
            }
            if let Some(user) = &call.user_id {
                each("enduser.id", Attr::Str(user));
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
            each("orderpay.reason", Attr::Str(&why.text()));
        }
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

/// Records as NDJSON: one object a line, as log shippers read them.
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
    out.text = std::mem::take(text);
    let mut written = 0;
    for r in records {
        record(&mut out, r);
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
