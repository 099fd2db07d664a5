//! A request body as the services read it: parsed once, as a flat
//! object held in place or as the general reader's members, and asked for
//! its fields, each refused naming itself and its problem.

use crate::prelude::*;

use crate::json::message::{msg, Q};

use alloc::borrow::Cow;

use super::error::ApiError;
use super::request::{check_body_size, Headers, Text};
use crate::json::char_class;
use crate::json::flat::{Flat, Scalar};
use crate::json::{self, number, Json};

/// A request body that parsed as a JSON object: its members, borrowed
/// from the body's text wherever they need no unescaping.
#[derive(Debug, Clone, PartialEq)]
pub struct JsonBody<'a>(Vec<(Cow<'a, str>, Json<'a>)>);

/// A request body as the services read it: the common flat one held in
/// place (no allocation, see `json::flat`), any other as the general
/// reader's members. Both answer every field alike.
#[derive(Debug, Clone, PartialEq)]
pub enum Body<'f, 't> {
    /// The members, in the room the caller gave (see `Body::parse`).
    Flat(&'f Flat<'t>),
    Read(JsonBody<'t>),
}

/// The fields a parsed body is asked for, whichever form it is in.
pub trait Fields {
    /// A required string field.
    fn string(&self, field: &str) -> Result<&str, ApiError>;
    /// An optional string field; `null` counts as absent.
    fn optional_string(&self, field: &str) -> Result<Option<&str>, ApiError>;
    /// A required number field. JSON has no NaN or infinity, and numbers
    /// too large for a double are refused by the parser, so it is finite.
    fn number(&self, field: &str) -> Result<f64, ApiError>;
    /// How many members the body has, `null` ones too.
    fn member_count(&self) -> usize;
}

impl<'f, 't> Body<'f, 't> {
    /// Checks size, media type and syntax, in that order, and that the
    /// body is an object: everything short of the fields themselves. A
    /// flat body's members are read into `room`, which the caller holds.
    pub fn parse(
        body: Option<&'t Text>,
        headers: &Headers,
        room: &'f mut Flat<'t>,
    ) -> Result<Body<'f, 't>, ApiError> {
        check_body_size(body)?;
        let text = match body {
            Some(Text::NotUtf8 { .. }) => {
                return Err(ApiError::bad("body", "not valid UTF-8 text"));
            }
            Some(Text::Given(t)) if !t.trim().is_empty() => t,
            _ => {
                return Err(ApiError::bad(
                    "body",
                    "a JSON object is required, got no body",
                ))
            }
        };
        if let Some(content_type) = headers.get("content-type") {
            if !is_json_media_type(content_type) {
                return Err(ApiError::UnsupportedMediaType {
                    content_type: content_type.to_owned(),
                });
            }
        }
        // The common body takes one quick pass; any other text goes to
        // the general reader, which also words every syntax error.
        if room.read(text) {
            let flat: &'f Flat<'t> = room;
            return match repeated_by_pairs(flat.members()) {
                Some(key) => Err(repeated(key)),
                None => Ok(Body::Flat(flat)),
            };
        }
        let members = match json::parse(text) {
            Ok(Json::Obj(members)) => members,
            Ok(other) => {
                let problem = msg!("expected a JSON object, got ", kind(&other));
                return Err(ApiError::bad("body", problem));
            }
            Err(e) => return Err(ApiError::bad("body", msg!("not valid JSON: ", e))),
        };
        // Which of two equal keys a server reads is a classic source of
        // bugs, so a body that gives one twice is refused.
        match first_repeated(&members) {
            Some(key) => Err(repeated(key)),
            None => Ok(Body::Read(JsonBody(members))),
        }
    }

    /// Each member whose value is a string, number, boolean or null, in
    /// the body's order, whichever form the body is in: what a
    /// scenario's rules read, in one pass, with no refusal built for what
    /// is not.
    pub(crate) fn each_scalar<'s>(&'s self, mut f: impl FnMut(&str, Scalar<'s>)) {
        match self {
            Body::Flat(flat) => flat.members().iter().for_each(|&(k, v)| f(k, v)),
            Body::Read(body) => {
                for (k, v) in &body.0 {
                    if let Value::Scalar(scalar) = Value::of(v) {
                        f(k, scalar);
                    }
                }
            }
        }
    }

