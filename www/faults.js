// What a scenario did to one request, read from what the service wrote:
// the response record's `fault` ({ kind, rule, code?, status?, ms?,
// phase? }) and `replay`, the answer's `x-orderpay-*` and
// `idempotent-replayed` headers, a span's `orderpay.fault.kind`. Shown the
// same way wherever a request is: the request list, the answers of the
// flow and the console, the request's panel, the waterfall.
import { h } from "./dom.js";

/** A network fault's words: what a client of the server would meet. */
const NETWORK = {
  reset: "the connection was reset",
  empty: "the connection closed with no answer",
  short: "the body was cut short of its content-length",
  hang: "no answer came (the request hangs)",
  dribble: "the body came a few bytes at a time",
  error: "a network error",
};

/** The fault of a response record or of an answer (`request()`'s own `fault`, or its headers), or null. */
export function faultOf(source) {
  if (!source || typeof source !== "object") return null;
  if (source.fault && typeof source.fault === "object") return source.fault;
  const headers = source.headers ?? source.responseHeaders;
  const kind = headers?.["x-orderpay-fault"];
  if (!kind) return null;
  const code = headers["x-orderpay-decline-code"];
  return { kind, rule: headers["x-orderpay-rule"] ?? null, ...(code ? { code } : {}) };
}

/**
 * A payment's failure as its service record's `outcome` tells it (its
 * `declineCode`, and `thirdParty`: "declined", "timeout" or the 5xx it
 * answered; `rule` "scenario" with `scenarioRule`), for a request whose
 * response record and answer say nothing more (another client's, live).
 * `scenario` says a scenario's rule gave it where the record has not its
 * name; a decline with neither is the draw's. Null for any other outcome.
 */
export function outcomeFault(outcome) {
  if (!outcome || typeof outcome !== "object") return null;
  const { thirdParty, declineCode } = outcome;
  const rule = outcome.rule === "scenario" ? outcome.scenarioRule ?? null : null;
  const scenario = outcome.rule === "scenario" || thirdParty !== undefined;
  if (thirdParty === "timeout") return { kind: "timeout", rule, scenario };
  if (typeof thirdParty === "number") return { kind: "processor_error", rule, scenario, status: thirdParty };
  const code = outcome.code ?? declineCode;
  return code && !outcome.approved ? { kind: "decline", rule, scenario, code } : null;
}

/** Whether a fault is a decline the seeded draw gave (no rule fired: it is reported with a decline code while a scenario is set). */
export function isDrawnDecline(fault) {
  return fault?.kind === "decline" && !fault.rule && !fault.scenario;
}

/** Whether an answer or a response record is a replay of a kept answer (Idempotency-Key). */
export function isReplay(source) {
  if (!source || typeof source !== "object") return false;
  if (source.replay === true) return true;
  const headers = source.headers ?? source.responseHeaders;
  return headers?.["idempotent-replayed"] === "true";
}

/** Whether a fault left the client with no answer at all (a network fault in the request phase): no HTTP status, no code. */
export function noAnswer(fault) {
  const how = fault?.fault ?? fault?.network;
  return fault?.kind === "network" && fault.phase !== "response" && how !== "short" && how !== "dribble";
}

/**
 * "decline insufficient_funds", "drawn decline generic_decline", "third
 * party 503", "gateway 429, Retry-After 1 s", "timeout after 30000 ms",
 * "network error (no answer)". A record's fault and a rule's `then` alike.
 */
export function faultText(fault) {
  const { kind } = fault;
  if (kind === "decline") return `${isDrawnDecline(fault) ? "drawn decline" : "decline"}${fault.code ? ` ${fault.code}` : ""}`;
  if (kind === "processor_error") return `third party ${fault.status ?? "500"}`;
  if (kind === "http") return `gateway ${fault.status ?? ""}${typeof fault.retryAfter === "number" ? `, Retry-After ${fault.retryAfter} s` : ""}`;
  // A record's fault gives `ms`; a rule's `then` gives `afterMs`.
  const wait = fault.ms ?? fault.afterMs;
  if (kind === "timeout") return `timeout${typeof wait === "number" ? ` after ${wait} ms` : ""}`;
  if (kind === "delay") return `delay${typeof fault.ms === "number" ? ` ${fault.ms} ms` : ""}`;
  if (kind === "network") return `network ${fault.fault ?? fault.network ?? "fault"}${noAnswer(fault) ? " (no answer)" : " (response)"}`;
  return laterText(fault) ?? String(kind);
}

/**
 * The kinds that change a payment later: "challenge (waits for the buyer)",
 * "pending 30 s, then pass", "reversal after 60 s fraudulent". The times
 * and codes are what the record or the service's document says (both
 * carry every value, defaults included); a preset's own text may leave
 * some out, and so does this.
 */
function laterText(fault) {
  const after = (ms) => (typeof ms === "number" ? ` after ${Number((ms / 1000).toFixed(3))} s` : "");
  const code = fault.code ? ` ${fault.code}` : "";
  // A challenge's code is the decline of a failed or abandoned one: a passed one has none.
  if (fault.kind === "challenge") return fault.outcome ? `challenge, ${fault.outcome}${after(fault.afterMs)}${fault.outcome === "pass" ? "" : code}` : "challenge (waits for the buyer)";
  if (fault.kind === "pending") {
    const then = fault.outcome ? `, then ${fault.outcome}${fault.outcome === "fail" ? code : ""}` : "";
    return `pending${typeof fault.forMs === "number" ? ` ${Number((fault.forMs / 1000).toFixed(3))} s` : ""}${then}`;
  }
  if (fault.kind === "reversal") return `reversal${after(fault.afterMs)}${code}`;
  return null;
}

