// The state survives a reload, and moves as files: the snapshot out and
// back in (here and in Node), the log as NDJSON.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { after, before, test } from "node:test";

import { start } from "./browser.mjs";
import { applySettings, logRows, open, waitForRows } from "./playground.mjs";
import { Service } from "../../pkg/node.js";

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

/** The text "Copy as test" gives in `format`. */
async function copiedTest(page, format) {
  await page.click(`#copy-test-${format}`);
  await page.waitForFunction((f) => document.querySelector("#copy-test-text").dataset.format === f && !document.querySelector("#copy-test-text").hidden, format);
  return page.textContent("#copy-test-text");
}

async function createOrder(page, description) {
  await page.selectOption("#route", "order-create");
  await page.fill("#body", JSON.stringify({ userId: "u-9", price: 12.5, description }));
  await page.click("#send");
  return JSON.parse(await page.textContent("#response pre.envelope")).data;
}

test("orders, payments, the log and the settings survive a reload", async () => {
  const { page, errors, external } = await open(env);
  await applySettings(page, { seed: 77, failureRate: 0.25, logCapacity: 500 });
  await page.click("#run-flow");
  await page.waitForFunction(() => /^(Done|$)/.test(document.querySelector("#flow-summary").textContent));
  const order = await createOrder(page, "kept across reloads");
  await waitForRows(page, (await page.$$("#steps > li")).length * 3 + 3);
  const before = await logRows(page);
  const copied = await copiedTest(page, "curl");

  await page.reload(); // no wait: leaving the page saves what is pending
  await page.waitForSelector("body[data-ready=true]");
  assert.equal(await page.textContent("#notice"), "Restored the state saved in this browser.");
  await waitForRows(page, before.length);
  assert.deepEqual(await logRows(page), before);
  assert.equal(await page.inputValue("#seed"), "77");
  assert.equal(await page.inputValue("#failure-rate"), "0.25");
  assert.equal(await page.inputValue("#log-capacity"), "500");
  // The run was saved with the state: the copy after the reload is the one before it.
  assert.equal(await copiedTest(page, "curl"), copied);
  assert.match(copied, new RegExp(`has '"orderId":"${order.orderId}"'`));

  // The order is still there, and offered first.
  await page.selectOption("#route", "order-get");
  assert.equal(await page.inputValue("#param-orderId"), order.orderId);
  await page.click("#send");
  assert.deepEqual(JSON.parse(await page.textContent("#response pre.envelope")).data, order);
  // And the service goes on where it was: ids are not reused.
  const next = await createOrder(page, "after the reload");
  assert.notEqual(next.orderId, order.orderId);
  assert.deepEqual(errors, []);
  assert.deepEqual(external, []);
});

