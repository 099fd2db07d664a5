//! Numbers as text and back, without core's float formatting and parsing
//! machinery (Grisu, Dragon, Eisel-Lemire and their tables), which would
//! otherwise be the largest single part of the WebAssembly module.
//!
//! Most numbers the service meets are prices and rates with a few
//! decimals: exact integer arithmetic finds their digits (and reads them)
//! directly. The rest (a random draw's 17 digits, 1e300) go to a slower
//! path: core's own code in a native build, the JS engine in the
//! WebAssembly build (`Number.prototype.toString` and `parseFloat`, both
//! shortest and correctly rounded). Every form written here is the one
//! Rust's `{:?}`, `{}` and `{:.N}` write, byte for byte; the tests hold
//! both paths to core's output.

use crate::prelude::*;

/// The shortest decimal digits that read back as a finite, nonzero
/// double: `digits[..len]` as `d.ddd × 10^exp`, no leading or trailing
/// zeros.
#[derive(Debug, Clone, Copy)]
struct Decimal {
    digits: [u8; 17],
    len: usize,
    exp: i32,
}

impl PartialEq for Decimal {
    fn eq(&self, other: &Decimal) -> bool {
        self.digits() == other.digits() && self.exp == other.exp
    }
}

impl Decimal {
    fn digits(&self) -> &[u8] {
        self.digits.get(..self.len).unwrap_or_default()
    }

    /// Reads `d.ddde±n`, `123.45`, `1e-7` or `1.5e+300` (what core's
    /// `{:e}` and JS's `String(x)` write), sign already removed.
    fn read(text: &str) -> Option<Decimal> {
        let mut d = Decimal {
            digits: [0; 17],
            len: 0,
            exp: -1,
        };
        let mut point = false;
        let mut bytes = text.bytes();
        for b in bytes.by_ref() {
            match b {
                b'0'..=b'9' => {
                    if d.len == 0 && b == b'0' {
                        if point {
                            d.exp -= 1;
                        }
                        continue;
                    }
                    match d.digits.get_mut(d.len) {
                        Some(slot) => {
                            *slot = b;
                            d.len += 1;
                        }
                        // JS writes whole numbers below 10^21 in full:
                        // past 17 digits only zeros can follow.
                        None if b != b'0' => return None,
                        None => {}
                    }
                    if !point {
                        d.exp += 1;
                    }
                }
                b'.' => point = true,
                b'e' | b'E' => break,
                _ => return None,
            }
        }
        let rest: Vec<u8> = bytes.collect();
        if !rest.is_empty() {
            let (negative, digits) = match rest.split_first() {
                Some((b'-', digits)) => (true, digits),
                Some((b'+', digits)) => (false, digits),
                _ => (false, &rest[..]),
            };
            let n = small_int(digits)?;
            d.exp += if negative { -n } else { n };
        }
        while d.digits().last() == Some(&b'0') {
            d.len -= 1;
        }
        (d.len > 0).then_some(d)
    }

    /// The digits of a whole number `m` scaled by `10^-k`.
    fn of_scaled(m: u64, k: i32) -> Decimal {
        let mut d = Decimal {
            digits: [0; 17],
            len: 0,
            exp: 0,
        };
        let mut buf = [0u8; 20];
        let text = uint_digits(m, &mut buf);
        for (slot, &digit) in d.digits.iter_mut().zip(text) {
            *slot = digit;
            d.len += 1;
        }
        d.exp = text.len() as i32 - 1 - k;
        while d.len > 1 && d.digits().last() == Some(&b'0') {
            d.len -= 1;
        }
        d
    }
}

fn small_int(digits: &[u8]) -> Option<i32> {
    if digits.is_empty() || digits.len() > 5 {
        return None;
    }
    let mut n = 0i32;
    for &b in digits {
        if !b.is_ascii_digit() {
            return None;
        }
        n = n * 10 + i32::from(b - b'0');
    }
    Some(n)
}

/// Powers of ten a double holds exactly.
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// Below this, a scaled value's nearest integer is found exactly (its
/// distance from the true decimal stays under 0.25) and at most one
/// decimal of that many digits lies in the double's rounding interval.
const FAST_DIGITS_LIMIT: f64 = 1e15;

