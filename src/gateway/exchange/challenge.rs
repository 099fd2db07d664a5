//! The challenge page's route, `GET/POST /api/payment/{id}/challenge`,
//! served by the core so every way in serves it alike; only for a
//! payment that is or was challenged (any other such path answers as
//! before, 404). A part of the exchange, as the buyer's answer is a
//! change of the payment that `later` writes.

use crate::prelude::*;

use super::super::backend::Backend;
use super::super::challenge_page;
use super::super::envelope::{Data, Page};
use super::super::error::ApiError;
use super::super::request::Target;
use super::later::complete_challenge;
use crate::domain::payment_changes::{not_awaiting_text, NotAwaiting};
use crate::domain::Payment;
use crate::json::message::{msg, Q};
use crate::sim::scenario::document::OUTCOME_WORDS;
use crate::sim::scenario::Outcome;

/// The payment id of a challenge page's path, if it is one.
pub(super) fn payment_of(uri: &str) -> Option<&str> {
    let id = uri
        .strip_prefix("/api/payment/")?
        .strip_suffix("/challenge")?;
    (!id.is_empty() && !id.contains('/')).then_some(id)
}

/// GET: the page. POST: the buyer's answer (`?outcome=`), then a 303 to
/// the pay's `returnUrl`, or the page with its result.
pub(super) fn serve(
    svc: &mut Backend,
    method: &str,
    payment_id: &str,
    target: &Target,
) -> Result<Option<Data>, ApiError> {
    if method == "GET" {
        let payment = svc.payments.get(payment_id)?;
        return Ok(Some(page(200, challenge_page::page(&payment), None)));
    }
    let given = target.param("outcome").unwrap_or_default();
    let outcome = Outcome::parse(given).ok_or_else(|| {
        let problem = msg!(OUTCOME_WORDS, ", got ", Q(given));
        ApiError::bad("outcome", problem)
    })?;
    if let Err(why) = complete_challenge(svc, payment_id, outcome) {
        return Err(not_awaiting(payment_id, why));
    }
    let payment = svc.payments.get(payment_id)?;
    Ok(Some(match svc.payments.return_url(payment_id) {
        Some(url) => page(303, String::new(), Some(back_to(url, &payment))),
        None => page(200, challenge_page::page(&payment), None),
    }))
}

fn page(status: u16, html: String, location: Option<String>) -> Data {
    Data::Page(Box::new(Page {
        status,
        html,
        location,
    }))
}

/// The challenge cannot be ended: 409, saying the state it is in.
fn not_awaiting(payment_id: &str, why: NotAwaiting) -> ApiError {
    match why {
        NotAwaiting::Unknown => ApiError::Rejected(crate::domain::Rejection::PaymentNotFound),
        NotAwaiting::In(status) => {
            ApiError::Conflict(not_awaiting_text("Payment ", payment_id, status))
        }
    }
}

/// The `returnUrl` with `paymentId` and `status` added to its query
/// (before any fragment).
fn back_to(url: &str, p: &Payment) -> String {
    let (base, fragment) = match url.split_once('#') {
        Some((base, f)) => (base, msg!("#", f)),
        None => (url, String::new()),
    };
    let joint = match base.contains('?') {
        true if matches!(base.as_bytes().last(), Some(b'?' | b'&')) => "",
        true => "&",
        false => "?",
    };
    msg!(
        base,
        joint,
        "paymentId=",
        p.payment_id.as_str(),
        "&status=",
        p.status.as_str(),
        &fragment
    )
}
