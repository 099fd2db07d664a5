//! What a restored snapshot must hold before it becomes a service. A
//! snapshot is text from outside (localStorage, a file, a colleague), so
//! it may be damaged; deserialising checks only shapes. This checks every
//! value the service will read, after deserialisation and whatever the
//! parser: numbers in range (every time a JS `Date` can hold, every count a
//! JS number holds exactly), ids well formed, the parts consistent with
//! each other. The first bad field is named with its path in the snapshot
//! (`snapshot.orders.live["ORD-…"].userId: …`), and nothing is restored.

use crate::prelude::*;

use crate::json::message::{msg, Q};

use super::parts::Parts;
use crate::domain::code::Code;
use crate::domain::hashing::ByCode;
use crate::domain::order::{MAX_DESCRIPTION_CHARS, MAX_USER_ID_CHARS, PREFIX as ORDER};
use crate::domain::payment::PREFIX as PAYMENT;
use crate::domain::{Orders, Payments};
use crate::json::number::display;
use crate::observe::entry::{DueRecord, Entry, Kept};
use crate::observe::span_entry::{DueSpan, Part, SpanEntry, Why};
use crate::observe::Journal;
use crate::sim::invalid::{Invalid, InvalidKind};
use crate::sim::latency::{Profile, MAX_STEP_MS};
use crate::sim::third_party::{DecidedBy, Failure, Verdict};
use crate::sim::time_limits::{check_time, MAX_SAFE_INTEGER};
use crate::sim::Settings;

type Checked = Result<(), Invalid>;

/// Refuses the first bad field, or accepts the whole.
pub(crate) fn check(parts: &Parts) -> Checked {
    let mut checking = Checking::default();
    while !checking.step(parts)? {}
    Ok(())
}

/// Rows a step of `Checking` looks at, at most: a few ms of work.
const ROWS: usize = 2048;

/// `check` a bounded share at a time, for a restore done in steps: the
/// same checks in the same order, so the same first refusal.
#[derive(Default)]
pub(crate) struct Checking {
    stage: Stage,
    /// How far through the stage's rows.
    at: usize,
    /// The rows of the stage in the order they are checked (positions).
    sorted: Vec<u32>,
    /// The deleted ids in code order: the table is hashed, and of
    /// several bad ids the first is named.
    deleted: Vec<Code>,
    /// The attempts by order, in code order, for the same reason.
    attempts: Vec<(Code, u32)>,
    /// Every id ever issued (live and deleted), which payments may name.
    known: HashSet<Code, ByCode>,
    /// Payments of each live order so far.
    paid: HashMap<Code, u32, ByCode>,
    last_seq: u64,
}

#[derive(Default, Clone, Copy, PartialEq, Eq)]
enum Stage {
    #[default]
    Settings,
    Orders,
    Deleted,
    Attempts,
    Payments,
    Records,
    Spans,
    Rest,
    Done,
}

impl Checking {
    /// The next share of the checks; whether all have passed.
    pub(crate) fn step(&mut self, parts: &Parts) -> Result<bool, Invalid> {
        match self.stage {
            Stage::Settings => {
                settings(&parts.settings)?;
                self.sorted = parts.orders.sorted_rows();
                self.next(Stage::Orders);
            }
            Stage::Orders => self.order_rows(&parts.orders)?,
            Stage::Deleted => self.deleted_codes(parts)?,
            Stage::Attempts => self.attempt_counts(&parts.payments)?,
            Stage::Payments => self.payment_rows(parts)?,
            Stage::Records => self.records(&parts.journal)?,
            Stage::Spans => self.spans(&parts.journal)?,
            Stage::Rest => {
                rest(parts)?;
                self.next(Stage::Done);
            }
            Stage::Done => {}
        }
        Ok(self.stage == Stage::Done)
    }

