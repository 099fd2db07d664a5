//! The response envelope of the spec's part 2, and the HTTP response
//! around it for callers that want the status and headers too; and both
//! as JSON text, written by hand, for callers that pass text on.

use crate::prelude::*;

use alloc::rc::Rc;
use core::cell::OnceCell;

use super::error::ApiError;
use crate::domain::BatchReport;
use crate::domain::Order;
use crate::domain::{Payment, PaymentExtras};
use crate::json::write::{push_hex64, push_uint};
use crate::json::Out;
use crate::observe::{SpanId, TraceId};
use crate::sim::scenario::{Fault, Then};
use crate::sim::third_party::Failure;

/// `{code, msg, data}`: code 0 and msg `success` on success.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Envelope {
    pub code: i32,
    pub msg: String,
    pub data: Option<Data>,
}

/// The business payload of a successful answer.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(untagged))]
pub enum Data {
    Order(Order),
    Payment(Payment),
    Batch(BatchReport),
    /// The data of an answer kept under an `Idempotency-Key`, replayed as
    /// the JSON text it was first sent as.
    #[cfg_attr(
        feature = "serde",
        serde(skip_deserializing, serialize_with = "as_json")
    )]
    Kept(Rc<str>),
    /// A page instead of an envelope (the challenge page): the body is
    /// its HTML.
    #[cfg_attr(feature = "serde", serde(skip_deserializing))]
    Page(Box<Page>),
}

/// A page served instead of an envelope: its status (200, or 303 with a
/// `Location`), its HTML (empty for a 303) and where a 303 sends the
/// browser.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Page {
    pub status: u16,
    pub html: String,
    pub location: Option<String>,
}

impl Envelope {
    /// The page this answer is, if it is one.
    pub fn page(&self) -> Option<&Page> {
        match &self.data {
            Some(Data::Page(page)) => Some(page),
            _ => None,
        }
    }
}

impl Envelope {
    pub fn success(data: Option<Data>) -> Self {
        Envelope {
            code: 0,
            msg: "success".to_owned(),
            data,
        }
    }

    pub fn failure(error: &ApiError) -> Self {
        Envelope {
            code: error.code(),
            msg: error.msg(),
            data: None,
        }
    }

    /// The envelope as JSON text, the body of the HTTP response.
    pub fn to_json(&self) -> String {
        let mut out = Out::with_capacity(160);
        self.write(&mut out);
        out.text
    }

    /// The envelope as JSON; a page as its HTML, raw (the body an HTTP
    /// response carries, sent with its `text/html` header).
    pub fn write(&self, out: &mut Out) {
        if let Some(page) = self.page() {
            out.raw(&page.html);
            return;
        }
        out.begin_object();
        out.key("code");
        out.int(i64::from(self.code));
        out.key("msg");
        out.str(&self.msg);
        out.key("data");
        match &self.data {
            None => out.null(),
            Some(data) => data.write(out),
        }
        out.end_object();
    }
}

impl Data {
    pub fn write(&self, out: &mut Out) {
        match self {
            Data::Order(o) => order(out, o),
            Data::Payment(p) => payment(out, p),
            Data::Batch(b) => batch(out, b),
            Data::Kept(text) => out.raw(text),
            Data::Page(page) => out.raw(&page.html),
        }
    }
}

/// A kept answer's data as the JSON it is, for the native tests.
#[cfg(feature = "serde")]
fn as_json<S: serde::Serializer>(text: &Rc<str>, s: S) -> Result<S::Ok, S::Error> {
    use serde::Serialize;
    let value: serde_json::Value = serde_json::from_str(text).map_err(serde::ser::Error::custom)?;
    value.serialize(s)
}

pub fn order(out: &mut Out, o: &Order) {
    out.begin_object();
    out.key("orderId");
    out.str(&o.order_id);
    out.key("userId");
    out.str(&o.user_id);
    out.key("price");
    out.num(o.price.get());
    out.key("status");
    out.plain(o.status.as_str());
    out.key("description");
    out.str(&o.description);
    out.key("createdAt");
    out.int(o.created_at);
    out.end_object();
}

pub fn payment(out: &mut Out, p: &Payment) {
    out.begin_object();
    out.key("paymentId");
    out.str(&p.payment_id);
    out.key("orderId");
    out.str(&p.order_id);
    out.key("amount");
    out.num(p.amount.get());
    out.key("status");
    out.plain(p.status.as_str());
    out.key("paymentMethod");
    out.plain(p.payment_method.as_str());
    out.key("paidAt");
    out.int(p.paid_at);
    if let Some(extras) = &p.extras {
        later_members(out, extras);
    }
    out.end_object();
}

