// orderpay/fetch in Node, installed from the package's tarball and imported
// by name, with Node's own fetch, Request and Response.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { makeConsumer, examples, root, withoutComments } from "./consumer.mjs";
import { checkReads, readsCompared } from "./response-reads.mjs";

let app;
before(() => {
  app = makeConsumer();
});
after(() => {
  if (app) rmSync(app.dir, { recursive: true, force: true });
});

/** Runs a module that prints one JSON value last, and parses it. */
function json(file, source) {
  return JSON.parse(app.run(file, source).trim().split("\n").pop());
}

test("the README's createFetch example runs as written", () => {
  const [example] = examples("fetch");
  assert.ok(example, "README has a createFetch example");
  const { status, stdout, stderr } = app.runAll("readme-fetch.mjs", example);
  assert.equal(status, 0, stderr);
  assert.deepEqual(stdout.trim().split("\n"), [
    "200 application/json CREATED",
    "SUCCESS",
    "404 No route for POST /api/ordr/create; did you mean POST /api/order/create?",
    "[ 200, 200, 404 ]",
  ]);
  assert.match(stderr, /^orderpay: 404 for POST http:\/\/localhost\/api\/ordr\/create: No route .* \(trace [0-9a-f]{32}\)$/m);
});

test("the README's installFetch example runs as written", () => {
  const [example] = examples("install");
  assert.ok(example, "README has an installFetch example");
  assert.deepEqual(app.run("readme-install.mjs", example).trim().split("\n"), ["Order not found", "true"]);
});

test("docs/network-faults.md's createFetch example runs as written: a rejection, a hang given up, a body cut short", () => {
  const [example] = examples("network-faults");
  assert.ok(example, "docs/network-faults.md has a createFetch example");
  assert.deepEqual(app.run("network-faults.mjs", example).trim().split("\n"), ["true NetworkFaultError reset", "TimeoutError", "200", "true"]);
});

// The spec's typical flow, each step sent in a different form fetch accepts.
const FLOW = `
  const json = { "Content-Type": "application/json" };
  const steps = [];
  async function step(name, response) {
    steps.push({ name, status: response.status, statusText: response.statusText, url: response.url,
      type: response.headers.get("content-type"), traceId: response.headers.get("x-b3-traceid"),
      body: await response.json() });
    return steps.at(-1).body;
  }
  const order = await step("create", await send("/api/order/create", { method: "post",
    headers: { ...json, "X-User-Id": "u-7", "X-B3-TraceId": "463ac35c9f6413ad" },
    body: JSON.stringify({ userId: "u-7", price: 12.5, description: "a book" }) }));
  const id = order.data.orderId;
  await step("read", await send(new URL("http://localhost/api/order/" + id)));
  const pay = await step("pay", await send(new Request("https://shop.example/api/payment/pay", { method: "POST",
    headers: new Headers(json), body: JSON.stringify({ orderId: id, amount: 12.5, paymentMethod: "WALLET_B" }) })));
  await step("mark", await send("/api/order/" + id + "/pay", { method: "Post" }));
  await step("delete", await send("http://127.0.0.1:9/api/order/delete/" + id, { method: "POST" }));
  await step("payment", await send("/api/payment/" + pay.data.paymentId, { headers: [["x-b3-traceid", "0af7651916cd43dd8448eb211c80319c"]] }));
  await step("refund", await send(new Request("http://localhost/api/payment/refund/" + pay.data.paymentId, { method: "POST" })));
  await step("after", await send("/api/order/" + id));
`;

