//! The counters of a snapshot read back: every count checked, and the
//! parts made to agree (the histograms with their buckets, the running
//! share with the attempts), refused naming the first bad field. Here, with
//! the snapshot's other readers and their field helpers, rather than in
//! `observe`, which keeps the counting and the writing.

use crate::prelude::*;

use alloc::borrow::Cow;

use super::fields::{array_at, expected, member, missing, out_of, safe_count, safe_count_in};
use crate::json::message::{msg, At, Path, Place};
use crate::json::Json;
use crate::observe::counters::{
    tally, Histogram, RouteCount, BUCKETS, CHANGES, CLASSES, EDGES_MS, MAX_ROWS, RULES,
    RUNNING_POINTS,
};
use crate::observe::Counters;
use crate::sim::invalid::Invalid;
use crate::sim::scenario::document::KINDS;
use crate::sim::third_party::DecidedBy;

impl Counters {
    /// The counters from a snapshot's `counters` field, written by `write`.
    /// Text from outside: every count is checked, and the parts must agree
    /// (the histogram's counts with its buckets, the running share with
    /// the attempts), or the first bad field is named under `at`.
    pub fn read(v: &Json, at: &str) -> Result<Counters, Invalid> {
        let at: &dyn Place = &at;
        let requests = safe_count_in(v, at, "requests")?;
        let mut c = Counters::default();
        c.requests = requests;
        c.read_by_route(v, at)?;
        c.read_payments(member(v, at, "payments")?, &Path(at, "payments"))?;
        c.read_durations(member(v, at, "durations")?, &Path(at, "durations"))?;
        if v.get("replays").is_some() {
            c.replays = safe_count_in(v, at, "replays")?;
        }
        if let Some(faults) = v.get("faults") {
            c.read_faults(faults, &Path(at, "faults"))?;
        }
        let complete = member(v, at, "complete")?;
        c.complete = complete
            .as_bool()
            .ok_or_else(|| expected(&Path(at, "complete"), "true or false"))?;
        Ok(c)
    }

    /// `byRoute`: at most `MAX_ROWS` rows, none twice, whose counts add up
    /// to the requests.
    fn read_by_route(&mut self, v: &Json, at: &dyn Place) -> Result<(), Invalid> {
        let rows_at = Path(at, "byRoute");
        let rows = array_at(member(v, at, "byRoute")?, &rows_at)?;
        if rows.len() > MAX_ROWS {
            return Err(out_of(
                &rows_at,
                msg!("at most ", MAX_ROWS, " rows, got ", rows.len()),
            ));
        }
        for (i, row) in rows.iter().enumerate() {
            let here = At(&rows_at, i);
            let row = read_row(row, &here)?;
            let again = self.by_route.iter().any(|r| {
                (r.route.as_deref(), r.http_status, r.code)
                    == (row.route.as_deref(), row.http_status, row.code)
            });
            if again {
                return Err(out_of(&here, "given more than once"));
            }
            self.by_route.push(row);
        }
        let routed: u64 = self.by_route.iter().map(|r| r.count).sum();
        if routed != self.requests {
            return Err(out_of(
                &rows_at,
                msg!(
                    "counts add up to ",
                    routed,
                    ", not requests ",
                    self.requests
                ),
            ));
        }
        Ok(())
    }

    /// `payments`: the decisions by rule, the totals that must be their
    /// sums, and the running count.
    fn read_payments(&mut self, payments: &Json, pay_at: &dyn Place) -> Result<(), Invalid> {
        let rules_at = Path(pay_at, "byRule");
        let rules = member(payments, pay_at, "byRule")?;
        for (rule, d) in RULES.iter().zip(self.by_rule.iter_mut()) {
            let here = Path(&rules_at, rule.as_str());
            // A snapshot written before scenarios were counted apart has
            // no `scenario`: none then.
            // Nor `card` before test cards, or while none decided one.
            let optional = matches!(rule, DecidedBy::Scenario | DecidedBy::Card);
            if optional && rules.get(rule.as_str()).is_none() {
                continue;
            }
            let o = member(rules, &rules_at, rule.as_str())?;
            d.approved = safe_count_in(o, &here, "approved")?;
            d.declined = safe_count_in(o, &here, "declined")?;
        }
        if let Some(changes) = payments.get("changes") {
            let at = Path(pay_at, "changes");
            for (name, n) in CHANGES.iter().zip(self.changes.iter_mut()) {
                *n = safe_count_in(changes, &at, name)?;
            }
        }
        for (name, n) in [
            ("attempts", self.attempts()),
            ("approved", self.approved()),
            ("declined", self.declined()),
        ] {
            let given = safe_count_in(payments, pay_at, name)?;
            if given != n {
                return Err(out_of(
                    &Path(pay_at, name),
                    msg!("must equal the sum over byRule, ", n, ", got ", given),
                ));
            }
        }
        self.read_running(payments, &Path(pay_at, "running"))
    }

    /// `faults`: counts above 0 by kind (one of `KINDS`) and by rule,
    /// each named once, at most `MAX_ROWS`.
    #[inline(never)]
    fn read_faults(&mut self, faults: &Json, at: &dyn Place) -> Result<(), Invalid> {
        let lists = [
            ("byKind", &mut self.faults_by_kind),
            ("byRule", &mut self.faults_by_rule),
        ];
        for (name, list) in lists {
            let here = Path(at, name);
            let members = member(faults, at, name)?;
            let members = members
                .as_object()
                .ok_or_else(|| expected(&here, "an object"))?;
            for (key, v) in members {
                let n = safe_count(v, &Path(&here, key))?;
                let known = name == "byRule" || KINDS.contains(&&**key);
                if n == 0 || !known || list.iter().any(|(k, _)| **k == **key) {
                    return Err(out_of(&Path(&here, key), "unknown, repeated or 0"));
                }
                tally(list, key, n);
            }
        }
        Ok(())
    }

