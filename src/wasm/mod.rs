//! The binding: plain data in (strings, bytes, numbers), JSON text out.
//!
//! The JS layer of the package (`src/js/orderpay.js`) turns whatever a
//! caller passes into that plain data first, inside `try`/`catch`. So no
//! caller's code (a getter, an iterator, a proxy trap, a `toJSON`) ever runs
//! while this module is on the stack, and nothing can throw through it:
//! a throw through wasm frames leaks its stack, and a trap poisons the
//! module for the whole page. Answers leave as JSON text for `JSON.parse`,
//! which builds JS objects faster than field-by-field conversion does, and
//! no export returns a JS object reference (see `exports`).
//!
//! - [`exports`]: the one exported class, thin calls into the core.
//! - [`options`]: the settings of a new service, from checked numbers.
//! - [`plain`]: the plain request parts, and what the JS layer left behind.
//! - [`json`]: every value that leaves, as JSON text, one function each.
//! - [`host`]: what the JS host provides: the wall clock and a random seed.

#[cfg(feature = "boundary-bench")]
mod bench;
mod exports;
mod host;
mod json;
mod options;
mod plain;

pub use exports::{RawPieces, RawRestoring, Service};
