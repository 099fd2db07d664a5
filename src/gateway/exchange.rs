//! The gateway: the one way in. It parses the raw request once, routes it
//! to a service, and writes the three log records of the spec's part 6:
//! `gateway` on arrival, `service` when a service handled it, `response`
//! with the whole context on the way out; and the spans of the request
//! (gateway, service, third party) for tracing tools.

use serde_json::Value;

use super::backend::Backend;
use super::envelope::{Data, Envelope, Response};
use super::error::ApiError;
use super::parse;
use super::request::{quote, Headers, JsonBody, RawRequest, Target, Text};
use super::route::{self, Route};
use crate::domain::{BatchReport, Rejection};
use crate::observe::trace::{self, Incoming};
use crate::observe::{Component, EventClass, LogStatus, Place, Span, Stage};
use crate::sim::latency::LatencyModel;
use crate::sim::third_party::{self, Decision, Forced, Rule};

/// A response, and the simulated time the service spent on it (none when
/// the gateway turned the request away).
pub struct Exchange {
    pub response: Response,
    pub duration: Option<u64>,
}

/// What handling a request did: who served it, for how long, and what the
/// third party did inside it, as the service record and the spans report.
#[derive(Default)]
struct Work {
    served_by: Option<EventClass>,
    duration: u64,
    /// The third-party call: when it started (ms after the request
    /// arrived), how long it took, and what it decided.
    third_party: Option<(u64, u64, Decision)>,
}

/// The parts of a request the services read, all parsed.
struct Request {
    target: Target,
    headers: Headers,
    body: Option<Text>,
}

/// Serves the test-data route. The service layer hands it in: the runner
/// sends its own requests through this gateway, so the gateway cannot
/// import it without a cycle.
pub type TestDataRunner = fn(&mut Backend, u32) -> (BatchReport, u64);

