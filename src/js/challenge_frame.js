// showChallenge (orderpay/browser): a payment's 3-D Secure challenge shown
// to the buyer in a frame of the app's page, and answered, all through the
// app's own fetch. A navigation to `nextAction.url` (a frame's src, a
// redirect, the form's POST) reaches orderpay only where a server or a
// Playwright route answers navigations: MSW's worker lets navigations go
// to the network, and under orderpay's Service Worker the service lives in
// the page that a redirect unloads. A fetch reaches every way in alike
// (createFetch's function, MSW's worker, the Service Worker, Playwright's
// routes, `orderpay serve`), so this fetches the page, draws it in the
// frame (sandboxed: no script runs there, no form leaves it), sends what
// the clicked button's form would post, and reads the payment after.
import { checkOptions, kind } from "./adapter.js";

const OPTIONS = ["fetch", "frame", "signal"];
const PAGE = /\/api\/payment\/([^/?#]+)\/challenge$/i;
const HTML = { accept: "text/html" };

/**
 * Shows the challenge page at `url` (a payment's `nextAction.url`) in a
 * frame and resolves once the buyer has answered it, with the payment as
 * the app then reads it: `{ paymentId, status, payment }`.
 */
export async function showChallenge(url, options) {
  const opts = checkChallengeOptions(url, options);
  const send = opts.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const page = new URL(url, document.baseURI);
  const paymentId = decodeURIComponent(PAGE.exec(page.pathname)?.[1] ?? "");
  if (!paymentId) throw new TypeError(`showChallenge: url: expected a payment's nextAction.url (…/api/payment/{id}/challenge), got ${page.pathname}`);
  const html = await readPage(await send(page.href, { headers: HTML, signal: opts.signal }), `GET ${page.pathname}`);
  const owned = opts.frame === undefined;
  const frame = owned ? document.body.appendChild(document.createElement("iframe")) : opts.frame;
  if (owned) frame.title = "Card authentication";
  try {
    const action = await buyerAnswer(frame, html, page, opts.signal);
    if (action) await postAnswer(send, action, owned ? null : frame, opts.signal);
    return await readPayment(send, page, paymentId, opts.signal);
  } finally {
    if (owned) frame.remove();
  }
}

/**
 * Posts the buyer's answer. Without a returnUrl the service answers the
 * page saying the result, which a frame of the app's shows. A 409 (the
 * challenge ended meanwhile) is no error: the payment says how it ended.
 */
async function postAnswer(send, action, frame, signal) {
  const posted = await send(action.href, { method: "POST", headers: HTML, redirect: "manual", signal });
  if (frame && posted.status === 200) await draw(frame, await posted.text());
  else if (posted.status >= 400 && posted.status !== 409) await readPage(posted, `POST ${action.pathname}${action.search}`);
}

/** The options, checked: a typo or a wrong type is a TypeError that names it. */
function checkChallengeOptions(url, options) {
  if (typeof document === "undefined") {
    throw new Error("showChallenge: it shows the page to a buyer, in a browser page; without one, fetch the page and post its outcome (docs/async-payments.md)");
  }
  if (typeof url !== "string" && !(url instanceof URL)) {
    throw new TypeError(`showChallenge: url: expected a payment's nextAction.url, got ${kind(url)}`);
  }
  const opts = checkOptions(options, OPTIONS, "showChallenge");
  if (opts.fetch !== undefined && typeof opts.fetch !== "function") {
    throw new TypeError(`showChallenge: fetch: expected a function with fetch's signature, got ${kind(opts.fetch)}`);
  }
  if (opts.frame !== undefined && !(opts.frame instanceof HTMLIFrameElement)) {
    throw new TypeError(`showChallenge: frame: expected an <iframe> element, got ${kind(opts.frame)}`);
  }
  return opts;
}

/** The body of a page answer, or an error that says what came instead. */
async function readPage(response, what) {
  const type = response.headers.get("content-type") ?? "";
  const text = await response.text();
  if (response.ok && /^text\/html/i.test(type)) return text;
  throw new Error(`showChallenge: ${what} answered HTTP ${response.status} (${type || "no content type"}), not a page: ${messageOf(text)}`);
}

/** An envelope's msg, or the start of any other text. */
function messageOf(text) {
  try {
    const msg = JSON.parse(text)?.msg;
    if (typeof msg === "string") return msg;
  } catch {
    // Not JSON: the text itself.
  }
  return text.slice(0, 300);
}

/** Draws `html` in the frame, sandboxed, and resolves with its document once loaded. */
function draw(frame, html) {
  frame.setAttribute("sandbox", "allow-same-origin");
  return new Promise((resolve) => {
    // The load of this srcdoc, not a late one of the frame's first about:blank.
    const loaded = () => {
      if (frame.contentDocument?.URL !== "about:srcdoc") return;
      frame.removeEventListener("load", loaded);
      resolve(frame.contentDocument);
    };
    frame.addEventListener("load", loaded);
    frame.srcdoc = html;
  });
}

/**
 * Resolves with the URL the button the buyer clicks would post to (its
 * form's action with the button's name and value in the query, as the
 * page's own forms carry them), with null at once for a page with no
 * button, or rejects when `signal` aborts.
 */
async function buyerAnswer(frame, html, page, signal) {
  signal?.throwIfAborted();
  const doc = await draw(frame, html);
  // A challenge already over: its page says how it ended, with no button to wait for.
  if (!doc.querySelector("form button, form input[type=submit]")) return null;
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      doc.removeEventListener("click", onClick);
      reject(signal.reason);
    };
    const onClick = (event) => {
      const button = event.target.closest?.("button[type=submit], button:not([type]), input[type=submit]");
      if (!button?.form) return;
      event.preventDefault();
      for (const other of doc.querySelectorAll("button, input")) other.disabled = true;
      doc.removeEventListener("click", onClick);
      signal?.removeEventListener("abort", onAbort);
      const action = new URL(button.form.getAttribute("action") ?? "", page);
      if (button.name) action.searchParams.set(button.name, button.value);
      resolve(action);
    };
    doc.addEventListener("click", onClick);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** The payment as the app reads it once the buyer is back: GET {base}/api/payment/{id}. */
async function readPayment(send, page, paymentId, signal) {
  const at = new URL(page.pathname.replace(/\/challenge$/i, ""), page);
  const response = await send(at.href, { headers: { accept: "application/json" }, signal });
  const envelope = await response.json();
  if (envelope?.code !== 0) throw new Error(`showChallenge: GET ${at.pathname} answered code ${envelope?.code}: ${envelope?.msg}`);
  return { paymentId, status: envelope.data.status, payment: envelope.data };
}
