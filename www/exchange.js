// One request and its answer, drawn the same way in the flow and the
// console: the request as sent, then the HTTP status, the envelope with
// code 0 and the rest told apart at a glance, the time, and the trace.
import { h, pretty } from "./dom.js";
import { asyncView, outcomeView, payStatusNow } from "./outcome.js";
import { challengeView, isPage, pageReplyView } from "./challenge.js";
import { faultBadges, faultOf, faultSentence, isDrawnDecline, isLater, isReplay } from "./faults.js";
import { keyOf } from "./requests-index.js";
import { follow } from "./follow.js";
import { refusedRefundWhy } from "./reversal.js";
import { timeWhere } from "./live.js";

/** What a reply's code means, in words and a colour class. */
export function verdict(status, code) {
  if (code === 0) return { cls: "ok", text: "code 0 · success" };
  if (status !== 200) return { cls: "bad", text: `code ${code} · HTTP ${status}: the request was turned away` };
  return { cls: "warn", text: `code ${code} · business error` };
}

/** The request as an HTTP client would send it. */
export function requestView({ method, path, headers, body }) {
  const lines = [`${method} ${path}`];
  for (const [name, value] of Object.entries(headers ?? {})) lines.push(`${name}: ${value}`);
  const text = body === null || body === undefined || body === "" ? lines.join("\n") : `${lines.join("\n")}\n\n${body}`;
  return h("pre", { class: "request", "aria-label": "request" }, text);
}

/**
 * The answer: `reply` is what Store.request returned. `store` is asked to
 * show the trace when its id is clicked. A payment attempt's answer says
 * why it ended as it did (the `outcome` of its service record).
 * `challenge`: challengeView's options, for a payment's challenge shown.
 */
export function responseView(reply, store, { expected = false, challenge = {} } = {}) {
  if (isPage(reply) || (reply.status === 303 && reply.body === "")) return pageReplyView(reply);
  if (reply.status === 0 || envelopeOf(reply) === null) return lostView(reply);
  const { status, headers, body, ms, record } = reply;
  const v = verdict(status, body.code);
  const traceId = headers["x-b3-traceid"];
  const { text, shortened } = pretty(body);
  const facts = h("p", { class: "facts" },
    h("span", { class: `badge status ${status === 200 ? "ok" : "bad"}` }, `HTTP ${status}`), " ",
    h("span", { class: `badge code ${v.cls}${expected ? " expected" : ""}`, dataset: { code: String(body.code) } },
      expected && body.code !== 0 ? `${v.text} (expected)` : v.text), " ",
    h("span", { class: "time", title: `time this call took, ${timeWhere()}` }, `${ms < 0.1 ? "< 0.1" : ms.toFixed(1)} ms ${timeWhere()}`),
    record && typeof record.duration === "number"
      ? [" ", h("span", { class: "time", title: "the duration its log record gives" }, `· ${record.duration} ms simulated`)]
      : null,
  );
  const extraHeaders = Object.entries(headers).filter(([name]) => name !== "x-b3-traceid" && name !== "content-type");
  return h("div", { class: "response", "aria-label": "response" },
    facts,
    body.code !== 0 ? h("p", { class: "msg" }, body.msg) : null,
    body.code !== 0 ? refusedRefundWhy(store, record?.uri, body) : null,
    scenarioLines(reply),
    outcomeNow(store, reply),
    // A payment that waits: why, and when it will resolve; a challenge, as the buyer meets it.
    body.code === 0 ? asyncView(body.data, reply.plan, store.now, store.virtualClock) : null,
    body.code === 0 ? challengeView(store, body.data, reply, challenge) : null,
    traceId ? h("p", { class: "trace-line" }, "trace ",
      h("button", { type: "button", class: "trace link", dataset: { idv: traceId }, title: "show this request's log records", "aria-label": `show the log records of trace ${traceId}`, onclick: () => store.showTrace(traceId) }, traceId)) : null,
    extraHeaders.length ? h("p", { class: "headers" }, extraHeaders.map(([n, val], i) => [i ? "\n" : "", `${n}: `,
      n === "x-b3-spanid" ? h("span", { dataset: { idv: val } }, val) : val])) : null,
    h("pre", { class: `envelope ${v.cls}` }, text),
    shortened ? h("p", { class: "note" }, "Long lists are shortened here; the service returned them whole.") : null,
  );
}

/**
 * Why the payment attempt ended as it did (outcome.js), kept to what its
 * payment is now: a challenge answered or a reversal since redraws it.
 */
function outcomeNow(store, { service, record, ...reply }) {
  const fault = faultOf(record ?? null) ?? faultOf(reply);
  const key = record ? keyOf(record.traceId, record.spanId) : null;
  const status = () => (key ? payStatusNow(store.requests.byKey.get(key), store.requests) : null);
  let shown = status();
  const box = outcomeView(service?.outcome, fault, shown);
  if (!box || !key) return box;
  const holder = h("div", { class: "outcome-now" }, box);
  follow(store, holder, () => {
    if (status() === shown) return;
    shown = status();
    holder.replaceChildren(outcomeView(service.outcome, fault, shown));
  });
  return holder;
}

/** The reply's envelope, or null when none came (a network fault). */
function envelopeOf(reply) {
  return reply.body && typeof reply.body === "object" ? reply.body : null;
}

/** What a scenario did to this answer (its rule and failure), and whether it is a replay of a kept answer: `reply` has the answer's headers and its response `record`. */
export function scenarioLines(reply) {
  const fault = faultOf(reply.record ?? null) ?? faultOf(reply);
  const replay = isReplay(reply) || isReplay(reply.record);
  return [
    fault ? h("p", { class: `fault-line k-${String(fault.kind)}${isDrawnDecline(fault) ? " drawn-line" : ""}${isLater(fault) ? " later-line" : ""}`, dataset: { rule: fault.rule ?? "", fault: String(fault.kind), drawn: String(isDrawnDecline(fault)) } }, faultBadges(fault, false), " ", faultSentence(fault)) : null,
    replay ? h("p", { class: "replay-line" }, faultBadges(null, true), " ",
      "idempotent-replayed: true. The first request with this Idempotency-Key already ran; this is its kept answer, sent again. Nothing ran twice: no second order or payment, no second draw.") : null,
  ];
}

/** An answer that never came whole: a network fault, as a fetch would meet it (it rejects with a TypeError). */
function lostView(reply) {
  const fault = faultOf(reply) ?? faultOf(reply.record ?? null);
  return h("div", { class: "response lost", "aria-label": "response" },
    h("p", { class: "facts" }, h("span", { class: "badge bad" }, reply.status ? `HTTP ${reply.status}, body lost` : "no answer"), " ",
      fault ? faultBadges(fault, false) : null),
    h("p", { class: "fault-line" }, fault ? faultSentence(fault) : "No answer came.",
      reply.error ? ` This page's fetch rejected: ${reply.error}.` : " A fetch in your app would reject with a TypeError (Failed to fetch), so its catch runs, not its code check."),
  );
}
