// Settings (seed, failure rate, log capacity), the resets, and the state
// as files: the snapshot to export and import, the log as NDJSON.
import { $, bytes, clock, download, fieldError, nextFrame, number } from "./dom.js";
import { toHar } from "./har.js";
import { DEFAULT_BASE } from "./copy-as.js";

export function mountSettings(store, undoable) {
  const form = $("#settings-form");
  const seed = $("#seed");
  const rate = $("#failure-rate");
  const capacity = $("#log-capacity");
  const message = $("#settings-message");
  const current = $("#settings-current");

  function say(text, kind = "info") {
    message.dataset.kind = kind;
    message.textContent = text;
  }

  function show() {
    // service.settings: the options the service was given, defaults filled in.
    const { seed: s, failureRate, logCapacity } = store.settings;
    seed.value = String(s);
    rate.value = String(failureRate);
    capacity.value = String(logCapacity);
    current.textContent = `In use: seed ${s}, failure rate ${failureRate}, log capacity ${logCapacity}.`;
  }

  function options() {
    const opts = {};
    // The values go to the service as typed numbers; it checks them and names what is wrong.
    if (seed.value.trim() !== "") opts.seed = Number(seed.value.trim());
    if (rate.value.trim() !== "") opts.failureRate = Number(rate.value.trim());
    if (capacity.value.trim() !== "") opts.logCapacity = Number(capacity.value.trim());
    return opts;
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    for (const id of ["seed", "failure-rate", "log-capacity"]) fieldError(id, "");
    try {
      const opts = options();
      // A bad option throws before anything changes: then there is nothing to undo.
      const service = store.probe(opts);
      undoable("Started a fresh service.", () => store.fresh(opts, service));
      say("Started a fresh service with these settings: no orders, no payments, an empty log.");
    } catch (e) {
      say(`Not applied: ${e.message}`, "error");
      // The service names the option first ("failureRate: must be …"): say it beside that field too.
      const field = { seed: "seed", failureRate: "failure-rate", logCapacity: "log-capacity" }[/^(\w+):/.exec(e.message)?.[1]];
      if (field) {
        fieldError(field, e.message);
        $(`#${field}`).focus();
      }
    }
  });

  $("#reset").addEventListener("click", () => {
    undoable("Reset to the defaults.", () => store.fresh({}));
    const { seed: s, failureRate, logCapacity } = store.settings;
    say(`Reset to the defaults: a new random seed (${s}), failure rate ${failureRate}, log capacity ${logCapacity}, and nothing in it.`);
  });

  const stamp = () => new Date().toISOString().replace(/[:]/g, "-").replace(/\..*/, "");

  $("#export-state").addEventListener("click", () => {
    const text = store.service.snapshot();
    download(`orderpay-state-${stamp()}.json`, "application/json", text);
    say(`Exported the state (${bytes(text.length)}): Service.restore(text) takes it back, here or in Node.`);
  });

  $("#export-logs").addEventListener("click", () => {
    const service = store.service;
    const count = service.logs().length;
    // The package writes NDJSON itself; older builds without exportNdjson get the same from logs().
    const text = typeof service.exportNdjson === "function"
      ? service.exportNdjson()
      : service.logs().map((r) => JSON.stringify(r) + "\n").join("");
    download(`orderpay-logs-${stamp()}.ndjson`, "application/x-ndjson", text);
    say(`Exported ${count} log records as NDJSON, one a line, oldest first.`);
  });

  let exporting = false;
  $("#export-otlp").addEventListener("click", async () => {
    // Not disabled while busy: that would take the keyboard focus away.
    if (exporting) return;
    exporting = true;
    say("Preparing the OTLP/JSON export…");
    await nextFrame(); // a full span buffer takes a moment: let the page say so first
    try {
      const otlp = store.service.exportOtlp();
      const spans = otlp.resourceSpans.reduce((n, r) => n + r.scopeSpans.reduce((m, s) => m + s.spans.length, 0), 0);
      download(`orderpay-traces-${stamp()}.otlp.json`, "application/json", JSON.stringify(otlp));
      say(`Exported ${spans} spans as OTLP/JSON, one resource per component: POST the file to an OpenTelemetry collector's /v1/traces.`);
    } catch (e) {
      say(`Could not export the spans: ${e.message}`, "error");
    } finally {
      exporting = false;
    }
  });

  let harBusy = false;
  $("#export-har").addEventListener("click", async () => {
    if (harBusy) return;
    harBusy = true;
    const requests = store.requests.list.slice();
    try {
      const text = await toHar(requests, store.exchanges, DEFAULT_BASE, (done, total) => say(`Preparing the HAR: ${number(done)} of ${number(total)} requests…`));
      download(`orderpay-requests-${stamp()}.har`, "application/json", text);
      say(`Exported ${number(requests.length)} requests as HAR: open it in the Network panel of DevTools (import), or any HAR viewer.`);
    } catch (e) {
      say(`Could not export the HAR: ${e.message}`, "error");
    } finally {
      harBusy = false;
    }
  });

  const file = $("#import-state");
  file.addEventListener("change", async () => {
    const chosen = file.files?.[0];
    if (!chosen) return;
    try {
      const text = await chosen.text();
      const service = store.probe(text);
      undoable(`Imported ${chosen.name}.`, () => store.restore(text, service));
      say(`Imported the state from ${chosen.name}.`);
    } catch (e) {
      say(`Could not import ${chosen.name}: ${e.message}`, "error");
    } finally {
      file.value = "";
    }
  });

  const status = $("#state-status");
  function showStatus() {
    const { state, at, size, compressed } = store.saved;
    status.dataset.where = store.saved.where ?? "";
    const role = store.tabs.role;
    const saved = role === "separate" || state === "elsewhere" ? "not saved: this tab is a separate service"
      : role === "follower" ? `as another tab saved it${at ? ` at ${clock(at).slice(0, 8)}` : ""}`
        : state === "saved" ? `saved in this browser at ${clock(at).slice(0, 8)} (${bytes(size)}${compressed ? ", compressed" : ""}${store.saved.where === "IndexedDB" ? ", in IndexedDB" : ""})`
          : state === "saving" ? `saving (compressing a large state${typeof store.saved.progress === "number" ? `: ${Math.round(store.saved.progress * 100)}%` : ""})…`
            : state === "unsaved" ? "changed, saving…"
              : state === "too big" ? "too big to save in this browser: export it to keep it"
                : state === "on the server" ? "kept by the server this page comes from"
                  : "not saved yet";
    status.dataset.saved = state;
    if (typeof store.saved.progress === "number") status.dataset.progress = String(store.saved.progress);
    else delete status.dataset.progress;
    status.textContent = `Seed ${store.settings.seed} · ${store.records.length.toLocaleString("en-US")} log records · state ${saved}.`;
  }

  store.addEventListener("change", (e) => { if (e.detail.reset) show(); showStatus(); });
  store.addEventListener("saved", showStatus);
  store.tabs.addEventListener("role", showStatus);
  store.addEventListener("undone", (e) => say(`Undone (${e.detail.message.replace(/\.$/, "")}): the state is back as it was before.`));
  addEventListener("pagehide", () => store.flush());
  document.addEventListener("visibilitychange", () => { if (document.visibilityState === "hidden") store.flush(); });
  show();
  showStatus();
}
