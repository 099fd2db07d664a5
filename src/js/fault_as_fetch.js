// A scenario's network fault (`then: {kind: "network"}`) in the form
// `fetch` itself gives it, for createFetch, installFetch and the MSW
// handlers: a lost connection rejects with a TypeError, a hang never
// settles until the request's AbortSignal aborts, a short body errors
// while it is read, a dribble arrives in pieces over `ms`. Internal: the
// package does not export this file.
import { NetworkFaultError } from "./network_fault_error.js";

/** How many pieces a dribbled body is cut into, at most (as the server does). */
const DRIBBLE_PIECES = 10;

/** The reason an aborted signal gives, as fetch rejects with it. */
export function reasonOf(signal) {
  return signal.reason ?? new DOMException("This operation was aborted", "AbortError");
}

/**
 * Holds Node's event loop open until `signal` aborts, as the open socket
 * of a real request does, so that a script waiting on
 * `AbortSignal.timeout()` is still there when it fires. With no signal,
 * nothing could ever end the wait, and it holds nothing.
 */
export function holdOpen(signal) {
  if (!signal || signal.aborted) return;
  const open = setInterval(() => {}, 1 << 30);
  signal.addEventListener("abort", () => clearInterval(open), { once: true });
}

/** Never settles until `signal` aborts, then rejects with its reason: a request to a server that never answers. */
export function hang(signal) {
  return new Promise((resolve, reject) => {
    if (!signal) return;
    if (signal.aborted) return reject(reasonOf(signal));
    holdOpen(signal);
    signal.addEventListener("abort", () => reject(reasonOf(signal)), { once: true });
  });
}

/** A body that gives the first half of `text`, then errors with a TypeError, as a connection closed mid-body. */
export function shortBody(text) {
  const bytes = new TextEncoder().encode(text);
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes.subarray(0, Math.floor(bytes.length / 2)));
    },
    pull(controller) {
      controller.error(new TypeError("terminated: the connection closed before the whole body (a short body)"));
    },
  });
}

/**
 * A body that gives `text` in pieces spread over `ms` of real time (the
 * fault's `ms`, which the core fills with its default when the rule gives
 * none: src/sim/scenario/parse.rs); an
 * abort of `signal` errors it with the signal's reason, as fetch's body
 * does. `wait(ms)` waits between pieces (MSW passes its own `delay`).
 */
export function dribbleBody(text, ms, signal = null, wait = sleep) {
  const bytes = new TextEncoder().encode(text);
  const pieces = Math.max(1, Math.min(DRIBBLE_PIECES, bytes.length));
  const size = Math.ceil(bytes.length / pieces);
  const gap = pieces > 1 ? ms / (pieces - 1) : ms;
  let sent = 0;
  return new ReadableStream({
    async pull(controller) {
      if (sent > 0 || pieces === 1) await wait(gap);
      if (signal?.aborted) return controller.error(reasonOf(signal));
      const piece = bytes.subarray(sent, sent + size);
      sent += piece.length;
      controller.enqueue(piece);
      if (sent >= bytes.length) controller.close();
    },
  });
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * The Response (or rejection) that a reply carrying a network fault gives
 * through fetch: a lost connection rejects with a NetworkFaultError, a
 * TypeError as fetch's own "fetch failed" / "Failed to fetch" is, with the
 * fault on `.fault`. `reply`: {status, statusText, headers, body, fault}.
 */
export function faultResponse(reply, url, signal) {
  const { fault } = reply;
  if (fault.fault === "hang") return hang(signal);
  // short and dribble send (part of) an answer: one the service gave.
  if ((fault.fault !== "short" && fault.fault !== "dribble") || !(reply.status >= 200 && reply.status <= 599)) {
    return Promise.reject(new NetworkFaultError(fault));
  }
  const text = reply.body ?? "";
  const length = new TextEncoder().encode(text).length;
  const headers = [...reply.headers.filter(([name]) => name !== "content-length"), ["content-length", String(length)]];
  const body = fault.fault === "short" ? shortBody(text) : dribbleBody(text, fault.ms, signal);
  const response = new Response(body, { status: reply.status, statusText: reply.statusText, headers });
  Object.defineProperty(response, "url", { value: url, configurable: true });
  return Promise.resolve(response);
}