pub fn exchange(svc: &mut Backend, raw: RawRequest, testdata: TestDataRunner) -> Exchange {
    let started = svc.clock.now_ms();
    // Not trimmed: " GET" or "POST\n" is a caller's bug, refused below as
    // a method that is not letters only.
    let method: String = raw
        .method
        .chars()
        .take(32)
        .collect::<String>()
        .to_ascii_uppercase();
    let headers = Headers::parse(raw.headers);
    let header = |name: &str| {
        headers
            .as_ref()
            .ok()
            .and_then(|h| h.get(name))
            .map(str::to_owned)
    };
    let incoming = Incoming::read(header);
    let user_id: Option<String> = header("x-user-id")
        .filter(|u| !u.is_empty())
        .map(|u| u.chars().take(128).collect());
    let trace_id = incoming
        .trace_id
        .clone()
        .unwrap_or_else(|| trace::fresh(&mut svc.streams.traces));
    let gateway_span = trace::fresh_span_id(&mut svc.streams.traces);
    let at_gateway = Place {
        trace_id: &trace_id,
        span_id: &gateway_span,
        parent_span_id: incoming.parent_span_id.as_deref(),
    };
    let target = Target::parse(&raw.path);
    let uri = match (&target, &raw.path) {
        (Ok(t), _) => t.path.clone(),
        (Err(_), Text::Given(p)) => p
            .split(['?', '#'])
            .next()
            .unwrap_or_default()
            .chars()
            .take(256)
            .collect(),
        (Err(_), Text::TooLarge { .. }) => String::new(),
    };
    let uri_group = route::uri_group(&uri).map(str::to_owned);
    let gateway_stage = Stage::Gateway {
        method: method.clone(),
        uri: uri.clone(),
        uri_group: uri_group.clone(),
    };
    svc.journal.write(started, at_gateway, gateway_stage);

    let mut work = Work::default();
    let unreadable = raw
        .unreadable
        .map(|(field, problem)| ApiError::bad(field, problem));
    let result = headers.and_then(|headers| {
        unreadable.map_or(Ok(()), Err)?;
        check_method(&method)?;
        let target = target?;
        let route = route::resolve(&method, &target.path)?;
        dispatch(
            svc,
            testdata,
            route,
            Request {
                target,
                headers,
                body: raw.body,
            },
            &mut work,
        )
    });

    let log_status = result
        .as_ref()
        .map_or_else(ApiError::log_status, |_| LogStatus::Success);
    let service_span = work
        .served_by
        .map(|_| trace::fresh_span_id(&mut svc.streams.traces));
    let duration = work
        .served_by
        .zip(service_span.as_deref())
        .map(|(event_class, span_id)| {
            let now = svc.clock.now_ms();
            let outcome = work
                .third_party
                .as_ref()
                .map(|(_, _, decision)| decision.clone());
            let stage = Stage::Service {
                event_class,
                duration: work.duration,
                status: log_status,
                outcome,
            };
            let place = Place {
                trace_id: &trace_id,
                span_id,
                parent_span_id: Some(&gateway_span),
            };
            svc.journal.write(now, place, stage);
            work.duration
        });
    let (status, body) = match &result {
        Ok(data) => (200, Envelope::success(data.clone())),
        Err(error) => (error.http_status(), Envelope::failure(error)),
    };
    let now = svc.clock.now_ms();
    let response_stage = Stage::Response {
        event_class: work.served_by.or_else(|| route::event_class_of_path(&uri)),
        method: method.clone(),
        uri: uri.clone(),
        uri_group,
        duration,
        status: log_status,
        http_status: status,
        code: body.code,
        msg: body.msg.clone(),
        user_id: user_id.clone(),
    };
    svc.journal.write(now, at_gateway, response_stage);

    if incoming.sampled != Some(false) {
        let spans = Spans {
            trace_id: &trace_id,
            parent: incoming.parent_span_id.as_deref(),
            started,
        };
        // Named by the route template (low cardinality, as OpenTelemetry
        // asks), or by the method alone when no route matched.
        let route = route::template_of(&method, &uri);
        let name = route.map_or_else(|| method.clone(), |template| format!("{method} {template}"));
        let mut attributes = vec![
            (
                "http.request.method".to_owned(),
                Value::from(method.as_str()),
            ),
            ("url.path".to_owned(), Value::from(uri.as_str())),
            ("http.response.status_code".to_owned(), Value::from(status)),
            ("orderpay.code".to_owned(), Value::from(body.code)),
            ("orderpay.msg".to_owned(), Value::from(body.msg.as_str())),
        ];
        if let Some(template) = route {
            attributes.push(("http.route".to_owned(), Value::from(template)));
        }
        if let Some(user) = &user_id {
            attributes.push(("enduser.id".to_owned(), Value::from(user.as_str())));
        }
        let total = duration.unwrap_or(0);
        spans.record(
            svc,
            &gateway_span,
            None,
            Component::Gateway,
            &name,
            (0, total),
            log_status,
            attributes,
        );
        if let (Some(class), Some(span_id)) = (work.served_by, &service_span) {
            let component = match class {
                EventClass::Order => Component::OrderService,
                EventClass::Payment => Component::PaymentService,
                EventClass::Test => Component::TestData,
            };
            let attributes = vec![(
                "orderpay.event_class".to_owned(),
                Value::from(class.as_str()),
            )];
            spans.record(
                svc,
                span_id,
                Some(&gateway_span),
                component,
                &name,
                (0, total),
                log_status,
                attributes,
            );
            if let Some((offset, took, decision)) = work.third_party.take() {
                let third_span = trace::fresh_span_id(&mut svc.streams.traces);
                let status = if decision.approved {
                    LogStatus::Success
                } else {
                    LogStatus::ServerError
                };
                let attributes = vec![
                    (
                        "orderpay.approved".to_owned(),
                        Value::from(decision.approved),
                    ),
                    ("orderpay.attempt".to_owned(), Value::from(decision.attempt)),
                    ("orderpay.reason".to_owned(), Value::from(decision.reason)),
                ];
                let window = (offset, offset + took);
                spans.record(
                    svc,
                    &third_span,
                    Some(span_id),
                    Component::ThirdParty,
                    "authorize payment",
                    window,
                    status,
                    attributes,
                );
            }
        }
    }

    let sampled = if incoming.sampled == Some(false) {
        "0"
    } else {
        "1"
    };
    let mut headers = vec![
        ("content-type".to_owned(), "application/json".to_owned()),
        ("x-b3-traceid".to_owned(), trace_id.clone()),
        ("x-b3-spanid".to_owned(), gateway_span.clone()),
        ("x-b3-sampled".to_owned(), sampled.to_owned()),
        (
            "traceparent".to_owned(),
            format!(
                "00-{}-{gateway_span}-0{sampled}",
                trace::trace_id_128(&trace_id)
            ),
        ),
        (
            "x-sim-duration-ms".to_owned(),
            duration.unwrap_or(0).to_string(),
        ),
    ];
    if let Some(parent) = &incoming.parent_span_id {
        headers.push(("x-b3-parentspanid".to_owned(), parent.clone()));
    }
    if let Err(ApiError::MethodNotAllowed { allow, .. }) = &result {
        headers.push(("allow".to_owned(), (*allow).to_owned()));
    }
    Exchange {
        response: Response {
            status,
            headers,
            body,
        },
        duration,
    }
}

