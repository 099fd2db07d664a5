// Who may use the admin API, which can wipe or replace all state. On a
// loopback address it is open to local tools; beyond loopback it asks for
// a bearer token. Either way a browser page of another origin is refused
// (no CORS, and an Origin that is not the server's own gets 403), and on
// loopback a Host that is not a loopback name is refused too, so that a
// DNS-rebinding page cannot pass for a local one.
import { randomBytes, timingSafeEqual } from "node:crypto";

export function isLoopback(host) {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  return h === "localhost" || h === "::1" || /^127\.\d+\.\d+\.\d+$/.test(h) || h === "::ffff:127.0.0.1";
}

/** The host name of a Host header, without its port. */
function hostName(header) {
  if (typeof header !== "string") return "";
  const m = /^(\[[^\]]*\]|[^:]*)(:\d+)?$/.exec(header.trim());
  return m ? m[1] : "";
}

export class AdminAccess {
  /**
   * `host`: the address listened on. `token`: the one given, if any; beyond
   * loopback one is made when none is given.
   */
  constructor(host, token) {
    this.loopbackOnly = isLoopback(host);
    this.token = token ?? (this.loopbackOnly ? null : randomBytes(18).toString("base64url"));
    this.generated = token === undefined && this.token !== null;
  }

  /** null when the request may use the admin API; else [status, msg, headers]. */
  check(req) {
    const origin = req.headers.origin;
    if (typeof origin === "string" && origin !== `http://${req.headers.host}`) {
      return [403, `Origin: the admin API answers no page of another origin, and ${origin} is one`, {}];
    }
    if (req.headers["sec-fetch-site"] === "cross-site") {
      return [403, "Sec-Fetch-Site: the admin API answers no cross-site request", {}];
    }
    if (this.loopbackOnly && !isLoopback(hostName(req.headers.host))) {
      return [403, `Host: the admin API on a loopback address answers loopback names only, not ${JSON.stringify(req.headers.host ?? "")}`, {}];
    }
    if (this.token === null) return null;
    const given = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? "")?.[1] ?? "";
    const a = Buffer.from(given);
    const b = Buffer.from(this.token);
    if (a.length === b.length && timingSafeEqual(a, b)) return null;
    return [
      401,
      given
        ? "Authorization: wrong admin token"
        : "Authorization: the admin API needs the admin token (Authorization: Bearer TOKEN) when the server listens beyond loopback",
      { "www-authenticate": 'Bearer realm="orderpay admin"' },
    ];
  }
}
