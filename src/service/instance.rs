//! One service instance: the settings, the injected clock and randomness,
//! the two services' state and the journal. Instances share nothing, so
//! parallel tests never see each other's orders.

use serde::{Deserialize, Serialize};

use super::snapshot_check::{self, SNAPSHOT_FORMAT};
use super::testdata;
use crate::domain::{Orders, Payments};
use crate::gateway::{exchange, Backend, RawRequest, Response};
use crate::json::{self, Out};
use crate::observe::{restore, Journal, LogRecord, Span};
use crate::sim::clock::{Clock, VirtualClock};
use crate::sim::invalid::Invalid;
use crate::sim::streams::Streams;
use crate::sim::third_party::Forced;
use crate::sim::time_limits::{self, Bounded};
use crate::sim::Settings;

/// The borrowed twin of `State` without its journal, so that taking a
/// snapshot copies nothing; the journal writes itself.
#[derive(Serialize)]
struct StateRef<'a> {
    format: u32,
    settings: &'a Settings,
    streams: &'a Streams,
    orders: &'a Orders,
    payments: &'a Payments,
}

/// Everything a service is but its journal, as one serializable value.
#[derive(Deserialize)]
struct State {
    format: u32,
    settings: Settings,
    streams: Streams,
    orders: Orders,
    payments: Payments,
    forced_next: Option<(Forced, u32)>,
    /// The virtual clock's time; absent for a wall clock.
    clock: Option<i64>,
}

/// One service: the backend the gateway serves, and the calls a caller
/// makes around requests (snapshots, forcing, the clock, the log).
pub struct Service {
    pub(crate) backend: Backend,
}

impl Service {
    pub fn new(settings: Settings, clock: Box<dyn Clock>) -> Result<Service, String> {
        Backend::new(settings, Box::new(Bounded(clock))).map(|backend| Service { backend })
    }

    /// The whole state (orders, payments, journal, random streams, clock
    /// and settings) as compact JSON. Restoring it continues exactly as this
    /// service would have: the same next ids and outcomes.
    pub fn snapshot(&self) -> String {
        let b = &self.backend;
        let state = StateRef {
            format: SNAPSHOT_FORMAT,
            settings: &b.settings,
            streams: &b.streams,
            orders: &b.orders,
            payments: &b.payments,
        };
        let head = serde_json::to_string(&state).unwrap_or_default();
        let mut out = Out::with_capacity(head.len() + b.journal.len() * 300 + 64);
        out.text.push_str(head.strip_suffix('}').unwrap_or(&head));
        out.text.push(',');
        out.key("journal");
        b.journal.write_snapshot(&mut out);
        out.key("forced_next");
        match b.forced_next {
            Some((outcome, count)) => {
                out.begin_array();
                out.plain(outcome.as_str());
                out.uint(u64::from(count));
                out.end_array();
            }
            None => out.null(),
        }
        out.key("clock");
        match b.clock.saved() {
            Some(now) => out.int(now),
            None => out.null(),
        }
        out.text.push('}');
        out.text
    }

    /// A service from a snapshot. A snapshot taken under a virtual clock
    /// brings its clock along; otherwise `wall` tells the time. Damaged
    /// text is refused with the first bad field named (see
    /// `snapshot_check`), never turned into a service that cannot answer.
    pub fn restore(snapshot: &str, wall: Box<dyn Clock>) -> Result<Service, Invalid> {
        let state: State = serde_json::from_str(snapshot)
            .map_err(|e| snapshot_check::parse_error(snapshot, &e))?;
        let tree =
            json::parse(snapshot).map_err(|e| snapshot_check::not_a_snapshot(&e.to_string()))?;
        let journal = tree
            .get("journal")
            .ok_or_else(|| "missing field `journal`".to_owned())
            .and_then(restore::journal)
            .map_err(|e| snapshot_check::journal_error(&e))?;
        snapshot_check::check(&snapshot_check::Parts {
            format: state.format,
            settings: &state.settings,
            orders: &state.orders,
            payments: &state.payments,
            journal: &journal,
            forced_next: state.forced_next,
            clock: state.clock,
        })?;
        let clock: Box<dyn Clock> = match state.clock {
            Some(now) => Box::new(VirtualClock::starting_at(now)),
            None => wall,
        };
        Ok(Service {
            backend: Backend {
                settings: state.settings,
                clock: Box::new(Bounded(clock)),
                streams: state.streams,
                orders: state.orders,
                payments: state.payments,
                journal,
                forced_next: state.forced_next,
            },
        })
    }

    /// The next `count` payment attempts get `outcome`, whatever the draw
    /// says (an `X-Sim-Outcome` header still wins for its own request).
    /// A count of 0 clears the instruction.
    pub fn force_next(&mut self, outcome: Forced, count: u32) {
        self.backend.forced_next = (count > 0).then_some((outcome, count));
    }

    /// The forced outcome still to come, and how many attempts it covers.
    pub fn forced_next(&self) -> Option<(Forced, u32)> {
        self.backend.forced_next
    }

    /// The spans of the requests, oldest first, in their readable form.
    pub fn spans(&self) -> Vec<Span> {
        serde_json::from_str(&self.spans_json()).unwrap_or_default()
    }

    /// The spans as a JSON array.
    pub fn spans_json(&self) -> String {
        self.backend.journal.spans_json()
    }

    /// The spans as an OTLP/JSON `ExportTraceServiceRequest`.
    pub fn export_otlp(&self) -> serde_json::Value {
        serde_json::from_str(&self.export_otlp_json()).unwrap_or_default()
    }

    /// The spans as OTLP/JSON text.
    pub fn export_otlp_json(&self) -> String {
        self.backend.journal.otlp_json()
    }

    /// The log records as NDJSON.
    pub fn export_ndjson(&self) -> String {
        self.backend.journal.ndjson()
    }

    /// Moves the clock on by `ms` (a virtual clock; a wall clock ignores it).
    pub fn advance(&mut self, ms: u64) {
        self.backend.clock.advance(ms);
    }

    /// `advance` for a caller's number: a whole number of ms, 0 or more,
    /// that keeps the clock within the times a JS `Date` holds; anything
    /// else is refused and the clock stays where it was.
    pub fn try_advance(&mut self, ms: f64) -> Result<(), Invalid> {
        let step = time_limits::advance_by(self.backend.clock.saved(), ms)?;
        self.backend.clock.advance(step);
        Ok(())
    }

    /// The service's current time, Unix ms.
    pub fn now(&mut self) -> i64 {
        self.backend.clock.now_ms()
    }

    /// The whole service in one call: never fails, every problem is an
    /// envelope.
    pub fn handle(&mut self, request: RawRequest) -> Response {
        exchange::exchange(&mut self.backend, request, testdata::run).response
    }

    /// Log records, oldest first; with `after`, only those newer than it.
    pub fn logs(&self, after: Option<u64>) -> Vec<LogRecord> {
        serde_json::from_str(&self.logs_json(after)).unwrap_or_default()
    }

    /// The log records as a JSON array; with `after`, only newer ones.
    pub fn logs_json(&self, after: Option<u64>) -> String {
        self.backend.journal.records_json(after)
    }

    pub fn journal(&self) -> &Journal {
        &self.backend.journal
    }

    pub fn clear_logs(&mut self) {
        self.backend.journal.clear();
    }

    pub fn settings(&self) -> &Settings {
        &self.backend.settings
    }

    pub fn orders(&self) -> &Orders {
        &self.backend.orders
    }

    pub fn payments(&self) -> &Payments {
        &self.backend.payments
    }
}
