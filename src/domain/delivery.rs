//! Deliveries of events to webhook endpoints, and their retry schedule on
//! the service's clock. One delivery per (event, endpoint that wants its
//! type); its first attempt is due when the event happened, and a failed
//! attempt is retried after Stripe's kind of backoff (Stripe publishes no
//! table): 1 min, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, 14 h and 24 h after
//! the attempt before, ten attempts in all, the last about 2 days 17.6 h
//! after the event; then the delivery has failed. A 2xx answer delivers
//! it. The JS layer takes what is due (each attempt marked in flight),
//! signs and sends it, and reports how it went.

use crate::prelude::*;

use alloc::collections::VecDeque;
use alloc::rc::Rc;

use crate::sim::scenario::DeliveryFault;

/// The wait before each retry, after the attempt before it (ms).
pub const RETRY_AFTER_MS: [u64; 9] = [
    60_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000, 50_400_000,
    86_400_000,
];
/// Attempts on the schedule: the first and its nine retries.
pub const SCHEDULED_ATTEMPTS: u32 = 10;
/// At most this many deliveries are kept; past it the oldest finished
/// ones are dropped.
pub const MAX_DELIVERIES: usize = 10_000;
pub const DELIVERY_PREFIX: &str = "wd_";

/// Where a delivery stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeliveryState {
    Pending,
    InFlight,
    Delivered,
    Failed,
}

impl DeliveryState {
    pub const ALL: [DeliveryState; 4] = [
        DeliveryState::Pending,
        DeliveryState::InFlight,
        DeliveryState::Delivered,
        DeliveryState::Failed,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            DeliveryState::Pending => "pending",
            DeliveryState::InFlight => "in_flight",
            DeliveryState::Delivered => "delivered",
            DeliveryState::Failed => "failed",
        }
    }

    pub fn parse(text: &str) -> Option<DeliveryState> {
        DeliveryState::ALL.into_iter().find(|s| s.as_str() == text)
    }
}

/// One attempt, once reported: when it was due (the time it is stamped
/// with), the receiver's status (none: no answer), the error, how long it
/// took, and the fault that touched it.
#[derive(Debug, Clone, PartialEq)]
pub struct Attempt {
    pub n: u32,
    pub at: i64,
    pub status: Option<u16>,
    pub error: Option<String>,
    pub duration_ms: u64,
    pub fault: Option<DeliveryFault>,
}

impl Attempt {
    /// A 2xx answer.
    pub fn delivered(&self) -> bool {
        self.status.is_some_and(|s| (200..300).contains(&s))
    }
}

/// One delivery of an event to an endpoint.
#[derive(Debug, Clone, PartialEq)]
pub struct Delivery {
    /// Its number: the id is `wd_<n>`, from 1.
    pub n: u64,
    /// The event's number (`Events`).
    pub event: u64,
    /// The endpoint's number.
    pub endpoint: u64,
    pub state: DeliveryState,
    pub attempts: Vec<Attempt>,
    /// When the next attempt is due (pending or in flight).
    pub next_at: Option<i64>,
    /// How many attempts the schedule has made (a resend is not one).
    pub scheduled: u32,
    /// Whether the attempt due (or in flight) is a resend by hand: after
    /// it, a finished delivery finishes again, whatever its answer.
    pub resent: bool,
    /// The delivery fault a scenario's rule gave it (boxed: rare).
    pub fault: Option<Box<DeliveryFault>>,
}

impl Delivery {
    pub fn id(&self) -> String {
        let mut id = String::from(DELIVERY_PREFIX);
        crate::json::write::push_uint(&mut id, self.n);
        id
    }

    /// The number the next attempt gets.
    pub fn next_attempt(&self) -> u32 {
        self.attempts.last().map_or(1, |a| a.n + 1)
    }

    pub fn finished(&self) -> bool {
        matches!(self.state, DeliveryState::Delivered | DeliveryState::Failed)
    }

    /// Records `attempt`, then schedules the next one (due the backoff
    /// after the attempt's time) or finishes the delivery. A resend of a
    /// finished delivery is one attempt: it finishes again after it.
    pub fn record(&mut self, attempt: Attempt) {
        let (at, done) = (attempt.at, attempt.delivered());
        self.attempts.push(attempt);
        let scheduled = !core::mem::take(&mut self.resent);
        if scheduled {
            self.scheduled += 1;
        }
        let retry = RETRY_AFTER_MS
            .get(self.scheduled.saturating_sub(1) as usize)
            .filter(|_| scheduled && self.scheduled < SCHEDULED_ATTEMPTS);
        (self.state, self.next_at) = match (done, retry) {
            (true, _) => (DeliveryState::Delivered, None),
            (false, Some(&wait)) => (DeliveryState::Pending, Some(after(at, wait))),
            (false, None) => (DeliveryState::Failed, None),
        };
    }

