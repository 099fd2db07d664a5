// A webhook endpoint as a caller gives it (`new Service({ webhooks })`,
// `addWebhook`, an adapter's `webhooks` option), read into plain data:
// the JS types are checked here, with a TypeError naming the field
// (`webhooks[0].url: …`), and the values (the URL's form, the event types,
// the secret, the header name) by the core, which names the field too.
// Internal: the package does not export this file.
import { errorText, kind } from "./request_parts.js";

const FIELDS = ["url", "handler", "secret", "events", "header"];
/** Read no further than this: a hostile array (a Proxy's length) cannot keep the reader busy. */
const MAX_LIST = 100;
/** Each field's JS type, for its TypeError. */
const STRINGS = {
  url: 'an absolute http(s) URL such as "http://127.0.0.1:3000/webhooks"',
  secret: 'a string such as "whsec_…" (made from the seed when absent)',
  header: '"Orderpay-Signature" or "Stripe-Signature"',
};

/** `object[name]`, or a TypeError naming `label` when a getter or a Proxy throws. */
function read(object, name, label) {
  try {
    return object[name];
  } catch (error) {
    throw new TypeError(`${label}: cannot be read: ${errorText(error)}`, { cause: error });
  }
}

/** The name of the spec itself, for its own messages: "webhooks[0]" or "webhook". */
function selfName(where) {
  return where ? where.slice(0, -1) : "webhook";
}

/** `events`: an array of event types (strings), or absent for every type. */
function readEvents(value, where) {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) throw new TypeError(`${where}events: expected an array of event types such as ["payment.succeeded"] or ["*"], got ${kind(value)}`);
  const length = read(value, "length", `${where}events`);
  if (!(length <= MAX_LIST)) throw new TypeError(`${where}events: at most ${MAX_LIST} event types, got ${String(length)}`);
  const types = [];
  for (let i = 0; i < length; i++) {
    const type = read(value, i, `${where}events[${i}]`);
    if (typeof type !== "string") throw new TypeError(`${where}events[${i}]: expected an event type such as "payment.succeeded", got ${kind(type)}`);
    types.push(type);
  }
  return types;
}

/**
 * One endpoint's spec: `{ spec, handler }`, `spec` the plain object the
 * core reads (`handler: true` for a function), `handler` the function or
 * null. `where`: the prefix of messages, such as "webhooks[0]." or "".
 */
export function readWebhook(given, where = "") {
  if (given === null || typeof given !== "object" || Array.isArray(given)) {
    throw new TypeError(`${selfName(where)}: expected an object such as { url: "http://127.0.0.1:3000/webhooks" } or { handler }, got ${kind(given)}`);
  }
  let keys;
  try {
    keys = Object.keys(given);
  } catch (error) {
    throw new TypeError(`${selfName(where)}: cannot be read: ${errorText(error)}`, { cause: error });
  }
  for (const key of keys) {
    if (!FIELDS.includes(key)) throw new TypeError(`${where}${key}: not a webhook field; the fields are ${FIELDS.join(", ")}`);
  }
  const spec = {};
  for (const name of ["url", "secret", "header"]) {
    const value = read(given, name, `${where}${name}`);
    if (value === undefined) continue;
    if (typeof value !== "string") throw new TypeError(`${where}${name}: expected ${STRINGS[name]}, got ${kind(value)}`);
    spec[name] = value;
  }
  const handler = read(given, "handler", `${where}handler`) ?? null;
  if (handler !== null && typeof handler !== "function") {
    throw new TypeError(`${where}handler: expected a function taking a Request and returning a Response (or a promise of one), got ${kind(handler)}`);
  }
  if ((handler === null) === (spec.url === undefined)) {
    throw new TypeError(`${where}url: give either url (delivered with fetch) or handler (called in this process), ${handler ? "not both" : "got neither"}`);
  }
  if (handler) spec.handler = true;
  const events = readEvents(read(given, "events", `${where}events`), where);
  if (events !== undefined) spec.events = events;
  return { spec, handler };
}

/** `webhooks`: an array of endpoint specs, each read as readWebhook does; `who` prefixes the messages ("webhooks"). */
export function readWebhooks(given, who = "webhooks") {
  if (given === undefined || given === null) return [];
  if (!Array.isArray(given)) throw new TypeError(`${who}: expected an array of endpoints such as [{ url: "http://127.0.0.1:3000/webhooks" }], got ${kind(given)}`);
  const list = [];
  const length = read(given, "length", who);
  if (!(length <= MAX_LIST)) throw new TypeError(`${who}: at most ${MAX_LIST} endpoints, got ${String(length)}`);
  for (let i = 0; i < length; i++) list.push(readWebhook(read(given, i, `${who}[${i}]`), `${who}[${i}].`));
  return list;
}
