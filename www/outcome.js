// Why a payment attempt ended as it did: the `outcome` the service writes
// in the service record of every payment pay, in words and as a small
// gauge of the seeded draw against the failure rate. Shown with the
// answer in the flow and the console, and in the trace view.
import { h } from "./dom.js";

const RULES = {
  draw: "the seeded draw against the failure rate",
  header: "the X-Sim-Outcome request header",
  "forced-next": "forceNext in the Simulation panel",
};

/** Why a declined payment reads server_error in the log beside HTTP 200 and code -1. */
export const DECLINED_WHY = "The simulated third party declined the payment. The service handled the request and answered normally (HTTP 200) with a business error for the client to read (code -1); the log marks it server_error because a dependency failed, not the client.";

/** A response record (or anything with status, httpStatus and code) of a declined payment. */
export function isDeclined(r) {
  return r?.status === "server_error" && r.httpStatus === 200 && r.code === -1;
}

/** The explanation, for wherever server_error shows with HTTP 200 and code -1. */
export function declinedWhy(tag = "p") {
  return h(tag, { class: "why-declined" }, h("strong", null, "Why server_error with HTTP 200 and code -1? "), DECLINED_WHY);
}

const fixed = (n) => (typeof n === "number" ? String(Number(n.toFixed(4))) : String(n ?? "?"));

/** The outcome as a sentence: "declined by the X-Sim-Outcome request header, attempt 2". */
export function outcomeSummary(outcome) {
  const verdict = outcome.approved ? "approved" : "declined";
  return `${verdict} by ${RULES[outcome.rule] ?? `rule ${outcome.rule}`}, attempt ${outcome.attempt}`;
}

/** The explanation of one payment attempt, or null when the record has none. */
export function outcomeView(outcome) {
  if (!outcome || typeof outcome !== "object") return null;
  const approved = outcome.approved === true;
  const { draw, threshold } = outcome;
  const known = typeof draw === "number" && typeof threshold === "number";
  const wouldDecline = known && draw < threshold;
  const drawLine = known
    ? `${draw.toFixed(4)} ${wouldDecline ? "<" : "≥"} ${fixed(threshold)}: on its own the draw ${wouldDecline ? "declines" : "approves"}`
    : "not given";
  return h("div", { class: `outcome ${approved ? "approved" : "declined"}`, dataset: { rule: String(outcome.rule), approved: String(approved) } },
    h("p", { class: "outcome-head" },
      h("span", { class: `badge ${approved ? "ok" : "bad"}` }, approved ? "approved" : "declined"), " ",
      h("span", { class: "label" }, "Why: "),
      h("span", { class: "reason" }, String(outcome.reason ?? "")),
    ),
    h("dl", { class: "outcome-facts" },
      h("dt", null, "rule"), h("dd", null, `${outcome.rule} (${RULES[outcome.rule] ?? "a rule this page does not know"})`),
      h("dt", null, "attempt"), h("dd", null, `${outcome.attempt}${outcome.attempt === 1 ? " (the first on this order)" : " on this order"}`),
      h("dt", null, "draw vs threshold"), h("dd", null, drawLine),
      // A scenario's decline: its reason, and what the third party did (declined, timed out, a 5xx).
      outcome.declineCode ? [h("dt", null, "decline code"), h("dd", { class: "decline-code" }, String(outcome.declineCode))] : null,
      outcome.thirdParty !== undefined && outcome.thirdParty !== "declined" ? [h("dt", null, "third party"), h("dd", null, thirdPartyText(outcome.thirdParty))] : null,
    ),
    known ? gauge(draw, threshold, outcome.rule !== "draw") : null,
  );
}

/** What the third party did in a scenario's failure: "timeout", or the 5xx it answered. */
function thirdPartyText(value) {
  return value === "timeout" ? "timed out: no answer within the wait" : typeof value === "number" ? `answered HTTP ${value}` : String(value);
}

/** 0 to 1: red below the threshold (declines), green above (approves); the tick is the draw. */
function gauge(draw, threshold, overruled) {
  const at = (v) => `${(Math.min(1, Math.max(0, v)) * 100).toFixed(2)}%`;
  const marker = h("span", { class: `gauge-draw${overruled ? " overruled" : ""}` });
  marker.style.left = at(draw);
  const declines = h("span", { class: "gauge-declines" });
  declines.style.width = at(threshold);
  return h("div", { class: "gauge", "aria-hidden": "true", title: `draw ${draw.toFixed(4)} against threshold ${fixed(threshold)}${overruled ? " (overruled)" : ""}` },
    h("span", { class: "gauge-end" }, "0"),
    h("span", { class: "gauge-track" }, declines, marker),
    h("span", { class: "gauge-end" }, "1"),
  );
}
