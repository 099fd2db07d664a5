// Each payment's states over time (REQUIRES_ACTION → SUCCESS, PENDING →
// FAILED, SUCCESS → FAILED by a reversal), read from the records: the
// pay's answer gives the first state, each `stage: "payment"` record a
// change with its cause (the buyer, or the service's clock as a scenario's
// rule or a test card planned it), and the pay's service record what was
// planned (its `outcome.async`, as the core wrote it: the kind, the due
// time, the outcome and decline code) when the next change is due. The
// Simulation panel, the object pages and the answers all draw from here.
import { serviceTime } from "./service-time.js";
import { routeFor } from "./routes.js";
import { BUYER } from "./buyer-answers.js";

/** The statuses that still wait for something: the buyer, or the service's clock. */
export const OPEN = new Set(["REQUIRES_ACTION", "PENDING"]);

/**
 * paymentId → `{ id, orderId, amount, nextAction, states: [{ status, at,
 * cause, failureCode, failureReason, key }], plan: { kind, dueAt,
 * outcome, code, cause } | null, status }`, oldest state first.
 */
export function paymentStates(store) {
  const out = new Map();
  const refunds = [];
  for (const [key, ex] of store.exchanges) {
    const data = ex.envelope?.data;
    if (ex.envelope?.code !== 0) continue;
    const { route, params } = operationOf(ex);
    if (route?.operationId === "pay" && typeof data?.paymentId === "string" && typeof data.status === "string" && !replayed(store, key, ex)) paid(out, store, key, data);
    if (route?.operationId === "refund" && params.paymentId) refunds.push([params.paymentId, key]);
  }
  for (const r of store.requests.changes ?? []) {
    if (typeof r.paymentId === "string") changed(out, r);
  }
  for (const [id, key] of refunds) refunded(out, store, id, key);
  for (const p of out.values()) settle(p);
  return out;
}

/** Each kept answer's operation, found once: `{ route, params }` of the core's route table (its OpenAPI document), or {}. */
const operations = new WeakMap();

function operationOf(ex) {
  if (!operations.has(ex)) operations.set(ex, routeFor(ex.method, ex.path) ?? {});
  return operations.get(ex);
}

/** The payments still waiting for something, soonest due first (those waiting for the buyer last). */
export function inProgress(states) {
  return [...states.values()].filter((p) => OPEN.has(p.status) || p.plan)
    .sort((a, b) => (a.plan?.dueAt ?? Infinity) - (b.plan?.dueAt ?? Infinity) || a.id.localeCompare(b.id));
}

/** The pay's answer: the first state, with what decided it (its service record's outcome) and what it planned. */
function paid(out, store, key, data) {
  const req = store.requests.byKey.get(key);
  const p = entry(out, data.paymentId);
  p.orderId = data.orderId;
  p.amount = data.amount;
  p.nextAction = data.nextAction ?? p.nextAction ?? null;
  p.traceId = req?.traceId ?? null;
  p.states.unshift({ status: data.status, at: data.paidAt ?? req?.timestamp ?? null, cause: causeOfPay(req?.service?.outcome, req?.response?.fault), failureCode: data.failureCode, failureReason: data.failureReason, key });
  p.planned = planOf(req?.service?.outcome, req?.response?.fault);
}

/** Whether a pay's answer is the kept answer of an earlier one (Idempotency-Key): that one already gave the state. */
function replayed(store, key, ex) {
  return store.requests.byKey.get(key)?.response?.replay === true || ex.responseHeaders?.["idempotent-replayed"] === "true";
}

/** A `stage: "payment"` record: one change of state. */
function changed(out, r) {
  const p = entry(out, r.paymentId);
  if (!p.states.length && r.from) p.states.push({ status: r.from, at: null, cause: null, key: null });
  p.traceId ??= r.traceId;
  p.changes += 1;
  p.states.push({ status: r.to, at: r.timestamp, cause: changeCause(r.cause), failureCode: r.failureCode, failureReason: r.failureReason, key: null, seq: r.seq });
}

/** A refund the page sent, answered code 0: SUCCESS → REFUNDED. */
function refunded(out, store, id, key) {
  const p = out.get(id);
  if (!p) return;
  const at = store.requests.byKey.get(key)?.timestamp ?? null;
  p.states.push({ status: "REFUNDED", at, cause: { rule: "refund" }, key });
}

function entry(out, id) {
  if (!out.has(id)) out.set(id, { id, orderId: null, amount: null, nextAction: null, states: [], planned: null, plan: null, status: null, changes: 0 });
  return out.get(id);
}

/** The status now, and the change still to come (a plan is spent once its change's record is in). */
function settle(p) {
  // The records' changes came after the pay's answer, whatever order they were read in.
  p.states.sort((a, b) => (a.at ?? -Infinity) - (b.at ?? -Infinity) || (a.key ? -1 : 0) - (b.key ? -1 : 0));
  p.status = p.states.at(-1)?.status ?? null;
  p.plan = p.planned && p.changes === 0 ? p.planned : null;
}

