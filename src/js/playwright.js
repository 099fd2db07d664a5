// orderpay/playwright: the service behind a Playwright page or browser
// context. Requests to the gateway are answered with `route.fulfill`,
// outside the page: no Service Worker, nothing added to the app, and every
// other request goes on as before (or to your own routes).
import "./inline.js";
import { checkOptions, engine, networkFault } from "./adapter.js";
import { Service } from "./orderpay.js";
import { routed } from "./playwright_cors.js";
import { routeToServer } from "./playwright_server.js";

const OPTIONS = ["service", "baseUrl", "warn", "delay", "scenario", "webhooks"];

/** How Playwright aborts a route for each lost connection: the page's fetch rejects with a TypeError. */
const ABORT_CODES = { reset: "connectionreset", empty: "connectionclosed", error: "failed" };
const DEFAULT_MS = { hang: 30000, dribble: 5000 };

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A scenario's network fault as the page meets it: `route.abort` with
 * connectionreset, connectionclosed or failed; a hang aborts with timedout
 * once `ms` has passed (the page's own AbortSignal can give up sooner). A
 * route cannot stream: a dribble is the whole answer after `ms`, and a short
 * body is the first half of the body (fulfill sets its own content-length).
 */
async function faulted(target, route, fault, reply, headers) {
  const kind = fault.fault;
  const ms = Number.isFinite(fault.ms) && fault.ms >= 0 ? fault.ms : DEFAULT_MS[kind];
  const real = reply.status >= 200 && reply.status <= 599;
  try {
    if (kind === "hang") {
      if (await hangOn(target, route.request(), ms)) return;
      return await route.abort("timedout");
    }
    if ((kind === "short" || kind === "dribble") && real) {
      const bytes = Buffer.from(reply.body ?? "");
      if (kind === "dribble") await sleep(ms);
      const body = kind === "short" ? bytes.subarray(0, Math.floor(bytes.length / 2)) : bytes;
      return await route.fulfill({ status: reply.status, headers, body });
    }
    return await route.abort(ABORT_CODES[kind] ?? "failed");
  } catch (error) {
    // The page, its context or the browser went away meanwhile: nobody is left to answer.
    if (!/closed|Target page|has been closed/i.test(String(error?.message))) throw error;
  }
}

/** Waits `ms`, or until the page gives the request up (true then: nobody is left to answer). */
function hangOn(target, request, ms) {
  return new Promise((resolve) => {
    const done = (gaveUp) => {
      clearTimeout(timer);
      target.off("requestfailed", failed);
      resolve(gaveUp);
    };
    const failed = (failedRequest) => failedRequest === request && done(true);
    const timer = setTimeout(done, ms, false);
    target.on("requestfailed", failed);
  });
}

function isRoutable(target) {
  return (
    target !== null &&
    typeof target === "object" &&
    typeof target.route === "function" &&
    typeof target.unroute === "function"
  );
}

/**
 * Answers the gateway's requests of `target` (a Page or a BrowserContext)
 * with the service. Resolves once the route is in place, with `service`
 * (logs, forcing, snapshots) and `unroute()`. With `{ server }`, sends
 * them to that `orderpay serve` instead, in this worker's session.
 */
export async function mockOrderpay(target, options) {
  if (!isRoutable(target)) {
    throw new TypeError("mockOrderpay: expected a Playwright Page or BrowserContext (something with route and unroute)");
  }
  // Pointed at a running `orderpay serve`: this worker's own session there (playwright_server.js).
  if (options?.server !== undefined && !(options instanceof Service)) return routeToServer(target, options);
  const opts = options instanceof Service ? { service: options } : checkOptions(options, OPTIONS, "mockOrderpay");
  // In the test's own process there is no page: a baseUrl that is a path
  // matches on any origin.
  const core = engine(opts, "mockOrderpay", { anyOrigin: true });
  const service = await core.ready;

  const matches = (url) => core.gateway.pathOf(url.href) !== null;
  async function handler(route) {
    const seen = await routed(route);
    if (seen === null) return;
    const { request, url, headers, cors } = seen;
    const raw = request.postDataBuffer();
    const body = raw && raw.length ? new Uint8Array(raw.buffer, raw.byteOffset, raw.length) : null;
    const reply = core.answer({ method: request.method(), url, headers, body });
    const replyHeaders = Object.fromEntries(reply.headers);
    const wait = core.waitFor(reply);
    if (wait > 0) await sleep(wait);
    const fault = networkFault(reply);
    if (fault) return faulted(target, route, fault, reply, { ...replyHeaders, ...cors });
    await route.fulfill({ status: reply.status, headers: { ...replyHeaders, ...cors }, body: reply.body ?? "" });
  }
  await target.route(matches, handler);

  return {
    service,
    /** Stops answering: the gateway's requests go to the network again. */
    unroute: () => target.unroute(matches, handler),
  };
}
