// Asynchronous payments over HTTP against `orderpay serve`: the challenge
// page as a browser meets it (HTML, its forms' 303 back to the returnUrl),
// the admin API's challenges (listed, answered, refused), the clock moved
// by POST /__orderpay/advance resolving what came due, each in a session
// of its own; and on the wall clock, a pending payment resolving while the
// server runs, which the log stream then shows.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { call, serve, stop } from "./serve.mjs";

let server;
before(async () => {
  server = await serve(["--port", "0", "--seed", "29", "--failure-rate", "0"]);
});
after(() => stop(server));

const CHALLENGE_CARD = "4000002500003155";

/** A client of one session of the server. */
function session(name) {
  const headers = { "x-orderpay-session": name };
  const api = (method, path, body) => call(`${server.url}${path}`, method, body, headers);
  const admin = (method, path, body) => call(`${server.origin}/__orderpay/sessions/${name}${path}`, method, body);
  return {
    headers,
    api,
    admin,
    async pay(extra = {}) {
      const order = await api("POST", "/api/order/create", { userId: "buyer", price: 20 });
      return (await api("POST", "/api/payment/pay", { orderId: order.body.data.orderId, amount: 20, paymentMethod: "CARD", ...extra })).body;
    },
    payment: async (id) => (await api("GET", `/api/payment/${id}`)).body.data,
  };
}

/** Polls `read` until `done(value)`, at most `capMs`: the last value read. */
async function poll(read, done, capMs = 20_000) {
  const until = Date.now() + capMs;
  let value = await read();
  while (!done(value) && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    value = await read();
  }
  return value;
}

test("the challenge page over HTTP: HTML, and its Complete form sends the browser back to the returnUrl", async () => {
  const s = session("page");
  const pay = await s.pay({ cardNumber: "4000 0025 0000 3155", returnUrl: "/shop/done" });
  assert.equal(pay.data.status, "REQUIRES_ACTION");
  const url = `${server.url}${pay.data.nextAction.url}`;
  const page = await fetch(url, { headers: s.headers });
  assert.equal(page.status, 200);
  assert.equal(page.headers.get("content-type"), "text/html; charset=utf-8");
  assert.match(await page.text(), /orderpay test authentication/);
  const done = await fetch(`${url}?outcome=pass`, {
    method: "POST",
    headers: { ...s.headers, "content-type": "application/x-www-form-urlencoded" },
    body: "",
    redirect: "manual",
  });
  assert.equal(done.status, 303);
  assert.equal(done.headers.get("location"), `/shop/done?paymentId=${pay.data.paymentId}&status=SUCCESS`);
  assert.equal((await s.payment(pay.data.paymentId)).status, "SUCCESS");
  const again = await call(`${url}?outcome=fail`, "POST", undefined, s.headers);
  assert.equal(again.status, 409);
  const bad = await call(`${url}?outcome=later`, "POST", undefined, s.headers);
  assert.equal(bad.status, 400);
  assert.match(bad.body.msg, /outcome/);
});

test("a declined test card over HTTP: its code in x-orderpay-decline-code, as a scenario's decline sends it; a wallet's card number is a 400", async () => {
  const s = session("cards");
  const order = (await s.api("POST", "/api/order/create", { userId: "buyer", price: 20 })).body.data;
  const pay = { orderId: order.orderId, amount: 20, paymentMethod: "CARD", cardNumber: "4000-0000-0000-0069" };
  const declined = await s.api("POST", "/api/payment/pay", pay);
  assert.deepEqual(declined.body, { code: -1, msg: "Third party payment failed", data: null });
  assert.equal(declined.headers["x-orderpay-decline-code"], "expired_card");
  assert.match(declined.headers["access-control-expose-headers"] ?? "", /x-orderpay-decline-code/);
  const wallet = await s.api("POST", "/api/payment/pay", { ...pay, paymentMethod: "WALLET_A" });
  assert.equal(wallet.status, 400);
  assert.equal(wallet.body.msg, 'cardNumber: only for paymentMethod CARD, got paymentMethod "WALLET_A"');
});

