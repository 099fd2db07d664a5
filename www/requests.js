// The request list, like the Network panel of a browser's DevTools: one row
// per request (method, path, HTTP status, code, msg, simulated duration and
// a bar for it), newest first, with a search over every field. A business
// error (HTTP 200, code -1) and a payment the third party declined each
// look different from a success and from a request the gateway turned away.
// Selecting a row opens the side panel (request-panel.js) beside the list,
// which stays where it was.
import { $, add, h, inSightWhileGenerating, number, place, setText, throttled } from "./dom.js";
import { FIELDS, Search, prepare } from "./query.js";
import { KIND_TEXT } from "./requests-index.js";
import { serviceTime } from "./service-time.js";
import { mountRequestPanel } from "./request-panel.js";
import { faultBadges, faultOf, faultText, isReplay, outcomeFault } from "./faults.js";

const PAGE = 50;

/** Sets `target[name]` only when it differs. */
function put(target, name, value) {
  if (target[name] !== value) target[name] = value;
}

export function mountRequests(store) {
  const view = new RequestList(store);
  const later = inSightWhileGenerating(store, $("#requests"), throttled(() => view.refresh()));
  store.addEventListener("change", (e) => {
    if (e.detail.reset) view.reset();
    // Live: the spans of the open request's trace came from the server.
    if (e.detail.spans && view.selected && store.requests.byKey.has(view.selected)) view.panel.show(view.selected, { focus: false, quiet: true, fresh: true });
    later();
  });
  // A payment's page asked for from elsewhere (the Simulation panel's payments in progress).
  store.addEventListener("show-object", (e) => {
    view.setOpen(true);
    view.panel.showObject(e.detail.id);
    $("#req-panel").scrollIntoView({ block: "nearest" });
  });
  view.search.addEventListener("input", () => { view.limit = PAGE; view.filter(); });
  view.more.addEventListener("click", () => { view.limit += PAGE; view.draw(); });
  $("#req-search-help").textContent = `Fields: ${FIELDS.join(", ")}.`;
  view.refresh();
  return { open: (key, options) => view.open(key, options) };
}

/** The list of requests, its search and paging, and which request the side panel shows. */
class RequestList {
  list = $("#req-rows");
  count = $("#req-count");
  more = $("#req-more");
  search = $("#req-search");
  problems = $("#req-search-problems");
  net = $("#net");
  searcher = new Search();
  limit = PAGE;
  /** Key of the open request, or null. */
  selected = null;
  /** The requests that match the search, newest first. */
  results = [];
  searching = false;
  drawQueued = false;
  drawPort = new MessageChannel();
  /** The rows on screen: their keys, responses and the selection. */
  drawn = "";
  /**
   * The rows drawn, kept and filled again on the next draw rather than made
   * anew: a keystroke then changes a few texts and classes, and the browser
   * restyles those, not fifty new subtrees.
   */
  pool = [];
  rowByKey = new Map();

  constructor(store) {
    this.store = store;
    this.panel = mountRequestPanel(store, {
      close: () => this.closePanel(),
      select: (key) => { this.open(key); },
    });
    this.drawPort.port1.onmessage = () => {
      this.drawQueued = false;
      this.draw();
      put(this.net.dataset, "searching", String(this.searching));
    };
  }

  /** With the panel open, the section is drawn whole: skipping it off screen would also pin the phone's full-screen panel inside it. */
  setOpen(on) {
    this.net.classList.toggle("with-panel", on);
    $("#requests").classList.toggle("panel-open", on);
  }

  closePanel() {
    const key = this.selected;
    this.selected = null;
    this.setOpen(false);
    this.draw();
    this.list.querySelector(`[data-key="${CSS.escape(key ?? "")}"] .req-row`)?.focus({ preventScroll: true });
  }

  /** Starts the search; rows are drawn as soon as the newest matches are found, the count once it is done. */
  filter() {
    const { store, search, net, count } = this;
    let drawn = false;
    this.searcher.start(store.requests.list, search.value, store.requests.version, (out) => {
      this.results = out.results;
      this.searching = !out.done;
      // Each set only when it changes: an unchanged text or attribute set again still costs a restyle.
      put(this.problems, "textContent", out.errors.join("; "));
      if (search.getAttribute("aria-invalid") !== String(out.errors.length > 0)) search.setAttribute("aria-invalid", String(out.errors.length > 0));
      put(net.dataset, "incremental", String(out.incremental));
      // Draw when the first page of rows is found (or the search is over), then only the count.
      // The drawing in a task of its own, after the slice that found the rows: two short tasks rather than one longer.
      if (!drawn && (out.done || this.results.length >= this.limit)) { drawn = true; this.drawSoon(); }
      else if (out.done) put(count, "textContent", this.countText(this.results.length, this.list.querySelectorAll("li[data-key]").length));
      if (out.done) put(count.dataset, "matching", String(this.results.length));
      // "Searching" ends once the rows found are drawn too.
      if (!this.drawQueued) put(net.dataset, "searching", String(this.searching));
    }, { prepare: (r) => prepare(r, store.exchanges.get(r.key)) });
  }

