// The trace headers a caller would send, checked by the service's own
// rules (the core's observe/trace.rs, through the module), so that a page
// can say before sending which header the trace id will come from and why
// the service ignores another: it never refuses a request over tracing, it
// ignores a bad id and makes a fresh one.
import { traceHeaders as checkInModule } from "./binding.js";
import { loaded } from "./ready.js";

/** The headers the service reads a trace id or the caller's span from, by their lower-case names. */
const READ = ["x-b3-traceid", "x-b3-spanid", "b3", "traceparent"];

/** A header's value from an object (names in any letter case) or a Headers, "" when absent. */
function valueOf(headers, name) {
  if (typeof headers.get === "function") return headers.get(name) ?? "";
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  return key === undefined || headers[key] == null ? "" : String(headers[key]);
}

/**
 * Which of `headers` decides the trace id (`"X-B3-TraceId"`, `"b3"`,
 * `"traceparent"`, or null when the service makes a fresh one), and for
 * each trace header given that the service ignores as ill-formed, why.
 */
export function traceHeaders(headers) {
  if (headers === null || typeof headers !== "object") {
    throw new TypeError(`traceHeaders: expected headers as an object or a Headers, got ${headers === null ? "null" : typeof headers}`);
  }
  if (!loaded()) throw new Error("traceHeaders: the WebAssembly module is not loaded yet: await init() first");
  const [traceId, spanId, b3, traceparent] = READ.map((name) => valueOf(headers, name));
  return JSON.parse(checkInModule(traceId, spanId, b3, traceparent));
}
