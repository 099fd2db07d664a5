// Nothing is lost: a reload in the middle of a test-data run keeps every
// chunk saved so far and says how far the run got; two tabs never overwrite
// each other; destructive actions can be undone; "saved" is said only once
// it is true. At the desktop width: neither a reload nor a second tab depends
// on the layout, whose fit at a phone's width safety.test.mjs checks.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { artifacts, start } from "./browser.mjs";
import { applySettings, logRows, open, waitForRows } from "./playground.mjs";

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

const width = 1280;

/** The response records of the test-data chunks the page's log holds. */
async function chunkResponses(page) {
  await page.selectOption("#filter-uri_group", "/test/*");
  await page.selectOption("#filter-stage", "response");
  const rows = await logRows(page);
  await page.click("#filters button[type=reset]");
  return rows;
}

async function createOrder(page, description) {
  await page.selectOption("#route", "order-create");
  await page.fill("#body", JSON.stringify({ userId: "u-2", price: 9.5, description }));
  await page.click("#send");
  return JSON.parse(await page.textContent("#response pre.envelope")).data;
}

async function getOrder(page, orderId) {
  await page.selectOption("#route", "order-get");
  await page.fill("#param-orderId", orderId);
  await page.click("#send");
  return JSON.parse(await page.textContent("#response pre.envelope"));
}

