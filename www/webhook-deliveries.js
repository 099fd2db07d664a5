// One webhook endpoint's deliveries as the service recorded them
// (service.webhooks()): each event's delivery with its state, its
// attempts (when, what the receiver answered, how long it took, what a
// scenario's fault did to it), the next retry's time on the service's
// clock, the signature header sent, and a Resend button.
import { h } from "./dom.js";
import { dueText } from "./payment-states.js";
import { serviceTime } from "./service-time.js";
import { attemptOk, attemptSentence, attemptText, deliveryFaultSentence, deliveryFaultText, refusalSentence, stateText } from "./webhook-words.js";

/** Deliveries drawn per endpoint, the newest. */
const SHOWN = 30;

/**
 * An endpoint and its newest deliveries. `ctx`: `{ store, receiver,
 * events (id → event), resend(id) }`.
 */
export function endpointView(endpoint, ctx) {
  const deliveries = endpoint.deliveries ?? [];
  const shown = deliveries.slice(-SHOWN).reverse();
  const builtIn = ctx.receiver.endpoint?.id === endpoint.id;
  return h("li", { class: "hook-endpoint", dataset: { endpoint: endpoint.id } },
    h("p", { class: "hook-endpoint-head" },
      h("strong", null, builtIn ? "The built-in receiver" : endpoint.handler ? "A handler in this tab" : h("span", { class: "mono" }, endpoint.url)),
      ` · ${endpoint.id} · wants ${endpoint.events.join(", ") === "*" ? "every event" : endpoint.events.join(", ")}`,
      h("span", { class: "hint" }, ` · signed under ${endpoint.header ?? "Orderpay-Signature"} with `, h("code", null, endpoint.secret))),
    builtIn && ctx.store.virtualClock === true ? h("p", { class: "hint" }, "On a virtual clock the receiver checks each signature but not its age: Advance sends the attempts that came due on the way, each signed at its own time, long before the clock's now.") : null,
    deliveries.length > shown.length ? h("p", { class: "hint" }, `The newest ${shown.length} of ${deliveries.length} deliveries:`) : null,
    h("ol", { class: "hook-deliveries", "aria-label": `deliveries to ${endpoint.id}, newest first` },
      shown.length ? shown.map((d) => deliveryView(d, endpoint, ctx)) : h("li", { class: "hint empty" }, "No delivery yet: the next state change sends one.")),
  );
}

/** One delivery: its event, state, next retry and Resend; its attempts below. */
function deliveryView(delivery, endpoint, ctx) {
  const event = ctx.events.get(delivery.event);
  const { store } = ctx;
  return h("li", { class: `hook-delivery st-${delivery.state}`, dataset: { delivery: delivery.id, event: delivery.event, state: delivery.state, attempts: String(delivery.attempts.length) } },
    h("p", { class: "hook-delivery-head" },
      h("span", { class: `badge hook-state st-${delivery.state}` }, stateText(delivery)), " ",
      h("span", { class: "mono" }, event?.type ?? delivery.type ?? delivery.event), " ",
      h("span", { class: "hint mono" }, delivery.id),
      h("button", { type: "button", class: "secondary resend", onclick: () => ctx.resend(delivery.id), title: "Send this delivery again now, as a new attempt, whatever became of it" }, "Resend")),
    typeof delivery.nextAttemptAt === "number"
      ? h("p", { class: "hook-next" }, `Next attempt ${dueText(delivery.nextAttemptAt, store.now, store)}.`)
      : null,
    h("ol", { class: "hook-attempts" }, attemptViews(delivery, endpoint, ctx)),
  );
}

/**
 * Each attempt, with what the built-in receiver saw of it: its
 * sightings of the event, in order, one per attempt that reached it (a
 * dropped one never did).
 */
function attemptViews(delivery, endpoint, ctx) {
  const builtIn = ctx.receiver.endpoint?.id === endpoint.id;
  const sightings = builtIn ? ctx.receiver.sightingsOf(delivery.event) : [];
  let next = 0;
  return delivery.attempts.map((attempt) => {
    const reached = attempt.error !== "dropped";
    const seen = builtIn && reached ? sightings[next++] ?? null : null;
    return attemptView(attempt, endpoint, seen, ctx.store);
  });
}

function attemptView(attempt, endpoint, seen, store) {
  const ok = attemptOk(attempt);
  const fault = attempt.fault;
  return h("li", { class: `hook-attempt${ok ? " ok" : " failed"}`, dataset: { n: String(attempt.n), status: String(attempt.status ?? 0) } },
    h("p", { class: "hook-attempt-head" },
      h("strong", null, `#${attempt.n}`), ` ${serviceTime(store, attempt.at)} · `,
      h("span", { class: `badge ${ok ? "ok" : "bad"}` }, attemptText(attempt)),
      ` · ${Math.round(attempt.durationMs)} ms`,
      fault ? [" ", h("span", { class: "badge fault-badge hook-fault", title: deliveryFaultSentence(fault), dataset: { fault: fault.kind } }, deliveryFaultText(fault), fault.rule ? ` · ${fault.rule}` : "")] : null),
    h("p", { class: "hook-why" }, attemptSentence(attempt), fault ? ` ${deliveryFaultSentence(fault)}` : ""),
    signatureLine(attempt, endpoint, seen),
  );
}

/**
 * The signature header the attempt carried: as the built-in receiver
 * received it, with its verdict; for another endpoint, its name and time.
 */
function signatureLine(attempt, endpoint, seen) {
  const name = endpoint.header ?? "Orderpay-Signature";
  if (!seen) {
    if (attempt.error === "dropped") return null;
    return h("p", { class: "hook-signature hint" }, `Sent with ${name}: t=${Math.floor(attempt.at / 1000)},v1=<HMAC-SHA256 of "t.body" with the endpoint's secret>.`);
  }
  return h("p", { class: `hook-signature${seen.verdict.ok ? "" : " refused"}` },
    h("span", { class: "hint" }, `${seen.headerName}: `), h("code", { class: "sig" }, seen.header ?? "(none)"),
    seen.verdict.ok
      ? h("span", { class: "verdict ok" }, " ✓ verifyWebhook accepted it.")
      : h("span", { class: "verdict bad" }, ` ✕ verifyWebhook refused it: ${refusalSentence(seen.verdict)}; the receiver answered ${seen.status}.`),
    seen.verdict.ok && seen.status === 500 ? " It answered 500 all the same, as “make the receiver fail” asks." : null);
}
