// --state FILE across restarts and crashes, and the graceful stop: the
// state survives a restart and a kill -9 in the middle of writing, a
// corrupt or newer file is refused by name, and SIGTERM lets the requests
// in flight finish before it saves and exits.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";

import { call, root, serve, serveFails, stop } from "./serve.mjs";

const scratch = () => mkdtempSync(join(tmpdir(), "orderpay-state-"));
const create = (server, userId, price = 3) => call(`${server.url}/api/order/create`, "POST", { userId, price });

test("the state survives a graceful restart: orders, settings and a pending forceNext", async () => {
  const file = join(scratch(), "state.json");
  const first = await serve(["--port", "0", "--seed", "11", "--state", file]);
  assert.match(first.output(), /state: .*state\.json \(new\)/);
  const id = (await create(first, "u1")).body.data.orderId;
  await call(`${first.origin}/__orderpay/force-next`, "POST", { outcome: "failure", count: 2 });
  const stopped = await stop(first, "SIGINT");
  assert.equal(stopped.code, 0);
  assert.match(first.output(), /state saved to/);

  const second = await serve(["--port", "0", "--state", file]);
  try {
    assert.match(second.output(), /\(restored\)/);
    assert.equal((await call(`${second.url}/api/order/${id}`)).body.data.orderId, id);
    assert.deepEqual((await call(`${second.origin}/__orderpay/settings`)).body.data.forced, { outcome: "failure", remaining: 2 });
    assert.equal((await call(`${second.origin}/__orderpay/settings`)).body.data.settings.seed, 11);
  } finally {
    await stop(second);
  }
});

test("kill -9 while it writes never leaves a torn file, and loses at most about a second", async () => {
  const dir = scratch();
  const file = join(dir, "state.json");
  for (let round = 0; round < 3; round++) {
    const server = await serve(["--port", "0", "--state", file]);
    const made = [];
    let going = true;
    // Keep it busy (and writing) until the kill.
    const load = (async () => {
      while (going) {
        const reply = await create(server, `k${round}-${made.length}`).catch(() => null);
        if (!reply) break;
        made.push({ id: reply.body.data.orderId, at: Date.now() });
        if (made.length % 50 === 0) await call(`${server.url}/api/test/order/batch?count=50`).catch(() => null);
      }
    })();
    await new Promise((r) => setTimeout(r, 1500 + round * 400));
    server.proc.kill("SIGKILL");
    const killedAt = Date.now();
    going = false;
    await load;
    await server.exited;

    const text = readFileSync(file, "utf8");
    assert.doesNotThrow(() => JSON.parse(text), `round ${round}: the file parses`);
    // It restores, and holds every order made more than ~1 s before the kill.
    const next = await serve(["--port", "0", "--state", file]);
    try {
      const old = made.filter((m) => m.at < killedAt - 1200);
      assert.ok(old.length > 0, `round ${round}: some orders are old enough to check`);
      for (const m of [old[0], old.at(-1)]) {
        assert.equal((await call(`${next.url}/api/order/${m.id}`)).body.data?.orderId, m.id, `round ${round}: ${m.id}`);
      }
    } finally {
      await stop(next);
    }
  }
});

test("a corrupt state file, or one from a newer version, is refused by name and left alone", async () => {
  const dir = scratch();
  const corrupt = join(dir, "corrupt.json");
  writeFileSync(corrupt, '{"format": 1, "orders": [tr');
  const a = await serveFails(["--port", "0", "--state", corrupt]);
  assert.equal(a.code, 1);
  assert.match(a.output, new RegExp(`--state ${corrupt}: not a saved state`));
  assert.equal(readFileSync(corrupt, "utf8"), '{"format": 1, "orders": [tr');

  const good = join(dir, "good.json");
  const server = await serve(["--port", "0", "--state", good]);
  await create(server, "u");
  await stop(server);
  const newer = join(dir, "newer.json");
  const state = JSON.parse(readFileSync(good, "utf8"));
  state.format += 1;
  writeFileSync(newer, JSON.stringify(state));
  const b = await serveFails(["--port", "0", "--state", newer]);
  assert.equal(b.code, 1);
  assert.match(b.output, new RegExp(`--state ${newer}: written by a newer version of orderpay`));

  const wrong = join(dir, "wrong.json");
  writeFileSync(wrong, '{"something": "else"}');
  const c = await serveFails(["--port", "0", "--state", wrong]);
  assert.equal(c.code, 1);
  assert.match(c.output, new RegExp(`--state ${wrong}: not a usable saved state`));
});

