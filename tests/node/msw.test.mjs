// orderpay/msw with Mock Service Worker's setupServer, in an app that has
// msw installed; and the package without it, for whom msw is no concern.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { makeConsumer, examples, root, withoutComments } from "./consumer.mjs";

let app;
let bare;
before(() => {
  app = makeConsumer({ link: ["msw"] });
  bare = makeConsumer();
});
after(() => {
  for (const made of [app, bare]) if (made) rmSync(made.dir, { recursive: true, force: true });
});

function json(file, source) {
  return JSON.parse(app.run(file, source).trim().split("\n").pop());
}

test("the README's MSW example runs as written", () => {
  const [example] = examples("msw");
  assert.ok(example, "README has an MSW example");
  assert.deepEqual(app.run("readme-msw.mjs", example).trim().split("\n"), ["Third party payment failed", "2"]);
});

test("docs/network-faults.md's MSW example runs as written: HttpResponse.error() rejects the fetch", () => {
  const [example] = examples("network-faults-msw");
  assert.ok(example, "docs/network-faults.md has an MSW example");
  assert.deepEqual(app.run("network-faults-msw.mjs", example).trim().split("\n"), ["true Failed to fetch"]);
});

test("the typical flow through MSW handlers and the real global fetch; node:http too; other URLs to MSW", () => {
  const out = json(
    "flow-msw.mjs",
    `import { createServer } from "node:http";
     import http from "node:http";
     import { http as mswHttp, HttpResponse } from "msw";
     import { setupServer } from "msw/node";
     import { createHandlers } from "orderpay/msw";

     const seen = [];
     const real = createServer((req, res) => { seen.push(req.url); res.end("from the network"); });
     await new Promise((resolve) => real.listen(0, "127.0.0.1", resolve));
     const elsewhere = "http://127.0.0.1:" + real.address().port + "/hello";

     const orderpay = createHandlers({ service: { seed: 21, failureRate: 0 } });
     const server = setupServer(...orderpay);
     server.listen({ onUnhandledRequest: "bypass" });

     const base = "https://shop.example";
     const json = { "Content-Type": "application/json" };
     const steps = {};
     const step = async (name, path, init) => {
       const r = await fetch(base + path, init);
       steps[name] = { status: r.status, trace: r.headers.get("x-b3-traceid"), body: await r.json() };
       return steps[name].body;
     };
     const order = await step("create", "/api/order/create", { method: "POST", headers: { ...json, "X-User-Id": "m" },
       body: JSON.stringify({ userId: "m", price: 3, description: "tea" }) });
     const id = order.data.orderId;
     await step("read", "/api/order/" + id);
     const pay = await step("pay", "/api/payment/pay", { method: "POST", headers: json,
       body: JSON.stringify({ orderId: id, amount: 3, paymentMethod: "CARD" }) });
     await step("mark", "/api/order/" + id + "/pay", { method: "post" });
     await step("delete", "/api/order/delete/" + id, { method: "POST" });
     await step("payment", "/api/payment/" + pay.data.paymentId);
     await step("refund", "/api/payment/refund/" + pay.data.paymentId, { method: "POST" });
     await step("unknown", "/api/order/create/now", { method: "POST" });

     // axios's Node adapter uses node:http, which MSW intercepts too.
     const viaHttp = await new Promise((resolve, reject) => {
       http.get(base.replace("https", "http") + "/api/order/" + id, (res) => {
         let text = ""; res.on("data", (c) => (text += c)); res.on("end", () => resolve(JSON.parse(text).data.status));
       }).on("error", reject);
     });

     // One test's own answer for one endpoint comes first; resetHandlers brings the service back.
     server.use(mswHttp.get(base + "/api/order/:id", () => HttpResponse.json({ code: -1, msg: "overridden", data: null })));
     const overridden = (await (await fetch(base + "/api/order/" + id)).json()).msg;
     server.resetHandlers();
     const restored = (await (await fetch(base + "/api/order/" + id)).json()).data.status;

     const other = await (await fetch(elsewhere)).text();
     server.close();
     real.close();
     console.log(JSON.stringify({ steps, viaHttp, overridden, restored, other, seen,
       logged: orderpay.service.logs().filter((r) => r.stage === "response").map((r) => r.httpStatus) }));`,
  );
  const { steps } = out;
  assert.equal(steps.create.body.data.status, "CREATED");
  assert.deepEqual(steps.read.body, steps.create.body);
  assert.equal(steps.pay.body.data.status, "SUCCESS");
  assert.deepEqual(steps.mark.body, { code: 0, msg: "success", data: null });
  assert.deepEqual(steps.delete.body, { code: -1, msg: "Paid order cannot be deleted", data: null });
  assert.deepEqual(steps.payment.body.data, steps.pay.body.data);
  assert.deepEqual(steps.refund.body, { code: 0, msg: "success", data: null });
  assert.equal(steps.unknown.status, 404, "an unknown path under /api is answered, not left unhandled");
  assert.match(steps.unknown.body.msg, /^No route for POST \/api\/order\/create\/now/);
  for (const s of Object.values(steps)) assert.match(s.trace, /^[0-9a-f]{32}$/);
  assert.equal(out.viaHttp, "PAID");
  assert.equal(out.overridden, "overridden");
  assert.equal(out.restored, "PAID");
  assert.equal(out.other, "from the network");
  assert.deepEqual(out.seen, ["/hello"]);
  assert.deepEqual(out.logged, [200, 200, 200, 200, 200, 200, 200, 404, 200, 200]);
});

