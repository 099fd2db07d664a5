// Every failure kind of a scenario through every way in, each asserting
// the failure in that way's own form: an answer with its status, headers
// and envelope for the kinds the gateway answers, and for the network
// faults what the way's client meets (fetch rejects with a TypeError, a
// body breaks off, a hang lasts until the request's AbortSignal aborts,
// Node's fetch against the server sees the socket reset).
//
// The ways: handle/request, createFetch, installFetch, MSW in Node; the
// server over real HTTP; and in one Chromium, the Service Worker, MSW in
// the browser and the Playwright adapter. Time is the service's simulated
// time except where a fault is about real time (hang, dribble), which use
// short `ms`.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";

import "../node/msw-from-tests.mjs";
import { launchChromium } from "../chromium.mjs";
import { bundleForPage } from "./browser.mjs";
import { root } from "../node/consumer.mjs";
import { serve, stop } from "../server/serve.mjs";
import { observe } from "./observe.mjs";

const pkg = (file) => new URL(`../../pkg/${file}`, import.meta.url).href;
const { Service, NetworkFaultError } = await import(pkg("node.js"));
const { createFetch, installFetch } = await import(pkg("fetch.inline.js"));
const { createHandlers } = await import(pkg("msw.inline.js"));
const { mockOrderpay } = await import(pkg("playwright.js"));
const { setupServer } = await import("msw/node");

const PAY = "/api/payment/pay";
const CREATE = "/api/order/create";
const HANG_ABORT_MS = 100;
const DRIBBLE_MS = 120;

const answer = (status, code, fault, extra = {}) => ({ outcome: "answer", status, code, fault, ...extra });
const lost = { outcome: "rejected", typeError: true };

/** The rows: a rule's `then`, the route it fails, and what every way meets (`ways` overrides per way). */
const ROWS = [
  { name: "decline", route: PAY, then: { kind: "decline", code: "insufficient_funds" },
    expect: answer(200, -1, "decline", { declineCode: "insufficient_funds" }) },
  { name: "timeout", route: PAY, then: { kind: "timeout", afterMs: 1000 }, expect: answer(200, -1, "timeout") },
  { name: "processor_error", route: PAY, then: { kind: "processor_error", status: 503 }, expect: answer(200, -1, "processor_error") },
  { name: "http 429", route: CREATE, then: { kind: "http", status: 429, retryAfter: 2 }, expect: answer(429, 429, "http", { retryAfter: "2" }) },
  { name: "http 503", route: CREATE, then: { kind: "http", status: 503 }, expect: answer(503, 503, "http", { retryAfter: "1" }) },
  { name: "http 502", route: CREATE, then: { kind: "http", status: 502 }, expect: answer(502, 502, "http", { retryAfter: null }) },
  { name: "http 504", route: CREATE, then: { kind: "http", status: 504 }, expect: answer(504, 504, "http", { retryAfter: null }) },
  { name: "delay", route: CREATE, then: { kind: "delay", ms: 4000 }, expect: answer(200, 0, "delay", { simulatedAtLeast: 4000 }) },
  { name: "network reset", route: CREATE, then: { kind: "network", fault: "reset" }, expect: { ...lost, ran: false },
    ways: { server: { ...lost, cause: "ECONNRESET" } } },
  { name: "network empty", route: CREATE, then: { kind: "network", fault: "empty" }, expect: { ...lost, ran: false },
    ways: { server: { ...lost, cause: "UND_ERR_SOCKET" } } },
  { name: "network error", route: CREATE, then: { kind: "network", fault: "error" }, expect: { ...lost, ran: false },
    ways: { server: { ...lost, cause: "ECONNRESET" } } },
  { name: "network reset after the service ran", route: CREATE, then: { kind: "network", fault: "reset", phase: "response" },
    expect: { ...lost, ran: true }, ways: { server: { ...lost, cause: "ECONNRESET", ran: true } } },
  { name: "network short", route: CREATE, then: { kind: "network", fault: "short" },
    expect: { outcome: "body-error", status: 200, typeError: true },
    // A Playwright route cannot break a body off: the page gets half of it, which is no JSON.
    ways: { playwright: { outcome: "bad-body", status: 200 }, server: { outcome: "body-error", status: 200, typeError: true, cause: "UND_ERR_SOCKET" } } },
  { name: "network hang", route: CREATE, then: { kind: "network", fault: "hang", ms: 5000 }, abortMs: HANG_ABORT_MS,
    expect: { outcome: "aborted", name: "TimeoutError" } },
  { name: "network dribble", route: CREATE, then: { kind: "network", fault: "dribble", ms: DRIBBLE_MS },
    expect: answer(200, 0, undefined, { tookAtLeast: DRIBBLE_MS * 0.75 }) },
];

