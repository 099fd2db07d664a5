// The log viewer: the journal's records, newest first, with the fields of
// the spec's part 6; filters; and a trace's records side by side when a
// record or a trace id is clicked. Records the page does not know (fields
// added by a later version of the service) are shown as they are.
import { $, add, fill, h, inSightWhileGenerating, number, place, throttled } from "./dom.js";
import { DECLINED_WHY, FAILED_WHY, declinedWhy, isDeclined, outcomeView, payStatusNow, thirdPartyFailed } from "./outcome.js";
import { keyOf } from "./requests-index.js";
import { waterfall } from "./trace.js";
import { idMark } from "./ids.js";
import { recordCauseText } from "./payment-states.js";
import { serviceTime } from "./service-time.js";
import { KNOWN_VALUES } from "./log-values.js";

const PAGE = 100;
const FILTERS = ["traceId", "uri_group", "event_class", "status", "stage"];
/** The order fields are listed in; any others follow, alphabetically. */
const FIELD_ORDER = ["seq", "stage", "timestamp", "traceId", "spanId", "parentSpanId", "method", "uri", "uri_group", "paymentId", "from", "to", "cause", "failureCode", "failureReason",
  "event_class", "duration", "status", "outcome", "httpStatus", "code", "msg", "userId"];

export function mountLogs(store, undoable) {
  const view = new LogView(store);
  const { controls, detail } = view;
  const later = inSightWhileGenerating(store, $("#log"), throttled(() => view.render()));
  store.addEventListener("change", (e) => {
    if (e.detail.reset) { view.shown = null; detail.hidden = true; }
    later();
  });
  store.addEventListener("show-trace", (e) => view.showTrace(e.detail));
  for (const f of FILTERS) controls[f].addEventListener("input", () => view.firstPage());
  $("#filters").addEventListener("reset", () => setTimeout(() => view.firstPage()));
  view.more.addEventListener("click", () => { view.limit += PAGE; view.render(); });
  $("#clear-logs").addEventListener("click", () => {
    const n = store.records.length;
    undoable(`Emptied the log (${number(n)} record${n === 1 ? "" : "s"}).`, () => store.clearLogs(), { inPlace: true }).catch(() => {}); // refused: nothing changed
  });
  view.render();
}

/** The log table with its filters and paging, and the trace detail beside it. */
class LogView {
  tbody = $("#logs");
  count = $("#log-count");
  more = $("#logs-more");
  detail = $("#trace-detail");
  controls = Object.fromEntries(FILTERS.map((f) => [f, $(`#filter-${f}`)]));
  /** How many rows are shown. */
  limit = PAGE;
  /** { traceId, seq } of the trace detail, or null. */
  shown = null;
  /** The control that asked for the trace, to go back to. */
  origin = null;
  /** Values of a field seen in the records that the selects do not offer yet: each record looked at once. */
  learned = { records: null, seq: 0 };
  /**
   * The rows drawn last, by record: a record never changes, so its row is
   * made once and kept while it stays among the rows shown. A chunk of test
   * data then adds its new rows at the top rather than redrawing a hundred.
   */
  drawnRows = new Map();

  constructor(store) {
    this.store = store;
    for (const [name, values] of Object.entries(KNOWN_VALUES)) {
      add(this.controls[name], ...values.map((v) => h("option", { value: v }, v)));
    }
  }

  /** The filters changed: back to the first page of rows. */
  firstPage() {
    this.limit = PAGE;
    this.render();
  }

  /** Opens the trace `shown` ({ traceId, seq }), remembering the control it was asked from. */
  showTrace(shown) {
    this.shown = shown;
    const from = document.activeElement;
    this.origin = from && from !== document.body && !$("#log").contains(from) ? from : null;
    this.render();
    this.detail.scrollIntoView({ block: "start" });
    $("#trace-title").focus({ preventScroll: true });
  }

  learnValues() {
    const records = this.store.records;
    if (this.learned.records !== records) this.learned = { records, seq: 0 };
    const fresh = [];
    for (let i = records.length - 1; i >= 0 && records[i].seq > this.learned.seq; i--) fresh.push(records[i]);
    this.learned.seq = records.at(-1)?.seq ?? 0;
    for (const name of Object.keys(KNOWN_VALUES)) {
      const select = this.controls[name];
      const offered = new Set([...select.options].map((o) => o.value));
      for (const r of fresh) {
        const v = r[name];
        if (typeof v === "string" && !offered.has(v)) {
          offered.add(v);
          add(select, h("option", { value: v }, v));
        }
      }
    }
  }

