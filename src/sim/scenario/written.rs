//! A scenario as JSON text: its document as read (given fields, and each
//! `then` with its defaults filled in), and where it stands, for the
//! `scenario` read and for snapshots.

use crate::prelude::*;

use super::document::{Document, Rule, Then, When};
use super::Scenario;
use crate::json::write::Out;

impl Document {
    /// The document, as `parse` reads it back.
    pub fn write(&self, out: &mut Out) {
        out.begin_object();
        if let Some(name) = &self.name {
            out.key("name");
            out.str(name);
        }
        out.key("rules");
        out.begin_array();
        for rule in &self.rules {
            write_rule(rule, out);
        }
        out.end_array();
        out.end_object();
    }
}

fn write_rule(rule: &Rule, out: &mut Out) {
    out.begin_object();
    if rule.named {
        out.key("name");
        out.str(&rule.name);
    }
    if rule.when != When::default() {
        out.key("when");
        write_when(&rule.when, out);
    }
    out.key("then");
    write_then(&rule.then, out);
    out.end_object();
}

fn write_when(w: &When, out: &mut Out) {
    out.begin_object();
    let text = |out: &mut Out, key: &str, v: &Option<String>| {
        if let Some(v) = v {
            out.key(key);
            out.str(v);
        }
    };
    text(out, "route", &w.route);
    text(out, "method", &w.method.map(str::to_owned));
    text(out, "userId", &w.user_id);
    text(out, "paymentMethod", &w.payment_method);
    if let Some(amount) = w.amount {
        out.key("amount");
        out.num(amount);
    }
    text(out, "orderId", &w.order_id);
    if let Some((name, value)) = &w.header {
        out.key("header");
        out.begin_object();
        out.key("name");
        out.str(name);
        out.key("value");
        out.str(value);
        out.end_object();
    }
    write_conditions(w, out);
    out.end_object();
}

fn write_conditions(w: &When, out: &mut Out) {
    let count = |out: &mut Out, key: &str, v: Option<u64>| {
        if let Some(v) = v {
            out.key(key);
            out.uint(v);
        }
    };
    count(out, "nth", w.nth);
    count(out, "every", w.every);
    if let Some((from, to)) = w.calls {
        out.key("calls");
        out.begin_object();
        out.key("from");
        out.uint(from);
        out.key("to");
        out.uint(to);
        out.end_object();
    }
    for (key, v) in [("from", w.from), ("until", w.until)] {
        if let Some(v) = v {
            out.key(key);
            out.int(v);
        }
    }
    count(out, "forMs", w.for_ms);
    if let Some(p) = w.probability {
        out.key("probability");
        out.num(p);
    }
    count(out, "times", w.times);
}

fn write_then(then: &Then, out: &mut Out) {
    out.begin_object();
    out.key("kind");
    out.str(then.kind());
    let mut uint = |key: &str, v: u64| {
        out.key(key);
        out.uint(v);
    };
    match *then {
        Then::Decline { code } => {
            out.key("code");
            out.str(code);
        }
        Then::Timeout { after_ms } => uint("afterMs", after_ms),
        Then::ProcessorError { status } => uint("status", u64::from(status)),
        Then::Http {
            status,
            retry_after,
        } => {
            uint("status", u64::from(status));
            uint("retryAfter", retry_after);
        }
        Then::Delay { ms } => uint("ms", ms),
        Then::Network { fault, ms, phase } => {
            out.key("fault");
            out.str(fault);
            out.key("ms");
            out.uint(ms);
            out.key("phase");
            out.str(phase.as_str());
        }
    }
    out.end_object();
}

impl Scenario {
    /// `{document, setAt, rules: [{name, seen, fired}]}`: what the
    /// `scenario` read gives.
    pub fn write(&self, out: &mut Out) {
        out.begin_object();
        out.key("document");
        self.doc.write(out);
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

impl super::Fault {
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
}
