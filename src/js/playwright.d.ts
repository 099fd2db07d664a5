// orderpay/playwright's types: mockOrderpay, the service behind a Playwright
// page or browser context, in its own form and its { server } form.
import type { LogRecord, Service } from "./orderpay.js";
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

/** mockOrderpay pointed at a running `orderpay serve`. */
export interface ServerRouteOptions {
  /** The server's address, with its --base path if it has one: "http://127.0.0.1:4010". */
  server: string | URL;
  /** The session the page's requests act on; by default `worker-N`, N the Playwright worker's index (TEST_WORKER_INDEX). */
  session?: string;
  /** Where the app calls the gateway, as for createFetch: a path matches on any origin. Default "/". */
  baseUrl?: string | URL;
  /** Make the session fresh before routing (POST .../reset); default true. */
  reset?: boolean;
}

export interface ServerRoute {
  /** The session's name. */
  readonly session: string;
  /** Its admin routes' base: `${admin}/logs`, `${admin}/force-next`, ... */
  readonly admin: string;
  /** The session's next `count` payment attempts (default 1) succeed or fail. */
  forceNext(outcome: "success" | "failure", count?: number): Promise<void>;
  /** The session's log records, oldest first. */
  logs(): Promise<LogRecord[]>;
  /** Stops routing; the gateway's requests go to the network again. */
  unroute(): Promise<void>;
}

/**
 * Sends every request of the page (or context) under `{baseUrl}/api` to
 * the server, in this worker's own session, made fresh first.
 */
export function mockOrderpay(target: Routable, options: ServerRouteOptions): Promise<ServerRoute>;

/**
 * Answers every request of the page (or of every page of the context)
 * under `{baseUrl}/api` with the service, through `route.fulfill`: no
 * Service Worker, no change to the app. A `baseUrl` that is a path matches
 * on any origin. A `Service` alone is `{ service }`.
 */
export function mockOrderpay(target: Routable, options?: Service | GatewayOptions): Promise<OrderpayRoute>;
