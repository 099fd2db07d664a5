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
use crate::gateway::Backend;
use crate::json::{self, Json, Out};
use crate::observe::{restore, Journal};
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

type Read<T> = Result<T, String>;

fn field<'j, 'a>(o: &'j Json<'a>, name: &str) -> Read<&'j Json<'a>> {
    o.get(name).ok_or_else(|| format!("missing field `{name}`"))
}

fn uint(o: &Json, name: &str) -> Read<u64> {
    restore::uint(o, name)
}

fn int(o: &Json, name: &str) -> Read<i64> {
    field(o, name)?
        .as_i64()
        .ok_or_else(|| format!("`{name}`: expected an integer"))
}

fn number(o: &Json, name: &str) -> Read<f64> {
    field(o, name)?
        .as_f64()
        .ok_or_else(|| format!("`{name}`: expected a number"))
}

fn text<'j>(o: &'j Json, name: &str) -> Read<&'j str> {
    field(o, name)?
        .as_str()
        .ok_or_else(|| format!("`{name}`: expected a string"))
}

fn money(o: &Json, name: &str) -> Read<Money> {
    Money::positive(number(o, name)?)
        .ok_or_else(|| format!("`{name}`: money must be a finite number > 0"))
}

fn members<'j, 'a>(
    o: &'j Json<'a>,
    name: &str,
) -> Read<&'j [(std::borrow::Cow<'a, str>, Json<'a>)]> {
    field(o, name)?
        .as_object()
        .ok_or_else(|| format!("`{name}`: expected an object"))
}

fn read_profile(o: &Json) -> Read<Profile> {
    Ok(Profile {
        base_ms: uint(o, "baseMs")?,
        spread_ms: uint(o, "spreadMs")?,
        tail_chance: number(o, "tailChance")?,
        tail_ms: uint(o, "tailMs")?,
    })
}

fn read_settings(o: &Json) -> Read<Settings> {
    let latency = field(o, "latency")?;
    let step = |name: &str| {
        read_profile(field(latency, name)?).map_err(|e| format!("latency.{name}: {e}"))
    };
    Ok(Settings {
        seed: uint(o, "seed")?,
        failure_rate: number(o, "failureRate")?,
        log_capacity: usize::try_from(uint(o, "logCapacity")?)
            .map_err(|_| "`logCapacity`: too large")?,
        latency: LatencyModel {
            order: step("order")?,
            payment: step("payment")?,
            third_party: step("thirdParty")?,
            test: step("test")?,
        },
        max_orders: match o.get("maxOrders") {
            None => DEFAULT_MAX_ORDERS,
            Some(_) => {
                usize::try_from(uint(o, "maxOrders")?).map_err(|_| "`maxOrders`: too large")?
            }
        },
    })
}

fn read_streams(o: &Json) -> Read<Streams> {
    let rng = |name: &str| -> Read<Rng> { Ok(Rng::new(uint(field(o, name)?, "state")?)) };
    Ok(Streams {
        ids: rng("ids")?,
        traces: rng("traces")?,
        latency: rng("latency")?,
        batch: rng("batch")?,
    })
}

fn code(prefix: &str, id: &str) -> Read<Code> {
    Code::parse(prefix, id).ok_or_else(|| format!("{id:?} is not an id of this service"))
}

fn read_orders(o: &Json) -> Read<Orders> {
    let mut orders = Orders::default();
    for (id, order) in members(o, "live")? {
        let at = |e: String| format!("order {id}: {e}");
        if text(order, "orderId").map_err(at)? != id {
            return Err(at("`orderId` differs from its key".to_owned()));
        }
        let row = OrderRow {
            code: code(ORDER, id).map_err(at)?,
            user_id: orders.texts.share(text(order, "userId").map_err(at)?),
            description: orders.texts.share(text(order, "description").map_err(at)?),
            price: money(order, "price").map_err(at)?,
            created_at: int(order, "createdAt").map_err(at)?,
            status: match text(order, "status").map_err(at)? {
                "CREATED" => OrderStatus::Created,
                "PAID" => OrderStatus::Paid,
                other => return Err(at(format!("`status`: unknown {other:?}"))),
            },
        };
        orders.keep(row);
    }
    for id in field(o, "deleted")?
        .as_array()
        .ok_or("`deleted`: expected an array")?
    {
        let id = id.as_str().ok_or("`deleted`: expected strings")?;
        orders.deleted.insert(code(ORDER, id)?);
    }
    for (hash, n) in members(o, "made")? {
        let hash = hash
            .parse::<u64>()
            .map_err(|_| format!("`made`: {hash:?} is not a hash"))?;
        let n = n.as_u64().ok_or("`made`: expected whole numbers")?;
        orders.made.insert(hash, n);
    }
    Ok(orders)
}