function checkFlow({ steps, logs }) {
  const byName = Object.fromEntries(steps.map((s) => [s.name, s]));
  for (const s of steps) {
    assert.equal(s.status, 200, s.name);
    assert.equal(s.statusText, "OK");
    assert.equal(s.type, "application/json");
    assert.match(s.traceId, /^[0-9a-f]{16}([0-9a-f]{16})?$/);
  }
  assert.equal(byName.create.body.data.status, "CREATED");
  assert.equal(byName.create.traceId, "463ac35c9f6413ad");
  assert.equal(byName.create.url, "http://localhost/api/order/create");
  assert.deepEqual(byName.read.body, byName.create.body);
  assert.equal(byName.pay.body.data.status, "SUCCESS");
  assert.equal(byName.pay.url, "https://shop.example/api/payment/pay");
  assert.deepEqual(byName.mark.body, { code: 0, msg: "success", data: null });
  assert.deepEqual(byName.delete.body, { code: -1, msg: "Paid order cannot be deleted", data: null });
  assert.deepEqual(byName.payment.body.data, byName.pay.body.data);
  assert.equal(byName.payment.traceId, "0af7651916cd43dd8448eb211c80319c");
  assert.deepEqual(byName.refund.body, { code: 0, msg: "success", data: null });
  assert.equal(byName.after.body.data.status, "PAID");
  const responses = logs.filter((r) => r.stage === "response");
  assert.equal(responses.length, steps.length);
  assert.equal(responses[0].userId, "u-7");
  assert.equal(responses[0].traceId, "463ac35c9f6413ad");
  assert.deepEqual(responses.map((r) => r.uri.split("/")[2]), ["order", "order", "payment", "order", "order", "payment", "payment", "order"]);
}

test("the typical flow through createFetch: relative and absolute URLs, URL and Request objects, any method case", () => {
  const out = json(
    "flow-create.mjs",
    `import { createFetch } from "orderpay/fetch";
     const send = createFetch({ service: { seed: 11, failureRate: 0 }, passthrough: "reject" });
     ${FLOW}
     console.log(JSON.stringify({ steps, logs: send.service.logs() }));`,
  );
  checkFlow(out);
});

test("the typical flow through the installed global fetch; uninstall restores the original", () => {
  const out = json(
    "flow-installed.mjs",
    `import { installFetch } from "orderpay/fetch";
     const original = globalThis.fetch;
     const installed = installFetch({ service: { seed: 11, failureRate: 0 } });
     const replaced = globalThis.fetch === installed && installed !== original;
     const send = (...args) => fetch(...args); // the app's own calls to the global fetch
     ${FLOW}
     const logs = installed.service.logs();
     installed.uninstall();
     const restored = globalThis.fetch === original;
     installed.uninstall(); // the second time does nothing
     let afterwards;
     try { await fetch("/api/order/create"); } catch (e) { afterwards = e.name + ": " + e.message; }

     // Something else put in place after ours must be undone first.
     const again = installFetch();
     const other = globalThis.fetch = async () => new Response("other");
     let refused;
     try { again.uninstall(); } catch (e) { refused = e.message; }
     globalThis.fetch = again;
     again.uninstall();
     console.log(JSON.stringify({ steps, logs, replaced, restored, afterwards, refused,
       final: globalThis.fetch === original, otherKept: other !== original }));`,
  );
  checkFlow(out);
  assert.equal(out.replaced, true);
  assert.equal(out.restored, true);
  assert.match(out.afterwards, /^TypeError: Failed to parse URL from \/api\/order\/create/, "Node's own fetch is back");
  assert.match(out.refused, /globalThis\.fetch was replaced after installFetch\(\)/);
  assert.equal(out.final, true);
});

