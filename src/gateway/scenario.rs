//! The gateway's side of scenarios: what a request is, in the words the
//! rules match (`sim::scenario::Facts`), decided once when its route and
//! body are known and before the service runs; and the gateway-level
//! kinds applied there (`http`, `network` in the request phase, `delay`).
//! The pay-level kinds act at the third party (`exchange::dispatch::judge`).

use crate::prelude::*;

use super::backend::Backend;
use super::body::Body;
use super::error::ApiError;
use super::parse;
use super::request::Headers;
use super::route::Route;
use crate::domain::order::Orders;
use crate::domain::route_table::API_ROUTES;
use crate::domain::PaymentMethod;
use crate::json::flat::Scalar;
use crate::json::number;
use crate::observe::request_line::Call;
use crate::sim::scenario::{self, Facts, Fault, Fields, Phase, Scenario, Then, Words};
use crate::sim::third_party::{Failure, Verdict};

/// The header that sets a scenario for one request.
pub const HEADER: &str = "x-orderpay-scenario";

/// The routes and payment methods a document is checked against.
pub const WORDS: Words = Words {
    route: route_id,
    payment_method: |m| PaymentMethod::parse(m).is_some(),
};

/// The request as the rules see it, before the service runs: a create's
/// or a payment's body as the gateway parsed it, once for the rules and
/// the service.
pub struct Seen<'r> {
    pub route: &'r Route<'r>,
    pub method: &'r str,
    pub user_id: Option<&'r str>,
    pub headers: &'r Headers,
    pub body: Option<&'r Body<'r, 'r>>,
}

/// `decide` for a routed request (its route, line, headers and parsed
/// body), its answers put where the request keeps them, then
/// `before_service`; returns the simulated time spent. Never inlined
/// into the gateway's path, which calls it only when a scenario may act.
#[inline(never)]
pub fn before(
    svc: &mut Backend,
    (route, call, headers, body): (&Route, &Call, &Headers, Option<&Body>),
    under_scenario: &mut bool,
    fault: &mut Option<Box<Fault>>,
) -> Result<u64, ApiError> {
    let seen = Seen {
        route,
        method: &call.method,
        user_id: call.user_id.as_deref(),
        headers,
        body,
    };
    (*under_scenario, *fault) = decide(svc, &seen)?;
    before_service(svc, fault.as_deref())
}

/// Whether a scenario (the header's for this request, else the
/// service's) is in force, and the failure it gives this request, if a
/// rule fires. A bad header is a 400. The order is looked up only when
/// a pay-only rule asks.
pub fn decide(svc: &mut Backend, seen: &Seen) -> Result<(bool, Option<Box<Fault>>), ApiError> {
    if svc.scenario.is_none() && seen.headers.is_empty() {
        return Ok((false, None));
    }
    let now = svc.clock.now_ms();
    let mut one = match seen.headers.get(HEADER) {
        None => None,
        Some(text) => Some(
            Scenario::read(text, WORDS, svc.settings.seed, now)
                .map_err(|refusal| ApiError::bad("X-Orderpay-Scenario", refusal.text()))?,
        ),
    };
    let Some(scenario) = one.as_mut().or(svc.scenario.as_mut()) else {
        return Ok((false, None));
    };
    let fields = fields_of(seen);
    let orders = &svc.orders;
    let pays = || matches!(seen.route, Route::Pay) && reaches_third_party(orders, seen.body);
    let template = template_id(seen.route);
    let header = |name: &str| seen.headers.get(name);
    let facts = Facts {
        template,
        group: group_of(template),
        method: seen.method,
        fields,
        pays: &pays,
        header: &header,
    };
    Ok((true, scenario.decide(&facts, now).map(Box::new)))
}

/// The fields a rule reads: the body's, or the header's user and the
/// path's order.
fn fields_of<'r>(seen: &Seen<'r>) -> Fields<'r> {
    let mut f = Fields::default();
    let mut user_id = None;
    let mut order_id = None;
    if let Some(body) = seen.body {
        body.each_scalar(|key, value| match (key, value) {
            ("userId", Scalar::Str(s)) => user_id = Some(s),
            ("paymentMethod", Scalar::Str(s)) => f.payment_method = Some(s),
            ("orderId", Scalar::Str(s)) => order_id = Some(s),
            ("amount", Scalar::Num(text)) => f.amount = number::parse(text),
            _ => {}
        });
    }
    let path_order = match seen.route {
        Route::GetOrder(id) | Route::MarkOrderPaid(id) | Route::DeleteOrder(id) => Some(*id),
        _ => None,
    };
    f.user_id = user_id.or(seen.user_id);
    f.order_id = order_id.or(path_order);
    f
}

