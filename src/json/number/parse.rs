//! Numbers read from text: JSON numbers as doubles (exactly where
//! Clinger's fast path holds, else by the slow path), and whole numbers as
//! `str::parse` reads them, without core's generic parsing.

use super::decimal::{slow, small_int, POW10};

/// A JSON number's text as the double it reads as (`None` for text that
/// is not a JSON number).
pub fn parse(text: &str) -> Option<f64> {
    match fast_parse(text) {
        Read::Value(x) => Some(x),
        Read::NotANumber => None,
        Read::Slow => slow::parse(text),
    }
}

/// `text` as `str::parse::<u64>` reads it: an optional `+`, then decimal
/// digits, `None` past `u64::MAX`. Written here because core's generic
/// integer parsing costs about a kilobyte of the module for what is, in
/// JSON numbers and snapshot keys, a loop over digits.
pub fn parse_u64(text: &str) -> Option<u64> {
    magnitude(text.strip_prefix('+').unwrap_or(text))
}

/// `text` as `str::parse::<i64>` reads it: an optional `+` or `-`, then
/// decimal digits, `None` outside `i64`.
pub fn parse_i64(text: &str) -> Option<i64> {
    match text.strip_prefix('-') {
        Some(digits) => {
            let m = magnitude(digits)?;
            // 2^63 reads as `i64::MIN`, which negating wraps back to.
            (m <= 1 << 63).then(|| (m as i64).wrapping_neg())
        }
        None => i64::try_from(parse_u64(text)?).ok(),
    }
}

/// Decimal digits, at least one and nothing else, as a `u64`.
pub(super) fn magnitude(digits: &str) -> Option<u64> {
    if digits.is_empty() {
        return None;
    }
    let mut n: u64 = 0;
    for b in digits.bytes() {
        let digit = b.wrapping_sub(b'0');
        if digit > 9 {
            return None;
        }
        n = n.checked_mul(10)?.checked_add(u64::from(digit))?;
    }
    Some(n)
}

/// What the exact reading made of a text.
#[derive(Debug, PartialEq)]
pub(super) enum Read {
    Value(f64),
    NotANumber,
    Slow,
}

/// Up to 19 significant digits with a decimal exponent of at most 22
/// either way, read exactly (Clinger's fast path: both operands exact,
/// one correctly rounded operation); `Slow` for the rest.
pub(super) fn fast_parse(text: &str) -> Read {
    let bytes = text.as_bytes();
    let (negative, body) = match bytes.split_first() {
        Some((b'-', body)) => (true, body),
        _ => (false, bytes),
    };
    let mut mantissa: u64 = 0;
    let mut significant = 0;
    let mut exp: i32 = 0;
    let mut at = 0;
    let mut seen_digit = false;
    let mut point = false;
    while let Some(&b) = body.get(at) {
        match b {
            b'0'..=b'9' => {
                seen_digit = true;
                if mantissa == 0 && b == b'0' {
                    if point {
                        exp -= 1;
                    }
                } else if significant < 19 {
                    mantissa = mantissa * 10 + u64::from(b - b'0');
                    significant += 1;
                    if point {
                        exp -= 1;
                    }
                } else {
                    return Read::Slow;
                }
            }
            b'.' if !point => point = true,
            b'e' | b'E' => break,
            _ => return Read::NotANumber,
        }
        at += 1;
    }
    if !seen_digit {
        return Read::NotANumber;
    }
    if let Some(tail) = body.get(at + 1..) {
        match exponent(tail) {
            Ok(n) => exp += n,
            Err(read) => return read,
        }
    }
    let value = if mantissa == 0 {
        0.0
    } else if mantissa > 1 << 53 || !(-22..=22).contains(&exp) {
        return Read::Slow;
    } else if exp < 0 {
        mantissa as f64 / POW10.get(exp.unsigned_abs() as usize).unwrap_or(&1.0)
    } else {
        mantissa as f64 * POW10.get(exp as usize).unwrap_or(&1.0)
    };
    Read::Value(if negative { -value } else { value })
}

/// The exponent written after the `e`, with its sign; else what the
/// whole text reads as: not a number, or one for the slow reading.
pub(super) fn exponent(tail: &[u8]) -> Result<i32, Read> {
    let (minus, digits) = match tail.split_first() {
        Some((b'-', d)) => (true, d),
        Some((b'+', d)) => (false, d),
        _ => (false, tail),
    };
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return Err(Read::NotANumber);
    }
    let Some(n) = small_int(digits) else {
        return Err(Read::Slow);
    };
    Ok(if minus { -n } else { n })
}
