// Forced outcomes from the page (the Simulation panel's forceNext and the
// console's X-Sim-Outcome header), the explanation of each payment
// attempt, a trace's spans as a waterfall, and the OTLP export.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, test } from "node:test";

import { artifacts, start } from "./browser.mjs";
import { applySettings, open, waitForRows } from "./playground.mjs";

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

/** Creates an order from the console; returns it. */
async function createOrder(page) {
  await page.selectOption("#route", "order-create");
  await page.click("#send");
  return JSON.parse(await page.textContent("#response pre.envelope")).data;
}

/** Pays the latest order from the console, with X-Sim-Outcome `sim` ("" for none); returns the envelope. */
async function pay(page, sim = "") {
  await page.selectOption("#route", "payment-pay");
  await page.selectOption("#h-sim", sim);
  await page.click("#send");
  return JSON.parse(await page.textContent("#response pre.envelope"));
}

/** The explanation shown with the console's answer. */
const explanation = (page, root = "#response") => page.$eval(`${root} .outcome`, (el) => ({
  rule: el.dataset.rule, approved: el.dataset.approved, text: el.textContent,
}));

test("forcing a failure from the page: the next payment fails, says it was forced, and the pending count survives a reload", async () => {
  const { page, errors, external } = await open(env);
  await applySettings(page, { seed: 11, failureRate: 0 }); // the draw alone never declines
  assert.match(await page.textContent("#forced-status"), /^Nothing forced/);
  await createOrder(page);

  // A count the service refuses is named, and nothing is forced.
  await page.fill("#force-count", "-1");
  await page.click("#force-apply");
  assert.match(await page.textContent("#force-message"), /^Not forced: count: must be a whole number/);
  assert.equal(await page.getAttribute("#forced-status", "data-pending"), "");

  await page.selectOption("#force-outcome", "failure");
  await page.fill("#force-count", "2");
  await page.click("#force-apply");
  assert.equal(await page.getAttribute("#forced-status", "data-pending"), "failure:2");
  assert.match(await page.textContent("#forced-status"), /the next 2 payment attempts fail/);

  // It is part of the saved state.
  await page.reload();
  await page.waitForSelector("body[data-ready=true]");
  assert.equal(await page.getAttribute("#forced-status", "data-pending"), "failure:2");

  // The console shows what will decide a payment without the header.
  await page.selectOption("#route", "payment-pay");
  assert.match(await page.textContent("#sim-pending"), /forceNext decides, the next 2 payment attempts fail/);
  const declined = await pay(page);
  assert.equal(declined.code, -1);
  assert.equal(declined.msg, "Third party payment failed");
  const why = await explanation(page);
  assert.equal(why.rule, "forced-next");
  assert.equal(why.approved, "false");
  assert.match(why.text, /^declined Why: forced declined by the forceNext \(the draw 0\.\d{4} would have approved\)/);
  assert.match(why.text, /attempt1 \(the first on this order\)/);
  assert.match(why.text, /draw vs threshold0\.\d{4} ≥ 0: on its own the draw approves/);
  assert.equal(await page.getAttribute("#forced-status", "data-pending"), "failure:1");

  // The flow meets the second forced failure and says why; the retry goes through.
  await page.click("#run-flow");
  await page.waitForSelector("#flow-retry");
  const step = page.locator("#steps > li").nth(2);
  assert.match(await step.textContent(), /declined this attempt because forceNext in the Simulation panel said so \(nothing more is forced\)/);
  assert.equal(await step.locator(".outcome").getAttribute("data-rule"), "forced-next");
  await page.click("#flow-retry");
  await page.waitForFunction(() => /^Done:/.test(document.querySelector("#flow-summary").textContent));
  const retried = page.locator("#steps > li").nth(3);
  assert.equal(await retried.locator(".outcome").getAttribute("data-rule"), "draw");
  assert.match(await retried.locator(".outcome").textContent(), /^approved Why: draw 0\.\d+ >= failure rate 0: approved/);
  assert.match(await page.textContent("#forced-status"), /^Nothing forced/);

  // The forced failure's trace: its spans are drawn in the error style, and its service record explains it.
  await page.click("#response button.trace"); // the console's answer: the forced failure
  const detail = page.locator("#trace-detail");
  await detail.locator(".waterfall").waitFor();
  const rows = await detail.locator(".wf-row").evaluateAll((els) => els.map((el) => [el.dataset.component, el.dataset.status, el.classList.contains("error")]));
  assert.deepEqual(rows, [["gateway", "server_error", true], ["payment-service", "server_error", true], ["third-party", "server_error", true]]);
  assert.match(await detail.locator(".wf-row.error .wf-comp").first().textContent(), /server_error/);
  assert.equal(await detail.locator(".request .outcome").getAttribute("data-rule"), "forced-next");

  // Force successes, then clear them.
  await page.selectOption("#force-outcome", "success");
  await page.fill("#force-count", "3");
  await page.click("#force-apply");
  assert.equal(await page.getAttribute("#forced-status", "data-pending"), "success:3");
  await page.click("#force-clear");
  assert.equal(await page.getAttribute("#forced-status", "data-pending"), "");
  assert.match(await page.textContent("#force-message"), /^Cleared: the 3 pending forced attempts are left to the draw again/);
  assert.deepEqual(errors, []);
  assert.deepEqual(external, []);
});

