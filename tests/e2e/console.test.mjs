// The request console: any route, edited fields, the answer as it came.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { start } from "./browser.mjs";
import { applySettings, logRows, open, waitForRows } from "./playground.mjs";

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

const envelope = async (page) => JSON.parse(await page.textContent("#response pre.envelope"));

test("a single request with an edited body and headers is answered as sent", async () => {
  const { page, errors, external } = await open(env);
  await applySettings(page, { seed: 7, failureRate: 0 });
  assert.equal(await page.inputValue("#route"), "order-create");
  // Pre-filled with something that works.
  assert.deepEqual(JSON.parse(await page.inputValue("#body")), { userId: "u-1", price: 25.5, description: "two coffees" });

  await page.fill("#body", JSON.stringify({ userId: "alice", price: 99.9, description: "a red bicycle" }));
  await page.fill("#h-user", "alice-header");
  await page.fill("#h-trace", "463ac35c9f6413ad");
  assert.match(await page.textContent("#request-preview"), /^POST \/api\/order\/create\nContent-Type: application\/json\nX-User-Id: alice-header\nX-B3-TraceId: 463ac35c9f6413ad\n\n\{"userId":"alice"/);
  await page.click("#send");

  const body = await envelope(page);
  assert.equal(body.code, 0);
  assert.equal(body.msg, "success");
  assert.deepEqual({ ...body.data, orderId: "", createdAt: 0 },
    { orderId: "", userId: "alice", price: 99.9, status: "CREATED", description: "a red bicycle", createdAt: 0 });
  assert.equal(await page.textContent("#response .badge.status"), "HTTP 200");
  assert.match(await page.textContent("#response .badge.code"), /code 0 · success/);
  assert.match(await page.getAttribute("#response .badge.code", "class"), /\bok\b/);
  assert.match(await page.textContent("#response .facts"), /\d+(\.\d)? ms in this tab · \d+ ms simulated/);
  assert.equal(await page.textContent("#response button.trace"), "463ac35c9f6413ad", "the trace id sent is the one used");

  // The log has the request's three records, with the header's user id.
  await waitForRows(page, 3);
  const rows = await logRows(page);
  assert.deepEqual(rows.map((r) => r.trace), Array(3).fill("463ac35c9f6413ad"));

  // The new order's id is offered for the next calls: the pay body and the order routes.
  await page.selectOption("#route", "payment-pay");
  const pay = JSON.parse(await page.inputValue("#body"));
  assert.deepEqual(pay, { orderId: body.data.orderId, amount: 99.9, paymentMethod: "CARD" });
  await page.fill("#h-trace", "");
  await page.click("#send");
  const paid = await envelope(page);
  assert.equal(paid.data.status, "SUCCESS");
  await page.selectOption("#route", "payment-refund");
  assert.equal(await page.inputValue("#param-paymentId"), paid.data.paymentId);
  assert.equal(await page.textContent("#request-preview"), `POST /api/payment/refund/${paid.data.paymentId}\nX-User-Id: alice-header`);
  await page.selectOption("#route", "order-get");
  assert.equal(await page.inputValue("#param-orderId"), body.data.orderId);
  assert.deepEqual(await page.$$eval("#order-ids option", (o) => o.map((x) => x.value)), [body.data.orderId]);
  await page.click("#send");
  assert.equal((await envelope(page)).data.orderId, body.data.orderId);
  assert.deepEqual(errors, []);
  assert.deepEqual(external, []);
});

test("a bad body gets the service's 400, told apart from success and business errors", async () => {
  const { page, errors } = await open(env);
  await page.fill("#body", `{"userId": "u-1", "price": "12"}`);
  await page.click("#send");
  assert.deepEqual(await envelope(page), { code: 400, msg: 'price: expected a number, got string "12"', data: null });
  assert.equal(await page.textContent("#response .badge.status"), "HTTP 400");
  assert.match(await page.getAttribute("#response .badge.status", "class"), /\bbad\b/);
  assert.match(await page.getAttribute("#response .badge.code", "class"), /\bbad\b/);
  assert.match(await page.textContent("#response .msg"), /price: expected a number/);

  await page.fill("#body", "{not json");
  await page.click("#send");
  const broken = await envelope(page);
  assert.equal(broken.code, 400);
  assert.match(broken.msg, /^body: not valid JSON/);

  // A business error is code -1 with HTTP 200, drawn differently.
  await page.fill("#body", `{"userId": "u-1", "price": 0}`);
  await page.click("#send");
  assert.deepEqual(await envelope(page), { code: -1, msg: "price must be > 0", data: null });
  assert.equal(await page.textContent("#response .badge.status"), "HTTP 200");
  assert.match(await page.getAttribute("#response .badge.code", "class"), /\bwarn\b/);

  // A client error is logged as such, without a service record.
  await waitForRows(page, 2 + 2 + 3);
  const rows = await logRows(page);
  assert.deepEqual(rows.slice(-4).map((r) => [r.stage, r.status]), [["response", "client_error"], ["gateway", ""], ["response", "client_error"], ["gateway", ""]]);
  assert.deepEqual(errors, []);
});

test("any method and path: a typo gets the service's 404 hint, a wrong method its 405", async () => {
  const { page, errors } = await open(env);
  await page.selectOption("#route", "custom");
  await page.fill("#custom-path", "/api/ordr/create");
  await page.selectOption("#custom-method", "POST");
  await page.click("#send");
  assert.equal((await envelope(page)).msg, "No route for POST /api/ordr/create; did you mean POST /api/order/create?");
  assert.equal(await page.textContent("#response .badge.status"), "HTTP 404");

  await page.fill("#custom-path", "/api/order/create");
  await page.selectOption("#custom-method", "GET");
  await page.click("#send");
  assert.equal(await page.textContent("#response .badge.status"), "HTTP 405");
  assert.match(await page.textContent("#response .headers"), /allow: POST/);
  assert.deepEqual(errors, []);
});

test("the test-data route in the console sends one request with its count", async () => {
  const { page, errors } = await open(env);
  await page.selectOption("#route", "test-batch");
  await page.fill("#param-count", "3");
  assert.equal(await page.textContent("#request-preview"), "GET /api/test/order/batch?count=3\nX-User-Id: u-1");
  await page.click("#send");
  const report = await envelope(page);
  assert.equal(report.data.count, 3);
  assert.equal(report.data.succeeded + report.data.failed, 3);
  assert.deepEqual(errors, []);
});
