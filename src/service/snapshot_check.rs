//! What a restored snapshot must hold before it becomes a service. A
//! snapshot is text from outside (localStorage, a file, a colleague), so
//! it may be damaged; deserialising checks only shapes. This checks every
//! value the service will read, after deserialisation and whatever the
//! parser: numbers in range (every time a JS `Date` can hold, every count a
//! JS number holds exactly), ids well formed, the parts consistent with
//! each other. The first bad field is named with its path in the snapshot
//! (`snapshot.orders.live["ORD-…"].userId: …`), and nothing is restored.

use std::collections::{BTreeMap, BTreeSet};

use crate::domain::order::{MAX_DESCRIPTION_CHARS, MAX_USER_ID_CHARS};
use crate::domain::{Order, Orders, Payment, Payments};
use crate::observe::entry::{Entry, Kept};
use crate::observe::span_entry::{Part, SpanEntry, Why};
use crate::observe::Journal;
use crate::sim::invalid::{Invalid, InvalidKind};
use crate::sim::latency::{Profile, MAX_STEP_MS};
use crate::sim::third_party::{Forced, Verdict};
use crate::sim::time_limits::{check_time, MAX_SAFE_INTEGER};
use crate::sim::Settings;

/// The snapshot format this build reads and writes.
pub const SNAPSHOT_FORMAT: u32 = 1;

/// Borrowed parts of a deserialised snapshot.
pub(crate) struct Parts<'a> {
    pub format: u32,
    pub settings: &'a Settings,
    pub orders: &'a Orders,
    pub payments: &'a Payments,
    pub journal: &'a Journal,
    pub forced_next: Option<(Forced, u32)>,
    pub clock: Option<i64>,
}

type Checked = Result<(), Invalid>;

/// Refuses the first bad field, or accepts the whole.
pub(crate) fn check(parts: &Parts) -> Checked {
    if parts.format != SNAPSHOT_FORMAT {
        return Err(Invalid::out_of_range(
            "snapshot.format",
            format!(
                "format {} is not the supported {SNAPSHOT_FORMAT}",
                parts.format
            ),
        ));
    }
    settings(parts.settings)?;
    let known_orders = orders(parts.orders)?;
    let kept = parts.orders.len();
    if kept > parts.settings.max_orders {
        return Err(Invalid::out_of_range(
            "snapshot.settings.maxOrders",
            format!(
                "must be at least the {kept} orders the snapshot keeps, got {}",
                parts.settings.max_orders
            ),
        ));
    }
    payments(parts.payments, &known_orders)?;
    journal(parts.journal, parts.settings.log_capacity)?;
    if let Some((_, 0)) = parts.forced_next {
        return Err(Invalid::out_of_range(
            "snapshot.forced_next",
            "a pending forced outcome must cover at least 1 attempt, got 0",
        ));
    }
    if let Some(now) = parts.clock {
        check_time("snapshot.clock", now)?;
    }
    Ok(())
}

/// Text that is not JSON at all.
pub(crate) fn not_a_snapshot(problem: &str) -> Invalid {
    Invalid::wrong_type(
        "snapshot",
        format!("not a snapshot of this service (expected the text snapshot() returns): {problem}"),
    )
}

/// The journal reader's refusal (`` `traceId`: not a trace id ``): a
/// missing field or a value of the wrong type is a `WrongType`, a value it
/// would never write an `OutOfRange`.
pub(crate) fn journal_error(problem: &str) -> Invalid {
    let wrong_type = problem.contains("missing field") || problem.contains("expected");
    let field = "snapshot.journal";
    if wrong_type {
        Invalid::wrong_type(field, problem)
    } else {
        Invalid::out_of_range(field, problem)
    }
}

/// A parser's refusal, with the field it stopped at named: a value of the
/// wrong type or a missing field is a `WrongType`, a value out of what its
/// type holds (a negative count, an unknown status) an `OutOfRange`, and
/// text that is not JSON at all a `WrongType` of the whole snapshot.
pub(crate) fn parse_error(text: &str, e: &serde_json::Error) -> Invalid {
    use serde_json::error::Category;
    let full = e.to_string();
    let problem = full
        .rsplit_once(" at line ")
        .map_or(full.as_str(), |(problem, _)| problem);
    if e.classify() != Category::Data || !text.trim_start().starts_with('{') {
        return Invalid::wrong_type(
            "snapshot",
            format!(
                "not a snapshot of this service (expected the text snapshot() returns): {full}"
            ),
        );
    }
    let offset = super::json_path::offset_of(text, e.line(), e.column());
    let field = super::json_path::path_at(text, offset, "snapshot");
    if problem.starts_with("invalid type") || problem.starts_with("missing field") {
        Invalid::wrong_type(&field, problem)
    } else {
        Invalid::out_of_range(&field, problem)
    }
}

