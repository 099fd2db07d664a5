// `orderpay serve` verified as a Pact provider by Pact's own tools
// (@pact-foundation/pact, pinned in tests/server/package.json; its
// libpact_ffi comes from npm): docs/pact.md's consumer script writes a pact
// with PactV3 (the typical flow, a declined payment) and its provider script
// verifies it against a real server, the states set through POST
// /__orderpay/provider-states; a pact asking for what the spec does not do
// fails with the mismatch named; a pact service.exportPact wrote from a run
// verifies too; and the route's own rules and refusals.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { promisify } from "node:util";

import { examples } from "../docs.mjs";
import { adminDocumentText, loadChecker } from "./openapi.mjs";
import { call, consumer, root, serve, stop } from "./serve.mjs";

let server;
let checker;
/** A scratch folder whose scripts import @pact-foundation/pact from tests/server/node_modules. */
let dir;
before(async () => {
  server = await serve(["--port", "0", "--seed", "7"]);
  checker = await loadChecker(adminDocumentText());
  dir = mkdtempSync(join(tmpdir(), "orderpay-pact-"));
  symlinkSync(join(root, "tests", "server", "node_modules"), join(dir, "node_modules"), "dir");
});
after(async () => {
  await stop(server);
  rmSync(dir, { recursive: true, force: true });
});

/**
 * Runs a script in the scratch folder on this Node: its exit code and its
 * output, colours taken out. PACT_DO_NOT_TRACK: Pact's libraries send no
 * usage event from a test run.
 */
async function run(name, code) {
  writeFileSync(join(dir, name), code);
  const plain = (text) => String(text ?? "").replace(/\x1b\[[0-9;]*m/g, "");
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [name], {
      cwd: dir,
      timeout: 60_000,
      env: { ...process.env, PACT_DO_NOT_TRACK: "true" },
    });
    return { code: 0, out: plain(stdout) + plain(stderr) };
  } catch (error) {
    return { code: error.code, out: plain(error.stdout) + plain(error.stderr) };
  }
}

/** docs/pact.md's provider script, against this server and the pact file `pact`. */
function provider(pact) {
  const [script] = examples("pact-provider");
  return script.replaceAll("http://127.0.0.1:4010", server.origin).replaceAll("pacts/shop-web-orderpay.json", pact);
}

/** A state change as Pact's verifier sends it, in session `session`, held to the admin document. */
async function change(session, state, action = "setup", params = {}) {
  const reply = await call(`${server.origin}/s/${session}/__orderpay/provider-states`, "POST", { state, params, action });
  checker.check("post", "/__orderpay/provider-states", reply);
  return reply;
}

const get = (session, path) => call(`${server.origin}/s/${session}${path}`).then((r) => r.body);

test("docs/pact.md's consumer pact (PactV3: the typical flow, a declined payment) verifies against orderpay serve", async () => {
  const consumer = await run("consumer.mjs", examples("pact-consumer")[0]);
  assert.equal(consumer.code, 0, consumer.out);
  const verified = await run("provider.mjs", provider("pacts/shop-web-orderpay.json"));
  assert.equal(verified.code, 0, verified.out);
  assert.match(verified.out, /orderpay honours the pact/);
  for (const interaction of ["a new order", "a read of an order", "a payment that succeeds", "the order marked paid", "a payment declined for insufficient funds"]) {
    assert.match(verified.out, new RegExp(`${interaction} \\(`), interaction);
  }
});

