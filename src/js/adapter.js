// The plumbing the adapters share (createFetch, the MSW handlers, the
// Playwright routes, the page side of the Service Worker): their options,
// how a request becomes a call to the service, and how the service's
// answer becomes a Response (which URLs are the gateway's: gateway_url.js).
// Internal: the package does not export this file.
import { Service, exchange } from "./service.js";
import { load, loaded } from "./ready.js";
import { textResponse } from "./text_response.js";
import { faultResponse } from "./fault_as_fetch.js";
import { gateway } from "./gateway_url.js";
import { kind } from "./request_parts.js";
import { statusText } from "./status_text.js";
import { readWebhooks } from "./webhook_spec.js";

export { gateway, relativeBase } from "./gateway_url.js";
export { kind } from "./request_parts.js";

/** The reply's network fault ({kind: "network", rule, fault, ms, phase}), or null for an answer that goes out as it is. */
export function networkFault(reply) {
  const fault = reply.fault;
  return fault?.kind === "network" ? fault : null;
}


/** Throws a TypeError naming an option nobody knows, so a typo is never ignored. */
export function checkOptions(options, known, who) {
  if (options === undefined || options === null) return {};
  if (typeof options !== "object" || Array.isArray(options)) {
    throw new TypeError(`${who}: expected an options object or a Service, got ${kind(options)}`);
  }
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) {
      throw new TypeError(`${who}: unknown option ${JSON.stringify(key)}; known are ${known.join(", ")}`);
    }
  }
  return options;
}

function warner(option, who) {
  if (option === undefined || option === true) return (message) => console.warn(message);
  if (option === false) return () => {};
  if (typeof option === "function") return option;
  throw new TypeError(`${who}: warn: expected true, false or a function, got ${kind(option)}`);
}

/** How much real time to wait per simulated ms: 0 (the default) waits not at all. */
function delayScale(option, who) {
  if (option === undefined || option === false) return 0;
  if (option === true) return 1;
  if (typeof option === "number" && Number.isFinite(option) && option >= 0) return option;
  throw new TypeError(`${who}: delay: expected true, false or a factor such as 0.5, got ${kind(option)}`);
}

/** Resolves after `ms`, or rejects as fetch does when the signal aborts first. */
function sleep(ms, signal) {
  return new Promise((resolve, reject) => {
    const abort = () => {
      clearTimeout(timer);
      reject(signal.reason ?? new DOMException("This operation was aborted", "AbortError"));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", abort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", abort, { once: true });
  });
}

/** Throws the signal's reason, as fetch rejects, once it has aborted. */
function abortedBy(signal) {
  if (signal?.aborted) throw signal.reason ?? new DOMException("This operation was aborted", "AbortError");
}

/** Refuses a `service` option that is neither a Service nor its options. */
function checkService(given, who) {
  if (given !== undefined && !(given instanceof Service) && (given === null || typeof given !== "object")) {
    throw new TypeError(`${who}: service: expected a Service or its options such as { seed: 42 }, got ${kind(given)}`);
  }
}

/** Refuses a `scenario` option that is neither a document, its JSON text, a preset name nor null. */
function checkScenario(given, who) {
  if (given !== undefined && given !== null && typeof given !== "object" && typeof given !== "string") {
    throw new TypeError(
      `${who}: scenario: expected a scenario document, its JSON text or a preset name such as "rate-limited", got ${kind(given)}`,
    );
  }
}

/**
 * The `webhooks` option, its types checked at once (before the module
 * loads): the endpoints as given, added to the service once it is made.
 */
function checkWebhooks(given, who) {
  readWebhooks(given, `${who}: webhooks`);
  return given ?? [];
}

/** Adds the `webhooks` option's endpoints to `service`; a refusal names the adapter and the endpoint. */
function addWebhooks(service, webhooks, who) {
  webhooks.forEach((spec, i) => {
    try {
      service.addWebhook(spec);
    } catch (error) {
      const Kind = error instanceof RangeError ? RangeError : TypeError;
      throw new Kind(`${who}: webhooks[${i}].${error.message}`, { cause: error });
    }
  });
}

/**
 * The adapter's service: the one given, or one made from the options given
 * as soon as the WebAssembly module is loaded (at once in Node), with the
 * `scenario` option set on it (over its own, on a Service given) and the
 * `webhooks` option's endpoints added. `ready` resolves to it; `current()`
 * is it, or null before.
 */
function serviceWhenLoaded(given, scenario, webhooks, who) {
  let service = null;
  const make = () => {
    if (service) return service;
    const made = given instanceof Service ? given : new Service(given);
    if (scenario !== undefined) made.setScenario(scenario);
    addWebhooks(made, webhooks, who);
    return (service = made);
  };
  let ready;
  if (given instanceof Service || loaded()) {
    ready = Promise.resolve(make());
  } else {
    ready = load().then(make);
    // Whoever sends a request or awaits `ready` sees the error; nobody
    // else should get an unhandled rejection for it.
    ready.catch(() => {});
  }
  return { ready, current: () => service };
}

/** The msg of an envelope's text; the text itself for an answer that is no envelope (the challenge page's HTML). */
function messageOf(text) {
  try {
    return JSON.parse(text).msg;
  } catch {
    return text;
  }
}

