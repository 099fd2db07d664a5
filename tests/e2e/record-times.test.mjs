// A record's timestamp is where its span is, as the trace view shows both:
// the gateway and service records where their spans start, the response
// record where the gateway's span ends, the simulated duration after its
// arrival. And wherever server_error shows with HTTP 200 and code -1 (a
// declined payment), the page says why.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { artifacts, start } from "./browser.mjs";
import { applySettings, logRows, open, seedDeclinedThenPaid } from "./playground.mjs";

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

/** The trace view's records of the focused request: stage, timestamp and spanId, from the cards' fields. */
const cards = (page) => page.locator("#trace-detail li.request.focused li.record").evaluateAll((els) => els.map((el) => {
  const field = (name) => [...el.querySelectorAll("dt")].find((dt) => dt.textContent === name)?.nextElementSibling.textContent;
  return { stage: el.dataset.stage, timestamp: Number(field("timestamp").split(" ")[0]), spanId: field("spanId"), why: el.querySelector(".why-declined")?.textContent ?? null };
}));

/** The waterfall's spans: id, component and absolute start and end, from each span's details. */
const spans = (page) => page.locator("#trace-detail li.wf-row").evaluateAll((els) => els.map((el) => {
  const field = (name) => [...el.querySelectorAll("dl.wf-details dt")].find((dt) => dt.textContent === name)?.nextElementSibling.textContent;
  const absolute = (text) => Number(/\((-?\d+)\)$/.exec(text)[1]);
  return { spanId: el.dataset.spanId, component: el.dataset.component, start: absolute(field("start")), end: absolute(field("end")) };
}));

for (const width of [1280, 390]) {
  test(`a declined payment's records agree with its spans, and its server_error says why (${width} px)`, async () => {
    const { page, errors } = await open(env, { width });
    const seed = await seedDeclinedThenPaid(page);
    await applySettings(page, { seed, failureRate: 0.3 });
    await page.click("#run-flow");
    await page.waitForSelector("#flow-retry");

    const rows = await logRows(page);
    const pay = rows.find((r) => r.stage === "response" && r.uri === "POST /api/payment/pay");
    assert.equal(pay.status, "server_error");
    // In the table: the row says why a server_error came with 200 and -1.
    const why = await page.textContent(`#logs tr[data-seq="${pay.seq}"] .why-inline`);
    assert.match(why, /third party declined: handled, so 200; a business error, so -1; a dependency failed, so server_error/);

    await page.click(`#logs tr[data-seq="${pay.seq}"] button.trace`);
    await page.locator("#trace-detail li.request.focused").waitFor();
    const records = await cards(page);
    const byId = new Map((await spans(page)).map((s) => [s.spanId, s]));
    assert.deepEqual(records.map((r) => r.stage), ["gateway", "service", "response"]);
    const [gateway, service, response] = records;
    const gatewaySpan = byId.get(gateway.spanId);
    const serviceSpan = byId.get(service.spanId);
    assert.equal(gatewaySpan.component, "gateway");
    assert.equal(serviceSpan.component, "payment-service");
    assert.equal(gateway.timestamp, gatewaySpan.start, "the gateway record at its span's start");
    assert.equal(service.timestamp, serviceSpan.start, "the service record at its span's start");
    assert.equal(response.timestamp, gatewaySpan.end, "the response record at the request's end");
    assert.ok(response.timestamp - gateway.timestamp >= 60, "a payment waits for the third party: the times differ");
    // In the trace view: the response record and the waterfall say why too.
    assert.match(response.why, /^Why server_error with HTTP 200 and code -1\? The simulated third party declined the payment/);
    assert.equal(records[0].why, null, "only where server_error shows with 200 and -1");
    assert.match(await page.textContent("#trace-detail .wf-legend + .why-declined"), /a dependency failed, not the client/);
    await page.locator("#trace-detail").screenshot({ path: `${artifacts}playground-record-times-${width}.png` });
    assert.deepEqual(errors, []);
  });
}
