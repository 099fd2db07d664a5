// Saving a large state (20,000 orders, 20,000 log records: about 19 MB of
// snapshot JSON, more than localStorage holds as it is) leaves the page
// free: a Chromium trace of the main thread watches the save, and every
// task of 50 ms or more of CPU time must be the service's own snapshot()
// (measured by the page as "orderpay snapshot"), with under 50 ms of the
// page's own CPU time beside it (the whole synchronous save is measured as
// "orderpay save"). CPU time, not the wall clock, which other processes on
// a shared machine stretch (tests/e2e/cpu-tasks.mjs); the long tasks of the
// wall clock are printed.
// The compression, its encoding and its base64 run in a Worker, and a save
// that takes over half a second shows its progress.
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";

import { start } from "./browser.mjs";
import { open } from "./playground.mjs";
import { LONG_MS, traceOfTasks } from "./cpu-tasks.mjs";
import { Service } from "../../pkg/node.js";

let env;
let dir;
let snapshotFile;
let largerFile;
before(async () => {
  env = await start();
  dir = await mkdtemp(join(tmpdir(), "orderpay-save-"));
  const service = new Service({ seed: 8, logCapacity: 20000 });
  for (let i = 0; i < 80; i++) service.handle("GET", "/api/test/order/batch?count=250");
  snapshotFile = join(dir, "large.json");
  await writeFile(snapshotFile, service.snapshot());
  for (let i = 0; i < 120; i++) service.handle("GET", "/api/test/order/batch?count=250");
  largerFile = join(dir, "larger.json");
  await writeFile(largerFile, service.snapshot());
  service.free();
});
after(async () => {
  await env?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

test("a save of 20,000 orders: no long task but the service's snapshot(), the compression in a Worker, its progress shown", { timeout: 240_000 }, async () => {
  const { page, errors } = await open(env);
  await page.setInputFiles("#import-state", snapshotFile);
  await page.waitForFunction(() => /^Imported the state from large\.json/.test(document.querySelector("#settings-message").textContent), null, { timeout: 120_000 });
  // The save the import set going is over before the watch starts.
  await page.waitForFunction(() => document.querySelector("#state-status").dataset.saved === "saved", null, { timeout: 120_000 });
  assert.match(await page.textContent("#state-status"), /compressed/);
  await page.waitForTimeout(500);
  await page.evaluate(() => {
    window.watch = { tasks: [], snapshots: [], saves: [], progress: [] };
    new PerformanceObserver((list) => { for (const e of list.getEntries()) window.watch.tasks.push({ start: e.startTime, duration: e.duration }); }).observe({ type: "longtask" });
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        if (e.name === "orderpay snapshot") window.watch.snapshots.push({ start: e.startTime, duration: e.duration });
        if (e.name === "orderpay save") window.watch.saves.push({ start: e.startTime, duration: e.duration });
      }
    }).observe({ type: "measure" });
    const status = document.querySelector("#state-status");
    new MutationObserver(() => {
      if (status.dataset.progress) window.watch.progress.push([Number(status.dataset.progress), status.textContent]);
      if (status.dataset.saved === "saved" && window.watch.snapshots.length && !window.watch.savedAt) window.watch.savedAt = performance.now();
    })
      .observe(status, { attributes: true, childList: true, characterData: true, subtree: true });
  });

  // A change (one request), then the save that follows it, traced.
  const trace = await traceOfTasks(page, async () => {
    await page.selectOption("#route", "order-create");
    await page.click("#send");
    await page.waitForFunction(() => window.watch.snapshots.length === 1, null, { timeout: 60_000 });
    await page.waitForFunction(() => document.querySelector("#state-status").dataset.saved === "saved", null, { timeout: 120_000 });
    await page.waitForTimeout(300); // the last task has ended
  });
  const { tasks, snapshots, saves, progress, savedAt } = await page.evaluate(() => window.watch);
  const [snap] = snapshots;
  const [save] = saves;
  const round = (ms) => Math.round(ms);
  // The same calls on the trace's clock, and the tasks of the save by CPU time: the one holding
  // snapshot(), and the others of 50 ms or more from snapshot() on.
  const traced = (name) => trace.measures.find((m) => m.name === name);
  const snapTraced = traced("orderpay snapshot");
  assert.ok(snapTraced && traced("orderpay save"), `the trace holds the save's measures: ${JSON.stringify(trace.measures.map((m) => m.name))}`);
  const holding = trace.tasks.find((t) => t.start <= snapTraced.start && t.end + 1 >= snapTraced.end);
  const others = trace.tasks.filter((t) => t !== holding && t.end >= snapTraced.start && t.cpu >= LONG_MS).map((t) => t.cpu);
  // The page's own work beside snapshot(): the save's wall-clock time outside it, scaled by the
  // holding task's share of a core (its CPU time over its wall-clock time).
  const share = holding && holding.wall > 0 ? holding.cpu / holding.wall : 1;
  const beside = (save.duration - snap.duration) * share;
  const wallOthers = tasks.filter((t) => t.start + t.duration >= snap.start && !(t.start <= snap.start && t.start + t.duration >= snap.start + snap.duration));
  console.log(`save of 20,000 orders: ${round(savedAt - snap.start)} ms from snapshot() to saved; snapshot() ${round(snap.duration)} ms; the page's own work beside it ${round(save.duration - snap.duration)} ms of the wall clock, ${round(beside)} ms of CPU time; the task holding it ${holding ? `${round(holding.wall)} ms, ${round(holding.cpu)} of CPU time` : "not traced"}; other tasks of 50 ms or more of CPU time during the save: [${others.map(round)}] ms (long tasks of the wall clock, printed only: [${wallOthers.map((t) => round(t.duration))}] ms); progress shown: ${progress.map(([p]) => Math.round(p * 100) + "%").join(" ")}`);

  // The compression ran in the save worker (the one worker this page makes for saves).
  assert.deepEqual(page.workers().map((w) => new URL(w.url()).pathname), ["/save-worker.js"]);
  // The page's own synchronous work in a save, beside snapshot(), is under 50 ms (on this thread
  // the UTF-8 encoding alone of 19 MB took about 80 ms), and no other long task comes of the save
  // (on this thread, the base64 gave one of about 190 ms), both by CPU time. A garbage collection
  // lengthens a task now and then, so one is allowed, not long.
  assert.ok(beside < 50, `the page's own CPU time beside snapshot(): ${round(beside)} ms`);
  assert.ok(others.length <= 1 && others.every((t) => t < 120), `tasks of 50 ms or more of CPU time of the save beside snapshot(): [${others.map(round)}]`);
  assert.deepEqual(errors, []);
});

