// The admin API under /__orderpay/: what the JS API offers beside requests
// (logs, spans, exports, snapshots, forceNext, reset, the clock, the
// failure scenario, the payments awaiting a challenge or the clock), and
// Pact's provider states, over HTTP for tests in any language. Answers are
// the {code, msg, data} envelope, except the documents (NDJSON, OTLP/JSON,
// the snapshot, the OpenAPI documents) and a state change's values, which
// come as themselves.
import { readBody, TOO_LARGE, utf8 } from "./body.js";
import { presets } from "../node.js";
import { rendererOf } from "../export_test.js";
import { logsText, objectText, otlpText, spansText, successText } from "./core_json.js";
import { sendData, sendError, sendText } from "./reply.js";
import { sessionPaths, sessionTarget } from "./session_admin.js";
import { addWebhook, listEvents, listWebhooks, removeWebhook, resendDelivery } from "./admin_webhooks.js";
import { SERVER_ROUTES } from "./session_name.js";
import { changeState } from "./provider_states.js";

export const PREFIX = "/__orderpay";
/** The bodies the admin routes take at most (the document says them too). */
export const SMALL_BODY = 64 * 1024;
export const SNAPSHOT_BODY = 256 * 1024 * 1024;
/** A query's log position (?after=SEQ). */
export const SEQ = /^\d{1,15}$/;

/** Reads a JSON object body; answers the 4xx itself and returns undefined when it cannot. */
async function jsonBody(req, res, { limit = SMALL_BODY, optional = false } = {}) {
  const raw = await readBody(req, limit);
  if (raw === TOO_LARGE) {
    res.setHeader("connection", "close");
    return void sendError(res, 413, `body: over the ${limit} bytes this route takes`);
  }
  if (raw === null) return optional ? {} : void sendError(res, 400, "body: expected a JSON object, got nothing");
  const text = utf8(raw);
  if (text === null) return void sendError(res, 400, "body: not valid UTF-8 text");
  if (!text.trim() && optional) return {};
  let value;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return void sendError(res, 400, `body: not JSON (${error.message})`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return void sendError(res, 400, `body: expected a JSON object, got ${Array.isArray(value) ? "an array" : JSON.stringify(value)}`);
  }
  return value;
}

function wholeQuery(res, params, name) {
  const text = params.get(name);
  if (text === null) return null;
  if (!SEQ.test(text)) return void sendError(res, 400, `${name}: expected a whole number, got ${JSON.stringify(text)}`);
  return Number(text);
}

// The handlers, one per route, each given the server's context first.

function health(ctx, req, res) {
  sendData(res, {
    status: "ok",
    service: "orderpay",
    version: ctx.version,
    base: ctx.base || "/",
    generation: ctx.instance.generation,
    uptimeMs: Math.round(performance.now() - ctx.started),
    adminToken: ctx.access.token !== null,
  });
}

/** Why a session restored from a snapshot has no run to copy, in an HTTP client's terms. */
const RESTORED_SESSION =
  "export-test: this session's state came from a snapshot (PUT /__orderpay/snapshot, or --state when the server started), which holds the orders and payments, not the calls that made them: reset the session (POST /__orderpay/reset) and run the story again to copy it";

/** Why a session's run cannot be copied, in an HTTP client's terms: the route's name, not the method's. */
function refusedExport(error) {
  if (error.reason === "restored") return RESTORED_SESSION;
  return error.refusal === undefined ? error.message : `export-test: ${error.refusal}`;
}

/**
 * The session's run as a runnable test (?format=curl, vitest or
 * playwright): service.exportTest's text. A bad format is a 400, checked
 * first by exportTest's own check; whatever else stops the export (a run
 * that cannot be replayed) a 409.
 */
function exportTest(ctx, req, res, params) {
  const format = params.get("format") ?? "curl";
  try {
    rendererOf(format);
  } catch (error) {
    return sendError(res, 400, error.message);
  }
  let text;
  try {
    text = ctx.instance.service.exportTest(format);
  } catch (error) {
    return sendError(res, 409, refusedExport(error));
  }
  sendText(res, format === "curl" ? "text/x-shellscript; charset=utf-8" : "text/javascript; charset=utf-8", text);
}

/** The records as the core wrote them, placed in the envelope as they are. */
function logs(ctx, req, res, params) {
  const after = wholeQuery(res, params, "after");
  if (after === undefined) return;
  const service = ctx.instance.service;
  const data = objectText([
    ["records", logsText(service, after)],
    ["droppedLogs", String(service.droppedLogs)],
    ["generation", String(ctx.instance.generation)],
  ]);
  sendText(res, "application/json", successText(data));
}

