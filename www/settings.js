// Settings (seed, failure rate, log capacity, a virtual clock), the resets, and the state
// as files: the snapshot to export and import, the log as NDJSON.
import { $, bytes, clock, download, fieldError, number } from "./dom.js";
import { BlobBuilder, PIECES, breather, eachSliced, jsonPieces } from "./slices.js";
import { readFile } from "./persist.js";
import { toHar } from "./har.js";
import { DEFAULT_BASE } from "./copy-as.js";

export function mountSettings(store, undoable) {
  const message = $("#settings-message");
  const say = (text, kind = "info") => {
    message.dataset.kind = kind;
    message.textContent = text;
  };
  const show = mountOptions(store, undoable, say);
  mountExports(store, message, say);
  mountImport(store, undoable, message, say);
  const status = $("#state-status");
  const showStatus = () => showSaved(status, store);
  store.addEventListener("change", (e) => { if (e.detail.reset) show(); showStatus(); });
  store.addEventListener("saved", showStatus);
  store.tabs.addEventListener("role", showStatus);
  store.addEventListener("undone", (e) => say(`Undone (${e.detail.message.replace(/\.$/, "")}): the state is back as it was before.`));
  addEventListener("pagehide", () => store.flush());
  document.addEventListener("visibilitychange", () => { if (document.visibilityState === "hidden") store.flush(); });
  show();
  showStatus();
  // Live, the server keeps the state (with --state, in its file), not this browser.
  if (store.remote) $("#state-kept").textContent = "The state (orders, payments, log, spans, settings and a pending forceNext) is the server's: it keeps it, for as long as it runs (with --state, in its file across restarts), whatever this page does. Keep a copy or move it as a file:";
}

