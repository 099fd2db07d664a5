//! Reading JSON text into a tree that borrows from it: strings without
//! escapes and numbers stay slices of the input, so a request body costs
//! one small vector of members and no copies. Errors read like
//! `EOF while parsing an object at line 1 column 12`.

use crate::prelude::*;

use super::message::Msg;

use alloc::borrow::Cow;
use core::fmt;

/// Containers nested this deep are refused ("recursion limit exceeded"),
/// so no input can exhaust the stack.
pub const MAX_DEPTH: usize = 127;

/// A JSON value. Numbers keep their text, so a 64-bit integer (a random
/// state in a snapshot) reads back exactly.
#[derive(Debug, Clone, PartialEq)]
pub enum Json<'a> {
    Null,
    Bool(bool),
    Num(&'a str),
    Str(Cow<'a, str>),
    Arr(Vec<Json<'a>>),
    /// Members in the order written, duplicates included.
    Obj(Vec<(Cow<'a, str>, Json<'a>)>),
}

/// Why a text is not JSON, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadError {
    pub problem: &'static str,
    pub line: usize,
    pub column: usize,
}

impl ReadError {
    /// `problem at line L column C`, appended to a message.
    pub fn push(&self, m: &mut Msg) {
        m.s(self.problem)
            .s(" at line ")
            .uint(self.line as u64)
            .s(" column ")
            .uint(self.column as u64);
    }
}

impl super::message::Piece for ReadError {
    fn put(self, m: &mut Msg) {
        ReadError::push(&self, m);
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} at line {} column {}",
            self.problem, self.line, self.column
        )
    }
}

/// Parses a whole text: one value, with only whitespace around it.
pub fn parse(text: &str) -> Result<Json<'_>, ReadError> {
    let mut reader = Reader {
        text,
        bytes: text.as_bytes(),
        at: 0,
    };
    let value = reader.value(0)?;
    reader.skip_space();
    if reader.at < reader.bytes.len() {
        return Err(reader.fail("trailing characters"));
    }
    Ok(value)
}

impl<'a> Json<'a> {
    /// A member of an object (the first of its name); `None` for other
    /// values and missing names.
    pub fn get(&self, name: &str) -> Option<&Json<'a>> {
        match self {
            Json::Obj(members) => members.iter().find(|(k, _)| k == name).map(|(_, v)| v),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::Str(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Json::Num(text) => super::number::parse(text),
            _ => None,
        }
    }

    /// A whole number that fits: `3`, not `3.0` or `-3`.
    pub fn as_u64(&self) -> Option<u64> {
        match self {
            Json::Num(text) => super::number::parse_u64(text),
            _ => None,
        }
    }

    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Json::Num(text) => super::number::parse_i64(text),
            _ => None,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Json::Bool(b) => Some(*b),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<&[Json<'a>]> {
        match self {
            Json::Arr(items) => Some(items),
            _ => None,
        }
    }

    pub fn as_object(&self) -> Option<&[(Cow<'a, str>, Json<'a>)]> {
        match self {
            Json::Obj(members) => Some(members),
            _ => None,
        }
    }

    pub fn is_null(&self) -> bool {
        matches!(self, Json::Null)
    }
}

/// A reader over a whole text, driven value by value: `parse` reads one
/// value and checks nothing follows; a snapshot arriving in pieces is read
/// member by member with the same steps, so its errors read the same.
pub(crate) struct Reader<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pub(crate) at: usize,
}

impl<'a> Reader<'a> {
    pub(crate) fn at_offset(text: &'a str, at: usize) -> Reader<'a> {
        Reader {
            text,
            bytes: text.as_bytes(),
            at,
        }
    }

    /// The whole text being read.
    pub(crate) fn text(&self) -> &'a str {
        self.text
    }

    pub(crate) fn fail(&self, problem: &'static str) -> ReadError {
        let upto = self.bytes.get(..self.at).unwrap_or(self.bytes);
        let line = 1 + upto.iter().filter(|&&b| b == b'\n').count();
        let column = upto.iter().rev().take_while(|&&b| b != b'\n').count();
        ReadError {
            problem,
            line,
            column,
        }
    }

    pub(crate) fn skip_space(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.bytes.get(self.at) {
            self.at += 1;
        }
    }

    pub(crate) fn peek(&mut self) -> Option<u8> {
        self.skip_space();
        self.bytes.get(self.at).copied()
    }

