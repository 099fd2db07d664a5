// A refused localStorage write costs as much as a good one (the entry is
// built first: a long task of 100 ms and more for a large state). So a
// snapshot over what any browser holds is never tried there, and a size
// refused below that is remembered across reloads: the first save after
// a reload does not try it again. A state read back in pieces is
// restored from its pieces (its text is never joined on the page), and is
// not saved again until something changes.
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";

import { start } from "./browser.mjs";
import { open } from "./playground.mjs";
import { Service } from "../../pkg/node.js";

let env;
let dir;
let snapshotFile;
before(async () => {
  env = await start();
  dir = await mkdtemp(join(tmpdir(), "orderpay-refused-"));
  const service = new Service({ seed: 8, logCapacity: 20000 });
  for (let i = 0; i < 80; i++) service.handle("GET", "/api/test/order/batch?count=250");
  snapshotFile = join(dir, "large.json");
  await writeFile(snapshotFile, service.snapshot());
  service.free();
});
after(async () => {
  await env?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Records the size of every localStorage write the page tries, and every join of many pieces. */
function watchWrites() {
  window.writes = [];
  const setItem = Storage.prototype.setItem;
  Storage.prototype.setItem = function (key, value) {
    window.writes.push(String(value).length);
    return setItem.call(this, key, value);
  };
  window.joins = [];
  const join = Array.prototype.join;
  Array.prototype.join = function (...args) {
    if (this.length > 8 && typeof this[0] === "string" && this[0].length >= 1 << 17) window.joins.push(this.length);
    return join.apply(this, args);
  };
}

const saved = () => document.querySelector("#state-status").dataset.saved === "saved";
/** The most characters any browser's localStorage holds for an origin (persist.js). */
const CEILING = 5 * 1024 * 1024;

test("no write localStorage must refuse is tried, one it refused is not tried again after a reload, and a restore never joins the pieces", { timeout: 300_000 }, async () => {
  const { page, errors } = await open(env);
  await page.addInitScript(watchWrites);
  await page.reload();
  await page.waitForSelector("body[data-ready=true]");
  // Another part of the origin holds 3 million characters: the compressed snapshot (about 2.7
  // million) no longer fits beside it.
  await page.evaluate(() => { localStorage.setItem("other-app", "x".repeat(3_000_000)); window.writes.length = 0; });
  await page.setInputFiles("#import-state", snapshotFile);
  await page.waitForFunction(() => /^Imported the state from large\.json/.test(document.querySelector("#settings-message").textContent), null, { timeout: 120_000 });
  await page.waitForFunction(saved, null, { timeout: 120_000 });
  const first = await page.evaluate(() => window.writes);
  // The 19 MB snapshot as it is was never tried; the compressed one was, once, and refused.
  assert.ok(first.every((n) => n < CEILING), `no write over any browser's limit: ${JSON.stringify(first)}`);
  const packed = Math.max(...first);
  assert.ok(packed > 1_000_000, `the compressed snapshot was tried: ${JSON.stringify(first)}`);
  assert.match(await page.textContent("#state-status"), /IndexedDB/);

  // The page loads again: the state comes back in pieces from the save worker.
  await page.reload();
  await page.waitForFunction(() => document.body.dataset.ready === "true" && /^Restored the state saved in this browser/.test(document.querySelector("#notice").textContent), null, { timeout: 120_000 });
  assert.deepEqual(await page.evaluate(() => window.joins), [], "the restored text was never joined on the page");
  // What was just read back is saved already: nothing is written again until something changes.
  await page.waitForTimeout(1500);
  assert.deepEqual(await page.evaluate(() => window.writes.filter((n) => n > 1000)), [], "no save of the state just loaded");
  assert.equal(await page.getAttribute("#state-status", "data-saved"), "saved");

  // A change, and the save that follows it: the refused size is not tried again.
  await page.selectOption("#route", "order-create");
  await page.click("#send");
  await page.waitForFunction(() => document.querySelector("#state-status").dataset.saved !== "saved");
  await page.waitForFunction(saved, null, { timeout: 120_000 });
  const after = await page.evaluate(() => window.writes);
  assert.ok(after.length >= 1, "the save wrote its marker");
  assert.ok(after.every((n) => n < packed / 2), `no write near the refused ${packed} characters: ${JSON.stringify(after)}`);
  assert.match(await page.textContent("#state-status"), /IndexedDB/);
  assert.deepEqual(errors, []);
});