    /// A field's value, `null` counting as absent: a scalar borrowed
    /// from the body whichever form it is in, or the general reader's
    /// array or object.
    fn value(&self, field: &str) -> Option<Value<'_>> {
        match self {
            Body::Flat(flat) => flat
                .members()
                .iter()
                .find(|(k, _)| *k == field)
                .map(|&(_, v)| Value::Scalar(v)),
            Body::Read(body) => body.present(field).map(Value::of),
        }
        .filter(|v| !matches!(v, Value::Scalar(Scalar::Null)))
    }
}

/// A field's value as `Body::value` finds it.
enum Value<'b> {
    Scalar(Scalar<'b>),
    Other(&'b Json<'b>),
}

impl<'b> Value<'b> {
    /// The general reader's value, a scalar where it is one.
    fn of(v: &'b Json<'b>) -> Value<'b> {
        match v {
            Json::Str(s) => Value::Scalar(Scalar::Str(s)),
            Json::Num(text) => Value::Scalar(Scalar::Num(text)),
            Json::Bool(b) => Value::Scalar(Scalar::Bool(*b)),
            Json::Null => Value::Scalar(Scalar::Null),
            other => Value::Other(other),
        }
    }

    /// The 400 for a value of the wrong type.
    fn wrong_type(&self, field: &str, expected: &str) -> ApiError {
        match self {
            Value::Scalar(scalar) => wrong_type(field, expected, &scalar.json()),
            Value::Other(json) => wrong_type(field, expected, json),
        }
    }
}

impl Fields for Body<'_, '_> {
    fn string(&self, field: &str) -> Result<&str, ApiError> {
        self.optional_string(field)?.ok_or_else(|| missing(field))
    }

    fn optional_string(&self, field: &str) -> Result<Option<&str>, ApiError> {
        match self.value(field) {
            None => Ok(None),
            Some(Value::Scalar(Scalar::Str(s))) => Ok(Some(s)),
            Some(other) => Err(other.wrong_type(field, "a string")),
        }
    }

    fn number(&self, field: &str) -> Result<f64, ApiError> {
        match self.value(field) {
            None => Err(missing(field)),
            Some(Value::Scalar(Scalar::Num(text))) => crate::json::number::parse(text)
                .ok_or_else(|| ApiError::bad(field, "not a finite number")),
            Some(other) => Err(other.wrong_type(field, "a number")),
        }
    }

    fn member_count(&self) -> usize {
        match self {
            Body::Flat(flat) => flat.members().len(),
            Body::Read(body) => body.0.len(),
        }
    }
}

impl Fields for JsonBody<'_> {
    fn string(&self, field: &str) -> Result<&str, ApiError> {
        JsonBody::string(self, field)
    }

    fn optional_string(&self, field: &str) -> Result<Option<&str>, ApiError> {
        JsonBody::optional_string(self, field)
    }

    fn number(&self, field: &str) -> Result<f64, ApiError> {
        JsonBody::number(self, field)
    }

    fn member_count(&self) -> usize {
        self.0.len()
    }
}

/// The 400 for a key given twice. A key that is not a plain word (`""`,
/// `a b`, `x: y`) is quoted, so the msg still reads as field, then
/// problem.
fn repeated(key: &str) -> ApiError {
    let plain = !key.is_empty()
        && key
            .chars()
            .all(|c| char_class::alphanumeric(c) || matches!(c, '_' | '-' | '.' | '$'));
    let field = if plain { key.to_owned() } else { quote(key) };
    ApiError::bad(field, "given more than once in the body")
}

