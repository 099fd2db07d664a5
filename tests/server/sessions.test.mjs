// Sessions of `orderpay serve` over real HTTP: each of the three ways to
// pick one (header, /s/NAME/ prefix, cookie), isolation under 200 parallel
// clients on 20 sessions with forced outcomes, bad names refused, the
// bounds (--max-sessions, --session-idle), the sessions kept by --state
// across a graceful restart and a kill -9, and the admin routes of one
// session.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";

import { examples } from "../docs.mjs";
import { call, serve, stop } from "./serve.mjs";

let server;
before(async () => {
  server = await serve(["--port", "0", "--seed", "21"]);
});
after(() => stop(server));

const JSON_TYPE = { "content-type": "application/json" };
const as = (session) => (session === null ? {} : { "x-orderpay-session": session });
const create = (base, headers = {}, userId = "u1") => call(`${base}/api/order/create`, "POST", { userId, price: 4 }, headers);
const read = (base, id, headers = {}) => call(`${base}/api/order/${id}`, "GET", undefined, headers);
const admin = (path, method = "GET", body, headers = {}) => call(`${server.origin}/__orderpay${path}`, method, body, headers);
const found = (reply) => reply.body.code === 0 && reply.body.data !== null;

test("a header, a /s/NAME/ prefix or a cookie picks the session; none picks the default, whose answers are unmarked", async () => {
  const plain = await create(server.url);
  assert.equal(plain.headers["x-orderpay-session"], undefined);
  assert.equal((await admin("/settings")).body.data.settings.seed, 21, "the default session has the server's seed");

  const byHeader = await create(server.url, as("hdr"));
  assert.equal(byHeader.headers["x-orderpay-session"], "hdr");
  const hid = byHeader.body.data.orderId;
  const byPath = await create(`${server.origin}/s/pth`);
  const pid = byPath.body.data.orderId;
  assert.equal(byPath.headers["x-orderpay-session"], "pth");

  const enter = await fetch(`${server.origin}/s/ck/`, { redirect: "manual" });
  assert.equal(enter.status, 303);
  assert.equal(enter.headers.get("location"), "/");
  const cookie = enter.headers.get("set-cookie");
  assert.match(cookie, /^orderpay-session=ck; Path=\/; SameSite=Lax$/);
  const byCookie = await create(server.url, { cookie: `theme=dark; ${cookie.split(";")[0]}` });
  const cid = byCookie.body.data.orderId;
  assert.match((await fetch(`${server.origin}/s/default/`, { redirect: "manual" })).headers.get("set-cookie"), /Max-Age=0/);

  // Each order is in its own session, whichever way names it, and in no other.
  for (const [id, session] of [[hid, "hdr"], [pid, "pth"], [cid, "ck"]]) {
    assert.ok(found(await read(server.url, id, as(session))), `${id} in ${session}`);
    assert.ok(found(await read(`${server.origin}/s/${session}`, id)), `${id} in /s/${session}/`);
    assert.ok(!found(await read(server.url, id)), `${id} not in the default session`);
    for (const other of ["hdr", "pth", "ck"].filter((s) => s !== session)) {
      assert.ok(!found(await read(server.url, id, as(other))), `${id} not in ${other}`);
    }
  }
  assert.ok(!found(await read(server.url, plain.body.data.orderId, as("hdr"))));
  // The prefix comes first, then the header, then the cookie.
  assert.ok(found(await read(`${server.origin}/s/pth`, pid, { ...as("hdr"), cookie: "orderpay-session=ck" })));
  assert.ok(found(await read(server.url, hid, { ...as("hdr"), cookie: "orderpay-session=ck" })));
  // A session's seed comes from the server's and its name: other ids than the default's, the same for the same name.
  assert.notEqual(hid, plain.body.data.orderId);
  assert.equal((await admin("/sessions/hdr", "DELETE")).status, 200);
  assert.equal((await create(server.url, as("hdr"))).body.data.orderId, hid, "made again, the same name gives the same ids");
});

