// The admin API under /__orderpay/: every route, its refusals, the token
// when the server listens beyond loopback, and the static files that must
// never serve anything outside the playground and the package.
import assert from "node:assert/strict";
import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import { join } from "node:path";
import { after, before, test } from "node:test";

import { call, root, serve, stop } from "./serve.mjs";

let server;
let admin;
before(async () => {
  server = await serve(["--port", "0", "--seed", "3"]);
  admin = (route) => `${server.origin}/__orderpay${route}`;
});
after(() => stop(server));

const order = (price = 5) => call(`${server.url}/api/order/create`, "POST", { userId: "u1", price });

test("health and the OpenAPI document need no token", async () => {
  const health = await call(admin("/health"));
  assert.equal(health.status, 200);
  assert.equal(health.body.data.status, "ok");
  assert.equal(health.body.data.service, "orderpay");
  const doc = await call(admin("/openapi.json"));
  assert.equal(doc.body.openapi, "3.1.0");
  // The spec's eight operations, and the challenge page's GET and POST.
  assert.equal(Object.values(doc.body.paths).flatMap(Object.keys).length, 10);
  assert.deepEqual(Object.keys(doc.body.paths["/api/payment/{paymentId}/challenge"]), ["get", "post"]);
  assert.equal(doc.body.servers[0].url, server.url);
});

test("logs with ?after=, NDJSON, spans by trace, OTLP/JSON", async () => {
  const before = (await call(admin("/logs"))).body.data.records;
  const last = before.at(-1)?.seq ?? 0;
  const created = await order();
  const fresh = (await call(admin(`/logs?after=${last}`))).body.data;
  assert.deepEqual(fresh.records.map((r) => r.stage), ["gateway", "service", "response"]);
  assert.ok(fresh.records.every((r) => r.seq > last));
  assert.equal(fresh.droppedLogs, 0);
  const ndjson = await fetch(admin("/logs.ndjson"));
  assert.equal(ndjson.headers.get("content-type"), "application/x-ndjson");
  const lines = (await ndjson.text()).trim().split("\n").map((l) => JSON.parse(l));
  assert.equal(lines.at(-1).seq, fresh.records.at(-1).seq);
  // Each line has the record's time as log stores index it, in ISO 8601.
  assert.equal(lines.at(-1)["@timestamp"], new Date(fresh.records.at(-1).timestamp).toISOString());
  const traceId = created.headers["x-b3-traceid"];
  const spans = (await call(admin(`/spans?traceId=${traceId}`))).body.data;
  assert.deepEqual(spans.map((s) => s.component).sort(), ["gateway", "order-service"]);
  const otlp = (await call(admin("/otlp"))).body;
  assert.ok(otlp.resourceSpans.some((r) => r.scopeSpans.some((s) => s.spans.some((sp) => sp.traceId === traceId))));
  assert.equal((await call(admin("/logs?after=x"))).body.msg, 'after: expected a whole number, got "x"');
  assert.equal((await call(admin("/spans?traceId=XYZ"))).status, 400);
});

test("spans by trace: the core checks the id, and refuses the all-zero one naming traceId", async () => {
  await order();
  for (const bad of ["0000000000000000", "00000000000000000000000000000000", "XYZ"]) {
    const refused = await call(admin(`/spans?traceId=${bad}`));
    assert.equal(refused.status, 400, bad);
    assert.deepEqual(refused.body, {
      code: 400,
      msg: `traceId: expected 16 or 32 lower-case hex digits, not all zeros, got ${JSON.stringify(bad)}`,
      data: null,
    });
  }
  assert.deepEqual((await call(admin("/spans?traceId=0123456789abcdef"))).body, { code: 0, msg: "success", data: [] });
});

test("/logs, /spans and /otlp answer the core's text: what JSON.stringify writes of it, byte for byte", async () => {
  const created = await order();
  await call(`${server.url}/api/order/create`, "POST", { userId: "ünï \"q\" \\ \n😀\u0001", price: 2 });
  for (const route of ["/logs", "/logs?after=1", `/spans?traceId=${created.headers["x-b3-traceid"]}`, "/spans", "/otlp"]) {
    const res = await fetch(admin(route));
    assert.equal(res.status, 200, route);
    assert.equal(res.headers.get("content-type"), "application/json", route);
    const text = await res.text();
    assert.equal(Buffer.byteLength(text), Number(res.headers.get("content-length")), route);
    assert.equal(text, JSON.stringify(JSON.parse(text)), route);
  }
});

