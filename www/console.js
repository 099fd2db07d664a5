// The request console: any route, its path parameters, headers and body in
// fields pre-filled with sensible values (the ids the last calls returned
// among them), sent to the service, with the answer shown as it came.
import { $, h } from "./dom.js";
import { responseView } from "./exchange.js";
import { PARAMS, ROUTES, fill, paramsOf } from "./routes.js";
import { attempts } from "./simulation.js";

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

  // The route picker, grouped as the spec groups them.
  const groups = new Map();
  for (const route of ROUTES) {
    if (!groups.has(route.group)) groups.set(route.group, h("optgroup", { label: route.group }));
    groups.get(route.group).append(h("option", { value: route.id }, `${route.label} · ${route.method} ${route.path || "…"}`));
  }
  select.append(...groups.values());

  let route = ROUTES[0];
  /** Fields the user typed in keep their text; the others follow the latest ids. */
  const edited = new Set();
  const paramInputs = {};

  function chooseRoute() {
    route = ROUTES.find((r) => r.id === select.value) ?? ROUTES[0];
    help.textContent = route.help;
    edited.clear();
    paramsBox.replaceChildren();
    for (const name of paramsOf(route.path)) {
      const spec = PARAMS[name];
      const input = h("input", {
        id: `param-${name}`, name, autocomplete: "off", spellcheck: "false",
        list: spec.list, inputmode: name === "count" ? "numeric" : null,
        oninput: () => { edited.add(name); update(); },
      });
      paramInputs[name] = input;
      paramsBox.append(h("div", { class: "field" }, h("label", { for: input.id }, spec.label), input));
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
    $("#order-ids").replaceChildren(...store.ids.orders.map((id) => h("option", { value: id })));
    $("#payment-ids").replaceChildren(...store.ids.payments.map((id) => h("option", { value: id })));
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
    if (!simField.hidden && sim.value) headers["X-Sim-Outcome"] = sim.value;
    return { method: m, path: p, headers, body: withBody ? body.value : null };
  }

  /** Without the header, the draw decides, or a pending forceNext. */
  function showPending() {
    const forced = store.forced;
    simPending.textContent = forced
      ? `Not sent: forceNext decides, ${attempts(forced.remaining, forced.outcome)}.`
      : "Not sent: the seeded draw against the failure rate decides.";
  }

  function update() {
    const req = current();
    const lines = [`${req.method} ${req.path}`, ...Object.entries(req.headers).map(([n, v]) => `${n}: ${v}`)];
    preview.textContent = req.body === null ? lines.join("\n") : `${lines.join("\n")}\n\n${req.body}`;
  }

  function send(event) {
    event.preventDefault();
    const req = current();
    const reply = store.request(req.method, req.path, req.body, req.headers);
    out.replaceChildren(
      h("h3", { class: "visually-hidden" }, "Response"),
      responseView(reply, store),
    );
  }

  select.addEventListener("change", chooseRoute);
  body.addEventListener("input", () => { edited.add("body"); update(); });
  body.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) form.requestSubmit();
  });
  for (const input of [method, path, userId, traceId, contentType, sim]) input.addEventListener("input", update);
  $("#reset-fields").addEventListener("click", () => { edited.clear(); refill(); });
  $("#new-trace").addEventListener("click", () => {
    const bytes = crypto.getRandomValues(new Uint8Array(8));
    traceId.value = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
    update();
  });
  form.addEventListener("submit", send);
  store.addEventListener("change", (e) => {
    if (e.detail.reset) out.replaceChildren();
    showPending();
    if (!e.detail.forced) refill();
  });

  showPending();
  chooseRoute();
}
