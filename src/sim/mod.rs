//! The simulated world, deterministic: time and randomness are handed in,
//! never reached for, so native tests are exact. Above `json` (its reader
//! for scenario documents and latency profiles, its messages and number
//! text), and importing nothing else of the crate.
//!
//! - [`clock`]: the wall clock or a virtual one;
//! - [`random`]: seeded, splittable streams of numbers;
//! - [`streams`]: one stream per purpose, so unrelated traffic never moves ids;
//! - [`latency`]: how long each step takes;
//! - [`third_party`]: the payment processor that declines about 30%;
//! - [`test_card`]: the test cards, each with the outcome it takes;
//! - [`planned_change`]: what a pay's record says its payment will do later;
//! - [`scenario`]: the failure document, read, matched and counted;
//! - [`settings`]: what a caller may choose about all of the above;
//! - [`time_limits`]: the times a clock may read, those of a JS `Date`;
//! - [`invalid`]: a caller's value refused, and which kind of wrong it is.

pub mod clock;
pub mod invalid;
pub mod latency;
pub mod planned_change;
pub mod random;
pub mod scenario;
pub mod settings;
pub mod streams;
pub mod test_card;
pub mod third_party;
pub mod time_limits;

pub use settings::Settings;
