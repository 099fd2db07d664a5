//! The simulated third party behind payment pay. Whether an attempt is
//! approved depends only on the seed, the order and the attempt number, so
//! a failure seen once replays alone, whatever other requests came first;
//! and it can be forced, per request or for the next N payments, to test a
//! failure on demand. Every decision says why it was made.

use crate::prelude::*;

use alloc::rc::Rc;

use super::planned_change::PlannedChange;
use super::test_card::CardIx;
use crate::json::message::msg;

use super::random::keyed_unit;
use super::scenario::document::{decline_code, DECLINE_CODES};
use crate::json::number::{display, fixed};

/// What a forcing rule asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Forced {
    Success,
    Failure,
}

impl Forced {
    pub fn as_str(self) -> &'static str {
        match self {
            Forced::Success => "success",
            Forced::Failure => "failure",
        }
    }

    /// `success` or `failure` exactly, as snapshots write them.
    pub fn parse_exact(text: &str) -> Option<Forced> {
        [Forced::Success, Forced::Failure]
            .into_iter()
            .find(|f| f.as_str() == text)
    }

    /// `success` or `failure`, in any letter case.
    pub fn parse(text: &str) -> Option<Forced> {
        match text.trim().to_ascii_lowercase().as_str() {
            "success" => Some(Forced::Success),
            "failure" => Some(Forced::Failure),
            _ => None,
        }
    }
}

/// What decided an attempt (its record's `rule`): the draw, a header,
/// `forceNext`, a scenario's rule or a test card.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum DecidedBy {
    /// The seeded random draw against the failure rate.
    Draw,
    /// The request's `X-Sim-Outcome` header.
    Header,
    /// A `forceNext` instruction to the service.
    ForcedNext,
    /// A scenario's rule (a decline, a timeout or a processor error),
    /// named in the verdict's `scenario_rule`.
    Scenario,
    /// The pay's test card (`cardNumber`), named in the verdict's `card`.
    Card,
}

impl DecidedBy {
    pub fn as_str(self) -> &'static str {
        match self {
            DecidedBy::Draw => "draw",
            DecidedBy::Header => "header",
            DecidedBy::ForcedNext => "forced-next",
            DecidedBy::Scenario => "scenario",
            DecidedBy::Card => "card",
        }
    }

    pub fn parse(text: &str) -> Option<DecidedBy> {
        [
            DecidedBy::Draw,
            DecidedBy::Header,
            DecidedBy::ForcedNext,
            DecidedBy::Scenario,
            DecidedBy::Card,
        ]
        .into_iter()
        .find(|r| r.as_str() == text)
    }
}

/// What a scenario made of an attempt: nothing (the spec's draw and
/// forcing), a drawn decline reported as `generic_decline` because a
/// scenario is set, or a rule's decline, timeout or 5xx.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Failure {
    #[default]
    None,
    Drawn,
    /// A rule's decline: its code's index in `DECLINE_CODES`, so a
    /// verdict stays small in every record and span that keeps one.
    Declined(u8),
    TimedOut,
    Status(u16),
}

impl Failure {
    /// The decline code the records and headers report.
    pub fn decline_code(self) -> Option<&'static str> {
        match self {
            Failure::Drawn => Some("generic_decline"),
            Failure::Declined(code) => DECLINE_CODES.get(usize::from(code)).copied(),
            _ => None,
        }
    }

    /// A rule's decline with `code` (one of `DECLINE_CODES`).
    pub fn declined(code: &str) -> Failure {
        let index = DECLINE_CODES.iter().position(|k| *k == code).unwrap_or(0);
        Failure::Declined(u8::try_from(index).unwrap_or(0))
    }

    /// What the third party did, when a scenario's rule decided:
    /// `declined`, `timeout`, or the status it answered.
    pub fn third_party(self) -> Option<(&'static str, u16)> {
        match self {
            Failure::Declined(_) => Some(("declined", 0)),
            Failure::TimedOut => Some(("timeout", 0)),
            Failure::Status(status) => Some(("", status)),
            _ => None,
        }
    }

    /// Read back from a record's `declineCode` and `thirdParty` (a word
    /// or a status); `None` for a combination no record has.
    pub fn read(code: Option<&str>, word: Option<&str>, status: Option<u64>) -> Option<Failure> {
        let code = match code {
            None => None,
            Some(c) => Some(decline_code(c)?),
        };
        Some(match (code, word, status) {
            (None, None, None) => Failure::None,
            (Some("generic_decline"), None, None) => Failure::Drawn,
            (Some(code), Some("declined"), None) => Failure::declined(code),
            (None, Some("timeout"), None) => Failure::TimedOut,
            (None, None, Some(s @ 500..=599)) => Failure::Status(s as u16),
            _ => return None,
        })
    }
}

