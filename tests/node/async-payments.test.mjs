// Asynchronous payments in-process, as an app's tests meet them through
// createFetch and the MSW handlers: each path of the payment's state
// machine (a challenge passed, failed or abandoned, by completeChallenge
// and by the challenge page's own forms; pending payments resolved by
// advance(); a reversal, then the refund refused), the test cards, and the
// 409 on paying an order again while its challenge is open. The challenge
// page comes through each adapter as the core answers it: status,
// content type and Location unchanged.
import assert from "node:assert/strict";
import { test } from "node:test";

import "./msw-from-tests.mjs";

const pkg = (file) => new URL(`../../pkg/${file}`, import.meta.url).href;
const { Service } = await import(pkg("node.js"));
const { createFetch } = await import(pkg("fetch.inline.js"));
const { createHandlers } = await import(pkg("msw.inline.js"));
const { setupServer } = await import("msw/node");

const ORIGIN = "https://shop.example";
const START = Date.UTC(2026, 0, 1);
const CHALLENGE_CARD = "4000 0025 0000 3155";
const json = { "content-type": "application/json" };

/**
 * The ways in, each a fetch of the gateway at ORIGIN over a service of its
 * own on a virtual clock; `scenario` set on it when given.
 */
const WAYS = {
  createFetch: async (run, scenario) => {
    const service = new Service({ seed: 29, failureRate: 0, virtualTime: START, scenario });
    await run(createFetch({ service, baseUrl: ORIGIN, warn: false }), service);
  },
  msw: async (run, scenario) => {
    const service = new Service({ seed: 29, failureRate: 0, virtualTime: START, scenario });
    const server = setupServer(...createHandlers({ service, baseUrl: ORIGIN, warn: false }));
    server.listen({ onUnhandledRequest: "error" });
    try {
      await run((input, init) => fetch(input, init), service);
    } finally {
      server.close();
    }
  },
};

/** A client of the gateway over `api`: JSON in, the envelope out. */
function client(api) {
  const call = async (method, path, body) => {
    const res = await api(ORIGIN + path, { method, headers: json, body: body === undefined ? undefined : JSON.stringify(body) });
    return res.json();
  };
  return {
    call,
    /** A new order of `price`, and a pay of it with `extra` in the body: the pay's envelope. */
    async pay(extra = {}, price = 12) {
      const order = await call("POST", "/api/order/create", { userId: "buyer", price });
      return call("POST", "/api/payment/pay", { orderId: order.data.orderId, amount: price, paymentMethod: "CARD", ...extra });
    },
    payment: (id) => call("GET", `/api/payment/${id}`).then((e) => e.data),
  };
}

const rule = (then) => ({ rules: [{ name: then.kind, when: { route: "/api/payment/pay" }, then }] });

