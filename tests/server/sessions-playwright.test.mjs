// orderpay/playwright pointed at one `orderpay serve`: Playwright Test
// (pinned in tests/compat/package.json) runs two workers at once, each
// calling mockOrderpay(page, { server }) with nothing else, and each gets a
// session of its own (worker-0, worker-1): its forced decline, its orders
// and its log, none of the other's. Its types compile under strict TypeScript.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

import { examples } from "../docs.mjs";
import { call, consumer, root, serve, stop } from "./serve.mjs";

const compat = join(root, "tests", "compat", "node_modules");
const cli = join(compat, "@playwright", "test", "cli.js");

const CONFIG = `import { defineConfig } from "@playwright/test";
export default defineConfig({
  testDir: ".",
  reporter: "line",
  fullyParallel: true,
  workers: 2,
  use: { launchOptions: { executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu", "--no-first-run"] } },
});
`;

// Each test runs in its own worker: a declined payment forced in its session, two orders, its log.
// The fixture is docs/sessions.md's, as written; the spec uses its \`orderpay\`.
const SPEC = `import { writeFileSync } from "node:fs";
import { expect, test } from "./fixtures.mjs";

for (const n of [1, 2]) {
  test("worker flow " + n, async ({ page, orderpay }, info) => {
    await page.route("http://shop.test/", (route) => route.fulfill({ contentType: "text/html", body: "<title>shop</title>" }));
    await orderpay.forceNext("failure", 1);
    await page.goto("http://shop.test/");
    const result = await page.evaluate(async () => {
      const post = (path, body) => fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }).then((r) => r.json());
      const a = await post("/api/order/create", { userId: "pw", price: 3 });
      const pay = await post("/api/payment/pay", { orderId: a.data.orderId, amount: 3, paymentMethod: "CARD" });
      const b = await post("/api/order/create", { userId: "pw", price: 4 });
      return { orders: [a.data.orderId, b.data.orderId], payCode: pay.code };
    });
    expect(result.payCode).toBe(-1);
    const responses = (await orderpay.logs()).filter((r) => r.stage === "response");
    expect(responses).toHaveLength(3);
    writeFileSync("result-" + info.workerIndex + ".json", JSON.stringify({ session: orderpay.session, ...result }));
  });
}
`;

/** The consumer app with the packed package, and Playwright Test linked from the compatibility fixtures' tools. */
function project(server) {
  const dir = join(consumer().dir, "pw-sessions");
  mkdirSync(dir, { recursive: true });
  for (const name of ["@playwright/test", "playwright", "playwright-core"]) {
    const link = join(consumer().dir, "node_modules", name);
    mkdirSync(join(link, ".."), { recursive: true });
    if (!existsSync(link)) symlinkSync(join(compat, name), link, "dir");
  }
  writeFileSync(join(dir, "playwright.config.mjs"), CONFIG);
  writeFileSync(join(dir, "flow.spec.mjs"), SPEC);
  const [fixture] = examples("playwright-sessions");
  writeFileSync(join(dir, "fixtures.mjs"), fixture.replaceAll("http://127.0.0.1:4010", server.url));
  return dir;
}

test("two Playwright workers on one server each get a session of their own, with no setup", { skip: !existsSync(cli) && "tests/compat is not installed (setup_test)" }, async () => {
  const server = await serve(["--port", "0", "--seed", "5"]);
  try {
    const dir = project(server);
    const run = spawnSync("node", [cli, "test", "--config", "playwright.config.mjs"], {
      cwd: dir,
      encoding: "utf8",
      timeout: 120_000,
    });
    assert.equal(run.status, 0, run.stdout + run.stderr);
    const results = [0, 1].map((i) => JSON.parse(readFileSync(join(dir, `result-${i}.json`), "utf8")));
    assert.deepEqual(results.map((r) => r.session), ["worker-0", "worker-1"]);
    const listed = (await call(`${server.origin}/__orderpay/sessions`)).body.data.sessions;
    for (const [i, { session, orders }] of results.entries()) {
      const mine = listed.find((s) => s.name === session);
      assert.deepEqual(mine.payments, { attempts: 1, approved: 0, declined: 1 }, session);
      assert.equal(mine.ordersCreated, 2, session);
      const other = results[1 - i].session;
      for (const id of orders) {
        const headers = (name) => ({ "x-orderpay-session": name });
        assert.equal((await call(`${server.url}/api/order/${id}`, "GET", undefined, headers(session))).body.code, 0);
        assert.notEqual((await call(`${server.url}/api/order/${id}`, "GET", undefined, headers(other))).body.code, 0);
      }
    }
    assert.equal(listed.find((s) => s.name === "default").requests, 0, "the default session saw nothing");
  } finally {
    await stop(server);
  }
});

test("the server form's types: its options and handle, and no service on it", () => {
  const dir = consumer().dir;
  writeFileSync(join(dir, "pw-check.ts"), `
    import { mockOrderpay, type Routable } from "orderpay/playwright";
    declare const page: Routable;
    const remote = await mockOrderpay(page, { server: "http://127.0.0.1:4010", session: "w1", reset: false });
    const name: string = remote.session;
    const admin: string = remote.admin;
    await remote.forceNext("failure", 2);
    const records = await remote.logs();
    const local = await mockOrderpay(page, { baseUrl: "/shop" });
    local.service.forceNext("failure");
    // @ts-expect-error: the server form has no service in this process
    void remote.service;
    // @ts-expect-error: not an outcome
    await remote.forceNext("maybe");
    void [name, admin, records];
    export {};
  `);
  const tsc = join(root, "tests/node_modules/typescript/bin/tsc");
  const run = spawnSync("node", [tsc, "--noEmit", "--strict", "--target", "es2022", "--module", "nodenext", "--moduleResolution", "nodenext",
    "--lib", "es2022,dom", "pw-check.ts"], { cwd: dir, encoding: "utf8" });
  assert.equal(run.status, 0, run.stdout + run.stderr);
});
