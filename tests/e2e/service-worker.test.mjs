// The Service Worker in headless Chromium: a plain app (www/sw-demo/app.js,
// which knows nothing of orderpay) runs the typical flow with fetch and
// XMLHttpRequest, its first request made right after startWorker() resolves,
// on a first visit with no worker installed yet.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { start } from "./browser.mjs";
import { examples } from "../node/consumer.mjs";
import { checkReads, readsCompared } from "../node/response-reads.mjs";

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.close();
});

/** Opens a page in a fresh context, keeping what it prints. */
async function open(path) {
  const opened = await env.page(path);
  opened.console = [];
  opened.page.on("console", (m) => opened.console.push(`${m.type()}: ${m.text()}`));
  return opened;
}

async function results(page) {
  await page.waitForSelector("body[data-done=true]", { timeout: 15000 });
  return page.evaluate(() => window.results);
}

test("a plain app runs the typical flow under the worker, from its first request", async () => {
  const { page, context, errors, external } = await open("sw-demo/");
  const steps = await results(page);
  assert.deepEqual(
    steps.map((s) => [s.step, s.status, s.body.code, s.body.msg]),
    [
      ["create the order", 200, 0, "success"],
      ["read the order", 200, 0, "success"],
      ["pay with the orderId", 200, 0, "success"],
      ["mark the order paid", 200, 0, "success"],
      ["delete the paid order", 200, -1, "Paid order cannot be deleted"],
      ["read the payment", 200, 0, "success"],
      ["refund the payment", 200, 0, "success"],
    ],
  );
  const [created, read] = steps;
  assert.match(created.body.data.orderId, /^ORD-[A-Z0-9]{8}$/);
  assert.deepEqual(read.body, created.body, "the XMLHttpRequest was answered by the same service");
  // Every answer came from the page's service: its log has each trace id.
  const logged = await page.evaluate(() => window.orderpay.service.logs().map((r) => r.traceId));
  for (const s of steps) assert.ok(logged.includes(s.traceId), `${s.step}: trace ${s.traceId} not in the logs`);
  assert.equal(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL), env.base + "pkg/worker.js");
  await env.screenshot(page, "sw-demo.png");
  assert.deepEqual(errors, []);
  assert.deepEqual(external, []);
  await context.close();
});

test("the page decides the settings: the same worker, another failure rate", async () => {
  const { page, context, errors } = await open("sw-demo/?failureRate=1&seed=7");
  const steps = await results(page);
  const pay = steps.find((s) => s.step === "pay with the orderId");
  assert.deepEqual(pay.body, { code: -1, msg: "Third party payment failed", data: null });
  assert.equal(await page.evaluate(() => window.orderpay.service.seed), 7);
  // A reload is a new page: it starts its own service again, from the same seed.
  const firstId = steps[0].body.data.orderId;
  await page.reload();
  const again = await results(page);
  assert.equal(again[0].body.data.orderId, firstId);
  assert.equal(again.find((s) => s.step === "pay with the orderId").body.msg, "Third party payment failed");
  assert.deepEqual(errors, []);
  await context.close();
});

