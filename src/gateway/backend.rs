//! The state the gateway serves: the two services' records, the journal,
//! the clock, the randomness and the settings. The service layer above
//! owns one and hands it to the gateway for each request.

use crate::prelude::*;

use super::events::Events;
use super::idempotency::IdempotencyKeys;
use crate::domain::delivery::Deliveries;
use crate::domain::due::Due;
use crate::domain::webhook::Endpoints;
use crate::domain::{Orders, Payments};
use crate::observe::request_line::SpareCall;
use crate::observe::{Counters, Journal};
use crate::sim::clock::Clock;
use crate::sim::latency::{LatencyModel, Profile};
use crate::sim::scenario::Scenario;
use crate::sim::streams::Streams;
use crate::sim::third_party::Forced;
use crate::sim::Settings;

pub struct Backend {
    pub(crate) settings: Settings,
    pub(crate) clock: Box<dyn Clock>,
    pub(crate) streams: Streams,
    pub(crate) orders: Orders,
    pub(crate) payments: Payments,
    /// The work due on the service's clock (see `exchange::catch_up`).
    pub(crate) due: Due,
    pub(crate) journal: Journal,
    /// Counts over every request served, never bounded by the journal.
    pub(crate) counters: Counters,
    /// The outcome to force on the next payment attempts, and how many.
    pub(crate) forced_next: Option<(Forced, u32)>,
    /// The scenario in force, if one is set, and where it stands.
    pub(crate) scenario: Option<Scenario>,
    /// A request line's room, for the next request (see `SpareCall`).
    pub(crate) spare_call: SpareCall,
    /// The answers kept by `Idempotency-Key` (empty until a key is used).
    pub(crate) idempotency: IdempotencyKeys,
    /// Every state change, bounded (see `Events`).
    pub(crate) events: Events,
    /// The webhook endpoints (none until one is registered).
    pub(crate) endpoints: Endpoints,
    /// The deliveries of events to them, and their attempts.
    pub(crate) deliveries: Deliveries,
}

impl Backend {
    pub fn new(settings: Settings, clock: Box<dyn Clock>) -> Result<Backend, String> {
        settings.check()?;
        Ok(Backend {
            streams: Streams::new(settings.seed),
            journal: Journal::with_capacity(settings.log_capacity),
            counters: Counters::default(),
            orders: Orders::default(),
            payments: Payments::default(),
            due: Due::default(),
            forced_next: None,
            scenario: None,
            spare_call: SpareCall::default(),
            idempotency: IdempotencyKeys::default(),
            events: Events::default(),
            endpoints: Endpoints::default(),
            deliveries: Deliveries::default(),
            clock,
            settings,
        })
    }

    /// Uses up one forced outcome, if any is pending.
    pub(crate) fn take_forced_next(&mut self) -> Option<Forced> {
        let (outcome, left) = self.forced_next?;
        self.forced_next = (left > 1).then_some((outcome, left - 1));
        Some(outcome)
    }

    /// Spends one step's simulated time: draws it, moves the clock (a
    /// virtual one moves, a wall clock ignores it) and returns it.
    pub(crate) fn spend(&mut self, step: fn(&LatencyModel) -> Profile) -> u64 {
        let ms = step(&self.settings.latency).draw(&mut self.streams.latency);
        self.clock.advance(ms);
        ms
    }
}
