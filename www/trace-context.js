// The trace context a caller can send, checked here the way the service
// checks it, so the console can say before sending which header the service
// will use and which it will ignore (the service never refuses a request
// over tracing: it ignores a bad id and makes a fresh one).

const hex = (s) => /^[0-9a-f]+$/.test(s);
const notZero = (s) => /[1-9a-f]/.test(s);

/** Why a B3 trace id will be ignored, or "" when it will be used. */
export function traceIdProblem(text) {
  if (text === "") return "";
  if (/[A-F]/.test(text) && /^[0-9a-fA-F]+$/.test(text)) return "upper-case letters: ids are lower-case hex (0-9, a-f)";
  if (!hex(text)) return "not hex digits: an id has only 0-9 and a-f";
  if (text.length !== 16 && text.length !== 32) return `${text.length} digits: an id has 16 or 32`;
  if (!notZero(text)) return "all zeros: that id means none";
  return "";
}

/** Why a span id (X-B3-SpanId, the parent in b3 or traceparent) will be ignored, or "". */
export function spanIdProblem(text) {
  if (text === "") return "";
  if (!hex(text)) return "not lower-case hex digits";
  if (text.length !== 16) return `${text.length} digits: a span id has 16`;
  if (!notZero(text)) return "all zeros";
  return "";
}

/** Why a traceparent header will be ignored, or "". */
export function traceparentProblem(text) {
  if (text === "") return "";
  const parts = text.trim().split("-");
  if (parts.length !== 4) return "it has four parts: 00-{32 hex trace id}-{16 hex parent id}-{2 hex flags}";
  const [version, trace, parent, flags] = parts;
  if (version.length !== 2 || !hex(version) || version === "ff") return `version "${version}": two hex digits, not ff`;
  if (trace.length !== 32 || !hex(trace) || !notZero(trace)) return "the trace id: 32 lower-case hex digits, not all zeros";
  if (spanIdProblem(parent) || parent === "") return "the parent id: 16 lower-case hex digits, not all zeros";
  if (flags.length !== 2 || !/^[0-9a-fA-F]{2}$/.test(flags)) return "the flags: two hex digits (01: sampled)";
  return "";
}

/** Why a single b3 header will be ignored, or "". */
export function b3Problem(text) {
  if (text === "") return "";
  const parts = text.trim().split("-");
  if (parts.length === 1) return ["0", "1", "d", "true", "false"].includes(parts[0]) ? "" : "a lone value is a sampling decision: 0, 1 or d";
  if (parts.length > 4) return "at most {traceId}-{spanId}-{sampled}-{parentSpanId}";
  const [trace, span, sampled] = parts;
  const t = traceIdProblem(trace);
  if (t) return `the trace id: ${t}`;
  if (spanIdProblem(span) || span === "") return "the span id: 16 lower-case hex digits, not all zeros";
  if (sampled !== undefined && !["0", "1", "d", "true", "false"].includes(sampled)) return "the sampling decision: 0, 1 or d";
  return "";
}

/** Which header decides the trace, as the service reads them: X-B3-TraceId, then b3, then traceparent. */
export function decidingHeader(headers) {
  const get = (name) => headers[name] ?? "";
  if (get("X-B3-TraceId") && !traceIdProblem(get("X-B3-TraceId"))) return "X-B3-TraceId";
  const b3 = get("b3");
  if (b3 && !b3Problem(b3) && b3.includes("-")) return "b3";
  if (get("traceparent") && !traceparentProblem(get("traceparent"))) return "traceparent";
  return null;
}
