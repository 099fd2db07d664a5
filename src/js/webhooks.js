// orderpay/webhooks: sign and verify webhook signatures the way Stripe signs
// them, so a user can unit-test a webhook handler with no service at all;
// the service's own sender signs its deliveries here too. Web Crypto
// (browsers, Node 20+), and no WebAssembly. In Node, signing uses
// node:crypto's HMAC when the runtime hands it over (process.getBuiltinModule):
// synchronous, with none of Web Crypto's round trips through the thread
// pool, which a busy server's deliveries wait on. Nothing imports it.

/** The header orderpay signs under; `scheme: "stripe"` names the same value `Stripe-Signature`. */
export const SIGNATURE_HEADER = "Orderpay-Signature";
export const STRIPE_SIGNATURE_HEADER = "Stripe-Signature";

/** Stripe's default tolerance, in seconds. */
const DEFAULT_TOLERANCE = 300;
/** Longer headers are refused before they are parsed (two v1 values take about 150 characters). */
const MAX_HEADER = 8192;
/** Timestamps are seconds: anything past this (the year 5138) is taken for milliseconds. */
const MAX_SECONDS = 1e11;
const HEX64 = /^[0-9a-f]{64}$/;
const DIGITS = /^[0-9]{1,11}$/;
/** Printable ASCII: a signature header holds nothing else. */
const HEADER_CHARS = /^[\x20-\x7e]*$/;
const SIGN_OPTIONS = new Set(["secret", "secrets", "timestamp", "scheme"]);
/** node:crypto, where the runtime offers it without an import (Node 20.16 and later); else null. */
const nodeCrypto = globalThis.process?.getBuiltinModule?.("node:crypto") ?? null;
const VERIFY_OPTIONS = new Set(["tolerance", "now"]);
const RAW_BODY_HINT =
  "verifyWebhook needs the raw body exactly as received (a string, a Uint8Array or Buffer, or an ArrayBuffer), " +
  "not a parsed object: the signature covers the bytes that were sent, and JSON.stringify of a parsed body " +
  'rarely gives them back. In Express, use express.raw({ type: "application/json" }) on the webhook route; ' +
  "with fetch's Request, await request.text(); with node:http, concatenate the request's chunks";

/**
 * A signature that does not hold: `.reason` says which check refused it
 * ("mismatch", "stale", "malformed header" or "no signature").
 */
export class WebhookSignatureError extends Error {
  constructor(reason, message) {
    super(message);
    this.name = "WebhookSignatureError";
    this.reason = reason;
  }
}

/**
 * Signs a payload: `{ header, headerName, body, timestamp }`, the header's
 * value `t=<seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, one v1 per secret.
 */
export async function signWebhook(payload, options) {
  const { secrets, timestamp, headerName } = signOptions(options);
  const body = payloadText(payload);
  const signatures = [];
  for (const secret of secrets) signatures.push(await hmacHex(secret, `${timestamp}.${body}`));
  const header = [`t=${timestamp}`, ...signatures.map((s) => `v1=${s}`)].join(",");
  return { header, headerName, body, timestamp };
}

/**
 * Verifies a signed delivery and returns its parsed JSON; throws a
 * WebhookSignatureError when the signature does not hold, a TypeError when
 * an argument is not of a kind it reads.
 */
export async function verifyWebhook(rawBody, header, secret, options) {
  const bytes = bodyBytes(rawBody);
  const secrets = secretList(secret, "verifyWebhook's secret");
  const { tolerance, now } = verifyOptions(options);
  const { timestamp, signatures } = parseHeader(header);
  const signed = concat(utf8(`${timestamp}.`), bytes);
  if (!(await anyMatches(secrets, signatures, signed))) {
    throw new WebhookSignatureError(
      "mismatch",
      `no v1 signature of the header matches this body with the ${secrets.length > 1 ? `${secrets.length} secrets` : "secret"} given: ` +
        "either the body or its timestamp changed after signing (a re-serialised body counts: pass the raw one), " +
        "or the secret is not the one it was signed with (HMAC cannot tell these apart)",
    );
  }
  const age = now - timestamp;
  if (Math.abs(age) > tolerance) {
    const when = age > 0 ? `${age} s old` : `${-age} s in the future`;
    throw new WebhookSignatureError("stale", `the signature's timestamp t=${timestamp} is ${when}, outside the tolerance of ${tolerance} s`);
  }
  return parseEvent(bytes);
}

