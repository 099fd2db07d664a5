// The admin API's sessions: GET /__orderpay/sessions lists them with their
// counts, GET or DELETE /__orderpay/sessions/NAME reads or ends one, and
// /__orderpay/sessions/NAME/ROUTE is any admin route of the default session
// acting on session NAME. An admin route without that prefix acts on the
// session the request names (header, /s/NAME/ or cookie), else the default.
import { sendData, sendError } from "./reply.js";
import { DEFAULT_SESSION, nameProblem, SERVER_ROUTES } from "./session_name.js";
import { SessionRefused } from "./sessions.js";


/** The admin paths of the sessions, given the admin routes: the list, one session, and each session's routes. */
export function sessionPaths(routes) {
  const each = routes.filter(([, p]) => !SERVER_ROUTES.has(p)).map(([, p]) => `/__orderpay/sessions/{session}${p}`);
  return ["/__orderpay/sessions", "/__orderpay/sessions/{session}", ...each];
}

/** The context of session `name`, or undefined once a refusal (503 past --max-sessions) is sent. */
function contextOf(res, sessions, name) {
  try {
    return sessions.ctxOf(name);
  } catch (error) {
    if (!(error instanceof SessionRefused)) throw error;
    return void sendError(res, error.status, error.message);
  }
}

/** GET /sessions/NAME: its summary; DELETE: ends it. */
function oneSession(req, res, sessions, name, path) {
  const method = req.method === "HEAD" ? "GET" : req.method;
  if (method !== "GET" && method !== "DELETE") {
    return sendError(res, 405, `method: ${req.method} is not allowed on ${path}; use GET, DELETE`, { allow: "GET, DELETE" });
  }
  if (method === "DELETE" && name === DEFAULT_SESSION) {
    return sendError(res, 400, "session: the default session cannot end; POST /__orderpay/reset makes it fresh");
  }
  const about = sessions.describe(name);
  if (about === null) return sendError(res, 404, `session: no session ${JSON.stringify(name)}; GET /__orderpay/sessions lists them`);
  if (method === "DELETE") sessions.end(name);
  sendData(res, about);
}

function listSessions(req, res, sessions, path) {
  if (req.method !== "GET" && req.method !== "HEAD") {
    return sendError(res, 405, `method: ${req.method} is not allowed on ${path}; use GET`, { allow: "GET" });
  }
  const { maxSessions, idleMs } = sessions.limits;
  sendData(res, { sessions: sessions.list(), count: sessions.size, maxSessions, sessionIdleMs: idleMs });
}

/**
 * Where an admin request under `sub` (the path after /__orderpay) goes:
 * `{ ctx, sub }`, the session's context and the route within it; or null
 * once it is answered here (the sessions routes, a bad name, a refusal).
 * `picked`: the session the request named, null for none.
 */
export function sessionTarget(req, res, sessions, sub, picked, path) {
  if (sub === "/sessions") {
    listSessions(req, res, sessions, path);
    return null;
  }
  const m = /^\/sessions\/([^/]*)(\/.*)?$/.exec(sub);
  if (m === null) {
    const ctx = contextOf(res, sessions, picked);
    return ctx === undefined ? null : { ctx, sub };
  }
  const [, name, rest] = m;
  const problem = nameProblem(name);
  if (problem) {
    sendError(res, 400, `session: ${problem}`);
    return null;
  }
  if (rest === undefined) {
    oneSession(req, res, sessions, name, path);
    return null;
  }
  const ctx = contextOf(res, sessions, name);
  return ctx === undefined ? null : { ctx, sub: rest };
}