fn read_payments(o: &Json) -> Read<Payments> {
    let mut payments = Payments::default();
    for (id, p) in members(o, "by_id")? {
        let at = |e: String| format!("payment {id}: {e}");
        if text(p, "paymentId").map_err(at)? != id {
            return Err(at("`paymentId` differs from its key".to_owned()));
        }
        let row = PaymentRow {
            code: code(PAYMENT, id).map_err(at)?,
            order: code(ORDER, text(p, "orderId").map_err(at)?).map_err(at)?,
            amount: money(p, "amount").map_err(at)?,
            paid_at: int(p, "paidAt").map_err(at)?,
            method: PaymentMethod::parse(text(p, "paymentMethod").map_err(at)?)
                .ok_or_else(|| at("`paymentMethod`: unknown".to_owned()))?,
            status: match text(p, "status").map_err(at)? {
                "SUCCESS" => PaymentStatus::Success,
                "REFUNDED" => PaymentStatus::Refunded,
                other => return Err(at(format!("`status`: unknown {other:?}"))),
            },
        };
        payments.keep(row);
    }
    for (id, n) in members(o, "attempts")? {
        let n = n
            .as_u64()
            .and_then(|n| u32::try_from(n).ok())
            .ok_or("`attempts`: expected whole numbers")?;
        payments.attempts.insert(code(ORDER, id)?, n);
    }
    Ok(payments)
}

fn read_forced(o: &Json) -> Read<Option<(Forced, u32)>> {
    match o.get("forced_next") {
        None | Some(Json::Null) => Ok(None),
        Some(Json::Arr(pair)) => match pair.as_slice() {
            [outcome, count] => {
                let outcome = outcome
                    .as_str()
                    .and_then(Forced::parse_exact)
                    .ok_or("`forced_next`: unknown outcome")?;
                let count = count
                    .as_u64()
                    .and_then(|n| u32::try_from(n).ok())
                    .ok_or("`forced_next`: expected a count")?;
                Ok(Some((outcome, count)))
            }
            _ => Err("`forced_next`: expected [outcome, count]".to_owned()),
        },
        Some(_) => Err("`forced_next`: expected [outcome, count]".to_owned()),
    }
}

/// Reads a snapshot's text into its parts; the one place a restored state
/// is built.
pub fn read(text: &str) -> Read<Parts> {
    let refuse = |e: String| format!("snapshot: not a snapshot of this service: {e}");
    let tree = json::parse(text).map_err(|e| refuse(e.to_string()))?;
    if tree.as_object().is_none() {
        return Err(refuse("expected an object".to_owned()));
    }
    let format = uint(&tree, "format").map_err(refuse)?;
    if format != FORMAT {
        return Err(format!(
            "snapshot: format {format} is not the supported {FORMAT}"
        ));
    }
    let part = |name: &str| field(&tree, name).map_err(&refuse);
    let parts = Parts {
        settings: read_settings(part("settings")?).map_err(|e| refuse(format!("settings: {e}")))?,
        streams: read_streams(part("streams")?).map_err(|e| refuse(format!("streams: {e}")))?,
        orders: read_orders(part("orders")?).map_err(|e| refuse(format!("orders: {e}")))?,
        payments: read_payments(part("payments")?).map_err(|e| refuse(format!("payments: {e}")))?,
        journal: restore::journal(part("journal")?).map_err(|e| refuse(format!("journal: {e}")))?,
        forced_next: read_forced(&tree).map_err(refuse)?,
        clock: match tree.get("clock") {
            None | Some(Json::Null) => None,
            Some(_) => Some(int(&tree, "clock").map_err(refuse)?),
        },
    };
    Ok(parts)
}