    /// A new attempt due at `now`, by hand: the next one on the schedule
    /// made now, or one more for a finished delivery. Refused (false)
    /// while an attempt is in flight.
    pub fn resend(&mut self, now: i64) -> bool {
        match self.state {
            DeliveryState::InFlight => return false,
            DeliveryState::Pending => {}
            DeliveryState::Delivered | DeliveryState::Failed => self.resent = true,
        }
        self.state = DeliveryState::Pending;
        self.next_at = Some(now);
        true
    }
}

/// `at` plus `ms`, saturating.
/// How long a `reorder` holds a delivery while its batch fills: a batch
/// still short by then goes out in the order its events came, so no
/// event is held for ever.
pub const HOLD_LIMIT_MS: u64 = 5 * 60 * 1000;

pub fn after(at: i64, ms: u64) -> i64 {
    at.saturating_add(i64::try_from(ms).unwrap_or(i64::MAX))
}

/// Every delivery kept, oldest first, and the attempts that came due
/// (on the due queue, `due::DueWork::Attempt`) and wait to be handed over.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Deliveries {
    pub(crate) kept: VecDeque<Delivery>,
    /// The number of the last delivery made (0: none yet).
    pub(crate) last: u64,
    /// The deliveries whose attempt came due, marked in flight, with
    /// their due times, in due order, until the sender takes them.
    pub(crate) ready: Vec<(i64, u64)>,
    /// The deliveries a `reorder` rule holds, by the rule's name, in the
    /// order their events came.
    pub(crate) held: Vec<(Rc<str>, u64)>,
}

impl Deliveries {
    pub fn len(&self) -> usize {
        self.kept.len()
    }

    pub fn is_empty(&self) -> bool {
        self.kept.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = &Delivery> + '_ {
        self.kept.iter()
    }

    /// Whether a delivery of event `event` is unfinished. Deliveries are
    /// made when their event is, so they are kept in event order: a
    /// binary search finds them.
    pub fn awaits_event(&self, event: u64) -> bool {
        let from = self.kept.partition_point(|d| d.event < event);
        let mut of_event = self.kept.range(from..).take_while(|d| d.event == event);
        of_event.any(|d| !d.finished())
    }

    /// A new delivery of event `event` to endpoint `endpoint`, its first
    /// attempt due at `due` (`None`: held, see `reorder`); the oldest
    /// finished one is dropped past the bound. Its number.
    pub fn add(&mut self, event: u64, endpoint: u64, due: Option<i64>) -> u64 {
        if self.kept.len() >= MAX_DELIVERIES {
            if let Some(i) = self.kept.iter().position(Delivery::finished) {
                self.kept.remove(i);
            }
        }
        self.last += 1;
        self.kept.push_back(Delivery {
            n: self.last,
            event,
            endpoint,
            state: DeliveryState::Pending,
            attempts: Vec::new(),
            next_at: due,
            scheduled: 0,
            resent: false,
            fault: None,
        });
        self.last
    }

    /// The delivery numbered `n`, while kept (numbers only grow).
    pub fn get_mut(&mut self, n: u64) -> Option<&mut Delivery> {
        let i = self.kept.binary_search_by_key(&n, |d| d.n).ok()?;
        self.kept.get_mut(i)
    }

    pub fn get(&self, n: u64) -> Option<&Delivery> {
        let i = self.kept.binary_search_by_key(&n, |d| d.n).ok()?;
        self.kept.get(i)
    }

    /// When delivery `n`'s next attempt is due, while it is pending: what
    /// its entry on the due queue must say to still hold.
    pub fn due_of(&self, n: u64) -> Option<i64> {
        let d = self.get(n).filter(|d| d.state == DeliveryState::Pending)?;
        d.next_at
    }

    /// Delivery `n`'s attempt came due at `at`: marked in flight, it
    /// waits for the sender.
    pub fn came_due(&mut self, n: u64, at: i64) {
        if let Some(d) = self.get_mut(n).filter(|d| d.next_at == Some(at)) {
            d.state = DeliveryState::InFlight;
            self.ready.push((at, n));
            // A held one that waited out `HOLD_LIMIT_MS` leaves its batch.
            self.held.retain(|&(_, h)| h != n);
        }
    }

    /// The deliveries whose attempts came due, in due order, handed over.
    pub fn take_ready(&mut self) -> Vec<u64> {
        self.ready.drain(..).map(|(_, n)| n).collect()
    }

