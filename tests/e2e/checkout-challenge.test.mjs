// A small checkout app (tests/e2e/checkout/) pays with a 3-D Secure test
// card, sends the buyer to the payment's nextAction.url, where the buyer
// clicks Complete on the challenge page, and comes back to its returnUrl
// showing SUCCESS: once with orderpay/playwright's mockOrderpay answering
// the gateway in the test's process, once with its `{ server }` form, once
// against `orderpay serve` serving the app and the gateway on one origin;
// and with the Service Worker, the page holding the service, the challenge
// in a frame. With MSW in the browser (docs/api.md's example, as written)
// and createFetch, whose fetch no navigation goes through, the buyer clicks
// in showChallenge's frame (orderpay/browser); under the Service Worker too.
// The page's buttons do not touch, and Complete clicked again
// once the challenge is over shows a 409 page saying how it ended.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import { join } from "node:path";
import { after, before, test } from "node:test";

import { launchChromium } from "../chromium.mjs";
import { bundleForPage } from "./browser.mjs";
import { examples, root } from "../docs.mjs";
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

/** The app's files at http://shop.test/, and the package at /pkg/; the gateway's URLs are left to mockOrderpay's route. */
function serveApp(page) {
  return page.route(
    (url) => url.origin === "http://shop.test" && !url.pathname.startsWith("/api/"),
    (route) => {
      const path = new URL(route.request().url()).pathname;
      if (/^\/pkg\/[\w.-]+\.js$/.test(path)) {
        return route.fulfill({ status: 200, contentType: TYPES.js, body: readFileSync(join(root, path)) });
      }
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
    // showChallenge, through the fetch mockOrderpay's route answers.
    const { paid, shown } = await answerInFrame(page, "Complete");
    assert.deepEqual(shown, { paymentId: paid.paymentId, status: "SUCCESS", frames: 0 });
    assert.deepEqual(seen.errors, []);
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
    const { paid, shown } = await answerInFrame(page, "Cancel");
    assert.deepEqual(shown, { paymentId: paid.paymentId, status: "FAILED", frames: 0 });
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

test("the Service Worker: the challenge in a frame or by showChallenge is answered by the page's service; after a top-level redirect, the click gets a page saying it has gone", async () => {
  // The return page of docs/async-payments.md's framed recipe is the one this test runs.
  assert.equal(readFileSync(new URL("framed-done.html", APP), "utf8"), examples("framed-return")[0]);
  const server = await serve(["--port", "0", "--seed", "29", "--failure-rate", "0", "--playground", APP.pathname]);
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const errors = consoleErrors(page);
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

    // showChallenge: the page fetched and answered through the worker, in a frame of its own.
    const { paid, shown } = await answerInFrame(page, "Fail");
    assert.deepEqual(shown, { paymentId: paid.paymentId, status: "FAILED", frames: 0 });
    assert.deepEqual(errors, []);

    // A top-level redirect: the worker still shows the page (the page that
    // started lives until the new one comes), but the click comes after it.
    const second = await payInPage(page);
    await page.evaluate((url) => location.assign(url), second.nextAction.url);
    await page.waitForURL(/\/challenge$/);
    const [answer] = await Promise.all([page.waitForResponse(/\?outcome=pass$/), page.getByRole("button", { name: "Complete" }).click()]);
    assert.equal(answer.status(), 503);
    assert.match(await page.locator("h1").textContent(), /The page that held orderpay's service has gone/);
  } finally {
    await context.close();
    await stop(server);
  }
});

/**
 * The page's console errors and uncaught exceptions: a sandboxed frame that
 * tried to run script would log "Blocked script execution" here.
 */
function consoleErrors(page) {
  const errors = [];
  page.on("pageerror", (error) => errors.push(String(error)));
  page.on("console", (message) => message.type() === "error" && errors.push(message.text()));
  return errors;
}

/** The buyer clicks `button` in showChallenge's frame, once it shows. */
function clickInFrame(page, button) {
  return page.frameLocator("iframe[title='Card authentication'][srcdoc]").getByRole("button", { name: button }).click();
}

/** In the page: an order, paid with the 3-D Secure card through the page's fetch; the Payment. */
function payInPage(page) {
  return page.evaluate(async () => {
    const post = async (path, body) =>
      (await fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })).json();
    const order = (await post("/api/order/create", { userId: "u-1", price: 20 })).data;
    return (await post("/api/payment/pay", { orderId: order.orderId, amount: 20, paymentMethod: "CARD", cardNumber: "4000 0025 0000 3155" })).data;
  });
}

/**
 * A payment made in the page, its challenge shown by showChallenge (from
 * the package at /pkg/), and the buyer's click on `button` there: the
 * payment and what showChallenge resolved with, with the frames left.
 */
async function answerInFrame(page, button) {
  const paid = await payInPage(page);
  const shown = page
    .evaluate(async (url) => {
      const { showChallenge } = await import("/pkg/browser.inline.js");
      const { paymentId, status } = await showChallenge(url);
      return { paymentId, status, frames: document.querySelectorAll("iframe[srcdoc]").length };
    }, paid.nextAction.url)
    .catch((error) => ({ error: String(error) }));
  // A failure before the frame shows ends the wait for it.
  const failed = shown.then((result) => result.error && Promise.reject(new Error(result.error)));
  await Promise.race([clickInFrame(page, button), failed]);
  return { paid, shown: await shown };
}

/**
 * docs/api.md's MSW-in-the-browser example as written, bundled (orderpay
 * from pkg/, msw from the tests' install) into a page with a #pay button
 * and a #status line, with MSW's worker at /mockServiceWorker.js and the
 * package at /pkg/. Counts the requests under /api/ that reach it.
 */
async function serveMswApp() {
  const [example] = examples("msw-browser");
  const bundle = await bundleForPage(example, {
    "orderpay/msw": join(root, "pkg", "msw.inline.js"),
    "orderpay/browser": join(root, "pkg", "browser.inline.js"),
  });
  const files = {
    "/": ["text/html", '<!doctype html><title>shop</title><link rel="icon" href="data:,"><button id="pay">Pay 20.00</button><p id="status"></p><script type="module" src="/app.js"></script>'],
    "/app.js": ["text/javascript", bundle],
    "/mockServiceWorker.js": ["text/javascript", await readFile(join(root, "tests", "node_modules", "msw", "lib", "mockServiceWorker.js"))],
  };
  const site = { hits: 0 };
  site.server = createServer(async (req, res) => {
    const path = new URL(req.url, "http://x").pathname;
    if (path.startsWith("/api/")) site.hits++;
    if (files[path]) return res.writeHead(200, { "content-type": files[path][0], "cache-control": "no-cache" }).end(files[path][1]);
    const body = path.startsWith("/pkg/") && !path.includes("..") ? await readFile(join(root, path)).catch(() => null) : null;
    if (body) return res.writeHead(200, { "content-type": "text/javascript" }).end(body);
    res.writeHead(404, { "content-type": "text/plain" }).end("not found");
  });
  await new Promise((resolve) => site.server.listen(0, "127.0.0.1", resolve));
  site.origin = `http://127.0.0.1:${site.server.address().port}`;
  return site;
}

test("MSW in the browser (docs/api.md's example) and createFetch: the buyer answers in showChallenge's frame", async () => {
  const site = await serveMswApp();
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const errors = consoleErrors(page);
    const logged = new Promise((resolve) => page.on("console", (m) => m.type() === "log" && /REQUIRES_ACTION/.test(m.text()) && resolve(m.text())));
    await page.goto(`${site.origin}/`);
    await page.waitForFunction(() => navigator.serviceWorker.controller);
    await page.getByRole("button", { name: "Pay 20.00" }).click();
    await clickInFrame(page, "Complete");
    await page.locator("#status").filter({ hasText: /\S/ }).waitFor();
    assert.equal(await page.locator("#status").textContent(), "SUCCESS");
    assert.match(await logged, /REQUIRES_ACTION -> SUCCESS/);
    assert.equal(await page.locator("iframe").count(), 0, "showChallenge's own frame is gone once answered");

    // createFetch's function, passed as showChallenge's fetch, into a frame of the page's own.
    const shown = page.evaluate(async () => {
      const { createFetch } = await import("/pkg/fetch.inline.js");
      const { showChallenge } = await import("/pkg/browser.inline.js");
      const api = createFetch({ service: { seed: 3, failureRate: 0 }, passthrough: "reject" });
      const paid = api.service.handle("POST", "/api/payment/pay", {
        orderId: api.service.handle("POST", "/api/order/create", { userId: "u-1", price: 20 }).data.orderId,
        amount: 20, paymentMethod: "CARD", cardNumber: "4000 0025 0000 3155",
      }).data;
      const frame = document.body.appendChild(Object.assign(document.createElement("iframe"), { title: "Card authentication" }));
      const { status } = await showChallenge(paid.nextAction.url, { fetch: api, frame });
      const shows = frame.contentDocument.querySelector("#status")?.textContent;
      // Once over, the page has no button to wait for: it resolves at once.
      const again = await showChallenge(paid.nextAction.url, { fetch: api });
      return { status, inService: api.service.challenges().length, shows, again: again.status };
    }).catch((error) => ({ error: String(error) }));
    await clickInFrame(page, "Cancel");
    assert.deepEqual(await shown, { status: "FAILED", inService: 0, shows: "FAILED", again: "FAILED" });

    // What showChallenge refuses, by name, and what it gives up on.
    const refused = await page.evaluate(async () => {
      const { showChallenge } = await import("/pkg/browser.inline.js");
      const { createFetch } = await import("/pkg/fetch.inline.js");
      const api = createFetch({ service: { seed: 3 }, passthrough: "reject", warn: false });
      const reason = (promise) => promise.then(() => "resolved", (error) => `${error.name}: ${error.message}`);
      return {
        notAPage: await reason(showChallenge("/api/order/ORD-1")),
        option: await reason(showChallenge("/api/payment/PAY-1/challenge", { fram: null })),
        frame: await reason(showChallenge("/api/payment/PAY-1/challenge", { frame: document.body })),
        unknown: await reason(showChallenge("/api/payment/PAY-NOPE0000/challenge", { fetch: api })),
        aborted: await reason(showChallenge("/api/payment/PAY-1/challenge", { fetch: api, signal: AbortSignal.abort(new Error("gave up")) })),
        frames: document.querySelectorAll("iframe[srcdoc]").length,
      };
    });
    assert.match(refused.notAPage, /^TypeError: showChallenge: url: expected a payment's nextAction\.url .*, got \/api\/order\/ORD-1$/);
    assert.match(refused.option, /^TypeError: showChallenge: unknown option "fram"/);
    assert.match(refused.frame, /^TypeError: showChallenge: frame: expected an <iframe> element/);
    assert.match(refused.unknown, /^Error: showChallenge: GET \/api\/payment\/PAY-NOPE0000\/challenge answered HTTP 404 \(application\/json\), not a page: [^{]*PAY-NOPE0000/);
    assert.equal(refused.aborted, "Error: gave up");
    assert.equal(refused.frames, 1, "only the page's own frame: none was added for a refusal");
    assert.equal(site.hits, 0, "no request under /api/ reached the app's server");
    assert.deepEqual(errors, []);

    // As docs/async-payments.md's table says: MSW's worker lets a frame's navigation to the page through.
    const paid = await payInPage(page);
    await page.evaluate((src) => new Promise((resolve) => document.body.append(Object.assign(document.createElement("iframe"), { src, onload: resolve }))), paid.nextAction.url);
    assert.equal(site.hits, 1, "the frame's navigation reached the app's server");
  } finally {
    await context.close();
    site.server.close();
  }
});
