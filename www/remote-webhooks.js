// Live mode's webhooks: the server's endpoints with their deliveries
// (GET /__orderpay/webhooks) and its events (GET /__orderpay/webhooks/events),
// mirrored so that the page reads them at once, as it reads the records;
// fetched again after each change the page makes and as records come in
// (a delivery attempt writes one) and while an attempt is in flight. The events are read only once webhooks
// are on (the server has an endpoint, or the page asked for them): reading
// them turns webhooks on for the server's service.

/** How often, at most, the mirror is fetched again as records come in. */
const SOON_MS = 300;

export class RemoteWebhooks {
  endpoints = [];
  /** The events read, oldest first. */
  list = [];
  /** Whether the events are read (see above). */
  on = false;
  #timer = 0;
  #reading = null;

  /** `admin(method, route, body)`: the admin API's data, or throws its msg. `changed()`: called once the mirror moved. */
  constructor(admin, changed) {
    this.admin = admin;
    this.changed = changed;
  }

  /** The endpoints afresh, and the events after the last held once they are on. */
  read() {
    this.#reading ??= this.#read().finally(() => { this.#reading = null; });
    return this.#reading;
  }

  async #read() {
    this.endpoints = (await this.admin("GET", "/webhooks")).webhooks;
    if (this.endpoints.length) this.on = true;
    if (!this.on) return;
    const after = this.list.at(-1)?.id;
    const { events } = await this.admin("GET", `/webhooks/events${after ? `?after=${encodeURIComponent(after)}` : ""}`);
    this.list.push(...events);
  }

  /** A fresh service on the server: nothing held of the last one's. */
  forget() {
    this.endpoints = [];
    this.list = [];
    this.on = false;
  }

  /**
   * Read again in a moment (a request made changes, records came): at
   * most once per SOON_MS, and again while an attempt is in flight (the
   * server sends each after the answer of the request that made it).
   */
  soon() {
    if (this.#timer) return;
    this.#timer = setTimeout(async () => {
      try {
        await this.read();
        this.changed();
      } catch { /* the server is away: the next request or record reads again */ }
      this.#timer = 0;
      if (this.endpoints.some((e) => e.deliveries?.some((d) => d.state === "in_flight"))) this.soon();
    }, SOON_MS);
  }

  /** The events held after `after` (all without it); the first ask turns them on and fetches them. */
  events(after) {
    if (!this.on) {
      this.on = true;
      this.soon();
    }
    if (after === undefined) return this.list.slice();
    const at = this.list.findIndex((e) => e.id === after);
    if (at < 0) throw new RangeError(`after: no event ${after}`);
    return this.list.slice(at + 1);
  }
}
