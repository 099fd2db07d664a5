//! What a caller may choose about a service: the seed, the failure rate,
//! the log capacity, the latency model and the bounds on orders and
//! idempotency keys.

use crate::prelude::*;

use crate::json::message::msg;

use super::latency::LatencyModel;

pub const DEFAULT_FAILURE_RATE: f64 = 0.3;
pub const DEFAULT_LOG_CAPACITY: usize = 10_000;
pub const MAX_LOG_CAPACITY: usize = 1_000_000;
/// The most orders kept by default: a bound on memory (a WebAssembly
/// memory never shrinks), well above any test's needs.
pub const DEFAULT_MAX_ORDERS: usize = 1_000_000;

/// The most idempotency keys kept by default, and at most.
pub const DEFAULT_IDEMPOTENCY_KEYS: usize = 10_000;
pub const MAX_IDEMPOTENCY_KEYS: usize = 1_000_000;

#[cfg(feature = "serde")]
fn default_idempotency_keys() -> usize {
    DEFAULT_IDEMPOTENCY_KEYS
}

#[cfg(feature = "serde")]
fn default_max_orders() -> usize {
    DEFAULT_MAX_ORDERS
}

/// What a caller may choose about a service.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct Settings {
    pub seed: u64,
    /// The share of payment attempts the third party declines, 0 to 1.
    pub failure_rate: f64,
    /// The most log records kept; older ones are dropped and counted.
    pub log_capacity: usize,
    pub latency: LatencyModel,
    /// The most orders kept at once; creating one more is refused (507)
    /// until orders are deleted. Snapshots from before it have the default.
    #[cfg_attr(feature = "serde", serde(default = "default_max_orders"))]
    pub max_orders: usize,
    /// The most `Idempotency-Key`s kept at once; a new one past it is
    /// refused (507) until keys expire. Snapshots from before it, or that
    /// keep the default, have the default.
    #[cfg_attr(feature = "serde", serde(default = "default_idempotency_keys"))]
    pub idempotency_keys: usize,
}

impl Settings {
    pub fn with_seed(seed: u64) -> Settings {
        Settings {
            seed,
            failure_rate: DEFAULT_FAILURE_RATE,
            log_capacity: DEFAULT_LOG_CAPACITY,
            latency: LatencyModel::default(),
            max_orders: DEFAULT_MAX_ORDERS,
            idempotency_keys: DEFAULT_IDEMPOTENCY_KEYS,
        }
    }

    /// Settings come from the caller's code, not from requests: a bad one
    /// is a programming error, reported as a message naming the option.
    pub fn check(&self) -> Result<(), String> {
        if !(0.0..=1.0).contains(&self.failure_rate) {
            return Err(msg!(
                "failureRate: must be a number from 0 to 1, got ",
                crate::json::number::display(self.failure_rate)
            ));
        }
        if self.log_capacity > MAX_LOG_CAPACITY {
            return Err(msg!(
                "logCapacity: must be at most ",
                MAX_LOG_CAPACITY,
                ", got ",
                self.log_capacity
            ));
        }
        if self.idempotency_keys > MAX_IDEMPOTENCY_KEYS {
            return Err(msg!(
                "idempotencyKeys: must be at most ",
                MAX_IDEMPOTENCY_KEYS,
                ", got ",
                self.idempotency_keys
            ));
        }
        Ok(())
    }
}
