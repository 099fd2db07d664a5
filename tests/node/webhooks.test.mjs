// orderpay/webhooks, the signing helpers for a user's own tests: Stripe's
// scheme, checked against node:crypto's HMAC and against stripe-node's own
// constructEvent and generateTestHeaderString; every refusal with its reason;
// and docs/webhooks.md's examples, run from the installed package. Then the
// service's own deliveries in-process: the ways in (the Service's option
// and methods, every adapter's option), their refusals naming the field,
// removing, resending, snapshots, and a wall-clock service waking by itself.
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { before, test } from "node:test";
import Stripe from "stripe";

import { makeConsumer, examples } from "./consumer.mjs";

const pkg = new URL("../../pkg/", import.meta.url);
const { signWebhook, verifyWebhook, WebhookSignatureError, SIGNATURE_HEADER, STRIPE_SIGNATURE_HEADER } = await import(
  new URL("webhooks.js", pkg).href
);

const SECRET = "whsec_test_7d8f2c1e9a4b";
const OLD = "whsec_old_0123456789";
const T = 1_760_000_000;
const EVENT = { id: "evt_1", type: "payment.succeeded", created: T, data: { paymentId: "PAY-1", amount: 25.5, note: "café ☕" } };

/** The reason a verification was refused, or "ok". */
async function outcome(...args) {
  try {
    await verifyWebhook(...args);
    return "ok";
  } catch (error) {
    if (error instanceof WebhookSignatureError) return error.reason;
    throw error;
  }
}

test("a known answer: the v1 value is node:crypto's HMAC-SHA256 of '<t>.<body>' keyed with the whole secret", async () => {
  const body = '{"id":"evt_1","type":"order.paid"}';
  const expected = createHmac("sha256", SECRET).update(`${T}.${body}`, "utf8").digest("hex");
  const signed = await signWebhook(body, { secret: SECRET, timestamp: T });
  assert.deepEqual(signed, { header: `t=${T},v1=${expected}`, headerName: "Orderpay-Signature", body, timestamp: T });
  // And a fixed vector, so that a change in both sides at once still shows.
  const fixed = await signWebhook("{}", { secret: "whsec_x", timestamp: 1 });
  assert.equal(fixed.header, `t=1,v1=${createHmac("sha256", "whsec_x").update("1.{}").digest("hex")}`);
  // Non-ASCII text is signed as its UTF-8 bytes.
  const text = await signWebhook(EVENT, { secret: "clé €", timestamp: T });
  assert.equal(text.body, JSON.stringify(EVENT));
  assert.equal(text.header.split("v1=")[1], createHmac("sha256", Buffer.from("clé €")).update(Buffer.from(`${T}.${text.body}`)).digest("hex"));
});

test("round trips: a string or an object, signed then verified, gives the event back", async () => {
  const fromObject = await signWebhook(EVENT, { secret: SECRET, timestamp: T });
  assert.deepEqual(await verifyWebhook(fromObject.body, fromObject.header, SECRET, { now: T }), EVENT);
  const fromString = await signWebhook(" [1, 2] ", { secret: SECRET, timestamp: T });
  assert.equal(fromString.body, " [1, 2] ");
  assert.deepEqual(await verifyWebhook(fromString.body, fromString.header, SECRET, { now: T + 5 }), [1, 2]);
  // The timestamp defaults to now, which verifyWebhook's now defaults to too.
  const before = Math.floor(Date.now() / 1000);
  const now = await signWebhook(EVENT, { secret: SECRET });
  assert.ok(now.timestamp >= before && now.timestamp <= before + 2);
  assert.deepEqual(await verifyWebhook(now.body, now.header, SECRET), EVENT);
  // Stripe's header name, asked for: the value is the same.
  const stripe = await signWebhook(EVENT, { secret: SECRET, timestamp: T, scheme: "stripe" });
  assert.equal(stripe.headerName, STRIPE_SIGNATURE_HEADER);
  assert.equal(stripe.header, fromObject.header);
  assert.equal(SIGNATURE_HEADER, "Orderpay-Signature");
});

