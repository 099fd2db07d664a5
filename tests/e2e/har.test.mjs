// The requests export as HAR 1.2, checked by a HAR validator against the
// HAR schema: one entry per request, with the request as sent and the answer.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { after, before, test } from "node:test";
import validate from "har-validator";

import { start } from "./browser.mjs";
import { applySettings, open } from "./playground.mjs";

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

test("the requests export as a HAR file that a HAR validator accepts", async () => {
  const { page, errors } = await open(env);
  await applySettings(page, { seed: 17, failureRate: 0 });
  await page.click("#run-flow");
  await page.waitForFunction(() => /^Done:/.test(document.querySelector("#flow-summary").textContent));
  await page.fill("#body", "{broken");
  await page.click("#send");
  await page.waitForFunction(() => document.querySelectorAll("#req-rows li[data-key]").length === 8);

  const [file] = await Promise.all([page.waitForEvent("download"), page.click("#export-har")]);
  assert.match(file.suggestedFilename(), /^orderpay-requests-.*\.har$/);
  const har = JSON.parse(await readFile(await file.path(), "utf8"));
  // Resolves with the HAR when it fits the schema, rejects naming the field otherwise.
  assert.deepEqual(await validate.har(har), har);
  await assert.rejects(validate.har({ log: { ...har.log, entries: [{ ...har.log.entries[0], time: "soon" }] } }));
  assert.equal(har.log.version, "1.2");
  const entries = har.log.entries;
  assert.equal(entries.length, 8);
  assert.deepEqual(entries.map((e) => e.request.method), ["POST", "GET", "POST", "POST", "POST", "GET", "POST", "POST"]);
  assert.deepEqual(entries.map((e) => e.response.status), [200, 200, 200, 200, 200, 200, 200, 400]);
  const [create] = entries;
  assert.equal(create.request.url, "http://127.0.0.1:4010/api/order/create");
  assert.equal(JSON.parse(create.request.postData.text).description, "two coffees");
  assert.ok(create.request.headers.some((h) => h.name === "X-B3-TraceId"));
  assert.equal(JSON.parse(create.response.content.text).data.status, "CREATED");
  const bad = entries[7];
  assert.equal(bad.request.postData.text, "{broken");
  assert.equal(JSON.parse(bad.response.content.text).code, 400);
  assert.ok(entries.every((e) => e.time === e.timings.wait && e.time >= 0));
  assert.match(await page.textContent("#settings-message"), /^Exported 8 requests as HAR/);
  // Every status orderpay gives has its text, from the package's one table
  // (status_text.js): the challenge page's 303 and 409, a scenario's 429
  // and 503, beside the 200 and 400 above.
  assert.deepEqual([...new Set(entries.map((e) => e.response.statusText))], ["OK", "Bad Request"]);
  const texts = await page.evaluate(async () => {
    const { toHar } = await import("/har.js");
    const sent = (httpStatus, key) => ({ key, method: "POST", uri: "/api/payment/PAY-1/challenge", httpStatus, code: -1, msg: "", traceId: "0", timestamp: 0 });
    const pieces = await toHar([sent(303, "a"), sent(409, "b"), sent(429, "c"), sent(503, "d")], new Map(), "http://127.0.0.1:4010");
    return JSON.parse(pieces.join("")).log.entries.map((e) => [e.response.status, e.response.statusText]);
  });
  assert.deepEqual(texts, [[303, "See Other"], [409, "Conflict"], [429, "Too Many Requests"], [503, "Service Unavailable"]]);
  assert.deepEqual(errors, []);
});
