// Why a payment attempt ended as it did: the `outcome` the service writes
// in the service record of every payment pay, in words and as a small
// gauge of the seeded draw against the failure rate. Shown with the
// answer in the flow and the console, and in the trace view. A payment
// that waits (PENDING, REQUIRES_ACTION) or will change (a reversal) says
// why, and when it will resolve.
import { h } from "./dom.js";
import { causeText, dueText, planText } from "./payment-states.js";

const RULES = {
  draw: "the seeded draw against the failure rate",
  scenario: "a rule of the scenario in force (Failures)",
  header: "the X-Sim-Outcome request header",
  "forced-next": "forceNext in the Simulation panel",
  card: "a test card (the cardNumber in the body)",
};

/** Why a declined payment reads server_error in the log beside HTTP 200 and code -1. */
export const DECLINED_WHY = "The simulated third party declined the payment. The service handled the request and answered normally (HTTP 200) with a business error for the client to read (code -1); the log marks it server_error because a dependency failed, not the client.";

/** A response record (or anything with status, httpStatus and code) of a declined payment. */
export function isDeclined(r) {
  return r?.status === "server_error" && r.httpStatus === 200 && r.code === -1;
}

/** Why a payment the third party failed (a scenario's 5xx or timeout: its error, not a decline) reads server_error beside HTTP 200 and code -1. */
export const FAILED_WHY = "The simulated third party failed (its own error or no answer, not a decline). The service handled the request and answered normally (HTTP 200) with the spec's business error (code -1, Third party payment failed); the log marks it server_error because a dependency failed, not the client.";

/** Whether a response record's (or an answer's) fault is the third party's error rather than a decline. */
export function thirdPartyFailed(fault) {
  return fault?.kind === "processor_error" || fault?.kind === "timeout";
}

/** The explanation, for wherever server_error shows with HTTP 200 and code -1; `fault`: the response record's, if any. */
export function declinedWhy(tag = "p", fault = null) {
  return h(tag, { class: "why-declined" }, h("strong", null, "Why server_error with HTTP 200 and code -1? "), thirdPartyFailed(fault) ? FAILED_WHY : DECLINED_WHY);
}

const fixed = (n) => (typeof n === "number" ? String(Number(n.toFixed(4))) : String(n ?? "?"));

/** The kinds of a scenario's rule that decide a payment at the third party (a gateway's or a network's fault never reaches it). */
const DECIDING = new Set(["decline", "timeout", "processor_error"]);

/**
 * What decided a payment attempt, from the records' truth: `rule` ("draw",
 * "header", "forced-next" or "scenario") and, for a scenario's rule, its
 * name and code. The service record says so (`outcome.rule` "scenario",
 * `outcome.scenarioRule`, `outcome.code`); a package that does not yet
 * says it in the response record's `fault` (`fault.rule`, `fault.kind`,
 * `fault.code`), which names the rule whenever one fired.
 */
export function decidedBy(outcome, fault = null) {
  if (outcome?.rule === "scenario") {
    return { rule: "scenario", scenarioRule: outcome.scenarioRule ?? fault?.rule ?? null, code: outcome.code ?? outcome.declineCode ?? fault?.code ?? null };
  }
  if (fault?.rule && DECIDING.has(fault.kind)) return { rule: "scenario", scenarioRule: fault.rule, code: fault.code ?? outcome?.declineCode ?? null };
  return { rule: outcome?.rule ?? "draw", scenarioRule: null, code: outcome?.declineCode ?? null };
}

/** "a rule of the scenario in force (Failures), "every payment declined"", or the decider's words. */
function deciderText(decided) {
  const words = RULES[decided.rule] ?? `rule ${decided.rule}`;
  return decided.scenarioRule ? `${words}, "${decided.scenarioRule}"` : words;
}

/** The outcome as a sentence: "declined by the X-Sim-Outcome request header, attempt 2". `fault`: the response record's, if any. */
export function outcomeSummary(outcome, fault = null) {
  const failed = !outcome.approved && (outcome.thirdParty === "timeout" || typeof outcome.thirdParty === "number" || thirdPartyFailed(fault));
  const verdict = outcome.approved ? "approved" : failed ? "failed at the third party" : "declined";
  return `${verdict} by ${deciderText(decidedBy(outcome, fault))}, attempt ${outcome.attempt}`;
}