/// What a scenario made of a payment at the third party: a pay-level
/// rule's failure, or a drawn decline reported as `generic_decline`
/// while a scenario is in force.
pub fn at_third_party(by_rule: Option<&Then>, verdict: &Verdict, under_scenario: bool) -> Failure {
    match by_rule {
        Some(Then::Decline { code }) => Failure::declined(code),
        Some(Then::Timeout { .. }) => Failure::TimedOut,
        Some(Then::ProcessorError { status }) => Failure::Status(*status),
        Some(later) if later.changes_later() => Failure::None,
        _ if under_scenario && !verdict.approved => Failure::Drawn,
        _ => Failure::None,
    }
}

/// Whether a payment's body is one, as the service reads it
/// (`parse::new_payment`), and its order exists: then it reaches the
/// third party (`exchange::dispatch::judge`).
fn reaches_third_party(orders: &Orders, body: Option<&Body>) -> bool {
    body.is_some_and(
        |b| matches!(parse::new_payment(b), Ok(Ok(p)) if orders.existing(&p.order_id).is_some()),
    )
}

/// The groups a rule may name, their ids after the templates'.
const GROUPS: [&str; 3] = ["order", "payment", "test"];

/// A template's id (its place among the eight) or a group's (8 on). A
/// page (the challenge's) is served before the rules, so none names it.
fn route_id(name: &str) -> Option<u8> {
    let template = API_ROUTES.iter().position(|(_, t, _)| *t == name);
    let group = || {
        GROUPS
            .iter()
            .position(|g| *g == name)
            .map(|g| g + API_ROUTES.len())
    };
    template.or_else(group).and_then(|id| u8::try_from(id).ok())
}

/// A request's template id, by its route (in `API_ROUTES`' order).
fn template_id(route: &Route) -> u8 {
    match route {
        Route::CreateOrder => 0,
        Route::GetOrder(_) => 1,
        Route::MarkOrderPaid(_) => 2,
        Route::DeleteOrder(_) => 3,
        Route::Pay => 4,
        Route::GetPayment(_) => 5,
        Route::Refund(_) => 6,
        Route::Batch => 7,
    }
}

/// A template's group id: order, payment or test.
fn group_of(template: u8) -> u8 {
    let group = match template {
        0..=3 => 0,
        4..=6 => 1,
        _ => 2,
    };
    group + API_ROUTES.len() as u8
}

/// Applies a gateway-level failure before the service runs: `http` and a
/// request-phase `network` fault answer at once (nothing runs); `delay`
/// spends its time. Returns the simulated time spent.
pub fn before_service(svc: &mut Backend, fault: Option<&Fault>) -> Result<u64, ApiError> {
    let Some(fault) = fault else { return Ok(0) };
    match fault.then {
        Then::Http { status, .. } => Err(ApiError::Unavailable {
            status,
            rule: rule_name(fault),
        }),
        Then::Network {
            fault: name,
            phase: Phase::Request,
            ..
        } => Err(ApiError::NetworkFault {
            fault: name,
            rule: rule_name(fault),
        }),
        Then::Delay { ms } => {
            svc.clock.advance(ms);
            Ok(ms)
        }
        _ => Ok(0),
    }
}

fn rule_name(fault: &Fault) -> String {
    fault.rule.as_deref().unwrap_or_default().to_owned()
}

/// Reads a scenario for the service: a document's JSON text (the
/// package's JS layer turns a preset's name into one), refused naming
/// its path.
pub fn read(text: &str, seed: u64, now: i64) -> Result<Scenario, Box<scenario::Refusal>> {
    Scenario::read(text, WORDS, seed, now)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::route_table::Kind;

    #[test]
    fn a_routes_template_id_is_its_place_in_the_table() {
        let order = [
            Kind::CreateOrder,
            Kind::GetOrder,
            Kind::MarkOrderPaid,
            Kind::DeleteOrder,
            Kind::Pay,
            Kind::GetPayment,
            Kind::Refund,
            Kind::Batch,
        ];
        let routes = [
            Route::CreateOrder,
            Route::GetOrder("x"),
            Route::MarkOrderPaid("x"),
            Route::DeleteOrder("x"),
            Route::Pay,
            Route::GetPayment("x"),
            Route::Refund("x"),
            Route::Batch,
        ];
        assert_eq!(API_ROUTES.len(), routes.len());
        for (i, ((_, template, kind), route)) in API_ROUTES.iter().zip(&routes).enumerate() {
            assert_eq!(*kind, order[i]);
            assert_eq!(route_id(template), Some(template_id(route)));
            let group =
                crate::domain::route_table::uri_group(template).map(|g| g.trim_matches(['/', '*']));
            assert_eq!(group.and_then(route_id), Some(group_of(template_id(route))));
        }
        assert_eq!(route_id("nope"), None);
        assert_eq!(route_id("/api/payment/{paymentId}/challenge"), None);
    }
}
