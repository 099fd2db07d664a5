//! The log records of the spec's part 6, kept in a bounded ring: three per
//! request (gateway, service, response), joined by the trace id; and the
//! spans of each request, for tracing tools. Both are kept compact and
//! written out as JSON text only when read.

use crate::prelude::*;

use alloc::collections::VecDeque;

use super::entry::{At, Entry, Kept};
use super::ids::TraceId;
use super::render;
use super::request_line::SpareCall;
use super::span_entry::{Part, SpanEntry};

/// A bounded journal: at most `capacity` records, the oldest dropped first,
/// and a count of how many were dropped so nobody mistakes it for complete.
#[derive(Debug, Clone, PartialEq)]
pub struct Journal {
    pub(crate) capacity: usize,
    pub(crate) records: VecDeque<Entry>,
    pub(crate) dropped: u64,
    pub(crate) next_seq: u64,
    /// Spans, under the same bound as the records.
    pub(crate) spans: VecDeque<SpanEntry>,
}

impl Journal {
    pub fn with_capacity(capacity: usize) -> Self {
        Journal {
            capacity,
            records: VecDeque::new(),
            dropped: 0,
            next_seq: 1,
            spans: VecDeque::new(),
        }
    }

    pub fn write(&mut self, timestamp: i64, at: At, stage: Kept) {
        let seq = self.next_seq;
        self.next_seq += 1;
        if self.capacity == 0 {
            self.dropped += 1;
            return;
        }
        let entry = Entry {
            seq,
            timestamp,
            trace: at.trace,
            span: at.span,
            parent: at.parent,
            stage,
        };
        self.dropped += push_bounded(&mut self.records, self.capacity, entry, |_| ());
    }

    /// Counts a record as written and at once dropped, as `write` would
    /// have dropped it before anyone could read it: for a record that
    /// later ones of the same call are sure to push out of the ring.
    pub fn pass(&mut self) {
        self.next_seq += 1;
        self.dropped += 1;
    }

    /// Keeps a span; the request line of the span it pushes out, when
    /// that was its last holder, becomes `spare` (spans outlive their
    /// request's records: there are fewer of them a request, in a ring as
    /// long).
    pub fn record_span(&mut self, span: SpanEntry, spare: &mut SpareCall) {
        if self.capacity == 0 {
            return;
        }
        push_bounded(&mut self.spans, self.capacity, span, |gone| {
            if let Part::Gateway { call, .. } | Part::Service { call, .. } = &gone.part {
                spare.keep(call);
            }
        });
    }

    /// The records, oldest first; with `after`, only those with a larger
    /// `seq` (what a viewer has not seen yet), found by binary search.
    pub fn entries(&self, after: Option<u64>) -> alloc::collections::vec_deque::Iter<'_, Entry> {
        let after = after.unwrap_or(0);
        let skip = self.records.partition_point(|r| r.seq <= after);
        // Stepped past rather than `range(skip..)`, whose bounds check
        // keeps core's panic formatting in the module.
        let mut entries = self.records.iter();
        if let Some(last_skipped) = skip.checked_sub(1) {
            entries.nth(last_skipped);
        }
        entries
    }

    /// The records as a JSON array, the form `logs()` returns.
    pub fn records_json(&self, after: Option<u64>) -> String {
        let entries = self.entries(after);
        let count = entries.len();
        render::records(entries, count)
    }

    /// At most `limit` records after `after`, as a JSON array, with how
    /// many they are and the `seq` of the last (`None` when there is
    /// none): one page of the live stream.
    pub fn records_page_json(
        &self,
        after: Option<u64>,
        limit: usize,
    ) -> (usize, Option<u64>, String) {
        let page = self.entries(after).take(limit);
        let last = page.clone().next_back().map(|r| r.seq);
        let count = page.len();
        (count, last, render::records(page, count))
    }

    /// The records as NDJSON, one JSON object a line, as log shippers
    /// (Vector, Fluent Bit, Loki's promtail) read them.
    pub fn ndjson(&self) -> String {
        render::ndjson(self.records.iter(), self.records.len())
    }

    /// The spans, oldest first.
    pub fn span_entries(&self) -> alloc::collections::vec_deque::Iter<'_, SpanEntry> {
        self.spans.iter()
    }

    /// The spans as a JSON array, the form `spans()` returns.
    pub fn spans_json(&self) -> String {
        render::spans(self.spans.iter(), self.spans.len())
    }

    /// The spans of one trace, oldest first, as a JSON array: what
    /// `spans()` holds of it, found here rather than by each reader.
    pub fn trace_spans_json(&self, trace: TraceId) -> String {
        let of = |s: &&SpanEntry| s.trace == trace;
        let count = self.spans.iter().filter(of).count();
        render::spans(self.spans.iter().filter(of), count)
    }

    /// The spans as an OTLP/JSON `ExportTraceServiceRequest`.
    pub fn otlp_json(&self) -> String {
        super::otlp::export(self.spans.iter(), self.spans.len())
    }

    pub fn len(&self) -> usize {
        self.records.len()
    }

    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// The `seq` the next record gets.
    pub fn next_seq(&self) -> u64 {
        self.next_seq
    }

    /// Empties the journal and its dropped count; `seq` keeps counting so a
    /// viewer polling with `after` is never confused by a reused number.
    pub fn clear(&mut self) {
        self.records.clear();
        self.spans.clear();
        self.dropped = 0;
    }
}