function events(ctx, req, res, params) {
  const after = wholeQuery(res, params, "after");
  if (after === undefined) return;
  if (req.method === "HEAD") return void res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8" }).end();
  const resumed = Number(req.headers["last-event-id"]);
  ctx.events.open(req, res, after ?? (Number.isSafeInteger(resumed) && resumed > 0 ? resumed : 0));
}

function counters(ctx, req, res) {
  const service = ctx.instance.service;
  sendData(res, { counters: service.counters(), droppedLogs: service.droppedLogs, generation: ctx.instance.generation });
}

function clearLogs(ctx, req, res) {
  ctx.instance.service.clearLogs();
  ctx.changed();
  sendData(res, { droppedLogs: ctx.instance.service.droppedLogs });
}

/** The spans, or one trace's, as the core wrote them; the core checks the trace id. */
function spans(ctx, req, res, params) {
  let text;
  try {
    text = spansText(ctx.instance.service, params.get("traceId"));
  } catch (error) {
    // The core's TypeError names traceId: an id it never gives.
    return sendError(res, 400, error.message);
  }
  sendText(res, "application/json", successText(text));
}

async function replaceSnapshot(ctx, req, res) {
  const raw = await readBody(req, SNAPSHOT_BODY);
  if (raw === TOO_LARGE) {
    res.setHeader("connection", "close");
    return sendError(res, 413, `body: a snapshot of at most ${SNAPSHOT_BODY} bytes`);
  }
  const text = raw === null ? null : utf8(raw);
  if (text === null) return sendError(res, 400, `body: expected the snapshot text, got ${raw === null ? "nothing" : "bytes that are not UTF-8"}`);
  try {
    ctx.instance.replace(text);
  } catch (error) {
    return sendError(res, 400, error.message.startsWith("snapshot") ? error.message : `snapshot: ${error.message}`);
  }
  ctx.changed();
  sendData(res, { generation: ctx.instance.generation, settings: ctx.instance.service.settings });
}

/** The service's clock as the core says it: its time, whether it is virtual, and the soonest change of a payment due. */
export function clockOf(service) {
  return { now: service.now, virtualClock: service.virtualClock, nextDueAt: service.nextDueAt };
}

function settings(ctx, req, res) {
  const service = ctx.instance.service;
  sendData(res, {
    settings: service.settings,
    forced: service.forced,
    ...clockOf(service),
    droppedLogs: service.droppedLogs,
    generation: ctx.instance.generation,
  });
}

async function forceNext(ctx, req, res) {
  const body = await jsonBody(req, res);
  if (body === undefined) return;
  try {
    ctx.instance.service.forceNext(body.outcome, body.count ?? 1);
  } catch (error) {
    // The service says what an outcome must be; the answer adds what came.
    const got = error.message.startsWith("outcome:") ? `, got ${JSON.stringify(body.outcome ?? null)}` : "";
    return sendError(res, 400, error.message + got);
  }
  ctx.changed();
  sendData(res, { forced: ctx.instance.service.forced });
}

async function reset(ctx, req, res) {
  const body = await jsonBody(req, res, { optional: true });
  if (body === undefined) return;
  try {
    ctx.instance.reset(body);
  } catch (error) {
    return sendError(res, 400, error.message);
  }
  ctx.changed();
  sendData(res, { generation: ctx.instance.generation, settings: ctx.instance.service.settings });
}

async function advance(ctx, req, res) {
  const body = await jsonBody(req, res);
  if (body === undefined) return;
  if (!Number.isSafeInteger(body.ms) || body.ms < 0) {
    return sendError(res, 400, `ms: expected a whole number of milliseconds from 0, got ${JSON.stringify(body.ms ?? null)}`);
  }
  try {
    // Resolves, in due order, every payment's plan that came due (a pending
    // payment, a challenge answering itself, a reversal); on the wall clock
    // ms moves nothing, and what is due now resolves.
    ctx.instance.service.advance(body.ms);
  } catch (error) {
    // Past the last time a Date holds: refused, the clock unmoved.
    return sendError(res, 400, error.message);
  }
  ctx.changed();
  // The answer comes once the webhook deliveries it set going are settled: a test then checks its receiver.
  await ctx.instance.service.webhooksSettled();
  sendData(res, clockOf(ctx.instance.service));
}

/** The payments awaiting a challenge (REQUIRES_ACTION), in id order. */
function challenges(ctx, req, res) {
  const service = ctx.instance.service;
  sendData(res, { challenges: service.challenges(), now: service.now });
}

