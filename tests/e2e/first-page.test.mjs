import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { start } from "./browser.mjs";

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

test("the page runs the typical flow and shows responses and log records", async () => {
  const { page, errors, external } = await env.page();
  await page.waitForSelector("body[data-ready=true]");
  await page.click("#run-flow");
  const steps = await page.locator("#steps li").allTextContents();
  assert.ok(steps.length >= 7, steps.join("\n"));
  assert.match(steps.at(-3), /Paid order cannot be deleted/);
  assert.ok(await page.locator("#logs tr").count() >= 21);
  await env.screenshot(page, "first-page.png");
  assert.deepEqual(errors, []);
  assert.deepEqual(external, []);
});
