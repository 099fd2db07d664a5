// The HTTP server: one node:http server that sends each request to the
// gateway (`{base}/api/…`), the admin API (`/__orderpay/…`) or the static
// files (the playground at /, the package at /pkg/), and that behaves like
// a real server: keep-alive, timeouts for slow clients, JSON answers even
// for requests Node itself could not parse, and a graceful stop.
import { createServer } from "node:http";
import { readFileSync } from "node:fs";

import { openapi } from "../node.js";
import { AdminAccess } from "./access.js";
import { adminRoutes, answerAdmin, PREFIX } from "./admin.js";
import { adminOpenapi } from "./admin-openapi.js";
import { answerPreflight, isPreflight } from "./cors.js";
import { LIVE_MARKER, StaticFiles } from "./files.js";
import { LogEvents } from "./events.js";
import { FaultWriter } from "./fault_on_socket.js";
import { DueTimer } from "./due_timer.js";
import { answerGateway, gatewayPaths } from "./gateway.js";
import { Instance } from "./instance.js";
import { rawError, sendError } from "./reply.js";
import { StateFile } from "./state.js";
import { createSessions, enterSession, sessionContext } from "./session_hooks.js";
import { pickSession } from "./session_name.js";

const MANIFEST = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));

/** Node refuses headers over this; the service's own 431 covers up to 64 KiB. */
const MAX_HEADER_SIZE = 80 * 1024;

/** A request Node's parser refused: a 4xx written on the socket, or the socket closed. */
function answerClientError(error, socket) {
  if (!socket.writable || error.code === "ECONNRESET") return socket.destroy();
  const [status, msg] =
    error.code === "HPE_HEADER_OVERFLOW"
      ? [431, `headers: over the ${MAX_HEADER_SIZE} bytes this server reads`]
      : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? [408, "request: not received in time; the connection is closed"]
        : [400, `request: not valid HTTP (${error.code ?? error.message})`];
  socket.end(rawError(status, msg));
}

/**
 * Listens; resolves with the address the server is reachable at, once the
 * OpenAPI documents name it as their server.
 */
function listen(server, options, ctx, document, adminDocument) {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      const { port } = server.address();
      const host = options.host.includes(":") ? `[${options.host}]` : options.host;
      const url = `http://${host}:${port}`;
      document.servers = [{ url: url + options.base }];
      ctx.openapi = JSON.stringify(document, null, 2);
      adminDocument.servers = [{ url }];
      ctx.adminOpenapi = JSON.stringify(adminDocument, null, 2);
      ctx.state?.touch();
      resolve(url);
    });
  });
}

/**
 * A server, not yet listening. `options`: those of the command line
 * (options.js), plus `snapshot`, the Service restored from the state file
 * (StateFile.load) to start from, and
 * `playground`, the directory served at /.
 */
export function createOrderpayServer(options, serviceOptions) {
  const instance = new Instance(serviceOptions, options.snapshot ?? null).pinSecrets();
  const access = new AdminAccess(options.host, options.adminToken);
  // Pages served here carry the live marker: the playground then follows this server, with no probe.
  const files = new StaticFiles([["/", options.playground], ["/pkg/", new URL("..", import.meta.url).pathname]], { head: LIVE_MARKER });
  const document = JSON.parse(openapi());
  const adminDocument = adminOpenapi(MANIFEST);
  const ctx = {
    instance,
    access,
    base: options.base,
    latency: options.latency,
    version: MANIFEST.version,
    started: performance.now(),
    state: options.state ? new StateFile(options.state, () => instance.service.snapshot()) : null,
    openapi: "",
    adminOpenapi: "",
    events: new LogEvents(instance),
    faults: new FaultWriter(),
    changed: () => {
      ctx.state?.touch();
      ctx.events.changed();
      ctx.due.arm();
    },
  };
  // On the wall clock, what comes due resolves while the server runs, and delivery attempts are recorded: the log streams show both.
  instance.attempted = ctx.changed;
  ctx.due = new DueTimer(instance, ctx.changed);
  ctx.due.arm();
  ctx.adminRoutes = adminRoutes(ctx);
  const gatewayPath = gatewayPaths(options.base);
  ctx.sessions = createSessions(ctx, options, serviceOptions);

  const server = createServer(
    {
      maxHeaderSize: MAX_HEADER_SIZE,
      headersTimeout: options.headersTimeout,
      requestTimeout: options.requestTimeout,
      connectionsCheckingInterval: Math.min(1000, options.headersTimeout),
      keepAliveTimeout: 5000,
    },
    (req, res) => {
      dispatch(req, res, ctx, files, gatewayPath).catch((error) => {
        if (!res.headersSent) sendError(res, 500, `server: ${error.message}`);
        else res.destroy();
      });
    },
  );
  server.on("clientError", answerClientError);

  server.start = () => listen(server, options, ctx, document, adminDocument);
  // The event streams never end by themselves: a stopping server ends them, so that it can finish.
  const close = server.close.bind(server);
  server.close = (callback) => {
    ctx.events.end();
    ctx.due.stop();
    ctx.faults.stop();
    ctx.sessions.close();
    return close(callback);
  };
  server.orderpay = ctx;
  return server;
}

async function dispatch(req, res, ctx, files, gatewayPath) {
  const raw = req.url ?? "/";
  const at = raw.indexOf("?");
  const query = at < 0 ? "" : raw.slice(at);
  const picked = pickSession(req, at < 0 ? raw : raw.slice(0, at));
  if (picked.error) return sendError(res, 400, picked.error);
  const { path, name } = picked;
  if (path === PREFIX || path.startsWith(PREFIX + "/")) {
    if (req.method === "OPTIONS") return sendError(res, 403, "Origin: the admin API answers no page of another origin");
    return answerAdmin(req, res, ctx, path, new URLSearchParams(query), name);
  }
  const api = gatewayPath(path);
  if (api !== null) {
    if (isPreflight(req)) return answerPreflight(req, res);
    const session = sessionContext(res, ctx.sessions, name);
    return session && answerGateway(req, res, session, api, query);
  }
  if (picked.prefixed && path === "/" && (req.method === "GET" || req.method === "HEAD")) return enterSession(res, name);
  if (req.method !== "GET" && req.method !== "HEAD") {
    return sendError(res, 404, `No route for ${req.method} ${path}; the gateway is under ${ctx.base}/api/`);
  }
  return files.serve(req, res, path);
}
