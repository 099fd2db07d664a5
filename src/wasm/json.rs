//! Every value that leaves the module, as JSON text for `JSON.parse`: one
//! function per value, so a faster writer can replace any one of them.
//! Text crosses as one copy, and V8's `JSON.parse` builds the objects
//! (measured against field-by-field building: `tests/bench/boundary.mjs`).

use std::collections::BTreeMap;

use serde::Serialize;

use crate::gateway::{ApiError, Envelope, Response};
use crate::service::Service as Core;
use crate::sim::third_party::Forced;
use crate::sim::Settings;

/// `{code, msg, data}`.
pub fn envelope(envelope: &Envelope) -> String {
    serde_json::to_string(envelope).unwrap_or_else(|e| internal_envelope(&e.to_string()))
}

/// `{status, headers}`, a newline, then the envelope: JSON text never
/// holds a raw newline, so the JS layer splits there, and the adapters
/// send the envelope's text as it is, with no parse and stringify.
pub fn response(response: &Response) -> String {
    #[derive(Serialize)]
    struct Head<'a> {
        status: u16,
        headers: BTreeMap<&'a str, &'a str>,
    }
    let headers = response.headers.iter().collect();
    let head = Head {
        status: response.status,
        headers,
    };
    let mut text = serde_json::to_string(&head).unwrap_or_else(|_| {
        r#"{"status":500,"headers":{"content-type":"application/json"}}"#.to_owned()
    });
    text.push('\n');
    text.push_str(&envelope(&response.body));
    text
}

/// The log records after `after` (all when none), as an array: the
/// core writes them straight from its compact journal.
pub fn records(core: &Core, after: Option<u64>) -> String {
    core.logs_json(after)
}

/// The spans, as an array.
pub fn spans(core: &Core) -> String {
    core.spans_json()
}

/// The spans as an OTLP/JSON export request.
pub fn otlp(core: &Core) -> String {
    core.export_otlp_json()
}

/// The settings in force.
pub fn settings(settings: &Settings) -> String {
    serde_json::to_string(settings).unwrap_or_else(|_| "null".to_owned())
}

/// What `forceNext` still has to do, or `null`.
pub fn forced(pending: Option<(Forced, u32)>) -> String {
    #[derive(Serialize)]
    struct Pending {
        outcome: Forced,
        remaining: u32,
    }
    let pending = pending.map(|(outcome, remaining)| Pending { outcome, remaining });
    serde_json::to_string(&pending).unwrap_or_else(|_| "null".to_owned())
}

/// A 500 envelope, written by hand so that it cannot fail itself.
pub fn internal_envelope(what: &str) -> String {
    let failure = Envelope::failure(&ApiError::Internal(what.to_owned()));
    let msg = serde_json::to_string(&failure.msg).unwrap_or_else(|_| "\"internal error\"".into());
    format!(r#"{{"code":{},"msg":{msg},"data":null}}"#, failure.code)
}