/// The shortest digits of a finite, positive `x`.
fn shortest(x: f64) -> Decimal {
    fast_shortest(x).unwrap_or_else(|| slow::shortest(x))
}

/// The shortest digits of a positive `x` with at most 15 of them and at
/// most 22 after the point, by exact arithmetic; `None` for the rest.
fn fast_shortest(x: f64) -> Option<Decimal> {
    for (k, &scale) in POW10.iter().enumerate() {
        let y = x * scale;
        if y >= FAST_DIGITS_LIMIT {
            break;
        }
        // `m / 10^k` is correctly rounded (both exact), so it equals `x`
        // exactly when the decimal `m × 10^-k` reads back as `x`; the
        // first such `k` has the fewest digits.
        let m = (y + 0.5) as u64;
        if m != 0 && m as f64 / scale == x {
            return Some(Decimal::of_scaled(m, k as i32));
        }
    }
    None
}

/// The slow paths, for numbers the exact ones do not cover.
#[cfg(not(target_arch = "wasm32"))]
mod slow {
    use super::Decimal;

    pub fn shortest(x: f64) -> Decimal {
        Decimal::read(&format!("{x:e}")).unwrap_or(Decimal {
            digits: [b'0'; 17],
            len: 1,
            exp: 0,
        })
    }

    pub fn parse(text: &str) -> Option<f64> {
        text.parse().ok()
    }
}

/// The slow paths, for numbers the exact ones do not cover: the JS
/// engine's, so the module carries no float formatting or parsing of its
/// own. Both are shortest and correctly rounded, as core's are.
#[cfg(target_arch = "wasm32")]
mod slow {
    use crate::prelude::*;

    use super::Decimal;

    pub fn shortest(x: f64) -> Decimal {
        let text: String = js_sys::Number::from(x)
            .to_string_with_radix(10)
            .map(String::from)
            .unwrap_or_default();
        match Decimal::read(&text) {
            Some(d) => super::settle_tie(x, d),
            None => Decimal {
                digits: [b'0'; 17],
                len: 1,
                exp: 0,
            },
        }
    }

    pub fn parse(text: &str) -> Option<f64> {
        let x = js_sys::parse_float(text);
        (!x.is_nan()).then_some(x)
    }
}

/// When `x` lies exactly halfway between `d` and the next decimal of as
/// many digits, both read back as `x`: JS engines then take the even one,
/// Rust the one further from zero. Returns Rust's.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
fn settle_tie(x: f64, d: Decimal) -> Decimal {
    let mut whole: u64 = 0;
    for &b in d.digits() {
        whole = whole * 10 + u64::from(b - b'0');
    }
    let q = d.exp - (d.len as i32 - 1);
    if is_midpoint_above(x, whole, q) {
        Decimal::of_scaled(whole + 1, -q)
    } else {
        d
    }
}

/// Whether `|x|` is exactly `(whole + 1/2) × 10^q`: with `x = odd × 2^e`,
/// that is `odd × 5^-q = 2·whole + 1` and `e = q - 1` (for `q < 0`), or
/// `odd = (2·whole + 1) × 5^q` and `e = q - 1` (for `q >= 0`).
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
fn is_midpoint_above(x: f64, whole: u64, q: i32) -> bool {
    let bits = x.abs().to_bits();
    let biased = (bits >> 52) as i32;
    let fraction = bits & ((1 << 52) - 1);
    let (mantissa, exp) = if biased == 0 {
        (fraction, -1074)
    } else {
        (fraction | (1 << 52), biased - 1075)
    };
    if mantissa == 0 {
        return false;
    }
    let zeros = mantissa.trailing_zeros();
    let odd = u128::from(mantissa >> zeros);
    if exp + zeros as i32 != q - 1 {
        return false;
    }
    let twice = u128::from(whole) * 2 + 1;
    let (small, big) = if q < 0 { (odd, twice) } else { (twice, odd) };
    let mut scaled = small;
    for _ in 0..q.unsigned_abs() {
        match scaled.checked_mul(5) {
            Some(v) if v <= big => scaled = v,
            _ => return false,
        }
    }
    scaled == big
}

