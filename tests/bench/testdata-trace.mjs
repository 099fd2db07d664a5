// What holds the page during a test-data run with 100,000 orders: the
// playground in headless Chromium imports a 100,000-order state (made by
// the package in Node, with the test-data endpoint), then runs N more
// orders (5,000 unless given) under a Chromium performance trace. For each
// task of the page's main thread of 50 ms or more it prints its length and
// what filled most of it: layout (style, layout, paint and commit), gc,
// serialize (postMessage to and from the save worker) or script; then
// how many layout passes had more than half of the page's objects dirty.
// Each long task follows on a line of its own: when (ms after the first),
// how long (and how much of it was the thread's own CPU time), and its
// longest events inside by name.
// Needs the package (source .ci/lib.sh; build_package) and the e2e
// dependencies (npm ci --prefix tests). Prints JSON lines.
// Usage: node tests/bench/testdata-trace.mjs [orders]
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { start } from "../e2e/browser.mjs";
import { open } from "../e2e/playground.mjs";
import { Service } from "../../pkg/node.js";

const orders = Number(process.argv[2] ?? 5000);
const dir = await mkdtemp(join(tmpdir(), "orderpay-trace-"));
const file = join(dir, "orders-100k.json");
const service = new Service({ seed: 12 });
for (let made = 0; made < 100_000; made += 250) service.handle("GET", "/api/test/order/batch?count=250");
await writeFile(file, service.snapshot());
service.free();

const env = await start();
try {
  const { page } = await open(env, { width: 1280 });
  await page.setInputFiles("#import-state", file);
  await page.waitForFunction(() => /^Imported/.test(document.querySelector("#settings-message").textContent), null, { timeout: 240_000 });
  await page.waitForFunction(() => document.querySelector("#state-status").dataset.saved === "saved", null, { timeout: 240_000 });

  const cdp = await page.context().newCDPSession(page);
  const events = [];
  cdp.on("Tracing.dataCollected", (e) => events.push(...e.value));
  await cdp.send("Tracing.start", {
    traceConfig: { includedCategories: ["devtools.timeline", "disabled-by-default-devtools.timeline", "v8", "v8.gc", "toplevel", "blink"] },
    transferMode: "ReportEvents",
  });
  const began = Date.now();
  await page.fill("#batch-count", String(orders));
  await page.click("#batch-run");
  await page.waitForFunction(() => document.querySelector("#batch-summary").dataset.state === "done" && document.querySelector("#state-status").dataset.saved === "saved", null, { timeout: 600_000 });
  const ms = Date.now() - began;
  const complete = new Promise((resolve) => cdp.once("Tracing.tracingComplete", resolve));
  await cdp.send("Tracing.end");
  await complete;

  const mains = new Set(events.filter((e) => e.name === "thread_name" && e.args?.name === "CrRendererMain").map((e) => `${e.pid}:${e.tid}`));
  const main = events.filter((e) => e.ph === "X" && mains.has(`${e.pid}:${e.tid}`));
  const KINDS = {
    layout: /^(Layout|UpdateLayoutTree|Paint|PrePaint|Commit)$/,
    gc: /^(MajorGC|MinorGC|V8\.GCPhantomHandleProcessingCallback|V8\.GCIncrementalMarkingStart|V8\.GCFinalizeMC)$/,
    serialize: /^SerializedScriptValueFactory::(create|deserialize)$/,
    script: /^FunctionCall$/,
  };
  const tasks = main.filter((e) => e.name === "ThreadControllerImpl::RunTask" && e.dur >= 50_000);
  const byKind = {};
  const details = [];
  for (const task of tasks) {
    const inside = main.filter((e) => e.ts >= task.ts && e.ts + (e.dur ?? 0) <= task.ts + task.dur);
    const longest = (re) => inside.filter((e) => re.test(e.name)).reduce((n, e) => Math.max(n, e.dur), 0);
    const [kind] = Object.entries(KINDS).map(([k, re]) => [k, longest(re)]).sort((a, b) => b[1] - a[1])[0];
    (byKind[kind] ??= []).push(Math.round(task.dur / 1000));
    // What filled it: the longest events inside, by name (a script by its function and file), in ms.
    const what = inside.filter((e) => e !== task && e.dur >= 3000).sort((a, b) => b.dur - a.dur).slice(0, 6).map((e) => {
      const f = e.args?.data?.functionName || e.args?.data?.url?.split("/").pop() || e.args?.data?.type || "";
      return `${e.name}${f ? `(${f})` : ""} ${Math.round(e.dur / 1000)}`;
    });
    details.push({ at: Math.round((task.ts - tasks[0].ts) / 1000), ms: Math.round(task.dur / 1000), cpuMs: Math.round((task.tdur ?? NaN) / 1000), kind, what });
  }
  const layouts = main.filter((e) => e.name === "Layout" && e.args?.beginData);
  const whole = layouts.filter((e) => e.args.beginData.dirtyObjects > e.args.beginData.totalObjects / 2);
  // The main thread's own CPU time per task (the trace's thread time): what the page's work cost, the waits for a busy core left out.
  const cpuLong = main.filter((e) => e.name === "ThreadControllerImpl::RunTask" && e.tdur >= 50_000).map((e) => Math.round(e.tdur / 1000));
  console.log(JSON.stringify({ orders, ms, longTasks: tasks.length, byKind, tasksOf50msCpu: cpuLong }));
  for (const d of details) console.log(JSON.stringify(d));
  console.log(JSON.stringify({ layouts: layouts.length, wholePageLayouts: whole.length, longestWholePageLayoutMs: Math.round(Math.max(0, ...whole.map((e) => e.dur)) / 1000) }));
} finally {
  await env.close();
  await rm(dir, { recursive: true, force: true });
}