/** The payments in progress (REQUIRES_ACTION or PENDING), whoever paid them, in id order, and the clock. */
function inProgress(ctx, req, res) {
  const service = ctx.instance.service;
  sendData(res, { payments: service.inProgress(), ...clockOf(service) });
}

/**
 * Answers a challenge as the buyer would on its page: pass, fail or
 * abandon. A wrong outcome is a 400 naming it; no such payment a 404; one
 * that awaits no challenge (it has another status) a 409.
 */
async function completeChallenge(ctx, req, res, params, { paymentId }) {
  const body = await jsonBody(req, res);
  if (body === undefined) return;
  const service = ctx.instance.service;
  let payment;
  try {
    payment = service.completeChallenge(paymentId, body.outcome);
  } catch (error) {
    if (error instanceof RangeError) return sendError(res, unknownPayment(error.message) ? 404 : 409, error.message);
    return sendError(res, 400, error.message);
  }
  ctx.changed();
  sendData(res, { payment, now: service.now });
}

/** Whether the core's refusal of a paymentId says there is no such payment (else it has another status). */
function unknownPayment(message) {
  return /\b(no payment|not found|unknown|no such)\b/i.test(message);
}

/** A scenario document of 100 rules, each with its longest strings, stays well under this. */
export const SCENARIO_BODY = 1024 * 1024;

/** The scenario in force: {document, setAt, rules: [{name, seen, fired}]}, or null. */
function scenario(ctx, req, res) {
  sendData(res, { scenario: ctx.instance.service.scenario });
}

/**
 * The 400 of a scenario body that is not JSON, saying what to send: a
 * preset's name as a JSON string (quoted), or a document; the names are
 * the package's presets.
 */
function scenarioNotJson(text, error) {
  const word = text.trim();
  const names = Object.keys(presets);
  const said = `body: not JSON (${error.message})`;
  if (Object.hasOwn(presets, word)) {
    return `${said}; a preset's name is a JSON string: send ${JSON.stringify(word)} with its quotes (curl -d '${JSON.stringify(word)}')`;
  }
  return `${said}; send a scenario document ({"rules":[...]}) or a preset's name in quotes, one of ${names.map((n) => JSON.stringify(n)).join(", ")}`;
}

/** Replaces the scenario with the body's: a document, or a preset's name as a JSON string. A bad one changes nothing. */
async function putScenario(ctx, req, res) {
  const raw = await readBody(req, SCENARIO_BODY);
  if (raw === TOO_LARGE) {
    res.setHeader("connection", "close");
    return sendError(res, 413, `body: a scenario of at most ${SCENARIO_BODY} bytes`);
  }
  const text = raw === null ? null : utf8(raw);
  if (text === null) return sendError(res, 400, `body: expected a scenario document or a preset name as JSON, got ${raw === null ? "nothing" : "bytes that are not UTF-8"}`);
  let given;
  try {
    given = JSON.parse(text);
  } catch (error) {
    return sendError(res, 400, scenarioNotJson(text, error));
  }
  if (given === null || (typeof given !== "object" && typeof given !== "string") || Array.isArray(given)) {
    return sendError(res, 400, `body: expected a scenario document (an object) or a preset name (a string), got ${Array.isArray(given) ? "an array" : JSON.stringify(given)}`);
  }
  try {
    ctx.instance.service.setScenario(given);
  } catch (error) {
    return sendError(res, 400, error.message.startsWith("scenario") ? error.message : `scenario: ${error.message}`);
  }
  ctx.changed();
  scenario(ctx, req, res);
}

function clearScenario(ctx, req, res) {
  ctx.instance.service.setScenario(null);
  ctx.changed();
  sendData(res, { scenario: null });
}

async function postWebhook(ctx, req, res) {
  const body = await jsonBody(req, res);
  if (body !== undefined) addWebhook(ctx, req, res, body);
}

/** A Pact verifier's state change: {state, params, action} (provider_states.js). */
async function providerStates(ctx, req, res) {
  const body = await jsonBody(req, res);
  if (body !== undefined) changeState(ctx, res, body);
}

/**
 * The admin API, the one table of its routes: [method, path, operationId,
 * handler(ctx, req, res, params)]. The router reads it, and so does
 * admin-openapi.js, which writes the document's paths from it: each
 * operationId names the operation that documents the route.
 */
