//! The binding: plain data in (strings, bytes, numbers), JSON text out.
//!
//! The JS layer of the package (`src/js/request_parts.js`) turns whatever a
//! caller passes into that plain data first, inside `try`/`catch`. So no
//! caller's code (a getter, an iterator, a proxy trap, a `toJSON`) ever runs
//! while this module is on the stack, and nothing can throw through it:
//! a throw through wasm frames leaks its stack, and a trap poisons the
//! module for the whole page. Answers leave as JSON text for `JSON.parse`,
//! which builds JS objects faster than field-by-field conversion does
//! (the long reads as a tape of numbers and strings, faster still), and
//! no export returns a JS object reference (see `exports`).
//!
//! - [`exports`]: the exported classes (`RawService`, `RawPieces`,
//!   `RawRestoring`) and `traceHeaders`, thin calls into the core.
//! - [`options`]: the settings of a new service, from checked numbers.
//! - [`plain`]: the plain request parts, and what the JS layer left behind.
//! - [`scratch`]: the region of linear memory a request and its answer
//!   cross through, one call per request.
//! - [`tape`]: records, spans or the OTLP export in a compact form the
//!   JS layer builds its objects from (`logs()`, `spans()`, `exportOtlp()`).
//! - [`text_in`]: a long text (a snapshot) written into memory by JS.
//! - [`wall`]: the wall-clock time handed in with a request.
//! - [`json`]: every value that leaves, as JSON text, one function each.
//! - [`host`]: what the JS host provides: the wall clock and a random seed.
//! - `abort` and `allocator`: what std would bring, for the module built
//!   without it: a panic traps, and the heap is talc.

// Natively (under test) only the parts that need no JS host are built.
#![cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]

#[cfg(all(target_arch = "wasm32", not(feature = "std")))]
mod abort;
#[cfg(all(target_arch = "wasm32", not(feature = "std")))]
mod allocator;
#[cfg(all(feature = "boundary-bench", target_arch = "wasm32"))]
mod bench;
#[cfg(target_arch = "wasm32")]
mod exports;
#[cfg(target_arch = "wasm32")]
mod host;
#[cfg(target_arch = "wasm32")]
mod json;
#[cfg(target_arch = "wasm32")]
mod options;
mod plain;
mod scratch;
#[cfg(target_arch = "wasm32")]
mod tape;
#[cfg(target_arch = "wasm32")]
mod text_in;
mod wall;

#[cfg(target_arch = "wasm32")]
pub use exports::{RawPieces, RawRestoring, Service};
#[cfg(target_arch = "wasm32")]
pub use tape::RawTape;