test("X-Sim-Outcome from the console: success with failure rate 1, and the draw's own verdict without it", async () => {
  const { page, errors } = await open(env);
  await applySettings(page, { seed: 12, failureRate: 1 });
  await createOrder(page);
  assert.equal(await page.isHidden("#sim-field"), true, "only payment pay offers the header");

  await page.selectOption("#route", "payment-pay");
  await page.selectOption("#h-sim", "success");
  assert.match(await page.textContent("#request-preview"), /^X-Sim-Outcome: success$/m);
  const paid = await pay(page, "success");
  assert.equal(paid.code, 0);
  assert.equal(paid.data.status, "SUCCESS");
  let why = await explanation(page);
  assert.equal(why.rule, "header");
  assert.equal(why.approved, "true");
  assert.match(why.text, /Why: forced approved by the X-Sim-Outcome header \(the draw 0\.\d+ would have declined\)/);
  assert.match(why.text, /ruleheader \(the X-Sim-Outcome request header\)/);

  const declined = await pay(page, "");
  assert.doesNotMatch(await page.textContent("#request-preview"), /X-Sim-Outcome/);
  assert.equal(declined.msg, "Third party payment failed");
  why = await explanation(page);
  assert.equal(why.rule, "draw");
  assert.match(why.text, /Why: draw 0\.\d+ < failure rate 1: declined/);
  assert.match(why.text, /attempt2 on this order/);

  await page.selectOption("#route", "order-get");
  assert.equal(await page.isHidden("#sim-field"), true);
  assert.deepEqual(errors, []);
});

