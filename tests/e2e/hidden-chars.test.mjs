// Right-to-left overrides, isolates, zero width spaces, byte order marks
// and control characters are shown as badges (⟨U+202E⟩) wherever a user's
// text appears: the request preview, the answer, the request list, the
// side panel and the log records. No text node on the page keeps one raw.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { artifacts, start } from "./browser.mjs";
import { applySettings, open, waitForRows } from "./playground.mjs";

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

// "invoice", U+202E, "fdp.exe" reads as "invoiceexe.pdf" when the override is left to act.
const DESCRIPTION = "invoice\u202Efdp.exe \u2066iso\u2069 zero\u200Bwidth \uFEFFbom bell\u0007";
const USER = "u\u202E-1";
const PATH = "/api/order/ORD-\u200B\u2067X\u2068\u0001";

/** Every text node outside form fields that still holds a character that does not show. */
const rawHidden = (page) => page.evaluate(() => {
  const hidden = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const found = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (n.parentElement.closest("textarea, script, style, template")) continue;
    if (hidden.test(n.data)) found.push(`${n.parentElement.id || n.parentElement.className}: ${JSON.stringify(n.data)}`);
  }
  return found;
});

const badges = (page, selector) => page.$$eval(`${selector} mark.hidden-char`, (marks) => marks.map((m) => m.textContent));

for (const width of [1280, 390]) {
  test(`hidden characters show as badges in the preview, the answer, the list, the panel and the records (${width} px)`, async () => {
    const { page, errors } = await open(env, { width });
    await applySettings(page, { seed: 5, failureRate: 0 });
    await page.selectOption("#route", "order-create");
    await page.fill("#body", JSON.stringify({ userId: USER, price: 3, description: DESCRIPTION }));
    await page.fill("#h-user", USER);
    // Before sending: the preview names each one (JSON itself writes the bell as \u0007).
    assert.deepEqual(await badges(page, "#request-preview"),
      ["⟨U+202E⟩", "⟨U+202E⟩", "⟨U+202E⟩", "⟨U+2066⟩", "⟨U+2069⟩", "⟨U+200B⟩", "⟨U+FEFF⟩"]);
    assert.match(await page.getAttribute("#request-preview mark.hidden-char", "title"), /^RIGHT-TO-LEFT OVERRIDE/);
    await page.click("#send");
    // The answer: the description comes back with every character, each shown; the text around keeps its order.
    const answer = await page.textContent("#response pre.envelope");
    assert.ok(answer.includes("invoice⟨U+202E⟩fdp.exe ⟨U+2066⟩iso⟨U+2069⟩ zero⟨U+200B⟩width ⟨U+FEFF⟩bom"), answer);
    // The control character is escaped by JSON itself (\u0007), as the wire has it.
    assert.ok(answer.includes("bell\\u0007"), answer);

    // A path with hidden characters: in the request list and its panel.
    await page.selectOption("#route", "custom");
    await page.selectOption("#custom-method", "GET");
    await page.fill("#custom-path", PATH);
    await page.click("#send");
    await waitForRows(page, 6);
    const path = page.locator("#req-rows li[data-key]").first().locator(".req-path");
    assert.deepEqual(await path.locator("mark.hidden-char").allTextContents(), ["⟨U+200B⟩", "⟨U+2067⟩", "⟨U+2068⟩", "⟨U+0001⟩"]);
    // The second row's user (in its records) and body (in the panel).
    await page.locator("#req-rows li[data-key]").nth(1).locator(".req-row").click();
    await page.waitForSelector("#req-panel:not([hidden])");
    const sent = await badges(page, "#req-sent");
    assert.ok(sent.includes("⟨U+202E⟩") && sent.includes("⟨U+FEFF⟩") && sent.includes("⟨U+2066⟩"), JSON.stringify(sent));
    assert.ok((await badges(page, "#req-panel li.record")).includes("⟨U+202E⟩"), "the user id in its records");
    await page.screenshot({ path: `${artifacts}playground-hidden-chars-${width}.png` });
    // Nowhere on the page is one left to act unseen.
    assert.deepEqual(await rawHidden(page), []);
    assert.deepEqual(errors, []);
  });
}

test("copy as curl shows the badges but copies the characters themselves", async () => {
  const { page, context, errors } = await open(env);
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: env.base });
  await applySettings(page, { seed: 5, failureRate: 0 });
  await page.selectOption("#route", "order-create");
  await page.fill("#body", JSON.stringify({ userId: "u-1", price: 3, description: DESCRIPTION }));
  await page.click("#send");
  await page.click("#req-rows li:first-child .req-row");
  await page.click("#copy-curl");
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert.ok(copied.includes("invoice\u202Efdp.exe"), "the clipboard has the character, so the command sends it");
  assert.ok((await badges(page, "#req-copied")).includes("⟨U+202E⟩"), "the page shows it");
  assert.deepEqual(await rawHidden(page), []);
  assert.deepEqual(errors, []);
});
