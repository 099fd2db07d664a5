//! A payment's change of state read back from its log record (`stage:
//! "payment"`, as `observe::payment_change` writes it), refused naming
//! the member.

use crate::prelude::*;

use alloc::rc::Rc;

use crate::domain::code::Code;
use crate::domain::payment::{PaymentStatus, PREFIX};
use crate::domain::payment_plan::{Cause, Change};
use crate::domain::test_card;
use crate::json::message::{msg, Whole};
use crate::json::Json;
use crate::sim::scenario::document::decline_code;
use crate::sim::scenario::Outcome;

type Read<T> = Result<T, String>;

fn text<'j>(o: &'j Json<'_>, name: &str) -> Read<&'j str> {
    o.get(name)
        .and_then(Json::as_str)
        .ok_or_else(|| msg!("`", name, "`: expected a string"))
}

/// The change a record tells; `at` its timestamp, `origin` its trace
/// and parent span.
pub(super) fn read(o: &Json<'_>, at: i64, origin: [u64; 4]) -> Read<Change> {
    let status = |name: &str| {
        let given = text(o, name)?;
        PaymentStatus::parse(given).ok_or_else(|| msg!("`", name, "`: unknown ", Whole(given)))
    };
    let id = text(o, "paymentId")?;
    let code = Code::parse(PREFIX, id)
        .ok_or_else(|| msg!("`paymentId`: not a payment id: ", Whole(id)))?;
    let kind = match text(o, "kind")? {
        "challenge" => "challenge",
        "pending" => "pending",
        "reversal" => "reversal",
        other => return Err(msg!("`kind`: unknown ", Whole(other))),
    };
    let given = o.get("cause").ok_or("`cause`: missing")?;
    let (cause, by_buyer) = match text(given, "rule")? {
        "buyer" => {
            let outcome = text(given, "outcome")?;
            let outcome = Outcome::parse(outcome).ok_or("`cause.outcome`: unknown")?;
            (
                cause(given.get("planned").ok_or("`cause.planned`: missing")?)?,
                Some(outcome),
            )
        }
        _ => (cause(given)?, None),
    };
    let failure = match o.get("failureCode") {
        None => None,
        Some(_) => {
            let code = text(o, "failureCode")?;
            let code = decline_code(code).ok_or("`failureCode`: unknown")?;
            Some((code, Rc::from(text(o, "failureReason")?)))
        }
    };
    Ok(Change {
        code,
        from: status("from")?,
        to: status("to")?,
        at,
        since: at,
        kind,
        cause,
        by_buyer,
        failure,
        origin,
    })
}

fn cause(o: &Json<'_>) -> Read<Cause> {
    Ok(match text(o, "rule")? {
        "scenario" => Cause::Scenario(Rc::from(text(o, "scenarioRule")?)),
        "card" => Cause::Card(
            test_card::find(text(o, "card")?)
                .ok_or("`cause.card`: not a test card's number")?
                .number,
        ),
        other => return Err(msg!("`cause.rule`: unknown ", Whole(other))),
    })
}