/** The settings form and the reset button; returns what shows the settings in use. */
function mountOptions(store, undoable, say) {
  const seed = $("#seed");
  const rate = $("#failure-rate");
  const capacity = $("#log-capacity");
  const current = $("#settings-current");
  const virtual = $("#virtual-clock");

  const options = () => {
    const opts = {};
    // The values go to the service as typed numbers; it checks them and names what is wrong.
    if (seed.value.trim() !== "") opts.seed = Number(seed.value.trim());
    if (rate.value.trim() !== "") opts.failureRate = Number(rate.value.trim());
    if (capacity.value.trim() !== "") opts.logCapacity = Number(capacity.value.trim());
    // A virtual clock starts at this moment and then moves only with requests and advance().
    if (virtual.checked) opts.virtualTime = Date.now();
    return opts;
  };

  $("#settings-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    for (const id of ["seed", "failure-rate", "log-capacity"]) fieldError(id, "");
    try {
      const opts = options();
      // A bad option throws before anything changes: then there is nothing to undo.
      const service = store.probe(opts);
      await undoable("Started a fresh service.", () => store.fresh(opts, service));
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

  $("#reset").addEventListener("click", async () => {
    await undoable("Reset to the defaults.", () => store.fresh({}));
    const { seed: s, failureRate, logCapacity } = store.settings;
    say(`Reset to the defaults: a new random seed (${s}), failure rate ${failureRate}, log capacity ${logCapacity}, and nothing in it.`);
  });

  return () => {
    // service.settings: the options the service was given, defaults filled in.
    const { seed: s, failureRate, logCapacity } = store.settings;
    seed.value = String(s);
    rate.value = String(failureRate);
    capacity.value = String(logCapacity);
    const kind = store.virtualClock;
    virtual.checked = kind === true;
    current.textContent = `In use: seed ${s}, failure rate ${failureRate}, log capacity ${logCapacity}${kind === null ? "" : kind ? ", a virtual clock" : ", the wall clock"}.`;
  };
}

const stamp = () => new Date().toISOString().replace(/[:]/g, "-").replace(/\..*/, "");

/** A pieces form of the package's, or the whole text as one piece where this build has none. */
const piecesOf = (service, form, whole) => (typeof service[form] === "function" ? service[form](PIECES) : [whole()]);

/** The four export buttons: the state, the log as NDJSON, the traces as OTLP/JSON, the requests as HAR. */
function mountExports(store, message, say) {
  const exportFile = exporter(message, say);

  $("#export-state").addEventListener("click", () => {
    const service = store.service;
    exportFile("the state", `orderpay-state-${stamp()}.json`, "application/json",
      async () => (store.remote ? [await service.snapshot()] : piecesOf(service, "snapshotPieces", () => service.snapshot())),
      (size) => `Exported the state (${bytes(size)}): Service.restore(text) takes it back, here or in Node.`);
  });

  $("#export-logs").addEventListener("click", () => {
    const service = store.service;
    // The page's copy of the journal counts the records: logs() would copy them all again.
    const count = store.records.length;
    exportFile("the log", `orderpay-logs-${stamp()}.ndjson`, "application/x-ndjson",
      async () => (store.remote ? [await service.exportNdjson()] : piecesOf(service, "exportNdjsonPieces", () => service.exportNdjson())),
      () => `Exported ${number(count)} log records as NDJSON, one a line, oldest first.`);
  });

  $("#export-otlp").addEventListener("click", () => {
    const service = store.service;
    let spans = 0;
    exportFile("the OTLP/JSON export", `orderpay-traces-${stamp()}.otlp.json`, "application/json",
      async () => (typeof service.exportOtlpPieces === "function" && !store.remote ? service.exportOtlpPieces(PIECES) : jsonPieces(await service.exportOtlp())),
      () => `Exported ${number(spans)} spans as OTLP/JSON, one resource per component: POST the file to an OpenTelemetry collector's /v1/traces.`,
      (piece) => { spans += countSpans(piece); });
  });

  $("#export-har").addEventListener("click", () => {
    const requests = store.requests.list.slice();
    exportFile("the HAR", `orderpay-requests-${stamp()}.har`, "application/json",
      () => toHar(requests, store.exchanges, DEFAULT_BASE, (n, total) => say(`Preparing the HAR: ${number(n)} of ${number(total)} requests…`)),
      () => `Exported ${number(requests.length)} requests as HAR: open it in the Network panel of DevTools (import), or any HAR viewer.`);
  });
}

/**
 * What makes an export, one at a time: its text comes in pieces (the
 * package's pieces forms where it has them), is made into a file a slice at
 * a time, and says how far it got once it takes over half a second.
 */
function exporter(message, say) {
  let exporting = false;
  return async function exportFile(what, name, type, pieces, done, look = () => {}) {
    // Not disabled while busy: that would take the keyboard focus away.
    if (exporting) return;
    exporting = true;
    const began = performance.now();
    say(`Preparing ${what}…`);
    message.dataset.busy = "true";
    try {
      await breather(); // the page says so first
      const file = new BlobBuilder();
      const source = await pieces();
      await eachSliced(source, (piece) => { file.add(piece); look(piece); }, () => {
        if (performance.now() - began > 500 && typeof source.progress === "number") say(`Preparing ${what}: ${Math.round(source.progress * 100)}%…`);
      });
      download(name, type, file.blob(type));
      say(done(file.length));
    } catch (e) {
      say(`Could not export ${what}: ${e.message}`, "error");
    } finally {
      exporting = false;
      delete message.dataset.busy;
    }
  };
}

/** The import of a state file: read and parsed in the save worker, restored as one undoable change. */
function mountImport(store, undoable, message, say) {
  const file = $("#import-state");
  let importing = false;
  file.addEventListener("change", async () => {
    const chosen = file.files?.[0];
    if (!chosen || importing) return;
    importing = true;
    const began = performance.now();
    // Past half a second, each stage says how far it got.
    const progress = (doing) => (share) => { if (performance.now() - began > 500) say(`${doing}: ${Math.round(share * 100)}%…`); };
    message.dataset.busy = "true";
    say(`Reading ${chosen.name}…`);
    try {
      // Read, and parsed for the ids it offers, in the save worker; restored a piece at a time where the package can.
      const read = await readFile(chosen, progress(`Reading ${chosen.name}`));
      const service = await store.probeText(read, progress(`Restoring ${chosen.name}`));
      await undoable(`Imported ${chosen.name}.`, () => store.restoreLoaded(read, service, progress(`Loading the log of ${chosen.name}`)));
      say(`Imported the state from ${chosen.name}.`);
    } catch (e) {
      say(`Could not import ${chosen.name}: ${e.message}`, "error");
    } finally {
      importing = false;
      delete message.dataset.busy;
      file.value = "";
    }
  });
}

/** Where the state is kept and whether it is saved, in the line under the settings. */
function showSaved(status, store) {
  const { state } = store.saved;
  status.dataset.where = store.saved.where ?? "";
  status.dataset.saved = state;
  if (typeof store.saved.progress === "number") status.dataset.progress = String(store.saved.progress);
  else delete status.dataset.progress;
  status.textContent = `Seed ${store.settings.seed} · ${store.records.length.toLocaleString("en-US")} log records · state ${savedText(store)}.`;
}

/** "saved in this browser at 12:00:01 (2.1 kB)", "as another tab saved it", …: the state's place and save. */
function savedText(store) {
  const { state, at, size, compressed } = store.saved;
  const role = store.tabs.role;
  return role === "separate" || state === "elsewhere" ? "not saved: this tab is a separate service"
    : role === "follower" ? `as another tab saved it${at ? ` at ${clock(at).slice(0, 8)}` : ""}`
      : state === "saved" ? `saved in this browser at ${clock(at).slice(0, 8)} (${bytes(size)}${compressed ? ", compressed" : ""}${store.saved.where === "IndexedDB" ? ", in IndexedDB" : ""})`
        : state === "saving" ? `saving (compressing a large state${typeof store.saved.progress === "number" ? `: ${Math.round(store.saved.progress * 100)}%` : ""})…`
          : state === "unsaved" ? "changed, saving…"
            : state === "too big" ? "too big to save in this browser: export it to keep it"
              : state === "on the server" ? "kept by the server this page comes from"
                : "not saved yet";
}

/** The spans in a piece of OTLP/JSON text (pieces hold whole spans): each has one "spanId" key (its parent's is "parentSpanId", and text inside values is escaped). */
function countSpans(piece) {
  let n = 0;
  for (let at = piece.indexOf('"spanId":'); at >= 0; at = piece.indexOf('"spanId":', at + 9)) n++;
  return n;
}
