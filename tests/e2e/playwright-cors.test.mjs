// orderpay/playwright with the gateway on another origin than the page, in
// both its forms (the module in the test's process, and `{ server }`): a
// JSON POST with a custom header (one that needs a CORS preflight) is
// answered with the headers the page needs to read it, the exposed trace
// id included. Nothing listens at api.test. Chromium under Playwright's
// routing answers the preflight itself (none reaches a route there);
// playwright_cors.js answers it where an engine routes it.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { launchChromium } from "../chromium.mjs";
import { serve, stop } from "../server/serve.mjs";

const { mockOrderpay } = await import(new URL("../../pkg/playwright.js", import.meta.url).href);

let browser;
let server;
before(async () => {
  [browser, server] = await Promise.all([launchChromium(), serve(["--port", "0", "--seed", "3"])]);
});
after(async () => {
  await browser?.close();
  if (server) await stop(server);
});

/** A page at http://shop.test/ that posts an order to http://api.test/ with a custom header. */
async function crossOriginOrder(options) {
  const page = await browser.newPage();
  try {
    await page.route("http://shop.test/", (route) => route.fulfill({ contentType: "text/html", body: "<title>shop</title>" }));
    await mockOrderpay(page, { baseUrl: "http://api.test/", ...options });
    await page.goto("http://shop.test/");
    const answer = await page.evaluate(async () => {
      const r = await fetch("http://api.test/api/order/create", {
        method: "POST",
        headers: { "content-type": "application/json", "x-shop-trace": "t-1" },
        body: JSON.stringify({ userId: "cors", price: 5 }),
      });
      return { status: r.status, traceId: r.headers.get("x-b3-traceid"), body: await r.json() };
    });
    return answer;
  } finally {
    await page.close();
  }
}

for (const [form, options] of [["in the test's process", () => ({})], ["with { server }", () => ({ server: server.url, session: "cors" })]]) {
  test(`a cross-origin page reads its JSON POST's answer (${form})`, async () => {
    const answer = await crossOriginOrder(options());
    assert.equal(answer.status, 200);
    assert.equal(answer.body.code, 0);
    assert.match(answer.body.data.orderId, /^ORD-/);
    // access-control-expose-headers: * lets the page read the trace id.
    assert.match(answer.traceId, /^[0-9a-f]{32}$/);
  });
}
