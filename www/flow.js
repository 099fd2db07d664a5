// The typical flow of the spec's part 4 as one button: seven requests in
// order, each shown with its request and answer. A declined payment stops
// the flow and offers another attempt, as a real checkout would; any other
// answer that is not what its step expects (a scenario's 429 or 503, a
// network fault) stops it there, the step marked, and the summary tells
// what happened, from the answers and the records the run wrote. The whole
// flow goes under one trace id (sent as X-B3-TraceId, as a client that
// traces its checkout would), so one waterfall shows all of it; each step
// names the components its request went through, with a small waterfall
// of its own spans.
import { $, add, fill, h } from "./dom.js";
import { requestView, responseView } from "./exchange.js";
import { attempts } from "./simulation.js";
import { waterfall } from "./trace.js";
import { randomHex } from "./random-hex.js";
import { faultOf, faultSentence, faultText, spanFailed, spanFault } from "./faults.js";
import { answerArrives } from "./answer-time.js";
import { buyerAnswered } from "./challenge.js";
import { OPEN, dueText, paymentStates } from "./payment-states.js";
import { BUYER } from "./buyer-answers.js";

const JSON_HEADERS = { "Content-Type": "application/json", "X-User-Id": "u-1" };
const NAMES = { gateway: "gateway", "order-service": "order service", "payment-service": "payment service", "third-party": "third party", "test-data": "test data" };

/** A fresh 32-digit trace id, as a tracing client would make. */
export function newTraceId() {
  return randomHex(16);
}

/** The spans of one request (its gateway span and everything under it), in tree order. */
export function requestSpans(spans, rootId) {
  const out = [];
  const visit = (id, depth) => {
    for (const s of spans) {
      if ((id === null ? s.spanId === rootId : s.parentSpanId === id && s.spanId !== id)) {
        out.push({ span: s, depth });
        visit(s.spanId, depth + 1);
      }
    }
  };
  visit(null, 0);
  return out;
}

/** "gateway → payment service → third party": the deepest path through a request's spans. */
export function pathOf(rows) {
  let best = [];
  const stack = [];
  for (const { span, depth } of rows) {
    stack.length = depth;
    stack.push(NAMES[span.component] ?? span.component);
    if (stack.length > best.length) best = [...stack];
  }
  return best.join(" → ");
}

/** A small waterfall of one request's spans: a bar each, on the request's own time axis. */
function miniWaterfall(rows) {
  if (!rows.length) return null;
  const t0 = rows[0].span.start;
  const total = Math.max(1, ...rows.map((r) => r.span.end - t0));
  return h("ol", { class: "mini-wf", "aria-label": "this request's spans" }, rows.map(({ span, depth }) => {
    const bar = h("span", { class: "mini-bar" });
    bar.style.left = `${(((span.start - t0) / total) * 100).toFixed(2)}%`;
    bar.style.width = `${Math.max(0.5, ((span.end - span.start) / total) * 100).toFixed(2)}%`;
    const fault = spanFault(span);
    const li = h("li", { class: `c-${span.component}${spanFailed(span) ? " error" : ""}${fault === "timeout" ? " timeout" : ""}${fault === "http" ? " gateway-fault" : ""}${fault === "network" ? " network-fault" : ""}`, dataset: { component: span.component, fault } },
      h("span", { class: "mini-name" }, NAMES[span.component] ?? span.component),
      h("span", { class: "mini-track" }, bar),
      h("span", { class: "mini-ms" }, `${span.end - span.start} ms`));
    li.style.setProperty("--depth", String(depth));
    return li;
  }));
}

export function mountFlow(store) {
  const flow = new Flow(store);
  // Another click while a declined payment waits for an answer starts over.
  $("#run-flow").addEventListener("click", () => {
    flow.run().catch((e) => { if (e !== STALE) flow.finish(`The flow broke: ${e.message}`); });
  });
  store.addEventListener("change", (e) => { if (e.detail.reset) flow.forget(); });
}

