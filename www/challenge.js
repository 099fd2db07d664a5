// A 3-D Secure challenge as the buyer meets it: a payment answered
// REQUIRES_ACTION with `nextAction.url`, and the page the service serves
// there (GET, text/html), drawn in a frame; its own Complete, Fail and
// Cancel buttons answer it. The frame runs no script and submits no form
// (its page is drawn under a policy that forbids both): a click on one
// of its buttons sends what that button's form posts (POST
// {url}?outcome=…) through the service, shows the page the service
// answers, then reads the payment as an app does once the buyer is back
// (GET /api/payment/{id}).
import { h } from "./dom.js";
import { paymentStates } from "./payment-states.js";
import { answerArrives } from "./answer-time.js";
import { BUYER as LABELS } from "./buyer-answers.js";
import { follow } from "./follow.js";

/**
 * The challenge pages' HTML, by the service's life (`store.era`, new at
 * each fresh start, live too), then by payment id: fetched once (each
 * fetch is a request in the log, as a browser's would be). A fresh
 * service may give the same payment ids again: its pages are its own.
 */
const served = new WeakMap();

/** The pages fetched from the service in use since its last fresh start. */
function pagesOf(store) {
  if (!served.has(store.era)) served.set(store.era, new Map());
  return served.get(store.era);
}

/** Whether a reply is a page (the challenge page, its result), not an envelope: text/html, its body the HTML. */
export function isPage(reply) {
  return typeof reply?.body === "string" && /^text\/html/.test(reply.headers?.["content-type"] ?? "");
}

/** A page's HTML; a 303's, a short page saying where the browser goes. */
function htmlOf(reply) {
  if (reply.status === 303) return `<!doctype html><p style="font-family:system-ui,sans-serif">The service sends the buyer back to <code>${escape(reply.headers?.location ?? "?")}</code> (HTTP 303).</p>`;
  if (isPage(reply)) return reply.body;
  return `<!doctype html><p style="font-family:system-ui,sans-serif">The service answered HTTP ${reply.status}: ${escape(JSON.stringify(reply.body))}</p>`;
}

