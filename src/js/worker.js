// orderpay's Service Worker: a classic script with no imports, so that it can
// be copied next to an app's pages and runs in every browser with Service
// Workers. It holds no service and no settings. A page that called
// `startWorker()` (orderpay/browser) holds its own Service, with the settings
// it chose; for each request that page sends under the gateway, this worker
// asks the page for the answer and returns it as the response. Everything
// else goes to the network, untouched.
//
// The base URL of the gateway comes from this script's own URL
// (`worker.js?base=/shop`), which startWorker sets: it must be known at once
// when a request arrives, even after the browser stopped and restarted this
// worker. Which pages started (or stopped) is kept in Cache Storage for the
// same reason: a browser stops an idle worker after about 30 seconds, and a
// page that started must still be answered afterwards.
"use strict";

const PROTOCOL = 1;
const STORE = "orderpay-worker";
const PAGES_KEY = new URL("__orderpay/pages", self.registration.scope).href;

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The gateway's URLs: as `gateway()` in gateway_url.js, with the worker's
 * origin for a path. A copy, because this script has no imports (it is
 * copied beside an app's pages, alone); tests/node/gateway-url.test.mjs
 * holds the two to the same answers.
 */
function gatewayPattern(base) {
  let origin = self.location.origin;
  let path = base;
  if (/^[a-z][a-z\d+.-]*:/i.test(base)) {
    const url = new URL(base);
    origin = url.origin;
    path = url.pathname;
  }
  path = path.replace(/\/+$/, "");
  return new RegExp(`^${escape(origin)}${escape(path)}/[aA][pP][iI](?:/[^?#]*)?(?:\\?[^#]*)?(?:#.*)?$`);
}

const BASE = new URL(self.location.href).searchParams.get("base") || "/";
const GATEWAY = gatewayPattern(BASE);

/** Client id -> "started" or "stopped"; loaded from Cache Storage once per worker start. */
let pages = null;

async function loadPages() {
  if (pages) return pages;
  let saved = [];
  try {
    const cache = await caches.open(STORE);
    const hit = await cache.match(PAGES_KEY);
    if (hit) saved = await hit.json();
  } catch {
    // No Cache Storage (private mode in some browsers): memory only.
  }
  pages ??= new Map(saved);
  return pages;
}

async function savePages() {
  try {
    const cache = await caches.open(STORE);
    await cache.put(PAGES_KEY, new Response(JSON.stringify([...pages]), {
      headers: { "content-type": "application/json" },
    }));
  } catch {
    // Memory only, as above.
  }
}

async function setPage(id, state) {
  await loadPages();
  const alive = new Set((await self.clients.matchAll({ includeUncontrolled: true, type: "all" })).map((c) => c.id));
  for (const known of pages.keys()) if (!alive.has(known)) pages.delete(known);
  pages.set(id, state);
  await savePages();
}

self.addEventListener("install", () => {
  self.skipWaiting();
});

self.addEventListener("activate", (event) => {
  // Takes control of the pages in scope at once, the first one included.
  event.waitUntil(self.clients.claim());
});

self.addEventListener("message", (event) => {
  const data = event.data;
  if (!data || typeof data.type !== "string" || !data.type.startsWith("orderpay:")) return;
  const port = event.ports[0];
  const id = event.source && event.source.id;
  const reply = (message) => port && port.postMessage(message);
  event.waitUntil(
    (async () => {
      switch (data.type) {
        case "orderpay:start":
          if (data.protocol === PROTOCOL) await setPage(id, "started");
          return { type: "orderpay:started", protocol: PROTOCOL, base: BASE, scope: self.registration.scope };
        case "orderpay:stop":
          await setPage(id, "stopped");
          return { type: "orderpay:stopped" };
        case "orderpay:claim":
          await self.clients.claim();
          return { type: "orderpay:claimed" };
        default:
          return { type: "orderpay:error", message: `unknown message ${data.type}` };
      }
    })().then(reply, (error) => reply({ type: "orderpay:error", message: String(error && error.message || error) })),
  );
});

/** What a page that never started (or started too late) gets: loud, not the network. */
function notStarted(request) {
  const url = new URL(request.url);
  const msg =
    `orderpay: this page has not started the service, so ${request.method} ${url.pathname}${url.search} ` +
    "has no answer: call startWorker() and wait for it before the first request";
  console.warn(msg);
  return new Response(JSON.stringify({ code: 503, msg, data: null }), {
    status: 503,
    statusText: "Service Unavailable",
    headers: { "content-type": "application/json" },
  });
}

async function answer(event) {
  const request = event.request;
  await loadPages();
  const state = pages.get(event.clientId);
  if (state === "stopped") return fetch(request);
  const client = state === "started" ? await self.clients.get(event.clientId) : undefined;
  if (!client) return notStarted(request);
  return askPage(client, request);
}

/**
 * The answer of the page `client` to `request`, as it gave it: its status,
 * its headers (a content type, a Location) and its body.
 */
async function askPage(client, request) {
  const body = await request.arrayBuffer();
  const channel = new MessageChannel();
  const replied = new Promise((resolve) => {
    channel.port1.onmessage = (message) => resolve(message.data);
  });
  const message = {
    type: "orderpay:request",
    method: request.method,
    url: request.url,
    headers: [...request.headers],
    body: body.byteLength ? body : null,
  };
  client.postMessage(message, body.byteLength ? [channel.port2, body] : [channel.port2]);
  const reply = await replied;
  if (reply.fault && reply.fault.kind === "network") return faultResponse(reply, request.signal);
  return new Response(reply.body, { status: reply.status, statusText: reply.statusText, headers: reply.headers });
}

/**
 * A scenario's network fault as a browser meets it: `Response.error()` for
 * a lost connection (the page's fetch rejects with a TypeError), a hang
 * that lasts until the page aborts its request, a body that breaks off
 * halfway or comes in pieces over `ms`.
 */
function faultResponse(reply, signal) {
  const kind = reply.fault.fault;
  if (kind === "hang") {
    return new Promise((resolve) => {
      if (signal.aborted) resolve(Response.error());
      signal.addEventListener("abort", () => resolve(Response.error()), { once: true });
    });
  }
  if ((kind !== "short" && kind !== "dribble") || !(reply.status >= 200 && reply.status <= 599)) return Response.error();
  const bytes = new TextEncoder().encode(reply.body || "");
  const headers = reply.headers.filter(([name]) => name !== "content-length");
  const body = kind === "short" ? shortBody(bytes) : dribbleBody(bytes, reply.fault.ms, signal);
  return new Response(body, { status: reply.status, statusText: reply.statusText, headers });
}

/** Half the bytes, then an error: a connection closed mid-body. */
function shortBody(bytes) {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes.subarray(0, Math.floor(bytes.length / 2)));
    },
    pull(controller) {
      controller.error(new TypeError("terminated: the connection closed before the whole body (a short body)"));
    },
  });
}