  matches(r) {
    const { controls } = this;
    const trace = controls.traceId.value.trim().toLowerCase();
    if (trace && !String(r.traceId ?? "").toLowerCase().includes(trace)) return false;
    for (const name of Object.keys(KNOWN_VALUES)) {
      const want = controls[name].value;
      if (!want) continue;
      const have = r[name];
      if (want === "(none)" ? have !== null && have !== undefined : have !== want) return false;
    }
    return true;
  }

  render() {
    this.learnValues();
    const records = this.store.records;
    const filtered = FILTERS.some((f) => this.controls[f].value.trim());
    const { rows, matching } = this.#rows(filtered);
    place(this.tbody, rows);
    const dropped = this.store.droppedLogs;
    this.count.textContent = `${filtered ? `${number(matching)} matching of ` : ""}${number(records.length)} records in the log` +
      (dropped ? `, ${number(dropped)} older ones dropped to stay within the log capacity` : "") +
      (matching > rows.length ? `; showing the newest ${number(rows.length)}` : "") + ".";
    this.count.dataset.matching = String(matching);
    this.more.hidden = matching <= rows.length;
    if (!records.length) add(this.tbody, h("tr", null, h("td", { colspan: 10, class: "empty" }, "No records yet: send a request or run the flow.")));
    if (this.shown) this.renderTrace();
  }

