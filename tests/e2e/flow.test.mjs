// The typical flow of the spec's part 4, as one button.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { artifacts, start } from "./browser.mjs";
import { Service } from "../../pkg/node.js";
import { exportTest } from "../../pkg/export_test.js";
import { applySettings, flowSteps, logRows, open, seedDeclinedThenPaid, waitForRows } from "./playground.mjs";

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

/**
 * "Copy as test" gives exportTest's text of the run the flow made (its
 * `steps` as the page shows them): the run saved with the state (what a
 * reload resumes), exported here in Node. The top bar's link leads to its
 * buttons.
 */
async function checkCopyAsTest(page, steps) {
  await page.getByRole("navigation", { name: "sections" }).getByRole("link", { name: "Copy as test" }).click();
  await page.waitForFunction(() => {
    const box = document.getElementById("copy-test-vitest").getBoundingClientRect();
    return box.top > 0 && box.bottom < innerHeight;
  });
  await page.click("#copy-test-vitest");
  await page.waitForSelector("#copy-test-text:not([hidden])");
  const copied = await page.textContent("#copy-test-text");
  const run = await page.evaluate(async () => {
    for (;;) {
      const { header } = (await (await import("./persist.js")).readSaved()) ?? {};
      if (header?.calls?.steps.length === 7) return header.calls;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });
  assert.deepEqual(run.steps.map((x) => `${x.method} ${x.path.replace(/[A-Z]{3}-[A-Z0-9]{8}/, "ID")}`), steps.map((x) => /(GET|POST) (\/api\/\S+)/.exec(x.text).slice(1).join(" ").replace(/[A-Z]{3}-[A-Z0-9]{8}/, "ID")));
  assert.equal(copied, exportTest(run, "vitest", undefined, (o) => new Service(o)));
  assert.match(copied, /expect\(reply\.body\.msg\)\.toBe\("Paid order cannot be deleted"\);/);
}

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

  await checkCopyAsTest(page, steps);

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
  // A fresh start clears the last service's flow: its steps, counts and trace links are no longer the log's.
  await applySettings(page, { seed: 42, failureRate: 0 });
  await page.waitForFunction(() => document.querySelectorAll("#steps > li").length === 0);
  assert.equal(await page.textContent("#flow-summary"), "");
  assert.equal(await page.isHidden("#flow-trace"), true);
  assert.deepEqual(errors, []);
});

/** Sets one of the Failures panel's examples and waits until its rule is in force. */
async function example(page, name, rule) {
  await page.click(`#presets button[data-example="${name}"]`);
  await page.waitForSelector(`#scenario-active[data-rules^="${rule}:"]`);
}

/** The flow's summary's counts: requests sent by the flow and meanwhile, and the log records of each kind. */
function counted(summary) {
  const m = /The flow sent (\d+) requests(?:, and (\d+) more went meanwhile .*?\))?, which wrote (\d+) log records \((\d+) gateway, (\d+) service, (\d+) response(?:, (\d+) payment)?;/.exec(summary);
  assert.ok(m, summary);
  const [sent, others, total, gateway, service, response, payment] = m.slice(1).map((n) => Number(n ?? 0));
  return { sent, others, total, gateway, service, response, payment };
}

