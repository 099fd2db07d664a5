// A trace's spans as a waterfall, the way tracing tools draw them: one row
// per span, indented under its parent, a bar from its start to its end on a
// time axis that starts at the trace's first span, coloured by component,
// with its duration. Plain DOM, positioned in percent so it fits any width.
// A span's name opens its ids, times and attributes.
import { add, h } from "./dom.js";
import { idMark, idsExplained } from "./ids.js";
import { declinedWhy } from "./outcome.js";
import { duration } from "./payment-states.js";
import { paymentFailed, spanAttribute, spanFailed, spanFailureText, spanFault } from "./faults.js";

export const COMPONENTS = ["gateway", "order-service", "payment-service", "third-party", "test-data"];
const MAX_REQUESTS = 30;
/** From this long a trace's axis is read in seconds and minutes. */
const LONG_MS = 10_000;

/** Whether a span is a webhook delivery attempt (`webhook POST <url>`, `webhook handler`): sent after the request that caused its event. */
const isDelivery = (span) => span.component === "webhook" || /^webhook\b/.test(span.name);

/** What a failed span's row says: a delivery attempt's receiver's status (or that none came), else faults.js's words. */
function failureText(span) {
  if (!isDelivery(span)) return spanFailureText(span);
  const status = spanAttribute(span, "http.response.status_code");
  return status ? `the receiver answered ${status}` : "no answer from the receiver";
}

/** A span's component as drawn: one of COMPONENTS, "webhook" for a delivery attempt, else "other". */
function componentOf(span) {
  if (COMPONENTS.includes(span.component)) return span.component;
  return isDelivery(span) ? "webhook" : "other";
}

let serial = 0;
/** Spans whose details are open, kept when the view is drawn again. */
const openSpans = new Set();

/**
 * `spans`: the trace's spans from `service.spans()`. `focus`: the span id of
 * a request's gateway span, whose rows are marked when the trace has more
 * than one request.
 */
export function waterfall(spans, { focus = null } = {}) {
  const id = `wf-${++serial}`;
  const figure = h("figure", { class: "waterfall", "aria-labelledby": `${id}-title` });
  const title = h("h4", { id: `${id}-title`, class: "wf-title" }, "Spans on a time axis");
  if (!spans.length) {
    add(figure, title, h("p", { class: "note" }, spans.refused
      ? `The server refused to look this trace up: ${spans.refused.replace(/\.$/, "")}.`
      : spans.pending
      ? "Fetching this trace's spans from the server…"
      : "No spans for this trace: its requests were sent with sampling off (X-B3-Sampled: 0), or the service no longer holds them (it keeps as many as the log)."));
    return figure;
  }

  const { rows, requests, shownRequests } = layout(spans);
  const t0 = Math.min(...rows.map((r) => r.span.start));
  const t1 = Math.max(...rows.map((r) => r.span.end));
  const total = Math.max(t1 - t0, 1);
  const step = niceStep(total / 5);
  /** What each row is drawn against: the figure's id, the time axis, its grid, and the focused request's root. */
  const scale = {
    id, t0, total, step,
    grid: `${((step / total) * 100).toFixed(4)}% 100%`,
    focusRoots: requests > 1 && focus ? new Set([focus]) : new Set(),
    /** The third-party spans of a scenario's 5xx: their error, not a decline. */
    thirdPartyErrors: new Set(rows.filter(({ span }) => thirdPartyError(span, rows)).map(({ span }) => span.spanId)),
  };
  const list = h("ol", { class: "wf-rows" }, rows.map((row, i) => spanRow(row, i, scale)));

  add(figure, ...[
    title,
    h("p", { class: "wf-summary" },
      `${rows.length} span${rows.length === 1 ? "" : "s"} from ${shownRequests} request${shownRequests === 1 ? "" : "s"}, ${ms(t1 - t0)} ms from the first start to the last end. Each child is indented under its parent; a name shows the span's details.`),
    idsExplained(),
    requests > shownRequests ? h("p", { class: "note" }, `Showing the spans of the last ${shownRequests} of ${requests} requests.`) : null,
    legend(rows),
    // A declined payment's spans read server_error while its answer is HTTP 200, code -1.
    rows.some(({ span }) => span.component === "third-party" && spanFailed(span) && !scale.thirdPartyErrors.has(span.spanId)) ? declinedWhy() : null,
    scale.thirdPartyErrors.size ? h("p", { class: "why-declined why-third-party-error" }, h("strong", null, "The third party's error: "),
      "it answered a 5xx (a scenario's processor_error): not a decline. The payment service answered with the spec's envelope, HTTP 200 and code -1, and the log marks the spans server_error because a dependency failed.") : null,
    rows.some(({ span }) => spanFault(span) === "http") ? h("p", { class: "why-declined why-gateway" }, h("strong", null, "A gateway failure: "),
      "the gateway answered the request itself (a scenario's 429, 502, 503 or 504, marked with its status): no service ran, so the request has only its gateway span, of no length.") : null,
    rows.some(({ span }) => spanFault(span) === "network") ? h("p", { class: "why-declined why-network" }, h("strong", null, "A network fault: "),
      "the request or its answer was lost on the way (marked ⚡): the client got no answer, so no HTTP status and no code.") : null,
    rows.some(({ span }) => isDelivery(span)) ? h("p", { class: "why-declined why-webhook" }, h("strong", null, "Webhook deliveries: "),
      "each attempt to deliver an event this trace caused is a span under the request that changed the state. It is sent after that request answered, and a retry comes later on the service's clock, so its bar may sit far to the right.") : null,
    rows.some(({ span }) => spanFault(span) === "timeout") ? h("p", { class: "why-declined why-timeout" }, h("strong", null, "A timeout: "),
      "the third party never answered. The payment service waited (the long bar, as long as the wait), gave up, and answered with the spec's decline; the bar ends in an error (✕).") : null,
    h("div", { class: "wf-chart" }, axis(scale), list),
  ].filter(Boolean));
  return figure;
}