  drawSoon() {
    if (this.drawQueued) return;
    this.drawQueued = true;
    this.drawPort.port2.postMessage(null);
  }

  countText(matching, shown) {
    const { store } = this;
    const total = store.requests.list.length;
    const filtered = this.search.value.trim() !== "";
    return (filtered ? `${number(matching)}${this.searching ? "+ so far" : ""} matching of ` : "") + `${number(total)} request${total === 1 ? "" : "s"}` +
      (matching > shown ? `; showing the newest ${number(shown)}` : "") + "." +
      (store.droppedLogs ? ` The log dropped ${number(store.droppedLogs)} older records, and their requests with them.` : "");
  }

  draw() {
    const { results, store, list } = this;
    const page = results.slice(0, this.limit);
    put(this.count, "textContent", this.countText(results.length, page.length));
    put(this.more, "hidden", results.length <= page.length);
    // Typing often leaves the newest matches as they were: then the rows stay, untouched.
    const signature = `${this.selected}|${store.requests.list.length}|${page.map((r) => `${r.key}:${r.response?.seq ?? ""}`).join(",")}`;
    if (signature === this.drawn) return;
    this.drawn = signature;
    place(list, this.#rowsFor(page));
    if (!store.requests.list.length) add(list, h("li", { class: "empty" }, "No requests yet: run the flow, or send one from the console."));
    else if (!results.length && !this.searching) add(list, h("li", { class: "empty" }, "No request matches the search."));
  }

  /**
   * The row elements for `page`. Each request keeps its row: new requests at
   * the top add rows there, and the rows below move down unchanged instead of
   * all taking their neighbour's text (with 500 rows, a relayout of the whole
   * list each time).
   */
  #rowsFor(page) {
    const { pool, rowByKey } = this;
    const max = Math.max(1, ...page.map((r) => r.duration ?? 0));
    const next = new Map();
    for (const r of page) if (rowByKey.has(r.key)) next.set(r.key, rowByKey.get(r.key));
    const spare = this.#spareRows(next);
    let taken = 0;
    const wanted = page.map((r) => {
      let x = next.get(r.key);
      if (!x) {
        x = spare[taken++];
        if (!x) { x = emptyRow((key) => this.open(key), (e, key) => this.move(e, key)); pool.push(x); }
        next.set(r.key, x);
      }
      fillRow(x, r, max, this.selected, this.store.exchanges.get(r.key), this.store);
      return x.li;
    });
    this.rowByKey = next;
    return wanted;
  }

  /**
   * The rows free to take another request, in the order they stand on
   * screen: a keystroke that changes every row then refills them where
   * they are, rather than moving each (a DOM move costs more than its text).
   */
  #spareRows(kept) {
    const position = new Map([...this.list.children].map((li, i) => [li, i]));
    const at = (x) => position.get(x.li) ?? position.size;
    return this.pool.filter((x) => kept.get(x.key) !== x).sort((a, b) => at(a) - at(b));
  }

  /** Up and down move between rows, as in a list. */
  move(e, key) {
    if (e.key !== "ArrowDown" && e.key !== "ArrowUp") return;
    e.preventDefault();
    const li = this.list.querySelector(`[data-key="${CSS.escape(key)}"]`);
    const next = e.key === "ArrowDown" ? li?.nextElementSibling : li?.previousElementSibling;
    next?.querySelector(".req-row")?.focus();
    if (this.selected && next?.dataset.key) this.open(next.dataset.key, { focus: false });
  }

  open(key, { focus = true } = {}) {
    if (!this.store.requests.byKey.has(key)) return;
    this.selected = key;
    this.setOpen(true);
    for (const x of this.pool) if (x.li.isConnected) markRow(x, this.selected);
    this.panel.show(key, { focus });
  }

  refresh() {
    this.filter();
    const { selected } = this;
    if (selected) {
      if (this.store.requests.byKey.has(selected)) this.panel.show(selected, { focus: false, quiet: true });
      else this.panel.hide();
    }
  }

  /** A new state: the search starts over and the panel closes. */
  reset() {
    this.searcher.reset();
    if (this.selected) { this.selected = null; this.setOpen(false); this.panel.hide(); }
  }
}

/** An empty row and its cells, filled by `fillRow`; `open(key)` and `move(event, key)` answer its clicks and keys. */
function emptyRow(open, move) {
  const x = {};
  x.bar = h("span", { class: "req-bar" });
  x.method = h("span", { class: "req-method" });
  x.path = h("span", { class: "req-path" });
  // The rule that fired and its failure, and a replay, beside the path: in sight in every layout.
  x.badges = h("span", { class: "req-badges" });
  x.where = h("span", { class: "req-where" }, x.path, x.badges);
  x.status = h("span", { class: "req-status" });
  x.code = h("span", { class: "req-code" });
  x.msg = h("span", { class: "req-msg" });
  x.dur = h("span", { class: "req-dur" });
  x.timing = h("span", { class: "req-timing", "aria-hidden": "true" }, x.bar);
  x.button = h("button", {
    type: "button", class: "req-row",
    onclick: () => open(x.key),
    onkeydown: (e) => move(e, x.key),
  }, x.method, x.where, x.status, x.code, x.msg, x.dur, x.timing);
  x.li = h("li", {}, x.button);
  x.shown = {};
  return x;
}

