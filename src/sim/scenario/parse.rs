//! A scenario document read with the crate's JSON reader and refused
//! whole, naming the JSON path of the first problem (`rules[2].when.until:
//! expected a whole number of ms, got "soon"`), so a typo is an error
//! rather than a rule that silently never fires.

use crate::prelude::*;

use crate::json::message::Msg;
use crate::json::read::{self, Json};
use crate::sim::invalid::InvalidKind;

use super::delivery::{DELIVERY_KINDS, EVENTS_ONLY};
use super::delivery_read;
use super::document::{
    Document, Phase, Rule, Then, When, Words, HTTP_STATUSES, KINDS, MAX_MS, MAX_NAME,
    MAX_RETRY_AFTER, MAX_RULES, NETWORK_FAULTS,
};
use super::reading::{decline_code, member, object, text, whole, word, At, Given, Refusal};

/// Reads a document from its JSON text.
pub fn parse(text: &str, words: Words) -> Result<Document, Box<Refusal>> {
    let tree = read::parse(text).map_err(|e| {
        let mut m = Msg::new("not JSON: ");
        e.push(&mut m);
        At::Root.refuse(InvalidKind::WrongType, m.text())
    })?;
    from_tree(&tree, words)
}

/// Reads a document from its JSON tree.
pub fn from_tree(tree: &Json, words: Words) -> Result<Document, Box<Refusal>> {
    let root = At::Root;
    if tree.as_object().is_none() {
        return Err(root.wrong("an object with rules, or a preset's name", tree));
    }
    let members = object(tree, &root, &["name", "rules"])?;
    let name = match member(members, "name") {
        Some(v) => Some(text(v, &At::Key(&root, "name"), MAX_NAME)?),
        None => None,
    };
    let at = At::Key(&root, "rules");
    let list = member(members, "rules").ok_or_else(|| {
        root.refuse(
            InvalidKind::WrongType,
            "rules: missing; expected a list of rules".to_owned(),
        )
    })?;
    let items = list
        .as_array()
        .ok_or_else(|| at.wrong("an array of rules", list))?;
    if items.len() > MAX_RULES {
        let mut m = Msg::new("expected at most ");
        m.uint(MAX_RULES as u64)
            .s(" rules, got ")
            .uint(items.len() as u64);
        return Err(at.refuse(InvalidKind::OutOfRange, m.text()));
    }
    let mut rules = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        rules.push(rule(item, &At::Index(&at, i), i, words)?);
    }
    Ok(Document { name, rules })
}

fn rule(v: &Json, at: &At, i: usize, words: Words) -> Result<Rule, Box<Refusal>> {
    let members = object(v, at, &["name", "when", "then"])?;
    let given = match member(members, "name") {
        Some(n) => Some(text(n, &At::Key(at, "name"), MAX_NAME)?),
        None => None,
    };
    let when = match member(members, "when") {
        Some(w) => super::when::read(w, &At::Key(at, "when"), words)?,
        None => When::default(),
    };
    let then_at = At::Key(at, "then");
    let then = member(members, "then").ok_or_else(|| {
        at.refuse(
            InvalidKind::WrongType,
            "then: missing; expected what the rule does".to_owned(),
        )
    })?;
    let then = read_then(then, &then_at, false)?;
    let when = fit(when, &then, &At::Key(at, "when"))?;
    let name = given.unwrap_or_else(|| {
        let mut m = Msg::new("rules[");
        m.uint(i as u64).s("]");
        m.text()
    });
    Ok(Rule { name, when, then })
}

/// `when` checked against the kind of `then`: a delivery kind's rule
/// matches events, so it takes no matcher of a request's (`route`,
/// `method`, `header`), and gets `EVENTS_ONLY` as its route; a request
/// kind's takes no `event`.
fn fit(mut when: When, then: &Then, at: &At) -> Result<When, Box<Refusal>> {
    let delivery = matches!(then, Then::Delivery(_));
    let wrong = if delivery {
        let given = [
            ("route", when.route.is_some()),
            ("method", when.method.is_some()),
            ("header", when.header.is_some()),
        ];
        given
            .into_iter()
            .find(|(_, given)| *given)
            .map(|(key, _)| key)
    } else {
        when.event.map(|_| "event")
    };
    if let Some(key) = wrong {
        return Err(delivery_read::wrong_matcher(&At::Key(at, key), delivery));
    }
    if delivery {
        when.route = Some(EVENTS_ONLY);
    }
    Ok(when)
}

/// What a kind is told it must be: every kind, the request's then the
/// delivery's.
const ANY_KIND: &str = "one of decline, timeout, processor_error, http, delay, network, challenge, pending, reversal, or a delivery kind: duplicate, late, reorder, stale_timestamp, tampered_body, wrong_signature, drop";

