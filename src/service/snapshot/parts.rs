//! What a snapshot holds: the format's number, and everything a service
//! is (`Parts`), as read from a snapshot or copied for a cursor to write.

use crate::domain::delivery::Deliveries;
use crate::domain::webhook::Endpoints;
use crate::domain::{Orders, Payments};
use crate::gateway::events::Events;
use crate::gateway::idempotency::IdempotencyKeys;
use crate::gateway::Backend;
use crate::observe::{Counters, Journal};
use crate::sim::scenario::Scenario;
use crate::sim::streams::Streams;
use crate::sim::third_party::Forced;
use crate::sim::Settings;

pub const FORMAT: u64 = 1;

/// Everything a service is, as read from a snapshot.
pub struct Parts {
    pub settings: Settings,
    pub(crate) streams: Streams,
    pub orders: Orders,
    pub payments: Payments,
    pub journal: Journal,
    pub forced_next: Option<(Forced, u32)>,
    /// The virtual clock's time; absent for a wall clock.
    pub clock: Option<i64>,
    /// Absent in a snapshot written before the service kept counters.
    pub counters: Option<Counters>,
    /// The answers kept by `Idempotency-Key`; absent when there are none.
    pub idempotency: IdempotencyKeys,
    /// The scenario in force and where it stands; absent when none is.
    pub scenario: Option<Scenario>,
    /// The events, and whether webhooks are on (`events`, `webhooks`:
    /// absent while they are off).
    pub events: Events,
    pub endpoints: Endpoints,
    pub deliveries: Deliveries,
}

impl Parts {
    /// A copy of the service's state as it is now, for a cursor that
    /// writes it in pieces while the service goes on serving.
    pub(crate) fn copy_of(b: &Backend) -> Parts {
        Parts {
            settings: b.settings.clone(),
            streams: b.streams.clone(),
            orders: b.orders.clone(),
            payments: b.payments.clone(),
            journal: b.journal.clone(),
            forced_next: b.forced_next,
            clock: b.clock.saved(),
            counters: Some(b.counters.clone()),
            idempotency: b.idempotency.clone(),
            scenario: b.scenario.clone(),
            events: b.events.clone(),
            endpoints: b.endpoints.clone(),
            deliveries: b.deliveries.clone(),
        }
    }
}
