// The Failures panel in live mode: the page opened from `orderpay serve`
// sets and clears the server's own scenario through the admin routes
// (PUT, GET and DELETE /__orderpay/scenario), a refused document shows the
// server's message naming its path and changes nothing there, and the
// rules' counts follow the requests of the page and of another client.
// A server without the scenario routes keeps the panel off, saying why,
// and is never asked for them (no 404 in the console).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { launchChromium } from "../chromium.mjs";

import { call, serve, stop } from "./serve.mjs";

let server;
let browser;
before(async () => {
  server = await serve(["--port", "0", "--seed", "5", "--failure-rate", "0"]);
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  if (server) await stop(server);
});

/** A page of the server's, and the errors it logs (a 404 shows as a console error). */
async function livePage() {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
  await page.goto(server.origin + "/");
  await page.waitForSelector("body[data-ready=true]");
  return { page, errors };
}

/** Whether this server has the scenario routes, as its admin OpenAPI document says. */
async function hasScenarioRoutes() {
  const doc = (await call(`${server.origin}/__orderpay/openapi-admin.json`)).body;
  return Object.keys(doc?.paths ?? {}).some((path) => path.endsWith("/__orderpay/scenario"));
}

const serverScenario = async () => (await call(`${server.origin}/__orderpay/scenario`)).body.data.scenario;
const counts = (page) => page.getAttribute("#scenario-active", "data-rules");

test("live: the Failures panel sets, shows and clears the server's scenario (or stays off on a server without the routes)", async () => {
  const { page, errors } = await livePage();
  if (!(await hasScenarioRoutes())) {
    assert.equal(await page.isDisabled("#scenario-apply"), true);
    assert.equal(await page.isDisabled('#presets button[data-preset="insufficient-funds"]'), true);
    assert.match(await page.textContent("#scenario-unavailable"), /This server has no scenario routes/);
    assert.deepEqual(errors, [], "a server without the routes is not asked for them");
    return;
  }
  assert.equal(await page.isHidden("#scenario-unavailable"), true);
  await page.click('#presets button[data-preset="insufficient-funds"]');
  await page.waitForFunction(() => document.querySelector("#scenario-active").dataset.active === "true");
  const set = await serverScenario();
  assert.equal(set.document.name, "insufficient-funds", "the server's own service has it");
  const rule = set.rules[0].name;

  // The page's payment meets the rule: its answer and row say so, and the counts rise.
  await page.selectOption("#route", "order-create");
  await page.click("#send");
  await page.waitForFunction(() => /"code": 0/.test(document.querySelector("#response pre.envelope")?.textContent ?? ""));
  await page.selectOption("#route", "payment-pay");
  await page.click("#send");
  await page.waitForFunction(() => document.querySelector("#response .fault-line") !== null);
  assert.match(await page.textContent("#response .fault-line"), /insufficient_funds/);
  await page.waitForFunction((r) => document.querySelector("#scenario-active").dataset.rules === `${r}:1/1`, rule);

  // Another client's payment: the counts follow it.
  const order = (await call(`${server.url}/api/order/create`, "POST", { userId: "u-2", price: 3, description: "tea" })).body.data;
  const paid = await call(`${server.url}/api/payment/pay`, "POST", { orderId: order.orderId, amount: 3, paymentMethod: "CARD" });
  assert.equal(paid.headers["x-orderpay-decline-code"], "insufficient_funds");
  await page.waitForFunction((r) => document.querySelector("#scenario-active").dataset.rules === `${r}:2/2`, rule);
  // Its row in the page's request list says what it met, though the page never saw its answer.
  await page.waitForFunction(() => document.querySelector("#req-rows li[data-key]")?.dataset.fault === "decline");
  assert.match(await page.textContent("#req-rows li[data-key] .req-msg"), /\(declined: insufficient_funds\)$/);

  // A refused document: the server's message names the path, and its scenario stays.
  const before = await counts(page);
  await page.fill("#scenario-text", JSON.stringify({ rules: [{ when: { until: "soon" }, then: { kind: "delay", ms: 5 } }] }));
  await page.click("#scenario-apply");
  await page.waitForFunction(() => document.querySelector("#scenario-text-error").textContent !== "");
  assert.match(await page.textContent("#scenario-text-error"), /rules\[0\]\.when\.until/);
  assert.equal((await serverScenario()).document.name, "insufficient-funds");
  assert.equal(await counts(page), before);

  await page.click("#scenario-clear");
  await page.waitForFunction(() => document.querySelector("#scenario-active").dataset.active === "false");
  assert.equal(await serverScenario(), null);
  // The refused PUT's 400 is the one console error Chromium logs.
  assert.deepEqual(errors.filter((e) => !/status of 400/.test(e)), []);
});
