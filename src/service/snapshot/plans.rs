//! The payments that change later, in a snapshot (`paymentPlans`, only
//! when there is one, so older snapshots and a service without any read
//! and write as before): each payment's plan with its due time, cause
//! and trace, and what it keeps beside (challenged, `returnUrl`, its
//! failure). Read back refused naming the field.

use crate::prelude::*;

use alloc::rc::Rc;

use super::fields::{got_text, int, int_value, member, object, refusal, text, wrong, Read};
use crate::domain::code::{in_code_order, Code};
use crate::domain::payment::{Payments, PREFIX};
use crate::domain::payment_plan::{Cause, Later, Plan, Plans, Step};
use crate::domain::test_card;
use crate::json::message::{Msg, Path, Place};
use crate::json::write::push_hex64;
use crate::json::{Json, Out};
use crate::observe::ids::hex_value;
use crate::sim::invalid::InvalidKind;
use crate::sim::scenario::document::decline_code;
use crate::sim::scenario::document::OUTCOME_WORDS;
use crate::sim::scenario::Outcome;

/// `{"PAY-…": {challenged, returnUrl, failureCode, failureReason, plan}}`,
/// in id order.
pub(super) fn write(out: &mut Out, plans: &Plans) {
    out.begin_object();
    for (code, _) in in_code_order(plans.keys(false)) {
        let Some(later) = plans.get(code) else {
            continue;
        };
        out.key_text(&code.text(PREFIX));
        out.begin_object();
        out.key("challenged");
        out.bool(later.challenged);
        out.key("returnUrl");
        out.opt_str(later.return_url.as_deref());
        out.key("failureCode");
        out.opt_str(later.failure.as_ref().map(|f| f.0));
        out.key("failureReason");
        out.opt_str(later.failure.as_ref().map(|f| &*f.1));
        out.key("plan");
        match &later.plan {
            Some(plan) => write_plan(out, plan),
            None => out.null(),
        }
        out.end_object();
    }
    out.end_object();
}

/// `{kind, due, since, outcome, code, declinedAfter, reason, rule, name,
/// trace, wide, span}`.
fn write_plan(out: &mut Out, plan: &Plan) {
    let (outcome, code, declined_after, reason) = match &plan.step {
        Step::Challenge {
            outcome,
            fail_code,
            declined_after,
        } => (
            outcome.map(Outcome::as_str),
            *fail_code,
            *declined_after,
            None,
        ),
        Step::Pending { pass, code } => {
            (Some(if *pass { "pass" } else { "fail" }), *code, None, None)
        }
        Step::Reversal { code, reason } => (None, *code, None, Some(&**reason)),
    };
    let (rule, name) = match &plan.cause {
        Cause::Scenario(name) => ("scenario", &**name),
        Cause::Card(number) => ("card", *number),
    };
    out.begin_object();
    out.key("kind");
    out.str(plan.step.kind());
    out.key("due");
    match plan.due {
        Some(due) => out.int(due),
        None => out.null(),
    }
    out.key("since");
    out.int(plan.since);
    for (key, value) in [
        ("outcome", outcome),
        ("code", Some(code)),
        ("declinedAfter", declined_after),
        ("reason", reason),
        ("rule", Some(rule)),
        ("name", Some(name)),
    ] {
        out.key(key);
        out.opt_str(value);
    }
    let [high, low, wide, span] = plan.origin;
    let mut hex = String::with_capacity(32);
    push_hex64(&mut hex, high);
    push_hex64(&mut hex, low);
    out.key("trace");
    out.str(&hex);
    out.key("wide");
    out.bool(wide != 0);
    hex.clear();
    push_hex64(&mut hex, span);
    out.key("span");
    out.str(&hex);
    out.end_object();
}

/// `paymentPlans` read back into the payments, each of which it must name.
pub(super) fn read(v: &Json, payments: &mut Payments) -> Read<()> {
    let at = "snapshot.paymentPlans";
    for (id, later) in object(v, &at)? {
        let here = {
            let mut m = Msg::new(at);
            m.s("[").q(id).s("]");
            m.text()
        };
        let code = Code::parse(PREFIX, id)
            .filter(|c| payments.contains(*c))
            .ok_or_else(|| got_text(&here, "must be the id of a payment kept", id))?;
        let later = read_later(later, &here)?;
        payments.plans.keep(code, later);
    }
    Ok(())
}

