//! Trace context: the trace a request belongs to and the caller's span,
//! read from B3 (multi-header and single `b3`) or W3C `traceparent`, and
//! the spans each request records so it can be followed across the
//! gateway, the services and the third party.

use crate::prelude::*;

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
        // A B3 sampling decision may travel alone (`X-B3-Sampled: 0`), and
        // then still decides, whatever else carries the trace id.
        let b3_decision = header("x-b3-flags")
            .filter(|f| f == "1")
            .map(|_| true)
            .or_else(|| header("x-b3-sampled").as_deref().and_then(parse_sampled));
        if let Some(trace_id) = header("x-b3-traceid").as_deref().and_then(parse_b3) {
            return Incoming {
                trace_id: Some(trace_id),
                parent_span_id: header("x-b3-spanid").as_deref().and_then(parse_span_id),
                sampled: b3_decision,
            };
        }
        let mut found = header("b3")
            .as_deref()
            .and_then(parse_b3_single)
            .or_else(|| header("traceparent").as_deref().and_then(parse_traceparent))
            .unwrap_or_default();
        found.sampled = b3_decision.or(found.sampled);
        found
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
    (text.len() == 16 && is_hex(text)).then(|| text.to_owned())
}

/// `b3: {traceId}-{spanId}[-{sampled}[-{parentSpanId}]]`, or a lone
/// sampling decision (`0`, `1`, `d`).
fn parse_b3_single(text: &str) -> Option<Incoming> {
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
    let parts: Vec<&str> = text.trim().split(['-']).collect();
    let [version, trace, parent, flags] = parts.as_slice() else {
        return None;
    };
    let valid = version.len() == 2
        && hex_digits(version)
        && *version != "ff"
        && trace.len() == 32
        && flags.len() == 2
        && hex_digits(flags);
    let flags = u8::from_str_radix(flags, 16).ok()?;
    // An invalid parent id voids the whole header (W3C Trace Context).
    let parent = parse_span_id(parent)?;
    (valid && is_hex(trace)).then(|| Incoming {
        trace_id: Some((*trace).to_owned()),
        parent_span_id: Some(parent),
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
    (matches!(text.len(), 16 | 32) && is_hex(text)).then(|| text.to_owned())
}

/// A fresh 128-bit trace id, as 32 lower-case hex digits.
pub fn fresh(rng: &mut Rng) -> String {
    let mut high = rng.next_u64();
    if high == 0 {
        high = 1;
    }
    format!("{high:016x}{:016x}", rng.next_u64())
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
}