impl<'a> JsonBody<'a> {
    /// `Body::parse`, with a flat body's members as the general reader
    /// gives them.
    pub fn parse(body: Option<&'a Text>, headers: &Headers) -> Result<JsonBody<'a>, ApiError> {
        let mut room = Flat::new();
        Ok(match Body::parse(body, headers, &mut room)? {
            Body::Read(body) => body,
            Body::Flat(flat) => JsonBody(
                flat.members()
                    .iter()
                    .map(|&(key, value)| (Cow::Borrowed(key), value.json()))
                    .collect(),
            ),
        })
    }

    fn present(&self, field: &str) -> Option<&Json<'a>> {
        self.0
            .iter()
            .find(|(k, _)| k == field)
            .map(|(_, v)| v)
            .filter(|v| !v.is_null())
    }

    /// A required string field.
    pub fn string(&self, field: &str) -> Result<&str, ApiError> {
        self.optional_string(field)?.ok_or_else(|| missing(field))
    }

    /// An optional string field; `null` counts as absent.
    pub fn optional_string(&self, field: &str) -> Result<Option<&str>, ApiError> {
        match self.present(field) {
            None => Ok(None),
            Some(Json::Str(s)) => Ok(Some(s)),
            Some(other) => Err(wrong_type(field, "a string", other)),
        }
    }

    /// A required number field. JSON has no NaN or infinity, and numbers
    /// too large for a double are refused by the parser, so it is finite.
    pub fn number(&self, field: &str) -> Result<f64, ApiError> {
        match self.present(field) {
            None => Err(missing(field)),
            Some(n @ Json::Num(_)) => n
                .as_f64()
                .ok_or_else(|| ApiError::bad(field, "not a finite number")),
            Some(other) => Err(wrong_type(field, "a number", other)),
        }
    }
}

/// The first key given a second time, in the order of the body: by
/// pairs for the few keys of a real body, by sorting for a hostile one
/// (ties are broken by position, so any sort gives the same order). A
/// flat body, of at most `MAX_FLAT_MEMBERS`, is checked by pairs where it
/// is read.
fn first_repeated<'m>(members: &'m [(Cow<'_, str>, Json<'_>)]) -> Option<&'m str> {
    if members.len() <= 16 {
        return repeated_by_pairs(members).map(AsRef::as_ref);
    }
    let mut order: Vec<usize> = (0..members.len()).collect();
    let key = |i: usize| members.get(i).map(|(k, _)| k);
    heap_sort(&mut order, |a, b| (key(a), a) < (key(b), b));
    order
        .windows(2)
        .filter_map(|w| match *w {
            [a, b] if key(a) == key(b) => Some(b),
            _ => None,
        })
        .min()
        .and_then(key)
        .map(AsRef::as_ref)
}

/// The first key given a second time, each key compared with those
/// before it: for the few keys of a real body, flat or not.
fn repeated_by_pairs<K: PartialEq, V>(members: &[(K, V)]) -> Option<&K> {
    members
        .iter()
        .enumerate()
        .find(|(i, (key, _))| {
            members
                .get(..*i)
                .is_some_and(|before| before.iter().any(|(k, _)| k == key))
        })
        .map(|(_, (key, _))| key)
}

/// Sorts `v` by `less`, a strict total order: a heapsort, O(n log n)
/// whatever the input, in a few hundred bytes of the module where core's
/// sort takes kilobytes; only a hostile body with many keys comes here.
fn heap_sort(v: &mut [usize], less: impl Fn(usize, usize) -> bool) {
    // Read and written with `get`: a slip would sort wrongly, never trap.
    let at = |v: &[usize], i: usize| v.get(i).copied().unwrap_or(0);
    let swap = |v: &mut [usize], a: usize, b: usize| {
        let (x, y) = (at(v, a), at(v, b));
        if let Some(slot) = v.get_mut(a) {
            *slot = y;
        }
        if let Some(slot) = v.get_mut(b) {
            *slot = x;
        }
    };
    let sift = |v: &mut [usize], mut root: usize, end: usize| loop {
        let mut child = 2 * root + 1;
        if child >= end {
            break;
        }
        if child + 1 < end && less(at(v, child), at(v, child + 1)) {
            child += 1;
        }
        if !less(at(v, root), at(v, child)) {
            break;
        }
        swap(v, root, child);
        root = child;
    };
    let n = v.len();
    for root in (0..n / 2).rev() {
        sift(v, root, n);
    }
    for end in (1..n).rev() {
        swap(v, 0, end);
        sift(v, 0, end);
    }
}

