// The request console: any route, its path parameters, headers and body in
// fields pre-filled with sensible values (the ids the last calls returned
// among them), sent to the service, with the answer shown as it came.
// Requests the user groups go under one trace id, drawn as one waterfall.
import { $, add, fill as fillNode, h, setText } from "./dom.js";
import { responseView } from "./exchange.js";
import { ROUTES, fill, paramOf, paramsOf } from "./routes.js";
import { attempts } from "./simulation.js";
import { newTraceId } from "./flow.js";
import { waterfall } from "./trace.js";
import { randomHex } from "./random-hex.js";
import { traceHeaders } from "./pkg/orderpay.js";
import { shippedPresets } from "./failures.js";
import { cardOutcome, fillCardPicker, withCard } from "./test-cards.js";

export function mountConsole(store) {
  const c = new RequestConsole(store);
  const { body, traceId, context, groupToggle, groupNote } = c;
  c.select.addEventListener("change", () => c.chooseRoute());
  body.addEventListener("input", () => { c.edited.add("body"); c.update(); });
  body.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) c.form.requestSubmit();
  });
  for (const input of [c.method, c.path, c.userId, traceId, c.contentType, c.sim, c.sampled, c.idem, c.oneOff, ...Object.values(context).map((x) => x.input)]) input.addEventListener("input", () => c.update());
  $("#pretend-caller").addEventListener("click", () => {
    // A caller's own span in a trace it started: the gateway span will hang under it.
    traceId.value = "";
    context.b3.input.value = "";
    context["X-B3-SpanId"].input.value = "";
    context.traceparent.input.value = `00-${randomHex(16)}-${randomHex(8)}-01`;
    c.update();
  });
  $("#reset-fields").addEventListener("click", () => { c.edited.clear(); c.refill(); });
  $("#new-idem").addEventListener("click", () => {
    c.idem.value = `key-${randomHex(8)}`;
    c.update();
  });
  $("#new-trace").addEventListener("click", () => {
    traceId.value = randomHex(8);
    c.update();
  });
  groupToggle.addEventListener("change", () => {
    const ended = c.group;
    c.startGroup();
    if (!c.group) {
      groupNote.dataset.kind = "ok";
      groupNote.textContent = ended?.sent ? `The group ended: ${ended.sent} request${ended.sent === 1 ? "" : "s"} under trace ${ended.traceId}. The next requests get a trace each.` : "";
    }
    c.update();
  });
  c.card.addEventListener("change", () => c.chooseCard());
  c.form.addEventListener("submit", (event) => c.send(event));
  store.addEventListener("change", (e) => {
    if (e.detail.reset) {
      fillNode(c.out);
      c.help.textContent = c.route.help(store.settings); // the settings may have changed (the failure rate)
      c.startGroup(); // a fresh service: the group's spans are gone with the old one
    }
    c.showPending();
    if (!e.detail.forced) c.refill();
  });

  c.showPending();
  c.chooseRoute();
}

/** The console's fields, the route chosen, the fields the user edited, and the group of requests under one trace. */
class RequestConsole {
  form = $("#console-form");
  select = $("#route");
  help = $("#route-help");
  paramsBox = $("#params");
  custom = $("#custom");
  method = $("#custom-method");
  path = $("#custom-path");
  bodyBox = $("#body-field");
  body = $("#body");
  preview = $("#request-preview");
  out = $("#response");
  userId = $("#h-user");
  traceId = $("#h-trace");
  contentType = $("#h-ctype");
  simField = $("#sim-field");
  sim = $("#h-sim");
  simPending = $("#sim-pending");
  oneOff = $("#h-oneoff");
  cardField = $("#card-field");
  card = $("#h-card");
  cardNote = $("#card-outcome");
  idemField = $("#idem-field");
  idem = $("#h-idem");
  idemNote = $("#h-idem-note");
  context = {
    traceparent: { input: $("#h-traceparent"), check: $("#h-traceparent-check") },
    b3: { input: $("#h-b3"), check: $("#h-b3-check") },
    "X-B3-SpanId": { input: $("#h-spanid"), check: $("#h-spanid-check") },
  };
  sampled = $("#h-sampled");
  traceCheck = $("#h-trace-check");
  groupToggle = $("#group-trace");
  groupNote = $("#group-trace-note");
  /** The group the next requests join while the toggle is on: its trace id and how many were sent in it. */
  group = null;
  route = ROUTES[0];
  /** Fields the user typed in keep their text; the others follow the latest ids. */
  edited = new Set();
  paramInputs = {};

