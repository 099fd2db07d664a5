// The Webhooks panel: the service's events, each endpoint's deliveries
// and their attempts, and the built-in receiver (webhook-receiver.js) a
// learner switches on, and makes fail, to watch a delivery fail, retry on
// the service's clock and succeed. It reads and acts through the store,
// so it shows the server's events and endpoints in live mode too.
import { $, fill, h, inSightWhileGenerating, throttled } from "./dom.js";
import { duration } from "./payment-states.js";
import { serviceTime } from "./service-time.js";
import { Receiver } from "./webhook-receiver.js";
import { endpointView } from "./webhook-deliveries.js";
import { eventItems } from "./webhook-events.js";

export function mountWebhooks(store) {
  const box = $("#webhooks");
  if (!store.hasWebhooks) {
    fill($("#hooks-body"), h("p", { class: "note" }, "This build of the package has no webhooks."));
    return;
  }
  $("#hooks-live").hidden = !store.remote;
  const view = new WebhooksPanel(store);
  $("#hooks-list").addEventListener("click", () => view.list());
  $("#receiver-on").addEventListener("change", (e) => view.switchReceiver(e.target.checked));
  $("#receiver-fail").addEventListener("change", (e) => view.makeFail(e.target.checked));
  $("#hooks-advance").addEventListener("click", () => view.advanceToNext());
  // A test-data run's thousands of events and deliveries: drawn once the panel is in sight.
  const draw = inSightWhileGenerating(store, box, throttled(() => view.draw()));
  store.addEventListener("change", (e) => {
    if (e.detail.reset) view.adopt();
    draw();
  });
  box.dataset.ready = "true";
  view.adopt();
  view.draw();
}

class WebhooksPanel {
  /** The events read so far, oldest first (service.events(), read after the last one held). */
  events = [];
  /** Whether the events are read: once the learner asked, or the service has an endpoint. */
  listing = false;
  timer = 0;

  constructor(store) {
    this.store = store;
    this.receiver = new Receiver(store, () => store.followDeliveries());
  }

  say(text, kind = "info") {
    const message = $("#hooks-message");
    message.dataset.kind = kind;
    message.textContent = text;
  }

  /**
   * A service now in use (a fresh start, a reload, an import, an undo):
   * its events are read again. A built-in receiver saved with it has no
   * function in this page any more: it is registered again, with its
   * secret, so the deliveries go on (those made before stay with the old
   * endpoint, removed).
   */
  async adopt() {
    const { store, receiver } = this;
    this.events = [];
    const endpoints = store.webhooks();
    this.listing = endpoints.length > 0;
    if (receiver.use(store.service)) return;
    const saved = store.remote ? null : endpoints.find((e) => e.handler);
    if (!saved) return;
    try {
      await store.removeWebhook(saved.id);
      await this.attach(saved.secret);
    } catch (e) {
      this.say(`The built-in receiver could not be registered again: ${e.message}`, "error");
    }
  }

  /** Registers the receiver with the service in use. */
  async attach(secret) {
    const { store, receiver } = this;
    const endpoint = await receiver.register(store.service, (spec) => store.addWebhook(spec), secret);
    this.listing = true;
    return endpoint;
  }

  /** "List the events": reading them turns webhooks on for this service. */
  list() {
    this.listing = true;
    this.draw();
  }

  async switchReceiver(on) {
    const { store, receiver } = this;
    try {
      if (on && !receiver.endpoint) {
        const endpoint = await this.attach();
        this.say(`The built-in receiver is on (${endpoint.id}): every state change from now on is delivered to it, signed with ${endpoint.secret}.`);
      } else if (!on && receiver.endpoint) {
        await store.removeWebhook(receiver.endpoint.id);
        receiver.unregistered(store.service);
        this.say("The built-in receiver is off: nothing more is sent to it.");
      }
    } catch (e) {
      this.say(`The receiver could not be switched: ${e.message}`, "error");
    }
    this.draw();
  }

  makeFail(failing) {
    this.receiver.failing = failing;
    this.say(failing
      ? "The receiver now answers 500 to every delivery: each attempt fails, and the service retries it on its clock, each retry later than the last: its time shows under the delivery."
      : "The receiver answers 200 again: the next attempt of each failed delivery succeeds.");
    this.draw();
  }

  /** Moves the virtual clock to the soonest retry: the attempts due then are sent. */
  async advanceToNext() {
    const { store } = this;
    const due = store.nextRetryAt;
    if (due === null) return;
    try {
      await store.advance(Math.max(0, due - store.now));
    } catch (e) {
      this.say(`Not advanced: ${e.message}`, "error");
    }
  }

  /** The events after the last one held (all, when that one is no longer kept). */
  readEvents() {
    const last = this.events.at(-1)?.id;
    try {
      this.events.push(...this.store.events(last));
    } catch {
      this.events = this.store.events();
    }
  }

  draw() {
    const { store, receiver } = this;
    const remote = Boolean(store.remote);
    $("#receiver-on").checked = Boolean(receiver.endpoint);
    $("#receiver-on").disabled = remote;
    $("#receiver-fail").checked = receiver.failing;
    $("#receiver-fail").disabled = !receiver.endpoint;
    $("#hooks-list").hidden = this.listing;
    $("#hooks-lists").hidden = !this.listing;
    if (!this.listing) return;
    this.readEvents();
    const endpoints = store.webhooks();
    const ctx = { store, receiver, events: new Map(this.events.map((e) => [e.id, e])), resend: (id) => this.resend(id) };
    fill($("#hook-events"), ...eventItems(this.events, store, (traceId) => store.showTrace(traceId)));
    fill($("#hook-endpoints"), ...(endpoints.length ? endpoints.map((e) => endpointView(e, ctx)) : [h("li", { class: "hint empty" }, "No endpoint: switch the built-in receiver on to have the events delivered.")]));
    this.drawAdvance();
  }

  /** "Advance to the next attempt": on a virtual clock, while a retry waits. */
  drawAdvance() {
    const { store } = this;
    const due = store.nextRetryAt;
    const button = $("#hooks-advance");
    button.hidden = due === null || store.virtualClock !== true;
    button.textContent = due === null ? "Advance to the next attempt" : `Advance ${duration(Math.max(0, due - store.now))}, to the next attempt`;
    button.title = due === null ? "" : `Moves the service's virtual clock to ${serviceTime(store, due, { seconds: true })}, when the soonest retry is due: it is sent then.`;
    this.tick(due);
  }

  /** On the wall clock a retry comes by itself: the countdowns are redrawn each second while one waits. */
  tick(due) {
    clearTimeout(this.timer);
    if (due === null || this.store.virtualClock !== false) return;
    this.timer = setTimeout(() => this.draw(), 1000);
  }

  async resend(id) {
    try {
      await this.store.resendDelivery(id);
      this.say(`Resent ${id}: a new attempt now.`);
    } catch (e) {
      this.say(`Not resent: ${e.message}`, "error");
    }
  }
}