test("forceNext drives the next payment attempts, and refuses a bad outcome naming it", async () => {
  const forced = await call(admin("/force-next"), "POST", { outcome: "failure", count: 2 });
  assert.deepEqual(forced.body.data.forced, { outcome: "failure", remaining: 2 });
  const id = (await order(7)).body.data.orderId;
  const pay = () => call(`${server.url}/api/payment/pay`, "POST", { orderId: id, amount: 7, paymentMethod: "CARD" });
  assert.equal((await pay()).body.msg, "Third party payment failed");
  assert.equal((await call(admin("/settings"))).body.data.forced.remaining, 1);
  const bad = await call(admin("/force-next"), "POST", { outcome: "maybe" });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.msg, 'outcome: expected "success" or "failure", got "maybe"');
  assert.equal((await call(admin("/settings"))).body.data.forced.remaining, 1, "a refused call changes nothing");
  assert.equal((await call(admin("/force-next"), "POST", "{oops")).status, 400);
  await call(admin("/force-next"), "POST", { outcome: "failure", count: 0 });
  assert.equal((await call(admin("/settings"))).body.data.forced, null);
});

test("snapshot read and replace; a text that is no snapshot is refused and changes nothing", async () => {
  const id = (await order(11)).body.data.orderId;
  const saved = await (await fetch(admin("/snapshot"))).text();
  await call(`${server.url}/api/order/delete/${id}`, "POST");
  assert.equal((await call(`${server.url}/api/order/${id}`)).body.msg, "Order not found");
  const replaced = await call(admin("/snapshot"), "PUT", saved);
  assert.equal(replaced.status, 200);
  assert.equal((await call(`${server.url}/api/order/${id}`)).body.data.orderId, id);
  const refused = await call(admin("/snapshot"), "PUT", '{"not":"a snapshot"}');
  assert.equal(refused.status, 400);
  assert.match(refused.body.msg, /^snapshot: /);
  assert.equal((await call(`${server.url}/api/order/${id}`)).body.data.orderId, id);
});

test("reset starts a fresh service with the body's options; advance moves a virtual clock", async () => {
  await order();
  const reset = await call(admin("/reset"), "POST", { seed: 9, failureRate: 1, virtualTime: 1700000000000 });
  assert.equal(reset.status, 200);
  assert.equal(reset.body.data.settings.seed, 9);
  assert.deepEqual((await call(admin("/logs"))).body.data.records, []);
  const advanced = await call(admin("/advance"), "POST", { ms: 60000 });
  assert.equal(advanced.body.data.now, 1700000060000);
  assert.equal((await call(admin("/advance"), "POST", { ms: -1 })).body.msg, "ms: expected a whole number of milliseconds from 0, got -1");
  const past = await call(admin("/advance"), "POST", { ms: 8640000000000000 });
  assert.equal(past.status, 400);
  assert.match(past.body.msg, /^ms: advancing by 8640000000000000 would move the clock past 8640000000000000/);
  assert.equal((await call(admin("/advance"), "POST", { ms: 0 })).body.data.now, 1700000060000, "a refused advance leaves the clock");
  const refused = await call(admin("/reset"), "POST", { failureRate: 3 });
  assert.equal(refused.status, 400);
  assert.match(refused.body.msg, /failureRate/);
  assert.equal((await call(admin("/settings"))).body.data.settings.seed, 9, "a refused reset changes nothing");
  await call(admin("/reset"), "POST");
  assert.equal((await call(admin("/settings"))).body.data.settings.seed, 3, "an empty reset goes back to the start options");
  await call(admin("/logs/clear"), "POST");
  assert.deepEqual((await call(admin("/logs"))).body.data.records, []);
});

test("counters over HTTP: every request counted whatever the log holds, zero again after a reset", async () => {
  await call(admin("/reset"), "POST", { logCapacity: 4, failureRate: 1 });
  const id = (await order(3)).body.data.orderId;
  for (let i = 0; i < 5; i++) await call(`${server.url}/api/payment/pay`, "POST", { orderId: id, amount: 3, paymentMethod: "CARD" });
  const { counters, droppedLogs, generation } = (await call(admin("/counters"))).body.data;
  assert.equal(counters.requests, 6);
  assert.deepEqual([counters.payments.attempts, counters.payments.declined], [5, 5]);
  assert.deepEqual(counters.payments.byRule.draw, { approved: 0, declined: 5 });
  assert.equal(counters.durations.payment.count, 5);
  assert.equal(droppedLogs, 18 - 4, "the log kept 4 of the 18 records");
  assert.equal(generation, (await call(admin("/health"))).body.data.generation);
  await call(admin("/reset"), "POST");
  const fresh = (await call(admin("/counters"))).body.data.counters;
  assert.deepEqual([fresh.requests, fresh.payments.attempts], [0, 0]);
});

test("unknown admin routes and methods: 404 listing the routes, 405 with allow", async () => {
  const unknown = await call(admin("/nope"));
  assert.equal(unknown.status, 404);
  assert.match(unknown.body.msg, /\/__orderpay\/logs/);
  const wrong = await call(admin("/reset"));
  assert.equal(wrong.status, 405);
  assert.equal(wrong.headers.allow, "POST");
});

