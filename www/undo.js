// Destructive actions (empty the log, start fresh, reset, import) act at
// once and offer an Undo: the page keeps the whole state from just before,
// and one click puts it back. No dialog stands in the way, and nothing is
// lost by a slip of the mouse.
import { $ } from "./dom.js";

const KEEP_MS = 60_000;

export function mountUndo(store) {
  const bar = $("#undo");
  const text = $("#undo-text");
  const button = $("#undo-button");
  let checkpoint = null;
  let timer = 0;

  function hide() {
    clearTimeout(timer);
    checkpoint = null;
    bar.hidden = true;
  }

  button.addEventListener("click", () => {
    if (!checkpoint) return;
    const { state, message } = checkpoint;
    hide();
    store.undo(state);
    store.dispatchEvent(new CustomEvent("undone", { detail: { message } }));
  });
  $("#undo-dismiss").addEventListener("click", hide);

  /**
   * Runs `action` (which may throw: then nothing changed and there is nothing
   * to undo), then offers to undo it with `message`. Returns what `action` returned.
   */
  return function undoable(message, action) {
    const state = store.checkpoint();
    const result = action();
    checkpoint = { state, message };
    text.textContent = `${message} `;
    bar.hidden = false;
    clearTimeout(timer);
    timer = setTimeout(hide, KEEP_MS);
    button.focus({ preventScroll: true });
    return result;
  };
}