const pct = (f) => `${(f * 100).toFixed(3)}%`;

/** The axis: tick labels over the bars' column; the grid lines are each track's background. */
function axis({ total, step }) {
  const ticks = [];
  for (let t = 0; t <= total + 1e-9; t += step) ticks.push(t);
  // A trace that runs on for minutes (a webhook's retry on the service's clock) is read in seconds and minutes.
  const long = total >= LONG_MS;
  return h("div", { class: "wf-axis", "aria-hidden": "true" },
    h("span", { class: "wf-axis-label" }, long ? "time from the first start" : "ms from the first start"),
    h("div", { class: "wf-ticks" }, ticks.map((t) => {
      const f = t / total;
      const tick = h("span", { class: `wf-tick${f === 0 ? " first" : f > 0.9 ? " last" : ""}` }, long ? (t ? duration(t) : "0") : `${ms(t)}${f === 0 ? " ms" : ""}`);
      tick.style.left = pct(f);
      return tick;
    })),
  );
}

/** One span's row: its name (which opens its details), component, bar on the axis, and duration. */
function spanRow({ span, depth, root }, i, scale) {
  const error = spanFailed(span);
  // A third party that never answered: a long bar that ends in an error.
  const fault = spanFault(span);
  const component = componentOf(span);
  const { t0 } = scale;
  const detailsId = `${scale.id}-span-${i}`;
  const isOpen = openSpans.has(span.spanId);
  const details = h("dl", { class: "wf-details", id: detailsId, hidden: !isOpen }, spanFacts(span, t0));
  const toggle = h("button", {
    type: "button", class: "wf-name", dataset: { idv: span.spanId }, "aria-expanded": String(isOpen), "aria-controls": detailsId,
    title: "show this span's ids, times and attributes",
    onclick: () => {
      const open = details.hidden;
      details.hidden = !open;
      toggle.setAttribute("aria-expanded", String(open));
      if (open) openSpans.add(span.spanId); else openSpans.delete(span.spanId);
    },
  }, span.name);

  const row = h("li", {
    class: `wf-row c-${component}${error ? " error" : ""}${fault === "timeout" ? " timeout" : ""}${fault === "http" ? " gateway-fault" : ""}${fault === "network" ? " network-fault" : ""}${scale.focusRoots.has(root) ? " focused" : ""}`,
    dataset: {
      fault,
      spanId: span.spanId, parentSpanId: span.parentSpanId ?? "", component: span.component, depth: String(depth),
      status: span.status, start: String(span.start - t0), end: String(span.end - t0),
    },
  },
  h("div", { class: "wf-label" },
    h("span", { class: "wf-swatch", "aria-hidden": "true" }),
    h("span", { class: "wf-text" },
      toggle,
      h("span", { class: "wf-comp" }, span.component, error ? h("span", { class: "wf-error" }, ` · ${scale.thirdPartyErrors.has(span.spanId) ? "third party error (5xx), not a decline" : failureText(span)}`) : null),
    ),
  ),
  spanTrack(span, scale, fault),
  details,
  );
  row.style.setProperty("--depth", String(depth));
  return row;
}