/// What the third party said, and why: the service record of the payment
/// carries it, so a reader of the log sees the reason for each outcome.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct Decision {
    pub approved: bool,
    pub rule: DecidedBy,
    /// The name of the scenario's rule, when `rule` is `Scenario`.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub scenario_rule: Option<String>,
    /// The test card's number, when `rule` is `card`.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub card: Option<String>,
    /// What the payment does later (`async`), when it changes later.
    #[cfg_attr(
        feature = "serde",
        serde(rename = "async", default, skip_serializing_if = "Option::is_none")
    )]
    pub planned: Option<crate::sim::planned_change::PlannedNote>,
    /// 1 for the first attempt on the order, 2 for the first retry...
    pub attempt: u32,
    /// The random draw in [0, 1): it fails when below the threshold. Made
    /// (and shown) even when a rule forces the outcome.
    pub draw: f64,
    /// The failure rate in force.
    pub threshold: f64,
    /// The decline code a scenario reported (`generic_decline` for a
    /// drawn decline under a scenario).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub decline_code: Option<String>,
    pub reason: String,
}

/// A decision without its words: what the hot path keeps. The reason is
/// written only when someone reads it, and always reads the same.
#[derive(Debug, Clone, PartialEq)]
pub struct Verdict {
    pub approved: bool,
    pub rule: DecidedBy,
    pub attempt: u32,
    pub draw: f64,
    pub threshold: f64,
    pub failure: Failure,
    /// The test card's number, when `rule` is `Card` (a byte, in what
    /// would be padding).
    pub card: Option<CardIx>,
    /// The scenario's rule and the plan, when either is there (boxed
    /// together: most pays have neither, and the verdict, copied into
    /// every record and span that keeps it, stays small).
    pub extras: Option<Box<VerdictExtras>>,
}

/// What a verdict rarely carries.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct VerdictExtras {
    /// The name of the scenario's rule that decided, when `rule` is
    /// `Scenario` (a snapshot written before it was kept has none).
    pub scenario_rule: Option<Rc<str>>,
    /// What the payment does later, when it changes later.
    pub planned: Option<PlannedChange>,
}

impl VerdictExtras {
    /// The extras of a verdict: `None` when it has neither.
    pub fn of(
        scenario_rule: Option<Rc<str>>,
        planned: Option<PlannedChange>,
    ) -> Option<Box<VerdictExtras>> {
        if scenario_rule.is_none() && planned.is_none() {
            return None;
        }
        Some(Box::new(VerdictExtras {
            scenario_rule,
            planned,
        }))
    }
}

impl Verdict {
    /// The name of the scenario's rule that decided, if kept.
    pub fn scenario_rule(&self) -> Option<&str> {
        self.extras.as_ref()?.scenario_rule.as_deref()
    }

    /// What the payment does later, when it changes later.
    pub fn planned(&self) -> Option<&PlannedChange> {
        self.extras.as_ref()?.planned.as_ref()
    }

    /// Names the scenario's rule that decided (nothing kept for `None`).
    pub fn set_scenario_rule(&mut self, name: Option<Rc<str>>) {
        if let Some(name) = name {
            self.extras.get_or_insert_with(Box::default).scenario_rule = Some(name);
        }
    }

    /// Keeps what the payment does later.
    pub fn set_planned(&mut self, planned: PlannedChange) {
        self.extras.get_or_insert_with(Box::default).planned = Some(planned);
    }

    /// Why, in words: `draw 0.2053 < failure rate 0.3: declined`.
    pub fn reason(&self) -> String {
        let by_draw = self.draw >= self.threshold;
        let words = |approved: bool| if approved { "approved" } else { "declined" };
        let by_scenario = match self.failure {
            Failure::Declined(_) => Some(msg!(
                "declined by a scenario's rule: ",
                self.failure.decline_code().unwrap_or_default()
            )),
            Failure::TimedOut => Some(msg!(
                "the third party timed out, no decline (a scenario's rule)"
            )),
            Failure::Status(status) => Some(msg!(
                "the third party answered ",
                status,
                ", no decline (a scenario's rule)"
            )),
            Failure::None | Failure::Drawn => None,
        };
        if self.card.is_some() || (self.rule == DecidedBy::Scenario && self.approved) {
            return later_reason(self);
        }
        if let Some(done) = by_scenario {
            return msg!(
                "",
                done,
                " (the draw ",
                fixed(self.draw, 4),
                " would have ",
                words(by_draw),
                ")"
            );
        }
        match self.rule {
            DecidedBy::Draw => msg!(
                "draw ",
                fixed(self.draw, 4),
                " ",
                if by_draw { ">=" } else { "<" },
                " failure rate ",
                display(self.threshold),
                ": ",
                words(by_draw)
            ),
            rule => msg!(
                "forced ",
                words(self.approved),
                " by the ",
                if rule == DecidedBy::Header {
                    "X-Sim-Outcome header"
                } else {
                    "forceNext"
                },
                " (the draw ",
                fixed(self.draw, 4),
                " would have ",
                words(by_draw),
                ")"
            ),
        }
    }
}

