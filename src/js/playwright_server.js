// mockOrderpay(page, { server }): the page's gateway requests go to a
// running `orderpay serve`, in a session of their own. Each Playwright
// worker gets its own (`worker-N`, N its worker index), so parallel
// workers share one server and never one another's orders, log or forced
// outcomes, with no setup. Internal module: orderpay/playwright calls it.
import { checkOptions, gateway, kind } from "./adapter.js";
import { routed } from "./playwright_cors.js";

const OPTIONS = ["server", "session", "baseUrl", "reset"];
const SESSION = /^[A-Za-z0-9._-]{1,64}$/;
/** Headers of the page's request that belong to its own connection, not to the server's. */
const HOP = new Set(["host", "connection", "content-length", "keep-alive", "transfer-encoding"]);

const shown = (value) => (typeof value === "string" ? JSON.stringify(value) : kind(value));

/** The session of this Playwright worker: worker-N, from the TEST_WORKER_INDEX Playwright Test sets. */
export function workerSession() {
  return `worker-${globalThis.process?.env?.TEST_WORKER_INDEX ?? 0}`;
}

/** The server's gateway (its --base included) and its admin origin, from the `server` option. */
function serverOf(server) {
  let url;
  try {
    url = new URL(server instanceof URL ? server.href : server);
  } catch {
    throw new TypeError(`mockOrderpay: server: expected the address of orderpay serve such as "http://127.0.0.1:4010", got ${shown(server)}`);
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.search || url.hash) {
    throw new TypeError(`mockOrderpay: server: expected an http(s) address with no query, got ${JSON.stringify(url.href)}`);
  }
  return { gateway: url.origin + url.pathname.replace(/\/+$/, ""), origin: url.origin };
}

function checkSession(session) {
  if (typeof session !== "string" || !SESSION.test(session) || session === "." || session === "..") {
    throw new TypeError(`mockOrderpay: session: expected 1 to 64 characters among A-Z a-z 0-9 . _ -, got ${shown(session)}`);
  }
  return session;
}

/** An admin request of the session; rejects with the server's msg when it refuses. */
async function adminCall(url, method = "GET", body = undefined) {
  let res;
  try {
    res = await fetch(url, { method, body: body === undefined ? undefined : JSON.stringify(body), headers: { "content-type": "application/json" } });
  } catch (error) {
    throw new Error(`mockOrderpay: server: cannot reach ${url}: ${error.cause?.message ?? error.message}`, { cause: error });
  }
  const answer = await res.json().catch(() => null);
  if (!res.ok || answer?.code !== 0) throw new Error(`mockOrderpay: ${method} ${url}: ${answer?.msg ?? res.status}`);
  return answer.data;
}

/**
 * Routes the gateway's requests of `target` to the server, in the session.
 */
export async function routeToServer(target, options) {
  const opts = checkOptions(options, OPTIONS, "mockOrderpay");
  const server = serverOf(opts.server);
  const session = checkSession(opts.session ?? workerSession());
  const gw = gateway(opts.baseUrl ?? "/", { anyOrigin: true });
  const admin = `${server.origin}/__orderpay/sessions/${session}`;
  if (opts.reset !== false) await adminCall(`${admin}/reset`, "POST", {});

  const matches = (url) => gw.pathOf(url.href) !== null;
  async function handler(route) {
    const seen = await routed(route);
    if (seen === null) return;
    const { url, headers, cors: extra } = seen;
    const sent = Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP.has(name)));
    const response = await route.fetch({ url: server.gateway + gw.pathOf(url), headers: { ...sent, "x-orderpay-session": session }, maxRedirects: 0 });
    await route.fulfill({ response, headers: { ...response.headers(), ...extra } });
  }
  await target.route(matches, handler);

  return {
    session,
    /** The session's admin routes: `${admin}/logs`, `${admin}/force-next`... */
    admin,
    /** The next `count` payment attempts of the session fail or succeed. */
    forceNext: (outcome, count = 1) => adminCall(`${admin}/force-next`, "POST", { outcome, count }).then(() => undefined),
    /** The session's log records, oldest first. */
    logs: () => adminCall(`${admin}/logs`).then((data) => data.records),
    /** Stops routing: the gateway's requests go to the network again. */
    unroute: () => target.unroute(matches, handler),
  };
}