/**
 * A payment the pay approved whose status moved on: waiting for the
 * buyer or the bank, SUCCESS since, FAILED since (a challenge failed, a
 * reversal), or REFUNDED since. Its badge's colour, and the box's; the
 * badge says "approved at the pay; now <status>", the pay's answer
 * apart from the payment's fate.
 */
const SINCE = {
  REQUIRES_ACTION: { badge: "warn", look: "waiting", why: "The payment is REQUIRES_ACTION: nothing is paid until the buyer passes the challenge." },
  PENDING: { badge: "warn", look: "waiting", why: "The payment is PENDING: nothing is paid until the bank answers." },
  SUCCESS: { badge: "ok", look: "approved", why: null },
  FAILED: { badge: "bad", look: "declined failed-since", why: "The payment is FAILED now: it changed after this answer (see its states)." },
  REFUNDED: { badge: "warn", look: "refunded", why: "The payment is REFUNDED now: the money went back to the buyer after this answer." },
};

/**
 * What the payment a pay made is now, from its request (requests-index.js):
 * its last change's `to` (REFUNDED when `index`, the store's request
 * index, holds a refund of it), else what the pay left it in by its plan
 * (`outcome.async.kind`), else null (SUCCESS or declined: the verdict says it).
 */
export function payStatusNow(req, index = null) {
  const last = req?.changes?.at(-1);
  if (last) return last.to === "SUCCESS" && index?.refunded?.has(last.paymentId) ? "REFUNDED" : last.to ?? null;
  const kind = req?.service?.outcome?.async?.kind;
  return kind === "challenge" ? "REQUIRES_ACTION" : kind === "pending" ? "PENDING" : null;
}

/**
 * The explanation of one payment attempt, or null when the record has
 * none. `fault`: the response record's (which names a scenario's rule
 * where the service record does not yet). `status`: what the payment is
 * now (payStatusNow), when the pay approved it and it is not SUCCESS:
 * the box says so and is not green. The draw's marker is drawn only when
 * the draw decided.
 */
export function outcomeView(outcome, fault = null, status = null) {
  if (!outcome || typeof outcome !== "object") return null;
  const approved = outcome.approved === true;
  const decided = decidedBy(outcome, fault);
  // A third party that answered a 5xx or never answered failed: it did not decline.
  const failed = !approved && (outcome.thirdParty === "timeout" || typeof outcome.thirdParty === "number" || thirdPartyFailed(fault));
  const later = approved ? SINCE[status] ?? null : null;
  const verdict = later ? `approved at the pay; now ${status}` : approved ? "approved" : failed ? "failed at the third party" : "declined";
  const { draw, threshold } = outcome;
  const known = typeof draw === "number" && typeof threshold === "number";
  const wouldDecline = known && draw < threshold;
  const drawLine = known
    ? `${draw.toFixed(4)} ${wouldDecline ? "<" : "≥"} ${fixed(threshold)}: on its own the draw ${wouldDecline ? "declines" : "approves"}${decided.rule === "draw" ? "" : ", but the draw did not decide"}`
    : "not given";
  const look = later ? later.look : approved ? "approved" : "declined";
  return h("div", { class: `outcome ${look}${failed ? " failed" : ""}`, dataset: { rule: decided.rule, scenarioRule: decided.scenarioRule ?? "", approved: String(approved), status: status ?? "" } },
    h("p", { class: "outcome-head" },
      h("span", { class: `badge ${later ? later.badge : approved ? "ok" : "bad"}` }, verdict), " ",
      h("span", { class: "label" }, "Why: "),
      h("span", { class: "reason" }, String(outcome.reason ?? "")),
      later?.why ? h("span", { class: "since" }, ` ${later.why}`) : null,
    ),
    h("dl", { class: "outcome-facts" },
      h("dt", null, "rule"), h("dd", { class: "decided-by" }, decided.rule === "scenario"
        ? `scenario: "${decided.scenarioRule ?? "?"}" (${RULES.scenario})`
        : `${decided.rule} (${RULES[decided.rule] ?? "a rule this page does not know"})`),
      h("dt", null, "attempt"), h("dd", null, `${outcome.attempt}${outcome.attempt === 1 ? " (the first on this order)" : " on this order"}`),
      h("dt", null, "draw vs threshold"), h("dd", null, drawLine),
      // A scenario's decline: its reason, and what the third party did (declined, timed out, a 5xx). An approved attempt has
      // none (a challenge's `code` is the decline a failed or abandoned challenge gives later: the plan says it).
      decided.code && !approved ? [h("dt", null, "decline code"), h("dd", { class: "decline-code" }, String(decided.code))] : null,
      outcome.thirdParty !== undefined && outcome.thirdParty !== "declined" ? [h("dt", null, "third party"), h("dd", null, thirdPartyText(outcome.thirdParty))] : null,
    ),
    known && decided.rule === "draw" ? gauge(draw, threshold) : null,
  );
}

