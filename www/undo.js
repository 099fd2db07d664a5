// Destructive actions (empty the log, start fresh, reset, import) act at
// once and offer an Undo: the page keeps the whole state from just before,
// and one click puts it back. No dialog stands in the way, and nothing is
// lost by a slip of the mouse. What is kept is the replaced service itself
// (store.js, checkpoint), or a snapshot of it where it is changed in place.
import { $ } from "./dom.js";

const KEEP_MS = 60_000;
/** On a phone the bar covers the bottom of the page: it goes sooner there. */
const KEEP_NARROW_MS = 8_000;
const NARROW = "(max-width: 600px)";

export function mountUndo(store) {
  const bar = $("#undo");
  const text = $("#undo-text");
  const button = $("#undo-button");
  let checkpoint = null;
  let timer = 0;

  /** Lets the checkpoint go (a kept service is freed). */
  function hide() {
    clearTimeout(timer);
    if (checkpoint) store.release(checkpoint.state);
    checkpoint = null;
    bar.hidden = true;
  }

  button.addEventListener("click", async () => {
    if (!checkpoint) return;
    const { state, message } = checkpoint;
    checkpoint = null;
    hide();
    await store.undo(state);
    store.dispatchEvent(new CustomEvent("undone", { detail: { message } }));
  });
  $("#undo-dismiss").addEventListener("click", hide);

  /**
   * Runs `action` (which may throw: then nothing changed and there is nothing
   * to undo), then offers to undo it with `message`. `inPlace`: the action
   * changes the service rather than replacing it, so a copy is kept.
   * Resolves with what `action` returned.
   */
  return async function undoable(message, action, { inPlace = false } = {}) {
    const state = await store.checkpoint({ inPlace });
    let result;
    try {
      result = await action();
    } catch (e) {
      store.release(state);
      throw e;
    }
    if (checkpoint) store.release(checkpoint.state);
    checkpoint = { state, message };
    text.textContent = `${message} `;
    bar.hidden = false;
    clearTimeout(timer);
    timer = setTimeout(hide, matchMedia(NARROW).matches ? KEEP_NARROW_MS : KEEP_MS);
    button.focus({ preventScroll: true });
    return result;
  };
}
