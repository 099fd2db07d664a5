// The side panel of one request: what was sent and what came back, why a
// code -1 came with HTTP 200, its three log records, its trace's waterfall,
// copy as curl or fetch, and a form to send it again with anything changed
// (method, path, free header rows, body).
import { $, fill, h, pretty } from "./dom.js";
import { DEFAULT_BASE, asCurl, asFetch, baseUrl } from "./copy-as.js";
import { showAndCopy } from "./clipboard.js";
import { copyTargetHint, liveGateway, timeWhere } from "./live.js";
import { KIND_TEXT } from "./requests-index.js";
import { FAILED_WHY, outcomeView, payStatusNow } from "./outcome.js";
import { recordCard } from "./logs.js";
import { waterfall } from "./trace.js";
import { objectView } from "./object-page.js";
import { prepare } from "./query.js";
import { scenarioLines } from "./exchange.js";

const BASE_KEY = "orderpay-playground/server";
const METHODS = ["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"];

export function mountRequestPanel(store, { close, select }) {
  const panel = new RequestPanel(store, close, select);
  return { show: (key, options) => panel.show(key, options), hide: () => panel.hide(), showObject: (id) => panel.showObject(id) };
}

/** The panel and what it holds: the open request (or object page) and the resend form's fields. */
class RequestPanel {
  panel = $("#req-panel");
  /** The key of the request shown, `object:ID` for an object page, or null. */
  current = null;
  /** The resend form's fields, kept while the same request is open. */
  draft = null;

  /** `close()` and `select(key)`: the list's own, for the Close button and a request sent again or picked. */
  constructor(store, close, select) {
    this.store = store;
    this.close = close;
    this.select = select;
  }

  /** `fresh`: drawn again even when its request has not changed (live, its trace's spans came from the server). */
  show(key, { focus = true, quiet = false, fresh = false } = {}) {
    const { store, panel } = this;
    const req = store.requests.byKey.get(key);
    if (!req) return this.hide();
    if (quiet && this.current?.startsWith("object:")) return; // an object page stays until the user leaves it
    const same = this.current === key;
    if (quiet && !fresh && same && panel.dataset.seq === String(req.response?.seq ?? "")) return; // nothing new to draw
    if (!same) this.draft = null;
    this.current = key;
    const x = store.exchanges.get(key);
    const s = sent(store, req);
    const records = [req.gateway, req.service, req.response].filter(Boolean);
    panel.hidden = false;
    panel.dataset.key = key;
    panel.dataset.kind = req.kind ?? "pending";
    panel.dataset.seq = String(req.response?.seq ?? "");
    fill(panel, ...[
      this.#head(h("h3", { id: "req-panel-title", tabindex: "-1" }, `${req.method} ${s.path}`)),
      facts(req, x),
      why(req, store.requests),
      scenarioLines({ record: req.response, headers: x?.responseHeaders ?? {}, fault: x?.fault }),
      objectsLine(store, req, (id) => this.showObject(id)),
      h("h4", null, "Request"),
      h("pre", { class: "request", id: "req-sent" }, requestText(s)),
      s.known ? null : h("p", { class: "note" }, `${liveGateway() ? "Sent by another client of the server (curl, an app, a test suite, another page)" : "Sent by another tab"}, before this page loaded, or dropped from the page's memory: the log keeps the method, the path, X-User-Id and the trace id, not the body or the other headers.`),
      h("h4", null, "Response"),
      response(req, x),
      h("h4", null, "Run it elsewhere"),
      copyAs(s),
      this.resendForm(s),
      h("h4", null, "Its log records"),
      h("ol", { class: "records" }, records.map((r) => recordCard(r, store))),
      waterfall(store.spansOf(req.traceId), { focus: req.spanId }),
      elsewhere(req),
    ].filter(Boolean));
    if (focus) $("#req-panel-title").focus({ preventScroll: true });
  }

