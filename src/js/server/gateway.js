// The eight endpoints over HTTP: the request as it came (method, path and
// query, headers, body bytes) handed to `Service.request`, and its answer
// sent as it is: status, headers and envelope. The service itself checks
// everything (UTF-8, JSON, sizes, routes), so the server adds no rules of
// its own beyond stopping a body at 1 MiB as it streams in.
import { UnreadBody } from "../plain.js";
import { exchange } from "../service.js";
import { declaredLength, readBody, TOO_LARGE } from "./body.js";
import { addCors } from "./cors.js";
import { DEFAULT_SESSION } from "./session_name.js";

export const MAX_BODY_BYTES = 1024 * 1024;

/** Whether `path` (no query) is under the gateway `{base}/api`, `api` in any letter case. */
export function gatewayPath(base, path) {
  if (base && !(path === base || path.startsWith(base + "/"))) return null;
  const rest = path.slice(base.length);
  return /^\/api(\/|$)/i.test(rest) ? rest : null;
}

/** Answers a gateway request; `path` has the base stripped, `query` its "?…" or "". */
export async function answerGateway(req, res, ctx, path, query) {
  let body = await readBody(req, MAX_BODY_BYTES);
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
  const headers = addCors(reply.headers);
  // A named session's answers say which session they come from.
  if (ctx.session !== undefined && ctx.session !== DEFAULT_SESSION) headers["x-orderpay-session"] = ctx.session;
  // A scenario's network fault: on the socket, in place of the answer (server/faults.js).
  if (reply.fault?.kind === "network") {
    return ctx.faults.write(res, { kind: reply.fault.fault, ms: reply.fault.ms }, ran ? { status: reply.status, headers, text } : null);
  }
  headers["content-length"] = Buffer.byteLength(text);
  res.writeHead(reply.status, headers);
  res.end(text);
}
