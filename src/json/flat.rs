//! A quick read of the common request body: one flat object of plain
//! strings, short decimals, `true`, `false` and `null`, with no escapes
//! and no nesting. It walks the text once and gives up (`None`) on
//! anything else, so the general reader in [`super::read`] still reads,
//! and words the error for, every unusual body: both give the same
//! members for every text this one accepts. The members are held in
//! place, borrowed from the text: a request body costs no allocation.

#[cfg(test)]
use crate::prelude::*;

use alloc::borrow::Cow;

use super::read::{string_stop, Json};

/// Decimals longer than this go to the general reader, which checks
/// range; anything this short without an exponent is a finite double.
const MAX_NUMBER_BYTES: usize = 24;

/// Objects with more members than this go to the general reader: the
/// service's bodies have three.
pub const MAX_FLAT_MEMBERS: usize = 8;

/// A flat member's value, borrowed from the text.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Scalar<'a> {
    Null,
    Bool(bool),
    /// A decimal's text, as `Json::Num` keeps it.
    Num(&'a str),
    /// A string's text, which has no escapes.
    Str(&'a str),
}

impl<'a> Scalar<'a> {
    /// The value as the general reader gives it.
    pub fn json(self) -> Json<'a> {
        match self {
            Scalar::Null => Json::Null,
            Scalar::Bool(b) => Json::Bool(b),
            Scalar::Num(text) => Json::Num(text),
            Scalar::Str(text) => Json::Str(Cow::Borrowed(text)),
        }
    }
}

/// The members of a flat object, in the order written, duplicates
/// included, held in place.
#[derive(Debug, Clone, Copy)]
pub struct Flat<'a> {
    slots: [(&'a str, Scalar<'a>); MAX_FLAT_MEMBERS],
    len: usize,
}

impl<'a> Flat<'a> {
    /// Room for the members of one body, filled by `read`.
    pub fn new() -> Flat<'a> {
        Flat {
            slots: [("", Scalar::Null); MAX_FLAT_MEMBERS],
            len: 0,
        }
    }

    pub fn members(&self) -> &[(&'a str, Scalar<'a>)] {
        self.slots.get(..self.len).unwrap_or_default()
    }

    /// Adds a member; false when there is no room.
    fn push(&mut self, member: (&'a str, Scalar<'a>)) -> bool {
        match self.slots.get_mut(self.len) {
            Some(slot) => {
                *slot = member;
                self.len += 1;
                true
            }
            None => false,
        }
    }

    /// Reads the members of a flat object of at most `MAX_FLAT_MEMBERS`
    /// into this room, where the caller holds them (a body's members are
    /// not moved about); false for any text the general reader must see.
    pub fn read(&mut self, text: &'a str) -> bool {
        self.len = 0;
        self.read_members(text).is_some()
    }

    fn read_members(&mut self, text: &'a str) -> Option<()> {
        let bytes = text.as_bytes();
        let mut at = skip_space(bytes, 0);
        if bytes.get(at) != Some(&b'{') {
            return None;
        }
        at = skip_space(bytes, at + 1);
        if bytes.get(at) == Some(&b'}') {
            return end(bytes, at + 1).then_some(());
        }
        loop {
            let (key, next) = plain_string(text, at)?;
            at = skip_space(bytes, next);
            if bytes.get(at) != Some(&b':') {
                return None;
            }
            at = skip_space(bytes, at + 1);
            let (value, next) = scalar(text, at)?;
            if !self.push((key, value)) {
                return None;
            }
            at = skip_space(bytes, next);
            match bytes.get(at) {
                Some(b',') => at = skip_space(bytes, at + 1),
                Some(b'}') => return end(bytes, at + 1).then_some(()),
                _ => return None,
            }
        }
    }
}

impl Default for Flat<'_> {
    fn default() -> Self {
        Flat::new()
    }
}

impl PartialEq for Flat<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.members() == other.members()
    }
}

/// `Flat::read`'s members as the general reader gives them, to compare
/// the two.
#[cfg(test)]
pub fn flat_object(text: &str) -> Option<Vec<(Cow<'_, str>, Json<'_>)>> {
    let mut flat = Flat::new();
    flat.read(text).then(|| {
        flat.members()
            .iter()
            .map(|&(key, value)| (Cow::Borrowed(key), value.json()))
            .collect()
    })
}

fn skip_space(bytes: &[u8], mut at: usize) -> usize {
    while let Some(b' ' | b'\t' | b'\n' | b'\r') = bytes.get(at) {
        at += 1;
    }
    at
}

/// Only whitespace after the object.
fn end(bytes: &[u8], at: usize) -> bool {
    skip_space(bytes, at) == bytes.len()
}

