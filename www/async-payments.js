// The Simulation panel's clock and the payments in progress: each payment
// that waits for the buyer (REQUIRES_ACTION) or for the service's clock
// (PENDING, a reversal to come), what will happen to it and when, with
// "Advance 30 s" on a virtual clock. On the wall clock the changes come
// due in real time, and the page asks the service to resolve them when
// they are due, as `orderpay serve`'s timer does.
import { $, add, clock, fill, h } from "./dom.js";
import { causeText, dueText, inProgress, paymentStates, planText } from "./payment-states.js";
import { challengeView } from "./challenge.js";
import { serviceTime } from "./service-time.js";
import { wallClockResolver } from "./live.js";

const STEP_MS = 30000;

export function mountAsyncPayments(store) {
  const box = $("#async-box");
  if (!store.asyncPayments) {
    box.hidden = true;
    return;
  }
  const view = new AsyncPanel(store);
  $("#advance-30").addEventListener("click", () => view.advance(STEP_MS));
  $("#advance-due").addEventListener("click", () => view.advance(0));
  store.addEventListener("change", (e) => {
    // A fresh service: what was said and opened of the last one's payments goes with it.
    if (e.detail.reset) view.forget();
    view.draw();
  });
  view.draw();
}

class AsyncPanel {
  clockLine = $("#clock-line");
  list = $("#async-list");
  message = $("#advance-message");
  note = $("#clock-note");
  button = $("#advance-30");
  dueButton = $("#advance-due");
  /** The payment ids whose challenge is open below them. */
  open = new Set();
  timer = 0;
  /** The rows last drawn, by payment id, with the text they showed (a row unchanged keeps its node and its frame). */
  rows = new Map();

  constructor(store) {
    this.store = store;
  }

  say(text, kind = "info") {
    this.message.dataset.kind = kind;
    this.message.textContent = text;
  }

  /** Moves the clock on by `ms` (0: resolves what is due now), and says what changed. */
  async advance(ms) {
    const { store } = this;
    const before = inProgress(paymentStates(store)).map((p) => `${p.id}:${p.status}`);
    try {
      await store.advance(ms);
    } catch (e) {
      this.say(`Not advanced: ${e.message}`, "error");
      return;
    }
    const states = paymentStates(store);
    const moved = before.map((b) => b.split(":")).filter(([id, status]) => states.get(id)?.status !== status);
    const what = ms ? `Advanced the clock ${ms / 1000} s, to ${serviceTime(store, store.now, { seconds: true })}` : `Resolved what was due at ${serviceTime(store, store.now, { seconds: true })}`;
    this.say(`${what}: `);
    add(this.message, ...(moved.length ? moved.map(([id, status], i) => [i ? ", " : "",
      h("button", { type: "button", class: "link mono moved", dataset: { payment: id }, onclick: () => this.showObject(id) }, id),
      ` ${status} → ${states.get(id)?.status ?? "?"}`]) : ["nothing came due"]), ".");
  }

  /** Says what the buyer's answer in a challenge's frame here did: "PAY-… REQUIRES_ACTION → FAILED (the buyer: Cancel)." */
  answered(id, { posted, status }, label) {
    if (posted.status >= 400) {
      this.say(`${id}: the buyer's ${label} was refused, HTTP ${posted.status}${posted.body?.msg ? ` (${posted.body.msg})` : ""}.`, "error");
      return;
    }
    this.say("");
    add(this.message, h("button", { type: "button", class: "link mono moved", dataset: { payment: id }, onclick: () => this.showObject(id) }, id),
      ` REQUIRES_ACTION → ${status ?? paymentStates(this.store).get(id)?.status ?? "?"} (the buyer: ${label}).`);
  }

  /** Forgets the last service's payments: the message about them and the challenges opened. */
  forget() {
    this.say("");
    this.open.clear();
  }

  /** Opens a payment's page (its states and requests) in the Requests section's panel. */
  showObject(id) {
    this.store.dispatchEvent(new CustomEvent("show-object", { detail: { id } }));
  }

  /** "Resolve what is due": enabled only while a change is due, else it says why not. */
  drawDueButton(due) {
    const now = this.store.now;
    const dueNow = due !== null && typeof now === "number" && due <= now;
    this.dueButton.disabled = !dueNow;
    this.dueButton.title = dueNow ? "" : due === null ? "No change of a payment is due." : `Nothing is due yet: the next change is due ${dueText(due, now, this.store)}.`;
  }

  /** The clock line: its time, whether it is virtual, and the soonest change due. */
  drawClock() {
    const { store } = this;
    const virtual = store.virtualClock;
    const due = store.nextDueAt;
    this.clockLine.dataset.virtual = String(virtual);
    fill(this.clockLine,
      h("strong", null, "Service clock: "), h("span", { class: "mono", id: "clock-now" }, store.now ? clock(store.now) : "?"),
      virtual === true ? " (virtual: moves only with requests and Advance)" : virtual === false ? " (the wall clock: real time)" : "",
      ". ", due === null ? "No change of a payment is due." : [due === store.nextRetryAt ? "Next due: a webhook delivery's attempt, " : "Next change due ", h("span", { id: "next-due" }, dueText(due, store.now, store)), "."]);
    // A wall clock ignores the milliseconds of advance: only "resolve what is due" means something there.
    this.button.disabled = virtual === false;
    this.drawDueButton(due);
    this.note.textContent = virtual === false
      ? `This service runs on the wall clock: a pending payment resolves in real time, and ${wallClockResolver()}. For Advance 30 s, tick “virtual clock” under Settings and start fresh.`
      : "Advance moves the service's virtual clock on and resolves, in due order, every change that came due (each one's record is stamped with its due time).";
  }

