// Settings (seed, failure rate, log capacity), the resets, and the state
// as files: the snapshot to export and import, the log as NDJSON.
import { $, bytes, clock, download, nextFrame } from "./dom.js";

export function mountSettings(store) {
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
    try {
      store.fresh(options());
      say("Started a fresh service with these settings: no orders, no payments, an empty log.");
    } catch (e) {
      say(`Not applied: ${e.message}`, "error");
    }
  });

  $("#reset").addEventListener("click", () => {
    store.forget();
    store.fresh({});
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

  const file = $("#import-state");
  file.addEventListener("change", async () => {
    const chosen = file.files?.[0];
    if (!chosen) return;
    try {
      store.restore(await chosen.text());
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
    const saved = state === "saved" ? `saved in this browser at ${clock(at).slice(0, 8)} (${bytes(size)}${compressed ? ", compressed" : ""})`
      : state === "saving" ? "saving (compressing a large state)…"
        : state === "too big" ? "too big to save in this browser: export it to keep it"
          : state === "on the server" ? "kept by the server this page comes from"
            : "not saved yet";
    status.dataset.saved = state;
    status.textContent = `Seed ${store.settings.seed} · ${store.records.length.toLocaleString("en-US")} log records · state ${saved}.`;
  }

  store.addEventListener("change", (e) => { if (e.detail.reset) show(); showStatus(); });
  store.addEventListener("saved", showStatus);
  addEventListener("pagehide", () => store.flush());
  document.addEventListener("visibilitychange", () => { if (document.visibilityState === "hidden") store.flush(); });
  show();
  showStatus();
}