fn uint_digits(mut value: u64, buf: &mut [u8; 20]) -> &[u8] {
    // Filled from the end, by iterator: no index to check.
    let mut at = buf.len();
    for slot in buf.iter_mut().rev() {
        *slot = b'0' + (value % 10) as u8;
        at -= 1;
        value /= 10;
        if value == 0 {
            break;
        }
    }
    buf.get(at..).unwrap_or_default()
}

fn push_ascii(out: &mut String, bytes: &[u8]) {
    for &b in bytes {
        out.push(char::from(b));
    }
}

fn push_zeros(out: &mut String, n: usize) {
    for _ in 0..n {
        out.push('0');
    }
}

/// NaN and the infinities as Rust writes them; `None` for finite `x`.
fn special(x: f64) -> Option<&'static str> {
    if x.is_nan() {
        Some("NaN")
    } else if x.is_infinite() {
        Some(if x > 0.0 { "inf" } else { "-inf" })
    } else {
        None
    }
}

/// `d` in plain decimal form, with at least `min_frac` fraction digits.
fn push_plain(out: &mut String, d: &Decimal, min_frac: usize) {
    let digits = d.digits();
    let frac = if d.exp >= 0 {
        let whole = d.exp as usize + 1;
        if digits.len() <= whole {
            push_ascii(out, digits);
            push_zeros(out, whole - digits.len());
            0
        } else {
            let (whole, frac) = digits.split_at_checked(whole).unwrap_or((digits, &[]));
            push_ascii(out, whole);
            out.push('.');
            push_ascii(out, frac);
            frac.len()
        }
    } else {
        out.push_str("0.");
        let zeros = (-d.exp - 1) as usize;
        push_zeros(out, zeros);
        push_ascii(out, digits);
        zeros + digits.len()
    };
    if frac < min_frac {
        if frac == 0 {
            out.push('.');
        }
        push_zeros(out, min_frac - frac);
    }
}

/// `d` as `d.ddde-n`, as Rust's `{:e}` writes it.
fn push_exponential(out: &mut String, d: &Decimal) {
    let (first, rest) = d.digits().split_at_checked(1).unwrap_or_default();
    push_ascii(out, first);
    if !rest.is_empty() {
        out.push('.');
        push_ascii(out, rest);
    }
    out.push('e');
    if d.exp < 0 {
        out.push('-');
    }
    let mut buf = [0u8; 20];
    push_ascii(out, uint_digits(u64::from(d.exp.unsigned_abs()), &mut buf));
}

/// `x` as Rust's `{:?}` writes it, for messages.
pub fn debug(x: f64) -> String {
    let mut out = String::new();
    push_debug(&mut out, x);
    out
}

/// `x` as Rust's `{}` writes it, for messages.
pub fn display(x: f64) -> String {
    let mut out = String::new();
    push_display(&mut out, x);
    out
}

/// `x` as Rust's `{:.N}` writes it, for messages.
pub fn fixed(x: f64, frac: u32) -> String {
    let mut out = String::new();
    push_fixed(&mut out, x, frac);
    out
}

/// What every layout writes first: the word for NaN or an infinity
/// (then nothing is left to write), else the sign of a negative `x`
/// (`-0.0` included); gives `|x|` to lay out.
fn push_sign(out: &mut String, x: f64) -> Option<f64> {
    if let Some(word) = special(x) {
        out.push_str(word);
        return None;
    }
    if x.is_sign_negative() {
        out.push('-');
    }
    Some(x.abs())
}

/// `x` as Rust's `{:?}` writes it: `12.0`, `0.1`, `1e300`, `5e-324`.
pub fn push_debug(out: &mut String, x: f64) {
    let Some(abs) = push_sign(out, x) else {
        return;
    };
    if abs == 0.0 {
        out.push_str("0.0");
    } else if !(1e-4..1e16).contains(&abs) {
        push_exponential(out, &shortest(abs));
    } else {
        push_plain(out, &shortest(abs), 1);
    }
}