test("other URLs go to the real fetch, or are rejected, or go to a function, as chosen", () => {
  const out = json(
    "passthrough.mjs",
    `import { createServer } from "node:http";
     import { createFetch } from "orderpay/fetch";
     const seen = [];
     const server = createServer((req, res) => { seen.push(req.method + " " + req.url); res.end("from the network"); });
     await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
     const origin = "http://127.0.0.1:" + server.address().port;

     const api = createFetch({ service: { seed: 1 } });
     const network = await (await api(origin + "/hello?x=1", { method: "PUT", body: "hi" })).text();
     const local = (await (await api(origin + "/api/order/ORD-NOPE0000")).json()).msg;
     const lookalike = await (await api(origin + "/apis/order")).text();

     let rejected;
     try { await createFetch({ passthrough: "reject" })("https://example.test/img.png"); }
     catch (e) { rejected = e.name + ": " + e.message; }

     const given = [];
     const custom = createFetch({ passthrough: async (input, init) => { given.push([String(input), init?.method]); return new Response("custom"); } });
     const viaFunction = await (await custom("/static/app.js", { method: "GET" })).text();

     server.close();
     console.log(JSON.stringify({ network, local, lookalike, seen, rejected, given, viaFunction }));`,
  );
  assert.equal(out.network, "from the network");
  assert.equal(out.local, "Order not found", "a path under /api on any origin is the gateway's in Node");
  assert.equal(out.lookalike, "from the network");
  assert.deepEqual(out.seen, ["PUT /hello?x=1", "GET /apis/order"]);
  assert.equal(out.rejected, 'TypeError: orderpay: GET https://example.test/img.png is outside the gateway (/api on any origin), and passthrough is "reject"');
  assert.deepEqual(out.given, [["/static/app.js", "GET"]], "the function gets the arguments as the app gave them");
  assert.equal(out.viaFunction, "custom");
});

test("baseUrl: a path prefix, or an absolute URL that also fixes the origin", () => {
  const out = json(
    "base.mjs",
    `import { createFetch } from "orderpay/fetch";
     const outside = (input) => Promise.resolve(new Response("outside: " + (input.url ?? input)));
     const read = async (r) => r.headers.get("content-type") === "application/json" ? (await r.json()).msg : await r.text();
     const shop = createFetch({ baseUrl: "/shop/", passthrough: outside, warn: false });
     const gw = createFetch({ baseUrl: "https://gw.example.test/v1", passthrough: outside, warn: false });
     const errors = [];
     for (const bad of ["shop", "ftp://x.test", "/shop?x=1", 42, "//cdn.test"]) {
       try { createFetch({ baseUrl: bad }); } catch (e) { errors.push(e.name + ": " + e.message); }
     }
     try { createFetch({ baseurl: "/" }); } catch (e) { errors.push(e.name + ": " + e.message); }
     console.log(JSON.stringify({
       shop: [await read(await shop("/shop/api/order/ORD-NOPE0000")), await read(await shop("/api/order/ORD-NOPE0000")),
              await read(await shop("http://any.test/shop/API/ORDER/CREATE"))],
       gw: [await read(await gw("https://gw.example.test/v1/api/order/ORD-NOPE0000")),
            await read(await gw("https://gw.example.test/api/order/ORD-NOPE0000")),
            await read(await gw("https://other.example.test/v1/api/order/ORD-NOPE0000")),
            await read(await gw("http://gw.example.test/v1/api/order/ORD-NOPE0000"))],
       errors }));`,
  );
  assert.deepEqual(out.shop, [
    "Order not found",
    "outside: /api/order/ORD-NOPE0000",
    "No route for GET /API/ORDER/CREATE; did you mean GET /api/order/{orderId}?",
  ]);
  assert.deepEqual(out.gw, [
    "Order not found",
    "outside: https://gw.example.test/api/order/ORD-NOPE0000",
    "outside: https://other.example.test/v1/api/order/ORD-NOPE0000",
    "outside: http://gw.example.test/v1/api/order/ORD-NOPE0000",
  ]);
  assert.equal(out.errors.length, 6);
  for (const e of out.errors) assert.match(e, /^TypeError: (baseUrl|createFetch): /);
  assert.match(out.errors.at(-1), /unknown option "baseurl"; known are service, baseUrl, passthrough, warn/);
});

