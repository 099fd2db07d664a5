// The log viewer: records as they arrive, the filters, and a trace's
// records together; at a phone's width, cards laid out only when in sight.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { after, before, test } from "node:test";

import { start } from "./browser.mjs";
import { applySettings, logRows, open, waitForRows } from "./playground.mjs";

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

/** The flow (21 records), then a 400 (2 records): 23 records of 8 requests. */
async function withRecords(page) {
  await applySettings(page, { seed: 3, failureRate: 0 });
  await page.click("#run-flow");
  await waitForRows(page, 21);
  await page.fill("#body", "[]");
  await page.click("#send");
  await waitForRows(page, 23);
}

/** A run of 30 test orders from the page: over 200 records, of which the table shows the newest 100. */
async function withTestOrders(page) {
  await page.fill("#batch-count", "30");
  await page.click("#batch-run");
  await page.waitForSelector("#batch-summary[data-state=done]");
}

test("the filters narrow the table by stage, uri_group, event_class, status and trace id", async () => {
  const { page, errors } = await open(env);
  await withRecords(page);
  const all = await logRows(page);
  assert.deepEqual(all.map((r) => r.seq), all.map((r) => r.seq).sort((a, b) => b - a), "newest first");
  assert.match(await page.textContent("#log-count"), /^23 records in the log\.$/);

  const filtered = async (settings) => {
    await page.click("#filters button[type=reset]");
    for (const [name, value] of Object.entries(settings)) {
      if (name === "traceId") await page.fill("#filter-traceId", value);
      else await page.selectOption(`#filter-${name}`, value);
    }
    return logRows(page);
  };

  let rows = await filtered({ stage: "gateway" });
  assert.equal(rows.length, 8);
  assert.ok(rows.every((r) => r.stage === "gateway"));
  assert.match(await page.textContent("#log-count"), /^8 matching of 23 records in the log\.$/);

  rows = await filtered({ uri_group: "/payment/*" });
  assert.deepEqual(new Set(rows.map((r) => r.uri_group)), new Set(["/payment/*"]));
  assert.equal(rows.length, 3 * 2, "pay, read payment, refund: a gateway and a response record each (service records carry no uri_group)");

  rows = await filtered({ event_class: "order", stage: "service" });
  assert.equal(rows.length, 4, "create, read, mark paid, delete (the 400 has no service record)");
  assert.ok(rows.every((r) => r.event_class === "order" && r.stage === "service"));

  rows = await filtered({ status: "client_error" });
  assert.equal(rows.length, 1);
  assert.match(rows[0].answer, /^400 · 400 body: expected a JSON object/);

  rows = await filtered({ status: "success", uri_group: "/order/*", stage: "response" });
  assert.equal(rows.length, 4);

  // The flow runs under one trace id: its 21 records, and not the 400's.
  const trace = all.find((r) => r.uri.startsWith("POST /api/payment/refund/")).trace;
  rows = await filtered({ traceId: trace.slice(4, 14).toUpperCase() });
  assert.equal(rows.length, 21);
  assert.deepEqual(rows.slice(0, 3).map((r) => r.stage), ["response", "service", "gateway"]);
  assert.ok(rows.every((r) => r.trace === trace));

  rows = await filtered({ traceId: "no-such-trace" });
  assert.equal(rows.length, 0);

  await page.click("#filters button[type=reset]");
  await waitForRows(page, 23);
  assert.deepEqual(errors, []);
});

