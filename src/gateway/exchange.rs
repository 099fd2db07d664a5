//! The gateway: the one way in. It parses the raw request once, routes it
//! once, and writes the three log records of the spec's part 6: `gateway`
//! on arrival, `service` when a service handled it, `response` with the
//! whole context on the way out; and the spans of the request (gateway,
//! service, third party) for tracing tools. Records and spans share one
//! request line and keep numbers, not text.

use crate::prelude::*;

use alloc::borrow::Cow;
use alloc::rc::Rc;

use super::backend::Backend;
use super::envelope::{Data, Envelope, HeaderFacts, Headers as ResponseHeaders, Response};
use super::error::ApiError;
use super::idempotency::{self, Fingerprint, Lookup, Replay};
use super::parse;
use super::request::{check_body_size, Body, Headers, RawRequest, Target, Text};
use super::route::{self, Route};
use super::scenario;
use crate::domain::code::Code;
use crate::domain::money::Money;
use crate::domain::route_table::{self, Matches, Pick};
use crate::domain::{BatchReport, NewOrder, NewPayment, PaymentMethod, Rejection};
use crate::json::flat::Flat;
use crate::json::message::{msg, Q};
use crate::observe::call::{known_method, Call};
use crate::observe::trace::Incoming;
use crate::observe::{
    Answer, At, EventClass, Extra, Kept, LogStatus, Mark, Part, SpanEntry, SpanId, TraceId, Why,
};
use crate::sim::latency::LatencyModel;
use crate::sim::scenario::{Fault, Then};
use crate::sim::third_party::{self, Failure, Forced, Rule, Verdict};

/// What handling a request did: who served it, for how long, and what the
/// third party did inside it, as the service record and the spans report.
#[derive(Default)]
struct Work {
    served_by: Option<EventClass>,
    duration: u64,
    /// The third-party call: when it started (ms after the request
    /// arrived), how long it took, and what it decided.
    third_party: Option<(u64, u64, Verdict)>,
    /// The failure a scenario gave the request, if a rule fired.
    /// Boxed: requests with none carry a pointer, not a failure's room.
    fault: Option<Box<Fault>>,
    /// Whether a scenario was in force for it (a drawn decline then
    /// reports `generic_decline`).
    under_scenario: bool,
}

/// The parts of a request the services read, all parsed; a body already
/// parsed for a scenario's rules is not parsed again.
struct Request<'r> {
    target: &'r Target,
    headers: Headers,
    body: Option<&'r Text>,
    parsed: Option<Result<Body<'r, 'r>, ApiError>>,
}

impl<'r> Request<'r> {
    /// A create's or a payment's body, parsed into `room` before the
    /// service runs: for a scenario's rules, then the service.
    fn parse_for_rules(&mut self, route: &Route, room: &'r mut Option<Flat<'r>>) {
        if matches!(route, Route::CreateOrder | Route::Pay) {
            let room = room.insert(Flat::new());
            self.parsed = Some(Body::parse(self.body, &self.headers, room));
        }
    }

    /// The body, parsed (`Body::parse`) into `room` unless it already is.
    fn body<'s>(&'s mut self, room: &'s mut Flat<'r>) -> Result<Body<'s, 'r>, ApiError> {
        match self.parsed.take() {
            Some(parsed) => parsed,
            None => Body::parse(self.body, &self.headers, room),
        }
    }
}

/// Serves the test-data route. The service layer hands it in: the runner
/// sends its own requests through this gateway, so the gateway cannot
/// import it without a cycle.
pub type TestDataRunner = fn(&mut Backend, u32) -> (BatchReport, u64);

/// Where the request stands in its trace, and whether it is sampled.
struct Context {
    at: At,
    sampled: bool,
    started: i64,
    /// Whether its records and spans are kept; when not, each record is
    /// counted as written and dropped (see `Journal::pass`).
    kept: bool,
}

impl Context {
    /// Writes a record of this request, or counts it as passed.
    #[inline]
    fn write(&self, svc: &mut Backend, timestamp: i64, at: At, stage: Kept) {
        if self.kept {
            svc.journal.write(timestamp, at, stage);
        } else {
            svc.journal.pass();
        }
    }

    /// Keeps a span of this request, unless its records are passed over.
    #[inline]
    fn record_span(&self, svc: &mut Backend, span: SpanEntry) {
        if self.kept {
            svc.journal.record_span(span, &mut svc.spare_call);
        }
    }

