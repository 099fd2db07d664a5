//! Spans as OTLP/JSON, the OpenTelemetry wire format in its JSON form, so
//! a trace from this service can be sent to a collector, Jaeger or any
//! tool that reads OpenTelemetry. Written as text in one pass per
//! component, with no intermediate values.

use crate::prelude::*;

use super::render::{attributes, name, spans_on_tape, Attr};
use super::span::Component;
use super::span_entry::SpanEntry;
use super::tape::Written;
use super::unix_nanos::nanos;
use crate::json::write::{escape_into, push_hex64, push_int};
use crate::json::Out;

/// The order the export lists the components in (`tape.js`'s
/// `COMPONENTS` is the same list, by name).
const COMPONENTS: [Component; 6] = [
    Component::Gateway,
    Component::OrderService,
    Component::PaymentService,
    Component::ThirdParty,
    Component::TestData,
    Component::Webhook,
];

/// An `ExportTraceServiceRequest`: one resource per component, so each
/// shows as its own service in a tracing tool.
pub fn export<'a>(spans: impl Iterator<Item = &'a SpanEntry> + Clone, count: usize) -> String {
    let mut writer = Writer::new(spans.clone());
    writer.out.text.reserve(count * 700 + 64);
    writer.next(spans, usize::MAX).unwrap_or_default()
}

/// Where an export written in pieces has got to: which of the present
/// components, and how far through the spans.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Step {
    Begin,
    Open(usize),
    Spans(usize, usize),
    End,
    Done,
}

/// An export written a piece at a time, over spans that must not change
/// between pieces. The pieces joined are `export`'s text, byte for byte:
/// `export` is this writer asked for one piece of unbounded size.
pub struct Writer {
    /// The components that have spans, in `COMPONENTS` order.
    present: Vec<Component>,
    step: Step,
    out: Out,
    spans_done: usize,
}

impl Writer {
    pub fn new<'a>(spans: impl Iterator<Item = &'a SpanEntry>) -> Writer {
        let mut seen = [false; COMPONENTS.len()];
        for s in spans {
            if let Some(i) = COMPONENTS.iter().position(|&c| c == s.component()) {
                seen[i] = true;
            }
        }
        Writer {
            present: COMPONENTS
                .into_iter()
                .zip(seen)
                .filter_map(|(c, seen)| seen.then_some(c))
                .collect(),
            step: Step::Begin,
            out: Out::default(),
            spans_done: 0,
        }
    }

    /// The next piece: at least `size` bytes (a span is never split), or
    /// what is left; `None` once the whole export has been handed out.
    /// `spans` are the same spans each time.
    pub fn next<'a>(
        &mut self,
        spans: impl Iterator<Item = &'a SpanEntry> + Clone,
        size: usize,
    ) -> Option<String> {
        if self.step == Step::Done {
            return None;
        }
        while self.step != Step::Done && self.out.text.len() < size {
            self.step = self.advance(spans.clone(), size);
        }
        Some(core::mem::take(&mut self.out.text))
    }

    /// Spans written so far, each counted once per pass over them.
    pub fn spans_done(&self) -> usize {
        self.spans_done
    }

    /// Whether the whole export has been handed out.
    pub fn is_done(&self) -> bool {
        self.step == Step::Done
    }

    /// The passes over the spans a whole export makes (one a component).
    pub fn passes(&self) -> usize {
        self.present.len()
    }

    fn advance<'a>(&mut self, spans: impl Iterator<Item = &'a SpanEntry>, size: usize) -> Step {
        let out = &mut self.out;
        match self.step {
            Step::Begin => {
                out.begin_object();
                out.key("resourceSpans");
                out.begin_array();
                self.first_or_end(0)
            }
            Step::Open(c) => {
                if let Some(&component) = self.present.get(c) {
                    open(out, component);
                }
                Step::Spans(c, 0)
            }
            Step::Spans(c, from) => {
                let Some(&component) = self.present.get(c) else {
                    return Step::End;
                };
                let mut rest = spans.enumerate().skip(from).peekable();
                while let Some((i, s)) = rest.next() {
                    self.spans_done += 1;
                    if s.component() != component {
                        continue;
                    }
                    span(out, s);
                    if out.text.len() >= size && rest.peek().is_some() {
                        return Step::Spans(c, i + 1);
                    }
                }
                out.end_array();
                out.end_object();
                out.end_array();
                out.end_object();
                self.first_or_end(c + 1)
            }
            Step::End => {
                out.end_array();
                out.end_object();
                Step::Done
            }
            Step::Done => Step::Done,
        }
    }

    fn first_or_end(&self, c: usize) -> Step {
        if c < self.present.len() {
            Step::Open(c)
        } else {
            Step::End
        }
    }
}

