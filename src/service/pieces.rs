//! Long texts handed out a piece at a time (a snapshot, the NDJSON and
//! OTLP exports), so a page can write 100,000 records in slices short
//! enough to keep it responsive.
//!
//! A cursor never tears: when it is opened it takes a copy of what it
//! will write, in the compact form the service keeps (no text yet), and
//! writes every piece from that copy. Requests served between pieces,
//! records the log drops, even `clearLogs`, change the service and not the
//! cursor, so the pieces joined are exactly the one-shot text of the
//! moment the cursor was opened.

use crate::prelude::*;

use super::snapshot::{self, Parts, View};
use crate::gateway::Backend;
use crate::observe::entry::Entry;
use crate::observe::otlp;
use crate::observe::render;
use crate::observe::span_entry::SpanEntry;

/// A text being handed out in pieces, from its own frozen copy.
pub struct Pieces(Kind);

enum Kind {
    Snapshot(Box<Parts>, snapshot::Writer),
    Ndjson {
        records: Vec<Entry>,
        next: usize,
    },
    Otlp {
        spans: Vec<SpanEntry>,
        writer: otlp::Writer,
    },
}

impl Pieces {
    /// `snapshot()`'s text as it is now.
    pub(crate) fn snapshot(b: &Backend) -> Pieces {
        let parts = Box::new(Parts::copy_of(b));
        let writer = snapshot::Writer::new(&View::of_parts(&parts));
        Pieces(Kind::Snapshot(parts, writer))
    }

    /// `export_ndjson()`'s text as it is now.
    pub(crate) fn ndjson(b: &Backend) -> Pieces {
        Pieces(Kind::Ndjson {
            records: b.journal.entries(None).cloned().collect(),
            next: 0,
        })
    }

    /// `export_otlp_json()`'s text as it is now.
    pub(crate) fn otlp(b: &Backend) -> Pieces {
        let spans: Vec<SpanEntry> = b.journal.span_entries().cloned().collect();
        let writer = otlp::Writer::new(spans.iter());
        Pieces(Kind::Otlp { spans, writer })
    }

    /// The next piece, of at least `size` bytes (a row is never split)
    /// unless it is the last; `None` once the whole text has been handed
    /// out. A `size` of 0 is taken as 1.
    pub fn next(&mut self, size: usize) -> Option<String> {
        let size = size.max(1);
        match &mut self.0 {
            Kind::Snapshot(parts, writer) => writer.next(&View::of_parts(parts), size),
            Kind::Ndjson { records, next } => {
                let rest = records.get(*next..).filter(|rest| !rest.is_empty())?;
                let mut text = String::with_capacity(size.min(1 << 22) + 512);
                *next += render::ndjson_lines(&mut text, rest.iter(), size);
                Some(text)
            }
            Kind::Otlp { spans, writer } => writer.next(spans.iter(), size),
        }
    }

    /// How far the pieces handed out have got, from 0 to 1 (1 once done).
    pub fn progress(&self) -> f64 {
        match &self.0 {
            Kind::Snapshot(parts, writer) => writer.progress(&View::of_parts(parts)),
            Kind::Ndjson { records, next } => {
                if *next >= records.len() {
                    1.0
                } else {
                    *next as f64 / records.len() as f64
                }
            }
            Kind::Otlp { spans, writer } => {
                let total = spans.len() * writer.passes() + 1;
                if writer.is_done() {
                    1.0
                } else {
                    writer.spans_done() as f64 / total as f64
                }
            }
        }
    }
}
