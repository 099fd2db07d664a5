// One session's service: the default session's, and one per named session
// (sessions.js makes those). Its gateway, its admin routes and the playground
// act on it; reset and snapshot replace swap it whole, and `generation`
// counts the swaps, so a page watching the log knows to start over.
import { Service } from "../node.js";
import { watchDeliveries } from "../service.js";

export class Instance {
  generation = 1;
  /** Called after each webhook delivery attempt is recorded: the server streams the records and saves the state. */
  attempted = () => {};

  /**
   * `options`: those of `new Service`; `restored`: a Service restored from
   * a saved state (StateFile.load), which this instance then owns, or null.
   * Throws the TypeError or RangeError of `new Service`.
   */
  constructor(options, restored = null) {
    this.options = options;
    this.service = restored ?? new Service(options);
    // A restored state keeps its own scenario, unless one was asked for (--scenario).
    if (restored !== null && options.scenario !== undefined) this.service.setScenario(options.scenario);
    // And its own endpoints, with the --webhook URLs it does not have yet.
    if (restored !== null) this.#addMissing(options.webhooks ?? []);
    this.#watch(this.service);
  }

  #addMissing(webhooks) {
    if (!webhooks.length) return;
    const have = new Set(this.service.webhooks().map((endpoint) => endpoint.url));
    for (const spec of webhooks) if (!have.has(spec.url)) this.service.addWebhook(spec);
  }

  #watch(service) {
    watchDeliveries(service, () => this.attempted());
  }

  /**
   * The start options' endpoints with the secrets the service made for
   * them from the seed: a reset, and every named session, then sign with
   * the same secret as the one printed at start. Returns the instance.
   */
  pinSecrets() {
    if (!this.options.webhooks?.length) return this;
    const made = new Map(this.service.webhooks().map((endpoint) => [endpoint.url, endpoint]));
    for (const spec of this.options.webhooks) spec.secret ??= made.get(spec.url)?.secret;
    return this;
  }

  /** A fresh service with `overrides` over the start options. Throws on a bad option, changing nothing. */
  reset(overrides = {}) {
    this.install(this.fresh(overrides));
  }

  /** A fresh service of the start options, `overrides` over them, not yet the session's. */
  fresh(overrides = {}) {
    return new Service({ ...this.options, ...overrides });
  }

  /** Makes `service` (a fresh() one, set up first) the session's, as a reset does. */
  install(service) {
    this.#swap(service);
  }

  /** The state of a snapshot's text. Throws a TypeError for text that is not one, changing nothing. */
  replace(snapshot) {
    this.#swap(Service.restore(snapshot));
  }

  #swap(service) {
    const old = this.service;
    this.#watch(service);
    this.service = service;
    this.generation += 1;
    old.free();
  }
}
