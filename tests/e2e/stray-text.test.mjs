// No panel ever shows a stray "null" or "undefined": a missing value
// appended as a child, or set as text, would read so. The rendered page is
// scanned after each thing a user does most: the flow, test data, an
// order's page, the log's record detail, and a failed import; at 1280 and
// 390 px.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { start } from "./browser.mjs";
import { applySettings, open } from "./playground.mjs";

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

/** Every visible text node whose whole text is "null" or "undefined", with where it is. */
function strayTexts(page) {
  return page.evaluate(() => {
    const found = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.data.trim();
      if (text !== "null" && text !== "undefined") continue;
      // A JSON document shown as it is (an envelope's "data": null), or a
      // record's null value shown as the literal it is, is not stray.
      if (node.parentElement.closest("pre, code, textarea, script, style, .json-null")) continue;
      const el = node.parentElement;
      found.push(`${text} in <${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""} class="${el.getAttribute("class") ?? ""}"> under #${el.closest("[id]")?.id}`);
    }
    return found;
  });
}

for (const width of [1280, 390]) {
  test(`no "null" or "undefined" shows after the flow, test data, an order's page and a failed import (${width} px)`, async () => {
    const { page, errors } = await open(env, { width, height: 900 });
    await applySettings(page, { seed: 11, failureRate: 0.5 });

    await page.click("#run-flow");
    await page.waitForFunction(() => /^Done:/.test(document.querySelector("#flow-summary").textContent));
    assert.deepEqual(await strayTexts(page), [], "after the flow");

    // The oldest request (the flow's create), and its order's page.
    await page.click("#req-rows li:last-child .req-row");
    await page.waitForSelector("#req-panel:not([hidden])");
    assert.deepEqual(await strayTexts(page), [], "with a request's panel open");
    await page.click("#req-panel .object-link");
    await page.waitForSelector("#object-page");
    assert.deepEqual(await strayTexts(page), [], "on an order's page");
    await page.click("#req-close");

    await page.fill("#batch-count", "300");
    await page.click("#batch-run");
    await page.waitForSelector("#batch-summary[data-state=done]", { timeout: 30_000 });
    // The charts redraw after the run's last change.
    await page.waitForFunction(() => document.querySelector("#chart-payments").dataset.attempts !== "0");
    assert.deepEqual(await strayTexts(page), [], "after test data");

    // A record's detail in the log.
    await page.click("#logs tr[data-seq]");
    assert.deepEqual(await strayTexts(page), [], "with a log record open");

    await page.setInputFiles("#import-state", { name: "notes.json", mimeType: "application/json", buffer: Buffer.from('{"hello": null}') });
    await page.waitForFunction(() => /^Could not import notes\.json:/.test(document.querySelector("#settings-message").textContent));
    assert.deepEqual(await strayTexts(page), [], "after a failed import");
    await env.screenshot(page, `playground-stray-text-${width}.png`);
    assert.deepEqual(errors, []);
  });
}