    /// A share of the orders, in code order, each known once checked;
    /// after the last, the deleted codes.
    fn order_rows(&mut self, orders: &Orders) -> Result<(), Invalid> {
        let share = self.share(self.sorted.len());
        for &i in self.sorted.get(share).unwrap_or_default() {
            if let Some(row) = orders.rows.get(i as usize) {
                order(row)?;
                self.known.insert(row.code);
            }
        }
        if self.at == self.sorted.len() {
            self.deleted = orders.sorted_deleted();
            self.next(Stage::Deleted);
        }
        Ok(())
    }

    /// A share of the deleted codes; after the last, the codes issued
    /// and the count of orders, then the payment attempts.
    fn deleted_codes(&mut self, parts: &Parts) -> Result<(), Invalid> {
        let share = self.share(self.deleted.len());
        for &code in self.deleted.get(share).unwrap_or_default() {
            deleted(&mut self.known, code)?;
        }
        if self.at == self.deleted.len() {
            issued(&parts.orders, &self.known)?;
            max_orders(parts)?;
            self.deleted = Vec::new();
            self.attempts = parts.payments.sorted_attempts();
            self.next(Stage::Attempts);
        }
        Ok(())
    }

    /// A share of the attempt counts by order; after the last, the
    /// payments.
    fn attempt_counts(&mut self, payments: &Payments) -> Result<(), Invalid> {
        let share = self.share(self.attempts.len());
        for (order, count) in self.attempts.get(share).unwrap_or_default() {
            attempts(&self.known, order, *count)?;
        }
        if self.at == self.attempts.len() {
            self.attempts = Vec::new();
            self.sorted = payments.sorted_rows();
            self.next(Stage::Payments);
        }
        Ok(())
    }

    /// A share of the payments, in code order; after the last, the
    /// journal's head.
    fn payment_rows(&mut self, parts: &Parts) -> Result<(), Invalid> {
        let (orders, payments) = (&parts.orders, &parts.payments);
        let share = self.share(self.sorted.len());
        for &i in self.sorted.get(share).unwrap_or_default() {
            if let Some(row) = payments.rows.get(i as usize) {
                payment(row, payments, orders, &self.known, &mut self.paid)?;
            }
        }
        if self.at == self.sorted.len() {
            journal_head(&parts.journal, parts.settings.log_capacity)?;
            self.sorted = Vec::new();
            self.next(Stage::Records);
        }
        Ok(())
    }

    /// A share of the log records, each in turn after the one before;
    /// after the last, the spans' head.
    fn records(&mut self, journal: &Journal) -> Result<(), Invalid> {
        let next_seq = journal.next_seq();
        let records = journal.entries(None);
        let count = records.len();
        let share = self.share(count);
        for (i, record) in records.enumerate().skip(share.start).take(share.len()) {
            self.last_seq = record_in_turn(record, i, self.last_seq, next_seq)?;
        }
        if self.at == count {
            spans_head(journal)?;
            self.next(Stage::Spans);
        }
        Ok(())
    }

    /// A share of the spans; after the last, the rest of the snapshot.
    fn spans(&mut self, journal: &Journal) -> Result<(), Invalid> {
        let count = journal.span_entries().len();
        let share = self.share(count);
        let spans = journal.span_entries().enumerate();
        for (i, s) in spans.skip(share.start).take(share.len()) {
            span(s, &|field: &str| {
                msg!("snapshot.journal.spans[", i, "].", field)
            })?;
        }
        if self.at == count {
            self.next(Stage::Rest);
        }
        Ok(())
    }

    /// The next share of a stage's `len` rows (at most `ROWS`), by
    /// position; the stage's place moves past them.
    fn share(&mut self, len: usize) -> core::ops::Range<usize> {
        let from = self.at.min(len);
        self.at = len.min(from + ROWS);
        from..self.at
    }

    fn next(&mut self, stage: Stage) {
        self.stage = stage;
        self.at = 0;
    }
}

