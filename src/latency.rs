//! Simulated latency. The `duration` in the log records is time the
//! simulation says a step took, drawn from a seeded model, so it is both
//! realistic-looking and reproducible.

use serde::{Deserialize, Serialize};

use crate::random::Rng;

/// One step's latency: `base` plus a uniform `spread`, and now and then a
/// slow tail, as real services have.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Profile {
    pub base_ms: u64,
    pub spread_ms: u64,
    pub tail_chance: f64,
    pub tail_ms: u64,
}

impl Profile {
    /// Always three draws, so one step's latency never shifts another's.
    pub fn draw(&self, rng: &mut Rng) -> u64 {
        let spread = rng.below(self.spread_ms.saturating_add(1));
        let tail_roll = rng.unit();
        let tail = rng.below(self.tail_ms.saturating_add(1));
        let tail = if tail_roll < self.tail_chance {
            tail
        } else {
            0
        };
        self.base_ms.saturating_add(spread).saturating_add(tail)
    }
}

/// Latency of each step: the two services, the third-party call inside
/// payment pay, and the test-data endpoint's own work.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LatencyModel {
    pub order: Profile,
    pub payment: Profile,
    pub third_party: Profile,
    pub test: Profile,
}

impl Default for LatencyModel {
    fn default() -> Self {
        LatencyModel {
            order: Profile {
                base_ms: 2,
                spread_ms: 6,
                tail_chance: 0.02,
                tail_ms: 40,
            },
            payment: Profile {
                base_ms: 3,
                spread_ms: 7,
                tail_chance: 0.02,
                tail_ms: 40,
            },
            third_party: Profile {
                base_ms: 60,
                spread_ms: 180,
                tail_chance: 0.05,
                tail_ms: 1200,
            },
            test: Profile {
                base_ms: 1,
                spread_ms: 2,
                tail_chance: 0.0,
                tail_ms: 0,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_stay_within_base_spread_and_tail() {
        let model = LatencyModel::default();
        let mut rng = Rng::new(4);
        let draws: Vec<u64> = (0..5000)
            .map(|_| model.third_party.draw(&mut rng))
            .collect();
        assert!(draws.iter().all(|&d| (60..=60 + 180 + 1200).contains(&d)));
        let slow = draws.iter().filter(|&&d| d > 240).count();
        // About 5% take the tail, and most tails push past the spread.
        assert!((100..=300).contains(&slow), "{slow}");
    }

    #[test]
    fn a_profile_without_spread_or_tail_is_exact() {
        let fixed = Profile {
            base_ms: 7,
            spread_ms: 0,
            tail_chance: 0.0,
            tail_ms: 0,
        };
        let mut rng = Rng::new(1);
        assert!((0..100).all(|_| fixed.draw(&mut rng) == 7));
    }
}
