// Asynchronous payments on the page: a test card that asks for a 3-D
// Secure challenge, answered by the buyer on the challenge page the
// service serves; a test card that goes pending, resolved by the
// Simulation panel's "Advance 30 s" on a virtual clock; each payment's
// states on its page, with their causes; and the page's copy of the test
// cards' table checked against the core's.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, test } from "node:test";

import { TEST_CARDS } from "../../www/test-card-table.js";

import { artifacts, start } from "./browser.mjs";
import { applySettings, logRows, open } from "./playground.mjs";

const { Service } = await import(new URL("../../pkg/node.js", import.meta.url).href);

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

const CHALLENGE_CARD = "4000002500003155";
const PENDING_CARD = "4000084000000014";

/** Creates an order from the console; returns it. */
async function createOrder(page) {
  await page.selectOption("#route", "order-create");
  await page.click("#send");
  return JSON.parse(await page.textContent("#response pre.envelope")).data;
}

/** Pays the latest order from the console with a test card; returns the envelope. */
async function payWithCard(page, card) {
  await page.selectOption("#route", "payment-pay");
  await page.selectOption("#h-card", card);
  assert.match(await page.inputValue("#body"), /"cardNumber": "\d{4} \d{4} \d{4} \d{4}"/);
  await page.click("#send");
  const envelope = JSON.parse(await page.textContent("#response pre.envelope"));
  return { ...envelope, trace: await page.getAttribute("#response .trace-line button.trace", "data-idv") };
}

/**
 * A state made by another program on the package (a test, a script): a
 * challenged and a pending payment. Its snapshot, and the open payments
 * as [id, status], the challenged one first.
 */
function heldElsewhere() {
  const service = new Service({ seed: 11, failureRate: 0, virtualTime: Date.UTC(2026, 0, 1) });
  const pay = (cardNumber) => {
    const order = service.handle("POST", "/api/order/create", { userId: "elsewhere", price: 5 });
    return service.handle("POST", "/api/payment/pay", { orderId: order.data.orderId, amount: 5, paymentMethod: "CARD", cardNumber }).data;
  };
  const open = [pay(CHALLENGE_CARD), pay(PENDING_CARD)].map((p) => [p.paymentId, p.status]);
  const snapshot = service.snapshot();
  service.free();
  return { snapshot, open };
}

/** The statuses of the payment page's states, oldest first, and their text. */
const statesOf = (page) => page.$$eval("#payment-states > li", (items) => items.map((li) => ({ status: li.dataset.status, text: li.textContent })));

/** Nothing wider than the window (the log table scrolls inside its own box). */
const fitsSideways = (page) => page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

