// What a webhook delivery's attempt means, in a learner's words: the
// receiver's answer, an attempt that got none, a scenario's delivery
// fault, a signature the built-in receiver refused. The failure lab's
// faults are explained the same way (faults.js): a short text for a
// badge, a sentence for its title and the row beside it. No imports:
// tests/node/copies.test.mjs reads it in Node.

/** A delivery fault's short text: "duplicate", "late", "wrong signature"… */
export function deliveryFaultText(fault) {
  return String(fault.kind).replace(/_/g, " ");
}

/** What a scenario's delivery fault did to an attempt, in a sentence (the rule named). */
export function deliveryFaultSentence(fault) {
  const rule = fault.rule ? `Rule "${fault.rule}" fired: ` : "A rule of the scenario fired: ";
  return rule + (DELIVERY_FAULTS[fault.kind] ?? `a ${fault.kind} fault.`);
}

/** Each delivery fault kind a scenario rule gives, in a sentence (tests/node/copies.test.mjs holds its keys to the schema's kinds). */
export const DELIVERY_FAULTS = Object.freeze({
    duplicate: "the event is delivered more than once, as providers do; a careful receiver handles each event id once.",
    late: "the delivery was held back before it was sent, as a slow provider's is.",
    reorder: "events were held and sent out of order: a receiver must not assume that an event comes after the one it follows.",
    stale_timestamp: "the signature carries an old time, older than a receiver tolerates (Stripe's libraries allow 5 minutes): a careful receiver refuses it, as it would a replayed delivery.",
    tampered_body: "the body was changed after it was signed: the signature no longer matches it, and a careful receiver refuses it.",
    wrong_signature: "the signature was made with another secret: a careful receiver refuses it.",
    drop: "the attempt was lost on the service's side: nothing reached the receiver, and the service retries it as it would any failed attempt.",
});

/** Whether an attempt was answered with a 2xx: the delivery then is delivered. */
export function attemptOk(attempt) {
  return typeof attempt.status === "number" && attempt.status >= 200 && attempt.status < 300;
}

/** An attempt's outcome in a few words: "HTTP 200", "HTTP 500", "no answer: dropped". */
export function attemptText(attempt) {
  if (typeof attempt.status === "number" && attempt.status > 0) return `HTTP ${attempt.status}`;
  return `no answer${attempt.error ? `: ${attempt.error}` : ""}`;
}

/** What an attempt's outcome means for the delivery, in a sentence. */
export function attemptSentence(attempt) {
  const status = attempt.status;
  if (attemptOk(attempt)) return `The receiver answered ${status}: delivered.`;
  if (typeof status === "number" && status >= 500) return `The receiver failed (HTTP ${status}): the service counts the attempt failed and tries again later.`;
  if (typeof status === "number" && status > 0) return `The receiver refused it (HTTP ${status}): any answer but a 2xx is a failed attempt, and the service tries again later.`;
  if (attempt.error === "dropped") return "Nothing reached the receiver (lost on the way): the service tries again later.";
  if (/no answer within/.test(attempt.error ?? "")) return `The receiver did not answer in time (${attempt.error}): the service tries again later.`;
  return `No answer came${attempt.error ? ` (${attempt.error})` : ""}: the service tries again later.`;
}

/** Why the built-in receiver refused a signature (verifyWebhook's reason), in a sentence. */
export function refusalSentence(verdict) {
  return {
    mismatch: "the signature does not match this body with the endpoint's secret (a changed body, or another secret)",
    stale: "the signature's time is further from now than the receiver tolerates: it could be a replayed delivery",
    "malformed header": "the signature header is not t=…,v1=…",
    "no signature": "the delivery carries no signature",
  }[verdict.reason] ?? verdict.message ?? "the signature does not hold";
}

/** A delivery's state in words: "delivered", "retrying", "failed for good"… */
export function stateText(delivery) {
  if (delivery.state === "delivered") return "delivered";
  if (delivery.state === "in_flight") return "being sent";
  if (delivery.state === "failed") return "failed: no more retries";
  return delivery.attempts.length ? "failed, will retry" : "waiting to be sent";
}
