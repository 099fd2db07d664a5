// The runs that tests/server/copy-as-test.test.mjs, the compat suite
// (tests/compat/run.mjs) and tests/bench/copied-test.mjs export and run,
// and tests/node/copies.test.mjs reads: the typical flow (on the wall
// clock) and three failure stories (on a virtual clock). Each returns the
// Service it ran on, for service.exportTest.
const JSON_TYPE = { "content-type": "application/json" };
const START = Date.UTC(2026, 0, 1);

function send(service, method, path, body, headers = {}) {
  return service.request(method, path, body === undefined ? null : JSON.stringify(body), body === undefined ? headers : { ...JSON_TYPE, ...headers });
}

function order(service, price = 20) {
  return send(service, "POST", "/api/order/create", { userId: "u-1", price }).body.data.orderId;
}

/**
 * Create, pay, read the payment, mark the order paid, read it: on the wall
 * clock, and as the README calls handle(), with a plain object for a body
 * and no Content-Type (a copy must send one, or fetch and curl label the
 * body as text or a form).
 */
function typical(Service) {
  const service = new Service({ seed: 11, failureRate: 0 });
  const { orderId } = service.handle("POST", "/api/order/create", { userId: "u-1", price: 20 }).data;
  const paid = service.handle("POST", "/api/payment/pay", { orderId, amount: 20, paymentMethod: "CARD" }).data;
  send(service, "GET", `/api/payment/${paid.paymentId}`);
  send(service, "POST", `/api/order/${orderId}/pay`);
  send(service, "GET", `/api/order/${orderId}`);
  return service;
}

/** Insufficient funds, the retry replayed by its idempotency key, then a card that goes through. */
function declinedThenReplayed(Service) {
  const service = new Service({ seed: 12, failureRate: 0, virtualTime: START });
  const orderId = order(service);
  service.setScenario("insufficient-funds");
  const pay = { orderId, amount: 20, paymentMethod: "CARD" };
  send(service, "POST", "/api/payment/pay", pay, { "Idempotency-Key": "checkout-1" });
  send(service, "POST", "/api/payment/pay", pay, { "Idempotency-Key": "checkout-1" });
  service.setScenario(null);
  send(service, "POST", "/api/payment/pay", pay, { "Idempotency-Key": "checkout-2" });
  return service;
}

/** A 3-D Secure challenge the buyer abandons, the payment read after, and a forced failure on the retry. */
function challengeAbandoned(Service) {
  const service = new Service({ seed: 13, failureRate: 0, virtualTime: START });
  const orderId = order(service);
  const challenged = send(service, "POST", "/api/payment/pay", { orderId, amount: 20, paymentMethod: "CARD", cardNumber: "4000 0025 0000 3155" }).body.data;
  send(service, "GET", challenged.nextAction.url);
  service.completeChallenge(challenged.paymentId, "abandon");
  send(service, "GET", `/api/payment/${challenged.paymentId}`);
  service.forceNext("failure");
  send(service, "POST", "/api/payment/pay", { orderId, amount: 20, paymentMethod: "WALLET_A" });
  return service;
}

/** A lost connection, a third party down, then a pending payment the clock settles. */
function outageThenPending(Service) {
  const lose = { rules: [{ name: "drop one create", when: { route: "/api/order/create", nth: 1 }, then: { kind: "network", fault: "reset" } }] };
  const service = new Service({ seed: 14, failureRate: 0, virtualTime: START, scenario: lose });
  send(service, "POST", "/api/order/create", { userId: "u-1", price: 20 });
  const orderId = order(service);
  service.setScenario("third-party-down");
  send(service, "POST", "/api/payment/pay", { orderId, amount: 20, paymentMethod: "CARD" });
  service.advance(61_000);
  const pending = send(service, "POST", "/api/payment/pay", { orderId, amount: 20, paymentMethod: "CARD", cardNumber: "4000 0840 0000 0014" }).body.data;
  send(service, "GET", `/api/payment/${pending.paymentId}`);
  service.advance(30_000);
  send(service, "GET", `/api/payment/${pending.paymentId}`);
  return service;
}

/** name → a function of the Service class that runs the story and returns its service. */
export const STORIES = { typical, "declined-then-replayed": declinedThenReplayed, "challenge-abandoned": challengeAbandoned, "outage-then-pending": outageThenPending };