test("SIGTERM lets the requests in flight finish, then saves and exits 0", async () => {
  const file = join(scratch(), "state.json");
  // --latency waits out the simulated time: a batch of 10 takes over a second.
  const server = await serve(["--port", "0", "--latency", "--state", file]);
  const inFlight = [
    call(`${server.url}/api/test/order/batch?count=10`),
    call(`${server.url}/api/order/create`, "POST", { userId: "late", price: 1 }),
  ];
  // A page following the log: its event stream never ends by itself, and must not hold the stop.
  const events = await fetch(`${server.origin}/__orderpay/events`);
  const streamEnded = events.text().then(() => true, () => true);
  await new Promise((r) => setTimeout(r, 300));
  const started = Date.now();
  server.proc.kill("SIGTERM");
  const [batch, single] = await Promise.all(inFlight);
  assert.equal(batch.status, 200);
  assert.equal(batch.body.data.count, 10);
  assert.equal(single.body.code, 0);
  const { code } = await server.exited;
  assert.equal(code, 0);
  assert.ok(await streamEnded);
  // The stream is ended by the stop: the server does not wait out its grace time (10 s) for it,
  // which it would say it did.
  assert.doesNotMatch(server.output(), /requests still running after/, `exited ${Date.now() - started} ms after SIGTERM, held by the event stream`);
  assert.match(server.output(), /SIGTERM: finishing the requests in flight[\s\S]*state saved to[\s\S]*stopped/);
  // New connections are refused once it is stopping.
  await assert.rejects(fetch(`${server.url}/api/order/ORD-NOPE0000`));
  const saved = JSON.parse(readFileSync(file, "utf8"));
  assert.ok(JSON.stringify(saved).includes(batch.body.data.orderIds[9]), "the batch's orders were saved");
});

test("a second signal stops at once, without waiting for the requests in flight", async () => {
  const server = await serve(["--port", "0", "--latency"]);
  const slow = call(`${server.url}/api/test/order/batch?count=100`).catch(() => null);
  await new Promise((r) => setTimeout(r, 300));
  server.proc.kill("SIGINT");
  await new Promise((r) => setTimeout(r, 100));
  server.proc.kill("SIGINT");
  const { code } = await server.exited;
  assert.equal(code, 130);
  assert.match(server.output(), /SIGINT again; stopping now/);
  assert.equal(await slow, null, "the batch, which waits seconds, got no answer");
});

test("a state file is restored once, and the service that restored it is the one served", async () => {
  const { Service } = await import(join(root, "pkg", "node.js"));
  const { StateFile } = await import(join(root, "pkg", "server", "state.js"));
  const file = join(scratch(), "once.json");
  const saved = new Service({ seed: 12 });
  saved.handle("POST", "/api/order/create", { userId: "u", price: 3 });
  writeFileSync(file, saved.snapshot());
  const restore = Service.restore;
  let restores = 0;
  Service.restore = (text) => {
    restores += 1;
    return restore.call(Service, text);
  };
  try {
    const restored = StateFile.load(file);
    assert.ok(restored instanceof Service);
    assert.equal(restored.snapshot(), saved.snapshot());
    assert.equal(restores, 1);
    restored.free();
  } finally {
    Service.restore = restore;
    saved.free();
  }
});