const STALE = Symbol("a newer run began");

/** The flow's steps as they run, under one trace id, and the whole trace at the end. */
class Flow {
  list = $("#steps");
  summary = $("#flow-summary");
  whole = $("#flow-trace");
  /** Ends the run waiting on a declined payment's choice, or null. */
  abandon = null;
  traceId = "";
  /** Counts the runs: a step answered after a newer run began (live, a click while it was on its way) ends its own. */
  runs = 0;

  constructor(store) {
    this.store = store;
  }

  async run() {
    const { store } = this;
    this.runs++;
    this.abandon?.();
    fill(this.list);
    this.summary.textContent = "";
    this.traceId = newTraceId();
    fill(this.whole);
    this.whole.hidden = true;
    this.before = store.records.length ? store.records.at(-1).seq : 0;
    /** What went as its step expected, in words, for the summary: "order ORD-… was created". */
    this.done = [];
    this.sent = 0;

    const order = { userId: "u-1", price: 25.5, description: "two coffees" };
    const created = await this.step(1, "Create an order", "Expected: code 0 and the new order, status CREATED.",
      "POST", "/api/order/create", order);
    if (!created.asExpected) return this.stopAt(created);
    const orderId = created.reply.body.data.orderId;
    this.done.push(`order ${orderId} was created`);

    if (!(await this.expectStep(2, "Read the order", "Expected: the same order back.", "GET", `/api/order/${orderId}`, "read back"))) return;
    const paid = await this.#pay(orderId, order.price);
    if (!paid) return;
    const paymentId = paid.body.data.paymentId;
    // A payment that waits (a challenge, PENDING): the flow waits too, as an app would, and goes on from its real status.
    const settled = await this.#settle(paid, orderId);
    if (settled === null) return;
    this.done.push(`paid with ${paymentId}${settled}`);

    if (!(await this.expectStep(4, "Mark the order paid", "Expected: code 0. The order is now PAID.", "POST", `/api/order/${orderId}/pay`, "marked paid"))) return;
    if (!(await this.expectStep(5, "Delete the paid order", "Expected to fail: code -1, Paid order cannot be deleted.",
      "POST", `/api/order/delete/${orderId}`, "refused deletion (as expected)", { expected: true, wants: refusedDeletion }))) return;
    if (!(await this.expectStep(6, "Read the payment", "Expected: the payment, status SUCCESS.", "GET", `/api/payment/${paymentId}`, "its payment read back", { wants: paidOff }))) return;
    if (!(await this.expectStep(7, "Refund the payment", "Expected: code 0. The payment is now REFUNDED.", "POST", `/api/payment/refund/${paymentId}`, "refunded"))) return;
    this.finish(`Done: ${sentence(this.done)}. ${this.written()}`);
  }

  /** Sends a step; an answer other than the step expects stops the flow (false). `did`: what it did, for the summary. */
  async expectStep(n, title, expect, method, path, did, options) {
    const sent = await this.step(n, title, expect, method, path, null, options);
    if (!sent.asExpected) {
      this.stopAt(sent);
      return false;
    }
    this.done.push(did);
    return true;
  }

  /** The flow stops at a step whose answer is not what it expects: the step is marked, and the summary says what came instead. */
  stopAt({ li, reply, n, title, expect }) {
    const got = answerText(reply);
    li.classList.add("unexpected");
    add(li, h("p", { class: "unexpected-note", role: "note" }, h("strong", null, "Not what this step expects: "),
      `expected ${expect.replace(/^Expected( to fail)?: /, "").split(". ")[0].replace(/\.$/, "")}; got ${got}. The flow stops here: the steps after it depend on this one.`));
    const before = this.done.length ? ` Before it: ${sentence(this.done)}.` : "";
    this.finish(`Stopped at step ${n}, ${title.toLowerCase()}: it got ${got}.${before} ${this.written()}`);
  }

