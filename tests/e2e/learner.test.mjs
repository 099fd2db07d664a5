// For people learning how requests show up in logs and traces: the system
// picture, the ids explained and lit up together, trace ids the service
// will ignore flagged before sending, a traceparent from the console with
// the gateway span as its child, and the trace as Kibana and Jaeger see it.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { artifacts, start } from "./browser.mjs";
import { applySettings, open } from "./playground.mjs";

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

const check = (page) => page.textContent("#h-trace-check");

for (const width of [1280, 390]) {
  test(`the system picture, and trace ids the service will ignore flagged before sending (${width} px)`, async () => {
    const height = width === 390 ? 844 : 900;
    const { page, errors } = await open(env, { width, height });
    const boxes = await page.$$eval(".system .sys", (els) => els.map((el) => el.firstChild.textContent.trim()));
    assert.deepEqual(boxes, ["your app", "gateway", "order service", "payment service", "third party"]);
    // On a phone the flow's button is on the first screen.
    const button = await page.locator("#run-flow").boundingBox();
    assert.ok(button.y + button.height <= height, `the flow button at ${button.y}`);
    await page.screenshot({ path: `${artifacts}playground-top-${width}.png` });

    await page.selectOption("#route", "order-get");
    await page.fill("#h-trace", "my-trace-1");
    assert.equal(await check(page), "The service will ignore this id (not hex digits: an id has only 0-9 and a-f) and make a fresh one.");
    await page.fill("#h-trace", "463AC35C9F6413AD");
    assert.equal(await check(page), "The service will ignore this id (upper-case letters: ids are lower-case hex (0-9, a-f)) and make a fresh one.");
    await page.click("#send");
    assert.match(await page.textContent("#context-verdict"), /^The service ignored the trace id sent in X-B3-TraceId and made a fresh one: [0-9a-f]{32}\.$/);
    assert.equal(await page.getAttribute("#context-verdict", "data-used"), "false");

    await page.fill("#h-trace", "463ac35c9f6413ad");
    assert.equal(await check(page), "Used as it is: a 64-bit id. In traceparent and OTLP it becomes 32 digits, padded with 16 zeros on the left.");
    await page.click("#send");
    assert.equal(await page.textContent("#context-verdict"), "The trace id from X-B3-TraceId was used: 463ac35c9f6413ad.");
    assert.match(await page.textContent("#response .headers"), /traceparent: 00-0000000000000000463ac35c9f6413ad-/);
    await page.locator("#console").scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${artifacts}playground-trace-context-${width}.png` });
    assert.deepEqual(errors, []);
  });
}

test("a traceparent from the console: the gateway span is the caller's child, and the ids light up together", async () => {
  const { page, errors } = await open(env);
  await applySettings(page, { seed: 6, failureRate: 0 });
  await page.selectOption("#route", "order-create");
  await page.fill("#h-trace", "");
  await page.click("#propagation summary");
  await page.fill("#h-traceparent", "00-abc-01");
  assert.match(await page.textContent("#h-traceparent-check"), /^Ignored by the service: it has four parts/);
  await page.click("#pretend-caller");
  const sent = await page.inputValue("#h-traceparent");
  const [, traceId, parent] = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec(sent);
  assert.equal(await page.textContent("#h-traceparent-check"), "");
  assert.match(await page.textContent("#request-preview"), new RegExp(`traceparent: ${sent}`));
  await page.click("#send");
  assert.equal(await page.textContent("#context-verdict"), `The trace id from traceparent was used: ${traceId}. The gateway span is a child of the caller's span ${parent}.`);

  // In the request's panel: the gateway span under the caller's span, the ids explained.
  await page.click("#req-rows li:first-child .req-row");
  const gateway = page.locator("#req-panel .wf-row[data-component=gateway]");
  assert.equal(await gateway.getAttribute("data-parent-span-id"), parent);
  // The ids are explained once, in the log's legend; the panel links there.
  assert.equal(await page.getAttribute("#req-panel .ids-explained a", "href"), "#ids");
  assert.match(await page.textContent("#log-legend"), /traceId is the whole journey.*spanId is one hop's work.*parentSpanId is the span that called this one/);
  assert.equal(await page.evaluate(() => document.body.textContent.split("is the whole journey").length - 1), 1, "said once on the page");
  await page.click("#req-panel .ids-explained a");
  await page.waitForFunction(() => location.hash === "#ids");
  const at = await page.$eval("#ids", (el) => ({ top: el.getBoundingClientRect().top, under: document.querySelector(".topbar").getBoundingClientRect().bottom }));
  assert.ok(at.top >= at.under, `the link scrolls to the explanation, below the sticky bar (${JSON.stringify(at)})`);
  await page.goBack();

  // Pointing at the gateway's span id lights it up wherever it is: its records, its span, the response header.
  const spanId = await gateway.getAttribute("data-span-id");
  await page.hover(`#req-panel li.record[data-stage=gateway] dd[data-idv="${spanId}"]`);
  const lit = await page.$$eval(".same-id", (els) => els.map((el) => el.closest("#req-panel") ? (el.closest(".record")?.dataset.stage ?? el.className.split(" ")[0]) : "elsewhere"));
  assert.ok(lit.includes("gateway") && lit.includes("response") && lit.includes("service"), `records: ${lit}`);
  assert.ok(lit.includes("wf-name"), `the span: ${lit}`);
  assert.ok(await page.$eval(".same-id", () => document.querySelectorAll("#req-panel .response-headers .same-id").length) === 1, "the x-b3-spanid header");

  // In Kibana, in Jaeger.
  assert.equal(await page.textContent("#kibana-query"), `traceId:"${traceId}"`);
  const doc = JSON.parse(await page.textContent("#log-doc"));
  assert.equal(doc.traceId, traceId);
  assert.equal(doc.stage, "response");
  assert.equal(new Date(doc["@timestamp"]).getTime(), doc.timestamp);
  // Where the exports go is said once, in the page's help, linked from here, from the log and from the export buttons.
  assert.equal(await page.getAttribute("#req-panel .elsewhere a", "href"), "#kibana-jaeger");
  assert.match(await page.textContent("#help"), /OpenTelemetry collector takes at \/v1\/traces and passes on to Jaeger/);
  assert.match(await page.textContent("#help"), /@timestamp \(its time in ISO 8601/);
  for (const from of ["#log", "#settings"]) assert.equal(await page.locator(`${from} a[href="#kibana-jaeger"]`).count(), 1, `linked from ${from}`);
  assert.equal(await page.evaluate(() => document.body.textContent.split("passes on to Jaeger").length - 1), 1, "said once on the page");
  await page.screenshot({ path: `${artifacts}playground-ids.png` });
  assert.deepEqual(errors, []);
});
