// The request list, like the Network panel of a browser's DevTools: one row
// per request (method, path, HTTP status, code, msg, simulated duration and
// a bar for it), newest first, with a search over every field. A business
// error (HTTP 200, code -1) and a payment the third party declined each
// look different from a success and from a request the gateway turned away.
// Selecting a row opens the side panel (request-panel.js) beside the list,
// which stays where it was.
import { $, clock, h, number, throttled } from "./dom.js";
import { FIELDS, Search, prepare } from "./query.js";
import { KIND_TEXT } from "./requests-index.js";
import { mountRequestPanel } from "./request-panel.js";

const PAGE = 50;

export function mountRequests(store) {
  const list = $("#req-rows");
  const count = $("#req-count");
  const more = $("#req-more");
  const search = $("#req-search");
  const problems = $("#req-search-problems");
  const net = $("#net");
  const searcher = new Search();
  let limit = PAGE;
  let selected = null; // key of the open request
  let results = []; // newest first
  let searching = false;
  let prepared = -1; // the index version whose requests have their search text

  const panel = mountRequestPanel(store, {
    close() {
      const key = selected;
      selected = null;
      setOpen(false);
      draw();
      list.querySelector(`[data-key="${CSS.escape(key ?? "")}"] .req-row`)?.focus({ preventScroll: true });
    },
    select(key) { open(key); },
  });

  /** Starts the search; rows are drawn as soon as the newest matches are found, the count once it is done. */
  /** With the panel open, the section is drawn whole: skipping it off screen would also pin the phone's full-screen panel inside it. */
  function setOpen(on) {
    net.classList.toggle("with-panel", on);
    $("#requests").classList.toggle("panel-open", on);
  }

  function filter() {
    const all = store.requests.list;
    if (prepared !== store.requests.version) {
      for (const r of all) prepare(r, store.exchanges.get(r.key));
      prepared = store.requests.version;
    }
    let drawn = false;
    searcher.start(all, search.value, store.requests.version, (out) => {
      results = out.results;
      searching = !out.done;
      problems.textContent = out.errors.join("; ");
      search.setAttribute("aria-invalid", String(out.errors.length > 0));
      net.dataset.incremental = String(out.incremental);
      net.dataset.searching = String(searching);
      // Draw when the first page of rows is found (or the search is over), then only the count.
      if (!drawn && (out.done || results.length >= limit)) { drawn = true; draw(); }
      else if (out.done) count.textContent = countText(results.length, list.querySelectorAll("li[data-key]").length);
      if (out.done) count.dataset.matching = String(results.length);
    });
  }

  function countText(matching, shown) {
    const total = store.requests.list.length;
    const filtered = search.value.trim() !== "";
    return (filtered ? `${number(matching)}${searching ? "+ so far" : ""} matching of ` : "") + `${number(total)} request${total === 1 ? "" : "s"}` +
      (matching > shown ? `; showing the newest ${number(shown)}` : "") + "." +
      (store.droppedLogs ? ` The log dropped ${number(store.droppedLogs)} older records, and their requests with them.` : "");
  }

  let drawn = ""; // the rows on screen: their keys, responses and the selection
  function draw() {
    const page = results.slice(0, limit);
    count.textContent = countText(results.length, page.length);
    more.hidden = results.length <= page.length;
    // Typing often leaves the newest matches as they were: then the rows stay, untouched.
    const signature = `${selected}|${store.requests.list.length}|${page.map((r) => `${r.key}:${r.response?.seq ?? ""}`).join(",")}`;
    if (signature === drawn) return;
    drawn = signature;
    const rows = [];
    const max = Math.max(1, ...page.map((r) => r.duration ?? 0));
    for (const r of page) rows.push(row(r, max));
    list.replaceChildren(...rows);
    if (!store.requests.list.length) list.append(h("li", { class: "empty" }, "No requests yet: run the flow, or send one from the console."));
    else if (!results.length && !searching) list.append(h("li", { class: "empty" }, "No request matches the search."));
  }

  function row(r, max) {
    const bar = h("span", { class: "req-bar" });
    bar.style.width = `${Math.max(1, ((r.duration ?? 0) / max) * 100).toFixed(2)}%`;
    const kind = r.kind ?? "pending";
    return h("li", { class: `req kind-${kind}${r.key === selected ? " selected" : ""}`, dataset: { key: r.key, kind, seq: String(r.seq) } },
      h("button", {
        type: "button", class: "req-row", "aria-pressed": String(r.key === selected),
        "aria-label": `${r.method} ${r.fullPath ?? r.uri}: HTTP ${r.httpStatus ?? "?"}, code ${r.code ?? "?"}, ${r.msg ?? ""}, ${KIND_TEXT[kind]}`,
        onclick: () => open(r.key),
        onkeydown: (e) => move(e, r.key),
      },
      h("span", { class: "req-method" }, r.method),
      h("span", { class: "req-path", title: r.fullPath ?? r.uri }, r.fullPath ?? r.uri),
      h("span", { class: `req-status s${String(r.httpStatus ?? "")[0] ?? ""}` }, r.httpStatus ?? "–"),
      h("span", { class: "req-code" }, r.code ?? "–"),
      h("span", { class: "req-msg" }, kind === "declined" ? `${r.msg} (declined)` : r.msg ?? ""),
      h("span", { class: "req-dur" }, typeof r.duration === "number" ? `${r.duration} ms` : ""),
      h("span", { class: "req-timing", "aria-hidden": "true", title: typeof r.timestamp === "number" ? `at ${clock(r.timestamp)}, ${r.duration} ms simulated` : "" }, bar),
      ),
    );
  }

  /** Up and down move between rows, as in a list. */
  function move(e, key) {
    if (e.key !== "ArrowDown" && e.key !== "ArrowUp") return;
    e.preventDefault();
    const li = list.querySelector(`[data-key="${CSS.escape(key)}"]`);
    const next = e.key === "ArrowDown" ? li?.nextElementSibling : li?.previousElementSibling;
    next?.querySelector(".req-row")?.focus();
    if (selected && next?.dataset.key) open(next.dataset.key, { focus: false });
  }

  function open(key, { focus = true } = {}) {
    if (!store.requests.byKey.has(key)) return;
    selected = key;
    setOpen(true);
    for (const li of list.children) {
      const on = li.dataset.key === key;
      li.classList.toggle("selected", on);
      li.querySelector(".req-row")?.setAttribute("aria-pressed", String(on));
    }
    panel.show(key, { focus });
  }

  function refresh() {
    filter();
    if (selected) {
      if (store.requests.byKey.has(selected)) panel.show(selected, { focus: false, quiet: true });
      else panel.hide();
    }
  }

  const later = throttled(refresh);
  store.addEventListener("change", (e) => {
    if (e.detail.reset) { searcher.reset(); if (selected) { selected = null; setOpen(false); panel.hide(); } }
    later();
  });
  search.addEventListener("input", () => { limit = PAGE; filter(); });
  more.addEventListener("click", () => { limit += PAGE; draw(); });
  $("#req-search-help").textContent = `Fields: ${FIELDS.join(", ")}.`;
  refresh();
  return { open };
}
