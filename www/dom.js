// Small DOM helpers. Text goes in as text nodes only: nothing on this page
// ever parses a string as markup, so what a user typed cannot run. And
// what would not show (a right-to-left override, a zero width space, a
// control character) shows as a badge in its place: see visible-text.js.
import { visibleNodes } from "./visible-text.js";

/** An element with attributes, listeners (`onclick`...) and text or element children. */
export function h(tag, props, ...children) {
  const el = document.createElement(tag);
  setProps(el, props);
  el.append(...nodes(children, true));
  return el;
}

const SVG = "http://www.w3.org/2000/svg";

/** The same for SVG elements. */
export function s(tag, props, ...children) {
  const el = document.createElementNS(SVG, tag);
  setProps(el, props);
  el.append(...nodes(children));
  return el;
}

function setProps(el, props) {
  for (const [key, value] of Object.entries(props ?? {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.setAttribute("class", value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
}

/** Children as nodes; with `badges`, strings show their hidden characters (SVG text has no room for badges). */
function nodes(children, badges = false) {
  return children.flat(Infinity)
    .filter((c) => c !== null && c !== undefined && c !== false)
    .flatMap((c) => (c instanceof Node ? [c] : badges ? visibleNodes(String(c)) : [document.createTextNode(String(c))]));
}

/** Appends children to an element as h and s take them: null, undefined and false leave nothing. */
export function add(el, ...children) {
  el.append(...nodes(children));
}

/** Replaces an element's children, taken as add takes them. */
export function fill(el, ...children) {
  el.replaceChildren(...nodes(children));
}

/**
 * Puts `children` in `parent` in this order, moving only those not in
 * place and removing the rest: rows kept by identity keep their layout.
 */
export function place(parent, children) {
  let at = parent.firstChild;
  for (const child of children) {
    if (at === child) { at = at.nextSibling; continue; }
    parent.insertBefore(child, at);
  }
  while (at) { const after = at.nextSibling; at.remove(); at = after; }
}

/** Sets an element's text, hidden characters shown as badges; null and undefined leave it empty. */
export function setText(el, text) {
  el.replaceChildren(...(text === null || text === undefined ? [] : visibleNodes(String(text))));
}

export const $ = (selector, root = document) => root.querySelector(selector);

/** JSON, two-space indented, with long arrays shortened for display. */
export function pretty(value, maxItems = 20) {
  let shortened = false;
  const text = JSON.stringify(value, (_key, v) => {
    if (Array.isArray(v) && v.length > maxItems) {
      shortened = true;
      return [...v.slice(0, maxItems), `… and ${v.length - maxItems} more`];
    }
    return v;
  }, 2);
  return { text: text ?? String(value), shortened };
}

// One formatter for the page: toLocaleString builds a new one on every call, which shows with 100,000 records.
const thousands = new Intl.NumberFormat("en-US");
export const number = (n) => thousands.format(Number(n));

export function percent(share) {
  return `${(share * 100).toFixed(1)}%`;
}

export function clock(ms) {
  const d = new Date(ms);
  const pad = (n, w = 2) => String(n).padStart(w, "0");
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}

export function bytes(n) {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(0)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** Waits for the next frame (so the page paints), or 50 ms in a hidden tab. */
export function nextFrame() {
  return new Promise((resolve) => {
    requestAnimationFrame(() => setTimeout(resolve, 0));
    setTimeout(resolve, 50);
  });
}

/**
 * Runs `fn` at most once a frame, however often it is asked for. It runs in
 * a task of its own just after the frame (not in the frame's callbacks,
 * which share one task): the request list, the log and the charts each
 * redraw in their own task, so their times never add up to a long one.
 * A hidden tab has no frames, and so does no drawing.
 */
export function throttled(fn) {
  let queued = false;
  const channel = new MessageChannel();
  channel.port1.onmessage = () => {
    queued = false;
    fn();
  };
  return () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => channel.port2.postMessage(null));
  };
}

/**
 * `redraw`, except that while a test-data run sends its chunks
 * (`store.generating`) an element out of sight is left as it was, and
 * redrawn once it comes into sight or the run ends. The log's hundred new
 * rows laid out after each chunk held the page for 30 to 150 ms with
 * 100,000 orders, off screen too: the section's content-visibility did not
 * spare it, the log lying a screen and a half below the view.
 */
export function inSightWhileGenerating(store, el, redraw) {
  let inSight = true;
  let stale = false;
  new IntersectionObserver((entries) => {
    inSight = entries[entries.length - 1].isIntersecting;
    if (inSight && stale) {
      stale = false;
      redraw();
    }
  }).observe(el);
  return () => {
    if (!inSight && store.generating) {
      stale = true;
      return;
    }
    stale = false;
    redraw();
  };
}

/** Offers `content` as a file download named `name`. */
export function download(name, type, content) {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const a = h("a", { href: url, download: name, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Shows `message` beside the field with id `id` (its "<id>-error" element),
 * or clears it: an error is read where it is fixed.
 */
export function fieldError(id, message) {
  const input = document.getElementById(id);
  const out = document.getElementById(`${id}-error`);
  if (!input || !out) return;
  out.textContent = message ?? "";
  if (message) input.setAttribute("aria-invalid", "true");
  else input.removeAttribute("aria-invalid");
}
