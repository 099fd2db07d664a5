//! The kinds of `then` that keep the payment and change it later on the
//! service's clock: `challenge`, `pending` and `reversal`, read and
//! checked (times up to seven days, codes among the decline codes).

use crate::prelude::*;

use crate::json::read::Json;
use crate::sim::invalid::InvalidKind;

use super::document::{Outcome, Then, MAX_ASYNC_MS};
use super::reading::{decline_code, whole, word, At, Given, Refusal};

/// A `then` of one of the three kinds; `get` finds a member beside its
/// path, as `parse::read_then` hands it.
pub(super) fn read<'j, 'a, 'p>(
    kind: &str,
    get: &dyn Fn(&'static str) -> Given<'j, 'a, 'p>,
    at: &At,
) -> Result<Then, Box<Refusal>> {
    let ms = |name: &'static str, default: u64| match get(name) {
        Some((v, at)) => whole(v, &at, 0, MAX_ASYNC_MS, "a whole number of ms"),
        None => Ok(default),
    };
    match kind {
        "challenge" => {
            let outcome = match get("outcome") {
                Some((v, at)) => Some(outcome(v, &at, &["pass", "fail", "abandon"])?),
                None => None,
            };
            if outcome.is_none() && get("afterMs").is_some() {
                let problem = "afterMs: only with an outcome (pass, fail or abandon)";
                return Err(at.refuse(InvalidKind::WrongType, problem.to_owned()));
            }
            Ok(Then::Challenge {
                outcome,
                after_ms: ms("afterMs", 0)?,
                code: decline_code(get("code"), "authentication_required")?,
            })
        }
        "pending" => {
            let pass = match get("outcome") {
                Some((v, at)) => outcome(v, &at, &["pass", "fail"])? == Outcome::Pass,
                None => true,
            };
            if pass && get("code").is_some() {
                let problem = "code: only with outcome fail";
                return Err(at.refuse(InvalidKind::WrongType, problem.to_owned()));
            }
            Ok(Then::Pending {
                for_ms: ms("forMs", 30_000)?,
                pass,
                code: decline_code(get("code"), "generic_decline")?,
            })
        }
        _ => Ok(Then::Reversal {
            after_ms: ms("afterMs", 60_000)?,
            code: decline_code(get("code"), "generic_decline")?,
        }),
    }
}

/// One of `words` (a subset of the outcomes' names), as an outcome.
fn outcome(v: &Json, at: &At, words: &[&'static str]) -> Result<Outcome, Box<Refusal>> {
    let what = match words.len() {
        2 => "pass or fail",
        _ => "pass, fail or abandon",
    };
    let w = word(v, at, words, what)?;
    Outcome::parse(w).ok_or_else(|| at.range(what, v))
}
