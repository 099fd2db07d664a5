// Asynchronous payments on the page: a test card that asks for a 3-D
// Secure challenge, answered by the buyer on the challenge page the
// service serves; a test card that goes pending, resolved by the
// Simulation panel's "Advance 30 s" on a virtual clock; each payment's
// states on its page, with their causes; the Webhooks panel's events and
// deliveries, the built-in receiver made to fail and retried on the same
// clock; and the page's copy of the test cards' table checked against
// the core's.
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

/** Moves the mouse onto `target` in steps from where it is, over what lies between. */
async function pointTo(page, target) {
  const box = await target.boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 8 });
}

/** Nothing wider than the window (the log table scrolls inside its own box). */
const fitsSideways = (page) => page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

test("a challenge card: the buyer completes the challenge on the page; a pending card resolves with Advance 30 s; each payment's states", async () => {
  const { page, errors, external, consoleMessages } = await open(env);
  await page.check("#virtual-clock");
  await applySettings(page, { seed: 7, failureRate: 0 });
  assert.equal(await page.getAttribute("#clock-line", "data-virtual"), "true");
  assert.equal(await page.isDisabled("#advance-30"), false);
  // Nothing is due: "Resolve what is due" is off, and says why.
  assert.equal(await page.isDisabled("#advance-due"), true);
  assert.equal(await page.getAttribute("#advance-due", "title"), "No change of a payment is due.");

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
  // Drawn inert: a policy at its top lets no script of it run and no form of it leave.
  assert.match(await challengePage.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute("content"), /script-src 'none'; form-action 'none'/);
  assert.match(await page.textContent("#card-outcome"), /4000 0025 0000 3155/);
  // Waiting for the buyer, in the Simulation panel too.
  await page.waitForSelector(`#async-list li[data-payment="${challenged.data.paymentId}"][data-status="REQUIRES_ACTION"]`);
  await env.screenshot(page, "async-challenge-1280.png");
  await page.locator("#response").screenshot({ path: `${artifacts}async-challenge-answer-1280.png` });
  // The card passed the third party, but nothing is paid yet: the Why box says the payment waits, and is not green.
  assert.equal(await page.getAttribute("#response .outcome", "data-status"), "REQUIRES_ACTION");
  assert.doesNotMatch(await page.getAttribute("#response .outcome", "class"), /approved/);
  // Its badge says the pay's answer apart from the payment's fate.
  assert.equal(await page.textContent("#response .outcome-head .badge"), "approved at the pay; now REQUIRES_ACTION");
  // The buyer's pointer crosses the page to Complete, as a hand would, and clicks it in the challenge page itself.
  await pointTo(page, challengePage.getByRole("button", { name: "Complete" }));
  await challengePage.getByRole("button", { name: "Complete" }).click();
  await page.waitForFunction(() => /SUCCESS/.test(document.querySelector("#response .challenge-result")?.textContent ?? ""));
  await challengePage.getByText("Answered:").waitFor();
  await page.locator("#response .challenge").screenshot({ path: `${artifacts}async-challenge-done-1280.png` });
  assert.match(await page.textContent("#response .challenge-result"), /GET \/api\/payment\/PAY-\w+ → SUCCESS/);
  await page.waitForSelector('#response .outcome.approved[data-status="SUCCESS"]');
  assert.equal(await page.textContent("#response .outcome-head .badge"), "approved at the pay; now SUCCESS");
  await page.waitForSelector(`#async-list li[data-payment="${challenged.data.paymentId}"]`, { state: "detached" });
  // The frame now shows the page the service answered the buyer's click with.
  await challengePage.getByText("Answered: the payment is now SUCCESS.").waitFor();
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
  // Its due time is the virtual clock's, and marked so; it is not due yet, so "Resolve what is due" stays off.
  assert.match(await page.textContent(`${row} .async-next`), /\(at \d\d:\d\d:\d\d \(virtual\)\)\.$/);
  assert.equal(await page.isDisabled("#advance-due"), true);
  assert.match(await page.getAttribute("#advance-due", "title"), /^Nothing is due yet: the next change is due in \d+(\.\d)? s \(at \d\d:\d\d:\d\d \(virtual\)\)\.$/);
  assert.notEqual(await page.textContent("#next-due"), "");
  await page.click("#advance-30");
  await page.waitForFunction((id) => new RegExp(`${id} PENDING → SUCCESS`).test(document.querySelector("#advance-message").textContent), pending.data.paymentId);
  await page.waitForSelector(row, { state: "detached" });
  // Times of a virtual clock are marked as such: it started at the real time, and is easily taken for it.
  assert.match(await page.textContent("#advance-message"), /to \d\d:\d\d:\d\d \(virtual\)/);

  // Its page: PENDING (by the card), then SUCCESS, each with its time.
  await page.click(`#advance-message button.moved[data-payment="${pending.data.paymentId}"]`);
  await page.waitForSelector(`#object-page[data-id="${pending.data.paymentId}"] #payment-states`);
  const states = await statesOf(page);
  assert.deepEqual(states.map((s) => s.status), ["PENDING", "SUCCESS"]);
  assert.match(states[0].text, /test card 4000 0840 0000 0014/);
  assert.match(states[1].text, /\d\d:\d\d:\d\d\.\d{3} \(virtual\)/);
  await env.screenshot(page, "async-pending-1280.png");
  await page.locator("#object-page").screenshot({ path: `${artifacts}async-states-1280.png` });

  // The challenged payment, refunded: its pay's Why box says so. Its page, from the request list: REQUIRES_ACTION by the card, then SUCCESS by the buyer.
  const id = challenged.data.paymentId;
  await page.selectOption("#route", "payment-refund");
  await page.fill("#param-paymentId", id);
  await page.click("#send");
  assert.equal(JSON.parse(await page.textContent("#response pre.envelope")).code, 0);
  await page.fill("#req-search", `id:${id} method:POST path:/api/payment/pay`);
  await page.locator("#req-rows .req-row", { hasText: /\/api\/payment\/pay(?![A-Za-z/])/ }).click();
  assert.equal(await page.textContent("#req-panel h3"), "POST /api/payment/pay");
  // Its bar's tooltip: a time of the virtual clock, marked so.
  assert.match(await page.getAttribute('#req-rows li.selected .req-timing', "title"), /^at \d\d:\d\d:\d\d\.\d{3} \(virtual\), \d+ ms simulated$/);
  assert.equal(await page.textContent("#req-panel .outcome-head .badge"), "approved at the pay; now REFUNDED");
  await page.click(`#req-panel .object-link[data-object="${id}"]`);
  await page.waitForSelector(`#object-page[data-id="${id}"] #payment-states`);
  const challengeStates = await statesOf(page);
  assert.deepEqual(challengeStates.map((s) => s.status), ["REQUIRES_ACTION", "SUCCESS", "REFUNDED"]);
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
  assert.equal(await page.textContent("#response .outcome-head .badge"), "approved at the pay; now PENDING");
  await page.click("#advance-30");
  await page.waitForFunction((id) => new RegExp(`${id} PENDING → FAILED`).test(document.querySelector("#advance-message").textContent), ruled.paymentId);
  await page.waitForFunction(() => document.querySelector("#response .outcome-head .badge").textContent === "approved at the pay; now FAILED");

  // The chart counts each payment by the status it has now: the pending payment that ended FAILED is no success.
  await page.waitForFunction(() => document.querySelector("#chart-payments").dataset.failed === "1");
  let chart = await page.$eval("#chart-payments", (el) => ({ ...el.dataset, text: el.textContent }));
  assert.deepEqual([chart.attempts, chart.succeeded, chart.failed, chart.open, chart.challenged, chart.pending], ["3", "2", "1", "0", "1", "2"]);
  assert.match(chart.text, /3, of which 2 succeeded \(66\.7%\) and 1 failed \(33\.3%\): 0 declined by the simulated third party, 1 FAILED later/);
  assert.match(chart.text, /1 was challenged \(3-D Secure\) and 2 went PENDING first/);
  // Its line plots approvals at the pay, and says so; the dot at its end is the share that succeeded, the bar's.
  assert.equal(await page.textContent("#chart-payments text.running-label"), "attempt 3: running share approved at the pay");
  assert.equal(await page.textContent("#chart-payments circle.now-succeeded title"), "succeeded now: 66.7% (the bar)");

  // A scenario's challenge: what the buyer's answers do, as the pay's record plans it. The code is a Fail's or a Cancel's;
  // a Complete passes it (it is no decline once passed), and an approved attempt has no decline code.
  await page.click('#presets button[data-example="challenge-every-payment"]');
  await page.waitForSelector('#scenario-active[data-rules^="3-D Secure:"]');
  await createOrder(page);
  await page.selectOption("#route", "payment-pay");
  await page.click("#send");
  const asked = JSON.parse(await page.textContent("#response pre.envelope")).data;
  assert.equal(asked.status, "REQUIRES_ACTION");
  const why = await page.textContent("#response .async-why");
  assert.match(why, /waits for the buyer: Complete, Fail or Cancel its challenge \(Fail or Cancel ends it FAILED \(authentication_required\)\)/);
  assert.doesNotMatch(why, /once passed|declined authentication_required/);
  assert.equal(await page.locator("#response .decline-code").count(), 0, "no decline code on an approved attempt");
  const askedRow = `#async-list li[data-payment="${asked.paymentId}"]`;
  await page.waitForSelector(askedRow);
  assert.match(await page.textContent(`${askedRow} .async-next`), /Fail or Cancel ends it FAILED \(authentication_required\)/);
  const frame = page.frameLocator("#response .challenge-frame");
  await frame.getByRole("button", { name: "Complete" }).click();
  await page.waitForFunction(() => /→ SUCCESS/.test(document.querySelector("#response .challenge-result")?.textContent ?? ""));
  await page.waitForFunction(() => document.querySelector("#chart-payments").dataset.succeeded === "3");
  chart = await page.$eval("#chart-payments", (el) => ({ ...el.dataset }));
  assert.deepEqual([chart.attempts, chart.succeeded, chart.failed, chart.challenged], ["4", "3", "1", "2"]);

  await challengeRuleIsNoFailure(page);
  await reversalSaysWhy(page);
  await wallClock(page);

  // On the wall clock the service's clock line moves, as its core says the time; Advance is off.
  await page.uncheck("#virtual-clock");
  await applySettings(page, { seed: 7, failureRate: 0 });
  assert.equal(await page.getAttribute("#clock-line", "data-virtual"), "false");
  assert.equal(await page.isDisabled("#advance-30"), true);
  assert.equal(await page.isDisabled("#advance-due"), true);
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
  assert.deepEqual(consoleMessages, [], "nothing said in the console, as an error or a warning");
  await page.context().close();
});

