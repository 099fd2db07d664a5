//! A webhook delivery attempt read back from its log record (`stage:
//! "webhook"`) or its span (component `webhook`), as
//! `observe::webhook_attempt` and `render` write them; refused naming the
//! member or the attribute.

use crate::prelude::*;

use crate::domain::delivery::DELIVERY_PREFIX;
use crate::domain::transition::EventType;
use crate::domain::webhook::{number_of, ENDPOINT_PREFIX};
use crate::json::message::{msg, Whole};
use crate::json::Json;
use crate::observe::webhook_attempt::WebhookAttempt;
use crate::sim::scenario::DeliveryFault;

use super::record_fields::{attr_int, attr_text, attribute, int, optional, text, uint, Read};

/// `given`, when it is an id of `prefix` (`what` names it in the refusal).
fn id(given: &str, prefix: &str, what: &str) -> Read<Box<str>> {
    let fits = match prefix {
        "evt_" => given.len() > 4 && given.starts_with(prefix),
        _ => number_of(prefix, given).is_some(),
    };
    if fits {
        Ok(given.into())
    } else {
        Err(msg!(what, ": not an id of ", prefix, ": ", Whole(given)))
    }
}

fn event_type(given: &str, what: &str) -> Read<EventType> {
    EventType::parse(given).ok_or_else(|| msg!(what, ": unknown ", Whole(given)))
}

fn fault(v: &Json<'_>, what: &str) -> Read<DeliveryFault> {
    DeliveryFault::read(v).ok_or_else(|| msg!(what, ": not a fault a delivery rule gives"))
}

/// The attempt a record tells.
pub(super) fn of_record(o: &Json<'_>) -> Read<WebhookAttempt> {
    let url = match (optional(o, "url", text)?, o.get("handler")) {
        (Some(url), None) => Some(Box::from(url)),
        (None, Some(Json::Bool(true))) => None,
        _ => return Err("`url`: expected a string, or `handler`: true".to_owned()),
    };
    let http_status = match optional(o, "httpStatus", uint)? {
        None => None,
        Some(s) => Some(u16::try_from(s).map_err(|_| "`httpStatus`: out of range")?),
    };
    let w = WebhookAttempt {
        endpoint: id(text(o, "endpointId")?, ENDPOINT_PREFIX, "`endpointId`")?,
        url,
        delivery: id(text(o, "deliveryId")?, DELIVERY_PREFIX, "`deliveryId`")?,
        event: id(text(o, "eventId")?, "evt_", "`eventId`")?,
        event_type: event_type(text(o, "eventType")?, "`eventType`")?,
        n: u32::try_from(uint(o, "attempt")?).map_err(|_| "`attempt`: out of range")?,
        http_status,
        duration_ms: uint(o, "durationMs")?,
        error: optional(o, "error", text)?.map(Box::from),
        next_at: optional(o, "nextAttemptAt", int)?,
        fault: o.get("fault").map(|v| fault(v, "`fault`")).transpose()?,
    };
    if w.status().as_str() != text(o, "status")? {
        return Err("`status`: does not agree with `httpStatus`".to_owned());
    }
    Ok(w)
}

/// The attempt a span tells, by its attributes.
pub(super) fn of_span(o: &Json<'_>) -> Read<WebhookAttempt> {
    let optional = |key: &str| attribute(o, key).filter(|v| !matches!(v, Json::Null));
    let url = match (optional("url.full"), optional("orderpay.webhook.handler")) {
        (Some(_), None) => Some(Box::from(attr_text(o, "url.full")?)),
        (None, Some(Json::Bool(true))) => None,
        _ => {
            let problem =
                "span attribute `url.full`: expected a string, or `orderpay.webhook.handler`: true";
            return Err(problem.to_owned());
        }
    };
    let fault = match optional("orderpay.fault") {
        None => None,
        Some(_) => {
            let given = attr_text(o, "orderpay.fault")?;
            let what = "span attribute `orderpay.fault`";
            let v = crate::json::read::parse(given).map_err(|_| msg!(what, ": not JSON"))?;
            Some(fault(&v, what)?)
        }
    };
    Ok(WebhookAttempt {
        endpoint: id(
            attr_text(o, "orderpay.webhook.endpoint")?,
            ENDPOINT_PREFIX,
            "span attribute `orderpay.webhook.endpoint`",
        )?,
        url,
        delivery: id(
            attr_text(o, "orderpay.webhook.delivery")?,
            DELIVERY_PREFIX,
            "span attribute `orderpay.webhook.delivery`",
        )?,
        event: id(
            attr_text(o, "orderpay.event.id")?,
            "evt_",
            "span attribute `orderpay.event.id`",
        )?,
        event_type: event_type(
            attr_text(o, "orderpay.event.type")?,
            "span attribute `orderpay.event.type`",
        )?,
        n: attr_int(o, "orderpay.webhook.attempt")?,
        http_status: match optional("http.response.status_code") {
            None => None,
            Some(_) => Some(attr_int(o, "http.response.status_code")?),
        },
        duration_ms: int(o, "end")?
            .checked_sub(int(o, "start")?)
            .and_then(|d| u64::try_from(d).ok())
            .ok_or("span `end`: before its `start`")?,
        error: match optional("error.type") {
            None => None,
            Some(_) => Some(Box::from(attr_text(o, "error.type")?)),
        },
        next_at: match optional("orderpay.webhook.next_attempt_at") {
            None => None,
            Some(_) => Some(attr_int(o, "orderpay.webhook.next_attempt_at")?),
        },
        fault,
    })
}
