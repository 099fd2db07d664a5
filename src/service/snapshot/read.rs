//! The snapshot's parsed tree into its parts: settings, streams, the
//! orders' and payments' rows, the journal, counters, kept answers and
//! scenario, each refused naming its path, in one fixed order.

use crate::prelude::*;

use alloc::collections::VecDeque;
use alloc::rc::Rc;
use core::mem::take;

use super::fields::{
    count, field, got_text, int, int_value, members, money, number, object, out_of_range, refusal,
    shown_number, small_count, text, uint, uint_value, wrong, Item, Keyed, Read,
};
use super::journal;
use super::parts::{Parts, FORMAT};
use crate::domain::code::Code;
use crate::domain::order::{Row as OrderRow, PREFIX as ORDER};
use crate::domain::payment::{PaymentStatus, Row as PaymentRow, PREFIX as PAYMENT};
use crate::domain::{OrderStatus, Orders, PaymentMethod, Payments};
use crate::gateway::idempotency::{check_key, Fingerprint, IdempotencyKeys, KeptAnswer};
use crate::json::message::{Msg, Path, Place};
use crate::json::number::parse_u64;
use crate::json::{self, Json};
use crate::observe::entry::Entry;
use crate::observe::span_entry::SpanEntry;
use crate::observe::Counters;
use crate::sim::invalid::{Invalid, InvalidKind};
use crate::sim::latency::{LatencyModel, Profile};
use crate::sim::random::Rng;
use crate::sim::scenario::Scenario;
use crate::sim::settings::{DEFAULT_IDEMPOTENCY_KEYS, DEFAULT_MAX_ORDERS};
use crate::sim::streams::Streams;
use crate::sim::third_party::Forced;
use crate::sim::Settings;

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
        status: {
            let given = text(p, &here, "status")?;
            PaymentStatus::parse(given).ok_or_else(|| {
                got_text(
                    &Path(&here, "status"),
                    "must be SUCCESS, REFUNDED, REQUIRES_ACTION, PENDING or FAILED",
                    given,
                )
            })?
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
    pub(super) fn of_tree(tree: &Json) -> Streamed {
        let list = |part: &str, name: &str| tree.get(part).and_then(|p| p.get(name));
        let map = |part: &str, name: &str| list(part, name).and_then(Json::as_object);
        let array = |part: &str, name: &str| list(part, name).and_then(Json::as_array);
        let mut calls = journal::Calls::default();
        let records = array("journal", "records").map(|rows| {
            rows.iter()
                .enumerate()
                .map(|(i, row)| journal::record_at(row, i, &mut calls))
                .collect()
        });
        let spans = array("journal", "spans").map(|rows| {
            rows.iter()
                .enumerate()
                .map(|(i, row)| journal::span_at(row, i, &mut calls))
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
/// (`Streamed`); the one place a restored state is built. Only shapes
/// are checked here; `check` checks the
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
    let mut payments = read_payments(part("payments")?, s.by_id.take(), s.attempts.take())?;
    if let Some(plans) = tree.get("paymentPlans") {
        super::plans::read(plans, &mut payments)?;
    }
    let settings = read_settings(part("settings")?, "snapshot.settings")?;
    let (events, endpoints, deliveries) = super::webhooks::read(tree, settings.seed)?;
    Ok(Parts {
        settings,
        streams: read_streams(part("streams")?, "snapshot.streams")?,
        orders: read_orders(part("orders")?, take(&mut s.orders))?,
        payments,
        journal: journal::journal_with(part("journal")?, s.records.take(), s.spans.take())
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
        events,
        endpoints,
        deliveries,
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

/// Reads a snapshot's text into its parts from its parsed tree, the long
/// lists read from the tree as `restoring` reads them from the text. A
/// second reading of the format, for the tests that hold the two to the
/// same refusals; the module restores through `restoring` alone.
pub fn read(text: &str) -> Read<Parts> {
    let tree = json::parse(text).map_err(not_json)?;
    read_tree(&tree, Streamed::of_tree(&tree))
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