    pub(crate) fn value(&mut self, depth: usize) -> Result<Json<'a>, ReadError> {
        match self.peek() {
            None => Err(self.fail("EOF while parsing a value")),
            Some(b'{') => self.object(depth + 1),
            Some(b'[') => self.array(depth + 1),
            Some(b'"') => self.string().map(Json::Str),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(_) => self.word(),
        }
    }

    fn word(&mut self) -> Result<Json<'a>, ReadError> {
        let rest = self.bytes.get(self.at..).unwrap_or_default();
        for (word, value) in [
            (&b"null"[..], Json::Null),
            (b"true", Json::Bool(true)),
            (b"false", Json::Bool(false)),
        ] {
            if rest.starts_with(word) {
                self.at += word.len();
                return Ok(value);
            }
            if word.starts_with(rest) && !rest.is_empty() {
                self.at = self.bytes.len();
                return Err(self.fail("EOF while parsing a value"));
            }
        }
        self.at += 1;
        Err(self.fail("expected value"))
    }

    pub(crate) fn enter(&mut self, depth: usize) -> Result<(), ReadError> {
        self.at += 1;
        if depth > MAX_DEPTH {
            return Err(self.fail("recursion limit exceeded"));
        }
        Ok(())
    }

    fn array(&mut self, depth: usize) -> Result<Json<'a>, ReadError> {
        self.enter(depth)?;
        let mut items = Vec::new();
        if self.peek() == Some(b']') {
            self.at += 1;
            return Ok(Json::Arr(items));
        }
        loop {
            items.push(self.value(depth)?);
            match self.peek() {
                Some(b',') => {
                    self.at += 1;
                    if self.peek() == Some(b']') {
                        return Err(self.fail("trailing comma"));
                    }
                }
                Some(b']') => {
                    self.at += 1;
                    return Ok(Json::Arr(items));
                }
                None => return Err(self.fail("EOF while parsing a list")),
                Some(_) => return Err(self.fail("expected `,` or `]`")),
            }
        }
    }

    fn object(&mut self, depth: usize) -> Result<Json<'a>, ReadError> {
        self.enter(depth)?;
        let mut members = Vec::new();
        if self.peek() == Some(b'}') {
            self.at += 1;
            return Ok(Json::Obj(members));
        }
        loop {
            let key = match self.peek() {
                Some(b'"') => self.string()?,
                None => return Err(self.fail("EOF while parsing an object")),
                Some(_) => return Err(self.fail("key must be a string")),
            };
            match self.peek() {
                Some(b':') => self.at += 1,
                None => return Err(self.fail("EOF while parsing an object")),
                Some(_) => return Err(self.fail("expected `:`")),
            }
            let value = self.value(depth)?;
            members.push((key, value));
            match self.peek() {
                Some(b',') => {
                    self.at += 1;
                    if self.peek() == Some(b'}') {
                        return Err(self.fail("trailing comma"));
                    }
                }
                Some(b'}') => {
                    self.at += 1;
                    return Ok(Json::Obj(members));
                }
                None => return Err(self.fail("EOF while parsing an object")),
                Some(_) => return Err(self.fail("expected `,` or `}`")),
            }
        }
    }

    /// A number as JSON writes it; its text is kept, and one too large
    /// for a double is refused.
    fn number(&mut self) -> Result<Json<'a>, ReadError> {
        let start = self.at;
        let digits = |r: &mut Reader<'a>| {
            let from = r.at;
            while let Some(b'0'..=b'9') = r.bytes.get(r.at) {
                r.at += 1;
            }
            r.at - from
        };
        if self.bytes.get(self.at) == Some(&b'-') {
            self.at += 1;
        }
        let leading_zero = self.bytes.get(self.at) == Some(&b'0');
        match digits(self) {
            0 => return Err(self.number_fail("invalid number")),
            n if leading_zero && n > 1 => return Err(self.fail("invalid number")),
            _ => {}
        }
        if self.bytes.get(self.at) == Some(&b'.') {
            self.at += 1;
            if digits(self) == 0 {
                return Err(self.number_fail("invalid number"));
            }
        }
        if let Some(b'e' | b'E') = self.bytes.get(self.at) {
            self.at += 1;
            if let Some(b'+' | b'-') = self.bytes.get(self.at) {
                self.at += 1;
            }
            if digits(self) == 0 {
                return Err(self.number_fail("invalid number"));
            }
        }
        let text = self.text.get(start..self.at).unwrap_or_default();
        match super::number::parse(text) {
            Some(n) if n.is_finite() => Ok(Json::Num(text)),
            _ => Err(self.fail("number out of range")),
        }
    }

    fn number_fail(&mut self, problem: &'static str) -> ReadError {
        if self.at >= self.bytes.len() {
            return self.fail("EOF while parsing a value");
        }
        self.at += 1;
        self.fail(problem)
    }

    /// A string: borrowed when it has no escapes, decoded when it has.
    pub(crate) fn string(&mut self) -> Result<Cow<'a, str>, ReadError> {
        self.at += 1;
        let start = self.at;
        // The plain run up to the first quote, escape or control
        // character, in one tight scan.
        let rest = self.bytes.get(self.at..).unwrap_or_default();
        self.at += string_stop(rest).unwrap_or(rest.len());
        loop {
            match self.bytes.get(self.at) {
                None => return Err(self.fail("EOF while parsing a string")),
                Some(b'"') => {
                    let text = self.text.get(start..self.at).unwrap_or_default();
                    self.at += 1;
                    return Ok(Cow::Borrowed(text));
                }
                Some(b'\\') => break,
                Some(0..=0x1f) => {
                    self.at += 1;
                    return Err(self
                        .fail("control character (\\u0000-\\u001F) found while parsing a string"));
                }
                Some(_) => self.at += 1,
            }
        }
        let mut owned = String::from(self.text.get(start..self.at).unwrap_or_default());
        loop {
            let from = self.at;
            while let Some(&b) = self.bytes.get(self.at) {
                if b == b'"' || b == b'\\' || b < 0x20 {
                    break;
                }
                self.at += 1;
            }
            owned.push_str(self.text.get(from..self.at).unwrap_or_default());
            match self.bytes.get(self.at) {
                None => return Err(self.fail("EOF while parsing a string")),
                Some(b'"') => {
                    self.at += 1;
                    return Ok(Cow::Owned(owned));
                }
                Some(b'\\') => {
                    self.at += 1;
                    self.escape(&mut owned)?;
                }
                Some(_) => {
                    self.at += 1;
                    return Err(self
                        .fail("control character (\\u0000-\\u001F) found while parsing a string"));
                }
            }
        }
    }

    fn escape(&mut self, out: &mut String) -> Result<(), ReadError> {
        let Some(&b) = self.bytes.get(self.at) else {
            return Err(self.fail("EOF while parsing a string"));
        };
        self.at += 1;
        let c = match b {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => self.unicode()?,
            _ => return Err(self.fail("invalid escape")),
        };
        out.push(c);
        Ok(())
    }

    fn hex4(&mut self) -> Result<u32, ReadError> {
        let mut n = 0;
        for _ in 0..4 {
            let Some(&b) = self.bytes.get(self.at) else {
                return Err(self.fail("EOF while parsing a string"));
            };
            self.at += 1;
            let digit = char::from(b)
                .to_digit(16)
                .ok_or_else(|| self.fail("invalid escape"))?;
            n = n * 16 + digit;
        }
        Ok(n)
    }

    fn unicode(&mut self) -> Result<char, ReadError> {
        let first = self.hex4()?;
        let code = match first {
            0xD800..=0xDBFF => {
                if self.bytes.get(self.at..self.at + 2) != Some(b"\\u") {
                    return Err(self.fail("lone leading surrogate in hex escape"));
                }
                self.at += 2;
                let second = self.hex4()?;
                if !(0xDC00..=0xDFFF).contains(&second) {
                    return Err(self.fail("lone leading surrogate in hex escape"));
                }
                0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
            }
            0xDC00..=0xDFFF => return Err(self.fail("lone trailing surrogate in hex escape")),
            other => other,
        };
        char::from_u32(code).ok_or_else(|| self.fail("invalid unicode code point"))
    }
}

