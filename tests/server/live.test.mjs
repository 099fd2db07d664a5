// The live playground: opened from `orderpay serve`, the page shows the
// server's own service. Requests sent by another client appear in its log
// at once (server-sent events; polling where the stream is missing), its
// buttons act on the server's state, and the page never sends a
// synchronous request.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { after, before, test } from "node:test";

import { launchChromium } from "../chromium.mjs";

import { call, serve, stop } from "./serve.mjs";

let server;
let browser;
let page;
const errors = [];
/**
 * How long a wait for the page to catch up with the server may take: generous, as a busy machine
 * stretches any wall-clock bound. What a test checks is what arrived, and how (pushed, not polled).
 */
const SETTLED = { timeout: 30_000 };
before(async () => {
  server = await serve(["--port", "0", "--seed", "4", "--failure-rate", "0"]);
  browser = await launchChromium();
  page = await livePage();
});

/**
 * A page of the server's, which counts its synchronous requests (they block
 * it while they last) and the admin routes it fetches. `noEvents`: the
 * event stream answers 404, as a server without one would.
 */
async function livePage({ noEvents = false, path = "/", seen = errors } = {}) {
  const p = await browser.newPage();
  p.on("pageerror", (e) => seen.push(String(e)));
  p.on("console", (m) => { if (m.type() === "error") seen.push(m.text()); });
  await p.addInitScript((noEvents) => {
    window.syncRequests = [];
    window.fetched = [];
    const open = XMLHttpRequest.prototype.open;
    XMLHttpRequest.prototype.open = function (method, url, async = true, ...rest) {
      if (async === false) window.syncRequests.push(`${method} ${url}`);
      return open.call(this, method, url, async, ...rest);
    };
    const fetch = window.fetch;
    window.fetch = function (input, init) {
      const url = String(input instanceof Request ? input.url : input);
      window.fetched.push(url.replace(location.origin, ""));
      if (noEvents && url.includes("/__orderpay/events")) return Promise.resolve(new Response("{}", { status: 404 }));
      return fetch.call(this, input, init);
    };
  }, noEvents);
  await p.goto(server.origin + path);
  await p.waitForSelector("body[data-ready=true]");
  return p;
}
after(async () => {
  await browser?.close();
  if (server) await stop(server);
});

const rows = (p = page) => p.$$eval("#logs tr[data-seq]", (trs) => trs.map((tr) => ({ seq: Number(tr.cells[0].textContent), uri: tr.cells[4].textContent })));

test("the page says it is live, and shows the server's settings", async () => {
  assert.match(await page.textContent("#notice"), /^Live: this page shows the service of the server at /);
  // Not "running entirely in this tab": the introduction speaks of the server.
  assert.match(await page.textContent(".lead"), /orderpay serve/);
  assert.doesNotMatch(await page.textContent(".lead"), /in this tab/);
  assert.equal(await page.inputValue("#seed"), "4");
});

test("the server marks the pages it serves as live, so the page asks nothing to know it", async () => {
  const onDisk = await readFile(new URL("../../www/index.html", import.meta.url), "utf8");
  const served = await fetch(server.origin + "/");
  const text = await served.text();
  assert.equal(Number(served.headers.get("content-length")), Buffer.byteLength(text));
  // The page as written, with the marker just before </head>.
  assert.equal(text, onDisk.replace("</head>", '<meta name="orderpay-live" content=""></head>'));
  const head = await fetch(server.origin + "/index.html", { method: "HEAD" });
  assert.equal(head.headers.get("content-length"), served.headers.get("content-length"));
  // Other files go out as they are.
  const css = await fetch(server.origin + "/style.css");
  assert.equal(await css.text(), await readFile(new URL("../../www/style.css", import.meta.url), "utf8"));
  // The page knew it was live from the marker (a static load, without it, asks nothing: tests/e2e/static-load.test.mjs).
  assert.equal(await page.locator('meta[name="orderpay-live"]').count(), 1);
  assert.deepEqual(errors, []);
});