/** Pays the latest order from the console with no card (a scenario's rule decides); returns the payment. */
async function payByRule(page) {
  await page.selectOption("#route", "payment-pay");
  await page.selectOption("#h-card", "");
  await page.click("#send");
  return JSON.parse(await page.textContent("#response pre.envelope")).data;
}

/** A scenario's challenge is no failure: its badge and line are not marked as one, and say what it does. */
async function challengeRuleIsNoFailure(page) {
  await page.click('#presets button[data-example="challenge-every-payment"]');
  await page.waitForFunction(() => document.querySelector("#scenario-active").dataset.rules?.startsWith("3-D Secure:"));
  await createOrder(page);
  assert.equal((await payByRule(page)).status, "REQUIRES_ACTION");
  const badge = page.locator("#response .fault-badge.k-challenge");
  assert.match(await badge.getAttribute("class"), /\blater\b/);
  assert.match(await badge.getAttribute("title"), /waits for the buyer .*Not a failure\.$/);
  assert.match(await page.getAttribute("#response .fault-line", "class"), /\blater-line\b/);
}

/**
 * A reversal: the payment's change to FAILED is marked a failure in the
 * log and the trace; the Why box of its pay no longer reads approved; the
 * refused refund and the order's page say why.
 */
async function reversalSaysWhy(page) {
  await page.click('#presets button[data-example="reversal-after-60s"]');
  await page.waitForFunction(() => document.querySelector("#scenario-active").dataset.rules?.startsWith("disputed:"));
  const order = await createOrder(page);
  const paid = await payByRule(page);
  assert.equal(paid.status, "SUCCESS");
  await page.selectOption("#route", "order-pay");
  assert.equal(await page.inputValue("#param-orderId"), order.orderId);
  await page.click("#send");
  for (let i = 0; i < 2; i++) await page.click("#advance-30");
  await page.waitForFunction((id) => new RegExp(`${id} SUCCESS → FAILED`).test(document.querySelector("#advance-message").textContent), paid.paymentId);
  await page.selectOption("#route", "payment-refund");
  assert.equal(await page.inputValue("#param-paymentId"), paid.paymentId);
  await page.click("#send");
  assert.equal(await page.textContent("#response .msg"), "Only success payment can be refunded");
  assert.match(await page.textContent("#response .reversed-why"), new RegExp(`${paid.paymentId} was reversed at \\d\\d:\\d\\d:\\d\\d\\.\\d{3} \\(virtual\\)`));
  assert.match(await page.textContent("#response .reversed-why"), /back with the buyer/);

  // The log: the change's status column says the payment failed.
  const change = (await logRows(page)).find((r) => r.stage === "payment" && r.uri === paid.paymentId);
  assert.equal(change.status, "payment FAILED");
  assert.match(change.time, /\(virtual\)$/);
  // Its trace: the change's span is marked failed, its tooltip says so; the pay's Why box says FAILED since.
  await page.click(`#logs tr[data-seq="${change.seq}"] button.trace`);
  const span = page.locator("#trace-detail .wf-row", { has: page.locator(".wf-name", { hasText: "payment SUCCESS → FAILED" }) });
  assert.match(await span.getAttribute("class"), /\berror\b/);
  assert.match(await span.locator(".wf-bar").getAttribute("title"), /payment FAILED \(\w+\)$/);
  assert.equal(await page.getAttribute("#trace-detail .outcome", "data-status"), "FAILED");
  assert.doesNotMatch(await page.getAttribute("#trace-detail .outcome", "class"), /approved/);

  // The order's page: still PAID, and why its payment cannot be refunded.
  await page.fill("#req-search", `id:${order.orderId} method:POST path:/api/order/create`);
  await page.click("#req-rows .req-row");
  await page.click(`#req-panel .object-link[data-object="${order.orderId}"]`);
  await page.waitForSelector(`#object-page[data-id="${order.orderId}"]`);
  assert.match(await page.textContent("#order-reversals"), new RegExp(`${paid.paymentId} was reversed at .*back with the buyer.*stays PAID`));
}

