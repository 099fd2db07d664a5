// The request list and its side panel: one row per request, a business
// error and a declined payment told apart from a success, the panel opened
// without losing the place, copy as curl and as fetch run against the same
// service over HTTP, and a resend with an edited request and free header
// rows; a search that changes every row refills them where they stand.
// At a desktop and a phone width.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createServer } from "node:http";
import { after, before, test } from "node:test";
import { promisify } from "node:util";

import { artifacts, start } from "./browser.mjs";
import { applySettings, open, seedDeclinedThenPaid } from "./playground.mjs";
import { Service } from "../../pkg/node.js";

let env;
let http;
let served;
before(async () => {
  env = await start();
  // This same service over HTTP, as the package's server mode runs it: what a copied command is sent to.
  served = new Service({ seed: 3, failureRate: 0 });
  http = createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    const reply = served.request(req.method, req.url, body === "" ? null : body, req.headers);
    res.writeHead(reply.status, reply.headers);
    res.end(JSON.stringify(reply.body));
  });
  await new Promise((resolve) => http.listen(0, "127.0.0.1", resolve));
});
after(async () => {
  await env?.close();
  http?.close();
});

const serverUrl = () => `http://127.0.0.1:${http.address().port}`;

async function rows(page) {
  return page.$$eval("#req-rows li[data-key]", (items) => items.map((li) => ({
    key: li.dataset.key,
    kind: li.dataset.kind,
    method: li.querySelector(".req-method").textContent,
    path: li.querySelector(".req-path").textContent,
    status: li.querySelector(".req-status").textContent,
    code: li.querySelector(".req-code").textContent,
    msg: li.querySelector(".req-msg").textContent,
    duration: li.querySelector(".req-dur").textContent,
    bar: li.querySelector(".req-bar").style.width,
    edge: getComputedStyle(li).borderLeftColor,
  })));
}

/** The flow with a declined first payment that is tried again, and one mistyped path. */
async function flowWithDecline(page) {
  const seed = await seedDeclinedThenPaid(page);
  await applySettings(page, { seed });
  await page.click("#run-flow");
  await page.click("#flow-retry");
  await page.waitForFunction(() => /^Done/.test(document.querySelector("#flow-summary").textContent));
  await page.selectOption("#route", "custom");
  await page.fill("#custom-path", "/api/ordr/create");
  await page.click("#send");
  await page.waitForFunction(() => document.querySelectorAll("#req-rows li[data-key]").length === 9);
}