test("clicking a trace id, or a record, shows the three records of its request together", async () => {
  const { page, errors } = await open(env);
  await withRecords(page);
  const all = await logRows(page);
  const pay = all.find((r) => r.stage === "response" && r.uri === "POST /api/payment/pay");

  await page.click(`#logs tr[data-seq="${pay.seq}"] button.trace`);
  const detail = page.locator("#trace-detail");
  await detail.waitFor();
  assert.match(await detail.locator("h3").textContent(), new RegExp(`^Trace ${pay.trace}$`));
  // The flow's seven requests share the trace; the one clicked is marked, with its three records.
  const cards = await detail.locator("li.request.focused li.record").evaluateAll((els) => els.map((el) => ({ stage: el.dataset.stage, text: el.textContent })));
  assert.deepEqual(cards.map((c) => c.stage), ["gateway", "service", "response"]);
  for (const c of cards) assert.ok(c.text.includes(pay.trace));
  assert.match(cards[0].text, /uri\/api\/payment\/pay/);
  assert.match(cards[0].text, /uri_group\/payment\/\*/);
  assert.match(cards[1].text, /event_classpayment/);
  assert.match(cards[1].text, /duration\d+/);
  assert.match(cards[2].text, /httpStatus200/);
  assert.match(cards[2].text, /userIdu-1/);
  assert.match(await detail.textContent(), /21 records from 7 requests/);
  assert.equal(await page.evaluate(() => document.activeElement.id), "trace-title", "the focus moves to the records");

  // Every field of each record is in its card, whatever fields this build of the service writes.
  const [file] = await Promise.all([page.waitForEvent("download"), page.click("#export-logs")]);
  const records = (await readFile(await file.path(), "utf8")).trim().split("\n").map((l) => JSON.parse(l)).filter((r) => r.traceId === pay.trace);
  const fields = await detail.locator("li.record").evaluateAll((els) => els.map((el) => [...el.querySelectorAll("dt")].map((dt) => dt.textContent).sort()));
  // (The export adds @timestamp for log stores; the card shows the record's own fields.)
  assert.deepEqual(fields, records.map((r) => Object.keys(r).filter((k) => k !== "@timestamp").sort()));

  // A click on the row of another record does the same for its request.
  const create = all.find((r) => r.stage === "service" && r.event_class === "order");
  await page.click(`#logs tr[data-seq="${create.seq}"] td:first-child`);
  await page.waitForFunction((t) => document.querySelector("#trace-detail h3").textContent.includes(t), create.trace);
  await page.waitForSelector(`#trace-detail li.request.focused li.record[data-seq="${create.seq}"]`);
  assert.equal(await detail.locator("li.request.focused li.record").count(), 3);
  // Rows of the shown trace (the whole flow) are marked in the table.
  assert.equal(await page.locator("#logs tr.in-trace").count(), 21);

  // The trace id in an answer leads to the same place.
  await page.click("#steps li:nth-child(7) button.trace");
  const refund = all.find((r) => r.uri.startsWith("POST /api/payment/refund/")).trace;
  await page.waitForFunction((t) => document.querySelector("#trace-detail h3").textContent.includes(t), refund);

  // And the filter button there narrows the table to it.
  await detail.getByRole("button", { name: "Filter the table by this trace" }).click();
  assert.equal(await page.inputValue("#filter-traceId"), refund);
  assert.equal((await logRows(page)).length, 21);
  await page.click("#trace-close");
  assert.equal(await detail.isHidden(), true);
  assert.deepEqual(errors, []);
});

test("records arrive as requests are made, and the log can be emptied", async () => {
  const { page, errors } = await open(env);
  await waitForRows(page, 0);
  assert.match(await page.textContent("#logs"), /No records yet/);
  await page.click("#send");
  await waitForRows(page, 3);
  await page.click("#send");
  await waitForRows(page, 6);
  await page.click("#clear-logs");
  await waitForRows(page, 0);
  await page.click("#send");
  await waitForRows(page, 3);
  const seqs = (await logRows(page)).map((r) => r.seq);
  assert.deepEqual(seqs, [9, 8, 7], "seq goes on counting after the log is emptied");
  assert.deepEqual(errors, []);
});

test("a small log capacity drops the oldest records, and the table says so", async () => {
  const { page, errors } = await open(env);
  await applySettings(page, { seed: 1, logCapacity: 5 });
  for (let i = 0; i < 3; i++) await page.click("#send");
  await page.waitForSelector('#logs tr[data-seq="9"]');
  assert.deepEqual((await logRows(page)).map((r) => r.seq), [9, 8, 7, 6, 5]);
  assert.match(await page.textContent("#log-count"), /^5 records in the log, 4 older ones dropped/);
  assert.deepEqual(errors, []);
});

test("more than 100 records: the newest 100 first, then more on request", async () => {
  const { page, errors } = await open(env);
  await withTestOrders(page);
  // The log is drawn in the frame after the run's last change (throttled): its count may trail the summary by one.
  await page.waitForFunction(() => Number(document.querySelector("#log-count").dataset.matching) > 200, null, { timeout: 30_000 }).catch(() => {});
  const total = Number(await page.getAttribute("#log-count", "data-matching"));
  assert.ok(total > 200, `${total} records`);
  await waitForRows(page, 100);
  await page.click("#logs-more");
  await waitForRows(page, 200);
  assert.deepEqual(errors, []);
});

test("at a phone's width, the log's cards out of sight are not laid out until scrolled to", async () => {
  const { page, errors } = await open(env, { width: 390, height: 844 });
  await withTestOrders(page);
  await waitForRows(page, 100);
  await page.locator(".table-wrap").scrollIntoViewIfNeeded();
  // Whether the browser skips a card's content: its first cell's checkVisibility() with
  // contentVisibilityAuto says so. Which cards are in sight is settled a frame or two after a scroll.
  const laidOut = () => page.$$eval("#logs tr[data-seq]", (rows) => rows.map((tr) => tr.cells[0].checkVisibility({ contentVisibilityAuto: true })));
  const cardLaidOut = (i) => page.waitForFunction((i) => document.querySelectorAll("#logs tr[data-seq]")[i].cells[0].checkVisibility({ contentVisibilityAuto: true }), i);
  await cardLaidOut(0);
  let shown = await laidOut();
  assert.ok(shown.filter(Boolean).length < 30, `a few cards laid out of 100: ${shown.filter(Boolean).length}`);
  assert.equal(shown[99], false, "the last card, out of sight, is not");
  await page.$eval(".table-wrap", (wrap) => { wrap.scrollTop = wrap.scrollHeight; });
  await cardLaidOut(99);
  shown = await laidOut();
  assert.equal(shown[0], false, "the first, now out of sight, is not");
  assert.deepEqual(errors, []);
});