  draw() {
    this.drawClock();
    const open = held(this.store, inProgress(paymentStates(this.store)));
    const rows = open.map((p) => this.row(p));
    fill(this.list, ...(rows.length ? rows : [h("li", { class: "hint empty" }, "No payment is in progress. Pay with a test card that asks for a challenge or goes pending (the request console's Test card), or set a scenario rule of kind challenge, pending or reversal (Failures).")]));
    this.tick(open);
  }

  /** One payment in progress: its status, why, what comes next and when; a challenge to answer. */
  row(p) {
    const first = p.states[0];
    const challenge = p.status === "REQUIRES_ACTION" && p.nextAction;
    const shown = challenge && this.open.has(p.id);
    return h("li", { class: "async-row", dataset: { payment: p.id, status: p.status ?? "" } },
      h("p", { class: "async-head" },
        h("span", { class: `badge pay-status s-${p.status}` }, p.status ?? "?"), " ",
        h("button", { type: "button", class: "link mono", onclick: () => this.showObject(p.id) }, p.id),
        p.amount !== null ? ` · ${p.amount}` : "",
        first?.cause ? h("span", { class: "hint" }, ` · by ${causeText(first.cause)}`) : ""),
      h("p", { class: "async-next" }, nextText(p, this.store.now, this.store.nextDueAt, this.store)),
      challenge ? h("button", { type: "button", class: "secondary", "aria-expanded": String(shown), onclick: () => { this.toggle(p.id); } }, shown ? "Hide its challenge" : "Show its challenge") : null,
      shown ? challengeView(this.store, { paymentId: p.id, status: p.status, nextAction: p.nextAction }, null, { onAnswered: (done, label) => this.answered(p.id, done, label) }) : null,
    );
  }

  toggle(id) {
    if (this.open.has(id)) this.open.delete(id);
    else this.open.add(id);
    this.draw();
  }

  /**
   * While a change is to come, the countdowns are redrawn each second; on
   * the wall clock, what came due is resolved (`advance(0)`), so the page
   * shows it without waiting for the next request.
   */
  tick(open) {
    clearTimeout(this.timer);
    const wall = this.store.virtualClock === false;
    // On the wall clock the service's time moves: its clock line does too.
    if (!wall && !open.some((p) => typeof p.plan?.dueAt === "number") && this.store.nextDueAt === null) return;
    this.timer = setTimeout(() => {
      const { store } = this;
      const due = store.nextDueAt;
      // Live, the server resolves what comes due by itself, and its records come with the stream.
      if (wall && !store.remote && due !== null && due <= store.now) this.advance(0);
      else this.drawTimes();
    }, 1000);
  }

  /** The countdowns only (the rows and their frames stay). */
  drawTimes() {
    const rows = this.list.querySelectorAll("li[data-payment]");
    // Nothing listed (a wall clock ticks on all the same): only the times below move.
    const open = rows.length ? held(this.store, inProgress(paymentStates(this.store))) : [];
    const byId = new Map(open.map((p) => [p.id, p]));
    for (const li of rows) {
      const p = byId.get(li.dataset.payment);
      const next = li.querySelector(".async-next");
      if (p && next) next.textContent = nextText(p, this.store.now, this.store.nextDueAt, this.store);
    }
    const due = $("#next-due");
    if (due) due.textContent = dueText(this.store.nextDueAt, this.store.now, this.store);
    this.drawDueButton(this.store.nextDueAt);
    // The service's now, asked of it again (the core's; live, the server's).
    const now = $("#clock-now");
    if (now && this.store.now) now.textContent = clock(this.store.now);
    this.tick(open);
  }
}

/**
 * The payments in progress the page knows of (`open`, from the records and
 * the answers it keeps), then those the service holds and the page does
 * not: another client's, or its own from before a reload.
 */
function held(store, open) {
  const known = new Set(open.map((p) => p.id));
  const more = store.inProgress().filter((p) => !known.has(p.paymentId)).map((p) => ({
    id: p.paymentId, orderId: p.orderId, amount: p.amount ?? null, nextAction: p.nextAction ?? null, status: p.status, states: [], plan: null,
  }));
  return [...open, ...more];
}

/** "becomes SUCCESS in 18 s (at 12:00:30)", or what a challenge waits for. */
export function nextText(p, now, nextDue = null, store = null) {
  if (!p.plan && p.status === "REQUIRES_ACTION") return "Waits for the buyer: complete, fail or cancel its challenge.";
  if (!p.plan && p.status === "PENDING") {
    // Its pay's answer is not among those this page keeps (the log alone, a restored state): the core keeps the due time, and says only the soonest.
    return `Pending: what its pay planned is not among the answers this page keeps${nextDue === null ? "" : `; the service's next change is due ${dueText(nextDue, now, store)}`}.`;
  }
  if (!p.plan) return "";
  const when = dueText(p.plan.dueAt, now, store);
  return `${planText(p.plan, p.status)}${when ? ` ${when}` : ""}.`;
}
