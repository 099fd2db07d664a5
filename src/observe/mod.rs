//! What an operator sees: the log records of every request, its spans, and
//! their exports (NDJSON, OTLP/JSON). Written by the gateway; reads only
//! the layers below. Records and spans are kept compact (`Entry`,
//! `SpanEntry`) and written out as JSON text only when someone reads them
//! (`render`, `otlp`); `LogRecord` and `Span` are their readable forms.

pub mod counters;
pub mod entry;
pub mod event_class;
pub mod ids;
pub mod journal;
pub mod otlp;
pub mod payment_change;
pub mod payment_span;
#[cfg(feature = "serde")]
pub mod record;
pub mod render;
pub mod request_line;
pub mod span;
pub mod span_entry;
pub mod status;
pub mod tape;
pub mod trace;
pub mod unix_nanos;
pub mod utc;
pub mod webhook_attempt;

pub use counters::Counters;
pub use entry::{Answer, At, DueRecord, Entry, Extra, Kept};
pub use event_class::EventClass;
pub use ids::{SpanId, TraceId};
pub use journal::Journal;
#[cfg(feature = "serde")]
pub use record::{LogRecord, Stage};
pub use request_line::Call;
pub use span::Component;
#[cfg(feature = "serde")]
pub use span::Span;
pub use span_entry::{DueSpan, Mark, Part, SpanEntry, Why};
pub use status::LogStatus;
