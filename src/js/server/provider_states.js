// Pact provider states: POST /__orderpay/provider-states takes the body
// Pact's verifier sends for a state change ({state, params, action}) and
// sets a session's service up for the interaction to come, so `orderpay
// serve` can be verified as a Pact provider. Each state is a phrase the
// pact says ("an order ORD-PACT0001 exists", a preset's name); the first
// setup of an interaction makes the session fresh, a teardown too.
import { presets } from "../node.js";
import { rawOf } from "../service.js";
import { sendError, sendJson } from "./reply.js";

/** The phrases, for the 400 of a state there is none for. */
const FORMS = [
  '"an order ORD-XXXXXXXX exists" (8 of A-Z 0-9)',
  '"an order exists" (params: orderId, userId, price, description)',
  '"payments succeed"',
  '"payments are declined for insufficient funds"',
  '"the third party is down"',
  "a preset's name",
  "the name of the scenario the server started with",
];

/** The order a state makes when its params say nothing else. */
const ORDER = { userId: "pact-consumer", price: 100, description: "made by a provider state" };

/** The phrases that set a preset, beside the presets' own names. */
const SAID = new Map([
  ["payments are declined for insufficient funds", "insufficient-funds"],
  ["the third party is down", "third-party-down"],
]);

/**
 * Where each session was left by the last state change: {generation,
 * requests, action}. A setup joins the one before it when no request came
 * between them (the states of one interaction); otherwise it starts fresh.
 */
const lastChange = new WeakMap();

/** Handles one state change, the body read; answers the 200 or the 400. */
export function changeState(ctx, res, body) {
  const problem = bodyProblem(body);
  if (problem) return sendError(res, 400, problem);
  const action = body.action ?? "setup";
  const state = body.state.trim();
  const instance = ctx.instance;
  if (action === "teardown") {
    freshUnlessLeft(instance, "teardown");
    ctx.changed();
    return sendJson(res, 200, {});
  }
  // An interaction with no state: the verifier sends an empty one, and the session is made fresh.
  const set = state === "" ? () => ({}) : setterOf(ctx, state, body.params ?? {});
  if (typeof set === "string") return sendError(res, 400, set);
  freshUnlessLeft(instance, "setup");
  let values;
  try {
    values = set(instance.service);
  } catch (error) {
    return sendError(res, 400, `state ${JSON.stringify(state)}: ${error.message}`);
  } finally {
    remember(instance, "setup");
    ctx.changed();
  }
  sendJson(res, 200, values);
}

function bodyProblem(body) {
  if (typeof body.state !== "string") {
    return `state: expected the provider state's name (a string; "" for none), got ${JSON.stringify(body.state ?? null)}`;
  }
  if (body.action !== undefined && body.action !== "setup" && body.action !== "teardown") {
    return `action: expected "setup" or "teardown", got ${JSON.stringify(body.action)}`;
  }
  const params = body.params;
  if (params !== undefined && params !== null && (typeof params !== "object" || Array.isArray(params))) {
    return `params: expected an object, got ${JSON.stringify(params)}`;
  }
  return null;
}

/** Resets the session unless this change continues the one before it on an untouched session. */
function freshUnlessLeft(instance, action) {
  const last = lastChange.get(instance);
  const untouched = last && last.generation === instance.generation && last.requests === requestsOf(instance);
  // A setup after a setup: the same interaction's next state. A teardown after a teardown: already fresh.
  if (!(untouched && last.action === action)) instance.reset();
  remember(instance, action);
}

function remember(instance, action) {
  lastChange.set(instance, { generation: instance.generation, requests: requestsOf(instance), action });
}

function requestsOf(instance) {
  return instance.service.counters().requests;
}

/**
 * What sets `state` up: fn(service) returning the values Pact may put in
 * the interaction (fromProviderState), or the 400's msg for no such state.
 */
function setterOf(ctx, state, params) {
  const named = /^an order (\S+) exists$/i.exec(state);
  if (named) return orderSetter({ ...params, orderId: named[1] });
  if (/^an order exists$/i.test(state)) return orderSetter(params);
  if (/^payments succeed$/i.test(state)) return succeed;
  const preset = SAID.get(state.toLowerCase()) ?? (Object.hasOwn(presets, state) ? state : null);
  if (preset !== null) return scenarioSetter(preset);
  const started = ctx.instance.options.scenario;
  if (started && typeof started === "object" && started.name === state) return scenarioSetter(started);
  return `state: no provider state ${JSON.stringify(state)}; the states are ${FORMS.join(", ")}; the presets are ${Object.keys(presets).join(", ")}`;
}

/** The next payment attempts succeed, as many as an interaction could make. */
function succeed(service) {
  service.forceNext("success", SUCCEEDING);
  return { forced: SUCCEEDING };
}

const SUCCEEDING = 1000;

function scenarioSetter(scenario) {
  return (service) => {
    service.setScenario(scenario);
    return { scenario: typeof scenario === "string" ? scenario : scenario.name };
  };
}

/** An order id as the service issues them. */
const ORDER_ID = /^ORD-[A-Z0-9]{8}$/;

/**
 * The order the params describe, checked before anything changes; the
 * setter places it under its orderId or the next free ORD-PACTnnnn, and
 * gives its fields as the values.
 */
function orderSetter(params) {
  const order = { ...ORDER, ...params };
  const problem = orderProblem(order);
  if (problem) return problem;
  return (service) => {
    const raw = rawOf(service);
    const place = (id) => raw.placeOrder(id, order.userId, order.price, order.description);
    const [orderId, createdAt] = order.orderId === undefined ? firstFree(place) : [order.orderId, place(order.orderId)];
    if (createdAt === undefined) {
      throw new RangeError(`orderId: ${orderId} is taken (this session issued it already) or the session holds --max-orders orders`);
    }
    return { orderId, userId: order.userId, price: order.price, status: "CREATED", description: order.description, createdAt };
  };
}

function orderProblem(order) {
  for (const field of ["userId", "description"]) {
    if (typeof order[field] !== "string") return `params.${field}: expected a string, got ${JSON.stringify(order[field])}`;
  }
  if (!order.userId || order.userId.length > 64) return `params.userId: expected 1 to 64 characters, got ${JSON.stringify(order.userId)}`;
  if (order.description.length > 1000) return `params.description: expected at most 1000 characters, got ${order.description.length}`;
  if (typeof order.price !== "number" || !(order.price > 0) || !Number.isFinite(order.price)) {
    return `params.price: expected a number > 0, got ${JSON.stringify(order.price)}`;
  }
  if (order.orderId !== undefined && (typeof order.orderId !== "string" || !ORDER_ID.test(order.orderId))) {
    return `orderId: expected ORD- and 8 of A-Z 0-9 (ORD-PACT0001), got ${JSON.stringify(order.orderId)}`;
  }
  return null;
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
