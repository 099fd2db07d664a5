// Pact provider states: POST /__orderpay/provider-states takes the body
// Pact's verifier sends for a state change ({state, params, action}) and
// sets a session's service up for the interaction to come, so `orderpay
// serve` can be verified as a Pact provider. When the session starts fresh
// is decided here: the first setup of an interaction, and a teardown;
// what each state sets up is provider_state_setters.js's.
import { described } from "../request_parts.js";
import { refuseCopies, setterOf } from "./provider_state_setters.js";
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
  const instance = ctx.instance;
  if (action === "teardown") {
    if (!continues(instance, "teardown")) instance.reset();
    remember(instance, "teardown");
    ctx.changed();
    return sendJson(res, 200, {});
  }
  const state = body.state.trim();
  // An interaction with no state: the verifier sends an empty one, and the session is made fresh.
  const set = state === "" ? () => ({}) : setterOf(ctx, state, body.params ?? {});
  if (typeof set === "string") return sendError(res, 400, set);
  let values;
  try {
    values = continues(instance, "setup") ? addTo(instance, set) : freshWith(instance, set);
  } catch (error) {
    ctx.changed();
    return sendError(res, 400, `state ${described(state)}: ${error.message}`);
  }
  remember(instance, "setup");
  ctx.changed();
  sendJson(res, 200, values);
}

function bodyProblem(body) {
  if (typeof body.state !== "string") {
    return `state: expected the provider state's name (a string; "" for none), got ${described(body.state ?? null)}`;
  }
  if (body.action !== undefined && body.action !== "setup" && body.action !== "teardown") {
    return `action: expected "setup" or "teardown", got ${described(body.action)}`;
  }
  const params = body.params;
  if (params !== undefined && params !== null && (typeof params !== "object" || Array.isArray(params))) {
    return `params: expected an object, got ${described(params)}`;
  }
  return null;
}

/**
 * Whether this change continues the one before it on an untouched session:
 * a setup after a setup is the same interaction's next state; a teardown
 * after a teardown finds the session fresh already.
 */
function continues(instance, action) {
  const last = lastChange.get(instance);
  return Boolean(last && last.generation === instance.generation && last.requests === requestsOf(instance) && last.action === action);
}

/** An interaction's first setup: made on a fresh service, which replaces the session's only once it is set up. */
function freshWith(instance, set) {
  const service = instance.fresh();
  let values;
  try {
    values = set(service);
  } catch (error) {
    service.free();
    throw error;
  }
  instance.install(service);
  return values;
}

/**
 * An interaction's next setup, made on the session's service; one that
 * fails midway puts the session back as it was (its snapshot, and its run
 * so export-test still copies it).
 */
function addTo(instance, set) {
  const before = { snapshot: instance.service.snapshot(), run: instance.service.run() };
  try {
    return set(instance.service);
  } catch (error) {
    instance.replace(before.snapshot);
    instance.service.resumeRun(before.run);
    // The interaction's first setup made the session fresh: only a provider state can have refused its run.
    if (before.run.restored === true) refuseCopies(instance.service);
    // The session is as the setup before left it: the interaction's next state still adds to it.
    remember(instance, "setup");
    throw error;
  }
}

function remember(instance, action) {
  lastChange.set(instance, { generation: instance.generation, requests: requestsOf(instance), action });
}

function requestsOf(instance) {
  return instance.service.counters().requests;
}

