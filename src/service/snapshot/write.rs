//! The snapshot written: the live service's parts, or a frozen copy of
//! them, as compact JSON text, whole or in pieces a cursor asks for.

use crate::prelude::*;

use super::parts::{Parts, FORMAT};
use crate::domain::delivery::Deliveries;
use crate::domain::order::{Row as OrderRow, PREFIX as ORDER};
use crate::domain::payment::{Row as PaymentRow, PREFIX as PAYMENT};
use crate::domain::webhook::Endpoints;
use crate::domain::{Orders, Payments};
use crate::gateway::envelope::{order as write_order, payment as write_payment};
use crate::gateway::events::Events;
use crate::gateway::idempotency::IdempotencyKeys;
use crate::gateway::Backend;
use crate::json::{self, Out};
use crate::observe::{render, Counters, Journal};
use crate::sim::latency::Profile;
use crate::sim::scenario::Scenario;
use crate::sim::settings::DEFAULT_IDEMPOTENCY_KEYS;
use crate::sim::streams::Streams;
use crate::sim::third_party::Forced;
use crate::sim::Settings;

fn profile(out: &mut Out, p: &Profile) {
    out.begin_object();
    out.key("baseMs");
    out.uint(p.base_ms);
    out.key("spreadMs");
    out.uint(p.spread_ms);
    out.key("tailChance");
    out.num(p.tail_chance);
    out.key("tailMs");
    out.uint(p.tail_ms);
    out.end_object();
}

/// The settings as the `settings` getter and snapshots show them.
pub fn settings(out: &mut Out, s: &Settings) {
    out.begin_object();
    out.key("seed");
    out.uint(s.seed);
    out.key("failureRate");
    out.num(s.failure_rate);
    out.key("logCapacity");
    out.uint(s.log_capacity as u64);
    out.key("latency");
    out.begin_object();
    let l = &s.latency;
    for (name, p) in [
        ("order", &l.order),
        ("payment", &l.payment),
        ("thirdParty", &l.third_party),
        ("test", &l.test),
    ] {
        out.key(name);
        profile(out, p);
    }
    out.end_object();
    out.key("maxOrders");
    out.uint(s.max_orders as u64);
    // Only when chosen: the default settings read as they always have.
    if s.idempotency_keys != DEFAULT_IDEMPOTENCY_KEYS {
        out.key("idempotencyKeys");
        out.uint(s.idempotency_keys as u64);
    }
    out.end_object();
}

fn streams(out: &mut Out, s: &Streams) {
    out.begin_object();
    for (name, rng) in [
        ("ids", &s.ids),
        ("traces", &s.traces),
        ("latency", &s.latency),
        ("batch", &s.batch),
    ] {
        out.key(name);
        out.begin_object();
        out.key("state");
        out.uint(rng.state);
        out.end_object();
    }
    out.end_object();
}

/// An order table's members after `live`: deleted ids and the content
/// hashes of orders made.
fn orders_rest(out: &mut Out, o: &Orders) {
    out.key("deleted");
    out.begin_array();
    for code in o.sorted_deleted() {
        out.str(&code.text(ORDER));
    }
    out.end_array();
    out.key("made");
    out.begin_object();
    let mut key = String::new();
    for (hash, n) in o.sorted_made() {
        key.clear();
        json::write::push_uint(&mut key, hash);
        out.key(&key);
        out.uint(n);
    }
    out.end_object();
}

/// A payment table's members after `by_id`: attempts by order.
fn payments_rest(out: &mut Out, p: &Payments) {
    out.key("attempts");
    out.begin_object();
    for (code, n) in p.sorted_attempts() {
        out.key_text(&code.text(ORDER));
        out.uint(u64::from(n));
    }
    out.end_object();
}

/// What a snapshot is written from: the live service's parts, or a copy
/// of them a cursor froze (`Parts`), so both forms share one writer.
pub(crate) struct View<'a> {
    pub settings: &'a Settings,
    pub streams: &'a Streams,
    pub orders: &'a Orders,
    pub payments: &'a Payments,
    pub journal: &'a Journal,
    pub forced_next: Option<(Forced, u32)>,
    pub clock: Option<i64>,
    pub counters: Option<&'a Counters>,
    pub idempotency: &'a IdempotencyKeys,
    pub scenario: Option<&'a Scenario>,
    pub events: &'a Events,
    pub endpoints: &'a Endpoints,
    pub deliveries: &'a Deliveries,
}

