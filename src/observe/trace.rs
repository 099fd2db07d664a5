//! Trace context: the trace a request belongs to and the caller's span,
//! read from B3 (multi-header and single `b3`) or W3C `traceparent`, and
//! the spans each request records so it can be followed across the
//! gateway, the services and the third party.

use crate::prelude::*;

use crate::json::message::msg;

use crate::sim::random::Rng;

/// What the caller said about the trace, before the service adds its own
/// spans. Any part may be missing; a missing trace id is made fresh.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Incoming {
    pub trace_id: Option<String>,
    /// The caller's span: the parent of the gateway's span.
    pub parent_span_id: Option<String>,
    pub sampled: Option<bool>,
}

impl Incoming {
    /// B3 multi-header first (the spec's own `X-B3-TraceId`), then the
    /// single `b3` header, then W3C `traceparent`. Invalid values are
    /// ignored rather than refused: tracing must never break a request.
    pub fn read(header: impl Fn(&str) -> Option<String>) -> Incoming {
        Incoming::read_from(&header).0
    }

    /// As [`Incoming::read`], with the header the trace id came from, as
    /// the spec writes its name, or `None` when it is to be made fresh.
    /// The headers are read through `dyn`: one copy of this for the
    /// gateway and the playground's `traceHeaders`.
    pub fn read_from(header: &dyn Fn(&str) -> Option<String>) -> (Incoming, Option<&'static str>) {
        // A B3 sampling decision may travel alone (`X-B3-Sampled: 0`), and
        // then still decides, whatever else carries the trace id.
        let b3_decision = header("x-b3-flags")
            .filter(|f| f == "1")
            .map(|_| true)
            .or_else(|| header("x-b3-sampled").as_deref().and_then(parse_sampled));
        if let Some(trace_id) = header("x-b3-traceid").as_deref().and_then(parse_b3) {
            let found = Incoming {
                trace_id: Some(trace_id),
                parent_span_id: header("x-b3-spanid").as_deref().and_then(parse_span_id),
                sampled: b3_decision,
            };
            return (found, Some("X-B3-TraceId"));
        }
        // A valid `b3` header is read alone, even as a lone sampling
        // decision with no trace id: `traceparent` is read only without it.
        let (mut found, from) = match header("b3").as_deref().and_then(parse_b3_single) {
            Some(found) => {
                let from = found.trace_id.is_some().then_some("b3");
                (found, from)
            }
            None => match header("traceparent").as_deref().and_then(parse_traceparent) {
                Some(found) => (found, Some("traceparent")),
                None => (Incoming::default(), None),
            },
        };
        found.sampled = b3_decision.or(found.sampled);
        (found, from)
    }
}

fn parse_sampled(text: &str) -> Option<bool> {
    match text {
        "1" | "true" | "d" => Some(true),
        "0" | "false" => Some(false),
        _ => None,
    }
}

/// A span id is 16 lower-case hex digits, not all zeros.
pub fn parse_span_id(text: &str) -> Option<String> {
    span_id_problem(text).is_none().then(|| text.to_owned())
}

/// `b3: {traceId}-{spanId}[-{sampled}[-{parentSpanId}]]`, or a lone
/// sampling decision (`0`, `1`, `d`).
fn parse_b3_single(text: &str) -> Option<Incoming> {
    if b3_problem(text).is_some() {
        return None;
    }
    let parts: Vec<&str> = text.trim().split(['-']).collect();
    match parts.as_slice() {
        [decision] => parse_sampled(decision).map(|sampled| Incoming {
            sampled: Some(sampled),
            ..Incoming::default()
        }),
        [trace, span, rest @ ..] if rest.len() <= 2 => Some(Incoming {
            trace_id: Some(parse_b3(trace)?),
            parent_span_id: Some(parse_span_id(span)?),
            sampled: match rest.first() {
                Some(flag) => Some(parse_sampled(flag)?),
                None => None,
            },
        }),
        _ => None,
    }
}

