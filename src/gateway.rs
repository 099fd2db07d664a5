//! The gateway: the one way in. It parses the raw request once, routes it
//! to a service, and writes the three log records of the spec's part 6:
//! `gateway` on arrival, `service` when a service handled it, `response`
//! with the whole context on the way out.

use crate::batch;
use crate::envelope::{Data, Envelope, Response};
use crate::error::ApiError;
use crate::journal::{EventClass, LogStatus, Stage};
use crate::latency::LatencyModel;
use crate::order::NewOrder;
use crate::payment::NewPayment;
use crate::processor;
use crate::request::{quote, Headers, JsonBody, RawRequest, Target, Text};
use crate::route::{self, Route};
use crate::service::Service;
use crate::trace;

/// A response, and the simulated time the service spent on it (none when
/// the gateway turned the request away).
pub(crate) struct Exchange {
    pub response: Response,
    pub duration: Option<u64>,
}

/// What handling a request did, as the service record reports it.
#[derive(Default)]
struct Work {
    served_by: Option<EventClass>,
    duration: u64,
}

/// The parts of a request the services read, all parsed.
struct Request {
    target: Target,
    headers: Headers,
    body: Option<Text>,
}

pub(crate) fn exchange(svc: &mut Service, raw: RawRequest) -> Exchange {
    let started = svc.clock.now_ms();
    let method: String = raw
        .method
        .trim()
        .chars()
        .take(32)
        .collect::<String>()
        .to_ascii_uppercase();
    let headers = Headers::parse(raw.headers);
    let header = |name: &str| headers.as_ref().ok().and_then(|h| h.get(name));
    let given_trace = header("x-b3-traceid").and_then(trace::parse_b3);
    let user_id: Option<String> = header("x-user-id")
        .filter(|u| !u.is_empty())
        .map(|u| u.chars().take(128).collect());
    let trace_id = given_trace.unwrap_or_else(|| trace::fresh(&mut svc.streams.traces));
    let target = Target::parse(&raw.path);
    let uri = match (&target, &raw.path) {
        (Ok(t), _) => t.path.clone(),
        (Err(_), Text::Given(p)) => {
            let path = p.split(['?', '#']).next().unwrap_or_default();
            path.chars().take(256).collect()
        }
        (Err(_), Text::TooLarge { .. }) => String::new(),
    };
    let uri_group = route::uri_group(&uri).map(str::to_owned);
    svc.journal.write(
        started,
        &trace_id,
        Stage::Gateway {
            method: method.clone(),
            uri: uri.clone(),
            uri_group: uri_group.clone(),
        },
    );

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
    let duration = work.served_by.map(|event_class| {
        let now = svc.clock.now_ms();
        let stage = Stage::Service {
            event_class,
            duration: work.duration,
            status: log_status,
        };
        svc.journal.write(now, &trace_id, stage);
        work.duration
    });
    let (status, body) = match &result {
        Ok(data) => (200, Envelope::success(data.clone())),
        Err(error) => (error.http_status(), Envelope::failure(error)),
    };
    let mut headers = vec![
        ("content-type".to_owned(), "application/json".to_owned()),
        ("x-b3-traceid".to_owned(), trace_id.clone()),
    ];
    if let Err(ApiError::MethodNotAllowed { allow, .. }) = &result {
        headers.push(("allow".to_owned(), (*allow).to_owned()));
    }
    let now = svc.clock.now_ms();
    svc.journal.write(
        now,
        &trace_id,
        Stage::Response {
            event_class: work.served_by.or_else(|| route::event_class_of_path(&uri)),
            method,
            uri,
            uri_group,
            duration,
            status: log_status,
            http_status: status,
            code: body.code,
            msg: body.msg.clone(),
            user_id,
        },
    );
    Exchange {
        response: Response {
            status,
            headers,
            body,
        },
        duration,
    }
}

/// A method is a token of letters; anything else is malformed, not merely
/// not allowed.
fn check_method(method: &str) -> Result<(), ApiError> {
    if method.is_empty() || !method.bytes().all(|b| b.is_ascii_alphabetic()) {
        return Err(ApiError::bad(
            "method",
            format!(
                "must be an HTTP method such as GET or POST, got {}",
                quote(method)
            ),
        ));
    }
    Ok(())
}

fn dispatch(
    svc: &mut Service,
    route: Route,
    req: Request,
    work: &mut Work,
) -> Result<Option<Data>, ApiError> {
    let class = route.event_class();
    match route {
        Route::CreateOrder => {
            let new = NewOrder::parse(&JsonBody::parse(req.body.as_ref(), &req.headers)?)?;
            enter(svc, work, class);
            let now = svc.clock.now_ms();
            Ok(Some(Data::Order(svc.orders.create(
                new?,
                &mut svc.streams.ids,
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
            let new = NewPayment::parse(&JsonBody::parse(req.body.as_ref(), &req.headers)?)?;
            enter(svc, work, class);
            let new = new?;
            svc.orders.get(&new.order_id)?;
            let attempt = svc.payments.next_attempt(&new.order_id);
            work.duration += svc.spend(|m: &LatencyModel| m.third_party);
            let decision = processor::decide(
                svc.settings.seed,
                &new.order_id,
                attempt,
                svc.settings.failure_rate,
            );
            if !decision.approved {
                return Err(crate::error::Rejection::ThirdPartyFailed.into());
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
            let count = batch::parse_count(&req.target)?;
            enter(svc, work, class);
            let (report, spent) = batch::run(svc, count);
            work.duration += spent;
            Ok(Some(Data::Batch(report)))
        }
    }
}

/// The request reached a service: from here on it is that service's
/// answer, and it takes that service's simulated time.
fn enter(svc: &mut Service, work: &mut Work, class: EventClass) {
    let step = match class {
        EventClass::Order => |m: &LatencyModel| m.order,
        EventClass::Payment => |m: &LatencyModel| m.payment,
        EventClass::Test => |m: &LatencyModel| m.test,
    };
    work.served_by = Some(class);
    work.duration += svc.spend(step);
}
