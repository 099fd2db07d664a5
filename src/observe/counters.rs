//! Counters the service keeps over every request it served, never bounded
//! by the log: a chart drawn from the records still held undercounts as
//! soon as the log drops its oldest ones. Counted once per request, in the
//! gateway's last step, with a few integer increments: requests by route,
//! HTTP status and code; payment attempts by the rule that decided them;
//! a running share of approvals at a fixed number of points; and a
//! fixed-bucket histogram of simulated durations per service.
//!
//! A snapshot carries them. A snapshot written before they existed gets
//! them rebuilt from its records (`rebuild`), exact when the log still
//! held every record written, and marked incomplete when it did not.

use crate::prelude::*;

use alloc::borrow::Cow;
use alloc::rc::Rc;

use super::entry::{Answer, DueRecord, Kept};
use super::event_class::EventClass;
use super::journal::Journal;
use super::request_line::Call;
use crate::domain::payment::PaymentStatus;
use crate::domain::payment_plan::Change;
use crate::json::Out;
use crate::sim::scenario::Outcome;
use crate::sim::third_party::{DecidedBy, Verdict};

/// Upper bounds of the duration buckets, in ms: bucket `i` holds the
/// durations below `EDGES_MS[i]` and at least the edge before it; one
/// more bucket holds the rest. Fine where services spend their time (a few
/// ms, 60 to 240 for the third party) and coarse in the tail.
pub const EDGES_MS: [u64; 33] = [
    1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40, 50, 60, 80, 100, 120, 150, 200, 250, 300, 400,
    500, 600, 800, 1000, 1500, 2000, 3000, 5000, 10000,
];
pub(crate) const BUCKETS: usize = EDGES_MS.len() + 1;

/// At most this many points of the running share are kept: when full,
/// every other one goes and the spacing doubles, so any number of attempts
/// costs the same memory and the line keeps its shape.
pub const RUNNING_POINTS: usize = 256;

/// At most this many (route, status, code) rows are read from a snapshot;
/// the service itself makes a few dozen at most.
pub(crate) const MAX_ROWS: usize = 512;

pub(crate) const RULES: [DecidedBy; 5] = [
    DecidedBy::Draw,
    DecidedBy::Header,
    DecidedBy::ForcedNext,
    DecidedBy::Scenario,
    DecidedBy::Card,
];
pub(crate) const CLASSES: [EventClass; 3] =
    [EventClass::Order, EventClass::Payment, EventClass::Test];

/// Requests answered with one HTTP status and code on one route.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RouteCount {
    /// The documented route the path names, by its template (each names
    /// one method, so a 405 counts on the path's route); `None` for a path
    /// no route names. Never the caller's text, so the rows stay few.
    pub route: Option<Cow<'static, str>>,
    pub http_status: u16,
    pub code: i32,
    pub count: u64,
}

/// Payment attempts decided by one rule.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Decided {
    pub approved: u64,
    pub declined: u64,
}

/// Simulated durations of the requests one service handled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Histogram {
    /// One count per bucket of `EDGES_MS`, and one past the last edge.
    pub buckets: [u64; BUCKETS],
    pub count: u64,
    pub sum_ms: u64,
    pub max_ms: u64,
}

impl Default for Histogram {
    fn default() -> Histogram {
        Histogram {
            buckets: [0; BUCKETS],
            count: 0,
            sum_ms: 0,
            max_ms: 0,
        }
    }
}

/// Durations below this find their bucket in `BUCKET_OF`, in one step:
/// where the services' durations mostly lie (the third party's 60 to 240
/// ms included).
const TABLED_MS: usize = 256;

/// The bucket of each duration below `TABLED_MS`, as the search over
/// `EDGES_MS` finds it; made when compiling, from the edges themselves.
const BUCKET_OF: [u8; TABLED_MS] = {
    let mut table = [0u8; TABLED_MS];
    let (mut ms, mut bucket) = (0, 0);
    while ms < TABLED_MS {
        while bucket < EDGES_MS.len() && EDGES_MS[bucket] <= ms as u64 {
            bucket += 1;
        }
        table[ms] = bucket as u8;
        ms += 1;
    }
    table
};

/// The bucket of a duration: the number of edges at or below it.
fn bucket_of(ms: u64) -> usize {
    match BUCKET_OF.get(ms as usize) {
        Some(&bucket) if ms < TABLED_MS as u64 => usize::from(bucket),
        _ => EDGES_MS.partition_point(|&edge| edge <= ms),
    }
}

