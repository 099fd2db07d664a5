// A state too big for localStorage as it is is tried there once per
// browser, not once per page load: the refused write copies the whole
// snapshot first (a long task of 100 ms and more for a large state), so
// the size refused is remembered across reloads, and the first save after
// a reload goes straight to compression. And a state read back in pieces
// is restored from its pieces: its text is never joined on the page.
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

test("a size localStorage refused is not tried again after a reload, and a restore never joins the pieces", { timeout: 300_000 }, async () => {
  const { page, errors } = await open(env);
  await page.addInitScript(watchWrites);
  await page.reload();
  await page.waitForSelector("body[data-ready=true]");
  await page.setInputFiles("#import-state", snapshotFile);
  await page.waitForFunction(() => /^Imported the state from large\.json/.test(document.querySelector("#settings-message").textContent), null, { timeout: 120_000 });
  await page.waitForFunction(saved, null, { timeout: 120_000 });
  const first = await page.evaluate(() => window.writes);
  const refused = Math.max(...first);
  assert.ok(refused > 5_000_000, `the import's save tried the plain snapshot once: ${JSON.stringify(first)}`);
  assert.match(await page.textContent("#state-status"), /compressed|IndexedDB/);

  // The page loads again: the state comes back in pieces from the save worker.
  await page.reload();
  await page.waitForFunction(() => document.body.dataset.ready === "true" && /^Restored the state saved in this browser/.test(document.querySelector("#notice").textContent), null, { timeout: 120_000 });
  assert.deepEqual(await page.evaluate(() => window.joins), [], "the restored text was never joined on the page");

  // A change, and the save that follows it: no write of the plain snapshot is tried.
  await page.selectOption("#route", "order-create");
  await page.click("#send");
  await page.waitForFunction(() => document.querySelector("#state-status").dataset.saved !== "saved");
  await page.waitForFunction(saved, null, { timeout: 120_000 });
  const after = await page.evaluate(() => window.writes);
  assert.ok(after.length >= 1, "the save wrote");
  assert.ok(after.every((n) => n < refused / 2), `no write near the refused ${refused} characters: ${JSON.stringify(after)}`);
  assert.deepEqual(errors, []);
});
