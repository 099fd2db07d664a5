//! The snapshot: a whole service as JSON text, written and read by hand in
//! one place. `read` builds the parsed state (`Parts`) and nothing else,
//! so checks of a restored state plug in after it. The format is the one
//! snapshots have always had (format 1); `maxOrders`, added later, is
//! optional and defaults as a new service's would.

use crate::domain::code::Code;
use crate::domain::money::Money;
use crate::domain::order::{Row as OrderRow, PREFIX as ORDER};
use crate::domain::payment::{PaymentStatus, Row as PaymentRow, PREFIX as PAYMENT};
use crate::domain::{OrderStatus, Orders, PaymentMethod, Payments};
use crate::gateway::envelope::{order as write_order, payment as write_payment};
use crate::gateway::request::quote;
use crate::gateway::Backend;
use crate::json::{self, Json, Out};
use crate::observe::{restore, Journal};
use crate::sim::invalid::Invalid;
use crate::sim::latency::{LatencyModel, Profile};
use crate::sim::random::Rng;
use crate::sim::settings::DEFAULT_MAX_ORDERS;
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

fn orders(out: &mut Out, o: &Orders) {
    out.begin_object();
    out.key("live");
    out.begin_object();
    let mut id = String::new();
    for row in o.sorted() {
        id.clear();
        row.code.push(ORDER, &mut id);
        out.key_text(&id);
        write_order(out, &row.order());
    }
    out.end_object();
    out.key("deleted");
    out.begin_array();
    for code in &o.deleted {
        out.str(&code.text(ORDER));
    }
    out.end_array();
    out.key("made");
    out.begin_object();
    let mut key = String::new();
    for (hash, n) in &o.made {
        key.clear();
        json::write::push_uint(&mut key, *hash);
        out.key(&key);
        out.uint(*n);
    }
    out.end_object();
    out.end_object();
}

fn payments(out: &mut Out, p: &Payments) {
    out.begin_object();
    out.key("by_id");
    out.begin_object();
    let mut id = String::new();
    for row in p.sorted() {
        id.clear();
        row.code.push(PAYMENT, &mut id);
        out.key_text(&id);
        write_payment(out, &row.payment());
    }
    out.end_object();
    out.key("attempts");
    out.begin_object();
    for (code, n) in &p.attempts {
        out.key_text(&code.text(ORDER));
        out.uint(u64::from(*n));
    }
    out.end_object();
    out.end_object();
}

/// The whole service as compact JSON text.
pub fn write(b: &Backend) -> String {
    let mut out = Out::with_capacity(b.journal.len() * 300 + b.orders.len() * 300 + 1024);
    out.begin_object();
    out.key("format");
    out.uint(FORMAT);
    out.key("settings");
    settings(&mut out, &b.settings);
    out.key("streams");
    streams(&mut out, &b.streams);
    out.key("orders");
    orders(&mut out, &b.orders);
    out.key("payments");
    payments(&mut out, &b.payments);
    out.key("journal");
    b.journal.write_snapshot(&mut out);
    out.key("forced_next");
    match b.forced_next {
        Some((outcome, count)) => {
            out.begin_array();
            out.plain(outcome.as_str());
            out.uint(u64::from(count));
            out.end_array();
        }
        None => out.null(),
    }
    out.key("clock");
    match b.clock.saved() {
        Some(now) => out.int(now),
        None => out.null(),
    }
    out.end_object();
    out.text
}

// ------------------------------------------------------------------ reading
//
// Every refusal is an `Invalid` naming the field by its path in the
// snapshot (`snapshot.settings.seed`, `snapshot.orders.live["ORD-…"].price`):
// a value of the wrong JSON type or a missing field is a `WrongType`, a
// value of the right type that this service would never write an
// `OutOfRange`.

type Read<T> = Result<T, Invalid>;

/// What a value is, for a message: `string "11"`, `number -1`, `null`.
fn shown(v: &Json) -> String {
    match v {
        Json::Null => "null".to_owned(),
        Json::Bool(b) => format!("boolean {b}"),
        Json::Num(n) => format!("number {n}"),
        Json::Str(s) => format!("string {}", quote(s)),
        Json::Arr(_) => "an array".to_owned(),
        Json::Obj(_) => "an object".to_owned(),
    }
}

