//! The snapshot: a whole service as JSON text, written and read by hand in
//! one place. `read` builds the parsed state (`Parts`) and nothing else,
//! so checks of a restored state plug in after it. The format is the one
//! snapshots have always had (format 1); `maxOrders`, added later, is
//! optional and defaults as a new service's would.

use crate::prelude::*;

use alloc::collections::VecDeque;
use alloc::rc::Rc;
use core::mem::take;

use crate::domain::code::Code;
use crate::domain::money::Money;
use crate::domain::order::{Row as OrderRow, PREFIX as ORDER};
use crate::domain::payment::{PaymentStatus, Row as PaymentRow, PREFIX as PAYMENT};
use crate::domain::{OrderStatus, Orders, PaymentMethod, Payments};
use crate::gateway::envelope::{order as write_order, payment as write_payment};
use crate::gateway::idempotency::{check_key, Fingerprint, IdempotencyKeys, KeptAnswer};
use crate::gateway::Backend;
use crate::json::message::{Msg, Path, Place};
use crate::json::number::parse_u64;
use crate::json::{self, Json, Out};
use crate::observe::entry::Entry;
use crate::observe::span_entry::SpanEntry;
use crate::observe::{render, restore, Counters, Journal};
use crate::sim::invalid::{Invalid, InvalidKind};
use crate::sim::latency::{LatencyModel, Profile};
use crate::sim::random::Rng;
use crate::sim::scenario::Scenario;
use crate::sim::settings::{DEFAULT_IDEMPOTENCY_KEYS, DEFAULT_MAX_ORDERS};
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
}

// ------------------------------------------------------------------ writing

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
        }
    }
}

/// The whole service as compact JSON text.
pub fn write(b: &Backend) -> String {
    let view = View::of(b);
    let mut writer = Writer::new(&view);
    writer.next(&view, usize::MAX).unwrap_or_default()
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

// ------------------------------------------------------------------ reading
//
// Every refusal is an `Invalid` naming the field by its path in the
// snapshot (`snapshot.settings.seed`, `snapshot.orders.live["ORD-…"].price`):
// a value of the wrong JSON type or a missing field is a `WrongType`, a
// value of the right type that this service would never write an
// `OutOfRange`.

pub(crate) type Read<T> = Result<T, Invalid>;

/// What a value is, for a message: `string "11"`, `number -1`, `null`.
fn shown(m: &mut Msg, v: &Json) {
    match v {
        Json::Null => m.s("null"),
        Json::Bool(true) => m.s("boolean true"),
        Json::Bool(false) => m.s("boolean false"),
        Json::Num(n) => m.s("number ").s(n),
        Json::Str(s) => m.s("string ").q(s),
        Json::Arr(_) => m.s("an array"),
        Json::Obj(_) => m.s("an object"),
    };
}

/// A refusal at `at`: its place, `: `, then `problem`.
#[inline(never)]
fn refusal(kind: InvalidKind, at: &dyn Place, problem: &mut Msg) -> Invalid {
    let mut m = Msg::default();
    at.write_place(&mut m);
    m.s(": ").s(problem.buffer());
    Invalid {
        kind,
        msg: m.text(),
    }
}

/// `invalid type: string "11", expected a whole number`, and the like.
#[inline(never)]
fn invalid(kind: InvalidKind, at: &dyn Place, v: &Json, expected: &str) -> Invalid {
    let mut m = Msg::new(match kind {
        InvalidKind::WrongType => "invalid type: ",
        InvalidKind::OutOfRange => "invalid value: ",
    });
    shown(&mut m, v);
    refusal(kind, at, m.s(", expected ").s(expected))
}

fn wrong(at: &dyn Place, v: &Json, expected: &str) -> Invalid {
    invalid(InvalidKind::WrongType, at, v, expected)
}

fn outside(at: &dyn Place, v: &Json, expected: &str) -> Invalid {
    invalid(InvalidKind::OutOfRange, at, v, expected)
}

/// An `OutOfRange` refusal at `at`.
fn out_of_range(at: &dyn Place, problem: &mut Msg) -> Invalid {
    refusal(InvalidKind::OutOfRange, at, problem)
}

/// `problem, got "text"`, out of range at `at`.
#[inline(never)]
fn got_text(at: &dyn Place, problem: &str, text: &str) -> Invalid {
    out_of_range(at, Msg::new(problem).s(", got ").q(text))
}

fn field<'j, 'a>(o: &'j Json<'a>, at: &dyn Place, name: &str) -> Read<&'j Json<'a>> {
    o.get(name).ok_or_else(|| {
        refusal(
            InvalidKind::WrongType,
            at,
            Msg::new("missing field `").s(name).s("`"),
        )
    })
}

/// A whole number 0 or more as `v`, the value at `at`.
fn uint_value(v: &Json, at: &dyn Place) -> Read<u64> {
    match v {
        Json::Num(_) => v
            .as_u64()
            .ok_or_else(|| outside(at, v, "a whole number from 0 to 18446744073709551615")),
        _ => Err(wrong(at, v, "a whole number")),
    }
}

fn uint(o: &Json, at: &dyn Place, name: &str) -> Read<u64> {
    uint_value(field(o, at, name)?, &Path(at, name))
}

fn count(o: &Json, at: &dyn Place, name: &str) -> Read<usize> {
    let n = uint(o, at, name)?;
    usize::try_from(n).map_err(|_| out_of_range(&Path(at, name), Msg::new("too large: ").uint(n)))
}

fn int_value(v: &Json, at: &dyn Place) -> Read<i64> {
    match v {
        Json::Num(_) => v.as_i64().ok_or_else(|| {
            outside(
                at,
                v,
                "a whole number from -9223372036854775808 to 9223372036854775807",
            )
        }),
        _ => Err(wrong(at, v, "a whole number")),
    }
}

fn int(o: &Json, at: &dyn Place, name: &str) -> Read<i64> {
    int_value(field(o, at, name)?, &Path(at, name))
}

fn number(o: &Json, at: &dyn Place, name: &str) -> Read<f64> {
    let v = field(o, at, name)?;
    v.as_f64()
        .ok_or_else(|| wrong(&Path(at, name), v, "a number"))
}

fn text<'j>(o: &'j Json, at: &dyn Place, name: &str) -> Read<&'j str> {
    let v = field(o, at, name)?;
    v.as_str()
        .ok_or_else(|| wrong(&Path(at, name), v, "a string"))
}