  /** The rows to show, newest first up to the limit, and how many records match. */
  #rows(filtered) {
    const records = this.store.records;
    const rows = [];
    const next = new Map();
    const rowOf = (r) => {
      let tr = this.drawnRows.get(r);
      if (!tr) tr = this.row(r);
      else tr.classList.toggle("in-trace", this.shown?.traceId === r.traceId);
      next.set(r, tr);
      return tr;
    };
    let matching = 0;
    if (!filtered) {
      // Nothing to match: the newest records are the rows, and all of them count.
      matching = records.length;
      for (let i = records.length - 1; i >= 0 && rows.length < this.limit; i--) rows.push(rowOf(records[i]));
    } else {
      for (let i = records.length - 1; i >= 0; i--) {
        const r = records[i];
        if (!this.matches(r)) continue;
        matching++;
        if (rows.length < this.limit) rows.push(rowOf(r));
      }
    }
    this.drawnRows = next;
    return { rows, matching };
  }

  row(r) {
    const open = () => this.store.showTrace(r.traceId, r.seq);
    // A network fault: no answer came, so no status and no code (its 0 and 0 would read as success).
    const result = r.stage === "payment" ? changeText(r) : r.stage !== "response" ? "" : r.httpStatus === 0 ? `no answer · no code ${r.msg}` : `${r.httpStatus} · ${r.code} ${r.msg}`;
    return h("tr", { dataset: { seq: String(r.seq), stage: String(r.stage), trace: String(r.traceId) }, class: this.shown?.traceId === r.traceId ? "in-trace" : null, onclick: (e) => { if (!e.target.closest("button, a")) open(); } },
      cell("seq", "num", r.seq),
      cell("time", "mono", typeof r.timestamp === "number" ? serviceTime(this.store, r.timestamp) : ""),
      cell("stage", null, h("span", { class: `stage ${r.stage}` }, r.stage)),
      cell("traceId", null, h("button", { type: "button", class: "trace link", title: r.traceId, dataset: { idv: String(r.traceId) }, "aria-label": `show the records of trace ${r.traceId}`, onclick: open }, short(r.traceId))),
      cell("uri", "mono uri", r.stage === "payment" ? r.paymentId ?? "" : r.stage === "webhook" ? `${r.deliveryId} #${r.attempt} ${r.url ?? "handler"}` : [r.method, r.uri].filter(Boolean).join(" ")),
      cell("uri_group", "mono", r.uri_group ?? ""),
      cell("event_class", null, r.event_class ?? ""),
      cell("duration", "num", r.duration ?? ""),
      cell("status", null, r.status ? h("span", { class: `status ${r.status}` }, r.status) : r.stage === "payment" ? changeStatus(r) : ""),
      cell("answer", "result", result,
        isDeclined(r) ? (thirdPartyFailed(r.fault)
          ? h("span", { class: "why-inline", title: FAILED_WHY }, " (the third party failed, it did not decline: handled, so 200; a business error, so -1; a dependency failed, so server_error)")
          : h("span", { class: "why-inline", title: DECLINED_WHY }, " (the third party declined: handled, so 200; a business error, so -1; a dependency failed, so server_error)")) : null),
    );
  }

  /** The trace: its spans as a waterfall, then its records split into requests (each starts at its gateway record). */
  renderTrace() {
    const { traceId, seq } = this.shown;
    const { detail } = this;
    const records = this.store.records.filter((r) => r.traceId === traceId);
    const requests = byRequest(records);
    const focus = requests.find((group) => group.some((r) => r.seq === seq)) ?? requests[0];
    const list = requests.slice(-30).map((group) => h("li", { class: group === focus ? "request focused" : "request" },
      h("p", { class: "request-title" }, requestTitle(group)),
      groupOutcome(this.store, group),
      h("ol", { class: "records" }, group.map((r) => recordCard(r, this.store))),
    ));
    const gateway = focus?.find((r) => r.stage === "gateway");
    const refocus = focusKeeper(detail);
    detail.hidden = false;
    fill(detail, ...[
      this.#traceHead(traceId),
      h("p", { class: "trace-count" }, records.length ? recordsText(records, requests) : "None of this trace's records are in the log any more."),
      waterfall(this.store.spansOf(traceId), { focus: gateway?.spanId ?? null }),
      h("h4", { class: "records-title" }, "Log records, by request"),
      requests.length > 30 ? h("p", { class: "note" }, `Showing the last 30 of ${requests.length} requests.`) : null,
      h("ol", { class: "requests" }, list),
    ].filter(Boolean));
    refocus();
  }

  /** The trace detail's title and its buttons: filter by it, back to where it was opened, close. */
  #traceHead(traceId) {
    const { origin } = this;
    return h("div", { class: "detail-head" },
      h("h3", { id: "trace-title", tabindex: "-1" }, "Trace ", h("span", { class: "mono" }, traceId)),
      h("button", { type: "button", class: "secondary", onclick: () => { this.controls.traceId.value = traceId; this.firstPage(); } }, "Filter the table by this trace"),
      origin && !this.detail.contains(origin) && document.contains(origin)
        ? h("button", { type: "button", class: "secondary", id: "trace-back", onclick: () => this.back() }, "Back to where you were") : null,
      h("button", { type: "button", class: "secondary", id: "trace-close", onclick: () => this.close() }, "Close"),
    );
  }

  /** Goes back to the control (a step's trace id, a request's) that opened the trace. */
  back() {
    const to = this.origin;
    this.origin = null;
    if (!to || !document.contains(to)) return;
    to.scrollIntoView({ block: "center" });
    to.focus({ preventScroll: true });
    this.renderTrace();
  }

  close() {
    this.shown = null;
    this.detail.hidden = true;
    fill(this.detail);
    this.render();
  }
}

/** Why a request's payment attempt ended as it did, and what its payment is now. */
function groupOutcome(store, group) {
  const response = group.find((r) => r.stage === "response");
  const req = response ? store.requests.byKey.get(keyOf(response.traceId, response.spanId)) : null;
  return outcomeView(group.find((r) => r.stage === "service")?.outcome, response?.fault ?? null, payStatusNow(req, store.requests));
}

/** A payment record's status column: it has no log status, so the payment's own after the change, a failure marked as one. */
function changeStatus(r) {
  return h("span", { class: `status pay-to s-${r.to ?? ""}`, title: "the payment's status after this change (a payment record has no log status)" }, `payment ${r.to ?? "?"}`);
}

/** A payment record's change, for the answer column: "PENDING → FAILED insufficient_funds (the service's clock)". */
function changeText(r) {
  return `${r.from ?? "?"} → ${r.to ?? "?"}${r.failureCode ? ` ${r.failureCode}` : ""}${r.cause ? ` (${recordCauseText(r.cause)})` : ""}`;
}

/**
 * A trace's records in requests: each starts at its gateway record. A
 * payment's later change of state (`stage: "payment"`, written when the
 * buyer or the clock resolved it) is no request's: each goes in a group
 * of its own, where it came.
 */
