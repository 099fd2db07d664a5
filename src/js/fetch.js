// orderpay/fetch: a `fetch` answered by the service under the gateway's
// URLs, and the network (or a rejection) for every other URL; and the same
// put in place of the global fetch, for code that calls it directly.
import { Service } from "./orderpay.js";
import { checkOptions, engine, kind, relativeBase } from "./gateway.js";

const OPTIONS = ["service", "baseUrl", "passthrough", "warn", "delay"];

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
