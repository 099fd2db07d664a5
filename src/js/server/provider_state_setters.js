// What each Pact provider state sets up in a session's service: an order
// under a chosen id, a payment, the next payments' outcome, a scenario.
// Each state's params are checked before anything changes; its setter then
// returns the values a pact may use (Pact's fromProviderState).
import { presets, Service } from "../node.js";
import { described } from "../request_parts.js";
import { rawOf, refuseRun } from "../service.js";

/** The phrases, for the 400 of a state there is none for. */
const FORMS = [
  '"an order ORD-XXXXXXXX exists" (8 of A-Z 0-9)',
  '"an order exists" (params: orderId, userId, price, description, status)',
  '"a payment exists" (params: orderId, amount, paymentMethod, refunded)',
  '"payments succeed"',
  '"payments fail"',
  '"payments are declined for insufficient funds"',
  '"the third party is down"',
  "a preset's name",
  "the name of the scenario the server started with",
  "any name with params.scenario (a scenario document or a preset's name)",
];

/** The order a state makes when its params say nothing else. */
const ORDER = { userId: "pact-consumer", price: 100, description: "made by a provider state" };

/** The phrases that set a preset, beside the presets' own names. */
const SAID = new Map([
  ["payments are declined for insufficient funds", "insufficient-funds"],
  ["the third party is down", "third-party-down"],
]);

const JSON_TYPE = { "content-type": "application/json" };
/** A state's own payment succeeds whatever the interaction forced for the payments to come. */
const PAY_HEADERS = { ...JSON_TYPE, "x-sim-outcome": "success" };

/** Why a session a state placed an order in has no run to copy, in an HTTP client's terms. */
const PLACED =
  "a Pact provider state set this session up (an order placed under a chosen id), which a copy cannot replay: reset the session (POST /__orderpay/reset) and run the story again to copy it";

/** How many payment attempts "payments succeed" and "payments fail" decide: more than an interaction makes. */
const FORCED = 1000;

/**
 * What sets `state` up: fn(service) returning the values Pact may put in
 * the interaction (fromProviderState), or the 400's msg for no such state
 * or a bad param.
 */
export function setterOf(ctx, state, params) {
  if (params.scenario !== undefined) return scenarioSetter(params.scenario, true);
  const named = /^an order (\S+) exists$/i.exec(state);
  if (named) return orderSetter({ ...params, orderId: named[1] });
  if (/^an order exists$/i.test(state)) return orderSetter(params);
  if (/^a payment exists$/i.test(state)) return paymentSetter(params);
  const forced = /^payments (succeed|fail)$/i.exec(state);
  if (forced) return forcing(forced[1].toLowerCase() === "succeed" ? "success" : "failure");
  const lower = state.toLowerCase();
  const preset = SAID.get(lower) ?? (Object.hasOwn(presets, lower) ? lower : null);
  if (preset !== null) return scenarioSetter(preset);
  const started = ctx.instance.options.scenario;
  if (started && typeof started === "object" && started.name === state) return scenarioSetter(started);
  return `state: no provider state ${described(state)}; the states are ${FORMS.join(", ")}; the presets are ${Object.keys(presets).join(", ")}`;
}

/** The next payment attempts end as `outcome`. */
function forcing(outcome) {
  return (service) => {
    service.forceNext(outcome, FORCED);
    return { forced: FORCED };
  };
}

/** Sets a scenario; one from params is checked first on a service of its own, so a bad one changes nothing. */
function scenarioSetter(scenario, given = false) {
  if (given) {
    try {
      new Service({ scenario }).free();
    } catch (error) {
      return `params.${error.message.startsWith("scenario") ? error.message : `scenario: ${error.message}`}`;
    }
  }
  return (service) => {
    service.setScenario(scenario);
    return { scenario: typeof scenario === "string" ? scenario : (scenario.name ?? "") };
  };
}

/**
 * The order the params describe, checked before anything changes; the
 * setter places it under its orderId or the next free ORD-PACTnnnn (PAID
 * with params.status "PAID"), and gives its fields as the values.
 */
function orderSetter(params) {
  const order = checkedOrder({ ...ORDER, ...params });
  return typeof order === "string" ? order : (service) => placed(service, order);
}

/** Refuses export-test on `service`: orders placed under chosen ids are past its run's journal. */
export function refuseCopies(service) {
  refuseRun(service, PLACED, "provider-state");
}

