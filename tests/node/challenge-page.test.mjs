// The 3-D Secure challenge page through the package: `request()` and
// `handle()` give its HTML as the text it is (never parsed as JSON), with
// its `text/html` and `Location` headers, and createFetch and the MSW
// handlers send those bytes as they are; a GET shows the page, a POST
// ends the challenge and answers the result page, or a 303 to the pay's
// `returnUrl` when it gave one.
import assert from "node:assert/strict";
import { test } from "node:test";

import "./msw-from-tests.mjs";

const pkg = (file) => new URL(`../../pkg/${file}`, import.meta.url).href;
const { Service } = await import(pkg("node.js"));
const { createFetch } = await import(pkg("fetch.inline.js"));
const { createHandlers } = await import(pkg("msw.inline.js"));
const { setupServer } = await import("msw/node");

const HTML = "text/html; charset=utf-8";
const challenge = { rules: [{ name: "3ds", then: { kind: "challenge" } }] };

/** A service with one payment awaiting its challenge: [service, paymentId, the page's path]. */
function challenged(returnUrl) {
  const s = new Service({ seed: 29, scenario: challenge });
  const order = s.request("POST", "/api/order/create", { userId: "u-1", price: 12.5 }).body.data.orderId;
  const body = returnUrl === undefined ? { orderId: order, amount: 12.5, paymentMethod: "CARD" } : { orderId: order, amount: 12.5, paymentMethod: "CARD", returnUrl };
  const paid = s.request("POST", "/api/payment/pay", body).body.data;
  assert.equal(paid.status, "REQUIRES_ACTION");
  assert.equal(paid.nextAction.url, `/api/payment/${paid.paymentId}/challenge`);
  return [s, paid.paymentId, paid.nextAction.url];
}

function assertPage(html, paymentId) {
  assert.equal(typeof html, "string");
  assert.match(html, /^<!doctype html>/);
  assert.match(html, /<title>orderpay test authentication<\/title>/);
  assert.ok(html.includes(paymentId), "the page names the payment");
}

test("request(): GET gives the page's HTML as a string with its text/html header", () => {
  const [s, pid, path] = challenged();
  const page = s.request("GET", path);
  assert.equal(page.status, 200);
  assert.equal(page.headers["content-type"], HTML);
  assert.equal(page.headers.location, undefined);
  assertPage(page.body, pid);
  for (const outcome of ["pass", "fail", "abandon"]) assert.ok(page.body.includes(`action="?outcome=${outcome}"`), outcome);
  assert.equal(JSON.stringify(page.body).startsWith('"<!doctype'), true, "a plain string, not an envelope");
});

test("request(): POST without returnUrl answers the result page; with one, a 303 to it and an empty body", () => {
  const [s, pid, path] = challenged();
  const done = s.request("POST", `${path}?outcome=pass`);
  assert.equal(done.status, 200);
  assert.equal(done.headers["content-type"], HTML);
  assertPage(done.body, pid);
  assert.match(done.body, /now SUCCESS/);
  assert.equal(s.request("GET", `/api/payment/${pid}`).body.data.status, "SUCCESS");

  const [t, tid, tpath] = challenged("https://shop.example/back?cart=7");
  const back = t.request("POST", `${tpath}?outcome=fail`, "ignored");
  assert.equal(back.status, 303);
  assert.equal(back.headers["content-type"], HTML);
  assert.equal(back.headers.location, `https://shop.example/back?cart=7&paymentId=${tid}&status=FAILED`);
  assert.equal(back.body, "");
});

test("request(): the page's refusals stay JSON envelopes", () => {
  const [s, , path] = challenged();
  const bad = s.request("POST", `${path}?outcome=maybe`);
  assert.equal(bad.status, 400);
  assert.equal(bad.headers["content-type"], "application/json");
  assert.equal(bad.body.code, 400);
  assert.equal(bad.body.msg, 'outcome: must be pass, fail or abandon, got "maybe"');
  s.request("POST", `${path}?outcome=abandon`);
  const again = s.request("POST", `${path}?outcome=pass`);
  assert.equal(again.status, 409);
  assert.match(again.body.msg, /^Payment PAY-\w+ is not awaiting a challenge: it is FAILED$/);
  const after = s.request("GET", path);
  assertPage(after.body, after.body.match(/PAY-[0-9A-Z]+/)[0]);
  assert.ok(!after.body.includes("<form"), "nothing to offer once resolved");
});

