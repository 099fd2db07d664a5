// orderpay/fetch's types: createFetch and installFetch, the options every
// adapter shares (GatewayOptions), and the envelope types for a Response's JSON.
import type { ScenarioDocument, ScenarioPreset, Service, ServiceOptions, WebhookSpec } from "./orderpay.js";

// The envelope types, for a gateway Response's JSON: `const body:
// RouteEnvelope<"POST", "/api/order/create"> = await response.json()`,
// then `if (body.code === 0)` narrows `body.data` to an Order.
export type { Envelope, EnvelopeCode, ErrorCode, ErrorEnvelope, SuccessEnvelope } from "./orderpay.js";
export type { RouteEnvelope } from "./routes.js";

/** A function called as `fetch` is. */
export type Fetch = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;

/** Options shared by createFetch, installFetch, createHandlers and startWorker. */
export interface GatewayOptions {
  /**
   * The service that answers: a `Service`, or the options of a new one.
   * Default: a new Service with a random seed (readable as `.service.seed`).
   */
  service?: Service | ServiceOptions;
  /**
   * A failure scenario set on the service (over its own, on a `Service`
   * given): a document, its JSON text or a preset's name such as
   * `"rate-limited"` (see docs/scenarios.md). A bad one throws a TypeError
   * or RangeError naming its path. Its network faults take this way in's
   * own form (docs/network-faults.md): with createFetch, a lost connection
   * rejects with a `NetworkFaultError` (a TypeError), a hang never settles
   * until the request's signal aborts, a short body errors while read.
   */
  scenario?: ScenarioDocument | ScenarioPreset | string | null;
  /**
   * Webhook endpoints added to the service (docs/webhooks.md): `{ url }` or
   * `{ handler }`, with `secret`, `events` and `header`. Await
   * `.service.webhooksSettled()` for the deliveries a request set going.
   */
  webhooks?: WebhookSpec[];
  /**
   * Where the gateway lives (the spec's `{base_url}`): a path such as `"/"`
   * or `"/shop"`, on the page's own origin in a browser and on any origin in
   * Node; or an absolute URL such as `"https://api.example.test/v1"`. The
   * service answers every URL under `{baseUrl}/api`. Default `"/"`.
   */
  baseUrl?: string | URL;
  /**
   * What to do when the gateway turns a request away (HTTP status 400 and
   * above: a path with no route, a wrong method, a malformed body): `true`
   * (the default) prints one line with `console.warn`, `false` prints
   * nothing, a function receives the line. The log records show it anyway.
   */
  warn?: boolean | ((message: string) => void);
  /**
   * Wait out each request's simulated latency (its `x-sim-duration-ms`) in
   * real time before answering, so a UI shows its loading states: `true`
   * waits as long as simulated, a number scales it (`0.5`: half as long).
   * Default `false`: answers at once. An abort during the wait rejects as
   * fetch does. Not for the Service Worker, whose page answers at once.
   */
  delay?: boolean | number;
}

export interface FetchOptions extends GatewayOptions {
  /**
   * Requests outside the gateway: `"fetch"` (the default) hands them to the
   * fetch that was global when this one was made; `"reject"` rejects them
   * with a TypeError naming the URL; a function receives them instead.
   */
  passthrough?: "fetch" | "reject" | Fetch;
}

/** A fetch answered by the service under the gateway. */
export interface OrderpayFetch {
  (input: RequestInfo | URL, init?: RequestInit): Promise<Response>;
  /**
   * The service behind this fetch: its logs, snapshot, clock. Available at
   * once in Node and when a `Service` was given; in a browser, throws until
   * `ready` resolves (the first request waits for it by itself).
   */
  readonly service: Service;
  /** Resolves with the service once the WebAssembly module is loaded. */
  readonly ready: Promise<Service>;
}

/** A fetch put in place of `globalThis.fetch`. */
export interface InstalledFetch extends OrderpayFetch {
  /**
   * Puts back the fetch that was global before. Throws if something else
   * replaced `globalThis.fetch` since (undo that first); does nothing the
   * second time.
   */
  uninstall(): void;
}

/** A fetch whose requests under the gateway are answered by the service; a `Service` alone is `{ service }`. */
export function createFetch(options?: Service | FetchOptions): OrderpayFetch;

/** createFetch, installed as `globalThis.fetch`; other URLs go to the fetch it replaced. */
export function installFetch(options?: Service | FetchOptions): InstalledFetch;
