//! Seeded randomness, handed in like the clock. Every draw the service makes
//! comes from here, so one seed and one sequence of calls give the same ids,
//! outcomes and log records on every machine.

const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64: tiny, fast, statistically sound for simulation, and its whole
/// state is one `u64`, which makes snapshots trivial.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Rng {
    pub(crate) state: u64,
}

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng { state: seed }
    }

    /// An independent stream for one purpose (ids, traces, latency...), so
    /// that drawing more of one kind never shifts the draws of another.
    pub fn stream(seed: u64, purpose: &str) -> Self {
        Rng::new(mix(seed ^ fnv1a(purpose.as_bytes())))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GOLDEN);
        mix(self.state)
    }

    /// Uniform in [0, 1), with 53 bits of precision.
    pub fn unit(&mut self) -> f64 {
        to_unit(self.next_u64())
    }

    /// Uniform in 0..n (0 when n is 0), without modulo bias worth measuring.
    pub fn below(&mut self, n: u64) -> u64 {
        let x = self.next_u64();
        // WebAssembly has no 64x64->128 multiply: a `u128` product is a
        // call to `__multi3`, on every id and latency drawn. The bounds
        // the service draws below fit in 32 bits, where 64-bit products
        // give the same high half.
        match u32::try_from(n) {
            Ok(n) if cfg!(target_arch = "wasm32") => high_product_u32(x, n),
            _ => ((u128::from(x) * u128::from(n)) >> 64) as u64,
        }
    }

    /// For tests of byte scanners: up to `max_len - 1` bytes, each one in
    /// `one_in` drawn from `special` (the bytes a scanner stops at or must
    /// pass), the others lower-case letters.
    #[cfg(test)]
    pub fn bytes_among(&mut self, max_len: u64, one_in: u64, special: &[u8]) -> Vec<u8> {
        let len = self.below(max_len);
        (0..len)
            .map(|_| match self.below(one_in) {
                0 => special[self.below(special.len() as u64) as usize],
                _ => b'a' + self.below(26) as u8,
            })
            .collect()
    }
}

/// The high 64 bits of `x * n`, from 64-bit products: with `x = h * 2^32
/// + l`, it is `(h * n + (l * n >> 32)) >> 32`, exactly, and the sum stays
/// below `2^64` because `n < 2^32`.
fn high_product_u32(x: u64, n: u32) -> u64 {
    let n = u64::from(n);
    let high = (x >> 32) * n;
    let low = (x & 0xffff_ffff) * n;
    (high + (low >> 32)) >> 32
}

/// The SplitMix64 finaliser: a bijective scramble of 64 bits.
pub fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A draw in [0, 1) that depends only on the seed and the key, never on
/// what was drawn before: the basis of replayable per-order outcomes.
pub fn keyed_unit(seed: u64, key: &str, n: u64) -> f64 {
    to_unit(mix(
        mix(seed ^ fnv1a(key.as_bytes())) ^ n.wrapping_mul(GOLDEN)
    ))
}

fn to_unit(x: u64) -> f64 {
    (x >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// FNV-1a: a stable 64-bit hash of bytes, the same on every platform.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    fnv1a_from(0xcbf2_9ce4_8422_2325, bytes)
}

/// FNV-1a carried on from `hash`, the hash of the bytes before these:
/// hashing a text in parts gives the hash of the whole.
pub fn fnv1a_from(hash: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(hash, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01B3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_32_bit_product_is_the_128_bit_one() {
        let mut rng = Rng::new(9);
        let edges = [
            0,
            1,
            36,
            u64::from(u32::MAX),
            u64::MAX,
            1 << 63,
            (1 << 32) - 1,
        ];
        for i in 0..200_000u64 {
            let x = match edges.get(i as usize % 64) {
                Some(&edge) => edge,
                None => rng.next_u64(),
            };
            let n = match i % 5 {
                0 => u32::MAX,
                1 => 36,
                _ => rng.next_u64() as u32 >> (i % 31),
            };
            let wide = ((u128::from(x) * u128::from(n)) >> 64) as u64;
            assert_eq!(high_product_u32(x, n), wide, "{x} {n}");
        }
    }

    #[test]
    fn same_seed_same_sequence_other_seed_other_sequence() {
        let a: Vec<u64> = (0..5)
            .scan(Rng::new(7), |r, _| Some(r.next_u64()))
            .collect();
        let b: Vec<u64> = (0..5)
            .scan(Rng::new(7), |r, _| Some(r.next_u64()))
            .collect();
        let c: Vec<u64> = (0..5)
            .scan(Rng::new(8), |r, _| Some(r.next_u64()))
            .collect();
        assert_eq!(a, b);
        assert_ne!(a, c);
    }

    #[test]
    fn streams_for_different_purposes_differ() {
        assert_ne!(
            Rng::stream(1, "ids").next_u64(),
            Rng::stream(1, "traces").next_u64()
        );
    }

    #[test]
    fn unit_and_below_stay_in_range_and_spread() {
        let mut rng = Rng::new(42);
        let mut buckets = [0u32; 10];
        for _ in 0..10_000 {
            let u = rng.unit();
            assert!((0.0..1.0).contains(&u));
            buckets[(u * 10.0) as usize] += 1;
            assert!(rng.below(36) < 36);
        }
        // Each tenth should hold about 1000; 800..1200 is over 6 sigma wide.
        assert!(
            buckets.iter().all(|&n| (800..1200).contains(&n)),
            "{buckets:?}"
        );
        assert_eq!(rng.below(0), 0);
    }

    #[test]
    fn keyed_unit_depends_on_every_part_of_the_key() {
        let base = keyed_unit(1, "ORD-AAAAAAAA", 1);
        assert_eq!(base, keyed_unit(1, "ORD-AAAAAAAA", 1));
        assert_ne!(base, keyed_unit(2, "ORD-AAAAAAAA", 1));
        assert_ne!(base, keyed_unit(1, "ORD-AAAAAAAB", 1));
        assert_ne!(base, keyed_unit(1, "ORD-AAAAAAAA", 2));
    }
}
