//! The gateway: the one way in. It parses the raw request once, routes it
//! once, and writes the three log records of the spec's part 6: `gateway`
//! on arrival, `service` when a service handled it, `response` with the
//! whole context on the way out; and the spans of the request (gateway,
//! service, third party) for tracing tools. Records and spans share one
//! request line and keep numbers, not text.
//!
//! This file is the flow of one request, from arrival to answer; the
//! pieces it hands on to stand beside it:
//! - `work`: what handling a request did, and its parsed parts;
//! - `dispatch`: the routed request to the services;
//! - `records`: the records and spans written of it;
//! - `inner`: the test-data runner's requests, made inside the service;
//! - `async_payment`: a pay's plan, and the records of the changes made;
//! - `catch_up`: the work due on the service's clock, done in due order;
//! - `challenge`: the challenge page's route, the buyer's answer;
//! - `transition`: the one place a state change is committed.

use crate::prelude::*;

use alloc::borrow::Cow;
use alloc::rc::Rc;

mod async_payment;
mod catch_up;
mod challenge;
mod dispatch;
mod inner;
mod records;
mod transition;
mod work;

pub use catch_up::{catch_up, queue_of};
pub use challenge::complete_challenge;
pub use dispatch::TestDataRunner;
pub use inner::{exchange_inner, Inner, InnerCaller};

use super::backend::Backend;
use super::envelope::{Data, Envelope, HeaderFacts, Headers as ResponseHeaders, Response};
use super::error::ApiError;
use super::idempotency::{self, Fingerprint, Lookup, Replay};
use super::request::{check_body_size, Headers, RawRequest, Target, Text};
use super::route;
use super::scenario;
use crate::domain::route_table::{self, Matches, Pick};
use crate::json::message::{msg, Q};
use crate::observe::request_line::{known_method, Call};
use crate::observe::trace::Incoming;
use crate::observe::{Answer, At, EventClass, Extra, Kept, LogStatus, SpanId, TraceId};
use crate::sim::third_party::Failure;
use dispatch::dispatch;
use records::{log, Context};
use work::{Request, Work};

/// Serves one request. The response is built where the caller receives
/// it: a response is a few hundred bytes, and each move of it is a copy.
pub fn exchange(svc: &mut Backend, raw: RawRequest, testdata: TestDataRunner) -> Response {
    let started = svc.clock.now_ms();
    let method = method_of(&raw.method);
    let headers = Headers::parse_measured(raw.headers, raw.headers_measured);
    let (context, user_id) = arrive(svc, headers.as_ref().ok(), started);
    // A path that did not parse still names the request as well as it
    // can; one that did moves into the request line, where the route is
    // then read from.
    let (mut target, refused) = match Target::take(raw.path) {
        Ok(target) => (Ok(target), None),
        Err((error, text)) => (Err(error), Some(text)),
    };
    let matches = target.as_ref().ok().map(|t| Matches::of(&t.path));
    let uri = match (&mut target, refused) {
        // The target keeps its query, all a route reads of it after this.
        (Ok(t), _) => core::mem::take(&mut t.path),
        (Err(_), Some(Text::Given(p))) => {
            let path = p.split(['?', '#']).next().unwrap_or_default();
            path.chars().take(256).collect()
        }
        (Err(_), _) => String::new(),
    };
    // The fit of the method, picked once for the template and the route.
    let pick = matches.as_ref().and_then(|m| m.pick(&method));
    let call = request_line(svc, method, uri, matches.as_ref(), pick, user_id);
    svc.journal
        .write(started, context.at, Kept::Gateway(Rc::clone(&call)));

    let mut work = Work::default();
    // What an `Idempotency-Key` met: a kept answer, or where this one goes.
    let mut keyed = None;
    let result = headers.and_then(|headers| {
        raw.unreadable
            .map_or(Ok(()), |(f, p)| Err(ApiError::bad(f, p)))?;
        check_method(&call.method)?;
        let target = target.as_ref().map_err(Clone::clone)?;
        if let Some(served) = page_of(svc, &call, target, &headers, &mut work) {
            return served;
        }
        let route = match &matches {
            Some(m) => route::resolve_picked(m, pick, &call.method, &call.uri)?,
            None => route::resolve(&call.method, &call.uri)?,
        };
        check_body_size(raw.body.as_ref())?;
        let mut room = None;
        let mut request = Request {
            target,
            headers,
            body: raw.body.as_ref(),
            parsed: None,
        };
        // Only a scenario set, or headers (a scenario's, a key), cost anything.
        if svc.scenario.is_some() || !request.headers.is_empty() {
            request.parse_for_rules(&route, &mut room);
            let body = request.parsed.as_ref().and_then(|p| p.as_ref().ok());
            let at = (&route, call.as_ref(), &request.headers, body);
            work.duration += scenario::before(svc, at, &mut work.under_scenario, &mut work.fault)?;
            // An `Idempotency-Key` is a header too.
            keyed = look_up_key(svc, &call, &request)?;
            if matches!(keyed.as_deref(), Some(Lookup::Replay(_))) {
                return Ok(None);
            }
        }
        dispatch(svc, (testdata, context.origin()), route, request, &mut work)
    });
    let event_class = work.served_by.or_else(|| match &matches {
        Some(m) => route::event_class(m),
        None => route::event_class_of_path(&call.uri),
    });
    finish(svc, &context, call, result, work, event_class, keyed)
}

