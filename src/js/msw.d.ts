// orderpay/msw's types: createHandlers, the Mock Service Worker handlers
// answered by a service, and their `service` and `ready`.
import type { HttpHandler } from "msw";
import type { Service } from "./orderpay.js";
import type { GatewayOptions } from "./fetch.js";

// The envelope types, for the JSON of the handlers' responses (see fetch.d.ts).
export type { Envelope, EnvelopeCode, ErrorCode, ErrorEnvelope, RouteEnvelope, SuccessEnvelope } from "./fetch.js";

/** Handlers to spread into `setupServer(...)`, `setupWorker(...)` or `server.use(...)`. */
export interface OrderpayHandlers extends Array<HttpHandler> {
  /** The service behind the handlers; in a browser, throws until `ready` resolves. */
  readonly service: Service;
  /** Resolves with the service once the WebAssembly module is loaded. */
  readonly ready: Promise<Service>;
}

/**
 * One MSW handler for every method under `{baseUrl}/api`, answered by the
 * service; other URLs are left to your other handlers and to MSW's
 * `onUnhandledRequest`. A `Service` alone is `{ service }`.
 */
export function createHandlers(options?: Service | GatewayOptions): OrderpayHandlers;