  constructor(store) {
    this.store = store;
    // The route picker, grouped as the spec groups them.
    const groups = new Map();
    for (const route of ROUTES) {
      if (!groups.has(route.group)) groups.set(route.group, h("optgroup", { label: route.group }));
      add(groups.get(route.group), h("option", { value: route.id }, `${route.label} · ${route.method} ${route.path || "…"}`));
    }
    add(this.select, ...groups.values());
    // The presets, for the one-request scenario header (none with a package without scenarios).
    const presets = Object.keys(shippedPresets() ?? {});
    add(this.oneOff, ...presets.map((name) => h("option", { value: name }, name)));
    fillCardPicker(this.card);
    this.cardNote.textContent = cardOutcome("");
    $("#oneoff-field").hidden = !presets.length;
  }

  chooseRoute() {
    const route = (this.route = ROUTES.find((r) => r.id === this.select.value) ?? ROUTES[0]);
    this.help.textContent = route.help(this.store.settings);
    this.edited.clear();
    fillNode(this.paramsBox);
    for (const name of paramsOf(route.path)) {
      const spec = paramOf(name);
      const input = h("input", {
        id: `param-${name}`, name, autocomplete: "off", spellcheck: "false",
        list: spec.list, inputmode: name === "count" ? "numeric" : null,
        oninput: () => { this.edited.add(name); this.update(); },
      });
      this.paramInputs[name] = input;
      add(this.paramsBox, h("div", { class: "field" }, h("label", { for: input.id }, spec.label), input));
    }
    this.custom.hidden = route.id !== "custom";
    this.bodyBox.hidden = !route.body;
    this.simField.hidden = route.id !== "payment-pay";
    this.cardField.hidden = route.id !== "payment-pay";
    this.showIdem();
    if (route.id === "custom" && !this.path.value) this.path.value = "/api/ordr/create";
    this.refill();
  }

  /** Fills what the user has not edited with the freshest values. */
  refill() {
    const { route, edited, store } = this;
    for (const name of paramsOf(route.path)) {
      if (!edited.has(name)) this.paramInputs[name].value = paramOf(name).fallback(store.ids);
    }
    if (route.body && !edited.has("body")) this.body.value = this.withCardOf(JSON.stringify(route.body(store.ids), null, 2));
    this.refreshLists();
    this.update();
  }

  refreshLists() {
    fillNode($("#order-ids"), ...this.store.ids.orders.map((id) => h("option", { value: id })));
    fillNode($("#payment-ids"), ...this.store.ids.payments.map((id) => h("option", { value: id })));
  }