    /// When the first attempt waiting for the sender came due.
    pub fn ready_since(&self) -> Option<i64> {
        self.ready.first().map(|&(at, _)| at)
    }

    /// The pending deliveries of endpoint `endpoint` stop: failed, with
    /// no attempt to come (the endpoint was removed).
    pub fn stop_for(&mut self, endpoint: u64) {
        for d in self.kept.iter_mut().filter(|d| d.endpoint == endpoint) {
            if !d.finished() {
                d.state = DeliveryState::Failed;
                d.next_at = None;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    impl Deliveries {
        /// What the due queue would hand over by `now`, without it.
        fn take_due(&mut self, now: i64) -> Vec<u64> {
            let mut due: Vec<(i64, u64)> = self
                .kept
                .iter()
                .filter_map(|d| self.due_of(d.n).filter(|&t| t <= now).map(|t| (t, d.n)))
                .collect();
            due.sort_unstable();
            for (at, n) in due {
                self.came_due(n, at);
            }
            self.take_ready()
        }
    }

    fn failed(n: u32, at: i64) -> Attempt {
        Attempt {
            n,
            at,
            status: Some(500),
            error: None,
            duration_ms: 3,
            fault: None,
        }
    }

    #[test]
    fn ten_failed_attempts_follow_the_schedule_then_the_delivery_fails() {
        let mut all = Deliveries::default();
        let n = all.add(0, 1, Some(1_000));
        let mut times = Vec::new();
        while let Some(&d) = all.take_due(i64::MAX).first() {
            let delivery = all.get_mut(d).unwrap_or_else(|| panic!("kept"));
            let (next, at) = (delivery.next_attempt(), delivery.next_at.unwrap_or(0));
            times.push(at);
            delivery.record(failed(next, at));
        }
        let gaps: Vec<u64> = times.windows(2).map(|w| (w[1] - w[0]) as u64).collect();
        assert_eq!(gaps, RETRY_AFTER_MS);
        let delivery = all.get(n).unwrap_or_else(|| panic!("kept"));
        assert_eq!(delivery.attempts.len(), 10);
        assert_eq!(
            (delivery.state, delivery.next_at),
            (DeliveryState::Failed, None)
        );
        let last = times.last().copied().unwrap_or(0) - 1_000;
        assert_eq!(
            last,
            ((2 * 24 + 17) * 60 + 36) * 60_000,
            "2 days 17 h 36 min"
        );
    }

    #[test]
    fn a_2xx_delivers_and_nothing_more_is_due() {
        let mut all = Deliveries::default();
        let n = all.add(0, 1, Some(0));
        assert_eq!(all.take_due(0), [n]);
        assert!(all.take_due(0).is_empty(), "in flight, not due again");
        let d = all.get_mut(n).unwrap_or_else(|| panic!("kept"));
        d.record(Attempt {
            status: Some(204),
            ..failed(1, 0)
        });
        assert_eq!(d.state, DeliveryState::Delivered);
        assert_eq!(all.due_of(n), None);
    }

    #[test]
    fn past_the_bound_the_oldest_finished_delivery_goes() {
        let mut all = Deliveries::default();
        for _ in 0..MAX_DELIVERIES {
            all.add(0, 1, Some(0));
        }
        all.add(0, 1, Some(0));
        assert_eq!(all.len(), MAX_DELIVERIES + 1, "none finished: none dropped");
        if let Some(d) = all.get_mut(5) {
            d.state = DeliveryState::Failed;
        }
        all.add(0, 1, Some(0));
        assert_eq!(all.len(), MAX_DELIVERIES + 1);
        assert!(all.get(5).is_none() && all.get(6).is_some());
    }

    #[test]
    fn a_resend_of_a_finished_delivery_is_one_attempt_and_of_a_pending_one_the_next_made_now() {
        let mut all = Deliveries::default();
        let n = all.add(0, 1, Some(0));
        all.take_due(0);
        let d = all.get_mut(n).unwrap_or_else(|| panic!("kept"));
        assert!(!d.resend(5), "refused while in flight");
        d.record(failed(1, 0));
        assert_eq!(d.next_at, Some(60_000));
        assert!(d.resend(10));
        d.state = DeliveryState::InFlight;
        d.record(failed(2, 10));
        assert_eq!(
            (d.scheduled, d.next_at),
            (2, Some(10 + 300_000)),
            "the schedule goes on"
        );
        d.state = DeliveryState::Delivered;
        d.next_at = None;
        assert!(d.resend(20));
        d.state = DeliveryState::InFlight;
        d.record(failed(3, 20));
        assert_eq!(
            (d.state, d.next_at, d.scheduled),
            (DeliveryState::Failed, None, 2)
        );
    }
}