test("the state exports as a snapshot file that imports here and restores in Node; the log as NDJSON", async () => {
  const { page, errors, external } = await open(env);
  await applySettings(page, { seed: 5, failureRate: 0 });
  await page.click("#run-flow");
  const order = await createOrder(page, "exported");
  await waitForRows(page, 24);

  const [stateFile] = await Promise.all([page.waitForEvent("download"), page.click("#export-state")]);
  assert.match(stateFile.suggestedFilename(), /^orderpay-state-.*\.json$/);
  const snapshot = await readFile(await stateFile.path(), "utf8");
  // The file is what Service.restore takes, in Node too.
  const restored = Service.restore(snapshot);
  assert.equal(restored.seed, 5);
  assert.equal(restored.handle("GET", `/api/order/${order.orderId}`).data.description, "exported");
  assert.equal(restored.logs().length, 24 + 3);

  const [logFile] = await Promise.all([page.waitForEvent("download"), page.click("#export-logs")]);
  assert.match(logFile.suggestedFilename(), /^orderpay-logs-.*\.ndjson$/);
  const ndjson = await readFile(await logFile.path(), "utf8");
  assert.ok(ndjson.endsWith("\n"));
  const lines = ndjson.slice(0, -1).split("\n");
  assert.equal(lines.length, 24);
  const records = lines.map((line) => JSON.parse(line));
  assert.deepEqual(records.map((r) => r.seq), Array.from({ length: 24 }, (_, i) => i + 1), "oldest first, one a line");
  assert.deepEqual(records.slice(0, 3).map((r) => r.stage), ["gateway", "service", "response"]);
  assert.ok(records.every((r) => typeof r.traceId === "string" && typeof r.timestamp === "number"));
  // Each line opens with @timestamp, the record's time in ISO 8601, as Kibana indexes it.
  assert.ok(lines.every((line) => line.startsWith('{"@timestamp":"')));
  for (const r of records) {
    assert.match(r["@timestamp"], /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    assert.equal(Date.parse(r["@timestamp"]), r.timestamp, `seq ${r.seq}: @timestamp is its time`);
  }
  assert.match(await page.textContent("#settings-message"), /Exported 24 log records as NDJSON/);

  // Another browser profile imports the file and carries on from it.
  const other = await open(env);
  await other.page.setInputFiles("#import-state", { name: stateFile.suggestedFilename(), mimeType: "application/json", buffer: Buffer.from(snapshot) });
  await other.page.waitForFunction(() => /^Imported the state from orderpay-state-/.test(document.querySelector("#settings-message").textContent));
  await waitForRows(other.page, 24);
  assert.deepEqual(await logRows(other.page), await logRows(page));
  // An imported file holds the state, not the calls that made it: no test to copy, and the note says why.
  await other.page.click("#copy-test-vitest");
  await other.page.waitForFunction(() => /^No test to copy: this state was imported/.test(document.querySelector("#copy-test-note").textContent));
  assert.equal(await other.page.isHidden("#copy-test-text"), true);
  // The imported log is read from the package's NDJSON: its records are the records, with no @timestamp of their own.
  await other.page.click("#logs tr[data-seq] button.trace");
  await other.page.locator("#trace-detail .record").first().waitFor();
  const fields = await other.page.$$eval("#trace-detail .record dt", (dts) => dts.map((dt) => dt.textContent));
  assert.ok(fields.includes("timestamp"));
  assert.ok(!fields.includes("@timestamp"), "no @timestamp among the record's fields");
  assert.equal(await other.page.inputValue("#seed"), "5");
  assert.equal(await other.page.inputValue("#failure-rate"), "0");
  await other.page.selectOption("#route", "order-get");
  assert.equal(await other.page.inputValue("#param-orderId"), order.orderId);

  // A file that is not a snapshot is refused, and nothing changes.
  await other.page.setInputFiles("#import-state", { name: "notes.json", mimeType: "application/json", buffer: Buffer.from('{"hello": 1}') });
  await other.page.waitForFunction(() => /^Could not import notes\.json: snapshot:/.test(document.querySelector("#settings-message").textContent));
  assert.equal((await logRows(other.page)).length, 24);

  assert.deepEqual([...errors, ...other.errors], []);
  assert.deepEqual([...external, ...other.external], []);
});

test("reset to defaults empties everything, and the empty state is what a reload finds", async () => {
  const { page, errors } = await open(env);
  await applySettings(page, { seed: 9, failureRate: 0.5, logCapacity: 50 });
  await page.click("#send");
  await waitForRows(page, 3);
  await page.click("#reset");
  await waitForRows(page, 0);
  assert.notEqual(await page.inputValue("#seed"), "9");
  assert.equal(await page.inputValue("#failure-rate"), "0.3");
  assert.equal(await page.inputValue("#log-capacity"), "10000");
  await page.reload();
  await page.waitForSelector("body[data-ready=true]");
  await waitForRows(page, 0);
  assert.equal(await page.inputValue("#failure-rate"), "0.3");
  assert.deepEqual(errors, []);
});

test("a bad setting is refused with the service's message and the state is kept", async () => {
  const { page, errors } = await open(env);
  await page.click("#send");
  await waitForRows(page, 3);
  await page.fill("#failure-rate", "1.5");
  await page.click("#apply-settings");
  assert.equal(await page.textContent("#settings-message"), "Not applied: failureRate: must be a number from 0 to 1, got 1.5");
  assert.equal((await logRows(page)).length, 3);
  assert.deepEqual(errors, []);
});

test("a state too big for localStorage is saved compressed and comes back", async () => {
  const { page, errors } = await open(env);
  await applySettings(page, { seed: 11, logCapacity: 10000 });
  await page.fill("#batch-count", "10000");
  await page.click("#batch-run");
  await page.waitForSelector("#batch-summary[data-state=done]", { timeout: 30_000 });
  await page.waitForFunction(() => /compressed\)\.$/.test(document.querySelector("#state-status").textContent), null, { timeout: 15_000 });
  const status = await page.textContent("#state-status");
  const top = (await logRows(page))[0];
  await page.reload();
  await page.waitForSelector("body[data-ready=true]");
  assert.equal(await page.textContent("#notice"), "Restored the state saved in this browser.");
  assert.match(await page.textContent("#log-count"), /^10,000 records in the log, [\d,]+ older ones dropped/);
  assert.deepEqual((await logRows(page))[0], top);
  assert.match(status, /state saved in this browser at [\d:]+ \([\d.]+ (KB|MB), compressed\)\.$/);
  assert.deepEqual(errors, []);
});
