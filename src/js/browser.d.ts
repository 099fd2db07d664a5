// orderpay/browser's types: startWorker, the page's side of the Service
// Worker, its options and the worker it starts.
import type { Service } from "./orderpay.js";
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