/// Checks a free-text field's length in characters (not bytes, so that a
/// limit means the same for every script), and refuses control characters
/// where the field is an identifier.
pub fn bounded_text(
    field: &str,
    text: &str,
    max_chars: usize,
    identifier: bool,
) -> Result<String, ApiError> {
    // A text has no more characters than bytes: only a longer one is
    // counted.
    if text.len() > max_chars {
        let chars = text.chars().count();
        if chars > max_chars {
            return Err(ApiError::bad(
                field,
                msg!("must be at most ", max_chars, " characters, got ", chars),
            ));
        }
    }
    // Printable ASCII with no space is neither blank nor a control
    // character, as most identifiers are: the checks below only for others.
    let plain = !text.is_empty() && text.bytes().all(|b| b.is_ascii_graphic());
    if identifier && !plain {
        if text.trim().is_empty() {
            return Err(ApiError::bad(field, "must not be empty"));
        }
        if text.chars().any(char::is_control) {
            return Err(ApiError::bad(field, "must not contain control characters"));
        }
    }
    Ok(text.to_owned())
}

fn is_json_media_type(content_type: &str) -> bool {
    let media = content_type
        .split([';'])
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    media == "application/json" || (media.starts_with("application/") && media.ends_with("+json"))
}

fn missing(field: &str) -> ApiError {
    ApiError::bad(field, "required field is missing")
}

fn wrong_type(field: &str, expected: &str, got: &Json) -> ApiError {
    ApiError::bad(field, msg!("expected ", expected, ", got ", kind(got)))
}

/// A value's JSON type, with a short sample so the caller sees what was sent.
fn kind(value: &Json) -> String {
    match value {
        Json::Null => "null".to_owned(),
        Json::Bool(b) => msg!("boolean ", b),
        Json::Num(text) => msg!("number ", number_text(text)),
        Json::Str(s) => msg!("string ", Q(s)),
        Json::Arr(_) => "an array".to_owned(),
        Json::Obj(_) => "an object".to_owned(),
    }
}

/// A number as it is shown back: a whole number as written, others as
/// the double they read as (`1.50` shows as `1.5`).
fn number_text(text: &str) -> String {
    let whole = !text.contains(['.', 'e', 'E']);
    match (whole, number::parse_i64(text), number::parse_u64(text)) {
        (true, Some(n), _) => msg!(n),
        (true, _, Some(n)) => msg!(n),
        _ => crate::json::number::debug(crate::json::number::parse(text).unwrap_or(f64::NAN)),
    }
}

