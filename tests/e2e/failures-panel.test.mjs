// The Failures panel in Chromium: a preset set in one click shows its
// document, and a payment then meets its rule (the decline code in the
// answer and a badge in the request list, the rule's counts in the panel);
// a bad document is refused with the core's message naming its JSON path,
// and the scenario stays as it was; a request sent again with the same
// Idempotency-Key is marked replayed; a third party that times out is a
// long bar that ends in an error, in the request list and the waterfall.
// Screenshots at 1280 and 390 px go to SHOTS (default tests/artifacts/).
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";

import { artifacts, start } from "./browser.mjs";
import { applySettings, open } from "./playground.mjs";

const shots = process.env.SHOTS ?? artifacts;
mkdirSync(shots, { recursive: true });

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

/** Sends the console's route `id` as it is filled; returns the answer's envelope (null for none). */
async function send(page, id) {
  await page.selectOption("#route", id);
  const before = await page.$$eval("#req-rows li[data-key]", (l) => l.length);
  await page.click("#send");
  await page.waitForFunction((n) => document.querySelectorAll("#req-rows li[data-key]").length > n, before);
  const text = await page.$eval("#response", (el) => el.querySelector("pre.envelope")?.textContent ?? null);
  return text === null ? null : JSON.parse(text);
}

/** The request list's newest row: its data and its badges' text. */
const newestRow = (page) => page.$eval("#req-rows li[data-key]", (li) => ({
  fault: li.dataset.fault, rule: li.dataset.rule, replay: li.dataset.replay,
  badges: [...li.querySelectorAll(".req-badges .badge")].map((b) => b.textContent),
  msg: li.querySelector(".req-msg").textContent,
  label: li.querySelector(".req-row").getAttribute("aria-label"),
}));

/** The active scenario's rules as the panel shows them: name → [seen, fired]. */
const ruleCounts = (page) => page.$$eval("#scenario-rules tbody tr", (rows) => Object.fromEntries(rows.map((tr) => [tr.dataset.rule, [Number(tr.dataset.seen), Number(tr.dataset.fired)]])));

/** The document of the preset `name` as the package itself reports it, on a throwaway service. */
const presetDocument = (page, name) => page.evaluate(async (name) => {
  const { Service } = await import("/pkg/orderpay.js");
  const probe = new Service({ scenario: name });
  try { return probe.scenario.document; } finally { probe.free(); }
}, name);