test("the admin API is never given to a page of another origin", async () => {
  const pre = await fetch(admin("/reset"), {
    method: "OPTIONS",
    headers: { origin: "http://evil.example", "access-control-request-method": "POST" },
  });
  assert.equal(pre.status, 403);
  assert.equal(pre.headers.get("access-control-allow-origin"), null);
  const simple = await call(admin("/reset"), "POST", "{}", { origin: "http://evil.example", "content-type": "text/plain" });
  assert.equal(simple.status, 403);
  assert.equal(simple.headers["access-control-allow-origin"], undefined);
  // A DNS-rebinding page reaches 127.0.0.1 under its own host name.
  const rebound = await new Promise((resolve, reject) => {
    const req = httpRequest(admin("/logs"), { headers: { host: "evil.example:80" } }, (res) => {
      res.resume();
      resolve(res.statusCode);
    });
    req.on("error", reject);
    req.end();
  });
  assert.equal(rebound, 403);
  const same = await call(admin("/logs"), "GET", undefined, { origin: server.origin });
  assert.equal(same.status, 200);
});

test("beyond loopback the admin API wants the token: 401 without it, even from 127.0.0.1", async () => {
  const wide = await serve(["--port", "0", "--host", "0.0.0.0", "--admin-token", "s3cret-token"]);
  try {
    const port = new URL(wide.origin).port;
    const at = (route) => `http://127.0.0.1:${port}/__orderpay${route}`;
    const none = await call(at("/logs"));
    assert.equal(none.status, 401);
    assert.match(none.body.msg, /^Authorization: /);
    assert.equal(none.headers["www-authenticate"], 'Bearer realm="orderpay admin"');
    assert.equal((await call(at("/reset"), "POST", "{}", { authorization: "Bearer wrong-token!" })).status, 401);
    assert.equal((await call(at("/logs"), "GET", undefined, { authorization: "Bearer s3cret-token" })).status, 200);
    assert.equal((await call(at("/health"))).status, 200);
    // The gateway itself stays open.
    assert.equal((await call(`http://127.0.0.1:${port}/api/order/ORD-NOPE0000`)).body.msg, "Order not found");
  } finally {
    await stop(wide);
  }
  const generated = await serve(["--port", "0", "--host", "0.0.0.0"]);
  try {
    const token = /admin token \(generated\): (\S+)/.exec(generated.output())?.[1];
    assert.ok(token && token.length >= 20);
    const port = new URL(generated.origin).port;
    assert.equal((await call(`http://127.0.0.1:${port}/__orderpay/snapshot`)).status, 401);
    assert.equal((await call(`http://127.0.0.1:${port}/__orderpay/settings`, "GET", undefined, { authorization: `Bearer ${token}` })).status, 200);
  } finally {
    await stop(generated);
  }
});

/** A request line sent as written, with no client normalising the path. */
function rawGet(target) {
  return new Promise((resolve, reject) => {
    const { port } = new URL(server.origin);
    const socket = connect(Number(port), "127.0.0.1");
    let got = "";
    socket.on("data", (d) => (got += d));
    socket.on("error", reject);
    socket.on("end", () => resolve(got));
    socket.write(`GET ${target} HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n`);
  });
}

test("the static files: the playground and the package, and nothing outside them", async () => {
  assert.match(await rawGet("/"), /^HTTP\/1\.1 200 [\s\S]*<html/);
  assert.match(await rawGet("/pkg/orderpay_bg.wasm"), /^HTTP\/1\.1 200 [\s\S]*application\/wasm/);
  const attempts = [
    "/..%2f..%2f..%2f..%2fetc%2fpasswd",
    "/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
    "/%252e%252e/%252e%252e/etc/passwd",
    "/pkg/..%2fpackage.json",
    "/pkg/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
    "/..\\..\\etc\\passwd",
    "/%5c..%5c..%5cetc%5cpasswd",
    "//etc/passwd",
    "/etc/passwd",
    "/pkg//etc/passwd",
    "/index.html%00.png",
    "/pkg/orderpay.js%00",
    "/%c0%ae%c0%ae/etc/passwd",
    "/../../etc/passwd",
    "/pkg/../../../etc/passwd",
    "/pkg/playground/../../package.json",
    "http://127.0.0.1/../../etc/passwd",
  ];
  for (const target of attempts) {
    const answer = await rawGet(target);
    assert.match(answer, /^HTTP\/1\.1 (400|404) /, target);
    assert.doesNotMatch(answer, /root:|"dependencies"|"name": ?"consumer"/, target);
  }
});