  /** The request the fields make: { method, path, headers, body }. */
  current() {
    const { route, group } = this;
    const values = Object.fromEntries(Object.entries(this.paramInputs).map(([n, input]) => [n, input.value.trim()]));
    const m = route.id === "custom" ? this.method.value : route.method;
    let p = route.id === "custom" ? this.path.value : fill(route.path, values);
    if (route.id === "test-batch") p = fill(route.path, { count: encodeURIComponent(values.count ?? "") });
    const withBody = !this.bodyBox.hidden && this.body.value.trim() !== "";
    const headers = {};
    if (withBody && this.contentType.value.trim()) headers["Content-Type"] = this.contentType.value.trim();
    if (this.userId.value.trim()) headers["X-User-Id"] = this.userId.value.trim();
    if (this.traceId.value.trim()) headers["X-B3-TraceId"] = this.traceId.value.trim();
    for (const [name, { input }] of Object.entries(this.context)) if (input.value.trim()) headers[name] = input.value.trim();
    // In a group, the group's trace id, unless the user set trace context of their own (theirs wins).
    if (group && !ownContext(headers)) headers["X-B3-TraceId"] = group.traceId;
    if (this.sampled.value) headers["X-B3-Sampled"] = this.sampled.value;
    if (!this.simField.hidden && this.sim.value) headers["X-Sim-Outcome"] = this.sim.value;
    if (!this.idemField.hidden && this.idem.value !== "") headers["Idempotency-Key"] = this.idem.value;
    if (this.oneOff.value) headers["X-Orderpay-Scenario"] = this.oneOff.value;
    return { method: m, path: p, headers, body: withBody ? this.body.value : null };
  }

  /** The body with the chosen test card in it (payment pay only). */
  withCardOf(text) {
    return this.cardField.hidden ? text : withCard(text, this.card.value);
  }

  /** A test card chosen: its number goes into the body (typed text too, when it is a JSON object), and what it does is said. */
  chooseCard() {
    this.body.value = this.withCardOf(this.body.value);
    this.cardNote.textContent = cardOutcome(this.card.value);
    this.update();
  }

  /** Says what the next request joins, or what the group came to. */
  showGroup() {
    const { group, context, groupNote } = this;
    if (!group) return;
    const own = [this.traceId, context.b3.input, context.traceparent.input].some((input) => input.value.trim() !== "");
    groupNote.dataset.kind = own ? "warn" : "ok";
    groupNote.textContent = own
      ? `Not in the group: the trace id typed above is sent instead of the group's ${group.traceId}.`
      : `The next request joins trace ${group.traceId} (${group.sent} sent in it so far).`;
  }

  startGroup() {
    this.group = this.groupToggle.checked ? { traceId: newTraceId(), sent: 0 } : null;
  }

  /** Without the header, the draw decides, or a pending forceNext. */
  showPending() {
    const forced = this.store.forced;
    this.simPending.textContent = forced
      ? `Not sent: forceNext decides, ${attempts(forced.remaining, forced.outcome)}.`
      : "Not sent: the seeded draw against the failure rate decides.";
  }

  /** Says before sending which trace headers the service will ignore, and why. */
  checkContext() {
    const { context, traceCheck } = this;
    const id = this.traceId.value.trim();
    const { problems } = traceHeaders({ "X-B3-TraceId": id, ...Object.fromEntries(Object.entries(context).map(([n, c]) => [n, c.input.value.trim()])) });
    const problem = problems["X-B3-TraceId"] ?? "";
    traceCheck.dataset.kind = problem ? "warn" : "ok";
    traceCheck.textContent = !id ? ""
      : problem ? `The service will ignore this id (${problem}) and make a fresh one.`
        : id.length === 16 ? "Used as it is: a 64-bit id. In traceparent and OTLP it becomes 32 digits, padded with 16 zeros on the left."
          : "Used as it is.";
    for (const [name, { input, check }] of Object.entries(context)) {
      const text = input.value.trim();
      const p = problems[name] ?? "";
      check.dataset.kind = p ? "warn" : "ok";
      check.textContent = !text ? "" : p ? `Ignored by the service: ${p}.` : "";
    }
    const req = this.current();
    const decides = traceHeaders(req.headers).decides;
    if (decides && decides !== "X-B3-TraceId" && id) traceCheck.textContent += ` ${decides} is not read: X-B3-TraceId comes first.`;
  }

