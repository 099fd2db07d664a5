// "Group under one trace" in the console: consecutive requests sent while
// it is on share one trace id and show as one waterfall; a trace id the
// user types wins over the group's; turning it off gives each request its
// own trace again. At a desktop and a phone width.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { artifacts, start } from "./browser.mjs";
import { applySettings, logRows, open, waitForRows } from "./playground.mjs";

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

/** The trace id of each request, oldest first, from the log's gateway records. */
async function traces(page) {
  return (await logRows(page)).filter((r) => r.stage === "gateway").sort((a, b) => a.seq - b.seq).map((r) => r.trace);
}

for (const width of [1280, 390]) {
  test(`requests sent while grouped share one trace and one waterfall (${width} px)`, async () => {
    const { page, errors } = await open(env, { width });
    await applySettings(page, { seed: 4, failureRate: 0 });
    // One request before the group: a trace of its own.
    await page.selectOption("#route", "order-create");
    await page.click("#send");

    await page.check("#group-trace");
    const note = await page.textContent("#group-trace-note");
    const groupId = /trace ([0-9a-f]{32}) \(0 sent/.exec(note)?.[1];
    assert.ok(groupId, note);
    assert.match(await page.textContent("#request-preview"), new RegExp(`X-B3-TraceId: ${groupId}`), "the preview shows the header the group adds");
    await page.selectOption("#route", "order-create");
    await page.click("#send");
    await page.selectOption("#route", "order-get");
    await page.click("#send");
    await page.selectOption("#route", "payment-pay");
    await page.click("#send");
    assert.match(await page.textContent("#group-trace-note"), /\(3 sent in it so far\)/);

    // A trace id typed by the user wins, and the note says the request is not in the group.
    await page.fill("#h-trace", "00000000000000000000000000c0ffee");
    assert.match(await page.textContent("#group-trace-note"), /^Not in the group/);
    await page.selectOption("#route", "order-get");
    await page.click("#send");
    await page.fill("#h-trace", "");

    // The group's waterfall: a gateway span for each of its three requests, on one time axis.
    await page.selectOption("#route", "order-get");
    await page.click("#send");
    const view = page.locator("#group-view");
    assert.equal(await view.getAttribute("data-trace"), groupId);
    assert.match(await view.locator("h3").textContent(), /^4 requests under one trace$/);
    assert.equal(await view.locator(".waterfall .wf-row.c-gateway").count(), 4);
    assert.ok(await view.locator(".waterfall .wf-row.c-payment-service").count() >= 1, "the payment's services under its gateway span");
    await view.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${artifacts}playground-group-trace-${width}.png` });

    // The trace view opens on the same trace, with the records of all four requests.
    await view.locator("button", { hasText: "Open it in the trace view" }).click();
    await page.locator("#trace-detail").waitFor();
    assert.equal(await page.textContent("#trace-title .mono"), groupId);
    assert.match(await page.locator("#trace-detail > p").first().textContent(), /^12 records from 4 requests/);

    // Off: the group ends, and the next request gets a trace of its own.
    await page.uncheck("#group-trace");
    assert.match(await page.textContent("#group-trace-note"), new RegExp(`^The group ended: 4 requests under trace ${groupId}`));
    assert.doesNotMatch(await page.textContent("#request-preview"), /X-B3-TraceId/);
    await page.click("#send");
    await waitForRows(page, 21);
    const ids = await traces(page);
    assert.equal(ids.length, 7);
    assert.deepEqual(ids.slice(1, 4), [groupId, groupId, groupId], "the three grouped requests");
    assert.equal(ids[4], "00000000000000000000000000c0ffee", "the typed id, not the group's");
    assert.equal(ids[5], groupId);
    assert.ok(ids[0] !== groupId && ids[6] !== groupId && ids[0] !== ids[6], "before and after: traces of their own");
    assert.deepEqual(errors, []);
  });
}
