// The test-data endpoint for large counts. One call generates everything
// synchronously inside the WebAssembly module, so 10,000 orders in one
// call would freeze the tab for a while with nothing to show. The page
// sends it in chunks instead, waits for the next frame between chunks (the
// progress bar paints, clicks are answered, and Cancel works), and adds up
// the chunks' {count, succeeded, failed}. A chunk's size follows how long
// the last one took, so that each stays near CHUNK_MS however large the
// state and however busy the machine (a fixed 250 took 10 to 60 ms).
// Live (the service is the server's), chunks are of LIVE_CHUNK orders.
import { $, nextFrame, number, percent } from "./dom.js";
import { breather } from "./slices.js";

/** The most orders one chunk asks for. */
export const CHUNK = 250;
/**
 * Live, the orders of each chunk. The server makes them (a few ms for a
 * thousand) and the page's part, reading their records from the event
 * stream, is cut into slices of its own; so the chunk's round trip says
 * nothing of what the page is held for, and a chunk sized by it (down to
 * MIN_CHUNK, each with its own round trips) made 10,000 orders take minutes.
 * The size only sets how often the progress bar moves.
 */
export const LIVE_CHUNK = 1000;
/** What a chunk's request (the service's work and the page's reading of its records) aims to take. */
export const CHUNK_MS = 20;
const FIRST_CHUNK = 50;
const MIN_CHUNK = 5;
const MAX = 10000;

/**
 * The next chunk's size from the last one's and the time it took: in
 * proportion to CHUNK_MS, at most twice as large, within MIN_CHUNK..CHUNK.
 */
export function nextChunk(size, tookMs) {
  const fit = Math.floor((size * CHUNK_MS) / Math.max(tookMs, 1));
  return Math.max(MIN_CHUNK, Math.min(CHUNK, 2 * size, fit));
}

export function mountTestData(store) {
  const form = $("#batch-form");
  const input = $("#batch-count");
  const runButton = $("#batch-run");
  const resume = $("#batch-resume");
  const cancel = $("#batch-cancel");
  const progress = $("#batch-progress");
  const status = $("#batch-status");
  const summary = $("#batch-summary");
  let cancelled = false;

  async function generate(event) {
    event.preventDefault();
    const raw = input.value.trim();
    const count = /^\d{1,5}$/.test(raw) ? Number(raw) : NaN;
    if (!(count >= 1 && count <= MAX)) {
      // Out of the service's bounds: let the service say why, in one request.
      const reply = await store.request("GET", `/api/test/order/batch?count=${encodeURIComponent(raw)}`, null, {});
      progress.hidden = true;
      status.textContent = "";
      summary.dataset.state = "error";
      summary.textContent = `HTTP ${reply.status}, code ${reply.body.code}: ${reply.body.msg}`;
      return;
    }
    await runChunks({ target: count, made: 0, succeeded: 0, failed: 0, requests: 0, state: "running" });
  }

  /**
   * Sends chunks until `run.made` reaches `run.target`. After each chunk the
   * state is saved with the run's progress in the same entry, unless the
   * previous save is still being compressed (then the first chunk after it
   * saves, with everything made by then): a reload at any moment finds the
   * chunks of the last save written, and the header beside them says
   * exactly how many those were. Waiting for every save instead would make
   * a large run several times slower.
   */
  async function runChunks(run) {
    cancelled = false;
    run.state = "running";
    store.run = run;
    runButton.disabled = true;
    cancel.disabled = false;
    resume.hidden = true;
    progress.max = run.target;
    progress.value = run.made;
    progress.hidden = false;
    summary.textContent = "";
    summary.dataset.state = "running";
    store.generating = true;
    const started = performance.now();
    let problem = "";
    let saving = null;
    const live = Boolean(store.remote);
    let chunk = live ? LIVE_CHUNK : FIRST_CHUNK;
    try {
      while (run.made < run.target && !cancelled) {
        const size = Math.min(chunk, run.target - run.made);
        const began = performance.now();
        const reply = await store.request("GET", `/api/test/order/batch?count=${size}`, null, {}, { spans: false });
        if (!live) chunk = nextChunk(size, performance.now() - began);
        run.requests++;
        if (reply.body.code !== 0) {
          problem = `a chunk failed: HTTP ${reply.status}, ${reply.body.msg}`;
          break;
        }
        run.made += reply.body.data.count;
        run.succeeded += reply.body.data.succeeded;
        run.failed += reply.body.data.failed;
        progress.value = run.made;
        status.textContent = progressText(run);
        if (!saving) {
          await breather(); // the chunk and the start of its save in tasks of their own
          const save = store.save();
          saving = save.finally(() => { saving = null; });
          // The snapshot is taken (in pieces) before the next chunk, so the save keeps up with the run; its compression goes on beside the run.
          await save.taken;
        }
        await nextFrame();
      }
    } finally {
      store.generating = false;
      runButton.disabled = false;
      cancel.disabled = true;
    }
    await saving;
    run.state = cancelled ? "cancelled" : problem ? "stopped" : "done";
    store.changed({ run: true });
    store.save();
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const share = run.made ? run.succeeded / run.made : 0;
    status.textContent = cancelled ? `Cancelled at ${number(run.made)} of ${number(run.target)}.` : problem ? "Stopped." : `${number(run.made)} of ${number(run.target)} orders.`;
    summary.dataset.state = problem ? "error" : "done";
    Object.assign(summary.dataset, { count: run.made, succeeded: run.succeeded, failed: run.failed, requests: run.requests });
    summary.textContent = `${number(run.made)} orders generated in ${run.requests} request${run.requests === 1 ? "" : "s"} (${seconds} s): ` +
      `${number(run.succeeded)} paid, ${number(run.failed)} declined (${percent(share)} paid).` + (problem ? ` Stopped: ${problem}` : "");
  }

  /** A run that a reload cut short: say how far it got, and offer the rest. */
  function showInterrupted() {
    const run = store.run;
    if (!run || run.state !== "running" || !(run.made < run.target) || store.tabs.role !== "owner") {
      resume.hidden = true;
      return;
    }
    progress.max = run.target;
    progress.value = run.made;
    progress.hidden = false;
    status.textContent = `Cut short by a reload at ${number(run.made)} of ${number(run.target)} orders.`;
    summary.dataset.state = "interrupted";
    Object.assign(summary.dataset, { count: run.made, succeeded: run.succeeded, failed: run.failed, requests: run.requests });
    summary.textContent = `The ${number(run.made)} orders made before the reload are kept (${number(run.succeeded)} paid, ${number(run.failed)} declined); ${number(run.target - run.made)} were not made.`;
    resume.textContent = `Make the other ${number(run.target - run.made)}`;
    resume.hidden = false;
  }

  resume.addEventListener("click", () => {
    const run = store.run;
    if (run?.state === "running" && run.made < run.target) runChunks({ ...run });
  });
  store.addEventListener("change", (e) => { if (e.detail.reset) showInterrupted(); });
  showInterrupted();

  form.addEventListener("submit", generate);
  cancel.addEventListener("click", () => { cancelled = true; });
}

/** How far a run is, as the bar shows it and in per cent: "2,500 of 10,000 orders (25%)…". */
export function progressText(run) {
  return `${number(run.made)} of ${number(run.target)} orders (${Math.floor((100 * run.made) / run.target)}%)…`;
}
