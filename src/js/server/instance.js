// The one service the server runs: the gateway, the admin API and the
// playground all act on it. Reset and snapshot replace swap it whole;
// `generation` counts the swaps, so a page watching the log knows to start
// over rather than append.
import { Service } from "../node.js";

export class Instance {
  /** True when the service refused `maxOrders` as unknown and runs without it. */
  maxOrdersIgnored = false;
  generation = 1;

  /** `options`: those of `new Service`. Throws its TypeError or RangeError. */
  constructor(options, snapshot = null) {
    this.options = options;
    this.service = snapshot === null ? this.#create(options) : Service.restore(snapshot);
    // A restored state keeps its own scenario, unless one was asked for (--scenario).
    if (snapshot !== null && options.scenario !== undefined) this.service.setScenario(options.scenario);
  }

  /**
   * A new Service. `maxOrders` is passed on; a service that does not know
   * the option refuses it as unknown, and then runs without it.
   */
  #create(options) {
    try {
      return new Service(options);
    } catch (error) {
      if (options.maxOrders === undefined || !/unknown option "maxOrders"/.test(error.message)) throw error;
      const rest = { ...options };
      delete rest.maxOrders;
      const service = new Service(rest);
      this.maxOrdersIgnored = true;
      return service;
    }
  }

  /** A fresh service with `overrides` over the start options. Throws on a bad option, changing nothing. */
  reset(overrides = {}) {
    this.#swap(this.#create({ ...this.options, ...overrides }));
  }

  /** The state of a snapshot's text. Throws a TypeError for text that is not one, changing nothing. */
  replace(snapshot) {
    this.#swap(Service.restore(snapshot));
  }

  #swap(service) {
    const old = this.service;
    this.service = service;
    this.generation += 1;
    old.free();
  }
}
