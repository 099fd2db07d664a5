// A page for one order or payment, like a payments dashboard's object page:
// what the page last saw of it, and its timeline, every request that
// touched it oldest first (created, each payment attempt with why it was
// declined or approved, marked paid, refunded, refused deletions), each a
// link to that request. A payment's page also lists its states
// (REQUIRES_ACTION → SUCCESS…) with their times and causes (payment-states.js). Ids are found in paths, request bodies and answers
// (requests-index.js and query.js); a request whose body the page did not
// keep (from the log alone) is found by its path only, and the page says so.
import { h, pretty } from "./dom.js";
import { serviceTime } from "./service-time.js";
import { orderReversals, refusedRefundWhy } from "./reversal.js";
import { KIND_TEXT } from "./requests-index.js";
import { outcomeSummary } from "./outcome.js";
import { prepare } from "./query.js";
import { causeText, dueText, paymentStates, planText } from "./payment-states.js";

/** The requests that touched `id`, oldest first. */
export function timelineOf(store, id) {
  const out = [];
  for (const r of store.requests.list) {
    prepare(r, store.exchanges.get(r.key));
    if (r.ids.split(" ").includes(id)) out.push(r);
  }
  return out;
}

/**
 * What the latest answer that showed `id` whole said it was, with what the
 * successful requests after it changed (marking paid and refunding answer
 * with no data), or null.
 */
function latest(store, requests, id) {
  for (let i = requests.length - 1; i >= 0; i--) {
    const data = store.exchanges.get(requests[i].key)?.envelope?.data;
    if (!data || !((id.startsWith("ORD-") && data.orderId === id && !data.paymentId) || data.paymentId === id)) continue;
    const state = { ...data };
    for (const later of requests.slice(i + 1)) {
      if (later.code !== 0) continue;
      const path = later.fullPath ?? later.uri ?? "";
      if (/\/order\/[^/]+\/pay$/.test(path)) state.status = "PAID";
      else if (/\/order\/delete\//.test(path)) state.status = "DELETED";
      else if (/\/payment\/refund\//.test(path) && state.paymentId === id) state.status = "REFUNDED";
    }
    return state;
  }
  return null;
}

/** `open(key)` opens one request. */
export function objectView(store, id, open) {
  const requests = timelineOf(store, id);
  const kind = id.startsWith("PAY-") ? "payment" : "order";
  const states = kind === "payment" ? paymentStates(store).get(id) ?? null : null;
  const state = latest(store, requests, id);
  // A change of state made after the last answer (the buyer, the clock) is in the records: the status they say.
  if (state && states?.status && states.states.length > 1) {
    const last = states.states.at(-1);
    Object.assign(state, { status: last.status }, last.failureCode ? { failureCode: last.failureCode, failureReason: last.failureReason } : {});
    if (last.status !== "REQUIRES_ACTION") delete state.nextAction;
  }
  return h("section", { class: "object-page", id: "object-page", dataset: { id }, "aria-labelledby": "object-title" },
    h("h3", { id: "object-title", tabindex: "-1" }, `${kind === "order" ? "Order" : "Payment"} `, h("span", { class: "mono" }, id)),
    state ? [h("p", { class: "hint" }, "As the latest answer that showed it whole said, with what the requests since changed:"), h("pre", { class: "object-state" }, pretty(state).text)]
      : h("p", { class: "note" }, "No answer the page kept shows it whole: the requests below come from the log."),
    kind === "order" ? orderReversals(store, requests) : null,
    states?.states.length ? statesView(states, store) : null,
    h("h4", null, `Timeline: ${requests.length} request${requests.length === 1 ? "" : "s"}`),
    h("ol", { class: "timeline", id: "object-timeline" }, requests.map((r) => h("li", { class: `kind-${r.kind ?? "pending"}`, dataset: { key: r.key, kind: r.kind ?? "pending" } },
      h("span", { class: "tl-time mono" }, typeof r.timestamp === "number" ? serviceTime(store, r.timestamp) : ""),
      h("button", { type: "button", class: "link tl-open", onclick: () => open(r.key) }, `${r.method} ${r.fullPath ?? r.uri}`),
      h("span", { class: "tl-what" }, step(r)),
      r.service?.outcome ? h("span", { class: "tl-why" }, `${outcomeSummary(r.service.outcome, r.fault)}: ${r.service.outcome.reason ?? ""}`) : null,
      refusedRefundWhy(store, r.fullPath ?? r.uri, { code: r.code }),
    ))),
    h("p", { class: "hint" }, "Requests are found by the id in their path, body or answer; those known from the log alone (no body kept) only by their path."),
  );
}

/** A payment's states, oldest first, each with its time and cause, then the change still to come. */
function statesView(p, store) {
  return [
    h("h4", null, "States"),
    h("ol", { class: "pay-states", id: "payment-states" }, p.states.map((st, i) => h("li", { dataset: { status: st.status } },
      i ? h("span", { class: "arrow", "aria-hidden": "true" }, "→ ") : null,
      h("span", { class: `badge pay-status s-${st.status}` }, st.status), " ",
      h("span", { class: "tl-time mono" }, typeof st.at === "number" ? serviceTime(store, st.at) : "time not known"),
      st.cause ? h("span", { class: "tl-why" }, ` by ${causeText(st.cause)}`) : null,
      st.failureCode ? h("span", { class: "tl-why" }, ` · ${st.failureCode}${st.failureReason ? `: ${st.failureReason}` : ""}`) : null))),
    p.plan ? h("p", { class: "pay-next", id: "payment-next" }, h("strong", null, "Next: "), `${planText(p.plan, p.status)}${p.plan.dueAt !== null ? ` ${dueText(p.plan.dueAt, store.now, store)}` : ""}.`) : null,
  ];
}

/** What a request did to the object, in words. */
function step(r) {
  const path = r.fullPath ?? r.uri ?? "";
  const verb = r.method === "GET" ? "read"
    : /\/order\/create$/.test(path) ? "created"
      : /\/payment\/pay$/.test(path) ? "payment attempt"
        : /\/order\/[^/]+\/pay$/.test(path) ? "marked paid"
          : /\/order\/delete\//.test(path) ? "deletion"
            : /\/payment\/refund\//.test(path) ? "refund" : "request";
  // A network fault's record has code 0 beside no status: only an answer of code 0 is "done".
  return `${verb}: ${r.kind === "ok" ? "done" : `${KIND_TEXT[r.kind] ?? ""}, ${r.msg}`}`;
}
