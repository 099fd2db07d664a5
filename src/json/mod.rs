//! JSON by hand, small and exact: a reader for request bodies, settings
//! and snapshots, and a writer for everything the service hands out
//! (envelopes, log records, spans, NDJSON, OTLP, snapshots). The bottom
//! layer, below `sim`: it imports nothing else of the crate but `prelude`.
//!
//! - [`read`]: text into a borrowed tree, with the error messages and the
//!   depth limit callers see in a 400;
//! - [`flat`]: the one-pass read of a flat request body, falling back
//!   to [`read`] for anything else;
//! - [`write`](mod@write): escaping, numbers, and a builder for objects and arrays;
//! - [`number`]: doubles as text and back, without core's float machinery;
//! - [`message`]: refusal messages built piece by piece, without
//!   `core::fmt`, and the quoted samples of input they show;
//! - [`char_class`]: which characters those samples escape and which are
//!   letters or digits, from one small table instead of core's Unicode
//!   tables.

pub mod char_class;
mod char_table;
pub mod flat;
pub mod message;
pub mod number;
pub mod read;
pub mod write;

pub use read::{parse, Json, ReadError};
pub use write::Out;