/// A component's resource and scope, up to its list of spans.
fn open(out: &mut Out, component: Component) {
    out.begin_object();
    out.key("resource");
    out.begin_object();
    out.key("attributes");
    out.begin_array();
    key_value(out, "service.name", Attr::Str(component.name()));
    key_value(out, "service.namespace", Attr::Str("orderpay"));
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
}

/// One span, written as fixed fragments and values straight into the
/// text (its keys never change).
fn span(out: &mut Out, s: &SpanEntry) {
    out.begin_object();
    let t = &mut out.text;
    t.push_str("\"traceId\":\"");
    s.trace.push_hex_128(t);
    t.push_str("\",\"spanId\":\"");
    push_hex64(t, s.span.0);
    if let Some(parent) = s.parent {
        t.push_str("\",\"parentSpanId\":\"");
        push_hex64(t, parent.0);
    }
    t.push_str("\",\"name\":");
    name(t, s);
    // SpanKind: 2 is SERVER, 3 is CLIENT (the payment service calling out,
    // the webhook sender posting).
    t.push_str(
        if matches!(s.component(), Component::ThirdParty | Component::Webhook) {
            ",\"kind\":3,\"startTimeUnixNano\":"
        } else {
            ",\"kind\":2,\"startTimeUnixNano\":"
        },
    );
    nanos(t, s.start);
    t.push_str(",\"endTimeUnixNano\":");
    nanos(t, s.end);
    t.push_str(",\"attributes\":[");
    let mut first = true;
    attributes(s, &mut |key, value| {
        if !first {
            t.push(',');
        }
        first = false;
        attribute(t, key, value);
    });
    match s.error() {
        Some(message) => {
            t.push_str(r#"],"status":{"code":2,"message":""#);
            t.push_str(message);
            t.push_str("\"}");
        }
        None => t.push_str(r#"],"status":{}"#),
    }
    out.end_object();
}

/// An attribute as an OTLP `KeyValue`; integers go as strings, as
/// OTLP/JSON encodes int64.
fn attribute(t: &mut String, key: &str, value: Attr) {
    t.push_str("{\"key\":\"");
    t.push_str(key);
    match value {
        Attr::Str(text) | Attr::Made(text) => {
            t.push_str("\",\"value\":{\"stringValue\":");
            escape_into(t, text);
        }
        Attr::Int(n) => {
            t.push_str("\",\"value\":{\"intValue\":\"");
            push_int(t, n);
            t.push('"');
        }
        Attr::Bool(b) => {
            t.push_str("\",\"value\":{\"boolValue\":");
            t.push_str(if b { "true" } else { "false" });
        }
    }
    t.push_str("}}");
}

/// An OTLP `KeyValue`; integers go as strings, as OTLP/JSON encodes int64.
fn key_value(out: &mut Out, key: &str, value: Attr) {
    out.begin_object();
    out.key("key");
    out.plain(key);
    out.key("value");
    out.begin_object();
    match value {
        Attr::Str(text) | Attr::Made(text) => {
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

/// The export on a tape (`tape.rs`), for the JS layer to build: the
/// package's version, then the spans as `spans()`'s tape has them
/// (`render::spans_on_tape`), with 32-digit trace ids and the times as
/// OTLP's nanosecond strings. The JS layer puts each span under its
/// component in `COMPONENTS` order, with its kind and status, as `export`
/// writes them: one walk of a span's fields serves both reads, and one
/// pass keeps a trace's ids close together on the tape, where they are
/// found again.
pub fn export_tape<'a>(spans: impl Iterator<Item = &'a SpanEntry>, count: usize) -> Written {
    spans_on_tape(spans, count, Some(env!("CARGO_PKG_VERSION")))
}
