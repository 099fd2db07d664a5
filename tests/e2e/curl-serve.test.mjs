// Copy as curl against the real server mode: `orderpay serve` from the
// built package (installed into a throwaway app, started by its bin as
// `npx orderpay serve` would) on 127.0.0.1 and a free port. Each request of
// a sequence made in the page is copied as curl and run by a shell, in
// order, against a server started with the page's seed: every answer is
// the one the page got (HTTP status, code, msg, the ids made), which is
// the one the spec gives, and the trace id sent comes back in x-b3-traceid.
// And the live page's Webhooks panel, with a server that delivers to a
// receiver of the test's.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createServer } from "node:http";
import { after, before, test } from "node:test";
import { promisify } from "node:util";

import { artifacts, start } from "./browser.mjs";
import { applySettings, open } from "./playground.mjs";
import { serve, stop } from "../server/serve.mjs";

const SEED = 11;
let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

const sh = promisify(execFile);

/** Runs a copied curl command with a shell: `{ status, headers, envelope }`. */
async function runCurl(command) {
  const { stdout } = await sh("sh", ["-c", command]);
  const split = stdout.indexOf("\r\n\r\n");
  const head = stdout.slice(0, split).split("\r\n");
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head[0])?.[1]);
  const headers = Object.fromEntries(head.slice(1).map((line) => {
    const at = line.indexOf(":");
    return [line.slice(0, at).toLowerCase(), line.slice(at + 1).trim()];
  }));
  return { status, headers, envelope: JSON.parse(stdout.slice(split + 4)) };
}

for (const width of [1280, 390]) {
  test(`each request copied as curl and run by a shell gets, from orderpay serve, the answer the page got (${width} px)`, async (t) => {
    // A fresh server for each width: the same seed and the same requests give the same ids.
    const server = await serve(["--port", "0", "--host", "127.0.0.1", "--seed", String(SEED), "--failure-rate", "0"]);
    t.after(() => stop(server));
    const { page, context, errors, external } = await open(env, { width });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: env.base });
    await applySettings(page, { seed: SEED, failureRate: 0 });

    // The spec's cases: a made order, a declined payment (forced per request), a paid one, the
    // order marked paid, a paid order that cannot be deleted (HTTP 200, code -1), an unknown path (404), a price not above 0.
    await page.selectOption("#route", "order-create");
    await page.fill("#body", JSON.stringify({ userId: "u-'q'", price: 12.5, description: "it's \"tricky\" $HOME `x`" }));
    await page.fill("#h-trace", "0000000000000000000000000000c0de");
    await page.click("#send");
    await page.fill("#h-trace", "");
    await page.selectOption("#route", "payment-pay");
    await page.selectOption("#h-sim", "failure");
    await page.click("#send");
    await page.selectOption("#h-sim", "success");
    await page.click("#send");
    await page.selectOption("#route", "order-pay");
    await page.click("#send");
    await page.selectOption("#route", "order-delete");
    await page.click("#send");
    await page.selectOption("#route", "custom");
    await page.fill("#custom-path", "/api/ordr/create");
    await page.click("#send");
    await page.selectOption("#route", "order-create");
    await page.fill("#body", "{\"userId\": \"u-1\", \"price\": -3}");
    await page.click("#send");
    await page.waitForFunction(() => document.querySelectorAll("#req-rows li[data-key]").length === 7);
    const rows = page.locator("#req-rows li[data-key] .req-row");

    const seen = [];
    for (let i = 6; i >= 0; i--) {
      await rows.nth(i).click();
      await page.waitForSelector("#req-panel:not([hidden])");
      await page.fill("#req-base", server.url);
      await page.click("#copy-curl");
      await page.waitForFunction(() => document.querySelector("#req-copy-note").textContent !== "");
      assert.match(await page.textContent("#req-copy-note"), /^Copied as curl\.$/);
      const command = await page.evaluate(() => navigator.clipboard.readText());
      assert.ok(command.startsWith(`curl -sS -i -X `) && command.includes(`'${server.url}/api/`), command);
      const inPage = JSON.parse(await page.textContent("#req-envelope"));
      const httpInPage = Number((await page.textContent("#req-panel .response-headers")).match(/^HTTP (\d+)/)[1]);
      const got = await runCurl(command);
      assert.equal(got.status, httpInPage, `HTTP status of ${command}`);
      assert.equal(got.envelope.code, inPage.code, `code of ${command}`);
      assert.equal(got.envelope.msg, inPage.msg, `msg of ${command}`);
      for (const key of ["orderId", "paymentId", "userId", "description", "status"]) {
        assert.equal(got.envelope.data?.[key], inPage.data?.[key], `${key} of ${command}`);
      }
      seen.push([got.status, got.envelope.code, got.envelope.msg, got.headers["x-b3-traceid"]]);
      if (i === 3) await page.screenshot({ path: `${artifacts}playground-curl-serve-${width}.png` });
      await page.click("#req-close");
    }

    // What the spec says for each.
    const [created, declined, paid, marked, undeletable, unknown, invalid] = seen;
    assert.deepEqual(created.slice(0, 3), [200, 0, "success"]);
    assert.equal(created[3], "0000000000000000000000000000c0de", "the trace id in the command is the one used");
    assert.deepEqual(declined.slice(0, 3), [200, -1, "Third party payment failed"]);
    assert.deepEqual(paid.slice(0, 3), [200, 0, "success"]);
    assert.deepEqual(marked.slice(0, 3), [200, 0, "success"]);
    assert.deepEqual(undeletable.slice(0, 3), [200, -1, "Paid order cannot be deleted"]);
    assert.equal(unknown[0], 404);
    assert.match(unknown[2], /^No route for GET \/api\/ordr\/create/);
    assert.deepEqual(invalid.slice(0, 3), [200, -1, "price must be > 0"]);
    assert.deepEqual(errors, []);
    assert.deepEqual(external, []);
  });
}

