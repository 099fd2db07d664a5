//! Hashing for the domain's lookups, which run on every request: an id is
//! already a 64-bit code and needs only its bits spread, and a shared text
//! is short. Neither needs SipHash's defence against chosen keys: the
//! keys are this service's own codes, and a text's table only dedupes.

use core::hash::{BuildHasherDefault, Hasher};

use crate::sim::random::mix;

/// Hashes one `u64` (a `Code`) with the SplitMix64 finaliser, so every
/// bit of the code reaches the bits a table indexes by.
#[derive(Default)]
pub struct CodeHasher(u64);

impl Hasher for CodeHasher {
    fn finish(&self) -> u64 {
        mix(self.0)
    }

    fn write(&mut self, bytes: &[u8]) {
        // Only reached for keys other than a lone `u64`: fold them in.
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01B3);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 ^= n;
    }
}

/// A text's eight bytes at a time, spread at the end: a text's table only
/// dedupes (its order is never read), so the hash need only spread, and a
/// word a step costs a byte a step's eighth.
pub struct TextHasher(u64);

impl Default for TextHasher {
    fn default() -> Self {
        TextHasher(0xcbf2_9ce4_8422_2325)
    }
}

impl TextHasher {
    fn step(&mut self, word: u64) {
        self.0 = (self.0 ^ word)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .rotate_left(29);
    }
}

impl Hasher for TextHasher {
    fn finish(&self) -> u64 {
        mix(self.0)
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for word in &mut words {
            if let Ok(word) = <[u8; 8]>::try_from(word) {
                self.step(u64::from_le_bytes(word));
            }
        }
        // The last up to seven bytes, with their count in the top byte,
        // so "a" and "a\0" differ.
        let tail = words.remainder();
        let mut last = (tail.len() as u64) << 56;
        for (i, &b) in tail.iter().enumerate() {
            last |= u64::from(b) << (8 * i);
        }
        self.step(last);
    }
}

pub type ByCode = BuildHasherDefault<CodeHasher>;
pub type ByText = BuildHasherDefault<TextHasher>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::code::Code;
    use crate::prelude::{HashMap, HashSet};
    use core::hash::BuildHasher;

    #[test]
    fn codes_that_differ_in_one_letter_hash_apart_in_the_low_and_high_bits() {
        let a = Code::parse("ORD", "ORD-AAAAAAAA").map(|c| ByCode::default().hash_one(c));
        let b = Code::parse("ORD", "ORD-AAAAAAAB").map(|c| ByCode::default().hash_one(c));
        let (Some(a), Some(b)) = (a, b) else {
            panic!("codes parse")
        };
        assert_ne!(a & 0xff, b & 0xff);
        assert_ne!(a >> 57, b >> 57);
    }

    #[test]
    fn maps_keyed_by_them_find_what_they_hold() {
        let mut codes: HashMap<Code, u32, ByCode> = HashMap::default();
        let mut texts: HashSet<String, ByText> = HashSet::default();
        for n in 0..1000u64 {
            codes.insert(Code(n * 7919), n as u32);
            texts.insert(format!("user-{n}"));
        }
        assert!((0..1000u64).all(|n| codes.get(&Code(n * 7919)) == Some(&(n as u32))));
        assert!(texts.contains("user-999") && !texts.contains("user-1000"));
        assert_eq!((codes.len(), texts.len()), (1000, 1000));
    }

    #[test]
    fn texts_that_differ_in_one_byte_or_in_length_hash_apart() {
        let hash = |t: &str| ByText::default().hash_one(t);
        let base = "a description of twenty-nine";
        let mut seen = HashSet::<u64, ByCode>::default();
        for cut in 0..=base.len() {
            assert!(seen.insert(hash(&base[..cut])), "prefix of {cut} bytes");
        }
        for i in 0..base.len() {
            let mut bytes = base.as_bytes().to_vec();
            bytes[i] ^= 1;
            let text = String::from_utf8(bytes).unwrap_or_default();
            assert!(seen.insert(hash(&text)), "byte {i} changed");
        }
        assert_ne!(hash("a"), hash("a\0"));
    }
}