test("a pact asking for what the spec does not do fails verification, the mismatch named", async () => {
  const consumer = await run("wrong.mjs", `
    import { PactV3 } from "@pact-foundation/pact";
    const pact = new PactV3({ consumer: "wishful-web", provider: "orderpay", dir: "pacts", logLevel: "warn" });
    const ok = (data) => ({ code: 0, msg: "success", data });
    pact.given("an order ORD-PACT0001 exists").uponReceiving("an order with a currency")
      .withRequest({ method: "GET", path: "/api/order/ORD-PACT0001" })
      .willRespondWith({ status: 200, body: ok({ orderId: "ORD-PACT0001", currency: "EUR" }) });
    await pact.executeTest(({ url }) => fetch(url + "/api/order/ORD-PACT0001"));
    pact.given("an order ORD-PACT0001 exists").uponReceiving("a delete by DELETE")
      .withRequest({ method: "DELETE", path: "/api/order/ORD-PACT0001" })
      .willRespondWith({ status: 200, body: ok(null) });
    await pact.executeTest(({ url }) => fetch(url + "/api/order/ORD-PACT0001", { method: "DELETE" }));
    pact.given("a unicorn exists").uponReceiving("a read in a state orderpay does not know")
      .withRequest({ method: "GET", path: "/api/order/ORD-PACT0001" })
      .willRespondWith({ status: 200 });
    await pact.executeTest(({ url }) => fetch(url + "/api/order/ORD-PACT0001"));
  `);
  assert.equal(consumer.code, 0, consumer.out);
  const verified = await run("provider-wrong.mjs", provider("pacts/wishful-web-orderpay.json"));
  assert.notEqual(verified.code, 0, verified.out);
  assert.match(verified.out, /\$\.data -> Actual map is missing the following keys: currency/);
  assert.match(verified.out, /expected 200 but was 405/);
  assert.match(verified.out, /\$\.msg -> Expected 'method: DELETE is not allowed on \/api\/order\/ORD-PACT0001; use GET'/);
  assert.match(verified.out, /Provider setup state change for 'a unicorn exists' has failed - .*Invalid status code: 400/);
  assert.doesNotMatch(verified.out, /orderpay honours the pact/);
});

/** A run of a Service through request(): the typical flow, a drawn decline, a scenario's decline and its 429 every 2nd order request. */
async function exportedRun() {
  const { Service } = await import(join(root, "pkg", "node.js"));
  const s = new Service({ seed: 11 });
  const send = (method, path, body) => s.request(method, path, body && JSON.stringify(body), body && { "content-type": "application/json" }).body;
  const { orderId } = send("POST", "/api/order/create", { userId: "u1", price: 25, description: "tea" }).data;
  send("GET", `/api/order/${orderId}`);
  const pay = { orderId, amount: 25, paymentMethod: "CARD" };
  s.forceNext("failure", 1);
  assert.equal(send("POST", "/api/payment/pay", pay).code, -1);
  s.forceNext("success", 1);
  const { paymentId } = send("POST", "/api/payment/pay", pay).data;
  send("POST", `/api/order/${orderId}/pay`);
  assert.equal(send("POST", `/api/order/delete/${orderId}`).msg, "Paid order cannot be deleted");
  send("GET", `/api/payment/${paymentId}`);
  send("POST", `/api/payment/refund/${paymentId}`);
  send("GET", `/api/payment/${paymentId}`);
  s.setScenario("insufficient-funds");
  assert.equal(send("POST", "/api/payment/pay", pay).code, -1);
  s.setScenario("rate-limited");
  send("GET", `/api/order/${orderId}`);
  assert.equal(send("GET", `/api/order/${orderId}`).code, 429);
  const pact = s.exportPact({ consumer: "exported-web", provider: "orderpay" });
  s.free();
  return pact;
}

test("a pact written by service.exportPact from a run verifies against orderpay serve, its states set through the route", async () => {
  const pact = await exportedRun();
  assert.equal(pact.interactions.length, 12);
  mkdirSync(join(dir, "pacts"), { recursive: true });
  writeFileSync(join(dir, "pacts", "exported-web-orderpay.json"), JSON.stringify(pact, null, 2));
  const verified = await run("provider-exported.mjs", provider("pacts/exported-web-orderpay.json"));
  assert.equal(verified.code, 0, verified.out);
  assert.match(verified.out, /12\. GET \/api\/order\/ORD-\w+ .*\n.*\n     And the scenario rule "every 2nd request limited" fires\n.*\n      has status code 429 \(OK\)/);
  assert.match(verified.out, /Given a payment exists/);
});

