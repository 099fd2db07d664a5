//! Records and spans read back from the text exactly as `render` writes
//! it, straight into their compact form: each member is expected in its
//! place, by its literal key, and each value is read where it stands, so
//! a row costs one pass over its bytes and no tree. Restoring 100,000
//! records through a tree spends most of its time building, searching and
//! freeing one small tree a row.
//!
//! Anything else (spaces, another order, a member more or less, a value
//! `render` never writes, text that is not JSON) gives `None`, and the row
//! is read again as a tree by `journal`, which takes it or refuses it with
//! its own messages. What is taken here is exactly what the tree would
//! give: strings and numbers go through the JSON reader's own steps, and
//! the words and ids through the same parsers.

use crate::prelude::*;

use alloc::borrow::Cow;
use alloc::rc::Rc;

use super::journal::Calls;
use crate::json::read::{string_stop, Reader};
use crate::json::{number, Json};
use crate::observe::entry::{Answer, Entry, Extra, Kept};
use crate::observe::event_class::EventClass;
use crate::observe::ids::{SpanId, TraceId};
use crate::observe::span_entry::{Part, SpanEntry, Why};
use crate::observe::status::LogStatus;
use crate::sim::third_party::{DecidedBy, Failure, Verdict, VerdictExtras};

/// A place in a row's text.
struct Cursor<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Cursor<'a> {
    /// The bytes of `expected`, next: eight at a time, as words, then
    /// one at a time.
    fn lit(&mut self, expected: &str) -> Option<()> {
        let mut found = self.text.as_bytes().get(self.at..)?;
        let mut want = expected.as_bytes();
        while let (Some((a, found_rest)), Some((b, want_rest))) = (
            found.split_first_chunk::<8>(),
            want.split_first_chunk::<8>(),
        ) {
            if u64::from_ne_bytes(*a) != u64::from_ne_bytes(*b) {
                return None;
            }
            found = found_rest;
            want = want_rest;
        }
        if found.len() < want.len() {
            return None;
        }
        for (a, b) in found.iter().zip(want) {
            if a != b {
                return None;
            }
        }
        self.at += expected.len();
        Some(())
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    /// A string, decoded as the JSON reader decodes it: a plain one (no
    /// escape, no control character) is the text between its quotes, the
    /// rest go through the reader's own steps.
    fn string(&mut self) -> Option<Cow<'a, str>> {
        let bytes = self.text.as_bytes();
        if !matches!(bytes.get(self.at), Some(b'"')) {
            return None;
        }
        let from = self.at + 1;
        let rest = bytes.get(from..)?;
        if let Some(len) = string_stop(rest) {
            if matches!(rest.get(len), Some(b'"')) {
                let text = self.text.get(from..from + len)?;
                self.at = from + len + 1;
                return Some(Cow::Borrowed(text));
            }
        }
        let mut r = Reader::at_offset(self.text, self.at);
        let s = r.string().ok()?;
        self.at = r.at;
        Some(s)
    }

    /// `null`, or a string.
    fn opt_string(&mut self) -> Option<Option<Cow<'a, str>>> {
        if self.lit("null").is_some() {
            return Some(None);
        }
        self.string().map(Some)
    }

    /// A number's text, as the JSON reader takes it.
    fn number(&mut self) -> Option<&'a str> {
        if !matches!(self.peek(), Some(b'-' | b'0'..=b'9')) {
            return None;
        }
        // The common case, a whole number of at most 15 digits with no
        // leading zero: the reader would take the same text, and need
        // not parse it as a double to know it is finite.
        let bytes = self.text.as_bytes();
        let from = self.at + usize::from(matches!(bytes.get(self.at), Some(b'-')));
        let mut end = from;
        while let Some(b'0'..=b'9') = bytes.get(end) {
            end += 1;
        }
        let whole = !matches!(bytes.get(end), Some(b'.' | b'e' | b'E'));
        let digits = end - from;
        if whole
            && (1..=15).contains(&digits)
            && (digits == 1 || !matches!(bytes.get(from), Some(b'0')))
        {
            let text = self.text.get(self.at..end)?;
            self.at = end;
            return Some(text);
        }
        let mut r = Reader::at_offset(self.text, self.at);
        let Ok(Json::Num(text)) = r.value(0) else {
            return None;
        };
        self.at = r.at;
        Some(text)
    }

    /// A whole number as `render` writes one (a minus, then 1 to 15
    /// digits with no leading zero), its sign and value read as it is
    /// scanned; `None`, not moved, for any other number.
    fn plain_whole(&mut self) -> Option<(bool, u64)> {
        let bytes = self.text.as_bytes();
        let negative = matches!(bytes.get(self.at), Some(b'-'));
        let from = self.at + usize::from(negative);
        let mut end = from;
        let mut value = 0u64;
        while let Some(&b) = bytes.get(end) {
            let digit = b.wrapping_sub(b'0');
            if digit > 9 {
                break;
            }
            value = value * 10 + u64::from(digit);
            end += 1;
            if end - from > 15 {
                return None;
            }
        }
        let digits = end - from;
        let plain = !matches!(bytes.get(end), Some(b'.' | b'e' | b'E'))
            && digits >= 1
            && (digits == 1 || !matches!(bytes.get(from), Some(b'0')));
        if !plain {
            return None;
        }
        self.at = end;
        Some((negative, value))
    }

    fn uint(&mut self) -> Option<u64> {
        match self.plain_whole() {
            // What `parse` says of a minus sign before a `u64`.
            Some((negative, value)) => (!negative).then_some(value),
            None => number::parse_u64(self.number()?),
        }
    }

    fn int(&mut self) -> Option<i64> {
        match self.plain_whole() {
            // At most 15 digits: well inside an `i64`.
            Some((negative, value)) => Some(if negative {
                -(value as i64)
            } else {
                value as i64
            }),
            None => number::parse_i64(self.number()?),
        }
    }

    /// `null`, or a whole number.
    fn opt_uint(&mut self) -> Option<Option<u64>> {
        if self.lit("null").is_some() {
            return Some(None);
        }
        self.uint().map(Some)
    }

    fn small<T: TryFrom<i64>>(&mut self) -> Option<T> {
        T::try_from(self.int()?).ok()
    }

    fn bool(&mut self) -> Option<bool> {
        if self.lit("true").is_some() {
            Some(true)
        } else {
            self.lit("false").map(|()| false)
        }
    }

    /// An id in quotes: 16 or 32 plain hex digits, read in place. `None`
    /// for anything else (an escape among them, say), and the row is read
    /// as a tree.
    fn hex<T>(&mut self, parse: impl Fn(&str) -> Option<T>) -> Option<T> {
        let bytes = self.text.as_bytes();
        if !matches!(bytes.get(self.at), Some(b'"')) {
            return None;
        }
        let from = self.at + 1;
        let len = match (bytes.get(from + 16), bytes.get(from + 32)) {
            (Some(b'"'), _) => 16,
            (_, Some(b'"')) => 32,
            _ => return None,
        };
        let id = parse(self.text.get(from..from + len)?)?;
        self.at = from + len + 1;
        Some(id)
    }

    /// `"traceId":"…","spanId":"…","parentSpanId":…`, as `render` writes
    /// them first in a record and a span.
    fn ids(&mut self) -> Option<(TraceId, SpanId, Option<SpanId>)> {
        self.lit("\"traceId\":")?;
        let trace = self.hex(TraceId::parse)?;
        self.lit(",\"spanId\":")?;
        let span = self.hex(SpanId::parse)?;
        self.lit(",\"parentSpanId\":")?;
        let parent = match self.lit("null") {
            Some(()) => None,
            None => Some(self.hex(SpanId::parse)?),
        };
        Some((trace, span, parent))
    }

    fn status(&mut self) -> Option<LogStatus> {
        let word = self.string()?;
        [
            LogStatus::Success,
            LogStatus::ServerError,
            LogStatus::ClientError,
        ]
        .into_iter()
        .find(|s| s.as_str() == word)
    }

    fn class(&mut self) -> Option<EventClass> {
        let word = self.string()?;
        [EventClass::Order, EventClass::Payment, EventClass::Test]
            .into_iter()
            .find(|c| c.as_str() == word)
    }

    /// `,"method":…,"uri":…,"uri_group":…`; the group is not kept.
    fn request_line(&mut self) -> Option<(Cow<'a, str>, Cow<'a, str>)> {
        self.lit(",\"method\":")?;
        let method = self.string()?;
        self.lit(",\"uri\":")?;
        let uri = self.string()?;
        self.lit(",\"uri_group\":")?;
        self.opt_string()?;
        Some((method, uri))
    }

    /// The third party's decision; its reason is made again from it.
    fn verdict(&mut self) -> Option<Verdict> {
        self.lit("{\"approved\":")?;
        let approved = self.bool()?;
        self.lit(",\"rule\":")?;
        let rule = DecidedBy::parse(&self.string()?)?;
        let scenario_rule = match self.lit(",\"scenarioRule\":") {
            Some(()) => Some(Rc::from(self.string()?)),
            None => None,
        };
        let card = match self.lit(",\"card\":") {
            Some(()) => {
                let card = crate::domain::test_card::find(&self.string()?)?;
                Some(crate::domain::test_card::CardIx::of(card.number)?)
            }
            None => None,
        };
        // A pay whose payment changes later has `async` here: not read
        // in place (rare, and bytes), its row is read again as a tree.
        self.lit(",\"attempt\":")?;
        let attempt = self.small()?;
        self.lit(",\"draw\":")?;
        let draw = crate::json::number::parse(self.number()?)?;
        self.lit(",\"threshold\":")?;
        let threshold = crate::json::number::parse(self.number()?)?;
        let failure = self.failure()?;
        self.lit(",\"reason\":")?;
        self.string()?;
        self.lit("}")?;
        Some(Verdict {
            approved,
            rule,
            attempt,
            draw,
            threshold,
            failure,
            card,
            extras: VerdictExtras::of(scenario_rule, None),
        })
    }

    /// What a scenario made of a decision: its `declineCode` and
    /// `thirdParty`, each there or not.
    fn failure(&mut self) -> Option<Failure> {
        let code = match self.lit(",\"declineCode\":") {
            Some(()) => Some(self.string()?),
            None => None,
        };
        let (mut word, mut status) = (None, None);
        if self.lit(",\"thirdParty\":").is_some() {
            if self.peek() == Some(b'"') {
                word = Some(self.string()?);
            } else {
                status = Some(self.small::<u64>()?);
            }
        }
        Failure::read(code.as_deref(), word.as_deref(), status)
    }

    /// `["key",` of an attribute pair.
    fn key(&mut self, key: &str) -> Option<()> {
        self.lit("[\"")?;
        self.lit(key)?;
        self.lit("\",")
    }

    /// An attribute pair that may follow: its string value, if it is the
    /// one named.
    fn opt_attr(&mut self, key: &str) -> Option<Option<Cow<'a, str>>> {
        let start = self.at;
        if self.lit(",").and_then(|()| self.key(key)).is_none() {
            self.at = start;
            return Some(None);
        }
        let value = self.string()?;
        self.lit("]")?;
        Some(Some(value))
    }
}