    /// The time `offset` ms of simulated time after the request arrived,
    /// stopped where the clock stops: where a span starting or ending
    /// there lies, and so where its record's timestamp lies.
    fn at(&self, offset: u64) -> i64 {
        self.started
            .saturating_add(i64::try_from(offset).unwrap_or(i64::MAX))
            .min(crate::sim::time_limits::MAX_TIME_MS)
    }
}

/// A request made inside the service, by the test-data runner: already
/// read and routed, with its trace and user given. Only the work and the
/// records remain, written exactly as for a request from outside. The
/// runner reads no answer back but the new order's code, so none is made.
pub enum Inner<'a> {
    /// Order create: user, price and description, shared in the orders'
    /// table of texts (`Texts::share`).
    Create(&'a Rc<str>, Money, &'a Rc<str>),
    /// Payment pay: order id, amount and method.
    Pay(&'a str, Money, PaymentMethod),
    /// Order mark paid, by id.
    MarkPaid(&'a str),
}

/// The user the runner makes inner requests for, with the request lines
/// of its order create and payment pay: the same for every order of the
/// user, so made once and shared by all their records and spans.
pub struct InnerCaller {
    user_id: Rc<str>,
    create: Rc<Call>,
    pay: Rc<Call>,
    /// The mark-paid line of a request whose records are passed over:
    /// only its route is counted, so its path is not written.
    mark_paid: Rc<Call>,
}

impl InnerCaller {
    pub fn new(user_id: Rc<str>) -> InnerCaller {
        let line = |path: &'static str| {
            Call {
                method: Cow::Borrowed("POST"),
                uri: Cow::Borrowed(path),
                template: Some(path),
                user_id: Some(Rc::clone(&user_id)),
            }
            .shared()
        };
        InnerCaller {
            create: line("/api/order/create"),
            pay: line("/api/payment/pay"),
            mark_paid: line("/api/order/{orderId}/pay"),
            user_id,
        }
    }

    pub fn user_id(&self) -> &str {
        &self.user_id
    }

    /// The request line of `inner`: shared, or made for it when its
    /// records are `kept`.
    fn call(&self, inner: &Inner, kept: bool) -> Rc<Call> {
        match inner {
            Inner::Create(..) => Rc::clone(&self.create),
            Inner::Pay(..) => Rc::clone(&self.pay),
            Inner::MarkPaid(_) if !kept => Rc::clone(&self.mark_paid),
            Inner::MarkPaid(id) => {
                let mut uri = String::with_capacity(id.len() + 15);
                for part in ["/api/order/", id, "/pay"] {
                    uri.push_str(part);
                }
                Call {
                    method: Cow::Borrowed("POST"),
                    uri: Cow::Owned(uri),
                    template: Some("/api/order/{orderId}/pay"),
                    user_id: Some(Rc::clone(&self.user_id)),
                }
                .shared()
            }
        }
    }
}

/// Serves an inner request as part of the trace `trace`; returns the
/// envelope's code, the new order's code (for order create), and the
/// simulated time it took. With `kept` false its records and spans are
/// counted as written and dropped at once: for a request whose records
/// the caller knows later ones of the same call will push out of the log.
pub fn exchange_inner(
    svc: &mut Backend,
    inner: Inner,
    trace: TraceId,
    caller: &InnerCaller,
    kept: bool,
) -> (i32, Option<Code>, u64) {
    let started = svc.clock.now_ms();
    let at = At {
        trace,
        span: SpanId::fresh(&mut svc.streams.traces),
        parent: None,
    };
    let context = Context {
        at,
        sampled: true,
        started,
        kept,
    };
    let call = caller.call(&inner, kept);
    context.write(svc, started, context.at, Kept::Gateway(Rc::clone(&call)));
    let mut work = Work::default();
    let result = match inner {
        Inner::Create(user_id, price, description) => {
            create_inner(svc, user_id, price, description, &mut work).map(Some)
        }
        Inner::Pay(order_id, amount, method) => {
            enter(svc, &mut work, EventClass::Payment);
            judge(svc, order_id, None, &mut work).map(|order| {
                let now = svc.clock.now_ms();
                let ids = &mut svc.streams.ids;
                svc.payments.add(order, amount, method, ids, now);
                None
            })
        }
        Inner::MarkPaid(id) => {
            enter(svc, &mut work, EventClass::Order);
            svc.orders
                .mark_paid(id)
                .map(|()| None)
                .map_err(ApiError::from)
        }
    };
    finish_inner(svc, &context, call, result, work)
}

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
        raw.unreadable.map_or(Ok(()), |(field, problem)| {
            Err(ApiError::bad(field, problem))
        })?;
        check_method(&call.method)?;
        let target = target.as_ref().map_err(Clone::clone)?;
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
        dispatch(svc, testdata, route, request, &mut work)
    });
    let event_class = work.served_by.or_else(|| match &matches {
        Some(m) => route::event_class(m),
        None => route::event_class_of_path(&call.uri),
    });
    finish(svc, &context, call, result, work, event_class, keyed)
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
    let (http_status, body) = match result {
        Ok(data) => (200, Envelope::success(data)),
        Err(error) => (error.http_status(), Envelope::failure(&error)),
    };
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
    // A third party that timed out or failed leaves the outcome unknown.
    let outcome_unknown = work.third_party.as_ref().is_some_and(|(_, _, verdict)| {
        matches!(verdict.failure, Failure::TimedOut | Failure::Status(_))
    });
    let duration = log(svc, context, call, work, answer);
    if let Some(pending) = pending {
        let keys = &mut svc.idempotency;
        keys.keep(pending, http_status, &body, outcome_unknown);
    }
    Response {
        status: http_status,
        headers: ResponseHeaders::of(response_headers(context, duration, allow)).with_fault(fault),
        body,
    }
}