/** Shows whether row `x` is the selected one. */
function markRow(x, selected) {
  const on = x.key === selected;
  const cls = `req kind-${x.kindName}${on ? " selected" : ""}`;
  if (x.shown.cls !== cls) { x.shown.cls = cls; x.li.setAttribute("class", cls); }
  if (x.shown.pressed !== on) { x.shown.pressed = on; x.button.setAttribute("aria-pressed", String(on)); }
}

/**
 * Puts request `r` in row `x`, touching only what differs from what it
 * showed. `exchange`: what this page sent and got back, if it sent it
 * (its answer's headers say which rule fired where the log does not).
 */
function fillRow(x, r, max, selected, exchange, store) {
  const kind = r.kind ?? "pending";
  const path = r.fullPath ?? r.uri;
  const show = (name, value, apply) => { if (x.shown[name] !== value) { x.shown[name] = value; apply(value); } };
  x.key = r.key;
  x.kindName = kind;
  markRow(x, selected);
  show("key", r.key, (v) => { x.li.dataset.key = v; });
  show("kind", kind, (v) => { x.li.dataset.kind = v; });
  show("seq", String(r.seq), (v) => { x.li.dataset.seq = v; });
  const fault = r.fault ?? faultOf(exchange) ?? outcomeFault(r.service?.outcome);
  const replay = r.replay === true || isReplay(exchange);
  const lost = r.httpStatus === 0;
  show("label", `${r.method} ${path}: ${lost ? "no answer, no code" : `HTTP ${r.httpStatus ?? "?"}, code ${r.code ?? "?"}`}, ${r.msg ?? ""}, ${KIND_TEXT[kind]}${faultLabel(fault, replay)}`, (v) => x.button.setAttribute("aria-label", v));
  const answered = challengeAnswer(path);
  show("fault", fault || replay || answered ? JSON.stringify([fault, replay, answered]) : "", () => {
    x.li.dataset.fault = fault ? String(fault.kind) : "";
    x.li.dataset.rule = fault?.rule ?? "";
    x.li.dataset.replay = String(replay);
    x.timing.classList.toggle("fault-timeout", fault?.kind === "timeout");
    x.badges.replaceChildren(...(answered ? [h("span", { class: "badge answer-badge", dataset: { outcome: answered }, title: "the buyer's answer to the challenge" }, `outcome=${answered}`)] : []),
      ...(fault || replay ? faultBadges(fault, replay) : []));
  });
  show("method", String(r.method ?? ""), (v) => setText(x.method, v));
  show("path", String(path ?? ""), (v) => { setText(x.path, v); x.path.title = v; });
  // A network fault: no status came back, so no code either (0 would read as success).
  show("status", lost ? "—" : String(r.httpStatus ?? "–"), (v) => { x.status.textContent = v; x.status.title = lost ? "no answer: a network fault" : ""; x.status.setAttribute("class", `req-status s${lost ? "x" : String(r.httpStatus ?? "")[0] ?? ""}`); });
  show("code", lost ? "—" : String(r.code ?? "–"), (v) => { x.code.textContent = v; x.code.title = lost ? "no code: no answer came" : ""; });
  // A decline's reason: the scenario's code, or the one a drawn decline is reported with while a scenario is set.
  const code = fault?.code ?? r.service?.outcome?.declineCode;
  show("msg", kind === "declined" ? `${r.msg} (declined${code ? `: ${code}` : ""})`
    : kind === "failed" ? `${r.msg} (third party ${fault?.kind === "timeout" ? "timed out" : `error ${fault?.status ?? ""}`.trim()})` : String(r.msg ?? ""), (v) => setText(x.msg, v));
  show("dur", typeof r.duration === "number" ? `${r.duration} ms` : "", (v) => { x.dur.textContent = v; });
  show("title", typeof r.timestamp === "number" ? `at ${serviceTime(store, r.timestamp)}, ${r.duration} ms simulated` : "", (v) => { x.timing.title = v; });
  show("bar", `${Math.max(1, ((r.duration ?? 0) / max) * 100).toFixed(2)}%`, (v) => { x.bar.style.width = v; });
}

/**
 * The buyer's answer a challenge's POST carries (`…/challenge?outcome=pass`),
 * or "": shown as a badge, in sight where a narrow row cuts the path short.
 */
function challengeAnswer(path) {
  return /\/challenge\?(?:[^#]*&)?outcome=([a-z]+)/.exec(String(path ?? ""))?.[1] ?? "";
}

/** The row's badges read aloud: ", rule X fired: decline insufficient_funds, replayed". */
function faultLabel(fault, replay) {
  return (fault ? `, ${fault.rule ? `rule ${fault.rule} fired: ` : ""}${faultText(fault)}` : "") + (replay ? ", replayed" : "");
}