fn max_orders(parts: &Parts) -> Checked {
    let kept = parts.orders.len();
    if kept > parts.settings.max_orders {
        return Err(Invalid::out_of_range(
            "snapshot.settings.maxOrders",
            msg!(
                "must be at least the ",
                kept,
                " orders the snapshot keeps, got ",
                parts.settings.max_orders
            ),
        ));
    }
    Ok(())
}

/// The checks after the journal's.
fn rest(parts: &Parts) -> Checked {
    if let Some((_, 0)) = parts.forced_next {
        return Err(Invalid::out_of_range(
            "snapshot.forced_next",
            "a pending forced outcome must cover at least 1 attempt, got 0",
        ));
    }
    if let Some(now) = parts.clock {
        check_time("snapshot.clock", now)?;
    }
    idempotency_keys(parts)
}

/// The kept answers: no more than `idempotencyKeys`, each first used at
/// a time a `Date` holds.
fn idempotency_keys(parts: &Parts) -> Checked {
    let keys = &parts.idempotency;
    if keys.len() > parts.settings.idempotency_keys {
        return Err(Invalid::out_of_range(
            "snapshot.settings.idempotencyKeys",
            msg!(
                "must be at least the ",
                keys.len(),
                " idempotency keys the snapshot keeps, got ",
                parts.settings.idempotency_keys
            ),
        ));
    }
    for (key, kept) in keys.iter() {
        let at = msg!("snapshot.idempotency[", Q(key), "].firstUsed");
        check_time(&at, kept.first_used)?;
    }
    Ok(())
}

fn settings(s: &Settings) -> Checked {
    if s.seed > MAX_SAFE_INTEGER {
        return Err(Invalid::out_of_range(
            "snapshot.settings.seed",
            msg!(
                "must be a whole number from 0 to ",
                MAX_SAFE_INTEGER,
                ", got ",
                s.seed
            ),
        ));
    }
    if s.max_orders as u64 > MAX_SAFE_INTEGER {
        return Err(Invalid::out_of_range(
            "snapshot.settings.maxOrders",
            msg!(
                "must be a whole number from 0 to ",
                MAX_SAFE_INTEGER,
                ", got ",
                s.max_orders
            ),
        ));
    }
    s.check().map_err(|msg| Invalid {
        kind: InvalidKind::OutOfRange,
        msg: msg!("snapshot.settings.", msg),
    })?;
    let latency = &s.latency;
    for (name, profile) in [
        ("order", &latency.order),
        ("payment", &latency.payment),
        ("thirdParty", &latency.third_party),
        ("test", &latency.test),
    ] {
        step(name, profile)?;
    }
    Ok(())
}

fn step(name: &str, p: &Profile) -> Checked {
    for (field, ms) in [
        ("baseMs", p.base_ms),
        ("spreadMs", p.spread_ms),
        ("tailMs", p.tail_ms),
    ] {
        if ms > MAX_STEP_MS {
            return Err(Invalid::out_of_range(
                &msg!("snapshot.settings.latency.", name, ".", field),
                msg!(
                    "must be a whole number of ms from 0 to ",
                    MAX_STEP_MS,
                    ", got ",
                    ms
                ),
            ));
        }
    }
    if !(0.0..=1.0).contains(&p.tail_chance) {
        return Err(Invalid::out_of_range(
            &msg!("snapshot.settings.latency.", name, ".tailChance"),
            msg!("must be a number from 0 to 1, got ", display(p.tail_chance)),
        ));
    }
    Ok(())
}

/// One live order (in code order). The reader has checked the ids' form.
fn order(row: &crate::domain::order::Row) -> Checked {
    let at = |field: &str| {
        msg!(
            "snapshot.orders.live[",
            Q(&row.code.text(ORDER)),
            "].",
            field
        )
    };
    named(&at, "userId", |f| {
        text(f, &row.user_id, MAX_USER_ID_CHARS, true)
    })?;
    named(&at, "description", |f| {
        text(f, &row.description, MAX_DESCRIPTION_CHARS, false)
    })?;
    named(&at, "createdAt", |f| {
        check_time(f, row.created_at).map(drop)
    })
}