test("unmatched and malformed requests get their envelope, a warning and log records", () => {
  const out = json(
    "malformed.mjs",
    `import { createFetch } from "orderpay/fetch";
     const warnings = [];
     const api = createFetch({ service: { seed: 2 }, warn: (line) => warnings.push(line) });
     const json = { "Content-Type": "application/json" };
     const replies = {};
     const send = async (name, path, init) => {
       const r = await api(path, init);
       replies[name] = { status: r.status, statusText: r.statusText, allow: r.headers.get("allow"), body: await r.json() };
     };
     await send("unknown", "/api/ordr/create", { method: "POST" });
     await send("method", "/api/order/create");
     await send("notJson", "/api/order/create", { method: "POST", headers: json, body: "{nope" });
     await send("missing", "/api/order/create", { method: "POST", headers: json, body: JSON.stringify({ price: 1 }) });
     await send("noType", "/api/order/create", { method: "POST", body: JSON.stringify({ userId: "u", price: 1 }) });
     await send("object", "/api/order/create", { method: "POST", headers: json, body: { userId: "u", price: 1 } });
     await send("oddMethod", "/api/order/create", { method: "PATCH" });
     await send("badCount", "/api/test/order/batch?count=0");
     const logged = api.service.logs().filter((r) => r.stage === "response").map((r) => [r.httpStatus, r.status]);
     console.log(JSON.stringify({ replies, warnings, logged }));`,
  );
  const { replies, warnings, logged } = out;
  assert.equal(replies.unknown.status, 404);
  assert.equal(replies.unknown.statusText, "Not Found");
  assert.equal(replies.unknown.body.msg, "No route for POST /api/ordr/create; did you mean POST /api/order/create?");
  assert.equal(replies.method.status, 405);
  assert.equal(replies.method.allow, "POST");
  assert.equal(replies.notJson.status, 400);
  assert.equal(replies.missing.status, 400);
  assert.match(replies.missing.body.msg, /userId/);
  assert.equal(replies.noType.status, 415, "a string body without Content-Type is text/plain, as fetch sends it");
  assert.equal(replies.object.status, 400, "a plain object is sent as [object Object], as fetch sends it");
  assert.equal(replies.oddMethod.status, 405);
  assert.equal(replies.badCount.status, 400);
  for (const r of Object.values(replies)) {
    assert.equal(r.body.code, r.status);
    assert.equal(r.body.data, null);
  }
  assert.equal(warnings.length, 8);
  assert.match(warnings[0], /^orderpay: 404 for POST http:\/\/localhost\/api\/ordr\/create: No route for .* \(trace [0-9a-f]{32}\)$/);
  assert.deepEqual(logged, Object.values(replies).map((r) => [r.status, "client_error"]));
});

test("bodies of every kind fetch takes are read as the bytes it would send", () => {
  const out = json(
    "bodies.mjs",
    `import { createFetch } from "orderpay/fetch";
     const api = createFetch({ service: { seed: 3 }, warn: false });
     const order = JSON.stringify({ userId: "u", price: 2, description: "é ✓" });
     const json = { "content-type": "application/json" };
     const bytes = new TextEncoder().encode(order);
     const post = async (body, headers = json, extra = {}) => {
       const r = await api("/api/order/create", { method: "POST", headers, body, ...extra });
       const b = await r.json();
       return [r.status, b.data?.description ?? b.msg];
     };
     const stream = new ReadableStream({ start(c) { c.enqueue(bytes.slice(0, 5)); c.enqueue(bytes.slice(5)); c.close(); } });
     const form = new FormData(); form.set("userId", "u");
     const head = await api("/api/order/ORD-NOPE0000", { method: "head" });
     console.log(JSON.stringify({
       string: await post(order),
       blob: await post(new Blob([order], { type: "application/json" }), {}),
       arrayBuffer: await post(bytes.buffer),
       typed: await post(bytes),
       dataView: await post(new DataView(bytes.buffer)),
       stream: await post(stream, json, { duplex: "half" }),
       params: await post(new URLSearchParams({ userId: "u", price: "2" }), {}),
       form: await post(form, {}),
       head: [head.status, head.body, await head.text()],
     }));`,
  );
  for (const kind of ["string", "blob", "arrayBuffer", "typed", "dataView", "stream"]) {
    assert.deepEqual(out[kind], [200, "é ✓"], kind);
  }
  assert.equal(out.params[0], 415, "URLSearchParams goes out as application/x-www-form-urlencoded");
  assert.equal(out.form[0], 415, "FormData goes out as multipart/form-data");
  assert.deepEqual(out.head, [405, null, ""], "a HEAD response has no body");
});