/**
 * A fresh start on the wall clock: nothing said of the last service's
 * payments stays; the challenge page is fetched once the pay's answer is
 * in; a challenge answered elsewhere disables the frame's buttons; a
 * pending payment's plan says the wall clock moves it.
 */
async function wallClock(page) {
  assert.notEqual(await page.textContent("#advance-message"), "");
  await page.uncheck("#virtual-clock");
  await applySettings(page, { seed: 7, failureRate: 0 });
  assert.equal(await page.getAttribute("#clock-line", "data-virtual"), "false");
  assert.equal(await page.textContent("#advance-message"), "");

  await createOrder(page);
  const challenged = (await payWithCard(page, CHALLENGE_CARD)).data;
  const frame = page.frameLocator("#response .challenge-frame");
  await frame.getByRole("button", { name: "Complete" }).waitFor();
  // The browser goes to the challenge once the app has the pay's answer: its GET comes after it.
  const rows = await logRows(page);
  const paidAt = msOfDay(rows.find((r) => r.stage === "response" && r.uri === "POST /api/payment/pay").time);
  const fetchedAt = msOfDay(rows.find((r) => r.stage === "gateway" && /^GET \S+\/challenge$/.test(r.uri)).time);
  assert.ok((fetchedAt - paidAt + 86_400_000) % 86_400_000 < 43_200_000, `the challenge's GET (${fetchedAt}) after the pay's answer (${paidAt})`);
  // Answered in the Simulation panel's frame: the console's frame takes no answer any more.
  const item = `#async-list li[data-payment="${challenged.paymentId}"]`;
  await page.click(`${item} button.secondary`);
  await page.frameLocator(`${item} .challenge-frame`).getByRole("button", { name: "Complete" }).click();
  await page.waitForSelector('#response .challenge[data-over="true"]');
  // The console's frame says it was answered elsewhere, and the status now; the panel says what the buyer's answer did.
  assert.equal(await page.getAttribute("#response .challenge", "data-answered"), "elsewhere");
  assert.match(await page.textContent("#response .challenge-state"), /^Answered elsewhere \(.*\): the payment is SUCCESS now/);
  assert.equal(await page.textContent("#response .challenge-head .pay-status"), "SUCCESS");
  await page.waitForFunction((id) => document.querySelector("#advance-message").textContent === `${id} REQUIRES_ACTION → SUCCESS (the buyer: Complete).`, challenged.paymentId);
  for (const name of ["Complete", "Fail", "Cancel"]) assert.equal(await frame.getByRole("button", { name }).isDisabled(), true, name);

  await createOrder(page);
  await payWithCard(page, PENDING_CARD);
  const why = await page.textContent("#response .async-why");
  assert.match(why, /on the wall clock: it comes due in real time/);
  assert.doesNotMatch(why, /Simulation panel/);
}