/// `finish` for a request the service made itself: the same records,
/// but only the code, the data and the simulated time come back, so no
/// envelope or headers are made.
fn finish_inner<T>(
    svc: &mut Backend,
    context: &Context,
    call: Rc<Call>,
    result: Result<Option<T>, ApiError>,
    work: Work,
) -> (i32, Option<T>, u64) {
    let event_class = work.served_by;
    let (answer, data) = match result {
        Ok(data) => {
            let answer = Answer {
                event_class,
                duration: None,
                status: LogStatus::Success,
                http_status: 200,
                code: 0,
                msg: Cow::Borrowed("success"),
                extra: None,
            };
            (answer, data)
        }
        Err(error) => {
            let answer = Answer {
                event_class,
                duration: None,
                status: error.log_status(),
                http_status: error.http_status(),
                code: error.code(),
                msg: error.log_msg(),
                extra: None,
            };
            (answer, None)
        }
    };
    let code = answer.code;
    let duration = log(svc, context, call, work, answer);
    (code, data, duration.unwrap_or(0))
}

/// Writes what a request came to: the service record, the spans and the
/// response record. Returns the service's simulated time, none when the
/// gateway turned the request away (the answer's `duration` is set here).
fn log(
    svc: &mut Backend,
    context: &Context,
    call: Rc<Call>,
    work: Work,
    mut answer: Answer,
) -> Option<u64> {
    let service_span = record_service(svc, context, &work, answer.status);
    answer.duration = service_span.map(|_| work.duration);
    let duration = answer.duration;
    svc.counters
        .count(&call, &answer, work.third_party.as_ref().map(|t| &t.2));
    if context.sampled && context.kept {
        record_spans(svc, context, &call, &answer, work, service_span);
    } else if context.sampled && work.served_by.is_some() && service_span.is_some() {
        // Spans passed over are not made; the third party's id is still
        // drawn, so every later id comes out the same.
        if work.third_party.is_some() {
            SpanId::fresh(&mut svc.streams.traces);
        }
    }
    // At the end of the request in simulated time, where its span ends.
    let ended = context.at(duration.unwrap_or(0));
    context.write(svc, ended, context.at, Kept::Response(call, answer));
    duration
}

/// The service record, when a service handled the request; returns the
/// service's span.
fn record_service(
    svc: &mut Backend,
    context: &Context,
    work: &Work,
    status: LogStatus,
) -> Option<SpanId> {
    let event_class = work.served_by?;
    let span = SpanId::fresh(&mut svc.streams.traces);
    // Where the service's span starts: when the request arrived.
    let now = context.at(0);
    let at = At {
        trace: context.at.trace,
        span,
        parent: Some(context.at.span),
    };
    let stage = Kept::Service {
        event_class,
        duration: work.duration,
        status,
        outcome: work.third_party.map(|(_, _, verdict)| verdict),
    };
    context.write(svc, now, at, stage);
    Some(span)
}