test("a URL with a plain init is answered exactly as the same init in a Request is", () => {
  const out = json(
    "plain-init.mjs",
    `import { createFetch } from "orderpay/fetch";
     const make = () => createFetch({ service: { seed: 11, virtualTime: 1700000000000, failureRate: 0.5 }, warn: false });
     const direct = make();
     const viaRequest = make();
     const order = JSON.stringify({ userId: "u", price: 2, description: "é ✓ \ud800" });
     const inits = [
       undefined,
       {},
       { method: "post", headers: { "Content-Type": "application/json" }, body: order },
       { method: "Post", headers: [["content-type", "application/json"], ["X-User-Id", "  u-1  "]], body: order },
       { method: "POST", headers: new Headers({ "content-type": "application/json" }), body: order },
       { method: "POST", body: order },
       { method: "POST", headers: { "content-type": "application/json" }, body: "" },
       { method: "POST", headers: { "content-type": "application/json", "x-force-outcome": "failure" }, body: order },
       { method: "get", headers: { accept: "a", Accept: "b" } },
       { method: "delete" },
       { method: "OPTIONS" },
       { method: "head" },
       { method: "GET", body: "x" },
       { method: "POST", headers: { "bad name": "x" }, body: order },
       // Header objects read without a Headers, and those left to one.
       { method: "POST", headers: { "X-User-Id": "u-2", "Content-Type": "application/json",
         traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01" }, body: order },
       { method: "POST", headers: { "content-type": " application/json\t", "x-b3-traceid": "463ac35c9f6413ad" }, body: order },
       { method: "POST", headers: { "Content-Type": "text/plain", "content-type": "application/json" }, body: order },
       { method: "POST", headers: { "content-type": "application/json", "x-n": 7 }, body: order },
       { method: "POST", headers: { "content-type": "application/json", "x-e": "" }, body: order },
       { method: "POST", headers: { "content-type": "application/json", "x-latin": "caf\u00e9" }, body: order },
       { method: "POST", headers: { "content-type": "application/json", "x-wide": "\u2713" }, body: order },
       { method: "POST", headers: { "content-type": "application/json", "x-split": "a\\nb" }, body: order },
       { method: "POST", headers: { "content-type": "application/json", [Symbol("s")]: "x" }, body: order },
       { method: "POST", headers: Object.assign(Object.create(null), { "content-type": "application/json" }), body: order },
       { method: "POST", headers: { get "content-type"() { return "application/json"; } }, body: order },
       { method: "CONNECT" },
       { method: 7 },
       { method: "POST", headers: { "content-type": "application/json" }, body: order, signal: AbortSignal.abort() },
       { method: "POST", headers: { "content-type": "application/json" }, body: order, signal: "no" },
     ];
     const urls = ["/api/order/create", "http://localhost/api/order/ORD-NOPE0000?x=1#f", "/api/payment/pay"];
     const seen = (r) => r.then(
       async (response) => [response.status, response.statusText, [...response.headers], response.url, await response.text()],
       (error) => ["rejected", error.name],
     );
     const rows = [];
     for (const url of urls) {
       for (const init of inits) {
         const a = await seen(direct(url, init));
         let b;
         try { b = await seen(viaRequest(new Request(new URL(url, "http://localhost/"), init))); }
         catch (error) { b = ["rejected", error.name]; }
         rows.push({ url, init: String(init?.method), a, b });
       }
     }
     console.log(JSON.stringify({ rows, logs: [direct.service.logs(), viaRequest.service.logs()] }));`,
  );
  for (const row of out.rows) assert.deepEqual(row.a, row.b, `${row.init} ${row.url}`);
  assert.ok(out.rows.some((row) => row.a[0] === 200), "some were answered");
  assert.ok(out.rows.some((row) => row.a[0] === 415), "a text body with no content type went out as text/plain");
  assert.ok(out.rows.some((row) => row.a[0] === "rejected"), "some were rejected as fetch rejects them");
  assert.deepEqual(out.logs[0], out.logs[1]);
});

