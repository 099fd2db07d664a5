// The documentation's shell blocks (`<!-- shell: KIND -->` in README.md
// and docs/), run as written against `orderpay serve` started from the
// packed package with `npx`, as a user starts it. One change: the server
// gets a free port instead of 4010, and the commands' `localhost:4010`
// and `127.0.0.1:4010` name that port, so tests can run side by side.
// Every command must exit 0, and every envelope it prints must have code 0.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";

import { shellBlocks } from "../docs.mjs";
import { call, consumer, serve, stop } from "./serve.mjs";

const START = /^npx orderpay serve\b/;

/** The block's commands: continuation lines joined, blank and comment lines dropped. */
function commands(block) {
  return block
    .replace(/\\\n\s*/g, " ")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith("#"));
}

/** The options of the block's `npx orderpay serve` line, its port left out. */
function serveOptions(line) {
  const words = (line ?? "").replace(/#.*/, "").trim().split(/\s+/).slice(3);
  const at = words.indexOf("--port");
  if (at >= 0) words.splice(at, 2);
  return words;
}

/** Runs one block: { server, outputs: [[command, stdout]], cwd }; the caller stops the server. */
async function runBlock(block) {
  const lines = commands(block);
  const start = lines.find((line) => START.test(line));
  const server = await serve([...serveOptions(start), "--port", "0"], {
    command: ["npx", "--no-install", "orderpay"],
    cwd: consumer().dir,
  });
  const host = new URL(server.url).host;
  const cwd = mkdtempSync(join(tmpdir(), "orderpay-docs-shell-"));
  const assignments = [];
  const outputs = [];
  try {
    for (const line of lines.filter((l) => l !== start)) {
      const text = line.replace(/\b(localhost|127\.0\.0\.1):4010\b/g, host);
      if (/^[A-Za-z_]\w*=\S+(\s+#.*)?$/.test(text)) {
        assignments.push(text);
        continue;
      }
      const out = execFileSync("sh", ["-c", [...assignments, text].join("\n")], { cwd, encoding: "utf8", timeout: 15_000 });
      outputs.push([line, out]);
      let answer = null;
      try {
        answer = JSON.parse(out);
      } catch {
        /* NDJSON, or nothing printed: not an envelope */
      }
      if (answer && typeof answer === "object" && "code" in answer) assert.equal(answer.code, 0, `${line}\n${out}`);
    }
  } catch (error) {
    await stop(server);
    throw error;
  }
  return { server, outputs, cwd };
}

/** The one block of a kind (tests/node/docs.test.mjs checks there is no second). */
const only = (blocks) => {
  assert.equal(blocks.length, 1, "one block of its kind in the documentation");
  return blocks[0];
};

test("the README's `npx orderpay serve` with curl runs as written", async () => {
  const { server, outputs } = await runBlock(only(shellBlocks("serve")));
  try {
    const [[, created]] = outputs;
    assert.equal(JSON.parse(created).data.status, "CREATED");
    const logs = (await call(`${server.origin}/__orderpay/logs`)).body.data.records;
    assert.deepEqual(logs.filter((r) => r.stage === "response").map((r) => r.uri), ["/api/order/create"]);
  } finally {
    await stop(server);
  }
});

test("the README's failed payments over HTTP run as written: three forced declines", async () => {
  const { server, outputs } = await runBlock(only(shellBlocks("failures")));
  try {
    const batch = JSON.parse(outputs.at(-1)[1]).data;
    assert.deepEqual([batch.count, batch.succeeded, batch.failed], [3, 0, 3]);
    const { settings } = (await call(`${server.origin}/__orderpay/settings`)).body.data;
    assert.equal(settings.seed, 7);
    assert.equal(settings.failureRate, 0.5);
  } finally {
    await stop(server);
  }
});

test("the admin API's commands of docs/server.md run as written", async () => {
  const { server, outputs, cwd } = await runBlock(only(shellBlocks("admin")));
  try {
    assert.ok(outputs.length >= 10, "every command ran");
    assert.ok(existsSync(join(cwd, "state.json")), "the snapshot was written to state.json");
    const { settings, forced } = (await call(`${server.origin}/__orderpay/settings`)).body.data;
    assert.equal(settings.seed, 7);
    assert.deepEqual(forced, { outcome: "failure", remaining: 3 });
  } finally {
    await stop(server);
  }
});

test("the network faults' commands of docs/network-faults.md run as written: curl meets the reset", async () => {
  const { server, outputs } = await runBlock(only(shellBlocks("network-faults")));
  try {
    const [, [, sent], [, progress]] = outputs;
    assert.equal(sent.trim(), "curl exited 56");
    assert.deepEqual(JSON.parse(progress).data.scenario.rules, [{ name: "drop", seen: 1, fired: 1 }]);
    assert.equal((await call(`${server.origin}/__orderpay/scenario`)).body.data.scenario, null);
  } finally {
    await stop(server);
  }
});

test("the sessions' commands of docs/sessions.md run as written: each session apart, one ended", async () => {
  const { server, outputs } = await runBlock(only(shellBlocks("sessions")));
  try {
    assert.equal(outputs.length, 6, "every command ran");
    const worker2Logs = JSON.parse(outputs[3][1]).data.records;
    assert.deepEqual(worker2Logs.filter((r) => r.stage === "response").map((r) => r.uri), ["/api/order/create"]);
    const listed = JSON.parse(outputs[4][1]).data.sessions.map((s) => [s.name, s.ordersCreated]);
    assert.deepEqual(listed, [["default", 0], ["worker-1", 1], ["worker-2", 1]]);
    const now = (await call(`${server.origin}/__orderpay/sessions`)).body.data.sessions;
    assert.deepEqual(now.map((s) => s.name), ["default", "worker-1"]);
    assert.deepEqual(now[1].forced, { outcome: "failure", remaining: 1 }, "worker-1's forceNext waits for its payment");
  } finally {
    await stop(server);
  }
});

test("the asynchronous payments' commands of docs/async-payments.md run as written: a challenge passed, a pending payment settled", async () => {
  const { server, outputs } = await runBlock(only(shellBlocks("async-payments")));
  try {
    const out = outputs.map(([, text]) => text);
    assert.equal(outputs.length, 11, "every command ran");
    const json = (i) => JSON.parse(out[i]);
    assert.equal(json(1).data.orderId, "ORD-I3486VY3");
    assert.deepEqual([json(2).data.paymentId, json(2).data.status], ["PAY-W98IIMV8", "REQUIRES_ACTION"]);
    assert.equal(out[3].trim(), "409");
    assert.match(out[4], /<title>orderpay test authentication<\/title>/);
    assert.deepEqual(json(5).data.challenges.map((p) => p.paymentId), ["PAY-W98IIMV8"]);
    assert.equal(json(6).data.payment.status, "SUCCESS");
    assert.deepEqual([json(7).data.paymentId, json(7).data.status], ["PAY-V7YT0Z30", "PENDING"]);
    assert.equal(json(8).data.status, "PENDING");
    assert.equal(json(10).data.status, "SUCCESS");
    assert.deepEqual((await call(`${server.origin}/__orderpay/challenges`)).body.data.challenges, []);
  } finally {
    await stop(server);
  }
});
