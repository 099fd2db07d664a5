//! What std's prelude gives a file, for the WebAssembly build, which has
//! no std (see the crate's documentation): each file that needs any of it
//! starts with `use crate::prelude::*;`. Natively the same names are
//! std's own, re-exported from `alloc`, and std's inherent `f64` methods
//! take precedence over [`Rounding`].

pub use alloc::borrow::ToOwned;
pub use alloc::boxed::Box;
pub use alloc::string::{String, ToString};
pub use alloc::vec::Vec;
pub use alloc::{format, vec};
pub use hashbrown::{HashMap, HashSet};

/// The two `f64` methods of std the crate uses that `core` lacks, with
/// std's results to the bit.
pub trait Rounding {
    /// The part after the point, with the sign of `self`.
    fn fract(self) -> f64;
    /// The nearest whole number, halves away from zero.
    fn round(self) -> f64;
}

/// 2^52: from here on every `f64` is a whole number.
const WHOLE_FROM: f64 = 4_503_599_627_370_496.0;

/// Rounds toward zero, keeping the sign of a zero. Below 2^52 the `i64`
/// holds the whole part exactly; `as` is one saturating instruction.
fn trunc(x: f64) -> f64 {
    if x.abs() < WHOLE_FROM {
        ((x as i64) as f64).copysign(x)
    } else {
        x
    }
}

impl Rounding for f64 {
    fn fract(self) -> f64 {
        self - trunc(self)
    }

    fn round(self) -> f64 {
        let whole = trunc(self);
        // Exact: `self` and `whole` share their sign and their high bits.
        if (self - whole).abs() >= 0.5 {
            whole + 1f64.copysign(self)
        } else {
            whole
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Rounding;

    fn same(a: f64, b: f64) -> bool {
        a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
    }

    #[test]
    fn round_and_fract_match_std_to_the_bit() {
        let mut values = vec![
            0.0,
            -0.0,
            0.5,
            -0.5,
            1.5,
            2.5,
            -2.5,
            0.49999999999999994,
            -0.49999999999999994,
            4_503_599_627_370_495.5,
            4_503_599_627_370_497.0,
            9_007_199_254_740_993.0,
            1e300,
            -1e300,
            f64::MIN_POSITIVE,
            f64::EPSILON,
            f64::MAX,
            f64::MIN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            12.345 * 100.0,
            -0.005 * 100.0,
        ];
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..100_000 {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            values.push(f64::from_bits(state));
            values.push((state >> 11) as f64 / 1024.0 - 4e12);
            values.push((state % 1_000_000) as f64 / 100.0);
        }
        for x in values {
            assert!(same(Rounding::round(x), x.round()), "round({x:e})");
            assert!(same(Rounding::fract(x), x.fract()), "fract({x:e})");
        }
    }
}