for (const width of [1280, 390]) {
  test(`one row per request, and a code -1 never looks like a success (${width} px)`, async () => {
    const { page, errors, external } = await open(env, { width });
    await flowWithDecline(page);
    const list = await rows(page);
    assert.deepEqual(list.map((r) => `${r.method} ${r.path.replace(/(ORD|PAY)-\w{8}/, "$1-x")}`), [
      "GET /api/ordr/create",
      "POST /api/payment/refund/PAY-x",
      "GET /api/payment/PAY-x",
      "POST /api/order/delete/ORD-x",
      "POST /api/order/ORD-x/pay",
      "POST /api/payment/pay",
      "POST /api/payment/pay",
      "GET /api/order/ORD-x",
      "POST /api/order/create",
    ], "newest first, one row each");
    assert.deepEqual(list.map((r) => r.kind), ["rejected", "ok", "ok", "business", "ok", "ok", "declined", "ok", "ok"]);
    const declined = list[6];
    assert.deepEqual([declined.status, declined.code, declined.msg], ["200", "-1", "Third party payment failed (declined)"]);
    assert.deepEqual([list[3].status, list[3].code, list[3].msg], ["200", "-1", "Paid order cannot be deleted"]);
    assert.deepEqual([list[0].status, list[0].code], ["404", "404"]);
    assert.match(list[0].msg, /^No route for GET \/api\/ordr\/create; did you mean /);
    // Colours: a success's edge is green; a business error's and a decline's are not, nor the same as a 404's.
    const ok = list[1].edge;
    assert.notEqual(declined.edge, ok);
    assert.notEqual(list[3].edge, ok);
    assert.notEqual(list[0].edge, declined.edge);
    // Durations are the simulated ones, and the bar is longest for the slowest.
    assert.ok(list.every((r, i) => i === 0 || /^\d+ ms$/.test(r.duration)));
    const slowest = list.slice(1).reduce((a, b) => (parseInt(a.duration) >= parseInt(b.duration) ? a : b));
    assert.equal(parseFloat(slowest.bar), 100);
    // Every column is on screen, at any width: nothing is cut off to the right.
    const overflow = await page.$eval("#req-rows", (el) => [...el.querySelectorAll(".req-row > span")].some((s) => s.getBoundingClientRect().right > innerWidth + 1));
    assert.equal(overflow, false);
    await page.locator("#requests").scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${artifacts}playground-requests-${width}.png` });
    assert.deepEqual(errors, []);
    assert.deepEqual(external, []);
  });

  test(`a row opens its side panel without losing the place, and closing goes back to the row (${width} px)`, async () => {
    const { page, errors } = await open(env, { width });
    await flowWithDecline(page);
    const declined = page.locator("#req-rows li[data-kind=declined] .req-row");
    await declined.scrollIntoViewIfNeeded();
    // The place is where the row is on the screen (sections above may settle their size meanwhile).
    const before = (await declined.boundingBox()).y;
    await declined.click();
    await page.waitForSelector("#req-panel:not([hidden])");
    // On a desktop the list stays in view beside the panel: the narrower list may re-flow a
    // little, and the row stays within half a row of where it was. (On a phone the panel covers it.)
    if (width !== 390) assert.ok(Math.abs((await declined.boundingBox()).y - before) <= 16, "the list did not move");
    const panel = page.locator("#req-panel");
    assert.equal(await panel.getAttribute("data-kind"), "declined");
    assert.equal(await page.textContent("#req-panel-title"), "POST /api/payment/pay");
    assert.match(await panel.locator(".why").textContent(), /HTTP 200, code -1, and status server_error in the log\. The simulated third party declined the payment/);
    assert.match(await panel.locator(".why .outcome").textContent(), /declined/);
    // The request as sent (body included), the response with its headers.
    const sent = await page.textContent("#req-sent");
    assert.match(sent, /^POST \/api\/payment\/pay\nContent-Type: application\/json\nX-User-Id: u-1\nX-B3-TraceId: [0-9a-f]{32}\n\n\{/);
    assert.match(sent, /"paymentMethod": "CARD"/);
    assert.equal(JSON.parse(await page.textContent("#req-envelope")).msg, "Third party payment failed");
    assert.match(await panel.locator(".response-headers").textContent(), /^HTTP 200\n[\s\S]*x-b3-traceid: [0-9a-f]{32}/);
    // Its three log records, and its trace's waterfall with its own spans marked.
    assert.deepEqual(await panel.locator("li.record").evaluateAll((els) => els.map((e) => e.dataset.stage)), ["gateway", "service", "response"]);
    assert.ok(await panel.locator(".waterfall .wf-row").count() >= 3);
    assert.ok(await panel.locator(".waterfall .wf-row.c-third-party").count() >= 1);
    if (width === 390) {
      // On a phone the panel covers the list; it is a layer above, not a jump.
      const box = await panel.boundingBox();
      assert.ok(box.x <= 1 && box.width >= 380, JSON.stringify(box));
    } else {
      // On a desktop it sits beside the list, which stays in view.
      const list = await page.locator("#req-rows").boundingBox();
      const box = await panel.boundingBox();
      assert.ok(box.x > list.x + list.width - 1, `beside: ${JSON.stringify([list, box])}`);
    }
    await page.screenshot({ path: `${artifacts}playground-request-panel-${width}.png` });
    // The arrow keys move along the list with the panel following (desktop), Close goes back to the row.
    await page.click("#req-close");
    assert.equal(await panel.isHidden(), true);
    const back = await declined.boundingBox();
    if (width !== 390) assert.ok(Math.abs(back.y - before) <= 16, "back where it was");
    else assert.ok(back.y >= 0 && back.y + back.height <= 900, `the row in view again: ${back.y}`);
    assert.equal(await page.evaluate(() => document.activeElement.closest("li")?.dataset.kind), "declined");
    await page.keyboard.press("ArrowUp");
    assert.equal(await page.evaluate(() => document.activeElement.closest("li")?.dataset.kind), "ok");
    assert.deepEqual(errors, []);
  });
}

test("copy as curl and copy as fetch run against the same service over HTTP", async () => {
  const { page, context, errors } = await open(env);
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: env.base });
  await applySettings(page, { seed: 3, failureRate: 0 });
  await page.selectOption("#route", "order-create");
  await page.fill("#body", JSON.stringify({ userId: "u-'quoted'", price: 12.5, description: "it's \"tricky\" $HOME `x`" }));
  await page.click("#send");
  await page.click("#req-rows li:first-child .req-row");
  await page.fill("#req-base", "not a url");
  await page.click("#copy-curl");
  assert.match(await page.textContent("#req-copy-note"), /^server: give an http or https URL, such as http:\/\/127\.0\.0\.1:4010$/);
  await page.fill("#req-base", serverUrl());
  await page.click("#copy-curl");
  const curl = await page.textContent("#req-copied");
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), curl);
  assert.match(await page.textContent("#req-copy-note"), /^Copied as curl\.$/);
  // Run it with a real shell and curl.
  const { stdout } = await promisify(execFile)("sh", ["-c", curl]);
  const [head, body] = stdout.split(/\r\n\r\n/);
  assert.match(head, /^HTTP\/1\.1 200/);
  const created = JSON.parse(body);
  assert.equal(created.code, 0);
  assert.equal(created.data.description, "it's \"tricky\" $HOME `x`", "the body arrived byte for byte");
  assert.equal(created.data.userId, "u-'quoted'");
  // The same id as in the page: same seed, same first request.
  const inPage = JSON.parse(await page.textContent("#req-envelope")).data.orderId;
  assert.equal(created.data.orderId, inPage);

  await page.click("#copy-fetch");
  const fetchText = await page.textContent("#req-copied");
  assert.match(fetchText, /^await fetch\("http:\/\/127\.0\.0\.1:\d+\/api\/order\/create", \{/);
  const AsyncFunction = (async () => {}).constructor;
  const answer = await new AsyncFunction(`return ${fetchText.replace(/;$/, "")}`)();
  assert.equal(answer.code, 0);
  assert.equal(answer.data.description, "it's \"tricky\" $HOME `x`");
  // The server remembered: the served service has both orders.
  assert.equal(served.handle("GET", `/api/order/${answer.data.orderId}`).code, 0);
  assert.deepEqual(errors, []);
});

test("a request is sent again with the method, path, headers and body edited, and free header rows", async () => {
  const { page, errors } = await open(env);
  await applySettings(page, { seed: 21, failureRate: 0 });
  await page.selectOption("#route", "order-create");
  await page.click("#send");
  await page.click("#req-rows li:first-child .req-row");
  assert.equal(await page.inputValue("#resend-method"), "POST");
  assert.equal(await page.inputValue("#resend-path"), "/api/order/create");
  const names = await page.$$eval("#resend-headers .header-name", (els) => els.map((e) => e.value));
  assert.deepEqual(names, ["Content-Type", "X-User-Id"]);
  // Change the body, the user, add a header row with a trace id, remove Content-Type.
  await page.fill("#resend-body", JSON.stringify({ userId: "u-7", price: 3, description: "again" }));
  await page.fill("#resend-headers .header-row:nth-child(2) .header-value", "u-7");
  await page.click("#resend-add-header");
  await page.fill("#resend-headers .header-row:nth-child(3) .header-name", "X-B3-TraceId");
  await page.fill("#resend-headers .header-row:nth-child(3) .header-value", "00000000000000000000000000abcdef");
  await page.click("#resend-headers .header-row:nth-child(1) button");
  // A broken header name is refused beside the form, and nothing is sent.
  await page.click("#resend-add-header");
  await page.fill("#resend-headers .header-row:nth-child(3) .header-name", "Bad Name");
  await page.click("#resend");
  assert.equal(await page.textContent("#resend-error"), 'header name "Bad Name": letters, digits and - only, not empty');
  assert.equal(await page.locator("#req-rows li[data-key]").count(), 1);
  await page.click("#resend-headers .header-row:nth-child(3) button");
  await page.click("#resend");

  await page.waitForFunction(() => document.querySelectorAll("#req-rows li[data-key]").length === 2);
  // The new request is the one now open, and selected in the list.
  assert.equal(await page.getAttribute("#req-panel", "data-key"), await page.getAttribute("#req-rows li:first-child", "data-key"));
  assert.match(await page.getAttribute("#req-panel", "data-key"), /^00000000000000000000000000abcdef\//);
  assert.equal(await page.getAttribute("#req-rows li:first-child .req-row", "aria-pressed"), "true");
  const sent = await page.textContent("#req-sent");
  assert.equal(sent, 'POST /api/order/create\nX-User-Id: u-7\nX-B3-TraceId: 00000000000000000000000000abcdef\n\n{"userId":"u-7","price":3,"description":"again"}');
  assert.equal(JSON.parse(await page.textContent("#req-envelope")).data.description, "again");
  const response = await page.$eval("#req-panel li.record[data-stage=response]", (el) => el.textContent);
  assert.match(response, /userIdu-7/);
  assert.deepEqual(errors, []);
});

test("an order's page: its timeline of every request that touched it, declined attempts explained, each a link", async () => {
  const { page, errors } = await open(env);
  await flowWithDecline(page);
  await page.click("#req-rows li:last-child .req-row"); // the oldest: create
  const orderId = await page.getAttribute("#req-panel .object-link", "data-object");
  assert.match(orderId, /^ORD-[A-Z0-9]{8}$/);
  await page.click("#req-panel .object-link");
  await page.waitForSelector("#object-page");
  assert.equal(await page.textContent("#object-title"), `Order ${orderId}`);
  const timeline = await page.$$eval("#object-timeline li", (items) => items.map((li) => ({ kind: li.dataset.kind, text: li.textContent })));
  assert.match(timeline[0].text, /POST \/api\/order\/create.*created: done/);
  assert.match(timeline[1].text, /GET \/api\/order\/ORD-.*read: done/);
  assert.equal(timeline[2].kind, "declined");
  assert.match(timeline[2].text, /POST \/api\/payment\/pay.*payment attempt: declined by the third party, Third party payment failed.*declined by the seeded draw against the failure rate, attempt 1/);
  assert.match(timeline[3].text, /payment attempt: done.*approved by the seeded draw against the failure rate, attempt 2/);
  assert.match(timeline[4].text, /marked paid: done/);
  assert.equal(timeline[5].kind, "business");
  assert.match(timeline[5].text, /deletion: business error, Paid order cannot be deleted/);
  // Its state as the latest answer about it said.
  assert.equal(JSON.parse(await page.textContent("#object-page .object-state")).status, "PAID");
  // A timeline entry opens that request.
  await page.click("#object-timeline li:nth-child(3) .tl-open");
  await page.waitForSelector("#req-panel[data-kind=declined]");
  assert.equal(await page.textContent("#req-panel-title"), "POST /api/payment/pay");
  await page.screenshot({ path: `${artifacts}playground-request-declined.png` });
  assert.deepEqual(errors, []);
});

test("a test-data request links to the orders it made, and each order's page leads back to it", async () => {
  const { page, errors } = await open(env);
  await applySettings(page, { seed: 8, failureRate: 0 });
  await page.selectOption("#route", "test-batch");
  await page.fill("#param-count", "3");
  await page.click("#send");
  const made = JSON.parse(await page.textContent("#response pre.envelope")).data.orderIds;
  assert.equal(made.length, 3);
  await page.locator("#req-rows .req-row", { hasText: "/api/test/order/batch?count=3" }).click();
  assert.match(await page.textContent("#req-panel .objects"), /^Made 3 orders: /);
  assert.deepEqual(await page.$$eval("#req-panel .object-link", (els) => els.map((el) => el.dataset.object)), made);
  await page.click(`#req-panel .object-link[data-object="${made[1]}"]`);
  await page.waitForSelector("#object-page");
  const timeline = await page.$$eval("#object-timeline li", (items) => items.map((li) => li.textContent));
  assert.ok(timeline.some((t) => /GET \/api\/test\/order\/batch\?count=3/.test(t)), timeline.join("\n"));
  assert.ok(timeline.some((t) => new RegExp(`POST /api/order/${made[1]}/pay.*marked paid: done`).test(t)), timeline.join("\n"));
  assert.deepEqual(errors, []);
});

test("a new request adds a row at the top; the rows below are the same elements, moved down", async () => {
  const { page, errors } = await open(env);
  await page.click("#send");
  await page.click("#send");
  await page.waitForFunction(() => document.querySelectorAll("#req-rows li[data-key]").length === 2);
  // Each row marked with the request it shows.
  const keys = await page.evaluate(() => [...document.querySelectorAll("#req-rows li[data-key]")].map((li) => {
    li.shownKey = li.dataset.key;
    return li.dataset.key;
  }));
  await page.click("#send");
  await page.waitForFunction(() => document.querySelectorAll("#req-rows li[data-key]").length === 3);
  const rows = await page.evaluate(() => [...document.querySelectorAll("#req-rows li[data-key]")].map((li) => ({ key: li.dataset.key, was: li.shownKey ?? null })));
  assert.equal(rows[0].was, null, "the new request's row is new");
  assert.deepEqual(rows.slice(1), keys.map((key) => ({ key, was: key })), "each older request kept its row");
  assert.deepEqual(errors, []);
});

test("a search that changes every row refills the rows where they stand, moving none", async () => {
  const { page, errors } = await open(env);
  await flowWithDecline(page);
  const search = async (text) => {
    await page.fill("#req-search", text);
    await page.waitForSelector("#net[data-searching=false]", { state: "attached" });
  };
  await search("method:GET");
  // Each row on screen marked with where it stands.
  const before = await page.evaluate(() => [...document.querySelectorAll("#req-rows li[data-key]")].map((li, i) => {
    li.stoodAt = i;
    return li.dataset.key;
  }));
  await search("-method:GET");
  const after = await page.evaluate(() => [...document.querySelectorAll("#req-rows li[data-key]")].map((li) => ({ key: li.dataset.key, stoodAt: li.stoodAt ?? null })));
  assert.ok(before.length >= 2 && after.length > before.length, `two sets of rows, none shared: ${before.length} and ${after.length}`);
  assert.ok(after.every((row) => !before.includes(row.key)));
  // The rows that showed the GETs show the first of the others, in the same places; new rows follow.
  assert.deepEqual(after.map((row) => row.stoodAt), after.map((_, i) => (i < before.length ? i : null)));
  assert.deepEqual(errors, []);
});