/// Quotes text for an error message, cut to 40 characters.
pub use crate::json::message::quote;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gateway::request::MAX_BODY_BYTES;

    #[test]
    fn heap_sort_orders_as_core_sorts() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for n in [0usize, 1, 2, 3, 17, 100, 1000] {
            for range in [1u64, 3, 1 << 20] {
                let keys: Vec<u64> = (0..n)
                    .map(|_| {
                        state ^= state << 13;
                        state ^= state >> 7;
                        state ^= state << 17;
                        state % range
                    })
                    .collect();
                let mut ours: Vec<usize> = (0..n).collect();
                heap_sort(&mut ours, |a, b| (keys[a], a) < (keys[b], b));
                let mut core: Vec<usize> = (0..n).collect();
                core.sort_by_key(|&i| (keys[i], i));
                assert_eq!(ours, core, "{n} keys below {range}");
            }
        }
    }

    #[test]
    fn the_first_repeated_key_of_many_is_found() {
        let body = |keys: &[&str]| {
            let members: Vec<String> = keys.iter().map(|k| format!("\"{k}\":1")).collect();
            format!("{{{}}}", members.join(","))
        };
        let mut keys: Vec<String> = (0..40).map(|i| format!("k{i}")).collect();
        keys.push("k30".into());
        keys.push("k5".into());
        let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
        let r = JsonBody::parse(Some(leak(&body(&keys))), &Headers::default());
        assert_eq!(msg(r), "k30: given more than once in the body");
    }

    /// Bodies borrow from their text; a test's text lives as long as it.
    fn leak(text: &str) -> &'static Text {
        Box::leak(Box::new(Text::from(text)))
    }

    fn body(text: &str) -> Result<JsonBody<'static>, ApiError> {
        JsonBody::parse(Some(leak(text)), &Headers::default())
    }

    fn msg<T: core::fmt::Debug>(r: Result<T, ApiError>) -> String {
        r.err().map(|e| e.msg()).unwrap_or_default()
    }

    #[test]
    fn bodies_are_checked_for_presence_size_media_type_syntax_and_shape() {
        assert_eq!(
            msg(body("")),
            "body: a JSON object is required, got no body"
        );
        assert_eq!(
            msg(body("[1]")),
            "body: expected a JSON object, got an array"
        );
        assert!(msg(body("{\"a\":")).starts_with("body: not valid JSON: EOF"));
        assert!(msg(body("{\"a\":1e400}")).contains("number out of range"));
        let big = format!("{{\"a\":\"{}\"}}", "x".repeat(MAX_BODY_BYTES));
        assert_eq!(body(&big).err().map(|e| e.http_status()), Some(413));
        let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
        assert!(msg(body(&deep)).contains("recursion limit exceeded"));
        let text_plain = Headers::parse(vec![("Content-Type".into(), "text/plain".into())]);
        let r = JsonBody::parse(Some(leak("{}")), &text_plain.unwrap_or_default());
        assert_eq!(r.err().map(|e| e.http_status()), Some(415));
        let json_utf8 = Headers::parse(vec![(
            "content-TYPE".into(),
            "Application/JSON; charset=utf-8".into(),
        )]);
        assert!(JsonBody::parse(Some(&"{}".into()), &json_utf8.unwrap_or_default()).is_ok());
    }

    #[test]
    fn fields_name_themselves_and_their_problem() {
        assert_eq!(
            msg(body(r#"{"a":1,"b":2,"a":1}"#)),
            "a: given more than once in the body"
        );
        // Letters and digits of any script name a key plainly; others quote it.
        assert_eq!(
            msg(body(r#"{"prénom٣":1,"prénom٣":2}"#)),
            "prénom٣: given more than once in the body"
        );
        assert_eq!(
            msg(body(r#"{"a€":1,"a€":2}"#)),
            "\"a€\": given more than once in the body"
        );
        let b = body(r#"{"s":"x","n":2.5,"z":null,"w":"12"}"#);
        let b = b.unwrap_or(JsonBody(Vec::new()));
        assert_eq!(b.string("s").ok(), Some("x"));
        assert_eq!(b.number("n").ok(), Some(2.5));
        assert_eq!(msg(b.string("z")), "z: required field is missing");
        assert_eq!(b.optional_string("z").ok(), Some(None));
        assert_eq!(
            msg(b.number("w")),
            "w: expected a number, got string \"12\""
        );
        assert_eq!(msg(b.string("n")), "n: expected a string, got number 2.5");
    }

    #[test]
    fn text_limits_count_characters_and_identifiers_refuse_blank_and_control() {
        assert!(bounded_text("d", &"é".repeat(10), 10, false).is_ok());
        assert_eq!(
            msg(bounded_text("d", &"é".repeat(11), 10, false)),
            "d: must be at most 10 characters, got 11"
        );
        assert_eq!(
            msg(bounded_text("u", "  ", 10, true)),
            "u: must not be empty"
        );
        assert_eq!(
            msg(bounded_text("u", "a\u{0}b", 10, true)),
            "u: must not contain control characters"
        );
    }
}