test("a challenge card: the buyer completes the challenge on the page; a pending card resolves with Advance 30 s; each payment's states", async () => {
  const { page, errors, external } = await open(env);
  await page.check("#virtual-clock");
  await applySettings(page, { seed: 7, failureRate: 0 });
  assert.equal(await page.getAttribute("#clock-line", "data-virtual"), "true");
  assert.equal(await page.isDisabled("#advance-30"), false);

  // The challenge, as the buyer meets it: the page the service serves, and its three answers.
  await createOrder(page);
  const challenged = await payWithCard(page, CHALLENGE_CARD);
  assert.equal(challenged.code, 0);
  assert.equal(challenged.data.status, "REQUIRES_ACTION");
  assert.equal(challenged.data.nextAction.type, "redirect");
  assert.equal(challenged.data.nextAction.url, `/api/payment/${challenged.data.paymentId}/challenge`);
  await page.waitForFunction(() => /orderpay test authentication/.test(document.querySelector("#response .challenge-frame")?.srcdoc ?? ""));
  const challengePage = page.frameLocator("#response .challenge-frame");
  await challengePage.getByRole("button", { name: "Complete" }).waitFor();
  assert.equal(await challengePage.locator("#payment-id").textContent(), challenged.data.paymentId);
  assert.match(await page.textContent("#card-outcome"), /4000 0025 0000 3155/);
  // Waiting for the buyer, in the Simulation panel too.
  await page.waitForSelector(`#async-list li[data-payment="${challenged.data.paymentId}"][data-status="REQUIRES_ACTION"]`);
  await env.screenshot(page, "async-challenge-1280.png");
  await page.locator("#response").screenshot({ path: `${artifacts}async-challenge-answer-1280.png` });
  // The buyer clicks Complete in the challenge page itself.
  await challengePage.getByRole("button", { name: "Complete" }).click();
  await page.waitForFunction(() => /SUCCESS/.test(document.querySelector("#response .challenge-result")?.textContent ?? ""));
  await challengePage.getByText("Authentication done").waitFor();
  await page.locator("#response .challenge").screenshot({ path: `${artifacts}async-challenge-done-1280.png` });
  assert.match(await page.textContent("#response .challenge-result"), /GET \/api\/payment\/PAY-\w+ → SUCCESS/);
  await page.waitForSelector(`#async-list li[data-payment="${challenged.data.paymentId}"]`, { state: "detached" });
  // The frame now shows the page the service answered the buyer's click with.
  await challengePage.getByText("Authentication done: the payment is now SUCCESS.").waitFor();
  // The change is a record in the pay's trace, shown in the log.
  await page.waitForFunction((id) => [...document.querySelectorAll('#logs tr[data-stage="payment"]')].some((tr) => tr.textContent.includes(id)), challenged.data.paymentId);
  const change = (await logRows(page)).find((r) => r.stage === "payment" && r.uri === challenged.data.paymentId);
  assert.equal(change.answer, "REQUIRES_ACTION → SUCCESS (the buyer (Complete))");
  assert.equal(change.trace, challenged.trace);

  // Pending: the answer says why and when; Advance 30 s resolves it.
  await createOrder(page);
  const pending = await payWithCard(page, PENDING_CARD);
  assert.equal(pending.code, 0);
  assert.equal(pending.data.status, "PENDING");
  assert.match(await page.textContent("#response .async-why"), /PENDING: the bank has not answered yet/);
  const row = `#async-list li[data-payment="${pending.data.paymentId}"][data-status="PENDING"]`;
  await page.waitForSelector(row);
  await page.locator("#async-box").screenshot({ path: `${artifacts}async-clock-1280.png` });
  await page.locator("#response").screenshot({ path: `${artifacts}async-pending-answer-1280.png` });
  assert.match(await page.textContent(`${row} .async-next`), /becomes SUCCESS in 3\d(\.\d)? s|becomes SUCCESS in 29(\.\d)? s/);
  assert.notEqual(await page.textContent("#next-due"), "");
  await page.click("#advance-30");
  await page.waitForFunction((id) => new RegExp(`${id} PENDING → SUCCESS`).test(document.querySelector("#advance-message").textContent), pending.data.paymentId);
  await page.waitForSelector(row, { state: "detached" });

  // Its page: PENDING (by the card), then SUCCESS, each with its time.
  await page.click(`#advance-message button.moved[data-payment="${pending.data.paymentId}"]`);
  await page.waitForSelector(`#object-page[data-id="${pending.data.paymentId}"] #payment-states`);
  const states = await statesOf(page);
  assert.deepEqual(states.map((s) => s.status), ["PENDING", "SUCCESS"]);
  assert.match(states[0].text, /test card 4000 0840 0000 0014/);
  assert.match(states[1].text, /\d\d:\d\d:\d\d/);
  await env.screenshot(page, "async-pending-1280.png");
  await page.locator("#object-page").screenshot({ path: `${artifacts}async-states-1280.png` });

  // The challenged payment's page, from the request list: REQUIRES_ACTION by the card, then SUCCESS by the buyer.
  const id = challenged.data.paymentId;
  await page.fill("#req-search", `id:${id} method:POST path:/api/payment/pay`);
  await page.click("#req-rows .req-row");
  await page.click(`#req-panel .object-link[data-object="${id}"]`);
  await page.waitForSelector(`#object-page[data-id="${id}"] #payment-states`);
  const challengeStates = await statesOf(page);
  assert.deepEqual(challengeStates.map((s) => s.status), ["REQUIRES_ACTION", "SUCCESS"]);
  assert.match(challengeStates[0].text, /test card 4000 0025 0000 3155/);
  assert.match(challengeStates[1].text, /the buyer/);
  assert.ok(await fitsSideways(page), "no sideways scroll at 1280 px");

  // A scenario rule's plan, without a card: pending 30 s, then it fails insufficient_funds.
  await page.click('#presets button[data-example="pending-then-fails"]');
  await page.waitForFunction(() => document.querySelector("#scenario-active").dataset.active === "true");
  await createOrder(page);
  await page.selectOption("#route", "payment-pay");
  await page.selectOption("#h-card", "");
  await page.click("#send");
  const ruled = JSON.parse(await page.textContent("#response pre.envelope")).data;
  assert.equal(ruled.status, "PENDING");
  const ruledRow = `#async-list li[data-payment="${ruled.paymentId}"]`;
  await page.waitForSelector(ruledRow);
  assert.match(await page.textContent(`${ruledRow} .async-head`), /by scenario rule "bounced"/);
  assert.match(await page.textContent(`${ruledRow} .async-next`), /becomes FAILED \(insufficient_funds\) in 30 s/);
  await page.click("#advance-30");
  await page.waitForFunction((id) => new RegExp(`${id} PENDING → FAILED`).test(document.querySelector("#advance-message").textContent), ruled.paymentId);

  // On the wall clock the service's clock line moves, as its core says the time; Advance is off.
  await page.uncheck("#virtual-clock");
  await applySettings(page, { seed: 7, failureRate: 0 });
  assert.equal(await page.getAttribute("#clock-line", "data-virtual"), "false");
  assert.equal(await page.isDisabled("#advance-30"), true);
  const shown = await page.textContent("#clock-now");
  await page.waitForFunction((shown) => document.querySelector("#clock-now").textContent !== shown, shown);

  // The payments in progress are those the service holds, whoever paid them: a state made elsewhere, imported, then reloaded.
  const made = heldElsewhere();
  await page.setInputFiles("#import-state", { name: "elsewhere.json", mimeType: "application/json", buffer: Buffer.from(made.snapshot) });
  await page.waitForFunction(() => /^Imported the state from elsewhere\.json/.test(document.querySelector("#settings-message").textContent));
  for (const [id, status] of made.open) await page.waitForSelector(`#async-list li[data-payment="${id}"][data-status="${status}"]`);
  await page.waitForSelector('#state-status[data-saved="saved"]');
  await page.reload();
  await page.waitForSelector("body[data-ready=true]");
  for (const [id, status] of made.open) await page.waitForSelector(`#async-list li[data-payment="${id}"][data-status="${status}"]`);
  // Its challenge, reached from the list after the reload.
  await page.click(`#async-list li[data-payment="${made.open[0][0]}"] button[aria-expanded]`);
  await page.frameLocator("#async-list .challenge-frame").getByRole("button", { name: "Complete" }).waitFor();
  assert.deepEqual(errors, []);
  assert.deepEqual(external, []);
  await page.context().close();
});

