// No crash of the host: the mixed workload (tests/node/mixed-workload.mjs)
// in 10 fresh Node processes, and once in headless Chromium. Before the
// binding took plain data, V8 aborted Node in its deoptimizer on this
// workload in about 4 runs of 10: a hot JS-to-wasm call returning a JS
// object reference, inlined into optimized code and deoptimized while it
// ran. Exports now return numbers and strings only.
import assert from "node:assert/strict";
import { test } from "node:test";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { chromium } from "playwright-core";

import { serve } from "../../.ci/server.mjs";
import { flows } from "./mixed-workload.mjs";

const run = promisify(execFile);
const workload = new URL("./mixed-workload.mjs", import.meta.url).pathname;

test("10 fresh Node processes each run the mixed workload to the end", { timeout: 600_000 }, async () => {
  const outcomes = [];
  for (let i = 0; i < 10; i++) {
    try {
      const { stdout } = await run(process.execPath, [workload], { maxBuffer: 1 << 20 });
      outcomes.push(stdout.trim());
    } catch (error) {
      outcomes.push(`run ${i + 1}: exit ${error.code ?? error.signal}: ${String(error.stderr).slice(0, 500)}`);
    }
  }
  assert.deepEqual(outcomes, Array(10).fill("ok: 171566 requests"));
});

test("headless Chromium runs the mixed workload to the end", { timeout: 600_000 }, async () => {
  const server = await serve(0);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
      "--no-first-run", "--disable-sync"],
  });
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    let crashed = false;
    page.on("crash", () => {
      crashed = true;
    });
    const base = `http://127.0.0.1:${server.address().port}`;
    await page.goto(`${base}/pkg/package.json`);
    const requests = await page.evaluate(
      async ({ source, base }) => {
        const { default: init, Service } = await import(`${base}/pkg/orderpay.js`);
        const { createFetch } = await import(`${base}/pkg/fetch.js`);
        await init();
        const run = new Function(`return (${source})`)();
        return run({ Service, createFetch, base });
      },
      { source: flows.toString(), base },
    );
    assert.equal(crashed, false);
    assert.deepEqual(errors, []);
    assert.equal(requests, 171566);
  } finally {
    await browser.close();
    server.close();
  }
});