  /** The panel's head: `title` and the Close button. */
  #head(title) {
    return h("div", { class: "panel-head" }, title,
      h("button", { type: "button", class: "secondary", id: "req-close", onclick: () => { this.hide(); this.close(); } }, "Close"));
  }

  /** The resend form: the request as sent, every part editable, headers as free rows. */
  resendForm(s) {
    const draft = (this.draft ??= { method: s.method, path: s.path, headers: Object.entries(s.headers ?? {}), body: s.body ?? "" });
    const rows = h("div", { class: "header-rows", id: "resend-headers" });
    const message = h("p", { class: "field-error", id: "resend-error", role: "alert" });
    const method = h("select", { id: "resend-method", onchange: () => { draft.method = method.value; } },
      [...new Set([...METHODS, draft.method])].map((m) => h("option", { value: m, selected: m === draft.method }, m)));
    const path = h("input", { id: "resend-path", value: draft.path, autocomplete: "off", spellcheck: "false", oninput: () => { draft.path = path.value; } });
    const body = h("textarea", { id: "resend-body", rows: 5, spellcheck: "false", oninput: () => { draft.body = body.value; } });
    body.value = draft.body;
    const drawRows = () => headerRows(rows, draft.headers, drawRows);
    drawRows();

    return h("form", { class: "resend", id: "resend-form", novalidate: true, onsubmit: (event) => this.#resend(event, message, path) },
      h("h4", null, "Send it again, changed as you like"),
      h("div", { class: "row" },
        h("div", { class: "field narrow" }, h("label", { for: "resend-method" }, "method"), method),
        h("div", { class: "field grow" }, h("label", { for: "resend-path" }, "path"), path),
      ),
      h("fieldset", null, h("legend", null, "headers"), rows,
        h("button", { type: "button", class: "secondary", id: "resend-add-header", onclick: () => { draft.headers.push(["", ""]); drawRows(); rows.lastElementChild?.querySelector("input")?.focus(); } }, "Add a header")),
      h("div", { class: "field" }, h("label", { for: "resend-body" }, "body ", h("span", { class: "hint" }, "(sent as typed; empty: none)")), body),
      message,
      h("div", { class: "actions" }, h("button", { type: "submit", id: "resend" }, "Send")),
    );
  }

  /** The resend form's submit: checks the path and header names (saying what is wrong in `message`), sends, opens the new request. */
  async #resend(event, message, pathInput) {
    event.preventDefault();
    const { draft } = this;
    message.textContent = "";
    const p = draft.path.trim();
    if (!p.startsWith("/")) { message.textContent = "path: must start with /, such as /api/order/ORD-12345678"; pathInput.focus(); return; }
    const headers = {};
    for (const [n, v] of draft.headers) {
      const name = n.trim();
      if (!name && !v.trim()) continue;
      if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) { message.textContent = `header name "${name}": letters, digits and - only, not empty`; return; }
      headers[name] = v;
    }
    const reply = await this.store.request(draft.method, p, draft.body === "" ? null : draft.body, headers);
    const key = reply.record ? `${reply.record.traceId}/${reply.record.spanId}` : null;
    this.draft = null;
    if (key) this.select(key);
  }

  /** An order's or a payment's page, in the panel. */
  showObject(id) {
    const { panel } = this;
    this.current = `object:${id}`;
    this.draft = null;
    panel.hidden = false;
    panel.dataset.key = this.current;
    panel.dataset.seq = "";
    fill(panel, this.#head(h("span", { class: "hint" }, "Object page")), objectView(this.store, id, (key) => this.select(key)));
    document.getElementById("object-title")?.focus({ preventScroll: true });
  }

  hide() {
    this.current = null;
    this.draft = null;
    this.panel.hidden = true;
    fill(this.panel);
  }
}

function savedBase() {
  // Live, the server this page shows.
  if (liveGateway()) return liveGateway();
  try { return baseUrl(localStorage.getItem(BASE_KEY) ?? "") ?? DEFAULT_BASE; } catch { return DEFAULT_BASE; }
}

/** What was sent: the page's own record of it, or what the log keeps (no body, few headers). */
function sent(store, req) {
  const x = store.exchanges.get(req.key);
  if (x) return { method: x.method, path: x.path, headers: x.headers, body: x.body, known: true };
  const headers = {};
  if (req.userId) headers["X-User-Id"] = req.userId;
  headers["X-B3-TraceId"] = req.traceId;
  return { method: req.method, path: req.uri, headers, body: null, known: false };
}