/** A receiver on 127.0.0.1 that answers 500 while `failing`, else 204, and keeps the types it was sent. */
async function receiver() {
  const r = { failing: true, got: [] };
  r.server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => { body += c; });
    req.on("end", () => {
      r.got.push(JSON.parse(body).type);
      res.writeHead(r.failing ? 500 : 204).end();
    });
  });
  await new Promise((resolve) => r.server.listen(0, "127.0.0.1", resolve));
  r.url = `http://127.0.0.1:${r.server.address().port}/hook`;
  return r;
}

test("live, the Webhooks panel shows the server's events and its --webhook endpoint's deliveries; a failed one resent once the receiver is back", async (t) => {
  const hook = await receiver();
  t.after(() => hook.server.close());
  const server = await serve(["--port", "0", "--host", "127.0.0.1", "--seed", String(SEED), "--failure-rate", "0", "--webhook", hook.url]);
  t.after(() => stop(server));
  const context = await env.browser.newContext();
  t.after(() => context.close());
  const page = await context.newPage();
  const said = [];
  page.on("pageerror", (e) => said.push(String(e)));
  page.on("console", (m) => { if (m.type() === "error" || m.type() === "warning") said.push(`${m.type()}: ${m.text()}`); });
  await page.goto(`${server.origin}/`);
  await page.waitForSelector("body[data-ready=true]");
  // The receiver is the tab's: live, it is off, and the page says why; the server's endpoint is listed at once.
  assert.equal(await page.isVisible("#hooks-live"), true);
  assert.equal(await page.isDisabled("#receiver-on"), true);
  await page.waitForSelector("#hook-endpoints li.hook-endpoint");
  assert.match(await page.textContent("#hook-endpoints .hook-endpoint-head"), new RegExp(hook.url.replace(/[.]/g, "\\.")));

  await page.selectOption("#route", "order-create");
  await page.click("#send");
  await page.waitForSelector('#hook-events li[data-type="order.created"]');
  const delivery = page.locator("#hook-endpoints li.hook-delivery").first();
  await page.waitForSelector('#hook-endpoints li.hook-delivery[data-attempts="1"]');
  assert.equal(await delivery.getAttribute("data-state"), "pending");
  assert.match(await delivery.locator(".hook-why").textContent(), /The receiver failed \(HTTP 500\)/);
  hook.failing = false;
  await delivery.locator("button.resend").click();
  await page.waitForSelector('#hook-endpoints li.hook-delivery[data-state="delivered"]');
  assert.deepEqual(await delivery.locator("li.hook-attempt").evaluateAll((items) => items.map((li) => li.dataset.status)), ["500", "204"]);
  assert.deepEqual(hook.got, ["order.created", "order.created"]);
  await page.locator("#webhooks").scrollIntoViewIfNeeded();
  await page.locator("#webhooks").screenshot({ path: `${artifacts}hooks-live-1280.png` });
  assert.deepEqual(said, []);
});