impl Histogram {
    fn add(&mut self, ms: u64) {
        if let Some(bucket) = self.buckets.get_mut(bucket_of(ms)) {
            *bucket += 1;
        }
        self.count += 1;
        self.sum_ms = self.sum_ms.saturating_add(ms);
        self.max_ms = self.max_ms.max(ms);
    }
}

/// Everything counted since the service started.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Counters {
    pub requests: u64,
    pub by_route: Vec<RouteCount>,
    /// By rule, in the order of `RULES`: draw, header, forced-next,
    /// scenario.
    pub by_rule: [Decided; 5],
    /// The approvals after every `every` attempts: point `i` is the count
    /// after `(i + 1) * every` attempts.
    pub running: Vec<u64>,
    pub every: u64,
    /// By service, in the order of `CLASSES`: order, payment, test.
    pub durations: [Histogram; 3],
    /// False when the counts were rebuilt from a log that no longer held
    /// every record (an older snapshot): they start at its oldest record.
    pub complete: bool,
    /// Answers replayed under an `Idempotency-Key`.
    pub replays: u64,
    /// Scenario failures by kind and by the name of the rule that gave
    /// them (a drawn decline has none), each in the order first met; at
    /// most `MAX_ROWS` names.
    pub faults_by_kind: Vec<(Rc<str>, u64)>,
    pub faults_by_rule: Vec<(Rc<str>, u64)>,
    /// Payments' changes of state, in the order of `CHANGES`; shown only
    /// once one is not zero.
    pub changes: [u64; 8],
    /// Where each request's row was last found, so it is not searched for.
    rows: RowMemo,
}

/// Slots of the row memo: a power of two, a few times the rows a service
/// makes, so two rows in use rarely share one.
const MEMO_SLOTS: usize = 64;
const _: () = assert!(MEMO_SLOTS == 1 << 6, "memo_slot takes six bits");

/// Where the rows of `by_route` were last found, by a hash of their route
/// template's address, HTTP status and code: the request's route is one
/// of a few `'static` templates, so its row is found in one step instead
/// of searched among all of them. Only a hint: a slot is used when the row
/// it names still has that route, status and code, else the rows are
/// searched and the slot set. So it is no part of the counts, and two
/// counters with the same rows are equal whatever it holds.
#[derive(Debug, Clone)]
struct RowMemo([u16; MEMO_SLOTS]);

impl Default for RowMemo {
    fn default() -> RowMemo {
        RowMemo([u16::MAX; MEMO_SLOTS])
    }
}

impl PartialEq for RowMemo {
    fn eq(&self, _: &RowMemo) -> bool {
        true
    }
}

impl Eq for RowMemo {}

/// The memo's slot for a row: the template's address (rows of the same
/// template share it), its status and its code, mixed.
fn memo_slot(route: Option<&'static str>, http_status: u16, code: i32) -> usize {
    let address = route.map_or(0, |t| t.as_ptr() as usize);
    let key = (address as u64) ^ (u64::from(http_status) << 40) ^ ((code as u32 as u64) << 8);
    // The top six bits, the best mixed: one of the 64 slots.
    (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 58) as usize
}

impl Default for Counters {
    fn default() -> Counters {
        Counters {
            requests: 0,
            by_route: Vec::new(),
            by_rule: [Decided::default(); 5],
            running: Vec::new(),
            every: 1,
            durations: Default::default(),
            complete: true,
            replays: 0,
            faults_by_kind: Vec::new(),
            faults_by_rule: Vec::new(),
            changes: [0; 8],
            rows: RowMemo::default(),
        }
    }
}

/// The changes of state counted, as `payments.changes` names them: the
/// pays that started REQUIRES_ACTION or PENDING, then the changes to
/// SUCCESS, to FAILED, a reversal, and a challenge the buyer passed,
/// failed or abandoned.
pub(crate) const CHANGES: [&str; 8] = [
    "requiresAction",
    "pending",
    "succeeded",
    "failed",
    "reversed",
    "challengesPassed",
    "challengesFailed",
    "challengesAbandoned",
];

impl Counters {
    /// Counts a pay that starts REQUIRES_ACTION or PENDING (a change
    /// planned for later); a reversal's SUCCESS is counted as any.
    pub fn count_start(&mut self, status: PaymentStatus) {
        let i = match status {
            PaymentStatus::RequiresAction => 0,
            PaymentStatus::Pending => 1,
            _ => return,
        };
        if let Some(n) = self.changes.get_mut(i) {
            *n += 1;
        }
    }

