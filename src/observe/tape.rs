//! Records and spans in a compact form for the JS layer to build its
//! objects from: a list of numbers (a shape code and each field in a fixed
//! order) and a JSON array of the strings the numbers point into. Made
//! for `logs()`, `spans()` and `exportOtlp()`, whose answers are many
//! small objects of a few shapes: V8 builds such objects from literals
//! several times faster than `JSON.parse` reads them from text, and a
//! string shared by many records (a trace id, a route, `success`) is
//! decoded once.
//!
//! A string is found again where that is cheap: a word by its address
//! (the journal's words stay put while a tape is written), then by its
//! text; an id by its value and a span's name by its two words' addresses,
//! each in a table of recent ones that forgets on collision. An id met
//! again after it was forgotten is written again: the strings may hold
//! repeats, never a wrong one. Text made for one field (a third-party
//! reason) is written each time.

use crate::prelude::*;

use super::ids::{SpanId, TraceId};
use crate::domain::hashing::ByCode;
use crate::json::write::{escape_into, push_hex64};
use crate::sim::random::fnv1a;

/// What a string index of `NONE` stands for: `null`.
pub const NONE: f64 = -1.0;

/// A finished tape: the numbers, and the strings as a JSON array.
pub struct Written {
    pub numbers: Vec<f64>,
    pub strings: String,
}

/// What a string is, for the table of recent ones: its kind first (a
/// word's place, a name's two places, a trace id, a span id, a time).
type Key = [u64; 5];
const WORD: u64 = 1;
const NAME: u64 = 2;
const TRACE: u64 = 3;
const SPAN: u64 = 4;
const NANOS: u64 = 5;

/// The string index last written for a key, in a slot picked by the
/// key's hash: a direct-mapped table that forgets on collision.
struct Recent {
    slots: Vec<(Key, u32)>,
}

/// Slots of the table of recent strings, as a power of two: a few
/// thousand requests' worth of ids, words and times.
const RECENT_BITS: u32 = 13;

impl Recent {
    fn new() -> Recent {
        Recent {
            slots: vec![([0; 5], u32::MAX); 1 << RECENT_BITS],
        }
    }

    /// The key's string index, or the slot to remember it in.
    fn seen(&self, key: &Key) -> Result<u32, usize> {
        let folded = key
            .iter()
            .fold(0u64, |h, &k| (h ^ k).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let slot = (folded >> (64 - RECENT_BITS)) as usize;
        match self.slots.get(slot) {
            Some((kept, index)) if *index != u32::MAX && kept == key => Ok(*index),
            _ => Err(slot),
        }
    }

    fn remember(&mut self, slot: usize, key: Key, index: u32) {
        if let Some(s) = self.slots.get_mut(slot) {
            *s = (key, index);
        }
    }
}

/// A word's place: its address and length.
fn place(text: &str) -> [u64; 2] {
    [text.as_ptr() as u64, text.len() as u64]
}

/// A compact form being written, over words borrowed for `'a` (the
/// journal's, or the program's): see the module's documentation.
pub struct Tape<'a> {
    /// Shape codes, numbers and string indices, in the order the JS
    /// layer reads them.
    pub numbers: Vec<f64>,
    /// `["…","…",…`: the strings the indices point into.
    strings: String,
    count: u32,
    /// Whether the tape is for OTLP: trace ids with 32 digits always, not
    /// as they were given, and times as OTLP's nanosecond strings.
    otlp: bool,
    recent: Recent,
    /// Words by their text's hash: the position in `texts` of the first
    /// word written with that hash (another text of the same hash is
    /// written as it comes).
    by_hash: HashMap<u64, u64, ByCode>,
    texts: Vec<(&'a str, u32)>,
}

impl<'a> Tape<'a> {
    /// A tape for about `numbers` numbers; `otlp` writes every trace id
    /// with 32 digits and every time as OTLP's nanoseconds.
    pub fn new(numbers: usize, otlp: bool) -> Tape<'a> {
        let mut strings = String::with_capacity(numbers * 2 + 2);
        strings.push('[');
        Tape {
            numbers: Vec::with_capacity(numbers),
            strings,
            count: 0,
            otlp,
            recent: Recent::new(),
            by_hash: HashMap::default(),
            texts: Vec::new(),
        }
    }