  /**
   * The requests this run sent and the records written since it began,
   * counted from the log, of each of the four kinds: a request's gateway,
   * service and response records, and a payment record for each change of
   * a payment's state (no request of its own). Requests sent meanwhile
   * from elsewhere (a challenge's frame: its page, the buyer's answer, the
   * read after it) are counted apart.
   */
  written() {
    const mine = this.store.records.filter((r) => r.seq > this.before);
    const count = (stage) => mine.filter((r) => r.stage === stage).length;
    const others = count("gateway") - this.sent;
    const changes = count("payment");
    return `The flow sent ${this.sent} request${this.sent === 1 ? "" : "s"}${others > 0 ? `, and ${others} more went meanwhile from elsewhere on the page (a challenge's frame sends its page, the buyer's answer and the read after it)` : ""}, which wrote ${mine.length} log records (${count("gateway")} gateway, ${count("service")} service, ${count("response")} response${changes ? `, ${changes} payment` : ""}; a request the gateway turns away has no service record${changes ? ", and a payment record is a change of a payment's state, no request" : ""}): see them in the log below.`;
  }

  /**
   * After a pay answered code 0: "" for a payment SUCCESS at once; for one
   * that waits (REQUIRES_ACTION for the buyer, PENDING for the service's
   * clock), waits until its status changes, then reads it as an app does
   * once the buyer is back or while it polls, and says how it ended (" once
   * …"). A payment that ended FAILED stops the flow there: null.
   */
  async #settle(paid, orderId) {
    const { paymentId, status } = paid.body.data;
    if (!OPEN.has(status)) return "";
    const waited = await this.#waitFor(paymentId, status, paid);
    if (waited === null) return null;
    // The buyer's answer from the frame, if it was that: its read follows the answer's arrival (the frame leaves the read to the flow).
    const mine = this.runs;
    await buyerAnswered(this.store, paymentId);
    if (mine !== this.runs) return null;
    const how = status === "REQUIRES_ACTION" ? "once the buyer is back" : "once it settled";
    const read = await this.step(3, `Read the payment ${how}`, "Expected: the payment, status SUCCESS: only then is the order marked paid.",
      "GET", `/api/payment/${paymentId}`, null, { wants: paidOff });
    const now = read.reply.body?.data?.status;
    if (read.asExpected) return status === "REQUIRES_ACTION" ? ` (the buyer passed its challenge)` : " (PENDING, then SUCCESS)";
    if (now !== "FAILED") {
      this.stopAt(read);
      return null;
    }
    const { failureCode, failureReason } = read.reply.body.data;
    const why = `${failureCode ?? "?"}${failureReason ? `: ${failureReason}` : ""}`;
    add(read.li, h("p", { class: "unexpected-note", role: "note" }, h("strong", null, "The payment ended FAILED "), `(${why}). An app marks nothing paid: it offers the buyer another payment. The flow stops here.`));
    const before = this.done.length ? ` Before it: ${sentence(this.done)}.` : "";
    this.finish(`Stopped at step 3: payment ${paymentId} ended FAILED (${why}) after it was ${status}, so order ${orderId} stays CREATED and unpaid.${before} ${this.written()}`);
    return null;
  }

  /**
   * Waits, as an app would, for the payment to leave `status`: the buyer
   * answers the challenge in the frame above, or the service's clock
   * settles it. Resolves with its new status, or null once a newer run began.
   */
  #waitFor(paymentId, status, paid) {
    const { store } = this;
    const li = this.list.lastElementChild;
    const note = h("p", { class: "flow-wait", role: "status", dataset: { status } }, waitText(store, paid));
    add(li, note);
    return new Promise((resolve) => {
      const done = (value) => {
        store.removeEventListener("change", check);
        this.abandon = null;
        note.remove();
        resolve(value);
      };
      const check = () => {
        const now = paymentStates(store).get(paymentId)?.status;
        if (now && now !== status) done(now);
      };
      this.abandon = () => done(null);
      store.addEventListener("change", check);
      check();
    });
  }

  /** Step 3, again after each declined attempt while the user says so: the paid reply, or null once the flow stopped. */
  async #pay(orderId, amount) {
    const { store } = this;
    const keyed = $("#flow-idem").checked;
    const failures = [];
    for (let attempt = 1; ; attempt++) {
      const body = { orderId, amount, paymentMethod: "CARD" };
      // One key per attempt: a retry after a decline is a new attempt (the same key would replay the decline).
      const key = keyed ? { "Idempotency-Key": `pay-${orderId}-${attempt}` } : {};
      const first = await this.step(3, attempt === 1 ? "Pay for the order" : `Pay for the order, attempt ${attempt}`,
        `Expected: code 0 and a payment with status SUCCESS, or code -1 Third party payment failed: ${odds(store.settings.failureRate)}${store.forced ? ", unless forceNext decides it" : ""}${store.scenario ? ", unless a rule of the scenario in force (Failures) fires" : ""}.`,
        "POST", "/api/payment/pay", body, { headers: key });
      const { reply, li } = first;
      let again = null;
      if (keyed) {
        const kept = JSON.stringify(reply.body);
        again = await this.step(3, "Pay again with the same key: a double click", "Expected: the same answer again, marked idempotent-replayed: true. Nothing runs twice: no second payment, no second draw.",
          "POST", "/api/payment/pay", body, { headers: key, expected: reply.body?.code !== 0, wants: (r) => r.status === reply.status && JSON.stringify(r.body) === kept });
        if (!again.asExpected) {
          this.stopAt(again);
          return null;
        }
      }
      if (reply.body?.code === 0) return reply;
      failures.push(reply);
      const choice = await this.offerRetry(again?.li ?? li, reply);
      if (choice === "abandon") return null;
      if (choice === "stop") {
        const declines = failures.every((r) => r.status === 200 && r.body?.msg === "Third party payment failed" && faultOf(r.record ?? r)?.kind !== "processor_error" && faultOf(r.record ?? r)?.kind !== "timeout");
        this.finish(`Stopped after ${attempt} ${declines ? "declined payment attempt" : "payment attempt"}${attempt > 1 ? "s" : ""}${declines ? "" : ` that did not go through (${failures.map(answerText).join("; ")})`}: order ${orderId} stays CREATED and unpaid. ${this.written()}`);
        return null;
      }
    }
  }

  /**
   * Sends one step and draws it; `wants(reply)` says whether its answer is
   * the one the step expects (code 0 unless told). Returns the reply, its
   * item, and `asExpected`.
   */
  async step(n, title, expect, method, path, body = null, { expected = false, headers: extra = {}, wants = succeeded } = {}) {
    const { store, traceId } = this;
    const headers = { ...(body === null ? { "X-User-Id": "u-1" } : JSON_HEADERS), "X-B3-TraceId": traceId, ...extra };
    const text = body === null ? null : JSON.stringify(body, null, 2);
    const mine = this.runs;
    const sent = performance.now();
    this.sent++;
    const reply = await store.request(method, path, text, headers);
    if (mine !== this.runs) throw STALE;
    const waiting = this.#waiting(n, title, reply);
    await answerArrives(reply, performance.now() - sent, Boolean(store.remote));
    waiting?.remove();
    if (mine !== this.runs) throw STALE;
    const ok = reply.body?.code === 0;
    const asExpected = wants(reply);
    const rows = reply.record ? requestSpans(store.spansOf(traceId), reply.record.spanId) : [];
    // A network fault: no answer, so no code (data-code stays empty rather than a 0 that would read as success).
    const code = reply.status === 0 || typeof reply.body !== "object" || reply.body === null ? "" : String(reply.body.code);
    const li = h("li", { class: `step ${ok && asExpected ? "ok" : expected && asExpected ? "expected" : "fail"}`, dataset: { step: String(n), code, expectedAnswer: String(asExpected) } },
      h("h3", null, h("span", { class: "n" }, String(n)), title),
      h("p", { class: "expect" }, expect),
      rows.length ? h("p", { class: "step-path" }, h("span", { class: "label" }, "Path: "), pathOf(rows)) : null,
      miniWaterfall(rows),
      h("div", { class: "exchange" }, requestView({ method, path, headers, body: text }), responseView(reply, store, { expected: expected && asExpected, challenge: { reads: false } })),
    );
    add(this.list, li);
    return { reply, li, asExpected, n, title, expect };
  }

  /**
   * A step whose answer takes a while (a scenario's delay or a third party
   * that times out: seconds of simulated time) says so while the flow
   * waits, as an app's spinner would; null for a quick one.
   */
  #waiting(n, title, reply) {
    const simulated = Number(reply.headers?.["x-sim-duration-ms"] ?? reply.record?.duration ?? 0);
    if (!(simulated >= 1000)) return null;
    const li = h("li", { class: "step waiting", dataset: { step: String(n) }, role: "status" },
      h("h3", null, h("span", { class: "n" }, String(n)), title),
      h("p", { class: "expect" }, `Waiting for the answer: this request takes ${(simulated / 1000).toFixed(1)} s of simulated time, and the flow waits it out, as your app would (this is where it shows a spinner).`));
    add(this.list, li);
    return li;
  }

  /** Shows what a declined payment means and waits for "try again" or "stop". */
  offerRetry(li, reply) {
    const declined = reply.body?.msg === "Third party payment failed";
    const why = declineWhy(this.store, reply);
    return new Promise((resolve) => {
      this.abandon = () => resolve("abandon");
      const done = (choice) => { actions.remove(); this.abandon = null; resolve(choice); };
      const retry = h("button", { type: "button", id: "flow-retry", onclick: () => done("retry") }, "Try the payment again");
      const actions = h("div", { class: "retry", role: "group", "aria-label": "payment declined" },
        h("p", null, declined
          ? `${why} No payment was stored and the order is still CREATED, so it can be paid again: each retry is a new attempt.`
          : `The payment did not go through: ${failure(reply)}.`),
        retry, " ",
        h("button", { type: "button", class: "secondary", id: "flow-stop", onclick: () => done("stop") }, "Stop the flow here"),
      );
      add(li, actions);
      retry.focus();
    });
  }

  /**
   * A fresh start (new settings, a reset, an import, an undo): the last
   * service's run goes with it (its steps, summary and trace, whose
   * records, links and counts no longer are in the log), and a run in
   * progress ends.
   */
  forget() {
    this.runs++;
    this.abandon?.();
    fill(this.list);
    this.summary.textContent = "";
    fill(this.whole);
    this.whole.hidden = true;
  }

  finish(text) {
    const { whole, traceId } = this;
    this.summary.textContent = text;
    // The whole flow under its one trace id: every step's spans on one time axis.
    whole.hidden = false;
    whole.dataset.trace = traceId;
    fill(whole,
      h("h3", null, "The whole flow as one trace"),
      h("p", null, "Every step was sent with the same X-B3-TraceId, ",
        h("code", { class: "mono" }, traceId),
        ", so a tracing tool puts them all in one trace: one row per span (a gateway span per request, the service it called under it, the third party under the payment service). Each step was sent once the one before had its answer, its simulated time later, so the requests follow each other on the axis."),
      waterfall(this.store.spansOf(traceId)),
    );
  }
}