test("rotation: two v1 values, in the order of the secrets, and either secret verifies", async () => {
  const signed = await signWebhook(EVENT, { secrets: [SECRET, OLD], timestamp: T });
  const [t, first, second, ...rest] = signed.header.split(",");
  assert.deepEqual([t, rest], [`t=${T}`, []]);
  assert.equal(first, `v1=${createHmac("sha256", SECRET).update(`${T}.${signed.body}`).digest("hex")}`);
  assert.equal(second, `v1=${createHmac("sha256", OLD).update(`${T}.${signed.body}`).digest("hex")}`);
  for (const secret of [SECRET, OLD, [SECRET, OLD], [OLD, SECRET], ["whsec_other", OLD]]) {
    assert.equal(await outcome(signed.body, signed.header, secret, { now: T }), "ok", String(secret));
  }
  assert.equal(await outcome(signed.body, signed.header, "whsec_other", { now: T }), "mismatch");
  // The receiver may hold both secrets while the sender still signs with one.
  const oldOnly = await signWebhook(EVENT, { secret: OLD, timestamp: T });
  assert.equal(await outcome(oldOnly.body, oldOnly.header, [SECRET, OLD], { now: T }), "ok");
});

test("a tampered body or timestamp, and a wrong secret, are refused with a message that names both causes", async () => {
  const { body, header } = await signWebhook(EVENT, { secret: SECRET, timestamp: T });
  const tampered = [
    body.replace("25.5", "2550"),
    body + "\n",
    JSON.stringify(JSON.parse(body), null, 2), // re-serialised after parsing
    body.replace("é", "e\u0301"),
  ];
  for (const changed of tampered) assert.equal(await outcome(changed, header, SECRET, { now: T }), "mismatch", changed);
  const later = header.replace(`t=${T}`, `t=${T + 1}`);
  assert.equal(await outcome(body, later, SECRET, { now: T }), "mismatch");
  const flipped = header.slice(0, -1) + (header.endsWith("0") ? "1" : "0");
  assert.equal(await outcome(body, flipped, SECRET, { now: T }), "mismatch");
  for (const wrong of ["whsec_other", SECRET.slice(0, -1), SECRET.toUpperCase(), ` ${SECRET}`]) {
    assert.equal(await outcome(body, header, wrong, { now: T }), "mismatch", wrong);
  }
  await assert.rejects(verifyWebhook(body + " ", header, SECRET, { now: T }), (error) => {
    assert.ok(error instanceof WebhookSignatureError);
    assert.equal(error.name, "WebhookSignatureError");
    assert.match(error.message, /body or its timestamp changed/);
    assert.match(error.message, /secret is not the one it was signed with/);
    return true;
  });
});

test("a stale or future timestamp outside the tolerance is refused; inside it, or with the tolerance off, it holds", async () => {
  const { body, header } = await signWebhook(EVENT, { secret: SECRET, timestamp: T });
  assert.equal(await outcome(body, header, SECRET, { now: T + 300 }), "ok");
  assert.equal(await outcome(body, header, SECRET, { now: T - 300 }), "ok");
  assert.equal(await outcome(body, header, SECRET, { now: T + 301 }), "stale");
  assert.equal(await outcome(body, header, SECRET, { now: T - 301 }), "stale");
  assert.equal(await outcome(body, header, SECRET, { now: T + 10, tolerance: 10 }), "ok");
  assert.equal(await outcome(body, header, SECRET, { now: T + 11, tolerance: 10 }), "stale");
  assert.equal(await outcome(body, header, SECRET, { now: T + 1, tolerance: 0 }), "stale");
  assert.equal(await outcome(body, header, SECRET, { now: T + 86400 * 365, tolerance: Infinity }), "ok");
  await assert.rejects(verifyWebhook(body, header, SECRET, { now: T + 3600 }), /is 3600 s old, outside the tolerance of 300 s/);
  await assert.rejects(verifyWebhook(body, header, SECRET, { now: T - 600 }), /is 600 s in the future/);
  // The signature is checked first, as stripe-node does: a stale forgery is a mismatch.
  assert.equal(await outcome(body, header, "whsec_other", { now: T + 3600 }), "mismatch");
  // The default now is the real clock: a signature of 2025 is stale today.
  assert.equal(await outcome(body, header, SECRET), "stale");
});