/** The scenario of one row: one rule on its route. */
const scenarioOf = (row) => ({ name: row.name, rules: [{ name: "matrix", when: { route: row.route }, then: row.then }] });

/** The request a row sends: a pay needs an order, made first with the scenario not touching it. */
async function requestOf(row, send) {
  if (row.route === CREATE) return { path: CREATE, body: { userId: "u-1", price: 12.5 } };
  const created = await send({ path: CREATE, body: { userId: "u-1", price: 12.5 } });
  assert.equal(created.outcome, "answer", `the order for ${row.name}: ${JSON.stringify(created)}`);
  return { path: PAY, body: { orderId: created.orderId, amount: 12.5, paymentMethod: "CARD" } };
}

/** Checks one observation against the row's expectation for `way`, key by key. */
function check(row, way, seen, ran) {
  const expected = row.ways?.[way] ?? row.expect;
  const where = `${row.name} through ${way}: ${JSON.stringify(seen)}`;
  for (const [key, value] of Object.entries(expected)) {
    if (key === "simulatedAtLeast") assert.ok(seen.simulatedMs >= value, where);
    else if (key === "tookAtLeast") assert.ok(seen.ms >= value, where);
    else if (key === "ran") assert.equal(ran, value, `${where}: the service ran`);
    else if (value !== undefined) assert.deepEqual(seen[key], value, `${where}: ${key}`);
  }
}

/** Runs every row through a way: `{ setScenario(doc), send(request, abortMs), serviceRuns() }`. */
async function runRows(way, harness) {
  for (const row of ROWS) {
    await harness.setScenario(scenarioOf(row));
    const request = await requestOf(row, (r) => harness.send(r));
    const runs = await harness.serviceRuns();
    const seen = await harness.send(request, row.abortMs);
    check(row, way, seen, (await harness.serviceRuns()) > runs);
  }
  await harness.setScenario(null);
}

/** How many times the service ran (its `service` log records). */
const runsOf = (service) => service.logs().filter((record) => record.stage === "service").length;