test("on a phone (390 px): the challenge, the clock and a payment's states fit without scrolling sideways", async () => {
  const { page, errors } = await open(env, { width: 390, height: 844 });
  await page.check("#virtual-clock");
  await applySettings(page, { seed: 7, failureRate: 0 });
  await createOrder(page);
  await payWithCard(page, CHALLENGE_CARD);
  await page.frameLocator("#response .challenge-frame").getByRole("button", { name: "Cancel" }).waitFor();
  await page.waitForFunction(() => document.querySelector("#response .challenge-frame").style.height !== "");
  assert.ok(await fitsSideways(page), "no sideways scroll with the challenge open");
  await page.locator("#response .challenge").screenshot({ path: `${artifacts}async-challenge-390.png` });
  await createOrder(page);
  await payWithCard(page, PENDING_CARD);
  await page.locator("#async-box").scrollIntoViewIfNeeded();
  assert.ok(await fitsSideways(page), "no sideways scroll with a payment pending");
  await page.locator("#async-box").screenshot({ path: `${artifacts}async-clock-390.png` });
  // The pending payment's page, from the clock's list: its states, and the change to come.
  const pending = await page.getAttribute('#async-list li[data-status="PENDING"]', "data-payment");
  await page.click(`#async-list li[data-payment="${pending}"] .async-head button.link`);
  await page.waitForSelector(`#object-page[data-id="${pending}"] #payment-next`);
  assert.match(await page.textContent("#payment-next"), /becomes SUCCESS in \d+(\.\d)? s/);
  assert.ok(await fitsSideways(page), "no sideways scroll with a payment's page open");
  await page.locator("#object-page").screenshot({ path: `${artifacts}async-states-390.png` });
  assert.deepEqual(errors, []);
  await page.context().close();
});

test("the page's test cards are the core's: each number, in order, with its outcome", () => {
  const rust = readFileSync(new URL("../../src/sim/test_card.rs", import.meta.url), "utf8");
  const table = rust.slice(rust.indexOf("pub const CARDS"), rust.indexOf("];", rust.indexOf("pub const CARDS")));
  // Each card: its number, then the text up to the next number (its outcome, and whether it is orderpay's own).
  const parts = table.split(/"(\d{16})"/).slice(1);
  const core = [];
  for (let i = 0; i < parts.length; i += 2) {
    const [number, rest] = [parts[i], parts[i + 1]];
    const str = (key) => rest.match(new RegExp(`${key}:\\s*(?:Some\\()?"([^"]+)"`))?.[1];
    const ms = (key) => Number(rest.match(new RegExp(`${key}:\\s*([\\d_]+)`))?.[1].replace(/_/g, ""));
    const own = /own:\s*true/.test(rest) ? { own: true } : {};
    if (/CardOutcome::Succeeds/.test(rest)) core.push({ number, kind: "succeeds" });
    else if (/CardOutcome::Declines/.test(rest)) core.push({ number, kind: "declines", code: rest.match(/Declines\(\s*"([^"]+)"/)[1] });
    else if (/WAITS/.test(rest)) core.push({ number, kind: "challenge" });
    else if (/CardOutcome::Challenge/.test(rest)) core.push({ number, kind: "challenge", code: str("declined_after") });
    else if (/CardOutcome::Reversal/.test(rest)) core.push({ number, kind: "reversal", afterMs: ms("after_ms"), code: str("code"), reason: str("reason") });
    else if (/CardOutcome::Pending/.test(rest)) {
      const pass = /pass:\s*true/.test(rest);
      core.push({ number, kind: "pending", forMs: ms("for_ms"), pass, ...(pass ? {} : { code: str("code") }), ...own });
    } else assert.fail(`card ${number}: an outcome this test does not read: ${rest}`);
  }
  assert.ok(core.length >= 17, `read ${core.length} cards from the core`);
  assert.deepEqual(TEST_CARDS, core);
});