/** One sentence on what happened, for an answer or a request's panel. */
export function faultSentence(fault) {
  if (isDrawnDecline(fault)) {
    return `No rule of the scenario fired: the seeded draw declined the payment (as with no scenario)${fault.code ? `, and the answer names the reason ${fault.code}` : ""}. The envelope stays the spec's: code -1, Third party payment failed.`;
  }
  const rule = fault.rule ? `Rule "${fault.rule}" fired: ` : "A rule of the scenario fired (the records do not name it): ";
  const what = {
    decline: `the third party declined the payment${fault.code ? ` with the reason ${fault.code}` : ""} (the envelope stays the spec's: code -1, Third party payment failed).`,
    timeout: "the third party never answered; the payment failed once the wait was over, with the spec's decline envelope.",
    processor_error: `the third party failed with HTTP ${fault.status ?? "5xx"} (its error, not a decline); the payment failed with the spec's envelope, code -1.`,
    http: `the gateway answered HTTP ${fault.status ?? ""}${fault.retryAfter !== undefined ? ` with Retry-After: ${fault.retryAfter} (seconds a client waits before trying again)` : ""}, and nothing ran.`,
    delay: `${fault.ms ?? "some"} ms of latency were added; the answer is the normal one.`,
    network: `${NETWORK[fault.fault ?? fault.network] ?? "a network fault"}${fault.phase === "response" ? ": the service ran, and its answer was lost on the way" : ": nothing ran, and no status or code came back"}.`,
  }[fault.kind] ?? laterSentence(fault) ?? `a ${fault.kind} fault.`;
  return rule + what;
}

/** Whether a rule of a kind that changes the payment later is no failure: a challenge or a pending payment that passes. */
export function isLater(fault) {
  if (fault?.kind === "challenge" || fault?.kind === "pending") return fault.outcome !== "fail";
  return false;
}

/** What a rule of a kind that changes the payment later did, in a sentence (its times are the record's: the core writes them, defaults included); null for another kind. */
function laterSentence(fault) {
  const after = (ms) => `${Number((ms / 1000).toFixed(3))} s`;
  if (fault.kind === "challenge") {
    return fault.outcome
      ? `the payment asked for a 3-D Secure challenge (REQUIRES_ACTION), which ends by itself (${fault.outcome}) after ${after(fault.afterMs)}.`
      : "the payment asked for a 3-D Secure challenge (REQUIRES_ACTION): it waits for the buyer to complete, fail or cancel it. Not a failure.";
  }
  if (fault.kind === "pending") {
    return `the payment is PENDING until the bank answers, after ${after(fault.forMs)}: then ${fault.outcome === "fail" ? "it fails" : "it succeeds"}.`;
  }
  if (fault.kind === "reversal") return `the payment succeeded, and is reversed (FAILED) after ${after(fault.afterMs)}.`;
  return null;
}

/** The badges of a request: the rule and its fault, and a replay. Empty when the scenario did nothing to it. */
export function faultBadges(fault, replay) {
  const drawn = isDrawnDecline(fault);
  return [
    fault ? h("span", { class: `badge fault-badge k-${String(fault.kind)}${drawn ? " drawn" : ""}${isLater(fault) ? " later" : ""}`, title: faultSentence(fault), dataset: { rule: fault.rule ?? "", fault: String(fault.kind), code: fault.code ?? "", drawn: String(drawn) } },
      // The failure first: where the badge is cut short, the rule's name goes (its title keeps it whole).
      faultText(fault), fault.rule ? " · " : null, fault.rule ? h("span", { class: "rule-name" }, fault.rule) : null) : null,
    replay ? h("span", { class: "badge replay-badge", title: "Idempotency-Key: this answer is the kept answer of the first request with the same key; nothing ran again" }, "replayed") : null,
  ].filter(Boolean);
}

/** What a failed span's row says beside its component: "gateway 429", "network fault", "timeout", "payment FAILED (insufficient_funds)", or its status. */
export function spanFailureText(span) {
  if (paymentFailed(span)) {
    const code = spanAttribute(span, "orderpay.failure_code");
    return `payment FAILED${code ? ` (${code})` : ""}`;
  }
  const fault = spanFault(span);
  if (fault === "timeout") return "timeout";
  if (fault === "network") return "network fault, no answer";
  const status = spanAttribute(span, "http.response.status_code");
  if (fault === "http") return `gateway ${status ?? "error"}`;
  if (fault === "processor_error" && span.component !== "gateway") return "third party error";
  return span.status;
}

/** A span's attribute `key`, or undefined. */
export function spanAttribute(span, key) {
  const attributes = Array.isArray(span.attributes) ? span.attributes : Object.entries(span.attributes ?? {});
  for (const [k, v] of attributes) if (k === key) return v;
  return undefined;
}

/** A span's fault kind (`orderpay.fault.kind`; a third party's wait its payment's record says timed out: store.spansOf), or "". */
export function spanFault(span) {
  if (span.timedOut) return "timeout";
  const kind = spanAttribute(span, "orderpay.fault.kind");
  return kind === undefined ? "" : String(kind);
}

/**
 * Whether a payment change's span (`payment SUCCESS → FAILED`) ended the
 * payment FAILED: its status is the change's own (success: it was made),
 * its `orderpay.payment.to` the payment's.
 */
export function paymentFailed(span) {
  return spanAttribute(span, "orderpay.payment.to") === "FAILED";
}

/** Whether a span ended in error: the log's server_error, or an error status of its own, a gateway's failure (a scenario's 429, 502, 503, 504), or a payment's change to FAILED. */
export function spanFailed(span) {
  return span.status === "server_error" || span.status === "error" || span.status === "timeout" || spanFault(span) === "http" || paymentFailed(span);
}
