// Each payment's states over time (REQUIRES_ACTION → SUCCESS, PENDING →
// FAILED, SUCCESS → FAILED by a reversal), read from the records: the
// pay's answer gives the first state, each `stage: "payment"` record a
// change with its cause (a scenario's rule, a test card, the buyer, the
// clock), and the pay's service record what is planned and when it is due.
// The Simulation panel, the object pages and the answers all draw from here.
import { clock } from "./dom.js";

/** The statuses that still wait for something: the buyer, or the service's clock. */
export const OPEN = new Set(["REQUIRES_ACTION", "PENDING"]);

const PAY_PATH = /^\/api\/payment\/pay(\?|$)/;
const READ_PATH = /^\/api\/payment\/(PAY-[A-Z0-9]+)$/;

/**
 * paymentId → `{ id, orderId, amount, nextAction, states: [{ status, at,
 * cause, failureCode, failureReason, key }], plan: { kind, dueAt, to } |
 * null, status }`, oldest state first.
 */
export function paymentStates(store) {
  const out = new Map();
  for (const [key, ex] of store.exchanges) {
    const data = ex.envelope?.data;
    if (ex.envelope?.code !== 0 || typeof data?.paymentId !== "string" || typeof data.status !== "string") continue;
    if (PAY_PATH.test(ex.path)) paid(out, store, key, data);
  }
  const changes = store.requests.changes ?? [];
  const fromRecords = new Set();
  for (const r of changes) {
    if (typeof r.paymentId !== "string") continue;
    fromRecords.add(r.paymentId);
    changed(out, r);
  }
  // Without the records (a package that writes none), what the page saw itself: its reads and the buyer's clicks.
  for (const seen of store.observed ?? []) {
    if (!fromRecords.has(seen.paymentId)) observed(out, seen);
  }
  for (const p of out.values()) settle(p, store.now);
  return out;
}

/** The payments still waiting for something, soonest due first (those waiting for the buyer last). */
export function inProgress(states) {
  return [...states.values()].filter((p) => OPEN.has(p.status) || p.plan)
    .sort((a, b) => (a.plan?.dueAt ?? Infinity) - (b.plan?.dueAt ?? Infinity) || a.id.localeCompare(b.id));
}

/** The pay's answer: the first state, with what decided it (its service record's outcome) and what it planned. */
function paid(out, store, key, data) {
  const req = store.requests.byKey.get(key);
  const outcome = req?.service?.outcome ?? null;
  const p = entry(out, data.paymentId);
  p.orderId = data.orderId;
  p.amount = data.amount;
  p.nextAction = data.nextAction ?? p.nextAction ?? null;
  p.payKey = key;
  p.traceId = req?.traceId ?? null;
  p.states.unshift({ status: data.status, at: data.paidAt ?? req?.timestamp ?? null, cause: causeOfPay(outcome), failureCode: data.failureCode, failureReason: data.failureReason, key });
  p.planned = planOf(outcome);
}

/** A `stage: "payment"` record: one change of state. */
function changed(out, r) {
  const p = entry(out, r.paymentId);
  if (!p.states.length && r.from) p.states.push({ status: r.from, at: null, cause: null, key: null });
  p.traceId ??= r.traceId;
  p.states.push({ status: r.to, at: r.timestamp, cause: r.cause ?? null, failureCode: r.failureCode, failureReason: r.failureReason, key: null, seq: r.seq });
}

function observed(out, seen) {
  const p = entry(out, seen.paymentId);
  if (p.states.at(-1)?.status === seen.status) return;
  p.states.push({ status: seen.status, at: seen.at, cause: seen.cause, failureCode: seen.failureCode, failureReason: seen.failureReason, key: seen.key ?? null });
}

function entry(out, id) {
  if (!out.has(id)) out.set(id, { id, orderId: null, amount: null, nextAction: null, states: [], planned: null, plan: null, status: null });
  return out.get(id);
}