test("fields the page does not know (a later service's) are shown in the record's detail", async () => {
  const { page, errors } = await open(env);
  const text = await page.evaluate(async () => {
    const { recordCard } = await import("/logs.js");
    const card = recordCard({ seq: 4, timestamp: 0, traceId: "abc", stage: "service", event_class: "payment", duration: 3,
      status: "success", spanId: "00f067aa0ba902b7", parentSpanId: null, outcome: { approved: false, rule: "draw" },
      region: "eu-1", retries: [1, 2], zone: null });
    document.body.append(card);
    return [...card.querySelectorAll("dt")].map((dt) => `${dt.textContent}=${dt.nextSibling.textContent}${dt.classList.contains("extra") ? " (extra)" : ""}`);
  });
  assert.deepEqual(text, [
    "seq=4", "stage=service", "timestamp=0 (" + text[2].split("(")[1], "traceId=abc", "spanId=00f067aa0ba902b7", "parentSpanId=null",
    "event_class=payment", "duration=3", "status=success", 'outcome={"approved":false,"rule":"draw"}',
    "region=eu-1 (extra)", "retries=[1,2] (extra)", "zone=null (extra)",
  ]);
  assert.deepEqual(errors, []);
});

test("the legend and the headers' tooltips say what HTTP status, code and status each mean", async () => {
  const { page, errors } = await open(env);
  await withRecords(page);
  const legend = await page.textContent("#log-legend");
  for (const term of ["HTTP status", "code", "status"]) {
    assert.ok(await page.locator("#log-legend dt", { hasText: term }).count() >= 1, `the legend names ${term}`);
  }
  // The two rows a learner stumbles on: a business refusal that is success, a decline that is server_error.
  assert.match(legend, /-1 Paid order cannot be deleted is the rule doing its job/);
  assert.match(legend, /server_error when something behind the gateway failed, the third party declining a payment included \(HTTP 200, code -1\)/);
  const rows = await logRows(page);
  const refused = rows.find((r) => r.stage === "response" && /Paid order cannot be deleted/.test(r.answer));
  assert.equal(refused.status, "success");
  // The status and answer headers carry the short form and point at the legend.
  const heads = await page.$$eval("#log-table th", (ths) => Object.fromEntries(ths.map((th) => [th.textContent, { title: th.title, href: th.querySelector("a")?.getAttribute("href") ?? null }])));
  assert.match(heads.status.title, /success, server_error .* or client_error/);
  assert.match(heads.answer.title, /^HTTP status · code msg/);
  assert.equal(heads.status.href, "#log-legend");
  assert.equal(heads.answer.href, "#log-legend");
  assert.deepEqual(errors, []);
});

for (const [width, height] of [[1280, 900], [390, 844]]) {
  test(`the log fits its box at ${width} px: no sideways scroll, every record's answer whole`, async () => {
    const { page, errors } = await open(env, { width, height });
    await withRecords(page);
    const fit = await page.$eval(".table-wrap", (wrap) => {
      const box = wrap.getBoundingClientRect();
      const cells = [...wrap.querySelectorAll("#logs tr[data-seq] td")].filter((td) => td.textContent !== "");
      return {
        page: document.documentElement.scrollWidth,
        wrap: wrap.clientWidth,
        table: wrap.scrollWidth,
        outside: cells.filter((td) => { const r = td.getBoundingClientRect(); return r.left < box.left - 0.5 || r.right > box.right + 0.5; }).map((td) => td.dataset.label),
        clipped: cells.filter((td) => td.scrollWidth > td.clientWidth + 1).map((td) => `${td.dataset.label}: ${td.textContent}`),
        answer: [...wrap.querySelectorAll("#logs td.result")].map((td) => td.textContent).find((t) => /Paid order/.test(t)),
      };
    });
    assert.equal(fit.page, width, "the page does not scroll sideways");
    assert.ok(fit.table <= fit.wrap, `the table (${fit.table} px) fits its box (${fit.wrap} px)`);
    assert.deepEqual(fit.outside, [], "every value within the box");
    assert.deepEqual(fit.clipped, [], "no value cut off");
    assert.equal(fit.answer, "200 · -1 Paid order cannot be deleted");
    assert.deepEqual(errors, []);
  });
}
