// The routes the console offers, read from the package's openapi()
// document (the core's route table: methods, paths, parameters, id
// formats, limits, business errors) and the service's settings (the
// failure rate). Only the page's own words and pre-filled values live
// here: a short label, the group, a sample body, a tip.
import { openapi } from "./pkg/orderpay.js";

const DOCUMENT = JSON.parse(openapi());

/** The page's side of each operation, by operationId: what the document cannot say. */
const PAGE = {
  createOrder: { id: "order-create", label: "Create an order", tip: "Try a price of 0 for the business error, or break the JSON for a 400." },
  getOrder: { id: "order-get", label: "Read an order" },
  markOrderPaid: { id: "order-pay", label: "Mark an order paid" },
  deleteOrder: { id: "order-delete", label: "Delete an order" },
  pay: { id: "payment-pay", label: "Pay for an order" },
  getPayment: { id: "payment-get", label: "Read a payment" },
  refund: { id: "payment-refund", label: "Refund a payment" },
  testOrderBatch: { id: "test-batch", label: "Generate test orders", tip: "The Test data section below runs large counts in chunks instead." },
};

/** The groups of the route picker, by the document's tags. */
const GROUPS = { order: "Order", payment: "Payment", test: "Test data" };

/** The route the document does not have: any method and path. */
const CUSTOM = {
  id: "custom", group: "Anything else", label: "Any method and path", method: "GET", path: "",
  help: () => "Send what you like: a typo in the path gets a 404 with a hint, a wrong method a 405 with an allow header.",
  body: () => ({}),
};

/** The schema a `$ref` names, or the schema itself. */
function resolve(schema) {
  const ref = schema?.$ref;
  if (typeof ref !== "string") return schema ?? {};
  return ref.replace(/^#\//, "").split("/").reduce((at, key) => at?.[key], DOCUMENT) ?? {};
}

/**
 * An id that matches a format such as `^ORD-[A-Z0-9]{8}$`, all zeros: the
 * placeholder of a body before the page knows a real id.
 */
function placeholder(pattern) {
  const m = /^\^([A-Z]+-)\[A-Z0-9\]\{(\d+)\}\$$/.exec(pattern ?? "");
  return m ? m[1] + "0".repeat(Number(m[2])) : "";
}

const ORDER_ID = placeholder(resolve({ $ref: "#/components/schemas/Order" }).properties?.orderId?.pattern);

/** The sample body of an operation that takes one, from its schema: ids the page knows, or placeholders. */
const BODIES = {
  createOrder: () => ({ userId: "u-1", price: 25.5, description: "two coffees" }),
  pay: (ids) => {
    const orderId = ids.orders[0] ?? ORDER_ID;
    const methods = resolve(resolve(DOCUMENT.components.schemas.NewPayment).properties?.paymentMethod).enum ?? [];
    return { orderId, amount: ids.prices.get(orderId) ?? 25.5, paymentMethod: methods[0] };
  },
};

/** The business errors (code -1) the document lists for an operation's answer. */
function rejections(op) {
  const text = op.responses?.["200"]?.description ?? "";
  const at = text.indexOf("business rejection:");
  return at < 0 ? [] : [...text.slice(at).matchAll(/`([^`]+)`/g)].map((m) => m[1]);
}

/** How many payment attempts in 10 succeed at this failure rate, in words. */
function odds(rate) {
  if (!(rate > 0)) return "every attempt succeeds";
  if (rate >= 1) return "every attempt fails";
  return `about ${Number(((1 - rate) * 10).toFixed(1))} in 10 attempts succeed, the rest fail`;
}

/** The console's help line of an operation: the document's description, its limits and business errors, the page's tip. */
function helpOf(operationId, op, params, settings) {
  const parts = [op.description ?? op.summary ?? ""];
  if (operationId === "pay" && settings) {
    parts[0] = `${op.summary}: with failure rate ${settings.failureRate} (see Settings), ${odds(settings.failureRate)}.`;
  }
  for (const p of params) {
    const s = p.schema ?? {};
    if (Number.isFinite(s.minimum) && Number.isFinite(s.maximum)) parts.push(`${p.name}: ${s.minimum.toLocaleString("en-US")} to ${s.maximum.toLocaleString("en-US")}.`);
  }
  const errors = rejections(op);
  if (errors.length) parts.push(`Business errors (code -1): ${errors.join("; ")}.`);
  parts.push(PAGE[operationId]?.tip ?? "");
  return parts.filter(Boolean).join(" ").replace(/`/g, "");
}