/// A string at `at` with no escapes or control characters, and where
/// reading stops after it.
fn plain_string(text: &str, at: usize) -> Option<(&str, usize)> {
    let bytes = text.as_bytes();
    if bytes.get(at) != Some(&b'"') {
        return None;
    }
    let rest = bytes.get(at + 1..)?;
    let len = string_stop(rest)?;
    if rest.get(len) != Some(&b'"') {
        return None;
    }
    Some((text.get(at + 1..at + 1 + len)?, at + len + 2))
}

/// A string, a short decimal without exponent, or a word.
fn scalar(text: &str, at: usize) -> Option<(Scalar<'_>, usize)> {
    let bytes = text.as_bytes();
    match bytes.get(at)? {
        b'"' => plain_string(text, at).map(|(s, next)| (Scalar::Str(s), next)),
        b'-' | b'0'..=b'9' => decimal(text, at),
        b'n' => word(bytes, at, b"null", Scalar::Null),
        b't' => word(bytes, at, b"true", Scalar::Bool(true)),
        b'f' => word(bytes, at, b"false", Scalar::Bool(false)),
        _ => None,
    }
}

/// One of the three words, in full.
fn word<'a>(
    bytes: &[u8],
    at: usize,
    word: &[u8],
    value: Scalar<'a>,
) -> Option<(Scalar<'a>, usize)> {
    bytes
        .get(at..at + word.len())
        .filter(|w| *w == word)
        .map(|_| (value, at + word.len()))
}

/// `-?(0|[1-9][0-9]*)(\.[0-9]+)?`, short; anything else is `None`.
fn decimal(text: &str, start: usize) -> Option<(Scalar<'_>, usize)> {
    let bytes = text.as_bytes();
    let digits = |from: usize| {
        bytes
            .get(from..)
            .map_or(0, |r| r.iter().take_while(|b| b.is_ascii_digit()).count())
    };
    let mut at = start;
    if bytes.get(at) == Some(&b'-') {
        at += 1;
    }
    let whole = digits(at);
    if whole == 0 || (whole > 1 && bytes.get(at) == Some(&b'0')) {
        return None;
    }
    at += whole;
    if bytes.get(at) == Some(&b'.') {
        let fraction = digits(at + 1);
        if fraction == 0 {
            return None;
        }
        at += 1 + fraction;
    }
    if matches!(bytes.get(at), Some(b'e' | b'E')) || at - start > MAX_NUMBER_BYTES {
        return None;
    }
    Some((Scalar::Num(text.get(start..at)?), at))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn general(text: &str) -> Option<Vec<(Cow<'_, str>, Json<'_>)>> {
        match super::super::parse(text) {
            Ok(Json::Obj(members)) => Some(members),
            _ => None,
        }
    }

    #[test]
    fn plain_bodies_read_as_the_general_reader_reads_them() {
        for text in [
            r#"{"userId":"u1","price":12.5,"description":"d"}"#,
            r#" { "orderId" : "o-1" , "amount":-0.25,"paymentMethod":"CARD" } "#,
            r#"{"a":null,"b":true,"c":false,"d":0,"a":"x"}"#,
            "{}",
            "{\n\t\"é\":\"ü\"\r\n}",
        ] {
            let quick = flat_object(text);
            assert!(quick.is_some(), "{text}");
            assert_eq!(quick, general(text), "{text}");
        }
    }

    #[test]
    fn a_string_stops_where_a_byte_by_byte_scan_stops() {
        let mut rng = crate::sim::random::Rng::new(5);
        let alphabet = [b'a', b'"', b'\\', 0x1f, 0x20, 0x7f, 0x80, 0xff, b'!', 0];
        for _ in 0..20_000 {
            let bytes = rng.bytes_among(24, 8, &alphabet);
            let plain = bytes
                .iter()
                .position(|&b| b == b'"' || b == b'\\' || b < 0x20);
            assert_eq!(string_stop(&bytes), plain, "{bytes:?}");
        }
    }

    #[test]
    fn anything_unusual_is_left_to_the_general_reader() {
        for text in [
            r#"{"a":"x\"y"}"#,
            r#"{"a\n":1}"#,
            r#"{"a":{"b":1}}"#,
            r#"{"a":[1]}"#,
            r#"{"a":1e3}"#,
            r#"{"a":01}"#,
            r#"{"a":1.}"#,
            r#"{"a":-}"#,
            r#"{"a":1,}"#,
            r#"{"a":1} x"#,
            r#"{"a":nul}"#,
            r#"{"a":1"#,
            "{\"a\":\"\u{1}\"}",
            "[1]",
            "",
            &format!("{{\"a\":{}}}", "9".repeat(400)),
        ] {
            assert_eq!(flat_object(text), None, "{text}");
        }
    }
}
