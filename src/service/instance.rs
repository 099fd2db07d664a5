//! One service instance: the settings, the injected clock and randomness,
//! the two services' state and the journal. Instances share nothing, so
//! parallel tests never see each other's orders.

use crate::prelude::*;

use super::snapshot::{self, Parts};
use super::snapshot::{check, stream};
use super::{testdata, Pieces};
use crate::domain::code::Code;
use crate::domain::event_id::event_seq;
use crate::domain::money::Money;
use crate::domain::order::PREFIX;
use crate::domain::payment_changes::{not_awaiting_text, NotAwaiting};
use crate::domain::{Orders, Payment, Payments};
use crate::gateway::events::{Events, Sources};
use crate::gateway::idempotency::IdempotencyKeys;
use crate::gateway::{exchange, scenario, Backend, RawRequest, Response};
use crate::json::message::{msg, Q};
use crate::json::Out;
use crate::observe::request_line::SpareCall;
use crate::observe::tape::Written;
use crate::observe::{otlp, render, Counters, Journal};
#[cfg(feature = "serde")]
use crate::observe::{LogRecord, Span};
use crate::sim::clock::{Clock, VirtualClock};
use crate::sim::invalid::Invalid;
use crate::sim::scenario::document::OUTCOME_WORDS;
use crate::sim::scenario::Outcome;
use crate::sim::third_party::Forced;
use crate::sim::time_limits::{self, Bounded};
use crate::sim::Settings;

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
        snapshot::write(&self.backend)
    }

    /// `snapshot()` in pieces, for a caller that must not block: the
    /// pieces joined are the text `snapshot()` returns now, whatever this
    /// service serves meanwhile (see `Pieces`).
    pub fn snapshot_pieces(&self) -> Pieces {
        Pieces::snapshot(&self.backend)
    }

    /// `export_ndjson()` in pieces, fixed as it is now.
    pub fn ndjson_pieces(&self) -> Pieces {
        Pieces::ndjson(&self.backend)
    }

    /// `export_otlp_json()` in pieces, fixed as it is now.
    pub fn otlp_pieces(&self) -> Pieces {
        Pieces::otlp(&self.backend)
    }

    /// A service from a snapshot. A snapshot taken under a virtual clock
    /// brings its clock along; otherwise `wall` tells the time. Damaged
    /// text is refused with the first bad field named (see `snapshot` and
    /// `snapshot::check`), never turned into a service that cannot answer.
    pub fn restore(text: &str, wall: Box<dyn Clock>) -> Result<Service, Invalid> {
        Service::from_parts(stream::read_whole(text)?, wall)
    }

    /// A service from a snapshot's parts, once they pass every check.
    pub(crate) fn from_parts(parts: Parts, wall: Box<dyn Clock>) -> Result<Service, Invalid> {
        check::check(&parts)?;
        Ok(Service::from_checked(parts, wall))
    }

    /// `from_parts` once `snapshot::check` has passed (a restore done in
    /// steps checks a share at a time).
    pub(crate) fn from_checked(parts: Parts, wall: Box<dyn Clock>) -> Service {
        let clock: Box<dyn Clock> = match parts.clock {
            Some(now) => Box::new(VirtualClock::starting_at(now)),
            None => wall,
        };
        // An older snapshot: counted again from the records it holds.
        let counters = parts
            .counters
            .unwrap_or_else(|| Counters::rebuild(&parts.journal));
        Service {
            backend: Backend {
                counters,
                settings: parts.settings,
                clock: Box::new(Bounded(clock)),
                streams: parts.streams,
                orders: parts.orders,
                due: exchange::queue_of(&parts.payments, &parts.deliveries),
                payments: parts.payments,
                journal: parts.journal,
                forced_next: parts.forced_next,
                scenario: parts.scenario,
                spare_call: SpareCall::default(),
                idempotency: parts.idempotency,
                events: parts.events,
                endpoints: parts.endpoints,
                deliveries: parts.deliveries,
            },
        }
    }

    /// The settings as JSON text, the form the `settings` getter shows.
    pub fn settings_json(&self) -> String {
        let mut out = Out::with_capacity(400);
        snapshot::settings(&mut out, &self.backend.settings);
        out.text
    }

    /// The next `count` payment attempts get `outcome`, whatever the draw
    /// says (an `X-Sim-Outcome` header still wins for its own request).
    /// A count of 0 clears the instruction.
    pub fn force_next(&mut self, outcome: Forced, count: u32) {
        self.backend.forced_next = (count > 0).then_some((outcome, count));
    }

    /// Sets the scenario (a document's JSON text), its
    /// progress starting now; `None` clears it. A bad document is refused
    /// whole, naming its JSON path (`scenario: rules[2].when.until: …`),
    /// and the scenario in force stays.
    pub fn set_scenario(&mut self, text: Option<&str>) -> Result<(), Invalid> {
        let Some(text) = text else {
            self.backend.scenario = None;
            return Ok(());
        };
        let now = self.backend.clock.now_ms();
        let seed = self.backend.settings.seed;
        let scenario = scenario::read(text, seed, now).map_err(|r| r.invalid("scenario"))?;
        self.backend.scenario = Some(scenario);
        Ok(())
    }

    /// The scenario in force and where it stands, as JSON text:
    /// `{document, setAt, rules: [{name, seen, fired}]}`, or `null`.
    pub fn scenario_json(&self) -> String {
        let Some(scenario) = &self.backend.scenario else {
            return "null".to_owned();
        };
        let mut out = Out::with_capacity(512);
        scenario.write(&mut out);
        out.text
    }

    /// The forced outcome still to come, and how many attempts it covers.
    pub fn forced_next(&self) -> Option<(Forced, u32)> {
        self.backend.forced_next
    }

    #[cfg(feature = "serde")]
    /// The spans of the requests, oldest first, in their readable form.
    pub fn spans(&self) -> Vec<Span> {
        serde_json::from_str(&self.spans_json()).unwrap_or_default()
    }

    /// The spans as a JSON array.
    pub fn spans_json(&self) -> String {
        self.backend.journal.spans_json()
    }

    #[cfg(feature = "serde")]
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

    /// Moves the clock on by `ms` (a virtual clock; a wall clock ignores
    /// it), then does the work that came due, each at its due time.
    pub fn advance(&mut self, ms: u64) {
        self.backend.clock.advance(ms);
        let now = self.backend.clock.now_ms();
        exchange::catch_up(&mut self.backend, now);
    }

    /// The soonest time work is due (a payment's change, a webhook
    /// delivery's attempt), if any: for a timer on real time.
    pub fn next_due(&self) -> Option<i64> {
        let ready = self.backend.deliveries.ready_since();
        match (self.backend.due.next_due(), ready) {
            (Some(due), Some(ready)) => Some(due.min(ready)),
            (due, ready) => due.or(ready),
        }
    }

    /// Ends the open challenge of `payment_id` as the buyer would:
    /// `outcome` is `pass`, `fail` or `abandon`. Refused (a wrong type
    /// naming `outcome`; out of range naming `paymentId` and its state)
    /// otherwise.
    pub fn complete_challenge(
        &mut self,
        payment_id: &str,
        outcome: &str,
    ) -> Result<Payment, Invalid> {
        let outcome = Outcome::parse(outcome).ok_or_else(|| {
            let problem = msg!(OUTCOME_WORDS, ", got ", Q(outcome));
            Invalid::wrong_type("outcome", problem)
        })?;
        let done = exchange::complete_challenge(&mut self.backend, payment_id, outcome);
        if let Err(why) = done {
            let problem = match why {
                NotAwaiting::Unknown => msg!("no payment ", Q(payment_id)),
                NotAwaiting::In(status) => not_awaiting_text("", payment_id, status),
            };
            return Err(Invalid::out_of_range("paymentId", problem));
        }
        self.backend
            .payments
            .get(payment_id)
            .map_err(|_| Invalid::out_of_range("paymentId", msg!("no payment ", Q(payment_id))))
    }

    /// An order in state CREATED under the id `order_id`, made now, as a
    /// Pact provider state sets one up: no request, so no record, span,
    /// count or event. Returns its `createdAt`; `None`, changing nothing,
    /// for an id not `ORD-` and 8 of A-Z 0-9 or already issued, a price
    /// not above 0, or past `maxOrders` (the JS layer names which).
    pub fn place_order(
        &mut self,
        id: &str,
        user_id: &str,
        price: f64,
        description: &str,
    ) -> Option<i64> {
        let (code, price) = (Code::parse(PREFIX, id)?, Money::positive(price)?);
        let b = &mut self.backend;
        if b.orders.len() >= b.settings.max_orders {
            return None;
        }
        let now = b.clock.now_ms();
        b.orders
            .place(code, user_id, price, description, now)
            .map(|()| now)
    }

    /// The payments awaiting a challenge, in id order.
    pub fn challenges(&self) -> Vec<Payment> {
        self.in_progress(false)
    }

    /// The payments awaiting a challenge, in id order; with `pending`,
    /// the PENDING ones too.
    pub fn in_progress(&self, pending: bool) -> Vec<Payment> {
        self.backend.payments.in_progress(pending)
    }

    /// Whether the clock is virtual (moves only with simulated time and
    /// `advance`); the wall clock is not.
    pub fn virtual_clock(&self) -> bool {
        self.backend.clock.saved().is_some()
    }

    /// `advance` for a caller's number: a whole number of ms, 0 or more,
    /// that keeps the clock within the times a JS `Date` holds; anything
    /// else is refused and the clock stays where it was.
    pub fn try_advance(&mut self, ms: f64) -> Result<(), Invalid> {
        let step = time_limits::advance_by(self.backend.clock.saved(), ms)?;
        self.advance(step);
        Ok(())
    }

    /// The service's current time, Unix ms.
    pub fn now(&mut self) -> i64 {
        self.backend.clock.now_ms()
    }

    /// The whole service in one call: never fails, every problem is an
    /// envelope.
    pub fn handle(&mut self, request: RawRequest) -> Response {
        exchange::exchange(&mut self.backend, request, testdata::run)
    }

    #[cfg(feature = "serde")]
    /// Log records, oldest first; with `after`, only those newer than it.
    pub fn logs(&self, after: Option<u64>) -> Vec<LogRecord> {
        serde_json::from_str(&self.logs_json(after)).unwrap_or_default()
    }

    /// The events after the event `after` (every one kept without it),
    /// oldest first, as a JSON array of the texts a delivery sends.
    /// Reading them turns webhooks on (see `Events`). An `after` that is
    /// not an event of this service is refused, naming `after`; one
    /// dropped from the bounded log gives every event kept.
    pub fn events_json(&mut self, after: Option<&str>) -> Result<String, Invalid> {
        let seed = self.backend.settings.seed;
        let after = match after {
            None => None,
            Some(id) => Some(event_seq(seed, id).ok_or_else(|| {
                Invalid::out_of_range("after", msg!("no event ", Q(id), " in this service"))
            })?),
        };
        let b = &mut self.backend;
        b.events.on = true;
        let sources = Sources {
            events: &b.events,
            orders: &b.orders,
            payments: &b.payments,
            seed,
        };
        Ok(sources.json_after(after))
    }

    /// The log records as a JSON array; with `after`, only newer ones.
    pub fn logs_json(&self, after: Option<u64>) -> String {
        self.backend.journal.records_json(after)
    }

    /// The log records (newer than `after`, when given) on a tape, for
    /// the JS layer to build `logs()`'s objects from.
    pub fn logs_tape(&self, after: Option<u64>) -> Written {
        let entries = self.backend.journal.entries(after);
        let count = entries.len();
        render::records_tape(entries, count)
    }

    /// The spans on a tape, for `spans()`.
    pub fn spans_tape(&self) -> Written {
        let spans = self.backend.journal.span_entries();
        render::spans_tape(spans.clone(), spans.len())
    }

    /// The OTLP/JSON export on a tape, for `exportOtlp()`.
    pub fn otlp_tape(&self) -> Written {
        let spans = self.backend.journal.span_entries();
        otlp::export_tape(spans.clone(), spans.len())
    }

    /// The events, without turning webhooks on (`events_json` does).
    pub fn events(&self) -> &Events {
        &self.backend.events
    }

    pub fn journal(&self) -> &Journal {
        &self.backend.journal
    }

    /// What the service counted over every request since it started,
    /// however few records the log still holds.
    pub fn counters(&self) -> &Counters {
        &self.backend.counters
    }

    /// The counters as JSON text, the form `counters()` returns in JS.
    pub fn counters_json(&self) -> String {
        self.backend.counters.to_json()
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

    /// The answers kept by `Idempotency-Key`.
    pub fn idempotency_keys(&self) -> &IdempotencyKeys {
        &self.backend.idempotency
    }

    pub fn payments(&self) -> &Payments {
        &self.backend.payments
    }
}