for (const width of [1280, 390]) {
  test(`a preset in one click: its document shown, a payment declined with its reason, the rule's badge and counts (${width} px)`, async () => {
    const { page, errors, external } = await open(env, { width });
    await applySettings(page, { seed: 7, failureRate: 0 }); // the draw alone never declines
    assert.match(await page.textContent("#scenario-active"), /^No scenario/);
    await page.click('#presets button[data-preset="insufficient-funds"]');
    await page.waitForFunction(() => document.querySelector("#scenario-active").dataset.active === "true");
    const shipped = await presetDocument(page, "insufficient-funds");
    assert.deepEqual(JSON.parse(await page.inputValue("#scenario-text")), shipped, "the editor shows the preset's document");
    assert.match(await page.textContent("#scenario-message"), /^Preset insufficient-funds set: 1 rule/);
    const [rule] = Object.keys(await ruleCounts(page));
    assert.deepEqual(await ruleCounts(page), { [rule]: [0, 0] });

    await send(page, "order-create");
    assert.deepEqual(await ruleCounts(page), { [rule]: [0, 0] }, "a pay-only rule does not match order create");
    const declined = await send(page, "payment-pay");
    assert.equal(declined.code, -1);
    assert.equal(declined.msg, "Third party payment failed");
    assert.match(await page.textContent("#response .headers"), /x-orderpay-decline-code: insufficient_funds/);
    assert.equal(await page.getAttribute("#response .fault-line", "data-rule"), rule);
    assert.match(await page.textContent("#response .fault-line"), /declined the payment with the reason insufficient_funds/);

    const row = await newestRow(page);
    assert.equal(row.fault, "decline");
    assert.equal(row.rule, rule);
    assert.deepEqual(row.badges, [`decline insufficient_funds · ${rule}`]);
    assert.match(row.msg, /\(declined: insufficient_funds\)$/);
    assert.match(row.label, new RegExp(`rule ${rule.replace(/[[\]]/g, "\\$&")} fired: decline insufficient_funds`));
    assert.deepEqual(await ruleCounts(page), { [rule]: [1, 1] });
    // Nothing sideways: the rules and the request rows fit the width.
    assert.equal(await page.$eval(".rules-wrap", (el) => el.scrollWidth - el.clientWidth), 0);
    assert.equal(await page.$eval("#req-rows", (el) => el.scrollWidth - el.clientWidth), 0);
    // The search finds it by its rule, its kind and its code.
    const matching = (n) => page.waitForFunction((n) => document.querySelector("#req-count").dataset.matching === n, String(n));
    for (const query of [`rule:"${rule}"`, "fault:decline", "decline:insufficient_funds"]) {
      await page.fill("#req-search", "fault:timeout");
      await matching(0);
      await page.fill("#req-search", query);
      await matching(1);
    }
    await page.fill("#req-search", "");

    await page.locator("#failures").screenshot({ path: join(shots, `failures-panel-${width}.png`) });
    await page.locator("#requests").screenshot({ path: join(shots, `failures-requests-${width}.png`) });
    await page.click("#req-rows li[data-key] .req-row");
    await page.locator("#req-panel .fault-line").waitFor();
    assert.match(await page.textContent("#req-panel .fault-line"), /insufficient_funds/);
    await page.screenshot({ path: join(shots, `failures-request-panel-${width}.png`) });

    // The scenario and its progress are in the saved state: a reload shows them again, the editor holding its document.
    await page.waitForFunction(() => /state saved in this browser/.test(document.querySelector("#state-status").textContent));
    await page.reload();
    await page.waitForSelector("body[data-ready=true]");
    assert.deepEqual(await ruleCounts(page), { [rule]: [1, 1] });
    assert.deepEqual(JSON.parse(await page.inputValue("#scenario-text")), shipped);
    assert.equal((await newestRow(page)).fault, "decline");
    assert.deepEqual(errors, []);
    assert.deepEqual(external, []);
  });
}

test("a bad document is refused with the message naming its path, and the scenario stays as it was", async () => {
  const { page, errors } = await open(env);
  await applySettings(page, { seed: 8, failureRate: 0 });
  // By keyboard: a preset's button, and Ctrl+Enter in the editor below.
  await page.focus('#presets button[data-preset="insufficient-funds"]');
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.querySelector("#scenario-active").dataset.active === "true");
  const before = await page.getAttribute("#scenario-active", "data-rules");

  const bad = { rules: [{ when: { route: "/api/payment/pay" }, then: { kind: "decline" } }, { when: { until: "soon" }, then: { kind: "delay", ms: 10 } }] };
  await page.fill("#scenario-text", JSON.stringify(bad, null, 2));
  await page.click("#scenario-apply");
  await page.waitForFunction(() => document.querySelector("#scenario-text-error").textContent !== "");
  const error = await page.textContent("#scenario-text-error");
  assert.match(error, /^scenario: rules\[1\]\.when\.until: /);
  assert.equal(await page.getAttribute("#scenario-text", "aria-invalid"), "true");
  assert.match(await page.textContent("#scenario-message"), /^Not applied, nothing changed: scenario: rules\[1\]\.when\.until/);
  assert.equal(await page.inputValue("#scenario-text"), JSON.stringify(bad, null, 2), "the text stays to be fixed");
  assert.equal(await page.getAttribute("#scenario-active", "data-rules"), before, "the active scenario is unchanged");
  await page.locator("#failures").screenshot({ path: join(shots, "failures-refused-1280.png") });

  // The one in force is still the preset: a payment is declined with its reason.
  await send(page, "order-create");
  await send(page, "payment-pay");
  assert.equal((await newestRow(page)).fault, "decline");

  // Not JSON at all: the service's own message, and nothing changed either.
  await page.fill("#scenario-text", "{ rules: [");
  await page.focus("#scenario-text");
  await page.keyboard.press("Control+Enter");
  await page.waitForFunction((before) => {
    const now = document.querySelector("#scenario-text-error").textContent;
    return now !== before && /^scenario: /.test(now);
  }, error);
  assert.equal(await page.getAttribute("#scenario-active", "data-active"), "true");

  // Clear: no scenario, and the error goes.
  await page.click("#scenario-clear");
  await page.waitForFunction(() => document.querySelector("#scenario-active").dataset.active === "false");
  assert.equal(await page.textContent("#scenario-text-error"), "");
  assert.match(await page.textContent("#scenario-message"), /^Cleared/);
  await send(page, "payment-pay");
  assert.equal((await newestRow(page)).fault, "", "with no scenario the payment goes through untouched");

  // A preset for one request (X-Orderpay-Scenario): that payment is declined, and the panel still has no scenario.
  await page.selectOption("#route", "payment-pay");
  await page.selectOption("#h-oneoff", "insufficient-funds");
  assert.match(await page.textContent("#request-preview"), /^X-Orderpay-Scenario: insufficient-funds$/m);
  assert.equal((await send(page, "payment-pay")).code, -1);
  assert.equal((await newestRow(page)).fault, "decline");
  assert.equal(await page.getAttribute("#scenario-active", "data-active"), "false");
  assert.deepEqual(errors, []);
});