/// One deleted order, added to `known`, the ids issued.
fn deleted(known: &mut HashSet<Code, ByCode>, code: Code) -> Checked {
    if !known.insert(code) {
        return Err(Invalid::out_of_range(
            &msg!("snapshot.orders.deleted[", Q(&code.text(ORDER)), "]"),
            "is also a live order: an order is live or deleted, not both",
        ));
    }
    Ok(())
}

/// The ids issued, counted, against the orders live or deleted.
fn issued(orders: &Orders, known: &HashSet<Code, ByCode>) -> Checked {
    let issued = orders
        .made
        .values()
        .fold(0u64, |sum, &n| sum.saturating_add(n));
    if issued < known.len() as u64 {
        return Err(Invalid::out_of_range(
            "snapshot.orders.made",
            msg!(
                "counts ",
                issued,
                " ids issued, fewer than the ",
                known.len(),
                " orders live or deleted"
            ),
        ));
    }
    Ok(())
}

/// One order's count of payment attempts; `known` holds every id issued.
fn attempts(known: &HashSet<Code, ByCode>, order: &Code, n: u32) -> Checked {
    let at = || msg!("snapshot.payments.attempts[", Q(&order.text(ORDER)), "]");
    if !known.contains(order) {
        return Err(Invalid::out_of_range(
            &at(),
            "is not an order of this snapshot",
        ));
    }
    if n == 0 {
        return Err(Invalid::out_of_range(&at(), "must be at least 1, got 0"));
    }
    Ok(())
}

/// One payment (in code order). `known` holds every id issued; the
/// attempts of a deleted order are forgotten, so only a live order's
/// payments are counted against them (in `paid`).
fn payment(
    row: &crate::domain::payment::Row,
    payments: &Payments,
    orders: &Orders,
    known: &HashSet<Code, ByCode>,
    paid: &mut HashMap<Code, u32, ByCode>,
) -> Checked {
    let at = |field: &str| {
        msg!(
            "snapshot.payments.by_id[",
            Q(&row.code.text(PAYMENT)),
            "].",
            field
        )
    };
    if !known.contains(&row.order) {
        return Err(Invalid::out_of_range(
            &at("orderId"),
            msg!(
                Q(&row.order.text(ORDER)),
                " is not an order of this snapshot"
            ),
        ));
    }
    named(&at, "paidAt", |f| check_time(f, row.paid_at).map(drop))?;
    if !orders.index.contains_key(&row.order) {
        return Ok(());
    }
    let count = paid.entry(row.order).or_insert(0);
    *count = count.saturating_add(1);
    let tried = payments.attempts.get(&row.order).copied().unwrap_or(0);
    if *count > tried {
        return Err(Invalid::out_of_range(
            &msg!(
                "snapshot.payments.attempts[",
                Q(&row.order.text(ORDER)),
                "]"
            ),
            msg!(
                "counts ",
                tried,
                " attempts, fewer than the order's ",
                *count,
                " payments"
            ),
        ));
    }
    Ok(())
}

/// The journal's counts, before its records.
fn journal_head(journal: &Journal, log_capacity: usize) -> Checked {
    let capacity = journal.capacity();
    if capacity != log_capacity {
        return Err(Invalid::out_of_range(
            "snapshot.journal.capacity",
            msg!(
                "must equal settings.logCapacity ",
                log_capacity,
                ", got ",
                capacity
            ),
        ));
    }
    let next_seq = journal.next_seq();
    if !(1..=MAX_SAFE_INTEGER).contains(&next_seq) {
        return Err(Invalid::out_of_range(
            "snapshot.journal.next_seq",
            msg!(
                "must be a whole number from 1 to ",
                MAX_SAFE_INTEGER,
                ", got ",
                next_seq
            ),
        ));
    }
    let kept = journal.len();
    if kept > capacity {
        return Err(Invalid::out_of_range(
            "snapshot.journal.records",
            msg!(
                "holds ",
                kept,
                " records, more than the capacity ",
                capacity
            ),
        ));
    }
    let dropped = journal.dropped();
    if dropped.saturating_add(kept as u64) > next_seq - 1 {
        return Err(Invalid::out_of_range(
            "snapshot.journal.dropped",
            msg!(
                dropped,
                " dropped and ",
                kept,
                " kept is more than the ",
                next_seq - 1,
                " records written"
            ),
        ));
    }
    Ok(())
}

