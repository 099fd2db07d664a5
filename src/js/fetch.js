// orderpay/fetch: a `fetch` answered by the service under the gateway's
// URLs, and the network (or a rejection) for every other URL; and the same
// put in place of the global fetch, for code that calls it directly.
import { Service } from "./orderpay.js";
import { checkOptions, engine, kind, relativeBase } from "./adapter.js";
import { inServiceWorker } from "./text_response.js";

const OPTIONS = ["service", "baseUrl", "passthrough", "warn", "delay", "scenario", "webhooks"];

/** The methods fetch writes in upper case whatever case they were given in. */
const NORMAL_METHODS = new Map(["DELETE", "GET", "HEAD", "OPTIONS", "POST", "PUT"].map((m) => [m, m]));
/** What an init may hold for createFetch to read it without a Request. */
const PLAIN_INIT_KEYS = new Set(["method", "headers", "body", "signal"]);
/** Text bodies up to this long are read directly; longer ones go through a Request, measured in bytes. */
const PLAIN_BODY = 64 * 1024;
const NO_INIT = Object.freeze({});

/** A header name fetch accepts: an HTTP token. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/**
 * A header value fetch keeps as it is: bytes only (no code unit past
 * 0xFF), no CR, LF or NUL, and nothing for it to trim at either end.
 * Other values go through the Headers constructor, which trims or refuses.
 */
const PLAIN_VALUE = /^(?:[\x21-\x7e\x80-\xff](?:[\t\x20-\x7e\x80-\xff]*[\x21-\x7e\x80-\xff])?)?$/;

/**
 * The headers of a plain object such as `{ "content-type": "application/json" }`
 * as [name, value] pairs in lower case, as `new Headers(object)` would hold
 * them; null for anything else (other kinds of init, symbol keys, names
 * the same but for case, values Headers would trim, join or refuse), which
 * the Headers constructor then decides. A Headers costs more to make and
 * to walk than the request's whole answer.
 */
function plainHeaders(init) {
  if (init === undefined || init === null) return [];
  if (typeof init !== "object" || Object.getPrototypeOf(init) !== Object.prototype) return null;
  if (Object.getOwnPropertySymbols(init).length > 0) return null;
  const names = Object.keys(init);
  const pairs = [];
  for (let i = 0; i < names.length; i++) {
    const name = names[i];
    const value = init[name];
    if (typeof value !== "string" || !TOKEN.test(name) || !PLAIN_VALUE.test(value)) return null;
    const lower = name.toLowerCase();
    for (let j = 0; j < pairs.length; j++) if (pairs[j][0] === lower) return null;
    pairs.push([lower, value]);
  }
  return pairs;
}

/**
 * What `new Request(url, init)` would hold, read from a plain init with a
 * text body or none: the method in fetch's case, headers as Headers would
 * hold them (as [name, value] pairs, or a Headers), `text/plain` for a
 * text body with no content type.
 * Making the Request (an AbortSignal, a body stream) and reading its body
 * back cost more than the service's answer; the Request constructor still
 * decides every case this does not cover (other methods, other bodies or
 * init members, what it would refuse), with its own errors.
 */
function plainInit(init, url) {
  if (init === undefined || init === null) init = NO_INIT;
  else if (typeof init !== "object" || Object.getPrototypeOf(init) !== Object.prototype) return null;
  for (const key in init) if (!PLAIN_INIT_KEYS.has(key)) return null;
  const { method: given = "GET", headers: headersInit, body = null, signal = null } = init;
  const method = typeof given === "string" ? NORMAL_METHODS.get(given.toUpperCase()) : undefined;
  if (method === undefined) return null;
  if (body !== null && (typeof body !== "string" || body.length > PLAIN_BODY || method === "GET" || method === "HEAD")) {
    return null;
  }
  if (signal !== null && !(signal instanceof AbortSignal)) return null;
  let headers;
  try {
    headers = plainHeaders(headersInit);
    if (headers === null) {
      const checked = new Headers(headersInit ?? undefined);
      if (body !== null && !checked.has("content-type")) checked.set("content-type", "text/plain;charset=UTF-8");
      headers = checked;
    } else if (body !== null && !headers.some(([name]) => name === "content-type")) {
      headers.push(["content-type", "text/plain;charset=UTF-8"]);
    }
  } catch {
    return null;
  }
  return { method, url, headers, body, signal };
}

function passthroughFor(option, network, where) {
  if (typeof option === "function") return option;
  if (option === undefined || option === "fetch") {
    return (input, init) => {
      if (typeof network !== "function") {
        return Promise.reject(new TypeError("orderpay: there is no fetch to pass requests outside the gateway to"));
      }
      return network.call(globalThis, input, init);
    };
  }
  if (option === "reject") {
    return (input, init, url) => {
      const method = (init?.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase();
      return Promise.reject(
        new TypeError(`orderpay: ${method} ${url} is outside the gateway (${where}), and passthrough is "reject"`),
      );
    };
  }
  throw new TypeError(`createFetch: passthrough: expected "fetch", "reject" or a fetch function, got ${kind(option)}`);
}

/**
 * A function with the signature and behaviour of `fetch`: URLs under the
 * gateway are answered by the service, others are passed through.
 */
export function createFetch(options) {
  const opts = options instanceof Service ? { service: options } : checkOptions(options, OPTIONS, "createFetch");
  const core = engine(opts, "createFetch");
  const network = globalThis.fetch;
  const pass = passthroughFor(opts.passthrough, network, core.gateway.where);
  // Answers keep their body as text until read (text_response.js), but not
  // where a Service Worker's respondWith would read them without a method.
  const light = !inServiceWorker();

  // Not an async function: the promise it returns is the answer's own,
  // with no second promise around it; what throws becomes a rejection.
  function orderpayFetch(input, init) {
    try {
      const given = input instanceof Request ? input.url : input instanceof URL ? input.href : String(input);
      // Throws a TypeError for what is not a URL, as fetch does.
      const url = new URL(given, relativeBase()).href;
      // Decided before anything is awaited, so that what is not the
      // gateway's never waits for the WebAssembly module.
      const path = core.gateway.pathOf(url);
      if (path === null) return Promise.resolve(pass(input, init, url));
      if (!(input instanceof Request)) {
        const parts = plainInit(init, url);
        if (parts !== null) return core.respondTo(parts, path, light);
      }
      // The Request constructor gives fetch's own rules: method names, header
      // merging, bodies of every kind with their content type, and its errors.
      const request = input instanceof Request ? new Request(input, init) : new Request(url, init);
      return core.respond(request, light);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  Object.defineProperties(orderpayFetch, {
    service: { get: () => core.service, enumerable: true },
    ready: { value: core.ready, enumerable: true },
  });
  return orderpayFetch;
}

/**
 * Puts a createFetch in place of `globalThis.fetch`, passing other URLs to
 * the fetch it replaces; `uninstall()` puts that one back.
 */
export function installFetch(options) {
  const original = globalThis.fetch;
  const installed = createFetch(options);
  let active = true;
  Object.defineProperty(installed, "uninstall", {
    enumerable: true,
    value() {
      if (!active) return;
      if (globalThis.fetch !== installed) {
        throw new Error(
          "orderpay: globalThis.fetch was replaced after installFetch(); undo that replacement first, then uninstall",
        );
      }
      globalThis.fetch = original;
      active = false;
    },
  });
  globalThis.fetch = installed;
  return installed;
}