/** Reads server-sent events from a stream: `next()` resolves with the next `{type, id, data}`. */
function eventReader(body) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  return async function next() {
    for (;;) {
      const end = buffer.indexOf("\n\n");
      if (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = { type: "message", id: null, data: "" };
        for (const line of block.split("\n")) {
          if (line.startsWith("event: ")) event.type = line.slice(7);
          else if (line.startsWith("id: ")) event.id = line.slice(4);
          else if (line.startsWith("data: ")) event.data += line.slice(6);
        }
        if (event.data) return { ...event, text: event.data, data: JSON.parse(event.data) };
        continue; // a comment
      }
      const { value, done } = await reader.read();
      if (done) throw new Error("the stream ended");
      buffer += value;
    }
  };
}

test("events: the log as server-sent events, from ?after= on, then each batch, and a reset as `replaced`", async () => {
  await call(admin("/reset"), "POST", {});
  await order(7);
  const controller = new AbortController();
  const reply = await fetch(admin("/events?after=0"), { signal: controller.signal });
  try {
    assert.equal(reply.status, 200);
    assert.match(reply.headers.get("content-type"), /^text\/event-stream/);
    const next = eventReader(reply.body);
    const first = await next();
    assert.equal(first.type, "records");
    assert.deepEqual(first.data.records.map((r) => r.stage), ["gateway", "service", "response"]);
    assert.equal(first.id, "3");
    // The core's text as it is: what JSON.stringify wrote of the same fields, in the same order.
    assert.equal(first.text, JSON.stringify(first.data));
    assert.deepEqual(Object.keys(first.data), ["records", "droppedLogs", "generation", "counters", "forced", "now", "virtualClock", "nextDueAt", "inProgress"]);
    // The clock as the core says it, and the payments in progress (none): what the page's Simulation panel draws.
    assert.deepEqual([first.data.virtualClock, first.data.nextDueAt, first.data.inProgress], [false, null, []]);
    // The counters a page redraws from come with the records: the same as the counters route's.
    assert.deepEqual(first.data.counters, (await call(admin("/counters"))).body.data.counters);
    // Requests close together: the first after a quiet spell goes out at once (a client awaiting its
    // records gets them with no wait), those after it within 50 ms together, each newer than the last sent.
    await Promise.all([order(8), order(9)]);
    const second = [await next()];
    while (second.at(-1).data.records.at(-1)?.seq !== 9) second.push(await next());
    assert.ok(second.every((e) => e.type === "records") && second.length <= 2, `${second.length} events`);
    assert.deepEqual(second.flatMap((e) => e.data.records.map((r) => r.seq)), [4, 5, 6, 7, 8, 9]);
    assert.equal(second.at(-1).id, "9");
    const burst = [];
    await Promise.all(Array.from({ length: 20 }, (_, i) => order(20 + i)));
    do burst.push(await next()); while (burst.at(-1).data.records.at(-1)?.seq !== 9 + 60);
    assert.equal(burst.flatMap((e) => e.data.records).length, 60);
    assert.ok(burst.length < 20, `20 requests at once came in ${burst.length} events`);
    // A reset elsewhere: `replaced`, then the new log from its start.
    await call(admin("/reset"), "POST", { seed: 11 });
    const replaced = await next();
    assert.equal(replaced.type, "replaced");
    assert.equal(replaced.data.settings.seed, 11);
    // With the new service's counts (nothing yet), so a page can redraw at once.
    const counted = await next();
    assert.deepEqual([counted.type, counted.data.records, counted.data.counters], ["records", [], (await call(admin("/counters"))).body.data.counters]);
    await order(10);
    const fresh = await next();
    assert.deepEqual(fresh.data.records.map((r) => r.seq), [1, 2, 3]);
    assert.equal(fresh.data.generation, replaced.data.generation);
  } finally {
    controller.abort();
  }
  // A bad ?after= is refused like the logs route's.
  assert.equal((await call(admin("/events?after=x"))).body.msg, 'after: expected a whole number, got "x"');
});

test("force-next's refusal is the service's own, with what came", async () => {
  const { Service } = await import(join(root, "pkg", "node.js"));
  const service = new Service({ seed: 1 });
  const said = (outcome, count) => {
    try {
      service.forceNext(outcome, count);
    } catch (error) {
      return error.message;
    }
    assert.fail(`forceNext(${outcome}, ${count}) was taken`);
  };
  const bad = await call(admin("/force-next"), "POST", { outcome: "maybe" });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.msg, `${said("maybe", 1)}, got "maybe"`);
  const none = await call(admin("/force-next"), "POST", { count: 2 });
  assert.equal(none.body.msg, `${said(undefined, 2)}, got null`);
  const count = await call(admin("/force-next"), "POST", { outcome: "failure", count: -1 });
  assert.equal(count.status, 400);
  assert.equal(count.body.msg, said("failure", -1));
  service.free();
});
