// service.exportTest("curl") run by bash against a real `orderpay serve`
// on 127.0.0.1: the typical flow and the three failure stories of
// tests/node/copy-stories.mjs each pass as copied, twice in the same
// session (the script resets it), and a script whose expected answer
// (or what an admin call changed) is changed fails, naming its step. GET
// /__orderpay/export-test answers a bad format with a 400 and any other
// refusal with a 409.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";

import { Service } from "../../pkg/index.js";
import { adminRoutes } from "../../pkg/server/admin.js";
import { STORIES } from "../node/copy-stories.mjs";
import { serve, stop } from "./serve.mjs";

let server;
const dir = mkdtempSync(join(tmpdir(), "orderpay-copied-curl-"));
before(async () => {
  server = await serve(["--port", "0"]);
});
after(() => stop(server));

function runScript(name, text, session, env = { ORDERPAY_URL: server.origin }) {
  const file = join(dir, `${name}.sh`);
  writeFileSync(file, text);
  return spawnSync("bash", [file], { encoding: "utf8", env: { ...process.env, ORDERPAY_SESSION: session, ...env } });
}

for (const [name, story] of Object.entries(STORIES)) {
  test(`the curl copy of "${name}" passes against orderpay serve, and again on a rerun`, () => {
    const service = story(Service);
    const script = service.exportTest("curl");
    service.free();
    for (const round of [1, 2]) {
      const ran = runScript(name, script, `copied-${name}`);
      assert.equal(ran.status, 0, `round ${round}:\n${ran.stdout}\n${ran.stderr}`);
      assert.match(ran.stdout, /^ok: \d+ steps answered as in the run$/m);
    }
  });
}

test("a curl copy whose expected answer is not the server's fails at that step, numbered as the Vitest copy numbers it", () => {
  const service = STORIES["declined-then-replayed"](Service);
  const script = service.exportTest("curl").replace("header x-orderpay-decline-code 'insufficient_funds'", "header x-orderpay-decline-code 'card_declined'");
  const [, n] = /^ {2}\/\/ (\d+)\. POST \/api\/payment\/pay$/m.exec(service.exportTest("vitest"));
  service.free();
  assert.equal(n, "3", "the order, the scenario, then the pay");
  const ran = runScript("changed", script, "copied-changed");
  assert.equal(ran.status, 1);
  assert.match(ran.stderr, new RegExp(`^step ${n}: expected the header x-orderpay-decline-code: card_declined`, "m"));
});

test("a curl copy's admin calls are checked too, each failure naming its own step: a clock move's changes, a challenge's failureCode", () => {
  const pending = STORIES["outage-then-pending"](Service);
  const settled = pending.exportTest("curl");
  pending.free();
  const [, n, line, id] = /^step=(\d+) {4}# \d+\. advance\(30000\)\nadmin -X POST "\$A\/advance" .*\n(changes \d+ '(PAY-\S+) PENDING SUCCESS')$/m.exec(settled) ?? [];
  assert.ok(line, settled);
  const unsettled = runScript("unsettled", settled.replace(line, line.replace("SUCCESS", "FAILED")), "copied-unsettled");
  assert.equal(unsettled.status, 1);
  assert.match(unsettled.stderr, new RegExp(`^step ${n}: expected the change ${id} PENDING → FAILED`, "m"));
  const challenged = STORIES["challenge-abandoned"](Service);
  const abandoned = challenged.exportTest("curl");
  challenged.free();
  const [, m] = /^step=(\d+) {4}# \d+\. completeChallenge\(/m.exec(abandoned) ?? [];
  const failed = runScript("abandoned", abandoned.replace(`grep -qF '"failureCode":"authentication_required"' "$out/a"`, `grep -qF '"failureCode":"card_declined"' "$out/a"`), "copied-abandoned");
  assert.equal(failed.status, 1);
  assert.match(failed.stderr, new RegExp(`^step ${m}: expected the challenged payment's failureCode`, "m"));
});

test("GET /__orderpay/export-test gives a session's run as a script that passes, and names a bad format", async () => {
  const session = `${server.origin}/s/exported`;
  const created = await fetch(`${session}/api/order/create`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"userId":"u-1","price":5}' });
  const { orderId } = (await created.json()).data;
  await fetch(`${server.origin}/__orderpay/sessions/exported/force-next`, { method: "POST", body: '{"outcome":"failure"}' });
  await fetch(`${session}/api/payment/pay`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ orderId, amount: 5, paymentMethod: "CARD" }) });
  const exported = await fetch(`${server.origin}/__orderpay/sessions/exported/export-test?format=curl`);
  assert.equal(exported.status, 200);
  const script = await exported.text();
  assert.match(script, /force-next/);
  assert.match(script, new RegExp(`"orderId":"${orderId}"`));
  const ran = runScript("exported", script, "exported-replay");
  assert.equal(ran.status, 0, `${ran.stdout}\n${ran.stderr}`);
  const bad = await fetch(`${server.origin}/__orderpay/export-test?format=jest`);
  assert.equal(bad.status, 400);
  assert.match((await bad.json()).msg, /^format: expected "vitest", "playwright" or "curl", got "jest"/);
  // A session given a snapshot has no calls to copy: a 409 in an HTTP client's terms.
  const snapshot = await (await fetch(`${server.origin}/__orderpay/sessions/exported/snapshot`)).text();
  const put = await fetch(`${server.origin}/__orderpay/sessions/restored/snapshot`, { method: "PUT", body: snapshot });
  assert.equal(put.status, 200);
  const refused = await fetch(`${server.origin}/__orderpay/sessions/restored/export-test`);
  assert.equal(refused.status, 409);
  assert.match((await refused.json()).msg, /^export-test: this session's state came from a snapshot .*reset the session \(POST \/__orderpay\/reset\)/);
});

test("a curl copy runs against a server whose admin API asks for a token, given ORDERPAY_ADMIN_TOKEN", async () => {
  const guarded = await serve(["--port", "0", "--admin-token", "copied-secret"]);
  try {
    const service = STORIES.typical(Service);
    const script = service.exportTest("curl");
    service.free();
    const refused = runScript("guarded", script, "copied-guarded", { ORDERPAY_URL: guarded.origin });
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, /admin answered 401/);
    const ran = runScript("guarded", script, "copied-guarded", { ORDERPAY_URL: guarded.origin, ORDERPAY_ADMIN_TOKEN: "copied-secret" });
    assert.equal(ran.status, 0, `${ran.stdout}\n${ran.stderr}`);
  } finally {
    await stop(guarded);
  }
});

test("GET /__orderpay/export-test: only a bad format is a 400; any other TypeError of the export is a 409 with its message", () => {
  // A freed service's TypeError, the one besides the format's that exportTest throws, asked of the route in this process.
  const service = new Service({ seed: 1 });
  service.free();
  const [, , , route] = adminRoutes({ instance: { service } }).find(([, , id]) => id === "exportTest");
  const answer = (format) => {
    const res = { writeHead: (status) => (res.status = status), end: (text) => (res.body = JSON.parse(text)) };
    route({}, res, new URLSearchParams(format === undefined ? "" : `format=${format}`), {});
    return [res.status, res.body.msg];
  };
  assert.deepEqual(answer(), [409, "orderpay: service: this Service was freed by free(); make a new one"]);
  assert.deepEqual(answer("jest"), [400, 'format: expected "vitest", "playwright" or "curl", got "jest"']);
});
