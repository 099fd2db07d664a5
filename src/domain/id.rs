//! Order and payment ids: a prefix and 8 upper-case letters or digits,
//! never issued twice in one service. An order's is built from the seed,
//! a hash of the order (its user id, price and description) and how many
//! such orders came before (`keyed_code`), so the same order gets the same
//! id in a fresh service with the same seed, whatever else was created
//! first; a payment's is drawn from the seeded `ids` stream (`fresh_code`).

use crate::prelude::*;

use super::code::Code;
use crate::json::write::push_uint;
use crate::sim::random::{fnv1a, mix, Rng};

const ALPHABET: &[u8; 36] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const CODE_LEN: usize = 8;

/// Draws `PREFIX-XXXXXXXX` until `taken` says the id is new. With 36^8
/// codes a second draw is already rare; the loop is bounded all the same,
/// and past the bound a suffix of the attempt count keeps the id unique.
pub fn fresh(prefix: &str, rng: &mut Rng, taken: impl Fn(&str) -> bool) -> String {
    for _ in 0..64 {
        let id = draw(prefix, rng);
        if !taken(&id) {
            return id;
        }
    }
    suffixed(prefix, rng, taken)
}

/// `fresh` as the hot path uses it: the draws checked as codes, never
/// written out to be checked; the id and its code. Past the bound it goes
/// on exactly as `fresh` does (such an id has no code).
pub fn fresh_code(
    prefix: &str,
    rng: &mut Rng,
    taken: impl Fn(Code) -> bool,
) -> (String, Option<Code>) {
    match untaken(rng, &taken) {
        Some(code) => (code.text(prefix), Some(code)),
        None => {
            let id = suffixed(prefix, rng, |id| Code::parse(prefix, id).is_none_or(&taken));
            (id, None)
        }
    }
}

/// `fresh_code` for a caller that only keeps the code: the same draws
/// from `rng`, the text never written (`None` past the bound).
pub fn fresh_code_only(prefix: &str, rng: &mut Rng, taken: impl Fn(Code) -> bool) -> Option<Code> {
    let code = untaken(rng, &taken);
    if code.is_none() {
        suffixed(prefix, rng, |id| Code::parse(prefix, id).is_none_or(&taken));
    }
    code
}

/// The first of at most 64 draws that is not taken.
fn untaken(rng: &mut Rng, taken: &impl Fn(Code) -> bool) -> Option<Code> {
    (0..64).map(|_| draw_code(rng)).find(|&code| !taken(code))
}

/// Past the bound: a draw with the attempt count after it.
fn suffixed(prefix: &str, rng: &mut Rng, taken: impl Fn(&str) -> bool) -> String {
    let mut n: u64 = 0;
    loop {
        let mut id = draw(prefix, rng);
        push_uint(&mut id, n);
        if !taken(&id) {
            return id;
        }
        n = n.wrapping_add(1);
    }
}

/// An id that depends only on the seed, a key (an order's content) and
/// how many ids that key has had before (`n`), so the same order created in
/// a fresh service with the same seed gets the same id, whatever else was
/// created first. Returns the id and the `n` to pass for the key's next
/// one; candidates already taken are skipped, and the taken set is finite.
pub fn keyed(
    prefix: &str,
    seed: u64,
    key: &str,
    n: u64,
    taken: impl Fn(&str) -> bool,
) -> (String, u64) {
    let (code, n) = keyed_code(seed, fnv1a(key.as_bytes()), n, |code| {
        taken(&code.text(prefix))
    });
    (code.text(prefix), n)
}

/// `keyed` as the hot path uses it: the key already hashed (by `fnv1a`),
/// and the id kept as its code, never written out to be checked.
pub fn keyed_code(
    seed: u64,
    key_hash: u64,
    mut n: u64,
    taken: impl Fn(Code) -> bool,
) -> (Code, u64) {
    let base = mix(seed ^ key_hash);
    loop {
        let mut rng = Rng::new(base ^ mix(n));
        let code = draw_code(&mut rng);
        n = n.wrapping_add(1);
        if !taken(code) {
            return (code, n);
        }
    }
}

fn draw(prefix: &str, rng: &mut Rng) -> String {
    draw_code(rng).text(prefix)
}

/// Eight characters of the alphabet, drawn in order, as a code: the
/// first drawn is the first written.
fn draw_code(rng: &mut Rng) -> Code {
    let mut bytes = [0u8; CODE_LEN];
    for b in &mut bytes {
        *b = ALPHABET[(rng.below(36) % 36) as usize];
    }
    Code(u64::from_be_bytes(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::collections::BTreeSet;

    #[test]
    fn ids_have_the_documented_shape() {
        let mut rng = Rng::new(3);
        for _ in 0..100 {
            let id = fresh("ORD", &mut rng, |_| false);
            let code = id.strip_prefix("ORD-").unwrap_or_default();
            assert_eq!(code.len(), 8, "{id}");
            assert!(
                code.bytes()
                    .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit()),
                "{id}"
            );
        }
    }

    #[test]
    fn keyed_ids_depend_on_seed_and_key_only_and_skip_taken_ones() {
        let key = "u\u{0}12.5\u{0}tea";
        let (a, next) = keyed("ORD", 1, key, 0, |_| false);
        assert_eq!(next, 1);
        assert_eq!(a, keyed("ORD", 1, key, 0, |_| false).0);
        assert_ne!(a, keyed("ORD", 2, key, 0, |_| false).0);
        assert_ne!(a, keyed("ORD", 1, "u\u{0}12.5\u{0}coffee", 0, |_| false).0);
        let (second, next) = keyed("ORD", 1, key, 0, |id| id == a);
        assert!(second != a && second.len() == 12 && second.starts_with("ORD-"));
        assert_eq!((keyed("ORD", 1, key, 1, |_| false).0, next), (second, 2));
    }

    #[test]
    fn ids_checked_as_codes_are_the_ids_checked_as_text() {
        let (mut a, mut b) = (Rng::new(8), Rng::new(8));
        let first = fresh("PAY", &mut a.clone(), |_| false);
        for _ in 0..200 {
            let text = fresh("PAY", &mut a, |id| id == first);
            let (id, code) = fresh_code("PAY", &mut b, |c| c.text("PAY") == first);
            assert_eq!(id, text);
            assert_eq!(code.map(|c| c.text("PAY")), Some(text));
        }
        assert_eq!(a, b, "the same draws were made");
    }

    #[test]
    fn a_taken_id_is_never_returned() {
        let mut rng = Rng::new(3);
        let first = fresh("PAY", &mut rng, |_| false);
        let mut replay = Rng::new(3);
        let second = fresh("PAY", &mut replay, |id| id == first);
        assert_ne!(first, second);
        assert!(second.starts_with("PAY-"));
    }

    #[test]
    fn the_fallback_still_finds_a_free_id_when_every_plain_code_is_taken() {
        let mut rng = Rng::new(9);
        let id = fresh("ORD", &mut rng, |id| id.len() == 12);
        assert_eq!(id.len(), 13);
        let set: BTreeSet<String> = (0..1000)
            .map(|_| fresh("ORD", &mut rng, |_| false))
            .collect();
        assert_eq!(set.len(), 1000);
    }
}