test("docs/pact.md's exportPact example writes a pact that verifies against orderpay serve", async () => {
  // Run where the package is installed, as a user's project has it.
  const app = consumer();
  app.run("export-pact.mjs", examples("pact-export")[0]);
  const verified = await run("provider-export.mjs", provider(join(app.dir, "pacts", "shop-web-orderpay.json")));
  assert.equal(verified.code, 0, verified.out);
  assert.match(verified.out, /4\. POST \/api\/payment\/pay .*\n     Given an order ORD-\w+ exists\n     And the scenario rule "every payment declined" fires\n/);
});

test("a state change: the first setup starts the session fresh, the interaction's next ones add to it, a teardown resets", async () => {
  const placed = await change("states", "an order ORD-PACT0042 exists", "setup", { price: 12.5, userId: "u9" });
  assert.equal(placed.status, 200);
  assert.deepEqual({ ...placed.body, createdAt: 0 },
    { orderId: "ORD-PACT0042", userId: "u9", price: 12.5, status: "CREATED", description: "made by a provider state", createdAt: 0 });
  assert.deepEqual((await change("states", "payments are declined for insufficient funds")).body, { scenario: "insufficient-funds" });
  const pay = await call(`${server.origin}/s/states/api/payment/pay`, "POST", { orderId: "ORD-PACT0042", amount: 12.5, paymentMethod: "CARD" });
  assert.deepEqual([pay.body.code, pay.headers["x-orderpay-decline-code"]], [-1, "insufficient_funds"]);
  assert.equal((await get("states", "/api/order/ORD-PACT0042")).data.createdAt, placed.body.createdAt, "the order is the gateway's too");
  // Requests came since: the next interaction's first setup starts fresh, its order the first free ORD-PACTnnnn.
  assert.equal((await change("states", "an order exists")).body.orderId, "ORD-PACT0001");
  assert.equal((await get("states", "/api/order/ORD-PACT0042")).msg, "Order not found");
  assert.equal((await get("states", "/__orderpay/scenario")).data.scenario, null);
  assert.equal((await change("states", "an order exists")).body.orderId, "ORD-PACT0001", "the first setup after a request starts fresh");
  assert.equal((await change("states", "AN ORDER EXISTS")).body.orderId, "ORD-PACT0002", "a second state of the interaction adds to it");
  assert.equal((await change("states", "payments succeed")).body.forced, 1000);
  assert.deepEqual((await change("states", "an order exists", "teardown")).body, {});
  assert.equal((await get("states", "/api/order/ORD-PACT0001")).msg, "Order not found");
  assert.equal((await get("states", "/__orderpay/settings")).data.forced, null);
  assert.deepEqual((await change("states", "", "setup")).body, {}, "no state: the verifier sends an empty one");
  assert.deepEqual((await change("states", "rate-limited")).body, { scenario: "rate-limited" });
  assert.deepEqual((await change("states", "the third party is down")).body, { scenario: "third-party-down" });
  assert.equal((await get("states", "/__orderpay/scenario")).data.scenario.document.name, "third-party-down");
  assert.deepEqual((await change("states", "Insufficient-Funds")).body, { scenario: "insufficient-funds" }, "a preset's name in any case");
  const nullDescription = await change("states", "an order exists", "setup", { description: null });
  assert.deepEqual([nullDescription.status, nullDescription.body.description], [200, ""], "a null description is read as the create route reads it");
  // A placed order is past the run's journal: export-test refuses, saying so, until a teardown resets the session.
  const copy = await call(`${server.origin}/s/states/__orderpay/export-test`);
  assert.deepEqual([copy.status, copy.body.msg], [409, PLACED]);
  await change("states", "", "teardown");
  assert.equal((await call(`${server.origin}/s/states/__orderpay/export-test`)).status, 200);
});

