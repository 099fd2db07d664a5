//! The service's randomness, split by purpose.

use serde::{Deserialize, Serialize};

use super::random::Rng;

/// One random stream per purpose, so that, say, reading an order (which
/// draws a trace id) never changes the id of the next order created.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Streams {
    pub ids: Rng,
    pub traces: Rng,
    pub latency: Rng,
    pub batch: Rng,
}

impl Streams {
    pub fn new(seed: u64) -> Streams {
        Streams {
            ids: Rng::stream(seed, "ids"),
            traces: Rng::stream(seed, "traces"),
            latency: Rng::stream(seed, "latency"),
            batch: Rng::stream(seed, "batch"),
        }
    }
}