test("after a hard reload, which leaves the page uncontrolled, startWorker() takes control again", async () => {
  const { page, context, errors } = await open("sw-demo/");
  await results(page);
  await page.addInitScript(() => {
    window.controllerAtStart = navigator.serviceWorker.controller?.scriptURL ?? null;
  });
  await page.evaluate(() => delete document.body.dataset.done);
  const cdp = await context.newCDPSession(page);
  await cdp.send("Page.reload", { ignoreCache: true });
  const steps = await results(page);
  assert.equal(await page.evaluate(() => window.controllerAtStart), null, "a hard reload bypasses the worker");
  assert.equal(steps.length, 7);
  assert.equal(steps[0].body.code, 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test("the worker's answers survive the browser stopping the idle worker", async () => {
  const { page, context, errors } = await open("sw-demo/");
  await results(page);
  const cdp = await context.newCDPSession(page);
  await cdp.send("ServiceWorker.enable");
  await cdp.send("ServiceWorker.stopAllWorkers");
  const reply = await page.evaluate(async () => {
    const r = await fetch("/api/order/ORD-NOPE0000");
    return { status: r.status, body: await r.json() };
  });
  assert.deepEqual(reply, { status: 200, body: { code: -1, msg: "Order not found", data: null } });
  assert.deepEqual(errors, []);
  await context.close();
});

test("unmatched, malformed and too-early requests are never silent", async () => {
  const { page, context, errors } = await open("sw-demo/");
  await results(page);
  const replies = await page.evaluate(async () => {
    const send = async (path, init) => {
      const r = await fetch(path, init);
      return { status: r.status, allow: r.headers.get("allow"), body: await r.json() };
    };
    return {
      unknown: await send("/api/ordr/create", { method: "POST" }),
      method: await send("/api/order/create"),
      malformed: await send("/api/order/create", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: "{not json",
      }),
      logged: window.orderpay.service.logs().filter((r) => r.stage === "response").map((r) => r.httpStatus),
    };
  });
  assert.equal(replies.unknown.status, 404);
  assert.match(replies.unknown.body.msg, /did you mean POST \/api\/order\/create/);
  assert.equal(replies.method.status, 405);
  assert.equal(replies.method.allow, "POST");
  assert.equal(replies.malformed.status, 400);
  assert.deepEqual(replies.logged.slice(-3), [404, 405, 400]);

  // A page in the worker's scope that never called startWorker() gets a
  // 503 saying so, not a silent trip to the network.
  await page.goto(env.base + "sw-demo/blank.html");
  const early = await page.evaluate(async () => {
    const r = await fetch("/api/order/ORD-NOPE0000");
    return { status: r.status, body: await r.json() };
  });
  assert.equal(early.status, 503);
  assert.match(early.body.msg, /has not started the service.*startWorker\(\)/);
  assert.deepEqual(errors, []);
  await context.close();
});

test("baseUrl reaches the worker; stop() hands the page's requests back to the network", async () => {
  const { page, context, errors } = await open("sw-demo/blank.html");
  const out = await page.evaluate(async () => {
    const { startWorker } = await import("/pkg/browser.js");
    const worker = await startWorker({ url: "/pkg/worker.js", scope: "/sw-demo/", baseUrl: "/shop", service: { seed: 9 } });
    const send = async (path) => {
      const r = await fetch(path);
      return `${r.status} ${r.headers.get("content-type")?.startsWith("application/json") ? (await r.json()).msg : await r.text()}`;
    };
    const answered = await send("/shop/api/order/ORD-NOPE0000");
    const outside = await send("/api/order/ORD-NOPE0000");
    const script = navigator.serviceWorker.controller.scriptURL;
    await worker.stop();
    const stopped = await send("/shop/api/order/ORD-NOPE0000");
    return { answered, outside, script, stopped, logged: worker.service.logs().filter((r) => r.stage === "response").length };
  });
  assert.deepEqual(out, {
    answered: "200 Order not found",
    outside: "404 not found",
    script: env.base + "pkg/worker.js?base=%2Fshop",
    stopped: "404 not found",
    logged: 1,
  });
  assert.deepEqual(errors, []);
  await context.close();
});

test("the README's Service Worker example runs as written", async () => {
  const [example] = examples("service-worker");
  assert.ok(example, "README has a Service Worker example");
  const { page, context, errors, console: printed } = await open("sw-demo/blank.html");
  await page.addScriptTag({ type: "module", content: example });
  const lines = () => printed.filter((line) => line.startsWith("log: "));
  for (let waited = 0; lines().length < 2 && errors.length === 0 && waited < 15000; waited += 50) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.deepEqual(errors, []);
  assert.deepEqual(lines(), ["log: 0 CREATED", "log: true"]);
  await context.close();
});

test("createFetch in the browser: the first call waits for the WebAssembly module by itself", async () => {
  const { page, context, errors } = await open("sw-demo/blank.html");
  const out = await page.evaluate(async () => {
    const { createFetch } = await import("/pkg/fetch.js");
    const api = createFetch({ service: { seed: 3 }, warn: false });
    let early;
    try {
      void api.service;
    } catch (e) {
      early = e.message;
    }
    const r = await api("/api/order/ORD-NOPE0000");
    return { early, status: r.status, body: await r.json(), seed: api.service.seed };
  });
  assert.match(out.early, /not ready yet/);
  assert.deepEqual(out.body, { code: -1, msg: "Order not found", data: null });
  assert.equal(out.seed, 3);
  assert.deepEqual(errors, []);
  await context.close();
});

test("createFetch in a Service Worker of your own: respondWith sends the whole answer, either way in", async () => {
  const { page, context, errors, external } = await open("sw-own/");
  await page.waitForSelector("body[data-ready=true]", { timeout: 15000 });
  const out = await page.evaluate(async () => {
    const json = { "content-type": "application/json" };
    const created = await fetch("/sw-own/api/order/create", {
      method: "POST",
      headers: json,
      body: JSON.stringify({ userId: "u-1", price: 25.5, description: "two coffees" }),
    });
    const createdBody = await created.json();
    const id = createdBody.data.orderId;
    const asRequest = await fetch(`/sw-own/api/order/${id}`, { headers: { "x-as-request": "1" } });
    const missing = await fetch("/sw-own/api/order/ORD-NOPE0000");
    return {
      controller: navigator.serviceWorker.controller?.scriptURL,
      created: [created.status, created.headers.get("content-type"), createdBody],
      asRequest: [asRequest.status, await asRequest.json()],
      missing: [missing.status, await missing.text()],
    };
  });
  assert.equal(out.controller, env.base + "sw-own/worker.js");
  assert.equal(out.created[0], 200);
  assert.equal(out.created[1], "application/json");
  assert.equal(out.created[2].code, 0);
  assert.equal(out.created[2].data.status, "CREATED");
  assert.deepEqual(out.asRequest, [200, out.created[2]], "the Request way in reads the same order");
  assert.deepEqual(out.missing, [200, JSON.stringify({ code: -1, msg: "Order not found", data: null })]);
  await page.click("#create");
  await page.waitForFunction(() => document.getElementById("out").textContent.includes("CREATED"));
  await env.screenshot(page, "sw-own.png");
  assert.deepEqual(errors, []);
  assert.deepEqual(external, []);
  await context.close();
});

test("in the page, createFetch's answers read as Responses made from their text do", async () => {
  const { page, context, errors } = await open("sw-demo/blank.html");
  const rows = await page.evaluate(async (source) => {
    const readsCompared = new Function(`return (${source})`)();
    const { createFetch } = await import("/pkg/fetch.js");
    const make = () => createFetch({ service: { seed: 5, virtualTime: 1700000000000, failureRate: 0 }, warn: false });
    const init = {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ userId: "u", price: 2, description: "é ✓" }),
    };
    return readsCompared({ ours: make(), twin: make(), init });
  }, readsCompared.toString());
  checkReads(assert, rows);
  assert.deepEqual(errors, []);
  await context.close();
});
