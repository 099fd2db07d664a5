// The ids that join records, spans and headers, with a link to what they
// mean where they appear, and the same id lit up everywhere on the page while the pointer
// (or the keyboard focus) is on one of them: a trace id in the records, the
// spans and the x-b3-traceid header; a span id as one record's spanId and
// another's parentSpanId.
import { h } from "./dom.js";

/**
 * Where a trace, a span and a parent are explained: once, in the log's
 * legend (index.html, #ids); the views that show ids link to it.
 */
export function idsExplained() {
  return h("p", { class: "ids-explained" },
    h("a", { href: "#ids" }, "What traceId, spanId and parentSpanId mean"), ". Point at an id to see it everywhere on the page.");
}

/** Marks an element as showing `id`, for the highlight. */
export function idMark(el, id) {
  if (typeof id === "string" && id) el.dataset.idv = id;
  return el;
}

export function mountIdHighlight() {
  let lit = [];
  let current = null;
  const light = (value) => {
    if (value === current) return;
    for (const el of lit) el.classList.remove("same-id");
    current = value;
    lit = value ? [...document.querySelectorAll(`[data-idv="${CSS.escape(value)}"]`)] : [];
    for (const el of lit) el.classList.add("same-id");
  };
  const at = (e) => light(e.target.closest?.("[data-idv]")?.dataset.idv ?? null);
  document.addEventListener("mouseover", at);
  document.addEventListener("focusin", at);
  document.addEventListener("focusout", () => light(null));
}