/// Adds `item` at the back of a ring of at most `bound` items (`bound` at
/// least 1); returns how many of the oldest it let go, each shown to
/// `leaving` just before. A full ring gets its buffer cut to exactly
/// `bound` once; from then on the oldest slot is overwritten in place and
/// the ring turned one step, which moves no other item, rather than an
/// item popped, dropped and pushed.
fn push_bounded<T>(
    ring: &mut VecDeque<T>,
    bound: usize,
    item: T,
    mut leaving: impl FnMut(&T),
) -> u64 {
    // Most writes find the ring full and already cut to its bound.
    if ring.len() == bound && ring.capacity() == bound {
        if let Some(oldest) = ring.front_mut() {
            leaving(oldest);
            *oldest = item;
            ring.rotate_left(1);
            return 1;
        }
    }
    if ring.len() < bound {
        ring.push_back(item);
        return 0;
    }
    let mut gone = 0;
    while ring.len() > bound {
        if let Some(oldest) = ring.front() {
            leaving(oldest);
        }
        ring.pop_front();
        gone += 1;
    }
    if ring.capacity() != bound {
        ring.shrink_to(bound);
    }
    match ring.front_mut() {
        Some(oldest) => {
            leaving(oldest);
            *oldest = item;
            ring.rotate_left(1);
        }
        None => ring.push_back(item),
    }
    gone + 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::observe::ids::{SpanId, TraceId};
    use crate::observe::{EventClass, LogStatus};

    fn at() -> At {
        At {
            trace: TraceId::parse("463ac35c9f6413ad").unwrap_or_else(|| unreachable!()),
            span: SpanId(0x00f0_67aa_0ba9_02b7),
            parent: None,
        }
    }

    fn service_stage() -> Kept {
        Kept::Service {
            event_class: EventClass::Order,
            duration: 3,
            status: LogStatus::Success,
            outcome: None,
        }
    }

    fn seqs(j: &Journal, after: Option<u64>) -> Vec<u64> {
        j.entries(after).map(|r| r.seq).collect()
    }

    #[test]
    fn keeps_at_most_capacity_drops_oldest_and_counts() {
        let mut j = Journal::with_capacity(3);
        for t in 0..5 {
            j.write(t, at(), service_stage());
        }
        assert_eq!(seqs(&j, None), vec![3, 4, 5]);
        assert_eq!(j.dropped(), 2);
        assert_eq!(j.len(), 3);
    }

    #[test]
    fn a_full_ring_overwrites_its_oldest_in_place_and_keeps_order() {
        for bound in [1, 2, 3, 7] {
            let mut ring = VecDeque::new();
            let mut gone = 0;
            let mut left = Vec::new();
            for n in 0..20u32 {
                gone += push_bounded(&mut ring, bound, n, |old| left.push(*old));
                let kept = (n + 1).min(bound as u32);
                let expected: Vec<u32> = (n + 1 - kept..=n).collect();
                assert_eq!(ring.iter().copied().collect::<Vec<_>>(), expected);
                assert_eq!(gone, u64::from(n + 1 - kept));
                // Each item let go was shown first, oldest first.
                assert_eq!(left, (0..n + 1 - kept).collect::<Vec<_>>());
            }
            assert_eq!(ring.capacity(), bound);
        }
        // A ring over its bound (a smaller capacity set on a fuller
        // journal) comes down to it.
        let mut ring: VecDeque<u32> = (0..10).collect();
        let mut left = Vec::new();
        assert_eq!(push_bounded(&mut ring, 4, 10, |old| left.push(*old)), 7);
        assert_eq!(left, (0..7).collect::<Vec<_>>());
        assert_eq!(ring.iter().copied().collect::<Vec<_>>(), vec![7, 8, 9, 10]);
    }

    #[test]
    fn a_span_pushed_out_leaves_its_line_spare_when_it_was_the_last_holder() {
        use crate::observe::{Call, Part, SpanEntry};
        use alloc::borrow::Cow;
        use alloc::rc::Rc;
        let call = |uri: &'static str| Call {
            method: Cow::Borrowed("GET"),
            uri: Cow::Borrowed(uri),
            template: None,
            user_id: None,
        };
        let line = |uri| call(uri).shared();
        let span = |call: &Rc<Call>| SpanEntry {
            trace: at().trace,
            span: at().span,
            parent: None,
            start: 0,
            end: 1,
            status: LogStatus::Success,
            part: Part::Service {
                call: Rc::clone(call),
                class: EventClass::Order,
            },
        };
        let mut j = Journal::with_capacity(1);
        let mut spare = SpareCall::default();
        let (first, second) = (line("/a"), line("/b"));
        j.record_span(span(&first), &mut spare);
        // Still held here: pushed out, it is only let go.
        j.record_span(span(&second), &mut spare);
        assert_eq!(spare.kept(), 0);
        let room = Rc::as_ptr(&second);
        drop((first, second));
        j.record_span(span(&line("/c")), &mut spare);
        assert_eq!(spare.kept(), 1);
        let reused = call("/d").shared_in(&mut spare);
        assert_eq!(Rc::as_ptr(&reused), room);
        assert_eq!(*reused, call("/d"));
    }

    #[test]
    fn records_after_a_seq_are_only_the_newer_ones() {
        let mut j = Journal::with_capacity(10);
        for t in 0..4 {
            j.write(t, at(), service_stage());
        }
        assert_eq!(seqs(&j, Some(2)), vec![3, 4]);
        assert_eq!(j.entries(Some(99)).count(), 0);
    }

    #[test]
    fn clear_empties_but_seq_keeps_counting() {
        let mut j = Journal::with_capacity(1);
        j.write(0, at(), service_stage());
        j.write(0, at(), service_stage());
        j.clear();
        assert!(j.is_empty());
        assert_eq!(j.dropped(), 0);
        j.write(0, at(), service_stage());
        assert_eq!(seqs(&j, None), vec![3]);
    }

    #[test]
    fn a_record_is_written_with_the_spec_field_names() {
        let mut j = Journal::with_capacity(2);
        j.write(5, at(), service_stage());
        let expected = r#"{"seq":1,"timestamp":5,"traceId":"463ac35c9f6413ad","spanId":"00f067aa0ba902b7","parentSpanId":null,"stage":"service","event_class":"order","duration":3,"status":"success"}"#;
        assert_eq!(j.records_json(None), format!("[{expected}]"));
        // NDJSON adds the time as log stores index it, first.
        let line = r#"{"@timestamp":"1970-01-01T00:00:00.005Z","seq":1"#;
        assert_eq!(j.ndjson(), format!("{line}{}\n", &expected[8..]));
    }
}