test("malformed headers and headers with no signature are refused with their reason", async () => {
  const { body, header } = await signWebhook(EVENT, { secret: SECRET, timestamp: T });
  const v1 = header.split(",")[1];
  const malformed = [
    "garbage",
    `t=${T}`.replace("=", ":") + `,${v1}`,
    `${v1}`,
    `t=,${v1}`,
    `t=-5,${v1}`,
    `t=12.5,${v1}`,
    `t=${T},t=${T},${v1}`,
    `t=${T},v1=abc`,
    `t=${T},${v1.toUpperCase().replace("V1", "v1")}`,
    `t=${T},${v1}00`,
    `t=${T},${v1},v1=`,
    `t=${T};${v1}`,
    `t=${T},${v1},`,
    `t=${T}\u0000,${v1}`,
    `t=${T},${v1}\u00e9`,
    `t=${T},${v1}\ud800`,
    "t=1," + "x".repeat(9000),
    body, // the body and the header swapped
  ];
  for (const value of malformed) assert.equal(await outcome(body, value, SECRET, { now: T }), "malformed header", value.slice(0, 60));
  for (const value of [undefined, null, "", `t=${T}`, `t=${T},v0=${"0".repeat(64)}`]) {
    assert.equal(await outcome(body, value, SECRET, { now: T }), "no signature", String(value));
  }
  // Stripe's own other keys are ignored, spaces around items are allowed, and a one-item array is its item.
  assert.equal(await outcome(body, `t=${T},v0=${"0".repeat(64)},${v1}`, SECRET, { now: T }), "ok");
  assert.equal(await outcome(body, ` t=${T} , ${v1} `, SECRET, { now: T }), "ok");
  assert.equal(await outcome(body, [header], SECRET, { now: T }), "ok");
  await assert.rejects(verifyWebhook(body, body, SECRET, { now: T }), /body and the header swapped/);
  await assert.rejects(verifyWebhook(body, "t=1," + "x".repeat(100_000), SECRET), /100004 characters, more than 8192/);
});

