//! Every value that leaves the module, as JSON text for `JSON.parse`: one
//! function per value, each written by the core's own JSON writer.
//! Text crosses as one copy, and V8's `JSON.parse` builds the objects
//! (measured against field-by-field building: `tests/bench/boundary.mjs`).

use crate::prelude::*;

use crate::gateway::Response;
use crate::json::write::Out;
use crate::service::Service as Core;
use crate::sim::scenario::Fault;
use crate::sim::third_party::Forced;

/// `{code, msg, data}`; for a scenario's network fault that loses the
/// answer, a newline and the fault instead (JSON text never starts with
/// one), which `handle` throws as a `NetworkFaultError`.
pub fn envelope(response: &Response, out: &mut Out) {
    if let Some(fault) = response.headers.fault().filter(|f| loses_answer(f)) {
        out.text.push('\n');
        fault.write(out);
        return;
    }
    response.body.write(out);
}

/// Whether a network fault loses the answer: all but a `dribble`, which
/// answers in full, slowly.
fn loses_answer(fault: &Fault) -> bool {
    fault.network().is_some_and(|(name, _)| name != "dribble")
}

/// `{status, headers}`, a newline, then the envelope: JSON text never
/// holds a raw newline, so the JS layer splits there, and the adapters
/// send the envelope's text as it is, with no parse and stringify.
pub fn response(response: &Response, out: &mut Out) {
    out.begin_object();
    out.key("status");
    out.uint(u64::from(response.status));
    out.key("headers");
    out.begin_object();
    for (name, value) in response.headers.iter() {
        out.key(name);
        out.str(value);
    }
    out.end_object();
    if let Some(fault) = response.headers.fault() {
        out.key("fault");
        fault.write(out);
    }
    out.end_object();
    out.text.push('\n');
    out.reset();
    response.body.write(out);
}

/// One payment, as the envelope's `data` shows it.
pub fn payment(p: &crate::domain::Payment) -> String {
    let mut out = Out::with_capacity(256);
    crate::gateway::envelope::payment(&mut out, p);
    out.text
}

/// Payments, as a JSON array.
pub fn payments(payments: &[crate::domain::Payment]) -> String {
    let mut out = Out::with_capacity(256 * payments.len() + 2);
    out.begin_array();
    for p in payments {
        crate::gateway::envelope::payment(&mut out, p);
    }
    out.end_array();
    out.text
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
pub fn settings(core: &Core) -> String {
    core.settings_json()
}

/// What `forceNext` still has to do, or `null`.
pub fn forced(pending: Option<(Forced, u32)>) -> String {
    let Some((outcome, remaining)) = pending else {
        return "null".to_owned();
    };
    let mut out = Out::with_capacity(48);
    out.begin_object();
    out.key("outcome");
    out.str(outcome.as_str());
    out.key("remaining");
    out.uint(u64::from(remaining));
    out.end_object();
    out.text
}

/// Which trace header decides and why the others are ignored:
/// `{"decides": name or null, "problems": {name: why}}`.
pub fn trace_verdict(
    decides: Option<&str>,
    problems: &[(&str, crate::observe::trace::Problem)],
) -> String {
    let mut out = Out::with_capacity(128);
    out.begin_object();
    out.key("decides");
    out.opt_str(decides);
    out.key("problems");
    out.begin_object();
    for (name, why) in problems {
        out.key(name);
        out.str(&why.text());
    }
    out.end_object();
    out.end_object();
    out.text
}
