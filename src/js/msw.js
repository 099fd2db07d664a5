// orderpay/msw: the service as Mock Service Worker handlers. `msw` is an
// optional peer dependency: it is imported from the user's own install, and
// only by those who import this module.
import { http } from "msw";
import { Service } from "./orderpay.js";
import { checkOptions, engine } from "./gateway.js";

const OPTIONS = ["service", "baseUrl", "warn", "delay"];

/**
 * One handler for every method on the gateway's URLs. URLs outside the
 * gateway are left to the next handlers and to MSW's onUnhandledRequest.
 */
export function createHandlers(options) {
  const opts = options instanceof Service ? { service: options } : checkOptions(options, OPTIONS, "createHandlers");
  // On any origin unless baseUrl names one: the same test then passes under
  // jsdom (whose page is http://localhost:3000) and in Node (no page at all).
  const core = engine(opts, "createHandlers", { anyOrigin: true });
  const handlers = [http.all(core.gateway.pattern, ({ request }) => core.respond(request))];
  Object.defineProperties(handlers, {
    service: { get: () => core.service },
    ready: { value: core.ready },
  });
  return handlers;
}
