//! A value refused at the edge of the library (an option, a clock move, a
//! snapshot): what was wrong, and which kind of wrong, so a binding can
//! throw the matching error (a `TypeError` for a value of the wrong kind,
//! a `RangeError` for one of the right kind out of its range).

use crate::prelude::*;

use core::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InvalidKind {
    /// Not the kind of value expected at all: not a number, not JSON, a
    /// field missing.
    WrongType,
    /// The right kind of value, out of its range or inconsistent with the
    /// rest.
    OutOfRange,
}

/// One refusal: `msg` names the field first (`clock: ...`), then the
/// problem, so the caller knows where to look.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invalid {
    pub kind: InvalidKind,
    pub msg: String,
}

/// The two constructors are never inlined: refusals are cold, and each of
/// the many callers would otherwise carry its own copy of the joining and
/// of dropping the problem's `String`.
impl Invalid {
    #[inline(never)]
    pub fn wrong_type(field: &str, problem: impl AsRef<str>) -> Invalid {
        Invalid::new(InvalidKind::WrongType, field, problem.as_ref())
    }

    #[inline(never)]
    pub fn out_of_range(field: &str, problem: impl AsRef<str>) -> Invalid {
        Invalid::new(InvalidKind::OutOfRange, field, problem.as_ref())
    }

    /// `field: problem`, joined by hand: refusals are built on cold paths
    /// all over the crate, and one shared step keeps `core::fmt` out.
    #[inline(never)]
    fn new(kind: InvalidKind, field: &str, problem: &str) -> Invalid {
        let mut msg = String::with_capacity(field.len() + 2 + problem.len());
        msg.push_str(field);
        msg.push_str(": ");
        msg.push_str(problem);
        Invalid { kind, msg }
    }
}

/// Read as its message, as the `String` errors before it were.
impl core::ops::Deref for Invalid {
    type Target = str;
    fn deref(&self) -> &str {
        &self.msg
    }
}

impl Default for Invalid {
    fn default() -> Invalid {
        Invalid {
            kind: InvalidKind::WrongType,
            msg: String::new(),
        }
    }
}

impl fmt::Display for Invalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.msg)
    }
}
