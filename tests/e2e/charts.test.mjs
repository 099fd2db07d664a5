// The charts agree with the totals: they come from counts the page keeps
// over every record it has seen, not from the part of the log still held,
// and they say when the log dropped records before the page could count them.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { artifacts, start } from "./browser.mjs";
import { applySettings, open } from "./playground.mjs";

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

const chart = (page) => page.$eval("#chart-payments", (el) => ({ ...el.dataset, text: el.textContent }));

for (const width of [1280, 390]) {
  test(`after 3,000 orders with a log of 5,000 records the chart counts all 3,000 attempts, and so after a reload (${width} px)`, async () => {
    const { page, errors } = await open(env, { width });
    await applySettings(page, { seed: 99, logCapacity: 5000 });
    await page.fill("#batch-count", "3000");
    await page.click("#batch-run");
    await page.waitForSelector("#batch-summary[data-state=done]", { timeout: 60_000 });
    const summary = await page.$eval("#batch-summary", (el) => ({ ...el.dataset }));
    assert.match(await page.textContent("#log-count"), /older ones dropped/, "the log kept only its newest records");

    let c = await chart(page);
    assert.equal(Number(c.attempts), 3000, "one payment attempt per generated order");
    assert.equal(Number(c.succeeded), Number(summary.succeeded));
    assert.equal(Number(c.declined), Number(summary.failed));
    assert.match(c.text, /since the service started: 3,000/);
    assert.match(c.text, /The log now holds only its newest 5,000 records \([\d,]+ dropped\), but every attempt was counted as it arrived\./);
    // The durations: every order and payment request, not only those still in the log.
    assert.ok(Number(await page.getAttribute("#chart-durations", "data-requests")) > 5000);
    await page.locator("#chart-payments").scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${artifacts}playground-charts-${width}.png` });

    await page.waitForFunction(() => document.querySelector("#state-status").dataset.saved === "saved", null, { timeout: 30_000 });
    await page.reload();
    await page.waitForSelector("body[data-ready=true]");
    c = await chart(page);
    assert.equal(Number(c.attempts), 3000, "the counts are saved with the state");
    assert.equal(Number(c.succeeded), Number(summary.succeeded));
    assert.deepEqual(errors, []);
  });
}

test("records the log dropped before the page saw them are said, not silently left out", async () => {
  const { page, errors } = await open(env);
  await applySettings(page, { seed: 5, logCapacity: 500 });
  // One chunk of 250 orders writes about 2,000 records: more than the log holds.
  await page.fill("#batch-count", "250");
  await page.click("#batch-run");
  await page.waitForSelector("#batch-summary[data-state=done]");
  const c = await chart(page);
  assert.ok(Number(c.attempts) < 250);
  assert.match(c.text, /The log dropped [\d,]+ records before this page could count them/);
  // And the expected share's label sits in the margin, clear of the plot.
  const label = await page.$eval("#chart-payments text.expected-label", (el) => ({ text: el.textContent, anchor: el.getAttribute("text-anchor"), x: Number(el.getAttribute("x")) }));
  assert.deepEqual([label.text, label.anchor], ["70%", "end"]);
  const plotLeft = await page.$eval("#chart-payments line.expected", (el) => Number(el.getAttribute("x1")));
  assert.ok(label.x < plotLeft);
  assert.deepEqual(errors, []);
});
