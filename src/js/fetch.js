// orderpay/fetch: a `fetch` answered by the service under the gateway's
// URLs, and the network (or a rejection) for every other URL; and the same
// put in place of the global fetch, for code that calls it directly.
import { Service } from "./orderpay.js";
import { checkOptions, engine, kind, relativeBase } from "./gateway.js";

const OPTIONS = ["service", "baseUrl", "passthrough", "warn", "delay"];

/** The methods fetch writes in upper case whatever case they were given in. */
const NORMAL_METHODS = new Map(["DELETE", "GET", "HEAD", "OPTIONS", "POST", "PUT"].map((m) => [m, m]));
/** What an init may hold for createFetch to read it without a Request. */
const PLAIN_INIT_KEYS = new Set(["method", "headers", "body", "signal"]);
/** Text bodies up to this long are read directly; longer ones go through a Request, measured in bytes. */
const PLAIN_BODY = 64 * 1024;
const NO_INIT = Object.freeze({});

/**
 * What `new Request(url, init)` would hold, read from a plain init with a
 * text body or none: the method in fetch's case, headers checked by the
 * Headers constructor, `text/plain` for a text body with no content type.
 * Making the Request (an AbortSignal, a body stream) and reading its body
 * back cost more than the service's answer; the Request constructor still
 * decides every case this does not cover (other methods, other bodies or
 * init members, what it would refuse), with its own errors.
 */
function plainInit(init) {
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
    headers = new Headers(headersInit ?? undefined);
  } catch {
    return null;
  }
  if (body !== null && !headers.has("content-type")) headers.set("content-type", "text/plain;charset=UTF-8");
  return { method, headers, body, signal };
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

  async function orderpayFetch(input, init) {
    const given = input instanceof Request ? input.url : input instanceof URL ? input.href : String(input);
    // Throws a TypeError for what is not a URL, as fetch does.
    const url = new URL(given, relativeBase()).href;
    // Decided before anything is awaited, so that what is not the
    // gateway's never waits for the WebAssembly module.
    if (core.gateway.pathOf(url) === null) return pass(input, init, url);
    if (!(input instanceof Request)) {
      const parts = plainInit(init);
      if (parts !== null) return core.respondTo({ ...parts, url });
    }
    // The Request constructor gives fetch's own rules: method names, header
    // merging, bodies of every kind with their content type, and its errors.
    const request = input instanceof Request ? new Request(input, init) : new Request(url, init);
    return core.respond(request);
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
