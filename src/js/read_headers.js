// The request headers the service reads, by their lower-case names: what a
// copy of a request (a pact's interaction, a copied test's step) sends
// again for the service to answer it alike. The one list of them: the
// gateway (src/gateway) reads these, and docs/api.md names them.
// Internal: the package does not export this file.

/**
 * Those that change the answer: the body's type, `Accept` (a browser's
 * text/html gets the challenge page), the user, idempotency, an outcome
 * forced for one pay, a scenario for one request. A scenario rule's
 * `header` matcher may read any other.
 */
export const ANSWER_HEADERS = ["content-type", "accept", "x-user-id", "idempotency-key", "x-sim-outcome", "x-orderpay-scenario"];

/** Those a caller's trace comes in: they set the trace ids of the log, the spans and the answer's trace headers, not the answer. */
export const TRACE_HEADERS = ["traceparent", "b3", "x-b3-traceid", "x-b3-spanid", "x-b3-parentspanid", "x-b3-sampled", "x-b3-flags"];
