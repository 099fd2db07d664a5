//! One service instance: the settings, the injected clock and randomness,
//! the two services' state and the journal. Instances share nothing, so
//! parallel tests never see each other's orders.

use serde::{Deserialize, Serialize};

use crate::clock::{Clock, VirtualClock};
use crate::envelope::Response;
use crate::gateway;
use crate::invalid::Invalid;
use crate::journal::{Journal, LogRecord};
use crate::latency::{LatencyModel, Profile};
use crate::order::Orders;
use crate::payment::Payments;
use crate::processor::Forced;
use crate::random::Rng;
use crate::request::RawRequest;
use crate::snapshot_check::{self, SNAPSHOT_FORMAT};
use crate::time_limits::{self, Bounded};

pub const DEFAULT_FAILURE_RATE: f64 = 0.3;
pub const DEFAULT_LOG_CAPACITY: usize = 10_000;
pub const MAX_LOG_CAPACITY: usize = 1_000_000;

/// What a caller may choose about a service.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Settings {
    pub seed: u64,
    /// The share of payment attempts the third party declines, 0 to 1.
    pub failure_rate: f64,
    /// The most log records kept; older ones are dropped and counted.
    pub log_capacity: usize,
    pub latency: LatencyModel,
}

impl Settings {
    pub fn with_seed(seed: u64) -> Settings {
        Settings {
            seed,
            failure_rate: DEFAULT_FAILURE_RATE,
            log_capacity: DEFAULT_LOG_CAPACITY,
            latency: LatencyModel::default(),
        }
    }

    /// Settings come from the caller's code, not from requests: a bad one
    /// is a programming error, reported as a message naming the option.
    pub fn check(&self) -> Result<(), String> {
        if !(0.0..=1.0).contains(&self.failure_rate) {
            return Err(format!(
                "failureRate: must be a number from 0 to 1, got {}",
                self.failure_rate
            ));
        }
        if self.log_capacity > MAX_LOG_CAPACITY {
            return Err(format!(
                "logCapacity: must be at most {MAX_LOG_CAPACITY}, got {}",
                self.log_capacity
            ));
        }
        Ok(())
    }
}

/// One random stream per purpose, so that, say, reading an order (which
/// draws a trace id) never changes the id of the next order created.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Streams {
    pub ids: Rng,
    pub traces: Rng,
    pub latency: Rng,
    pub batch: Rng,
}

impl Streams {
    fn new(seed: u64) -> Streams {
        Streams {
            ids: Rng::stream(seed, "ids"),
            traces: Rng::stream(seed, "traces"),
            latency: Rng::stream(seed, "latency"),
            batch: Rng::stream(seed, "batch"),
        }
    }
}

/// The borrowed twin of `State`, so that taking a snapshot copies nothing.
#[derive(Serialize)]
struct StateRef<'a> {
    format: u32,
    settings: &'a Settings,
    streams: &'a Streams,
    orders: &'a Orders,
    payments: &'a Payments,
    journal: &'a Journal,
    forced_next: Option<(Forced, u32)>,
    clock: Option<i64>,
}

/// Everything a service is, as one serializable value.
#[derive(Serialize, Deserialize)]
struct State {
    format: u32,
    settings: Settings,
    streams: Streams,
    orders: Orders,
    payments: Payments,
    journal: Journal,
    forced_next: Option<(Forced, u32)>,
    /// The virtual clock's time; absent for a wall clock.
    clock: Option<i64>,
}

pub struct Service {
    pub(crate) settings: Settings,
    pub(crate) clock: Box<dyn Clock>,
    pub(crate) streams: Streams,
    pub(crate) orders: Orders,
    pub(crate) payments: Payments,
    pub(crate) journal: Journal,
    /// The outcome to force on the next payment attempts, and how many.
    pub(crate) forced_next: Option<(Forced, u32)>,
}

impl Service {
    pub fn new(settings: Settings, clock: Box<dyn Clock>) -> Result<Service, String> {
        settings.check()?;
        Ok(Service {
            streams: Streams::new(settings.seed),
            journal: Journal::with_capacity(settings.log_capacity),
            orders: Orders::default(),
            payments: Payments::default(),
            forced_next: None,
            clock: Box::new(Bounded(clock)),
            settings,
        })
    }

