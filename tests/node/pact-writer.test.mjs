// service.exportPact (src/js/pact_writer.js) on runs of a real Service:
// each request an interaction, ids and times matched by form and what the
// client sent exactly, the run's orders, payments, outcomes and fired
// scenario rules as the provider states orderpay serve knows; what a pact
// cannot hold (a network fault) left out; bad options and a restored
// service refused. tests/server/pact.test.mjs verifies such a pact.
import assert from "node:assert/strict";
import { test } from "node:test";

import { Service } from "../../pkg/index.js";
import { JOURNAL_BOUND } from "../../pkg/run_journal.js";

const JSON_TYPE = { "content-type": "application/json" };
const PAIR = { consumer: "shop-web", provider: "orderpay" };

/** The typical flow of the spec, every payment drawn to succeed. */
function typicalFlow() {
  const s = new Service({ seed: 3, failureRate: 0, virtualTime: Date.UTC(2026, 0, 1) });
  const { orderId, createdAt } = s.handle("POST", "/api/order/create", { userId: "u1", price: 25, description: "tea" }, JSON_TYPE).data;
  s.handle("GET", `/api/order/${orderId}`);
  const { paymentId } = s.handle("POST", "/api/payment/pay", { orderId, amount: 25, paymentMethod: "CARD" }, JSON_TYPE).data;
  s.handle("POST", `/api/order/${orderId}/pay`);
  s.handle("POST", `/api/order/delete/${orderId}`);
  s.handle("GET", `/api/payment/${paymentId}`);
  s.handle("POST", `/api/payment/refund/${paymentId}`);
  s.handle("GET", `/api/payment/${paymentId}`);
  s.handle("GET", "/api/test/order/batch?count=2");
  return { s, orderId, paymentId, createdAt };
}

test("the typical flow: an interaction a request, the provider's ids and times matched by form, V3", () => {
  const { s, orderId, paymentId, createdAt } = typicalFlow();
  const pact = s.exportPact(PAIR);
  assert.deepEqual([pact.consumer, pact.provider, pact.metadata], [{ name: "shop-web" }, { name: "orderpay" }, { pactSpecification: { version: "3.0.0" } }]);
  assert.deepEqual(pact.interactions.map((i) => i.description), [
    "1. POST /api/order/create", `2. GET /api/order/${orderId}`, "3. POST /api/payment/pay", `4. POST /api/order/${orderId}/pay`,
    `5. POST /api/order/delete/${orderId}`, `6. GET /api/payment/${paymentId}`,
    `7. POST /api/payment/refund/${paymentId}`, `8. GET /api/payment/${paymentId}`, "9. GET /api/test/order/batch",
  ]);
  const [create] = pact.interactions;
  assert.deepEqual(create.providerStates, []);
  assert.deepEqual(create.request, { method: "POST", path: "/api/order/create", headers: JSON_TYPE, body: { userId: "u1", price: 25, description: "tea" } });
  assert.deepEqual(create.response.headers, { "Content-Type": "application/json" });
  assert.deepEqual(create.response.body, { code: 0, msg: "success", data: { orderId, userId: "u1", price: 25, status: "CREATED", description: "tea", createdAt } });
  assert.deepEqual(create.response.matchingRules.body, {
    "$.data.orderId": { combine: "AND", matchers: [{ match: "regex", regex: "^ORD-[A-Z0-9]{8}$" }] },
    "$.data.price": { combine: "AND", matchers: [{ match: "number" }] },
    "$.data.createdAt": { combine: "AND", matchers: [{ match: "integer" }] },
  });
  assert.deepEqual(pact.interactions[8].request.query, { count: ["2"] });
  assert.deepEqual(JSON.parse(JSON.stringify(pact)), pact, "JSON keeps all of it");
});

test("the states: the run's orders (paid once marked), its payments (refunded once refunded), the drawn outcome of a pay", () => {
  const { s, orderId, paymentId } = typicalFlow();
  const [, read, pay, mark, remove, readPayment, refund, readRefunded] = s.exportPact(PAIR).interactions;
  const order = { userId: "u1", price: 25, description: "tea" };
  assert.deepEqual(read.providerStates, [{ name: `an order ${orderId} exists`, params: order }]);
  assert.deepEqual(pay.providerStates, [{ name: `an order ${orderId} exists`, params: order }, { name: "payments succeed" }]);
  assert.deepEqual(pay.response.matchingRules.body["$.data.paymentId"].matchers, [{ match: "regex", regex: "^PAY-[A-Z0-9]{8}$" }]);
  assert.deepEqual(pay.response.matchingRules.body["$.data.paidAt"].matchers, [{ match: "integer" }]);
  assert.deepEqual(mark.providerStates, [{ name: `an order ${orderId} exists`, params: order }]);
  assert.deepEqual(remove.providerStates, [{ name: `an order ${orderId} exists`, params: { ...order, status: "PAID" } }]);
  assert.equal(remove.response.body.msg, "Paid order cannot be deleted");
  const payment = { ...order, status: "PAID", orderId, amount: 25, paymentMethod: "CARD" };
  assert.deepEqual(readPayment.providerStates, [{ name: "a payment exists", params: payment }]);
  assert.deepEqual(readPayment.request, {
    method: "GET",
    path: `/api/payment/${paymentId}`,
    generators: { path: { type: "ProviderState", expression: "/api/payment/${paymentId}", dataType: "STRING" } },
  });
  assert.equal(refund.request.generators.path.expression, "/api/payment/refund/${paymentId}");
  assert.deepEqual(readRefunded.providerStates, [{ name: "a payment exists", params: { ...payment, refunded: true } }]);
});