/** The status now, and the change still to come (a plan is spent once a change has been made after the pay). */
function settle(p, now) {
  // The records' changes came after the pay's answer, whatever order they were read in.
  p.states.sort((a, b) => (a.at ?? -Infinity) - (b.at ?? -Infinity) || (a.key ? -1 : 0) - (b.key ? -1 : 0));
  p.status = p.states.at(-1)?.status ?? null;
  const planned = p.planned;
  const stillFirst = p.states.length === 1;
  p.plan = planned && stillFirst && typeof planned.dueAt === "number" ? { ...planned, overdue: typeof now === "number" && planned.dueAt <= now } : null;
  // A challenge that waits for the buyer has no due time: it is in progress all the same.
  if (!p.plan && planned && stillFirst && p.status === "REQUIRES_ACTION") p.plan = { ...planned, dueAt: null };
}

/** What the pay's outcome planned: `outcome.async` ({ kind, dueAt, outcome?, to? }), or null. */
function planOf(outcome) {
  const a = outcome?.async;
  if (!a || typeof a !== "object") return null;
  return { kind: a.kind ?? "?", dueAt: typeof a.dueAt === "number" ? a.dueAt : null, outcome: a.outcome ?? null, to: a.to ?? null, code: a.code ?? null };
}

/** The cause of the pay's own state: the rule its outcome names. */
function causeOfPay(outcome) {
  if (!outcome) return null;
  if (outcome.rule === "scenario") return { rule: "scenario", scenarioRule: outcome.scenarioRule ?? null };
  if (outcome.rule === "card") return { rule: "card", card: outcome.card ?? null };
  return { rule: outcome.rule ?? "draw" };
}

/** A cause in words: `scenario rule "challenge-all"`, `test card 4000 0025 0000 3155`, `the buyer`, `the service's clock`. */
export function causeText(cause) {
  if (!cause) return "";
  switch (cause.rule) {
    case "scenario": return `scenario rule "${cause.scenarioRule ?? "?"}"`;
    case "card": return `test card ${spaced(cause.card)}`;
    case "buyer": return "the buyer, on the challenge page";
    case "clock": return "the service's clock";
    case "draw": return "the seeded draw";
    case "header": return "the X-Sim-Outcome header";
    case "forced-next": return "forceNext";
    default: return String(cause.rule ?? "");
  }
}

/** "4000002500003155" → "4000 0025 0000 3155". */
export function spaced(card) {
  return String(card ?? "?").replace(/\s+/g, "").replace(/(\d{4})(?=\d)/g, "$1 ");
}

/** "in 18 s (at 12:00:30)", "due now", or "" without a due time. */
export function dueText(dueAt, now) {
  if (typeof dueAt !== "number") return "";
  const at = clock(dueAt).slice(0, 8);
  if (typeof now !== "number") return `at ${at}`;
  const left = dueAt - now;
  if (left <= 0) return `due now (at ${at}): resolved by the next request or advance`;
  return `in ${duration(left)} (at ${at})`;
}

/** 1500 → "1.5 s", 90000 → "1 min 30 s". */
export function duration(ms) {
  if (ms < 60000) return `${Number((ms / 1000).toFixed(ms < 10000 ? 1 : 0))} s`;
  const min = Math.floor(ms / 60000);
  const s = Math.round((ms % 60000) / 1000);
  return s ? `${min} min ${s} s` : `${min} min`;
}

/** What the plan will do, in words: "becomes SUCCESS", "becomes FAILED (insufficient_funds)". */
export function planText(plan, status) {
  if (!plan) return "";
  const to = plan.to ?? (plan.kind === "reversal" ? "FAILED" : plan.outcome === "fail" || plan.outcome === "abandon" ? "FAILED" : "SUCCESS");
  const code = to === "FAILED" && plan.code ? ` (${plan.code})` : "";
  if (plan.kind === "challenge" && plan.dueAt === null) return "waits for the buyer: complete, fail or cancel its challenge";
  if (plan.kind === "reversal") return `reversed: ${status} becomes FAILED${code}`;
  return `becomes ${to}${code}`;
}

/** The page's own reads of a payment (GET /api/payment/{id}) since `key`: what an app polling it saw. */
export function readsOf(store, id) {
  const out = [];
  for (const ex of store.exchanges.values()) {
    const m = READ_PATH.exec(ex.path);
    if (m && m[1] === id && ex.envelope?.code === 0) out.push(ex.envelope.data.status);
  }
  return out;
}