for (const [way, using] of Object.entries(WAYS)) {
  test(`${way}: a challenge answered by completeChallenge, each way: pass SUCCESS, fail and abandon FAILED authentication_required`, () =>
    using(async (api, service) => {
      const c = client(api);
      const ids = [];
      for (const outcome of ["pass", "fail", "abandon"]) {
        const pay = await c.pay({ cardNumber: CHALLENGE_CARD });
        assert.equal(pay.code, 0);
        const { paymentId, status, nextAction } = pay.data;
        assert.equal(status, "REQUIRES_ACTION");
        assert.deepEqual(nextAction, { type: "redirect", url: `/api/payment/${paymentId}/challenge` });
        ids.push(paymentId);
        assert.deepEqual(service.challenges().map((p) => p.paymentId), [paymentId]);
        service.completeChallenge(paymentId, outcome);
        assert.deepEqual(service.challenges(), []);
      }
      const [passed, failed, abandoned] = await Promise.all(ids.map((id) => c.payment(id)));
      assert.equal(passed.status, "SUCCESS");
      assert.equal(passed.nextAction, undefined);
      for (const p of [failed, abandoned]) {
        assert.equal(p.status, "FAILED");
        assert.equal(p.failureCode, "authentication_required");
        assert.equal(typeof p.failureReason, "string");
      }
      // The page's words: a challenge already over, and a wrong outcome given as a string or as anything else.
      assert.throws(() => service.completeChallenge(ids[0], "pass"), (e) => e instanceof RangeError && e.message === `paymentId: ${ids[0]} is not awaiting a challenge: it is SUCCESS`);
      assert.throws(() => service.completeChallenge(ids[0], "maybe"), { name: "TypeError", message: 'outcome: must be pass, fail or abandon, got "maybe"' });
      assert.throws(() => service.completeChallenge(ids[0], 7), { name: "TypeError", message: "outcome: must be pass, fail or abandon, got number" });
    }));

  test(`${way}: the challenge page is served as the core answers it, and its forms answer the challenge`, () =>
    using(async (api) => {
      const c = client(api);
      // With a returnUrl: each form sends the browser back with the result.
      for (const [outcome, status] of [["pass", "SUCCESS"], ["fail", "FAILED"], ["abandon", "FAILED"]]) {
        const pay = await c.pay({ cardNumber: CHALLENGE_CARD, returnUrl: "https://app.example/done?step=2" });
        const url = ORIGIN + pay.data.nextAction.url;
        const page = await api(url);
        assert.equal(page.status, 200);
        assert.equal(page.headers.get("content-type"), "text/html; charset=utf-8");
        const html = await page.text();
        assert.match(html, /orderpay test authentication/);
        assert.ok(html.includes(pay.data.paymentId), "the page names the payment");
        for (const button of ["Complete", "Fail", "Cancel"]) assert.match(html, new RegExp(`>\\s*${button}\\s*<`));
        const form = new URLSearchParams({ ignored: "1" });
        const done = await api(`${url}?outcome=${outcome}`, { method: "POST", body: form, redirect: "manual" });
        assert.equal(done.status, 303);
        const back = new URL(done.headers.get("location"));
        assert.equal(back.origin + back.pathname, "https://app.example/done");
        assert.deepEqual(Object.fromEntries(back.searchParams), { step: "2", paymentId: pay.data.paymentId, status });
        assert.equal((await c.payment(pay.data.paymentId)).status, status);
        // Answered already: a 409 whose envelope says the status it has.
        const again = await api(`${url}?outcome=pass`, { method: "POST", redirect: "manual" });
        assert.equal(again.status, 409);
        const refused = await again.json();
        assert.equal(refused.code, -1);
        assert.ok(refused.msg.includes(pay.data.paymentId) && refused.msg.includes(status), refused.msg);
        const after = await api(url);
        assert.equal(after.status, 200);
        assert.match(await after.text(), new RegExp(status));
      }
      // No returnUrl: a page saying the result. A bad outcome: 400 naming it.
      const pay = await c.pay({ cardNumber: CHALLENGE_CARD });
      const url = ORIGIN + pay.data.nextAction.url;
      const bad = await api(`${url}?outcome=maybe`, { method: "POST" });
      assert.equal(bad.status, 400);
      assert.match((await bad.json()).msg, /outcome/);
      const done = await api(`${url}?outcome=pass`, { method: "POST" });
      assert.equal(done.status, 200);
      assert.equal(done.headers.get("content-type"), "text/html; charset=utf-8");
      assert.match(await done.text(), /SUCCESS/);
      // A payment never challenged has no page: the 404 of today.
      const plain = await c.pay({ cardNumber: "4242424242424242" });
      assert.equal(plain.data.status, "SUCCESS");
      assert.equal((await api(`${ORIGIN}/api/payment/${plain.data.paymentId}/challenge`)).status, 404);
    }));

  test(`${way}: paying an order again while its challenge is open is a 409 naming the payment`, () =>
    using(async (api) => {
      const c = client(api);
      const order = await c.call("POST", "/api/order/create", { userId: "buyer", price: 7 });
      const body = { orderId: order.data.orderId, amount: 7, paymentMethod: "CARD", cardNumber: CHALLENGE_CARD };
      const first = await c.call("POST", "/api/payment/pay", body);
      const res = await api(`${ORIGIN}/api/payment/pay`, { method: "POST", headers: json, body: JSON.stringify(body) });
      assert.equal(res.status, 409);
      assert.deepEqual(await res.json(), {
        code: -1,
        msg: `Order ${order.data.orderId} has a payment awaiting authentication: ${first.data.paymentId}`,
        data: null,
      });
    }));

  for (const [outcome, code, status] of [["pass", undefined, "SUCCESS"], ["fail", "insufficient_funds", "FAILED"]]) {
    test(`${way}: a pending payment (outcome ${outcome}) stays PENDING until advance() passes forMs, then ${status}`, () =>
      using(async (api, service) => {
        const c = client(api);
        const pay = await c.pay();
        assert.equal(pay.data.status, "PENDING");
        const id = pay.data.paymentId;
        // Due forMs after the pay, on the service's clock.
        assert.ok(service.nextDueAt >= pay.data.paidAt + 30_000 && service.nextDueAt <= service.now + 30_000, String(service.nextDueAt));
        // Well short of it, whatever the simulated latency of the requests.
        service.advance(20_000);
        assert.equal((await c.payment(id)).status, "PENDING");
        service.advance(60_000);
        const done = await c.payment(id);
        assert.equal(done.status, status);
        assert.equal(done.failureCode, code);
        assert.equal(service.nextDueAt, null);
      }, rule({ kind: "pending", forMs: 30_000, outcome, ...(code ? { code } : {}) })));
  }

  test(`${way}: a reversal: SUCCESS, FAILED once afterMs has passed, and then no refund`, () =>
    using(async (api, service) => {
      const c = client(api);
      const pay = await c.pay();
      assert.equal(pay.data.status, "SUCCESS");
      const id = pay.data.paymentId;
      service.advance(40_000);
      assert.equal((await c.payment(id)).status, "SUCCESS");
      service.advance(30_000);
      const reversed = await c.payment(id);
      assert.equal(reversed.status, "FAILED");
      assert.equal(reversed.failureCode, "fraudulent");
      assert.equal(reversed.failureReason, "reversed after it succeeded");
      assert.deepEqual(await c.call("POST", `/api/payment/refund/${id}`), { code: -1, msg: "Only success payment can be refunded", data: null });
    }, rule({ kind: "reversal", afterMs: 60_000, code: "fraudulent" })));

  test(`${way}: the test cards: one succeeds, one is declined with its code in x-orderpay-decline-code, one unknown is a 400 naming cardNumber; spaces and dashes are stripped; a wallet's is a 400 naming both fields`, () =>
    using(async (api, service) => {
      const c = client(api);
      assert.equal((await c.pay({ cardNumber: "4242 4242 4242 4242" })).data.status, "SUCCESS");
      const { orderId } = (await c.call("POST", "/api/order/create", { userId: "buyer", price: 12 })).data;
      const body = { orderId, amount: 12, paymentMethod: "CARD", cardNumber: "4000-0000-0000-9995" };
      const declined = await api(`${ORIGIN}/api/payment/pay`, { method: "POST", headers: json, body: JSON.stringify(body) });
      assert.equal(declined.headers.get("x-orderpay-decline-code"), "insufficient_funds");
      assert.equal(declined.headers.get("x-orderpay-fault"), null, "a card is no scenario's fault");
      assert.deepEqual(await declined.json(), { code: -1, msg: "Third party payment failed", data: null });
      const card = service.logs().filter((r) => r.stage === "service" && r.outcome).pop().outcome;
      assert.equal(card.rule, "card");
      assert.equal(card.card, "4000000000009995");
      assert.equal(card.declineCode, "insufficient_funds");
      // request() reports the same header.
      const lost = service.request("POST", "/api/payment/pay", { ...body, cardNumber: "4000 0000 0000 9987" });
      assert.equal(lost.headers["x-orderpay-decline-code"], "lost_card");
      for (const wrong of ["1234", 4242424242424242]) {
        const res = await c.pay({ cardNumber: wrong });
        assert.equal(res.code, 400);
        assert.match(res.msg, /cardNumber/);
      }
      // A card number with a wallet: refused, naming both fields, and no attempt made.
      const attempts = service.counters().payments.attempts;
      const wallet = await c.pay({ paymentMethod: "WALLET_B", cardNumber: "4000 0000 0000 9995" });
      assert.deepEqual(wallet, { code: 400, msg: 'cardNumber: only for paymentMethod CARD, got paymentMethod "WALLET_B"', data: null });
      assert.equal(service.counters().payments.attempts, attempts);
      // The reversal card: SUCCESS now, FAILED fraudulent after 60 s.
      const reversed = await c.pay({ cardNumber: "4000000000000259" });
      assert.equal(reversed.data.status, "SUCCESS");
      service.advance(120_000);
      const later = await c.payment(reversed.data.paymentId);
      assert.deepEqual([later.status, later.failureCode], ["FAILED", "fraudulent"]);
    }));
}