test("an answer reads as a Response made from its text does: every form, second reads, the stream, clones", () => {
  const out = json(
    "text-response.mjs",
    `import { inspect } from "node:util";
     import { createFetch } from "orderpay/fetch";
     const readsCompared = ${readsCompared};
     const make = () => createFetch({ service: { seed: 5, virtualTime: 1700000000000, failureRate: 0 }, warn: false });
     const ours = make();
     const init = {
       method: "POST",
       headers: { "content-type": "application/json" },
       body: JSON.stringify({ userId: "u", price: 2, description: "é ✓" }),
     };
     const rows = await readsCompared({ ours, twin: make(), init, inspect });
     // A clone keeps the URL, as a real fetch's Response's does (one made by hand has none to keep),
     // before and after the body was asked for.
     const answer = await ours("/api/order/create", init);
     const streamed = await ours("/api/order/create", init);
     void streamed.body;
     const cloneUrls = [answer.clone().url, streamed.clone().url];
     const head = await (await ours("/api/order/create", { method: "HEAD" })).text();
     console.log(JSON.stringify({ rows, cloneUrls, name: answer.constructor.name, head }));`,
  );
  checkReads(assert, out.rows);
  assert.ok(out.rows.some((row) => row.sequence === "inspect"), "Node's inspect was compared");
  assert.equal(out.name, "Response");
  assert.deepEqual(out.cloneUrls, ["http://localhost/api/order/create", "http://localhost/api/order/create"]);
  assert.equal(out.head, "", "a HEAD answer has no body");
});

test("parallel services are isolated; one given as a Service is shared with its owner", () => {
  const out = json(
    "parallel.mjs",
    `import { Service } from "orderpay";
     import { createFetch } from "orderpay/fetch";
     const json = { "content-type": "application/json" };
     async function flow(api, user) {
       const created = await (await api("/api/order/create", { method: "POST", headers: json,
         body: JSON.stringify({ userId: user, price: 5 }) })).json();
       await new Promise((r) => setTimeout(r, Math.random() * 5));
       await api("/api/order/" + created.data.orderId + "/pay", { method: "POST" });
       return created.data.orderId;
     }
     const a = createFetch({ service: { seed: 100 } });
     const b = createFetch({ service: { seed: 200 } });
     const ids = await Promise.all([flow(a, "a1"), flow(b, "b1"), flow(a, "a2"), flow(b, "b2")]);
     const crossed = await (await b("/api/order/" + ids[0])).json();
     const own = await (await a("/api/order/" + ids[0])).json();
     const users = (api) => [...new Set(api.service.logs().filter((r) => r.stage === "response" && r.userId).map((r) => r.userId))];

     const service = new Service({ seed: 5 });
     const shared = createFetch(service);
     const made = await (await shared("/api/order/create", { method: "POST", headers: json,
       body: JSON.stringify({ userId: "s", price: 1 }) })).json();
     console.log(JSON.stringify({ ids, crossed: crossed.msg, own: own.data.status, aUsers: users(a), bUsers: users(b),
       sameService: shared.service === service, direct: service.handle("GET", "/api/order/" + made.data.orderId).data.userId }));`,
  );
  assert.equal(new Set(out.ids).size, 4);
  assert.equal(out.crossed, "Order not found");
  assert.equal(out.own, "PAID");
  assert.deepEqual(out.aUsers, []);
  assert.deepEqual(out.bUsers, []);
  assert.equal(out.sameService, true);
  assert.equal(out.direct, "s");
});

