// Idempotency-Key against `orderpay serve` over real HTTP on 127.0.0.1
// (docs/idempotency.md): a retried POST with its key gets the kept answer
// with `idempotent-replayed: true`, as the OpenAPI document says, and the
// server's log shows the replay; a key reused for another body, or one
// that is not 1 to 255 printable ASCII characters, is a 400.
import assert from "node:assert/strict";
import { request as httpRequest } from "node:http";
import { after, before, test } from "node:test";

import { loadChecker } from "./openapi.mjs";
import { call, serve, stop } from "./serve.mjs";

let server;
let checker;
before(async () => {
  checker = await loadChecker();
  server = await serve(["--port", "0", "--seed", "7", "--failure-rate", "0"]);
});
after(() => stop(server));

async function api(method, path, body, headers) {
  const reply = await call(server.url + path, method, body, headers);
  checker.check(method, path, reply);
  return reply;
}

/** A POST with one raw header value, bytes as given (fetch would refuse or re-encode some). */
function rawPost(path, body, key) {
  const url = new URL(server.url + path);
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: "POST", headers: { "content-type": "application/json" } }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode, body: JSON.parse(text) }));
    });
    req.on("error", reject);
    req.setHeader("Idempotency-Key", Buffer.from(key, "utf8").toString("latin1"));
    req.end(JSON.stringify(body));
  });
}

test("a retried payment with its key is replayed: one payment, the header, and a replay in the log", async () => {
  const key = { "Idempotency-Key": "checkout-42" };
  const created = await api("POST", "/api/order/create", { userId: "u-9", price: 30, description: "lamp" }, key);
  const orderId = created.body.data.orderId;
  const createdAgain = await api("POST", "/api/order/create", { userId: "u-9", price: 30, description: "lamp" }, key);
  assert.equal(createdAgain.headers["idempotent-replayed"], "true");
  assert.deepEqual(createdAgain.body, created.body);

  const pay = { orderId, amount: 30, paymentMethod: "CARD" };
  const payKey = { "Idempotency-Key": "pay-42" };
  const first = await api("POST", "/api/payment/pay", pay, payKey);
  const again = await api("POST", "/api/payment/pay", pay, payKey);
  assert.equal(first.headers["idempotent-replayed"], undefined);
  assert.equal(again.headers["idempotent-replayed"], "true");
  assert.deepEqual(again.body, first.body);
  assert.equal(again.status, 200);

  const { records } = (await call(`${server.origin}/__orderpay/logs`)).body.data;
  const ofReplay = records.filter((r) => r.traceId === again.headers["x-b3-traceid"]);
  assert.deepEqual(ofReplay.map((r) => r.stage), ["gateway", "response"], "nothing ran");
  assert.equal(ofReplay[1].replay, true);
  const { counters } = (await call(`${server.origin}/__orderpay/counters`)).body.data;
  assert.equal(counters.payments.attempts, 1, "one payment attempt");
});

test("the key with another body is a 400 that names it; bad keys are 400s", async () => {
  const created = await api("POST", "/api/order/create", { userId: "u-9", price: 5, description: "" });
  const pay = { orderId: created.body.data.orderId, amount: 5, paymentMethod: "WALLET_B" };
  await api("POST", "/api/payment/pay", pay, { "Idempotency-Key": "pay-43" });
  const other = await api("POST", "/api/payment/pay", { ...pay, amount: 6 }, { "Idempotency-Key": "pay-43" });
  assert.equal(other.status, 400);
  assert.equal(other.body.msg, 'Idempotency-Key: "pay-43" was first used with another body; use a new key for another request');
  const long = await api("POST", "/api/payment/pay", pay, { "Idempotency-Key": "k".repeat(256) });
  assert.deepEqual([long.status, long.body.msg], [400, "Idempotency-Key: must be at most 255 characters, got 256"]);
  const accented = await rawPost("/api/payment/pay", pay, "clé");
  assert.equal(accented.status, 400);
  assert.match(accented.body.msg, /^Idempotency-Key: must be printable ASCII characters \(0x20 to 0x7E\), got a non-ASCII character/);
});

test("a page on another origin can read idempotent-replayed", async () => {
  const reply = await api("POST", "/api/order/create", { userId: "u", price: 1, description: "" }, {
    Origin: "http://shop.example",
    "Idempotency-Key": "cors-1",
  });
  assert.match(reply.headers["access-control-expose-headers"], /(^|, )idempotent-replayed(,|$)/);
});
