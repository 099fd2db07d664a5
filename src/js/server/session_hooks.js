// What the server (app.js) asks of the sessions: making them from the
// command line's options, the context a gateway request runs in, and the
// browser's way into a session (GET /s/NAME/ sets the cookie).
import { adminRoutes } from "./admin.js";
import { sendError } from "./reply.js";
import { DEFAULT_SESSION, SERVER_ROUTES, sessionCookie } from "./session_name.js";
import { SessionRefused, Sessions } from "./sessions.js";

/**
 * The sessions of a server whose default session is `ctx`. `options`: the
 * command line's (maxSessions, sessionIdle in ms, state, savedSessions),
 * its defaults included (options.js).
 */
export function createSessions(ctx, options, serviceOptions) {
  return new Sessions(ctx, {
    maxSessions: options.maxSessions,
    idleMs: options.sessionIdle,
    serviceOptions,
    // The server's seed: --seed, else the one the default session drew (or was saved with).
    seed: serviceOptions.seed ?? ctx.instance.service.seed,
    statePath: options.state ?? null,
    saved: options.savedSessions ?? new Map(),
    routesFor: (session) => adminRoutes(session).filter(([, path]) => !SERVER_ROUTES.has(path)),
    log: (line) => console.log(line),
  });
}

/**
 * The context a gateway request of session `name` runs in; or undefined
 * once the refusal past --max-sessions is sent.
 */
export function sessionContext(res, sessions, name) {
  try {
    return sessions.ctxOf(name);
  } catch (error) {
    if (!(error instanceof SessionRefused)) throw error;
    return void sendError(res, error.status, error.message);
  }
}

/**
 * GET /s/NAME/: a browser enters session NAME. The cookie is set for the
 * whole server and the browser goes on to the playground at /, whose
 * requests (and the admin API's) then act on NAME; /s/default/ clears it.
 */
export function enterSession(res, name) {
  res.writeHead(303, {
    location: "/",
    "set-cookie": sessionCookie(name ?? DEFAULT_SESSION),
    "cache-control": "no-store",
    "content-length": 0,
  });
  res.end();
}