test("the same Idempotency-Key sent again: the answer is replayed, marked, and nothing runs twice", async (t) => {
  const { page, errors } = await open(env);
  if (!(await replays(page))) {
    t.skip("this build of the package keeps no answers by Idempotency-Key: no replay to mark");
    return;
  }
  await applySettings(page, { seed: 9, failureRate: 0 });
  await page.selectOption("#route", "order-create");
  assert.equal(await page.isVisible("#h-idem"), true, "POST routes offer the key");
  await page.click("#new-idem");
  const key = await page.inputValue("#h-idem");
  assert.match(key, /^key-[0-9a-f]{16}$/);
  assert.match(await page.textContent("#request-preview"), new RegExp(`^Idempotency-Key: ${key}$`, "m"));
  const first = await send(page, "order-create");
  assert.equal((await newestRow(page)).replay, "false");
  const before = await page.$$eval("#req-rows li[data-key]", (l) => l.length);
  await page.click("#resend-key");
  await page.waitForFunction((n) => document.querySelectorAll("#req-rows li[data-key]").length > n, before);
  const again = JSON.parse(await page.textContent("#response pre.envelope"));
  assert.deepEqual(again, first, "the kept answer, the same order");
  assert.match(await page.textContent("#response .headers"), /idempotent-replayed: true/);
  assert.match(await page.textContent("#response .replay-line"), /Nothing ran twice/);
  const row = await newestRow(page);
  assert.equal(row.replay, "true");
  assert.deepEqual(row.badges, ["replayed"]);
  assert.match(row.label, /, replayed$/);
  await page.locator("#requests").screenshot({ path: join(shots, "failures-replay-1280.png") });

  // GET routes take no key.
  await page.selectOption("#route", "order-get");
  assert.equal(await page.isHidden("#idem-field"), true);

  // The flow's double click: the payment sent twice under one key, the second answer the first one replayed.
  await page.check("#flow-idem");
  await page.click("#run-flow");
  await page.waitForFunction(() => /^Done/.test(document.querySelector("#flow-summary").textContent), null, { timeout: 20_000 });
  const pays = await page.$$eval('#steps > li[data-step="3"]', (items) => items.map((li) => ({
    replay: li.querySelector(".replay-line") !== null, envelope: li.querySelector("pre.envelope").textContent, sent: li.querySelector("pre.request").textContent,
  })));
  assert.equal(pays.length, 2);
  assert.deepEqual(pays.map((p) => p.replay), [false, true]);
  assert.equal(pays[1].envelope, pays[0].envelope, "the same payment, once");
  assert.match(pays[1].sent, /^Idempotency-Key: pay-ORD-\w+-1$/m);
  assert.equal(await page.$$eval("#steps > li", (l) => l.length), 8, "the seven steps and the double click");
  assert.deepEqual(errors, []);
});

