// The charts agree with the totals: they draw the counters the service
// keeps (`service.counters()`), not the part of the log still held, and
// say when the log dropped records. Checked against the counters of the
// page's own service, read from its exported state in Node.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { after, before, test } from "node:test";

import { artifacts, start } from "./browser.mjs";
import { applySettings, open } from "./playground.mjs";
import { Service } from "../../pkg/node.js";

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

const chart = (page) => page.$eval("#chart-payments", (el) => ({ ...el.dataset, text: el.textContent }));

/** The page's service, as its exported state restores in Node. */
async function pageService(page) {
  const [file] = await Promise.all([page.waitForEvent("download"), page.click("#export-state")]);
  return Service.restore(await readFile(await file.path(), "utf8"));
}

/** The order and payment bars of the histogram, by bin, from their titles. */
const histogram = (page) => page.$$eval("#chart-durations rect.order, #chart-durations rect.payment", (rects) =>
  rects.filter((r) => r.querySelector("title")).map((r) => r.querySelector("title").textContent));

for (const width of [1280, 390]) {
  test(`after 3,000 orders with a log of 5,000 records the charts show the service's counters, and so after a reload (${width} px)`, async () => {
    const { page, errors } = await open(env, { width });
    await applySettings(page, { seed: 99, logCapacity: 5000 });
    await page.fill("#batch-count", "3000");
    await page.click("#batch-run");
    await page.waitForSelector("#batch-summary[data-state=done]", { timeout: 60_000 });
    const summary = await page.$eval("#batch-summary", (el) => ({ ...el.dataset }));
    assert.match(await page.textContent("#log-count"), /older ones dropped/, "the log kept only its newest records");

    const service = await pageService(page);
    const counters = service.counters();
    assert.equal(service.logs().length, 5000);
    assert.ok(service.droppedLogs > 0);
    let c = await chart(page);
    assert.equal(counters.payments.attempts, 3000, "one payment attempt per generated order");
    assert.equal(Number(c.attempts), counters.payments.attempts);
    assert.equal(Number(c.succeeded), counters.payments.approved);
    assert.equal(Number(c.declined), counters.payments.declined);
    assert.equal(Number(c.succeeded), Number(summary.succeeded));
    assert.equal(Number(c.dropped), service.droppedLogs);
    assert.match(c.text, /since the service started: 3,000/);
    assert.match(c.text, new RegExp(`The log has dropped ${service.droppedLogs.toLocaleString("en-US")} records to stay within its capacity and holds only its newest 5,000; these charts count every request all the same`));
    // The durations: every order and payment request the service counted, bar by bar.
    const requests = counters.durations.order.count + counters.durations.payment.count;
    assert.ok(requests > 5000);
    assert.equal(Number(await page.getAttribute("#chart-durations", "data-requests")), requests);
    const bars = await histogram(page);
    const total = bars.reduce((n, title) => n + Number(/: (\d+) (order|payment) requests$/.exec(title)[1]), 0);
    assert.equal(total, requests, "the bars add up to the service's count");
    const under = (cls, ms) => {
      const { edgesMs } = counters.durations;
      return counters.durations[cls].buckets.reduce((n, k, i) => n + (i < edgesMs.length && edgesMs[i] <= ms ? k : 0), 0);
    };
    assert.ok(bars.includes(`0–5 ms: ${under("order", 5)} order requests`), bars.join("; "));
    // The running line ends at the share of approvals so far.
    const last = await page.$eval("#chart-payments polyline.running", (el) => el.getAttribute("points").trim().split(" ").at(-1));
    assert.ok(last, "a running line");
    service.free();
    await page.locator("#chart-payments").scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${artifacts}playground-charts-${width}.png` });

    await page.waitForFunction(() => document.querySelector("#state-status").dataset.saved === "saved", null, { timeout: 30_000 });
    await page.reload();
    await page.waitForSelector("body[data-ready=true]");
    c = await chart(page);
    assert.equal(Number(c.attempts), 3000, "the counters come back with the service's snapshot");
    assert.equal(Number(c.succeeded), Number(summary.succeeded));
    assert.deepEqual(errors, []);
  });
}

test("with nothing dropped, the payment chart carries no note and no stray text", async () => {
  const { page, errors } = await open(env);
  await applySettings(page, { seed: 7 });
  await page.fill("#batch-count", "20");
  await page.click("#batch-run");
  await page.waitForSelector("#batch-summary[data-state=done]");
  assert.equal(await page.$$eval("#chart-payments .chart-dropped", (els) => els.length), 0);
  const last = await page.$eval("#chart-payments", (el) => el.lastChild.textContent);
  assert.match(last, /Expected with failure rate/, "the caption ends the figure");
  assert.doesNotMatch(await page.textContent("#chart-payments"), /null/);
  assert.deepEqual(errors, []);
});

test("a request that writes more records than the log holds is still counted whole, and the expected share's label stays clear of the line", async () => {
  const { page, errors } = await open(env);
  await applySettings(page, { seed: 5, logCapacity: 500 });
  // One chunk of 250 orders writes about 2,000 records: more than the log holds.
  await page.fill("#batch-count", "250");
  await page.click("#batch-run");
  await page.waitForSelector("#batch-summary[data-state=done]");
  const c = await chart(page);
  assert.equal(Number(c.attempts), 250, "every attempt, though most of their records were dropped");
  const service = await pageService(page);
  assert.equal(Number(c.succeeded), service.counters().payments.approved);
  assert.match(await page.textContent("#chart-payments .chart-dropped"), /The log has dropped [\d,]+ records/);
  service.free();
  // The expected share's label sits in the margin, left of the plot and of the running line.
  const label = await page.$eval("#chart-payments text.expected-label", (el) => {
    const box = el.getBBox();
    return { text: el.textContent, anchor: el.getAttribute("text-anchor"), right: box.x + box.width, top: box.y, bottom: box.y + box.height };
  });
  assert.deepEqual([label.text, label.anchor], ["70%", "end"]);
  const plotLeft = await page.$eval("#chart-payments line.expected", (el) => Number(el.getAttribute("x1")));
  assert.ok(label.right < plotLeft, `label ends at ${label.right}, the plot starts at ${plotLeft}`);
  const lineLeft = await page.$eval("#chart-payments polyline.running", (el) => el.getBBox().x);
  assert.ok(label.right < lineLeft, "the label does not touch the running line");
  await page.locator("#chart-payments").screenshot({ path: `${artifacts}playground-chart-dropped.png` });
  assert.deepEqual(errors, []);
});

test("the charts redraw at most once a frame, only the chart whose counts changed, and at a new width", async () => {
  const { page, errors } = await open(env);
  await applySettings(page, { seed: 5, failureRate: 0.3 });
  // Each redraw replaces the figure's svg: counted per chart and per frame.
  await page.evaluate(() => {
    window.redraws = { payments: 0, durations: 0, frames: [] };
    let frame = 0;
    const tick = () => { frame++; requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
    for (const name of ["payments", "durations"]) {
      new MutationObserver((list) => {
        for (const m of list) for (const n of m.addedNodes) if (n.nodeName === "svg") { window.redraws[name]++; window.redraws.frames.push(`${name}@${frame}`); }
      }).observe(document.querySelector(`#chart-${name}`), { childList: true });
    }
  });
  await page.fill("#batch-count", "2000");
  await page.click("#batch-run");
  await page.waitForSelector("#batch-summary[data-state=done]", { timeout: 60_000 });
  await page.waitForFunction(() => document.querySelector("#chart-payments").dataset.attempts === "2000");
  await page.waitForTimeout(300);
  const run = await page.evaluate(() => window.redraws);
  const perFrame = {};
  for (const f of run.frames) perFrame[f] = (perFrame[f] ?? 0) + 1;
  assert.ok(Object.values(perFrame).every((n) => n === 1), `one redraw of each chart a frame at most: ${JSON.stringify(perFrame)}`);
  assert.ok(run.payments >= 2, `the payment chart followed the run: ${run.payments} redraws`);

  // A change that moves no count (forceNext set) redraws neither chart.
  await page.evaluate(() => { window.redraws.payments = 0; window.redraws.durations = 0; });
  await page.fill("#force-count", "2");
  await page.click("#force-apply");
  await page.waitForFunction(() => /2/.test(document.querySelector("#forced-status").textContent));
  await page.waitForTimeout(300);
  assert.deepEqual(await page.evaluate(() => [window.redraws.payments, window.redraws.durations]), [0, 0]);

  // A new width redraws both, at that width.
  await page.setViewportSize({ width: 700, height: 900 });
  await page.waitForFunction(() => window.redraws.payments >= 1 && window.redraws.durations >= 1);
  const drawn = await page.$eval("#chart-payments", (el) => [Number(el.querySelector("svg").getAttribute("width")), el.clientWidth]);
  assert.equal(drawn[0], Math.max(280, drawn[1]));
  assert.deepEqual(errors, []);
});
