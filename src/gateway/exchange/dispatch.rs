//! The dispatch of a routed request to the services: orders, payments
//! (with the third party's verdict) and the test-data runner, each taking
//! its simulated time.

use crate::prelude::*;

use alloc::rc::Rc;

use super::super::backend::Backend;
use super::super::envelope::Data;
use super::super::error::ApiError;
use super::super::parse;
use super::super::route::Route;
use super::super::scenario;
use super::async_payment;
use super::transition::{commit, commit_now, Origin};
use super::work::{Request, Work};
use crate::domain::code::Code;
use crate::domain::money::Money;
use crate::domain::test_card::TestCard;
use crate::domain::transition::{Declined, Transition};
use crate::domain::{BatchReport, NewOrder, NewPayment, PaymentMethod, Rejection};
use crate::json::flat::Flat;
use crate::json::message::{msg, Q};
use crate::observe::EventClass;
use crate::sim::latency::LatencyModel;
use crate::sim::scenario::{Fault, Then};
use crate::sim::third_party::{self, DecidedBy, Failure, Forced};

/// Serves the test-data route. The service layer hands it in: the runner
/// sends its own requests through this gateway, so the gateway cannot
/// import it without a cycle.
pub type TestDataRunner = fn(&mut Backend, u32) -> (BatchReport, u64);

