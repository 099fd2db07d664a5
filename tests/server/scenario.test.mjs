// A failure scenario on `orderpay serve`: set, read and cleared through the
// admin API (PUT, GET, DELETE /__orderpay/scenario), or from the start with
// --scenario FILE or a preset's name; bad ones refused naming their path,
// changing nothing.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";

import { examples } from "../docs.mjs";
import { loadChecker, adminDocumentText } from "./openapi.mjs";
import { call, serve, serveFails, stop } from "./serve.mjs";

let server;
let checker;
before(async () => {
  server = await serve(["--port", "0", "--seed", "5", "--failure-rate", "0"]);
  checker = await loadChecker(adminDocumentText());
});
after(() => stop(server));

const admin = (route) => `${server.origin}/__orderpay${route}`;
const order = (base = server.url) => call(`${base}/api/order/create`, "POST", { userId: "u1", price: 5 });

/** An admin call, held to the admin API's document. */
async function scenarioCall(method, body, headers) {
  const reply = await call(admin("/scenario"), method, body, headers);
  checker.check(method.toLowerCase(), "/__orderpay/scenario", reply);
  return reply;
}

const PAY_TWICE_503 = {
  name: "two 503s",
  rules: [{ name: "down twice", when: { route: "/api/order/create", calls: { from: 1, to: 2 } }, then: { kind: "http", status: 503, retryAfter: 3 } }],
};

test("PUT sets a document, the gateway fails as it says, GET shows each rule's progress, DELETE clears it", async () => {
  assert.deepEqual((await scenarioCall("GET")).body, { code: 0, msg: "success", data: { scenario: null } });
  const set = await scenarioCall("PUT", PAY_TWICE_503);
  assert.equal(set.status, 200);
  assert.deepEqual(set.body.data.scenario.document, PAY_TWICE_503);
  assert.deepEqual(set.body.data.scenario.rules, [{ name: "down twice", seen: 0, fired: 0 }]);
  const statuses = [];
  for (let i = 0; i < 3; i++) {
    const reply = await order();
    statuses.push([reply.status, reply.headers["retry-after"] ?? null, reply.headers["x-orderpay-rule"] ?? null]);
  }
  assert.deepEqual(statuses, [[503, "3", "down twice"], [503, "3", "down twice"], [200, null, null]]);
  // A page on another origin (a dev server) may read what failed and when to retry.
  const exposed = (await order()).headers["access-control-expose-headers"].split(", ");
  for (const name of ["retry-after", "x-orderpay-rule", "x-orderpay-fault", "x-orderpay-decline-code"]) assert.ok(exposed.includes(name), name);
  assert.deepEqual((await scenarioCall("GET")).body.data.scenario.rules, [{ name: "down twice", seen: 4, fired: 2 }]);
  assert.deepEqual((await scenarioCall("DELETE")).body.data, { scenario: null });
  assert.equal((await scenarioCall("GET")).body.data.scenario, null);
  assert.equal((await order()).status, 200);
});

test("PUT takes a preset's name as a JSON string", async () => {
  const set = await scenarioCall("PUT", JSON.stringify("rate-limited"));
  assert.equal(set.body.data.scenario.document.name, "rate-limited");
  const [first, second] = [await order(), await order()];
  assert.deepEqual([first.status, second.status, second.headers["retry-after"]], [200, 429, "1"]);
  await scenarioCall("DELETE");
});

test("a bad scenario is a 400 naming its path or the body's problem, and changes nothing", async () => {
  await scenarioCall("PUT", PAY_TWICE_503);
  const cases = [
    [{ rules: [{ when: {} , then: { kind: "http", status: 503 } }, { when: { until: "soon" }, then: { kind: "delay" } }] },
      "scenario: rules[1].when.until: expected a whole number of ms, got \"soon\""],
    [{ rules: [], typo: 1 }, /^scenario: /],
    [JSON.stringify("no-such-preset"), /^scenario: expected .*preset.*got "no-such-preset"$/],
    ["{not json", /^body: not JSON \(.*\); send a scenario document \(\{"rules":\[\.\.\.\]\}\) or a preset's name in quotes, one of "third-party-down", .*"rate-limited"/],
    // A preset's bare name, as `curl -d rate-limited` sends it: the answer says to quote it.
    ["rate-limited", /^body: not JSON \(.*\); a preset's name is a JSON string: send "rate-limited" with its quotes \(curl -d '"rate-limited"'\)$/],
    ["[1, 2]", "body: expected a scenario document (an object) or a preset name (a string), got an array"],
    ["null", "body: expected a scenario document (an object) or a preset name (a string), got null"],
    ["", "body: expected a scenario document or a preset name as JSON, got nothing"],
  ];
  for (const [body, msg] of cases) {
    const reply = await scenarioCall("PUT", body);
    assert.equal(reply.status, 400, JSON.stringify(body));
    if (msg instanceof RegExp) assert.match(reply.body.msg, msg);
    else assert.equal(reply.body.msg, msg);
  }
  const big = await scenarioCall("PUT", { rules: [], name: "x".repeat(1024 * 1024) });
  assert.equal(big.status, 413);
  assert.deepEqual((await scenarioCall("GET")).body.data.scenario.document, PAY_TWICE_503, "unchanged");
  await scenarioCall("DELETE");
});

test("a network fault after the service ran: the order exists, its answer was lost on a reset socket", async () => {
  const rule = { when: { route: "/api/order/create" }, then: { kind: "network", fault: "reset", phase: "response" } };
  await scenarioCall("PUT", { rules: [rule] });
  const error = await fetch(`${server.url}/api/order/create`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ userId: "lost", price: 9 }),
  }).then(() => null, (e) => e);
  assert.ok(error instanceof TypeError);
  assert.equal(error.cause?.code, "ECONNRESET");
  await scenarioCall("DELETE");
  const { records } = (await call(admin("/logs"))).body.data;
  const lost = records.findLast((r) => r.stage === "service");
  assert.equal(lost.status, "success", "the service ran and made the order");
});