/** "12:00:30.123 …" → milliseconds since midnight. */
function msOfDay(time) {
  const [h, m, s] = time.split(" ")[0].split(":").map(Number);
  return ((h * 60 + m) * 60 + s) * 1000;
}

test("on a phone (390 px): the challenge, the clock and a payment's states fit without scrolling sideways", async () => {
  const { page, errors, consoleMessages } = await open(env, { width: 390, height: 844 });
  await page.check("#virtual-clock");
  await applySettings(page, { seed: 7, failureRate: 0 });
  await createOrder(page);
  await payWithCard(page, CHALLENGE_CARD);
  await page.frameLocator("#response .challenge-frame").getByRole("button", { name: "Cancel" }).waitFor();
  await page.waitForFunction(() => document.querySelector("#response .challenge-frame").style.height !== "");
  assert.ok(await fitsSideways(page), "no sideways scroll with the challenge open");
  await page.locator("#response .challenge").screenshot({ path: `${artifacts}async-challenge-390.png` });
  // The buyer cancels: the request list cuts the long path short, and shows the answer beside it.
  await page.frameLocator("#response .challenge-frame").getByRole("button", { name: "Cancel" }).click();
  await page.waitForFunction(() => /FAILED/.test(document.querySelector("#response .challenge-result")?.textContent ?? ""));
  // The buyer's own answer, said as such (not as one given elsewhere).
  await page.waitForSelector('#response .challenge[data-answered="here"]');
  assert.match(await page.textContent("#response .challenge-state"), /^The buyer answered Cancel here: the payment is FAILED\./);
  const answered = page.locator('#req-rows li:has(.answer-badge[data-outcome="abandon"])');
  await answered.scrollIntoViewIfNeeded();
  assert.equal(await answered.locator(".answer-badge").textContent(), "outcome=abandon");
  const badge = await answered.locator(".answer-badge").boundingBox();
  assert.ok(badge && badge.width > 40 && badge.x + badge.width <= 390, `the answer in sight in the row: ${JSON.stringify(badge)}`);
  await createOrder(page);
  await payWithCard(page, PENDING_CARD);
  await page.locator("#async-box").scrollIntoViewIfNeeded();
  assert.ok(await fitsSideways(page), "no sideways scroll with a payment pending");
  await page.locator("#async-box").screenshot({ path: `${artifacts}async-clock-390.png` });
  // The chart: the cancelled challenge failed, the pending payment still waits; neither counted a success.
  await page.waitForFunction(() => document.querySelector("#chart-payments").dataset.open === "1");
  const chart = await page.$eval("#chart-payments", (el) => ({ ...el.dataset, text: el.textContent, openBars: el.querySelectorAll("rect.open").length }));
  assert.deepEqual([chart.attempts, chart.succeeded, chart.failed, chart.open, chart.openBars], ["2", "0", "1", "1", 1]);
  assert.match(chart.text, /2, of which 0 succeeded \(0\.0%\), 1 still waits \(REQUIRES_ACTION or PENDING\)/);
  await page.locator("#chart-payments").scrollIntoViewIfNeeded();
  assert.ok(await fitsSideways(page), "no sideways scroll with the chart");
  await page.locator("#chart-payments").screenshot({ path: `${artifacts}async-chart-390.png` });
  // The pending payment's page, from the clock's list: its states, and the change to come.
  const pending = await page.getAttribute('#async-list li[data-status="PENDING"]', "data-payment");
  await page.click(`#async-list li[data-payment="${pending}"] .async-head button.link`);
  await page.waitForSelector(`#object-page[data-id="${pending}"] #payment-next`);
  assert.match(await page.textContent("#payment-next"), /becomes SUCCESS in \d+(\.\d)? s/);
  assert.ok(await fitsSideways(page), "no sideways scroll with a payment's page open");
  await page.locator("#object-page").screenshot({ path: `${artifacts}async-states-390.png` });
  // The Undo offered after the fresh start goes in a few seconds on a phone, where it covers the page's bottom.
  await page.waitForSelector("#undo", { state: "hidden", timeout: 30_000 });
  assert.deepEqual(errors, []);
  assert.deepEqual(consoleMessages, [], "nothing said in the console, as an error or a warning");
  await page.context().close();
});

