// The gateway over HTTP: the request as it came (method, path and query,
// headers, body bytes) handed to the service through the package's
// internal `exchange()` (service.js), which returns the envelope as the
// JSON text the core wrote; that text goes out as it is, with the status
// and headers. The service itself checks everything (UTF-8, JSON, sizes,
// routes), so the server adds no rules of its own beyond stopping a body
// at the core's limit (MAX_BODY) as it streams in.
import { gateway } from "../gateway_url.js";
import { MAX_BODY, UnreadBody } from "../request_parts.js";
import { exchange } from "../service.js";
import { declaredLength, readBody, TOO_LARGE } from "./body.js";
import { addCors } from "./cors.js";
import { DEFAULT_SESSION } from "./session_name.js";

/**
 * The gateway's paths on a server whose `{base}` is `base` ("" or "/shop"):
 * a function of a path (no query) that gives the path under the base, or
 * null when the path is not the gateway's. It asks gateway() of the
 * adapters, on any origin, so the server and they agree.
 */
export function gatewayPaths(base) {
  const gw = gateway(base || "/", { anyOrigin: true });
  return (path) => (gw.pathOf(`http://server${path}`) === null ? null : path.slice(base.length));
}

/** Answers a gateway request; `path` has the base stripped, `query` its "?…" or "". */
export async function answerGateway(req, res, ctx, path, query) {
  let body = await readBody(req, MAX_BODY);
  if (body === TOO_LARGE) {
    // The rest of the body is never read: the connection closes after the
    // answer. The service is told only what the server knows of its size
    // (the declared length, or that it passed the limit), and its answer
    // and its log record say that.
    res.setHeader("connection", "close");
    body = new UnreadBody(declaredLength(req));
  }
  // The envelope's JSON text as the service wrote it: no parse and stringify again.
  const reply = exchange(ctx.instance.service, req.method, path + query, body, req.headers);
  ctx.changed();
  const ran = !(reply.fault?.kind === "network" && reply.fault.phase === "request");
  const text = ran ? reply.text : "";
  const wait = ctx.latency * Number(reply.headers["x-sim-duration-ms"] ?? 0);
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  // A copy: the service's own headers stay as they were, in its run journal.
  const headers = addCors({ ...reply.headers });
  // A named session's answers say which session they come from.
  if (ctx.session !== undefined && ctx.session !== DEFAULT_SESSION) headers["x-orderpay-session"] = ctx.session;
  // A scenario's network fault: on the socket, in place of the answer (server/fault_on_socket.js).
  if (reply.fault?.kind === "network") {
    return ctx.faults.write(res, { kind: reply.fault.fault, ms: reply.fault.ms }, ran ? { status: reply.status, headers, text } : null);
  }
  headers["content-length"] = Buffer.byteLength(text);
  res.writeHead(reply.status, headers);
  res.end(text);
}
