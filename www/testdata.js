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
import { BATCH_COUNT } from "./routes.js";

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

/**
 * The next chunk's size from the last one's and the time it took: in
 * proportion to CHUNK_MS, at most twice as large, within MIN_CHUNK..CHUNK.
 */
export function nextChunk(size, tookMs) {
  const fit = Math.floor((size * CHUNK_MS) / Math.max(tookMs, 1));
  return Math.max(MIN_CHUNK, Math.min(CHUNK, 2 * size, fit));
}

export function mountTestData(store) {
  const panel = new TestDataPanel(store);
  $("#batch-resume").addEventListener("click", () => panel.resume());
  store.addEventListener("change", (e) => { if (e.detail.reset) panel.showInterrupted(); });
  panel.showInterrupted();
  $("#batch-form").addEventListener("submit", (event) => panel.generate(event));
  $("#batch-cancel").addEventListener("click", () => panel.cancel());
  // The bounds as the service's document gives them.
  const hint = $('label[for="batch-count"] .hint');
  if (hint) hint.textContent = `(${number(BATCH_COUNT.min)} to ${number(BATCH_COUNT.max)})`;
}

/** The test-data form: its runs of chunks, their progress, and a run a reload cut short. */
class TestDataPanel {
  input = $("#batch-count");
  runButton = $("#batch-run");
  resumeButton = $("#batch-resume");
  cancelButton = $("#batch-cancel");
  progress = $("#batch-progress");
  status = $("#batch-status");
  summary = $("#batch-summary");
  cancelled = false;

  constructor(store) {
    this.store = store;
  }

  cancel() {
    this.cancelled = true;
  }

  async generate(event) {
    event.preventDefault();
    const raw = this.input.value.trim();
    const count = /^\d+$/.test(raw) && raw.length <= String(BATCH_COUNT.max).length ? Number(raw) : NaN;
    if (!(count >= BATCH_COUNT.min && count <= BATCH_COUNT.max)) {
      // Out of the service's bounds: let the service say why, in one request.
      const reply = await this.store.request("GET", `/api/test/order/batch?count=${encodeURIComponent(raw)}`, null, {});
      this.progress.hidden = true;
      this.status.textContent = "";
      this.summary.dataset.state = "error";
      this.summary.textContent = `HTTP ${reply.status}, code ${reply.body.code}: ${reply.body.msg}`;
      return;
    }
    await this.runChunks({ target: count, made: 0, succeeded: 0, failed: 0, requests: 0, state: "running" });
  }

  resume() {
    const run = this.store.run;
    if (run?.state === "running" && run.made < run.target) this.runChunks({ ...run });
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
  async runChunks(run) {
    this.#begin(run);
    const started = performance.now();
    let problem;
    // The save under way (its compression goes on beside the run), or null.
    const saving = { now: null };
    try {
      problem = await this.#sendChunks(run, saving);
    } finally {
      this.store.generating = false;
      this.runButton.disabled = false;
      this.cancelButton.disabled = true;
    }
    await saving.now;
    run.state = this.cancelled ? "cancelled" : problem ? "stopped" : "done";
    this.store.changed({ run: true });
    this.store.save();
    this.#showDone(run, problem, performance.now() - started);
  }

  #begin(run) {
    this.cancelled = false;
    run.state = "running";
    this.store.run = run;
    this.runButton.disabled = true;
    this.cancelButton.disabled = false;
    this.resumeButton.hidden = true;
    this.progress.max = run.target;
    this.progress.value = run.made;
    this.progress.hidden = false;
    this.summary.textContent = "";
    this.summary.dataset.state = "running";
    this.store.generating = true;
  }

  /** The run's chunks, each followed by a save unless one is still going on; what stopped it, or "". */
  async #sendChunks(run, saving) {
    const store = this.store;
    const live = Boolean(store.remote);
    let chunk = live ? LIVE_CHUNK : FIRST_CHUNK;
    while (run.made < run.target && !this.cancelled) {
      const size = Math.min(chunk, run.target - run.made);
      const began = performance.now();
      const reply = await store.request("GET", `/api/test/order/batch?count=${size}`, null, {}, { spans: false });
      if (!live) chunk = nextChunk(size, performance.now() - began);
      run.requests++;
      if (reply.body.code !== 0) return `a chunk failed: HTTP ${reply.status}, ${reply.body.msg}`;
      run.made += reply.body.data.count;
      run.succeeded += reply.body.data.succeeded;
      run.failed += reply.body.data.failed;
      this.progress.value = run.made;
      this.status.textContent = progressText(run);
      if (!saving.now) {
        await breather(); // the chunk and the start of its save in tasks of their own
        const save = store.save();
        saving.now = save.finally(() => { saving.now = null; });
        // The snapshot is taken (in pieces) before the next chunk, so the save keeps up with the run; its compression goes on beside the run.
        await save.taken;
      }
      await nextFrame();
    }
    return "";
  }

  #showDone(run, problem, tookMs) {
    const { status, summary } = this;
    const seconds = (tookMs / 1000).toFixed(1);
    const share = run.made ? run.succeeded / run.made : 0;
    status.textContent = this.cancelled ? `Cancelled at ${number(run.made)} of ${number(run.target)}.` : problem ? "Stopped." : `${number(run.made)} of ${number(run.target)} orders.`;
    summary.dataset.state = problem ? "error" : "done";
    Object.assign(summary.dataset, { count: run.made, succeeded: run.succeeded, failed: run.failed, requests: run.requests });
    summary.textContent = `${number(run.made)} orders generated in ${run.requests} request${run.requests === 1 ? "" : "s"} (${seconds} s): ` +
      `${number(run.succeeded)} paid, ${number(run.failed)} declined (${percent(share)} paid).` + (problem ? ` Stopped: ${problem}` : "");
  }

  /** A run that a reload cut short: say how far it got, and offer the rest. */
  showInterrupted() {
    const { store, progress, summary, resumeButton } = this;
    const run = store.run;
    if (!run || run.state !== "running" || !(run.made < run.target) || store.tabs.role !== "owner") {
      resumeButton.hidden = true;
      return;
    }
    progress.max = run.target;
    progress.value = run.made;
    progress.hidden = false;
    this.status.textContent = `Cut short by a reload at ${number(run.made)} of ${number(run.target)} orders.`;
    summary.dataset.state = "interrupted";
    Object.assign(summary.dataset, { count: run.made, succeeded: run.succeeded, failed: run.failed, requests: run.requests });
    summary.textContent = `The ${number(run.made)} orders made before the reload are kept (${number(run.succeeded)} paid, ${number(run.failed)} declined); ${number(run.target - run.made)} were not made.`;
    resumeButton.textContent = `Make the other ${number(run.target - run.made)}`;
    resumeButton.hidden = false;
  }
}

/** How far a run is, as the bar shows it and in per cent: "2,500 of 10,000 orders (25%)…". */
export function progressText(run) {
  return `${number(run.made)} of ${number(run.target)} orders (${Math.floor((100 * run.made) / run.target)}%)…`;
}