pub(super) fn dispatch(
    svc: &mut Backend,
    (testdata, origin): (TestDataRunner, Origin),
    route: Route,
    req: Request,
    work: &mut Work,
) -> Result<Option<Data>, ApiError> {
    let class = route.event_class();
    match route {
        Route::CreateOrder => {
            let (mut req, mut room) = (req, Flat::new());
            let new = parse::new_order(&req.body(&mut room)?)?;
            create(svc, new, work, origin)
        }
        Route::GetOrder(order_id) => {
            enter(svc, work, class);
            Ok(Some(Data::Order(svc.orders.get(order_id)?)))
        }
        Route::MarkOrderPaid(order_id) => {
            enter(svc, work, class);
            let made = svc.orders.mark_paid(order_id)?;
            commit_now(svc, made, origin);
            Ok(None)
        }
        Route::DeleteOrder(order_id) => {
            enter(svc, work, class);
            let made = svc.orders.delete(order_id)?;
            commit_now(svc, made, origin);
            svc.payments.forget_attempts(order_id);
            Ok(None)
        }
        Route::Pay => pay(svc, req, work, (class, origin)),
        Route::GetPayment(payment_id) => {
            enter(svc, work, class);
            Ok(Some(Data::Payment(svc.payments.get(payment_id)?)))
        }
        Route::Refund(payment_id) => {
            enter(svc, work, class);
            let made = svc.payments.refund(payment_id)?;
            commit_now(svc, made, origin);
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
    (class, origin): (EventClass, Origin),
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
    settle(svc, new, by_header, work, (class, origin))
}

/// Order create, once the body is read: refused past `maxOrders`.
fn create(
    svc: &mut Backend,
    new: Result<NewOrder, Rejection>,
    work: &mut Work,
    origin: Origin,
) -> Result<Option<Data>, ApiError> {
    room_for_order(svc)?;
    enter(svc, work, EventClass::Order);
    let now = svc.clock.now_ms();
    let (order, made) = svc.orders.create(new?, svc.settings.seed, now);
    commit(svc, made, now, origin);
    Ok(Some(Data::Order(order)))
}

/// `create` for the test-data runner: the same steps, the order's code
/// back instead of the order.
pub(super) fn create_inner(
    svc: &mut Backend,
    user_id: &Rc<str>,
    price: Money,
    description: &Rc<str>,
    work: &mut Work,
    origin: Origin,
) -> Result<Code, ApiError> {
    room_for_order(svc)?;
    enter(svc, work, EventClass::Order);
    let now = svc.clock.now_ms();
    let seed = svc.settings.seed;
    let (user_id, description) = (Rc::clone(user_id), Rc::clone(description));
    let (code, made) = svc
        .orders
        .add_shared(user_id, price, description, seed, now);
    commit(svc, made, now, origin);
    Ok(code)
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
/// then the third party's verdict, then the payment (one that changes
/// later keeps its plan).
fn settle(
    svc: &mut Backend,
    new: Result<NewPayment, Rejection>,
    by_header: Option<Forced>,
    work: &mut Work,
    (class, origin): (EventClass, Origin),
) -> Result<Option<Data>, ApiError> {
    enter(svc, work, class);
    let new = new?;
    let asked = ((new.amount, new.method), origin);
    let order = judge(svc, &new.order_id, asked, by_header, new.card(), work)?;
    let now = svc.clock.now_ms();
    let verdict = work.third_party.as_ref().map(|(_, _, v)| v);
    let plan =
        verdict.and_then(|v| async_payment::plan_of(v, work.fault.as_deref(), new.card(), now));
    let (payment, made) = match plan {
        Some(plan) => async_payment::record(svc, new, order, now, *plan, work),
        None => svc
            .payments
            .record_for(new, order, &mut svc.streams.ids, now),
    };
    commit(svc, made, now, origin);
    Ok(Some(Data::Payment(payment)))
}

/// The order must exist (and have no challenge open); then the attempt
/// is counted and the third party, taking its simulated time, approves
/// or declines it. A scenario's rule decides first, then a test card,
/// then forcing. Returns the order's code, read once for all of these
/// and the payment; the verdict is left in `work`.
pub(super) fn judge(
    svc: &mut Backend,
    order_id: &str,
    (asked, origin): ((Money, PaymentMethod), Origin),
    by_header: Option<Forced>,
    card: Option<&'static TestCard>,
    work: &mut Work,
) -> Result<Code, ApiError> {
    let Some(order) = svc.orders.existing(order_id) else {
        return Err(Rejection::OrderNotFound.into());
    };
    if let Some(open) = svc.payments.awaiting_challenge(order) {
        return Err(async_payment::challenge_open(order_id, open));
    }
    let attempt = svc.payments.next_attempt_of(order);
    // A scenario's rule decides before any forcing, which stays pending.
    let by_rule = work
        .fault
        .as_ref()
        .map(|f| &f.then)
        .filter(|t| t.pay_only());
    let by_card = card.filter(|_| by_rule.is_none());
    let forced = forcing(svc, by_rule.is_some(), by_card, by_header);
    let offset = work.duration;
    let took = match by_rule {
        Some(&Then::Timeout { after_ms }) => {
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
    let by_rule = work.fault.as_ref().map(|f| &f.then);
    let by_rule = by_rule.filter(|t| t.pay_only());
    // A card's decline is the card's, not a drawn one, scenario or not.
    let drawn_counts = work.under_scenario && by_card.is_none();
    verdict.failure = scenario::at_third_party(by_rule, &verdict, drawn_counts);
    let ruled = by_rule.map(Then::changes_later);
    if verdict.failure == Failure::Drawn {
        work.fault = Some(Box::new(Fault::drawn_decline()));
    }
    if let Some(changes_later) = ruled {
        verdict.approved = changes_later;
        verdict.rule = DecidedBy::Scenario;
        verdict.set_scenario_rule(work.fault.as_ref().and_then(|f| f.rule.clone()));
    } else if let Some(card) = by_card {
        async_payment::by_card(card, &mut verdict);
    }
    let approved = verdict.approved;
    let failure = verdict.failure;
    work.third_party = Some((offset, took, verdict));
    if !approved {
        commit_decline(svc, order, asked, failure, origin);
        return Err(Rejection::ThirdPartyFailed.into());
    }
    Ok(order)
}

/// A pay the third party declined: its `payment.failed` event, with what
/// was asked and the third party's failure.
fn commit_decline(
    svc: &mut Backend,
    order: Code,
    (amount, method): (Money, PaymentMethod),
    failure: Failure,
    origin: Origin,
) {
    let declined = Declined {
        amount,
        method,
        failure,
    };
    commit_now(svc, Transition::declined(order, declined), origin);
}

/// What forces the third party's verdict: nothing when a scenario's rule
/// decides; else a test card, the header, or a `forceNext` (used up).
fn forcing(
    svc: &mut Backend,
    by_rule: bool,
    by_card: Option<&TestCard>,
    by_header: Option<Forced>,
) -> Option<(Forced, DecidedBy)> {
    match (by_rule, by_card, by_header) {
        (true, _, _) => None,
        (false, Some(card), _) => Some((async_payment::card_forces(card), DecidedBy::Card)),
        (false, None, Some(outcome)) => Some((outcome, DecidedBy::Header)),
        (false, None, None) => svc
            .take_forced_next()
            .map(|outcome| (outcome, DecidedBy::ForcedNext)),
    }
}

/// The request reached a service: from here on it is that service's
/// answer, and it takes that service's simulated time.
pub(super) fn enter(svc: &mut Backend, work: &mut Work, class: EventClass) {
    let step = match class {
        EventClass::Order => |m: &LatencyModel| m.order,
        EventClass::Payment => |m: &LatencyModel| m.payment,
        EventClass::Test => |m: &LatencyModel| m.test,
    };
    work.served_by = Some(class);
    work.duration += svc.spend(step);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::observe::{SpanId, TraceId};
    use crate::sim::clock::VirtualClock;
    use crate::sim::Settings;

    fn backend(max_orders: usize) -> Backend {
        let clock = Box::new(VirtualClock::starting_at(0));
        let settings = Settings {
            max_orders,
            ..Settings::with_seed(9)
        };
        Backend::new(settings, clock).unwrap_or_else(|e| panic!("{e}"))
    }

    fn price() -> Money {
        Money::positive(12.5).unwrap_or_else(|| panic!("a positive price"))
    }

    fn origin() -> Origin {
        (TraceId::from_parts([1, 2, 1]), SpanId(3))
    }

    fn asked() -> ((Money, PaymentMethod), Origin) {
        ((price(), PaymentMethod::Card), origin())
    }

    #[test]
    fn entering_a_service_names_it_and_takes_its_time() {
        let mut svc = backend(10);
        let mut work = Work::default();
        enter(&mut svc, &mut work, EventClass::Payment);
        assert_eq!(work.served_by, Some(EventClass::Payment));
        assert_eq!(i64::try_from(work.duration).ok(), Some(svc.clock.now_ms()));
    }

    #[test]
    fn no_order_is_made_past_max_orders() {
        let (mut svc, mut work) = (backend(0), Work::default());
        let user: Rc<str> = Rc::from("u1");
        let made = create_inner(&mut svc, &user, price(), &user, &mut work, origin());
        assert_eq!(made, Err(ApiError::InsufficientStorage { limit: 0 }));
        assert_eq!(work.served_by, None, "the gateway turned it away");
        assert_eq!(svc.orders.len(), 0);
    }

    #[test]
    fn an_order_made_is_served_by_the_order_service() {
        let (mut svc, mut work) = (backend(1), Work::default());
        let user: Rc<str> = Rc::from("u1");
        assert!(create_inner(&mut svc, &user, price(), &user, &mut work, origin()).is_ok());
        assert_eq!(work.served_by, Some(EventClass::Order));
        assert_eq!(svc.orders.len(), 1);
    }

    #[test]
    fn a_payment_for_no_order_never_reaches_the_third_party() {
        let (mut svc, mut work) = (backend(1), Work::default());
        let judged = judge(&mut svc, "ORD-nothing", asked(), None, None, &mut work);
        assert_eq!(judged, Err(Rejection::OrderNotFound.into()));
        assert!(work.third_party.is_none());
    }

    #[test]
    fn a_forced_failure_is_the_third_partys_verdict() {
        let (mut svc, mut work) = (backend(1), Work::default());
        let user: Rc<str> = Rc::from("u1");
        let made = create_inner(&mut svc, &user, price(), &user, &mut work, origin());
        let order = made.unwrap_or_else(|e| panic!("{e:?}"));
        let id = order.text("ORD");
        let judged = judge(
            &mut svc,
            &id,
            asked(),
            Some(Forced::Failure),
            None,
            &mut work,
        );
        assert_eq!(judged, Err(Rejection::ThirdPartyFailed.into()));
        let verdict = work.third_party.map(|(_, _, verdict)| verdict.approved);
        assert_eq!(verdict, Some(false));
    }
}
