//! The one set of field helpers the snapshot's readers refuse with: a
//! member looked up, read as its type, and refused naming its place, in
//! the words every reader of the format shares.

use crate::domain::money::Money;
use crate::json::message::{Msg, Path, Place};
use crate::json::Json;
use crate::sim::invalid::{Invalid, InvalidKind};
use crate::sim::time_limits::MAX_SAFE_INTEGER;

//
// Every refusal is an `Invalid` naming the field by its path in the
// snapshot (`snapshot.settings.seed`, `snapshot.orders.live["ORD-…"].price`):
// a value of the wrong JSON type or a missing field is a `WrongType`, a
// value of the right type that this service would never write an
// `OutOfRange`.

pub(crate) type Read<T> = Result<T, Invalid>;

/// What a value is, for a message: `string "11"`, `number -1`, `null`.
pub(super) fn shown(m: &mut Msg, v: &Json) {
    match v {
        Json::Null => m.s("null"),
        Json::Bool(true) => m.s("boolean true"),
        Json::Bool(false) => m.s("boolean false"),
        Json::Num(n) => m.s("number ").s(n),
        Json::Str(s) => m.s("string ").q(s),
        Json::Arr(_) => m.s("an array"),
        Json::Obj(_) => m.s("an object"),
    };
}

/// A refusal at `at`: its place, `: `, then `problem`.
#[inline(never)]
pub(super) fn refusal(kind: InvalidKind, at: &dyn Place, problem: &mut Msg) -> Invalid {
    let mut m = Msg::default();
    at.write_place(&mut m);
    m.s(": ").s(problem.buffer());
    Invalid {
        kind,
        msg: m.text(),
    }
}

/// `invalid type: string "11", expected a whole number`, and the like.
#[inline(never)]
pub(super) fn invalid(kind: InvalidKind, at: &dyn Place, v: &Json, expected: &str) -> Invalid {
    let mut m = Msg::new(match kind {
        InvalidKind::WrongType => "invalid type: ",
        InvalidKind::OutOfRange => "invalid value: ",
    });
    shown(&mut m, v);
    refusal(kind, at, m.s(", expected ").s(expected))
}

pub(super) fn wrong(at: &dyn Place, v: &Json, expected: &str) -> Invalid {
    invalid(InvalidKind::WrongType, at, v, expected)
}

pub(super) fn outside(at: &dyn Place, v: &Json, expected: &str) -> Invalid {
    invalid(InvalidKind::OutOfRange, at, v, expected)
}

/// An `OutOfRange` refusal at `at`.
pub(super) fn out_of_range(at: &dyn Place, problem: &mut Msg) -> Invalid {
    refusal(InvalidKind::OutOfRange, at, problem)
}

/// `problem, got "text"`, out of range at `at`.
#[inline(never)]
pub(super) fn got_text(at: &dyn Place, problem: &str, text: &str) -> Invalid {
    out_of_range(at, Msg::new(problem).s(", got ").q(text))
}

pub(super) fn field<'j, 'a>(o: &'j Json<'a>, at: &dyn Place, name: &str) -> Read<&'j Json<'a>> {
    o.get(name)
        .ok_or_else(|| refusal(InvalidKind::WrongType, at, &mut missing_field(name)))
}

/// A whole number 0 or more as `v`, the value at `at`.
pub(super) fn uint_value(v: &Json, at: &dyn Place) -> Read<u64> {
    match v {
        Json::Num(_) => v
            .as_u64()
            .ok_or_else(|| outside(at, v, "a whole number from 0 to 18446744073709551615")),
        _ => Err(wrong(at, v, "a whole number")),
    }
}

pub(super) fn uint(o: &Json, at: &dyn Place, name: &str) -> Read<u64> {
    uint_value(field(o, at, name)?, &Path(at, name))
}

pub(super) fn count(o: &Json, at: &dyn Place, name: &str) -> Read<usize> {
    let n = uint(o, at, name)?;
    usize::try_from(n).map_err(|_| out_of_range(&Path(at, name), Msg::new("too large: ").uint(n)))
}

pub(super) fn int_value(v: &Json, at: &dyn Place) -> Read<i64> {
    match v {
        Json::Num(_) => v.as_i64().ok_or_else(|| {
            outside(
                at,
                v,
                "a whole number from -9223372036854775808 to 9223372036854775807",
            )
        }),
        _ => Err(wrong(at, v, "a whole number")),
    }
}

pub(super) fn int(o: &Json, at: &dyn Place, name: &str) -> Read<i64> {
    int_value(field(o, at, name)?, &Path(at, name))
}

pub(super) fn number(o: &Json, at: &dyn Place, name: &str) -> Read<f64> {
    let v = field(o, at, name)?;
    v.as_f64()
        .ok_or_else(|| wrong(&Path(at, name), v, "a number"))
}

pub(super) fn text<'j>(o: &'j Json, at: &dyn Place, name: &str) -> Read<&'j str> {
    let v = field(o, at, name)?;
    v.as_str()
        .ok_or_else(|| wrong(&Path(at, name), v, "a string"))
}