/** The secrets, timestamp and header name of signWebhook's options, checked. */
function signOptions(options) {
  if (options === null || typeof options !== "object") {
    throw new TypeError("signWebhook needs options: { secret } or { secrets: [new, old] }, and optionally timestamp and scheme");
  }
  unknownKeys(options, SIGN_OPTIONS, "signWebhook");
  if (options.secret !== undefined && options.secrets !== undefined) {
    throw new TypeError("signWebhook takes secret or secrets, not both");
  }
  const given = options.secrets ?? options.secret;
  if (given === undefined) throw new TypeError("signWebhook needs a secret (or secrets, while one is rotated)");
  if (options.secrets !== undefined && !Array.isArray(options.secrets)) {
    throw new TypeError("signWebhook's secrets must be an array of strings");
  }
  const secrets = secretList(given, options.secrets !== undefined ? "signWebhook's secrets" : "signWebhook's secret");
  const timestamp = options.timestamp === undefined ? Math.floor(Date.now() / 1000) : seconds(options.timestamp, "signWebhook's timestamp");
  const scheme = options.scheme ?? "orderpay";
  if (scheme !== "orderpay" && scheme !== "stripe") {
    throw new TypeError(`signWebhook's scheme must be "orderpay" or "stripe", not ${describe(scheme)}`);
  }
  return { secrets, timestamp, headerName: scheme === "stripe" ? STRIPE_SIGNATURE_HEADER : SIGNATURE_HEADER };
}

/** The tolerance and now of verifyWebhook's options, checked. */
function verifyOptions(options) {
  if (options === undefined || options === null) options = {};
  if (typeof options !== "object") throw new TypeError(`verifyWebhook's options must be an object, not ${describe(options)}`);
  unknownKeys(options, VERIFY_OPTIONS, "verifyWebhook");
  const tolerance = options.tolerance ?? DEFAULT_TOLERANCE;
  if (typeof tolerance !== "number" || Number.isNaN(tolerance) || tolerance < 0) {
    throw new TypeError(`verifyWebhook's tolerance must be a number of seconds, 0 or more (Infinity: no limit), not ${describe(tolerance)}`);
  }
  const now = options.now === undefined ? Math.floor(Date.now() / 1000) : seconds(options.now, "verifyWebhook's now");
  return { tolerance, now };
}

function unknownKeys(options, known, fn) {
  const unknown = Object.keys(options).filter((key) => !known.has(key));
  if (unknown.length) {
    throw new TypeError(`${fn} has no option ${unknown.map((k) => JSON.stringify(k)).join(", ")} (it reads ${[...known].join(", ")})`);
  }
}

/** A time in whole unix seconds. */
function seconds(value, what) {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
    throw new TypeError(`${what} must be whole unix seconds, 0 or more, not ${describe(value)}`);
  }
  if (value > MAX_SECONDS) {
    throw new TypeError(`${what} ${value} is milliseconds, it seems: it takes seconds (Math.floor(Date.now() / 1000))`);
  }
  return value;
}

/** One secret or several, each a non-empty string of well-formed text. */
function secretList(given, what) {
  const list = Array.isArray(given) ? given : [given];
  if (list.length === 0 || list.length > 16) throw new TypeError(`${what} must hold 1 to 16 secrets, not ${list.length}`);
  for (const secret of list) {
    if (typeof secret !== "string" || secret === "") {
      throw new TypeError(`${what} must be a non-empty string (such as "whsec_…"), or an array of them, not ${describe(secret)}`);
    }
    if (!wellFormed(secret)) throw new TypeError(`${what} holds a lone UTF-16 surrogate: a secret must be well-formed text`);
  }
  return list;
}

/** The text signWebhook signs and returns: a string as given, anything else as JSON. */
function payloadText(payload) {
  if (typeof payload === "string") {
    if (!wellFormed(payload)) {
      throw new TypeError("signWebhook's payload holds a lone UTF-16 surrogate: it would not reach the receiver as the same text");
    }
    return payload;
  }
  if (payload instanceof ArrayBuffer || ArrayBuffer.isView(payload)) {
    throw new TypeError("signWebhook signs text: pass the body as a string, or the event as an object to be JSON.stringify'd");
  }
  let text;
  try {
    text = JSON.stringify(payload);
  } catch (error) {
    throw new TypeError(`signWebhook's payload cannot be written as JSON: ${error?.message}`, { cause: error });
  }
  if (typeof text !== "string") throw new TypeError(`signWebhook's payload must be a string or a JSON value, not ${describe(payload)}`);
  return text;
}