/// `nextAction` of a payment awaiting a challenge; `failureCode` and
/// `failureReason` of a failed one.
#[inline(never)]
fn later_members(out: &mut Out, p: &PaymentExtras) {
    if let Some(next) = &p.next_action {
        out.key("nextAction");
        out.begin_object();
        out.key("type");
        out.str(&next.kind);
        out.key("url");
        out.str(&next.url);
        out.end_object();
    }
    if let Some(code) = &p.failure_code {
        out.key("failureCode");
        out.str(code);
        out.key("failureReason");
        out.str(p.failure_reason.as_deref().unwrap_or_default());
    }
}

fn batch(out: &mut Out, b: &BatchReport) {
    out.begin_object();
    out.key("count");
    out.uint(u64::from(b.count));
    out.key("succeeded");
    out.uint(u64::from(b.succeeded));
    out.key("failed");
    out.uint(u64::from(b.failed));
    out.key("orderIds");
    out.begin_array();
    for id in &b.order_ids {
        out.str(id);
    }
    out.end_array();
    out.end_object();
}

/// What the response headers say: the trace context going out (B3 and
/// W3C), the simulated duration and, on a 405, the methods allowed. Kept
/// as these facts; written as text only when a header is read.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HeaderFacts {
    pub trace: TraceId,
    pub span: SpanId,
    pub parent: Option<SpanId>,
    pub sampled: bool,
    pub duration: u64,
    pub allow: Option<&'static str>,
    /// A replay of an answer kept under an `Idempotency-Key`.
    pub replayed: bool,
    /// The third party's verdict on a pay: its decline code, whoever
    /// decided it (a scenario's rule or a test card), is the one header
    /// `x-orderpay-decline-code` says, as the pay's record does.
    pub failure: Failure,
}

/// Response headers, lower-case names. A bare set (for an answer made
/// outside the gateway) has only `content-type`.
#[derive(Clone, Default)]
pub struct Headers {
    facts: Option<HeaderFacts>,
    /// The failure a scenario gave, which its own headers report.
    fault: Option<Box<Fault>>,
    /// Written as the answer leaves; a page's are written at once (its
    /// `text/html` and `Location`), so they take no room of their own.
    written: OnceCell<Written>,
}

/// The headers as text: values in one buffer, and where each one ends,
/// kept small because every response carries the cell it lives in (and
/// a response is moved on its way out).
#[derive(Clone, Default)]
struct Written {
    text: String,
    /// Index into `NAMES` and end in `text`, per header, in order: one
    /// fewer than the names, as the decline code and `retry-after`, and a
    /// page's `location` and `allow`, never come together.
    fields: [(u8, u16); 13],
    len: u8,
}

/// The names of the headers a response may carry.
const NAMES: [&str; 14] = [
    "content-type",
    "x-b3-traceid",
    "x-b3-spanid",
    "x-b3-sampled",
    "traceparent",
    "x-sim-duration-ms",
    "x-b3-parentspanid",
    "allow",
    "x-orderpay-rule",
    "x-orderpay-fault",
    "x-orderpay-decline-code",
    "retry-after",
    "idempotent-replayed",
    "location",
];

impl Written {
    fn add(&mut self, name: u8, write: impl FnOnce(&mut String)) {
        let Some(slot) = self.fields.get_mut(usize::from(self.len)) else {
            return;
        };
        write(&mut self.text);
        *slot = (name, u16::try_from(self.text.len()).unwrap_or(u16::MAX));
        self.len += 1;
    }
}

impl PartialEq for Headers {
    fn eq(&self, other: &Headers) -> bool {
        self.facts == other.facts
            && self.fault == other.fault
            && self.page_marks() == other.page_marks()
    }
}

impl Headers {
    pub fn of(facts: HeaderFacts) -> Headers {
        Headers {
            facts: Some(facts),
            fault: None,
            written: OnceCell::new(),
        }
    }

    /// These headers, for a page: `text/html`, and its `Location`.
    #[cold]
    #[inline(never)]
    pub fn with_page(self, location: Option<&str>) -> Headers {
        let written = self.write_out(Some(location));
        let _ = self.written.set(written);
        self
    }

