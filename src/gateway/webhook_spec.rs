//! A webhook endpoint as a caller registers it (JSON text: `{url | handler,
//! secret?, events?, header?}`), read and refused naming the field, and as
//! it is listed: `{id, url | handler: true, secret, events, header}`.

use crate::prelude::*;

use crate::domain::event_id;
use crate::domain::transition::EventType;
use crate::domain::webhook::{Endpoint, SignatureHeader};
use crate::json::message::{msg, Q};
use crate::json::read::{self, Json};
use crate::json::Out;
use crate::sim::invalid::Invalid;

/// The longest URL or secret taken.
const MAX_TEXT: usize = 2048;
const KEYS: [&str; 5] = ["url", "handler", "secret", "events", "header"];

/// Reads an endpoint to be numbered `n`; a secret is made from the seed
/// when none is given, and every type is wanted when `events` is absent.
pub fn read(text: &str, seed: u64, n: u64) -> Result<Endpoint, Invalid> {
    let spec = read::parse(text).map_err(|e| {
        let mut m = crate::json::message::Msg::new("not JSON: ");
        e.push(&mut m);
        Invalid::wrong_type("webhook", m.text())
    })?;
    of_json(&spec, seed, n, false)
}

/// `read` of a value already parsed; a `saved` one (a snapshot's) has
/// its `id` beside the members a caller gives.
pub fn of_json(spec: &Json, seed: u64, n: u64, saved: bool) -> Result<Endpoint, Invalid> {
    let Some(members) = spec.as_object() else {
        return Err(Invalid::wrong_type("webhook", "must be an object"));
    };
    let unknown = |k: &str| !(KEYS.contains(&k) || (saved && k == "id"));
    if let Some((key, _)) = members.iter().find(|(k, _)| unknown(k)) {
        let known = "url, handler, secret, events or header";
        return Err(Invalid::wrong_type(
            key,
            msg!("unknown option; expected ", known),
        ));
    }
    let url = url(spec)?;
    let secret = match spec.get("secret") {
        None => event_id::secret(seed, n),
        Some(s) => text_of("secret", s)?.to_owned(),
    };
    Ok(Endpoint {
        n,
        url,
        secret,
        events: events(spec.get("events"))?,
        header: header(spec.get("header"))?,
    })
}

/// `url` (absolute http or https) or `handler: true`: one of the two.
fn url(spec: &Json) -> Result<Option<String>, Invalid> {
    let handler = match spec.get("handler") {
        None => false,
        Some(Json::Bool(true)) => true,
        Some(_) => return Err(Invalid::wrong_type("handler", "must be true when given")),
    };
    match (spec.get("url"), handler) {
        (Some(_), true) => Err(Invalid::wrong_type(
            "url",
            "give a url or a handler, not both",
        )),
        (None, true) => Ok(None),
        (None, false) => Err(Invalid::wrong_type(
            "url",
            "missing: give a url or a handler",
        )),
        (Some(u), false) => {
            let text = text_of("url", u)?;
            if !is_http_url(text) {
                let problem = msg!("must be an absolute http or https URL, got ", Q(text));
                return Err(Invalid::out_of_range("url", problem));
            }
            Ok(Some(text.to_owned()))
        }
    }
}

/// `http://` or `https://` (any letter case), a host, no space or control.
fn is_http_url(text: &str) -> bool {
    let lower = |n: usize| text.get(..n).map(str::to_ascii_lowercase);
    let rest = match (lower(7).as_deref(), lower(8).as_deref()) {
        (_, Some("https://")) => text.get(8..),
        (Some("http://"), _) => text.get(7..),
        _ => None,
    };
    let host = rest.and_then(|r| r.split(['/', '?', '#']).next());
    host.is_some_and(|h| !h.is_empty() && !h.starts_with(':'))
        && !text.chars().any(|c| c.is_whitespace() || c.is_control())
}

/// A non-empty string of at most `MAX_TEXT` bytes.
fn text_of<'a>(field: &str, value: &'a Json) -> Result<&'a str, Invalid> {
    let Some(text) = value.as_str() else {
        return Err(Invalid::wrong_type(field, "must be a string"));
    };
    if text.is_empty() || text.len() > MAX_TEXT {
        let problem = msg!("must be 1 to 2048 characters, got ", Q(text));
        return Err(Invalid::out_of_range(field, problem));
    }
    Ok(text)
}