test("handlers made for each test keep their orders apart", () => {
  const out = json(
    "isolated-msw.mjs",
    `import { setupServer } from "msw/node";
     import { Service } from "orderpay";
     import { createHandlers } from "orderpay/msw";
     const server = setupServer();
     server.listen({ onUnhandledRequest: "error" });
     const create = async () => (await (await fetch("http://localhost/api/order/create", { method: "POST",
       headers: { "content-type": "application/json" }, body: JSON.stringify({ userId: "u", price: 1 }) })).json()).data.orderId;
     const read = async (id) => (await (await fetch("http://localhost/api/order/" + id)).json()).msg;

     server.use(...createHandlers({ service: { seed: 1 } }));   // the first test
     const first = await create();
     server.resetHandlers();
     const service = new Service({ seed: 2 });
     server.use(...createHandlers(service));                     // the next one, with its own
     const seenByNext = await read(first);
     server.close();
     console.log(JSON.stringify({ seenByNext, logsOfNext: service.logs().length > 0 }));`,
  );
  assert.deepEqual(out, { seenByNext: "Order not found", logsOfNext: true });
});

test("a page on another origin: its CORS preflight is answered without reaching the service, and every answer names its origin", () => {
  const out = json(
    "cors-msw.mjs",
    `import { setupServer } from "msw/node";
     import { createHandlers } from "orderpay/msw";
     const orderpay = createHandlers({ service: { seed: 3, failureRate: 0 } });
     const server = setupServer(...orderpay);
     server.listen({ onUnhandledRequest: "error" });
     const page = "http://localhost:3000";
     const url = "http://localhost/api/order/create";
     const headersOf = (r) => Object.fromEntries([...r.headers].filter(([name]) => /^(access-control-|vary$)/.test(name)));
     const pre = await fetch(url, { method: "OPTIONS", headers: { Origin: page,
       "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type,x-user-id" } });
     const logsAfterPreflight = orderpay.service.logs().length;
     const created = await fetch(url, { method: "POST", headers: { Origin: page, "Content-Type": "application/json" },
       body: JSON.stringify({ userId: "u", price: 2 }) });
     const plain = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" },
       body: JSON.stringify({ userId: "u", price: 2 }) });
     const bareOptions = await fetch(url, { method: "OPTIONS", headers: { Origin: page } });
     server.close();
     console.log(JSON.stringify({
       preflight: { status: pre.status, headers: headersOf(pre), body: await pre.text() }, logsAfterPreflight,
       created: { status: created.status, headers: headersOf(created), code: (await created.json()).code },
       plain: headersOf(plain), bareOptions: (await bareOptions.json()).msg,
       logged: orderpay.service.logs().filter((r) => r.stage === "response").map((r) => r.method) }));`,
  );
  assert.deepEqual(out.preflight, {
    status: 204,
    headers: {
      "access-control-allow-credentials": "true",
      "access-control-allow-headers": "content-type,x-user-id",
      "access-control-allow-methods": "POST",
      "access-control-allow-origin": "http://localhost:3000",
      "access-control-max-age": "600",
      vary: "Origin",
    },
    body: "",
  });
  assert.equal(out.logsAfterPreflight, 0, "the preflight is not a request to the service");
  assert.equal(out.created.status, 200);
  assert.equal(out.created.code, 0);
  assert.equal(out.created.headers["access-control-allow-origin"], "http://localhost:3000");
  assert.equal(out.created.headers["access-control-allow-credentials"], "true");
  assert.match(out.created.headers["access-control-expose-headers"], /(^|, )x-b3-traceid(,|$)/);
  assert.match(out.created.headers.vary, /Origin/);
  assert.deepEqual(out.plain, {}, "no Origin, no CORS headers");
  assert.match(out.bareOptions, /OPTIONS/, "an OPTIONS that is no preflight goes to the service");
  assert.deepEqual(out.logged, ["POST", "POST", "OPTIONS"]);
});