fn money(o: &Json, at: &dyn Place, name: &str) -> Read<Money> {
    let n = number(o, at, name)?;
    Money::positive(n).ok_or_else(|| {
        out_of_range(
            &Path(at, name),
            Msg::new("must be a finite number > 0, got ").num(n),
        )
    })
}

type Members<'j, 'a> = &'j [(alloc::borrow::Cow<'a, str>, Json<'a>)];

fn object<'j, 'a>(v: &'j Json<'a>, at: &dyn Place) -> Read<Members<'j, 'a>> {
    v.as_object().ok_or_else(|| wrong(at, v, "an object"))
}

fn members<'j, 'a>(o: &'j Json<'a>, at: &str, name: &str) -> Read<Members<'j, 'a>> {
    object(field(o, &at, name)?, &Path(&at, name))
}

/// A member of a map as its place (`live["ORD-…"]`).
struct Keyed<'a>(&'a str, &'a str);

impl Place for Keyed<'_> {
    fn write_place(&self, m: &mut Msg) {
        m.s(self.0).s("[").q(self.1).s("]");
    }
}

fn read_profile(o: &Json, at: &dyn Place) -> Read<Profile> {
    object(o, at)?;
    Ok(Profile {
        base_ms: uint(o, at, "baseMs")?,
        spread_ms: uint(o, at, "spreadMs")?,
        tail_chance: number(o, at, "tailChance")?,
        tail_ms: uint(o, at, "tailMs")?,
    })
}