/// Where a string's plain run stops: the first `"`, `\\` or control
/// character. Eight bytes at a time: a byte that matches sets its high
/// bit in `found`, and the lowest one set is exact (a false mark can
/// only follow a true one, by a borrow).
pub(crate) fn string_stop(rest: &[u8]) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let zero_in = |v: u64| v.wrapping_sub(ONES) & !v;
    let mut at = 0;
    // Bytes taken one by one: a `copy_from_slice` here stays a call in
    // the size-optimised module, once every eight bytes.
    while let Some(&[a, b, c, d, e, f, g, h]) = rest.get(at..at + 8) {
        let x = u64::from_le_bytes([a, b, c, d, e, f, g, h]);
        let found = (zero_in(x ^ (ONES * u64::from(b'"')))
            | zero_in(x ^ (ONES * u64::from(b'\\')))
            | (x.wrapping_sub(ONES * 0x20) & !x))
            & HIGH;
        if found != 0 {
            return Some(at + found.trailing_zeros() as usize / 8);
        }
        at += 8;
    }
    let tail = rest.get(at..)?;
    tail.iter()
        .position(|&b| b == b'"' || b == b'\\' || b < 0x20)
        .map(|i| at + i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_decimals_read_exactly_as_the_full_parser_reads_them_through_the_number_reader() {
        let mut rng = crate::sim::random::Rng::new(11);
        let mut texts: Vec<String> = (0..50_000)
            .map(|_| {
                let digits = 1 + rng.below(15) as usize;
                let whole = 1 + rng.below(digits as u64) as usize;
                let mut t: String = (0..digits)
                    .map(|_| char::from(b'0' + rng.below(10) as u8))
                    .collect();
                if whole < digits {
                    t.insert(whole, '.');
                }
                if rng.below(4) == 0 {
                    t.insert(0, '-');
                }
                t
            })
            .collect();
        for t in [
            "0",
            "-0",
            "-0.0",
            "0.1",
            "0.3",
            "13.5",
            "999999999999999",
            "0.00000000000001",
        ] {
            texts.push(t.to_owned());
        }
        for t in &texts {
            let full: f64 = t.parse().unwrap_or(f64::NAN);
            let read = super::super::number::parse(t);
            assert_eq!(read.map(f64::to_bits), Some(full.to_bits()), "{t}");
        }
    }

    fn problem(text: &str) -> String {
        parse(text).err().map(|e| e.to_string()).unwrap_or_default()
    }

    #[test]
    fn values_of_every_kind_read_and_borrow_when_they_can() {
        let v = parse(r#" {"a":[1,-2.5e3,true,false,null],"b":"x\"y\u00e9\ud83d\ude00","c":{}} "#);
        let v = v.unwrap_or(Json::Null);
        let a = v.get("a").and_then(Json::as_array).unwrap_or_default();
        assert_eq!(a.len(), 5);
        assert_eq!(a[1].as_f64(), Some(-2500.0));
        assert_eq!(a[0].as_u64(), Some(1));
        assert_eq!(v.get("b").and_then(Json::as_str), Some("x\"yé😀"));
        assert!(matches!(v.get("a"), Some(Json::Arr(_))));
        let plain = parse(r#""plain""#).unwrap_or(Json::Null);
        assert!(matches!(plain, Json::Str(Cow::Borrowed("plain"))));
        assert_eq!(
            parse("18446744073709551615").ok().and_then(|v| v.as_u64()),
            Some(u64::MAX)
        );
    }

    #[test]
    fn broken_texts_say_what_and_where() {
        assert_eq!(
            problem(r#"{"a":"#),
            "EOF while parsing a value at line 1 column 5"
        );
        assert_eq!(problem("{\n\"a\" 1}"), "expected `:` at line 2 column 4");
        assert!(problem("[1,]").starts_with("trailing comma"));
        assert!(problem("{}{}").starts_with("trailing characters"));
        assert!(problem("NaN").starts_with("expected value"));
        assert!(problem("1e400").starts_with("number out of range"));
        assert!(problem("01").starts_with("invalid number"));
        assert!(problem(r#""\ud800""#).starts_with("lone leading surrogate"));
        assert!(problem("\"a\u{1}\"").starts_with("control character"));
        assert!(problem("{'a':1}").starts_with("key must be a string"));
        assert!(problem("tru").starts_with("EOF while parsing a value"));
    }

    #[test]
    fn nesting_is_bounded() {
        let ok = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert!(parse(&ok).is_ok());
        let deep = format!("{}{}", "[".repeat(MAX_DEPTH + 1), "]".repeat(MAX_DEPTH + 1));
        assert!(problem(&deep).starts_with("recursion limit exceeded"));
        assert!(problem(&"[".repeat(100_000)).starts_with("recursion limit exceeded"));
    }
}
