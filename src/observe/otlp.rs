//! Spans as OTLP/JSON, the OpenTelemetry wire format in its JSON form, so
//! a trace from this service can be sent to a collector, Jaeger or any
//! tool that reads OpenTelemetry. Written as text in one pass per
//! component, with no intermediate values.

use super::render::{attributes, Attr};
use super::span::Component;
use super::span_entry::SpanEntry;
use super::status::LogStatus;
use crate::json::write::push_int;
use crate::json::Out;

const COMPONENTS: [Component; 5] = [
    Component::Gateway,
    Component::OrderService,
    Component::PaymentService,
    Component::ThirdParty,
    Component::TestData,
];

/// An `ExportTraceServiceRequest`: one resource per component, so each
/// shows as its own service in a tracing tool.
pub fn export<'a>(spans: impl Iterator<Item = &'a SpanEntry> + Clone, count: usize) -> String {
    let mut out = Out::with_capacity(count * 700 + 64);
    out.begin_object();
    out.key("resourceSpans");
    out.begin_array();
    for component in COMPONENTS {
        let mut mine = spans
            .clone()
            .filter(|s| s.component() == component)
            .peekable();
        if mine.peek().is_none() {
            continue;
        }
        out.begin_object();
        out.key("resource");
        out.begin_object();
        out.key("attributes");
        out.begin_array();
        key_value(&mut out, "service.name", Attr::Str(component.name()));
        key_value(&mut out, "service.namespace", Attr::Str("orderpay"));
        out.end_array();
        out.end_object();
        out.key("scopeSpans");
        out.begin_array();
        out.begin_object();
        out.key("scope");
        out.begin_object();
        out.key("name");
        out.plain("orderpay");
        out.key("version");
        out.plain(env!("CARGO_PKG_VERSION"));
        out.end_object();
        out.key("spans");
        out.begin_array();
        for s in mine {
            span(&mut out, s);
        }
        out.end_array();
        out.end_object();
        out.end_array();
        out.end_object();
    }
    out.end_array();
    out.end_object();
    out.text
}

fn span(out: &mut Out, s: &SpanEntry) {
    out.begin_object();
    out.key("traceId");
    out.comma_then_quote();
    s.trace.push_hex_128(&mut out.text);
    out.text.push('"');
    out.key("spanId");
    out.hex64(s.span.0);
    if let Some(parent) = s.parent {
        out.key("parentSpanId");
        out.hex64(parent.0);
    }
    out.key("name");
    let mut name = String::with_capacity(48);
    s.push_name(&mut name);
    out.str(&name);
    // SpanKind: 2 is SERVER, 3 is CLIENT (the payment service calling out).
    out.key("kind");
    out.uint(if s.component() == Component::ThirdParty {
        3
    } else {
        2
    });
    out.key("startTimeUnixNano");
    nanos(out, s.start);
    out.key("endTimeUnixNano");
    nanos(out, s.end);
    out.key("attributes");
    out.begin_array();
    attributes(s, |key, value| key_value(out, key, value));
    out.end_array();
    out.key("status");
    if s.status == LogStatus::ServerError {
        out.raw(r#"{"code":2,"message":"server_error"}"#);
    } else {
        out.raw("{}");
    }
    out.end_object();
}

/// Unix ms as OTLP's nanoseconds, a decimal string (int64 in OTLP/JSON).
fn nanos(out: &mut Out, ms: i64) {
    out.comma_then_quote();
    push_int(&mut out.text, ms);
    if ms != 0 {
        out.text.push_str("000000");
    }
    out.text.push('"');
}

/// An OTLP `KeyValue`; integers go as strings, as OTLP/JSON encodes int64.
fn key_value(out: &mut Out, key: &str, value: Attr) {
    out.begin_object();
    out.key("key");
    out.plain(key);
    out.key("value");
    out.begin_object();
    match value {
        Attr::Str(text) => {
            out.key("stringValue");
            out.str(text);
        }
        Attr::Int(n) => {
            out.key("intValue");
            out.comma_then_quote();
            push_int(&mut out.text, n);
            out.text.push('"');
        }
        Attr::Bool(b) => {
            out.key("boolValue");
            out.bool(b);
        }
    }
    out.end_object();
    out.end_object();
}