/// `traceparent: 00-{32 hex trace id}-{16 hex parent id}-{2 hex flags}`.
fn parse_traceparent(text: &str) -> Option<Incoming> {
    if traceparent_problem(text).is_some() {
        return None;
    }
    let mut parts = text.trim().split('-').skip(1);
    let (trace, parent, flags) = (parts.next()?, parts.next()?, parts.next()?);
    let flags = u8::from_str_radix(flags, 16).ok()?;
    Some(Incoming {
        trace_id: Some(trace.to_owned()),
        parent_span_id: Some(parent.to_owned()),
        sampled: Some(flags & 1 == 1),
    })
}

/// Lower-case hex digits, not all zeros: what B3 and W3C ids must be.
fn is_hex(text: &str) -> bool {
    hex_digits(text) && text.bytes().any(|b| b != b'0')
}

fn hex_digits(text: &str) -> bool {
    text.bytes()
        .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// A fresh 64-bit span id, as 16 lower-case hex digits.
pub fn fresh_span_id(rng: &mut Rng) -> String {
    format!("{:016x}", rng.next_u64().max(1))
}

/// The trace id as 32 hex digits, as W3C and OTLP want it: a 64-bit B3
/// id is padded on the left with zeros, as B3 says to.
pub fn trace_id_128(trace_id: &str) -> String {
    format!("{trace_id:0>32}")
}

/// A B3 trace id is 16 or 32 lower-case hex digits, and not all zeros.
pub fn parse_b3(text: &str) -> Option<String> {
    trace_id_problem(text).is_none().then(|| text.to_owned())
}

/// A fresh 128-bit trace id, as 32 lower-case hex digits.
pub fn fresh(rng: &mut Rng) -> String {
    let mut high = rng.next_u64();
    if high == 0 {
        high = 1;
    }
    format!("{high:016x}{:016x}", rng.next_u64())
}

/// Why the service ignores a trace header: each rule the parsers above
/// hold a value to, with the words the playground shows before sending.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    /// A trace id: hex digits in upper case.
    UpperCase,
    /// A trace id: not hex digits.
    NotHex,
    /// A trace id of this many digits.
    TraceIdLength(usize),
    AllZeros,
    SpanNotHex,
    SpanIdLength(usize),
    SpanAllZeros,
    /// `traceparent` not in four parts.
    Parts,
    /// `traceparent`'s version, as sent.
    Version(String),
    TraceparentTraceId,
    TraceparentParentId,
    Flags,
    /// `b3` as one value that is no sampling decision.
    LoneValue,
    /// `b3` in more than four parts.
    B3Parts,
    /// `b3`'s trace id, and what is wrong with it.
    B3TraceId(Box<Problem>),
    B3SpanId,
    B3Sampling,
}

impl Problem {
    pub fn text(&self) -> String {
        match self {
            Problem::UpperCase => "upper-case letters: ids are lower-case hex (0-9, a-f)".into(),
            Problem::NotHex => "not hex digits: an id has only 0-9 and a-f".into(),
            Problem::TraceIdLength(n) => msg!(*n, " digits: an id has 16 or 32"),
            Problem::AllZeros => "all zeros: that id means none".into(),
            Problem::SpanNotHex => "not lower-case hex digits".into(),
            Problem::SpanIdLength(n) => msg!(*n, " digits: a span id has 16"),
            Problem::SpanAllZeros => "all zeros".into(),
            Problem::Parts => {
                "it has four parts: 00-{32 hex trace id}-{16 hex parent id}-{2 hex flags}".into()
            }
            Problem::Version(v) => msg!("version \"", v.as_str(), "\": two hex digits, not ff"),
            Problem::TraceparentTraceId => {
                "the trace id: 32 lower-case hex digits, not all zeros".into()
            }
            Problem::TraceparentParentId => {
                "the parent id: 16 lower-case hex digits, not all zeros".into()
            }
            Problem::Flags => "the flags: two hex digits (01: sampled)".into(),
            Problem::LoneValue => "a lone value is a sampling decision: 0, 1 or d".into(),
            Problem::B3Parts => "at most {traceId}-{spanId}-{sampled}-{parentSpanId}".into(),
            Problem::B3TraceId(why) => msg!("the trace id: ", why.text().as_str()),
            Problem::B3SpanId => "the span id: 16 lower-case hex digits, not all zeros".into(),
            Problem::B3Sampling => "the sampling decision: 0, 1 or d".into(),
        }
    }
}

