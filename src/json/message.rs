//! Refusal messages built by appending pieces to one `String`: text,
//! whole numbers, doubles and quoted samples of the input. Every `format!`
//! builds its own `fmt::Arguments` at its call site and runs core's
//! formatting machinery; a message is built only on a cold path, so one
//! shared builder whose steps are never inlined keeps each call site to a
//! few calls, and keeps `core::fmt` out of the WebAssembly module.
//!
//! The text is the one `format!` gave, byte for byte: numbers as `{}`
//! writes them, quoted samples as `{:?}` quotes a `str` (see [`quote`]).

use crate::prelude::*;

use super::char_class;
use super::number::push_display;
use super::write::{push_int, push_uint};

/// A message under construction. `Msg::new("a").s("b").uint(3).text()`.
#[derive(Default)]
pub struct Msg {
    text: String,
}

impl Msg {
    /// A message that starts with `first`.
    #[inline(never)]
    pub fn new(first: &str) -> Msg {
        let mut text = String::with_capacity(first.len() + 48);
        text.push_str(first);
        Msg { text }
    }

    /// Appends `piece` as it is.
    #[inline(never)]
    pub fn s(&mut self, piece: &str) -> &mut Msg {
        self.text.push_str(piece);
        self
    }

    /// Appends a whole number 0 or more, as `{}` writes it.
    #[inline(never)]
    pub fn uint(&mut self, n: u64) -> &mut Msg {
        push_uint(&mut self.text, n);
        self
    }

    /// Appends a whole number, as `{}` writes it.
    #[inline(never)]
    pub fn int(&mut self, n: i64) -> &mut Msg {
        push_int(&mut self.text, n);
        self
    }

    /// Appends a double, as `{}` writes it.
    #[inline(never)]
    pub fn num(&mut self, x: f64) -> &mut Msg {
        push_display(&mut self.text, x);
        self
    }

    /// Appends a sample of the input, quoted (see [`quote`]).
    #[inline(never)]
    pub fn q(&mut self, text: &str) -> &mut Msg {
        push_quoted(&mut self.text, text);
        self
    }

    /// The message, leaving this builder empty. Never inlined, as the
    /// steps above: one call at each of the many messages.
    #[inline(never)]
    pub fn text(&mut self) -> String {
        core::mem::take(&mut self.text)
    }

    /// The message so far, for a caller that appends its own pieces.
    pub fn buffer(&mut self) -> &mut String {
        &mut self.text
    }
}

/// Where a value sits in a text read from outside (`snapshot.settings`,
/// `at.name`, `at[i]`), written out only for a refusal: a reader passes
/// places down as borrowed steps, so reading a valid text builds no path.
pub trait Place {
    fn write_place(&self, m: &mut Msg);
}

impl Place for &str {
    fn write_place(&self, m: &mut Msg) {
        m.s(self);
    }
}

impl Place for String {
    fn write_place(&self, m: &mut Msg) {
        m.s(self);
    }
}

/// A member of an object as its place (`at.name`).
pub struct Path<'a>(pub &'a dyn Place, pub &'a str);

impl Place for Path<'_> {
    fn write_place(&self, m: &mut Msg) {
        self.0.write_place(m);
        m.s(".").s(self.1);
    }
}

/// An element of a list as its place (`at[i]`).
pub struct At<'a>(pub &'a dyn Place, pub usize);

impl Place for At<'_> {
    fn write_place(&self, m: &mut Msg) {
        self.0.write_place(m);
        m.s("[").uint(self.1 as u64).s("]");
    }
}

/// A place written out.
#[inline(never)]
pub fn place(at: &dyn Place) -> String {
    let mut m = Msg::default();
    at.write_place(&mut m);
    m.text()
}

/// One piece of a message, appended as `{}` would write it (a quoted
/// sample with [`Q`], the whole text quoted as `{:?}` with [`Whole`]).
pub trait Piece {
    fn put(self, m: &mut Msg);
}

impl Piece for &str {
    fn put(self, m: &mut Msg) {
        m.s(self);
    }
}

impl Piece for &String {
    fn put(self, m: &mut Msg) {
        m.s(self);
    }
}

impl Piece for u64 {
    fn put(self, m: &mut Msg) {
        m.uint(self);
    }
}

impl Piece for u32 {
    fn put(self, m: &mut Msg) {
        m.uint(u64::from(self));
    }
}

impl Piece for u16 {
    fn put(self, m: &mut Msg) {
        m.uint(u64::from(self));
    }
}

impl Piece for usize {
    fn put(self, m: &mut Msg) {
        m.uint(self as u64);
    }
}

impl Piece for i64 {
    fn put(self, m: &mut Msg) {
        m.int(self);
    }
}

impl Piece for i32 {
    fn put(self, m: &mut Msg) {
        m.int(i64::from(self));
    }
}

impl Piece for f64 {
    fn put(self, m: &mut Msg) {
        m.num(self);
    }
}

impl Piece for String {
    fn put(self, m: &mut Msg) {
        m.s(&self);
    }
}

impl Piece for &&str {
    fn put(self, m: &mut Msg) {
        m.s(self);
    }
}

impl Piece for &alloc::borrow::Cow<'_, str> {
    fn put(self, m: &mut Msg) {
        m.s(self);
    }
}

impl Piece for bool {
    fn put(self, m: &mut Msg) {
        m.s(if self { "true" } else { "false" });
    }
}

/// References to numbers, as the numbers.
macro_rules! by_value {
    ($($t:ty),+) => {$(
        impl Piece for &$t {
            fn put(self, m: &mut Msg) {
                (*self).put(m);
            }
        }
    )+};
}
by_value!(u64, u32, u16, usize, i64, i32, f64, bool);