/** The bytes in (at most 10) pieces spread over `ms`, ended by an abort of the page's request. */
function dribbleBody(bytes, ms, signal) {
  const pieces = Math.max(1, Math.min(10, bytes.length));
  const size = Math.ceil(bytes.length / pieces);
  // `ms` is the rule's, or the core's default, which the page sends with the fault.
  const gap = ms / Math.max(1, pieces - 1);
  let sent = 0;
  return new ReadableStream({
    async pull(controller) {
      if (sent > 0 || pieces === 1) await new Promise((resolve) => setTimeout(resolve, gap));
      if (signal.aborted) return controller.error(signal.reason);
      const piece = bytes.subarray(sent, sent + size);
      sent += piece.length;
      controller.enqueue(piece);
      if (sent >= bytes.length) controller.close();
    },
  });
}

/**
 * The challenge page of a payment (`{base}/api/payment/{id}/challenge`,
 * the url of a Payment's nextAction): the one gateway URL a browser
 * navigates to, as a buyer sent there by the app.
 */
const CHALLENGE = /\/[aA][pP][iI]\/payment\/[^/?#]+\/challenge(?:[?#]|$)/;

/**
 * A navigation to the challenge page (the app's redirect, an iframe, its
 * form's Complete, Fail or Cancel) comes from no page that started: the
 * page that holds the service is the one navigating, or the parent of the
 * frame. It is answered by the most recently focused page that started,
 * while that page lives. When every page that started has gone (a
 * top-level redirect to the challenge unloads the page, and its service
 * with it, so the form's POST comes after), a page saying so; when none
 * ever started, the network, as before.
 */
async function answerNavigation(event) {
  await loadPages();
  const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  const client = windows.find((c) => pages.get(c.id) === "started");
  if (client) return askPage(client, event.request);
  const alive = new Set(windows.map((c) => c.id));
  const gone = [...pages].some(([id, state]) => state === "started" && !alive.has(id));
  return gone ? serviceGone(event.request) : fetch(event.request);
}

/** The page a navigation gets once the page that held the service has gone: a 503 that says why and what to do. */
function serviceGone(request) {
  const url = new URL(request.url);
  const what = `${request.method} ${url.pathname}${url.search}`.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  console.warn(`orderpay: the page that held the service has gone, so ${request.method} ${url.pathname}${url.search} has no answer`);
  const html =
    '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>orderpay: the service has gone</title></head>' +
    "<body><h1>The page that held orderpay's service has gone</h1>" +
    `<p>${what} has no answer: orderpay's Service Worker asks the page that called <code>startWorker()</code>, ` +
    "and that page was left for this one, its payments with it.</p>" +
    "<p>Keep the buyer on that page: show the challenge in a frame, with <code>showChallenge(nextAction.url)</code> " +
    "from <code>orderpay/browser</code>, or an iframe whose <code>src</code> is <code>nextAction.url</code>.</p></body></html>\n";
  return new Response(html, { status: 503, statusText: "Service Unavailable", headers: { "content-type": "text/html; charset=utf-8" } });
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  // Navigations (typing an /api/ URL in the address bar) go to the network,
  // but for the challenge page, which the page that started answers.
  if (request.mode === "navigate") {
    if (GATEWAY.test(request.url) && CHALLENGE.test(new URL(request.url).pathname)) event.respondWith(answerNavigation(event));
    return;
  }
  if (!GATEWAY.test(request.url)) return;
  // A page that stopped: straight to the network, when this worker knows it.
  if (pages && pages.get(event.clientId) === "stopped") return;
  event.respondWith(answer(event));
});