fn settings(s: &Settings) -> Checked {
    if s.seed > MAX_SAFE_INTEGER {
        return Err(Invalid::out_of_range(
            "snapshot.settings.seed",
            format!(
                "must be a whole number from 0 to {MAX_SAFE_INTEGER}, got {}",
                s.seed
            ),
        ));
    }
    if s.max_orders as u64 > MAX_SAFE_INTEGER {
        return Err(Invalid::out_of_range(
            "snapshot.settings.maxOrders",
            format!(
                "must be a whole number from 0 to {MAX_SAFE_INTEGER}, got {}",
                s.max_orders
            ),
        ));
    }
    s.check().map_err(|msg| Invalid {
        kind: InvalidKind::OutOfRange,
        msg: format!("snapshot.settings.{msg}"),
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
                &format!("snapshot.settings.latency.{name}.{field}"),
                format!("must be a whole number of ms from 0 to {MAX_STEP_MS}, got {ms}"),
            ));
        }
    }
    if !(0.0..=1.0).contains(&p.tail_chance) {
        return Err(Invalid::out_of_range(
            &format!("snapshot.settings.latency.{name}.tailChance"),
            format!("must be a number from 0 to 1, got {}", p.tail_chance),
        ));
    }
    Ok(())
}

/// Checks the orders; returns every id ever issued (live and deleted),
/// which payments may refer to.
fn orders(orders: &Orders) -> Result<BTreeSet<&str>, Invalid> {
    let (live, deleted, made) = orders.parts();
    let mut known = BTreeSet::new();
    for (key, order) in live {
        order_fields(key, order)?;
        known.insert(key.as_str());
    }
    for id in deleted {
        let at = || format!("snapshot.orders.deleted[{}]", quoted(id));
        if !is_id(id, "ORD-", false) {
            return Err(Invalid::out_of_range(&at(), bad_id("ORD-")));
        }
        if !known.insert(id.as_str()) {
            return Err(Invalid::out_of_range(
                &at(),
                "is also a live order: an order is live or deleted, not both",
            ));
        }
    }
    let issued = made.values().fold(0u64, |sum, &n| sum.saturating_add(n));
    if issued < known.len() as u64 {
        return Err(Invalid::out_of_range(
            "snapshot.orders.made",
            format!(
                "counts {issued} ids issued, fewer than the {} orders live or deleted",
                known.len()
            ),
        ));
    }
    Ok(known)
}

fn order_fields(key: &str, order: &Order) -> Checked {
    let at = |field: &str| format!("snapshot.orders.live[{}].{field}", quoted(key));
    if !is_id(key, "ORD-", false) {
        return Err(Invalid::out_of_range(
            &format!("snapshot.orders.live[{}]", quoted(key)),
            bad_id("ORD-"),
        ));
    }
    if order.order_id != key {
        return Err(Invalid::out_of_range(
            &at("orderId"),
            format!("must equal its key, got {}", quoted(&order.order_id)),
        ));
    }
    text(&at("userId"), &order.user_id, MAX_USER_ID_CHARS, true)?;
    text(
        &at("description"),
        &order.description,
        MAX_DESCRIPTION_CHARS,
        false,
    )?;
    check_time(&at("createdAt"), order.created_at)?;
    Ok(())
}

fn payments(payments: &Payments, known_orders: &BTreeSet<&str>) -> Checked {
    let (by_id, attempts) = payments.parts();
    for (order_id, &n) in attempts {
        let at = format!("snapshot.payments.attempts[{}]", quoted(order_id));
        if !known_orders.contains(order_id.as_str()) {
            return Err(Invalid::out_of_range(
                &at,
                "is not an order of this snapshot",
            ));
        }
        if n == 0 {
            return Err(Invalid::out_of_range(&at, "must be at least 1, got 0"));
        }
    }
    let mut paid: BTreeMap<&str, u32> = BTreeMap::new();
    for (key, payment) in by_id {
        payment_fields(key, payment, known_orders)?;
        let count = paid.entry(payment.order_id.as_str()).or_insert(0);
        *count = count.saturating_add(1);
        let tried = attempts.get(&payment.order_id).copied().unwrap_or(0);
        if *count > tried {
            return Err(Invalid::out_of_range(
                &format!("snapshot.payments.attempts[{}]", quoted(&payment.order_id)),
                format!("counts {tried} attempts, fewer than the order's {count} payments"),
            ));
        }
    }
    Ok(())
}