/**
 * Answers one request, given as parts, with the service `current()` (which
 * must be ready). `path` is `gw.pathOf(url)`, when the caller has already read it.
 */
function answerer(gw, who, warn, current) {
  return function answer({ method, url, headers, body }, path = gw.pathOf(url)) {
    if (path === null) throw new Error(`${who}: ${url} is not under the gateway (${gw.where})`);
    // The envelope's JSON text goes out as it came from the service.
    const reply = exchange(current(), method, path, body, headers);
    // A failure the scenario asked for is no mistake to warn of.
    if (reply.status >= 400 && !reply.fault && !reply.headers["x-orderpay-fault"]) {
      const trace = reply.headers["x-b3-traceid"];
      warn(`orderpay: ${reply.status} for ${method} ${url}: ${messageOf(reply.text)}${trace ? ` (trace ${trace})` : ""}`);
    }
    return {
      status: reply.status,
      statusText: statusText(reply.status),
      headers: Object.entries(reply.headers),
      body: String(method).toUpperCase() === "HEAD" ? null : reply.text,
      fault: reply.fault ?? null,
    };
  };
}

/**
 * The Response to a reply, once its simulated time is waited out when
 * asked (`scale` real ms per simulated ms): a promise then, the Response
 * itself when there is no delay.
 */
function responseTo(reply, url, signal, light, scale) {
  const fault = networkFault(reply);
  const make = fault ? () => faultResponse(reply, url, signal) : () => responseOf(reply, url, light);
  // The simulated time the request took, waited out in real time when
  // asked, so a UI shows its loading states as against a real backend.
  if (scale > 0) {
    const simulated = Number(reply.headers.find(([name]) => name === "x-sim-duration-ms")?.[1] ?? 0);
    if (simulated > 0) return sleep(simulated * scale, signal).then(make);
  }
  return make();
}

/** `light`: the body kept as text until read (text_response.js), for callers that read it only through its methods. */
function responseOf(reply, url, light) {
  if (light && reply.body !== null) {
    return textResponse(reply.body, { status: reply.status, statusText: reply.statusText, headers: reply.headers }, url);
  }
  const response = new Response(reply.body, {
    status: reply.status,
    statusText: reply.statusText,
    headers: reply.headers,
  });
  // A real fetch's Response knows its URL; one made by hand does not.
  Object.defineProperty(response, "url", { value: url, configurable: true });
  return response;
}

/**
 * A Request's body as bytes, or null for none. Every kind of body (text,
 * JSON, URLSearchParams, Blob, ArrayBuffer, a stream) arrives as bytes; an
 * empty one is no body, as on the wire. A request with none (a GET) is not
 * read, nor waited for.
 */
async function bodyBytes(request, signal) {
  if (request.body === null) return null;
  const bytes = new Uint8Array(await request.arrayBuffer());
  abortedBy(signal);
  return bytes.length ? bytes : null;
}

/**
 * The service behind one adapter, made as soon as the WebAssembly module is
 * loaded: at once in Node or when given a Service, else after loading.
 */
export function engine(options, who, { anyOrigin = false } = {}) {
  const gw = gateway(options.baseUrl, { anyOrigin });
  checkService(options.service, who);
  checkScenario(options.scenario, who);
  const webhooks = checkWebhooks(options.webhooks, who);
  const warn = warner(options.warn, who);
  const scale = delayScale(options.delay, who);
  const { ready, current } = serviceWhenLoaded(options.service, options.scenario, webhooks, who);
  const answer = answerer(gw, who, warn, current);
  return {
    gateway: gw,
    ready,
    get service() {
      const service = current();
      if (!service) {
        throw new Error(`${who}: the service is not ready yet (the WebAssembly module is loading): await .ready first`);
      }
      return service;
    },
    answer,
    /** The service's reply ({status, statusText, headers, body, fault}) to a fetch Request under the gateway. */
    async reply(request) {
      await ready;
      const signal = request.signal;
      abortedBy(signal);
      const body = await bodyBytes(request, signal);
      return answer({ method: request.method, url: request.url, headers: request.headers, body });
    },
    /** How long to wait, in real ms, before giving a reply: its simulated time scaled by the `delay` option. */
    waitFor(reply) {
      return scale > 0 ? scale * Number(reply.headers.find(([name]) => name === "x-sim-duration-ms")?.[1] ?? 0) : 0;
    },
    /** A reply with no network fault as a plain Response. */
    responseOf: (reply, url) => responseOf(reply, url, false),
    /** Answers a fetch Request under the gateway with a Response. */
    /** `light`: as for responseOf; MSW reads the Response it gets as the platform does, so it gets a plain one. */
    async respond(request, light = false) {
      const reply = await this.reply(request);
      return responseTo(reply, request.url, request.signal, light, scale);
    },
    /**
     * Answers a request given as the parts a Request would hold (the
     * method normalised, headers checked, a text body or none), with no
     * Request made: createFetch's way for a URL and a plain init.
     */
    async respondTo({ method, url, headers, body, signal }, path, light = false) {
      await ready;
      abortedBy(signal);
      const reply = answer({ method, url, headers, body: body === "" ? null : body }, path);
      return responseTo(reply, url, signal, light, scale);
    },
  };
}