/** export-test's 409 for a session a provider state placed an order in. */
const PLACED =
  "export-test: a Pact provider state set this session up (an order placed under a chosen id), which a copy cannot replay: reset the session (POST /__orderpay/reset) and run the story again to copy it";

test("a payment state pays whatever the interaction forced: after payments fail, the interaction's own pay fails", async () => {
  await change("forced", "payments fail");
  const made = await change("forced", "a payment exists", "setup", { orderId: "ORD-FAIL0001" });
  assert.deepEqual([made.status, made.body.status], [200, "SUCCESS"]);
  assert.deepEqual((await get("forced", "/__orderpay/settings")).data.forced, { outcome: "failure", remaining: 1000 });
  const pay = await call(`${server.origin}/s/forced/api/payment/pay`, "POST", { orderId: "ORD-FAIL0001", amount: 100, paymentMethod: "CARD" });
  assert.equal(pay.body.msg, "Third party payment failed");
});

test("an unknown state, a malformed or taken id, a bad body: a 400 naming it, and the session as it was", async () => {
  await change("refusals", "an order ORD-PACT0007 exists");
  const refusals = [
    [{ state: "a unicorn exists" }, /^state: no provider state "a unicorn exists"; the states are "an order ORD-XXXXXXXX exists".*insufficient-funds/],
    [{ state: "an order ORD-1 exists" }, /^orderId: expected ORD- and 8 of A-Z 0-9 \(ORD-PACT0001\), got "ORD-1"$/],
    [{ state: "an order exists", params: { price: 0 } }, /^params\.price must be > 0$/],
    [{ state: "an order exists", params: { userId: "u".repeat(65) } }, /^params\.userId: must be at most 64 characters, got 65$/],
    [{ state: "an order exists", params: { userId: 7 } }, /^params\.userId: expected a string/],
    [{ state: "payments succeed", action: "undo" }, /^action: expected "setup" or "teardown", got "undo"$/],
    [{ params: {} }, /^state: expected the provider state's name/],
    [{ state: "an order exists", params: { status: "GONE" } }, /^params\.status: expected "CREATED" or "PAID", got "GONE"$/],
    [{ state: "a payment exists", params: { paymentMethod: "CASH" } }, /^params\.paymentMethod: must be one of CARD, WALLET_A, WALLET_B, got "CASH"$/],
    [{ state: "my story", params: { scenario: { rules: [{ then: { kind: "nope" } }] } } }, /^params\.scenario: rules\[0\]\.then\.kind: expected one of/],
    [{ state: "an order ORD-PACT0007 exists" }, /^state "an order ORD-PACT0007 exists": orderId: ORD-PACT0007 is taken/],
    // Deep and huge values: a 400 naming the field and its kind, never the value's whole text.
    [`{"state":${DEEP}}`, /^state: expected the provider state's name \(a string; "" for none\), got an array$/],
    [`{"state":"payments fail","action":${DEEP}}`, /^action: expected "setup" or "teardown", got an array$/],
    [`{"state":"payments fail","params":${DEEP}}`, /^params: expected an object, got an array$/],
    [`{"state":"an order exists","params":{"status":${DEEP}}}`, /^params\.status: expected "CREATED" or "PAID", got an array$/],
    [`{"state":"an order exists","params":{"userId":${DEEP}}}`, /^params\.userId: expected a string, got an array$/],
    [`{"state":"a payment exists","params":{"amount":${DEEP}}}`, /^params\.amount: expected a number, got an array$/],
    [`{"state":"a payment exists","params":{"refunded":${DEEP}}}`, /^params\.refunded: expected true or false, got an array$/],
    [`{"state":"a payment exists","params":{"orderId":${DEEP}}}`, /^orderId: expected an order id \(a string\), got an array$/],
    [`{"state":"any","params":{"scenario":${DEEP}}}`, /^params\.scenario: expected a document .*, got an array$/],
    [{ state: "u".repeat(60_000) }, /^state: no provider state "u{200}…"; the states are/],
    [{ state: "an order exists", params: { status: "s".repeat(60_000) } }, /^params\.status: expected "CREATED" or "PAID", got "s{200}…"$/],
  ];
  for (const [body, msg] of refusals) {
    const reply = await call(`${server.origin}/s/refusals/__orderpay/provider-states`, "POST", body);
    checker.check("post", "/__orderpay/provider-states", reply);
    assert.equal(reply.status, 400, String(msg));
    assert.match(reply.body.msg, msg);
    assert.ok(reply.body.msg.length < 1000, "the msg quotes a value shortened");
  }
  // A state that fails midway (its pay declined by the scenario an earlier state set): the session as the states before it left it.
  await change("refusals", "payments fail");
  await change("refusals", "the third party is down");
  const midway = await change("refusals", "a payment exists", "setup", { orderId: "ORD-AAAA0001" });
  assert.deepEqual([midway.status, midway.body.msg], [400, 'state "a payment exists": the payment was not made: Third party payment failed']);
  assert.equal((await call(`${server.origin}/s/refusals/__orderpay/export-test`)).body.msg, PLACED, "put back, the session still refuses export-test");
  assert.equal((await change("refusals", "an order ORD-BBBB0001 exists")).status, 200, "the interaction's next state still adds to it");
  assert.equal((await get("refusals", "/api/order/ORD-PACT0007")).data?.orderId, "ORD-PACT0007", "the order set up stays");
  assert.equal((await get("refusals", "/api/order/ORD-AAAA0001")).msg, "Order not found", "the refused state's order is gone");
  assert.deepEqual((await get("refusals", "/__orderpay/settings")).data.forced, { outcome: "failure", remaining: 1000 });
  assert.equal((await get("refusals", "/__orderpay/scenario")).data.scenario.document.name, "third-party-down");
  // Put back with no order placed before, the session's run is whole: export-test copies it.
  await change("copyable", "payments fail");
  await change("copyable", "the third party is down");
  assert.equal((await change("copyable", "a payment exists")).status, 400);
  const copy = await call(`${server.origin}/s/copyable/__orderpay/export-test`);
  assert.equal(copy.status, 200, copy.body.msg);
  assert.match(copy.body, /force-next" -d '\{"outcome":"failure","count":1000\}'/);
});

/** A JSON array nested 30,000 deep, as text: JSON.stringify of it overflows the stack. */
const DEEP = "[".repeat(30_000) + "]".repeat(30_000);

test("an interaction's first setup that fails midway leaves the session as it was, its requests' orders and forced outcomes", async () => {
  // Every fresh session of this server starts with the third party down, so a payment state's own pay is declined.
  const down = await serve(["--port", "0", "--seed", "7", "--scenario", "third-party-down"]);
  try {
    const at = (path) => `${down.origin}/s/first${path}`;
    const { orderId } = (await call(at("/api/order/create"), "POST", { userId: "u1", price: 5 })).body.data;
    await call(at("/__orderpay/force-next"), "POST", { outcome: "success", count: 3 });
    await call(at("/__orderpay/scenario"), "DELETE");
    const before = (await call(at("/__orderpay/counters"))).body.data.generation;
    const refused = await call(at("/__orderpay/provider-states"), "POST", { state: "a payment exists", params: { orderId: "ORD-AAAA0001" } });
    assert.deepEqual([refused.status, refused.body.msg], [400, 'state "a payment exists": the payment was not made: Third party payment failed']);
    assert.equal((await call(at("/__orderpay/counters"))).body.data.generation, before, "no reset");
    assert.equal((await call(at(`/api/order/${orderId}`))).body.code, 0, "the request's order stays");
    assert.equal((await call(at("/api/order/ORD-AAAA0001"))).body.msg, "Order not found");
    assert.deepEqual((await call(at("/__orderpay/settings"))).body.data.forced, { outcome: "success", remaining: 3 });
    assert.equal((await call(at("/__orderpay/scenario"))).body.data.scenario, null);
  } finally {
    await stop(down);
  }
});
