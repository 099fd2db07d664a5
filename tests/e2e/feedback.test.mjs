// Bad input is said beside its field, and never mixed with an older answer:
// a refused setting, a forced count out of bounds, a test-data count out of range.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { start } from "./browser.mjs";
import { open } from "./playground.mjs";

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

for (const width of [1280, 390]) {
  test(`errors beside their fields, counts bounded, no stale status (${width} px)`, async () => {
    const { page, errors } = await open(env, { width });

    await page.fill("#failure-rate", "1.5");
    await page.click("#apply-settings");
    assert.equal(await page.textContent("#failure-rate-error"), "failureRate: must be a number from 0 to 1, got 1.5");
    assert.equal(await page.getAttribute("#failure-rate", "aria-invalid"), "true");
    assert.equal(await page.evaluate(() => document.activeElement.id), "failure-rate");
    // Right under the field, not elsewhere on the page.
    const field = await page.locator("#failure-rate").boundingBox();
    const error = await page.locator("#failure-rate-error").boundingBox();
    assert.ok(error.y >= field.y + field.height - 1 && error.y - (field.y + field.height) < 40, JSON.stringify([field, error]));
    await page.fill("#failure-rate", "0.2");
    await page.click("#apply-settings");
    assert.equal(await page.textContent("#failure-rate-error"), "");
    assert.equal(await page.getAttribute("#failure-rate", "aria-invalid"), null);

    // The service checks the count (a whole number up to 4,294,967,295) and names what is wrong; the page has no limit of its own.
    await page.fill("#force-count", "1e10");
    await page.click("#force-apply");
    assert.match(await page.textContent("#force-count-error"), /^count: .*4294967295/);
    assert.equal(await page.getAttribute("#forced-status", "data-pending"), "", "nothing was forced");
    await page.fill("#force-count", "20000");
    await page.click("#force-apply");
    assert.equal(await page.textContent("#force-count-error"), "");
    assert.equal(await page.getAttribute("#forced-status", "data-pending"), "failure:20000");
    await page.fill("#force-count", "2");
    await page.click("#force-apply");
    assert.equal(await page.textContent("#force-count-error"), "");
    assert.equal(await page.getAttribute("#forced-status", "data-pending"), "failure:2");

    await page.fill("#batch-count", "250");
    await page.click("#batch-run");
    await page.waitForSelector("#batch-summary[data-state=done]");
    assert.equal(await page.textContent("#batch-status"), "250 of 250 orders.");
    await page.fill("#batch-count", "0");
    await page.click("#batch-run");
    await page.waitForSelector("#batch-summary[data-state=error]");
    assert.equal(await page.textContent("#batch-status"), "", "the last run's status is gone");
    assert.equal(await page.isHidden("#batch-progress"), true);
    assert.deepEqual(errors, []);
  });
}