/**
 * A screenshot of one part of the page. The sections are laid out only as
 * they come in sight (content-visibility), which moves what lies below
 * them while the screenshot scrolls: for the picture, every section is
 * laid out (and the Undo bar, fixed at the bottom, left out).
 */
async function shot(page, selector, name) {
  const style = await page.addStyleTag({ content: "main > section { content-visibility: visible !important; } #undo { visibility: hidden; }" });
  await page.locator(selector).screenshot({ path: `${artifacts}${name}` });
  await style.evaluate((el) => el.remove());
}

/** The deliveries to the built-in receiver of the event of `type` shown first (the newest), as the panel shows them. */
function deliveryOf(page, type) {
  return page.locator("#hook-endpoints li.hook-delivery", { has: page.locator(".hook-delivery-head", { hasText: type }) }).first();
}

/** The statuses of a delivery's attempts, oldest first, and their times as shown. */
const attemptsOf = (delivery) => delivery.locator("li.hook-attempt").evaluateAll((items) => items.map((li) => ({ status: Number(li.dataset.status), text: li.textContent })));

test("webhooks: the panel lists a flow's events; the built-in receiver, made to fail, is retried on Advance and then succeeds", async () => {
  const { page, errors, external, consoleMessages } = await open(env);
  await page.check("#virtual-clock");
  await applySettings(page, { seed: 7, failureRate: 0 });
  // Off until asked: no event read, no list.
  assert.equal(await page.isHidden("#hooks-lists"), true);
  assert.equal(await page.isDisabled("#receiver-fail"), true);
  await page.check("#receiver-on");
  await page.waitForFunction(() => /^The built-in receiver is on \(we_\d+\)/.test(document.querySelector("#hooks-message").textContent));
  assert.equal(await page.isVisible("#hooks-lists"), true);

  // The typical flow's state changes, each an event, each delivered to the receiver and its signature verified.
  await page.click("#run-flow");
  await page.waitForFunction(() => /^Done:/.test(document.querySelector("#flow-summary").textContent));
  const flowTypes = ["order.created", "payment.succeeded", "order.paid", "payment.refunded"];
  await page.waitForFunction((n) => document.querySelectorAll('#hook-endpoints li.hook-delivery[data-state="delivered"]').length === n, flowTypes.length);
  assert.deepEqual((await page.$$eval("#hook-events li[data-type]", (items) => items.map((li) => li.dataset.type))).reverse(), flowTypes);
  const first = page.locator("#hook-events li[data-type]").last();
  assert.match(await first.locator(".hook-time").textContent(), /^\d\d:\d\d:\d\d\.\d{3} \(virtual\)$/);
  assert.match(await first.locator(".hook-object").textContent(), /^ORD-\w+ CREATED$/);
  const paid = deliveryOf(page, "payment.succeeded");
  assert.match(await paid.locator(".hook-signature code.sig").textContent(), /^t=\d+,v1=[0-9a-f]{64}$/);
  assert.match(await paid.locator(".hook-signature .verdict").textContent(), /verifyWebhook accepted it/);

  // Made to fail: a new order's delivery fails with 500, and waits for its retry on the clock.
  await page.check("#receiver-fail");
  await createOrder(page);
  const failing = deliveryOf(page, "order.created");
  await page.waitForFunction(() => document.querySelector("#hook-endpoints li.hook-delivery").dataset.attempts === "1");
  assert.equal(await failing.getAttribute("data-state"), "pending");
  assert.deepEqual((await attemptsOf(failing)).map((a) => a.status), [500]);
  assert.match(await failing.locator(".hook-why").textContent(), /The receiver failed \(HTTP 500\)/);
  assert.match(await failing.locator(".hook-next").textContent(), /^Next attempt in 1 min \(at \d\d:\d\d:\d\d \(virtual\)\)\.$/);
  assert.equal(await page.isVisible("#hooks-advance"), true);
  // The Simulation panel's clock says what is due next: the retry, not a payment's change.
  assert.match(await page.textContent("#clock-line"), /Next due: a webhook delivery's attempt, in 1 min \(at \d\d:\d\d:\d\d \(virtual\)\)\.$/);
  // The retry on Advance fails again; once the receiver is fixed, the next one succeeds.
  await page.click("#hooks-advance");
  await page.waitForFunction(() => document.querySelector("#hook-endpoints li.hook-delivery").dataset.attempts === "2");
  await page.uncheck("#receiver-fail");
  await page.click("#hooks-advance");
  await page.waitForFunction(() => document.querySelector("#hook-endpoints li.hook-delivery").dataset.state === "delivered");
  const attempts = await attemptsOf(failing);
  assert.deepEqual(attempts.map((a) => a.status), [500, 500, 200]);
  assert.equal(await page.isHidden("#hooks-advance"), true);
  await shot(page, "#webhooks", "hooks-retry-1280.png");

  // Resend: a delivered one, sent again as a new attempt.
  await paid.locator("button.resend").click();
  await page.waitForFunction(() => /^Resent wd_\d+: a new attempt now\.$/.test(document.querySelector("#hooks-message").textContent));
  await page.waitForFunction(() => [...document.querySelectorAll("#hook-endpoints li.hook-delivery")].some((li) => li.textContent.includes("payment.succeeded") && li.dataset.attempts === "2"));

  // After a reload the service comes back from this browser's copy, and the receiver with it, registered again with its secret.
  const secret = await page.textContent("#hook-endpoints .hook-endpoint-head code");
  await page.waitForSelector('#state-status[data-saved="saved"]');
  await page.reload();
  await page.waitForSelector("body[data-ready=true]");
  await page.waitForFunction(() => document.querySelector("#receiver-on").checked);
  assert.equal(await page.textContent("#hook-endpoints .hook-endpoint-head code"), secret);
  await createOrder(page);
  await page.waitForFunction(() => document.querySelector("#hook-endpoints li.hook-delivery")?.dataset.state === "delivered");
  assert.match(await deliveryOf(page, "order.created").locator(".hook-signature .verdict").textContent(), /verifyWebhook accepted it/);

  // A scenario's delivery fault: a wrong signature, which the receiver refuses, explained as the Failures panel explains a fault.
  await page.fill("#scenario-text", JSON.stringify({ rules: [{ name: "forged", when: { event: "order.created" }, then: { kind: "wrong_signature" } }] }));
  await page.click("#scenario-apply");
  await page.waitForFunction(() => document.querySelector("#scenario-active").dataset.active === "true");
  await createOrder(page);
  await page.waitForFunction(() => document.querySelector("#hook-endpoints li.hook-delivery .hook-fault") !== null);
  const forged = deliveryOf(page, "order.created");
  assert.deepEqual((await attemptsOf(forged)).map((a) => a.status), [400]);
  assert.equal(await forged.locator(".hook-fault").textContent(), "wrong signature · forged");
  assert.match(await forged.locator(".hook-why").textContent(), /The receiver refused it \(HTTP 400\).* Rule "forged" fired: the signature was made with another secret: a careful receiver refuses it\./);
  assert.match(await forged.locator(".hook-signature .verdict").textContent(), /verifyWebhook refused it: the signature does not match this body with the endpoint's secret/);
  await page.click("#scenario-clear");

  // The event's trace, opened from the list: the records and spans of the request that caused it.
  const traceId = await first.locator("button.trace").getAttribute("data-idv");
  await first.locator("button.trace").click();
  await page.waitForSelector("#trace-detail:not([hidden]) .waterfall");
  assert.match(await page.textContent("#trace-detail"), new RegExp(traceId));
  // Below the request's span, each delivery attempt's, in its own colour; the log has a record of each.
  const span = page.locator("#trace-detail .wf-row.c-webhook").first();
  await span.waitFor();
  assert.match(await span.locator(".wf-name").textContent(), /^webhook handler/);
  assert.ok(await page.locator(`#trace-detail .wf-row[data-span-id="${await span.getAttribute("data-parent-span-id")}"]`).count(), "its parent, the request's span, is in the trace");
  assert.match(await page.textContent("#trace-detail .wf-legend"), /webhook delivery/);
  await shot(page, "#trace-detail .waterfall", "hooks-trace-1280.png");
  assert.ok((await logRows(page)).some((r) => r.stage === "webhook"), "a webhook record in the log");
  assert.deepEqual(errors, []);
  assert.deepEqual(external, []);
  assert.deepEqual(consoleMessages, [], "nothing said in the console, as an error or a warning");
  await page.context().close();
});

test("webhooks on a phone (390 px): the events and a failing delivery fit without scrolling sideways", async () => {
  const { page, errors, consoleMessages } = await open(env, { width: 390, height: 844 });
  await page.check("#virtual-clock");
  await applySettings(page, { seed: 7, failureRate: 0 });
  await page.check("#receiver-on");
  await page.check("#receiver-fail");
  await createOrder(page);
  await page.waitForSelector('#hook-endpoints li.hook-delivery[data-attempts="1"][data-state="pending"] .hook-next');
  await page.locator("#webhooks").scrollIntoViewIfNeeded();
  assert.ok(await fitsSideways(page), "no sideways scroll with a failed delivery shown");
  const resend = await page.locator("#hook-endpoints button.resend").boundingBox();
  assert.ok(resend && resend.x + resend.width <= 390, `Resend in sight: ${JSON.stringify(resend)}`);
  await shot(page, "#webhooks", "hooks-390.png");
  assert.deepEqual(errors, []);
  assert.deepEqual(consoleMessages, [], "nothing said in the console, as an error or a warning");
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