test("inProgress lists the payments awaiting the buyer or the clock, whoever paid; virtualClock is the core's word on its clock", () => {
  const service = new Service({ seed: 29, failureRate: 0, virtualTime: START });
  const pay = (cardNumber) => {
    const order = service.handle("POST", "/api/order/create", { userId: "buyer", price: 12 });
    return service.handle("POST", "/api/payment/pay", { orderId: order.data.orderId, amount: 12, paymentMethod: "CARD", cardNumber }).data;
  };
  const challenged = pay(CHALLENGE_CARD);
  const pending = pay("4000 0840 0000 0014");
  assert.equal(pay("4242 4242 4242 4242").status, "SUCCESS");
  const listed = service.inProgress();
  assert.deepEqual(listed.map((p) => [p.paymentId, p.status]), [[challenged.paymentId, "REQUIRES_ACTION"], [pending.paymentId, "PENDING"]].sort());
  assert.deepEqual(listed.find((p) => p.status === "REQUIRES_ACTION").nextAction, challenged.nextAction);
  assert.deepEqual(service.challenges().map((p) => p.paymentId), [challenged.paymentId]);
  // The clock's kind, kept by a restore; then the pending one resolves and the list shrinks.
  assert.equal(service.virtualClock, true);
  const restored = Service.restore(service.snapshot());
  assert.equal(restored.virtualClock, true);
  assert.deepEqual(restored.inProgress(), listed);
  service.advance(30_000);
  assert.deepEqual(service.inProgress().map((p) => p.paymentId), [challenged.paymentId]);
  const wall = new Service({ seed: 1 });
  assert.equal(wall.virtualClock, false);
  assert.equal(Service.restore(wall.snapshot()).virtualClock, false);
  assert.deepEqual(wall.inProgress(), []);
  for (const s of [service, restored, wall]) s.free();
});

