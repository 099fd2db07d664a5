// Which session a request belongs to. Parallel test workers share one
// server but not its state: each names its session by a path prefix
// (`/s/NAME/…`, for a base URL that can carry nothing else), a header
// (`X-Orderpay-Session: NAME`) or a cookie (`orderpay-session=NAME`, for a
// browser's navigations), first found in that order. A request with none
// of them is the default session's, as before sessions existed.

export const SESSION_HEADER = "x-orderpay-session";
export const SESSION_COOKIE = "orderpay-session";
/** The session of a request that names none; naming it is the same. */
export const DEFAULT_SESSION = "default";

/** The admin routes that are the server's, not a session's: they ignore the session and are not under /sessions/NAME/. */
export const SERVER_ROUTES = new Set(["/health", "/openapi.json", "/openapi-admin.json"]);

const NAME = /^[A-Za-z0-9._-]{1,64}$/;

/** Why `name` is not a session's name, or null when it is one. */
export function nameProblem(name) {
  if (!NAME.test(name)) {
    const shown = name.length > 80 ? `${name.slice(0, 80)}…` : name;
    return `expected a session name of 1 to 64 characters among A-Z a-z 0-9 . _ -, got ${JSON.stringify(shown)}`;
  }
  if (name === "." || name === "..") return `expected a session name, got ${JSON.stringify(name)}, a path segment URLs drop`;
  return null;
}

/** The value of the session cookie in a Cookie header, or null. */
function cookieValue(header) {
  for (const part of header.split(";")) {
    const at = part.indexOf("=");
    if (at >= 0 && part.slice(0, at).trim() === SESSION_COOKIE) return part.slice(at + 1).trim();
  }
  return null;
}

/**
 * The session `req` names and the path with its `/s/NAME` prefix taken off:
 * `{ name, path, prefixed }`, name null for the default session; or
 * `{ error }`, a msg naming where the bad name came from.
 */
export function pickSession(req, path) {
  if (path.startsWith("/s/")) {
    const end = path.indexOf("/", 3);
    const name = end < 0 ? path.slice(3) : path.slice(3, end);
    const problem = nameProblem(name);
    if (problem) return { error: `session: the path prefix /s/NAME/ ${problem}` };
    return { name, path: end < 0 ? "/" : path.slice(end), prefixed: true };
  }
  const header = req.headers[SESSION_HEADER];
  if (header !== undefined) {
    const problem = nameProblem(header);
    return problem ? { error: `session: X-Orderpay-Session: ${problem}` } : { name: header, path, prefixed: false };
  }
  const cookies = req.headers.cookie;
  const cookie = cookies === undefined ? null : cookieValue(cookies);
  if (cookie !== null) {
    const problem = nameProblem(cookie);
    return problem ? { error: `session: the cookie ${SESSION_COOKIE} ${problem}` } : { name: cookie, path, prefixed: false };
  }
  return { name: null, path, prefixed: false };
}

/**
 * The Set-Cookie header that puts a browser in session `name` (or back in
 * the default one), for every path of this server.
 */
export function sessionCookie(name) {
  return name === DEFAULT_SESSION
    ? `${SESSION_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax`
    : `${SESSION_COOKIE}=${name}; Path=/; SameSite=Lax`;
}