/// Why a B3 trace id (16 or 32 lower-case hex digits, not all zeros) is ignored.
pub fn trace_id_problem(text: &str) -> Option<Problem> {
    let upper = text.bytes().any(|b| b.is_ascii_uppercase());
    if upper && !text.is_empty() && text.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Some(Problem::UpperCase);
    }
    if !hex_digits(text) {
        return Some(Problem::NotHex);
    }
    if !matches!(text.len(), 16 | 32) {
        return Some(Problem::TraceIdLength(text.len()));
    }
    (!is_hex(text)).then_some(Problem::AllZeros)
}

/// Why a span id (16 lower-case hex digits, not all zeros) is ignored.
pub fn span_id_problem(text: &str) -> Option<Problem> {
    if !hex_digits(text) {
        return Some(Problem::SpanNotHex);
    }
    if text.len() != 16 {
        return Some(Problem::SpanIdLength(text.len()));
    }
    (!is_hex(text)).then_some(Problem::SpanAllZeros)
}

/// Why a `traceparent` header is ignored.
pub fn traceparent_problem(text: &str) -> Option<Problem> {
    let parts: Vec<&str> = text.trim().split('-').collect();
    let [version, trace, parent, flags] = parts.as_slice() else {
        return Some(Problem::Parts);
    };
    if version.len() != 2 || !hex_digits(version) || *version == "ff" {
        return Some(Problem::Version((*version).to_owned()));
    }
    if trace.len() != 32 || !is_hex(trace) {
        return Some(Problem::TraceparentTraceId);
    }
    if span_id_problem(parent).is_some() {
        return Some(Problem::TraceparentParentId);
    }
    (flags.len() != 2 || !hex_digits(flags)).then_some(Problem::Flags)
}

/// Why a single `b3` header is ignored.
pub fn b3_problem(text: &str) -> Option<Problem> {
    let parts: Vec<&str> = text.trim().split('-').collect();
    match parts.as_slice() {
        [decision] => parse_sampled(decision)
            .is_none()
            .then_some(Problem::LoneValue),
        [trace, span, rest @ ..] if rest.len() <= 2 => {
            if let Some(why) = trace_id_problem(trace) {
                return Some(Problem::B3TraceId(Box::new(why)));
            }
            if span_id_problem(span).is_some() {
                return Some(Problem::B3SpanId);
            }
            let sampled = rest
                .first()
                .is_none_or(|flag| parse_sampled(flag).is_some());
            (!sampled).then_some(Problem::B3Sampling)
        }
        _ => Some(Problem::B3Parts),
    }
}

/// A rule a header's value is held to.
type Check = fn(&str) -> Option<Problem>;