test("msw stays optional: a peer dependency, never bundled, needed only by orderpay/msw", () => {
  const manifest = JSON.parse(readFileSync(join(bare.dir, "node_modules/orderpay/package.json"), "utf8"));
  assert.deepEqual(manifest.peerDependencies, { msw: "^2.0.0 || ^3.0.0" });
  assert.deepEqual(manifest.peerDependenciesMeta, { msw: { optional: true } });
  assert.equal(manifest.dependencies, undefined);
  const files = readdirSync(join(bare.dir, "node_modules/orderpay"));
  const mentions = files.filter((f) => /\.(js|d\.ts)$/.test(f) && /from "msw/.test(readFileSync(join(bare.dir, "node_modules/orderpay", f), "utf8")));
  assert.deepEqual(mentions.sort(), ["msw.d.ts", "msw.js"]);

  const out = bare.run(
    "no-msw.mjs",
    `import { createFetch } from "orderpay/fetch";
     import { Service } from "orderpay";
     const api = createFetch(new Service({ seed: 1 }));
     console.log((await (await api("/api/order/ORD-NOPE0000")).json()).msg);
     try { await import("orderpay/msw"); } catch (e) { console.log(e.code, /'msw'/.test(e.message)); }`,
  );
  assert.deepEqual(out.trim().split("\n"), ["Order not found", "ERR_MODULE_NOT_FOUND true"]);
});

test("orderpay/msw types: strict TypeScript against msw's own, no any", () => {
  const types = readFileSync(join(app.dir, "node_modules/orderpay/msw.d.ts"), "utf8");
  assert.doesNotMatch(withoutComments(types), /\bany\b/);
  writeFileSync(
    join(app.dir, "check-msw.ts"),
    `
    import { setupServer } from "msw/node";
    import type { HttpHandler } from "msw";
    import { Service } from "orderpay";
    import { createHandlers, type OrderpayHandlers } from "orderpay/msw";
    const handlers: OrderpayHandlers = createHandlers({ service: { seed: 1 }, baseUrl: "/shop", warn: false });
    const list: HttpHandler[] = handlers;
    const server = setupServer(...handlers, ...createHandlers(new Service()));
    const service: Service = handlers.service;
    const ready: Promise<Service> = handlers.ready;
    // @ts-expect-error: createHandlers has no passthrough: MSW decides
    createHandlers({ passthrough: "reject" });
    void [list, server, service, ready];
    `,
  );
  const tsc = join(root, "tests/node_modules/typescript/bin/tsc");
  execFileSync(
    "node",
    [tsc, "--noEmit", "--strict", "--target", "es2022", "--module", "nodenext", "--moduleResolution", "nodenext",
      "--lib", "es2022,dom,dom.iterable", "--skipLibCheck", "false", "check-msw.ts"],
    { cwd: app.dir, stdio: ["ignore", "pipe", "pipe"] },
  );
});