    pub fn num(&mut self, value: f64) {
        self.numbers.push(value);
    }

    /// A whole number (a count, a status, a time): exact in an `f64`
    /// below 2^53, as `JSON.parse` of its text would give it.
    pub fn int(&mut self, value: i64) {
        self.numbers.push(value as f64);
    }

    pub fn flag(&mut self, value: bool) {
        self.numbers.push(if value { 1.0 } else { 0.0 });
    }

    /// A number that may be `null` (NaN on the tape); JSON text has no
    /// NaN or infinity, so those are `null` too, as the text writes them.
    pub fn opt_num(&mut self, value: Option<f64>) {
        self.numbers
            .push(value.filter(|v| v.is_finite()).unwrap_or(f64::NAN));
    }

    /// A word that stays in place while the tape is written (in the
    /// journal, or in the program).
    pub fn word(&mut self, text: &'a str) {
        let [at, len] = place(text);
        let key = [WORD, at, len, 0, 0];
        let index = match self.recent.seen(&key) {
            Ok(index) => index,
            Err(slot) => {
                let index = self.by_text(text);
                self.recent.remember(slot, key, index);
                index
            }
        };
        self.numbers.push(f64::from(index));
    }

    /// The index of a word's text, written now if it is new.
    fn by_text(&mut self, text: &'a str) -> u32 {
        let hash = fnv1a(text.as_bytes());
        let first = self.by_hash.get(&hash).copied();
        if let Some((kept, index)) = first.and_then(|at| self.texts.get(at as usize)) {
            if *kept == text {
                return *index;
            }
        }
        let index = self.next_string();
        escape_into(&mut self.strings, text);
        if first.is_none() {
            self.by_hash.insert(hash, self.texts.len() as u64);
            self.texts.push((text, index));
        }
        index
    }

    /// `word`, or `null`.
    pub fn opt_word(&mut self, text: Option<&'a str>) {
        match text {
            Some(text) => self.word(text),
            None => self.numbers.push(NONE),
        }
    }

    /// `first` and `second` joined by a space, two words that stay in
    /// place (a span's name: a method and a route).
    pub fn pair(&mut self, first: &'a str, second: &'a str) {
        let ([a, a_len], [b, b_len]) = (place(first), place(second));
        self.recalled([NAME, a, a_len, b, b_len], |out| {
            let mut joined = String::with_capacity(first.len() + second.len() + 1);
            joined.push_str(first);
            joined.push(' ');
            joined.push_str(second);
            escape_into(out, &joined);
        });
    }

    /// A string made for this field alone (it is not found again).
    pub fn fresh(&mut self, text: &str) {
        let index = self.next_string();
        escape_into(&mut self.strings, text);
        self.numbers.push(f64::from(index));
    }

    /// A trace id as hex: as given, or with 32 digits on an OTLP tape.
    pub fn trace(&mut self, id: &TraceId) {
        let wide = self.otlp;
        let [high, low, given_wide] = id.parts();
        self.recalled([TRACE, high, low, given_wide, 0], |out| {
            out.push('"');
            if wide {
                id.push_hex_128(out);
            } else {
                id.push_hex(out);
            }
            out.push('"');
        });
    }

    /// A span id as 16 hex digits.
    pub fn span(&mut self, id: SpanId) {
        self.recalled([SPAN, id.0, 0, 0, 0], |out| {
            out.push('"');
            push_hex64(out, id.0);
            out.push('"');
        });
    }

    /// `span`, or `null`.
    pub fn opt_span(&mut self, id: Option<SpanId>) {
        match id {
            Some(id) => self.span(id),
            None => self.numbers.push(NONE),
        }
    }

    /// A time in Unix ms: a number, or on an OTLP tape its nanoseconds as
    /// a string (`unix_nanos::nanos`), exact however large.
    pub fn time(&mut self, ms: i64) {
        if self.otlp {
            self.nanos(ms);
        } else {
            self.int(ms);
        }
    }