fn read_settings(o: &Json, at: &str) -> Read<Settings> {
    let latency_at = Path(&at, "latency");
    let latency = field(o, &at, "latency")?;
    object(latency, &latency_at)?;
    let step =
        |name: &str| read_profile(field(latency, &latency_at, name)?, &Path(&latency_at, name));
    Ok(Settings {
        seed: uint(o, &at, "seed")?,
        failure_rate: number(o, &at, "failureRate")?,
        log_capacity: count(o, &at, "logCapacity")?,
        latency: LatencyModel {
            order: step("order")?,
            payment: step("payment")?,
            third_party: step("thirdParty")?,
            test: step("test")?,
        },
        max_orders: match o.get("maxOrders") {
            None => DEFAULT_MAX_ORDERS,
            Some(_) => count(o, &at, "maxOrders")?,
        },
        idempotency_keys: match o.get("idempotencyKeys") {
            None => DEFAULT_IDEMPOTENCY_KEYS,
            Some(_) => count(o, &at, "idempotencyKeys")?,
        },
    })
}

fn read_streams(o: &Json, at: &str) -> Read<Streams> {
    let rng = |name: &str| -> Read<Rng> {
        let stream = field(o, &at, name)?;
        let stream_at = Path(&at, name);
        object(stream, &stream_at)?;
        Ok(Rng::new(uint(stream, &stream_at, "state")?))
    };
    Ok(Streams {
        ids: rng("ids")?,
        traces: rng("traces")?,
        latency: rng("latency")?,
        batch: rng("batch")?,
    })
}

/// An id of this service (`PREFIX` and 8 upper-case letters or digits).
fn code(prefix: &str, id: &str, at: &dyn Place) -> Read<Code> {
    Code::parse(prefix, id).ok_or_else(|| {
        out_of_range(
            at,
            Msg::new("must be ")
                .s(prefix)
                .s("- and 8 upper-case letters or digits, got ")
                .q(id),
        )
    })
}

/// One member of `orders.live`, added to `orders`; `live_at` is the path
/// of `live` itself.
pub(crate) fn order_member(orders: &mut Orders, id: &str, order: &Json, live_at: &str) -> Read<()> {
    // The path is only written out for a refusal.
    let here = Keyed(live_at, id);
    object(order, &here)?;
    let code = code(ORDER, id, &here)?;
    if orders.index.contains_key(&code) {
        return Err(out_of_range(&here, &mut Msg::new("given more than once")));
    }
    let order_id = text(order, &here, "orderId")?;
    if order_id != id {
        return Err(got_text(
            &Path(&here, "orderId"),
            "must equal its key",
            order_id,
        ));
    }
    let row = OrderRow {
        code,
        user_id: orders.texts.share(text(order, &here, "userId")?),
        description: orders.texts.share(text(order, &here, "description")?),
        price: money(order, &here, "price")?,
        created_at: int(order, &here, "createdAt")?,
        status: match text(order, &here, "status")? {
            "CREATED" => OrderStatus::Created,
            "PAID" => OrderStatus::Paid,
            other => {
                return Err(got_text(
                    &Path(&here, "status"),
                    "must be CREATED or PAID",
                    other,
                ))
            }
        },
    };
    orders.keep(row);
    Ok(())
}

/// The orders (`snapshot.orders`): `live`, `deleted` and `made` as they
/// were read one by one (`order_member`, `deleted_item`, `made_member`),
/// each after the check that it is there and of its type. The paths are
/// written out whole, as `restoring` names them: none is built for a
/// snapshot that is read.
fn read_orders(o: &Json, streamed: StreamedOrders) -> Read<Orders> {
    let at = "snapshot.orders";
    members(o, at, "live")?;
    let mut orders = listed(streamed.live)?;
    let deleted = field(o, &at, "deleted")?;
    deleted
        .as_array()
        .ok_or_else(|| wrong(&"snapshot.orders.deleted", deleted, "an array"))?;
    orders.deleted = listed(streamed.deleted)?.deleted;
    members(o, at, "made")?;
    orders.made = listed(streamed.made)?.made;
    Ok(orders)
}

/// A long list as it was read: its table, or its first refusal. A list
/// is read whenever it is there and of its type, which its reader checks
/// first; so the empty table here is never one that had rows.
fn listed<T: Default>(read: Option<Read<T>>) -> Read<T> {
    read.unwrap_or_else(|| Ok(T::default()))
}

