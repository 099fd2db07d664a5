//! The steps a scenario document is read with: a place in it, built as
//! the reader descends and written only for a refusal, and the values a
//! field may hold, each refused naming its place and the value got.

use crate::prelude::*;

use alloc::borrow::Cow;

use crate::json::message::Msg;
use crate::json::read::Json;
use crate::sim::invalid::{Invalid, InvalidKind};
use crate::sim::time_limits::{MAX_TIME_MS, MIN_TIME_MS};

use super::document::DECLINE_CODES;

/// A document refused: where (a JSON path, empty for the whole) and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub kind: InvalidKind,
    pub at: String,
    pub problem: String,
}

impl Refusal {
    /// `path: problem`, or the problem alone for the whole document.
    pub fn text(&self) -> String {
        if self.at.is_empty() {
            return self.problem.clone();
        }
        let mut m = Msg::new(&self.at);
        m.s(": ").s(&self.problem);
        m.text()
    }

    /// As an `Invalid` of `field` (`scenario: rules[0].then: …`).
    pub fn invalid(&self, field: &str) -> Invalid {
        match self.kind {
            InvalidKind::WrongType => Invalid::wrong_type(field, self.text()),
            InvalidKind::OutOfRange => Invalid::out_of_range(field, self.text()),
        }
    }
}

/// A place in the document, built as the reader descends and written out
/// only for a refusal.
#[derive(Clone, Copy)]
pub(super) enum At<'a> {
    Root,
    Key(&'a At<'a>, &'a str),
    Index(&'a At<'a>, usize),
}

impl At<'_> {
    fn write(&self, m: &mut Msg) {
        match self {
            At::Root => {}
            At::Key(At::Root, key) => {
                m.s(key);
            }
            At::Key(parent, key) => {
                parent.write(m);
                m.s(".").s(key);
            }
            At::Index(parent, i) => {
                parent.write(m);
                m.s("[").uint(*i as u64).s("]");
            }
        }
    }

    #[inline(never)]
    pub(super) fn refuse(&self, kind: InvalidKind, problem: String) -> Box<Refusal> {
        let mut m = Msg::default();
        self.write(&mut m);
        Box::new(Refusal {
            kind,
            at: m.text(),
            problem,
        })
    }

    #[inline(never)]
    pub(super) fn wrong(&self, expected: &str, got: &Json) -> Box<Refusal> {
        self.refuse(InvalidKind::WrongType, expected_got(expected, got))
    }

    #[inline(never)]
    pub(super) fn range(&self, expected: &str, got: &Json) -> Box<Refusal> {
        self.refuse(InvalidKind::OutOfRange, expected_got(expected, got))
    }
}

/// `expected X, got Y`, Y a short form of the value.
fn expected_got(expected: &str, got: &Json) -> String {
    let mut m = Msg::new("expected ");
    m.s(expected).s(", got ");
    match got {
        Json::Null => m.s("null"),
        Json::Bool(b) => m.s(if *b { "true" } else { "false" }),
        Json::Num(text) => m.s(text),
        Json::Str(s) => m.q(s),
        Json::Arr(_) => m.s("an array"),
        Json::Obj(_) => m.s("an object"),
    };
    m.text()
}

type Members<'j, 'a> = &'j [(Cow<'a, str>, Json<'a>)];

/// An object whose keys are all among `keys`, each once.
pub(super) fn object<'j, 'a>(
    v: &'j Json<'a>,
    at: &At,
    keys: &[&str],
) -> Result<Members<'j, 'a>, Box<Refusal>> {
    let members = v.as_object().ok_or_else(|| at.wrong("an object", v))?;
    for (i, (key, _)) in members.iter().enumerate() {
        if !keys.contains(&key.as_ref()) {
            let mut m = Msg::new("unknown key ");
            m.q(key).s("; expected one of ");
            for (i, k) in keys.iter().enumerate() {
                m.s(if i == 0 { "" } else { ", " }).s(k);
            }
            return Err(at.refuse(InvalidKind::WrongType, m.text()));
        }
        if members.iter().take(i).any(|(k, _)| k == key) {
            let mut m = Msg::new("duplicate key ");
            m.q(key);
            return Err(at.refuse(InvalidKind::WrongType, m.text()));
        }
    }
    Ok(members)
}