test("hostile arguments get a TypeError that says what was expected, never a crash", async () => {
  const { body, header } = await signWebhook(EVENT, { secret: SECRET, timestamp: T });
  const cases = [
    [[body, 42, SECRET], /header must be the signature header's value, a string, not number 42/],
    [[body, { t: T }, SECRET], /header must be .* not an object/],
    [[body, [header, header], SECRET], /header must be .* not an array/],
    [[body, header, undefined], /secret must be a non-empty string/],
    [[body, header, ""], /secret must be a non-empty string/],
    [[body, header, []], /must hold 1 to 16 secrets, not 0/],
    [[body, header, [SECRET, 7]], /not number 7/],
    [[body, header, "whsec_\udc00"], /lone UTF-16 surrogate/],
    [[body, header, SECRET, { now: Date.now() }], /milliseconds, it seems/],
    [[body, header, SECRET, { now: -1 }], /now must be whole unix seconds/],
    [[body, header, SECRET, { tolerance: -1 }], /tolerance must be a number of seconds/],
    [[body, header, SECRET, { tolerance: "300" }], /tolerance must be a number of seconds/],
    [[body, header, SECRET, { tolerence: 5 }], /no option "tolerence"/],
    [[body, header, SECRET, 5], /options must be an object/],
    [["a\ud800b", header, SECRET], /lone UTF-16 surrogate/],
  ];
  for (const [args, message] of cases) {
    await assert.rejects(verifyWebhook(...args), (error) => error instanceof TypeError && message.test(error.message), String(message));
  }
  const signing = [
    [[EVENT], /needs options/],
    [[EVENT, {}], /needs a secret/],
    [[EVENT, { secret: SECRET, secrets: [OLD] }], /secret or secrets, not both/],
    [[EVENT, { secrets: SECRET }], /secrets must be an array of strings/],
    [[EVENT, { secret: SECRET, timestamp: Date.now() }], /milliseconds, it seems/],
    [[EVENT, { secret: SECRET, timestamp: 1.5 }], /whole unix seconds/],
    [[EVENT, { secret: SECRET, scheme: "svix" }], /scheme must be "orderpay" or "stripe"/],
    [[EVENT, { secret: SECRET, secert: 1 }], /no option "secert"/],
    [[new Uint8Array(2), { secret: SECRET }], /signWebhook signs text/],
    [["a\ud800", { secret: SECRET }], /lone UTF-16 surrogate/],
    [[undefined, { secret: SECRET }], /a string or a JSON value, not undefined/],
    [[{ big: 1n }, { secret: SECRET }], /cannot be written as JSON/],
  ];
  for (const [args, message] of signing) {
    await assert.rejects(signWebhook(...args), (error) => error instanceof TypeError && message.test(error.message), String(message));
  }
});

test("the raw body may be a string, a Buffer, a Uint8Array (a view into a larger buffer too), an ArrayBuffer or a DataView", async () => {
  const { body, header } = await signWebhook(EVENT, { secret: SECRET, timestamp: T });
  const bytes = Buffer.from(body);
  const padded = new Uint8Array(bytes.length + 10);
  padded.set(bytes, 5);
  const view = padded.subarray(5, 5 + bytes.length);
  const forms = [body, bytes, new Uint8Array(bytes), view, view.slice().buffer, new DataView(padded.buffer, 5, bytes.length)];
  for (const raw of forms) assert.deepEqual(await verifyWebhook(raw, header, SECRET, { now: T }), EVENT, raw.constructor.name);
  // A body that holds but is not JSON: the signature is fine, the parse is not.
  const text = await signWebhook("not json", { secret: SECRET, timestamp: T });
  await assert.rejects(verifyWebhook(text.body, text.header, SECRET, { now: T }), (error) => error instanceof SyntaxError && /signature holds, but its body is not JSON/.test(error.message));
});

test("a parsed body is refused with a TypeError that explains raw bodies (stripe-node's most repeated mistake)", async () => {
  const { body, header } = await signWebhook(EVENT, { secret: SECRET, timestamp: T });
  for (const parsed of [JSON.parse(body), [1, 2], 3, true]) {
    await assert.rejects(verifyWebhook(parsed, header, SECRET, { now: T }), (error) => {
      assert.ok(error instanceof TypeError, String(error));
      assert.match(error.message, /needs the raw body exactly as received/);
      assert.match(error.message, /express\.raw\(\{ type: "application\/json" \}\)/);
      assert.match(error.message, /request\.text\(\)/);
      return true;
    });
  }
  await assert.rejects(verifyWebhook(undefined, header, SECRET), /got no body \(undefined\): verifyWebhook needs the raw body/);
});

test("stripe-node's constructEvent accepts what signWebhook makes, under Stripe-Signature, rotation included", async () => {
  const stripe = new Stripe("sk_test_orderpay");
  const signed = await signWebhook(EVENT, { secret: SECRET, timestamp: T, scheme: "stripe" });
  const received = (signed.timestamp + 30) * 1000;
  const headers = { [signed.headerName]: signed.header };
  const event = stripe.webhooks.constructEvent(signed.body, headers["Stripe-Signature"], SECRET, 300, undefined, received);
  assert.deepEqual({ ...event }, EVENT);
  assert.deepEqual({ ...stripe.webhooks.constructEvent(Buffer.from(signed.body), signed.header, SECRET, 300, undefined, received) }, EVENT);
  const rotated = await signWebhook(EVENT, { secrets: [SECRET, OLD], timestamp: T, scheme: "stripe" });
  for (const secret of [SECRET, OLD]) {
    assert.deepEqual({ ...stripe.webhooks.constructEvent(rotated.body, rotated.header, secret, 300, undefined, received) }, EVENT);
  }
  // And it refuses what verifyWebhook refuses.
  assert.throws(() => stripe.webhooks.constructEvent(signed.body + " ", signed.header, SECRET, 300, undefined, received), /No signatures found matching/);
  assert.throws(() => stripe.webhooks.constructEvent(signed.body, signed.header, "whsec_other", 300, undefined, received), /No signatures found matching/);
  assert.throws(() => stripe.webhooks.constructEvent(signed.body, signed.header, SECRET, 300, undefined, (T + 301) * 1000), /Timestamp outside the tolerance zone/);
});

test("verifyWebhook accepts what stripe-node's generateTestHeaderString makes, and refuses it tampered", async () => {
  const stripe = new Stripe("sk_test_orderpay");
  const payload = JSON.stringify(EVENT, null, 2);
  const header = stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET, timestamp: T });
  assert.deepEqual(await verifyWebhook(payload, header, SECRET, { now: T }), EVENT);
  assert.deepEqual(await verifyWebhook(Buffer.from(payload), header, [OLD, SECRET], { now: T + 299 }), EVENT);
  assert.equal((await signWebhook(payload, { secret: SECRET, timestamp: T })).header, header);
  assert.equal(await outcome(payload.trim() + " ", header, SECRET, { now: T }), "mismatch");
  assert.equal(await outcome(payload, header, OLD, { now: T }), "mismatch");
  assert.equal(await outcome(payload, header, SECRET, { now: T + 301 }), "stale");
});