/// The `i`th id of `orders.deleted`, added to `orders`; `deleted_at` is
/// the list's path.
pub(crate) fn deleted_item(orders: &mut Orders, i: usize, id: &Json, deleted_at: &str) -> Read<()> {
    let here = Item(deleted_at, i);
    let id = id.as_str().ok_or_else(|| wrong(&here, id, "a string"))?;
    orders.deleted.insert(code(ORDER, id, &here)?);
    Ok(())
}

/// One member of `orders.made`, added to `orders`; `made_at` is the
/// object's path.
pub(crate) fn made_member(orders: &mut Orders, hash: &str, n: &Json, made_at: &str) -> Read<()> {
    let here = Keyed(made_at, hash);
    let hash = parse_u64(hash).ok_or_else(|| {
        out_of_range(
            &here,
            &mut Msg::new("the key must be a content hash, a whole number"),
        )
    })?;
    orders.made.insert(hash, uint_value(n, &here)?);
    Ok(())
}

/// An element of a list as its place (`at[i]`).
struct Item<'a>(&'a str, usize);

impl Place for Item<'_> {
    fn write_place(&self, m: &mut Msg) {
        m.s(self.0).s("[").uint(self.1 as u64).s("]");
    }
}

/// A count that fits 32 bits (attempts, a forced outcome's count).
fn small_count(v: &Json, at: &dyn Place) -> Read<u32> {
    let n = uint_value(v, at)?;
    u32::try_from(n).map_err(|_| {
        out_of_range(
            at,
            Msg::new("must be a whole number from 0 to ")
                .uint(u64::from(u32::MAX))
                .s(", got ")
                .uint(n),
        )
    })
}

/// One member of `payments.by_id`, added to `payments`; `by_id_at` is the
/// path of `by_id` itself.
pub(crate) fn payment_member(
    payments: &mut Payments,
    id: &str,
    p: &Json,
    by_id_at: &str,
) -> Read<()> {
    let here = Keyed(by_id_at, id);
    object(p, &here)?;
    let code = code(PAYMENT, id, &here)?;
    if payments.contains(code) {
        return Err(out_of_range(&here, &mut Msg::new("given more than once")));
    }
    let payment_id = text(p, &here, "paymentId")?;
    if payment_id != id {
        return Err(got_text(
            &Path(&here, "paymentId"),
            "must equal its key",
            payment_id,
        ));
    }
    let method = text(p, &here, "paymentMethod")?;
    let row = PaymentRow {
        code,
        order: code_of_order(text(p, &here, "orderId")?, &Path(&here, "orderId"))?,
        amount: money(p, &here, "amount")?,
        paid_at: int(p, &here, "paidAt")?,
        method: PaymentMethod::parse(method).ok_or_else(|| {
            out_of_range(
                &Path(&here, "paymentMethod"),
                Msg::new("unknown method ").q(method),
            )
        })?,
        status: match text(p, &here, "status")? {
            "SUCCESS" => PaymentStatus::Success,
            "REFUNDED" => PaymentStatus::Refunded,
            other => {
                return Err(got_text(
                    &Path(&here, "status"),
                    "must be SUCCESS or REFUNDED",
                    other,
                ))
            }
        },
    };
    payments.keep(row);
    Ok(())
}

/// The payments (`snapshot.payments`): `by_id` and `attempts` as
/// `read_orders` takes `live`.
fn read_payments(
    o: &Json,
    by_id: Option<Read<Payments>>,
    attempts: Option<Read<Payments>>,
) -> Read<Payments> {
    let at = "snapshot.payments";
    members(o, at, "by_id")?;
    let mut payments = listed(by_id)?;
    members(o, at, "attempts")?;
    payments.attempts = listed(attempts)?.attempts;
    Ok(payments)
}

/// One member of `payments.attempts`, added to `payments`; `attempts_at`
/// is the object's path.
pub(crate) fn attempts_member(
    payments: &mut Payments,
    id: &str,
    n: &Json,
    attempts_at: &str,
) -> Read<()> {
    let here = Keyed(attempts_at, id);
    let order = code(ORDER, id, &here)?;
    payments.attempts.insert(order, small_count(n, &here)?);
    Ok(())
}

