// The live playground follows one session: opened through /s/NAME/, the
// page shows session NAME (its name in the header's notice and picker), its
// log holds that session's requests only, and the picker moves it to
// another session.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { launchChromium } from "../chromium.mjs";

import { call, serve, stop } from "./serve.mjs";

let server;
let browser;
before(async () => {
  server = await serve(["--port", "0", "--seed", "4"]);
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  if (server) await stop(server);
});

const create = (headers, userId) => call(`${server.url}/api/order/create`, "POST", { userId, price: 3 }, headers);
const uris = (page) => page.$$eval("#logs tr[data-seq]", (trs) => trs.map((tr) => tr.cells[4].textContent));

test("a page opened at /s/NAME/ follows session NAME, and its picker moves it to another", async () => {
  await create({ "x-orderpay-session": "alpha" }, "in-alpha");
  await create({}, "in-default");
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(`${server.origin}/s/alpha/`);
  assert.equal(new URL(page.url()).pathname, "/", "sent back to the playground");
  await page.waitForSelector("body[data-ready=true]");
  assert.match(await page.textContent("#notice"), /, session alpha\./);
  await page.waitForSelector("#session");
  assert.equal(await page.inputValue("#session"), "alpha");
  const options = await page.$$eval("#session option", (os) => os.map((o) => o.value));
  assert.deepEqual(options, ["default", "alpha", "\u0000new"]);
  // The log is alpha's: its creates, and another client's to alpha arriving live; default's reads never.
  await page.waitForFunction(() => document.querySelectorAll("#logs tr[data-seq]").length > 0);
  await create({ "x-orderpay-session": "alpha" }, "in-alpha-2");
  await call(`${server.url}/api/order/ORD-NOTFOUND`);
  const alphaLogs = (await call(`${server.origin}/__orderpay/sessions/alpha/logs`)).body.data.records;
  await page.waitForFunction((n) => document.querySelectorAll("#logs tr[data-seq]").length >= n, alphaLogs.length, { timeout: 30_000 });
  const shown = await uris(page);
  assert.equal(shown.length, alphaLogs.length, shown.join());
  // Each create shows in its gateway and response rows: alpha's two, not default's read.
  assert.deepEqual(shown.filter(Boolean), Array(4).fill("POST /api/order/create"), JSON.stringify(shown));

  // The picker: another session by name.
  page.once("dialog", (dialog) => dialog.accept("beta"));
  await Promise.all([page.waitForURL(`${server.origin}/`), page.selectOption("#session", "\u0000new")]);
  await page.waitForSelector("body[data-ready=true]");
  await page.waitForSelector("#session");
  assert.equal(await page.inputValue("#session"), "beta");
  assert.match(await page.textContent("#notice"), /, session beta\./);
  assert.deepEqual(errors, []);
  await page.close();
});