/** One route of the console from one operation of the document. */
function routeOf(path, method, op) {
  const params = (op.parameters ?? []).map(resolve).filter((p) => p.in === "path" || p.in === "query");
  const query = params.filter((p) => p.in === "query").map((p) => `${p.name}={${p.name}}`);
  const page = PAGE[op.operationId] ?? {};
  const body = op.requestBody ? BODIES[op.operationId] ?? (() => ({})) : undefined;
  return {
    id: page.id ?? op.operationId,
    operationId: op.operationId,
    tag: op.tags?.[0] ?? "",
    group: GROUPS[op.tags?.[0]] ?? op.tags?.[0] ?? "Other",
    label: page.label ?? op.summary ?? op.operationId,
    method: method.toUpperCase(),
    path: query.length ? `${path}?${query.join("&")}` : path,
    help: (settings) => helpOf(op.operationId, op, params, settings),
    body,
  };
}

/** Whether an operation answers the envelope: not a page (the challenge's, met through a pay's nextAction). */
const answersEnvelope = (op) => op.responses?.["200"]?.content?.["application/json"] !== undefined;

/**
 * The routes that answer the envelope, in the document's order, then the
 * custom one. Each has `help(settings)`: its line for the service's
 * settings in force.
 */
export const ROUTES = [
  ...Object.entries(DOCUMENT.paths).flatMap(([path, ops]) =>
    Object.entries(ops).filter(([, op]) => answersEnvelope(op)).map(([method, op]) => routeOf(path, method, op)),
  ),
  CUSTOM,
];

/** The bounds of the test-data endpoint's count, as the document gives them: `{ min, max }`. */
export const BATCH_COUNT = (() => {
  const count = (DOCUMENT.paths["/api/test/order/batch"]?.get?.parameters ?? []).map(resolve).find((p) => p.name === "count");
  return { min: count?.schema?.minimum ?? 1, max: count?.schema?.maximum ?? Infinity };
})();

/** What a path parameter's field offers: the ids the page knows (a datalist), and what fills it untouched. */
export const PARAMS = {
  orderId: { label: "orderId", list: "order-ids", fallback: (ids) => ids.orders[0] ?? "" },
  paymentId: { label: "paymentId", list: "payment-ids", fallback: (ids) => ids.payments[0] ?? "" },
  count: { label: "count", list: null, fallback: () => "5" },
};

/** A parameter the page has no entry for (a route the core gained): a plain field. */
export function paramOf(name) {
  return PARAMS[name] ?? { label: name, list: null, fallback: () => "" };
}

/** The names of a path's parameters, in order: "/api/order/{orderId}/pay" → ["orderId"]. */
export function paramsOf(path) {
  return [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
}

/** The path with its parameters filled in, exactly as typed (no encoding: what you see is sent). */
export function fill(path, values) {
  return path.replace(/\{(\w+)\}/g, (_m, name) => values[name] ?? "");
}

/**
 * The route of the document a request went to, and its path parameters
 * as sent: `{ route, params }`, or null for a path or method it has not.
 */
export function routeFor(method, path) {
  const bare = String(path).split("?")[0];
  for (const route of ROUTES) {
    if (!route.operationId || route.method !== String(method).toUpperCase()) continue;
    const names = paramsOf(route.path);
    const shape = route.path.split("?")[0].replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{\w+\}/g, "([^/?]+)");
    const m = new RegExp(`^${shape}$`).exec(bare);
    if (m) return { route, params: Object.fromEntries(names.map((n, i) => [n, m[i + 1]])) };
  }
  return null;
}