test("the waterfall of a payment trace: gateway, payment service and third party, nested on a time axis; OTLP export", async () => {
  const { page, errors, external } = await open(env);
  await applySettings(page, { seed: 5, failureRate: 0 });
  await createOrder(page);
  const paid = await pay(page);
  assert.equal(paid.code, 0);
  await waitForRows(page, 6);
  await page.click("#response button.trace");
  const detail = page.locator("#trace-detail");
  const chart = detail.locator(".waterfall");
  await chart.waitFor();

  const rows = await chart.locator(".wf-row").evaluateAll((els) => els.map((el) => {
    const bar = el.querySelector(".wf-bar").getBoundingClientRect();
    return {
      ...el.dataset, start: Number(el.dataset.start), end: Number(el.dataset.end),
      name: el.querySelector(".wf-name").textContent, dur: el.querySelector(".wf-dur").textContent,
      indent: el.querySelector(".wf-label").getBoundingClientRect().left + parseFloat(getComputedStyle(el.querySelector(".wf-label")).paddingLeft),
      left: bar.left, right: bar.right,
    };
  }));
  assert.deepEqual(rows.map((r) => r.component), ["gateway", "payment-service", "third-party"]);
  assert.deepEqual(rows.map((r) => r.depth), ["0", "1", "2"]);
  assert.deepEqual(rows.map((r) => r.name), ["POST /api/payment/pay", "POST /api/payment/pay", "authorize payment"]);
  assert.equal(rows[0].parentSpanId, "", "the gateway's span is the root");
  assert.equal(rows[1].parentSpanId, rows[0].spanId);
  assert.equal(rows[2].parentSpanId, rows[1].spanId);
  assert.ok(rows[0].indent < rows[1].indent && rows[1].indent < rows[2].indent, "each child is indented under its parent");
  assert.equal(rows[0].start, 0, "the axis starts at the trace's first span");
  for (const r of rows) {
    assert.equal(r.dur, `${r.end - r.start} ms`);
    assert.equal(r.status, "success");
  }
  // Children inside their parents, in time and on the screen.
  for (const [child, parent] of [[rows[1], rows[0]], [rows[2], rows[1]]]) {
    assert.ok(child.start >= parent.start && child.end <= parent.end, `${child.component} within ${parent.component} in time`);
    assert.ok(child.left >= parent.left - 0.5 && child.right <= parent.right + 0.5, `${child.component}'s bar inside ${parent.component}'s`);
  }
  // The third party starts after the payment service's own work.
  assert.ok(rows[2].start > rows[1].start, "the third party starts after the payment service's own time");
  assert.ok(rows[2].left > rows[1].left + 1, "and its bar starts further right");

  // The simulated duration of the request is the gateway span's.
  assert.match(await page.textContent("#response .facts"), new RegExp(`· ${rows[0].end - rows[0].start} ms simulated`));

  // The legend names every component; a span's name opens its attributes, the reason among them.
  assert.deepEqual(await chart.locator(".wf-legend li").allTextContents(),
    ["gateway", "order-service", "payment-service", "third-party", "test-data", "server_error (striped, red edge)"]);
  const third = chart.locator(".wf-row").nth(2);
  await third.locator(".wf-name").focus();
  await page.keyboard.press("Enter");
  assert.equal(await third.locator(".wf-name").getAttribute("aria-expanded"), "true");
  assert.match(await third.locator(".wf-details").textContent(), /orderpay\.reasondraw 0\.\d+ >= failure rate 0: approved/);
  assert.equal(await detail.locator(".request .outcome").getAttribute("data-approved"), "true");

  await chart.screenshot({ path: join(artifacts, "playground-waterfall.png") });
  await detail.screenshot({ path: join(artifacts, "playground-trace.png") });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(100);
  const overflow = await page.evaluate(() => [...document.querySelectorAll("#trace-detail *")]
    .filter((el) => el.getBoundingClientRect().right > innerWidth + 1).map((el) => el.className || el.tagName));
  assert.deepEqual(overflow, [], "nothing in the trace view sticks out at 390px");
  await detail.screenshot({ path: join(artifacts, "playground-waterfall-390.png") });

  // The spans as OTLP/JSON, next to the NDJSON export.
  const [file] = await Promise.all([page.waitForEvent("download"), page.click("#export-otlp")]);
  assert.match(file.suggestedFilename(), /^orderpay-traces-.*\.otlp\.json$/);
  const otlp = JSON.parse(await readFile(await file.path(), "utf8"));
  assert.ok(Array.isArray(otlp.resourceSpans) && otlp.resourceSpans.length >= 3);
  const exported = otlp.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));
  assert.equal(exported.length, 5, "create: gateway and order service; pay: three");
  for (const r of rows) assert.ok(exported.some((s) => s.spanId === r.spanId), `span ${r.spanId} exported`);
  assert.match(await page.textContent("#settings-message"), /^Exported 5 spans as OTLP\/JSON/);
  assert.deepEqual(errors, []);
  assert.deepEqual(external, []);
});