/** The raw body's bytes; a parsed object is refused with the reason. */
function bodyBytes(rawBody) {
  if (typeof rawBody === "string") {
    if (!wellFormed(rawBody)) {
      throw new TypeError("verifyWebhook's body holds a lone UTF-16 surrogate, which no body read from the network as UTF-8 has: pass the raw bytes");
    }
    return utf8(rawBody);
  }
  if (rawBody instanceof ArrayBuffer) return new Uint8Array(rawBody);
  if (ArrayBuffer.isView(rawBody)) return new Uint8Array(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength);
  if (rawBody === undefined || rawBody === null) throw new TypeError(`verifyWebhook got no body (${rawBody}): ${RAW_BODY_HINT}`);
  throw new TypeError(`verifyWebhook got ${describe(rawBody)} as the body. ${RAW_BODY_HINT}`);
}

/** Stripe's header: comma-separated `key=value` items, one `t`, one or more `v1`; other keys are ignored. */
function parseHeader(header) {
  if (Array.isArray(header) && header.length === 1) header = header[0];
  if (header === undefined || header === null || header === "") {
    throw new WebhookSignatureError("no signature", `no signature header: the request has no ${SIGNATURE_HEADER} (or ${STRIPE_SIGNATURE_HEADER}) value`);
  }
  if (typeof header !== "string") {
    throw new TypeError(`verifyWebhook's header must be the signature header's value, a string, not ${describe(header)}`);
  }
  const malformed = (why) => new WebhookSignatureError("malformed header", `malformed signature header: ${why}`);
  if (header.length > MAX_HEADER) throw malformed(`${header.length} characters, more than ${MAX_HEADER}`);
  if (header.trimStart().startsWith("{")) throw malformed("it looks like a JSON body: are the body and the header swapped?");
  if (!HEADER_CHARS.test(header)) throw malformed("it holds characters other than printable ASCII");
  let timestamp;
  const signatures = [];
  for (const item of header.split(",")) {
    const at = item.indexOf("=");
    if (at < 0) throw malformed(`the item ${JSON.stringify(item.slice(0, 40))} is not key=value`);
    const key = item.slice(0, at).trim();
    const value = item.slice(at + 1).trim();
    if (key === "t") {
      if (timestamp !== undefined) throw malformed("it has more than one t");
      if (!DIGITS.test(value)) throw malformed(`t=${value.slice(0, 40)} is not unix seconds`);
      timestamp = Number(value);
    } else if (key === "v1") {
      if (!HEX64.test(value)) throw malformed(`v1=${value.slice(0, 80)} is not 64 lower-case hex digits (a SHA-256 HMAC)`);
      signatures.push(value);
    }
  }
  if (timestamp === undefined) throw malformed("it has no t=<unix seconds>");
  if (signatures.length === 0) throw new WebhookSignatureError("no signature", "the signature header has no v1 signature (the scheme orderpay and Stripe sign with)");
  return { timestamp, signatures };
}

/** Whether any v1 value is the HMAC of `signed` under any secret: Web Crypto's verify compares in constant time. */
async function anyMatches(secrets, signatures, signed) {
  let matched = false;
  for (const secret of secrets) {
    const key = await hmacKey(secret);
    for (const signature of signatures) {
      // Every pair is checked, so the time taken says nothing of which one held.
      if (await subtle().verify("HMAC", key, unhex(signature), signed)) matched = true;
    }
  }
  return matched;
}

function parseEvent(bytes) {
  const text = new TextDecoder().decode(bytes);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new SyntaxError(`the webhook's signature holds, but its body is not JSON: ${error?.message}`, { cause: error });
  }
}

function subtle() {
  const found = globalThis.crypto?.subtle;
  if (!found) {
    throw new Error("orderpay/webhooks needs Web Crypto (globalThis.crypto.subtle): Node 20 or later, or a browser page served over HTTPS or from localhost");
  }
  return found;
}

/** The hex HMAC-SHA256 of `text`'s UTF-8 bytes keyed with `secret`'s. */
async function hmacHex(secret, text) {
  if (nodeCrypto !== null) return nodeCrypto.createHmac("sha256", secret).update(text, "utf8").digest("hex");
  return hex(await subtle().sign("HMAC", await hmacKey(secret), utf8(text)));
}

function hmacKey(secret) {
  return subtle().importKey("raw", utf8(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
}

function utf8(text) {
  return new TextEncoder().encode(text);
}

function concat(a, b) {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

function hex(buffer) {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
}

function unhex(text) {
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(text.slice(2 * i, 2 * i + 2), 16);
  return out;
}

function wellFormed(text) {
  if (typeof text.isWellFormed === "function") return text.isWellFormed();
  return !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text);
}

/** A value named for an error message, without printing all of it. */
function describe(value) {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return `an object (${Object.prototype.toString.call(value).slice(8, -1)})`;
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  return `${typeof value} ${String(value)}`;
}
