//! The region of linear memory a request and its answer cross through.
//!
//! wasm-bindgen's own way of passing `handle`'s six arguments made about
//! eight calls across the boundary per request (an allocation for each
//! string, one table slot per header, the call, a free) and one more
//! decode. Here the JS layer writes every part into one buffer this module
//! keeps, calls once, and reads the answer from the same buffer: one call
//! per request, and no allocation across the boundary once the buffer is
//! large enough.
//!
//! Input, as the JS layer writes it from the buffer's start: fields, each
//! a little-endian `u32` byte length and that many bytes, in this order:
//! method, path, body, left, then header names and values in turn. Which
//! of path, body (as text or bytes) and left are present is in `flags`.
//! Output: an 8-byte header (the answer's length, the buffer's capacity,
//! both `u32` little-endian), then the answer's UTF-8 text.
//!
//! Nothing here trusts the input: a length past the end ends the fields,
//! and text that is not UTF-8 (which the JS layer's encoder never writes)
//! is read with replacement characters rather than refused.

use crate::prelude::*;

use super::plain::Parts;
use crate::json::write::Out;

/// `flags`: the path is present.
pub const PATH: u32 = 1;
/// `flags`: the body is present, as text.
pub const BODY_TEXT: u32 = 2;
/// `flags`: the body is present, as bytes.
pub const BODY_BYTES: u32 = 4;
/// `flags`: `left` is present.
pub const LEFT: u32 = 8;

/// The answer's header: its length, then the buffer's capacity.
const HEADER: usize = 8;
/// The room for input kept after an answer shorter than the buffer: the
/// usual request fits, and a larger one asks for room (`reserve`).
const KEEP: usize = 1024;

#[derive(Default)]
pub struct Scratch {
    buf: Vec<u8>,
}

impl Scratch {
    /// Makes room for `needed` bytes of input and returns where they go.
    /// The capacity is written in the header, for the JS layer to read.
    pub fn reserve(&mut self, needed: usize) -> u32 {
        let needed = needed.max(HEADER);
        if self.buf.len() < needed {
            self.buf.resize(needed, 0);
        }
        let capacity = self.buf.len();
        self.put_header(0, capacity);
        self.pointer()
    }

    /// The parts of the request written in the first `used` bytes.
    pub fn parts(&self, flags: u32, used: usize) -> Parts {
        let mut input = self.buf.get(..used).unwrap_or(&self.buf);
        let mut next = || field(&mut input);
        let method = text(next().unwrap_or_default());
        let path = next().filter(|_| flags & PATH != 0).map(text);
        let body_field = next();
        let body = body_field.filter(|_| flags & BODY_TEXT != 0).map(text);
        let bytes = body_field
            .filter(|_| flags & (BODY_TEXT | BODY_BYTES) == BODY_BYTES)
            .map(<[u8]>::to_vec);
        let left = next().filter(|_| flags & LEFT != 0).map(text);
        let mut headers = Vec::new();
        while let Some(item) = next() {
            headers.push(text(item));
        }
        Parts {
            method,
            path,
            body,
            bytes,
            headers,
            left,
        }
    }

    /// Has `write` write the answer straight into the buffer, after its
    /// header, and returns where it starts: no copy of the text, and no
    /// allocation once the buffer has held an answer as long. The room
    /// left for the next request's input is kept up to `KEEP` bytes, so a
    /// short answer after a long one zeroes a little, not all it left.
    pub fn answer_with(&mut self, write: impl FnOnce(&mut Out)) -> u32 {
        let room = self.buf.len().min(KEEP);
        let mut bytes = core::mem::take(&mut self.buf);
        bytes.clear();
        bytes.resize(HEADER, 0);
        let mut out = Out::default();
        // Eight zero bytes are UTF-8: this never falls back.
        out.text = String::from_utf8(bytes).unwrap_or_default();
        write(&mut out);
        self.buf = out.text.into_bytes();
        let length = self.buf.len().saturating_sub(HEADER);
        if self.buf.len() < room {
            self.buf.resize(room, 0);
        }
        let capacity = self.buf.len();
        self.put_header(length, capacity);
        self.pointer()
    }

    /// An answer already written as text, placed as `answer_with`
    /// places one.
    #[cfg(test)]
    pub fn answer(&mut self, text: &str) -> u32 {
        self.answer_with(|out| out.text.push_str(text))
    }

    fn put_header(&mut self, length: usize, capacity: usize) {
        let as_u32 = |n: usize| u32::try_from(n).unwrap_or(u32::MAX).to_le_bytes();
        // Whole arrays assigned: no slice lengths to check.
        if let Some((first, rest)) = self.buf.split_first_chunk_mut::<4>() {
            *first = as_u32(length);
            if let Some(second) = rest.first_chunk_mut::<4>() {
                *second = as_u32(capacity);
            }
        }
    }

    fn pointer(&self) -> u32 {
        self.buf.as_ptr() as usize as u32
    }
}

/// The next field, or None past the end of the input.
fn field<'a>(input: &mut &'a [u8]) -> Option<&'a [u8]> {
    let (length, rest) = input.split_first_chunk::<4>()?;
    let length = usize::try_from(u32::from_le_bytes(*length)).ok()?;
    if rest.len() < length {
        *input = &[];
        return None;
    }
    let (item, rest) = rest.split_at(length);
    *input = rest;
    Some(item)
}

/// `bytes` as text, as `String::from_utf8_lossy` reads them: each
/// maximal bad sequence becomes one U+FFFD. By hand, with core's UTF-8
/// check alone: the lossy reader's chunk iterator is half a kilobyte of
/// the module for input the JS layer's encoder never writes.
fn text(bytes: &[u8]) -> String {
    match core::str::from_utf8(bytes) {
        Ok(text) => text.to_owned(),
        Err(_) => lossy(bytes),
    }
}