    /// Counts a payment's change of state.
    pub fn count_change(&mut self, c: &Change) {
        let mut add = |i: usize| {
            if let Some(n) = self.changes.get_mut(i) {
                *n += 1;
            }
        };
        match c.to {
            PaymentStatus::Success => add(2),
            PaymentStatus::Failed => add(3),
            _ => {}
        }
        if c.kind == "reversal" && c.to == PaymentStatus::Failed {
            add(4);
        }
        if let Some(outcome) = c.by_buyer {
            add(5 + Outcome::ALL.iter().position(|o| *o == outcome).unwrap_or(0));
        }
    }
}

fn rule_index(rule: DecidedBy) -> usize {
    match rule {
        DecidedBy::Draw => 0,
        DecidedBy::Header => 1,
        DecidedBy::ForcedNext => 2,
        DecidedBy::Scenario => 3,
        DecidedBy::Card => 4,
    }
}

fn class_index(class: EventClass) -> usize {
    match class {
        EventClass::Order => 0,
        EventClass::Payment => 1,
        EventClass::Test => 2,
    }
}

impl Counters {
    /// Counts one answered request: its route and answer, its duration
    /// when a service handled it, and the third party's verdict when it
    /// reached the third party.
    pub fn count(&mut self, call: &Call, answer: &Answer, verdict: Option<&Verdict>) {
        self.count_request(call, answer);
        if let Some(v) = verdict {
            self.count_attempt(v.rule, v.approved);
        }
    }

    fn count_request(&mut self, call: &Call, answer: &Answer) {
        self.requests += 1;
        self.replays += u64::from(answer.replay());
        if let Some(fault) = answer.fault() {
            tally(&mut self.faults_by_kind, fault.then.kind(), 1);
            if let Some(rule) = &fault.rule {
                tally(&mut self.faults_by_rule, rule, 1);
            }
        }
        let route = call.template;
        let (http_status, code) = (answer.http_status, answer.code);
        let slot = memo_slot(route, http_status, code);
        let fits = |r: &RouteCount| {
            r.http_status == http_status && r.code == code && same_route(&r.route, route)
        };
        let memo = self
            .rows
            .0
            .get(slot)
            .map_or(usize::MAX, |&i| usize::from(i));
        if let Some(row) = self.by_route.get_mut(memo).filter(|r| fits(r)) {
            row.count += 1;
            return self.count_duration(answer);
        }
        let at = self.by_route.iter().position(fits);
        match at.and_then(|i| self.by_route.get_mut(i).map(|row| (i, row))) {
            Some((i, row)) => {
                row.count += 1;
                self.remember(slot, i);
            }
            None => {
                self.remember(slot, self.by_route.len());
                self.by_route.push(RouteCount {
                    route: route.map(Cow::Borrowed),
                    http_status,
                    code,
                    count: 1,
                });
            }
        }
        self.count_duration(answer);
    }

    /// The request's simulated duration, when a service handled it.
    fn count_duration(&mut self, answer: &Answer) {
        if let (Some(class), Some(ms)) = (answer.event_class, answer.duration) {
            if let Some(histogram) = self.durations.get_mut(class_index(class)) {
                histogram.add(ms);
            }
        }
    }

    /// Notes that the row of `slot` is at `index` (rows past what a slot
    /// holds are searched for each time).
    fn remember(&mut self, slot: usize, index: usize) {
        if let (Some(memo), Ok(index)) = (self.rows.0.get_mut(slot), u16::try_from(index)) {
            *memo = index;
        }
    }

    fn count_attempt(&mut self, rule: DecidedBy, approved: bool) {
        let decided = &mut self.by_rule[rule_index(rule)];
        if approved {
            decided.approved += 1;
        } else {
            decided.declined += 1;
        }
        let attempts = self.attempts();
        if attempts % self.every != 0 {
            return;
        }
        if self.running.len() == RUNNING_POINTS {
            // Keep the points at even multiples of the spacing, double it.
            let kept: Vec<u64> = self.running.iter().skip(1).step_by(2).copied().collect();
            self.running = kept;
            self.every *= 2;
            if attempts % self.every != 0 {
                return;
            }
        }
        self.running.push(self.approved());
    }

    /// Payment attempts that reached the third party.
    pub fn attempts(&self) -> u64 {
        self.approved() + self.declined()
    }

    pub fn approved(&self) -> u64 {
        self.by_rule.iter().map(|d| d.approved).sum()
    }

    pub fn declined(&self) -> u64 {
        self.by_rule.iter().map(|d| d.declined).sum()
    }

    /// The attempts one rule decided.
    pub fn decided_by(&self, rule: DecidedBy) -> Decided {
        self.by_rule[rule_index(rule)]
    }

    /// The durations of the requests one service handled.
    pub fn durations_of(&self, class: EventClass) -> &Histogram {
        &self.durations[class_index(class)]
    }

