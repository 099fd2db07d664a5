//! The ids of events (`evt_…`) and the secrets made for webhook
//! endpoints (`whsec_…`): built from the seed and a number, never drawn
//! from a stream, so making one moves no other id. An event's id reads
//! back to its sequence number (the first half is the number scrambled by
//! a bijection keyed by the seed), so `events({after})` finds its place at
//! once, and an id of another seed or a made-up one is told apart.

use crate::prelude::*;

use crate::sim::random::mix;

const DIGITS: &[u8; 62] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
/// Base-62 digits a `u64` needs (62^11 > 2^64).
const WIDE: usize = 11;
/// An odd multiplier, and its inverse modulo 2^64.
const SCRAMBLE: u64 = 0x9E37_79B9_7F4A_7C15;
const UNSCRAMBLE: u64 = inverse(SCRAMBLE);
pub const EVENT_PREFIX: &str = "evt_";
pub const SECRET_PREFIX: &str = "whsec_";

/// Newton's iteration for the inverse of an odd number modulo 2^64.
const fn inverse(odd: u64) -> u64 {
    let mut x = odd;
    let mut i = 0;
    while i < 6 {
        x = x.wrapping_mul(2u64.wrapping_sub(odd.wrapping_mul(x)));
        i += 1;
    }
    x
}

fn keys(seed: u64) -> (u64, u64) {
    (mix(seed ^ 0x6576_745f), mix(seed ^ 0x6576_745f_0000_0001))
}

fn push_base62(out: &mut String, mut value: u64, digits: usize) {
    let mut room = [b'0'; WIDE];
    for slot in room.iter_mut().rev().take(digits) {
        *slot = DIGITS.get((value % 62) as usize).copied().unwrap_or(b'0');
        value /= 62;
    }
    for &b in room.iter().skip(WIDE - digits.min(WIDE)) {
        out.push(char::from(b));
    }
}

fn read_base62(text: &str) -> Option<u64> {
    text.bytes().try_fold(0u64, |n, b| {
        let digit = DIGITS.iter().position(|&d| d == b)?;
        n.checked_mul(62)?.checked_add(digit as u64)
    })
}

/// The id of the event numbered `seq` (from 0) in a service of `seed`.
pub fn event_id(seed: u64, seq: u64) -> String {
    let (k1, k2) = keys(seed);
    let mut id = String::with_capacity(EVENT_PREFIX.len() + 2 * WIDE);
    id.push_str(EVENT_PREFIX);
    let scrambled = (seq ^ k1).wrapping_mul(SCRAMBLE);
    push_base62(&mut id, scrambled, WIDE);
    push_base62(&mut id, mix(scrambled ^ k2), WIDE);
    id
}

/// The number of the event whose id is `id`, if it is one this seed made.
pub fn event_seq(seed: u64, id: &str) -> Option<u64> {
    let digits = id.strip_prefix(EVENT_PREFIX)?;
    let scrambled = read_base62(digits.get(..WIDE)?)?;
    let seq = scrambled.wrapping_mul(UNSCRAMBLE) ^ keys(seed).0;
    (event_id(seed, seq) == id).then_some(seq)
}

/// The secret made for endpoint number `n` when none was given:
/// `whsec_` and 32 base-62 digits.
pub fn secret(seed: u64, n: u64) -> String {
    let mut s = String::with_capacity(SECRET_PREFIX.len() + 32);
    s.push_str(SECRET_PREFIX);
    let base = mix(seed ^ 0x7768_7365_6300_0000 ^ n.wrapping_mul(SCRAMBLE));
    for part in 0..3u64 {
        let digits = if part == 2 { 10 } else { WIDE };
        push_base62(&mut s, mix(base ^ part), digits);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_event_id_reads_back_to_its_number_and_only_for_its_seed() {
        for seq in [0, 1, 2, 9_999, u64::MAX] {
            let id = event_id(7, seq);
            assert_eq!(id.len(), 4 + 22, "{id}");
            assert_eq!(event_seq(7, &id), Some(seq), "{id}");
            assert_eq!(event_seq(8, &id), None, "another seed's {id}");
        }
        assert_ne!(event_id(7, 1), event_id(8, 1));
        for bad in [
            "",
            "evt_",
            "evt_zzzzzzzzzzzzzzzzzzzzzz",
            "we_1",
            "evt_00000000000000000000!!",
        ] {
            assert_eq!(event_seq(7, bad), None, "{bad:?}");
        }
    }

    #[test]
    fn consecutive_events_do_not_look_consecutive() {
        let (a, b) = (event_id(1, 0), event_id(1, 1));
        let same = a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
        assert!(same < 10, "{a} {b}");
    }

    #[test]
    fn a_secret_is_whsec_and_32_base62_digits_fixed_by_seed_and_number() {
        let s = secret(3, 1);
        assert_eq!(s.len(), 6 + 32, "{s}");
        assert!(s.starts_with("whsec_"));
        assert!(s[6..].bytes().all(|b| b.is_ascii_alphanumeric()));
        assert_eq!(s, secret(3, 1));
        assert_ne!(s, secret(3, 2));
        assert_ne!(s, secret(4, 1));
    }
}