/** The answer most steps expect: code 0. */
const succeeded = (reply) => reply.body?.code === 0;

/** A payment read back SUCCESS: the only status an order is marked paid on. */
const paidOff = (reply) => reply.body?.code === 0 && reply.body.data?.status === "SUCCESS";

/** What the flow waits for, and what settles it: the buyer's answer, or the service's clock. */
function waitText(store, paid) {
  const { status } = paid.body.data;
  if (status === "REQUIRES_ACTION") {
    return `The payment is REQUIRES_ACTION: the buyer must pass a challenge first. An app sends them to nextAction.url and marks nothing paid meanwhile. Answer the challenge above as the buyer would (${BUYER.pass}, ${BUYER.fail} or ${BUYER.abandon}); the flow goes on from the payment's status then.`;
  }
  const due = dueText(paid.plan?.dueAt ?? store.nextDueAt, store.now, store);
  const clock = store.virtualClock === true ? " The service's clock is virtual: Advance in the Simulation panel moves it." : "";
  return `The payment is PENDING: an app polls GET /api/payment/{id} and marks nothing paid until it settles${due ? `, due ${due}` : ""}.${clock} The flow goes on from its status then.`;
}

/** Step 5's: the paid order's deletion refused with code -1 (HTTP 200), not a gateway's answer or a network fault. */
const refusedDeletion = (reply) => reply.status === 200 && reply.body?.code === -1 && reply.body.msg === "Paid order cannot be deleted";

