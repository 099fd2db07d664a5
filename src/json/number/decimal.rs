//! The shortest decimal digits of a double, found exactly where integer
//! arithmetic can and by the slow path (core's, or the JS engine's) where
//! it cannot: what `write` writes and `parse` shares its tables with.

use crate::prelude::*;

/// The shortest decimal digits that read back as a finite, nonzero
/// double: `digits[..len]` as `d.ddd × 10^exp`, no leading or trailing
/// zeros.
#[derive(Debug, Clone, Copy)]
pub(super) struct Decimal {
    pub(super) digits: [u8; 17],
    pub(super) len: usize,
    pub(super) exp: i32,
}

impl PartialEq for Decimal {
    fn eq(&self, other: &Decimal) -> bool {
        self.digits() == other.digits() && self.exp == other.exp
    }
}

impl Decimal {
    pub(super) fn digits(&self) -> &[u8] {
        self.digits.get(..self.len).unwrap_or_default()
    }

    /// Reads `d.ddde±n`, `123.45`, `1e-7` or `1.5e+300` (what core's
    /// `{:e}` and JS's `String(x)` write), sign already removed.
    pub(super) fn read(text: &str) -> Option<Decimal> {
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
    pub(super) fn of_scaled(m: u64, k: i32) -> Decimal {
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

pub(super) fn small_int(digits: &[u8]) -> Option<i32> {
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
pub(super) const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// Below this, a scaled value's nearest integer is found exactly (its
/// distance from the true decimal stays under 0.25) and at most one
/// decimal of that many digits lies in the double's rounding interval.
pub(super) const FAST_DIGITS_LIMIT: f64 = 1e15;

/// The shortest digits of a finite, positive `x`.
pub(super) fn shortest(x: f64) -> Decimal {
    fast_shortest(x).unwrap_or_else(|| slow::shortest(x))
}

/// The shortest digits of a positive `x` with at most 15 of them and at
/// most 22 after the point, by exact arithmetic; `None` for the rest.
pub(super) fn fast_shortest(x: f64) -> Option<Decimal> {
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
pub(super) mod slow {
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
pub(super) mod slow {
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
pub(super) fn settle_tie(x: f64, d: Decimal) -> Decimal {
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

/// A finite, non-negative double as `mantissa × 2^exp`, exactly: its
/// stored fraction with the hidden bit (none for a subnormal) and its
/// unbiased exponent. The one place the bits of a double are taken apart.
pub(super) fn mantissa_exp(abs: f64) -> (u64, i32) {
    let bits = abs.to_bits();
    let biased = (bits >> 52) as i32;
    let fraction = bits & ((1 << 52) - 1);
    if biased == 0 {
        (fraction, -1074)
    } else {
        (fraction | (1 << 52), biased - 1075)
    }
}

/// Whether `|x|` is exactly `(whole + 1/2) × 10^q`: with `x = odd × 2^e`,
/// that is `odd × 5^-q = 2·whole + 1` and `e = q - 1` (for `q < 0`), or
/// `odd = (2·whole + 1) × 5^q` and `e = q - 1` (for `q >= 0`).
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub(super) fn is_midpoint_above(x: f64, whole: u64, q: i32) -> bool {
    let (mantissa, exp) = mantissa_exp(x.abs());
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

pub(super) fn uint_digits(mut value: u64, buf: &mut [u8; 20]) -> &[u8] {
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
