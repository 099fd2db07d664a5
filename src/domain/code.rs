//! An id's eight characters as one number: `ORD-7K2Q9XWA` is kept as the
//! `u64` of its code, so an order or a payment costs 8 bytes of id and
//! lookups compare one word. Big-endian, so codes sort as their text does.

use crate::prelude::*;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Code(pub u64);

const LEN: usize = 8;

/// Sixteen bytes on a word boundary: see `Code::push`.
#[repr(align(8))]
struct Block([u8; 16]);

impl Code {
    /// `PREFIX-XXXXXXXX`, eight upper-case letters or digits; `None` for
    /// anything else (such an id was never issued).
    pub fn parse(prefix: &str, id: &str) -> Option<Code> {
        // One length check, then the bytes read once: this runs for every
        // request that names an order or a payment.
        let (head, code) = id.as_bytes().split_at_checked(prefix.len())?;
        let (&dash, code) = code.split_first()?;
        let bytes: [u8; LEN] = code.try_into().ok()?;
        let code = u64::from_be_bytes(bytes);
        if head != prefix.as_bytes() || dash != b'-' || !letters_or_digits(code) {
            return None;
        }
        Some(Code(code))
    }

    pub fn push(self, prefix: &str, out: &mut String) {
        out.push_str(prefix);
        out.push('-');
        // A code holds only letters and digits (it was parsed or drawn
        // as such), so its bytes are its text. They are checked as text
        // at the start of a word-aligned block of 16 bytes padded with
        // ASCII, which `from_utf8` reads two words at a time, where it
        // takes eight bytes alone one by one (this runs for every id a
        // response or a record names). The padding changes nothing: it
        // can neither complete nor break a character of the code.
        let [a, b, c, d, e, f, g, h] = self.0.to_be_bytes();
        let block = Block([
            a, b, c, d, e, f, g, h, b'-', b'-', b'-', b'-', b'-', b'-', b'-', b'-',
        ]);
        match core::str::from_utf8(&block.0)
            .ok()
            .and_then(|t| t.get(..LEN))
        {
            Some(text) => out.push_str(text),
            None => self
                .0
                .to_be_bytes()
                .iter()
                .for_each(|&b| out.push(char::from(b))),
        }
    }

    pub fn text(self, prefix: &str) -> String {
        let mut out = String::with_capacity(prefix.len() + 1 + LEN);
        self.push(prefix, &mut out);
        out
    }
}

/// Whether each of the eight bytes of `x` is an upper-case letter or a
/// digit, all eight at once. For a byte below 0x80, adding `0x80 - lo`
/// sets its high bit exactly when it is at least `lo`, and adding
/// `0x7f - hi` exactly when it is above `hi`; neither carries into the
/// next byte.
fn letters_or_digits(x: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = ONES * 0x80;
    if x & HIGH != 0 {
        return false;
    }
    let within = |lo: u8, hi: u8| {
        (x + ONES * u64::from(0x80 - lo)) & !(x + ONES * u64::from(0x7f - hi)) & HIGH
    };
    within(b'0', b'9') | within(b'A', b'Z') == HIGH
}