pub(super) fn money(o: &Json, at: &dyn Place, name: &str) -> Read<Money> {
    let n = number(o, at, name)?;
    Money::positive(n).ok_or_else(|| {
        out_of_range(
            &Path(at, name),
            Msg::new("must be a finite number > 0, got ").num(n),
        )
    })
}

pub(super) type Members<'j, 'a> = &'j [(alloc::borrow::Cow<'a, str>, Json<'a>)];

pub(super) fn object<'j, 'a>(v: &'j Json<'a>, at: &dyn Place) -> Read<Members<'j, 'a>> {
    v.as_object().ok_or_else(|| wrong(at, v, "an object"))
}

pub(super) fn members<'j, 'a>(o: &'j Json<'a>, at: &str, name: &str) -> Read<Members<'j, 'a>> {
    object(field(o, &at, name)?, &Path(&at, name))
}

/// A member of a map as its place (`live["ORD-…"]`).
pub(super) struct Keyed<'a>(pub(super) &'a str, pub(super) &'a str);

impl Place for Keyed<'_> {
    fn write_place(&self, m: &mut Msg) {
        m.s(self.0).s("[").q(self.1).s("]");
    }
}

/// An element of a list as its place (`at[i]`).
pub(super) struct Item<'a>(pub(super) &'a str, pub(super) usize);

impl Place for Item<'_> {
    fn write_place(&self, m: &mut Msg) {
        m.s(self.0).s("[").uint(self.1 as u64).s("]");
    }
}

/// A count that fits 32 bits (attempts, a forced outcome's count).
pub(super) fn small_count(v: &Json, at: &dyn Place) -> Read<u32> {
    let n = uint_value(v, at)?;
    u32::try_from(n).map_err(|_| {
        out_of_range(
            at,
            Msg::new("must be a whole number from 0 to ")
                .uint(u64::from(u32::MAX))
                .s(", got ")
                .uint(n),
        )
    })
}

/// A number's text as written.
pub(super) fn shown_number(m: &mut Msg, v: &Json) {
    match v {
        Json::Num(n) => {
            m.s(n);
        }
        other => shown(m, other),
    }
}

// The short refusals (`place: expected an array`), for the parts written
// after the first format (counters) and for the journal, whose words were
// set before the longer ones above. The places are written out only for
// a refusal (see `Place`), and the refusals are never inlined: reading a
// valid snapshot's counters builds no path, and each check is a call.

/// `problem`, out of range at `at`.
#[inline(never)]
pub(super) fn out_of(at: &dyn Place, problem: impl AsRef<str>) -> Invalid {
    refusal(InvalidKind::OutOfRange, at, &mut Msg::new(problem.as_ref()))
}

/// `at: missing`.
#[inline(never)]
pub(super) fn missing(at: &dyn Place) -> Invalid {
    refusal(InvalidKind::WrongType, at, &mut Msg::new("missing"))
}

/// `at: expected …`, a value of the wrong type, not shown.
#[inline(never)]
pub(super) fn expected(at: &dyn Place, what: &str) -> Invalid {
    refusal(InvalidKind::WrongType, at, Msg::new("expected ").s(what))
}

/// The member `name` of `o`, which must be an object.
#[inline(never)]
pub(super) fn member<'j, 'a>(o: &'j Json<'a>, at: &dyn Place, name: &str) -> Read<&'j Json<'a>> {
    if o.as_object().is_none() {
        return Err(expected(at, "an object"));
    }
    field(o, at, name)
}

/// `v` as an array, or `at: expected an array`.
pub(super) fn array_at<'j, 'a>(v: &'j Json<'a>, at: &dyn Place) -> Read<&'j [Json<'a>]> {
    v.as_array().ok_or_else(|| expected(at, "an array"))
}

/// The count `name` of the object `o` at `at`.
#[inline(never)]
pub(super) fn safe_count_in(o: &Json, at: &dyn Place, name: &str) -> Read<u64> {
    safe_count(member(o, at, name)?, &Path(at, name))
}

/// A count: a whole number a JS number holds exactly.
#[inline(never)]
pub(super) fn safe_count(v: &Json, at: &dyn Place) -> Read<u64> {
    match v {
        Json::Num(_) => v
            .as_u64()
            .filter(|n| *n <= MAX_SAFE_INTEGER)
            .ok_or_else(|| {
                let mut problem = Msg::new("must be a whole number from 0 to ");
                refusal(InvalidKind::OutOfRange, at, problem.uint(MAX_SAFE_INTEGER))
            }),
        _ => Err(expected(at, "a whole number")),
    }
}

/// A member's name as the journal's refusals show it: `` `name` ``.
pub(super) struct Ticked<'a>(pub(super) &'a str);

impl Place for Ticked<'_> {
    fn write_place(&self, m: &mut Msg) {
        m.s("`").s(self.0).s("`");
    }
}

/// `missing field `name``, the problem a missing member is refused with.
pub(super) fn missing_field(name: &str) -> Msg {
    let mut m = Msg::new("missing field `");
    m.s(name).s("`");
    m
}