test("a save that takes over half a second says how far its compression got", { timeout: 240_000 }, async () => {
  const { page, errors } = await open(env);
  // 50,000 orders. The import's own save (the first of the page) learns that the text is too big for
  // localStorage as it is, and compresses it in the Worker, which a quiet machine does in well under
  // half a second; the next save streams the snapshot's pieces to the Worker as they are made on this
  // thread. With the page's CPU slowed down, that save reliably takes over half a second.
  await page.setInputFiles("#import-state", largerFile);
  await page.waitForFunction(() => /^Imported the state from larger\.json/.test(document.querySelector("#settings-message").textContent), null, { timeout: 120_000 });
  // Its save is over (saved compressed, not the empty state the page started with) before the change.
  await page.waitForFunction(() => { const s = document.querySelector("#state-status"); return s.dataset.saved === "saved" && /compressed/.test(s.textContent); }, null, { timeout: 120_000 });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 8 });
  await page.selectOption("#route", "order-create");
  await page.click("#send");
  await page.waitForFunction(() => document.querySelector("#state-status").dataset.progress !== undefined, null, { timeout: 120_000 });
  assert.match(await page.textContent("#state-status"), /saving \(compressing a large state: \d+%\)…/);
  await page.waitForFunction(() => document.querySelector("#state-status").dataset.saved === "saved", null, { timeout: 200_000 });
  assert.equal(await page.getAttribute("#state-status", "data-progress"), null, "gone once saved");
  assert.deepEqual(errors, []);
});
