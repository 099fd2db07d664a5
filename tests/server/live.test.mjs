// The live playground: opened from `orderpay serve`, the page shows the
// server's own service. Requests sent by another client appear in its log
// within a second, and its buttons act on the server's state.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { chromium } from "playwright-core";

import { call, serve, stop } from "./serve.mjs";

let server;
let browser;
let page;
const errors = [];
before(async () => {
  server = await serve(["--port", "0", "--seed", "4", "--failure-rate", "0"]);
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run", "--disable-sync"],
  });
  page = await browser.newPage();
  page.on("pageerror", (e) => errors.push(String(e)));
  // Counts the synchronous requests the page makes, which block it while they last.
  await page.addInitScript(() => {
    window.syncRequests = [];
    const open = XMLHttpRequest.prototype.open;
    XMLHttpRequest.prototype.open = function (method, url, async = true, ...rest) {
      if (async === false) window.syncRequests.push(`${method} ${url}`);
      return open.call(this, method, url, async, ...rest);
    };
  });
  await page.goto(server.origin + "/");
  await page.waitForSelector("body[data-ready=true]");
});
after(async () => {
  await browser?.close();
  if (server) await stop(server);
});

const rows = () => page.$$eval("#logs tr[data-seq]", (trs) => trs.map((tr) => ({ seq: Number(tr.cells[0].textContent), uri: tr.cells[4].textContent })));

test("the page says it is live, and shows the server's settings", async () => {
  assert.match(await page.textContent("#notice"), /^Live: this page shows the service of the server at /);
  assert.equal(await page.inputValue("#seed"), "4");
});

test("a request made by another client shows up in the page's log within a second", async () => {
  const sent = Date.now();
  const created = await call(`${server.url}/api/order/create`, "POST", { userId: "from-curl", price: 9.9 });
  assert.equal(created.body.code, 0);
  await page.waitForFunction(() => [...document.querySelectorAll("#logs tr[data-seq]")].some((tr) => tr.cells[4].textContent.endsWith(" /api/order/create")), null, { timeout: 1000 });
  const waited = Date.now() - sent;
  assert.ok(waited <= 1000, `appeared after ${waited} ms`);
  const seqs = (await rows()).map((r) => r.seq).sort((a, b) => a - b);
  assert.deepEqual(seqs, [1, 2, 3]);
});

test("the page's buttons act on the server's state: the flow, forceNext, the settings", async () => {
  await page.click("#run-flow");
  await page.waitForFunction(() => /^Done:/.test(document.querySelector("#flow-summary").textContent));
  const logs = (await call(`${server.origin}/__orderpay/logs`)).body.data.records;
  const uris = logs.filter((r) => r.stage === "response").map((r) => r.uri);
  assert.equal(uris.length, 8, "the curl request and the flow's seven");
  assert.ok(uris.slice(1).every((u) => u.startsWith("/api/")));

  await page.fill("#force-count", "2");
  await page.click("#force-apply");
  await page.waitForFunction(() => /2/.test(document.querySelector("#forced-status").textContent));
  const forced = (await call(`${server.origin}/__orderpay/settings`)).body.data.forced;
  assert.equal(forced?.remaining, 2);

  await page.fill("#seed", "77");
  await page.click("#apply-settings");
  await page.waitForFunction(() => /^Started a fresh service/.test(document.querySelector("#settings-message").textContent));
  assert.equal((await call(`${server.origin}/__orderpay/settings`)).body.data.settings.seed, 77);
  assert.equal((await rows()).length, 0, "the page's log starts over with the server's");
});

test("a reset made elsewhere (a test suite's) reaches the page too", async () => {
  await call(`${server.url}/api/order/create`, "POST", { userId: "u", price: 1 });
  await page.waitForFunction(() => document.querySelectorAll("#logs tr[data-seq]").length === 3, null, { timeout: 2000 });
  await call(`${server.origin}/__orderpay/reset`, "POST", { seed: 5 });
  await page.waitForFunction(() => document.querySelectorAll("#logs tr[data-seq]").length === 0, null, { timeout: 2000 });
  assert.equal(await page.inputValue("#seed"), "5");
  assert.deepEqual(errors, []);
});

test("following the server's log never blocks the page: records, counters and charts come by async fetch", async () => {
  await page.evaluate(() => (window.syncRequests.length = 0));
  const created = await call(`${server.url}/api/order/create`, "POST", { userId: "elsewhere", price: 12 });
  const paid = await call(`${server.url}/api/payment/pay`, "POST", { orderId: created.body.data.orderId, amount: 12, paymentMethod: "CARD" });
  assert.equal(paid.status, 200);
  const counters = (await call(`${server.origin}/__orderpay/counters`)).body.data.counters;
  assert.equal(counters.payments.attempts, 1);
  // The chart redrawn from what the poll read agrees with the server's counters.
  await page.waitForFunction(() => document.querySelector("#chart-payments").dataset.attempts === "1", null, { timeout: 2000 });
  await page.waitForFunction(() => [...document.querySelectorAll("#logs tr[data-seq]")].some((tr) => tr.cells[4].textContent.endsWith(" /api/payment/pay")), null, { timeout: 2000 });
  // Two more polls: still nothing synchronous.
  await page.waitForTimeout(900);
  assert.deepEqual(await page.evaluate(() => window.syncRequests), []);
});