fn payment_fields(key: &str, payment: &Payment, known_orders: &BTreeSet<&str>) -> Checked {
    let at = |field: &str| format!("snapshot.payments.by_id[{}].{field}", quoted(key));
    if !is_id(key, "PAY-", true) {
        return Err(Invalid::out_of_range(
            &format!("snapshot.payments.by_id[{}]", quoted(key)),
            bad_id("PAY-"),
        ));
    }
    if payment.payment_id != key {
        return Err(Invalid::out_of_range(
            &at("paymentId"),
            format!("must equal its key, got {}", quoted(&payment.payment_id)),
        ));
    }
    if !known_orders.contains(payment.order_id.as_str()) {
        return Err(Invalid::out_of_range(
            &at("orderId"),
            format!(
                "{} is not an order of this snapshot",
                quoted(&payment.order_id)
            ),
        ));
    }
    check_time(&at("paidAt"), payment.paid_at)?;
    Ok(())
}

fn journal(journal: &Journal, log_capacity: usize) -> Checked {
    let capacity = journal.capacity();
    if capacity != log_capacity {
        return Err(Invalid::out_of_range(
            "snapshot.journal.capacity",
            format!("must equal settings.logCapacity {log_capacity}, got {capacity}"),
        ));
    }
    let next_seq = journal.next_seq();
    if !(1..=MAX_SAFE_INTEGER).contains(&next_seq) {
        return Err(Invalid::out_of_range(
            "snapshot.journal.next_seq",
            format!("must be a whole number from 1 to {MAX_SAFE_INTEGER}, got {next_seq}"),
        ));
    }
    let kept = journal.len();
    if kept > capacity {
        return Err(Invalid::out_of_range(
            "snapshot.journal.records",
            format!("holds {kept} records, more than the capacity {capacity}"),
        ));
    }
    let dropped = journal.dropped();
    if dropped.saturating_add(kept as u64) > next_seq - 1 {
        return Err(Invalid::out_of_range(
            "snapshot.journal.dropped",
            format!(
                "{dropped} dropped and {kept} kept is more than the {} records written",
                next_seq - 1
            ),
        ));
    }
    let mut last_seq = 0;
    for (i, record) in journal.entries(None).enumerate() {
        let at = |field: &str| format!("snapshot.journal.records[{i}].{field}");
        if record.seq <= last_seq || record.seq >= next_seq {
            return Err(Invalid::out_of_range(
                &at("seq"),
                format!(
                    "must be above the previous record's {last_seq} and below next_seq {next_seq}, got {}",
                    record.seq
                ),
            ));
        }
        last_seq = record.seq;
        entry(record, &at)?;
    }
    let spans = journal.span_entries().len();
    if spans > capacity {
        return Err(Invalid::out_of_range(
            "snapshot.journal.spans",
            format!("holds {spans} spans, more than the capacity {capacity}"),
        ));
    }
    for (i, s) in journal.span_entries().enumerate() {
        span(s, &|field: &str| {
            format!("snapshot.journal.spans[{i}].{field}")
        })?;
    }
    Ok(())
}

fn entry(record: &Entry, at: &dyn Fn(&str) -> String) -> Checked {
    check_time(&at("timestamp"), record.timestamp)?;
    match &record.stage {
        Kept::Gateway(_) => Ok(()),
        Kept::Service {
            duration, outcome, ..
        } => {
            safe_count(&at("duration"), *duration)?;
            outcome
                .as_ref()
                .map_or(Ok(()), |v| verdict(&at("outcome"), v))
        }
        Kept::Response(_, answer) => {
            safe_count(&at("duration"), answer.duration.unwrap_or(0))?;
            status_and_code(at, answer.http_status, answer.code)
        }
    }
}

