// Shared steps of the playground's end-to-end tests: open the page ready
// to use, apply settings through the form as a user would, read the log
// table, and find a seed by asking the package itself.
import assert from "node:assert/strict";

/** A fresh page (own storage) with the playground loaded, and what went wrong on it. */
export async function open(env, { width = 1280, height = 900 } = {}) {
  const opened = await env.page();
  const { page } = opened;
  opened.dialogs = [];
  page.on("dialog", (d) => { opened.dialogs.push(d.message()); d.dismiss().catch(() => {}); });
  await page.setViewportSize({ width, height });
  await page.waitForSelector("body[data-ready=true]");
  return opened;
}

/** Fills the settings form and starts a fresh service with it. */
export async function applySettings(page, { seed = "", failureRate = "", logCapacity = "" } = {}) {
  await page.fill("#seed", String(seed));
  await page.fill("#failure-rate", String(failureRate));
  await page.fill("#log-capacity", String(logCapacity));
  await page.click("#apply-settings");
  await page.waitForFunction(() => /^Started a fresh service/.test(document.querySelector("#settings-message").textContent));
}

/** The log table's rows as objects: seq, stage, trace (full id), and the cells' text. */
export async function logRows(page) {
  return page.$$eval("#logs tr[data-seq]", (rows) => rows.map((tr) => {
    const cells = [...tr.cells].map((td) => td.textContent);
    const [seq, time, stage, , uri, uri_group, event_class, duration, status, answer] = cells;
    return { seq: Number(seq), time, stage, trace: tr.dataset.trace, uri, uri_group, event_class, duration, status, answer };
  }));
}

/** Waits until the log table shows `n` rows. */
export async function waitForRows(page, n) {
  await page.waitForFunction((n) => document.querySelectorAll("#logs tr[data-seq]").length === n, n);
}

/**
 * A seed whose first flow payment is declined and whose second goes through,
 * found by replaying the flow's requests on throwaway services of the
 * package, so the test does not hard-code what the random streams give.
 */
export async function seedDeclinedThenPaid(page) {
  const seed = await page.evaluate(async () => {
    const { Service } = await import("/pkg/orderpay.js");
    for (let seed = 1; seed < 500; seed++) {
      const s = new Service({ seed });
      const order = s.handle("POST", "/api/order/create", { userId: "u-1", price: 25.5, description: "two coffees" });
      const pay = () => s.handle("POST", "/api/payment/pay", { orderId: order.data.orderId, amount: 25.5, paymentMethod: "CARD" }).code;
      const first = pay();
      const second = pay();
      s.free();
      if (first !== 0 && second === 0) return seed;
    }
    return null;
  });
  assert.ok(seed !== null, "a seed with a declined first payment and a paid second one");
  return seed;
}

export async function flowSteps(page) {
  return page.$$eval("#steps > li", (items) => items.map((li) => ({
    step: Number(li.dataset.step),
    code: Number(li.dataset.code),
    cls: li.className,
    text: li.textContent,
  })));
}
