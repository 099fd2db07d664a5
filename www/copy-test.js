// "Copy as test": everything this page's service was asked since it
// started (the flow, the console's requests, scenarios, challenges, the
// clock) as a runnable test, from the package's service.exportTest (tab
// mode) or the server's GET /__orderpay/export-test (live). The text is
// copied to the clipboard and shown below the buttons.
import { $ } from "./dom.js";
import { showAndCopy } from "./clipboard.js";

const LABELS = { vitest: "a Vitest test", playwright: "a Playwright test", curl: "a curl script" };

/** Shows `text` as copied (or why it could not be), then tries the clipboard. */
function show(format, text, note, out) {
  out.dataset.format = format;
  return showAndCopy(out, text, note, {
    copied: `Copied as ${LABELS[format]}: it replays this run and checks each answer. How to run it: "Copy as test" in the package's docs (docs/copy-as-test.md).`,
    refused: `Here is ${LABELS[format]}: the browser did not allow copying, so select the text below and copy it.`,
  });
}

/** Why there is no copy, in the page's words: an imported state has no run (the package's error, whose reason says so, speaks in code's terms). */
function reason(error) {
  if (error.reason === "restored") {
    return "this state was imported from a file (or restored from a snapshot): it holds the orders and payments, not the calls that made them. Copy before exporting a state, or start fresh and copy that run.";
  }
  return error.message;
}

/** One button's click: the export, or the reason there is none. */
async function copyAs(store, format, note, out) {
  try {
    await show(format, await store.exportTest(format), note, out);
  } catch (error) {
    out.hidden = true;
    note.dataset.kind = "error";
    note.textContent = `No test to copy: ${reason(error)}`;
  }
}

/** The hint of live mode: the run is the server session's, not this browser's. */
const LIVE_HINT =
  "Everything the server's session was asked since it started or was reset (this page's requests and any other client's in the same session: the flow, the console, test data, scenarios, forcing, challenges, the clock's moves) as a test that replays it with the same seed and checks each answer: statuses, codes, decline codes, replayed and lost answers. The server keeps the run; a session given a snapshot has none until its next reset.";

export function mountCopyTest(store) {
  if (store.remote) $("#copy-test-hint").textContent = LIVE_HINT;
  const note = $("#copy-test-note");
  const out = $("#copy-test-text");
  for (const format of Object.keys(LABELS)) {
    $(`#copy-test-${format}`).addEventListener("click", () => copyAs(store, format, note, out));
  }
}
