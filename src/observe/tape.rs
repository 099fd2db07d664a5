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
use crate::domain::hashing::ByText;
use crate::json::write::{escape_into, push_hex64};

/// What a string index of `NONE` stands for: `null`.
pub const NONE: f64 = -1.0;

/// A finished tape: the numbers, and the strings as a JSON array.
pub struct Written {
    pub numbers: Vec<f64>,
    pub strings: String,
}

/// The index last written for a key, in a slot picked by the key's hash:
/// a direct-mapped table of `2^bits` slots that forgets on collision.
struct Recent<K> {
    slots: Vec<Option<(K, u32)>>,
    bits: u32,
}

impl<K: Copy + Eq> Recent<K> {
    fn new(bits: u32) -> Recent<K> {
        Recent {
            slots: vec![None; 1 << bits],
            bits,
        }
    }

    /// The slot of a key hashed to `hash` (Fibonacci hashing: the top
    /// bits of a multiply).
    fn slot(&self, hash: u64) -> usize {
        (hash.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - self.bits)) as usize
    }

    fn get(&self, slot: usize, key: K) -> Option<u32> {
        match self.slots.get(slot) {
            Some(Some((kept, index))) if *kept == key => Some(*index),
            _ => None,
        }
    }

    fn put(&mut self, slot: usize, key: K, index: u32) {
        if let Some(s) = self.slots.get_mut(slot) {
            *s = Some((key, index));
        }
    }
}

/// A word's address and length.
type Place = (usize, usize);

fn place(text: &str) -> Place {
    (text.as_ptr() as usize, text.len())
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
    /// Whether trace ids are written with 32 digits always (OTLP), not as
    /// they were given.
    wide_ids: bool,
    by_place: Recent<Place>,
    by_text: HashMap<&'a str, u32, ByText>,
    /// Two words joined by a space (a span's name).
    names: Recent<(Place, Place)>,
    traces: Recent<TraceId>,
    spans: Recent<u64>,
    nanos: Recent<i64>,
}

impl<'a> Tape<'a> {
    /// A tape for about `numbers` numbers; `wide_ids` writes every trace
    /// id with 32 digits.
    pub fn new(numbers: usize, wide_ids: bool) -> Tape<'a> {
        let mut strings = String::with_capacity(numbers * 2 + 2);
        strings.push('[');
        Tape {
            numbers: Vec::with_capacity(numbers),
            strings,
            count: 0,
            wide_ids,
            by_place: Recent::new(12),
            by_text: HashMap::default(),
            names: Recent::new(8),
            traces: Recent::new(12),
            spans: Recent::new(12),
            nanos: Recent::new(10),
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
        let key = place(text);
        let slot = self.by_place.slot((key.0 as u64) << 16 ^ key.1 as u64);
        let index = match self.by_place.get(slot, key) {
            Some(index) => index,
            None => {
                let index = match self.by_text.get(text) {
                    Some(&index) => index,
                    None => {
                        let index = self.next_string();
                        escape_into(&mut self.strings, text);
                        self.by_text.insert(text, index);
                        index
                    }
                };
                self.by_place.put(slot, key, index);
                index
            }
        };
        self.numbers.push(f64::from(index));
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
        let key = (place(first), place(second));
        let slot = self
            .names
            .slot((key.0 .0 ^ key.1 .0.rotate_left(16)) as u64);
        if let Some(index) = self.names.get(slot, key) {
            self.numbers.push(f64::from(index));
            return;
        }
        let mut joined = String::with_capacity(first.len() + second.len() + 1);
        joined.push_str(first);
        joined.push(' ');
        joined.push_str(second);
        let index = self.next_string();
        escape_into(&mut self.strings, &joined);
        self.names.put(slot, key, index);
        self.numbers.push(f64::from(index));
    }

    /// A string made for this field alone (it is not found again).
    pub fn fresh(&mut self, text: &str) {
        let index = self.next_string();
        escape_into(&mut self.strings, text);
        self.numbers.push(f64::from(index));
    }

    /// A trace id as hex: as given, or with 32 digits on a wide tape.
    pub fn trace(&mut self, id: &TraceId) {
        let slot = self.traces.slot(id.low_bits());
        let index = match self.traces.get(slot, *id) {
            Some(index) => index,
            None => {
                let index = self.next_string();
                self.strings.push('"');
                if self.wide_ids {
                    id.push_hex_128(&mut self.strings);
                } else {
                    id.push_hex(&mut self.strings);
                }
                self.strings.push('"');
                self.traces.put(slot, *id, index);
                index
            }
        };
        self.numbers.push(f64::from(index));
    }

    /// A span id as 16 hex digits.
    pub fn span(&mut self, id: SpanId) {
        let slot = self.spans.slot(id.0);
        let index = match self.spans.get(slot, id.0) {
            Some(index) => index,
            None => {
                let index = self.next_string();
                self.strings.push('"');
                push_hex64(&mut self.strings, id.0);
                self.strings.push('"');
                self.spans.put(slot, id.0, index);
                index
            }
        };
        self.numbers.push(f64::from(index));
    }

    /// Unix ms as OTLP's nanoseconds, a decimal string (`otlp::nanos`).
    pub fn nanos(&mut self, ms: i64) {
        let slot = self.nanos.slot(ms as u64);
        let index = match self.nanos.get(slot, ms) {
            Some(index) => index,
            None => {
                let index = self.next_string();
                super::otlp::nanos(&mut self.strings, ms);
                self.nanos.put(slot, ms, index);
                index
            }
        };
        self.numbers.push(f64::from(index));
    }

    /// `span`, or `null`.
    pub fn opt_span(&mut self, id: Option<SpanId>) {
        match id {
            Some(id) => self.span(id),
            None => self.numbers.push(NONE),
        }
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
    fn a_wide_tape_writes_short_trace_ids_with_32_digits_and_nanos_as_otlp_does() {
        let mut tape = Tape::new(4, true);
        if let Some(trace) = TraceId::parse("463ac35c9f6413ad") {
            tape.trace(&trace);
        }
        tape.nanos(0);
        tape.nanos(1_700_000_000_000);
        tape.nanos(1_700_000_000_000);
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
    fn words_are_escaped_as_json_text() {
        let mut tape = Tape::new(2, false);
        tape.word("a \"b\" \\ c\nd \u{1} é 😀");
        let written = tape.finish();
        assert_eq!(strings(&written), ["a \"b\" \\ c\nd \u{1} é 😀"]);
    }
}