test("a challenge already over: a browser's form gets a 409 page saying how it ended, any other client the envelope", async () => {
  // What Chromium sends with a form's POST; fetch() sends */* unless told.
  const browser = { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8" };
  for (const [outcome, ended] of [["pass", "SUCCESS."], ["abandon", "FAILED (the buyer abandoned authentication)."]]) {
    const [s, pid, path] = challenged();
    s.request("POST", `${path}?outcome=${outcome}`);
    const page = s.request("POST", `${path}?outcome=pass`, undefined, browser);
    assert.equal(page.status, 409);
    assert.equal(page.headers["content-type"], HTML);
    assertPage(page.body, pid);
    assert.match(page.body, /This challenge is already over/);
    assert.ok(page.body.includes(`this answer changed nothing: the payment is ${ended}</p>`), page.body);
    assert.ok(!page.body.includes("<form"));
    // HTML first is a browser's; JSON or anything first, or none, is a client's.
    for (const headers of [undefined, { accept: "application/json" }, { accept: "*/*" }, { accept: "application/json, text/html" }]) {
      const envelope = s.request("POST", `${path}?outcome=pass`, undefined, headers);
      assert.equal(envelope.status, 409);
      assert.equal(envelope.headers["content-type"], "application/json");
      assert.equal(envelope.body.code, -1);
      assert.match(envelope.body.msg, /is not awaiting a challenge/);
    }
    // Through fetch as a browser's form and as an app's fetch: the same two answers, with the status text.
    const api = createFetch({ service: s, warn: false });
    const form = await api(`${path}?outcome=pass`, { method: "POST", headers: browser });
    assert.deepEqual([form.status, form.statusText, form.headers.get("content-type")], [409, "Conflict", HTML]);
    assert.match(await form.text(), /This challenge is already over/);
    const app = await api(`${path}?outcome=pass`, { method: "POST" });
    assert.deepEqual([app.status, (await app.json()).code], [409, -1]);
    assert.equal(s.request("GET", `/api/payment/${pid}`).body.data.status, ended.split(/[ .]/)[0], "nothing changed");
  }
});

test("handle(): the page's HTML as a string; a 303's empty body", () => {
  const [s, pid, path] = challenged();
  const page = s.handle("GET", path);
  assertPage(page, pid);
  const done = s.handle("POST", `${path}?outcome=fail`);
  assertPage(done, pid);
  assert.match(done, /now FAILED/);

  const [t, , tpath] = challenged("/shop/return");
  assertPage(t.handle("GET", tpath), t.challenges()[0].paymentId);
  assert.equal(t.handle("POST", `${tpath}?outcome=pass`), "");
  assert.equal(t.challenges().length, 0);
  assert.equal(t.handle("POST", `${tpath}?outcome=pass`).code, -1);
});

test("createFetch sends the page's bytes as they are, with text/html and Location", async () => {
  for (const returnUrl of [undefined, "/shop/return#done"]) {
    const [s, pid, path] = challenged(returnUrl);
    const api = createFetch({ service: s, warn: false });
    const page = await api(path);
    assert.equal(page.status, 200);
    assert.equal(page.headers.get("content-type"), HTML);
    const html = await page.text();
    assertPage(html, pid);
    assert.equal(html, s.handle("GET", path));
    // Only GET and POST serve the page: any other method answers as before.
    assert.equal((await api(path, { method: "DELETE" })).status, 404);
    const done = await api(`${path}?outcome=pass`, { method: "POST", body: "outcome=pass", headers: { "content-type": "application/x-www-form-urlencoded" } });
    assert.equal(done.headers.get("content-type"), HTML);
    if (returnUrl === undefined) {
      assert.equal(done.status, 200);
      const text = await done.text();
      assertPage(text, pid);
      assert.match(text, /now SUCCESS/);
      await assert.rejects(api(path).then((r) => r.json()), SyntaxError);
    } else {
      assert.equal(done.status, 303);
      assert.equal(done.headers.get("location"), `/shop/return?paymentId=${pid}&status=SUCCESS#done`);
      assert.equal(await done.text(), "");
    }
  }
});

test("the MSW handlers send the page's HTML as it is", async () => {
  const [s, pid, path] = challenged();
  const server = setupServer(...createHandlers({ service: s, warn: false }));
  server.listen({ onUnhandledRequest: "error" });
  try {
    const page = await fetch(`https://shop.example${path}`);
    assert.equal(page.status, 200);
    assert.equal(page.headers.get("content-type"), HTML);
    assertPage(await page.text(), pid);
    const done = await fetch(`https://shop.example${path}?outcome=abandon`, { method: "POST" });
    assert.equal(done.status, 200);
    assert.match(await done.text(), /now FAILED/);
  } finally {
    server.close();
  }
});