  /** The key is for POST routes only (the custom route's method decides there). */
  showIdem() {
    const method = this.route.id === "custom" ? this.method.value : this.route.method;
    this.idemField.hidden = method !== "POST";
    this.idemNote.textContent = this.idem.value === "" ? "Not sent: every request runs. New key makes one; send twice with it to see a replay." : "Sent with this request: send it again unchanged and the answer is the kept one, marked replayed.";
  }

  update() {
    this.showIdem();
    this.checkContext();
    const req = this.current();
    const lines = [`${req.method} ${req.path}`, ...Object.entries(req.headers).map(([n, v]) => `${n}: ${v}`)];
    this.showGroup();
    setText(this.preview, req.body === null ? lines.join("\n") : `${lines.join("\n")}\n\n${req.body}`);
  }

  async send(event) {
    event.preventDefault();
    await this.sendRequest(this.current());
  }

  /** Sends `req` and shows its answer; one with an Idempotency-Key offers to send it again as it was. */
  async sendRequest(req) {
    const { store, group } = this;
    const grouped = group && req.headers["X-B3-TraceId"] === group.traceId;
    const reply = await store.request(req.method, req.path, req.body, req.headers);
    if (grouped) group.sent += 1;
    fillNode(this.out,
      h("h3", { class: "visually-hidden" }, "Response"),
      grouped ? null : contextVerdict(store, req.headers, reply),
      responseView(reply, store),
      req.headers["Idempotency-Key"] !== undefined ? h("p", { class: "actions" },
        h("button", { type: "button", id: "resend-key", class: "secondary", onclick: () => this.sendRequest(req) }, "Send it again with the same key"),
        h("span", { class: "hint" }, ` as a client retrying after a lost answer would: Idempotency-Key ${req.headers["Idempotency-Key"]}`)) : null,
      grouped ? groupView(store, this.group) : null,
    );
    this.update();
  }
}

/** Whether the user typed a trace id of their own, in any header the service reads one from. */
function ownContext(headers) {
  return Boolean(headers["X-B3-TraceId"] || headers.b3 || headers.traceparent);
}

/** The group's requests so far as one waterfall, below the answer. */
function groupView(store, group) {
  if (!group || !group.sent) return null;
  return h("div", { class: "group-view", id: "group-view", dataset: { trace: group.traceId } },
    h("h3", null, `${group.sent} request${group.sent === 1 ? "" : "s"} under one trace`),
    h("p", null, "Sent with the same X-B3-TraceId, ", h("code", { class: "mono" }, group.traceId),
      ", so a tracing tool draws them as one trace: a gateway span per request, with the services it called under it. ",
      h("button", { type: "button", class: "link", onclick: () => store.showTrace(group.traceId) }, "Open it in the trace view")),
    waterfall(store.spansOf(group.traceId)));
}

/** After sending: whether the trace id sent was the one used, and the caller's span as the parent. */
function contextVerdict(store, headers, reply) {
  const used = reply.headers["x-b3-traceid"];
  const decides = traceHeaders(headers).decides;
  const sent = decides === "X-B3-TraceId" ? headers["X-B3-TraceId"]
    : decides === "b3" ? headers.b3.split("-")[0] : decides === "traceparent" ? headers.traceparent.split("-")[1] : null;
  const tried = ["X-B3-TraceId", "b3", "traceparent"].filter((n) => headers[n]);
  if (!tried.length) return null;
  const parent = reply.record ? store.spansOf(reply.record.traceId).find((s) => s.spanId === reply.record.spanId)?.parentSpanId : null;
  return h("p", { class: `context-verdict ${sent && used === sent ? "ok" : "warn"}`, id: "context-verdict", dataset: { used: String(Boolean(sent && used === sent)) } },
    sent && used === sent
      ? `The trace id from ${decides} was used: ${used}.${parent ? ` The gateway span is a child of the caller's span ${parent}.` : ""}`
      : `The service ignored the trace id sent in ${tried.join(", ")} and made a fresh one: ${used}.`);
}