/**
 * What a pay that changes later planned, as its service record's
 * `outcome` says it: `outcome.async` ({ kind, dueAt, outcome?, code? },
 * written by the core: `dueAt` null while a challenge waits for the buyer;
 * `code` the decline code of a failure, for a challenge the one a Fail or
 * Cancel gives), with the cause of the pay. Null for a pay that planned
 * nothing. `fault`: its response record's, which names a scenario's rule.
 */
export function planOf(outcome, fault = null) {
  const planned = outcome?.async;
  if (!planned || typeof planned.kind !== "string") return null;
  return {
    kind: planned.kind,
    dueAt: typeof planned.dueAt === "number" ? planned.dueAt : null,
    outcome: planned.outcome ?? null,
    code: planned.code ?? null,
    cause: causeOfPay(outcome, fault),
  };
}

/**
 * The cause of the pay's own state: the rule its outcome names (a
 * scenario rule's name: the outcome's `scenarioRule`, else its response
 * record's `fault.rule`, which names it for the kinds that change later;
 * a test card's number: the outcome's `card`).
 */
function causeOfPay(outcome, fault) {
  if (!outcome) return null;
  if (outcome.rule === "scenario") return { rule: "scenario", scenarioRule: outcome.scenarioRule ?? fault?.rule ?? null };
  if (outcome.rule === "card") return { rule: "card", card: outcome.card ?? null };
  return { rule: outcome.rule ?? "draw" };
}

/**
 * A change's cause as its record says it: `{ rule: "buyer", outcome,
 * planned }` for the buyer (the challenge page or completeChallenge); else
 * the plan's own cause (a scenario's rule or a test card), which the
 * service's clock carried out.
 */
function changeCause(cause) {
  if (!cause || cause.rule === "buyer") return cause ?? null;
  return { rule: "clock", planned: cause };
}

/** A cause in words: `scenario rule "challenge-all"`, `test card 4000 0025 0000 3155`, `the buyer (Complete)`, `the service's clock, as … planned`. */
export function causeText(cause) {
  if (!cause) return "";
  switch (cause.rule) {
    case "scenario": return `scenario rule "${cause.scenarioRule ?? "?"}"`;
    case "card": return `test card ${spaced(cause.card)}`;
    case "buyer": return `the buyer (${BUYER[cause.outcome] ?? cause.outcome ?? "?"})`;
    case "clock": return `the service's clock, as ${causeText(cause.planned) || "planned"} planned`;
    case "refund": return "a refund";
    case "draw": return "the seeded draw";
    case "header": return "the X-Sim-Outcome header";
    case "forced-next": return "forceNext";
    default: return String(cause.rule ?? "");
  }
}

/** A `stage: "payment"` record's cause in words. */
export function recordCauseText(cause) {
  return causeText(changeCause(cause));
}

/** "4000002500003155" → "4000 0025 0000 3155". */
export function spaced(card) {
  return String(card ?? "?").replace(/\s+/g, "").replace(/(\d{4})(?=\d)/g, "$1 ");
}

/** "in 18 s (at 12:00:30)", "due now", or "" without a due time; `store`: its clock's times marked "(virtual)" on a virtual clock (service-time.js). */
export function dueText(dueAt, now, store = null) {
  if (typeof dueAt !== "number") return "";
  const at = serviceTime(store, dueAt, { seconds: true });
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

/**
 * What the plan will do, in words, as the core's record says it: "becomes
 * SUCCESS", "becomes FAILED (insufficient_funds)"; a challenge that waits
 * for the buyer ends as the buyer answers, its `code` the decline of a
 * Fail or a Cancel (a Complete passes it).
 */
export function planText(plan, status) {
  if (!plan) return "";
  const code = plan.code ? ` (${plan.code})` : "";
  if (plan.kind === "challenge" && plan.dueAt === null) {
    return `waits for the buyer: ${BUYER.pass}, ${BUYER.fail} or ${BUYER.abandon} its challenge (${BUYER.fail} or ${BUYER.abandon} ends it FAILED${code})`;
  }
  const to = plan.outcome === "pass" ? "SUCCESS" : "FAILED";
  const failed = to === "FAILED" ? code : "";
  if (plan.kind === "challenge") return `the challenge ends itself (${plan.outcome}): becomes ${to}${failed}`;
  if (plan.kind === "reversal" && status === "REFUNDED") return "a reversal comes due: the money is back already, so it stays REFUNDED";
  if (plan.kind === "reversal") return `reversed: ${status} becomes FAILED${code}`;
  return `becomes ${to}${failed}`;
}