    /// Requests on `route` (a template, `None` for no route), whatever
    /// their answer.
    pub fn on_route(&self, route: Option<&str>) -> u64 {
        self.by_route
            .iter()
            .filter(|r| r.route.as_deref() == route)
            .map(|r| r.count)
            .sum()
    }

    /// The counts a journal's records allow: exact when it holds every
    /// record written (none dropped, never emptied), else from its oldest
    /// record on, and marked incomplete.
    pub fn rebuild(journal: &Journal) -> Counters {
        let mut counters = Counters::default();
        let written = journal.next_seq.saturating_sub(1);
        counters.complete = journal.records.len() as u64 == written;
        for entry in &journal.records {
            match &entry.stage {
                Kept::Service {
                    outcome: Some(v), ..
                } => counters.count_attempt(v.rule, v.approved),
                Kept::Response(call, answer) => counters.count_request(call, answer),
                Kept::Due(due) => {
                    if let DueRecord::Payment(change) = &**due {
                        counters.count_change(change);
                    }
                }
                _ => {}
            }
        }
        counters
    }

    /// The counters as JSON: the form `counters()` returns and snapshots
    /// keep.
    pub fn write(&self, out: &mut Out) {
        out.begin_object();
        out.key("requests");
        out.uint(self.requests);
        out.key("byRoute");
        self.write_by_route(out);
        out.key("payments");
        self.write_payments(out);
        out.key("durations");
        self.write_durations(out);
        if self.replays > 0 {
            out.key("replays");
            out.uint(self.replays);
        }
        if !self.faults_by_kind.is_empty() {
            self.write_faults(out);
        }
        out.key("complete");
        out.bool(self.complete);
        out.end_object();
    }

    /// `byRoute`: a row per route, status and code met.
    fn write_by_route(&self, out: &mut Out) {
        out.begin_array();
        for r in &self.by_route {
            out.begin_object();
            out.key("route");
            out.opt_str(r.route.as_deref());
            out.key("httpStatus");
            out.uint(u64::from(r.http_status));
            out.key("code");
            out.int(i64::from(r.code));
            out.key("count");
            out.uint(r.count);
            out.end_object();
        }
        out.end_array();
    }

    /// `payments`: the attempts, by the rule that decided them (`scenario`
    /// only once a scenario's rule decided one, as `faults`), and the
    /// running count of approvals.
    fn write_payments(&self, out: &mut Out) {
        out.begin_object();
        out.key("attempts");
        out.uint(self.attempts());
        out.key("approved");
        out.uint(self.approved());
        out.key("declined");
        out.uint(self.declined());
        out.key("byRule");
        out.begin_object();
        for (rule, d) in RULES.iter().zip(&self.by_rule) {
            if matches!(rule, DecidedBy::Scenario | DecidedBy::Card) && *d == Decided::default() {
                continue;
            }
            out.key(rule.as_str());
            out.begin_object();
            out.key("approved");
            out.uint(d.approved);
            out.key("declined");
            out.uint(d.declined);
            out.end_object();
        }
        out.end_object();
        if self.changes.iter().any(|n| *n > 0) {
            out.key("changes");
            out.begin_object();
            for (name, n) in CHANGES.iter().zip(&self.changes) {
                out.key(name);
                out.uint(*n);
            }
            out.end_object();
        }
        out.key("running");
        out.begin_object();
        out.key("every");
        out.uint(self.every);
        out.key("approved");
        out.begin_array();
        for n in &self.running {
            out.uint(*n);
        }
        out.end_array();
        out.end_object();
        out.end_object();
    }

    /// `faults`: `byKind` and `byRule`, each a count by name.
    fn write_faults(&self, out: &mut Out) {
        out.key("faults");
        out.begin_object();
        for (name, list) in [
            ("byKind", &self.faults_by_kind),
            ("byRule", &self.faults_by_rule),
        ] {
            out.key(name);
            out.begin_object();
            for (key, n) in list {
                out.key_text(key);
                out.uint(*n);
            }
            out.end_object();
        }
        out.end_object();
    }

    /// `durations`: the bucket edges, then a histogram per service.
    fn write_durations(&self, out: &mut Out) {
        out.begin_object();
        out.key("edgesMs");
        out.begin_array();
        for e in EDGES_MS {
            out.uint(e);
        }
        out.end_array();
        for (class, h) in CLASSES.iter().zip(&self.durations) {
            out.key(class.as_str());
            out.begin_object();
            out.key("count");
            out.uint(h.count);
            out.key("sumMs");
            out.uint(h.sum_ms);
            out.key("maxMs");
            out.uint(h.max_ms);
            out.key("buckets");
            out.begin_array();
            for n in h.buckets {
                out.uint(n);
            }
            out.end_array();
            out.end_object();
        }
        out.end_object();
    }

