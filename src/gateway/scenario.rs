//! The gateway's side of scenarios: what a request is, in the words the
//! rules match (`sim::scenario::Facts`), decided once when its route and
//! body are known and before the service runs; and the gateway-level
//! kinds applied there (`http`, `network` in the request phase, `delay`).
//! The pay-level kinds act at the third party (`exchange::judge`).

use crate::prelude::*;

use super::backend::Backend;
use super::error::ApiError;
use super::parse;
use super::request::{Body, Fields, Headers, Text};
use super::route::Route;
use crate::domain::route_table::{self, ROUTES};
use crate::domain::PaymentMethod;
use crate::json::flat::Flat;
use crate::sim::scenario::{self, Facts, Fault, Phase, Scenario, Then, Words};
use crate::sim::third_party::{Failure, Verdict};

/// The header that sets a scenario for one request.
pub const HEADER: &str = "x-orderpay-scenario";

/// The routes and payment methods a document is checked against.
pub const WORDS: Words = Words {
    route: |r| ["order", "payment", "test"].contains(&r) || ROUTES.iter().any(|(_, t, _)| *t == r),
    payment_method: |m| PaymentMethod::parse(m).is_some(),
};

/// The request as the rules see it, before the service runs.
pub struct Seen<'r> {
    pub route: &'r Route<'r>,
    pub method: &'r str,
    pub template: Option<&'static str>,
    pub user_id: Option<&'r str>,
    pub headers: &'r Headers,
    pub body: Option<&'r Text>,
}

/// Whether a scenario (the header's for this request, else the
/// service's) is in force, and the failure it gives this request, if a
/// rule fires. A bad header is a 400.
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
    let Some(needs_body) = one
        .as_ref()
        .or(svc.scenario.as_ref())
        .map(|s| s.doc.needs_body)
    else {
        return Ok((false, None));
    };
    let mut room = Flat::new();
    let body = if needs_body {
        Body::parse(seen.body, seen.headers, &mut room).ok()
    } else {
        None
    };
    let field = |name: &str| {
        body.as_ref()
            .and_then(|b| b.optional_string(name).ok().flatten())
    };
    let amount = body.as_ref().and_then(|b| b.number("amount").ok());
    let pays = matches!(seen.route, Route::Pay)
        && body.as_ref().is_some_and(|b| {
            matches!(parse::new_payment(b), Ok(Ok(p)) if svc.orders.existing(&p.order_id).is_some())
        });
    let path_order = match seen.route {
        Route::GetOrder(id) | Route::MarkOrderPaid(id) | Route::DeleteOrder(id) => Some(*id),
        _ => None,
    };
    let template = seen.template.unwrap_or_default();
    let header = |name: &str| seen.headers.get(name);
    let facts = Facts {
        template,
        group: group_of(template),
        method: seen.method,
        pays,
        user_id: field("userId").or(seen.user_id),
        payment_method: field("paymentMethod"),
        amount,
        order_id: field("orderId").or(path_order),
        header: &header,
    };
    let scenario = one.as_mut().or(svc.scenario.as_mut());
    Ok((
        true,
        scenario.and_then(|s| s.decide(&facts, now)).map(Box::new),
    ))
}

/// What a scenario made of a payment at the third party: a pay-level
/// rule's failure, or a drawn decline reported as `generic_decline`
/// while a scenario is in force.
pub fn at_third_party(by_rule: Option<Then>, verdict: &Verdict, under_scenario: bool) -> Failure {
    match by_rule {
        Some(Then::Decline { code }) => Failure::declined(code),
        Some(Then::Timeout { .. }) => Failure::TimedOut,
        Some(Then::ProcessorError { status }) => Failure::Status(status),
        _ if under_scenario && !verdict.approved => Failure::Drawn,
        _ => Failure::None,
    }
}

/// A route's group as a rule names it: `order`, `payment` or `test`.
fn group_of(template: &str) -> &'static str {
    match route_table::uri_group(template) {
        Some("/order/*") => "order",
        Some("/payment/*") => "payment",
        Some("/test/*") => "test",
        _ => "",
    }
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

/// Reads a scenario for the service: a preset's name or a document's
/// JSON text, refused naming its path.
pub fn read(text: &str, seed: u64, now: i64) -> Result<Scenario, Box<scenario::Refusal>> {
    Scenario::read(text, WORDS, seed, now)
}
