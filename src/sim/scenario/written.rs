//! A scenario as JSON text: its document as given and where it stands,
//! for the `scenario` read; and a failure as answers report it.

use alloc::rc::Rc;

use super::document::{
    Phase, Then, DECLINE_CODES, HTTP_STATUSES, MAX_MS, MAX_RETRY_AFTER, NETWORK_FAULTS,
};
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
        match self.then {
            Then::Decline { code } => {
                out.key("code");
                out.str(code);
            }
            Then::Timeout { after_ms: ms } | Then::Delay { ms } => uint(out, "ms", ms),
            Then::ProcessorError { status } => uint(out, "status", u64::from(status)),
            Then::Http {
                status,
                retry_after,
            } => {
                uint(out, "status", u64::from(status));
                if matches!(status, 429 | 503) {
                    uint(out, "retryAfter", retry_after);
                }
            }
            Then::Network { fault, ms, phase } => {
                out.key("fault");
                out.str(fault);
                uint(out, "ms", ms);
                out.key("phase");
                out.str(phase.as_str());
            }
        }
        out.end_object();
    }

    /// The failure `write` wrote (a log record's `fault`), read back;
    /// `None` for anything `write` would not write.
    pub fn read(v: &Json) -> Option<Fault> {
        let rule = match v.get("rule")? {
            Json::Null => None,
            r => Some(Rc::from(r.as_str()?)),
        };
        let n = |key, most| v.get(key)?.as_u64().filter(|n| *n <= most);
        let word = |key, words: &[&'static str]| {
            let given = v.get(key)?.as_str()?;
            words.iter().find(|w| **w == given).copied()
        };
        let status = |from, to| n("status", to).filter(|s| *s >= from).map(|s| s as u16);
        let then = match v.get("kind")?.as_str()? {
            "decline" => Then::Decline {
                code: word("code", &DECLINE_CODES)?,
            },
            "timeout" => Then::Timeout {
                after_ms: n("ms", MAX_MS)?,
            },
            "delay" => Then::Delay { ms: n("ms", MAX_MS)? },
            "processor_error" => Then::ProcessorError {
                status: status(500, 599)?,
            },
            "http" => Then::Http {
                status: status(429, 504).filter(|s| HTTP_STATUSES.contains(s))?,
                retry_after: n("retryAfter", MAX_RETRY_AFTER).unwrap_or(1),
            },
            "network" => Then::Network {
                fault: word("fault", &NETWORK_FAULTS)?,
                ms: n("ms", MAX_MS)?,
                phase: match word("phase", &["request", "response"])? {
                    "request" => Phase::Request,
                    _ => Phase::Response,
                },
            },
            _ => return None,
        };
        // No member more than `write` writes (a retryAfter on a 502, a
        // key twice, another key).
        let members = match then {
            Then::Http { status, .. } if matches!(status, 429 | 503) => 4,
            Then::Network { .. } => 5,
            _ => 3,
        };
        (v.as_object()?.len() == members).then_some(Fault { rule, then })
    }
}