/// A message as the journal keeps it: `success`, the message of most
/// answers, shared as the running service shares it; others owned.
fn kept(msg: Cow<'_, str>) -> Cow<'static, str> {
    match &*msg {
        "success" => Cow::Borrowed("success"),
        _ => Cow::Owned(msg.into_owned()),
    }
}

/// The record at `at` in `text`, and where it ends; `None` when it is not
/// as `render` writes one.
pub(crate) fn record(text: &str, at: usize, calls: &mut Calls) -> Option<(Entry, usize)> {
    let mut c = Cursor { text, at };
    c.lit("{\"seq\":")?;
    let seq = c.uint()?;
    c.lit(",\"timestamp\":")?;
    let timestamp = c.int()?;
    c.lit(",")?;
    let (trace, span, parent) = c.ids()?;
    c.lit(",\"stage\":\"")?;
    let stage = if c.lit("gateway\"").is_some() {
        let (method, uri) = c.request_line()?;
        Kept::Gateway(calls.of_record(&method, &uri, None))
    } else if c.lit("service\",\"event_class\":").is_some() {
        service_stage(&mut c)?
    } else {
        c.lit("response\"")?;
        response_stage(&mut c, calls)?
    };
    c.lit("}")?;
    let entry = Entry {
        seq,
        timestamp,
        trace,
        span,
        parent,
        stage,
    };
    Some((entry, c.at))
}

/// A service record's members after its stage: which service, how long,
/// and the third party's decision where there was one.
fn service_stage(c: &mut Cursor) -> Option<Kept> {
    let event_class = c.class()?;
    c.lit(",\"duration\":")?;
    let duration = c.uint()?;
    c.lit(",\"status\":")?;
    let status = c.status()?;
    let outcome = match c.lit(",\"outcome\":") {
        Some(()) => Some(c.verdict()?),
        None => None,
    };
    Some(Kept::Service {
        event_class,
        duration,
        status,
        outcome,
    })
}

/// A response record's members after its stage: the request line and
/// the answer.
fn response_stage(c: &mut Cursor, calls: &mut Calls) -> Option<Kept> {
    let (method, uri) = c.request_line()?;
    c.lit(",\"event_class\":")?;
    let event_class = match c.lit("null") {
        Some(()) => None,
        None => Some(c.class()?),
    };
    c.lit(",\"duration\":")?;
    let duration = c.opt_uint()?;
    c.lit(",\"status\":")?;
    let status = c.status()?;
    c.lit(",\"httpStatus\":")?;
    let http_status = c.small()?;
    c.lit(",\"code\":")?;
    let code = c.small()?;
    c.lit(",\"msg\":")?;
    let msg = c.string()?;
    c.lit(",\"userId\":")?;
    let user = c.opt_string()?;
    let replay = c.lit(",\"replay\":true").is_some();
    Some(Kept::Response(
        calls.of_record(&method, &uri, user.as_deref()),
        Answer {
            event_class,
            duration,
            status,
            http_status,
            code,
            msg: kept(msg),
            extra: replay.then(|| Box::new(Extra::Replay)),
        },
    ))
}

/// The span at `at` in `text`, and where it ends; `None` when it is not
/// as `render` writes one.
pub(crate) fn span(text: &str, at: usize, calls: &mut Calls) -> Option<(SpanEntry, usize)> {
    let mut c = Cursor { text, at };
    c.lit("{")?;
    let (trace, span, parent) = c.ids()?;
    c.lit(",\"name\":")?;
    let name = c.string()?;
    c.lit(",\"component\":")?;
    let component = c.string()?;
    c.lit(",\"start\":")?;
    let start = c.int()?;
    c.lit(",\"end\":")?;
    let end = c.int()?;
    c.lit(",\"status\":")?;
    let status = c.status()?;
    c.lit(",\"attributes\":[")?;
    let part = match &*component {
        "gateway" => gateway_part(&mut c, calls, &name)?,
        "third-party" => third_party_part(&mut c)?,
        _ => {
            c.key("orderpay.event_class")?;
            let class = c.class()?;
            c.lit("]")?;
            Part::Service {
                call: calls.of_span(&name, None, None),
                class,
            }
        }
    };
    c.lit("]}")?;
    let entry = SpanEntry {
        trace,
        span,
        parent,
        start,
        end,
        status,
        part,
    };
    (entry.component().name() == component).then_some((entry, c.at))
}

/// The attributes of a gateway span: the request and its answer.
fn gateway_part(c: &mut Cursor, calls: &mut Calls, name: &str) -> Option<Part> {
    c.key("http.request.method")?;
    c.string()?;
    c.lit("],")?;
    c.key("url.path")?;
    let uri = c.string()?;
    c.lit("],")?;
    c.key("http.response.status_code")?;
    let http_status = c.small()?;
    c.lit("],")?;
    c.key("orderpay.code")?;
    let code = c.small()?;
    c.lit("],")?;
    c.key("orderpay.msg")?;
    let msg = c.string()?;
    c.lit("]")?;
    c.opt_attr("http.route")?;
    let user = c.opt_attr("enduser.id")?;
    Some(Part::Gateway {
        call: calls.of_span(name, Some(&uri), user.as_deref()),
        http_status,
        code,
        msg: kept(msg),
        mark: None,
    })
}

/// The attributes of a third-party span: its decision.
fn third_party_part(c: &mut Cursor) -> Option<Part> {
    c.key("orderpay.approved")?;
    let approved = c.bool()?;
    c.lit("],")?;
    c.key("orderpay.attempt")?;
    let attempt = c.small()?;
    c.lit("],")?;
    c.key("orderpay.reason")?;
    let reason = c.string()?;
    c.lit("]")?;
    Some(Part::ThirdParty {
        approved,
        attempt,
        why: Why::Given(reason.into()),
    })
}

#[cfg(test)]
mod tests {
    use super::super::journal::{record_at, span_at};
    use super::*;
    use crate::gateway::RawRequest;
    use crate::json::Out;
    use crate::observe::render;
    use crate::service::Service;
    use crate::sim::clock::VirtualClock;
    use crate::sim::Settings;

    /// A service whose log holds every kind of record and span: each
    /// stage, approvals and declines, refusals, users, a 64-bit B3 trace,
    /// an unknown method and text that needs escaping.
    fn busy() -> Service {
        let clock = Box::new(VirtualClock::starting_at(0));
        let mut s = Service::new(Settings::with_seed(7), clock).unwrap_or_else(|e| panic!("{e}"));
        for request in [
            RawRequest::new("GET", "/api/test/order/batch?count=40"),
            RawRequest::new("POST", "/api/order/create")
                .with_body(r#"{"userId":"u \"q\" é😀","description":"tab\there","price":12.5}"#),
            RawRequest::new("POST", "/api/order/create").with_body("{\"price\":\"x\"}"),
            RawRequest::new("GET", "/api/order/ORD-NOPE")
                .with_header("X-B3-TraceId", "463ac35c9f6413ad"),
            RawRequest::new("BREW", "/api/order/list?x=\"y\""),
            RawRequest::new("GET", "/nowhere"),
        ] {
            s.handle(request);
        }
        s
    }

    #[test]
    fn rows_read_straight_are_the_rows_the_tree_gives() {
        let s = busy();
        let (mut straight, mut tree) = (Calls::default(), Calls::default());
        for entry in s.journal().entries(None) {
            let mut out = Out::default();
            render::record(&mut out, entry);
            let text = &out.text;
            let read = record(text, 0, &mut straight);
            let parsed = crate::json::parse(text).unwrap_or_else(|e| panic!("{e}"));
            let from_tree = record_at(&parsed, 0, &mut tree).ok();
            assert_eq!(
                read.as_ref().map(|(_, end)| *end),
                Some(text.len()),
                "{text}"
            );
            assert_eq!(read.map(|(e, _)| e), from_tree, "{text}");
        }
        for span_entry in s.journal().span_entries() {
            let mut out = Out::default();
            render::span(&mut out, span_entry);
            let text = &out.text;
            let read = span(text, 0, &mut straight);
            let parsed = crate::json::parse(text).unwrap_or_else(|e| panic!("{e}"));
            let from_tree = span_at(&parsed, 0, &mut tree).ok();
            assert_eq!(
                read.as_ref().map(|(_, end)| *end),
                Some(text.len()),
                "{text}"
            );
            assert_eq!(read.map(|(s, _)| s), from_tree, "{text}");
        }
    }

    #[test]
    fn rows_not_as_written_are_left_to_the_tree() {
        let s = busy();
        let mut calls = Calls::default();
        let mut out = Out::default();
        let entry = s
            .journal()
            .entries(None)
            .next()
            .unwrap_or_else(|| panic!("a record"));
        render::record(&mut out, entry);
        let text = out.text.clone();
        assert!(record(&text, 0, &mut calls).is_some());
        for changed in [
            text.replacen('{', "{ ", 1),
            text.replacen("\"seq\"", "\"s\\u0065q\"", 1),
            text.replacen("\"seq\":", "\"seq\":0,\"seq\":", 1),
            text.replacen("\"stage\"", "\"x\":1,\"stage\"", 1),
            text.replacen("\"seq\":1", "\"seq\":1.0", 1),
            text.replacen("\"seq\":", "\"seq\":0", 1),
            text.replacen('}', "", 1),
        ] {
            assert!(record(&changed, 0, &mut calls).is_none(), "{changed}");
        }
        let mut out = Out::default();
        let third_party = s
            .journal()
            .span_entries()
            .find(|s| matches!(s.part, Part::ThirdParty { .. }))
            .unwrap_or_else(|| panic!("a third-party span"));
        render::span(&mut out, third_party);
        let text = out.text.clone();
        assert!(span(&text, 0, &mut calls).is_some());
        for changed in [
            text.replacen("\"third-party\"", "\"gateway\"", 1),
            text.replacen("\"third-party\"", "\"order-service\"", 1),
            text.replacen("]]}", "],[\"more\",1]]}", 1),
            text.replacen(",\"start\":", ",\"start\": ", 1),
        ] {
            assert!(span(&changed, 0, &mut calls).is_none(), "{changed}");
        }
    }
}
