// The request console: any route, its path parameters, headers and body in
// fields pre-filled with sensible values (the ids the last calls returned
// among them), sent to the service, with the answer shown as it came.
// Requests the user groups go under one trace id, drawn as one waterfall.
import { $, add, fill as fillNode, h, setText } from "./dom.js";
import { responseView } from "./exchange.js";
import { PARAMS, ROUTES, fill, paramsOf } from "./routes.js";
import { attempts } from "./simulation.js";
import { newTraceId } from "./flow.js";
import { waterfall } from "./trace.js";
import { randomHex } from "./random-hex.js";
import { traceHeaders } from "./pkg/orderpay.js";

export function mountConsole(store) {
  const form = $("#console-form");
  const select = $("#route");
  const help = $("#route-help");
  const paramsBox = $("#params");
  const custom = $("#custom");
  const method = $("#custom-method");
  const path = $("#custom-path");
  const bodyBox = $("#body-field");
  const body = $("#body");
  const preview = $("#request-preview");
  const out = $("#response");
  const userId = $("#h-user");
  const traceId = $("#h-trace");
  const contentType = $("#h-ctype");
  const simField = $("#sim-field");
  const sim = $("#h-sim");
  const simPending = $("#sim-pending");
  const context = {
    traceparent: { input: $("#h-traceparent"), check: $("#h-traceparent-check") },
    b3: { input: $("#h-b3"), check: $("#h-b3-check") },
    "X-B3-SpanId": { input: $("#h-spanid"), check: $("#h-spanid-check") },
  };
  const sampled = $("#h-sampled");
  const traceCheck = $("#h-trace-check");
  const groupToggle = $("#group-trace");
  const groupNote = $("#group-trace-note");
  /** The group the next requests join while the toggle is on: its trace id and how many were sent in it. */
  let group = null;

  // The route picker, grouped as the spec groups them.
  const groups = new Map();
  for (const route of ROUTES) {
    if (!groups.has(route.group)) groups.set(route.group, h("optgroup", { label: route.group }));
    add(groups.get(route.group), h("option", { value: route.id }, `${route.label} · ${route.method} ${route.path || "…"}`));
  }
  add(select, ...groups.values());

  let route = ROUTES[0];
  /** Fields the user typed in keep their text; the others follow the latest ids. */
  const edited = new Set();
  const paramInputs = {};

  function chooseRoute() {
    route = ROUTES.find((r) => r.id === select.value) ?? ROUTES[0];
    help.textContent = route.help;
    edited.clear();
    fillNode(paramsBox);
    for (const name of paramsOf(route.path)) {
      const spec = PARAMS[name];
      const input = h("input", {
        id: `param-${name}`, name, autocomplete: "off", spellcheck: "false",
        list: spec.list, inputmode: name === "count" ? "numeric" : null,
        oninput: () => { edited.add(name); update(); },
      });
      paramInputs[name] = input;
      add(paramsBox, h("div", { class: "field" }, h("label", { for: input.id }, spec.label), input));
    }
    custom.hidden = route.id !== "custom";
    bodyBox.hidden = !route.body;
    simField.hidden = route.id !== "payment-pay";
    if (route.id === "custom" && !path.value) path.value = "/api/ordr/create";
    refill();
  }

  /** Fills what the user has not edited with the freshest values. */
  function refill() {
    for (const name of paramsOf(route.path)) {
      if (!edited.has(name)) paramInputs[name].value = PARAMS[name].fallback(store.ids);
    }
    if (route.body && !edited.has("body")) body.value = JSON.stringify(route.body(store.ids), null, 2);
    refreshLists();
    update();
  }

  function refreshLists() {
    fillNode($("#order-ids"), ...store.ids.orders.map((id) => h("option", { value: id })));
    fillNode($("#payment-ids"), ...store.ids.payments.map((id) => h("option", { value: id })));
  }

  function current() {
    const values = Object.fromEntries(Object.entries(paramInputs).map(([n, input]) => [n, input.value.trim()]));
    const m = route.id === "custom" ? method.value : route.method;
    let p = route.id === "custom" ? path.value : fill(route.path, values);
    if (route.id === "test-batch") p = fill(route.path, { count: encodeURIComponent(values.count ?? "") });
    const withBody = !bodyBox.hidden && body.value.trim() !== "";
    const headers = {};
    if (withBody && contentType.value.trim()) headers["Content-Type"] = contentType.value.trim();
    if (userId.value.trim()) headers["X-User-Id"] = userId.value.trim();
    if (traceId.value.trim()) headers["X-B3-TraceId"] = traceId.value.trim();
    for (const [name, { input }] of Object.entries(context)) if (input.value.trim()) headers[name] = input.value.trim();
    // In a group, the group's trace id, unless the user set trace context of their own (theirs wins).
    if (group && !ownContext(headers)) headers["X-B3-TraceId"] = group.traceId;
    if (sampled.value) headers["X-B3-Sampled"] = sampled.value;
    if (!simField.hidden && sim.value) headers["X-Sim-Outcome"] = sim.value;
    return { method: m, path: p, headers, body: withBody ? body.value : null };
  }

  /** Whether the user typed a trace id of their own, in any header the service reads one from. */
  function ownContext(headers) {
    return Boolean(headers["X-B3-TraceId"] || headers.b3 || headers.traceparent);
  }

  /** Says what the next request joins, or what the group came to. */
  function showGroup() {
    if (!group) return;
    const own = [traceId, context.b3.input, context.traceparent.input].some((input) => input.value.trim() !== "");
    groupNote.dataset.kind = own ? "warn" : "ok";
    groupNote.textContent = own
      ? `Not in the group: the trace id typed above is sent instead of the group's ${group.traceId}.`
      : `The next request joins trace ${group.traceId} (${group.sent} sent in it so far).`;
  }

  function startGroup() {
    group = groupToggle.checked ? { traceId: newTraceId(), sent: 0 } : null;
  }

  /** The group's requests so far as one waterfall, below the answer. */
  function groupView() {
    if (!group || !group.sent) return null;
    return h("div", { class: "group-view", id: "group-view", dataset: { trace: group.traceId } },
      h("h3", null, `${group.sent} request${group.sent === 1 ? "" : "s"} under one trace`),
      h("p", null, "Sent with the same X-B3-TraceId, ", h("code", { class: "mono" }, group.traceId),
        ", so a tracing tool draws them as one trace: a gateway span per request, with the services it called under it. ",
        h("button", { type: "button", class: "link", onclick: () => store.showTrace(group.traceId) }, "Open it in the trace view")),
      waterfall(store.spansOf(group.traceId)));
  }

  /** Without the header, the draw decides, or a pending forceNext. */
  function showPending() {
    const forced = store.forced;
    simPending.textContent = forced
      ? `Not sent: forceNext decides, ${attempts(forced.remaining, forced.outcome)}.`
      : "Not sent: the seeded draw against the failure rate decides.";
  }

  /** Says before sending which trace headers the service will ignore, and why. */
  function checkContext() {
    const id = traceId.value.trim();
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
    const req = current();
    const decides = traceHeaders(req.headers).decides;
    if (decides && decides !== "X-B3-TraceId" && id) traceCheck.textContent += ` ${decides} is not read: X-B3-TraceId comes first.`;
  }

  function update() {
    checkContext();
    const req = current();
    const lines = [`${req.method} ${req.path}`, ...Object.entries(req.headers).map(([n, v]) => `${n}: ${v}`)];
    showGroup();
    setText(preview, req.body === null ? lines.join("\n") : `${lines.join("\n")}\n\n${req.body}`);
  }

  async function send(event) {
    event.preventDefault();
    const req = current();
    const grouped = group && req.headers["X-B3-TraceId"] === group.traceId;
    const reply = await store.request(req.method, req.path, req.body, req.headers);
    if (grouped) group.sent += 1;
    fillNode(out,
      h("h3", { class: "visually-hidden" }, "Response"),
      grouped ? null : contextVerdict(req.headers, reply),
      responseView(reply, store),
      grouped ? groupView() : null,
    );
    update();
  }

  /** After sending: whether the trace id sent was the one used, and the caller's span as the parent. */
  function contextVerdict(headers, reply) {
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

  select.addEventListener("change", chooseRoute);
  body.addEventListener("input", () => { edited.add("body"); update(); });
  body.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) form.requestSubmit();
  });
  for (const input of [method, path, userId, traceId, contentType, sim, sampled, ...Object.values(context).map((c) => c.input)]) input.addEventListener("input", update);
  $("#pretend-caller").addEventListener("click", () => {
    // A caller's own span in a trace it started: the gateway span will hang under it.
    traceId.value = "";
    context.b3.input.value = "";
    context["X-B3-SpanId"].input.value = "";
    context.traceparent.input.value = `00-${randomHex(16)}-${randomHex(8)}-01`;
    update();
  });
  $("#reset-fields").addEventListener("click", () => { edited.clear(); refill(); });
  $("#new-trace").addEventListener("click", () => {
    traceId.value = randomHex(8);
    update();
  });
  groupToggle.addEventListener("change", () => {
    const ended = group;
    startGroup();
    if (!group) {
      groupNote.dataset.kind = "ok";
      groupNote.textContent = ended?.sent ? `The group ended: ${ended.sent} request${ended.sent === 1 ? "" : "s"} under trace ${ended.traceId}. The next requests get a trace each.` : "";
    }
    update();
  });
  form.addEventListener("submit", send);
  store.addEventListener("change", (e) => {
    if (e.detail.reset) {
      fillNode(out);
      startGroup(); // a fresh service: the group's spans are gone with the old one
    }
    showPending();
    if (!e.detail.forced) refill();
  });

  showPending();
  chooseRoute();
}
