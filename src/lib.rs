//! orderpay: the order and payment service of the spec, as a library.
//!
//! The tree reads from the outside in:
//!
//! - [`service`] is the whole service one caller owns: state, settings,
//!   clock and randomness, behind one `handle` call.
//! - [`gateway`] is the single entry point of the spec: it parses the raw
//!   request once, routes it, writes the log records and shapes the reply.
//! - [`route`] knows the eight documented routes, and what to say about
//!   a path that is none of them.
//! - [`order`] and [`payment`] are the two services and their state machines;
//!   [`processor`] is the simulated third party that fails about 30% of payments.
//! - [`batch`] is the test-data endpoint, which drives the other two.
//! - [`journal`] keeps the log records; [`trace`] makes and checks trace ids.
//! - [`request`] and [`error`] are the edges: raw text parsed into valid
//!   values, and every failure mapped to a status and an envelope.
//! - [`clock`] and [`random`] are handed in, never reached for, so the core
//!   is deterministic and native tests are exact.
//!
//! Nothing here knows about WebAssembly or JavaScript; the `wasm` module
//! (built only for `wasm32`) is the thin binding that does.

pub mod batch;
pub mod clock;
pub mod envelope;
pub mod error;
pub mod gateway;
pub mod id;
pub mod invalid;
pub mod journal;
pub mod json_path;
pub mod latency;
pub mod money;
pub mod order;
pub mod otlp;
pub mod payment;
pub mod processor;
pub mod random;
pub mod request;
pub mod route;
pub mod service;
pub mod snapshot_check;
pub mod time_limits;
pub mod trace;

#[cfg(target_arch = "wasm32")]
pub mod wasm;

pub use envelope::{Data, Envelope, Response};
pub use journal::LogRecord;
pub use request::RawRequest;
pub use service::{Service, Settings};