test("the admin API lists the challenges of a session and answers them; other sessions see none", async () => {
  const s = session("admin-challenges");
  const other = session("admin-other");
  const ids = [];
  for (let i = 0; i < 3; i++) ids.push((await s.pay({ cardNumber: CHALLENGE_CARD })).data.paymentId);
  const listed = await s.admin("GET", "/challenges");
  assert.equal(listed.status, 200);
  assert.deepEqual(listed.body.data.challenges.map((p) => p.paymentId), [...ids].sort());
  assert.ok(listed.body.data.challenges.every((p) => p.status === "REQUIRES_ACTION" && p.nextAction.type === "redirect"));
  assert.deepEqual((await other.admin("GET", "/challenges")).body.data.challenges, []);
  // The session the header names, without the /sessions/NAME/ prefix, too.
  const byHeader = await call(`${server.origin}/__orderpay/challenges`, "GET", undefined, s.headers);
  assert.equal(byHeader.body.data.challenges.length, 3);
  // In progress: the challenges and a pending payment, whoever paid them, with the clock as the core says it.
  const pending = (await s.pay({ cardNumber: "4000084000000014" })).data;
  const open = (await s.admin("GET", "/in-progress")).body.data;
  assert.deepEqual(open.payments.map((p) => [p.paymentId, p.status]), [...ids.map((id) => [id, "REQUIRES_ACTION"]), [pending.paymentId, "PENDING"]].sort());
  assert.equal(open.virtualClock, false);
  assert.equal(open.nextDueAt, pending.paidAt + 30_000);
  assert.equal(typeof open.now, "number");
  assert.deepEqual((await other.admin("GET", "/in-progress")).body.data.payments, []);
  const clock = (await s.admin("GET", "/settings")).body.data;
  assert.deepEqual([clock.virtualClock, clock.nextDueAt], [false, pending.paidAt + 30_000]);

  const outcomes = ["pass", "fail", "abandon"];
  for (const [i, outcome] of outcomes.entries()) {
    const done = await s.admin("POST", `/challenges/${ids[i]}`, { outcome });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.equal(done.body.data.payment.paymentId, ids[i]);
    assert.equal(done.body.data.payment.status, outcome === "pass" ? "SUCCESS" : "FAILED");
  }
  assert.equal((await s.payment(ids[2])).failureCode, "authentication_required");
  assert.deepEqual((await s.admin("GET", "/challenges")).body.data.challenges, []);
  assert.deepEqual((await s.admin("GET", "/in-progress")).body.data.payments.map((p) => p.paymentId), [pending.paymentId]);

  const answered = await s.admin("POST", `/challenges/${ids[0]}`, { outcome: "pass" });
  assert.equal(answered.status, 409);
  assert.match(answered.body.msg, /paymentId/);
  const unknown = await s.admin("POST", "/challenges/PAY-NOSUCH00", { outcome: "pass" });
  assert.equal(unknown.status, 404);
  assert.match(unknown.body.msg, /paymentId/);
  const fresh = (await s.pay({ cardNumber: CHALLENGE_CARD })).data.paymentId;
  // The refusal says once what came, in the challenge page's words.
  const refusals = [
    [{ outcome: "maybe" }, 'outcome: must be pass, fail or abandon, got "maybe"'],
    [{}, "outcome: must be pass, fail or abandon, got undefined"],
    [{ outcome: 1 }, "outcome: must be pass, fail or abandon, got number"],
  ];
  for (const [body, msg] of refusals) {
    const bad = await s.admin("POST", `/challenges/${fresh}`, body);
    assert.equal(bad.status, 400);
    assert.equal(bad.body.msg, msg);
  }
  const noBody = await s.admin("POST", `/challenges/${fresh}`);
  assert.equal(noBody.status, 400);
  assert.match(noBody.body.msg, /^body/);
  assert.equal((await s.payment(fresh)).status, "REQUIRES_ACTION");
  const wrongMethod = await s.admin("GET", `/challenges/${fresh}`);
  assert.equal(wrongMethod.status, 405);
});