test("--scenario FILE sets it from the start; a reset goes back to it; a preset's name works too", async () => {
  const dir = mkdtempSync(join(tmpdir(), "orderpay-scenario-"));
  const file = join(dir, "down.json");
  writeFileSync(file, JSON.stringify(PAY_TWICE_503));
  const started = await serve(["--port", "0", "--scenario", file]);
  try {
    assert.match(started.output(), new RegExp(`scenario: ${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
    const url = `${started.origin}/__orderpay/scenario`;
    assert.deepEqual((await call(url)).body.data.scenario.document, PAY_TWICE_503);
    assert.equal((await order(started.url)).status, 503);
    await call(`${started.origin}/__orderpay/reset`, "POST", {});
    assert.deepEqual((await call(url)).body.data.scenario.rules, [{ name: "down twice", seen: 0, fired: 0 }]);
  } finally {
    await stop(started);
  }
  const preset = await serve(["--port", "0", "--scenario", "insufficient-funds"]);
  try {
    assert.equal((await call(`${preset.origin}/__orderpay/scenario`)).body.data.scenario.document.name, "insufficient-funds");
  } finally {
    await stop(preset);
  }
});

test("with --latency, a third party's timeout is waited out in real time before its decline", async () => {
  const dir = mkdtempSync(join(tmpdir(), "orderpay-scenario-"));
  const file = join(dir, "timeout.json");
  writeFileSync(file, JSON.stringify({ rules: [{ when: { route: "/api/payment/pay" }, then: { kind: "timeout", afterMs: 20000 } }] }));
  const slow = await serve(["--port", "0", "--failure-rate", "0", "--latency", "0.01", "--scenario", file]);
  try {
    const created = await order(slow.url);
    const started = performance.now();
    const paid = await call(`${slow.url}/api/payment/pay`, "POST", { orderId: created.body.data.orderId, amount: 5, paymentMethod: "CARD" });
    const took = performance.now() - started;
    assert.deepEqual(paid.body, { code: -1, msg: "Third party payment failed", data: null });
    assert.equal(paid.headers["x-orderpay-fault"], "timeout");
    assert.ok(Number(paid.headers["x-sim-duration-ms"]) >= 20000);
    assert.ok(took >= 190, `20 s of simulated time at --latency 0.01 is at least 200 ms of real time: ${took} ms`);
  } finally {
    await stop(slow);
  }
});

test("--state keeps the scenario and its progress across a restart; --scenario given with it replaces the saved one", async () => {
  const dir = mkdtempSync(join(tmpdir(), "orderpay-scenario-"));
  const state = join(dir, "state.json");
  const first = await serve(["--port", "0", "--state", state]);
  await call(`${first.origin}/__orderpay/scenario`, "PUT", JSON.stringify("rate-limited"));
  await order(first.url);
  await stop(first);
  const again = await serve(["--port", "0", "--state", state]);
  try {
    const { scenario } = (await call(`${again.origin}/__orderpay/scenario`)).body.data;
    assert.equal(scenario.document.name, "rate-limited");
    assert.equal(scenario.rules[0].seen, 1, "its progress too");
  } finally {
    await stop(again);
  }
  const replaced = await serve(["--port", "0", "--state", state, "--scenario", "insufficient-funds"]);
  try {
    assert.equal((await call(`${replaced.origin}/__orderpay/scenario`)).body.data.scenario.document.name, "insufficient-funds");
  } finally {
    await stop(replaced);
  }
});

test("--scenario mistakes stop the command with exit code 2, naming the option", async () => {
  const dir = mkdtempSync(join(tmpdir(), "orderpay-scenario-"));
  const bad = join(dir, "bad.json");
  writeFileSync(bad, JSON.stringify({ rules: [{ when: { every: 0 }, then: { kind: "http", status: 503 } }] }));
  const notJson = join(dir, "not.json");
  writeFileSync(notJson, "{rules");
  const cases = [
    [["--scenario", join(dir, "missing.json")], /^orderpay: --scenario: no file .*missing\.json$/m],
    [["--scenario", "no-such-preset"], /^orderpay: --scenario: expected .*preset.*"no-such-preset"/m],
    [["--scenario", bad], /^orderpay: --scenario: rules\[0\]\.when\.every: /m],
    [["--scenario", notJson], /^orderpay: --scenario: .*not\.json is not JSON/m],
    [["--scenario"], /^orderpay: --scenario: needs a value$/m],
  ];
  for (const [args, message] of cases) {
    const { code, output } = await serveFails(["--port", "0", ...args]);
    assert.equal(code, 2, output);
    assert.match(output, message);
  }
});

test("docs/network-faults.md's Node example against the server runs as written: fetch failed, ECONNRESET", () => {
  const [example] = examples("network-faults-server");
  assert.ok(example, "docs/network-faults.md has the example");
  const code = example.replaceAll("http://127.0.0.1:4010", server.origin);
  const out = execFileSync("node", ["--input-type=module", "-e", code], { encoding: "utf8", timeout: 15_000 });
  assert.equal(out.trim(), "fetch failed ECONNRESET");
});