/// A payment's order: an order id, or else "not an order of this
/// snapshot", as for a well-formed id that names no order.
fn code_of_order(id: &str, at: &dyn Place) -> Read<Code> {
    Code::parse(ORDER, id).ok_or_else(|| {
        let mut problem = Msg::default();
        problem.q(id).s(" is not an order of this snapshot");
        out_of_range(at, &mut problem)
    })
}

fn read_forced(o: &Json) -> Read<Option<(Forced, u32)>> {
    let at = "snapshot.forced_next";
    match o.get("forced_next") {
        None | Some(Json::Null) => Ok(None),
        Some(v @ Json::Arr(pair)) => match pair.as_slice() {
            [outcome, count] => {
                let outcome_at = Item(at, 0);
                let name = outcome
                    .as_str()
                    .ok_or_else(|| wrong(&outcome_at, outcome, "\"success\" or \"failure\""))?;
                let outcome = Forced::parse_exact(name).ok_or_else(|| {
                    got_text(&outcome_at, "must be \"success\" or \"failure\"", name)
                })?;
                Ok(Some((outcome, small_count(count, &Item(at, 1))?)))
            }
            _ => Err(wrong(&at, v, "[outcome, count]")),
        },
        Some(v) => Err(wrong(&at, v, "[outcome, count] or null")),
    }
}

/// The journal reader's refusal (`` `traceId`: not a trace id ``): a
/// missing field or a value of the wrong type is a `WrongType`, a value it
/// would never write an `OutOfRange`.
pub(crate) fn journal_error(problem: String) -> Invalid {
    let at = "snapshot.journal";
    if mentions(&problem, "missing field") || mentions(&problem, "expected") {
        Invalid::wrong_type(at, problem)
    } else {
        Invalid::out_of_range(at, problem)
    }
}

/// Whether `text` holds `word`. A plain byte search: `str::contains` would
/// bring the standard library's substring search (Two-Way, 1.7 KB of the
/// module) in for this one refusal, which is never on a hot path.
fn mentions(text: &str, word: &str) -> bool {
    text.as_bytes()
        .windows(word.len())
        .any(|w| w == word.as_bytes())
}

/// The refusal of text that is not JSON at all.
pub(crate) fn not_json(e: json::ReadError) -> Invalid {
    let mut problem = Msg::new(NOT_A_SNAPSHOT);
    e.push(problem.s(": "));
    refusal(InvalidKind::WrongType, &"snapshot", &mut problem)
}

const NOT_A_SNAPSHOT: &str =
    "not a snapshot of this service (expected the text snapshot() returns)";

/// Reads a snapshot's text into its parts from its parsed tree, the long
/// lists read from the tree as `restoring` reads them from the text. A
/// second reading of the format, for the tests that hold the two to the
/// same refusals; the module restores through `restoring` alone.
pub fn read(text: &str) -> Read<Parts> {
    let tree = json::parse(text).map_err(not_json)?;
    read_tree(&tree, Streamed::of_tree(&tree))
}

/// The long lists of a snapshot read element by element as the text came
/// in (`restoring`), each with its first refusal; `None` for a list that
/// is not there or not of its type. The tree holds an empty placeholder
/// in each one's place: `read_tree` reads no row itself.
#[derive(Default)]
pub(crate) struct Streamed {
    pub orders: StreamedOrders,
    pub by_id: Option<Read<Payments>>,
    /// `payments.attempts`, read into a table of its own.
    pub attempts: Option<Read<Payments>>,
    pub records: Option<Result<VecDeque<Entry>, String>>,
    pub spans: Option<Result<VecDeque<SpanEntry>, String>>,
}

