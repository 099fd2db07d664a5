// The typical flow as one trace: every step sent under one X-B3-TraceId,
// one waterfall for the whole flow, and each step naming the components its
// request went through, with its own spans in small. At 1280 and 390 px.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { artifacts, start } from "./browser.mjs";
import { applySettings, open } from "./playground.mjs";

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

for (const width of [1280, 390]) {
  test(`the flow goes under one trace, drawn as one waterfall, each step with its path (${width} px)`, async () => {
    const { page, errors, external } = await open(env, { width });
    await applySettings(page, { seed: 42, failureRate: 0 });
    await page.click("#run-flow");
    await page.waitForFunction(() => /^Done:/.test(document.querySelector("#flow-summary").textContent));

    // One trace id, sent with every request and used by the service for each.
    const sent = await page.$$eval("#steps > li pre.request", (els) => els.map((el) => /X-B3-TraceId: ([0-9a-f]+)/.exec(el.textContent)?.[1]));
    assert.equal(sent.length, 7);
    assert.match(sent[0], /^[0-9a-f]{32}$/);
    assert.deepEqual(new Set(sent), new Set([sent[0]]));
    const used = await page.$$eval("#steps > li button.trace", (els) => els.map((el) => el.textContent));
    assert.deepEqual(used, Array(7).fill(sent[0]));

    // Each step says which components its request went through, with a bar per span.
    const paths = await page.$$eval("#steps > li", (items) => items.map((li) => ({
      path: li.querySelector(".step-path")?.textContent,
      spans: [...li.querySelectorAll(".mini-wf li")].map((s) => s.dataset.component),
    })));
    assert.deepEqual(paths.map((p) => p.path), [
      "Path: gateway → order service",
      "Path: gateway → order service",
      "Path: gateway → payment service → third party",
      "Path: gateway → order service",
      "Path: gateway → order service",
      "Path: gateway → payment service",
      "Path: gateway → payment service",
    ]);
    assert.deepEqual(paths[2].spans, ["gateway", "payment-service", "third-party"]);
    assert.deepEqual(paths[0].spans, ["gateway", "order-service"]);

    // The whole flow in one waterfall: seven gateway spans, each with what it called under it.
    const whole = page.locator("#flow-trace");
    assert.equal(await whole.getAttribute("data-trace"), sent[0]);
    const rows = await whole.locator(".wf-row").evaluateAll((els) => els.map((el) => ({ component: el.dataset.component, depth: Number(el.dataset.depth), start: Number(el.dataset.start) })));
    assert.equal(rows.filter((r) => r.depth === 0).length, 7);
    assert.ok(rows.filter((r) => r.depth === 0).every((r) => r.component === "gateway"));
    assert.deepEqual(rows.filter((r) => r.component === "third-party").map((r) => r.depth), [2]);
    assert.equal(rows.length, 15, "seven gateway spans, seven service spans, one third party");
    const starts = rows.filter((r) => r.depth === 0).map((r) => r.start);
    assert.deepEqual(starts, [...starts].sort((a, b) => a - b), "in the order they were sent");
    assert.match(await whole.textContent(), /15 spans from 7 requests/);

    await whole.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${artifacts}playground-flow-trace-${width}.png` });

    // A step's trace id opens the trace in the log, and a button there comes back to the step.
    await page.click("#steps > li:nth-child(3) button.trace");
    await page.waitForSelector("#trace-detail:not([hidden])");
    assert.equal(await page.evaluate(() => document.activeElement.id), "trace-title");
    await page.click("#trace-back");
    assert.equal(await page.evaluate(() => document.activeElement.closest("#steps > li")?.dataset.step), "3");
    const box = await page.locator("#steps > li:nth-child(3) button.trace").boundingBox();
    assert.ok(box.y >= 0 && box.y + box.height <= 900, `back in view: ${box.y}`);
    assert.deepEqual(errors, []);
    assert.deepEqual(external, []);
  });
}