/// The spans: the gateway's (a child of the caller's), the service's and,
/// for payment pay, the third party's.
fn record_spans(
    svc: &mut Backend,
    context: &Context,
    call: &Rc<Call>,
    answer: &Answer,
    work: Work,
    service_span: Option<SpanId>,
) {
    // A span ends where the clock stopped, if it stopped at its end.
    let at = |offset: u64| context.at(offset);
    let total = answer.duration.unwrap_or(0);
    let span = |span, parent, (from, to), status, part| SpanEntry {
        trace: context.at.trace,
        span,
        parent,
        start: at(from),
        end: at(to),
        status,
        part,
    };
    let gateway = Part::Gateway {
        call: Rc::clone(call),
        http_status: answer.http_status,
        code: answer.code,
        msg: answer.msg.clone(),
        mark: mark(answer),
    };
    let window = (0, total);
    context.record_span(
        svc,
        span(
            context.at.span,
            context.at.parent,
            window,
            answer.status,
            gateway,
        ),
    );
    let (Some(class), Some(service_span)) = (work.served_by, service_span) else {
        return;
    };
    let service = Part::Service {
        call: Rc::clone(call),
        class,
    };
    let parent = Some(context.at.span);
    context.record_span(
        svc,
        span(service_span, parent, window, answer.status, service),
    );
    if let Some((offset, took, verdict)) = work.third_party {
        let status = if verdict.approved {
            LogStatus::Success
        } else {
            LogStatus::ServerError
        };
        let part = Part::ThirdParty {
            approved: verdict.approved,
            attempt: verdict.attempt,
            why: Why::Verdict(verdict),
        };
        let third = SpanId::fresh(&mut svc.streams.traces);
        let window = (offset, offset + took);
        context.record_span(svc, span(third, Some(service_span), window, status, part));
    }
}