test("events() lists each state change as the JSON a webhook sends, after an id; a wrong `after` is refused naming it", () => {
  const service = new Service({ seed: 31, failureRate: 0, virtualTime: START });
  const order = service.handle("POST", "/api/order/create", { userId: "buyer", price: 12 });
  const pending = service.handle("POST", "/api/payment/pay", { orderId: order.data.orderId, amount: 12, paymentMethod: "CARD", cardNumber: "4000 0840 0000 0014" }).data;
  service.advance(30_000);
  const events = service.events();
  assert.deepEqual(events.map((e) => e.type), ["order.created", "payment.pending", "payment.succeeded"]);
  assert.deepEqual(events[0].data.object, order.data);
  assert.deepEqual(events[1].data.object, pending);
  assert.equal(events[2].createdAt, pending.paidAt + 30_000, "stamped at its due time");
  assert.equal(events[2].created, Math.floor(events[2].createdAt / 1000));
  assert.match(events[0].id, /^evt_[0-9A-Za-z]{22}$/);
  assert.deepEqual(service.events({ after: events[0].id }), events.slice(1));
  assert.throws(() => service.events({ after: 3 }), { name: "TypeError", message: /^after: / });
  assert.throws(() => service.events({ after: "evt_nope" }), { name: "RangeError", message: /^after: / });
  service.free();
});