/// `at.name`, or `at` for a member of the snapshot itself.
fn path(at: &str, name: &str) -> String {
    format!("{at}.{name}")
}

fn wrong(at: &str, v: &Json, expected: &str) -> Invalid {
    Invalid::wrong_type(
        at,
        format!("invalid type: {}, expected {expected}", shown(v)),
    )
}

fn outside(at: &str, v: &Json, expected: &str) -> Invalid {
    Invalid::out_of_range(
        at,
        format!("invalid value: {}, expected {expected}", shown(v)),
    )
}

fn field<'j, 'a>(o: &'j Json<'a>, at: &str, name: &str) -> Read<&'j Json<'a>> {
    o.get(name)
        .ok_or_else(|| Invalid::wrong_type(at, format!("missing field `{name}`")))
}

/// A whole number 0 or more as `v`, the value at `at`.
fn uint_value(v: &Json, at: &str) -> Read<u64> {
    match v {
        Json::Num(_) => v
            .as_u64()
            .ok_or_else(|| outside(at, v, "a whole number from 0 to 18446744073709551615")),
        _ => Err(wrong(at, v, "a whole number")),
    }
}

fn uint(o: &Json, at: &str, name: &str) -> Read<u64> {
    uint_value(field(o, at, name)?, &path(at, name))
}

fn count(o: &Json, at: &str, name: &str) -> Read<usize> {
    let n = uint(o, at, name)?;
    usize::try_from(n)
        .map_err(|_| Invalid::out_of_range(&path(at, name), format!("too large: {n}")))
}

fn int_value(v: &Json, at: &str) -> Read<i64> {
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

fn int(o: &Json, at: &str, name: &str) -> Read<i64> {
    int_value(field(o, at, name)?, &path(at, name))
}

fn number(o: &Json, at: &str, name: &str) -> Read<f64> {
    let v = field(o, at, name)?;
    v.as_f64()
        .ok_or_else(|| wrong(&path(at, name), v, "a number"))
}

fn text<'j>(o: &'j Json, at: &str, name: &str) -> Read<&'j str> {
    let v = field(o, at, name)?;
    v.as_str()
        .ok_or_else(|| wrong(&path(at, name), v, "a string"))
}

fn money(o: &Json, at: &str, name: &str) -> Read<Money> {
    let n = number(o, at, name)?;
    Money::positive(n).ok_or_else(|| {
        Invalid::out_of_range(
            &path(at, name),
            format!(
                "must be a finite number > 0, got {}",
                crate::json::number::display(n)
            ),
        )
    })
}

type Members<'j, 'a> = &'j [(std::borrow::Cow<'a, str>, Json<'a>)];

fn object<'j, 'a>(v: &'j Json<'a>, at: &str) -> Read<Members<'j, 'a>> {
    v.as_object().ok_or_else(|| wrong(at, v, "an object"))
}

fn members<'j, 'a>(o: &'j Json<'a>, at: &str, name: &str) -> Read<Members<'j, 'a>> {
    object(field(o, at, name)?, &path(at, name))
}

/// A member key of a map, as its path step: `live["ORD-…"]`.
fn keyed(at: &str, key: &str) -> String {
    format!("{at}[{}]", quote(key))
}

fn read_profile(o: &Json, at: &str) -> Read<Profile> {
    object(o, at)?;
    Ok(Profile {
        base_ms: uint(o, at, "baseMs")?,
        spread_ms: uint(o, at, "spreadMs")?,
        tail_chance: number(o, at, "tailChance")?,
        tail_ms: uint(o, at, "tailMs")?,
    })
}

fn read_settings(o: &Json, at: &str) -> Read<Settings> {
    let latency_at = path(at, "latency");
    let latency = field(o, at, "latency")?;
    object(latency, &latency_at)?;
    let step =
        |name: &str| read_profile(field(latency, &latency_at, name)?, &path(&latency_at, name));
    Ok(Settings {
        seed: uint(o, at, "seed")?,
        failure_rate: number(o, at, "failureRate")?,
        log_capacity: count(o, at, "logCapacity")?,
        latency: LatencyModel {
            order: step("order")?,
            payment: step("payment")?,
            third_party: step("thirdParty")?,
            test: step("test")?,
        },
        max_orders: match o.get("maxOrders") {
            None => DEFAULT_MAX_ORDERS,
            Some(_) => count(o, at, "maxOrders")?,
        },
    })
}