/// A sample of the input, quoted and cut (see [`quote`]).
pub struct Q<'a>(pub &'a str);

impl Piece for Q<'_> {
    fn put(self, m: &mut Msg) {
        m.q(self.0);
    }
}

/// The whole text quoted, as `{:?}` writes a `str`.
pub struct Whole<'a>(pub &'a str);

impl Piece for Whole<'_> {
    fn put(self, m: &mut Msg) {
        push_debug(&mut m.text, self.0);
    }
}

/// A message of pieces, as `format!` would have written them:
/// `msg!("got ", n, ", not ", Q(text))`.
macro_rules! msg {
    ($first:literal $(, $piece:expr)* $(,)?) => {{
        let mut m = $crate::json::message::Msg::new($first);
        $( $crate::json::message::Piece::put($piece, &mut m); )*
        m.text()
    }};
    ($($piece:expr),+ $(,)?) => {{
        let mut m = $crate::json::message::Msg::new("");
        $( $crate::json::message::Piece::put($piece, &mut m); )+
        m.text()
    }};
}
pub(crate) use msg;

/// How many characters of the input a message quotes; longer input is cut
/// there and ends with `…`.
const QUOTED_CHARS: usize = 40;

/// A sample of the input for a message: its first 40 characters, `…` after
/// them when cut, quoted and escaped as Rust's `{:?}` quotes a `str`, so
/// that no control character or stray quote reaches a log line.
pub fn quote(text: &str) -> String {
    let mut out = String::with_capacity(text.len().min(4 * QUOTED_CHARS) + 8);
    push_quoted(&mut out, text);
    out
}

/// `quote` appended to `out`.
pub fn push_quoted(out: &mut String, text: &str) {
    push_cut(out, text, QUOTED_CHARS);
}

/// `text` quoted whole, as `{:?}` writes a `str`.
pub fn push_debug(out: &mut String, text: &str) {
    push_cut(out, text, usize::MAX);
}

/// The first `chars` characters of `text`, `…` after them when cut,
/// quoted. `{:?}` escapes each character as `char::escape_debug` does,
/// except the single quote, which it leaves.
#[inline(never)]
fn push_cut(out: &mut String, text: &str, chars: usize) {
    out.push('"');
    for (n, c) in text.chars().enumerate() {
        if n == chars {
            push_escaped(out, '…');
            break;
        }
        push_escaped(out, c);
    }
    out.push('"');
}

/// `c` as `{:?}` writes it inside a quoted `str`: `char::escape_debug`,
/// except that the single quote is left as it is. Written out here so that
/// core's Unicode tables stay out of the module (see [`char_class`]).
fn push_escaped(out: &mut String, c: char) {
    let named = match c {
        '\0' => "\\0",
        '\t' => "\\t",
        '\r' => "\\r",
        '\n' => "\\n",
        '\\' => "\\\\",
        '"' => "\\\"",
        _ if char_class::escaped_as_code(c) => {
            out.push_str("\\u{");
            push_hex(out, c as u32);
            out.push('}');
            return;
        }
        _ => {
            out.push(c);
            return;
        }
    };
    out.push_str(named);
}

/// `code` in lower-case hexadecimal, without leading zeros.
fn push_hex(out: &mut String, code: u32) {
    let digits = (32 - (code | 1).leading_zeros()).div_ceil(4);
    for shift in (0..digits).rev().map(|d| d * 4) {
        let digit = (code >> shift) & 0xf;
        out.push(char::from_digit(digit, 16).unwrap_or('0'));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The quoting as it was: the cut text through `{:?}`.
    fn quote_by_debug(text: &str) -> String {
        let mut cut: String = text.chars().take(QUOTED_CHARS).collect();
        if cut.len() < text.len() {
            cut.push('…');
        }
        format!("{cut:?}")
    }

    #[test]
    fn quotes_as_debug_does() {
        let mut samples: Vec<String> = [
            "",
            "plain",
            "it's",
            "say \"hi\"",
            "back\\slash",
            "tab\tnew\nline\rnul\0bell\u{7}del\u{7f}",
            "é, 日本, 🦀, \u{301} combining after a",
            "\u{301}combining first",
            "\u{200b}zero width, \u{feff}bom, \u{e000}private, \u{10ffff}",
            "\u{85}next line, \u{a0}nbsp, \u{ad}soft hyphen",
            "exactly forty characters of text, x.....",
            "forty-one characters of text here, x.....y",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        samples.push("é".repeat(41));
        samples.push("x".repeat(39) + "\u{301}\u{301}");
        // Every character of the first planes, in runs of 30.
        let all: Vec<char> = (0u32..0x3_0000).filter_map(char::from_u32).collect();
        for run in all.chunks(30) {
            samples.push(run.iter().collect());
        }
        for s in &samples {
            assert_eq!(quote(s), quote_by_debug(s), "{s:?}");
            let mut whole = String::new();
            push_debug(&mut whole, s);
            assert_eq!(whole, format!("{s:?}"));
        }
    }

    #[test]
    fn numbers_are_written_as_display_writes_them() {
        let mut m = Msg::new("n ");
        m.uint(u64::MAX).s(" ").int(i64::MIN).s(" ").int(-7).s(" ");
        m.num(0.1)
            .s(" ")
            .num(-2.5e-10)
            .s(" ")
            .num(1e300)
            .s(" ")
            .num(3.0);
        assert_eq!(
            m.text(),
            format!(
                "n {} {} {} {} {} {} {}",
                u64::MAX,
                i64::MIN,
                -7,
                0.1,
                -2.5e-10,
                1e300,
                3.0
            )
        );
    }
}
