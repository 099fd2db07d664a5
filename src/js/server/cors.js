// CORS for the gateway only: a dev server on another port may call the
// eight endpoints and read their trace headers. The admin API never gets
// these headers, so a page on another origin cannot read it.

// A scenario's failures too (retry-after is not one of the headers a page reads without being told), and an
// Idempotency-Key replay's mark, so that an app on a dev server's origin can show and test them.
const EXPOSED =
  "x-b3-traceid, x-b3-spanid, x-b3-parentspanid, x-b3-sampled, traceparent, x-sim-duration-ms, allow, " +
  "retry-after, x-orderpay-rule, x-orderpay-fault, x-orderpay-decline-code, idempotent-replayed, x-orderpay-session";
const METHODS = "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS";

/**
 * Adds the headers every gateway answer carries. (Assigned, not spread from
 * a frozen object: on Node 20 that spread, when hot, crashes V8's deoptimizer.)
 */
export function addCors(headers) {
  headers["access-control-allow-origin"] = "*";
  headers["access-control-expose-headers"] = EXPOSED;
  return headers;
}

/** Whether a request is a CORS preflight rather than an OPTIONS call of its own. */
export function isPreflight(req) {
  return req.method === "OPTIONS" && typeof req.headers["access-control-request-method"] === "string";
}

/** 204 allowing any method and the headers asked for (X-User-Id, X-B3-*, traceparent, X-Sim-Outcome...). */
export function answerPreflight(req, res) {
  const asked = req.headers["access-control-request-headers"];
  res.writeHead(204, addCors({
    "access-control-allow-methods": METHODS,
    "access-control-allow-headers": typeof asked === "string" && asked ? asked : "content-type",
    "access-control-max-age": "600",
    vary: "access-control-request-headers",
    "content-length": "0",
  }));
  res.end();
}
