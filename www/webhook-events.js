// The service's events (service.events()), newest first: each state
// change's type, its time on the service's clock, the order or payment it
// changed with its status then, and a link to the trace of the request
// (or the clock's step) that caused it.
import { h } from "./dom.js";
import { serviceTime } from "./service-time.js";

/** Events drawn, the newest. */
const SHOWN = 50;

/** The list's items for `events` (oldest first); `showTrace(traceId)` opens a trace in the log. */
export function eventItems(events, store, showTrace) {
  if (!events.length) return [h("li", { class: "hint empty" }, "No event yet: create an order (the typical flow, or the request console), and each state change is listed here.")];
  const items = events.slice(-SHOWN).reverse().map((e) => eventItem(e, store, showTrace));
  if (events.length > SHOWN) items.push(h("li", { class: "hint" }, `… and ${events.length - SHOWN} older events.`));
  return items;
}

function eventItem(event, store, showTrace) {
  const object = event.data?.object ?? {};
  const id = object.paymentId ?? object.orderId ?? "?";
  const family = String(event.type).split(".")[0];
  return h("li", { class: `hook-event f-${family}`, dataset: { event: event.id, type: event.type } },
    h("span", { class: "hook-type mono" }, event.type),
    h("span", { class: "hook-time" }, serviceTime(store, event.createdAt)),
    h("span", { class: "hook-object" }, h("span", { class: "mono", dataset: { idv: id } }, id), " ",
      object.status ? h("span", { class: `badge pay-status s-${object.status}` }, object.status) : null),
    h("button", { type: "button", class: "link mono trace", dataset: { idv: event.traceId }, title: "Show the trace of the request that caused it, in the log", onclick: () => showTrace(event.traceId) }, `trace ${String(event.traceId).slice(0, 8)}…`),
    h("span", { class: "hint mono hook-id" }, event.id),
  );
}