    /// A page's `location`, `Some(None)` for a page without one; `None`
    /// for JSON.
    fn page_marks(&self) -> Option<Option<&str>> {
        let w = self.written.get()?;
        if !w.text.starts_with("text/html") {
            return None;
        }
        Some(self.iter().find(|(n, _)| *n == "location").map(|(_, v)| v))
    }

    /// These headers, with those of the failure a scenario gave.
    pub fn with_fault(mut self, fault: Option<Box<Fault>>) -> Headers {
        self.fault = fault;
        self
    }

    pub fn fault(&self) -> Option<&Fault> {
        self.fault.as_deref()
    }

    pub fn facts(&self) -> Option<&HeaderFacts> {
        self.facts.as_ref()
    }

    fn written(&self) -> &Written {
        self.written.get_or_init(|| self.write_out(None))
    }

    /// The headers as text; `page` is a page's `Location`, if any.
    fn write_out(&self, page: Option<Option<&str>>) -> Written {
        let mut w = Written {
            text: String::with_capacity(160),
            ..Written::default()
        };
        w.add(0, |t| {
            t.push_str(match page {
                Some(_) => "text/html; charset=utf-8",
                None => "application/json",
            })
        });
        if let Some(f) = &self.facts {
            let sampled = if f.sampled { "1" } else { "0" };
            w.add(1, |t| f.trace.push_hex(t));
            w.add(2, |t| push_hex64(t, f.span.0));
            w.add(3, |t| t.push_str(sampled));
            w.add(4, |t| {
                t.push_str("00-");
                f.trace.push_hex_128(t);
                t.push('-');
                push_hex64(t, f.span.0);
                t.push_str("-0");
                t.push_str(sampled);
            });
            w.add(5, |t| push_uint(t, f.duration));
            if let Some(parent) = f.parent {
                w.add(6, |t| push_hex64(t, parent.0));
            }
            if let Some(allow) = f.allow {
                w.add(7, |t| t.push_str(allow));
            }
            if f.replayed {
                w.add(12, |t| t.push_str("true"));
            }
        }
        if let Some(fault) = &self.fault {
            fault_headers(&mut w, fault);
        }
        if let Some(code) = self.facts.and_then(|f| f.failure.decline_code()) {
            w.add(10, |t| t.push_str(code));
        }
        if let Some(Some(location)) = page {
            w.add(13, |t| t.push_str(location));
        }
        w
    }

    pub fn iter(&self) -> impl Iterator<Item = (&'static str, &str)> + '_ {
        let w = self.written();
        let ends = w
            .fields
            .get(..usize::from(w.len))
            .unwrap_or_default()
            .iter();
        let starts = core::iter::once(0).chain(ends.clone().map(|&(_, end)| end));
        ends.zip(starts).map(|(&(name, to), from)| {
            let value = w.text.get(usize::from(from)..usize::from(to));
            let name = NAMES.get(usize::from(name)).copied().unwrap_or_default();
            (name, value.unwrap_or(""))
        })
    }
}

/// `x-orderpay-rule`, `x-orderpay-fault`, and the `retry-after` of a 429
/// or 503. A decline's code comes from the verdict (`HeaderFacts`).
fn fault_headers(w: &mut Written, fault: &Fault) {
    if let Some(rule) = &fault.rule {
        w.add(8, |t| t.push_str(rule));
    }
    w.add(9, |t| t.push_str(fault.then.kind()));
    if let Then::Http {
        status: 429 | 503,
        retry_after,
    } = fault.then
    {
        w.add(11, |t| push_uint(t, retry_after));
    }
}

impl core::fmt::Debug for Headers {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Headers {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

/// What an HTTP server would send: status, headers (lower-case names) and
/// the envelope as the body.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Response {
    pub status: u16,
    pub headers: Headers,
    pub body: Envelope,
}

impl Response {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v)
    }

    /// `{status, headers, body}` as JSON text: what `request()` returns;
    /// a page's HTML as a JSON string there.
    pub fn to_json(&self) -> String {
        let mut out = Out::with_capacity(400);
        out.begin_object();
        out.key("status");
        out.uint(u64::from(self.status));
        out.key("headers");
        out.begin_object();
        for (name, value) in self.headers.iter() {
            out.key(name);
            out.str(value);
        }
        out.end_object();
        out.key("body");
        match self.body.page() {
            Some(page) => out.str(&page.html),
            None => self.body.write(&mut out),
        }
        out.end_object();
        out.text
    }
}