impl Streamed {
    /// Each long list of a parsed snapshot that is there and of its type
    /// (the first of its name, as `Json::get` finds it), read row by row
    /// with the readers `restoring` uses, each keeping its first refusal.
    fn of_tree(tree: &Json) -> Streamed {
        let list = |part: &str, name: &str| tree.get(part).and_then(|p| p.get(name));
        let map = |part: &str, name: &str| list(part, name).and_then(Json::as_object);
        let array = |part: &str, name: &str| list(part, name).and_then(Json::as_array);
        let mut calls = restore::Calls::default();
        let records = array("journal", "records").map(|rows| {
            rows.iter()
                .enumerate()
                .map(|(i, row)| restore::record_at(row, i, &mut calls))
                .collect()
        });
        let spans = array("journal", "spans").map(|rows| {
            rows.iter()
                .enumerate()
                .map(|(i, row)| restore::span_at(row, i, &mut calls))
                .collect()
        });
        Streamed {
            orders: StreamedOrders {
                live: map("orders", "live").map(|rows| {
                    rows_into(rows, |t, _, (id, v)| {
                        order_member(t, id, v, "snapshot.orders.live")
                    })
                }),
                deleted: array("orders", "deleted").map(|rows| {
                    rows_into(rows, |t, i, v| {
                        deleted_item(t, i, v, "snapshot.orders.deleted")
                    })
                }),
                made: map("orders", "made").map(|rows| {
                    rows_into(rows, |t, _, (hash, n)| {
                        made_member(t, hash, n, "snapshot.orders.made")
                    })
                }),
            },
            by_id: map("payments", "by_id").map(|rows| {
                rows_into(rows, |t, _, (id, p)| {
                    payment_member(t, id, p, "snapshot.payments.by_id")
                })
            }),
            attempts: map("payments", "attempts").map(|rows| {
                rows_into(rows, |t, _, (id, n)| {
                    attempts_member(t, id, n, "snapshot.payments.attempts")
                })
            }),
            records,
            spans,
        }
    }
}

/// Rows read one by one into a new table, up to the first refusal.
fn rows_into<'j, T: Default, R: 'j>(
    rows: &'j [R],
    mut read: impl FnMut(&mut T, usize, &'j R) -> Read<()>,
) -> Read<T> {
    let mut table = T::default();
    for (i, row) in rows.iter().enumerate() {
        read(&mut table, i, row)?;
    }
    Ok(table)
}

/// The long lists of `orders`, as `Streamed`; `deleted` and `made` each
/// read into a table of its own, so that each keeps its first refusal.
#[derive(Default)]
pub(crate) struct StreamedOrders {
    pub live: Option<Read<Orders>>,
    pub deleted: Option<Read<Orders>>,
    pub made: Option<Read<Orders>>,
}

/// A snapshot's parsed JSON into its parts, its long lists already read
/// (`Streamed`); the one place a restored state is built. Only shapes are checked here; `snapshot_check` checks the
/// values and how the parts fit together. The refusals come in one fixed
/// order, whatever the order of the text, so a text refused whole or in
/// pieces is refused with the same message.
pub(crate) fn read_tree(tree: &Json, mut streamed: Streamed) -> Read<Parts> {
    let at = "snapshot";
    object(tree, &at).map_err(|e| {
        refusal(
            InvalidKind::WrongType,
            &at,
            Msg::new(NOT_A_SNAPSHOT).s(": ").s(&e.msg),
        )
    })?;
    // Every part is there before the format is read, so that text which
    // is no snapshot at all is told so, not that its format is wrong.
    for name in [
        "format", "settings", "streams", "orders", "payments", "journal",
    ] {
        field(tree, &at, name)?;
    }
    let format = field(tree, &at, "format")?;
    if uint_value(format, &"snapshot.format")? != FORMAT {
        let mut problem = Msg::new("format ");
        shown_number(&mut problem, format);
        problem.s(" is not the supported ").uint(FORMAT);
        return Err(out_of_range(&"snapshot.format", &mut problem));
    }
    let part = |name: &str| field(tree, &at, name);
    // The streamed lists are taken out one by one, never moved out of
    // `streamed`, so every refusal below drops what is left of it whole:
    // one drop, not one for each list at each refusal.
    let s = &mut streamed;
    Ok(Parts {
        settings: read_settings(part("settings")?, "snapshot.settings")?,
        streams: read_streams(part("streams")?, "snapshot.streams")?,
        orders: read_orders(part("orders")?, take(&mut s.orders))?,
        payments: read_payments(part("payments")?, s.by_id.take(), s.attempts.take())?,
        journal: restore::journal_with(part("journal")?, s.records.take(), s.spans.take())
            .map_err(journal_error)?,
        forced_next: read_forced(tree)?,
        clock: match tree.get("clock") {
            None | Some(Json::Null) => None,
            Some(v) => Some(int_value(v, &"snapshot.clock")?),
        },
        counters: match tree.get("counters") {
            None => None,
            Some(v) => Some(Counters::read(v, "snapshot.counters")?),
        },
        idempotency: match tree.get("idempotency") {
            None => IdempotencyKeys::default(),
            Some(v) => read_idempotency(v)?,
        },
        scenario: match tree.get("scenario") {
            None => None,
            Some(v) => Some(
                Scenario::read_saved(v, crate::gateway::scenario::WORDS)
                    .map_err(|r| r.invalid("snapshot.scenario"))?,
            ),
        },
    })
}

/// The kept answers (`snapshot.idempotency`), each part refused naming
/// its path (`snapshot.idempotency["k-1"].status`). A function of its
/// own rather than inlined into `read_tree`, which is already large:
/// 130 bytes less of the gzipped module.
#[inline(never)]
fn read_idempotency(v: &Json) -> Read<IdempotencyKeys> {
    let at = "snapshot.idempotency";
    let mut keys = IdempotencyKeys::default();
    for (key, kept) in object(v, &at)? {
        let here = Keyed(at, key);
        if let Err(error) = check_key(key) {
            return Err(got_text(&here, &error.msg(), key));
        }
        object(kept, &here)?;
        let method = text(kept, &here, "method")?;
        if method != "POST" {
            return Err(got_text(&Path(&here, "method"), "must be POST", method));
        }
        let hash = text(kept, &here, "body")?;
        let body = (hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_hexdigit()))
            .then(|| u64::from_str_radix(hash, 16).ok())
            .flatten()
            .ok_or_else(|| got_text(&Path(&here, "body"), "must be 16 hex digits", hash))?;
        let status = uint(kept, &here, "status")?;
        if !(200..300).contains(&status) {
            let problem = Msg::new("must be from 200 to 299, the answers kept, got ")
                .uint(status)
                .text();
            return Err(out_of_range(
                &Path(&here, "status"),
                &mut Msg::new(&problem),
            ));
        }
        let code = int(kept, &here, "code")?;
        let answer = KeptAnswer {
            fingerprint: Fingerprint {
                method: method.to_owned(),
                path: text(kept, &here, "path")?.to_owned(),
                body,
            },
            first_used: int(kept, &here, "firstUsed")?,
            status: status as u16,
            code: i32::try_from(code).map_err(|_| {
                out_of_range(&Path(&here, "code"), Msg::new("too large: ").int(code))
            })?,
            msg: text(kept, &here, "msg")?.to_owned(),
            data: read_data(kept, &here)?,
        };
        if !keys.insert((**key).to_owned(), answer) {
            return Err(out_of_range(&here, &mut Msg::new("given more than once")));
        }
    }
    Ok(keys)
}

