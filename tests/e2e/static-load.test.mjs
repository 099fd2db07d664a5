// The in-tab page served as plain files (www/ at /, the package at /pkg/):
// it loads with no console error and asks no server whether it is one.
// Only `orderpay serve` marks the pages it serves as live
// (tests/server/live.test.mjs).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { start } from "./browser.mjs";

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

for (const width of [1280, 390]) {
  test(`a static load logs no console error, fails no request, and stays in the tab (${width} px)`, async () => {
    const context = await env.browser.newContext({ viewport: { width, height: 900 } });
    const page = await context.newPage();
    const problems = [];
    const asked = [];
    page.on("console", (m) => { if (m.type() === "error" || m.type() === "warning") problems.push(`${m.type()}: ${m.text()}`); });
    page.on("pageerror", (e) => problems.push(`pageerror: ${e}`));
    page.on("response", (r) => { if (r.status() >= 400) problems.push(`${r.status()} ${r.url()}`); });
    page.on("request", (r) => asked.push(new URL(r.url()).pathname));
    await page.goto(env.base);
    await page.waitForSelector("body[data-ready=true]");
    // A moment for anything that would come after the page says it is ready.
    await page.waitForTimeout(300);
    assert.deepEqual(problems, []);
    assert.deepEqual(asked.filter((p) => p.startsWith("/__orderpay")), [], "no probe for a server");
    assert.equal(await page.locator('meta[name="orderpay-live"]').count(), 0);
    assert.doesNotMatch(await page.textContent("#notice"), /^Live/);
    assert.match(await page.textContent(".lead"), /in this tab/);
    await context.close();
  });
}