/// `events`: event types, or `["*"]` (also when absent) for every type.
fn events(value: Option<&Json>) -> Result<Option<Vec<EventType>>, Invalid> {
    let Some(value) = value else {
        return Ok(None);
    };
    let items = value.as_array().filter(|a| !a.is_empty());
    let Some(items) = items else {
        let problem = "must be a non-empty array of event types, or [\"*\"]";
        return Err(Invalid::wrong_type("events", problem));
    };
    let mut types = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        match item.as_str() {
            Some("*") => return Ok(None),
            Some(t) if EventType::parse(t).is_some() => types.extend(EventType::parse(t)),
            _ => {
                let field = msg!("events[", &*i.to_string(), "]");
                let problem = "must be an event type such as payment.succeeded, or \"*\"";
                return Err(Invalid::out_of_range(&field, problem));
            }
        }
    }
    Ok(Some(types))
}

fn header(value: Option<&Json>) -> Result<SignatureHeader, Invalid> {
    let Some(value) = value else {
        return Ok(SignatureHeader::default());
    };
    value
        .as_str()
        .and_then(SignatureHeader::parse)
        .ok_or_else(|| {
            let problem = "must be Orderpay-Signature or Stripe-Signature";
            Invalid::out_of_range("header", problem)
        })
}

/// The endpoint as listed, without the closing brace (its deliveries may
/// follow).
pub fn write_open(out: &mut Out, e: &Endpoint) {
    out.begin_object();
    out.key("id");
    out.plain(&e.id());
    match &e.url {
        Some(url) => {
            out.key("url");
            out.str(url);
        }
        None => {
            out.key("handler");
            out.bool(true);
        }
    }
    out.key("secret");
    out.str(&e.secret);
    out.key("events");
    out.begin_array();
    match &e.events {
        None => out.plain("*"),
        Some(types) => types.iter().for_each(|t| out.plain(t.as_str())),
    }
    out.end_array();
    out.key("header");
    out.plain(e.header.as_str());
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(text: &str) -> String {
        read(text, 1, 1).map_or_else(|e| e.msg, |_| panic!("{text} taken"))
    }

    #[test]
    fn a_url_endpoint_gets_a_secret_from_the_seed_and_every_type() {
        let e =
            read(r#"{"url":"http://127.0.0.1:9/hook"}"#, 7, 3).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(e.secret, event_id::secret(7, 3));
        assert_eq!((e.events, e.header), (None, SignatureHeader::Orderpay));
        let h = read(
            r#"{"handler":true,"secret":"s","events":["order.paid"]}"#,
            7,
            4,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(h.url, None);
        assert_eq!(h.events, Some(vec![EventType::OrderPaid]));
    }

    #[test]
    fn each_wrong_field_is_refused_by_name() {
        let cases = [
            (r#"{"url":"ftp://x"}"#, "url: must be an absolute http"),
            (r#"{"url":"/hook"}"#, "url: must be an absolute http"),
            (r#"{"url":"https://"}"#, "url: must be an absolute http"),
            (r#"{"url":"http://a b"}"#, "url: must be an absolute http"),
            (r#"{"url":3}"#, "url: must be a string"),
            (r#"{}"#, "url: missing"),
            (
                r#"{"url":"http://a","handler":true}"#,
                "url: give a url or a handler",
            ),
            (r#"{"handler":false}"#, "handler: must be true"),
            (
                r#"{"url":"http://a","secret":""}"#,
                "secret: must be 1 to 2048",
            ),
            (
                r#"{"url":"http://a","events":[]}"#,
                "events: must be a non-empty array",
            ),
            (
                r#"{"url":"http://a","events":["x"]}"#,
                "events[0]: must be an event type",
            ),
            (
                r#"{"url":"http://a","header":"X"}"#,
                "header: must be Orderpay-Signature",
            ),
            (
                r#"{"url":"http://a","hedaer":"X"}"#,
                "hedaer: unknown option",
            ),
            ("[1]", "webhook: must be an object"),
            ("{", "webhook: not JSON"),
        ];
        for (text, start) in cases {
            let msg = refused(text);
            assert!(msg.starts_with(start), "{text}: {msg}");
        }
    }
}