/// The `i`th record, after one of seq `last_seq`; its own seq.
fn record_in_turn(record: &Entry, i: usize, last_seq: u64, next_seq: u64) -> Result<u64, Invalid> {
    let at = |field: &str| msg!("snapshot.journal.records[", i, "].", field);
    if record.seq <= last_seq || record.seq >= next_seq {
        return Err(Invalid::out_of_range(
            &at("seq"),
            msg!(
                "must be above the previous record's ",
                last_seq,
                " and below next_seq ",
                next_seq,
                ", got ",
                record.seq
            ),
        ));
    }
    entry(record, &at)?;
    Ok(record.seq)
}

/// The count of spans, before the spans.
fn spans_head(journal: &Journal) -> Checked {
    let capacity = journal.capacity();
    let spans = journal.span_entries().len();
    if spans > capacity {
        return Err(Invalid::out_of_range(
            "snapshot.journal.spans",
            msg!("holds ", spans, " spans, more than the capacity ", capacity),
        ));
    }
    Ok(())
}

/// Runs `check` on a field, writing the field's path out only when the
/// check refuses it: a check passes or refuses whatever the path says, so
/// it runs first with none, then again with the path for its message.
fn named(at: &dyn Fn(&str) -> String, field: &str, check: impl Fn(&str) -> Checked) -> Checked {
    match check("") {
        Ok(()) => Ok(()),
        Err(_) => check(&at(field)),
    }
}

fn entry(record: &Entry, at: &dyn Fn(&str) -> String) -> Checked {
    named(at, "timestamp", |f| {
        check_time(f, record.timestamp).map(drop)
    })?;
    match &record.stage {
        Kept::Gateway(_) => Ok(()),
        Kept::Due(due) => {
            let DueRecord::Webhook(w) = &**due else {
                return Ok(());
            };
            named(at, "durationMs", |f| safe_count(f, w.duration_ms))?;
            match w.next_at {
                Some(t) => named(at, "nextAttemptAt", |f| check_time(f, t).map(drop)),
                None => Ok(()),
            }
        }
        Kept::Service {
            duration, outcome, ..
        } => {
            named(at, "duration", |f| safe_count(f, *duration))?;
            outcome
                .as_ref()
                .map_or(Ok(()), |v| named(at, "outcome", |f| verdict(f, v)))
        }
        Kept::Response(_, answer) => {
            named(at, "duration", |f| {
                safe_count(f, answer.duration.unwrap_or(0))
            })?;
            status_and_code(at, answer.http_status, answer.code, &answer.msg)
        }
    }
}

fn status_and_code(at: &dyn Fn(&str) -> String, http_status: u16, code: i32, msg: &str) -> Checked {
    // 0: no answer at all, a scenario's network fault, which says so.
    let lost = http_status == 0 && msg.starts_with("network fault: ");
    if !lost && !(100..=599).contains(&http_status) {
        return Err(Invalid::out_of_range(
            &at("httpStatus"),
            msg!("must be an HTTP status from 100 to 599, got ", http_status),
        ));
    }
    if ![0, -1, i32::from(http_status)].contains(&code) {
        return Err(Invalid::out_of_range(
            &at("code"),
            msg!(
                "must be 0, -1 or the HTTP status ",
                http_status,
                ", got ",
                code
            ),
        ));
    }
    Ok(())
}