/** The answer in badges: HTTP status, code and kind, the simulated time and the time in this tab or to the server (`x`: the page's exchange, if kept). */
function facts(req, x) {
  return h("p", { class: "facts" },
    req.kind === "lost"
      ? h("span", { class: "badge bad" }, "no answer · no HTTP status, no code")
      : [h("span", { class: `badge ${req.httpStatus === 200 ? "ok" : "bad"}` }, `HTTP ${req.httpStatus ?? "?"}`), " ",
        h("span", { class: `badge ${req.kind === "ok" ? "ok" : req.kind === "rejected" ? "bad" : "warn"}` }, `code ${req.code ?? "?"} · ${KIND_TEXT[req.kind ?? "pending"]}`)], " ",
    typeof req.duration === "number" ? h("span", { class: "time" }, `${req.duration} ms simulated`) : null,
    x ? h("span", { class: "time" }, ` · ${x.ms < 0.1 ? "< 0.1" : x.ms.toFixed(1)} ms ${timeWhere()}`) : null,
  );
}

function why(req, index) {
  if (req.kind === "failed") {
    return h("div", { class: "why declined failed" },
      h("p", null, h("strong", null, "HTTP 200, code -1, and status server_error in the log. "), FAILED_WHY),
      outcomeView(req.service?.outcome, req.fault, payStatusNow(req, index)));
  }
  if (req.kind === "declined") {
    return h("div", { class: "why declined" },
      h("p", null, h("strong", null, "HTTP 200, code -1, and status server_error in the log. "),
        "The simulated third party declined the payment. The service handled the request and answered normally (200) with a business error (-1) for the client to read; the log marks it server_error because a dependency failed, not the client."),
      outcomeView(req.service?.outcome, req.fault, payStatusNow(req, index)));
  }
  if (req.kind === "business") {
    return h("p", { class: "why business" }, h("strong", null, "HTTP 200 with code -1: "),
      `a business error. The request was well formed and handled; the service said no (${req.msg}). Clients must read code, not the HTTP status.`);
  }
  if (req.httpStatus === 0) {
    return h("p", { class: "why rejected" }, h("strong", null, "No answer, so no HTTP status and no code: "),
      "a scenario's network fault lost the request on the way, so no HTTP status came back: a client's fetch rejects with a TypeError, and its catch runs, not its code check.");
  }
  if (req.kind === "rejected") {
    return h("p", { class: "why rejected" }, h("strong", null, `HTTP ${req.httpStatus}: `),
      "the gateway turned the request away before any service saw it, so it has no service record; code repeats the status.");
  }
  if (req.service?.outcome) return outcomeView(req.service.outcome, req.fault, payStatusNow(req, index));
  return null;
}

/** The response: its headers and envelope as this tab got them (`x`), or the code and msg the log keeps. */
function response(req, x) {
  if (!x) return h("pre", { class: "envelope", id: "req-envelope" }, pretty({ code: req.code, msg: req.msg, data: "(not kept: the log has code and msg only)" }).text);
  return [
    h("pre", { class: "response-headers" }, `HTTP ${x.status}`, Object.entries(x.responseHeaders ?? {}).map(([n, v]) => ["\n", `${n}: `,
      n === "x-b3-traceid" || n === "x-b3-spanid" ? h("span", { dataset: { idv: v } }, v) : v])),
    h("pre", { class: `envelope ${req.kind === "ok" ? "ok" : req.kind === "rejected" ? "bad" : "warn"}`, id: "req-envelope" }, pretty(x.envelope).text),
  ];
}

