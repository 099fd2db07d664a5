// orderpay/msw: the service as Mock Service Worker handlers. `msw` is an
// optional peer dependency: it is imported from the user's own install, and
// only by those who import this module.
import { delay, http, HttpResponse } from "msw";
import { Service } from "./orderpay.js";
import { checkOptions, engine, networkFault } from "./adapter.js";
import { dribbleBody, holdOpen, shortBody } from "./fault_as_fetch.js";

const OPTIONS = ["service", "baseUrl", "warn", "delay", "scenario", "webhooks"];

/**
 * One handler for every method on the gateway's URLs. URLs outside the
 * gateway are left to the next handlers and to MSW's onUnhandledRequest.
 */
export function createHandlers(options) {
  const opts = options instanceof Service ? { service: options } : checkOptions(options, OPTIONS, "createHandlers");
  // On any origin unless baseUrl names one: the same test then passes under
  // jsdom (whose page is http://localhost:3000) and in Node (no page at all).
  const core = engine(opts, "createHandlers", { anyOrigin: true });
  const handlers = [
    http.all(core.gateway.pattern, ({ request }) => preflight(request) ?? answer(core, request)),
  ];
  Object.defineProperties(handlers, {
    service: { get: () => core.service },
    ready: { value: core.ready },
  });
  return handlers;
}

/**
 * The service's answer, after its simulated time when `delay` asks for it
 * (MSW's own `delay`); a scenario's network fault in MSW's own forms:
 * `HttpResponse.error()` for a lost connection, `delay("infinite")` for a
 * hang (fetch rejects when its signal aborts), a streamed body for a short
 * or dribbled one.
 */
async function answer(core, request) {
  const reply = await core.reply(request);
  const wait = core.waitFor(reply);
  if (wait > 0) await delay(wait);
  const fault = networkFault(reply);
  if (!fault) return allowOrigin(request, core.responseOf(reply, request.url));
  if (fault.fault === "hang") {
    // MSW rejects the request's fetch when its signal aborts.
    holdOpen(request.signal);
    return delay("infinite");
  }
  if ((fault.fault !== "short" && fault.fault !== "dribble") || !(reply.status >= 200 && reply.status <= 599)) {
    return HttpResponse.error();
  }
  const text = reply.body ?? "";
  const body = fault.fault === "short" ? shortBody(text) : dribbleBody(text, fault.ms, request.signal, delay);
  const headers = reply.headers.filter(([name]) => name !== "content-length");
  return allowOrigin(request, new HttpResponse(body, { status: reply.status, statusText: reply.statusText, headers }));
}

/**
 * The answer to a CORS preflight, as an API on another origin gives it, so
 * that it never reaches the service. MSW 3 in Node hands each request on to
 * the environment's own fetch, and happy-dom's, as a browser's would, sends
 * a preflight before a cross-origin request and refuses the request unless
 * it is allowed (MSW 2 replaced that fetch). Null for any other request.
 */
function preflight(request) {
  if (request.method !== "OPTIONS") return null;
  const declared = request.headers.get("origin");
  const method = request.headers.get("access-control-request-method");
  const origin = declared && method ? declared : happyDomPreflight(request);
  if (!origin) return null;
  const headers = new Headers({
    "access-control-allow-origin": origin,
    "access-control-allow-credentials": "true",
    "access-control-allow-methods": method ?? "*",
    "access-control-max-age": "600",
    vary: "Origin",
  });
  const requested = request.headers.get("access-control-request-headers");
  if (requested) headers.set("access-control-allow-headers", requested);
  return new Response(null, { status: 204, headers });
}

/**
 * happy-dom's preflight names neither its origin nor the method to come
 * (capricorn86/happy-dom#1488): in happy-dom, an OPTIONS without an Origin
 * to a URL off the page's origin is its preflight. The page's origin, or null.
 */
function happyDomPreflight(request) {
  if (request.headers.has("origin") || !/\bHappyDOM\//.test(globalThis.navigator?.userAgent ?? "")) return null;
  const page = globalThis.location?.origin;
  return typeof page === "string" && page !== "null" && page !== new URL(request.url).origin ? page : null;
}

/** The service's answer to a request that names its Origin, readable by that origin's page with every header. */
function allowOrigin(request, response) {
  const origin = request.headers.get("origin");
  if (!origin) return response;
  const exposed = [...response.headers.keys()].join(", ");
  response.headers.set("access-control-allow-origin", origin);
  response.headers.set("access-control-allow-credentials", "true");
  if (exposed) response.headers.set("access-control-expose-headers", exposed);
  response.headers.append("vary", "Origin");
  return response;
}
