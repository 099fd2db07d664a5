// The requests as a HAR file (HTTP Archive 1.2), the format DevTools'
// Network panel exports and imports: open it there, or in any HAR viewer.
// URLs point at the server mode, as copy as curl does. Requests the page
// sent itself carry their headers and bodies; older ones (from the log
// alone) carry what the log keeps, and say so in a comment. Built in slices
// between frames, so a long list does not hold the page.
import { statusText } from "./pkg/status_text.js";
import { jsonPieces, slicer } from "./slices.js";

const pairs = (object) => Object.entries(object ?? {}).map(([name, value]) => ({ name: String(name), value: String(value) }));

function query(url) {
  return [...url.searchParams].map(([name, value]) => ({ name, value }));
}

function entry(req, exchange, base) {
  const path = exchange?.path ?? req.uri;
  const url = new URL(base + path);
  const headers = exchange ? pairs(exchange.headers) : pairs({ ...(req.userId ? { "X-User-Id": req.userId } : {}), "X-B3-TraceId": req.traceId });
  const body = exchange?.body ?? null;
  const envelope = exchange?.envelope ?? { code: req.code, msg: req.msg, data: null };
  const text = JSON.stringify(envelope);
  const request = {
    method: req.method, url: url.href, httpVersion: "HTTP/1.1", cookies: [], headers, queryString: query(url),
    headersSize: -1, bodySize: body === null ? 0 : new TextEncoder().encode(body).length,
  };
  if (body !== null) {
    request.postData = { mimeType: exchange.headers?.["Content-Type"] ?? exchange.headers?.["content-type"] ?? "application/json", text: body };
  }
  const duration = typeof req.duration === "number" ? req.duration : 0;
  return {
    startedDateTime: new Date(req.gateway?.timestamp ?? req.timestamp ?? 0).toISOString(),
    time: duration,
    request,
    response: {
      status: req.httpStatus ?? 0, statusText: statusText(req.httpStatus), httpVersion: "HTTP/1.1", cookies: [],
      headers: pairs(exchange?.responseHeaders ?? { "content-type": "application/json", "x-b3-traceid": req.traceId }),
      content: { size: text.length, mimeType: "application/json", text },
      redirectURL: "", headersSize: -1, bodySize: text.length,
    },
    cache: {},
    timings: { send: 0, wait: duration, receive: 0 },
    comment: exchange ? `trace ${req.traceId}` : `trace ${req.traceId}; from the log: the body and most headers were not kept`,
  };
}

/** The HAR of `requests` (oldest first), as JSON text in pieces (slices.js); `onProgress(done, total)` between slices. */
export async function toHar(requests, exchanges, base, onProgress = () => {}) {
  const entries = [];
  const clock = slicer();
  for (let i = 0; i < requests.length; i++) {
    entries.push(entry(requests[i], exchanges.get(requests[i].key), base));
    if ((i & 31) === 31 && clock.due()) {
      onProgress(i + 1, requests.length);
      await clock.next();
    }
  }
  const har = {
    log: {
      version: "1.2",
      creator: { name: "orderpay playground", version: "1" },
      pages: [],
      entries,
      comment: "Simulated by orderpay in a browser tab: times are the service's simulated durations.",
    },
  };
  return jsonPieces(har);
}