fn status_and_code(at: &dyn Fn(&str) -> String, http_status: u16, code: i32) -> Checked {
    if !(100..=599).contains(&http_status) {
        return Err(Invalid::out_of_range(
            &at("httpStatus"),
            format!("must be an HTTP status from 100 to 599, got {http_status}"),
        ));
    }
    if ![0, -1, i32::from(http_status)].contains(&code) {
        return Err(Invalid::out_of_range(
            &at("code"),
            format!("must be 0, -1 or the HTTP status {http_status}, got {code}"),
        ));
    }
    Ok(())
}

fn span(s: &SpanEntry, at: &dyn Fn(&str) -> String) -> Checked {
    check_time(&at("start"), s.start)?;
    check_time(&at("end"), s.end)?;
    if s.end < s.start {
        return Err(Invalid::out_of_range(
            &at("end"),
            format!("must not be before start {}, got {}", s.start, s.end),
        ));
    }
    match &s.part {
        Part::Gateway {
            http_status, code, ..
        } => status_and_code(at, *http_status, *code),
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
            verdict(&at("attributes"), v)
        }
        Part::ThirdParty { attempt: 0, .. } => Err(Invalid::out_of_range(
            &at("attributes.orderpay.attempt"),
            "must be at least 1, got 0",
        )),
        _ => Ok(()),
    }
}

fn verdict(at: &str, d: &Verdict) -> Checked {
    if d.attempt == 0 {
        return Err(Invalid::out_of_range(
            &format!("{at}.attempt"),
            "must be at least 1, got 0",
        ));
    }
    if !(0.0..1.0).contains(&d.draw) {
        return Err(Invalid::out_of_range(
            &format!("{at}.draw"),
            format!("must be a number from 0 up to 1, got {}", d.draw),
        ));
    }
    if !(0.0..=1.0).contains(&d.threshold) {
        return Err(Invalid::out_of_range(
            &format!("{at}.threshold"),
            format!("must be a number from 0 to 1, got {}", d.threshold),
        ));
    }
    Ok(())
}

fn safe_count(at: &str, n: u64) -> Checked {
    if n > MAX_SAFE_INTEGER {
        return Err(Invalid::out_of_range(
            at,
            format!("must be a whole number from 0 to {MAX_SAFE_INTEGER}, got {n}"),
        ));
    }
    Ok(())
}

/// The rules of `userId` and `description` on create, so a restored order
/// is one the service could have made.
fn text(at: &str, value: &str, max_chars: usize, identifier: bool) -> Checked {
    crate::gateway::request::bounded_text(at, value, max_chars, identifier)
        .map(|_| ())
        .map_err(|e| Invalid {
            kind: InvalidKind::OutOfRange,
            msg: e.msg(),
        })
}

/// `PREFIX` and 8 upper-case letters or digits; a payment id may carry the
/// digits the id generator appends when it runs out of fresh codes.
fn is_id(id: &str, prefix: &str, suffix_allowed: bool) -> bool {
    let Some(rest) = id.strip_prefix(prefix) else {
        return false;
    };
    let code_ok = |s: &str| {
        s.len() == 8
            && s.bytes()
                .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
    };
    match rest.get(..8) {
        Some(code) if rest.len() == 8 => code_ok(code),
        Some(code) => {
            suffix_allowed
                && code_ok(code)
                && rest.len() <= 8 + 20
                && rest[8..].bytes().all(|b| b.is_ascii_digit())
        }
        None => false,
    }
}

fn bad_id(prefix: &str) -> String {
    format!("must be {prefix} and 8 upper-case letters or digits")
}

/// A key or value as JSON text, so odd characters stay visible.
fn quoted(text: &str) -> String {
    let short: String = text.chars().take(64).collect();
    serde_json::to_string(&short).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_prefix_and_eight_codes_with_digits_only_after_a_payment_id() {
        assert!(is_id("ORD-AB12CD34", "ORD-", false));
        assert!(is_id("PAY-AB12CD34", "PAY-", true));
        assert!(is_id("PAY-AB12CD347", "PAY-", true));
        for bad in [
            "ORD-AB12CD347",
            "ORD-ab12cd34",
            "ORD-AB12CD3",
            "PAY-AB12CD34",
            "ORD-",
            "",
            "ORD-AB12CD3é",
        ] {
            assert!(!is_id(bad, "ORD-", false), "{bad}");
        }
        assert!(!is_id("PAY-AB12CD34X", "PAY-", true));
    }
}
