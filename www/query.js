// The request list's search: free text with field filters, as in DevTools'
// Network panel or a log store's query bar.
//
//   status:400 -method:GET msg:"not found" duration:>100 time:>12:30 declined
//
// A term is `field:value`, `-field:value` (not), or a bare word, which
// matches anywhere (method, path, msg, user, ids, trace id). Numbers take
// `>`, `>=`, `<`, `<=` or a range `a..b`; `status:4xx` takes a class.
// Each request gets its lower-case text and fields once (`prepare`), so a
// keystroke only compares; a query that only narrows the last one (a word
// typed further) filters the last results instead of everything.

import { faultOf, isReplay } from "./faults.js";

/** Each text field's value, read once per request by `prepare` and kept in lower case. */
const TEXT_FIELDS = {
  method: (r) => r.method,
  path: (r) => r.fullPath ?? r.uri,
  uri: (r) => r.fullPath ?? r.uri,
  msg: (r) => r.msg,
  user: (r) => r.userId,
  trace: (r) => r.traceId,
  id: (r) => r.ids,
  kind: (r) => r.kind,
  class: (r) => r.event_class,
  group: (r) => r.uri_group,
  outcome: (r) => r.service?.outcome?.rule,
  // What a scenario did: the rule that fired, its failure's kind, a decline's code; a replayed answer.
  rule: (r) => r.fault?.rule,
  fault: (r) => r.fault?.kind,
  decline: (r) => r.fault?.code ?? r.service?.outcome?.declineCode,
  replay: (r) => (r.replay ? "replayed" : null),
};
const lower = (v) => (v === null || v === undefined ? null : String(v).toLowerCase());
const NUMBER_FIELDS = {
  status: (r) => r.httpStatus,
  code: (r) => r.code,
  duration: (r) => r.duration,
  seq: (r) => r.seq,
};
export const FIELDS = [...Object.keys(TEXT_FIELDS), ...Object.keys(NUMBER_FIELDS), "time"];

/** Words and quoted phrases: `a "b c" d:"e f"`. */
function tokens(text) {
  return [...String(text).matchAll(/(-?)([a-z_]+:)?("([^"]*)"?|\S+)/gi)].map((m) => ({
    not: m[1] === "-",
    field: m[2] ? m[2].slice(0, -1).toLowerCase() : null,
    value: (m[4] ?? m[3]).toLowerCase(),
    quoted: m[4] !== undefined,
  }));
}

/**
 * Parses a query. Returns `{terms, errors}`; a term has `test(request)`, and
 * `narrows`: whether a longer value only ever matches fewer requests.
 */
export function parse(text) {
  const terms = [];
  const errors = [];
  for (const t of tokens(text)) {
    if (t.field && !FIELDS.includes(t.field)) {
      // Not a field we know: "abc:def" is searched as text.
      terms.push(textTerm(t, null, `${t.field}:${t.value}`));
      continue;
    }
    if (t.value === "" && !t.quoted) continue; // "status:" while typing
    if (t.field && NUMBER_FIELDS[t.field]) {
      const test = numberTest(t.value, t.field === "status");
      if (!test) { errors.push(`${t.field}: "${t.value}" is not a number, a comparison (>100) or a range (100..200)`); continue; }
      const get = NUMBER_FIELDS[t.field];
      terms.push({ ...t, narrows: false, test: (r) => { const v = get(r); return typeof v === "number" && test(v); } });
    } else if (t.field === "time") {
      const test = timeTest(t.value);
      if (!test) { errors.push(`time: "${t.value}" is not a time of day (12:30, 12:30:05), a comparison (>12:30) or a range (12:00..12:30)`); continue; }
      terms.push({ ...t, narrows: false, test: (r) => typeof r.timestamp === "number" && test(r.timestamp) });
    } else {
      terms.push(textTerm(t, t.field, t.value));
    }
  }
  for (const term of terms) {
    if (term.not) {
      const inner = term.test;
      term.test = (r) => !inner(r);
      term.narrows = false;
    }
  }
  return { terms, errors };
}

function textTerm(t, field, value) {
  const test = field
    ? (r) => { const v = r.lc[field]; return v !== null && v.includes(value); }
    : (r) => r.text.includes(value);
  return { ...t, value, narrows: true, test };
}

/** 400, >=400, <50, 100..200, 4xx (for status). */
function numberTest(v, allowClass) {
  const num = (s) => (/^-?\d+(\.\d+)?$/.test(s) ? Number(s) : NaN);
  let m;
  if (allowClass && (m = /^([1-5])xx$/.exec(v))) { const lo = Number(m[1]) * 100; return (x) => x >= lo && x < lo + 100; }
  if ((m = /^(>=|<=|>|<)(.+)$/.exec(v))) {
    const n = num(m[2]);
    if (Number.isNaN(n)) return null;
    return { ">": (x) => x > n, ">=": (x) => x >= n, "<": (x) => x < n, "<=": (x) => x <= n }[m[1]];
  }
  if ((m = /^(.+)\.\.(.+)$/.exec(v))) {
    const a = num(m[1]), b = num(m[2]);
    if (Number.isNaN(a) || Number.isNaN(b)) return null;
    return (x) => x >= Math.min(a, b) && x <= Math.max(a, b);
  }
  const n = num(v);
  return Number.isNaN(n) ? null : (x) => x === n;
}