describe("in Node", () => {
  test("handle and request: the fault in a typed form, NetworkFaultError from handle", () => {
    const service = new Service({ seed: 11, failureRate: 0 });
    for (const row of ROWS) {
      service.setScenario(scenarioOf(row));
      const { path, body } = requestOfSync(row, service);
      const reply = service.request("POST", path, body);
      const expected = row.ways?.handle ?? row.expect;
      if (expected.outcome === "answer") {
        assert.equal(reply.status, expected.status, row.name);
        assert.equal(reply.body.code, expected.code, row.name);
        if (expected.fault) assert.equal(reply.headers["x-orderpay-fault"], expected.fault, row.name);
        continue;
      }
      const where = `${row.name}: ${JSON.stringify(reply)}`;
      assert.deepEqual([reply.fault?.kind, reply.fault?.fault, reply.fault?.rule], ["network", row.then.fault, "matrix"], where);
      const answered = row.then.phase === "response" || ["short", "dribble"].includes(row.then.fault);
      assert.equal(reply.fault.phase, answered ? "response" : "request", where);
      if (answered) assert.equal(reply.status, 200, where);
      else assert.deepEqual([reply.status, reply.headers, reply.body], [0, {}, ""], where);
      const thrown = catchOf(() => service.handle("POST", path, body));
      assert.ok(thrown instanceof NetworkFaultError && thrown instanceof TypeError, `${row.name}: handle threw ${thrown}`);
      assert.equal(thrown.fault.fault, row.then.fault);
    }
  });

  test("createFetch: the scenario option, and fetch's own failures", async () => {
    let api;
    await runRows("createFetch", {
      setScenario: (scenario) => void (api = createFetch({ service: api?.service ?? { seed: 12, failureRate: 0 }, scenario, warn: false })),
      send: (request, abortMs) => observe({ ...request, abortMs, fetch: api }),
      serviceRuns: () => runsOf(api.service),
    });
  });

  test("installFetch: the global fetch fails as fetch does", async () => {
    const installed = installFetch({ service: { seed: 13, failureRate: 0 }, warn: false });
    try {
      await runRows("installFetch", {
        setScenario: (scenario) => installed.service.setScenario(scenario),
        send: (request, abortMs) => observe({ ...request, abortMs, base: "http://localhost" }),
        serviceRuns: () => runsOf(installed.service),
      });
    } finally {
      installed.uninstall();
    }
  });

  test("MSW in Node: HttpResponse.error(), delay('infinite'), streamed bodies", async () => {
    const handlers = createHandlers({ service: { seed: 14, failureRate: 0 }, warn: false });
    const server = setupServer(...handlers);
    server.listen({ onUnhandledRequest: "error" });
    try {
      await runRows("msw", {
        setScenario: (scenario) => handlers.service.setScenario(scenario),
        send: (request, abortMs) => observe({ ...request, abortMs, base: "https://shop.example" }),
        serviceRuns: () => runsOf(handlers.service),
      });
    } finally {
      server.close();
    }
  });

  test("orderpay serve over real HTTP: the socket reset, closed, cut short, held, dribbled", async () => {
    const server = await serve(["--port", "0", "--seed", "15", "--failure-rate", "0"], { command: ["node", join(root, "pkg", "server", "cli.js")], cwd: root });
    const admin = `${server.origin}/__orderpay`;
    try {
      await runRows("server", {
        async setScenario(scenario) {
          const reply = scenario === null
            ? await fetch(`${admin}/scenario`, { method: "DELETE" })
            : await fetch(`${admin}/scenario`, { method: "PUT", body: JSON.stringify(scenario) });
          assert.equal(reply.status, 200, await reply.text());
        },
        send: (request, abortMs) => observe({ ...request, abortMs, base: server.url }),
        async serviceRuns() {
          const { data } = await (await fetch(`${admin}/logs`)).json();
          return data.records.filter((record) => record.stage === "service").length;
        },
      });
    } finally {
      await stop(server);
    }
  });
});

/** A row's request for handle/request: the order made with handle first when it pays. */
function requestOfSync(row, service) {
  if (row.route === CREATE) return { path: CREATE, body: { userId: "u-1", price: 12.5 } };
  const created = service.handle("POST", CREATE, { userId: "u-1", price: 12.5 });
  return { path: PAY, body: { orderId: created.data.orderId, amount: 12.5, paymentMethod: "CARD" } };
}

function catchOf(run) {
  try {
    run();
  } catch (error) {
    return error;
  }
  return null;
}

