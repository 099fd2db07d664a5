//! A scenario as JSON text: its document as given and where it stands,
//! for the `scenario` read; a failure as answers report it; and a
//! delivery fault as an attempt's record reports it.

use alloc::rc::Rc;

use super::delivery::{Delivery, DeliveryFault, Order};
use super::document::Then;
use super::{Fault, Scenario};
use crate::json::read::Json;
use crate::json::write::Out;

impl Scenario {
    /// `{document, setAt, rules: [{name, seen, fired}]}`: what the
    /// `scenario` read gives.
    pub fn write(&self, out: &mut Out) {
        out.begin_object();
        out.key("document");
        out.raw(self.text.trim());
        out.key("setAt");
        out.int(self.progress.set_at);
        out.key("rules");
        out.begin_array();
        let counts = self.progress.counts.iter();
        for (rule, (seen, fired)) in self.doc.rules.iter().zip(counts) {
            out.begin_object();
            out.key("name");
            out.str(&rule.name);
            out.key("seen");
            out.uint(*seen);
            out.key("fired");
            out.uint(*fired);
            out.end_object();
        }
        out.end_array();
        out.end_object();
    }
}

impl Fault {
    /// `{kind, rule, …}`: the failure as answers and records report it,
    /// with what its kind carries (`code`, `status`, `retryAfter`, `ms`,
    /// and a network fault's `fault` and `phase`).
    pub fn write(&self, out: &mut Out) {
        out.begin_object();
        out.key("kind");
        out.str(self.then.kind());
        out.key("rule");
        out.opt_str(self.rule.as_deref());
        let uint = |out: &mut Out, key: &str, v: u64| {
            out.key(key);
            out.uint(v);
        };
        match &self.then {
            Then::Decline { code } => {
                out.key("code");
                out.str(code);
            }
            &Then::Timeout { after_ms: ms } | &Then::Delay { ms } => uint(out, "ms", ms),
            Then::ProcessorError { status } => uint(out, "status", u64::from(*status)),
            &Then::Http {
                status,
                retry_after,
            } => {
                uint(out, "status", u64::from(status));
                if matches!(status, 429 | 503) {
                    uint(out, "retryAfter", retry_after);
                }
            }
            &Then::Network { fault, ms, phase } => {
                out.key("fault");
                out.str(fault);
                uint(out, "ms", ms);
                out.key("phase");
                out.str(phase.as_str());
            }
            later => write_later(out, later),
        }
        out.end_object();
    }

    /// The failure `write` wrote (a log record's `fault`), read back as
    /// a rule's `then` is; `None` for what no rule gives.
    pub fn read(v: &Json) -> Option<Fault> {
        let rule = match v.get("rule")? {
            Json::Null => None,
            r => Some(Rc::from(r.as_str()?)),
        };
        let then = super::parse::read_then(v, &super::reading::At::Root, true).ok()?;
        (!matches!(then, Then::Delivery(_))).then_some(Fault { rule, then })
    }
}

impl DeliveryFault {
    /// `{kind, rule, …}`: the fault as an attempt's record reports it,
    /// with its kind's members as a document writes them (defaults
    /// included), and a shuffle's `seed`.
    pub fn write(&self, out: &mut Out) {
        out.begin_object();
        out.key("kind");
        out.str(self.kind.kind());
        out.key("rule");
        out.str(&self.rule);
        let mut uint = |key: &str, v: u64| {
            out.key(key);
            out.uint(v);
        };
        match self.kind {
            Delivery::Duplicate { times } => uint("times", u64::from(times)),
            Delivery::Late { ms } => uint("ms", ms),
            Delivery::StaleTimestamp { age_s } => uint("ageS", age_s),
            Delivery::Drop { attempts } => uint("attempts", u64::from(attempts)),
            Delivery::Reorder { hold, order } => {
                uint("hold", u64::from(hold));
                out.key("order");
                match order {
                    Order::Reverse => out.str("reverse"),
                    Order::Shuffle { seed } => {
                        out.str("shuffle");
                        out.key("seed");
                        out.uint(seed);
                    }
                }
            }
            Delivery::TamperedBody | Delivery::WrongSignature => {}
        }
        out.end_object();
    }

    /// The fault `write` wrote, read back; `None` for what no delivery
    /// rule gives.
    pub fn read(v: &Json) -> Option<DeliveryFault> {
        let rule = Rc::from(v.get("rule")?.as_str()?);
        match super::parse::read_then(v, &super::reading::At::Root, true).ok()? {
            Then::Delivery(kind) => Some(DeliveryFault { rule, kind }),
            _ => None,
        }
    }
}

/// The members of a `challenge`, `pending` or `reversal` after its kind
/// and rule, each as a document writes it.
fn write_later(out: &mut Out, then: &Then) {
    match then {
        Then::Challenge {
            outcome,
            after_ms,
            code,
        } => {
            if let Some(outcome) = outcome {
                out.key("outcome");
                out.str(outcome.as_str());
                out.key("afterMs");
                out.uint(*after_ms);
            }
            out.key("code");
            out.str(code);
        }
        Then::Pending { for_ms, pass, code } => {
            out.key("forMs");
            out.uint(*for_ms);
            out.key("outcome");
            out.str(if *pass { "pass" } else { "fail" });
            if !pass {
                out.key("code");
                out.str(code);
            }
        }
        Then::Reversal { after_ms, code } => {
            out.key("afterMs");
            out.uint(*after_ms);
            out.key("code");
            out.str(code);
        }
        _ => {}
    }
}