const { Service } = await import(new URL("node.js", pkg).href);
const { createFetch } = await import(new URL("fetch.inline.js", pkg).href);
const START = Date.UTC(2026, 0, 1);

/** A handler that keeps what it gets: `{ handler, got }`, each delivery's raw and parsed body and headers. */
function keeper(status = 200) {
  const got = [];
  const handler = async (request) => {
    const raw = await request.text();
    got.push({ raw, event: JSON.parse(raw), headers: request.headers });
    return new Response(null, { status });
  };
  return { handler, got };
}

const create = (service, userId = "u-1") => service.handle("POST", "/api/order/create", { userId, price: 4 }).data;

/** What throws, as [kind, message]. */
function thrown(fn) {
  try {
    fn();
  } catch (error) {
    return [error.constructor.name, error.message];
  }
  return null;
}

test("bad endpoints are refused naming the field, and nothing changes", () => {
  const hostile = new Proxy({}, { ownKeys: () => { throw new Error("no keys"); } });
  const getter = { get url() { throw new Error("boom"); } };
  const cases = [
    [{ webhooks: "http://x" }, /^webhooks: expected an array/],
    [{ webhooks: [null] }, /^webhooks\[0\]: expected an object/],
    [{ webhooks: [{}] }, /^webhooks\[0\]\.url: give either url .* got neither/],
    [{ webhooks: [{ url: "http://127.0.0.1:1/", handler: () => {} }] }, /not both/],
    [{ webhooks: [{ url: 42 }] }, /^webhooks\[0\]\.url: expected an absolute http\(s\) URL/],
    [{ webhooks: [{ handler: "fn" }] }, /^webhooks\[0\]\.handler: expected a function/],
    [{ webhooks: [{ url: "http://127.0.0.1:1/", events: "payment.succeeded" }] }, /^webhooks\[0\]\.events: expected an array/],
    [{ webhooks: [{ url: "http://127.0.0.1:1/", events: [7] }] }, /^webhooks\[0\]\.events\[0\]: expected an event type/],
    [{ webhooks: [{ url: "http://127.0.0.1:1/", secret: 1 }] }, /^webhooks\[0\]\.secret: expected a string/],
    [{ webhooks: [{ url: "http://127.0.0.1:1/", sign: true }] }, /^webhooks\[0\]\.sign: not a webhook field/],
    [{ webhooks: [hostile] }, /^webhooks\[0\]: cannot be read: no keys/],
    [{ webhooks: [getter] }, /^webhooks\[0\]\.url: cannot be read: boom/],
    [{ webhooks: new Proxy([], { get: (t, k) => (k === "length" ? 1e9 : t[k]) }) }, /^webhooks: at most 100 endpoints/],
  ];
  for (const [options, message] of cases) {
    const got = thrown(() => new Service(options));
    assert.equal(got?.[0], "TypeError", String(got));
    assert.match(got[1], message);
  }
  const service = new Service({ seed: 1 });
  for (const spec of [{ url: "ftp://127.0.0.1/" }, { url: "/relative" }, { url: "http://127.0.0.1:1/", events: ["payment.teleported"] }, { url: "http://127.0.0.1:1/", header: "X-Sig" }]) {
    const got = thrown(() => service.addWebhook(spec));
    assert.ok(got && /^(url|events\[0\]|header): /.test(got[1]), `${JSON.stringify(spec)}: ${got}`);
  }
  assert.deepEqual(service.webhooks(), [], "nothing was added");
  assert.match(thrown(() => new Service({ webhooks: [{ url: "http://127.0.0.1:1/" }, { url: "nope" }] }))[1], /^webhooks\[1\]\.url: /);
  assert.match(thrown(() => service.removeWebhook(1))[1], /^id: expected an endpoint id/);
  assert.match(thrown(() => service.resendDelivery({}))[1], /^id: expected a delivery id/);
  assert.equal(thrown(() => service.resendDelivery("wd_404"))[0], "RangeError");
  assert.match(thrown(() => service.events({ after: 3 }))[1], /^after: expected an event id/);
  assert.match(thrown(() => createFetch({ webhooks: [{ handler: 1 }] }))[1], /^createFetch: webhooks\[0\]\.handler: expected a function/);
  assert.match(thrown(() => createFetch({ webhooks: [{ url: "nope" }] }))[1], /^createFetch: webhooks\[0\]\.url: /);
  service.free();
});

