// The test-data endpoint for large counts. One call generates everything
// synchronously inside the WebAssembly module, so 10,000 orders in one
// call would freeze the tab for a while with nothing to show. The page
// sends it in chunks of at most 250 orders instead, waits for the next
// frame between chunks (the progress bar paints, clicks are answered, and
// Cancel works), and adds up the chunks' {count, succeeded, failed}.
import { $, nextFrame, number, percent } from "./dom.js";

export const CHUNK = 250;
const MAX = 10000;

export function mountTestData(store) {
  const form = $("#batch-form");
  const input = $("#batch-count");
  const run = $("#batch-run");
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
      const reply = store.request("GET", `/api/test/order/batch?count=${encodeURIComponent(raw)}`, null, {});
      summary.dataset.state = "error";
      summary.textContent = `HTTP ${reply.status}, code ${reply.body.code}: ${reply.body.msg}`;
      return;
    }
    cancelled = false;
    run.disabled = true;
    cancel.disabled = false;
    progress.max = count;
    progress.value = 0;
    progress.hidden = false;
    summary.textContent = "";
    summary.dataset.state = "running";
    const total = { count: 0, succeeded: 0, failed: 0, requests: 0 };
    const started = performance.now();
    let problem = "";
    try {
      while (total.count < count && !cancelled) {
        const size = Math.min(CHUNK, count - total.count);
        const reply = store.request("GET", `/api/test/order/batch?count=${size}`, null, {});
        total.requests++;
        if (reply.body.code !== 0) {
          problem = `a chunk failed: HTTP ${reply.status}, ${reply.body.msg}`;
          break;
        }
        total.count += reply.body.data.count;
        total.succeeded += reply.body.data.succeeded;
        total.failed += reply.body.data.failed;
        progress.value = total.count;
        status.textContent = `${number(total.count)} of ${number(count)} orders…`;
        await nextFrame();
      }
    } finally {
      run.disabled = false;
      cancel.disabled = true;
    }
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const share = total.count ? total.succeeded / total.count : 0;
    status.textContent = cancelled ? `Cancelled at ${number(total.count)} of ${number(count)}.` : problem ? "Stopped." : `${number(total.count)} of ${number(count)} orders.`;
    summary.dataset.state = problem ? "error" : "done";
    Object.assign(summary.dataset, { count: total.count, succeeded: total.succeeded, failed: total.failed });
    summary.textContent = `${number(total.count)} orders generated in ${total.requests} request${total.requests === 1 ? "" : "s"} (${seconds} s): ` +
      `${number(total.succeeded)} paid, ${number(total.failed)} declined (${percent(share)} paid).` + (problem ? ` Stopped: ${problem}` : "");
  }

  form.addEventListener("submit", generate);
  cancel.addEventListener("click", () => { cancelled = true; });
}
