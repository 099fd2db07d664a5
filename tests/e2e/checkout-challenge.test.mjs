// A small checkout app (tests/e2e/checkout/) pays with a 3-D Secure test
// card, sends the buyer to the payment's nextAction.url, where the buyer
// clicks Complete on the challenge page, and comes back to its returnUrl
// showing SUCCESS: once with orderpay/playwright's mockOrderpay answering
// the gateway in the test's process, once against `orderpay serve` serving
// the app and the gateway on one origin.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, test } from "node:test";

import { launchChromium } from "../chromium.mjs";
import { serve, stop } from "../server/serve.mjs";

const { mockOrderpay } = await import(new URL("../../pkg/playwright.js", import.meta.url).href);

const APP = new URL("./checkout/", import.meta.url);
const TYPES = { html: "text/html; charset=utf-8", js: "text/javascript; charset=utf-8" };

let browser;
before(async () => {
  browser = await launchChromium();
});
after(() => browser?.close());

/**
 * Pays in the app at `origin`, clicks Complete on the challenge page, and
 * returns what the buyer saw: the challenge page's title and URL, and
 * where the browser came back to with the status it shows.
 */
async function checkout(page, origin) {
  const errors = [];
  page.on("pageerror", (error) => errors.push(String(error)));
  await page.goto(`${origin}/`);
  await page.getByRole("button", { name: "Pay 20.00" }).click();
  await page.waitForURL(/\/api\/payment\/PAY-[A-Z0-9]+\/challenge$/);
  const challenge = { title: await page.title(), url: page.url() };
  await page.getByRole("button", { name: "Complete" }).click();
  await page.waitForURL(/\/done\.html\?/);
  const status = page.locator("#status");
  await status.filter({ hasNotText: "checking" }).waitFor();
  return { challenge, back: new URL(page.url()), shown: await status.textContent(), errors };
}

function assertCameBack({ challenge, back, shown, errors }, origin) {
  assert.equal(challenge.title, "orderpay test authentication");
  assert.ok(challenge.url.startsWith(`${origin}/api/payment/`), challenge.url);
  assert.equal(back.origin + back.pathname, `${origin}/done.html`);
  assert.equal(back.searchParams.get("status"), "SUCCESS");
  assert.match(back.searchParams.get("paymentId"), /^PAY-/);
  assert.equal(shown, "SUCCESS");
  assert.deepEqual(errors, []);
}

test("mockOrderpay: the buyer completes the challenge and the app shows SUCCESS", async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    // The app's files at http://shop.test/; the gateway's URLs are mockOrderpay's.
    await page.route(
      (url) => url.origin === "http://shop.test" && !url.pathname.startsWith("/api/"),
      (route) => {
        const path = new URL(route.request().url()).pathname;
        const file = path === "/" ? "index.html" : path.slice(1);
        const type = TYPES[file.split(".").pop()];
        if (!type || file.includes("/")) return route.fulfill({ status: 404, body: "" });
        return route.fulfill({ status: 200, contentType: type, body: readFileSync(new URL(file, APP)) });
      },
    );
    const mocked = await mockOrderpay(page, { service: { seed: 29, failureRate: 0 } });
    const seen = await checkout(page, "http://shop.test");
    assertCameBack(seen, "http://shop.test");
    const id = seen.back.searchParams.get("paymentId");
    assert.equal(mocked.service.challenges().length, 0);
    const payment = mocked.service.handle("GET", `/api/payment/${id}`).data;
    assert.equal(payment.status, "SUCCESS");
  } finally {
    await context.close();
  }
});

test("orderpay serve: the app and the gateway on one origin, the challenge page served by the server", async () => {
  const server = await serve(["--port", "0", "--seed", "29", "--failure-rate", "0", "--playground", APP.pathname]);
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const seen = await checkout(page, server.origin);
    assertCameBack(seen, server.origin);
    const payment = await (await fetch(`${server.url}/api/payment/${seen.back.searchParams.get("paymentId")}`)).json();
    assert.equal(payment.data.status, "SUCCESS");
  } finally {
    await context.close();
    await stop(server);
  }
});