fn span(s: &SpanEntry, at: &dyn Fn(&str) -> String) -> Checked {
    named(at, "start", |f| check_time(f, s.start).map(drop))?;
    named(at, "end", |f| check_time(f, s.end).map(drop))?;
    if s.end < s.start {
        return Err(Invalid::out_of_range(
            &at("end"),
            msg!("must not be before start ", s.start, ", got ", s.end),
        ));
    }
    match &s.part {
        Part::Gateway {
            http_status,
            code,
            msg,
            ..
        } => status_and_code(at, *http_status, *code, msg),
        Part::ThirdParty {
            attempt,
            why: Why::Verdict(v),
            ..
        } => {
            if *attempt == 0 {
                return Err(Invalid::out_of_range(
                    &at("attributes.orderpay.attempt"),
                    "must be at least 1, got 0",
                ));
            }
            named(at, "attributes", |f| verdict(f, v))
        }
        Part::ThirdParty { attempt: 0, .. } => Err(Invalid::out_of_range(
            &at("attributes.orderpay.attempt"),
            "must be at least 1, got 0",
        )),
        Part::Due(due) => match &**due {
            DueSpan::Webhook(w) => match w.next_at {
                Some(t) => named(at, "attributes.orderpay.webhook.next_attempt_at", |f| {
                    check_time(f, t).map(drop)
                }),
                None => Ok(()),
            },
            DueSpan::Payment(_) => Ok(()),
        },
        _ => Ok(()),
    }
}

fn verdict(at: &str, d: &Verdict) -> Checked {
    if d.attempt == 0 {
        return Err(Invalid::out_of_range(
            &msg!(at, ".attempt"),
            "must be at least 1, got 0",
        ));
    }
    if !(0.0..1.0).contains(&d.draw) {
        return Err(Invalid::out_of_range(
            &msg!(at, ".draw"),
            msg!("must be a number from 0 up to 1, got ", display(d.draw)),
        ));
    }
    if !(0.0..=1.0).contains(&d.threshold) {
        return Err(Invalid::out_of_range(
            &msg!(at, ".threshold"),
            msg!("must be a number from 0 to 1, got ", display(d.threshold)),
        ));
    }
    // A rule of a kind that changes later approves, with no failure, and
    // names itself (every rule has a name).
    let changes_later = d.approved && d.failure == Failure::None && d.scenario_rule().is_some();
    let by_scenario = d.failure.third_party().is_some() || changes_later;
    if d.card.is_some() != (d.rule == DecidedBy::Card) {
        return Err(Invalid::out_of_range(
            &msg!(at, ".rule"),
            "\"card\" goes with a test card's number (card), and card with \"card\"",
        ));
    }
    if (d.rule == DecidedBy::Scenario && !by_scenario)
        || (d.scenario_rule().is_some() && d.rule != DecidedBy::Scenario)
    {
        return Err(Invalid::out_of_range(
            &msg!(at, ".rule"),
            "\"scenario\" goes with a scenario's decline, timeout or status, and scenarioRule with \"scenario\"",
        ));
    }
    Ok(())
}

fn safe_count(at: &str, n: u64) -> Checked {
    if n > MAX_SAFE_INTEGER {
        return Err(Invalid::out_of_range(
            at,
            msg!(
                "must be a whole number from 0 to ",
                MAX_SAFE_INTEGER,
                ", got ",
                n
            ),
        ));
    }
    Ok(())
}

/// The rules of `userId` and `description` on create, so a restored order
/// is one the service could have made.
fn text(at: &str, value: &str, max_chars: usize, identifier: bool) -> Checked {
    crate::gateway::body::bounded_text(at, value, max_chars, identifier)
        .map(|_| ())
        .map_err(|e| Invalid {
            kind: InvalidKind::OutOfRange,
            msg: e.msg(),
        })
}