/** One client: create, pay (forced by the session's forceNext), create, pay with X-Sim-Outcome: failure. Its trace ids. */
async function client(session, i) {
  const headers = as(session);
  const traces = [];
  const step = async (path, body, extra = {}) => {
    const reply = await call(`${server.url}${path}`, "POST", body, { ...headers, ...extra });
    assert.equal(reply.status, 200, `${session} ${path}: ${JSON.stringify(reply.body)}`);
    traces.push(reply.headers["x-b3-traceid"]);
    return reply.body;
  };
  const orders = [];
  for (const outcome of [null, "failure"]) {
    const order = await step("/api/order/create", { userId: `${session}-${i}`, price: 7 });
    orders.push(order.data.orderId);
    const pay = await step("/api/payment/pay", { orderId: order.data.orderId, amount: 7, paymentMethod: "CARD" },
      outcome ? { "x-sim-outcome": outcome } : {});
    if (outcome) assert.equal(pay.code, -1, `${session}: X-Sim-Outcome failure`);
  }
  return { session, traces, orders };
}

test("200 parallel clients on 20 sessions: no session sees another's orders, records or forced outcomes", async () => {
  const sessions = Array.from({ length: 20 }, (_, i) => `iso-${String(i).padStart(2, "0")}`);
  const before = (await admin("/counters")).body.data.counters.requests;
  // Even sessions: the next 3 attempts fail (by the sessions path); odd ones: succeed (by the header on the plain route).
  for (const [i, name] of sessions.entries()) {
    const outcome = i % 2 === 0 ? "failure" : "success";
    const reply = i % 2 === 0
      ? await admin(`/sessions/${name}/force-next`, "POST", { outcome, count: 3 })
      : await admin("/force-next", "POST", { outcome, count: 3 }, as(name));
    assert.deepEqual(reply.body.data.forced, { outcome, remaining: 3 });
  }
  const clients = await Promise.all(Array.from({ length: 200 }, (_, i) => client(sessions[i % 20], i)));

  for (const [i, name] of sessions.entries()) {
    const mine = clients.filter((c) => c.session === name);
    const counters = (await admin(`/sessions/${name}/counters`)).body.data.counters;
    assert.equal(counters.requests, 40, name);
    assert.equal(counters.payments.attempts, 20, name);
    const forced = counters.payments.byRule["forced-next"];
    assert.deepEqual(forced, i % 2 === 0 ? { approved: 0, declined: 3 } : { approved: 3, declined: 0 }, name);
    assert.deepEqual(counters.payments.byRule.header, { approved: 0, declined: 10 }, name);
    assert.equal((await admin(`/sessions/${name}/settings`)).body.data.forced, null, `${name}: its forceNext used up`);
    // Its log holds exactly its clients' traces.
    const logged = new Set((await admin(`/sessions/${name}/logs`)).body.data.records.map((r) => r.traceId));
    assert.deepEqual([...logged].sort(), mine.flatMap((c) => c.traces).sort(), `${name}: its records`);
  }
  // Each session's orders are its own: the next session finds none of them.
  for (const [i, name] of sessions.entries()) {
    const next = sessions[(i + 1) % 20];
    for (const id of clients.filter((c) => c.session === name).flatMap((c) => c.orders).slice(0, 4)) {
      assert.ok(found(await read(server.url, id, as(name))));
      assert.ok(!found(await read(server.url, id, as(next))), `${id} of ${name} not in ${next}`);
    }
  }
  assert.equal((await admin("/counters")).body.data.counters.requests, before, "the default session saw none of it");
});

test("a bad session name is a 400 naming where it came from, and makes nothing", async () => {
  const count = (await admin("/sessions")).body.data.count;
  const cases = [
    [`${server.url}/api/order/create`, { "x-orderpay-session": "a b" }, /^session: X-Orderpay-Session: expected a session name of 1 to 64 characters.*got "a b"/],
    [`${server.url}/api/order/create`, { "x-orderpay-session": "x".repeat(65) }, /X-Orderpay-Session/],
    [`${server.url}/api/order/create`, { "x-orderpay-session": "" }, /X-Orderpay-Session.*got ""/],
    [`${server.url}/api/order/create`, { "x-orderpay-session": ".." }, /X-Orderpay-Session: expected a session name, got "\.\."/],
    [`${server.origin}/s/a%20b/api/order/create`, {}, /^session: the path prefix \/s\/NAME\/ .*got "a%20b"/],
    [`${server.origin}/s//api/order/create`, {}, /path prefix/],
    [`${server.url}/api/order/create`, { cookie: "orderpay-session=a/b" }, /^session: the cookie orderpay-session .*got "a\/b"/],
    [`${server.origin}/__orderpay/settings`, { "x-orderpay-session": "é" }, /X-Orderpay-Session/],
  ];
  for (const [url, headers, msg] of cases) {
    const reply = await call(url, "POST", { userId: "u1", price: 4 }, headers).catch((error) => ({ error }));
    if (reply.error) continue; // fetch itself refuses a header that is not ISO-8859-1
    assert.equal(reply.status, 400, url);
    assert.match(reply.body.msg, msg);
    assert.equal(reply.body.code, 400);
  }
  const adminPath = await admin("/sessions/a!b/settings");
  assert.equal(adminPath.status, 400);
  assert.match(adminPath.body.msg, /^session: .*got "a!b"/);
  assert.equal((await admin("/sessions")).body.data.count, count, "no session made");
});

