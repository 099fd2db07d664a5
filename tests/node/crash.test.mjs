// No crash of the host: the mixed workload (tests/node/mixed-workload.mjs)
// in 10 fresh Node processes, and once in headless Chromium. Before the
// binding took plain data, V8 aborted Node in its deoptimizer on this
// workload in about 4 runs of 10: a hot JS-to-wasm call returning a JS
// object reference, inlined into optimized code and deoptimized while it
// ran (tests/node/v8-deopt-probe.mjs reduces it to that). Exports now
// take and return numbers only: strings and bytes cross through memory.
import assert from "node:assert/strict";
import { test } from "node:test";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { readFileSync } from "node:fs";
import { launchChromium } from "../chromium.mjs";
import binaryen from "binaryen";

import { serve } from "../../.ci/server.mjs";
import { flows } from "./mixed-workload.mjs";

const run = promisify(execFile);
const workload = new URL("./mixed-workload.mjs", import.meta.url).pathname;

test("no export of the package's WebAssembly module takes or returns a JS reference", () => {
  const module = binaryen.readBinary(readFileSync(new URL("../../pkg/orderpay_bg.wasm", import.meta.url)));
  const references = [binaryen.externref, binaryen.funcref, binaryen.anyref];
  const found = [];
  for (let i = 0; i < module.getNumExports(); i++) {
    const exported = binaryen.getExportInfo(module.getExportByIndex(i));
    if (exported.kind !== binaryen.ExternalFunction) continue;
    const fn = binaryen.getFunctionInfo(module.getFunction(exported.value));
    const types = [...binaryen.expandType(fn.params), ...binaryen.expandType(fn.results)];
    if (types.some((t) => references.includes(t))) found.push(exported.name);
  }
  assert.ok(module.getNumExports() > 10);
  assert.deepEqual(found, []);
});

test("the reduced construct: a deopt during an inlined wasm call returning a number is survived", async () => {
  const probe = new URL("./v8-deopt-probe.mjs", import.meta.url).pathname;
  const { stdout } = await run(process.execPath, ["--allow-natives-syntax", probe, "num"]);
  assert.equal(stdout.trim(), "num: survived (4)");
});

/** One fresh Node process running the workload: its last line, or how it ended. */
async function workloadRun(i) {
  try {
    const { stdout } = await run(process.execPath, [workload], { maxBuffer: 1 << 20 });
    return stdout.trim();
  } catch (error) {
    return `run ${i + 1}: exit ${error.code ?? error.signal}: ${String(error.stderr).slice(0, 500)}`;
  }
}

// Two processes at a time, one a core: each is a process of its own
// whatever runs beside it, which is what the crash needed.
test("10 fresh Node processes each run the mixed workload to the end", { timeout: 600_000 }, async () => {
  const outcomes = [];
  for (let i = 0; i < 10; i += 2) outcomes.push(...(await Promise.all([workloadRun(i), workloadRun(i + 1)])));
  assert.deepEqual(outcomes, Array(10).fill("ok: 171566 requests"));
});

test("headless Chromium runs the mixed workload to the end", { timeout: 600_000 }, async () => {
  const server = await serve(0);
  const browser = await launchChromium();
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