/** A span's bar from its start to its end, with its duration beside it (or inside, when it spans the axis). */
function spanTrack(span, { t0, total, grid }, fault = "") {
  const timedOut = fault === "timeout";
  const start = (span.start - t0) / total;
  const end = (span.end - t0) / total;
  const duration = span.end - span.start;
  const bar = h("span", { class: "wf-bar", title: `${span.component} · ${span.name}: +${ms(span.start - t0)} to +${ms(span.end - t0)} ms (${ms(duration)} ms), ${spanFailed(span) ? failureText(span) : span.status}` });
  bar.style.left = pct(start);
  bar.style.width = pct(end - start);
  const label = h("span", { class: "wf-dur" }, `${ms(duration)} ms`);
  // A gateway's or a network's mark sits at the bar's end: the label keeps clear of it.
  const gap = fault === "http" || fault === "network" ? "2.6rem" : "4px";
  if (end <= 0.75) {
    label.style.left = `calc(${pct(end)} + ${gap})`;
  } else if (start >= 0.25) {
    label.style.right = `calc(${pct(1 - start)} + ${gap})`;
  } else {
    label.classList.add("inside");
    label.style.right = `calc(${pct(1 - end)} + ${timedOut ? 14 : 4}px)`;
  }
  // A timeout's end: the error it ended in, marked where the wait ran out.
  const stop = timedOut ? h("span", { class: "wf-end", title: `timed out after ${ms(duration)} ms: no answer, the payment failed` }, "✕") : null;
  if (stop) stop.style.left = pct(end);
  // A gateway's failure (its status) and a network fault (no answer): a mark where the request ended, however short its bar.
  const status = spanAttribute(span, "http.response.status_code");
  const mark = fault === "http" ? h("span", { class: "wf-mark gateway", title: `the gateway answered HTTP ${status ?? "?"} itself: nothing ran` }, String(status ?? "!"))
    : fault === "network" ? h("span", { class: "wf-mark network", title: "a network fault: no answer came, so no status and no code" }, "⚡")
    : null;
  if (mark) {
    mark.style.left = pct(end);
    // At either end of the axis the mark stays inside the track.
    if (end > 0.95) mark.classList.add("at-end");
    else if (end < 0.05) mark.classList.add("at-start");
  }
  const track = h("div", { class: "wf-track" }, bar, stop, mark, label,
    h("span", { class: "visually-hidden" }, `, from +${ms(span.start - t0)} ms${timedOut ? ", ended in a timeout" : fault === "http" ? `, the gateway answered ${status}` : fault === "network" ? ", a network fault: no answer" : ""}`));
  track.style.backgroundSize = grid;
  return track;
}

