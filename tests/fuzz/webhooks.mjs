// The fuzzer's webhook part: services of their own with in-process
// handler endpoints that answer at random (2xx, 500, a throw, no
// Response), scenarios with the delivery fault kinds, random requests,
// then the clock moved past the whole retry schedule. It checks:
//   - registering, reading the events and resending with random or
//     hostile values gives an endpoint or a TypeError/RangeError whose
//     message names the field, and a refusal adds nothing;
//   - every event is a well-formed event of one of the eight types;
//   - after four days on the clock, every delivery is delivered or failed,
//     its attempts numbered from 1 in order, at most 10 but for resends,
//     each at or after the one before.
// Called by fuzz.mjs with its random stream and its `find`.
import { Service } from "../../pkg/node.js";
import * as gen from "./values.mjs";

const TYPES = new Set([
  "order.created", "order.paid", "order.deleted", "payment.succeeded",
  "payment.failed", "payment.requires_action", "payment.pending", "payment.refunded",
]);
const DELIVERY_THENS = [
  { kind: "duplicate", times: 3 }, { kind: "late", ms: 5000 }, { kind: "reorder", hold: 2 },
  { kind: "reorder", hold: 3, order: "shuffle" }, { kind: "stale_timestamp" }, { kind: "tampered_body" },
  { kind: "wrong_signature" }, { kind: "drop", attempts: 2 },
];
/** A refusal names one of these, as `field: problem`. */
const FIELD = /^(webhooks(\[\d+\])?(\.\w+)?|url|handler|secret|events(\[\d+\])?|header|id|after|spec|"[^"]+"|\w+)(\[\d+\])?: \S/;
const FOUR_DAYS = 4 * 24 * 3600 * 1000;
const MAX_ATTEMPTS = 10;

/** A handler that answers as the stream says: mostly 200, else 500, a throw or no Response. */
function handler(r) {
  const ways = [() => new Response("ok"), () => new Response("ok"), () => new Response("no", { status: 500 }),
    () => { throw new Error("handler down"); }, () => "not a Response"];
  return async () => r.pick(ways)();
}

/** A random or hostile endpoint spec. */
function spec(r) {
  if (r.chance(0.2)) return gen.hostile(r);
  const s = r.chance(0.8) ? { handler: handler(r) } : { url: r.pick(["ftp://x/", "/rel", "http://", 7, "http://127.0.0.1:9/h"]) };
  if (r.chance(0.3)) s.events = r.pick([["payment.*"], ["order.created"], ["nope"], "payment.succeeded", [gen.hostile(r)]]);
  if (r.chance(0.2)) s.secret = r.pick(["whsec_x", "", 5, gen.hostile(r)]);
  if (r.chance(0.1)) s.header = r.pick(["Stripe-Signature", "X-Sig"]);
  return s;
}

/** Calls `act`; a throw must be a TypeError or RangeError naming its field. */
function refusedWell(act, what, find) {
  try {
    act();
    return true;
  } catch (error) {
    const named = (error instanceof TypeError || error instanceof RangeError) && FIELD.test(error.message);
    if (!named) find(`${what} refusal`, {}, error?.stack ?? String(error));
    return false;
  }
}

/** Registers endpoints with random specs; a refusal must add nothing. */
function register(service, r, find) {
  for (let k = 0; k < 3; k++) {
    const before = service.webhooks().length;
    const added = refusedWell(() => service.addWebhook(spec(r)), "addWebhook", find);
    if (!added && service.webhooks().length !== before) find("refused endpoint added", {}, String(before));
  }
  if (service.webhooks().length === 0) service.addWebhook({ handler: handler(r) });
}

/** Random requests, some of them through a delivery fault's scenario. */
function traffic(service, r, find, rounds) {
  const ids = { orders: [], payments: [] };
  for (let i = 0; i < rounds; i++) {
    const route = r.pick(gen.ROUTES);
    const reply = service.handle(route[0], gen.path(r, ids, route), gen.body(r, ids, route));
    const data = reply?.data;
    if (typeof data?.orderId === "string" && ids.orders.length < 50) ids.orders.push(data.orderId);
    if (typeof data?.paymentId === "string" && ids.payments.length < 50) ids.payments.push(data.paymentId);
    if (r.chance(0.05)) refusedWell(() => service.events({ after: r.chance(0.5) ? "evt_nope" : gen.hostile(r) }), "events", find);
    if (r.chance(0.05)) refusedWell(() => service.resendDelivery(r.chance(0.5) ? "wd_1" : gen.hostile(r)), "resendDelivery", find);
  }
}

/** What must hold of the events and deliveries once the schedule has run out. */
function checkSettled(service, find) {
  for (const event of service.events()) {
    const ok = typeof event.id === "string" && event.object === "event" && TYPES.has(event.type) && typeof event.data?.object === "object";
    if (!ok) find("event shape", {}, JSON.stringify(event));
  }
  for (const endpoint of service.webhooks()) {
    for (const d of endpoint.deliveries) {
      if (d.state !== "delivered" && d.state !== "failed") find("delivery left unfinished", {}, JSON.stringify(d));
      const ordered = d.attempts.every((a, i) => a.n === i + 1 && (i === 0 || a.at >= d.attempts[i - 1].at));
      if (!ordered) find("attempts out of order", {}, JSON.stringify(d.attempts));
      if (d.attempts.length > MAX_ATTEMPTS + 1) find("attempts past the schedule", {}, String(d.attempts.length));
    }
  }
}

/** Runs `count` services through the webhook part; returns how many deliveries were checked. */
export async function fuzzWebhooks(r, find, count, seed) {
  let deliveries = 0;
  for (let s = 0; s < count; s++) {
    const service = new Service({ seed: seed * 97 + s, virtualTime: 1_700_000_000_000, failureRate: 0.3 });
    if (r.chance(0.5)) service.setScenario({ rules: [{ when: { probability: 0.5 }, then: r.pick(DELIVERY_THENS) }] });
    register(service, r, find);
    traffic(service, r, find, 40);
    await service.webhooksSettled();
    service.advance(FOUR_DAYS);
    await service.webhooksSettled();
    checkSettled(service, find);
    deliveries += service.webhooks().reduce((n, e) => n + e.deliveries.length, 0);
    service.free();
  }
  return deliveries;
}