#[cold]
#[inline(never)]
fn lossy(mut bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() + 2);
    loop {
        match core::str::from_utf8(bytes) {
            Ok(text) => {
                out.push_str(text);
                return out;
            }
            Err(e) => {
                let good = bytes.get(..e.valid_up_to()).unwrap_or_default();
                out.push_str(core::str::from_utf8(good).unwrap_or_default());
                out.push(char::REPLACEMENT_CHARACTER);
                let bad = e.valid_up_to() + e.error_len().unwrap_or(bytes.len());
                bytes = bytes.get(bad..).unwrap_or_default();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_reads_bad_utf8_as_from_utf8_lossy_does() {
        let mut samples: Vec<Vec<u8>> = [
            &b""[..],
            b"GET",
            "é日🦀".as_bytes(),
            b"\xff",
            b"a\xffb",
            b"\xe6\x97",
            b"\xe6\x97a\xe6",
            b"\xf0\x9f\xa6",
            b"\xf0\x9f\xa6\x80\x80",
            b"\xed\xa0\x80",
            b"\xc0\xaf",
            b"\xf4\x90\x80\x80",
            b"ok\x80\x80\x80ok",
        ]
        .iter()
        .map(|s| s.to_vec())
        .collect();
        // Every pair of bytes, and each after a valid 'é'.
        for a in 0..=255u8 {
            for b in (0..=255u8).step_by(3) {
                samples.push(vec![a, b]);
                samples.push(vec![0xc3, 0xa9, a, b, b'z']);
            }
        }
        for bytes in &samples {
            assert_eq!(text(bytes), String::from_utf8_lossy(bytes), "{bytes:?}");
        }
    }

    fn write(fields: &[&[u8]]) -> Scratch {
        let mut scratch = Scratch::default();
        let mut input = Vec::new();
        for f in fields {
            input.extend_from_slice(&(f.len() as u32).to_le_bytes());
            input.extend_from_slice(f);
        }
        scratch.reserve(input.len());
        scratch.buf[..input.len()].copy_from_slice(&input);
        scratch
    }

    #[test]
    fn reads_every_part_in_order() {
        let s = write(&[b"POST", b"/api/x", b"{}", b"", b"a", b"1", b"b", b"2"]);
        let used = 4 * 8 + 4 + 6 + 2 + 4;
        let p = s.parts(PATH | BODY_TEXT, used);
        assert_eq!(p.method, "POST");
        assert_eq!(p.path.as_deref(), Some("/api/x"));
        assert_eq!(p.body.as_deref(), Some("{}"));
        assert!(p.bytes.is_none() && p.left.is_none());
        assert_eq!(p.headers, ["a", "1", "b", "2"]);
    }

    #[test]
    fn absent_parts_by_flags_and_bytes_kept_as_bytes() {
        let s = write(&[b"GET", b"", &[0xff, 0x00], b"{\"body\":9}"]);
        let p = s.parts(BODY_BYTES | LEFT, 4 * 4 + 3 + 2 + 10);
        assert!(p.path.is_none() && p.body.is_none());
        assert_eq!(p.bytes.as_deref(), Some(&[0xff, 0x00][..]));
        assert_eq!(p.left.as_deref(), Some("{\"body\":9}"));
    }

    #[test]
    fn lengths_past_the_end_and_bad_utf8_do_not_panic() {
        let mut s = Scratch::default();
        s.reserve(16);
        s.buf[..4].copy_from_slice(&u32::MAX.to_le_bytes());
        let p = s.parts(PATH | BODY_TEXT | LEFT, 1_000_000);
        assert_eq!(p.method, "");
        assert!(p.path.is_none() && p.headers.is_empty());
        let s = write(&[&[0xc3]]);
        assert_eq!(s.parts(0, 5).method, "\u{fffd}");
    }

    #[test]
    fn an_answer_written_in_place_follows_its_header_and_keeps_room_for_input() {
        let mut s = Scratch::default();
        s.reserve(300);
        let at = s.answer_with(|out| {
            out.begin_object();
            out.key("code");
            out.int(0);
            out.end_object();
        });
        assert_eq!(at, s.pointer());
        assert_eq!(&s.buf[..4], &10u32.to_le_bytes());
        assert_eq!(&s.buf[8..18], b"{\"code\":0}");
        let capacity = u32::from_le_bytes([s.buf[4], s.buf[5], s.buf[6], s.buf[7]]) as usize;
        assert_eq!((capacity, s.buf.len()), (300, 300));
        // A long answer grows the region; the next short one keeps KEEP.
        let long = "x".repeat(5000);
        s.answer_with(|out| out.str(&long));
        assert_eq!(s.buf.len(), HEADER + 5002);
        s.answer_with(|out| out.int(7));
        assert_eq!(&s.buf[..4], &1u32.to_le_bytes());
        assert_eq!((s.buf[8], s.buf.len()), (b'7', KEEP));
    }

    #[test]
    fn the_answer_follows_its_header() {
        let mut s = Scratch::default();
        s.answer("{\"code\":0}");
        assert_eq!(&s.buf[..4], &10u32.to_le_bytes());
        let capacity = u32::from_le_bytes([s.buf[4], s.buf[5], s.buf[6], s.buf[7]]) as usize;
        assert_eq!(capacity, s.buf.len());
        assert_eq!(&s.buf[8..18], b"{\"code\":0}");
    }
}
