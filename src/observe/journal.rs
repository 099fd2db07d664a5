//! The log records of the spec's part 6, kept in a bounded ring: three per
//! request (gateway, service, response), joined by the trace id; and the
//! spans of each request, for tracing tools.

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

use super::record::{LogRecord, Place, Stage};
use super::span::Span;

/// A bounded journal: at most `capacity` records, the oldest dropped first,
/// and a count of how many were dropped so nobody mistakes it for complete.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Journal {
    capacity: usize,
    records: VecDeque<LogRecord>,
    dropped: u64,
    next_seq: u64,
    /// Spans, under the same bound as the records.
    spans: VecDeque<Span>,
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

    pub fn write(&mut self, timestamp: i64, place: Place, stage: Stage) {
        if self.capacity == 0 {
            self.dropped += 1;
            self.next_seq += 1;
            return;
        }
        while self.records.len() >= self.capacity {
            self.records.pop_front();
            self.dropped += 1;
        }
        let seq = self.next_seq;
        self.next_seq += 1;
        self.records.push_back(LogRecord {
            seq,
            timestamp,
            trace_id: place.trace_id.to_owned(),
            span_id: place.span_id.to_owned(),
            parent_span_id: place.parent_span_id.map(str::to_owned),
            stage,
        });
    }

    pub fn record_span(&mut self, span: Span) {
        if self.capacity == 0 {
            return;
        }
        while self.spans.len() >= self.capacity {
            self.spans.pop_front();
        }
        self.spans.push_back(span);
    }

    /// The spans, oldest first.
    pub fn spans(&self) -> impl Iterator<Item = &Span> + Clone {
        self.spans.iter()
    }

    /// The records as NDJSON, one JSON object a line, as log shippers
    /// (Vector, Fluent Bit, Loki's promtail) read them.
    pub fn ndjson(&self) -> String {
        self.records
            .iter()
            .filter_map(|r| serde_json::to_string(r).ok())
            .fold(String::new(), |mut out, line| {
                out.push_str(&line);
                out.push('\n');
                out
            })
    }

    /// The records, oldest first; with `after`, only those with a larger
    /// `seq` (what a viewer has not seen yet).
    pub fn records(&self, after: Option<u64>) -> impl Iterator<Item = &LogRecord> {
        let after = after.unwrap_or(0);
        let skip = self.records.partition_point(|r| r.seq <= after);
        self.records.iter().skip(skip)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::observe::{EventClass, LogStatus};

    const PLACE: Place = Place {
        trace_id: "t",
        span_id: "s",
        parent_span_id: None,
    };

    fn service_stage() -> Stage {
        Stage::Service {
            event_class: EventClass::Order,
            duration: 3,
            status: LogStatus::Success,
            outcome: None,
        }
    }

    #[test]
    fn keeps_at_most_capacity_drops_oldest_and_counts() {
        let mut j = Journal::with_capacity(3);
        for t in 0..5 {
            j.write(t, PLACE, service_stage());
        }
        let seqs: Vec<u64> = j.records(None).map(|r| r.seq).collect();
        assert_eq!(seqs, vec![3, 4, 5]);
        assert_eq!(j.dropped(), 2);
        assert_eq!(j.len(), 3);
    }

    #[test]
    fn records_after_a_seq_are_only_the_newer_ones() {
        let mut j = Journal::with_capacity(10);
        for t in 0..4 {
            j.write(t, PLACE, service_stage());
        }
        let seqs: Vec<u64> = j.records(Some(2)).map(|r| r.seq).collect();
        assert_eq!(seqs, vec![3, 4]);
        assert_eq!(j.records(Some(99)).count(), 0);
    }

    #[test]
    fn clear_empties_but_seq_keeps_counting() {
        let mut j = Journal::with_capacity(1);
        j.write(0, PLACE, service_stage());
        j.write(0, PLACE, service_stage());
        j.clear();
        assert!(j.is_empty());
        assert_eq!(j.dropped(), 0);
        j.write(0, PLACE, service_stage());
        assert_eq!(j.records(None).map(|r| r.seq).collect::<Vec<_>>(), vec![3]);
    }

    #[test]
    fn a_record_serializes_with_the_spec_field_names() {
        let mut j = Journal::with_capacity(2);
        j.write(
            5,
            Place {
                trace_id: "abc",
                span_id: "00f067aa0ba902b7",
                parent_span_id: None,
            },
            Stage::Gateway {
                method: "GET".into(),
                uri: "/api/order/X".into(),
                uri_group: Some("/order/*".into()),
            },
        );
        let json = serde_json::to_value(j.records(None).next()).unwrap_or_default();
        assert_eq!(
            json,
            serde_json::json!({"seq":1,"timestamp":5,"traceId":"abc","spanId":"00f067aa0ba902b7",
                "parentSpanId":null,"stage":"gateway","method":"GET","uri":"/api/order/X","uri_group":"/order/*"})
        );
        let ndjson = j.ndjson();
        assert!(ndjson.ends_with('\n') && ndjson.lines().count() == 1);
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(&ndjson).ok(),
            Some(json)
        );
    }
}