test("a reload in the middle of a run keeps every saved chunk and says how far it got", async () => {
  const { page, errors, external } = await open(env, { width });
  // Room in the log for every chunk of the run (about 8 records an order).
  await applySettings(page, { seed: 31, logCapacity: 100000 });
  // The page reloads itself a second after the bar passed 1,000 (or, in a run that fast, once it
  // passes 9,000), keeping what the bar showed a second before (0 if the run had not begun) and
  // at the reload.
  await page.evaluate(() => {
    const bar = document.querySelector("#batch-progress");
    const seen = [];
    let passed = 0;
    const look = (now) => {
      seen.push([now, bar.value]);
      if (!passed && bar.value >= 1000) passed = now;
      if (passed && (now - passed >= 1000 || bar.value >= 9000)) {
        const before = seen.findLast(([at]) => at <= now - 1000)?.[1] ?? 0;
        // What the run's own saves had written by then (the save as the page goes comes on top).
        const raw = localStorage.getItem("orderpay-playground/snapshot") ?? "";
        const written = JSON.parse(raw.slice(3, raw.indexOf("\n")) || "{}").run?.made ?? 0;
        sessionStorage.setItem("reload-test", JSON.stringify({ before, shown: bar.value, written }));
        location.reload(); // no wait for anything: mid-run, mid-save perhaps
        return;
      }
      requestAnimationFrame(look);
    };
    requestAnimationFrame(look);
  });
  // The page's thread slowed down three times, as on a slower machine: a run of 10,000 then lasts
  // long enough for a second's bound to mean something, here as on a busy 2-core machine.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 3 });
  const reloaded = page.waitForNavigation({ timeout: 60_000 });
  await page.fill("#batch-count", "10000");
  await page.click("#batch-run");
  await reloaded;
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });
  await page.waitForSelector("body[data-ready=true]");

  const notice = await page.textContent("#notice");
  const m = /^Restored the state saved in this browser\. A test-data run was cut short at ([\d,]+) of 10,000 orders: those \1 are kept/.exec(notice);
  assert.ok(m, notice);
  const made = Number(m[1].replace(/,/g, ""));
  const { before, shown, written } = JSON.parse(await page.evaluate(() => sessionStorage.getItem("reload-test")));
  assert.ok(shown < 10000, `the run still going at the reload: ${shown}`);
  // The last save the run wrote: chunks are small (each near 20 ms), so several may follow it while
  // it is compressed (a compressed save of a few thousand orders takes about a second on this
  // page slowed down), but it is never far behind: at least half of what the bar showed a second
  // before, up to the first 1,000 (runs that save only their first chunks fail here). What the
  // reload kept is that or more (the save as the page goes), and no more than the bar showed.
  assert.ok(written >= Math.min(before, 1000) / 2, `saved during the run: ${written}; the bar showed ${before} a second before the reload`);
  assert.ok(made >= Math.max(written, 1) && made <= shown + 250, `cut short at ${made}: saved during the run ${written}, the bar at ${shown} at the reload`);
  // What the notice says is what the restored service holds: as many chunk requests as the
  // saved run counted, and one payment attempt for each of its orders.
  const run = await page.evaluate(() => ({ ...document.querySelector("#batch-summary").dataset }));
  assert.ok(Number(run.requests) >= made / 250, `at most 250 orders a chunk: ${run.requests} chunks`);
  assert.equal((await chunkResponses(page)).length, Number(run.requests));
  assert.equal(Number(await page.getAttribute("#chart-payments", "data-attempts")), made);
  assert.equal(await page.getAttribute("#batch-summary", "data-state"), "interrupted");
  assert.equal(Number(await page.getAttribute("#batch-summary", "data-count")), made);
  assert.match(await page.textContent("#batch-status"), new RegExp(`^Cut short by a reload at ${m[1]} of 10,000 orders\\.$`));
  await page.locator("#testdata").scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${artifacts}playground-interrupted-${width}.png` });

  // The rest of the run can be made: the totals come out at 10,000.
  assert.equal(await page.textContent("#batch-resume"), `Make the other ${(10000 - made).toLocaleString("en-US")}`);
  await page.click("#batch-resume");
  await page.waitForSelector("#batch-summary[data-state=done]", { timeout: 60_000 });
  assert.equal(Number(await page.getAttribute("#batch-summary", "data-count")), 10000);
  assert.equal(await page.textContent("#batch-status"), "10,000 of 10,000 orders.");
  assert.equal(await page.isHidden("#batch-resume"), true);
  assert.deepEqual(errors, []);
  assert.deepEqual(external, []);
});

test("the status line says saved only once the save is written", async () => {
  const { page, errors } = await open(env);
  await page.waitForFunction(() => document.querySelector("#state-status").dataset.saved === "saved");
  // Right after a change, before any save could run: not "saved".
  const right = await page.evaluate(() => {
    document.querySelector("#send").click();
    return document.querySelector("#state-status").textContent;
  });
  assert.match(right, /state changed, saving…\.$/);
  await page.waitForFunction(() => document.querySelector("#state-status").dataset.saved === "saved");
  const saved = await page.evaluate(() => localStorage.getItem("orderpay-playground/snapshot"));
  assert.ok(saved.startsWith("v2 "), "the saved entry");
  assert.match(await page.textContent("#state-status"), /3 log records · state saved in this browser at [\d:]+ \(/);
  assert.deepEqual(errors, []);
});

test("a second tab follows the first, turns separate when changed, and never overwrites it", async () => {
  const a = await open(env, { width });
  await applySettings(a.page, { seed: 8 });
  const first = await createOrder(a.page, "made in tab A");
  await a.page.waitForFunction(() => document.querySelector("#state-status").dataset.saved === "saved");

  // Tab B, same browser: it follows A.
  const b = { page: await a.context.newPage(), errors: [] };
  b.page.on("pageerror", (e) => b.errors.push(String(e)));
  await b.page.setViewportSize({ width, height: 900 });
  await b.page.goto(env.base);
  await b.page.waitForSelector("body[data-ready=true]");
  assert.equal(await b.page.getAttribute("#tabs", "data-role"), "follower");
  assert.match(await b.page.textContent("#tabs"), /^Another tab owns this playground's saved state\. This tab follows it/);
  assert.equal(await a.page.getAttribute("#tabs", "data-role"), "owner");
  assert.equal(await a.page.isHidden("#tabs"), true, "the owner alone has nothing to say");
  await waitForRows(b.page, 3);

  // A goes on; B shows it once A has saved.
  const second = await createOrder(a.page, "also made in tab A");
  await waitForRows(b.page, 6);
  assert.deepEqual(await logRows(b.page), await logRows(a.page));
  await b.page.evaluate(() => scrollTo(0, 0));
  await b.page.screenshot({ path: `${artifacts}playground-second-tab-${width}.png` });

  // A request in B turns it into a separate service, said plainly.
  const own = await createOrder(b.page, "made in tab B");
  assert.equal(await b.page.getAttribute("#tabs", "data-role"), "separate");
  assert.match(await b.page.textContent("#tabs"), /^This tab is a separate service: nothing done here is saved\./);
  assert.match(await b.page.textContent("#state-status"), /not saved: this tab is a separate service/);

  // A carries on and saves; B's order never lands in the saved state, and A's survive its reload.
  const third = await createOrder(a.page, "made in tab A after B split");
  await a.page.waitForFunction(() => document.querySelector("#state-status").dataset.saved === "saved");
  await a.page.reload();
  await a.page.waitForSelector("body[data-ready=true]");
  for (const order of [first, second, third]) assert.equal((await getOrder(a.page, order.orderId)).code, 0, order.description);
  assert.equal((await getOrder(a.page, own.orderId)).msg, "Order not found");

  // B may take over, after saying yes: then A is told that it is the separate one.
  await b.page.click("#take-over");
  assert.match(await b.page.textContent("#tabs"), /Replace the state the other tab saved with this tab's\?/);
  await b.page.click("#tabs-confirm");
  await b.page.waitForFunction(() => document.querySelector("#tabs").dataset.role === "owner");
  await a.page.waitForFunction(() => document.querySelector("#tabs").dataset.role === "separate");
  assert.match(await a.page.textContent("#tabs"), /Another tab took the saved state over/);
  await b.page.waitForFunction(() => document.querySelector("#state-status").dataset.saved === "saved");
  // The bar stays in sight wherever the page is scrolled to.
  await a.page.evaluate(() => document.querySelector("#log").scrollIntoView());
  const bar = await a.page.$eval("#tabs", (el) => el.getBoundingClientRect().top);
  assert.ok(bar >= 0 && bar < 200, `the tab bar in sight: ${bar}`);
  await a.page.screenshot({ path: `${artifacts}playground-separate-tab-${width}.png` });

  // A follows again, after saying yes: it shows B's state.
  await a.page.click("#follow-again");
  await a.page.click("#tabs-confirm");
  await a.page.waitForFunction(() => document.querySelector("#tabs").dataset.role === "follower");
  await a.page.waitForFunction((id) => [...document.querySelectorAll("#logs tr[data-seq]")].length > 0 && document.querySelector("#order-ids option[value='" + id + "']") !== null, own.orderId);
  assert.deepEqual([...a.errors, ...b.errors], []);
});

test("emptying the log, starting fresh, resetting and importing can each be undone", async () => {
  const { page, errors } = await open(env);
  await applySettings(page, { seed: 12, failureRate: 0 });
  const order = await createOrder(page, "kept by undo");
  await page.click("#send");
  await waitForRows(page, 6);
  const rows = await logRows(page);

  await page.click("#copy-test-curl");
  await page.waitForSelector("#copy-test-text:not([hidden])");
  const copied = await page.textContent("#copy-test-text");

  // Emptying the log sits apart from "Clear filters", and Undo brings the records back.
  assert.equal(await page.locator("#filters #clear-logs").count(), 0);
  await page.click("#clear-logs");
  await waitForRows(page, 0);
  assert.equal(await page.textContent("#undo-text"), "Emptied the log (6 records). ");
  await page.screenshot({ path: `${artifacts}playground-undo.png` });
  await page.click("#undo-button");
  await waitForRows(page, 6);
  assert.deepEqual(await logRows(page), rows);
  assert.equal(await page.isHidden("#undo"), true);
  // The run came back with the snapshot: the copy as test is the one before.
  await page.click("#copy-test-vitest");
  await page.click("#copy-test-curl");
  await page.waitForFunction((text) => document.querySelector("#copy-test-text").textContent === text && !document.querySelector("#copy-test-text").hidden, copied);

  // Apply and start fresh, then undo: the old service, its seed and its order.
  await applySettings(page, { seed: 99 });
  await waitForRows(page, 0);
  await page.click("#undo-button");
  await waitForRows(page, 6);
  assert.equal(await page.inputValue("#seed"), "12");
  assert.equal((await getOrder(page, order.orderId)).code, 0);
  assert.match(await page.textContent("#settings-message"), /^Undone \(Started a fresh service\): the state is back as it was before\.$/);

  // Reset to defaults, then undo.
  await page.click("#reset");
  assert.equal(await page.inputValue("#failure-rate"), "0.3");
  await page.click("#undo-button");
  assert.equal(await page.inputValue("#failure-rate"), "0");
  assert.equal(await page.inputValue("#seed"), "12");

  // Importing replaces the state; undo puts it back. The undone state is what gets saved.
  const other = await page.evaluate(async () => {
    const { Service } = await import("/pkg/orderpay.js");
    const s = new Service({ seed: 4242 });
    s.handle("GET", "/api/order/ORD-NOPE0000");
    return s.snapshot();
  });
  await page.setInputFiles("#import-state", { name: "other.json", mimeType: "application/json", buffer: Buffer.from(other) });
  await page.waitForFunction(() => document.querySelector("#seed").value === "4242");
  await page.click("#undo-button");
  await page.waitForFunction(() => document.querySelector("#seed").value === "12");
  await page.waitForFunction(() => document.querySelector("#state-status").dataset.saved === "saved");
  await page.reload();
  await page.waitForSelector("body[data-ready=true]");
  assert.equal(await page.inputValue("#seed"), "12");
  assert.equal((await getOrder(page, order.orderId)).code, 0);

  // A refused import changes nothing and offers no undo.
  await page.setInputFiles("#import-state", { name: "bad.json", mimeType: "application/json", buffer: Buffer.from("{}") });
  await page.waitForFunction(() => /^Could not import bad\.json/.test(document.querySelector("#settings-message").textContent));
  assert.equal(await page.isHidden("#undo"), true);
  assert.deepEqual(errors, []);
});

test("a state too big for localStorage even compressed is saved in IndexedDB and comes back", async () => {
  const { page, errors } = await open(env);
  await applySettings(page, { seed: 19 });
  await page.waitForFunction(() => document.querySelector("#state-status").dataset.saved === "saved");
  // Other data of this origin leaves the page almost no room in localStorage.
  await page.evaluate(() => {
    for (const size of [262144, 16384, 1024]) {
      for (let i = 0; ; i++) {
        try { localStorage.setItem(`other-${size}-${i}`, "x".repeat(size)); } catch { break; }
      }
    }
  });
  await page.fill("#batch-count", "1000");
  await page.click("#batch-run");
  await page.waitForSelector("#batch-summary[data-state=done]", { timeout: 60_000 });
  await page.waitForFunction(() => {
    const s = document.querySelector("#state-status");
    return s.dataset.saved === "saved" && s.dataset.where === "IndexedDB";
  }, null, { timeout: 60_000 });
  assert.match(await page.textContent("#state-status"), /state saved in this browser at [\d:]+ \([\d.]+ (KB|MB), in IndexedDB\)\.$/);
  const count = await page.textContent("#log-count");
  const top = (await logRows(page))[0];
  await page.reload();
  await page.waitForSelector("body[data-ready=true]");
  assert.equal(await page.textContent("#notice"), "Restored the state saved in this browser.");
  assert.equal(await page.textContent("#log-count"), count);
  assert.deepEqual((await logRows(page))[0], top);
  assert.deepEqual(errors, []);
});
