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

/// Lower-case hex digits as a number (16 at most), eight at a time: a
/// restore reads three ids a record, 100,000 records at a time.
pub(crate) fn hex_value(text: &str) -> Option<u64> {
    let bytes = text.as_bytes();
    let mut n = 0u64;
    let mut at = 0;
    while let Some(&[a, b, c, d, e, f, g, h]) = bytes.get(at..at + 8) {
        n = n << 32 | u64::from(hex_word(u64::from_be_bytes([a, b, c, d, e, f, g, h]))?);
        at += 8;
    }
    for &b in bytes.get(at..)? {
        let word = u64::from_be_bytes([b'0', b'0', b'0', b'0', b'0', b'0', b'0', b]);
        n = n << 4 | u64::from(hex_word(word)?);
    }
    Some(n)
}

/// Eight lower-case hex digits (the first in the high byte) as the
/// number they write, or `None` if any byte is not one. Each byte is
/// tested and turned into its value at once, with no branch a byte.
fn hex_word(x: u64) -> Option<u32> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // A byte's high bit in `at_least(k)` is set when the byte is `k` or
    // more (for bytes below 0x80, which is checked apart): no borrow can
    // cross a byte, whose high bit is set before the subtraction.
    let at_least = |k: u8| ((x | HIGH).wrapping_sub(ONES * u64::from(k))) & HIGH;
    let digit = at_least(b'0') & !at_least(b'9' + 1);
    let letter = at_least(b'a') & !at_least(b'f' + 1);
    if x & HIGH != 0 || (digit | letter) != HIGH {
        return None;
    }
    // '0'..'9' end in 0..9, 'a'..'f' in 1..6: letters get 9 more.
    let mut v = (x & (ONES * 0x0f)) + (letter >> 7) * 9;
    v = (v | v >> 4) & 0x00ff_00ff_00ff_00ff;
    v = (v | v >> 8) & 0x0000_ffff_0000_ffff;
    v = (v | v >> 16) & 0x0000_0000_ffff_ffff;
    Some(v as u32)
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

    /// The id `parts` gave.
    pub fn from_parts([high, low, wide]: [u64; 3]) -> TraceId {
        TraceId {
            high,
            low,
            wide: wide != 0,
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

    /// One digit at a time, plainly: what `hex_value` must agree with.
    fn plain_hex(text: &str) -> Option<u64> {
        text.bytes().try_fold(0u64, |n, b| {
            let digit = match b {
                b'0'..=b'9' => b - b'0',
                b'a'..=b'f' => b - b'a' + 10,
                _ => return None,
            };
            Some(n << 4 | u64::from(digit))
        })
    }

    #[test]
    fn hex_digits_read_eight_at_a_time_as_one_at_a_time() {
        let mut rng = crate::sim::random::Rng::new(3);
        let alphabet = b"0123456789abcdefABCDEFgz/:`@G\x00\x7f\xc3";
        for _ in 0..200_000 {
            let len = rng.below(17) as usize;
            let mut bytes: Vec<u8> = (0..len)
                .map(|_| b"0123456789abcdef"[rng.below(16) as usize])
                .collect();
            if len > 0 && rng.below(3) == 0 {
                let at = rng.below(len as u64) as usize;
                bytes[at] = alphabet[rng.below(alphabet.len() as u64) as usize];
            }
            let Ok(text) = String::from_utf8(bytes) else {
                continue;
            };
            assert_eq!(hex_value(&text), plain_hex(&text), "{text:?}");
        }
        for b in 0..=255u8 {
            let text = format!("0123456{}", char::from(b));
            assert_eq!(hex_value(&text), plain_hex(&text), "byte {b}");
            let text = format!("{}123456789abcdef", char::from(b));
            assert_eq!(hex_value(&text), plain_hex(&text), "byte {b}");
        }
        assert_eq!(hex_value("ffffffffffffffff"), Some(u64::MAX));
        assert_eq!(hex_value(""), Some(0));
    }

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
            "463ac35c9f6413a`",
            "463ac35c9f6413a:",
            "463ac35c9f6413ag",
            "463ac35c9f6413a/",
            "463ac35c9f6413a\u{ff}",
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
