// service.exportPact({ consumer, provider }): a run (runOf in service.js)
// as a pact of Pact specification V3, which `orderpay serve` verifies as a
// Pact provider (docs/pact.md). A pure function of the run's plain data:
// each request and its answer an interaction; what the run had set up
// before it (its orders and payments, the next payments' outcome, the
// scenario's rule that fired) its provider states, in the phrases of
// POST /__orderpay/provider-states. Internal: the package exports it as the
// Service's method.
import { presets } from "./presets.js";
import { ANSWER_HEADERS as READ_HEADERS } from "./read_headers.js";

/** The Pact specification version of the pacts written here. */
export const PACT_SPECIFICATION = "3.0.0";

const ID = /^(ORD|PAY)-[A-Z0-9]{8}$/;
const IN_PATH = /\b(ORD|PAY)-[A-Z0-9]{8}\b/g;
/** The answer headers a client reads; content-type and these when present. */
const ANSWER_HEADERS = ["x-orderpay-decline-code", "retry-after"];
/** A scenario rule's matchers: what a request must be. Its conditions (nth, every, forMs, ...) count and time, which one interaction cannot replay. */
const MATCHERS = ["route", "method", "userId", "paymentMethod", "amount", "orderId", "header"];

/** The pact of `run` between `consumer` and `provider` (names), as JSON-able data. */
export function pactOf(run, { consumer, provider }) {
  const story = { orders: new Map(), payments: new Map(), scenario: run.options.scenario ?? null };
  const interactions = [];
  run.steps.forEach((step) => {
    if (step.kind === "scenario") story.scenario = step.scenario;
    if (step.kind !== "request") return;
    const interaction = interactionOf(step, interactions.length + 1, story);
    if (interaction) interactions.push(interaction);
    learn(story, step);
  });
  return {
    consumer: { name: consumer },
    provider: { name: provider },
    interactions,
    metadata: { pactSpecification: { version: PACT_SPECIFICATION } },
  };
}

