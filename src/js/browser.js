// orderpay/browser: the page's side of the Service Worker. The page holds
// the Service (with the settings it chose); the worker (worker.js) sends it
// every request the page makes under the gateway and returns its answers, so
// the app's own fetch, XMLHttpRequest, axios or ky calls need no change.
// Also showChallenge (challenge_frame.js): a payment's challenge in a frame,
// answered through the app's fetch, in whichever way the gateway is mocked.
import { checkOptions, engine, kind } from "./adapter.js";

export { showChallenge } from "./challenge_frame.js";

const PROTOCOL = 1;
const OPTIONS = ["url", "scope", "service", "baseUrl", "warn", "timeout", "scenario", "webhooks"];

let current = null;

/** Resolves with the reply to `message` on a fresh channel, or rejects at the deadline. */
function ask(worker, message, deadline, what) {
  return new Promise((resolve, reject) => {
    const channel = new MessageChannel();
    const timer = setTimeout(() => reject(new Error(`startWorker: the worker did not answer ${what} in time`)), deadline - Date.now());
    channel.port1.onmessage = (event) => {
      clearTimeout(timer);
      channel.port1.close();
      if (event.data?.type === "orderpay:error") reject(new Error(`startWorker: the worker says: ${event.data.message}`));
      else resolve(event.data);
    };
    worker.postMessage(message, [channel.port2]);
  });
}

/** Resolves once a worker running `scriptURL` controls this page. */
function controlled(registration, scriptURL, deadline, timeout) {
  const container = navigator.serviceWorker;
  return new Promise((resolve, reject) => {
    const done = () => {
      const controller = container.controller;
      if (controller?.scriptURL !== scriptURL) return false;
      container.removeEventListener("controllerchange", done);
      clearTimeout(timer);
      resolve(controller);
      return true;
    };
    const timer = setTimeout(() => {
      container.removeEventListener("controllerchange", done);
      reject(
        new Error(
          `startWorker: ${scriptURL} did not take control of this page (${location.href}) within ${timeout} ms; ` +
            `its scope is ${registration.scope}. Is the script served as JavaScript, and does it run without errors?`,
        ),
      );
    }, Math.max(0, deadline - Date.now()));
    container.addEventListener("controllerchange", done);
    if (done()) return;
    // A new worker claims the pages in its scope when it activates. One that
    // is already active does not control a page loaded with a hard reload
    // (Shift+Reload) until asked to claim it.
    const claim = (worker) => {
      if (!worker || worker.scriptURL !== scriptURL) return;
      const ask = () => worker.state === "activated" && worker.postMessage({ type: "orderpay:claim" });
      if (worker.state === "activated") ask();
      else worker.addEventListener("statechange", ask);
    };
    claim(registration.active);
    claim(registration.waiting);
    claim(registration.installing);
    registration.addEventListener("updatefound", () => claim(registration.installing));
  });
}

/** The options of startWorker, checked, and that this page can have a worker at all. */
function checkWorkerOptions(options) {
  const opts = checkOptions(options, OPTIONS, "startWorker");
  if (typeof opts.url !== "string" && !(opts.url instanceof URL)) {
    throw new TypeError(`startWorker: url: expected the URL your server serves orderpay's worker.js at, got ${kind(opts.url)}`);
  }
  if (opts.scope !== undefined && typeof opts.scope !== "string" && !(opts.scope instanceof URL)) {
    throw new TypeError(`startWorker: scope: expected a path or URL, got ${kind(opts.scope)}`);
  }
  const timeout = opts.timeout ?? 10000;
  if (typeof timeout !== "number" || !(timeout > 0)) {
    throw new TypeError(`startWorker: timeout: expected milliseconds above 0, got ${String(timeout)}`);
  }
  if (!globalThis.navigator?.serviceWorker) {
    throw new Error(
      "startWorker: Service Workers are not available here: they need a browser page in a secure context " +
        "(https, or http://localhost / 127.0.0.1)",
    );
  }
  return opts;
}

/** Answers a request the worker passed on, on the port it gave: always, with a 500 when the page cannot. */
function answerPage(core, event) {
  const data = event.data;
  if (data?.type !== "orderpay:request" || !event.ports[0]) return;
  let reply;
  try {
    reply = core.answer({
      method: data.method,
      url: data.url,
      headers: data.headers,
      body: data.body ? new Uint8Array(data.body) : null,
    });
  } catch (error) {
    // The worker waits for a reply: it always gets one.
    const msg = `orderpay: the page could not answer ${data.method} ${data.url}: ${error?.message ?? error}`;
    console.error(msg);
    reply = {
      status: 500,
      statusText: "Internal Server Error",
      headers: [["content-type", "application/json"]],
      body: JSON.stringify({ code: 500, msg, data: null }),
    };
  }
  event.ports[0].postMessage(reply);
}

/**
 * Registers the worker and resolves once it controls this page and has
 * acknowledged it: from then on, every request the page makes under the
 * gateway is answered by the returned `service`.
 */
export async function startWorker(options) {
  const opts = checkWorkerOptions(options);
  const timeout = opts.timeout ?? 10000;
  const core = engine(opts, "startWorker");
  const service = await core.ready;
  const deadline = Date.now() + timeout;

  const script = new URL(opts.url, document.baseURI);
  if (core.gateway.base !== "/") script.searchParams.set("base", core.gateway.base);
  const scope = new URL(opts.scope ?? ".", opts.scope === undefined ? script : document.baseURI).href;
  if (!location.href.startsWith(scope)) {
    throw new Error(
      `startWorker: the scope ${scope} does not include this page (${location.href}), so the worker could never ` +
        "answer its requests: pass a scope that does (the server must then allow it: see Service-Worker-Allowed)",
    );
  }

  if (current) await current.stop();
  const container = navigator.serviceWorker;
  const registration = await container.register(script.href, { scope, updateViaCache: "none" });
  const worker = await controlled(registration, script.href, deadline, timeout);

  const onMessage = (event) => answerPage(core, event);
  container.addEventListener("message", onMessage);
  container.startMessages();

  const ack = await ask(worker, { type: "orderpay:start", protocol: PROTOCOL }, deadline, "startWorker");
  if (ack.protocol !== PROTOCOL) {
    container.removeEventListener("message", onMessage);
    throw new Error(
      `startWorker: ${script.href} is another version of orderpay's worker (protocol ${ack.protocol}, this page ` +
        `speaks ${PROTOCOL}): copy the worker.js of the installed package again`,
    );
  }

  let stopped = false;
  const handle = {
    service,
    registration,
    async stop() {
      if (stopped) return;
      stopped = true;
      if (current === handle) current = null;
      const controller = container.controller;
      if (controller) await ask(controller, { type: "orderpay:stop" }, Date.now() + timeout, "stop");
      container.removeEventListener("message", onMessage);
    },
  };
  current = handle;
  return handle;
}