/// `x` as Rust's `{}` writes it: `12`, `0.1`, never an exponent.
pub fn push_display(out: &mut String, x: f64) {
    let Some(abs) = push_sign(out, x) else {
        return;
    };
    if abs == 0.0 {
        out.push('0');
    } else {
        push_plain(out, &shortest(abs), 0);
    }
}

/// `x` as Rust's `{:.N}` writes it, `frac` (at most 9) fraction digits,
/// from the double's exact value, ties to even.
pub fn push_fixed(out: &mut String, x: f64, frac: u32) {
    let Some(abs) = push_sign(out, x) else {
        return;
    };
    let frac = frac.min(9);
    let bits = abs.to_bits();
    let biased = (bits >> 52) as i32;
    let fraction = bits & ((1 << 52) - 1);
    let (mantissa, exp) = if biased == 0 {
        (fraction, -1074)
    } else {
        (fraction | (1 << 52), biased - 1075)
    };
    let unit = 10u64.pow(frac);
    let (whole, part) = if exp >= 0 {
        push_big_whole(out, mantissa, exp as u32);
        (None, 0)
    } else {
        let shift = exp.unsigned_abs();
        let (whole, rest) = if shift < 64 {
            (mantissa >> shift, mantissa & ((1u64 << shift) - 1))
        } else {
            (0, mantissa)
        };
        // rest × 10^frac < 2^53 × 2^30 fits; past 2^127 the part is
        // below one half of a unit and rounds to zero.
        let scaled = u128::from(rest) * u128::from(unit);
        let (mut q, r, half) = if shift < 128 {
            let q = scaled >> shift;
            (q, scaled - (q << shift), 1u128 << (shift - 1))
        } else {
            (0, scaled, u128::MAX)
        };
        // The last digit written decides a tie: `q`'s, or with no
        // fraction digits the whole part's.
        let odd = if frac == 0 {
            whole & 1 == 1
        } else {
            q & 1 == 1
        };
        if r > half || (r == half && odd) {
            q += 1;
        }
        let mut whole = whole;
        if q == u128::from(unit) {
            whole += 1;
            q = 0;
        }
        (Some(whole), q as u64)
    };
    let mut buf = [0u8; 20];
    if let Some(whole) = whole {
        push_ascii(out, uint_digits(whole, &mut buf));
    }
    if frac > 0 {
        out.push('.');
        let digits = uint_digits(part, &mut buf);
        push_zeros(out, frac as usize - digits.len());
        push_ascii(out, digits);
    }
}

