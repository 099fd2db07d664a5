//! Requests made inside the service by the test-data runner: already read
//! and routed, so only the work and the records remain, written exactly as
//! for a request from outside.

use crate::prelude::*;

use alloc::borrow::Cow;
use alloc::rc::Rc;

use super::super::backend::Backend;
use super::super::error::ApiError;
use super::dispatch::{create_inner, enter, judge};
use super::records::{log, Context};
use super::transition::{commit, commit_now};
use super::work::Work;
use crate::domain::code::Code;
use crate::domain::money::Money;
use crate::domain::PaymentMethod;
use crate::observe::request_line::Call;
use crate::observe::{Answer, At, EventClass, Kept, LogStatus, SpanId, TraceId};

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
    let origin = context.origin();
    let result = match inner {
        Inner::Create(user_id, price, description) => {
            create_inner(svc, user_id, price, description, &mut work, origin).map(Some)
        }
        Inner::Pay(order_id, amount, method) => {
            enter(svc, &mut work, EventClass::Payment);
            let asked = (amount, method);
            judge(svc, order_id, (asked, origin), None, None, &mut work).map(|order| {
                let now = svc.clock.now_ms();
                let ids = &mut svc.streams.ids;
                let made = svc.payments.add(order, amount, method, ids, now);
                commit(svc, made, now, origin);
                None
            })
        }
        Inner::MarkPaid(id) => {
            enter(svc, &mut work, EventClass::Order);
            match svc.orders.mark_paid(id) {
                Ok(made) => {
                    commit_now(svc, made, origin);
                    Ok(None)
                }
                Err(e) => Err(ApiError::from(e)),
            }
        }
    };
    finish_inner(svc, &context, call, result, work)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::clock::VirtualClock;
    use crate::sim::Settings;

    fn backend() -> Backend {
        let clock = Box::new(VirtualClock::starting_at(0));
        Backend::new(Settings::with_seed(11), clock).unwrap_or_else(|e| panic!("{e}"))
    }

    fn trace(svc: &mut Backend) -> TraceId {
        TraceId::fresh(&mut svc.streams.traces)
    }

    #[test]
    fn a_mark_paid_kept_names_its_order_and_one_passed_over_shares_a_line() {
        let caller = InnerCaller::new(Rc::from("u7"));
        let kept = caller.call(&Inner::MarkPaid("ORD-AB"), true);
        assert_eq!(kept.uri, "/api/order/ORD-AB/pay");
        assert_eq!(kept.template, Some("/api/order/{orderId}/pay"));
        assert_eq!(kept.user_id.as_deref(), Some("u7"));
        let passed = caller.call(&Inner::MarkPaid("ORD-AB"), false);
        assert!(Rc::ptr_eq(&passed, &caller.mark_paid));
        let create = caller.call(
            &Inner::Create(&caller.user_id, price(), &caller.user_id),
            true,
        );
        assert!(Rc::ptr_eq(&create, &caller.create));
    }

    fn price() -> Money {
        Money::positive(3.0).unwrap_or_else(|| panic!("a positive price"))
    }

    #[test]
    fn an_inner_create_writes_the_three_records_and_returns_the_code() {
        let mut svc = backend();
        let caller = InnerCaller::new(Rc::from("u7"));
        let user = Rc::clone(&caller.user_id);
        let trace = trace(&mut svc);
        let (code, made, took) = exchange_inner(
            &mut svc,
            Inner::Create(&user, price(), &user),
            trace,
            &caller,
            true,
        );
        assert_eq!(code, 0);
        let made = made.map(|c| c.text("ORD")).unwrap_or_default();
        assert!(svc.orders.exists(&made));
        assert_eq!(i64::try_from(took).ok(), Some(svc.clock.now_ms()));
        let stages: Vec<_> = svc.journal.entries(None).map(|e| &e.stage).collect();
        assert!(matches!(
            stages.as_slice(),
            [Kept::Gateway(_), Kept::Service { .. }, Kept::Response(..)]
        ));
        assert!(svc.journal.entries(None).all(|e| e.trace == trace));
    }

    #[test]
    fn an_inner_request_passed_over_is_counted_and_not_kept() {
        let mut svc = backend();
        let caller = InnerCaller::new(Rc::from("u7"));
        let trace = trace(&mut svc);
        let (code, _, _) =
            exchange_inner(&mut svc, Inner::MarkPaid("ORD-NONE"), trace, &caller, false);
        assert_eq!(
            code,
            ApiError::from(crate::domain::Rejection::OrderNotFound).code()
        );
        assert_eq!(svc.journal.len(), 0);
        // The gateway's record, the service's and the response's.
        assert_eq!(svc.journal.dropped(), 3);
        assert_eq!(svc.journal.span_entries().count(), 0);
    }
}
