// Pact provider states: POST /__orderpay/provider-states takes the body
// Pact's verifier sends for a state change ({state, params, action}) and
// sets a session's service up for the interaction to come, so `orderpay
// serve` can be verified as a Pact provider. When the session starts fresh
// is decided here: the first setup of an interaction, and a teardown;
// what each state sets up is provider_state_setters.js's.
import { setterOf } from "./provider_state_setters.js";
import { sendError, sendJson } from "./reply.js";

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

