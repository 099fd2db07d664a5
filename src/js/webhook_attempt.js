// One delivery attempt, as the core handed it out (takeDue): signed here
// with Stripe's scheme (webhooks.js), sent as an HTTP POST with fetch to a
// URL endpoint or as a Request to an in-process handler, given at most
// ATTEMPT_TIMEOUT_MS of real time, and said back as what the core records:
// the status (0: no answer), the real time it took and the error.
// Internal: the package does not export this file.
import { signWebhook } from "./webhooks.js";

/** A receiver that has not answered by then has failed this attempt (Stripe waits about as long). */
export const ATTEMPT_TIMEOUT_MS = 10_000;
/** The URL a handler's Request carries: it is never fetched. */
export const HANDLER_URL = "http://localhost/webhooks";
/** What a `wrong` signature is made with: a secret that is not the endpoint's, so the header is well formed but does not verify. */
const WRONG_SECRET_SUFFIX = "_not_the_endpoint_secret";

/**
 * The headers of an attempt: the JSON content type, the signature under
 * the endpoint's header name, and the trace context of the span the core
 * opened for it (traceparent, b3 and its X-B3 form).
 */
async function headersOf(attempt) {
  const secret = attempt.sign === "wrong" ? attempt.secret + WRONG_SECRET_SUFFIX : attempt.secret;
  // A tampered body: the signature is the original body's, the body sent is not.
  const signed = await signWebhook(attempt.signed ?? attempt.body, { secret, timestamp: attempt.timestamp });
  const headers = {
    "content-type": "application/json; charset=utf-8",
    "user-agent": "orderpay-webhooks",
    [attempt.header]: signed.header,
  };
  if (attempt.traceparent) headers.traceparent = attempt.traceparent;
  if (attempt.b3) {
    const [traceId, spanId] = attempt.b3.split("-");
    headers.b3 = attempt.b3;
    headers["x-b3-traceid"] = traceId;
    headers["x-b3-spanid"] = spanId;
    headers["x-b3-sampled"] = "1";
  }
  return headers;
}

/** A message for what a send threw: its cause's code when fetch hides it ("fetch failed"). */
function failure(error) {
  const cause = error?.cause;
  const detail = cause?.code ? `${cause.code}${cause.message ? ` (${cause.message})` : ""}` : cause?.message;
  const message = error?.message ?? String(error);
  return detail && !message.includes(detail) ? `${message}: ${detail}` : message;
}

/** POSTs to a URL endpoint; resolves with the status once the answer's body is read. */
async function post(fetchFn, url, headers, body, signal) {
  const response = await fetchFn(url, { method: "POST", headers, body, signal, redirect: "manual" });
  // A browser's fetch hides a redirect's status: it is no 2xx either way.
  if (response.type === "opaqueredirect") throw new Error("the endpoint answered a redirect, which is not followed");
  // Read to the end, so the connection is free for the next attempt.
  await response.arrayBuffer().catch(() => {});
  return response.status;
}

/** Calls an in-process handler with a Request; a Response (or a promise of one) is its answer. */
async function call(handler, headers, body, signal) {
  const request = new Request(HANDLER_URL, { method: "POST", headers, body, signal });
  let answer;
  try {
    answer = await handler(request);
  } catch (error) {
    throw new Error(`the handler threw: ${failure(error)}`, { cause: error });
  }
  if (!(answer instanceof Response)) {
    const got = answer === null ? "null" : typeof answer === "object" ? "an object that is not a Response" : typeof answer;
    throw new TypeError(`the handler answered ${got}: it must return a Response (or a promise of one), such as new Response(null, { status: 200 })`);
  }
  return answer.status;
}

/** Rejects once `signal` aborts: a handler that never settles still ends its attempt. */
function whenAborted(signal) {
  return new Promise((resolve, reject) => {
    signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
}

/**
 * Sends one attempt. `handler`: the endpoint's function (a handler
 * endpoint), undefined for a URL one. Never rejects: resolves with
 * `{ status, durationMs, error }` for reportAttempt.
 */
export async function sendAttempt(attempt, handler, fetchFn, timeoutMs = ATTEMPT_TIMEOUT_MS) {
  // The scenario lost it on the sender's side: nothing reaches the receiver.
  if (attempt.drop) return { status: 0, durationMs: 0, error: "dropped" };
  const started = performance.now();
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  try {
    const headers = await headersOf(attempt);
    let sending;
    if (attempt.url) sending = post(fetchFn, attempt.url, headers, attempt.body, controller.signal);
    else if (typeof handler === "function") sending = call(handler, headers, attempt.body, controller.signal);
    else {
      throw new Error(
        `endpoint ${attempt.endpoint} has no handler function in this process (a handler endpoint restored from a snapshot): ` +
          "remove it and add it again with its handler",
      );
    }
    // Past the timeout, what the send still does is of no interest.
    sending.catch(() => {});
    const status = await Promise.race([sending, whenAborted(controller.signal)]);
    return { status, durationMs: performance.now() - started, error: "" };
  } catch (error) {
    const message = controller.signal.aborted ? controller.signal.reason.message : failure(error);
    return { status: 0, durationMs: performance.now() - started, error: message };
  } finally {
    clearTimeout(timer);
  }
}