function byRequest(records) {
  const requests = [];
  for (const r of records) {
    if (r.stage === "gateway" || r.stage === "payment" || !requests.length || requests.at(-1)[0]?.stage === "payment") requests.push([]);
    requests.at(-1).push(r);
  }
  return requests;
}

/**
 * A trace's records counted by kind: its requests' (a gateway, a service
 * and a response record each) and its payment records (a payment's change
 * of state, written when it happened: no request of its own).
 */
function recordsText(records, groups) {
  const plural = (n, one) => `${n} ${one}${n === 1 ? "" : "s"}`;
  const changes = records.filter((r) => r.stage === "payment").length;
  const requests = groups.filter((g) => g[0]?.stage !== "payment").length;
  const asked = `${plural(records.length - changes, "record")} from ${plural(requests, "request")}: each request leaves a gateway, a service and a response record (no service record when the gateway turned it away)`;
  if (!changes) return `${asked}.`;
  return `${plural(records.length, "record")}: ${asked}; and ${plural(changes, "payment record")}, each a change of a payment's state, written when it happened (no request of its own).`;
}

function requestTitle(group) {
  const change = group[0]?.stage === "payment" ? group[0] : null;
  if (change) return `Payment ${change.paymentId ?? ""}: ${change.from ?? "?"} → ${change.to ?? "?"}, later, by ${recordCauseText(change.cause) || "?"}${change.failureCode ? ` (${change.failureCode})` : ""}`;
  const g = group.find((r) => r.stage === "gateway") ?? group[0];
  const res = group.find((r) => r.stage === "response");
  return [`${g.method ?? ""} ${g.uri ?? ""}`.trim(), res ? `→ HTTP ${res.httpStatus}, code ${res.code}, ${res.msg}` : ""].join(" ");
}

/**
 * The trace view is drawn anew when the log changes: the control that had
 * the focus in it gets it back (the same span's name, or the same button).
 */
function focusKeeper(root) {
  const active = document.activeElement;
  if (!active || active === root || !root.contains(active)) return () => {};
  const spanId = active.closest(".wf-row")?.dataset.spanId;
  const { id } = active;
  const text = active.textContent;
  return () => {
    const candidates = [...root.querySelectorAll("button, [tabindex]")];
    const again = candidates.find((el) => (spanId ? el.classList.contains("wf-name") && el.closest(".wf-row")?.dataset.spanId === spanId
      : id ? el.id === id : el.textContent === text));
    again?.focus({ preventScroll: true });
  };
}

/** A cell named by its column: a narrow screen shows each record as a card, each value under its name (style.css); an empty cell stays empty. */
const cell = (label, cls, ...children) => h("td", { class: cls, dataset: { label } }, ...children.map((c) => (c === "" ? null : c)));

const short = (id) => (typeof id === "string" && id.length > 12 ? `${id.slice(0, 12)}…` : String(id ?? ""));

/** One record as a card: every field, the known ones first, then any others as they came; its time read on `store`'s clock (if given). */
export function recordCard(r, store) {
  const keys = Object.keys(r);
  const known = FIELD_ORDER.filter((k) => keys.includes(k));
  const extra = keys.filter((k) => !FIELD_ORDER.includes(k)).sort();
  const value = (k) => {
    const v = r[k];
    if (k === "timestamp" && typeof v === "number") return `${v} (${serviceTime(store, v)})`;
    return v === null ? "null" : typeof v === "object" ? JSON.stringify(v) : String(v);
  };
  return h("li", { class: `record ${r.stage}`, dataset: { seq: String(r.seq), stage: String(r.stage) } },
    h("dl", null, [...known, ...extra].map((k) => [
      h("dt", { class: extra.includes(k) ? "extra" : null, title: extra.includes(k) ? "a field this page does not know yet" : null }, k),
      ["traceId", "spanId", "parentSpanId"].includes(k) ? idMark(valueCell(r[k], value(k)), r[k]) : valueCell(r[k], value(k)),
    ])),
    isDeclined(r) ? declinedWhy("p", r.fault) : null,
  );
}

/**
 * A record's value; a JSON null shows as the literal the document holds,
 * set apart (class json-null) from text, as a log store shows it.
 */
export function valueCell(v, text) {
  return h("dd", { class: v === null ? "json-null" : null }, text);
}