/** What the third party did in a scenario's failure: "timeout", or the 5xx it answered. */
function thirdPartyText(value) {
  return value === "timeout" ? "timed out: no answer within the wait" : typeof value === "number" ? `answered HTTP ${value}` : String(value);
}

/** 0 to 1: red below the threshold (declines), green above (approves); the tick is the draw that decided. */
function gauge(draw, threshold) {
  const at = (v) => `${(Math.min(1, Math.max(0, v)) * 100).toFixed(2)}%`;
  const marker = h("span", { class: "gauge-draw" });
  marker.style.left = at(draw);
  const declines = h("span", { class: "gauge-declines" });
  declines.style.width = at(threshold);
  return h("div", { class: "gauge", "aria-hidden": "true", title: `draw ${draw.toFixed(4)} against threshold ${fixed(threshold)}` },
    h("span", { class: "gauge-end" }, "0"),
    h("span", { class: "gauge-track" }, declines, marker),
    h("span", { class: "gauge-end" }, "1"),
  );
}

/** When a planned change comes due, by the kind of the service's clock. */
const CLOCK_NOTES = {
  true: ", on the service's virtual clock (the Simulation panel's Advance moves it)",
  false: ", on the wall clock: it comes due in real time (Advance does not move it)",
  null: ", on the service's clock",
};

/**
 * Why a payment is not final yet, and when it will be: for an answer whose
 * Payment is PENDING, REQUIRES_ACTION or FAILED, or one whose card or rule
 * planned a later change (`plan`: payment-states.js planOf, from its
 * service record's `outcome.async`). `now`: the service's clock;
 * `virtual`: whether it is virtual (true), the wall clock (false), or not
 * known (null).
 */
export function asyncView(payment, plan, now, virtual = null) {
  const status = payment?.status;
  if (!plan && status !== "PENDING" && status !== "FAILED") return null;
  const lines = [];
  if (status === "PENDING") lines.push("PENDING: the bank has not answered yet, as with a wallet or a bank transfer. Your app should not ship the order yet: it polls GET /api/payment/{id} until the payment is SUCCESS or FAILED.");
  if (status === "FAILED") lines.push(`FAILED: ${payment.failureCode ?? ""}${payment.failureReason ? `, ${payment.failureReason}` : ""}.`);
  if (plan) {
    const when = dueText(plan.dueAt, now, { virtualClock: virtual });
    const by = plan.cause ? `, by ${causeText(plan.cause)}` : "";
    const clockNote = plan.dueAt === null ? "" : CLOCK_NOTES[String(virtual)] ?? CLOCK_NOTES.null;
    lines.push(`Planned (${plan.kind}${by}): ${planText(plan, status)}${when ? ` ${when}` : ""}${clockNote}.`);
  }
  return h("div", { class: `async-why s-${status ?? ""}`, dataset: { status: status ?? "", kind: plan?.kind ?? "" } },
    lines.map((line) => h("p", null, line)));
}
