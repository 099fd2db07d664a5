//! Numbers as text and back, without core's float formatting and parsing
//! machinery (Grisu, Dragon, Eisel-Lemire and their tables), which would
//! otherwise be the largest single part of the WebAssembly module.
//!
//! Most numbers the service meets are prices and rates with a few
//! decimals: exact integer arithmetic finds their digits (and reads them)
//! directly. The rest (a random draw's 17 digits, 1e300) go to a slower
//! path: core's own code in a native build, the JS engine in the
//! WebAssembly build (`Number.prototype.toString` and `parseFloat`, both
//! shortest and correctly rounded). Every form written here is the one
//! Rust's `{:?}`, `{}` and `{:.N}` write, byte for byte; the tests hold
//! both paths to core's output.
//!
//! - `decimal`: the shortest digits of a double;
//! - `write`: numbers as text;
//! - `parse`: text as numbers.

mod decimal;
mod parse;
mod write;

pub use parse::{parse, parse_i64, parse_u64};
pub use write::{debug, display, fixed, push_debug, push_display, push_fixed};

#[cfg(test)]
mod tests;