impl<'a> View<'a> {
    pub fn of(b: &'a Backend) -> View<'a> {
        View {
            settings: &b.settings,
            streams: &b.streams,
            orders: &b.orders,
            payments: &b.payments,
            journal: &b.journal,
            forced_next: b.forced_next,
            clock: b.clock.saved(),
            counters: Some(&b.counters),
            idempotency: &b.idempotency,
            scenario: b.scenario.as_ref(),
            events: &b.events,
            endpoints: &b.endpoints,
            deliveries: &b.deliveries,
        }
    }

    pub fn of_parts(p: &'a Parts) -> View<'a> {
        View {
            settings: &p.settings,
            streams: &p.streams,
            orders: &p.orders,
            payments: &p.payments,
            journal: &p.journal,
            forced_next: p.forced_next,
            clock: p.clock,
            counters: p.counters.as_ref(),
            idempotency: &p.idempotency,
            scenario: p.scenario.as_ref(),
            events: &p.events,
            endpoints: &p.endpoints,
            deliveries: &p.deliveries,
        }
    }

    /// The rows a snapshot lists one by one: orders, payments, records
    /// and spans, for a cursor's progress.
    fn rows(&self) -> usize {
        self.orders.len()
            + self.payments.len()
            + self.journal.len()
            + self.journal.span_entries().len()
    }
}

/// Where a snapshot written in pieces has got to. The long lists (orders
/// and payments by id, records, spans) resume after the last row written;
/// everything else is written whole, in `head`, `between_*` and `tail`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Step {
    Head,
    /// The positions reached in the orders' and payments' code order.
    Orders(usize),
    Payments(usize),
    Records(usize),
    Spans(usize),
    Tail,
    Done,
}

/// A snapshot written a piece at a time, from a `View` that must not
/// change between pieces. The pieces joined are `write`'s text, byte for
/// byte: `write` is this writer asked for one piece of unbounded size.
pub(crate) struct Writer {
    step: Step,
    out: Out,
    rows_done: usize,
    /// The orders' and payments' rows in code order, each found once
    /// (the orders' index is a hash table, so a piece cannot resume from
    /// a code).
    order_rows: Option<Vec<u32>>,
    payment_rows: Option<Vec<u32>>,
}

impl Writer {
    pub fn new(v: &View) -> Writer {
        let estimate = v.journal.len() * 300 + v.orders.len() * 300 + 1024;
        Writer {
            step: Step::Head,
            out: Out::with_capacity(estimate.min(1 << 20)),
            rows_done: 0,
            order_rows: None,
            payment_rows: None,
        }
    }

    /// The next piece: at least `size` bytes (a row is never split), or
    /// what is left; `None` once the whole snapshot has been handed out.
    pub fn next(&mut self, v: &View, size: usize) -> Option<String> {
        if self.step == Step::Done {
            return None;
        }
        if size == usize::MAX {
            self.out
                .text
                .reserve(v.journal.len() * 300 + v.orders.len() * 300 + 1024);
        }
        while self.step != Step::Done && self.out.text.len() < size {
            self.step = self.advance(v, size);
        }
        Some(core::mem::take(&mut self.out.text))
    }

    /// The share of rows written so far, from 0 to 1.
    pub fn progress(&self, v: &View) -> f64 {
        match self.step {
            Step::Done => 1.0,
            _ => self.rows_done as f64 / (v.rows() + 1) as f64,
        }
    }

    /// Writes on from the step reached; the step after what was written.
    fn advance(&mut self, v: &View, size: usize) -> Step {
        let out = &mut self.out;
        match self.step {
            Step::Head => {
                head(out, v);
                Step::Orders(0)
            }
            Step::Orders(from) => self.orders(v, size, from),
            Step::Payments(from) => self.payments(v, size, from),
            Step::Records(from) => {
                let rest = v.journal.entries(None).skip(from);
                match count_until(out, size, &mut self.rows_done, rest, render::record) {
                    Some(written) => Step::Records(from + written),
                    None => {
                        between_records_and_spans(out, v);
                        Step::Spans(0)
                    }
                }
            }
            Step::Spans(from) => {
                let rest = v.journal.span_entries().skip(from);
                match count_until(out, size, &mut self.rows_done, rest, render::span) {
                    Some(written) => Step::Spans(from + written),
                    None => Step::Tail,
                }
            }
            Step::Tail => {
                tail(out, v);
                Step::Done
            }
            Step::Done => Step::Done,
        }
    }

    /// The orders from the `from`th on, in code order, until the piece is
    /// full; after the last, what stands between them and the payments.
    fn orders(&mut self, v: &View, size: usize, from: usize) -> Step {
        let order = self
            .order_rows
            .get_or_insert_with(|| v.orders.sorted_rows());
        let rest = order
            .iter()
            .skip(from)
            .filter_map(|&i| v.orders.rows.get(i as usize));
        let out = &mut self.out;
        match count_until(out, size, &mut self.rows_done, rest, order_row) {
            Some(written) => Step::Orders(from + written),
            None => {
                between_orders_and_payments(out, v);
                Step::Payments(0)
            }
        }
    }

