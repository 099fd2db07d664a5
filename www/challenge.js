// A 3-D Secure challenge as the buyer meets it: a payment answered
// REQUIRES_ACTION with `nextAction.url`, and the page the service serves
// there (GET, text/html), drawn in a frame; its own Complete, Fail and
// Cancel buttons answer it. The frame runs no script and submits no form
// (sandboxed): a click on one of its buttons sends what that button's
// form posts (POST {url}?outcome=…) through the service, shows the page
// the service answers, then reads the payment as an app does once the
// buyer is back (GET /api/payment/{id}).
import { h } from "./dom.js";
import { paymentStates } from "./payment-states.js";

/** The challenge page's HTML, by payment id: fetched once (each fetch is a request in the log, as a browser's would be). */
const pages = new Map();

const LABELS = { pass: "Complete", fail: "Fail", abandon: "Cancel" };

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
 * A frame showing `html`. Sandboxed with no scripts and no forms; of the
 * same origin as this page, so that a click on a button with
 * `name="outcome"` reaches `onAnswer(outcome)` here.
 */
function frameOf(html, title, onAnswer) {
  const frame = h("iframe", { class: "challenge-frame", title, sandbox: "allow-same-origin" });
  frame.addEventListener("load", () => {
    const doc = frame.contentDocument;
    if (!doc) return;
    // As tall as the page it shows, so the buyer sees its buttons without scrolling inside the frame.
    frame.style.height = "1px";
    frame.style.height = `${Math.min(doc.documentElement.scrollHeight + 2, 900)}px`;
    if (!onAnswer) return;
    doc.addEventListener("click", (e) => {
      const button = e.target.closest?.("button[name=outcome]");
      if (!button) return;
      e.preventDefault();
      onAnswer(button.value, doc);
    });
  });
  Promise.resolve(html).then((text) => { frame.srcdoc = text; });
  return frame;
}

/** The challenge page of `payment`, fetched through the service (GET nextAction.url) once. */
function challengePage(store, payment) {
  let page = pages.get(payment.paymentId);
  if (!page) {
    // Sent once the page is kept: the tab's service answers at once, and the redraw its answer causes finds it here.
    page = Promise.resolve().then(() => store.request("GET", payment.nextAction.url, null, {}, { spans: false }))
      .then(htmlOf, (e) => `<p>Could not load it: ${escape(e.message ?? e)}</p>`);
    pages.set(payment.paymentId, page);
  }
  return page;
}

/**
 * The buyer answers the challenge (`outcome`: pass, fail or abandon) as
 * the challenge page's button does, then the app reads the payment.
 * Resolves with `{ posted, read, status, data }`.
 */
export async function answerChallenge(store, payment, outcome) {
  const id = payment.paymentId;
  const url = payment.nextAction?.url ?? `/api/payment/${id}/challenge`;
  const posted = await store.request("POST", `${url}${url.includes("?") ? "&" : "?"}outcome=${outcome}`, null, {}, { spans: false });
  pages.set(id, Promise.resolve(htmlOf(posted)));
  const read = await store.request("GET", `/api/payment/${id}`, null, { "X-User-Id": "u-1" });
  const data = read.body?.code === 0 ? read.body.data : null;
  return { posted, read, status: data?.status ?? null, data };
}

/** What came of the buyer's answer, in words. */
function resultView(label, { posted, read, status, data }) {
  const ok = status === "SUCCESS";
  const msg = posted.status === 409 || posted.status === 400 ? ` (${posted.body?.msg ?? ""})` : posted.headers?.location ? `, sending the buyer back to ${posted.headers.location}` : ", with the page above";
  return [
    h("p", null, h("strong", null, `${label}: `), `the challenge page answered HTTP ${posted.status}${msg}.`),
    h("p", null, "Your app then reads the payment: ", h("code", null, `GET /api/payment/${read.body?.data?.paymentId ?? "…"}`), " → ",
      status ? h("span", { class: `badge pay-status s-${status}`, dataset: { status } }, status) : `code ${read.body?.code} ${read.body?.msg ?? ""}`,
      data?.failureCode ? ` (${data.failureCode}: ${data.failureReason ?? ""})` : "",
      ok ? ". The order can now be marked paid." : status === "FAILED" ? ". The buyer can try again with another payment." : "."),
  ];
}

/**
 * The challenge of a payment answered REQUIRES_ACTION (its `data`): the
 * page the buyer sees, answered by its own buttons, and the result after.
 * A challenge answered since (here, in the Simulation panel, or by its
 * rule) says the payment's status now instead.
 */
export function challengeView(store, payment) {
  if (payment?.status !== "REQUIRES_ACTION" || !payment.nextAction?.url) return null;
  const id = payment.paymentId;
  const now = paymentStates(store).get(id)?.status;
  const result = h("div", { class: "challenge-result", role: "status" });
  let busy = false;
  const answer = async (outcome, doc) => {
    if (busy || !LABELS[outcome]) return;
    busy = true;
    for (const b of doc.querySelectorAll("button")) b.disabled = true;
    try {
      const done = await answerChallenge(store, payment, outcome);
      frame.srcdoc = await pages.get(id);
      result.replaceChildren(...resultView(LABELS[outcome], done));
    } catch (e) {
      result.textContent = `Not sent: ${e.message}`;
      busy = false;
      for (const b of doc.querySelectorAll("button")) b.disabled = false;
    }
  };
  const frame = frameOf(challengePage(store, payment), `challenge page of ${id}`, answer);
  const answered = now && now !== "REQUIRES_ACTION";
  return h("div", { class: "challenge", dataset: { payment: id } },
    h("p", { class: "challenge-head" }, h("span", { class: "badge pay-status s-REQUIRES_ACTION" }, "REQUIRES_ACTION"), " ",
      h("strong", null, "The buyer must authenticate (3-D Secure). "),
      "Your app sends them to ", h("code", null, "nextAction.url"), " (", h("code", { class: "mono" }, payment.nextAction.url),
      "): the page below, as the service serves it. ",
      answered ? `Answered since: the payment is ${now}.` : "Click Complete, Fail or Cancel in it, as the buyer would."),
    frame,
    h("p", { class: "hint" }, "Its buttons post ", h("code", null, "…/challenge?outcome=pass|fail|abandon"),
      "; a test without a browser calls ", h("code", null, `service.completeChallenge("${id}", "pass")`), " instead."),
    result,
  );
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