fn read_later(v: &Json, at: &dyn Place) -> Read<Later> {
    object(v, at)?;
    let bool_of = |name: &str| match member(v, at, name)? {
        Json::Bool(b) => Ok(*b),
        other => Err(wrong(&Path(at, name), other, "a boolean")),
    };
    let failure = match opt(v, at, "failureCode")? {
        None => None,
        Some(code) => Some((
            decline(code, &Path(at, "failureCode"))?,
            Rc::from(text(v, at, "failureReason")?),
        )),
    };
    let plan = match member(v, at, "plan")? {
        Json::Null => None,
        plan => Some(read_plan(plan, &Path(at, "plan"))?),
    };
    Ok(Later {
        plan,
        challenged: bool_of("challenged")?,
        return_url: opt(v, at, "returnUrl")?.map(Rc::from),
        failure,
    })
}

fn read_plan(v: &Json, at: &dyn Place) -> Read<Plan> {
    object(v, at)?;
    let code = decline(text(v, at, "code")?, &Path(at, "code"))?;
    let outcome = match opt(v, at, "outcome")? {
        None => None,
        Some(o) => Some(
            Outcome::parse(o).ok_or_else(|| got_text(&Path(at, "outcome"), OUTCOME_WORDS, o))?,
        ),
    };
    let step = match text(v, at, "kind")? {
        "challenge" => Step::Challenge {
            outcome,
            fail_code: code,
            declined_after: match opt(v, at, "declinedAfter")? {
                None => None,
                Some(c) => Some(decline(c, &Path(at, "declinedAfter"))?),
            },
        },
        "pending" if outcome != Some(Outcome::Abandon) => Step::Pending {
            pass: outcome != Some(Outcome::Fail),
            code,
        },
        "reversal" => Step::Reversal {
            code,
            reason: Rc::from(text(v, at, "reason")?),
        },
        other => {
            return Err(got_text(
                &Path(at, "kind"),
                "must be challenge, pending or reversal",
                other,
            ))
        }
    };
    let cause = read_cause(v, at)?;
    let due = match member(v, at, "due")? {
        Json::Null => None,
        due => Some(int_value(due, &Path(at, "due"))?),
    };
    let trace = hex(text(v, at, "trace")?, 32, &Path(at, "trace"))?;
    let span = hex(text(v, at, "span")?, 16, &Path(at, "span"))?;
    let wide = match member(v, at, "wide")? {
        Json::Bool(b) => u64::from(*b),
        other => return Err(wrong(&Path(at, "wide"), other, "a boolean")),
    };
    Ok(Plan {
        due,
        step,
        cause,
        since: int(v, at, "since")?,
        origin: [trace.0, trace.1, wide, span.1],
    })
}

/// `rule` and `name`: a scenario's rule, or a test card.
fn read_cause(v: &Json, at: &dyn Place) -> Read<Cause> {
    let name = text(v, at, "name")?;
    Ok(match text(v, at, "rule")? {
        "scenario" => Cause::Scenario(Rc::from(name)),
        "card" => {
            let card = test_card::find(name);
            let card = card
                .ok_or_else(|| got_text(&Path(at, "name"), "must be a test card's number", name))?;
            Cause::Card(card.number)
        }
        other => {
            return Err(got_text(
                &Path(at, "rule"),
                "must be scenario or card",
                other,
            ))
        }
    })
}

/// A string member, or `null`.
fn opt<'j>(v: &'j Json, at: &dyn Place, name: &str) -> Read<Option<&'j str>> {
    match member(v, at, name)? {
        Json::Null => Ok(None),
        Json::Str(s) => Ok(Some(s)),
        other => Err(wrong(&Path(at, name), other, "a string or null")),
    }
}

fn decline(code: &str, at: &dyn Place) -> Read<&'static str> {
    decline_code(code).ok_or_else(|| got_text(at, "must be one of the decline codes", code))
}

/// `digits` lower-case hex digits, as (high, low) halves; read as the
/// journal reads trace and span ids.
fn hex(text: &str, digits: usize, at: &dyn Place) -> Read<(u64, u64)> {
    let half = |t: Option<&str>| t.and_then(hex_value);
    let read = match (text.len() == digits, digits) {
        (true, 32) => half(text.get(..16)).zip(half(text.get(16..))),
        (true, _) => Some(0).zip(hex_value(text)),
        _ => None,
    };
    match read {
        Some(halves) => Ok(halves),
        None => {
            let mut m = Msg::new("must be ");
            m.uint(digits as u64)
                .s(" lower-case hex digits, got ")
                .q(text);
            Err(refusal(InvalidKind::OutOfRange, at, &mut m))
        }
    }
}