/** "a, b and c". */
function sentence(parts) {
  return parts.length < 2 ? parts.join("") : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
}

/** What came back, in a few words: "HTTP 429 from the gateway (rule "…", Retry-After 1 s)", "no answer (a network fault, rule "…")", "code -1, Paid order cannot be deleted". */
function answerText(reply) {
  const fault = faultOf(reply.record ?? null) ?? faultOf(reply);
  const rule = fault?.rule ? `rule "${fault.rule}"` : "";
  if (reply.status === 0 || typeof reply.body !== "object" || reply.body === null) {
    return `no answer (${fault ? `${faultText(fault)}${rule ? `, ${rule}` : ""}` : "the request was lost"}): no HTTP status, no code`;
  }
  if (fault?.kind === "http") return `HTTP ${reply.status} from the gateway (${[rule, typeof fault.retryAfter === "number" ? `Retry-After ${fault.retryAfter} s` : ""].filter(Boolean).join(", ")}), code ${reply.body.code}: nothing ran`;
  if (reply.status !== 200) return `HTTP ${reply.status}, code ${reply.body.code}, ${reply.body.msg}`;
  return `code ${reply.body.code}, ${reply.body.msg}${fault ? ` (${faultText(fault)}${rule ? `, ${rule}` : ""})` : ""}`;
}