/// The keys each kind takes besides `kind`; in a log record's `fault`
/// (`record`), `rule` too, and a timeout's `ms` for its `afterMs`.
fn keys_of(kind: &str, record: bool) -> &'static [&'static str] {
    match (kind, record) {
        ("decline", false) => &["kind", "code"],
        ("decline", true) => &["kind", "rule", "code"],
        ("timeout", false) => &["kind", "afterMs"],
        ("timeout", true) => &["kind", "rule", "ms"],
        ("http", false) => &["kind", "status", "retryAfter"],
        ("http", true) => &["kind", "rule", "status", "retryAfter"],
        ("processor_error", false) => &["kind", "status"],
        ("processor_error", true) => &["kind", "rule", "status"],
        ("delay", false) => &["kind", "ms"],
        ("delay", true) => &["kind", "rule", "ms"],
        ("challenge", false) => &["kind", "outcome", "afterMs", "code"],
        ("challenge", true) => &["kind", "rule", "outcome", "afterMs", "code"],
        ("pending", false) => &["kind", "forMs", "outcome", "code"],
        ("pending", true) => &["kind", "rule", "forMs", "outcome", "code"],
        ("reversal", false) => &["kind", "afterMs", "code"],
        ("reversal", true) => &["kind", "rule", "afterMs", "code"],
        ("duplicate", false) => &["kind", "times"],
        ("duplicate", true) => &["kind", "rule", "times"],
        ("late", false) => &["kind", "ms"],
        ("late", true) => &["kind", "rule", "ms"],
        ("reorder", false) => &["kind", "hold", "order"],
        ("reorder", true) => &["kind", "rule", "hold", "order", "seed"],
        ("stale_timestamp", false) => &["kind", "ageS"],
        ("stale_timestamp", true) => &["kind", "rule", "ageS"],
        ("tampered_body" | "wrong_signature", false) => &["kind"],
        ("tampered_body" | "wrong_signature", true) => &["kind", "rule"],
        ("drop", false) => &["kind", "attempts"],
        ("drop", true) => &["kind", "rule", "attempts"],
        (_, false) => &["kind", "fault", "ms", "phase"],
        (_, true) => &["kind", "rule", "fault", "ms", "phase"],
    }
}

/// A rule's `then`, or (`record`) a log record's `fault` beside its rule.
pub(super) fn read_then(v: &Json, at: &At, record: bool) -> Result<Then, Box<Refusal>> {
    let kind_of = v.as_object().map(|_| v.get("kind"));
    let kind = match kind_of {
        None => return Err(at.wrong("an object with a kind", v)),
        Some(None) => {
            let mut problem = String::from("kind: missing; expected ");
            problem.push_str(ANY_KIND);
            return Err(at.refuse(InvalidKind::WrongType, problem));
        }
        Some(Some(k)) => {
            let at = At::Key(at, "kind");
            word(k, &at, &KINDS, ANY_KIND).or_else(|_| word(k, &at, &DELIVERY_KINDS, ANY_KIND))?
        }
    };
    let members = object(v, at, keys_of(kind, record))?;
    let get = |name: &'static str| member(members, name).map(|v| (v, At::Key(at, name)));
    let ms_or = |name: &'static str, default: u64| match get(name) {
        Some((v, at)) => whole(v, &at, 0, MAX_MS, "a whole number of ms"),
        None => Ok(default),
    };
    Ok(match kind {
        "decline" => Then::Decline {
            code: decline_code(get("code"), "generic_decline")?,
        },
        "timeout" => Then::Timeout {
            after_ms: ms_or(if record { "ms" } else { "afterMs" }, 30_000)?,
        },
        "processor_error" => Then::ProcessorError {
            status: match get("status") {
                Some((v, at)) => whole(v, &at, 500, 599, "an HTTP status")? as u16,
                None => 500,
            },
        },
        "http" => read_http(get("status"), get("retryAfter"))?,
        "delay" => Then::Delay {
            ms: ms_or("ms", 0)?,
        },
        "challenge" | "pending" | "reversal" => super::async_kinds::read(kind, &get, at)?,
        "network" => read_network(get("fault"), get("phase"), at, &ms_or)?,
        _ => Then::Delivery(delivery_read::read(kind, &get, record)?),
    })
}

fn read_http(status: Given, retry_after: Given) -> Result<Then, Box<Refusal>> {
    let status = match status {
        Some((v, at)) => {
            let what = "one of 429, 502, 503, 504";
            let n = whole(v, &at, 0, 999, what).map_err(|_| at.range(what, v))?;
            HTTP_STATUSES
                .iter()
                .find(|s| u64::from(**s) == n)
                .copied()
                .ok_or_else(|| at.range(what, v))?
        }
        None => 503,
    };
    let retry_after = match retry_after {
        Some((v, at)) => whole(v, &at, 0, MAX_RETRY_AFTER, "a whole number of seconds")?,
        None => 1,
    };
    Ok(Then::Http {
        status,
        retry_after,
    })
}

fn read_network(
    fault: Given,
    phase: Given,
    at: &At,
    ms_or: &dyn Fn(&'static str, u64) -> Result<u64, Box<Refusal>>,
) -> Result<Then, Box<Refusal>> {
    let fault = match fault {
        Some((v, at)) => word(
            v,
            &at,
            &NETWORK_FAULTS,
            "one of reset, empty, short, hang, dribble, error",
        )?,
        None => {
            let problem =
                "fault: missing; expected one of reset, empty, short, hang, dribble, error";
            return Err(at.refuse(InvalidKind::WrongType, problem.to_owned()));
        }
    };
    let always_response = matches!(fault, "short" | "dribble");
    let phase = match phase {
        Some((v, at)) => match word(v, &at, &["request", "response"], "request or response")? {
            "request" if always_response => {
                let problem =
                    "a short or dribble fault is always in the response; expected response";
                return Err(at.refuse(InvalidKind::OutOfRange, problem.to_owned()));
            }
            "request" => Phase::Request,
            _ => Phase::Response,
        },
        None if always_response => Phase::Response,
        None => Phase::Request,
    };
    let ms = ms_or("ms", if fault == "dribble" { 5_000 } else { 30_000 })?;
    Ok(Then::Network { fault, ms, phase })
}