test("POST /__orderpay/advance resolves what came due on a virtual clock: pending, then a reversal and its refused refund", async () => {
  const s = session("clock");
  assert.equal((await s.admin("POST", "/reset", { virtualTime: Date.UTC(2026, 0, 1) })).status, 200);
  const scenario = {
    rules: [
      { name: "first pending", when: { route: "/api/payment/pay", nth: 1 }, then: { kind: "pending", forMs: 30_000, outcome: "fail", code: "insufficient_funds" } },
      { name: "then reversed", when: { route: "/api/payment/pay" }, then: { kind: "reversal", afterMs: 60_000 } },
    ],
  };
  assert.equal((await s.admin("PUT", "/scenario", scenario)).status, 200);
  const pending = (await s.pay()).data;
  assert.equal(pending.status, "PENDING");
  const moved = (await s.admin("POST", "/advance", { ms: 10_000 })).body.data;
  assert.equal((await s.payment(pending.paymentId)).status, "PENDING");
  // The clock as the core says it: virtual, and the change due 20 s on.
  assert.deepEqual(moved, { now: moved.now, virtualClock: true, nextDueAt: moved.now + 20_000 });
  // A restore of its snapshot keeps the virtual clock: the core says so, the server guesses nothing.
  assert.equal((await s.admin("PUT", "/snapshot", (await s.admin("GET", "/snapshot")).body)).status, 200);
  assert.equal((await s.admin("GET", "/settings")).body.data.virtualClock, true);
  await s.admin("POST", "/advance", { ms: 60_000 });
  const failed = await s.payment(pending.paymentId);
  assert.deepEqual([failed.status, failed.failureCode], ["FAILED", "insufficient_funds"]);

  const reversed = (await s.pay()).data;
  assert.equal(reversed.status, "SUCCESS");
  await s.admin("POST", "/advance", { ms: 120_000 });
  assert.equal((await s.payment(reversed.paymentId)).status, "FAILED");
  const refund = await s.api("POST", `/api/payment/refund/${reversed.paymentId}`);
  assert.deepEqual(refund.body, { code: -1, msg: "Only success payment can be refunded", data: null });
  const records = (await s.admin("GET", "/logs")).body.data.records.filter((r) => r.stage === "payment");
  assert.deepEqual(records.map((r) => [r.paymentId, r.from, r.to]), [
    [pending.paymentId, "PENDING", "FAILED"],
    [reversed.paymentId, "SUCCESS", "FAILED"],
  ]);
});

test("on the wall clock a pending payment resolves while the server runs, and the log stream shows it", async () => {
  for (const name of ["default", "live-clock"]) {
    const s = session(name);
    await s.admin("POST", "/reset", {});
    await s.admin("PUT", "/scenario", { rules: [{ when: { route: "/api/payment/pay" }, then: { kind: "pending", forMs: 300 } }] });
    // The live log, followed from now on.
    const stream = new AbortController();
    const events = await fetch(`${server.origin}/__orderpay/sessions/${name}/events`, { signal: stream.signal });
    const pay = (await s.pay()).data;
    assert.equal(pay.status, "PENDING");
    // No request, no advance: the server's own timer resolves it.
    const seen = readUntil(events.body, new RegExp(`"stage":"payment"[^}]*"paymentId":"${pay.paymentId}"|"paymentId":"${pay.paymentId}"[^}]*"stage":"payment"`));
    // The cap's timer is cleared once the record is seen: left running, it kept the
    // process, and so the whole file, alive 20 s after its last test.
    let cap;
    const text = await Promise.race([seen, new Promise((resolve) => { cap = setTimeout(resolve, 20_000, null); })]);
    clearTimeout(cap);
    stream.abort();
    assert.ok(text !== null, `${name}: the stream showed no payment record for ${pay.paymentId}`);
    const done = await poll(() => s.payment(pay.paymentId), (p) => p.status !== "PENDING");
    assert.equal(done.status, "SUCCESS", name);
  }
});

test("a session ended, or reset, with a plan due: nothing resolves on a service that is gone", async () => {
  const s = session("ends");
  await s.admin("PUT", "/scenario", { rules: [{ when: { route: "/api/payment/pay" }, then: { kind: "pending", forMs: 200 } }] });
  await s.pay();
  assert.equal((await call(`${server.origin}/__orderpay/sessions/ends`, "DELETE")).status, 200);
  const r = session("resets");
  await r.admin("PUT", "/scenario", { rules: [{ when: { route: "/api/payment/pay" }, then: { kind: "pending", forMs: 200 } }] });
  await r.pay();
  await r.admin("POST", "/reset", {});
  await new Promise((resolve) => setTimeout(resolve, 500));
  // The server still answers, and the reset session has nothing of before.
  assert.equal((await call(`${server.origin}/__orderpay/health`)).status, 200);
  assert.deepEqual((await r.admin("GET", "/logs")).body.data.records, []);
});

/** Reads a stream's text until it matches `pattern`: the text read, or null when the stream ends first. */
async function readUntil(body, pattern) {
  const decoder = new TextDecoder();
  let text = "";
  try {
    for await (const chunk of body) {
      text += decoder.decode(chunk, { stream: true });
      if (pattern.test(text)) return text;
    }
  } catch {
    // Aborted.
  }
  return null;
}