    /// The whole state (orders, payments, journal, random streams, clock
    /// and settings) as compact JSON. Restoring it continues exactly as this
    /// service would have: the same next ids and outcomes.
    pub fn snapshot(&self) -> String {
        let state = StateRef {
            format: SNAPSHOT_FORMAT,
            settings: &self.settings,
            streams: &self.streams,
            orders: &self.orders,
            payments: &self.payments,
            journal: &self.journal,
            forced_next: self.forced_next,
            clock: self.clock.saved(),
        };
        serde_json::to_string(&state).unwrap_or_default()
    }

    /// A service from a snapshot. A snapshot taken under a virtual clock
    /// brings its clock along; otherwise `wall` tells the time. Damaged
    /// text is refused with the first bad field named (see
    /// `snapshot_check`), never turned into a service that cannot answer.
    pub fn restore(snapshot: &str, wall: Box<dyn Clock>) -> Result<Service, Invalid> {
        let state: State = serde_json::from_str(snapshot)
            .map_err(|e| snapshot_check::parse_error(snapshot, &e))?;
        snapshot_check::check(&snapshot_check::Parts {
            format: state.format,
            settings: &state.settings,
            orders: &state.orders,
            payments: &state.payments,
            journal: &state.journal,
            forced_next: state.forced_next,
            clock: state.clock,
        })?;
        let clock: Box<dyn Clock> = match state.clock {
            Some(now) => Box::new(VirtualClock::starting_at(now)),
            None => wall,
        };
        Ok(Service {
            settings: state.settings,
            clock: Box::new(Bounded(clock)),
            streams: state.streams,
            orders: state.orders,
            payments: state.payments,
            journal: state.journal,
            forced_next: state.forced_next,
        })
    }

    /// The next `count` payment attempts get `outcome`, whatever the draw
    /// says (an `X-Sim-Outcome` header still wins for its own request).
    /// A count of 0 clears the instruction.
    pub fn force_next(&mut self, outcome: Forced, count: u32) {
        self.forced_next = (count > 0).then_some((outcome, count));
    }

    /// The forced outcome still to come, and how many attempts it covers.
    pub fn forced_next(&self) -> Option<(Forced, u32)> {
        self.forced_next
    }

    pub(crate) fn take_forced_next(&mut self) -> Option<Forced> {
        let (outcome, left) = self.forced_next?;
        self.forced_next = (left > 1).then_some((outcome, left - 1));
        Some(outcome)
    }

    /// The spans of the requests, oldest first.
    pub fn spans(&self) -> Vec<crate::trace::Span> {
        self.journal.spans().cloned().collect()
    }

    /// The spans as an OTLP/JSON `ExportTraceServiceRequest`.
    pub fn export_otlp(&self) -> serde_json::Value {
        crate::otlp::export(self.journal.spans())
    }

    /// The log records as NDJSON.
    pub fn export_ndjson(&self) -> String {
        self.journal.ndjson()
    }

    /// Moves the clock on by `ms` (a virtual clock; a wall clock ignores it).
    pub fn advance(&mut self, ms: u64) {
        self.clock.advance(ms);
    }

    /// `advance` for a caller's number: a whole number of ms, 0 or more,
    /// that keeps the clock within the times a JS `Date` holds; anything
    /// else is refused and the clock stays where it was.
    pub fn try_advance(&mut self, ms: f64) -> Result<(), Invalid> {
        let step = time_limits::advance_by(self.clock.saved(), ms)?;
        self.clock.advance(step);
        Ok(())
    }

    /// The service's current time, Unix ms.
    pub fn now(&mut self) -> i64 {
        self.clock.now_ms()
    }

    /// The whole service in one call: never fails, every problem is an
    /// envelope.
    pub fn handle(&mut self, request: RawRequest) -> Response {
        gateway::exchange(self, request).response
    }

    /// Log records, oldest first; with `after`, only those newer than it.
    pub fn logs(&self, after: Option<u64>) -> Vec<LogRecord> {
        self.journal.records(after).cloned().collect()
    }

    pub fn journal(&self) -> &Journal {
        &self.journal
    }

    pub fn clear_logs(&mut self) {
        self.journal.clear();
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    pub fn orders(&self) -> &Orders {
        &self.orders
    }

    pub fn payments(&self) -> &Payments {
        &self.payments
    }

    /// Spends one step's simulated time: draws it, moves the clock (a
    /// virtual one moves, a wall clock ignores it) and returns it.
    pub(crate) fn spend(&mut self, step: fn(&LatencyModel) -> Profile) -> u64 {
        let ms = step(&self.settings.latency).draw(&mut self.streams.latency);
        self.clock.advance(ms);
        ms
    }
}
