//! orderpay: the order and payment service of the spec, as a library.
//!
//! The tree is laid out by layer, each importing only the layers below it:
//!
//! 1. [`sim`]: the simulated world, deterministic: clock, seeded
//!    randomness, latency, the third party that declines about 30% of
//!    payments, and the settings of all of it. Time and randomness are
//!    handed in, never reached for, so native tests are exact.
//! 2. [`domain`]: orders and payments, their state machines, money, ids
//!    and the documented business rejections.
//! 3. [`observe`]: the log records, the spans and their exports.
//! 4. [`gateway`]: the single entry point of the spec: the raw request
//!    parsed once at the edge, routed, answered as an envelope, every
//!    failure mapped to a status in one place, and the records written.
//! 5. [`service`]: a whole service one caller owns, with snapshots and the
//!    test-data runner (a client of the gateway, handed to it for its
//!    route).
//!
//! Below them all, [`json`] reads and writes JSON text by hand (request
//! bodies, snapshots, every answer), so no layer needs serde; it imports
//! nothing of the crate but the prelude (`tests/layers.rs` holds the order).
//!
//! Nothing here knows about WebAssembly or JavaScript; the `wasm` module
//! (built only for `wasm32`) is the thin binding that does. One exception,
//! for size: `json::number` asks the JS engine for the digits of the few
//! numbers it cannot find exactly, in the WebAssembly build only.
//!
//! The WebAssembly module is built without std: a panic there can only
//! trap anyway (see `wasm::abort`), so std's panic machinery, its
//! formatting of panic messages and its hook need not ride along. The
//! code reaches `core` and `alloc` by name, and a file that needs what
//! std's prelude would have brought starts with `use crate::prelude::*;`.
//! Natively, and in test binaries that link std (the `std` feature), the
//! crate keeps std.
//!
//! Two habits keep core's panic formatting out of that module, and look
//! odd without the reason: what input can reach is read with `get` and
//! iterators rather than indexed, and text is split on a one-character
//! array (`split(['/'])`), whose searcher needs no checked slicing, rather
//! than on a `char`.

#![cfg_attr(all(target_arch = "wasm32", not(feature = "std")), no_std)]

extern crate alloc;

pub mod domain;
pub mod gateway;
pub mod json;
pub mod observe;
pub mod prelude;
pub mod service;
pub mod sim;

// Natively only under test: the binding's plain parts and scratch region
// are tested by `cargo test`; the rest of it needs a JS host.
#[cfg(any(target_arch = "wasm32", test))]
pub mod wasm;

pub use gateway::{Data, Envelope, RawRequest, Response};
#[cfg(feature = "serde")]
pub use observe::LogRecord;
pub use service::Service;
pub use sim::Settings;