/// A kept answer's data: null, or the JSON text of an object.
fn read_data(v: &Json, at: &dyn Place) -> Read<Option<Rc<str>>> {
    let data = match field(v, at, "data")? {
        Json::Null => return Ok(None),
        Json::Str(text) => text,
        other => return Err(wrong(&Path(at, "data"), other, "null or a string")),
    };
    match json::read::parse(data) {
        Ok(Json::Obj(_)) => Ok(Some(Rc::from(&**data))),
        _ => Err(got_text(
            &Path(at, "data"),
            "must be the JSON text of an object",
            data,
        )),
    }
}

/// A number's text as written.
fn shown_number(m: &mut Msg, v: &Json) {
    match v {
        Json::Num(n) => {
            m.s(n);
        }
        other => shown(m, other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::invalid::InvalidKind;

    #[test]
    fn journal_refusals_are_told_apart_by_their_words() {
        let missing = journal_error("`records[0]`: missing field `traceId`".to_owned());
        assert_eq!(missing.kind, InvalidKind::WrongType);
        let wrong = journal_error("`seq`: expected a whole number, got \"é\"".to_owned());
        assert_eq!(wrong.kind, InvalidKind::WrongType);
        let never_written = journal_error("`status`: unknown \"éxpected\"".to_owned());
        assert_eq!(never_written.kind, InvalidKind::OutOfRange);
        assert!(!mentions("ex", "expected"));
    }
}
