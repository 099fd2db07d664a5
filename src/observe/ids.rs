//! Trace and span ids as numbers, not text: a trace id is 16 bytes and a
//! span id a `u64`, written out as hex only when someone reads them.

use crate::prelude::*;

use crate::json::write::push_hex64;
use crate::sim::random::Rng;

/// A B3 or W3C trace id: 64 bits (16 hex digits) or 128 (32), never all
/// zeros. Which of the two it was is kept, so it is written back as given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TraceId {
    high: u64,
    low: u64,
    wide: bool,
}

/// A span id: 64 bits, never zero, 16 hex digits on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SpanId(pub u64);

fn hex_value(text: &str) -> Option<u64> {
    text.bytes().try_fold(0u64, |n, b| {
        let digit = match b {
            b'0'..=b'9' => b - b'0',
            b'a'..=b'f' => b - b'a' + 10,
            _ => return None,
        };
        Some(n << 4 | u64::from(digit))
    })
}

impl TraceId {
    /// 16 or 32 lower-case hex digits, not all zeros.
    pub fn parse(text: &str) -> Option<TraceId> {
        let id = match text.len() {
            16 => TraceId {
                high: 0,
                low: hex_value(text)?,
                wide: false,
            },
            32 => TraceId {
                high: hex_value(text.get(..16)?)?,
                low: hex_value(text.get(16..)?)?,
                wide: true,
            },
            _ => return None,
        };
        (id.high != 0 || id.low != 0).then_some(id)
    }

    /// A fresh 128-bit id whose high half is never zero.
    pub fn fresh(rng: &mut Rng) -> TraceId {
        let high = rng.next_u64().max(1);
        TraceId {
            high,
            low: rng.next_u64(),
            wide: true,
        }
    }

    /// The high and low halves, and whether it was given with 32 digits:
    /// what tells two ids apart.
    pub fn parts(&self) -> [u64; 3] {
        [self.high, self.low, u64::from(self.wide)]
    }

    /// The id as given: 16 or 32 hex digits.
    pub fn push_hex(&self, out: &mut String) {
        if self.wide {
            push_hex64(out, self.high);
        }
        push_hex64(out, self.low);
    }

    /// 32 hex digits, as W3C and OTLP want it: a 64-bit B3 id is padded
    /// on the left with zeros, as B3 says to.
    pub fn push_hex_128(&self, out: &mut String) {
        push_hex64(out, self.high);
        push_hex64(out, self.low);
    }

    pub fn hex(&self) -> String {
        let mut out = String::with_capacity(32);
        self.push_hex(&mut out);
        out
    }
}

impl SpanId {
    /// 16 lower-case hex digits, not all zeros.
    pub fn parse(text: &str) -> Option<SpanId> {
        if text.len() != 16 {
            return None;
        }
        hex_value(text).filter(|&n| n != 0).map(SpanId)
    }

    pub fn fresh(rng: &mut Rng) -> SpanId {
        SpanId(rng.next_u64().max(1))
    }

    pub fn hex(&self) -> String {
        let mut out = String::with_capacity(16);
        push_hex64(&mut out, self.0);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_read_back_as_they_were_written() {
        for text in [
            "463ac35c9f6413ad",
            "463ac35c9f6413ad48485a3953bb6124",
            "0000000000000001",
        ] {
            assert_eq!(TraceId::parse(text).map(|t| t.hex()).as_deref(), Some(text));
        }
        let short = TraceId::parse("0000000000000000463ac35c9f6413ad").map(|t| t.hex());
        assert_eq!(short.as_deref(), Some("0000000000000000463ac35c9f6413ad"));
        assert_ne!(
            TraceId::parse("463ac35c9f6413ad"),
            TraceId::parse("0000000000000000463ac35c9f6413ad")
        );
        for bad in [
            "",
            "0000000000000000",
            "463AC35C9F6413AD",
            "463ac35c9f6413a",
            "+63ac35c9f6413ad",
        ] {
            assert_eq!(TraceId::parse(bad), None, "{bad}");
        }
        assert_eq!(
            SpanId::parse("00f067aa0ba902b7")
                .map(|s| s.hex())
                .as_deref(),
            Some("00f067aa0ba902b7")
        );
        assert_eq!(SpanId::parse("0000000000000000"), None);
    }
}
