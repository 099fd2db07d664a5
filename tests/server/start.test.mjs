// The repository's serve command, `npm start`, as the README gives it:
// by default the static page whose requests go through the WebAssembly
// module in the tab (no gateway behind it), with `--live` the same page
// from `orderpay serve`, whose service is the server's. It installs and
// builds nothing when nothing changed (CI has built pkg/ before this runs).
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { test } from "node:test";

import { root } from "./serve.mjs";

/**
 * Runs `npm start -- ...args` in the repository and resolves once it
 * prints an address matching `pattern`: `{ origin, output(), stop() }`.
 */
function start(args, pattern) {
  const proc = spawn("npm", ["start", "--", ...args], { cwd: root, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let out = "";
  const exited = new Promise((resolve) => proc.on("exit", (code) => resolve(code)));
  const stop = () => {
    try {
      process.kill(-proc.pid, "SIGTERM");
    } catch { /* already gone */ }
    return exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no address within 60 s:\n${out}`)), 60_000);
    const look = () => {
      const m = pattern.exec(out);
      if (!m) return;
      clearTimeout(timer);
      resolve({ origin: m[1], output: () => out, stop, exited });
    };
    proc.stdout.on("data", (d) => ((out += d), look()));
    proc.stderr.on("data", (d) => ((out += d), look()));
    exited.then((code) => {
      clearTimeout(timer);
      reject(Object.assign(new Error(`exited (${code}) before serving:\n${out}`), { code, output: out }));
    });
  });
}

test("npm start serves the in-tab page: www/ and the package, with no gateway behind it", async () => {
  const s = await start(["--port", "0"], /orderpay playground: (http:\/\/[^\s/]+)\//);
  try {
    const page = await fetch(`${s.origin}/`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<title>orderpay playground<\/title>/);
    const wasm = await fetch(`${s.origin}/pkg/orderpay_bg.wasm`);
    assert.equal(wasm.status, 200);
    assert.equal(wasm.headers.get("content-type"), "application/wasm");
    // No service behind the page: its requests can only go through the module in the tab.
    assert.equal((await fetch(`${s.origin}/api/order/ORD-00000000`)).status, 404);
    assert.doesNotMatch(s.output(), /installing|building the package/, "nothing to install or build on a second run");
  } finally {
    await s.stop();
  }
});

test("npm start -- --live serves the same page from orderpay serve, with the gateway behind it", async () => {
  const s = await start(["--live", "--port", "0", "--seed", "3"], /serving on (http:\/\/[^\s/]+)[^\s]*\/api /);
  try {
    assert.match(await (await fetch(`${s.origin}/`)).text(), /<title>orderpay playground<\/title>/);
    const created = await fetch(`${s.origin}/api/order/create`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ userId: "u-1", price: 25.5, description: "live" }),
    });
    const body = await created.json();
    assert.equal(body.code, 0);
    assert.match(body.data.orderId, /^ORD-.{8}$/);
  } finally {
    await s.stop();
  }
});

test("npm start refuses orderpay serve's options without --live, naming them", async () => {
  const error = await start(["--seed", "3"], /never/).then(
    (s) => (s.stop(), assert.fail("it served")),
    (e) => e,
  );
  assert.equal(error.code, 2);
  assert.match(error.output, /--seed 3: options of orderpay serve need --live/);
});
