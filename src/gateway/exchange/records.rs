//! The records and spans a request writes: the gateway's context of it in
//! its trace, then the service record, the spans and the response record
//! once it is answered. The flow and the inner requests both end here.

use super::transition::Origin;
use crate::prelude::*;

use alloc::rc::Rc;

use super::super::backend::Backend;
use super::work::Work;
use crate::domain::code::Code;
use crate::observe::request_line::Call;
use crate::observe::{Answer, At, Kept, LogStatus, Mark, Part, SpanEntry, SpanId, Why};
use crate::sim::scenario::Then;

/// Where the request stands in its trace, and whether it is sampled.
pub(super) struct Context {
    pub(super) at: At,
    pub(super) sampled: bool,
    pub(super) started: i64,
    /// Whether its records and spans are kept; when not, each record is
    /// counted as written and dropped (see `Journal::pass`).
    pub(super) kept: bool,
}

impl Context {
    /// Where the changes the request makes are committed.
    pub(super) fn origin(&self) -> Origin {
        (self.at.trace, self.at.span)
    }

    /// Writes a record of this request, or counts it as passed.
    #[inline]
    pub(super) fn write(&self, svc: &mut Backend, timestamp: i64, at: At, stage: Kept) {
        if self.kept {
            svc.journal.write(timestamp, at, stage);
        } else {
            svc.journal.pass();
        }
    }

    /// Keeps a span of this request, unless its records are passed over.
    #[inline]
    pub(super) fn record_span(&self, svc: &mut Backend, span: SpanEntry) {
        if self.kept {
            svc.journal.record_span(span, &mut svc.spare_call);
        }
    }

    /// The time `offset` ms of simulated time after the request arrived,
    /// stopped where the clock stops: where a span starting or ending
    /// there lies, and so where its record's timestamp lies.
    pub(super) fn at(&self, offset: u64) -> i64 {
        self.started
            .saturating_add(i64::try_from(offset).unwrap_or(i64::MAX))
            .min(crate::sim::time_limits::MAX_TIME_MS)
    }
}

/// Writes what a request came to: the service record, the spans and the
/// response record. Returns the service's simulated time, none when the
/// gateway turned the request away (the answer's `duration` is set here).
pub(super) fn log(
    svc: &mut Backend,
    context: &Context,
    call: Rc<Call>,
    work: Work,
    mut answer: Answer,
) -> Option<u64> {
    let service_span = record_service(svc, context, &work, answer.status);
    if let Some(code) = work.planned {
        anchor(svc, context, code, service_span);
    }
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
        outcome: work
            .third_party
            .as_ref()
            .map(|(_, _, verdict)| verdict.clone()),
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

/// The pay that kept a plan: where its changes go in its trace (under
/// its payment-service span).
#[cold]
#[inline(never)]
fn anchor(svc: &mut Backend, context: &Context, code: Code, span: Option<SpanId>) {
    if let Some(span) = span {
        let [high, low, wide] = context.at.trace.parts();
        svc.payments
            .plans
            .set_origin(code, [high, low, wide, span.0]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::observe::{EventClass, TraceId};
    use crate::sim::clock::VirtualClock;
    use crate::sim::time_limits::MAX_TIME_MS;
    use crate::sim::Settings;
    use alloc::borrow::Cow;

    fn backend() -> Backend {
        let clock = Box::new(VirtualClock::starting_at(1_000));
        Backend::new(Settings::with_seed(5), clock).unwrap_or_else(|e| panic!("{e}"))
    }

    fn context(svc: &mut Backend, started: i64, kept: bool) -> Context {
        let at = At {
            trace: TraceId::fresh(&mut svc.streams.traces),
            span: SpanId::fresh(&mut svc.streams.traces),
            parent: None,
        };
        Context {
            at,
            sampled: true,
            started,
            kept,
        }
    }

    fn call() -> Rc<Call> {
        Call {
            method: Cow::Borrowed("GET"),
            uri: Cow::Borrowed("/api/order/x"),
            template: Some("/api/order/{orderId}"),
            user_id: None,
        }
        .shared()
    }

    fn answer(event_class: Option<EventClass>) -> Answer {
        Answer {
            event_class,
            duration: None,
            status: LogStatus::Success,
            http_status: 200,
            code: 0,
            msg: "success".into(),
            extra: None,
        }
    }

    #[test]
    fn a_time_in_the_request_is_after_its_arrival_and_stops_with_the_clock() {
        let mut svc = backend();
        let context = context(&mut svc, 1_000, true);
        assert_eq!(context.at(0), 1_000);
        assert_eq!(context.at(25), 1_025);
        assert_eq!(context.at(u64::MAX), MAX_TIME_MS);
    }

    #[test]
    fn records_passed_over_are_counted_not_kept() {
        let mut svc = backend();
        let context = context(&mut svc, 1_000, false);
        let seq = svc.journal.next_seq();
        context.write(&mut svc, 1_000, context.at, Kept::Gateway(call()));
        assert_eq!((svc.journal.len(), svc.journal.dropped()), (0, 1));
        assert_eq!(svc.journal.next_seq(), seq + 1);
    }

    #[test]
    fn a_request_no_service_took_has_only_its_response_record_and_a_span() {
        let mut svc = backend();
        let context = context(&mut svc, 1_000, true);
        let duration = log(&mut svc, &context, call(), Work::default(), answer(None));
        assert_eq!(duration, None);
        let stages: Vec<_> = svc.journal.entries(None).map(|e| &e.stage).collect();
        assert!(matches!(stages.as_slice(), [Kept::Response(..)]));
        assert_eq!(svc.journal.span_entries().count(), 1, "the gateway's span");
    }

    #[test]
    fn a_served_request_has_a_service_record_under_the_gateway_span() {
        let mut svc = backend();
        let context = context(&mut svc, 1_000, true);
        let work = Work {
            served_by: Some(EventClass::Order),
            duration: 7,
            ..Work::default()
        };
        let duration = log(&mut svc, &context, call(), work, answer(None));
        assert_eq!(duration, Some(7));
        let entries: Vec<_> = svc.journal.entries(None).collect();
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[0].parent, Some(context.at.span));
        assert!(matches!(
            entries[0].stage,
            Kept::Service { duration: 7, .. }
        ));
        // The response record stands at the end of the request.
        assert_eq!(entries[1].timestamp, 1_007);
        let spans: Vec<_> = svc.journal.span_entries().collect();
        assert_eq!(spans.len(), 2, "the gateway's and the service's");
        assert_eq!((spans[0].start, spans[0].end), (1_000, 1_007));
    }
}