/** The server field and the copy as curl or fetch buttons, with the copied text and a note on how it went. */
function copyAs(s) {
  const copied = h("pre", { class: "copied", id: "req-copied", hidden: true });
  const copyNote = h("p", { class: "hint", id: "req-copy-note", role: "status" });
  const baseInput = h("input", { id: "req-base", value: savedBase(), autocomplete: "off", spellcheck: "false", "aria-describedby": "req-base-hint" });

  async function copy(kind) {
    const b = baseUrl(baseInput.value);
    if (!b) {
      copyNote.dataset.kind = "error";
      copyNote.textContent = `server: give an http or https URL, such as ${DEFAULT_BASE}`;
      baseInput.focus();
      return;
    }
    try { localStorage.setItem(BASE_KEY, b); } catch { /* not kept: fine */ }
    const text = kind === "curl" ? asCurl(s, b) : asFetch(s, b);
    copied.dataset.kind = kind;
    await showAndCopy(copied, text, copyNote, {
      copied: `Copied as ${kind}${s.known ? "" : " (from the log: the body and most headers were not kept)"}.`,
      refused: "The browser did not allow copying: select the text below and copy it.",
    });
  }

  return [
    h("div", { class: "field" },
      h("label", { for: "req-base" }, "server ", h("span", { class: "hint", id: "req-base-hint" }, copyTargetHint())),
      baseInput),
    h("div", { class: "actions" },
      h("button", { type: "button", class: "secondary", id: "copy-curl", onclick: () => copy("curl") }, "Copy as curl"),
      h("button", { type: "button", class: "secondary", id: "copy-fetch", onclick: () => copy("fetch") }, "Copy as fetch"),
    ),
    copyNote,
    copied,
  ];
}

/** The resend form's header rows, in `rows`: a name, a value and a remove button each, editing `headers` in place. */
function headerRows(rows, headers, redraw) {
  fill(rows, ...headers.map((pair, i) => {
    const name = h("input", { class: "header-name", value: pair[0], "aria-label": `header ${i + 1} name`, autocomplete: "off", spellcheck: "false", oninput: () => { pair[0] = name.value; } });
    const value = h("input", { class: "header-value", value: pair[1], "aria-label": `header ${i + 1} value`, autocomplete: "off", spellcheck: "false", oninput: () => { pair[1] = value.value; } });
    return h("div", { class: "header-row" }, name, value,
      h("button", { type: "button", class: "secondary", "aria-label": `remove header ${i + 1}`, onclick: () => { headers.splice(i, 1); redraw(); } }, "×"));
  }));
}

/** The orders and payments this request touched, each a link to its own page (`showObject(id)`). */
function objectsLine(store, req, showObject) {
  prepare(req, store.exchanges.get(req.key));
  const ids = req.ids ? req.ids.split(" ") : [];
  if (!ids.length) return null;
  const shown = ids.slice(0, 12);
  return h("p", { class: "objects" }, req.uri_group === "/test/*" ? `Made ${ids.length} order${ids.length === 1 ? "" : "s"}: ` : "Touches ",
    shown.map((id, i) => [i ? ", " : "",
      h("button", { type: "button", class: "link object-link", dataset: { object: id }, onclick: () => showObject(id) }, id)]),
    ids.length > shown.length ? ` and ${ids.length - shown.length} more (search id:ORD-… to find one)` : "", ".");
}

/** The same request as a log store and a tracing tool would show it. */
function elsewhere(req) {
  const doc = req.response ? { "@timestamp": new Date(req.response.timestamp).toISOString(), ...req.response } : null;
  return h("section", { class: "elsewhere", "aria-label": "in Kibana and in Jaeger" },
    h("h4", null, "In Kibana, in Jaeger"),
    h("p", null, "Find every log record of this trace in Kibana (KQL): ", h("code", { id: "kibana-query" }, `traceId:"${req.traceId}"`),
      ". In Jaeger, search for the trace id ", h("code", { dataset: { idv: req.traceId } }, req.traceId), ": it draws the waterfall above."),
    doc ? [h("p", { class: "hint" }, "Its response record as a log store would index it (a document with @timestamp):"),
      h("pre", { class: "log-doc", id: "log-doc" }, JSON.stringify(doc, null, 2))] : null,
    h("p", { class: "hint" }, "Where the log and OTLP exports go: ", h("a", { href: "#kibana-jaeger" }, "in Kibana and Jaeger"), "."),
  );
}

function requestText({ method, path, headers, body }) {
  const lines = [`${method} ${path}`, ...Object.entries(headers ?? {}).map(([n, v]) => `${n}: ${v}`)];
  return body === null || body === undefined || body === "" ? lines.join("\n") : `${lines.join("\n")}\n\n${body}`;
}
