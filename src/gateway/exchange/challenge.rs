//! The challenge page's route, `GET/POST /api/payment/{paymentId}/challenge`
//! (a page route of the table), served by the core so every way in
//! serves it alike; only for a payment that is or was challenged (any
//! other such path answers as before, 404). A part of the exchange, as
//! the buyer's answer is a change of the payment that `async_payment`
//! writes; `complete_challenge` makes it, for the page and the API alike.

use crate::prelude::*;

use super::super::backend::Backend;
use super::super::challenge_page;
use super::super::envelope::{Data, Page};
use super::super::error::ApiError;
use super::super::request::{Headers, Target};
use super::async_payment::write_change;
use super::catch_up::{catch_up, drop_stale};
use super::transition::{self, commit};
use super::work::Work;
use crate::domain::payment_changes::{not_awaiting_text, NotAwaiting};
use crate::domain::payment_plan::Change;
use crate::domain::Payment;
use crate::json::message::{msg, Q};
use crate::sim::scenario::document::OUTCOME_WORDS;
use crate::sim::scenario::Outcome;

/// What a request to the page asks: its method, its target (the
/// `outcome` of a POST) and its headers (whether a browser asks).
pub(super) struct Asked<'a> {
    pub(super) method: &'a str,
    pub(super) target: &'a Target,
    pub(super) headers: &'a Headers,
}

/// GET: the page. POST: the buyer's answer (`?outcome=`), then a 303 to
/// the pay's `returnUrl`, or the page with its result. An answer to a
/// challenge already over is a 409: to a browser, a page saying how the
/// challenge ended; to any other client, the envelope.
pub(super) fn serve(
    svc: &mut Backend,
    payment_id: &str,
    asked: Asked,
    work: &mut Work,
) -> Result<Option<Data>, ApiError> {
    if asked.method == "GET" {
        let payment = svc.payments.get(payment_id)?;
        let html = challenge_page::page(&payment, false);
        return Ok(Some(Data::Page(page(200, html, None))));
    }
    let given = asked.target.param("outcome").unwrap_or_default();
    let outcome = Outcome::parse(given).ok_or_else(|| {
        let problem = msg!(OUTCOME_WORDS, ", got ", Q(given));
        ApiError::bad("outcome", problem)
    })?;
    if let Err(why) = complete_challenge(svc, payment_id, outcome) {
        let refused = not_awaiting(payment_id, why);
        if let (ApiError::Conflict(_), true) = (&refused, is_browser(asked.headers)) {
            let payment = svc.payments.get(payment_id)?;
            let html = challenge_page::page(&payment, true);
            work.shown = Some(page(refused.http_status(), html, None));
        }
        return Err(refused);
    }
    let payment = svc.payments.get(payment_id)?;
    Ok(Some(Data::Page(
        match svc.payments.return_url(payment_id) {
            Some(url) => page(303, String::new(), Some(back_to(url, &payment))),
            None => page(200, challenge_page::page(&payment, false), None),
        },
    )))
}

/// Whether a browser asks, as a page load or a form's POST: its `Accept`
/// starts with `text/html`, as every browser's navigation sends it,
/// where `fetch`, curl and HTTP libraries send `*/*` or
/// `application/json`.
fn is_browser(headers: &Headers) -> bool {
    let accept = headers.get("accept").unwrap_or_default();
    accept
        .get(..9)
        .is_some_and(|first| first.eq_ignore_ascii_case("text/html"))
}

fn page(status: u16, html: String, location: Option<String>) -> Box<Page> {
    Box::new(Page {
        status,
        html,
        location,
    })
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

/// Ends a challenge for the buyer at the service's time: the change, or
/// why not (a `paymentId` unknown or not awaiting one).
pub fn complete_challenge(
    svc: &mut Backend,
    payment_id: &str,
    outcome: Outcome,
) -> Result<Change, NotAwaiting> {
    let now = svc.clock.now_ms();
    catch_up(svc, now);
    let (change, made) = svc.payments.complete_challenge(payment_id, outcome, now)?;
    drop_stale(svc);
    commit(svc, made, change.at, transition::of_plan(change.origin));
    write_change(svc, change.clone());
    Ok(change)
}