fn read_streams(o: &Json, at: &str) -> Read<Streams> {
    let rng = |name: &str| -> Read<Rng> {
        let stream = field(o, at, name)?;
        let stream_at = path(at, name);
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
fn code(prefix: &str, id: &str, at: &str) -> Read<Code> {
    Code::parse(prefix, id).ok_or_else(|| {
        Invalid::out_of_range(
            at,
            format!(
                "must be {prefix}- and 8 upper-case letters or digits, got {}",
                quote(id)
            ),
        )
    })
}

fn read_orders(o: &Json, at: &str) -> Read<Orders> {
    let mut orders = Orders::default();
    let live_at = path(at, "live");
    for (id, order) in members(o, at, "live")? {
        let here = keyed(&live_at, id);
        object(order, &here)?;
        let code = code(ORDER, id, &here)?;
        if orders.index.contains_key(&code) {
            return Err(Invalid::out_of_range(&here, "given more than once"));
        }
        let order_id = text(order, &here, "orderId")?;
        if order_id != id {
            return Err(Invalid::out_of_range(
                &path(&here, "orderId"),
                format!("must equal its key, got {}", quote(order_id)),
            ));
        }
        let status_at = path(&here, "status");
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
                    return Err(Invalid::out_of_range(
                        &status_at,
                        format!("must be CREATED or PAID, got {}", quote(other)),
                    ))
                }
            },
        };
        orders.keep(row);
    }
    let deleted_at = path(at, "deleted");
    let deleted = field(o, at, "deleted")?;
    let deleted = deleted
        .as_array()
        .ok_or_else(|| wrong(&deleted_at, deleted, "an array"))?;
    for (i, id) in deleted.iter().enumerate() {
        let here = format!("{deleted_at}[{i}]");
        let id = id.as_str().ok_or_else(|| wrong(&here, id, "a string"))?;
        orders.deleted.insert(code(ORDER, id, &here)?);
    }
    let made_at = path(at, "made");
    for (hash, n) in members(o, at, "made")? {
        let here = keyed(&made_at, hash);
        let hash = hash.parse::<u64>().map_err(|_| {
            Invalid::out_of_range(&here, "the key must be a content hash, a whole number")
        })?;
        orders.made.insert(hash, uint_value(n, &here)?);
    }
    Ok(orders)
}

/// A count that fits 32 bits (attempts, a forced outcome's count).
fn small_count(v: &Json, at: &str) -> Read<u32> {
    let n = uint_value(v, at)?;
    u32::try_from(n).map_err(|_| {
        Invalid::out_of_range(
            at,
            format!("must be a whole number from 0 to {}, got {n}", u32::MAX),
        )
    })
}

fn read_payments(o: &Json, at: &str) -> Read<Payments> {
    let mut payments = Payments::default();
    let by_id_at = path(at, "by_id");
    for (id, p) in members(o, at, "by_id")? {
        let here = keyed(&by_id_at, id);
        object(p, &here)?;
        let code = code(PAYMENT, id, &here)?;
        if payments.index.contains_key(&code) {
            return Err(Invalid::out_of_range(&here, "given more than once"));
        }
        let payment_id = text(p, &here, "paymentId")?;
        if payment_id != id {
            return Err(Invalid::out_of_range(
                &path(&here, "paymentId"),
                format!("must equal its key, got {}", quote(payment_id)),
            ));
        }
        let order_at = path(&here, "orderId");
        let method_at = path(&here, "paymentMethod");
        let method = text(p, &here, "paymentMethod")?;
        let row = PaymentRow {
            code,
            order: code_of_order(text(p, &here, "orderId")?, &order_at)?,
            amount: money(p, &here, "amount")?,
            paid_at: int(p, &here, "paidAt")?,
            method: PaymentMethod::parse(method).ok_or_else(|| {
                Invalid::out_of_range(&method_at, format!("unknown method {}", quote(method)))
            })?,
            status: match text(p, &here, "status")? {
                "SUCCESS" => PaymentStatus::Success,
                "REFUNDED" => PaymentStatus::Refunded,
                other => {
                    return Err(Invalid::out_of_range(
                        &path(&here, "status"),
                        format!("must be SUCCESS or REFUNDED, got {}", quote(other)),
                    ))
                }
            },
        };
        payments.keep(row);
    }
    let attempts_at = path(at, "attempts");
    for (id, n) in members(o, at, "attempts")? {
        let here = keyed(&attempts_at, id);
        let order = code(ORDER, id, &here)?;
        payments.attempts.insert(order, small_count(n, &here)?);
    }
    Ok(payments)
}

