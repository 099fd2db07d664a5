//! Numbers written as text, as Rust's `{:?}`, `{}` and `{:.N}` write
//! them, byte for byte, from their shortest digits.

use crate::prelude::*;

use super::decimal::{mantissa_exp, shortest, uint_digits, Decimal};

pub(super) fn push_ascii(out: &mut String, bytes: &[u8]) {
    for &b in bytes {
        out.push(char::from(b));
    }
}

pub(super) fn push_zeros(out: &mut String, n: usize) {
    for _ in 0..n {
        out.push('0');
    }
}

/// NaN and the infinities as Rust writes them; `None` for finite `x`.
pub(super) fn special(x: f64) -> Option<&'static str> {
    if x.is_nan() {
        Some("NaN")
    } else if x.is_infinite() {
        Some(if x > 0.0 { "inf" } else { "-inf" })
    } else {
        None
    }
}

/// `d` in plain decimal form, with at least `min_frac` fraction digits.
pub(super) fn push_plain(out: &mut String, d: &Decimal, min_frac: usize) {
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
pub(super) fn push_exponential(out: &mut String, d: &Decimal) {
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
pub(super) fn push_sign(out: &mut String, x: f64) -> Option<f64> {
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
    let (mantissa, exp) = mantissa_exp(abs);
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
pub(super) fn push_big_whole(out: &mut String, mantissa: u64, exp: u32) {
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