    /// `durations`: the bucket edges this service counts in, then a
    /// histogram per service.
    fn read_durations(&mut self, durations: &Json, dur_at: &dyn Place) -> Result<(), Invalid> {
        let edges_at = Path(dur_at, "edgesMs");
        let edges = array_at(member(durations, dur_at, "edgesMs")?, &edges_at)?;
        let same = edges.len() == EDGES_MS.len()
            && edges
                .iter()
                .zip(EDGES_MS)
                .all(|(e, m)| e.as_u64() == Some(m));
        if !same {
            return Err(out_of(
                &edges_at,
                "must be the buckets this service counts in",
            ));
        }
        for (class, h) in CLASSES.iter().zip(self.durations.iter_mut()) {
            *h = read_histogram(
                member(durations, dur_at, class.as_str())?,
                &Path(dur_at, class.as_str()),
            )?;
        }
        Ok(())
    }

    fn read_running(&mut self, payments: &Json, at: &dyn Place) -> Result<(), Invalid> {
        let running = payments.get("running").ok_or_else(|| missing(at))?;
        let every_at = Path(at, "every");
        self.every = safe_count_in(running, at, "every")?;
        if !self.every.is_power_of_two() {
            return Err(out_of(
                &every_at,
                msg!("must be a power of two, got ", self.every),
            ));
        }
        let points_at = Path(at, "approved");
        let points = array_at(member(running, at, "approved")?, &points_at)?;
        let attempts = self.attempts();
        let expected = attempts / self.every;
        let fits = usize::try_from(expected).is_ok_and(|n| n == points.len())
            && points.len() <= RUNNING_POINTS
            && (self.every == 1 || points.len() >= RUNNING_POINTS / 2);
        if !fits {
            return Err(out_of(
                &points_at,
                msg!(
                    points.len(),
                    " points do not fit ",
                    attempts,
                    " attempts every ",
                    self.every
                ),
            ));
        }
        let mut last = 0;
        for (i, p) in points.iter().enumerate() {
            let here = At(&points_at, i);
            let n = safe_count(p, &here)?;
            let after = (i as u64 + 1) * self.every;
            if n < last || n > after || n - last > self.every || n > self.approved() {
                return Err(out_of(
                    &here,
                    msg!(
                        n,
                        " approvals cannot follow ",
                        last,
                        " within ",
                        after,
                        " attempts"
                    ),
                ));
            }
            last = n;
            self.running.push(n);
        }
        Ok(())
    }
}

fn read_row(row: &Json, at: &dyn Place) -> Result<RouteCount, Invalid> {
    let text = |name: &str| -> Result<Option<Cow<'static, str>>, Invalid> {
        match member(row, at, name)? {
            Json::Null => Ok(None),
            Json::Str(s) if s.len() <= 64 => Ok(Some(Cow::Owned(s.to_string()))),
            Json::Str(_) => Err(out_of(&Path(at, name), "longer than 64 bytes")),
            _ => Err(expected(&Path(at, name), "a string or null")),
        }
    };
    let route = text("route")?;
    let http_status = member(row, at, "httpStatus")?
        .as_u64()
        // 0: no answer at all, a scenario's network fault.
        .filter(|s| *s == 0 || (100..=599).contains(s))
        .ok_or_else(|| {
            out_of(
                &Path(at, "httpStatus"),
                "must be an HTTP status, 100 to 599",
            )
        })?;
    let code = member(row, at, "code")?
        .as_i64()
        .and_then(|c| i32::try_from(c).ok())
        .ok_or_else(|| out_of(&Path(at, "code"), "must be a whole number"))?;
    Ok(RouteCount {
        route,
        http_status: http_status as u16,
        code,
        count: safe_count_in(row, at, "count")?,
    })
}

fn read_histogram(v: &Json, at: &dyn Place) -> Result<Histogram, Invalid> {
    let mut h = Histogram {
        count: safe_count_in(v, at, "count")?,
        sum_ms: member(v, at, "sumMs")?
            .as_u64()
            .ok_or_else(|| expected(&Path(at, "sumMs"), "a whole number"))?,
        max_ms: safe_count_in(v, at, "maxMs")?,
        ..Histogram::default()
    };
    let buckets_at = Path(at, "buckets");
    let buckets = array_at(member(v, at, "buckets")?, &buckets_at)?;
    if buckets.len() != BUCKETS {
        return Err(out_of(
            &buckets_at,
            msg!("must have ", BUCKETS, " buckets, got ", buckets.len()),
        ));
    }
    for (i, (b, slot)) in buckets.iter().zip(h.buckets.iter_mut()).enumerate() {
        *slot = safe_count(b, &At(&buckets_at, i))?;
    }
    let total: u64 = h.buckets.iter().sum();
    if total != h.count {
        return Err(out_of(
            &Path(at, "count"),
            msg!("must equal the buckets' sum, ", total, ", got ", h.count),
        ));
    }
    Ok(h)
}
