// docs/api.md's table of the eight routes, held to the service: each row
// names a route the service answers, its answer's data, and exactly the
// business errors (code -1) a request to it can get, each provoked here.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

import { root } from "../docs.mjs";
import { Service } from "../../pkg/index.js";

/** The table's rows: {method, path, answer, errors}, read from its Markdown. */
function tableRows() {
  const text = readFileSync(join(root, "docs/api.md"), "utf8");
  const section = text.slice(text.indexOf("## The eight routes"), text.indexOf("## Service"));
  const cells = (line) => line.split("|").slice(1, -1).map((c) => c.trim());
  return section
    .split("\n")
    .filter((line) => /^\| (GET|POST) \|/.test(line))
    .map((line) => {
      const [method, path, , answer, errors] = cells(line);
      const quoted = [...errors.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
      return { method, path: path.replaceAll("`", ""), answer, errors: quoted };
    });
}

/** A service with one order and one payment of it. */
function fixture() {
  const s = new Service({ seed: 11, failureRate: 0 });
  const order = s.handle("POST", "/api/order/create", { userId: "u-1", price: 7 }).data;
  const payment = s.handle("POST", "/api/payment/pay", { orderId: order.orderId, amount: 7, paymentMethod: "CARD" }).data;
  return { s, order, payment };
}

const pay = (orderId, amount = 7) => ({ orderId, amount, paymentMethod: "CARD" });

/** For each route, its success and every business error, each from a request that gets it. */
const PROVOKED = {
  "POST /api/order/create": {
    ok: ({ s }) => s.handle("POST", "/api/order/create", { userId: "u", price: 1, description: "d" }),
    "price must be > 0": ({ s }) => s.handle("POST", "/api/order/create", { userId: "u", price: 0 }),
  },
  "GET /api/order/{orderId}": {
    ok: ({ s, order }) => s.handle("GET", `/api/order/${order.orderId}`),
    "Order not found": ({ s }) => s.handle("GET", "/api/order/ORD-NOPE0000"),
  },
  "POST /api/order/{orderId}/pay": {
    ok: ({ s, order }) => s.handle("POST", `/api/order/${order.orderId}/pay`),
    "Order not found": ({ s }) => s.handle("POST", "/api/order/ORD-NOPE0000/pay"),
    "Order already paid": ({ s, order }) => (s.handle("POST", `/api/order/${order.orderId}/pay`), s.handle("POST", `/api/order/${order.orderId}/pay`)),
  },
  "POST /api/order/delete/{orderId}": {
    ok: ({ s, order }) => s.handle("POST", `/api/order/delete/${order.orderId}`),
    "Order not found": ({ s }) => s.handle("POST", "/api/order/delete/ORD-NOPE0000"),
    "Paid order cannot be deleted": ({ s, order }) => (s.handle("POST", `/api/order/${order.orderId}/pay`), s.handle("POST", `/api/order/delete/${order.orderId}`)),
  },
  "POST /api/payment/pay": {
    ok: ({ s, order }) => s.handle("POST", "/api/payment/pay", pay(order.orderId)),
    // The order of the checks: an amount of 0 for an unknown order.
    "amount must be > 0": ({ s }) => s.handle("POST", "/api/payment/pay", pay("ORD-NOPE0000", 0)),
    "Order not found": ({ s }) => s.handle("POST", "/api/payment/pay", pay("ORD-NOPE0000")),
    // A second pay while the first one's challenge is open (ids as the table writes them).
    "Order ORD-… has a payment awaiting authentication: PAY-…": ({ s, order }) =>
      (s.handle("POST", "/api/payment/pay", { ...pay(order.orderId), cardNumber: "4000002500003155" }), s.handle("POST", "/api/payment/pay", pay(order.orderId))),
    "Third party payment failed": ({ s, order }) => s.handle("POST", "/api/payment/pay", pay(order.orderId), { "X-Sim-Outcome": "failure" }),
  },
  "GET /api/payment/{paymentId}": {
    ok: ({ s, payment }) => s.handle("GET", `/api/payment/${payment.paymentId}`),
    "Payment not found": ({ s }) => s.handle("GET", "/api/payment/PAY-NOPE0000"),
  },
  "POST /api/payment/refund/{paymentId}": {
    ok: ({ s, payment }) => s.handle("POST", `/api/payment/refund/${payment.paymentId}`),
    "Payment not found": ({ s }) => s.handle("POST", "/api/payment/refund/PAY-NOPE0000"),
    "Only success payment can be refunded": ({ s, payment }) =>
      (s.handle("POST", `/api/payment/refund/${payment.paymentId}`), s.handle("POST", `/api/payment/refund/${payment.paymentId}`)),
  },
  "GET /api/test/order/batch?count=N": {
    ok: ({ s }) => s.handle("GET", "/api/test/order/batch?count=2"),
  },
};

/** What each route's answer carries on code 0: the data's type, as the table names it. */
const DATA = {
  Order: (d) => /^ORD-/.test(d.orderId) && typeof d.createdAt === "number",
  Payment: (d) => /^PAY-/.test(d.paymentId) && typeof d.paidAt === "number",
  BatchReport: (d) => ["count", "succeeded", "failed", "orderIds"].every((k) => k in d),
  null: (d) => d === null,
};

test("docs/api.md lists the eight routes, one row each", () => {
  const rows = tableRows();
  assert.deepEqual(rows.map((r) => `${r.method} ${r.path}`), Object.keys(PROVOKED));
});

test("each row's answer is the route's data on code 0", () => {
  for (const row of tableRows()) {
    const answer = PROVOKED[`${row.method} ${row.path}`].ok(fixture());
    assert.equal(answer.code, 0, `${row.method} ${row.path}: ${answer.msg}`);
    const [type] = Object.keys(DATA).filter((name) => row.answer.replaceAll("`", "").startsWith(name));
    assert.ok(type, `${row.method} ${row.path}: the table's answer ${row.answer} names no known data`);
    assert.ok(DATA[type](answer.data), `${row.method} ${row.path}: data is not ${type}: ${JSON.stringify(answer.data)}`);
    const status = /status `([A-Z]+)`/.exec(row.answer)?.[1];
    if (status) assert.equal(answer.data.status, status, `${row.method} ${row.path}: the status the table names`);
  }
});

test("each row lists exactly the business errors its route gives, each as the service says it", () => {
  for (const row of tableRows()) {
    const route = `${row.method} ${row.path}`;
    const provoked = Object.keys(PROVOKED[route]).filter((k) => k !== "ok");
    assert.deepEqual(row.errors, provoked, `${route}: the table's business errors`);
    for (const msg of provoked) {
      const { s, order, payment } = fixture();
      const answer = PROVOKED[route][msg]({ s, order, payment });
      const said = typeof answer.msg === "string" ? answer.msg.replace(/\b(ORD|PAY)-[A-Z0-9]{8}\b/g, "$1-…") : answer.msg;
      assert.deepEqual([answer.code, said, answer.data], [-1, msg, null], route);
    }
  }
});
