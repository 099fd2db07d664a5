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
 * `declineCode`, and `thirdParty`: "timeout" or the 5xx it answered), for
 * a request whose response record and answer say nothing more (another
 * client's, live): no rule's name then. Null for any other outcome.
 */
export function outcomeFault(outcome) {
  if (!outcome || typeof outcome !== "object") return null;
  const { thirdParty, declineCode } = outcome;
  if (thirdParty === "timeout") return { kind: "timeout", rule: null };
  if (typeof thirdParty === "number") return { kind: "processor_error", rule: null, status: thirdParty };
  return declineCode ? { kind: "decline", rule: null, code: declineCode } : null;
}

/** Whether an answer or a response record is a replay of a kept answer (Idempotency-Key). */
export function isReplay(source) {
  if (!source || typeof source !== "object") return false;
  if (source.replay === true) return true;
  const headers = source.headers ?? source.responseHeaders;
  return headers?.["idempotent-replayed"] === "true";
}

/** "decline insufficient_funds", "http 429", "timeout after 30000 ms", "network reset (response)". */
export function faultText(fault) {
  const { kind } = fault;
  if (kind === "decline") return `decline ${fault.code ?? "generic_decline"}`;
  if (kind === "http" || kind === "processor_error") return `${kind} ${fault.status ?? ""}`.trim();
  // A record's fault gives `ms`; a rule's `then` gives `afterMs`.
  const wait = fault.ms ?? fault.afterMs;
  if (kind === "timeout") return `timeout${typeof wait === "number" ? ` after ${wait} ms` : ""}`;
  if (kind === "delay") return `delay${typeof fault.ms === "number" ? ` ${fault.ms} ms` : ""}`;
  if (kind === "network") return `network ${fault.fault ?? fault.network ?? "fault"}${fault.phase === "response" ? " (response)" : ""}`;
  return String(kind);
}

/** One sentence on what happened, for an answer or a request's panel. */
export function faultSentence(fault) {
  const rule = fault.rule ? `Rule "${fault.rule}" fired: ` : "The scenario gave ";
  const what = {
    decline: `the third party declined the payment with the reason ${fault.code ?? "generic_decline"} (the envelope stays the spec's: code -1, Third party payment failed).`,
    timeout: "the third party never answered; the payment failed once the wait was over, with the spec's decline envelope.",
    processor_error: `the third party answered HTTP ${fault.status ?? "5xx"}; the payment failed with the spec's decline envelope.`,
    http: `the gateway answered HTTP ${fault.status ?? ""}${fault.retryAfter ? ` with Retry-After: ${fault.retryAfter} (seconds a client waits before trying again)` : ""}, and nothing ran.`,
    delay: `${fault.ms ?? "some"} ms of latency were added; the answer is the normal one.`,
    network: `${NETWORK[fault.fault ?? fault.network] ?? "a network fault"}${fault.phase === "response" ? ": the service ran, and its answer was lost on the way" : ": nothing ran"}.`,
  }[fault.kind] ?? `a ${fault.kind} fault.`;
  return rule + what;
}

/** The badges of a request: the rule and its fault, and a replay. Empty when the scenario did nothing to it. */
export function faultBadges(fault, replay) {
  return [
    fault ? h("span", { class: `badge fault-badge k-${String(fault.kind)}`, title: faultSentence(fault), dataset: { rule: fault.rule ?? "", fault: String(fault.kind), code: fault.code ?? "" } },
      // The failure first: where the badge is cut short, the rule's name goes (its title keeps it whole).
      faultText(fault), fault.rule ? " · " : null, fault.rule ? h("span", { class: "rule-name" }, fault.rule) : null) : null,
    replay ? h("span", { class: "badge replay-badge", title: "Idempotency-Key: this answer is the kept answer of the first request with the same key; nothing ran again" }, "replayed") : null,
  ].filter(Boolean);
}

/** A span's fault kind (`orderpay.fault.kind`; a third party's wait its payment's record says timed out: store.spansOf), or "". */
export function spanFault(span) {
  if (span.timedOut) return "timeout";
  const attributes = Array.isArray(span.attributes) ? span.attributes : Object.entries(span.attributes ?? {});
  for (const [k, v] of attributes) if (k === "orderpay.fault.kind") return String(v);
  return "";
}

/** Whether a span ended in error: the log's server_error, or an error status of its own. */
export function spanFailed(span) {
  return span.status === "server_error" || span.status === "error" || span.status === "timeout";
}