/** Whether the package replays a request sent again with the same Idempotency-Key (asked of a throwaway service). */
const replays = (page) => page.evaluate(async () => {
  const { Service } = await import("/pkg/orderpay.js");
  const probe = new Service({ seed: 1 });
  try {
    const send = () => probe.request("POST", "/api/order/create", JSON.stringify({ userId: "u-1", price: 1, description: "probe" }), { "Content-Type": "application/json", "Idempotency-Key": "probe" });
    send();
    return send().headers["idempotent-replayed"] === "true";
  } finally {
    probe.free();
  }
});

for (const width of [1280, 390]) {
  test(`a third party that times out: a long bar that ends in an error (${width} px)`, async () => {
    const { page, errors } = await open(env, { width });
    await applySettings(page, { seed: 10, failureRate: 0 });
    const doc = { name: "slow third party", rules: [{ name: "pay times out", when: { route: "/api/payment/pay", nth: 2 }, then: { kind: "timeout", afterMs: 30000 } }] };
    await page.fill("#scenario-text", JSON.stringify(doc));
    await page.click("#scenario-apply");
    await page.waitForFunction(() => document.querySelector("#scenario-active").dataset.active === "true");
    await send(page, "order-create");
    assert.equal((await send(page, "payment-pay")).code, 0, "the 1st pay: the rule waits for the 2nd");
    await send(page, "order-create");
    const timedOut = await send(page, "payment-pay");
    assert.equal(timedOut.code, -1);
    assert.equal(timedOut.msg, "Third party payment failed");
    assert.deepEqual(await ruleCounts(page), { "pay times out": [2, 1] });

    // The request list: the longest bar, and it ends in an error mark (rows out of sight are not laid out).
    await page.locator("#req-rows li[data-key]").first().scrollIntoViewIfNeeded();
    const bars = await page.$$eval("#req-rows li[data-key]", (items) => items.map((li) => ({
      fault: li.dataset.fault, width: li.querySelector(".req-bar").getBoundingClientRect().width,
      track: li.querySelector(".req-timing").getBoundingClientRect().width,
      ends: getComputedStyle(li.querySelector(".req-bar"), "::after").content,
      timeout: li.querySelector(".req-timing").classList.contains("fault-timeout"),
    })));
    assert.equal(bars[0].fault, "timeout");
    assert.equal(bars[0].timeout, true);
    assert.equal(bars[0].ends, '"✕"');
    assert.ok(bars[0].width > 0.95 * bars[0].track, "the timeout's bar spans the track");
    for (const other of bars.slice(1)) assert.ok(other.width < 0.1 * bars[0].width, "every other request is a short bar beside it");

    // Its trace: the third-party span is a bar of 30 s that ends in an
    // error, and the gateway's span, whose orderpay.fault.kind says timeout,
    // is marked so too; no other span is.
    await page.click("#response button.trace");
    const detail = page.locator("#trace-detail");
    await detail.locator(".waterfall").waitFor();
    const marked = await detail.locator(".wf-row.timeout").evaluateAll((rows) => rows.map((r) => r.dataset.component));
    assert.deepEqual(marked.sort(), ["gateway", "third-party"]);
    const third = detail.locator(".wf-row.timeout[data-component=third-party]");
    assert.ok(await third.evaluate((el) => el.classList.contains("error")), "drawn in the error style");
    assert.ok(Number(await third.getAttribute("data-end")) - Number(await third.getAttribute("data-start")) >= 30000);
    const geometry = await third.evaluate((el) => {
      const track = el.querySelector(".wf-track").getBoundingClientRect();
      const bar = el.querySelector(".wf-bar").getBoundingClientRect();
      const end = el.querySelector(".wf-end").getBoundingClientRect();
      return { share: bar.width / track.width, endAt: end.left + end.width / 2, barEnd: bar.right };
    });
    assert.ok(geometry.share > 0.9, `the bar spans most of the axis (${geometry.share})`);
    assert.ok(Math.abs(geometry.endAt - geometry.barEnd) < 3, "the error mark sits at the bar's end");
    assert.match(await third.locator(".wf-comp").textContent(), /timeout/);
    await detail.screenshot({ path: join(shots, `failures-timeout-trace-${width}.png`) });
    assert.deepEqual(errors, []);
  });
}
