//! Writing JSON text straight into one `String`: no intermediate values,
//! so a record or a span costs its bytes and nothing more.

use crate::prelude::*;

/// A JSON text being written. Callers write keys and values in order; the
/// commas come by themselves.
#[derive(Default)]
pub struct Out {
    pub text: String,
    /// Whether the container being written already holds an item.
    open: bool,
}

const HEX: &[u8; 16] = b"0123456789abcdef";

impl Out {
    pub fn with_capacity(bytes: usize) -> Out {
        Out {
            text: String::with_capacity(bytes),
            open: false,
        }
    }

    fn comma(&mut self) {
        if self.open {
            self.text.push(',');
        }
        self.open = true;
    }

    pub fn begin_object(&mut self) {
        self.comma();
        self.text.push('{');
        self.open = false;
    }

    pub fn end_object(&mut self) {
        self.text.push('}');
        self.open = true;
    }

    pub fn begin_array(&mut self) {
        self.comma();
        self.text.push('[');
        self.open = false;
    }

    pub fn end_array(&mut self) {
        self.text.push(']');
        self.open = true;
    }

    /// Starts a quoted value the caller writes itself (a hex id, a name
    /// made of known parts), then closes with `"`.
    pub fn comma_then_quote(&mut self) {
        self.comma();
        self.text.push('"');
    }

    /// Forgets the container state, for a new top-level value (NDJSON).
    pub fn reset(&mut self) {
        self.open = false;
    }

    /// A key of the object being written; the value follows. Keys are the
    /// service's own words, plain ASCII that needs no escaping.
    pub fn key(&mut self, key: &str) {
        self.comma();
        self.text.push('"');
        self.text.push_str(key);
        self.text.push_str("\":");
        self.open = false;
    }

    /// A key that is data (an id from a snapshot), escaped.
    pub fn key_text(&mut self, key: &str) {
        self.comma();
        escape_into(&mut self.text, key);
        self.text.push(':');
        self.open = false;
    }

    pub fn str(&mut self, value: &str) {
        self.comma();
        escape_into(&mut self.text, value);
    }

    /// Text already known to need no escaping (hex ids, fixed words).
    pub fn plain(&mut self, value: &str) {
        self.comma();
        self.text.push('"');
        self.text.push_str(value);
        self.text.push('"');
    }

    /// A value already written as JSON text.
    pub fn raw(&mut self, json: &str) {
        self.comma();
        self.text.push_str(json);
    }

    pub fn null(&mut self) {
        self.raw("null");
    }

    pub fn bool(&mut self, value: bool) {
        self.raw(if value { "true" } else { "false" });
    }

    pub fn int(&mut self, value: i64) {
        self.comma();
        push_int(&mut self.text, value);
    }

    pub fn uint(&mut self, value: u64) {
        self.comma();
        push_uint(&mut self.text, value);
    }

    /// A finite number, written so that reading it back gives the same
    /// bits (JSON has no NaN or infinity: those are written as null).
    pub fn num(&mut self, value: f64) {
        self.comma();
        push_f64(&mut self.text, value);
    }

    pub fn opt_str(&mut self, value: Option<&str>) {
        match value {
            Some(v) => self.str(v),
            None => self.null(),
        }
    }

    pub fn opt_uint(&mut self, value: Option<u64>) {
        match value {
            Some(v) => self.uint(v),
            None => self.null(),
        }
    }

    /// 16 lower-case hex digits of a 64-bit id, quoted.
    pub fn hex64(&mut self, value: u64) {
        self.comma();
        self.text.push('"');
        push_hex64(&mut self.text, value);
        self.text.push('"');
    }
}

/// `value` as a quoted JSON string, escaped as JSON requires.
pub fn escape_into(out: &mut String, value: &str) {
    out.push('"');
    let bytes = value.as_bytes();
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let escape: &str = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0c => "\\f",
            0..=0x1f => "",
            _ => continue,
        };
        out.push_str(value.get(start..i).unwrap_or_default());
        if escape.is_empty() {
            out.push_str("\\u00");
            out.push(char::from(HEX[usize::from(b >> 4)]));
            out.push(char::from(HEX[usize::from(b & 15)]));
        } else {
            out.push_str(escape);
        }
        start = i + 1;
    }
    out.push_str(value.get(start..).unwrap_or_default());
    out.push('"');
}

pub fn push_uint(out: &mut String, mut value: u64) {
    let mut digits = [0u8; 20];
    // Filled from the end, by iterator: no index to check.
    let mut at = digits.len();
    for slot in digits.iter_mut().rev() {
        *slot = b'0' + (value % 10) as u8;
        at -= 1;
        value /= 10;
        if value == 0 {
            break;
        }
    }
    let digits = digits.get(at..).unwrap_or_default();
    out.push_str(core::str::from_utf8(digits).unwrap_or_default());
}

pub fn push_int(out: &mut String, value: i64) {
    if value < 0 {
        out.push('-');
    }
    push_uint(out, value.unsigned_abs());
}

pub fn push_hex64(out: &mut String, value: u64) {
    let mut digits = [0u8; 16];
    for (i, d) in digits.iter_mut().enumerate() {
        *d = HEX[((value >> ((15 - i) * 4)) & 15) as usize];
    }
    out.push_str(core::str::from_utf8(&digits).unwrap_or_default());
}

/// The shortest text that reads back as the same double, as JavaScript
/// and serde_json write it: whole numbers below 2^53 without a fraction
/// (`12`), others in Rust's shortest round-trip form (`12.5`, `1e300`).
pub fn push_f64(out: &mut String, value: f64) {
    if !value.is_finite() {
        out.push_str("null");
    } else if value.fract() == 0.0 && value.abs() < 9_007_199_254_740_992.0 {
        push_int(out, value as i64);
        if value == 0.0 && value.is_sign_negative() {
            out.truncate(out.len() - 1);
            out.push_str("-0.0");
        } else {
            out.push_str(".0");
        }
    } else {
        super::number::push_debug(out, value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_escaped_as_json_requires() {
        let mut out = String::new();
        escape_into(&mut out, "a\"b\\c\nd\u{1}é\u{7f}");
        assert_eq!(out, "\"a\\\"b\\\\c\\nd\\u0001é\u{7f}\"");
    }

    #[test]
    fn numbers_read_back_to_the_same_bits() {
        for value in [
            0.0,
            12.0,
            12.5,
            0.1,
            1e300,
            5e-324,
            -3.25,
            1e21,
            123456789.125,
        ] {
            let mut out = String::new();
            push_f64(&mut out, value);
            assert_eq!(out.parse::<f64>().ok(), Some(value), "{out}");
        }
        let mut out = String::new();
        push_f64(&mut out, 12.0);
        assert_eq!(out, "12.0");
    }

    #[test]
    fn objects_and_arrays_get_their_commas() {
        let mut out = Out::default();
        out.begin_object();
        out.key("a");
        out.int(-5);
        out.key("b");
        out.begin_array();
        out.uint(1);
        out.null();
        out.hex64(255);
        out.end_array();
        out.key("c");
        out.bool(true);
        out.end_object();
        assert_eq!(
            out.text,
            r#"{"a":-5,"b":[1,null,"00000000000000ff"],"c":true}"#
        );
    }
}