/// A challenged payment's page; none (one test) without a payment that
/// changes later.
#[inline(always)]
fn page_of(
    svc: &mut Backend,
    call: &Call,
    target: &Target,
    headers: &Headers,
    work: &mut Work,
) -> Option<Result<Option<Data>, ApiError>> {
    if svc.payments.plans.is_empty() {
        return None;
    }
    challenge_page(svc, call, target, headers, work)
}

/// The challenge page, for a page route of the table (GET or POST
/// `/api/payment/{paymentId}/challenge`) of a challenged payment; `None`
/// for any other request, which is routed among the eight.
#[cold]
#[inline(never)]
fn challenge_page(
    svc: &mut Backend,
    call: &Call,
    target: &Target,
    headers: &Headers,
    work: &mut Work,
) -> Option<Result<Option<Data>, ApiError>> {
    let id = route_table::page_param(&call.method, &call.uri)?;
    if !svc.payments.was_challenged(id) {
        return None;
    }
    dispatch::enter(svc, work, EventClass::Payment);
    let asked = challenge::Asked {
        method: &call.method,
        target,
        headers,
    };
    Some(challenge::serve(svc, id, asked, work))
}

/// An `Idempotency-Key` on a POST: the kept answer to replay, or where
/// this request's answer will be kept; a bad key, a key used with another
/// request, or no room for a new key is refused. Other methods ignore the
/// header, as Stripe's GETs do.
#[inline]
fn look_up_key(
    svc: &mut Backend,
    call: &Call,
    req: &Request,
) -> Result<Option<Box<Lookup>>, ApiError> {
    // Most requests carry no headers: nothing to look for then.
    if req.headers.is_empty() || call.method != "POST" {
        return Ok(None);
    }
    let Some(key) = req.headers.get(idempotency::HEADER) else {
        return Ok(None);
    };
    let body = match req.body {
        Some(Text::Given(text)) => Some(text.as_str()),
        _ => None,
    };
    let fingerprint = Fingerprint::of(&call.method, &call.uri, body);
    let (now, bound) = (svc.clock.now_ms(), svc.settings.idempotency_keys);
    let lookup = svc.idempotency.look_up(key, fingerprint, now, bound)?;
    Ok(Some(Box::new(lookup)))
}

/// The answer kept under the request's key, again: its status and
/// envelope, marked `idempotent-replayed`. Nothing runs: no service
/// record, no third party, no draw; the response record says `replay`.
#[cold]
#[inline(never)]
fn replay(
    svc: &mut Backend,
    context: &Context,
    call: Rc<Call>,
    kept: Replay,
    event_class: Option<EventClass>,
) -> Response {
    let answer = Answer {
        event_class,
        duration: None,
        status: kept.log_status,
        http_status: kept.status,
        code: kept.body.code,
        msg: Cow::Owned(kept.body.msg.clone()),
        extra: Some(Box::new(Extra::Replay)),
    };
    let duration = log(svc, context, call, Work::default(), answer);
    let mut facts = response_headers(context, duration, None);
    facts.replayed = true;
    Response {
        status: kept.status,
        headers: ResponseHeaders::of(facts),
        body: kept.body,
    }
}

/// The method as the records keep it: trimmed, upper case, at most 32
/// characters; the usual ones without a copy.
fn method_of(raw: &str) -> Cow<'static, str> {
    // Not trimmed: " GET" or "POST\n" is a caller's bug, refused as a
    // method that is not letters only.
    if let Some(known) = known_method(raw) {
        return Cow::Borrowed(known);
    }
    if raw.len() <= 7 && raw.bytes().all(|b| b.is_ascii_alphabetic()) {
        return Cow::Owned(raw.to_ascii_uppercase());
    }
    let cut: String = raw.chars().take(32).collect();
    Cow::Owned(cut.to_ascii_uppercase())
}