    pub fn to_json(&self) -> String {
        let mut out = Out::with_capacity(2048);
        self.write(&mut out);
        out.text
    }
}

/// `n` more under `name`, a new name last; past `MAX_ROWS` names, a new
/// one is not kept.
pub(crate) fn tally(list: &mut Vec<(Rc<str>, u64)>, name: &str, n: u64) {
    match list.iter().position(|(k, _)| &**k == name) {
        Some(i) => list.get_mut(i).into_iter().for_each(|(_, c)| *c += n),
        None if list.len() < MAX_ROWS => list.push((Rc::from(name), n)),
        None => {}
    }
}

/// The same route: most often the very same template text, so its address
/// is compared first; a row read from a snapshot holds a copy.
fn same_route(row: &Option<Cow<'static, str>>, route: Option<&str>) -> bool {
    match (row.as_deref(), route) {
        (Some(a), Some(b)) => core::ptr::eq(a, b) || a == b,
        (None, None) => true,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::observe::LogStatus;

    const TEMPLATES: [Option<&str>; 4] = [
        Some("/api/order/create"),
        Some("/api/order/{orderId}"),
        Some("/api/payment/pay"),
        None,
    ];

    fn call(template: Option<&'static str>) -> Call {
        Call {
            method: Cow::Borrowed("GET"),
            uri: Cow::Borrowed("/x"),
            template,
            user_id: None,
        }
    }

    fn answer(http_status: u16, code: i32) -> Answer {
        Answer {
            event_class: None,
            duration: None,
            status: LogStatus::Success,
            http_status,
            code,
            msg: Cow::Borrowed("success"),
            extra: None,
        }
    }

    /// The rows a plain search over every row would give: the memo of
    /// where rows were last found changes no count and no order, with
    /// more distinct rows than it has slots, rows of one template under
    /// many codes, and rows read from a snapshot, whose route is a copy of
    /// the template's text at another address.
    #[test]
    fn rows_found_by_the_memo_are_those_a_search_finds() {
        let mut counters = Counters::default();
        counters.by_route.push(RouteCount {
            route: Some(Cow::Owned("/api/order/create".to_string())),
            http_status: 200,
            code: 0,
            count: 5,
        });
        counters.requests = 5;
        let mut expected: Vec<(Option<String>, u16, i32, u64)> =
            vec![(Some("/api/order/create".to_string()), 200, 0, 5)];
        let mut state = 7u64;
        for _ in 0..20_000 {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            let pick = (state >> 33) as usize;
            let template = TEMPLATES[pick % TEMPLATES.len()];
            let code = [0, 1001, 2001, 3001, 4001][(pick >> 4) % 5] + (pick >> 8) as i32 % 40;
            let http_status = [200, 400, 404, 409, 500][(pick >> 12) % 5];
            counters.count(&call(template), &answer(http_status, code), None);
            let row = expected
                .iter_mut()
                .find(|r| r.0.as_deref() == template && r.1 == http_status && r.2 == code);
            match row {
                Some(r) => r.3 += 1,
                None => expected.push((template.map(str::to_string), http_status, code, 1)),
            }
        }
        assert!(expected.len() > MEMO_SLOTS, "{} rows", expected.len());
        let got: Vec<(Option<String>, u16, i32, u64)> = counters
            .by_route
            .iter()
            .map(|r| {
                (
                    r.route.as_deref().map(str::to_string),
                    r.http_status,
                    r.code,
                    r.count,
                )
            })
            .collect();
        assert_eq!(got, expected);
        assert_eq!(counters.requests, 20_005);
    }

    #[test]
    fn the_bucket_table_agrees_with_the_search_over_the_edges() {
        for ms in (0..2 * TABLED_MS as u64).chain([u64::MAX, 1 << 32, 10_000, 9_999]) {
            let searched = EDGES_MS.partition_point(|&edge| edge <= ms);
            assert_eq!(bucket_of(ms), searched, "{ms} ms");
        }
    }

    #[test]
    fn counters_with_the_same_counts_are_equal_whatever_the_memo_holds() {
        let mut a = Counters::default();
        let b = Counters::default();
        a.count(&call(TEMPLATES[0]), &answer(200, 0), None);
        let mut c = b.clone();
        c.by_route = a.by_route.clone();
        c.requests = 1;
        assert_eq!(a, c);
        assert_ne!(a, b);
    }
}
