// Copying a text the page made (a request as curl, a run as a test): the
// text is shown first, so that where the browser refuses the clipboard it
// is still there to select by hand.
import { setText } from "./dom.js";

/**
 * Shows `text` in `out`, then copies it; `note` says `copied` or, when the
 * browser refused, `refused`.
 */
export async function showAndCopy(out, text, note, { copied, refused }) {
  setText(out, text);
  out.hidden = false;
  note.dataset.kind = "info";
  try {
    await navigator.clipboard.writeText(text);
    note.textContent = copied;
  } catch {
    note.textContent = refused;
  }
}
