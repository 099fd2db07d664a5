// The webhook sender (src/js/webhook_sender.js, webhook_attempt.js) over a
// core played by a small fake that follows the protocol (takeDue,
// reportAttempt, the retry schedule on a virtual clock): every attempt runs
// on its own, so a receiver that never answers holds up no other endpoint;
// retries already due go out at once; settled() waits for what is in
// flight; each attempt is signed as the core asked (ok, wrong, a tampered
// body, a stale time), carries its trace context, and is reported with its
// status or its error (a timeout, a throw, no Response, a refused connection).
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { test } from "node:test";

const pkg = (file) => new URL(`../../pkg/${file}`, import.meta.url).href;
const { WebhookSender } = await import(pkg("webhook_sender.js"));
const { verifyWebhook, WebhookSignatureError } = await import(pkg("webhooks.js"));

const SECRET = "whsec_sender_test";
const T0 = 1_767_225_600; // 2026-01-01, unix seconds
/** webhooks.md §4's schedule: the waits after each attempt, in minutes. */
const BACKOFF_MIN = [1, 5, 30, 120, 300, 600, 600, 840, 1440];

/**
 * A core as the protocol says: deliveries with their attempts due on a
 * virtual clock (now in seconds), taken once each, retried after a failed
 * report on the schedule above, failed after the tenth.
 */
function fakeCore(deliveries) {
  const state = deliveries.map((d, i) => ({ n: 1, due: T0, state: "pending", reports: [], ...d, delivery: d.delivery ?? `wd_${i + 1}` }));
  return {
    state,
    virtual: true,
    nextDueAt: null,
    takeDue() {
      const due = state.filter((d) => d.state === "pending" && d.due <= this.now);
      for (const d of due) d.state = "in_flight";
      return due.map((d) => ({
        delivery: d.delivery,
        n: d.n,
        endpoint: d.endpoint,
        url: d.url ?? null,
        secret: SECRET,
        header: d.header ?? "Orderpay-Signature",
        timestamp: d.timestamp ?? d.due,
        body: d.body ?? `{"id":"evt_${d.delivery}","object":"event","type":"payment.succeeded"}`,
        signed: d.signed,
        sign: d.sign ?? "ok",
        drop: d.drop ?? false,
        traceparent: "00-0123456789abcdef0123456789abcdef-00f067aa0ba902b7-01",
        b3: "0123456789abcdef0123456789abcdef-00f067aa0ba902b7-1",
      }));
    },
    now: T0,
    report(delivery, n, status, durationMs, error) {
      const d = state.find((x) => x.delivery === delivery);
      assert.equal(d.state, "in_flight", `${delivery} reported while ${d.state}`);
      assert.equal(n, d.n);
      d.reports.push({ n, status, durationMs, error });
      if (status >= 200 && status < 300) return void (d.state = "delivered");
      if (d.n === 10) return void (d.state = "failed");
      d.due += BACKOFF_MIN[d.n - 1] * 60;
      d.n += 1;
      d.state = "pending";
    },
    wake() {},
  };
}

/** The fake core's clock moved to the end of the schedule: every retry is due at once. */
function threeDaysOn(core) {
  core.now = T0 + 3 * 24 * 3600;
}

test("a receiver that never answers holds up no other endpoint's delivery", async () => {
  const core = fakeCore([{ endpoint: "we_1" }, { endpoint: "we_2" }, { endpoint: "we_2" }]);
  let releaseSlow;
  const slowSeen = new Promise((resolve) => {
    releaseSlow = resolve;
  });
  const sender = new WebhookSender(core);
  let slowCalls = 0;
  sender.setHandler("we_1", (request) => {
    slowCalls += 1;
    // Never answers until the test lets it (or its signal aborts).
    return new Promise((resolve) => slowSeen.then(() => resolve(new Response(null, { status: 200 }))));
  });
  const fastDone = [];
  const bothFast = new Promise((resolve) => {
    sender.setHandler("we_2", async (request) => {
      fastDone.push(await request.text());
      if (fastDone.length === 2) resolve();
      return new Response("ok");
    });
  });
  sender.pump();
  await bothFast;
  // Reported while the slow receiver still holds its request.
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(core.state.map((d) => d.state), ["in_flight", "delivered", "delivered"]);
  assert.equal(slowCalls, 1);
  assert.equal(sender.inFlight, 1);
  let settled = false;
  const waiting = sender.settled().then(() => (settled = true));
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(settled, false, "settled() waits for the attempt in flight");
  releaseSlow();
  await waiting;
  assert.deepEqual(core.state.map((d) => d.state), ["delivered", "delivered", "delivered"]);
});

