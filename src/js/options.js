// The options of `new Service(options)`, read in JS: their JS types are
// checked here (a TypeError naming the option), and only numbers and JSON
// text reach the WebAssembly module, which checks ranges (a RangeError
// naming the option). Internal: the package does not export it.
import { errorText, kind } from "./request_parts.js";
import { presetText } from "./presets.js";
import { readWebhooks } from "./webhook_spec.js";

const KNOWN = ["seed", "failureRate", "logCapacity", "maxOrders", "idempotencyKeys", "virtualTime", "latency", "scenario", "webhooks"];

/** What a wrong option is expected to be, for its TypeError. */
const EXPECTED = {
  seed: "a whole number",
  failureRate: "a number from 0 to 1",
  logCapacity: "a whole number",
  maxOrders: "a whole number",
  idempotencyKeys: "a whole number",
  virtualTime: "a Unix time in milliseconds",
};

/**
 * The options as plain values: numbers or undefined, and latency as JSON
 * text; `given`: the options as the run records them. Each option of the
 * caller's is read once (a getter is not asked again), and both come from
 * that one reading.
 */
export function readOptions(options) {
  const read = {
    seed: undefined,
    failureRate: undefined,
    logCapacity: undefined,
    maxOrders: undefined,
    idempotencyKeys: undefined,
    virtualTime: undefined,
    latency: undefined,
    scenario: undefined,
    webhooks: [],
    given: {},
  };
  if (options === undefined || options === null) return read;
  if (typeof options !== "object" || kind(options) === "an array") {
    throw new TypeError("options: expected an object such as { seed: 42 }");
  }
  let keys;
  try {
    keys = Object.keys(options);
  } catch (error) {
    throw new TypeError(`options: cannot be read: ${errorText(error)}`, { cause: error });
  }
  for (const key of keys) {
    if (!KNOWN.includes(key)) {
      throw new TypeError(`options: unknown option ${JSON.stringify(key)}; known are ${KNOWN.join(", ")}`);
    }
  }
  const once = {};
  for (const name of KNOWN) once[name] = get(options, name);
  readValues(once, read);
  return read;
}

/** Fills `read` from `once`, the options each read once. */
function readValues(once, read) {
  for (const name of Object.keys(EXPECTED)) {
    const value = once[name];
    if (value === undefined) continue;
    if (typeof value !== "number") throw new TypeError(`${name}: expected ${EXPECTED[name]}, got ${kind(value)}`);
    read[name] = value;
    read.given[name] = value;
  }
  if (once.latency !== undefined) {
    let json;
    try {
      json = JSON.stringify(once.latency);
    } catch {
      // Reported below, as for a value with no JSON form.
    }
    if (typeof json !== "string") {
      throw new TypeError("latency: expected an object such as { thirdParty: { baseMs: 500 } }");
    }
    read.latency = json;
    read.given.latency = JSON.parse(json);
  }
  read.scenario = readScenario(once.scenario) ?? undefined;
  // A document as its JSON (the caller may change the object later); a name or text as given.
  if (read.scenario !== undefined) read.given.scenario = typeof once.scenario === "string" ? once.scenario : JSON.parse(read.scenario);
  read.webhooks = readWebhooks(once.webhooks);
}

/**
 * A scenario as the module reads it: a document's JSON text (a document
 * object is stringified here, a preset's name becomes its document's);
 * null clears one.
 */
export function readScenario(scenario) {
  if (scenario === undefined || scenario === null) return null;
  if (typeof scenario === "string") return presetText(scenario);
  if (typeof scenario === "object" && kind(scenario) !== "an array") {
    let json;
    try {
      json = JSON.stringify(scenario);
    } catch (error) {
      throw new TypeError(`scenario: cannot be read: ${errorText(error)}`, { cause: error });
    }
    if (typeof json === "string") return json;
  }
  throw new TypeError(`scenario: expected a document such as { rules: [...] }, its JSON text, a preset's name or null, got ${kind(scenario)}`);
}

function get(options, name) {
  try {
    return options[name];
  } catch (error) {
    throw new TypeError(`${name}: cannot be read: ${errorText(error)}`, { cause: error });
  }
}