/// What the gateway span says of a replay or a scenario's failure.
fn mark(answer: &Answer) -> Option<Box<Mark>> {
    if answer.replay() {
        return Some(Box::new(Mark::Replay));
    }
    let fault = answer.fault()?;
    let code = match fault.then {
        Then::Decline { code } => Some(code),
        _ => None,
    };
    let kind = fault.then.kind();
    Some(Box::new(Mark::Fault(kind, fault.rule.clone(), code)))
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

fn dispatch(
    svc: &mut Backend,
    testdata: TestDataRunner,
    route: Route,
    req: Request,
    work: &mut Work,
) -> Result<Option<Data>, ApiError> {
    let class = route.event_class();
    match route {
        Route::CreateOrder => {
            let (mut req, mut room) = (req, Flat::new());
            let new = parse::new_order(&req.body(&mut room)?)?;
            create(svc, new, work)
        }
        Route::GetOrder(order_id) => {
            enter(svc, work, class);
            Ok(Some(Data::Order(svc.orders.get(order_id)?)))
        }
        Route::MarkOrderPaid(order_id) => {
            enter(svc, work, class);
            svc.orders.mark_paid(order_id)?;
            Ok(None)
        }
        Route::DeleteOrder(order_id) => {
            enter(svc, work, class);
            svc.orders.delete(order_id)?;
            svc.payments.forget_attempts(order_id);
            Ok(None)
        }
        Route::Pay => pay(svc, req, work, class),
        Route::GetPayment(payment_id) => {
            enter(svc, work, class);
            Ok(Some(Data::Payment(svc.payments.get(payment_id)?)))
        }
        Route::Refund(payment_id) => {
            enter(svc, work, class);
            svc.payments.refund(payment_id)?;
            Ok(None)
        }
        Route::Batch => {
            let count = parse::count(req.target)?;
            enter(svc, work, class);
            let (report, spent) = testdata(svc, count);
            work.duration += spent;
            Ok(Some(Data::Batch(report)))
        }
    }
}

/// Payment pay: the body, the forcing header, the order, then the third
/// party's verdict, then the payment.
fn pay(
    svc: &mut Backend,
    mut req: Request,
    work: &mut Work,
    class: EventClass,
) -> Result<Option<Data>, ApiError> {
    let mut room = Flat::new();
    let new = parse::new_payment(&req.body(&mut room)?)?;
    let by_header = match req.headers.get("x-sim-outcome") {
        None => None,
        Some(text) => Some(Forced::parse(text).ok_or_else(|| {
            ApiError::bad(
                "X-Sim-Outcome",
                msg!("must be success or failure, got ", Q(text)),
            )
        })?),
    };
    settle(svc, new, by_header, work, class)
}

/// Order create, once the body is read: refused past `maxOrders`.
fn create(
    svc: &mut Backend,
    new: Result<NewOrder, Rejection>,
    work: &mut Work,
) -> Result<Option<Data>, ApiError> {
    room_for_order(svc)?;
    enter(svc, work, EventClass::Order);
    let now = svc.clock.now_ms();
    let order = svc.orders.create(new?, svc.settings.seed, now);
    Ok(Some(Data::Order(order)))
}

/// `create` for the test-data runner: the same steps, the order's code
/// back instead of the order.
fn create_inner(
    svc: &mut Backend,
    user_id: &Rc<str>,
    price: Money,
    description: &Rc<str>,
    work: &mut Work,
) -> Result<Code, ApiError> {
    room_for_order(svc)?;
    enter(svc, work, EventClass::Order);
    let now = svc.clock.now_ms();
    let seed = svc.settings.seed;
    let (user_id, description) = (Rc::clone(user_id), Rc::clone(description));
    Ok(svc
        .orders
        .add_shared(user_id, price, description, seed, now))
}

/// Past `maxOrders`, no order is created.
fn room_for_order(svc: &Backend) -> Result<(), ApiError> {
    let limit = svc.settings.max_orders;
    if svc.orders.len() >= limit {
        return Err(ApiError::InsufficientStorage { limit });
    }
    Ok(())
}

/// Payment pay, once the body and the forcing header are read: the order,
/// then the third party's verdict, then the payment.
fn settle(
    svc: &mut Backend,
    new: Result<NewPayment, Rejection>,
    by_header: Option<Forced>,
    work: &mut Work,
    class: EventClass,
) -> Result<Option<Data>, ApiError> {
    enter(svc, work, class);
    let new = new?;
    let order = judge(svc, &new.order_id, by_header, work)?;
    let now = svc.clock.now_ms();
    let payment = svc
        .payments
        .record_for(new, order, &mut svc.streams.ids, now);
    Ok(Some(Data::Payment(payment)))
}

/// The order must exist; then the attempt is counted and the third
/// party, taking its simulated time, approves or declines it. Returns
/// the order's code, read once for all of these and the payment.
fn judge(
    svc: &mut Backend,
    order_id: &str,
    by_header: Option<Forced>,
    work: &mut Work,
) -> Result<Code, ApiError> {
    let Some(order) = svc.orders.existing(order_id) else {
        return Err(Rejection::OrderNotFound.into());
    };
    let attempt = svc.payments.next_attempt_of(order);
    // A scenario's rule decides before any forcing, which stays pending.
    let by_rule = work.fault.as_ref().map(|f| f.then).filter(Then::pay_only);
    let forced = match (by_rule, by_header) {
        (Some(_), _) => None,
        (None, Some(outcome)) => Some((outcome, Rule::Header)),
        (None, None) => svc
            .take_forced_next()
            .map(|outcome| (outcome, Rule::ForcedNext)),
    };
    let offset = work.duration;
    let took = match by_rule {
        Some(Then::Timeout { after_ms }) => {
            svc.clock.advance(after_ms);
            after_ms
        }
        _ => svc.spend(|m: &LatencyModel| m.third_party),
    };
    work.duration += took;
    let settings = &svc.settings;
    let mut verdict = third_party::judge(
        settings.seed,
        order_id,
        attempt,
        settings.failure_rate,
        forced,
    );
    verdict.failure = scenario::at_third_party(by_rule, &verdict, work.under_scenario);
    if verdict.failure == Failure::Drawn {
        work.fault = Some(Box::new(Fault::drawn_decline()));
    }
    verdict.approved &= by_rule.is_none();
    work.third_party = Some((offset, took, verdict));
    if !verdict.approved {
        return Err(Rejection::ThirdPartyFailed.into());
    }
    Ok(order)
}

/// The request reached a service: from here on it is that service's
/// answer, and it takes that service's simulated time.
fn enter(svc: &mut Backend, work: &mut Work, class: EventClass) {
    let step = match class {
        EventClass::Order => |m: &LatencyModel| m.order,
        EventClass::Payment => |m: &LatencyModel| m.payment,
        EventClass::Test => |m: &LatencyModel| m.test,
    };
    work.served_by = Some(class);
    work.duration += svc.spend(step);
}