describe("in Chromium", () => {
  let browser;
  let site;
  before(async () => {
    [browser, site] = await Promise.all([launchChromium(["--disable-quic"]), serveSite()]);
  });
  after(async () => {
    await browser?.close();
    site?.close();
  });

  /** A fresh page of the site at `path`, and its harness over `window.orderpayService`. */
  async function pageHarness(path, ready) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = [];
    page.on("pageerror", (error) => errors.push(String(error)));
    await page.goto(site.base + path);
    await page.waitForFunction(ready, null, { timeout: 15000 });
    const harness = {
      setScenario: (scenario) => page.evaluate((s) => window.orderpayService.setScenario(s), scenario),
      send: (request, abortMs) => page.evaluate(observe, { ...request, abortMs }),
      serviceRuns: () => page.evaluate(() => window.orderpayService.logs().filter((r) => r.stage === "service").length),
    };
    return { page, context, errors, harness };
  }

  test("the Service Worker: Response.error(), and a hang the page aborts", async () => {
    const { page, context, errors, harness } = await pageHarness("sw/", () => window.orderpayService);
    assert.equal(await page.evaluate(() => window.orderpayService.scenario.document.name), "slow-payments", "startWorker's scenario option");
    await runRows("serviceWorker", harness);
    assert.deepEqual(errors, []);
    await context.close();
  });

  test("MSW in the browser: HttpResponse.error(), delay('infinite'), streamed bodies", async () => {
    const { page, context, errors, harness } = await pageHarness("msw/", () => window.orderpayService);
    assert.equal(await page.evaluate(() => window.orderpayService.scenario.document.name), "rate-limited", "createHandlers' scenario option");
    await runRows("mswBrowser", harness);
    assert.deepEqual(errors, []);
    await context.close();
  });

  test("the Playwright adapter: route.abort with connectionreset, connectionclosed, failed; timedout for a hang", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(site.base + "blank/");
    const failed = [];
    page.on("requestfailed", (request) => failed.push(request.failure()?.errorText));
    let mocked = null;
    await runRows("playwright", {
      async setScenario(scenario) {
        await mocked?.unroute();
        mocked = await mockOrderpay(page, { service: mocked?.service ?? { seed: 16, failureRate: 0 }, scenario, warn: false });
      },
      send: (request, abortMs) => page.evaluate(observe, { ...request, abortMs }),
      serviceRuns: () => runsOf(mocked.service),
    });
    for (const code of ["net::ERR_CONNECTION_RESET", "net::ERR_CONNECTION_CLOSED", "net::ERR_FAILED"]) {
      assert.ok(failed.includes(code), `${code} in ${failed}`);
    }
    await context.close();
  });
});

/**
 * The pages of the browser ways on a loopback server: the package at /pkg/
 * (its worker allowed to control /sw/), a page that starts the Service
 * Worker at /sw/, a page that starts MSW's worker with orderpay's handlers
 * at /msw/ (bundled by esbuild, msw from the tests' install), a blank page.
 */
async function serveSite() {
  const bundle = await bundleForPage(`import { setupWorker } from "msw/browser";
        import { createHandlers } from ${JSON.stringify(join(root, "pkg", "msw.inline.js"))};
        const handlers = createHandlers({ service: { seed: 18, failureRate: 0 }, scenario: "rate-limited", warn: false });
        await setupWorker(...handlers).start({ serviceWorker: { url: "/msw/mockServiceWorker.js" }, quiet: true });
        window.orderpayService = handlers.service;`);
  const pages = {
    "/blank/": "<!doctype html><title>blank</title>",
    "/sw/": `<!doctype html><title>sw</title><script type="module">
      import { startWorker } from "/pkg/browser.inline.js";
      const started = await startWorker({ url: "/pkg/worker.js", scope: "/sw/", service: { seed: 17, failureRate: 0 }, scenario: "slow-payments", warn: false });
      window.orderpayService = started.service;
    </script>`,
    "/msw/": `<!doctype html><title>msw</title><script type="module" src="/msw/app.js"></script>`,
  };
  const files = {
    "/msw/app.js": () => bundle,
    "/msw/mockServiceWorker.js": () => readFile(join(root, "tests", "node_modules", "msw", "lib", "mockServiceWorker.js")),
  };
  const server = createServer(async (req, res) => {
    const path = new URL(req.url, "http://x").pathname;
    const js = { "content-type": "text/javascript", "cache-control": "no-cache" };
    if (pages[path]) return res.writeHead(200, { "content-type": "text/html" }).end(pages[path]);
    if (files[path]) return res.writeHead(200, js).end(await files[path]());
    if (path.startsWith("/pkg/") && !path.includes("..")) {
      const body = await readFile(join(root, path)).catch(() => null);
      if (body) return res.writeHead(200, { ...js, "service-worker-allowed": "/" }).end(body);
    }
    res.writeHead(404, { "content-type": "text/plain" }).end("not found");
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { base: `http://127.0.0.1:${server.address().port}/`, close: () => server.close() };
}