/// Things (by index) in the order of their codes, as snapshots list
/// orders and payments: a radix sort, a byte of the code per pass, so it
/// is linear and its code is small, where a comparison sort would add
/// kilobytes to the `.wasm` for each type it sorts.
pub fn in_code_order(mut keys: Vec<(Code, u32)>) -> Vec<(Code, u32)> {
    let mut spare = vec![(Code(0), 0); keys.len()];
    for shift in (0..64).step_by(8) {
        let byte = |(code, _): &(Code, u32)| ((code.0 >> shift) & 0xff) as usize;
        // Where each byte value's run starts.
        let mut starts = [0usize; 256];
        for key in &keys {
            starts[byte(key)] += 1;
        }
        let mut at = 0;
        for start in &mut starts {
            (*start, at) = (at, at + *start);
        }
        for key in &keys {
            let next = &mut starts[byte(key)];
            if let Some(slot) = spare.get_mut(*next) {
                *slot = *key;
            }
            *next += 1;
        }
        core::mem::swap(&mut keys, &mut spare);
    }
    keys
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_is_written_as_its_prefix_a_dash_and_the_codes_bytes() {
        // Written the plain way: the prefix, `-`, and the bytes as text
        // when they are, else each byte as the character of its value.
        let plain = |code: Code, prefix: &str| {
            let bytes = code.0.to_be_bytes();
            let tail = match core::str::from_utf8(&bytes) {
                Ok(text) => text.to_owned(),
                Err(_) => bytes.iter().map(|&b| char::from(b)).collect(),
            };
            format!("{prefix}-{tail}")
        };
        let mut rng = crate::sim::random::Rng::new(9);
        let drawn = (0..2000).map(|_| {
            let mut bytes = [0u8; 8];
            for b in &mut bytes {
                *b = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"[rng.below(36) as usize];
            }
            Code(u64::from_be_bytes(bytes))
        });
        let odd = [
            Code(0),
            Code(u64::MAX),
            Code(u64::from_be_bytes(*b"ab\xc3\xa9cdef")),
            Code(u64::from_be_bytes([
                b'A', 0xe2, 0x82, 0xac, b'B', b'C', b'D', 0xc3,
            ])),
            Code(0x7f7f_7f7f_7f7f_7f7f),
        ];
        for code in drawn.chain(odd) {
            for prefix in ["ORD", "PAY", "", "LONGER-PREFIX", "ÉÉÉ"] {
                let mut out = String::from("x");
                code.push(prefix, &mut out);
                assert_eq!(out, format!("x{}", plain(code, prefix)), "{:x}", code.0);
                assert_eq!(code.text(prefix), plain(code, prefix));
            }
        }
        assert_eq!(
            Code::parse("ORD", "ORD-7K2Q9XWA").map(|c| c.text("ORD")),
            Some("ORD-7K2Q9XWA".to_owned())
        );
    }

    #[test]
    fn things_come_out_in_the_order_of_their_codes() {
        let mut rng = crate::sim::random::Rng::new(4);
        let keys: Vec<(Code, u32)> = (0..2000)
            .map(|i| (Code(rng.next_u64() >> (rng.below(4) * 16)), i))
            .collect();
        let mut expected = keys.clone();
        expected.sort();
        assert_eq!(in_code_order(keys), expected);
        assert_eq!(in_code_order(Vec::new()), Vec::new());
    }

    #[test]
    fn codes_read_back_and_sort_as_their_text() {
        let a = Code::parse("ORD", "ORD-7K2Q9XWA");
        assert_eq!(a.map(|c| c.text("ORD")).as_deref(), Some("ORD-7K2Q9XWA"));
        let b = Code::parse("ORD", "ORD-A0000000");
        assert!(a < b);
        for bad in [
            "ORD-7K2Q9XW",
            "ORD-7k2Q9XWA",
            "PAY-7K2Q9XWA",
            "ORD7K2Q9XWAB",
            "ORD-7K2Q9XWA0",
        ] {
            assert_eq!(Code::parse("ORD", bad), None, "{bad}");
        }
    }

    #[test]
    fn the_eight_bytes_are_checked_as_one_by_one() {
        let one_by_one = |x: u64| {
            x.to_be_bytes()
                .iter()
                .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
        };
        let mut rng = crate::sim::random::Rng::new(11);
        for at in 0..8 {
            for byte in 0..=255u64 {
                let x = u64::from_be_bytes(*b"AZ09QX7K") & !(0xff << (8 * at)) | byte << (8 * at);
                assert_eq!(letters_or_digits(x), one_by_one(x), "{x:016x}");
            }
        }
        for _ in 0..100_000 {
            let x = rng.next_u64();
            assert_eq!(letters_or_digits(x), one_by_one(x), "{x:016x}");
        }
    }
}