/** What went wrong with a request that did not succeed: its msg, or the network fault that left it without one. */
function failure(reply) {
  if (reply.status === 0 || typeof reply.body !== "object" || reply.body === null) {
    const fault = faultOf(reply);
    return fault ? faultSentence(fault) : "no answer came";
  }
  return reply.body.msg;
}

/** Why the third party declined: a scenario's rule, forceNext, the X-Sim-Outcome header, or the seeded draw. */
function declineWhy(store, reply) {
  const fault = faultOf(reply);
  if (fault) return faultSentence(fault);
  const rule = reply.service?.outcome?.rule;
  const pending = store.forced;
  return rule === "forced-next"
    ? `The simulated third party declined this attempt because forceNext in the Simulation panel said so (${pending ? `still pending: ${attempts(pending.remaining, pending.outcome)}` : "nothing more is forced"}).`
    : rule === "header"
      ? "The simulated third party declined this attempt because the X-Sim-Outcome header said so."
      : `The simulated third party declined this attempt: its seeded draw fell below the failure rate (${odds(store.settings.failureRate)}; see Settings).`;
}

/** What a failure rate means for the attempts. */
function odds(rate) {
  if (rate <= 0) return "with failure rate 0 no attempt fails";
  if (rate >= 1) return "with failure rate 1 every attempt fails";
  return `with failure rate ${rate} about ${Number((rate * 10).toFixed(1))} attempts in 10 fail`;
}
