// A small checkout app (tests/e2e/checkout/) pays with a 3-D Secure test
// card, sends the buyer to the payment's nextAction.url, where the buyer
// clicks Complete on the challenge page, and comes back to its returnUrl
// showing SUCCESS: once with orderpay/playwright's mockOrderpay answering
// the gateway in the test's process, once with its `{ server }` form, once
// against `orderpay serve` serving the app and the gateway on one origin;
// and with the Service Worker, the page holding the service, the challenge
// in a frame. The page's buttons do not touch, and Complete clicked again
// once the challenge is over shows a 409 page saying how it ended.
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

/** The challenge page's three buttons do not touch: each box at least 4 px from the one before, beside or below it. */
async function assertButtonsApart(page) {
  const boxes = await Promise.all(["Complete", "Fail", "Cancel"].map((name) => page.getByRole("button", { name }).boundingBox()));
  for (let i = 1; i < boxes.length; i++) {
    const [a, b] = [boxes[i - 1], boxes[i]];
    const apart = b.x - (a.x + a.width) >= 4 || b.y - (a.y + a.height) >= 4;
    assert.ok(apart, `buttons ${i} and ${i + 1} touch: ${JSON.stringify([a, b])}`);
  }
}

/**
 * Pays in the app at `origin`, clicks Complete on the challenge page, and
 * returns what the buyer saw: the challenge page's title and URL, and
 * where the browser came back to with the status it shows. `onChallenge(url)`
 * runs while the challenge waits, before the click.
 */
async function checkout(page, origin, onChallenge = async () => {}) {
  const errors = [];
  page.on("pageerror", (error) => errors.push(String(error)));
  await page.goto(`${origin}/`);
  await page.getByRole("button", { name: "Pay 20.00" }).click();
  await page.waitForURL(/\/api\/payment\/PAY-[A-Z0-9]+\/challenge$/);
  const challenge = { title: await page.title(), url: page.url() };
  await assertButtonsApart(page);
  await onChallenge(challenge.url);
  await page.getByRole("button", { name: "Complete" }).click();
  await page.waitForURL(/\/done\.html\?/);
  const status = page.locator("#status");
  await status.filter({ hasNotText: "checking" }).waitFor();
  return { challenge, back: new URL(page.url()), shown: await status.textContent(), errors };
}

/** The app's files at http://shop.test/; the gateway's URLs are left to mockOrderpay's route. */
function serveApp(page) {
  return page.route(
    (url) => url.origin === "http://shop.test" && !url.pathname.startsWith("/api/"),
    (route) => {
      const path = new URL(route.request().url()).pathname;
      const file = path === "/" ? "index.html" : path.slice(1);
      const type = TYPES[file.split(".").pop()];
      if (!type || file.includes("/")) return route.fulfill({ status: 404, body: "" });
      return route.fulfill({ status: 200, contentType: type, body: readFileSync(new URL(file, APP)) });
    },
  );
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
    await serveApp(page);
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
    // A second tab keeps the challenge page as it was before the answer, as Back does.
    const stale = await context.newPage();
    const seen = await checkout(page, server.origin, (url) => stale.goto(url));
    assertCameBack(seen, server.origin);
    // Complete clicked again on a challenge already over: the 409 as a page saying how it ended.
    const [again] = await Promise.all([
      stale.waitForResponse((r) => r.request().method() === "POST"),
      stale.getByRole("button", { name: "Complete" }).click(),
    ]);
    assert.equal(again.status(), 409);
    assert.match(again.headers()["content-type"], /^text\/html/);
    const over = stale.locator("#over");
    await over.waitFor();
    assert.match(await over.textContent(), /^This challenge is already over, and this answer changed nothing: the payment is SUCCESS\.$/);
    const payment = await (await fetch(`${server.url}/api/payment/${seen.back.searchParams.get("paymentId")}`)).json();
    assert.equal(payment.data.status, "SUCCESS");
  } finally {
    await context.close();
    await stop(server);
  }
});

test("mockOrderpay({ server }): the challenge page and its 303 come from the session on orderpay serve", async () => {
  const server = await serve(["--port", "0", "--seed", "29", "--failure-rate", "0"]);
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await serveApp(page);
    const routed = await mockOrderpay(page, { server: server.url, session: "checkout" });
    const seen = await checkout(page, "http://shop.test");
    assertCameBack(seen, "http://shop.test");
    const changes = (await routed.logs()).filter((r) => r.stage === "payment");
    assert.deepEqual(changes.map((r) => [r.from, r.to]), [["REQUIRES_ACTION", "SUCCESS"]]);
  } finally {
    await context.close();
    await stop(server);
  }
});

test("the Service Worker: the page holds the service, and the challenge opened in a frame is answered by it", async () => {
  const server = await serve(["--port", "0", "--seed", "29", "--failure-rate", "0", "--playground", APP.pathname]);
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const errors = [];
    page.on("pageerror", (error) => errors.push(String(error)));
    await page.goto(`${server.origin}/sw.html`);
    await page.getByRole("button", { name: "Pay 20.00" }).click();
    const frame = page.frameLocator("#challenge");
    await frame.getByRole("button", { name: "Complete" }).click();
    const status = page.locator("#status");
    await status.filter({ hasText: /\S/ }).waitFor();
    assert.equal(await status.textContent(), "SUCCESS");
    // The page's own service answered, not the server behind it.
    const mine = await page.evaluate(() => window.orderpay.service.logs().find((r) => r.stage === "payment"));
    assert.deepEqual([mine.from, mine.to], ["REQUIRES_ACTION", "SUCCESS"]);
    const served = await (await fetch(`${server.url}/api/payment/${mine.paymentId}`)).json();
    assert.equal(served.msg, "Payment not found");
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
    await stop(server);
  }
});