test("an aborted signal rejects as fetch does, and the request never reaches the service", () => {
  const out = json(
    "abort.mjs",
    `import { createFetch } from "orderpay/fetch";
     const api = createFetch({ service: { seed: 4 } });
     let error;
     try { await api("/api/order/ORD-NOPE0000", { signal: AbortSignal.abort() }); } catch (e) { error = e.name; }
     let invalid;
     try { await api("http://[bad", {}); } catch (e) { invalid = e.name; }
     console.log(JSON.stringify({ error, invalid, logs: api.service.logs().length, ready: (await api.ready) === api.service }));`,
  );
  assert.deepEqual(out, { error: "AbortError", invalid: "TypeError", logs: 0, ready: true });
});

test("delay waits out the simulated latency in real time, scaled, and an abort cuts it short", () => {
  const out = json(
    "delay.mjs",
    `
    import { Service } from "orderpay";
    import { createFetch } from "orderpay/fetch";
    const latency = { order: { baseMs: 300, spreadMs: 0, tailChance: 0 } };
    const body = JSON.stringify({ userId: "u", price: 1 });
    const init = { method: "POST", headers: { "content-type": "application/json" }, body };
    async function timed(options, signal) {
      const f = createFetch({ service: new Service({ seed: 1, latency }), warn: false, ...options });
      const start = performance.now();
      try {
        const r = await f("/api/order/create", { ...init, signal });
        return { ms: performance.now() - start, simulated: Number(r.headers.get("x-sim-duration-ms")) };
      } catch (e) {
        return { ms: performance.now() - start, error: e.name };
      }
    }
    let badOption;
    try { createFetch({ delay: "slow" }); } catch (e) { badOption = e.message; }
    // Which of two things ends first, not how long each took: a wait is a timer, and timers
    // fire in the order of their deadlines however loaded the machine is.
    const first = (entries) => Promise.race(entries.map(([name, p]) => p.then(() => name, () => name)));
    const timer = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
    // One request first, untimed: the first call's one-time costs (code
    // compiled on first use) are not the wait the timings look for.
    await timed({});
    const none = timed({});
    const noneFirst = await first([["answer", none], ["a timer of 0 ms", timer(0)]]);
    const full = timed({ delay: true });
    const half = timed({ delay: 0.5 });
    const halfFirst = await first([["full", full], ["half", half]]);
    const aborted = timed({ delay: true }, AbortSignal.timeout(50));
    const abortedFirst = await first([["aborted", aborted], ["a timer of 200 ms", timer(200)]]);
    console.log(JSON.stringify({
      none: await none, noneFirst,
      full: await full, half: await half, halfFirst,
      aborted: await aborted, abortedFirst,
      badOption,
    }));
    `,
  );
  assert.equal(out.none.simulated, 300);
  assert.equal(out.noneFirst, "answer", `no delay asked: answered before any timer (${out.none.ms} ms)`);
  assert.ok(out.full.ms >= 295, `delay: true waits the simulated 300 ms: ${out.full.ms}`);
  assert.ok(out.half.ms >= 145, `delay: 0.5 waits at least 150 ms: ${out.half.ms}`);
  assert.equal(out.halfFirst, "half", `delay: 0.5 waits less than delay: true (${out.half.ms} and ${out.full.ms} ms)`);
  assert.equal(out.aborted.error, "TimeoutError");
  assert.equal(out.abortedFirst, "aborted", `the abort ends the wait: ${out.aborted.ms} ms`);
  assert.match(out.badOption, /^createFetch: delay: expected true, false or a factor/);
});