test("the per-session admin routes act on that session alone", async () => {
  const s = "adm";
  await create(server.url, as(s));
  const forced = await admin(`/sessions/${s}/force-next`, "POST", { outcome: "failure", count: 2 });
  assert.deepEqual(forced.body.data.forced, { outcome: "failure", remaining: 2 });
  assert.equal((await admin("/settings")).body.data.forced, null);
  // The /s/NAME/ prefix reaches its admin routes too.
  const reset = await call(`${server.origin}/s/${s}/__orderpay/reset`, "POST", { virtualTime: 1767225600000 });
  assert.equal(reset.body.data.generation, 2);
  assert.equal((await admin(`/sessions/${s}/advance`, "POST", { ms: 60000 })).body.data.now, 1767225660000);
  assert.notEqual((await admin("/settings")).body.data.now, 1767225660000);
  const id = (await create(server.url, as(s))).body.data.orderId;
  const records = (await admin(`/sessions/${s}/logs`)).body.data.records;
  assert.equal(records.length, 3, "one request since the reset");
  assert.ok((await admin("/logs")).body.data.records.every((r) => r.traceId !== records[0].traceId));
  const snapshot = await fetch(`${server.origin}/__orderpay/sessions/${s}/snapshot`).then((r) => r.text());
  assert.equal((await admin(`/sessions/${s}/reset`, "POST", {})).status, 200);
  assert.ok(!found(await read(server.url, id, as(s))));
  assert.equal((await admin(`/sessions/${s}/snapshot`, "PUT", snapshot)).status, 200);
  assert.ok(found(await read(server.url, id, as(s))), "restored from its snapshot");

  const listed = (await admin("/sessions")).body.data;
  assert.equal(listed.sessions[0].name, "default");
  const mine = listed.sessions.find((x) => x.name === s);
  assert.equal(mine.ordersCreated, 1);
  assert.deepEqual((await admin(`/sessions/${s}`)).body.data.name, s);
  assert.equal((await admin(`/sessions/${s}`, "DELETE")).status, 200);
  assert.equal((await admin(`/sessions/${s}`)).status, 404);
  assert.equal((await admin(`/sessions/${s}`, "DELETE")).status, 404);
  assert.match((await admin("/sessions/default", "DELETE")).body.msg, /default session cannot end/);
  assert.equal((await admin(`/sessions/${s}/health`)).status, 404, "health is the server's");
});

test("--max-sessions refuses a new session naming the option; --session-idle ends an idle one and says so", async () => {
  const small = await serve(["--port", "0", "--seed", "21", "--max-sessions", "2", "--session-idle", "1s"]);
  try {
    const first = await create(small.url, as("hdr"));
    assert.equal(first.status, 200);
    // The same server seed and name as the shared server's: the same first id.
    assert.equal(first.body.data.orderId, (await read(server.url, first.body.data.orderId, as("hdr"))).body.data.orderId);
    assert.equal((await create(small.url, as("b"))).status, 200);
    const refused = await create(small.url, as("c"));
    assert.equal(refused.status, 503);
    assert.match(refused.body.msg, /^session "c": not made.*--max-sessions 2/);
    assert.equal((await call(`${small.origin}/__orderpay/sessions/c/settings`)).status, 503);
    assert.equal((await create(small.url)).status, 200, "the default session is not counted");
    assert.equal((await call(`${small.origin}/__orderpay/sessions/b`, "DELETE")).status, 200);
    assert.equal((await create(small.url, as("c"))).status, 200, "room again once one ended");
    const deadline = Date.now() + 8000;
    let names;
    do {
      await new Promise((r) => setTimeout(r, 250));
      names = (await call(`${small.origin}/__orderpay/sessions`)).body.data.sessions.map((x) => x.name);
    } while (names.length > 1 && Date.now() < deadline);
    assert.deepEqual(names, ["default"]);
    assert.match(small.output(), /session "hdr" ended: idle for \d+ s \(--session-idle 1000 ms\)/);
    assert.match(small.output(), /session "c" ended: idle/);
  } finally {
    await stop(small);
  }
});

