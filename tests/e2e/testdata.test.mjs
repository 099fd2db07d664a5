// The test-data endpoint for large counts: in chunks, with progress, and
// the payment chart settling near 70/30.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { start } from "./browser.mjs";
import { applySettings, logRows, open } from "./playground.mjs";

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

test("a 2,000-order run shows progress, keeps the page responsive, and its chart settles near 70/30", async () => {
  const { page, errors, external } = await open(env);
  await applySettings(page, { seed: 2024, failureRate: 0.3, logCapacity: 100000 });
  // What the page shows on each frame while the run goes on.
  await page.evaluate(() => {
    window.frames_seen = [];
    const progress = document.querySelector("#batch-progress");
    const sample = () => {
      window.frames_seen.push({ value: progress.value, max: progress.max, hidden: progress.hidden });
      if (document.querySelector("#batch-summary").dataset.state !== "done") requestAnimationFrame(sample);
    };
    requestAnimationFrame(sample);
  });
  await page.fill("#batch-count", "2000");
  await page.click("#batch-run");
  await page.waitForSelector("#batch-summary[data-state=done]", { timeout: 20_000 });

  const frames = await page.evaluate(() => window.frames_seen);
  const between = frames.filter((f) => !f.hidden && f.max === 2000 && f.value > 0 && f.value < 2000);
  assert.ok(between.length >= 3, `the progress bar was painted part way at least 3 times: ${JSON.stringify(frames.slice(0, 20))}`);

  const summary = await page.$eval("#batch-summary", (el) => ({ ...el.dataset, text: el.textContent }));
  assert.equal(Number(summary.count), 2000);
  assert.equal(Number(summary.succeeded) + Number(summary.failed), 2000);
  // Chunks follow how long the last took, so how many there are depends on the machine.
  const requests = Number(summary.requests);
  assert.ok(requests >= 8, `at most 250 orders a chunk: ${requests} requests`);
  assert.match(summary.text, new RegExp(`2,000 orders generated in ${requests} requests`));
  assert.equal(await page.textContent("#batch-status"), "2,000 of 2,000 orders.");
  assert.equal(await page.isDisabled("#batch-cancel"), true);

  // The chart, drawn from the log: every attempt is there (capacity 100000).
  const chart = await page.$eval("#chart-payments", (el) => ({ ...el.dataset, text: el.textContent, line: el.querySelector("polyline")?.getAttribute("points") }));
  assert.equal(Number(chart.attempts), 2000);
  assert.equal(Number(chart.succeeded), Number(summary.succeeded));
  const share = Number(chart.share);
  assert.ok(share > 0.65 && share < 0.75, `success share ${share} near 0.7`);
  assert.match(chart.text, /Expected with failure rate 0\.3: 70\/30/);
  // The running share ends where the totals are, inside the plot.
  assert.ok(chart.line.split(" ").length > 100, "the running share is drawn");
  const durations = await page.$eval("#chart-durations", (el) => ({ n: Number(el.dataset.requests), bars: el.querySelectorAll("rect.order, rect.payment").length }));
  assert.ok(durations.n > 5000, `durations from the log: ${durations.n}`);
  assert.ok(durations.bars >= 6);

  // Each chunk of at most 250 orders is a request of its own in the log.
  await page.selectOption("#filter-uri_group", "/test/*");
  await page.selectOption("#filter-stage", "response");
  const chunks = await logRows(page);
  assert.equal(chunks.length, requests);
  assert.ok(chunks.every((r) => r.uri === "GET /api/test/order/batch" && r.answer === "200 · 0 success"));
  await env.screenshot(page, "playground-testdata.png");
  assert.deepEqual(errors, []);
  assert.deepEqual(external, []);
});

test("a run can be cancelled between chunks", async () => {
  const { page, errors } = await open(env);
  await page.fill("#batch-count", "10000");
  await page.click("#batch-run");
  await page.waitForFunction(() => document.querySelector("#batch-progress").value >= 500);
  await page.click("#batch-cancel");
  await page.waitForSelector("#batch-summary[data-state=done]");
  const count = Number(await page.getAttribute("#batch-summary", "data-count"));
  assert.ok(count >= 500 && count < 10000, `stopped between chunks: ${count}`);
  // Whole chunks: every order made has its payment attempt counted, and no more.
  await page.waitForFunction((n) => document.querySelector("#chart-payments").dataset.attempts === String(n), count);
  assert.match(await page.textContent("#batch-status"), /^Cancelled at /);
  assert.deepEqual(errors, []);
});

test("a count out of bounds gets the service's own 400, in one request", async () => {
  const { page, errors } = await open(env);
  for (const bad of ["0", "10001", "12abc"]) {
    await page.fill("#batch-count", bad);
    await page.click("#batch-run");
    await page.waitForSelector("#batch-summary[data-state=error]");
    assert.match(await page.textContent("#batch-summary"), new RegExp(`^HTTP 400, code 400: count: must be a whole number from 1 to 10000, got "${bad}"`));
  }
  assert.deepEqual(errors, []);
});

test("while a run goes on, the log and the request list out of sight wait, and are drawn in sight or at its end", async () => {
  const { page, errors } = await open(env);
  await applySettings(page, { seed: 7, logCapacity: 100000 });
  const counts = () => page.evaluate(() => ({ log: document.querySelector("#log-count").textContent, requests: document.querySelector("#req-count").textContent }));
  await page.waitForFunction(() => /^[\d,]+ records? in the log/.test(document.querySelector("#log-count").textContent));
  // The test-data form in view, and the log below it, out of sight (applying the settings left the
  // page scrolled down to them, beside the log).
  await page.evaluate(() => new Promise((resolve) => {
    document.querySelector("#testdata").scrollIntoView({ block: "start" });
    requestAnimationFrame(() => requestAnimationFrame(resolve));
  }));
  const atStart = await counts();
  await page.fill("#batch-count", "6000");
  await page.click("#batch-run");
  await page.waitForFunction(() => document.querySelector("#batch-progress").value >= 1000, null, { timeout: 60_000 });
  // The log lies out of sight: its count and rows are as before the run.
  const log = await page.$eval("#log", (el) => el.getBoundingClientRect().top - innerHeight);
  assert.ok(log > 0, `the log below the view: ${log}`);
  assert.equal((await counts()).log, atStart.log);
  // Brought into sight mid-run, it is drawn at once.
  await page.evaluate(() => document.querySelector("#log").scrollIntoView({ block: "start" }));
  await page.waitForFunction((before) => document.querySelector("#log-count").textContent !== before, atStart.log, { timeout: 30_000 });
  assert.equal(await page.getAttribute("#batch-summary", "data-state"), "running");
  // Out of sight again until the end: then both are drawn with every record and request.
  await page.evaluate(() => scrollTo(0, 0));
  await page.waitForSelector("#batch-summary[data-state=done]", { timeout: 120_000 });
  // Nothing dropped: the newest row's seq is the number of records the count gives.
  await page.waitForFunction(() => {
    const total = /^([\d,]+) records in the log/.exec(document.querySelector("#log-count").textContent)?.[1].replaceAll(",", "");
    return Number(total) > 40000 && Number(document.querySelector("#logs tr[data-seq]")?.dataset.seq) === Number(total);
  }, null, { timeout: 10_000 });
  assert.notEqual((await counts()).requests, atStart.requests);
  assert.deepEqual(errors, []);
});