test("a request made by another client shows up in the page's log, pushed by the event stream", async () => {
  const sent = Date.now();
  const created = await call(`${server.url}/api/order/create`, "POST", { userId: "from-curl", price: 9.9 });
  assert.equal(created.body.code, 0);
  await page.waitForFunction(() => [...document.querySelectorAll("#logs tr[data-seq]")].some((tr) => tr.cells[4].textContent.endsWith(" /api/order/create")), null, SETTLED);
  // The time it took is a figure for docs/performance.md, printed, not a rule: under load it measures the machine.
  console.log(`live: another client's record reached the page ${Date.now() - sent} ms after it was sent`);
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
  // The flow's requests follow each other on the server's clock too: in seq order, no record's time goes back.
  const flow = logs.filter((r) => r.traceId === logs.at(-1).traceId);
  assert.equal(flow.length, 21);
  for (let i = 1; i < flow.length; i++) assert.ok(flow[i].timestamp >= flow[i - 1].timestamp, `seq ${flow[i].seq} before seq ${flow[i - 1].seq}`);

  await page.fill("#force-count", "2");
  await page.click("#force-apply");
  await page.waitForFunction(() => /2/.test(document.querySelector("#forced-status").textContent));
  const forced = (await call(`${server.origin}/__orderpay/settings`)).body.data.forced;
  assert.equal(forced?.remaining, 2);

  // "Copy as test" copies the server's export of this run: the flow and the forcing.
  // Its hint speaks of the server's session, not of a state saved in this browser.
  assert.match(await page.textContent("#copy-test-hint"), /^Everything the server's session was asked since it started or was reset/);
  assert.doesNotMatch(await page.textContent("#copy-test-hint"), /saved with the state/);
  await page.click("#copy-test-curl");
  await page.waitForSelector("#copy-test-text:not([hidden])");
  const exported = await (await fetch(`${server.origin}/__orderpay/export-test?format=curl`)).text();
  assert.equal(await page.textContent("#copy-test-text"), exported);
  assert.match(exported, /force-next" -d '\{"outcome":"failure","count":2\}'/);

  await page.fill("#seed", "77");
  await page.click("#apply-settings");
  await page.waitForFunction(() => /^Started a fresh service/.test(document.querySelector("#settings-message").textContent));
  assert.equal((await call(`${server.origin}/__orderpay/settings`)).body.data.settings.seed, 77);
  // The log is drawn in the frame after the change (throttled), so it may trail the settings message by one.
  await page.waitForFunction(() => document.querySelectorAll("#logs tr[data-seq]").length === 0, null, SETTLED)
    .catch(() => {});
  assert.equal((await rows()).length, 0, "the page's log starts over with the server's");
});

test("a reset made elsewhere (a test suite's) reaches the page too", async () => {
  await call(`${server.url}/api/order/create`, "POST", { userId: "u", price: 1 });
  await page.waitForFunction(() => document.querySelectorAll("#logs tr[data-seq]").length === 3, null, SETTLED);
  await call(`${server.origin}/__orderpay/reset`, "POST", { seed: 5 });
  await page.waitForFunction(() => document.querySelectorAll("#logs tr[data-seq]").length === 0, null, SETTLED);
  assert.equal(await page.inputValue("#seed"), "5");
  assert.deepEqual(errors, []);
});

test("following the server's log never blocks the page: records, counters and charts come by async fetch", async () => {
  const created = await call(`${server.url}/api/order/create`, "POST", { userId: "elsewhere", price: 12 });
  const paid = await call(`${server.url}/api/payment/pay`, "POST", { orderId: created.body.data.orderId, amount: 12, paymentMethod: "CARD" });
  assert.equal(paid.status, 200);
  const counters = (await call(`${server.origin}/__orderpay/counters`)).body.data.counters;
  assert.equal(counters.payments.attempts, 1);
  // The chart redrawn from what the poll read agrees with the server's counters.
  await page.waitForFunction(() => document.querySelector("#chart-payments").dataset.attempts === "1", null, SETTLED);
  await page.waitForFunction(() => [...document.querySelectorAll("#logs tr[data-seq]")].some((tr) => tr.cells[4].textContent.endsWith(" /api/payment/pay")), null, SETTLED);
  await page.waitForTimeout(900);
});

test("a record reaches the page through the server's event stream, with no poll", async () => {
  await page.evaluate(() => (window.fetched.length = 0));
  const last = Math.max(...(await rows()).map((r) => r.seq));
  const sent = Date.now();
  await call(`${server.url}/api/order/create`, "POST", { userId: "by-events", price: 3 });
  await page.waitForFunction((last) => [...document.querySelectorAll("#logs tr[data-seq]")].some((tr) => Number(tr.cells[0].textContent) === last + 3), last, SETTLED);
  const waited = Date.now() - sent;
  // The stream was opened once, at the start; since then the page asked the admin API nothing to learn of this
  // record. That, not how soon the record came, tells the stream from a poll.
  const fetched = await page.evaluate(() => window.fetched);
  assert.deepEqual(fetched.filter((u) => u.startsWith("/__orderpay/")), [], `fetched ${fetched.join(", ")}`);
  console.log(`a record of another client's reached the page through the event stream in ${waited} ms`);
  // And the page's own actions are async fetches that resolve with their records, not polls.
  await page.click("#run-flow");
  await page.waitForFunction(() => /^Done:/.test(document.querySelector("#flow-summary").textContent));
  // Its one waterfall: the spans of its seven requests, fetched with their answers.
  assert.ok((await page.$$("#flow-trace .wf-bar")).length >= 14, "the flow's spans are drawn");
});

test("another client's request opened in the panel: its trace's spans are fetched from the server and drawn", async () => {
  const created = await call(`${server.url}/api/order/create`, "POST", { userId: "panel", price: 6 });
  const traceId = created.headers["x-b3-traceid"];
  await page.waitForFunction((t) => [...document.querySelectorAll("#logs tr[data-seq]")].some((tr) => tr.textContent.includes(t.slice(0, 8))), traceId, SETTLED);
  await page.locator("#req-rows li[data-key] .req-row").first().click();
  // The gateway's span and the order service's under it.
  await page.waitForFunction(() => document.querySelectorAll("#requests .waterfall .wf-bar").length === 2, null, SETTLED);
  assert.match(await page.textContent("#requests .waterfall"), /POST \/api\/order\/create/);
  assert.deepEqual(await page.evaluate(() => window.syncRequests), []);
});

test("a server without the event stream: the page polls instead", async () => {
  const polling = await livePage({ noEvents: true });
  try {
    await polling.waitForTimeout(500);
    const last = Math.max(...(await rows(polling)).map((r) => r.seq));
    await call(`${server.url}/api/order/create`, "POST", { userId: "polled", price: 4 });
    await polling.waitForFunction((last) => [...document.querySelectorAll("#logs tr[data-seq]")].some((tr) => Number(tr.cells[0].textContent) > last), last, SETTLED);
    const fetched = await polling.evaluate(() => window.fetched);
    assert.ok(fetched.some((u) => u.startsWith("/__orderpay/logs?after=")), "it polled");
    assert.deepEqual(await polling.evaluate(() => window.syncRequests), []);
  } finally {
    await polling.close();
  }
});

test("no synchronous request at all, from the first load to the last click", async () => {
  assert.deepEqual(await page.evaluate(() => window.syncRequests), []);
  assert.deepEqual(errors, []);
});

/** Sends what the console holds and waits for its answer (live, it comes after a round trip): the console's response box. */
async function sendFromConsole(p) {
  await p.evaluate(() => document.querySelector("#response").replaceChildren());
  await p.click("#send");
  await p.waitForSelector("#response .facts", SETTLED);
}

/** Nothing wider than the window. */
const fitsSideways = (p) => p.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

test("live, asynchronous payments as in the tab: the server's payments in progress, its moving clock, the challenge answered in a frame; at 1280 and 390 px", async () => {
  const seen = [];
  // A session of its own (the /s/NAME/ way in): what other tests count stays as it was.
  const p = await livePage({ path: "/s/async/", seen });
  const headers = { "x-orderpay-session": "async", "x-user-id": "other-client" };
  const other = async (cardNumber) => {
    const order = await call(`${server.url}/api/order/create`, "POST", { userId: "other-client", price: 20 }, headers);
    return (await call(`${server.url}/api/payment/pay`, "POST", { orderId: order.body.data.orderId, amount: 20, paymentMethod: "CARD", cardNumber }, headers)).body.data;
  };
  // Another client's payments: one pending for ten minutes (a rule, so that no wait of this test meets its end), one challenged.
  await call(`${server.origin}/__orderpay/sessions/async/scenario`, "PUT", { rules: [{ when: { route: "/api/payment/pay", nth: 1 }, then: { kind: "pending", forMs: 600_000 } }] });
  const pending = await other("4242424242424242");
  const challenged = await other("4000002500003155");
  assert.deepEqual([pending.status, challenged.status], ["PENDING", "REQUIRES_ACTION"]);

  // Listed as the server holds them, though this page sent neither.
  await p.waitForSelector(`#async-list li[data-payment="${pending.paymentId}"][data-status="PENDING"]`, SETTLED);
  await p.waitForSelector(`#async-list li[data-payment="${challenged.paymentId}"][data-status="REQUIRES_ACTION"]`, SETTLED);
  // The server's clock, as its core says it: the wall clock, so no Advance; it moves, and the change due counts down.
  assert.equal(await p.getAttribute("#clock-line", "data-virtual"), "false");
  assert.equal(await p.isDisabled("#advance-30"), true);
  // Nothing due yet (the pending payment's change is minutes away): "Resolve what is due" is off too. The note says the server resolves.
  assert.equal(await p.isDisabled("#advance-due"), true);
  assert.match(await p.textContent("#clock-note"), /the server resolves it as it comes due/);
  assert.doesNotMatch(await p.textContent("#clock-note"), /this page resolves/);
  assert.doesNotMatch(await p.textContent("#clock-line"), /No change of a payment is due/);
  const due = await p.textContent("#next-due");
  assert.match(due, /^in \d+ min( \d+ s)? \(at /);
  const now = await p.textContent("#clock-now");
  await p.waitForFunction((now) => document.querySelector("#clock-now").textContent !== now, now, SETTLED);
  await p.waitForFunction((due) => document.querySelector("#next-due").textContent !== due, due, SETTLED);

  // Its challenge, shown from the Simulation panel: the page the server serves, with its buttons; Complete answers it.
  const row = `#async-list li[data-payment="${challenged.paymentId}"]`;
  await p.click(`${row} button[aria-expanded]`);
  const frame = p.frameLocator(`${row} .challenge-frame`);
  await frame.getByRole("button", { name: "Complete" }).click(SETTLED);
  await p.waitForSelector(row, { state: "detached", ...SETTLED });
  assert.equal((await call(`${server.url}/api/payment/${challenged.paymentId}`, "GET", undefined, headers)).body.data.status, "SUCCESS");

  // The console's pay with the challenge card: its answer shows the challenge page, buttons and all.
  await p.selectOption("#route", "order-create");
  await sendFromConsole(p);
  await p.selectOption("#route", "payment-pay");
  await p.selectOption("#h-card", "4000002500003155");
  await sendFromConsole(p);
  const mine = JSON.parse(await p.textContent("#response pre.envelope")).data;
  assert.equal(mine.status, "REQUIRES_ACTION");
  await p.frameLocator("#response .challenge-frame").getByRole("button", { name: "Cancel" }).waitFor(SETTLED);
  assert.match(await p.textContent("#response .facts"), /ms round trip to the server/);
  // The challenge page from "Any method and path": a page, not an envelope, nor a business error.
  await p.selectOption("#route", "custom");
  await p.selectOption("#custom-method", "GET");
  await p.fill("#custom-path", mine.nextAction.url);
  await p.evaluate(() => document.querySelector("#response").replaceChildren());
  await p.click("#send");
  await p.waitForSelector("#response .page-reply", SETTLED);
  assert.doesNotMatch(await p.textContent("#response"), /business error/);
  await p.frameLocator("#response .page-reply iframe").getByRole("button", { name: "Complete" }).waitFor(SETTLED);

  // Its payment's page: the pay this page sent is on its timeline.
  await p.click(`#async-list li[data-payment="${mine.paymentId}"] .async-head button.link`);
  await p.waitForSelector(`#object-page[data-id="${mine.paymentId}"]`, SETTLED);
  assert.match(await p.locator("#object-page h4", { hasText: "Timeline" }).textContent(), /^Timeline: [1-9]\d* requests?$/);
  const steps = await p.$$eval("#object-timeline .tl-open", (links) => links.map((a) => a.textContent));
  assert.ok(steps.includes("POST /api/payment/pay"), `the pay is on its timeline: ${steps.join(", ")}`);
  // A request of the page's opened: Copy as curl goes to this server (its session's prefix); another client's says it came from one.
  await p.click("#object-timeline li .tl-open >> text=POST /api/payment/pay");
  assert.equal(await p.inputValue("#req-base"), `${server.origin}/s/async`);
  // Its label speaks of that server, not of serve's default port.
  assert.equal(await p.textContent("#req-base-hint"), "(the server this page shows, as its other clients reach it)");
  assert.match(await p.textContent("#req-panel .facts"), /ms round trip to the server/);
  // Settings speak of the server's keeping, not this browser's.
  assert.match(await p.textContent("#state-kept"), /is the server's/);
  assert.doesNotMatch(await p.textContent("#state-kept"), /saved in this browser/);
  // And so does "How this page works".
  assert.match(await p.textContent("#help-saved"), /^Kept by the server\. The state is the server's/);
  assert.doesNotMatch(await p.textContent("#help-saved"), /localStorage|Saved in this browser/);
  // Another client's request, opened: said to come from a client of the server.
  await p.fill("#req-search", "user:other-client");
  // Its two orders, two pays and a read, and no request of the page's.
  await p.waitForFunction(() => document.querySelector("#req-count").dataset.matching === "5", null, SETTLED);
  await p.waitForFunction(() => document.querySelectorAll("#req-rows li[data-key]").length === 5, null, SETTLED);
  await p.click("#req-rows li[data-key] .req-row");
  assert.match(await p.textContent("#req-panel .note"), /^Sent by another client of the server/);

  // At 390 px: the list with a challenge open, and the console's challenge, fit.
  await p.click("#req-close");
  await p.setViewportSize({ width: 390, height: 844 });
  await p.click(`#async-list li[data-payment="${mine.paymentId}"] button[aria-expanded]`);
  await p.frameLocator(`#async-list li[data-payment="${mine.paymentId}"] .challenge-frame`).getByRole("button", { name: "Fail" }).waitFor(SETTLED);
  assert.ok(await fitsSideways(p), "no sideways scroll at 390 px with a challenge open");

  // A reload keeps what the server holds: the page's own challenge and the other client's pending payment.
  await p.reload();
  await p.waitForSelector("body[data-ready=true]");
  await p.waitForSelector(`#async-list li[data-payment="${mine.paymentId}"][data-status="REQUIRES_ACTION"]`, SETTLED);
  await p.waitForSelector(`#async-list li[data-payment="${pending.paymentId}"][data-status="PENDING"]`, SETTLED);
  // The console is clean, the challenge frames' own lines included.
  assert.deepEqual(seen, []);
  await p.close();
});

test("live, a fresh start with the same seed: the same payment id's challenge is fetched afresh, not the old service's page", async () => {
  const seen = [];
  const p = await livePage({ path: "/s/fresh/", seen });
  const headers = { "x-orderpay-session": "fresh", "x-user-id": "other-client" };
  const challenged = async () => {
    const order = await call(`${server.url}/api/order/create`, "POST", { userId: "other-client", price: 20 }, headers);
    return (await call(`${server.url}/api/payment/pay`, "POST", { orderId: order.body.data.orderId, amount: 20, paymentMethod: "CARD", cardNumber: "4000002500003155" }, headers)).body.data;
  };
  const row = (id) => `#async-list li[data-payment="${id}"][data-status="REQUIRES_ACTION"]`;
  const first = await challenged();
  await p.click(`${row(first.paymentId)} button[aria-expanded]`, SETTLED);
  await p.frameLocator(`${row(first.paymentId)} .challenge-frame`).getByRole("button", { name: "Complete" }).click(SETTLED);
  await p.waitForSelector(row(first.paymentId), { state: "detached", ...SETTLED });

  await p.click("#apply-settings");
  await p.waitForFunction(() => /^Started a fresh service/.test(document.querySelector("#settings-message").textContent), null, SETTLED);
  const again = await challenged();
  assert.equal(again.paymentId, first.paymentId, "the same seed gives the same payment id");
  await p.click(`${row(again.paymentId)} button[aria-expanded]`, SETTLED);
  // Its own page, fetched from the fresh service: its buttons answer it.
  const complete = p.frameLocator(`${row(again.paymentId)} .challenge-frame`).getByRole("button", { name: "Complete" });
  await complete.waitFor(SETTLED);
  assert.equal(await complete.isEnabled(), true);
  assert.deepEqual(seen, []);
  await p.close();
});
