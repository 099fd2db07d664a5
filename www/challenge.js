// A 3-D Secure challenge as the buyer meets it: a payment answered
// REQUIRES_ACTION with `nextAction.url`, the page the service serves
// there (shown in a frame, as the buyer's browser gets it), and the
// buyer's three answers: Complete, Fail, Cancel. Each sends what the
// page's own buttons post (POST {url}?outcome=…), then reads the payment
// as an app does once the buyer is back (GET /api/payment/{id}).
import { h } from "./dom.js";

/** The challenge page's HTML, by payment id: fetched once (each fetch is a request in the log, as a browser's would be). */
const pages = new Map();

const OUTCOMES = [
  ["pass", "Complete", "the buyer authenticates"],
  ["fail", "Fail", "the authentication fails"],
  ["abandon", "Cancel", "the buyer gives up"],
];

/** The text of an answer that is a page, not an envelope (the package's request() gives it as text; live, as the msg of what could not be parsed). */
function htmlOf(reply) {
  if (typeof reply.body === "string") return reply.body;
  if (typeof reply.body?.msg === "string" && /<html|<!doctype/i.test(reply.body.msg)) return reply.body.msg;
  return `<!doctype html><p>The service answered HTTP ${reply.status}: ${JSON.stringify(reply.body)}</p>`;
}

/** The challenge page of `payment`, as a frame: fetched through the service (GET nextAction.url) and shown with srcdoc. */
function challengeFrame(store, payment) {
  const frame = h("iframe", { class: "challenge-frame", title: `challenge page of ${payment.paymentId}`, sandbox: "", loading: "lazy" });
  const url = payment.nextAction.url;
  let page = pages.get(payment.paymentId);
  if (!page) {
    page = store.request("GET", url, null, {}, { spans: false }).then(htmlOf, (e) => `<p>Could not load it: ${String(e.message ?? e)}</p>`);
    pages.set(payment.paymentId, page);
  }
  page.then((html) => { frame.srcdoc = html; });
  return frame;
}

/**
 * The buyer answers the challenge (`outcome`: pass, fail or abandon) as
 * the challenge page's button would, then the app reads the payment.
 * Resolves with `{ posted, read, status }`.
 */
export async function answerChallenge(store, payment, outcome) {
  const id = payment.paymentId;
  const url = payment.nextAction?.url ?? `/api/payment/${id}/challenge`;
  const posted = await store.request("POST", `${url}${url.includes("?") ? "&" : "?"}outcome=${outcome}`, null, {}, { spans: false });
  const read = await store.request("GET", `/api/payment/${id}`, null, { "X-User-Id": "u-1" });
  const data = read.body?.code === 0 ? read.body.data : null;
  if (data) store.note({ paymentId: id, status: data.status, at: read.record?.timestamp ?? null, cause: { rule: "buyer" }, failureCode: data.failureCode, failureReason: data.failureReason });
  return { posted, read, status: data?.status ?? null, data };
}

/** What came of the buyer's answer, in words. */
function resultView(label, { posted, read, status, data }) {
  const ok = status === "SUCCESS";
  return [
    h("p", null, h("strong", null, `${label}: `), `the challenge page answered HTTP ${posted.status}`,
      posted.status === 409 ? " (the challenge was resolved already)" : posted.headers?.location ? `, sending the buyer back to ${posted.headers.location}` : "", "."),
    h("p", null, "Your app then reads the payment: ", h("code", null, `GET /api/payment/${read.body?.data?.paymentId ?? "…"}`), " → ",
      status ? h("span", { class: `badge pay-status s-${status}`, dataset: { status } }, status) : `code ${read.body?.code} ${read.body?.msg ?? ""}`,
      data?.failureCode ? ` (${data.failureCode}: ${data.failureReason ?? ""})` : "",
      ok ? ". The order can now be marked paid." : status === "FAILED" ? ". The buyer can try again with another payment." : "."),
  ];
}

/**
 * The challenge of a payment answered REQUIRES_ACTION (its `data`): what
 * the buyer sees, their three buttons, and the result after.
 */
export function challengeView(store, payment) {
  if (payment?.status !== "REQUIRES_ACTION" || !payment.nextAction?.url) return null;
  const result = h("div", { class: "challenge-result", role: "status" });
  const buttons = OUTCOMES.map(([outcome, label, what]) => h("button", {
    type: "button", class: outcome === "pass" ? "" : "secondary", dataset: { outcome }, title: what,
    onclick: async () => {
      for (const b of buttons) b.disabled = true;
      try {
        result.replaceChildren(...resultView(label, await answerChallenge(store, payment, outcome)));
      } catch (e) {
        result.textContent = `Not sent: ${e.message}`;
        for (const b of buttons) b.disabled = false;
      }
    },
  }, label));
  return h("div", { class: "challenge", dataset: { payment: payment.paymentId } },
    h("p", { class: "challenge-head" }, h("span", { class: "badge pay-status s-REQUIRES_ACTION" }, "REQUIRES_ACTION"), " ",
      h("strong", null, "The buyer must authenticate (3-D Secure). "),
      "Your app sends them to ", h("code", null, "nextAction.url"), ", ", h("code", { class: "mono" }, payment.nextAction.url),
      ", the bank's page; the payment waits until they answer. This is that page, as the service serves it:"),
    challengeFrame(store, payment),
    h("p", { class: "challenge-actions actions" }, h("span", { class: "hint" }, "As the buyer: "), buttons),
    h("p", { class: "hint" }, "Each button sends what the page's own button posts (", h("code", null, "POST …/challenge?outcome=pass|fail|abandon"),
      "); a test without a browser calls ", h("code", null, `service.completeChallenge("${payment.paymentId}", "pass")`), " instead."),
    result,
  );
}