pub(super) fn member<'j, 'a>(members: Members<'j, 'a>, name: &str) -> Option<&'j Json<'a>> {
    members.iter().find(|(k, _)| k == name).map(|(_, v)| v)
}

/// A string of at most `max` characters.
pub(super) fn text(v: &Json, at: &At, max: usize) -> Result<String, Box<Refusal>> {
    let s = v.as_str().ok_or_else(|| at.wrong("a string", v))?;
    if s.chars().count() > max {
        let mut m = Msg::new("expected at most ");
        m.uint(max as u64)
            .s(" characters, got ")
            .uint(s.chars().count() as u64);
        return Err(at.refuse(InvalidKind::OutOfRange, m.text()));
    }
    Ok(s.to_owned())
}

/// `intro` and every one of `words` in parentheses, for a refusal that
/// lists what it takes: `one of the kinds (decline, timeout)`.
pub(super) fn one_of(intro: &str, words: &[&str]) -> String {
    let mut m = Msg::new(intro);
    for (i, w) in words.iter().enumerate() {
        m.s(if i == 0 { " (" } else { ", " }).s(w);
    }
    if !words.is_empty() {
        m.s(")");
    }
    m.text()
}

/// One of `words`, given back as the static word.
pub(super) fn word(
    v: &Json,
    at: &At,
    words: &[&'static str],
    what: &str,
) -> Result<&'static str, Box<Refusal>> {
    let s = v.as_str().ok_or_else(|| at.wrong(what, v))?;
    words
        .iter()
        .find(|w| **w == s)
        .copied()
        .ok_or_else(|| at.range(what, v))
}

/// A whole number in `min..=max`; `what` says what it counts.
pub(super) fn whole(
    v: &Json,
    at: &At,
    min: u64,
    max: u64,
    what: &str,
) -> Result<u64, Box<Refusal>> {
    let x = v.as_f64().ok_or_else(|| at.wrong(what, v))?;
    // In range first, so the cast below is exact.
    if !(0.0..=9.007_199_254_740_991e15).contains(&x) || x != (x as u64) as f64 {
        return Err(at.wrong(what, v));
    }
    let n = x as u64;
    if n < min || n > max {
        let mut m = Msg::new(what);
        m.s(" from ").uint(min).s(" to ").uint(max);
        return Err(at.range(&m.text(), v));
    }
    Ok(n)
}

/// A time on the service's clock, epoch ms, within a JS `Date`'s range.
pub(super) fn time(v: &Json, at: &At) -> Result<i64, Box<Refusal>> {
    let what = "a whole number of ms";
    let x = v.as_f64().ok_or_else(|| at.wrong(what, v))?;
    let bound = MAX_TIME_MS as f64;
    if !(-bound..=bound).contains(&x) || x != (x as i64) as f64 {
        return Err(at.wrong(what, v));
    }
    Ok((x as i64).clamp(MIN_TIME_MS, MAX_TIME_MS))
}

/// A finite number.
pub(super) fn number(v: &Json, at: &At) -> Result<f64, Box<Refusal>> {
    v.as_f64()
        .filter(|x| x.is_finite())
        .ok_or_else(|| at.wrong("a number", v))
}

/// A decline code, one of `DECLINE_CODES`, or `default`.
pub(super) fn decline_code(
    given: Given,
    default: &'static str,
) -> Result<&'static str, Box<Refusal>> {
    match given {
        Some((v, at)) => word(
            v,
            &at,
            &DECLINE_CODES,
            &one_of("one of Stripe's decline codes", &DECLINE_CODES),
        ),
        None => Ok(default),
    }
}

pub(super) type Given<'j, 'a, 'p> = Option<(&'j Json<'a>, At<'p>)>;