    /// The payments from the `from`th on, in code order, until the piece
    /// is full; after the last, what stands between them and the records.
    fn payments(&mut self, v: &View, size: usize, from: usize) -> Step {
        let order = self
            .payment_rows
            .get_or_insert_with(|| v.payments.sorted_rows());
        let rest = order
            .iter()
            .skip(from)
            .filter_map(|&i| v.payments.rows.get(i as usize));
        let out = &mut self.out;
        match count_until(out, size, &mut self.rows_done, rest, payment_row) {
            Some(written) => Step::Payments(from + written),
            None => {
                between_payments_and_records(out, v);
                Step::Records(0)
            }
        }
    }
}

/// Writes items until the piece is full; how many were written when some
/// are left, `None` when all are written.
fn count_until<'r, T: 'r>(
    out: &mut Out,
    size: usize,
    done: &mut usize,
    items: impl Iterator<Item = &'r T>,
    write: fn(&mut Out, &T),
) -> Option<usize> {
    let mut items = items.peekable();
    let mut written = 0;
    while let Some(item) = items.next() {
        write(out, item);
        written += 1;
        *done += 1;
        if out.text.len() >= size && items.peek().is_some() {
            return Some(written);
        }
    }
    None
}

fn order_row(out: &mut Out, row: &OrderRow) {
    let mut id = String::with_capacity(12);
    row.code.push(ORDER, &mut id);
    out.key_text(&id);
    write_order(out, &row.order());
}

fn payment_row(out: &mut Out, row: &PaymentRow) {
    let mut id = String::with_capacity(12);
    row.code.push(PAYMENT, &mut id);
    out.key_text(&id);
    write_payment(out, &row.payment());
}

/// Everything before the first order: the small members a snapshot opens
/// with. A new member that is small goes here or in `tail`.
fn head(out: &mut Out, v: &View) {
    out.begin_object();
    out.key("format");
    out.uint(FORMAT);
    out.key("settings");
    settings(out, v.settings);
    out.key("streams");
    streams(out, v.streams);
    out.key("orders");
    out.begin_object();
    out.key("live");
    out.begin_object();
}

fn between_orders_and_payments(out: &mut Out, v: &View) {
    out.end_object();
    orders_rest(out, v.orders);
    out.end_object();
    out.key("payments");
    out.begin_object();
    out.key("by_id");
    out.begin_object();
}

fn between_payments_and_records(out: &mut Out, v: &View) {
    out.end_object();
    payments_rest(out, v.payments);
    out.end_object();
    out.key("journal");
    out.begin_object();
    out.key("capacity");
    out.uint(v.journal.capacity() as u64);
    out.key("records");
    out.begin_array();
}

fn between_records_and_spans(out: &mut Out, v: &View) {
    out.end_array();
    out.key("dropped");
    out.uint(v.journal.dropped());
    out.key("next_seq");
    out.uint(v.journal.next_seq());
    out.key("spans");
    out.begin_array();
}

/// Everything after the last span: the journal closed, then the small
/// members a snapshot ends with.
fn tail(out: &mut Out, v: &View) {
    out.end_array();
    out.end_object();
    out.key("forced_next");
    match v.forced_next {
        Some((outcome, count)) => {
            out.begin_array();
            out.plain(outcome.as_str());
            out.uint(u64::from(count));
            out.end_array();
        }
        None => out.null(),
    }
    out.key("clock");
    match v.clock {
        Some(now) => out.int(now),
        None => out.null(),
    }
    if let Some(counters) = v.counters {
        out.key("counters");
        counters.write(out);
    }
    if let Some(scenario) = v.scenario {
        out.key("scenario");
        scenario.write_saved(out);
    }
    if !v.idempotency.is_empty() {
        out.key("idempotency");
        idempotency_keys(out, v.idempotency);
    }
    if !v.payments.plans.is_empty() {
        out.key("paymentPlans");
        super::plans::write(out, &v.payments.plans);
    }
    super::webhooks::write(out, v.events, v.endpoints, v.deliveries);
    out.end_object();
}

/// The kept answers by key, in key order: `{"key": {method, path, body
/// (the body's hash, 16 hex digits), firstUsed, status, code, msg, data
/// (the envelope's data as its JSON text, or null)}}`.
fn idempotency_keys(out: &mut Out, keys: &IdempotencyKeys) {
    out.begin_object();
    for (key, kept) in keys.iter() {
        out.key_text(key);
        out.begin_object();
        out.key("method");
        out.str(&kept.fingerprint.method);
        out.key("path");
        out.str(&kept.fingerprint.path);
        out.key("body");
        let mut hash = String::with_capacity(16);
        json::write::push_hex64(&mut hash, kept.fingerprint.body);
        out.str(&hash);
        out.key("firstUsed");
        out.int(kept.first_used);
        out.key("status");
        out.uint(u64::from(kept.status));
        out.key("code");
        out.int(i64::from(kept.code));
        out.key("msg");
        out.str(&kept.msg);
        out.key("data");
        match &kept.data {
            Some(text) => out.str(text),
            None => out.null(),
        }
        out.end_object();
    }
    out.end_object();
}

/// The whole service as compact JSON text.
pub fn write(b: &Backend) -> String {
    let view = View::of(b);
    let mut writer = Writer::new(&view);
    writer.next(&view, usize::MAX).unwrap_or_default()
}