function escape(text) {
  return String(text).replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * A policy put at the top of each page drawn: no script of the page runs,
 * and no form of it is sent (the playground sends what a button posts).
 * Not a `sandbox` attribute: a frame sandboxed without scripts reports, as
 * a console error, every listener the browser's own isolated worlds add
 * there (an extension's, a test driver's), and those are no page's.
 */
const INERT = `<meta http-equiv="Content-Security-Policy" content="script-src 'none'; form-action 'none'; base-uri 'none'">`;

/** `html` with INERT first (after its doctype, which must stay first). */
function inert(html) {
  const doctype = /^\s*<!doctype[^>]*>/i.exec(html)?.[0] ?? "";
  return doctype + INERT + html.slice(doctype.length);
}

/**
 * A frame showing `html`, run inert (no script, no form sent); of the same
 * origin as this page, so that a click on a button with `name="outcome"`
 * reaches `onAnswer(outcome)` here.
 */
function frameOf(html, title, onAnswer, onLoad = () => {}) {
  const frame = h("iframe", { class: "challenge-frame", title });
  frame.addEventListener("load", () => {
    const doc = frame.contentDocument;
    if (!doc) return;
    // As tall as the page it shows, so the buyer sees its buttons without scrolling inside the frame.
    frame.style.height = "1px";
    frame.style.height = `${Math.min(doc.documentElement.scrollHeight + 2, 900)}px`;
    onLoad(doc);
    if (!onAnswer) return;
    doc.addEventListener("click", (e) => {
      const button = e.target.closest?.("button[name=outcome]");
      if (!button) return;
      e.preventDefault();
      onAnswer(button.value, doc);
    });
  });
  Promise.resolve(html).then((text) => { frame.srcdoc = inert(text); });
  return frame;
}

/**
 * The challenge page of `payment`, fetched through the service (GET
 * nextAction.url) once: after the pay's answer (`reply`, when this view
 * shows one) reached the app, as a browser is sent there only then.
 */
function challengePage(store, payment, reply) {
  const pages = pagesOf(store);
  let page = pages.get(payment.paymentId);
  if (!page) {
    // Sent once the page is kept (never at once, even with no answer to wait for): the tab's service answers
    // at once, and the redraw its answer causes finds it here.
    const arrived = reply ? answerArrives(reply, reply.ms ?? 0, Boolean(store.remote)) : Promise.resolve();
    page = arrived.then(() => store.request("GET", payment.nextAction.url, null, {}, { spans: false })).then(htmlOf, (e) => `<p>Could not load it: ${escape(e.message ?? e)}</p>`);
    pages.set(payment.paymentId, page);
  }
  return page;
}

/**
 * The buyer's answers on their way, by the service's life, then by payment
 * id: each ends once its answer reached the app (answerArrives), so that
 * what reads the payment after it (the flow) reads it then, not sooner.
 */
const answering = new WeakMap();

function answersOf(store) {
  if (!answering.has(store.era)) answering.set(store.era, new Map());
  return answering.get(store.era);
}

/** Resolves once the buyer's answer to the challenge of payment `id` sent from a frame, if one is on its way, reached the app. */
export function buyerAnswered(store, id) {
  return answersOf(store).get(id) ?? Promise.resolve();
}

/**
 * The buyer answers the challenge (`outcome`: pass, fail or abandon) as
 * the challenge page's button does; once that answer reached the app, the
 * app reads the payment (unless `reads` is false: the flow reads it itself).
 * Resolves with `{ posted, read, status, data }` (read and on null without the read).
 */
export async function answerChallenge(store, payment, outcome, { reads = true } = {}) {
  const id = payment.paymentId;
  const url = payment.nextAction?.url ?? `/api/payment/${id}/challenge`;
  let arrived = () => {};
  answersOf(store).set(id, new Promise((resolve) => { arrived = resolve; }));
  let posted;
  try {
    const sent = performance.now();
    posted = await store.request("POST", `${url}${url.includes("?") ? "&" : "?"}outcome=${outcome}`, null, {}, { spans: false });
    await answerArrives(posted, performance.now() - sent, Boolean(store.remote));
  } finally {
    arrived();
  }
  pagesOf(store).set(id, Promise.resolve(htmlOf(posted)));
  if (!reads) return { posted, read: null, status: null, data: null };
  const read = await store.request("GET", `/api/payment/${id}`, null, { "X-User-Id": "u-1" });
  const data = read.body?.code === 0 ? read.body.data : null;
  return { posted, read, status: data?.status ?? null, data };
}

/** What came of the buyer's answer, in words. */
function resultView(label, { posted, read, status, data }) {
  const ok = status === "SUCCESS";
  const msg = posted.status === 409 || posted.status === 400 ? ` (${posted.body?.msg ?? ""})` : posted.headers?.location ? `, sending the buyer back to ${posted.headers.location}` : ", with the page above";
  const answered = h("p", null, h("strong", null, `${label}: `), `the challenge page answered HTTP ${posted.status}${msg}.`);
  if (!read) return [answered, h("p", null, "The flow reads the payment next, as your app does once the buyer is back.")];
  return [
    answered,
    h("p", null, "Your app then reads the payment: ", h("code", null, `GET /api/payment/${read.body?.data?.paymentId ?? "…"}`), " → ",
      status ? h("span", { class: `badge pay-status s-${status}`, dataset: { status } }, status) : `code ${read.body?.code} ${read.body?.msg ?? ""}`,
      data?.failureCode ? ` (${data.failureCode}: ${data.failureReason ?? ""})` : "",
      ok ? ". The order can now be marked paid." : status === "FAILED" ? ". The buyer can try again with another payment." : "."),
  ];
}

/**
 * What the frame says of its payment: `here`, the label of the answer its
 * own button gave (null: none); `now`, the payment's status now.
 */
function stateText(gone, here, now) {
  if (gone) return "The service was started afresh since: this payment is not in it.";
  if (!now || now === "REQUIRES_ACTION") return here ? `${here} sent: waiting for its answer.` : `Click ${LABELS.pass}, ${LABELS.fail} or ${LABELS.abandon} in it, as the buyer would.`;
  return here ? `The buyer answered ${here} here: the payment is ${now}.`
    : `Answered elsewhere (another frame, the Simulation panel, a rule or another client): the payment is ${now} now; the page below is as it was served before.`;
}

/**
 * The challenge of a payment answered REQUIRES_ACTION (its `data`; `reply`:
 * the pay's answer, when shown with it): the page the buyer sees,
 * answered by its own buttons, and the result after. Once the challenge
 * is answered elsewhere (another frame, the Simulation panel, its rule),
 * or the service is started afresh, its buttons are disabled and it says
 * so, whenever that happens. `reads`: whether the app's read of the
 * payment follows the buyer's answer here (the flow reads it itself);
 * `onAnswered(done, label)`: told what came of the buyer's answer.
 */
export function challengeView(store, payment, reply = null, { reads = true, onAnswered = null } = {}) {
  if (payment?.status !== "REQUIRES_ACTION" || !payment.nextAction?.url) return null;
  const id = payment.paymentId;
  const era = store.era;
  const result = h("div", { class: "challenge-result", role: "status" });
  const state = h("span", { class: "challenge-state" });
  const badge = h("span", { class: "badge pay-status s-REQUIRES_ACTION" }, "REQUIRES_ACTION");
  let busy = false;
  let here = null;
  const answer = async (outcome, doc) => {
    if (busy || !LABELS[outcome]) return;
    busy = true;
    here = LABELS[outcome];
    for (const b of doc.querySelectorAll("button")) b.disabled = true;
    try {
      const done = await answerChallenge(store, payment, outcome, { reads });
      if (done.posted.status >= 400) here = null;
      frame.srcdoc = inert(await pagesOf(store).get(id));
      result.replaceChildren(...resultView(LABELS[outcome], done));
      settle();
      onAnswered?.(done, LABELS[outcome]);
    } catch (e) {
      result.textContent = `Not sent: ${e.message}`;
      busy = false;
      here = null;
      for (const b of doc.querySelectorAll("button")) b.disabled = false;
    }
  };
  const frame = frameOf(challengePage(store, payment, reply), `challenge page of ${id}`, answer, () => settle());
  const box = h("div", { class: "challenge", dataset: { payment: id } },
    h("p", { class: "challenge-head" }, badge, " ",
      h("strong", null, "The buyer must authenticate (3-D Secure). "),
      "Your app sends them to ", h("code", null, "nextAction.url"), " (", h("code", { class: "mono" }, payment.nextAction.url),
      "): the page below, as the service serves it. ", state),
    frame,
    h("p", { class: "hint" }, "Its buttons post ", h("code", null, "…/challenge?outcome=pass|fail|abandon"),
      "; a test without a browser calls ", h("code", null, `service.completeChallenge("${id}", "pass")`), " instead."),
    result,
  );
  /** Its buttons answer only while the payment waits for the buyer, in the service that holds it. */
  const settle = () => {
    const gone = store.era !== era;
    const now = gone ? null : paymentStates(store).get(id)?.status;
    const over = gone || Boolean(now && now !== "REQUIRES_ACTION");
    state.textContent = stateText(gone, here, now);
    box.dataset.over = String(over);
    box.dataset.answered = over && !gone ? (here ? "here" : "elsewhere") : "";
    if (now) { badge.textContent = now; badge.className = `badge pay-status s-${now}`; }
    if (!busy) for (const b of frame.contentDocument?.querySelectorAll("button[name=outcome]") ?? []) b.disabled = over;
  };
  settle();
  follow(store, box, settle);
  return box;
}

/** An answer that is a page (the challenge page fetched from the console): its status, where a 303 goes, and the page. */
export function pageReplyView(reply) {
  const location = reply.headers?.location;
  return h("div", { class: "response page-reply", "aria-label": "response" },
    h("p", { class: "facts" }, h("span", { class: `badge status ${reply.status < 400 ? "ok" : "bad"}` }, `HTTP ${reply.status}`), " ",
      h("span", { class: "hint" }, `${reply.headers?.["content-type"] ?? ""}: a page, not an envelope`)),
    location ? h("p", null, "Location: ", h("code", { class: "mono" }, location)) : null,
    reply.body ? frameOf(reply.body, "the page the service answered", null) : null,
  );
}
