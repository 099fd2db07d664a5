import type { Service } from "./orderpay.js";
import type { GatewayOptions } from "./fetch.js";

/** What mockOrderpay needs of a Playwright Page or BrowserContext (typed loosely, so any Playwright version fits). */
export interface Routable {
  route(url: (url: URL) => boolean, handler: (route: object) => unknown): Promise<unknown>;
  unroute(url: (url: URL) => boolean, handler?: (route: object) => unknown): Promise<unknown>;
}

export interface OrderpayRoute {
  /** The service answering the page: its logs, `forceNext`, snapshots. */
  readonly service: Service;
  /** Stops answering; the gateway's requests go to the network again. */
  unroute(): Promise<void>;
}

/**
 * Answers every request of the page (or of every page of the context)
 * under `{baseUrl}/api` with the service, through `route.fulfill`: no
 * Service Worker, no change to the app. A `baseUrl` that is a path matches
 * on any origin. A `Service` alone is `{ service }`.
 */
export function mockOrderpay(target: Routable, options?: Service | GatewayOptions): Promise<OrderpayRoute>;