/** The components' colours, and the failures' marks (a gateway's failure and a network fault, when the trace has one). */
function legend(rows) {
  const has = (kind) => rows.some(({ span }) => spanFault(span) === kind);
  return h("ul", { class: "wf-legend", "aria-label": "colours of the components" },
    COMPONENTS.map((c) => h("li", { class: `c-${c}` }, h("span", { class: "wf-swatch", "aria-hidden": "true" }), c)),
    rows.some(({ span }) => isDelivery(span)) ? h("li", { class: "c-webhook" }, h("span", { class: "wf-swatch", "aria-hidden": "true" }), "webhook delivery") : null,
    h("li", { class: "error" }, h("span", { class: "wf-swatch", "aria-hidden": "true" }), "server_error (striped, red edge)"),
    rows.some(({ span }) => paymentFailed(span)) ? h("li", { class: "error pay-failed" }, h("span", { class: "wf-swatch", "aria-hidden": "true" }), "a payment's change to FAILED (striped, red edge)") : null,
    has("http") ? h("li", { class: "gateway-fault" }, h("span", { class: "wf-mark gateway", "aria-hidden": "true" }, "429"), "gateway failure (its status: nothing ran)") : null,
    has("network") ? h("li", { class: "network-fault" }, h("span", { class: "wf-mark network", "aria-hidden": "true" }, "⚡"), "network fault (no answer, no code)") : null,
  );
}

/** Whether `span` is a third party's 5xx (its payment's gateway span says processor_error): its error, not a decline. */
function thirdPartyError(span, rows) {
  if (span.component !== "third-party" || !spanFailed(span)) return false;
  const byId = new Map(rows.map(({ span: s }) => [s.spanId, s]));
  let at = span;
  while (at?.parentSpanId && byId.has(at.parentSpanId)) at = byId.get(at.parentSpanId);
  return spanFault(at) === "processor_error";
}

/** Rows in tree order (each span after its parent, siblings by start), the last requests only. */
function layout(spans) {
  const byId = new Map();
  for (const s of spans) if (!byId.has(s.spanId)) byId.set(s.spanId, s);
  const children = new Map();
  const roots = [];
  for (const s of spans) {
    const parent = s.parentSpanId && s.parentSpanId !== s.spanId ? byId.get(s.parentSpanId) : null;
    if (parent) {
      if (!children.has(parent.spanId)) children.set(parent.spanId, []);
      children.get(parent.spanId).push(s);
    } else {
      roots.push(s); // a request's gateway span, or a span whose parent is not in this trace
    }
  }
  const byStart = (a, b) => a.start - b.start; // stable: recording order breaks ties
  roots.sort(byStart);
  const shown = roots.slice(-MAX_REQUESTS);
  const rows = [];
  const seen = new Set();
  const visit = (span, depth, root) => {
    if (seen.has(span)) return;
    seen.add(span);
    rows.push({ span, depth, root: root.spanId });
    for (const child of (children.get(span.spanId) ?? []).sort(byStart)) visit(child, depth + 1, root);
  };
  for (const r of shown) visit(r, 0, r);
  return { rows, requests: roots.length, shownRequests: shown.length };
}

function spanFacts(span, t0) {
  const facts = [
    ["spanId", span.spanId],
    ["parentSpanId", span.parentSpanId ?? "null"],
    ["component", span.component],
    ["start", `+${ms(span.start - t0)} ms (${span.start})`],
    ["end", `+${ms(span.end - t0)} ms (${span.end})`],
    ["duration", `${ms(span.end - span.start)} ms`],
    ["status", span.status],
    ...(Array.isArray(span.attributes) ? span.attributes : []).map(([k, v]) => [String(k), String(v)]),
  ];
  return facts.flatMap(([k, v]) => {
    // A root span's parent is the JSON null of the export, shown as a literal.
    const dd = k === "parentSpanId" && span.parentSpanId == null ? h("dd", { class: "json-null" }, "null") : h("dd", null, v);
    return [h("dt", null, k), k === "spanId" ? idMark(dd, v) : k === "parentSpanId" ? idMark(dd, span.parentSpanId) : dd];
  });
}

/** 1, 2 or 5 times a power of ten, at least `raw`. */
function niceStep(raw) {
  if (!(raw > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) if (m * power >= raw) return Math.max(m * power, 0.001);
  return 10 * power;
}

const ms = (n) => String(Number(n.toFixed(Number.isInteger(n) ? 0 : 1)));