test("on a virtual clock three days on, every retry goes out at once, each signed at its scheduled time, until the tenth fails", async () => {
  const core = fakeCore([{ endpoint: "we_1" }]);
  const seen = [];
  const sender = new WebhookSender(core);
  sender.setHandler("we_1", async (request) => {
    const body = await request.text();
    const header = request.headers.get("orderpay-signature");
    const event = await verifyWebhook(body, header, SECRET, { tolerance: Infinity });
    seen.push({ t: Number(/t=(\d+)/.exec(header)[1]), id: event.id });
    return new Response("down", { status: 503 });
  });
  threeDaysOn(core);
  sender.pump();
  await sender.settled();
  const d = core.state[0];
  assert.equal(d.state, "failed");
  assert.deepEqual(d.reports.map((r) => [r.n, r.status, r.error]), Array.from({ length: 10 }, (_, i) => [i + 1, 503, ""]));
  // Each attempt carries its own due time: the schedule's gaps, in seconds.
  const gaps = seen.slice(1).map((s, i) => (s.t - seen[i].t) / 60);
  assert.deepEqual(gaps, BACKOFF_MIN);
  assert.ok(seen.every((s) => s.id === "evt_wd_1"));
});

test("settled() resolves at once with nothing due, and after a retry comes due only once the clock reaches it", async () => {
  const core = fakeCore([{ endpoint: "we_1" }]);
  const sender = new WebhookSender(core);
  let calls = 0;
  sender.setHandler("we_1", () => new Response(null, { status: ++calls < 3 ? 500 : 204 }));
  await sender.settled();
  assert.equal(calls, 1, "settled() takes what is due now and waits for it");
  assert.equal(core.state[0].state, "pending");
  await sender.settled();
  assert.equal(calls, 1, "the retry is due a minute later on the service's clock: not waited for");
  core.now += 60;
  await sender.settled();
  core.now += 300;
  await sender.settled();
  assert.equal(calls, 3);
  assert.equal(core.state[0].state, "delivered");
});

test("what the core asks for: a wrong signature, a tampered body, a stale timestamp, Stripe's header name, a dropped attempt", async () => {
  const body = '{"id":"evt_1","object":"event","type":"order.paid"}';
  const core = fakeCore([
    { endpoint: "we_1", sign: "wrong", body },
    { endpoint: "we_1", body: body.replace("order.paid", "order.deleted"), signed: body },
    { endpoint: "we_1", body, timestamp: T0 - 600 },
    { endpoint: "we_2", body, header: "Stripe-Signature" },
    { endpoint: "we_1", body, drop: true },
  ]);
  const got = new Map();
  const sender = new WebhookSender(core);
  const receive = (name) => async (request) => {
    const text = await request.text();
    let outcome;
    try {
      await verifyWebhook(text, request.headers.get(name), SECRET, { now: T0 });
      outcome = "verified";
    } catch (error) {
      assert.ok(error instanceof WebhookSignatureError, error.message);
      outcome = error.reason;
    }
    got.set(JSON.parse(text).type + (request.headers.get(name) === null ? "" : ` under ${name}`) + ` ${got.size}`, outcome);
    return new Response(null, { status: 200 });
  };
  sender.setHandler("we_1", receive("Orderpay-Signature"));
  sender.setHandler("we_2", receive("Stripe-Signature"));
  await sender.settled();
  const outcomes = [...got.values()].sort();
  assert.deepEqual(outcomes, ["mismatch", "mismatch", "stale", "verified"]);
  assert.equal(got.size, 4, "the dropped attempt reached nobody");
  const dropped = core.state[4];
  assert.deepEqual(dropped.reports, [{ n: 1, status: 0, durationMs: 0, error: "dropped" }]);
  assert.equal(dropped.state, "pending", "a dropped attempt is retried on the schedule");
  assert.ok([...got.keys()].some((k) => k.startsWith("order.paid under Stripe-Signature")));
});

