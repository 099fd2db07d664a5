// Each payment's states over time (REQUIRES_ACTION → SUCCESS, PENDING →
// FAILED, SUCCESS → FAILED by a reversal), read from the records: the
// pay's answer gives the first state, each `stage: "payment"` record a
// change with its cause (the buyer, or the service's clock as a scenario's
// rule or a test card planned it), and what was planned at the pay (its
// rule or card, and the pay's time) when the next change is due. The
// Simulation panel, the object pages and the answers all draw from here.
import { clock } from "./dom.js";
import { findCard } from "./test-card-table.js";

/** The statuses that still wait for something: the buyer, or the service's clock. */
export const OPEN = new Set(["REQUIRES_ACTION", "PENDING"]);

const PAY_PATH = /^\/api\/payment\/pay(\?|$)/;
const REFUND_PATH = /^\/api\/payment\/refund\/(PAY-[A-Z0-9]+)(\?|$)/;

/** The status each kind's pay answers with. */
const STARTS = { challenge: "REQUIRES_ACTION", pending: "PENDING", reversal: "SUCCESS" };

/**
 * paymentId → `{ id, orderId, amount, nextAction, states: [{ status, at,
 * cause, failureCode, failureReason, key }], plan: { kind, dueAt, to,
 * code, reason } | null, status }`, oldest state first.
 */
export function paymentStates(store) {
  const out = new Map();
  const refunds = [];
  for (const [key, ex] of store.exchanges) {
    const data = ex.envelope?.data;
    if (ex.envelope?.code !== 0) continue;
    if (PAY_PATH.test(ex.path) && typeof data?.paymentId === "string" && typeof data.status === "string") paid(out, store, key, ex, data);
    const refund = REFUND_PATH.exec(ex.path);
    if (refund) refunds.push([refund[1], key]);
  }
  for (const r of store.requests.changes ?? []) {
    if (typeof r.paymentId === "string") changed(out, r);
  }
  for (const [id, key] of refunds) refunded(out, store, id, key);
  for (const p of out.values()) settle(p);
  return out;
}

/** The payments still waiting for something, soonest due first (those waiting for the buyer last). */
export function inProgress(states) {
  return [...states.values()].filter((p) => OPEN.has(p.status) || p.plan)
    .sort((a, b) => (a.plan?.dueAt ?? Infinity) - (b.plan?.dueAt ?? Infinity) || a.id.localeCompare(b.id));
}

/** The pay's answer: the first state, with what decided it (its service record's outcome) and what it planned. */
function paid(out, store, key, ex, data) {
  const req = store.requests.byKey.get(key);
  const p = entry(out, data.paymentId);
  p.orderId = data.orderId;
  p.amount = data.amount;
  p.nextAction = data.nextAction ?? p.nextAction ?? null;
  p.traceId = req?.traceId ?? null;
  p.states.unshift({ status: data.status, at: data.paidAt ?? req?.timestamp ?? null, cause: causeOfPay(req?.service?.outcome, ex.body, req?.response?.fault), failureCode: data.failureCode, failureReason: data.failureReason, key });
  p.planned = ex.plan ?? null;
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
 * What a pay that changes later planned, from what decided it (its
 * service record's `outcome`: a test card, with the body's `cardNumber`;
 * or a scenario's rule, whose `then` its response record's `fault`
 * carries) and its Payment (`paidAt`: the plan's due times count from
 * it): `{ kind, dueAt (null: waits for the buyer), to, code, reason,
 * cause }`, or null. The core keeps the due time itself (`nextDueAt` is
 * the soonest); the records do not carry it, so the page works it out
 * here, when the answer comes.
 */
export function planAtPay(outcome, payment, fault, body) {
  if (!outcome || !payment || typeof payment.paidAt !== "number") return null;
  const cause = causeOfPay(outcome, body, fault);
  const plan = outcome.rule === "card" ? cardPlan(findCard(cause.card)) : outcome.rule === "scenario" ? rulePlan(fault) : null;
  if (!plan || STARTS[plan.kind] !== payment.status) return null;
  return { ...plan, dueAt: plan.wait === null ? null : payment.paidAt + plan.wait, wait: undefined, cause };
}

/** A test card's plan: `{ kind, wait, to, code, reason }`. */
function cardPlan(card) {
  if (card?.kind === "challenge") return { kind: "challenge", wait: null, to: card.code ? "FAILED" : "SUCCESS", code: card.code ?? null };
  if (card?.kind === "pending") return { kind: "pending", wait: card.forMs, to: card.pass ? "SUCCESS" : "FAILED", code: card.pass ? null : card.code };
  if (card?.kind === "reversal") return { kind: "reversal", wait: card.afterMs, to: "FAILED", code: card.code, reason: card.reason };
  return null;
}

/** A scenario rule's `then` of a kind that changes later, with the defaults the core gives. */
function rulePlan(then) {
  if (then?.kind === "challenge") {
    if (!then.outcome) return { kind: "challenge", wait: null, to: null, code: then.code ?? null };
    const to = then.outcome === "pass" ? "SUCCESS" : "FAILED";
    return { kind: "challenge", wait: then.afterMs ?? 0, to, outcome: then.outcome, code: to === "FAILED" ? then.code ?? "authentication_required" : null };
  }
  if (then?.kind === "pending") {
    const pass = (then.outcome ?? "pass") === "pass";
    return { kind: "pending", wait: then.forMs ?? 30000, to: pass ? "SUCCESS" : "FAILED", code: pass ? null : then.code ?? "generic_decline" };
  }
  if (then?.kind === "reversal") return { kind: "reversal", wait: then.afterMs ?? 60000, to: "FAILED", code: then.code ?? "generic_decline", reason: "reversed after it succeeded" };
  return null;
}

/**
 * The cause of the pay's own state: the rule its outcome names (a
 * scenario rule's name: the outcome's `scenarioRule`, else its response
 * record's `fault.rule`, which names it for the kinds that change later).
 * A card's number: the outcome's `card` where the records carry it (the JSON logs
 * do; the package's logs() read did not, when this was written), else the
 * `cardNumber` of the body this page sent, which the card rule read.
 */
function causeOfPay(outcome, body, fault) {
  if (!outcome) return null;
  if (outcome.rule === "scenario") return { rule: "scenario", scenarioRule: outcome.scenarioRule ?? fault?.rule ?? null };
  if (outcome.rule === "card") return { rule: "card", card: outcome.card ?? findCard(cardNumberOf(body))?.number ?? null };
  return { rule: outcome.rule ?? "draw" };
}

/** The `cardNumber` of a request body's text, if it has one. */
function cardNumberOf(body) {
  try {
    const card = JSON.parse(body)?.cardNumber;
    return typeof card === "string" ? card : null;
  } catch {
    return null;
  }
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

const BUYER = { pass: "Complete", fail: "Fail", abandon: "Cancel" };

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
  const code = plan.to === "FAILED" && plan.code ? ` (${plan.code}${plan.reason ? `: ${plan.reason}` : ""})` : "";
  if (plan.kind === "challenge" && plan.dueAt === null) {
    const after = plan.code ? `; once passed, it is declined ${plan.code}` : "";
    return `waits for the buyer: complete, fail or cancel its challenge${after}`;
  }
  if (plan.kind === "challenge") return `the challenge ends itself (${plan.outcome}): becomes ${plan.to}${code}`;
  if (plan.kind === "reversal" && status === "REFUNDED") return "a reversal comes due: the money is back already, so it stays REFUNDED";
  if (plan.kind === "reversal") return `reversed: ${status} becomes FAILED${code}`;
  return `becomes ${plan.to}${code}`;
}
