// Test data from the playground, in the tab and live, side by side in one
// run: the page served statically (the WebAssembly module in the tab) and
// the page of `orderpay serve --playground www` (the server's service,
// mirrored over its event stream), each a fresh page in headless Chromium
// generating N orders (10,000 unless given) with the Test data panel, in
// turn for each round. For each run it prints the time the page took (the
// click to the summary), the requests the page sent, the longest task of
// the main thread by the wall clock (a PerformanceObserver's) and by its
// own CPU time (a Chromium trace's thread time, the rule of the end-to-end
// tests on a busy machine), then the best of each and their ratio.
// Needs the package (source .ci/lib.sh; build_package) and the e2e
// dependencies (npm ci --prefix tests). Prints JSON lines.
// Usage: node tests/bench/testdata-live.mjs [orders] [rounds]
import { spawn } from "node:child_process";
import { loadavg } from "node:os";

import { serve } from "../../.ci/server.mjs";
import { launchChromium } from "../chromium.mjs";
import { cpuOfTasks } from "../e2e/cpu-tasks.mjs";

const root = new URL("../..", import.meta.url).pathname;
const orders = Number(process.argv[2] ?? 10_000);
const rounds = Number(process.argv[3] ?? 1);

/** `orderpay serve` from the built package, with www/ as its playground; resolves with its origin and process. */
function serveLive() {
  const proc = spawn(process.execPath, [`${root}pkg/server/cli.js`, "serve", "--port", "0", "--playground", `${root}www`], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  return new Promise((resolve, reject) => {
    proc.stdout.on("data", (d) => {
      out += d;
      const m = /serving on (http:\/\/[^\s/]+)/.exec(out);
      if (m) resolve({ origin: m[1], proc });
    });
    proc.stderr.on("data", (d) => (out += d));
    proc.on("exit", (code) => reject(new Error(`orderpay serve exited (${code}):\n${out}`)));
  });
}

/** Counts the page's requests and its long tasks from its first script on. */
function watch() {
  window.bench = { requests: 0, longest: 0 };
  const send = window.fetch;
  window.fetch = function (...args) {
    window.bench.requests++;
    return send.apply(this, args);
  };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.bench.longest = Math.max(window.bench.longest, Math.round(e.duration));
  }).observe({ type: "longtask" });
}

/** One run of N orders on a fresh page of `origin`. */
async function run(browser, mode, origin) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.addInitScript(watch);
  await page.goto(`${origin}/`);
  await page.waitForSelector("body[data-ready=true]");
  await page.waitForTimeout(500); // the page's start (and its first save) settles
  await page.evaluate(() => Object.assign(window.bench, { requests: 0, longest: 0 }));
  const { result: ms, longest } = await cpuOfTasks(page, async () => {
    const began = Date.now();
    await page.fill("#batch-count", String(orders));
    await page.click("#batch-run");
    await page.waitForFunction(() => document.querySelector("#batch-summary").dataset.state === "done", null, { timeout: 900_000 });
    return Date.now() - began;
  });
  const seen = await page.evaluate(() => ({ ...window.bench, count: Number(document.querySelector("#batch-summary").dataset.count), chunks: Number(document.querySelector("#batch-summary").dataset.requests) }));
  await context.close();
  if (seen.count !== orders) throw new Error(`${mode}: the page made ${seen.count} orders, not ${orders}`);
  return { mode, orders, ms, chunks: seen.chunks, requests: seen.requests, longestTaskMs: seen.longest, longestTaskCpuMs: longest };
}

const browser = await launchChromium(["--disable-quic"]);
const statics = await serve(0);
const live = await serveLive();
const best = {};
try {
  console.log(JSON.stringify({ loadAverage: loadavg()[0] }));
  const origins = { "in-tab": `http://127.0.0.1:${statics.address().port}`, live: live.origin };
  for (let round = 0; round < rounds; round++) {
    for (const [mode, origin] of Object.entries(origins)) {
      // A run whose trace cpu-tasks.mjs refuses (one that holds too few of the main thread's tasks) is measured again, up to three times.
      let result = null;
      for (let tries = 1; !result; tries++) {
        result = await run(browser, mode, origin).catch((e) => {
          if (tries === 3) throw e;
          console.log(JSON.stringify({ round, mode, measuredAgain: e.message.split("\n")[0] }));
          return null;
        });
      }
      console.log(JSON.stringify({ round, ...result }));
      best[mode] = Math.min(best[mode] ?? Infinity, result.ms);
    }
  }
  console.log(JSON.stringify({ orders, inTabMs: best["in-tab"], liveMs: best.live, liveOverInTab: +(best.live / best["in-tab"]).toFixed(2) }));
} finally {
  await browser.close();
  statics.close();
  live.proc.kill();
}