test("a scenario's rule that fired is a state of that rule alone, its counting left out; a drawn decline is payments fail", () => {
  const s = new Service({ seed: 4, failureRate: 0 });
  const { orderId } = s.handle("POST", "/api/order/create", { userId: "u1", price: 5 }, JSON_TYPE).data;
  // request(), whose answers carry their headers (x-orderpay-rule names the rule that fired); handle() gives the envelope only.
  const pay = () => s.request("POST", "/api/payment/pay", { orderId, amount: 5, paymentMethod: "CARD" }, JSON_TYPE);
  s.setScenario("insufficient-funds");
  pay();
  // As JSON text, which setScenario takes too.
  s.setScenario(JSON.stringify({ name: "limits", rules: [{ name: "every 2nd limited", when: { route: "order", every: 2 }, then: { kind: "http", status: 429, retryAfter: 1 } }] }));
  s.request("GET", `/api/order/${orderId}`);
  s.request("GET", `/api/order/${orderId}`);
  s.setScenario(null);
  s.forceNext("failure", 1);
  pay();
  // A rule that matches a header of the caller's own, and a scenario for one request (X-Orderpay-Scenario).
  const slow = { name: "slow case", when: { route: "order", header: { name: "X-Test-Case", value: "slow" } }, then: { kind: "http", status: 503 } };
  s.setScenario({ name: "by header", rules: [slow] });
  s.request("GET", `/api/order/${orderId}`, undefined, { "X-Test-Case": "slow", accept: "application/json", traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01" });
  s.setScenario(null);
  s.request("POST", "/api/payment/pay", JSON.stringify({ orderId, amount: 5, paymentMethod: "CARD" }), { ...JSON_TYPE, "X-Orderpay-Scenario": "insufficient-funds" });
  const [, declined, passed, limited, drawn, byHeader, perRequest] = s.exportPact(PAIR).interactions;
  assert.deepEqual(declined.providerStates.slice(1), [{
    name: 'the scenario rule "every payment declined" fires',
    params: { scenario: { name: "every payment declined", rules: [{ name: "every payment declined", when: { route: "/api/payment/pay" }, then: { kind: "decline", code: "insufficient_funds" } }] } },
  }]);
  assert.deepEqual(declined.response.headers, { "Content-Type": "application/json", "x-orderpay-decline-code": "insufficient_funds" });
  assert.equal(passed.providerStates.length, 1, "the rule did not fire: the order alone");
  assert.deepEqual(limited.providerStates[1].params.scenario.rules, [{ name: "every 2nd limited", when: { route: "order" }, then: { kind: "http", status: 429, retryAfter: 1 } }]);
  assert.deepEqual([limited.response.status, limited.response.headers["retry-after"]], [429, "1"]);
  assert.deepEqual(drawn.providerStates.slice(1), [{ name: "payments fail" }]);
  // The headers the service reads are kept, and the one the fired rule matched on; tracing is left out.
  assert.deepEqual(byHeader.request.headers, { accept: "application/json", "x-test-case": "slow" });
  assert.deepEqual(byHeader.providerStates[1].params.scenario.rules, [slow]);
  assert.equal(byHeader.response.status, 503);
  // The preset's name reaches the service as its document's text, which the pact then sends.
  const { "x-orderpay-scenario": oneRequest, ...others } = perRequest.request.headers;
  assert.deepEqual([others, JSON.parse(oneRequest).name], [JSON_TYPE, "insufficient-funds"]);
  assert.equal(perRequest.response.headers["x-orderpay-decline-code"], "insufficient_funds");
});

test("what a pact cannot hold is left out, and bad options or a restored service are refused", () => {
  const s = new Service({ seed: 5, scenario: { rules: [{ name: "lost", when: { route: "order" }, then: { kind: "network", fault: "reset" } }] } });
  s.request("POST", "/api/order/create", JSON.stringify({ userId: "u1", price: 5 }), JSON_TYPE);
  assert.deepEqual(s.exportPact(PAIR).interactions, [], "a network fault: nothing a pact holds");
  assert.throws(() => s.exportPact({ consumer: "", provider: "orderpay" }), { name: "TypeError", message: /^options\.consumer: expected the pacticipant's name/ });
  assert.throws(() => s.exportPact(), { name: "TypeError", message: /^options\.consumer/ });
  assert.throws(() => s.exportPact({ consumer: "web" }), { name: "TypeError", message: /^options\.provider/ });
  // The page tells a restored service's refusal by its reason, not its words.
  assert.throws(() => Service.restore(s.snapshot()).exportPact(PAIR), (e) => /^Error: exportPact: this Service was made by Service.restore/.test(e.stack) && e.reason === "restored");
  // Past the journal's bound, the refusal names exportPact too, in its stack (what an uncaught error prints) as in its message.
  const long = new Service({ seed: 5 });
  for (let i = 0; i <= JOURNAL_BOUND; i++) long.handle("GET", "/api/payment/PAY-NONE");
  assert.throws(() => long.exportPact(PAIR), (e) => e instanceof RangeError && e.stack.startsWith(`RangeError: exportPact: this run has more than ${JOURNAL_BOUND} steps`));
  long.free();
  s.free();
});
