// The typical flow of the spec's part 4, as one button.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { start } from "./browser.mjs";
import { applySettings, flowSteps, logRows, open, seedDeclinedThenPaid, waitForRows } from "./playground.mjs";

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

test("the flow button runs the seven steps in order, each with its request and answer", async () => {
  const { page, errors, external, consoleMessages } = await open(env);
  await applySettings(page, { seed: 42, failureRate: 0 });
  await page.click("#run-flow");
  await page.waitForFunction(() => /^Done:/.test(document.querySelector("#flow-summary").textContent));

  const steps = await flowSteps(page);
  assert.deepEqual(steps.map((s) => s.step), [1, 2, 3, 4, 5, 6, 7]);
  assert.deepEqual(steps.map((s) => s.code), [0, 0, 0, 0, -1, 0, 0]);
  assert.match(steps[0].text, /POST \/api\/order\/create/);
  assert.match(steps[0].text, /"status": "CREATED"/);
  assert.match(steps[2].text, /POST \/api\/payment\/pay[\s\S]*"status": "SUCCESS"/);
  assert.match(steps[4].text, /POST \/api\/order\/delete\/ORD-[A-Z0-9]{8}/);
  assert.match(steps[4].text, /Paid order cannot be deleted/);
  assert.match(steps[4].text, /\(expected\)/, "the failing delete is marked as the expected failure");
  assert.match(steps[4].cls, /expected/);
  assert.match(steps[6].text, /POST \/api\/payment\/refund\/PAY-[A-Z0-9]{8}/);
  for (const s of steps) {
    assert.match(s.text, /HTTP 200/);
    assert.match(s.text, /ms in this tab/);
    assert.match(s.text, /ms simulated/);
  }

  // Its 21 log records arrive in the table without a reload.
  await waitForRows(page, 21);
  const rows = await logRows(page);
  assert.deepEqual(rows.slice(0, 3).map((r) => r.stage), ["response", "service", "gateway"], "newest first");
  assert.match(await page.textContent("#flow-summary"), /wrote 21 log records/);

  // The payment chart has its one attempt.
  assert.equal(await page.getAttribute("#chart-payments", "data-attempts"), "1");

  await env.screenshot(page, "playground-flow.png");
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(100);
  await env.screenshot(page, "playground-flow-390.png");
  assert.deepEqual(errors, []);
  assert.deepEqual(external, []);
  assert.deepEqual(consoleMessages, [], "a page load and a flow say nothing in the console, as an error or a warning");
});

test("a declined payment stops the flow, says what happened, and offers another attempt", async () => {
  const { page, errors, external } = await open(env);
  const seed = await seedDeclinedThenPaid(page);
  await applySettings(page, { seed, failureRate: 0.3 });
  await page.click("#run-flow");
  await page.waitForSelector("#flow-retry");

  let steps = await flowSteps(page);
  assert.deepEqual(steps.map((s) => [s.step, s.code]), [[1, 0], [2, 0], [3, -1]]);
  assert.match(steps[2].text, /Third party payment failed/);
  assert.match(steps[2].text, /declined this attempt/);
  assert.match(steps[2].text, /No payment was stored/);
  assert.match(steps[2].cls, /fail/);
  assert.equal(await page.evaluate(() => document.activeElement.id), "flow-retry", "the retry button has the focus");
  assert.equal(await page.textContent("#flow-summary"), "", "the flow is not done");

  await page.click("#flow-retry");
  await page.waitForFunction(() => /^Done:/.test(document.querySelector("#flow-summary").textContent));
  steps = await flowSteps(page);
  assert.deepEqual(steps.map((s) => [s.step, s.code]), [[1, 0], [2, 0], [3, -1], [3, 0], [4, 0], [5, -1], [6, 0], [7, 0]]);
  assert.match(steps[3].text, /attempt 2/);
  assert.equal(await page.locator("#flow-retry").count(), 0, "the offer is gone once answered");
  assert.equal(await page.getAttribute("#chart-payments", "data-attempts"), "2");
  assert.equal(await page.getAttribute("#chart-payments", "data-declined"), "1");
  assert.deepEqual(errors, []);
  assert.deepEqual(external, []);
});

test("stopping after a declined payment leaves the order unpaid and says so", async () => {
  const { page, errors } = await open(env);
  await applySettings(page, { failureRate: 1 });
  await page.click("#run-flow");
  await page.click("#flow-retry");
  await page.click("#flow-stop");
  assert.match(await page.textContent("#flow-summary"), /Stopped after 2 declined payment attempts: order ORD-[A-Z0-9]{8} stays CREATED/);
  assert.deepEqual((await flowSteps(page)).map((s) => s.code), [0, 0, -1, -1]);
  assert.deepEqual(errors, []);
});

/** The spans of the flow's whole-trace waterfall: depth, component, start and end (ms from the first start). */
const flowBars = (page) => page.$$eval("#flow-trace li.wf-row", (rows) => rows.map((r) => ({
  depth: Number(r.dataset.depth), component: r.dataset.component, start: Number(r.dataset.start), end: Number(r.dataset.end),
})));

test("the flow's steps follow each other: no step starts before the one before it ended, in the waterfall or in the records", async () => {
  const { page, errors } = await open(env);
  await applySettings(page, { seed: 42, failureRate: 0 });
  await page.click("#run-flow");
  await page.waitForFunction(() => /^Done:/.test(document.querySelector("#flow-summary").textContent));

  // The waterfall: one gateway bar per request (depth 0), each starting at or after the end of the one before.
  const requests = (await flowBars(page)).filter((b) => b.depth === 0);
  assert.equal(requests.length, 7);
  const payment = requests[2];
  assert.ok(payment.end - payment.start >= 50, `the payment waits for the third party (${payment.end - payment.start} ms), so an overlap would show`);
  for (let i = 1; i < requests.length; i++) {
    assert.ok(requests[i].start >= requests[i - 1].end, `step ${i + 1} starts at +${requests[i].start} ms, step ${i} ended at +${requests[i - 1].end} ms`);
  }

  // The records: in seq order, their times never go back (a request's response record is its end).
  await page.click("#logs tr[data-seq] button.trace");
  await page.locator("#trace-detail li.record").first().waitFor();
  const records = await page.locator("#trace-detail li.record").evaluateAll((els) => els.map((el) => {
    const field = (name) => [...el.querySelectorAll("dt")].find((dt) => dt.textContent === name)?.nextElementSibling.textContent;
    return { seq: Number(el.dataset.seq), stage: el.dataset.stage, timestamp: Number(field("timestamp").split(" ")[0]) };
  }));
  assert.equal(records.length, 21);
  records.sort((a, b) => a.seq - b.seq);
  for (let i = 1; i < records.length; i++) {
    assert.ok(records[i].timestamp >= records[i - 1].timestamp,
      `seq ${records[i].seq} (${records[i].stage}) at ${records[i].timestamp} comes before seq ${records[i - 1].seq} (${records[i - 1].stage}) at ${records[i - 1].timestamp}`);
  }
  assert.deepEqual(errors, []);
});
