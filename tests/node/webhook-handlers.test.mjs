// Two webhook handlers of an app, as its own tests would hold them to the
// deliveries a provider really makes: a naive one (it parses the body
// without checking the signature, handles every delivery it gets, and takes
// the last event to arrive for the current state) and a careful one (it
// verifies the raw body with verifyWebhook on the service's clock, handles
// each event id once, and never lets an older state replace a newer one).
// Each delivery fault of a scenario (duplicate, reorder, stale_timestamp,
// tampered_body, wrong_signature) is sent to both, each the endpoint of a
// service of its own with the same seed and calls: the naive handler ends
// in a wrong state, the careful one in the right one. docs/webhook-testing.md sums up what makes it pass.
import assert from "node:assert/strict";
import { test } from "node:test";

const pkg = (file) => new URL(`../../pkg/${file}`, import.meta.url).href;
const { Service } = await import(pkg("node.js"));
const { verifyWebhook, WebhookSignatureError } = await import(pkg("webhooks.js"));

const SECRET = "whsec_handlers_test";
const START = Date.UTC(2026, 0, 1);
/** How far along an order is, by the event that says so: a later state never goes back. */
const RANK = { "order.created": 0, "order.paid": 1, "order.deleted": 2 };

/** What an app keeps: each order's state, and what it credited per order (a payment.succeeded handled). */
function appState() {
  return { orders: new Map(), credited: new Map(), refused: 0 };
}

function apply(state, event) {
  const object = event.data.object;
  if (event.type in RANK) state.orders.set(object.orderId, event.type);
  if (event.type === "payment.succeeded") state.credited.set(object.orderId, (state.credited.get(object.orderId) ?? 0) + object.amount);
}

/** The naive handler: JSON.parse of the body as it came, every delivery applied, in arrival order. */
function naiveHandler(state) {
  return async (request) => {
    apply(state, JSON.parse(await request.text()));
    return new Response(null, { status: 200 });
  };
}

/** The careful handler: verified on the service's clock, once per event id, no going back. */
function carefulHandler(state, service) {
  const handled = new Set();
  return async (request) => {
    let event;
    try {
      const now = Math.floor(service.now / 1000);
      event = await verifyWebhook(await request.text(), request.headers.get("Orderpay-Signature"), SECRET, { now });
    } catch (error) {
      if (!(error instanceof WebhookSignatureError)) throw error;
      state.refused += 1;
      return new Response(error.reason, { status: 400 });
    }
    if (handled.has(event.id)) return new Response(null, { status: 200 });
    handled.add(event.id);
    const known = state.orders.get(event.data.object.orderId);
    if (event.type in RANK && known !== undefined && RANK[known] > RANK[event.type]) return new Response(null, { status: 200 });
    apply(state, event);
    return new Response(null, { status: 200 });
  };
}

/**
 * Two services on a virtual clock, the same seed and the scenario's one
 * delivery rule, each with one of the handlers as its endpoint;
 * `flow(service)` runs on both, and every delivery it set going settles
 * (a reorder releases its held events a millisecond apart: the clock is
 * moved past them). Returns both apps' states, the careful one's service,
 * and the truth: each order's last state and what was paid for it.
 */
async function bothHandlers(rule, flow) {
  const naive = appState();
  const careful = appState();
  const make = () => new Service({ seed: 3, failureRate: 0, virtualTime: START, scenario: { rules: [rule] } });
  const naiveService = make();
  const service = make();
  naiveService.addWebhook({ handler: naiveHandler(naive), secret: SECRET });
  service.addWebhook({ handler: carefulHandler(careful, service), secret: SECRET });
  await flow(naiveService);
  const orders = await flow(service);
  for (const s of [naiveService, service]) {
    await s.webhooksSettled();
    s.advance(10);
    await s.webhooksSettled();
  }
  naiveService.free();
  const truth = appState();
  for (const { orderId, status, paid } of orders) {
    truth.orders.set(orderId, status);
    if (paid) truth.credited.set(orderId, paid);
  }
  return { naive, careful, truth, service };
}

const post = (service, path, body) => service.handle("POST", path, body).data;

/** Orders created, paid and marked paid: each { orderId, status: "order.paid", paid }. */
function paidOrders(count) {
  return async (service) => {
    const orders = [];
    for (let i = 0; i < count; i++) {
      const order = post(service, "/api/order/create", { userId: `u-${i}`, price: 10 + i });
      post(service, "/api/payment/pay", { orderId: order.orderId, amount: 10 + i, paymentMethod: "CARD" });
      post(service, `/api/order/${order.orderId}/pay`, {});
      orders.push({ orderId: order.orderId, status: "order.paid", paid: 10 + i });
    }
    return orders;
  };
}

/** Orders created only: each { orderId, status: "order.created" }. */
function createdOrders(count) {
  return async (service) =>
    Array.from({ length: count }, (_, i) => ({ orderId: post(service, "/api/order/create", { userId: `u-${i}`, price: 5 }).orderId, status: "order.created" }));
}

test("duplicate deliveries: the naive handler credits each payment twice, the careful one once", async () => {
  const { naive, careful, truth } = await bothHandlers(
    { name: "twice", when: { event: "payment.succeeded" }, then: { kind: "duplicate", times: 2 } },
    paidOrders(3),
  );
  assert.deepEqual(careful.credited, truth.credited);
  assert.deepEqual([...naive.credited.values()], [...truth.credited.values()].map((amount) => 2 * amount));
});

test("reordered deliveries: the naive handler leaves each order created after it was paid, the careful one paid", async () => {
  const { naive, careful, truth } = await bothHandlers(
    { name: "backwards", when: { event: "order.*" }, then: { kind: "reorder", hold: 2, order: "reverse" } },
    paidOrders(2),
  );
  assert.deepEqual(careful.orders, truth.orders);
  assert.deepEqual([...naive.orders.values()], ["order.created", "order.created"]);
});

for (const [kind, reason] of [["stale_timestamp", "stale"], ["tampered_body", "mismatch"], ["wrong_signature", "mismatch"]]) {
  test(`${kind}: the naive handler acts on deliveries it should refuse, the careful one refuses them (${reason}) and acts on none`, async () => {
    const { naive, careful, service } = await bothHandlers(
      { name: kind, when: { event: "order.created" }, then: { kind } },
      createdOrders(2),
    );
    assert.equal(naive.orders.size, 2, "the naive handler took both");
    assert.equal(careful.orders.size, 0);
    assert.equal(careful.refused, 2);
    // The careful endpoint's attempts answered 400, and say which fault touched them.
    const deliveries = service.webhooks()[0].deliveries;
    for (const d of deliveries) {
      assert.equal(d.attempts[0].status, 400);
      assert.equal(d.attempts[0].fault?.kind, kind);
    }
  });
}
