// orderpay/browser's types: startWorker, the page's side of the Service
// Worker, its options and the worker it starts; showChallenge and its result.
import type { Payment, PaymentStatus, Service } from "./orderpay.js";
import type { GatewayOptions } from "./fetch.js";

export interface WorkerOptions extends Omit<GatewayOptions, "delay"> {
  /** Where your server serves the package's `worker.js`, e.g. `"/orderpay-worker.js"`. */
  url: string | URL;
  /**
   * The pages the worker answers for; it must include this page. Default:
   * the directory of `url`. A scope above that directory needs the
   * `Service-Worker-Allowed` response header on the script.
   */
  scope?: string | URL;
  /** How long to wait for the worker to take control, in ms. Default 10000. */
  timeout?: number;
}

export interface StartedWorker {
  /** The service answering this page's requests: read its logs here. */
  readonly service: Service;
  readonly registration: ServiceWorkerRegistration;
  /** The worker stops answering for this page: its requests go to the network again. */
  stop(): Promise<void>;
}

/**
 * Registers the worker and resolves once it controls this page and has
 * acknowledged it, with the service made from the page's own settings: from
 * then on, every request this page makes under the gateway (fetch,
 * XMLHttpRequest, any client library) is answered by that service. Calling
 * it again replaces the previous service.
 */
export function startWorker(options: WorkerOptions): Promise<StartedWorker>;

export interface ChallengeOptions {
  /**
   * The fetch that reaches orderpay in your app: a `createFetch()` function,
   * or your API client's. Default: the global `fetch` at the time of the
   * call (answered by MSW's worker, orderpay's Service Worker, Playwright's
   * routes, `installFetch` or a real `orderpay serve`).
   */
  fetch?: (input: string, init: RequestInit) => Promise<Response>;
  /**
   * The frame to show the page in; it stays, showing the page the service
   * answered when the pay had no `returnUrl`. Default: a new iframe,
   * titled "Card authentication", added to the end of `document.body` and
   * removed once the buyer has answered.
   */
  frame?: HTMLIFrameElement;
  /** Stops waiting for the buyer: the promise rejects with the signal's reason. */
  signal?: AbortSignal;
}

export interface ChallengeResult {
  readonly paymentId: string;
  /** The payment's status once answered: SUCCESS or FAILED (PENDING when a rule keeps processing it). */
  readonly status: PaymentStatus;
  /** The payment, as `GET /api/payment/{id}` answers it after the buyer's answer. */
  readonly payment: Payment;
}

/**
 * Shows a payment's challenge page (its `nextAction.url`) to the buyer in
 * a frame of this page, and resolves once the buyer has clicked Complete,
 * Fail or Cancel, with the payment as it is then. The page is fetched, its
 * answer posted and the payment read through `options.fetch` (default the
 * global fetch), so it works in every way the gateway is mocked, MSW's
 * worker included, which lets a frame's or a redirect's navigation through.
 * The frame is sandboxed: no script runs in it and its forms do not submit.
 * A challenge already over resolves with its status: at once when its page
 * has no buttons left, or after the click when it ended meanwhile (409).
 * Rejects when the page or the payment cannot be read (the service's
 * status and message in the error), or when `signal` aborts; a `url` that
 * is no challenge page, an unknown option or a wrong type rejects with a
 * `TypeError` naming it, and a call outside a browser page with an Error.
 */
export function showChallenge(url: string | URL, options?: ChallengeOptions): Promise<ChallengeResult>;