const ROUTES = [
  ["GET", "/health", "health", health],
  ["GET", "/openapi.json", "gatewayOpenapi", (ctx, req, res) => sendText(res, "application/json", ctx.openapi)],
  ["GET", "/openapi-admin.json", "adminOpenapi", (ctx, req, res) => sendText(res, "application/json", ctx.adminOpenapi)],
  ["GET", "/logs", "logs", logs],
  ["GET", "/events", "events", events],
  ["GET", "/counters", "counters", counters],
  ["GET", "/logs.ndjson", "logsNdjson", (ctx, req, res) => sendText(res, "application/x-ndjson", ctx.instance.service.exportNdjson())],
  ["POST", "/logs/clear", "clearLogs", clearLogs],
  ["GET", "/spans", "spans", spans],
  ["GET", "/otlp", "otlp", (ctx, req, res) => sendText(res, "application/json", otlpText(ctx.instance.service))],
  ["GET", "/export-test", "exportTest", exportTest],
  ["GET", "/snapshot", "snapshot", (ctx, req, res) => sendText(res, "application/json", ctx.instance.service.snapshot())],
  ["PUT", "/snapshot", "restore", replaceSnapshot],
  ["GET", "/settings", "settings", settings],
  ["POST", "/force-next", "forceNext", forceNext],
  ["POST", "/reset", "reset", reset],
  ["POST", "/advance", "advance", advance],
  ["GET", "/challenges", "challenges", challenges],
  ["POST", "/challenges/{paymentId}", "completeChallenge", completeChallenge],
  ["GET", "/in-progress", "inProgress", inProgress],
  ["GET", "/scenario", "scenario", scenario],
  ["PUT", "/scenario", "setScenario", putScenario],
  ["DELETE", "/scenario", "clearScenario", clearScenario],
  ["GET", "/webhooks", "webhooks", listWebhooks],
  ["POST", "/webhooks", "addWebhook", postWebhook],
  ["GET", "/webhooks/events", "webhookEvents", listEvents],
  ["DELETE", "/webhooks/{id}", "removeWebhook", removeWebhook],
  ["POST", "/webhooks/deliveries/{id}/resend", "resendDelivery", resendDelivery],
  ["POST", "/provider-states", "providerStates", providerStates],
];

/** The admin routes of one server: [method, path, operationId, handler(req, res, params, values)]. */
export function adminRoutes(ctx) {
  return ROUTES.map(([method, path, operationId, handler]) => [
    method,
    path,
    operationId,
    (req, res, params, values) => handler(ctx, req, res, params, values),
  ]);
}

/**
 * Whether a route's path matches `sub`: the values of its template's
 * segments (`/challenges/{paymentId}`), {} for a plain path, or null.
 */
export function matchPath(template, sub) {
  if (!template.includes("{")) return template === sub ? {} : null;
  const want = template.split("/");
  const got = sub.split("/");
  if (want.length !== got.length) return null;
  const values = {};
  for (let i = 0; i < want.length; i++) {
    const name = /^\{(\w+)\}$/.exec(want[i])?.[1];
    if (name === undefined) {
      if (want[i] !== got[i]) return null;
    } else if (got[i] === "") return null;
    else values[name] = decoded(got[i]);
  }
  return values;
}

function decoded(segment) {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Answers a request under /__orderpay/; `session`: the one it names (null: the default). */
export async function answerAdmin(req, res, ctx, path, params, session = null) {
  let sub = path.slice(PREFIX.length) || "/";
  const every = ctx.adminRoutes;
  const open = SERVER_ROUTES.has(sub);
  if (!open) {
    const refused = ctx.access.check(req);
    if (refused) return sendError(res, refused[0], refused[1], refused[2]);
    if (ctx.sessions) {
      const target = sessionTarget(req, res, ctx.sessions, sub, session, path);
      if (target === null) return;
      ({ ctx, sub } = target);
    }
  }
  const routes = ctx.adminRoutes;
  const method = req.method === "HEAD" ? "GET" : req.method;
  const same = routes.filter(([, p]) => matchPath(p, sub) !== null);
  if (!same.length) {
    const paths = every.map(([, p]) => PREFIX + p);
    const list = [...new Set(ctx.sessions ? [...paths, ...sessionPaths(every)] : paths)].join(", ");
    return sendError(res, 404, `No admin route ${path}; the admin routes are ${list}`);
  }
  const route = same.find(([m]) => m === method);
  if (!route) {
    const allow = same.map(([m]) => m).join(", ");
    return sendError(res, 405, `method: ${req.method} is not allowed on ${path}; use ${allow}`, { allow });
  }
  await route[3](req, res, params, matchPath(route[1], sub));
}
