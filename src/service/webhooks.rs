//! The webhook calls of a `Service`: endpoints registered, removed and
//! listed, and the protocol the JS sender drives (`take_due`,
//! `report_attempt`, `resend`; see `gateway::webhooks`). The raw binding
//! exports them as `addWebhook`, `removeWebhook`, `webhooks`, `takeDue`,
//! `reportAttempt` and `resend`; `nextDue` covers the attempts too.

use crate::prelude::*;

use super::Service;
use crate::gateway::exchange;
use crate::gateway::webhooks::{self, Report};
use crate::sim::invalid::Invalid;

impl Service {
    /// Registers a webhook endpoint from its JSON text (`{url | handler:
    /// true, secret?, events?, header?}`); the endpoint as listed, with its
    /// id and secret. Turns webhooks on. A wrong field is refused, named.
    pub fn add_webhook(&mut self, spec: &str) -> Result<String, Invalid> {
        webhooks::add(&mut self.backend, spec)
    }

    /// Removes the endpoint `id` (`we_<n>`); its deliveries not yet made
    /// stop, failed. An unknown id is refused, naming `id`.
    pub fn remove_webhook(&mut self, id: &str) -> Result<(), Invalid> {
        webhooks::remove(&mut self.backend, id)
    }

    /// The endpoints, each with its deliveries and their attempts, as JSON.
    pub fn webhooks_json(&self) -> String {
        webhooks::list(&self.backend)
    }

    /// Resolves what is due by the service's now (payments' plans, whose
    /// events may be delivered), then hands over the delivery attempts due,
    /// each marked in flight, as a JSON array (see `gateway::webhooks`).
    pub fn take_due(&mut self) -> String {
        let now = self.backend.clock.now_ms();
        exchange::catch_up(&mut self.backend, now);
        webhooks::take_due(&mut self.backend)
    }

    /// Records how an attempt `take_due` handed over went: the receiver's
    /// `status` (0: no answer), how long it took, the error (empty: none).
    /// The next attempt is scheduled, or the delivery finishes; the
    /// delivery as JSON. Refused (naming `delivery` or `n`) for a delivery
    /// unknown or an attempt not in flight.
    pub fn report_attempt(
        &mut self,
        delivery: &str,
        n: u32,
        status: u16,
        duration_ms: u64,
        error: &str,
    ) -> Result<String, Invalid> {
        let report = Report {
            delivery,
            n,
            status,
            duration_ms,
            error,
        };
        webhooks::report(&mut self.backend, &report)
    }

    /// A new attempt of `delivery` due now; the delivery as JSON. Refused
    /// for an unknown delivery, or one with an attempt in flight.
    pub fn resend(&mut self, delivery: &str) -> Result<String, Invalid> {
        webhooks::resend(&mut self.backend, delivery)
    }
}