    /// Unix ms as OTLP's nanoseconds, a decimal string (`unix_nanos::nanos`).
    fn nanos(&mut self, ms: i64) {
        self.recalled([NANOS, ms as u64, 0, 0, 0], |out| {
            super::unix_nanos::nanos(out, ms);
        });
    }

    /// The index of the string `key` stands for, written by `write` (as
    /// JSON text) unless it was met recently.
    fn recalled(&mut self, key: Key, write: impl FnOnce(&mut String)) {
        let index = match self.recent.seen(&key) {
            Ok(index) => index,
            Err(slot) => {
                let index = self.next_string();
                write(&mut self.strings);
                self.recent.remember(slot, key, index);
                index
            }
        };
        self.numbers.push(f64::from(index));
    }

    /// The numbers and the strings' JSON text.
    pub fn finish(mut self) -> Written {
        self.strings.push(']');
        Written {
            numbers: self.numbers,
            strings: self.strings,
        }
    }

    /// The index of the string about to be written, after its comma.
    fn next_string(&mut self) -> u32 {
        if self.count > 0 {
            self.strings.push(',');
        }
        self.count += 1;
        self.count - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(written: &Written) -> Vec<String> {
        serde_json::from_str(&written.strings).unwrap_or_default()
    }

    #[test]
    fn each_word_and_id_is_written_once_and_made_text_each_time() {
        let kept = String::from("success");
        let copy = String::from("success");
        let trace = TraceId::parse("463ac35c9f6413ad48485a3953bb6124");
        let mut tape = Tape::new(16, false);
        tape.word(&kept);
        tape.word("GET");
        tape.word(&copy);
        tape.word("GET");
        tape.fresh("made");
        tape.fresh("made");
        tape.pair("GET", "/api/order/{orderId}");
        tape.pair("GET", "/api/order/{orderId}");
        if let Some(trace) = &trace {
            tape.trace(trace);
            tape.trace(trace);
        }
        tape.span(SpanId(0x00f0_67aa_0ba9_02b7));
        tape.opt_span(Some(SpanId(0x00f0_67aa_0ba9_02b7)));
        tape.opt_span(None);
        tape.opt_word(None);
        tape.opt_num(Some(f64::INFINITY));
        tape.opt_num(Some(-0.0));
        let written = tape.finish();
        assert_eq!(
            strings(&written),
            [
                "success",
                "GET",
                "made",
                "made",
                "GET /api/order/{orderId}",
                "463ac35c9f6413ad48485a3953bb6124",
                "00f067aa0ba902b7"
            ]
        );
        let n = &written.numbers;
        assert_eq!(
            &n[..14],
            &[0.0, 1.0, 0.0, 1.0, 2.0, 3.0, 4.0, 4.0, 5.0, 5.0, 6.0, 6.0, NONE, NONE]
        );
        assert!(n[14].is_nan());
        assert!(n[15] == 0.0 && n[15].is_sign_negative());
    }

    #[test]
    fn an_otlp_tape_writes_short_trace_ids_with_32_digits_and_times_as_nanos() {
        let mut tape = Tape::new(4, true);
        if let Some(trace) = TraceId::parse("463ac35c9f6413ad") {
            tape.trace(&trace);
        }
        tape.time(0);
        tape.time(1_700_000_000_000);
        tape.time(1_700_000_000_000);
        let written = tape.finish();
        assert_eq!(
            strings(&written),
            [
                "0000000000000000463ac35c9f6413ad",
                "0",
                "1700000000000000000"
            ]
        );
        assert_eq!(written.numbers, [0.0, 1.0, 2.0, 2.0]);
    }

    #[test]
    fn a_tape_for_spans_writes_times_as_numbers() {
        let mut tape = Tape::new(2, false);
        tape.time(0);
        tape.time(1_700_000_000_000);
        let written = tape.finish();
        assert_eq!(written.strings, "[]");
        assert_eq!(written.numbers, [0.0, 1_700_000_000_000.0]);
    }

    #[test]
    fn words_are_escaped_as_json_text() {
        let mut tape = Tape::new(2, false);
        tape.word("a \"b\" \\ c\nd \u{1} é 😀");
        let written = tape.finish();
        assert_eq!(strings(&written), ["a \"b\" \\ c\nd \u{1} é 😀"]);
    }
}