/// Reads the trace context and the user from the headers, and gives the
/// gateway its span.
fn arrive(
    svc: &mut Backend,
    headers: Option<&Headers>,
    started: i64,
) -> (Context, Option<Rc<str>>) {
    // The work due by now, first; one compare when none is.
    catch_up(svc, started);
    // Most requests carry no headers: nothing to look for then.
    let headers = headers.filter(|h| !h.is_empty());
    let incoming = match headers {
        None => Incoming::default(),
        Some(h) => Incoming::read(|name: &str| h.get(name).map(str::to_owned)),
    };
    let user_id = headers
        .and_then(|h| h.get("x-user-id"))
        .filter(|u| !u.is_empty())
        .map(|u| match u.char_indices().nth(128) {
            // At most 128 characters, cut at a character's start.
            Some((cut, _)) => Rc::from(u.get(..cut).unwrap_or(u)),
            None => Rc::from(u),
        });
    let trace = incoming
        .trace_id
        .as_deref()
        .and_then(TraceId::parse)
        .unwrap_or_else(|| TraceId::fresh(&mut svc.streams.traces));
    let at = At {
        trace,
        span: SpanId::fresh(&mut svc.streams.traces),
        parent: incoming.parent_span_id.as_deref().and_then(SpanId::parse),
    };
    let sampled = incoming.sampled != Some(false);
    (
        Context {
            at,
            sampled,
            started,
            kept: true,
        },
        user_id,
    )
}

/// The request line the records and spans share: the path without its
/// query (or what can be made of a path that did not parse) and its
/// documented template; in the room of a line gone from the journal when
/// there is one.
fn request_line(
    svc: &mut Backend,
    method: Cow<'static, str>,
    uri: String,
    matches: Option<&Matches>,
    pick: Option<Pick>,
    user_id: Option<Rc<str>>,
) -> Rc<Call> {
    let template = match matches {
        Some(m) => m.template_of(pick),
        None => route_table::template_of(&method, &uri),
    };
    Call {
        method,
        uri: Cow::Owned(uri),
        template,
        user_id,
    }
    .shared_in(&mut svc.spare_call)
}

/// Writes the service and response records and the spans, and shapes
/// the response. The simulated time it reports (in its header) is the
/// service's, none when the gateway turned the request away. What an
/// `Idempotency-Key` met decides the rest: a kept answer is replayed
/// instead, or this one is kept under the key.
fn finish(
    svc: &mut Backend,
    context: &Context,
    call: Rc<Call>,
    result: Result<Option<Data>, ApiError>,
    mut work: Work,
    event_class: Option<EventClass>,
    keyed: Option<Box<Lookup>>,
) -> Response {
    let pending = match keyed.map(|keyed| *keyed) {
        None => None,
        Some(Lookup::Run(pending)) => Some(pending),
        Some(Lookup::Replay(kept)) => return replay(svc, context, call, kept, event_class),
    };
    let status = result
        .as_ref()
        .map_or_else(ApiError::log_status, |_| LogStatus::Success);
    let allow = match &result {
        Err(ApiError::MethodNotAllowed { allow, .. }) => Some(*allow),
        _ => None,
    };
    let fixed = match &result {
        Ok(_) => Some("success"),
        Err(error) => error.fixed_msg(),
    };
    let (http_status, mut body) = match result {
        Ok(data) => (200, Envelope::success(data)),
        Err(error) => (error.http_status(), Envelope::failure(&error)),
    };
    // A refusal a browser is shown as a page (the challenge's, over).
    if let Some(shown) = work.shown.take() {
        body.data = Some(Data::Page(shown));
    }
    let page = body.page().map(|p| (p.status, p.location.clone()));
    let http_status = page.as_ref().map_or(http_status, |p| p.0);
    // A fixed message is shared by the records and spans, not copied.
    let msg: Cow<'static, str> = match fixed {
        Some(fixed) => Cow::Borrowed(fixed),
        None => Cow::Owned(body.msg.clone()),
    };
    let answer = Answer {
        event_class,
        duration: None,
        status,
        http_status,
        code: body.code,
        msg,
        extra: work
            .fault
            .as_deref()
            .map(|f| Box::new(Extra::Fault(f.clone()))),
    };
    let fault = work.fault.take();
    // A third party that timed out or failed leaves the outcome unknown;
    // a decline's code goes out in a header.
    let failure = work.third_party.as_ref().map(|(_, _, v)| v.failure);
    let outcome_unknown = matches!(failure, Some(Failure::TimedOut | Failure::Status(_)));
    let duration = log(svc, context, call, work, answer);
    if let Some(pending) = pending {
        let keys = &mut svc.idempotency;
        keys.keep(pending, http_status, &body, outcome_unknown);
    }
    let mut facts = response_headers(context, duration, allow);
    facts.failure = failure.unwrap_or_default();
    let mut headers = ResponseHeaders::of(facts).with_fault(fault);
    if let Some((_, location)) = page {
        headers = headers.with_page(location.as_deref());
    }
    Response {
        status: http_status,
        headers,
        body,
    }
}