test("docs/webhooks.md: await webhooksSettled() after the request, then check what the handler got", () => {
  const [example] = examples("webhooks-settled");
  assert.equal(app.run("webhooks-settled.mjs", example).trim(), "order.created payment.succeeded");
});

test("a handler endpoint gets each event it wants, signed with its secret at the service's time, with the trace of the request", async () => {
  const all = keeper();
  const payments = keeper();
  const service = new Service({ seed: 2, failureRate: 0, virtualTime: START, webhooks: [{ handler: all.handler, secret: SECRET }] });
  const endpoint = service.addWebhook({ handler: payments.handler, events: ["payment.succeeded"], header: "Stripe-Signature" });
  assert.match(endpoint.id, /^we_/);
  assert.match(endpoint.secret, /^whsec_/);
  const order = create(service);
  const paid = service.request("POST", "/api/payment/pay", { orderId: order.orderId, amount: 4, paymentMethod: "CARD" });
  await service.webhooksSettled();
  assert.deepEqual(all.got.map((d) => d.event.type).sort(), ["order.created", "payment.succeeded"]);
  assert.deepEqual(payments.got.map((d) => d.event.type), ["payment.succeeded"]);
  assert.deepEqual(service.events().map((e) => e.id).sort(), all.got.map((d) => d.event.id).sort());
  const [{ raw, event, headers }] = payments.got;
  assert.equal(headers.get("orderpay-signature"), null);
  const stripeNode = new Stripe("sk_test_orderpay");
  // stripe-node's receivedAt: the service's clock, in ms.
  const checked = stripeNode.webhooks.constructEvent(raw, headers.get("stripe-signature"), endpoint.secret, 300, undefined, service.now);
  assert.equal(checked.id, event.id);
  assert.equal(event.traceId, paid.headers["x-b3-traceid"]);
  assert.equal(headers.get("traceparent").split("-")[1], paid.headers["x-b3-traceid"]);
  service.free();
});