test("each attempt carries the trace context, the JSON content type, and the body exactly as the core wrote it", async () => {
  const body = '{"id":"evt_9","object":"event","note":"café ☕ \\u2028"}';
  const core = fakeCore([{ endpoint: "we_1", body }]);
  const sender = new WebhookSender(core);
  let request;
  let text;
  sender.setHandler("we_1", async (r) => {
    request = r;
    text = await r.text();
    return new Response(null, { status: 202 });
  });
  await sender.settled();
  assert.equal(text, body);
  assert.equal(request.method, "POST");
  assert.equal(request.headers.get("content-type"), "application/json; charset=utf-8");
  assert.equal(request.headers.get("traceparent"), "00-0123456789abcdef0123456789abcdef-00f067aa0ba902b7-01");
  assert.equal(request.headers.get("b3"), "0123456789abcdef0123456789abcdef-00f067aa0ba902b7-1");
  assert.equal(request.headers.get("x-b3-traceid"), "0123456789abcdef0123456789abcdef");
  assert.equal(request.headers.get("x-b3-spanid"), "00f067aa0ba902b7");
  assert.equal(core.state[0].reports[0].status, 202);
});

test("a handler that throws, answers no Response, or never answers within the time limit is a failed attempt with its reason", async () => {
  const core = fakeCore([{ endpoint: "we_1" }, { endpoint: "we_2" }, { endpoint: "we_3" }, { endpoint: "we_4" }]);
  const sender = new WebhookSender(core, { timeoutMs: 50 });
  let aborted = null;
  sender.setHandler("we_1", () => {
    throw new Error("database is down");
  });
  sender.setHandler("we_2", async () => ({ status: 200 }));
  sender.setHandler("we_3", (request) => {
    request.signal.addEventListener("abort", () => (aborted = true));
    return new Promise(() => {});
  });
  // we_4: no handler in this process (restored from a snapshot).
  await sender.settled();
  const errors = core.state.map((d) => [d.reports[0].status, d.reports[0].error]);
  assert.deepEqual(errors[0], [0, "the handler threw: database is down"]);
  assert.match(errors[1][1], /^the handler answered an object that is not a Response: it must return a Response/);
  assert.deepEqual(errors[2], [0, "no answer within 50 ms"]);
  assert.equal(aborted, true, "the handler's Request is aborted at the time limit");
  assert.match(errors[3][1], /^endpoint we_4 has no handler function in this process/);
  assert.ok(core.state.every((d) => d.state === "pending" && d.n === 2));
});

test("a URL endpoint gets an HTTP POST with the signed raw body; a refused connection is a failed attempt naming the cause", async () => {
  const received = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      received.push({ method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(204).end();
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${server.address().port}/hooks?x=1`;
  // A port nothing listens on: the server's own, once closed below.
  const closed = createServer();
  await new Promise((resolve) => closed.listen(0, "127.0.0.1", resolve));
  const dead = `http://127.0.0.1:${closed.address().port}/`;
  await new Promise((resolve) => closed.close(resolve));
  const core = fakeCore([{ endpoint: "we_1", url }, { endpoint: "we_2", url: dead }]);
  const sender = new WebhookSender(core);
  await sender.settled();
  server.close();
  assert.equal(received.length, 1);
  const [r] = received;
  assert.equal(r.method, "POST");
  assert.equal(r.url, "/hooks?x=1");
  const event = await verifyWebhook(r.body, r.headers["orderpay-signature"], SECRET, { now: T0 });
  assert.equal(event.id, "evt_wd_1");
  assert.equal(core.state[0].state, "delivered");
  assert.equal(core.state[1].reports[0].status, 0);
  assert.match(core.state[1].reports[0].error, /ECONNREFUSED/);
});

test("stop() ends the waits and sends no more", async () => {
  const core = fakeCore([{ endpoint: "we_1" }]);
  const sender = new WebhookSender(core, { timeoutMs: 50 });
  sender.setHandler("we_1", () => new Promise(() => {}));
  const waiting = sender.settled();
  sender.stop();
  await waiting;
  core.state[0].state = "pending";
  sender.pump();
  assert.equal(sender.inFlight, 1, "nothing new was taken after stop()");
});