/// What the response headers will say, kept as facts until read.
fn response_headers(
    context: &Context,
    duration: Option<u64>,
    allow: Option<&'static str>,
) -> HeaderFacts {
    HeaderFacts {
        trace: context.at.trace,
        span: context.at.span,
        parent: context.at.parent,
        sampled: context.sampled,
        duration: duration.unwrap_or(0),
        allow,
        replayed: false,
        failure: Failure::None,
    }
}

/// A method is a token of letters; anything else is malformed, not merely
/// not allowed.
fn check_method(method: &str) -> Result<(), ApiError> {
    if method.is_empty() || !method.bytes().all(|b| b.is_ascii_alphabetic()) {
        // Blank is shown as empty; anything else as given, spaces included.
        let shown = if method.trim().is_empty() { "" } else { method };
        let problem = msg!("must be an HTTP method such as GET or POST, got ", Q(shown));
        return Err(ApiError::bad("method", problem));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::BatchReport;
    use crate::observe::Kept;
    use crate::sim::clock::VirtualClock;
    use crate::sim::Settings;

    fn backend() -> Backend {
        let clock = Box::new(VirtualClock::starting_at(0));
        Backend::new(Settings::with_seed(13), clock).unwrap_or_else(|e| panic!("{e}"))
    }

    fn no_runner(_: &mut Backend, _: u32) -> (BatchReport, u64) {
        panic!("the test-data route is not asked for here")
    }

    #[test]
    fn methods_are_kept_upper_case_and_at_most_32_characters() {
        assert_eq!(method_of("GET"), "GET");
        assert_eq!(method_of("patch"), "PATCH");
        assert_eq!(method_of(&"x".repeat(40)), "X".repeat(32));
        assert!(check_method("GET").is_ok());
        assert!(check_method("").is_err());
        assert!(check_method("GE T").is_err());
    }

    #[test]
    fn a_create_is_answered_and_written_gateway_service_response() {
        let mut svc = backend();
        let raw = RawRequest::new("POST", "/api/order/create")
            .with_body(r#"{"userId":"u1","price":12.5,"description":"tea"}"#);
        let response = exchange(&mut svc, raw, no_runner);
        assert_eq!((response.status, response.body.code), (200, 0));
        assert_eq!(svc.orders.len(), 1);
        let stages: Vec<_> = svc.journal.entries(None).map(|e| &e.stage).collect();
        assert!(matches!(
            stages.as_slice(),
            [Kept::Gateway(_), Kept::Service { .. }, Kept::Response(..)]
        ));
    }

    #[test]
    fn a_request_the_gateway_turns_away_has_no_service_record() {
        let mut svc = backend();
        let response = exchange(&mut svc, RawRequest::new("G-T", "/api/order/x"), no_runner);
        assert_eq!(response.status, 400);
        let stages: Vec<_> = svc.journal.entries(None).map(|e| &e.stage).collect();
        assert!(matches!(
            stages.as_slice(),
            [Kept::Gateway(_), Kept::Response(..)]
        ));
    }

    #[test]
    fn a_replayed_key_runs_nothing_again() {
        let mut svc = backend();
        let raw = || {
            RawRequest::new("POST", "/api/order/create")
                .with_body(r#"{"userId":"u1","price":2,"description":"a"}"#)
                .with_header("Idempotency-Key", "k-1")
        };
        let first = exchange(&mut svc, raw(), no_runner);
        let again = exchange(&mut svc, raw(), no_runner);
        assert_eq!(
            (first.status, first.body.code),
            (again.status, again.body.code)
        );
        assert!(matches!(again.body.data, Some(Data::Kept(_))));
        assert_eq!(svc.orders.len(), 1);
        let services = svc.journal.entries(None);
        let served = services.filter(|e| matches!(e.stage, Kept::Service { .. }));
        assert_eq!(served.count(), 1);
    }
}
