// A Service Worker of your own that answers the gateway's URLs with
// createFetch, the service running inside the worker (one service for
// every page it controls). The package's own worker (/pkg/worker.js, see
// ../sw-demo/) runs the service in the page instead. Registered as a
// module worker: `register("worker.js", { type: "module" })`.
import { createFetch } from "/pkg/fetch.js";

const api = createFetch({ baseUrl: "/sw-own", service: { seed: 7, failureRate: 0 }, warn: false });

self.addEventListener("install", (event) => event.waitUntil(Promise.all([api.ready, self.skipWaiting()])));
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (!new URL(request.url).pathname.startsWith("/sw-own/api/")) return;
  // Either way in: the Request itself, or its URL with a plain init.
  if (request.headers.has("x-as-request")) {
    event.respondWith(api(request));
    return;
  }
  event.respondWith(
    (async () => {
      const body = request.method === "GET" || request.method === "HEAD" ? undefined : await request.text();
      return api(request.url, { method: request.method, headers: Object.fromEntries(request.headers), body });
    })(),
  );
});