/** A time of day in this browser's zone, to the second: "12:30", "12:30:05". */
function timeTest(v) {
  const secs = (s) => {
    const m = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(s);
    if (!m || Number(m[1]) > 23 || Number(m[2]) > 59 || Number(m[3] ?? 0) > 59) return null;
    return { at: Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3] ?? 0), whole: m[3] === undefined ? 60 : 1 };
  };
  const of = (ms) => { const d = new Date(ms); return d.getHours() * 3600 + d.getMinutes() * 60 + d.getSeconds(); };
  let m;
  if ((m = /^(>=|<=|>|<)(.+)$/.exec(v))) {
    const t = secs(m[2]);
    if (!t) return null;
    return { ">": (x) => of(x) >= t.at + t.whole, ">=": (x) => of(x) >= t.at, "<": (x) => of(x) < t.at, "<=": (x) => of(x) < t.at + t.whole }[m[1]];
  }
  if ((m = /^(.+)\.\.(.+)$/.exec(v))) {
    const a = secs(m[1]), b = secs(m[2]);
    if (!a || !b) return null;
    return (x) => of(x) >= a.at && of(x) < b.at + b.whole;
  }
  const t = secs(v);
  return t ? (x) => { const s = of(x); return s >= t.at && s < t.at + t.whole; } : null;
}

/** The searchable text of a request, once: everything a bare word may match. */
export function prepare(r, exchange) {
  // Prepared again once the page's own exchange of it is here (live, its records may come before its answer).
  if (r.text !== undefined && r.textFor === r.response && (!exchange || r.exchangeFor === exchange)) return;
  const ids = new Set();
  const found = (s) => { for (const m of String(s ?? "").matchAll(/\b(?:ORD|PAY)-[A-Z0-9]{8}\b/g)) ids.add(m[0]); };
  found(r.uri);
  if (exchange) {
    r.fullPath = exchange.path;
    found(exchange.path);
    found(exchange.body);
    const data = exchange.envelope?.data;
    if (data && typeof data === "object") {
      found(data.orderId);
      found(data.paymentId);
      // A test-data request names the orders it made.
      if (Array.isArray(data.orderIds)) for (const id of data.orderIds) found(id);
    }
  }
  r.ids = [...ids].join(" ");
  // What a scenario did, from this page's own answer where the log record does not say.
  r.fault ??= faultOf(exchange);
  if (!r.replay && isReplay(exchange)) r.replay = true;
  r.lc = {};
  for (const [field, get] of Object.entries(TEXT_FIELDS)) r.lc[field] = lower(get(r));
  r.text = [r.method, r.fullPath ?? r.uri, r.httpStatus, r.code, r.msg, r.userId, r.traceId, r.ids, r.kind, r.event_class, r.lc.rule, r.lc.fault, r.lc.decline, r.lc.replay]
    .filter((v) => v !== null && v !== undefined).join(" ").toLowerCase();
  r.textFor = r.response;
  r.exchangeFor = exchange;
}

/**
 * Runs queries over the requests, newest first, in slices of a few
 * milliseconds: the first slice finds the newest matches to draw, the rest
 * go on between frames, so no keystroke holds the page, however many
 * requests there are. A new query cancels the one under way. When the new
 * query only narrows the last finished one (the same terms, the last word
 * typed further, or a term added), it filters the last results rather than
 * everything.
 */
export class Search {
  #last = null; // the last search to finish: { source, version, terms, results (newest first) }
  #job = 0;

  /**
   * `all`: requests oldest first; `version` changes whenever `all` does.
   * `prepare(request)` makes a request's search text when it has none yet,
   * as the search reaches it: after a load of 100,000 requests, that work
   * too is spread over the slices.
   * `onProgress({results, done, errors, incremental})` is called after each
   * slice, with the matches so far, newest first.
   */
  start(all, query, version, onProgress, { prepare: ready = () => {}, budgetMs = 4 } = {}) {
    const job = ++this.#job;
    const { terms, errors } = parse(query);
    // Narrowing is measured against the last search that finished: one cut short by
    // this keystroke (the machine was busy) is no base, its predecessor still is.
    const last = this.#last;
    const incremental = last !== null && last.source === all && last.version === version && narrows(last.terms, terms);
    const from = incremental ? last.results : all;
    const n = from.length;
    const at = incremental ? (i) => from[i] : (i) => from[n - 1 - i];
    const results = [];
    const state = { source: all, version, terms, results };
    let i = 0;
    const slice = () => {
      if (job !== this.#job) return;
      const until = performance.now() + budgetMs;
      while (i < n) {
        const r = at(i++);
        ready(r);
        let ok = true;
        for (const t of terms) if (!t.test(r)) { ok = false; break; }
        if (ok) results.push(r);
        if ((i & 63) === 0 && performance.now() > until) break;
      }
      const done = i >= n;
      if (done) this.#last = state;
      onProgress({ results, done, errors, incremental });
      if (!done) setTimeout(slice, 0);
    };
    slice();
  }

  /** Forgets the last results (the requests were replaced). */
  reset() {
    this.#job++;
    this.#last = null;
  }
}

/** Whether `next` only narrows `prev`: every old term kept, the last one's value maybe longer, new terms added. */
function narrows(prev, next) {
  if (next.length < prev.length) return false;
  return prev.every((p, i) => {
    const n = next[i];
    if (p.not !== n.not || p.field !== n.field) return false;
    if (p.value === n.value && p.quoted === n.quoted) return true;
    return p.narrows && n.narrows && n.value.includes(p.value);
  });
}