/// Records the spans of one request, timed from its arrival.
struct Spans<'a> {
    trace_id: &'a str,
    parent: Option<&'a str>,
    started: i64,
}

impl Spans<'_> {
    #[allow(clippy::too_many_arguments)]
    fn record(
        &self,
        svc: &mut Backend,
        span_id: &str,
        parent: Option<&str>,
        component: Component,
        name: &str,
        (from, to): (u64, u64),
        status: LogStatus,
        attributes: Vec<(String, Value)>,
    ) {
        // A span ends where the clock stopped, if it stopped at its end.
        let at = |offset: u64| {
            self.started
                .saturating_add(i64::try_from(offset).unwrap_or(i64::MAX))
                .min(crate::sim::time_limits::MAX_TIME_MS)
        };
        svc.journal.record_span(Span {
            trace_id: self.trace_id.to_owned(),
            span_id: span_id.to_owned(),
            parent_span_id: parent.or(self.parent).map(str::to_owned),
            name: name.to_owned(),
            component,
            start: at(from),
            end: at(to),
            status,
            attributes,
        });
    }
}

/// A method is a token of letters; anything else is malformed, not merely
/// not allowed.
fn check_method(method: &str) -> Result<(), ApiError> {
    if method.is_empty() || !method.bytes().all(|b| b.is_ascii_alphabetic()) {
        // Blank is shown as empty; anything else as given, spaces included.
        let shown = if method.trim().is_empty() { "" } else { method };
        let problem = format!(
            "must be an HTTP method such as GET or POST, got {}",
            quote(shown)
        );
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
            let new = parse::new_order(&JsonBody::parse(req.body.as_ref(), &req.headers)?)?;
            enter(svc, work, class);
            let now = svc.clock.now_ms();
            Ok(Some(Data::Order(svc.orders.create(
                new?,
                svc.settings.seed,
                now,
            ))))
        }
        Route::GetOrder(order_id) => {
            enter(svc, work, class);
            Ok(Some(Data::Order(svc.orders.get(&order_id)?.clone())))
        }
        Route::MarkOrderPaid(order_id) => {
            enter(svc, work, class);
            svc.orders.mark_paid(&order_id)?;
            Ok(None)
        }
        Route::DeleteOrder(order_id) => {
            enter(svc, work, class);
            svc.orders.delete(&order_id)?;
            Ok(None)
        }
        Route::Pay => {
            let new = parse::new_payment(&JsonBody::parse(req.body.as_ref(), &req.headers)?)?;
            let by_header = match req.headers.get("x-sim-outcome") {
                None => None,
                Some(text) => Some(Forced::parse(text).ok_or_else(|| {
                    ApiError::bad(
                        "X-Sim-Outcome",
                        format!("must be success or failure, got {}", quote(text)),
                    )
                })?),
            };
            enter(svc, work, class);
            let new = new?;
            svc.orders.get(&new.order_id)?;
            let attempt = svc.payments.next_attempt(&new.order_id);
            let forced = match by_header {
                Some(outcome) => Some((outcome, Rule::Header)),
                None => svc
                    .take_forced_next()
                    .map(|outcome| (outcome, Rule::ForcedNext)),
            };
            let offset = work.duration;
            let took = svc.spend(|m: &LatencyModel| m.third_party);
            work.duration += took;
            let decision = third_party::decide(
                svc.settings.seed,
                &new.order_id,
                attempt,
                svc.settings.failure_rate,
                forced,
            );
            let approved = decision.approved;
            work.third_party = Some((offset, took, decision));
            if !approved {
                return Err(Rejection::ThirdPartyFailed.into());
            }
            let now = svc.clock.now_ms();
            Ok(Some(Data::Payment(svc.payments.record(
                new,
                &mut svc.streams.ids,
                now,
            ))))
        }
        Route::GetPayment(payment_id) => {
            enter(svc, work, class);
            Ok(Some(Data::Payment(svc.payments.get(&payment_id)?.clone())))
        }
        Route::Refund(payment_id) => {
            enter(svc, work, class);
            svc.payments.refund(&payment_id)?;
            Ok(None)
        }
        Route::Batch => {
            let count = parse::count(&req.target)?;
            enter(svc, work, class);
            let (report, spent) = testdata(svc, count);
            work.duration += spent;
            Ok(Some(Data::Batch(report)))
        }
    }
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