test("orderpay/fetch and orderpay/browser types: strict TypeScript, a fetch where fetch goes, no any", () => {
  for (const file of ["fetch.d.ts", "browser.d.ts"]) {
    const types = readFileSync(join(app.dir, "node_modules/orderpay", file), "utf8");
    assert.doesNotMatch(withoutComments(types), /\bany\b/, file);
  }
  writeFileSync(
    join(app.dir, "check-fetch.ts"),
    `
    import { Service, type ServiceOptions } from "orderpay";
    import { createFetch, installFetch, type OrderpayFetch, type FetchOptions, type Fetch } from "orderpay/fetch";
    const options: FetchOptions = { service: { seed: 1 } satisfies ServiceOptions, baseUrl: "/shop", passthrough: "reject", warn: (line: string) => void line };
    const api: OrderpayFetch = createFetch(options);
    const asFetch: typeof fetch = api;
    const alsoFetch: Fetch = createFetch(new Service());
    const ready: Promise<Service> = api.ready;
    const seed: number = api.service.seed;
    const installed = installFetch({ passthrough: asFetch, baseUrl: new URL("https://gw.test/v1") });
    installed.uninstall();
    async function use(): Promise<number> { return (await api("/api/order/x", { method: "GET" })).status; }
    // @ts-expect-error: not a passthrough
    createFetch({ passthrough: "network" });
    // @ts-expect-error: not an option
    createFetch({ baseurl: "/" });
    void [alsoFetch, ready, seed, use];

    import { startWorker, type StartedWorker, type WorkerOptions } from "orderpay/browser";
    const workerOptions: WorkerOptions = { url: "/orderpay-worker.js", scope: "/", service: { seed: 1 }, timeout: 5000 };
    async function start(): Promise<number> {
      const worker: StartedWorker = await startWorker(workerOptions);
      const registration: ServiceWorkerRegistration = worker.registration;
      await worker.stop();
      return worker.service.logs().length + registration.scope.length;
    }
    // @ts-expect-error: url is required
    startWorker({ service: { seed: 1 } });
    void start;

    import { showChallenge, type ChallengeOptions, type ChallengeResult } from "orderpay/browser";
    import type { PaymentStatus } from "orderpay";
    async function buyer(url: string): Promise<PaymentStatus> {
      const frame: HTMLIFrameElement = document.createElement("iframe");
      const options: ChallengeOptions = { fetch: api, frame, signal: AbortSignal.timeout(60_000) };
      const result: ChallengeResult = await showChallenge(url, options);
      const id: string = result.paymentId;
      return id === result.payment.paymentId ? result.status : (await showChallenge(new URL(url, "http://shop.test"))).status;
    }
    // @ts-expect-error: frame is an iframe element
    showChallenge("/api/payment/PAY-1/challenge", { frame: document.body });
    // @ts-expect-error: not an option
    showChallenge("/api/payment/PAY-1/challenge", { baseUrl: "/" });
    void buyer;
    `,
  );
  const tsc = join(root, "tests/node_modules/typescript/bin/tsc");
  execFileSync(
    "node",
    [tsc, "--noEmit", "--strict", "--target", "es2022", "--module", "nodenext", "--moduleResolution", "nodenext",
      "--lib", "es2022,dom,dom.iterable", "--skipLibCheck", "false", "check-fetch.ts"],
    { cwd: app.dir, stdio: ["ignore", "pipe", "pipe"] },
  );
});

test("orderpay/browser in Node: showChallenge says it needs a page, and what to do without one", async () => {
  const { showChallenge } = await import(join(app.dir, "node_modules/orderpay/browser.inline.js"));
  await assert.rejects(showChallenge("/api/payment/PAY-1/challenge"), {
    message: /^showChallenge: it shows the page to a buyer, in a browser page; without one, fetch the page and post its outcome/,
  });
});
