//! The simulated third party behind payment pay. Whether an attempt is
//! approved depends only on the seed, the order and the attempt number, so
//! a failure seen once replays alone, whatever other requests came first.

use serde::{Deserialize, Serialize};

use crate::random::keyed_unit;

/// What the third party said, and why.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Decision {
    pub approved: bool,
    /// 1 for the first attempt on the order, 2 for the first retry...
    pub attempt: u32,
    /// The random draw in [0, 1): it fails when below the threshold.
    pub draw: f64,
    /// The failure rate in force.
    pub threshold: f64,
}

pub fn decide(seed: u64, order_id: &str, attempt: u32, failure_rate: f64) -> Decision {
    let draw = keyed_unit(seed, order_id, u64::from(attempt));
    Decision {
        approved: draw >= failure_rate,
        attempt,
        draw,
        threshold: failure_rate,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn about_thirty_percent_fail_at_the_default_rate() {
        let n = 20_000;
        let failed = (0..n)
            .filter(|i| !decide(11, &format!("ORD-{i:08}"), 1, 0.3).approved)
            .count();
        // Binomial(20000, 0.3): sd about 65; allow 5 sd.
        assert!((5_675..=6_325).contains(&failed), "{failed}");
    }

    #[test]
    fn rates_of_zero_and_one_are_absolute() {
        for i in 0..1000 {
            let order = format!("ORD-{i}");
            assert!(decide(5, &order, 1, 0.0).approved);
            assert!(!decide(5, &order, 1, 1.0).approved);
        }
    }

    #[test]
    fn the_same_order_and_attempt_always_decide_alike_and_retries_draw_anew() {
        let first = decide(3, "ORD-ABCDEFGH", 1, 0.3);
        assert_eq!(first, decide(3, "ORD-ABCDEFGH", 1, 0.3));
        assert_ne!(first.draw, decide(3, "ORD-ABCDEFGH", 2, 0.3).draw);
        assert_eq!(first.approved, first.draw >= 0.3);
    }
}
