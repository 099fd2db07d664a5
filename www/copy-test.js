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
    copied: `Copied as ${LABELS[format]}: it replays this run and checks each answer (docs/copy-as-test.md says how to run it).`,
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

export function mountCopyTest(store) {
  const note = $("#copy-test-note");
  const out = $("#copy-test-text");
  for (const format of Object.keys(LABELS)) {
    $(`#copy-test-${format}`).addEventListener("click", () => copyAs(store, format, note, out));
  }
}