/// A payment's order: an order id, or else "not an order of this
/// snapshot", as for a well-formed id that names no order.
fn code_of_order(id: &str, at: &str) -> Read<Code> {
    Code::parse(ORDER, id).ok_or_else(|| {
        Invalid::out_of_range(
            at,
            format!("{} is not an order of this snapshot", quote(id)),
        )
    })
}

fn read_forced(o: &Json) -> Read<Option<(Forced, u32)>> {
    let at = "snapshot.forced_next";
    match o.get("forced_next") {
        None | Some(Json::Null) => Ok(None),
        Some(v @ Json::Arr(pair)) => match pair.as_slice() {
            [outcome, count] => {
                let outcome_at = format!("{at}[0]");
                let name = outcome
                    .as_str()
                    .ok_or_else(|| wrong(&outcome_at, outcome, "\"success\" or \"failure\""))?;
                let outcome = Forced::parse_exact(name).ok_or_else(|| {
                    Invalid::out_of_range(
                        &outcome_at,
                        format!("must be \"success\" or \"failure\", got {}", quote(name)),
                    )
                })?;
                Ok(Some((outcome, small_count(count, &format!("{at}[1]"))?)))
            }
            _ => Err(wrong(at, v, "[outcome, count]")),
        },
        Some(v) => Err(wrong(at, v, "[outcome, count] or null")),
    }
}

/// The journal reader's refusal (`` `traceId`: not a trace id ``): a
/// missing field or a value of the wrong type is a `WrongType`, a value it
/// would never write an `OutOfRange`.
fn journal_error(problem: String) -> Invalid {
    let at = "snapshot.journal";
    if problem.contains("missing field") || problem.contains("expected") {
        Invalid::wrong_type(at, problem)
    } else {
        Invalid::out_of_range(at, problem)
    }
}

/// Reads a snapshot's text into its parts; the one place a restored state
/// is built. Only shapes are checked here; `snapshot_check` checks the
/// values and how the parts fit together.
pub fn read(text: &str) -> Read<Parts> {
    let at = "snapshot";
    let tree = json::parse(text).map_err(|e| {
        Invalid::wrong_type(
            at,
            format!("not a snapshot of this service (expected the text snapshot() returns): {e}"),
        )
    })?;
    object(&tree, at).map_err(|e| {
        Invalid::wrong_type(
            at,
            format!(
                "not a snapshot of this service (expected the text snapshot() returns): {}",
                e.msg
            ),
        )
    })?;
    // Every part is there before the format is read, so that text which
    // is no snapshot at all is told so, not that its format is wrong.
    for name in [
        "format", "settings", "streams", "orders", "payments", "journal",
    ] {
        field(&tree, at, name)?;
    }
    let format = field(&tree, at, "format")?;
    if uint_value(format, "snapshot.format")? != FORMAT {
        return Err(Invalid::out_of_range(
            "snapshot.format",
            format!(
                "format {} is not the supported {FORMAT}",
                shown_number(format)
            ),
        ));
    }
    let part = |name: &str| field(&tree, at, name);
    Ok(Parts {
        settings: read_settings(part("settings")?, "snapshot.settings")?,
        streams: read_streams(part("streams")?, "snapshot.streams")?,
        orders: read_orders(part("orders")?, "snapshot.orders")?,
        payments: read_payments(part("payments")?, "snapshot.payments")?,
        journal: restore::journal(part("journal")?).map_err(journal_error)?,
        forced_next: read_forced(&tree)?,
        clock: match tree.get("clock") {
            None | Some(Json::Null) => None,
            Some(v) => Some(int_value(v, "snapshot.clock")?),
        },
    })
}

/// A number's text as written.
fn shown_number(v: &Json) -> String {
    match v {
        Json::Num(n) => (*n).to_owned(),
        other => shown(other),
    }
}