test("removeWebhook stops an endpoint's deliveries; resendDelivery sends one again", async () => {
  const kept = keeper();
  const service = new Service({ seed: 4, virtualTime: START });
  const { id } = service.addWebhook({ handler: kept.handler, events: ["order.created"], secret: SECRET });
  create(service);
  await service.webhooksSettled();
  assert.equal(kept.got.length, 1);
  const [delivery] = service.webhooks()[0].deliveries;
  assert.equal(service.resendDelivery(delivery.id).id, delivery.id);
  await service.webhooksSettled();
  assert.equal(kept.got.length, 2);
  assert.equal(kept.got[1].event.id, kept.got[0].event.id);
  assert.equal(service.removeWebhook(id), true);
  assert.equal(service.removeWebhook(id), false);
  create(service);
  await service.webhooksSettled();
  assert.equal(kept.got.length, 2);
  service.free();
});

test("every adapter takes the webhooks option: a request through createFetch is delivered to its handler, with nothing else asked", { timeout: 20_000 }, async () => {
  let delivered;
  const arrived = new Promise((resolve) => (delivered = resolve));
  const handler = async (request) => {
    delivered(JSON.parse(await request.text()));
    return new Response(null, { status: 204 });
  };
  const api = createFetch({ service: { seed: 5, virtualTime: START }, webhooks: [{ handler, events: ["order.created"], secret: SECRET }] });
  await api("http://localhost/api/order/create", { method: "POST", headers: { "content-type": "application/json" }, body: '{"userId":"u-9","price":3}' });
  // No webhooksSettled(): the request itself set the delivery going.
  assert.equal((await arrived).data.object.userId, "u-9");
});

test("a snapshot keeps the endpoints and the events; a restored handler endpoint says it has no function here", async () => {
  const kept = keeper();
  const service = new Service({ seed: 6, virtualTime: START, webhooks: [{ handler: kept.handler, secret: SECRET }] });
  create(service);
  await service.webhooksSettled();
  const restored = Service.restore(service.snapshot());
  assert.deepEqual(restored.webhooks().map((e) => e.id), service.webhooks().map((e) => e.id));
  assert.deepEqual(restored.events(), service.events());
  create(restored);
  await restored.webhooksSettled();
  const last = restored.webhooks()[0].deliveries.at(-1);
  assert.match(last.attempts[0].error, /no handler function in this process/);
  assert.equal(kept.got.length, 1, "the old handler is not called by the restored service");
  service.free();
  restored.free();
});

test("on the wall clock a service with an endpoint wakes by itself for an attempt due later (a late delivery), with no request", { timeout: 20_000 }, async () => {
  let delivered;
  const arrived = new Promise((resolve) => (delivered = resolve));
  const handler = async (request) => {
    delivered(JSON.parse(await request.text()));
    return new Response(null, { status: 200 });
  };
  const late = { rules: [{ name: "later", when: { event: "order.created" }, then: { kind: "late", ms: 50 } }] };
  const service = new Service({ seed: 8, scenario: late, webhooks: [{ handler, secret: SECRET }] });
  create(service, "u-late");
  await service.webhooksSettled();
  // The service's wake keeps no process alive (a retry may be hours away): this test does, meanwhile.
  const alive = setInterval(() => {}, 1000);
  const event = await arrived.finally(() => clearInterval(alive));
  await service.webhooksSettled();
  assert.equal(event.data.object.userId, "u-late");
  const [attempt] = service.webhooks()[0].deliveries[0].attempts;
  assert.equal(attempt.fault?.kind, "late");
  assert.ok(attempt.at >= event.createdAt + 50, `due ${attempt.at - event.createdAt} ms after the event`);
  service.free();
});

let app;
before(() => {
  app = makeConsumer();
});

test("docs/webhooks.md: the plain Node server verifies a signed POST and refuses a tampered one", () => {
  const [example] = examples("webhooks-node");
  assert.ok(example, "docs/webhooks.md has the node:http example");
  assert.deepEqual(app.run("webhooks-node.mjs", example).trim().split("\n"), ["200 payment.succeeded", "400 mismatch"]);
});

test("docs/webhooks.md: the Express-style handler, unit-tested with signWebhook and no server", () => {
  const [example] = examples("webhooks-express");
  assert.ok(example, "docs/webhooks.md has the Express-style example");
  assert.deepEqual(app.run("webhooks-express.mjs", example).trim().split("\n"), [
    "200 received",
    "400 stale",
    "400 no signature",
  ]);
});