/// The whole number `mantissa × 2^exp`, exactly, in base 10^9 limbs.
fn push_big_whole(out: &mut String, mantissa: u64, exp: u32) {
    const LIMB: u64 = 1_000_000_000;
    let mut limbs: Vec<u64> = vec![
        mantissa % LIMB,
        mantissa / LIMB % LIMB,
        mantissa / LIMB / LIMB,
    ];
    for _ in 0..exp {
        let mut carry = 0;
        for limb in limbs.iter_mut() {
            let v = *limb * 2 + carry;
            *limb = v % LIMB;
            carry = v / LIMB;
        }
        if carry > 0 {
            limbs.push(carry);
        }
    }
    while limbs.len() > 1 && limbs.last() == Some(&0) {
        limbs.pop();
    }
    let mut buf = [0u8; 20];
    let mut first = true;
    for &limb in limbs.iter().rev() {
        let digits = uint_digits(limb, &mut buf);
        if !first {
            push_zeros(out, 9 - digits.len());
        }
        push_ascii(out, digits);
        first = false;
    }
}

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
fn magnitude(digits: &str) -> Option<u64> {
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
enum Read {
    Value(f64),
    NotANumber,
    Slow,
}

/// Up to 19 significant digits with a decimal exponent of at most 22
/// either way, read exactly (Clinger's fast path: both operands exact,
/// one correctly rounded operation); `Slow` for the rest.
fn fast_parse(text: &str) -> Read {
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
fn exponent(tail: &[u8]) -> Result<i32, Read> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_numbers_read_as_str_parse_reads_them() {
        let mut texts: Vec<String> = [
            "",
            "+",
            "-",
            "0",
            "-0",
            "+0",
            "007",
            "+-1",
            "-+1",
            "--1",
            "++1",
            "1 ",
            " 1",
            "1.0",
            "1e3",
            "12a",
            "a12",
            "٣",
            "18446744073709551615",
            "18446744073709551616",
            "+18446744073709551615",
            "99999999999999999999",
            "9223372036854775807",
            "9223372036854775808",
            "-9223372036854775808",
            "-9223372036854775809",
            "-18446744073709551615",
            "000000000000000000000000000001",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        // Every text of up to three of these bytes.
        let alphabet = ["", "0", "1", "9", "+", "-", "a", "."];
        for a in alphabet {
            for b in alphabet {
                for c in alphabet {
                    texts.push([a, b, c].concat());
                }
            }
        }
        // Random digits, signs now and then, up to 23 bytes (past both
        // types' 19 and 20 digits), and random numbers of both types.
        let mut rng = crate::sim::random::Rng::new(7);
        let mut draw = |n: u64| rng.below(n);
        for _ in 0..20_000 {
            let len = draw(24) as usize;
            let text: String = (0..len)
                .map(|_| b"0123456789012345678+-"[draw(21) as usize] as char)
                .collect();
            texts.push(text);
            let wide = draw(1 << 31) << 33 | draw(1 << 31) << 2 | draw(4);
            texts.push(wide.to_string());
            texts.push((wide as i64).to_string());
        }
        for t in &texts {
            assert_eq!(parse_u64(t), t.parse::<u64>().ok(), "u64 {t:?}");
            assert_eq!(parse_i64(t), t.parse::<i64>().ok(), "i64 {t:?}");
        }
    }

    /// A seeded spread of doubles: every exponent, prices and rates with
    /// few decimals, random bit patterns, and the edges.
    fn corpus() -> Vec<f64> {
        let mut values = vec![
            0.0,
            -0.0,
            f64::MIN_POSITIVE,
            5e-324,
            f64::MAX,
            f64::MIN,
            f64::EPSILON,
            1e-4,
            9.999999999999999e-5,
            1e16,
            9999999999999998.0,
            1e15,
            999999999999999.9,
            0.1 + 0.2,
            9_007_199_254_740_993.0,
            123456789.125,
            0.5,
            1.5,
            2.5,
            0.125,
            0.375,
            0.00005,
            0.99995,
            0.99994999,
            1e21,
            1e22,
            1e23,
        ];
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..15_000 {
            let bits = next();
            let x = f64::from_bits(bits);
            if x.is_finite() {
                values.push(x);
            }
            values.push((next() >> 11) as f64 / (1u64 << 53) as f64);
            let cents = (next() % 100_000_000) as f64;
            values.push(cents / 100.0);
            values.push(cents / 1000.0 * 7.0);
            values.push((next() % 1000) as f64 / 10f64.powi((next() % 30) as i32));
        }
        values
    }

    #[test]
    fn debug_matches_core_on_a_large_corpus() {
        for x in corpus() {
            assert_eq!(debug(x), format!("{x:?}"), "{:#x}", x.to_bits());
            assert_eq!(debug(-x), format!("{:?}", -x), "{:#x}", x.to_bits());
        }
        for x in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            assert_eq!(debug(x), format!("{x:?}"));
        }
    }

    #[test]
    fn display_matches_core_on_a_large_corpus() {
        for x in corpus() {
            assert_eq!(display(x), format!("{x}"), "{:#x}", x.to_bits());
        }
        for x in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            assert_eq!(display(x), format!("{x}"));
        }
    }

    #[test]
    fn fixed_matches_core_on_a_large_corpus() {
        for x in corpus() {
            for frac in [0, 1, 2, 4, 9] {
                assert_eq!(
                    fixed(x, frac),
                    format!("{x:.*}", frac as usize),
                    "{:#x} .{frac}",
                    x.to_bits()
                );
            }
        }
    }

    #[test]
    fn the_fast_paths_alone_write_and_read_prices_and_rates() {
        for (x, digits, exp) in [
            (19.99, "1999", 1),
            (0.3, "3", -1),
            (1500.0, "15", 3),
            (0.0001, "1", -4),
            (123456.78, "12345678", 5),
        ] {
            let d = fast_shortest(x).map(|d| (d.digits().to_vec(), d.exp));
            assert_eq!(d, Some((digits.as_bytes().to_vec(), exp)), "{x}");
        }
        for (text, x) in [
            ("19.99", 19.99),
            ("-0.3", -0.3),
            ("1500", 1500.0),
            ("1e-4", 1e-4),
        ] {
            assert_eq!(fast_parse(text), Read::Value(x), "{text}");
        }
        // A random draw's 17 digits and 1e300 take the slow paths.
        assert_eq!(fast_shortest(0.20533093650376895), None);
        assert_eq!(fast_parse("1e300"), Read::Slow);
        assert_eq!(fast_parse("0.20533093650376895"), Read::Slow);
    }

    #[test]
    fn the_fast_paths_agree_with_core_wherever_they_answer() {
        let mut answered = 0;
        for x in corpus().into_iter().filter(|x| *x > 0.0) {
            if let Some(d) = fast_shortest(x) {
                let core = Decimal::read(&format!("{x:e}"));
                assert_eq!(Some(d), core, "{x:e}");
                answered += 1;
            }
            let text = format!("{x:?}");
            if let Read::Value(v) = fast_parse(&text) {
                assert_eq!(v.to_bits(), x.to_bits(), "{text}");
            }
        }
        assert!(answered > 10_000, "{answered}");
    }

    /// What a JS engine answers in a tie (the even digit) is turned into
    /// what Rust writes (away from zero); other answers are kept.
    #[test]
    fn ties_are_settled_as_core_settles_them() {
        let mut settled = 0;
        for k in 0..3_000u64 {
            for (frac, even) in [(0.25, "2"), (0.75, "8")] {
                let x = (1u64 << 50) as f64 + (k * 7919) as f64 + frac;
                let whole = (1u64 << 50) + k * 7919;
                let js =
                    Decimal::read(&format!("{whole}.{even}")).unwrap_or_else(|| slow::shortest(x));
                let ours = settle_tie(x, js);
                assert_eq!(ours, slow::shortest(x), "{x:?}");
                settled += usize::from(ours != js);
            }
            let x = (k as f64 + 0.5) / 1024.0 + 1.0;
            assert_eq!(settle_tie(x, slow::shortest(x)), slow::shortest(x), "{x:?}");
        }
        assert_eq!(settled, 3_000);
        for x in corpus().into_iter().filter(|x| *x > 0.0) {
            assert_eq!(settle_tie(x, slow::shortest(x)), slow::shortest(x), "{x:?}");
        }
    }

    #[test]
    fn parse_matches_core_on_a_large_corpus() {
        let mut texts: Vec<String> = Vec::new();
        for x in corpus() {
            texts.push(format!("{x:?}"));
            texts.push(format!("{x:e}"));
            texts.push(format!("{x}"));
        }
        texts.extend(
            [
                "0",
                "-0",
                "0.0",
                "1e400",
                "-1e400",
                "1e-400",
                "12345678901234567890123",
                "0.1e1",
                "1E+2",
                "9007199254740993",
                "9007199254740992.5",
                "0.000001",
                "1e22",
                "1e23",
                "123456789012345678e-5",
                "4.9e-324",
                "2.4703282292062328e-324",
                "00012",
            ]
            .map(String::from),
        );
        for text in &texts {
            let core = text.parse::<f64>().ok();
            let ours = parse(text);
            assert_eq!(ours.map(f64::to_bits), core.map(f64::to_bits), "{text}");
        }
    }

    #[test]
    fn parse_refuses_what_is_not_a_json_number() {
        for text in ["", "-", ".", "e5", "1e", "1.2.3", "abc", "1x"] {
            assert_eq!(parse(text), None, "{text}");
        }
    }
}