test("--state keeps every session across a graceful restart and a kill -9; an ended one stays ended", async () => {
  const file = join(mkdtempSync(join(tmpdir(), "orderpay-sessions-")), "state.json");
  const first = await serve(["--port", "0", "--seed", "9", "--state", file]);
  const ids = {};
  for (const name of [null, "a", "b", "gone"]) ids[name] = (await create(first.url, as(name))).body.data.orderId;
  await call(`${first.origin}/__orderpay/sessions/a/force-next`, "POST", { outcome: "failure", count: 2 });
  await call(`${first.origin}/__orderpay/sessions/gone`, "DELETE");
  assert.equal((await stop(first)).code, 0);
  assert.ok(!existsSync(`${file}.sessions/gone.json`));

  const second = await serve(["--port", "0", "--state", file]);
  try {
    assert.match(second.output(), /sessions: 2 restored/);
    for (const name of [null, "a", "b"]) assert.ok(found(await read(second.url, ids[name], as(name))), `${name}`);
    assert.ok(!found(await read(second.url, ids.a, as("b"))));
    assert.deepEqual((await call(`${second.origin}/__orderpay/sessions/a/settings`)).body.data.forced, { outcome: "failure", remaining: 2 });
    // A new session's order, kept within about half a second, survives a kill -9.
    ids.c = (await create(second.url, as("c"))).body.data.orderId;
    await new Promise((r) => setTimeout(r, 1200));
  } finally {
    second.proc.kill("SIGKILL");
    await second.exited;
  }
  const third = await serve(["--port", "0", "--state", file]);
  try {
    const names = (await call(`${third.origin}/__orderpay/sessions`)).body.data.sessions.map((x) => x.name).sort();
    assert.deepEqual(names, ["a", "b", "c", "default"]);
    assert.ok(found(await read(third.url, ids.c, as("c"))));
  } finally {
    await stop(third);
  }
});

test("docs/sessions.md's module gives each Jest or Vitest worker its own session", async () => {
  const dir = mkdtempSync(join(tmpdir(), "orderpay-workers-"));
  writeFileSync(join(dir, "orderpay.mjs"), examples("sessions-workers")[0].replaceAll("http://127.0.0.1:4010", server.origin));
  const worker = `import { admin, api, session } from "./orderpay.mjs";
    await fetch(admin + "/force-next", { method: "POST", body: JSON.stringify({ outcome: "failure", count: 1 }) });
    const order = await fetch(api + "/api/order/create", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ userId: session, price: 2 }) }).then((r) => r.json());
    console.log(session, order.data.orderId);`;
  writeFileSync(join(dir, "worker.mjs"), worker);
  const base = { ...process.env };
  delete base.VITEST_POOL_ID;
  delete base.JEST_WORKER_ID;
  const run = (env) => execFileSync("node", ["worker.mjs"], { cwd: dir, env: { ...base, ...env }, encoding: "utf8" });
  const outs = [run({ JEST_WORKER_ID: "3" }), run({ VITEST_POOL_ID: "4" })].map((o) => o.trim().split(" "));
  assert.deepEqual(outs.map(([name]) => name), ["worker-3", "worker-4"]);
  for (const [name, id] of outs) {
    assert.ok(found(await read(server.url, id, as(name))));
    assert.deepEqual((await admin(`/sessions/${name}`)).body.data.forced, { outcome: "failure", remaining: 1 });
  }
  assert.ok(!found(await read(server.url, outs[0][1], as("worker-4"))));
});