function placed(service, order) {
  refuseCopies(service);
  const raw = rawOf(service);
  const place = (id) => raw.placeOrder(id, order.userId, order.price, order.description);
  const [orderId, createdAt] = order.orderId === undefined ? firstFree(place) : [order.orderId, place(order.orderId)];
  if (createdAt === undefined) {
    throw new RangeError(`orderId: ${orderId} is taken (this session issued it already) or the session holds --max-orders orders`);
  }
  const marked = order.status === "PAID" ? service.handle("POST", `/api/order/${orderId}/pay`) : { code: 0 };
  if (marked.code !== 0) throw new RangeError(`the order was not marked paid: ${marked.msg}`);
  const { userId, price, description } = order;
  return { orderId, userId, price, status: order.status ?? "CREATED", description, createdAt };
}

/**
 * The order the params describe as the core reads it (a null description
 * is ""), or what is wrong with it: the core's own refusal, asked of a
 * scratch service (the create route's for the fields, placeOrder's for the
 * id), so no rule of the core is restated.
 */
function checkedOrder(order) {
  if (order.status !== undefined && order.status !== "CREATED" && order.status !== "PAID") {
    return `params.status: expected "CREATED" or "PAID", got ${described(order.status)}`;
  }
  if (order.orderId !== undefined && typeof order.orderId !== "string") {
    return `orderId: expected an order id (a string), got ${described(order.orderId)}`;
  }
  return scratch((service) => {
    const { userId, price, description } = shallow(order);
    const made = service.handle("POST", "/api/order/create", { userId, price, description }, JSON_TYPE);
    if (made.code !== 0) return `params.${made.msg}`;
    const read = { ...order, userId: made.data.userId, price: made.data.price, description: made.data.description };
    const id = order.orderId;
    if (id !== undefined && id !== made.data.orderId && rawOf(service).placeOrder(id, read.userId, read.price, read.description) === undefined) {
      return `orderId: expected ORD- and 8 of A-Z 0-9 (ORD-PACT0001), got ${described(id)}`;
    }
    return read;
  });
}

/**
 * The fields with an object or array in place of an empty one: the core
 * refuses it by its kind all the same, and one nested deep is never
 * turned into text.
 */
function shallow(fields) {
  const out = {};
  for (const [key, value] of Object.entries(fields)) out[key] = value !== null && typeof value === "object" ? (Array.isArray(value) ? [] : {}) : value;
  return out;
}

/** What `check(service)` says of a fresh scratch service, which is then freed. */
function scratch(check) {
  const service = new Service({ seed: 1, failureRate: 0 });
  try {
    return check(service);
  } finally {
    service.free();
  }
}

/** ORD-PACT0001, ORD-PACT0002, ...: the first this session has not issued, and its createdAt. */
function firstFree(place) {
  for (let n = 1; n <= 9999; n++) {
    const id = `ORD-PACT${String(n).padStart(4, "0")}`;
    const at = place(id);
    if (at !== undefined) return [id, at];
  }
  return ["ORD-PACT9999", undefined];
}

/**
 * A SUCCESS payment (refunded with params.refunded) of the order
 * params.orderId, placed first unless the session has it; its id is the
 * service's own, so a pact reads it with fromProviderState("${paymentId}").
 */
function paymentSetter(params) {
  const { amount = params.price ?? ORDER.price, paymentMethod = "CARD", refunded = false, ...rest } = params;
  const order = checkedOrder({ ...ORDER, ...rest });
  const problem = typeof order === "string" ? order : (refundedProblem(refunded) ?? paymentProblem(amount, paymentMethod));
  if (problem) return problem;
  return (service) => {
    const have = order.orderId !== undefined && service.handle("GET", `/api/order/${order.orderId}`).code === 0;
    const orderId = have ? order.orderId : placed(service, order).orderId;
    const paid = service.handle("POST", "/api/payment/pay", { orderId, amount, paymentMethod }, PAY_HEADERS);
    if (paid.code !== 0) throw new RangeError(`the payment was not made: ${paid.msg}`);
    if (!refunded) return paid.data;
    const refund = service.handle("POST", `/api/payment/refund/${paid.data.paymentId}`);
    if (refund.code !== 0) throw new RangeError(`the payment was not refunded: ${refund.msg}`);
    return { ...paid.data, status: service.handle("GET", `/api/payment/${paid.data.paymentId}`).data.status };
  };
}

function refundedProblem(refunded) {
  return typeof refunded === "boolean" ? null : `params.refunded: expected true or false, got ${described(refunded)}`;
}

/** The pay route's refusal of the amount or the method, asked of a scratch service, or null. */
function paymentProblem(amount, paymentMethod) {
  return scratch((service) => {
    const { orderId } = service.handle("POST", "/api/order/create", { userId: ORDER.userId, price: ORDER.price }, JSON_TYPE).data;
    const paid = service.handle("POST", "/api/payment/pay", shallow({ orderId, amount, paymentMethod }), JSON_TYPE);
    return paid.code === 0 ? null : `params.${paid.msg}`;
  });
}