/// What the service makes of a caller's trace headers, for the playground
/// to say before sending: the header its trace id will come from, and why
/// each ill-formed one is ignored. `header` is read as by [`Incoming::read`].
pub fn verdict(
    header: impl Fn(&str) -> Option<String>,
) -> (Option<&'static str>, Vec<(&'static str, Problem)>) {
    let checks: [(&str, &'static str, Check); 4] = [
        ("x-b3-traceid", "X-B3-TraceId", trace_id_problem),
        ("x-b3-spanid", "X-B3-SpanId", span_id_problem),
        ("b3", "b3", b3_problem),
        ("traceparent", "traceparent", traceparent_problem),
    ];
    let problems = checks
        .iter()
        .filter_map(|(key, name, check)| {
            let value = header(key).filter(|v| !v.is_empty())?;
            check(&value).map(|why| (*name, why))
        })
        .collect();
    (Incoming::read_from(&header).1, problems)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn valid_b3_ids_are_taken_as_they_are() {
        assert_eq!(
            parse_b3("463ac35c9f6413ad").as_deref(),
            Some("463ac35c9f6413ad")
        );
        let long = "463ac35c9f6413ad48485a3953bb6124";
        assert_eq!(parse_b3(long).as_deref(), Some(long));
    }

    #[test]
    fn invalid_b3_ids_are_refused() {
        for bad in [
            "",
            "463AC35C9F6413AD",
            "463ac35c9f6413a",
            "463ac35c9f6413adx",
            "0000000000000000",
            "463ac35c9f6413ad48485a3953bb612",
            "g63ac35c9f6413ad",
            "463ac35c9f6413ad ",
        ] {
            assert_eq!(parse_b3(bad), None, "{bad:?}");
        }
    }

    fn read(headers: &[(&str, &str)]) -> Incoming {
        Incoming::read(|name| {
            headers
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| (*v).to_owned())
        })
    }

    #[test]
    fn b3_multi_headers_give_trace_parent_and_sampling() {
        let got = read(&[
            ("x-b3-traceid", "463ac35c9f6413ad"),
            ("x-b3-spanid", "a2fb4a1d1a96d312"),
            ("x-b3-sampled", "0"),
        ]);
        assert_eq!(got.trace_id.as_deref(), Some("463ac35c9f6413ad"));
        assert_eq!(got.parent_span_id.as_deref(), Some("a2fb4a1d1a96d312"));
        assert_eq!(got.sampled, Some(false));
        let debug = read(&[
            ("x-b3-traceid", "463ac35c9f6413ad"),
            ("x-b3-flags", "1"),
            ("x-b3-sampled", "0"),
        ]);
        assert_eq!(debug.sampled, Some(true));
    }

    #[test]
    fn the_single_b3_header_in_all_its_forms() {
        let full = read(&[(
            "b3",
            "80f198ee56343ba864fe8b2a57d3eff7-e457b5a2e4d86bd1-1-05e3ac9a4f6e3b90",
        )]);
        assert_eq!(
            full.trace_id.as_deref(),
            Some("80f198ee56343ba864fe8b2a57d3eff7")
        );
        assert_eq!(full.parent_span_id.as_deref(), Some("e457b5a2e4d86bd1"));
        assert_eq!(full.sampled, Some(true));
        let short = read(&[("b3", "80f198ee56343ba8-e457b5a2e4d86bd1")]);
        assert_eq!((short.trace_id.is_some(), short.sampled), (true, None));
        assert_eq!(
            read(&[("b3", "0")]),
            Incoming {
                sampled: Some(false),
                ..Incoming::default()
            }
        );
        assert_eq!(
            read(&[("b3", "nonsense-e457b5a2e4d86bd1")]),
            Incoming::default()
        );
    }

    #[test]
    fn traceparent_gives_trace_parent_and_sampled_flag() {
        let got = read(&[(
            "traceparent",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        )]);
        assert_eq!(
            got.trace_id.as_deref(),
            Some("4bf92f3577b34da6a3ce929d0e0e4736")
        );
        assert_eq!(got.parent_span_id.as_deref(), Some("00f067aa0ba902b7"));
        assert_eq!(got.sampled, Some(true));
        for bad in [
            "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
            "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7",
        ] {
            assert_eq!(read(&[("traceparent", bad)]).trace_id, None, "{bad}");
        }
    }

    #[test]
    fn b3_multi_wins_over_b3_single_which_wins_over_traceparent() {
        let all = [
            ("x-b3-traceid", "1111111111111111"),
            ("b3", "2222222222222222-e457b5a2e4d86bd1"),
            (
                "traceparent",
                "00-33333333333333333333333333333333-00f067aa0ba902b7-01",
            ),
        ];
        assert_eq!(read(&all).trace_id.as_deref(), Some("1111111111111111"));
        assert_eq!(
            read(&all[1..]).trace_id.as_deref(),
            Some("2222222222222222")
        );
        assert_eq!(
            read(&all[2..]).trace_id.as_deref(),
            Some("33333333333333333333333333333333")
        );
    }

    #[test]
    fn short_trace_ids_are_padded_to_128_bits() {
        assert_eq!(
            trace_id_128("463ac35c9f6413ad"),
            "0000000000000000463ac35c9f6413ad"
        );
        let long = "463ac35c9f6413ad48485a3953bb6124";
        assert_eq!(trace_id_128(long), long);
    }

    #[test]
    fn fresh_ids_are_valid_b3_ids() {
        let mut rng = Rng::new(1);
        for _ in 0..100 {
            let id = fresh(&mut rng);
            assert_eq!(parse_b3(&id).as_deref(), Some(id.as_str()));
            assert_eq!(id.len(), 32);
        }
    }

    #[test]
    fn each_ignored_header_says_why_in_the_playgrounds_words() {
        let why = |p: Option<Problem>| p.map(|p| p.text()).unwrap_or_default();
        assert_eq!(
            why(trace_id_problem("463AC35C9F6413AD")),
            "upper-case letters: ids are lower-case hex (0-9, a-f)"
        );
        assert_eq!(
            why(trace_id_problem("my-trace-1")),
            "not hex digits: an id has only 0-9 and a-f"
        );
        assert_eq!(why(trace_id_problem("abc")), "3 digits: an id has 16 or 32");
        assert_eq!(
            why(trace_id_problem("0000000000000000")),
            "all zeros: that id means none"
        );
        assert_eq!(why(span_id_problem("abc")), "3 digits: a span id has 16");
        assert_eq!(
            why(traceparent_problem("00-abc-01")),
            "it has four parts: 00-{32 hex trace id}-{16 hex parent id}-{2 hex flags}"
        );
        assert_eq!(
            why(traceparent_problem(
                "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
            )),
            "version \"ff\": two hex digits, not ff"
        );
        assert_eq!(
            why(traceparent_problem(
                "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-0A"
            )),
            "the flags: two hex digits (01: sampled)"
        );
        assert_eq!(
            why(b3_problem("463AC35C9F6413AD-e457b5a2e4d86bd1")),
            "the trace id: upper-case letters: ids are lower-case hex (0-9, a-f)"
        );
        assert_eq!(
            why(b3_problem("x")),
            "a lone value is a sampling decision: 0, 1 or d"
        );
        assert_eq!(why(b3_problem("463ac35c9f6413ad-e457b5a2e4d86bd1-1")), "");
    }

    #[test]
    fn the_verdict_names_the_header_read_as_read_does() {
        let verdict_of = |headers: &[(&str, &str)]| {
            verdict(|name| {
                headers
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, v)| (*v).to_owned())
            })
        };
        let parent = (
            "traceparent",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        );
        assert_eq!(verdict_of(&[parent]), (Some("traceparent"), vec![]));
        let (decides, problems) = verdict_of(&[
            ("x-b3-traceid", "nope"),
            ("b3", "2222222222222222-e457b5a2e4d86bd1"),
            parent,
        ]);
        assert_eq!(
            (decides, problems),
            (Some("b3"), vec![("X-B3-TraceId", Problem::NotHex)])
        );
        // A lone b3 sampling decision is read, and traceparent is not.
        assert_eq!(verdict_of(&[("b3", "1"), parent]).0, None);
        assert_eq!(read(&[("b3", "1"), parent]).trace_id, None);
    }
}