/** The answer's body as JSON, or undefined for one that is not (a network fault, the challenge page). */
function jsonOf(text) {
  try {
    return typeof text === "string" && text !== "" ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

/** One interaction, or null for an answer a pact cannot hold (a network fault, the challenge page's HTML). */
function interactionOf(step, n, story) {
  const { answer } = step;
  const answered = jsonOf(answer.body);
  if (answer.status === 0 || answer.fault?.kind === "network" || answered === undefined) return null;
  const [path, query] = step.path.split("?");
  const request = { method: step.method, path };
  if (query) request.query = queryOf(query);
  const body = step.body !== null && step.body !== "" ? (jsonOf(step.body) ?? step.body) : undefined;
  const states = statesOf(step, path, body, story);
  // The headers that change an answer, and the one a fired rule's `header` matcher read; tracing and transport are left out.
  const kept = [...READ_HEADERS, ...states.map((s) => s.params?.scenario?.rules[0].when.header?.name?.toLowerCase())];
  const headers = Object.fromEntries(kept.filter((h) => h !== undefined && step.headers[h] !== undefined).map((h) => [h, step.headers[h]]));
  if (Object.keys(headers).length) request.headers = headers;
  if (body !== undefined) request.body = body;
  const payment = states.find((s) => s.name === "a payment exists");
  if (payment) {
    request.generators = { path: { type: "ProviderState", expression: path.replace(payment.id, "${paymentId}"), dataType: "STRING" } };
    delete payment.id;
  }
  return {
    description: `${n}. ${step.method} ${path}`,
    providerStates: states,
    request,
    response: responseOf(answer, answered),
  };
}

function queryOf(text) {
  const out = {};
  for (const [name, value] of new URLSearchParams(text)) (out[name] ??= []).push(value);
  return out;
}

/** The answer: status, the headers a client reads, the body with its provider-made values matched by form. */
function responseOf(answer, body) {
  const headers = { "Content-Type": "application/json" };
  for (const name of ANSWER_HEADERS) if (answer.headers[name] !== undefined) headers[name] = answer.headers[name];
  const rules = {};
  matchersOf(body, "$", rules);
  const response = { status: answer.status, headers, body };
  if (Object.keys(rules).length) response.matchingRules = { body: rules };
  return response;
}

/**
 * The matching rules of a body, by JSON path: ids by their form, times
 * (`...At`, `now`) as integers, other numbers (money: 100.0 or 100) as
 * numbers, links by type; `code`, `msg`, statuses and the texts a client
 * sent are matched exactly.
 */
function matchersOf(value, path, rules, key = "") {
  const rule = (matcher) => (rules[path] = { combine: "AND", matchers: [matcher] });
  if (Array.isArray(value)) value.forEach((item, i) => matchersOf(item, `${path}[${i}]`, rules, key));
  else if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) matchersOf(v, `${path}.${k}`, rules, k);
  } else if (typeof value === "string" && ID.test(value)) rule({ match: "regex", regex: `^${value.slice(0, 3)}-[A-Z0-9]{8}$` });
  else if (typeof value === "string" && /^https?:\/\//.test(value)) rule({ match: "type" });
  else if (typeof value === "number" && (/At$/.test(key) || key === "now")) rule({ match: "integer" });
  else if (typeof value === "number" && path !== "$.code") rule({ match: "number" });
}

/** The provider states the step needs: its orders and payment, its payment's outcome, the scenario rule that fired. */
function statesOf(step, path, body, story) {
  const states = [];
  const named = new Set(path.match(IN_PATH) ?? []);
  if (typeof body?.orderId === "string") named.add(body.orderId);
  for (const id of named) {
    const order = story.orders.get(id);
    if (order) states.push({ name: `an order ${id} exists`, params: { ...order } });
    const payment = story.payments.get(id);
    if (payment) states.push({ name: "a payment exists", params: { ...story.orders.get(payment.orderId), ...payment }, id });
  }
  const fired = step.answer.headers["x-orderpay-rule"];
  const rule = fired === undefined ? null : ruleState(story.scenario, fired);
  if (rule) states.push(rule);
  else if (path === "/api/payment/pay" && fired === undefined) states.push(...outcomeState(step, body));
  return states;
}

/**
 * The spec's decline, its msg the same for every decline. With no scenario
 * set, a drawn decline has no decline-code header (a scenario's and a
 * card's do, and do not come here), and its code -1 and data null are
 * those of "Order not found" and "amount must be > 0" too: the msg is the
 * one fact that tells it.
 */
const DECLINE_MSG = "Third party payment failed";

/** "payments succeed" or "payments fail" for a pay the seeded draw decided (not a header, a test card or a scenario). */
function outcomeState(step, body) {
  if (step.headers["x-sim-outcome"] !== undefined || body?.cardNumber !== undefined) return [];
  const answer = jsonOf(step.answer.body);
  if (answer?.code === 0 && answer.data?.status === "SUCCESS") return [{ name: "payments succeed" }];
  if (answer?.code === -1 && answer.msg === DECLINE_MSG) return [{ name: "payments fail" }];
  return [];
}

/**
 * The state of a scenario's rule that fired: a scenario of that rule alone,
 * its matchers kept and its conditions left out, so it fires on the one
 * request the interaction sends.
 */
function ruleState(scenario, name) {
  // A preset's name, a document, or a document's JSON text, as setScenario takes them.
  const document = typeof scenario === "string" ? (presets[scenario] ?? jsonOf(scenario)) : scenario;
  const rule = document?.rules?.find((r) => r.name === name);
  if (!rule) return null;
  const when = Object.fromEntries(MATCHERS.filter((m) => rule.when?.[m] !== undefined).map((m) => [m, rule.when[m]]));
  return { name: `the scenario rule "${name}" fires`, params: { scenario: { name, rules: [{ name, when, then: rule.then }] } } };
}

/** What the step's answer made: orders created, paid and deleted, payments made and refunded. */
function learn(story, step) {
  const answer = jsonOf(step.answer.body);
  // A request lost on its way in did nothing; one lost on its way out did its work.
  if (answer?.code !== 0 || step.answer.fault?.phase === "request") return;
  const path = step.path.split("?")[0];
  const [, id] = /^\/api\/(?:order\/delete|order|payment\/refund)\/([^/]+)/.exec(path) ?? [];
  const data = answer.data;
  if (path === "/api/order/create") {
    const { orderId, userId, price, description } = data;
    story.orders.set(orderId, { userId, price, description });
  } else if (path === "/api/payment/pay" && data?.status === "SUCCESS") {
    const { orderId, amount, paymentMethod } = data;
    story.payments.set(data.paymentId, { orderId, amount, paymentMethod });
  } else if (path.startsWith("/api/order/delete/")) story.orders.delete(id);
  else if (path.endsWith("/pay") && story.orders.has(id)) story.orders.get(id).status = "PAID";
  else if (path.startsWith("/api/payment/refund/") && story.payments.has(id)) story.payments.get(id).refunded = true;
}
