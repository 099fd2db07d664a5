//! What an operator sees: the log records of every request, its spans, and
//! their exports (NDJSON, OTLP/JSON). Written by the gateway; reads only
//! the layers below.

pub mod event_class;
pub mod journal;
pub mod otlp;
pub mod record;
pub mod span;
pub mod status;
pub mod trace;

pub use event_class::EventClass;
pub use journal::Journal;
pub use record::{LogRecord, Place, Stage};
pub use span::{Component, Span};
pub use status::LogStatus;
