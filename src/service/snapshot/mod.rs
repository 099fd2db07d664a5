//! The snapshot: a whole service as JSON text, written and read by hand in
//! this folder. `read` builds the parsed state (`Parts`) and nothing else,
//! so checks of a restored state plug in after it. The format is the one
//! snapshots have always had (format 1); `maxOrders`, added later, is
//! optional and defaults as a new service's would.
//!
//! - `write`: the writer, whole or in pieces (`Writer`);
//! - `parts`: what a snapshot holds;
//! - `stream`: the one reader of the text, whole or in pieces;
//! - `read`: the small tree it leaves, and the rows, into `Parts`;
//! - `journal`, `read_back` and `counters`: the records, spans and
//!   counters of the observe layer, read back;
//! - `plans`: the payments that change later (`paymentPlans`);
//! - `webhooks`: the events, endpoints and deliveries (`events`,
//!   `webhooks`), once webhooks are on;
//! - `change_record`: a payment's change of state read back from its record;
//! - `fields`: the field helpers every reader here refuses with;
//! - `check`: what a restored state must hold to become a service.

pub(crate) mod attempt_record;
pub(crate) mod change_record;
pub mod check;
pub(crate) mod counters;
pub(crate) mod fields;
pub(crate) mod journal;
pub mod parts;
pub(crate) mod plans;
pub(crate) mod read;
pub(crate) mod read_back;
mod record_fields;
pub(crate) mod stream;
mod webhooks;
pub(crate) mod write;

pub use parts::{Parts, FORMAT};
pub(crate) use read::not_json;
pub use read::read;
pub use write::{settings, write};
pub(crate) use write::{View, Writer};