test("a payment that waits stops the flow where an app would: the challenge for the buyer, the clock for PENDING; it goes on from the real status", async () => {
  const { page, errors, external } = await open(env);
  await page.check("#virtual-clock");
  await applySettings(page, { seed: 42, failureRate: 0 });
  await example(page, "challenge-every-payment", "3-D Secure");

  // Passed: the flow waits at REQUIRES_ACTION with the challenge shown, marks nothing paid, and goes on once the buyer is back.
  await page.click("#run-flow");
  const challenge = page.frameLocator('#steps li[data-step="3"] .challenge-frame').first();
  await challenge.getByRole("button", { name: "Complete" }).waitFor();
  await page.waitForSelector('#steps .flow-wait[data-status="REQUIRES_ACTION"]');
  assert.deepEqual((await flowSteps(page)).map((s) => s.step), [1, 2, 3]);
  assert.equal(await page.textContent("#flow-summary"), "", "the flow waits for the buyer");
  await page.locator('#steps li[data-step="3"]').screenshot({ path: `${artifacts}flow-challenge-wait-1280.png` });
  await challenge.getByRole("button", { name: "Complete" }).click();
  await page.waitForFunction(() => /^Done:/.test(document.querySelector("#flow-summary").textContent));
  let steps = await flowSteps(page);
  assert.deepEqual(steps.map((s) => [s.step, s.code]), [[1, 0], [2, 0], [3, 0], [3, 0], [4, 0], [5, -1], [6, 0], [7, 0]]);
  assert.match(steps[2].text, /"status": "REQUIRES_ACTION"/);
  assert.match(steps[3].text, /Read the payment once the buyer is back[\s\S]*"status": "SUCCESS"/);
  assert.match(steps[6].text, /"status": "SUCCESS"/);
  assert.ok(steps.every((s) => !/\bfail\b|unexpected/.test(s.cls)), steps.map((s) => s.cls).join("; "));
  let summary = await page.textContent("#flow-summary");
  assert.match(summary, /paid with PAY-[A-Z0-9]{8} \(the buyer passed its challenge\), marked paid/);
  // The records add up, payment records counted as their own kind; the challenge's frame sent the rest.
  let n = counted(summary);
  assert.equal(n.sent, 8);
  // The frame sent the challenge's page and the buyer's answer, and left the read to the flow: the payment is read once.
  assert.equal(n.others, 2, summary);
  assert.equal(n.payment, 1);
  assert.equal(n.gateway, n.sent + n.others);
  assert.equal(n.total, n.gateway + n.service + n.response + n.payment);
  // The flow's trace: its requests' records and its payment's change, counted apart, as the waterfall counts its requests.
  await page.click('#steps li[data-step="1"] .trace-line button.trace');
  await page.waitForSelector("#trace-detail .trace-count");
  const traceCount = await page.textContent("#trace-detail .trace-count");
  const m = /^(\d+) records: (\d+) records from 8 requests: .*; and 1 payment record, each a change of a payment's state/.exec(traceCount);
  assert.ok(m, traceCount);
  assert.equal(Number(m[1]), Number(m[2]) + 1);
  assert.match(await page.textContent("#trace-detail .wf-summary"), /spans from 8 requests/);

  // Failed: the flow stops there, truthfully: the order stays unpaid.
  await page.click("#run-flow");
  await page.frameLocator('#steps li[data-step="3"] .challenge-frame').first().getByRole("button", { name: "Fail" }).click();
  await page.waitForFunction(() => /^Stopped/.test(document.querySelector("#flow-summary").textContent));
  steps = await flowSteps(page);
  assert.deepEqual(steps.map((s) => s.step), [1, 2, 3, 3]);
  summary = await page.textContent("#flow-summary");
  assert.match(summary, /^Stopped at step 3: payment PAY-[A-Z0-9]{8} ended FAILED \(authentication_required: the buyer failed authentication\) after it was REQUIRES_ACTION, so order ORD-[A-Z0-9]{8} stays CREATED and unpaid/);
  assert.doesNotMatch(summary, /paid with|refund/);

  // Pending: the flow waits on the service's clock (virtual here: Advance moves it), then goes on.
  await example(page, "pending-30s", "processing");
  await page.click("#run-flow");
  await page.waitForSelector('#steps .flow-wait[data-status="PENDING"]');
  assert.match(await page.textContent("#steps .flow-wait"), /due in \d+(\.\d)? s .*Advance in the Simulation panel moves it/);
  assert.deepEqual((await flowSteps(page)).map((s) => s.step), [1, 2, 3]);
  await page.click("#advance-30");
  await page.waitForFunction(() => /^Done:/.test(document.querySelector("#flow-summary").textContent));
  steps = await flowSteps(page);
  assert.deepEqual(steps.map((s) => s.step), [1, 2, 3, 3, 4, 5, 6, 7]);
  assert.match(steps[3].text, /Read the payment once it settled[\s\S]*"status": "SUCCESS"/);
  summary = await page.textContent("#flow-summary");
  assert.match(summary, /paid with PAY-[A-Z0-9]{8} \(PENDING, then SUCCESS\)/);
  n = counted(summary);
  assert.deepEqual([n.sent, n.others, n.payment], [8, 0, 1]);
  assert.equal(n.total, n.gateway + n.service + n.response + n.payment);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.locator("#flow-summary").scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${artifacts}flow-pending-done-390.png` });
  assert.deepEqual(errors, []);
  assert.deepEqual(external, []);
});