/// Why, in words, for a test card's verdict (`test card 4000…: declined
/// insufficient_funds (the draw 0.2053 would have approved)`), or a
/// scenario's rule that approved a payment that changes later.
#[inline(never)]
fn later_reason(v: &Verdict) -> String {
    let by_draw = if v.draw >= v.threshold {
        "approved"
    } else {
        "declined"
    };
    let done = match v.failure.decline_code() {
        Some(code) => msg!("declined ", code),
        None => "approved".to_owned(),
    };
    let by = match v.card {
        Some(card) => msg!("test card ", card.number(), ": "),
        None => "a scenario's rule, to change later: ".to_owned(),
    };
    msg!(
        "",
        by,
        done,
        " (the draw ",
        fixed(v.draw, 4),
        " would have ",
        by_draw,
        ")"
    )
}

impl From<Verdict> for Decision {
    fn from(v: Verdict) -> Decision {
        Decision {
            approved: v.approved,
            rule: v.rule,
            scenario_rule: v.scenario_rule().map(String::from),
            card: v.card.map(|c| String::from(c.number())),
            planned: v
                .planned()
                .map(|p| crate::sim::planned_change::PlannedNote {
                    kind: String::from(p.kind),
                    due_at: p.due,
                    outcome: p.outcome.map(|o| String::from(o.as_str())),
                    code: p.code.map(String::from),
                }),
            attempt: v.attempt,
            draw: v.draw,
            threshold: v.threshold,
            decline_code: v.failure.decline_code().map(String::from),
            reason: v.reason(),
        }
    }
}

/// The seeded draw for this order and attempt, unless a rule forces it.
pub fn judge(
    seed: u64,
    order_id: &str,
    attempt: u32,
    failure_rate: f64,
    forced: Option<(Forced, DecidedBy)>,
) -> Verdict {
    let draw = keyed_unit(seed, order_id, u64::from(attempt));
    let (approved, rule) = match forced {
        None => (draw >= failure_rate, DecidedBy::Draw),
        Some((outcome, rule)) => (outcome == Forced::Success, rule),
    };
    Verdict {
        approved,
        rule,
        attempt,
        draw,
        threshold: failure_rate,
        failure: Failure::None,
        card: None,
        extras: None,
    }
}

/// `judge`, with the reason written out.
pub fn decide(
    seed: u64,
    order_id: &str,
    attempt: u32,
    failure_rate: f64,
    forced: Option<(Forced, DecidedBy)>,
) -> Decision {
    judge(seed, order_id, attempt, failure_rate, forced).into()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A verdict is copied into every record and span that keeps one:
    /// it stays the size it was before payments could change later.
    #[test]
    #[cfg(target_pointer_width = "64")]
    fn a_verdict_stays_small() {
        assert!(core::mem::size_of::<Verdict>() <= 48);
        assert_eq!(
            core::mem::size_of::<Option<Verdict>>(),
            core::mem::size_of::<Verdict>()
        );
    }

    #[test]
    fn about_thirty_percent_fail_at_the_default_rate() {
        let n = 20_000;
        let failed = (0..n)
            .filter(|i| !decide(11, &format!("ORD-{i:08}"), 1, 0.3, None).approved)
            .count();
        // Binomial(20000, 0.3): sd about 65; allow 5 sd.
        assert!((5_675..=6_325).contains(&failed), "{failed}");
    }

    #[test]
    fn rates_of_zero_and_one_are_absolute() {
        for i in 0..1000 {
            let order = format!("ORD-{i}");
            assert!(decide(5, &order, 1, 0.0, None).approved);
            assert!(!decide(5, &order, 1, 1.0, None).approved);
        }
    }

    #[test]
    fn the_same_order_and_attempt_always_decide_alike_and_retries_draw_anew() {
        let first = decide(3, "ORD-ABCDEFGH", 1, 0.3, None);
        assert_eq!(first, decide(3, "ORD-ABCDEFGH", 1, 0.3, None));
        assert_ne!(first.draw, decide(3, "ORD-ABCDEFGH", 2, 0.3, None).draw);
        assert_eq!(first.approved, first.draw >= 0.3);
    }

    #[test]
    fn a_forced_outcome_wins_over_the_draw_and_says_so() {
        let free = decide(3, "ORD-ABCDEFGH", 1, 0.0, None);
        assert!(free.approved);
        assert!(
            free.reason.starts_with("draw ")
                && free.reason.ends_with(">= failure rate 0: approved"),
            "{}",
            free.reason
        );
        let forced = decide(
            3,
            "ORD-ABCDEFGH",
            1,
            0.0,
            Some((Forced::Failure, DecidedBy::Header)),
        );
        assert!(!forced.approved);
        assert_eq!(forced.rule, DecidedBy::Header);
        assert_eq!(forced.draw, free.draw);
        assert!(
            forced
                .reason
                .starts_with("forced declined by the X-Sim-Outcome header"),
            "{}",
            forced.reason
        );
        let next = decide(
            3,
            "ORD-ABCDEFGH",
            1,
            1.0,
            Some((Forced::Success, DecidedBy::ForcedNext)),
        );
        assert!(next.approved && next.reason.contains("forceNext"));
    }

    #[test]
    fn forcing_words_parse_in_any_case_and_nothing_else() {
        assert_eq!(Forced::parse("FAILURE"), Some(Forced::Failure));
        assert_eq!(Forced::parse(" success "), Some(Forced::Success));
        assert_eq!(Forced::parse("fail"), None);
    }
}
