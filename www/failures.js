// The Failures panel: the service's scenario, an ordered list of rules of
// which the first that fires gives the request its failure (a decline
// with a reason, a third-party timeout or 5xx, a gateway 429/503/502/504,
// a delay, a network fault). A preset sets one in a click and shows its
// document; the editor applies any document (the service checks it and a
// refused one, named by its JSON path, changes nothing) or clears it; the
// active scenario lists each rule with how often it matched (seen) and
// fired. The page restates no rule: it hands the text to the service
// (`setScenario`; live, PUT /__orderpay/scenario) and draws its `scenario`;
// the reference of the document's keys is read from the JSON Schema the
// package ships (orderpay/scenario.schema.json).
import * as orderpay from "./pkg/orderpay.js";
import { $, fieldError, fill, h } from "./dom.js";
import { serviceTime } from "./service-time.js";
import { faultText } from "./faults.js";
import { pathSegments, placeOf } from "./json-place.js";
import { declineCodes, keysReference, scenarioSchema } from "./scenario-keys.js";

/**
 * Examples of the kinds that change a payment later (a challenge, a pending
 * payment, a reversal): documents the page offers beside the presets, each
 * checked by the service when applied, like any typed in the editor.
 */
const ASYNC_EXAMPLES = {
  "challenge-every-payment": { name: "challenge-every-payment", rules: [{ name: "3-D Secure", when: { route: "/api/payment/pay" }, then: { kind: "challenge" } }] },
  "pending-30s": { name: "pending-30s", rules: [{ name: "processing", when: { route: "/api/payment/pay" }, then: { kind: "pending", forMs: 30000, outcome: "pass" } }] },
  "pending-then-fails": { name: "pending-then-fails", rules: [{ name: "bounced", when: { route: "/api/payment/pay" }, then: { kind: "pending", forMs: 30000, outcome: "fail", code: "insufficient_funds" } }] },
  "reversal-after-60s": { name: "reversal-after-60s", rules: [{ name: "disputed", when: { route: "/api/payment/pay" }, then: { kind: "reversal", afterMs: 60000 } }] },
};

/**
 * The presets the package ships, name → document (its `presets` export),
 * or null for a package without scenarios.
 */
export function shippedPresets() {
  return orderpay.presets && typeof orderpay.presets === "object" && typeof orderpay.Service?.prototype?.setScenario === "function" ? orderpay.presets : null;
}

export function mountFailures(store) {
  const panel = new FailuresPanel(store);
  panel.form.addEventListener("submit", (e) => { e.preventDefault(); panel.apply(panel.editor.value); });
  panel.clearButton.addEventListener("click", () => panel.clear());
  panel.editor.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) panel.form.requestSubmit();
  });
  store.addEventListener("change", (e) => {
    // A new state (imported, followed from another tab, undone) may bring its own scenario: the empty editor shows it.
    if (e.detail.reset) { panel.say(""); panel.fillEditor(); }
    panel.drawActive();
  });
  panel.drawPresets();
  panel.drawActive();
  panel.fillEditor();
  scenarioSchema().then((schema) => fill($("#scenario-keys-body"), keysReference(schema)));
}

/** The presets, the editor and the active scenario, with the message under them. */
class FailuresPanel {
  section = $("#failures");
  presets = $("#presets");
  /** name → document, read once the package is loaded. */
  shipped = shippedPresets();
  form = $("#scenario-form");
  editor = $("#scenario-text");
  applyButton = $("#scenario-apply");
  clearButton = $("#scenario-clear");
  active = $("#scenario-active");
  message = $("#scenario-message");
  note = $("#scenario-unavailable");
  /** The scenario last drawn, as JSON. */
  drawn = "";

  constructor(store) {
    this.store = store;
  }

  say(text, kind = "info") {
    this.message.dataset.kind = kind;
    this.message.textContent = text;
  }

  /** Where scenarios cannot be set (an older package; live, a server without the admin route): the panel says why and stays off. */
  get available() {
    return this.store.scenarios;
  }

  drawPresets() {
    const presets = this.shipped ?? {};
    const names = Object.keys(presets);
    // The asynchronous kinds' examples, where the package has them and does not ship a preset of the name.
    const examples = this.store.asyncPayments ? Object.entries(ASYNC_EXAMPLES).filter(([name]) => !presets[name]) : [];
    fill(this.presets, ...names.map((name) => h("li", null,
      h("button", { type: "button", class: "secondary preset", dataset: { preset: name }, "aria-describedby": `preset-${name}-what`, onclick: () => this.choosePreset(name) }, name),
      h("span", { class: "hint", id: `preset-${name}-what` }, scenarioSummary(presets[name])))),
    ...examples.map(([name, doc]) => h("li", { class: "example" },
      h("button", { type: "button", class: "secondary preset", dataset: { example: name }, "aria-describedby": `example-${name}-what`, onclick: () => this.chooseExample(name) }, name),
      h("span", { class: "hint", id: `example-${name}-what` }, `example: ${scenarioSummary(doc)}`))));
  }

  /** An example of the asynchronous kinds: its document in the editor, applied as typed. */
  async chooseExample(name) {
    this.editor.value = JSON.stringify(ASYNC_EXAMPLES[name], null, 2);
    await this.apply(this.editor.value, `Example ${name} set`);
  }

  /** One click: the preset is set, and its document is shown in the editor. */
  async choosePreset(name) {
    this.editor.value = JSON.stringify(this.shipped[name], null, 2);
    await this.apply(name, `Preset ${name} set`);
  }

  /** Hands the text (or a preset's name) to the service; a refused one is said under the editor, and nothing changed. */
  async apply(source, done = "Scenario applied") {
    fieldError("scenario-text", "");
    if (!this.available) return;
    const text = typeof source === "string" ? source.trim() : source;
    if (text === "") {
      const why = "scenario: give a JSON document with rules (or pick a preset); Clear removes the scenario";
      fieldError("scenario-text", why);
      this.say(`Not applied: ${why}`, "error");
      return;
    }
    try {
      await this.store.setScenario(text);
    } catch (e) {
      const why = await refusalText(e.message);
      fieldError("scenario-text", why);
      this.say(`Not applied, nothing changed: ${why}`, "error");
      this.editor.focus();
      this.select(e.message);
      return;
    }
    const rules = this.store.scenario?.rules?.length ?? 0;
    this.say(`${done}: ${rules} rule${rules === 1 ? "" : "s"}, tried in order on every request. Send requests from the flow or the console and watch which rule fires.`);
  }

  async clear() {
    fieldError("scenario-text", "");
    if (!this.available) return;
    const had = this.store.scenario;
    try {
      await this.store.setScenario(null);
    } catch (e) {
      this.say(`Not cleared: ${e.message}`, "error");
      return;
    }
    this.say(had ? "Cleared: no scenario, so every request gets the spec's behaviour again." : "There was no scenario to clear.");
  }

  /** Selects, in the editor, the place a refusal names ("rules[1].when.until"); nothing when the text is not JSON. */
  select(message) {
    const path = /^scenario: ([A-Za-z_][\w]*(?:\[\d+\]|\.[A-Za-z_]\w*)*): /.exec(message)?.[1];
    const place = path ? placeOf(this.editor.value, path) : null;
    this.editor.dataset.selected = place ? path : "";
    if (place) this.editor.setSelectionRange(place.start, place.end);
  }

  /** The editor starts with the active scenario's document, if any. */
  fillEditor() {
    const scenario = this.store.scenario;
    if (scenario?.document && !this.editor.value.trim()) this.editor.value = JSON.stringify(scenario.document, null, 2);
  }

  /** The active scenario: its name, when it was set, and each rule's seen and fired counts. */
  drawActive() {
    const { store, active } = this;
    const on = this.available;
    for (const control of [this.editor, this.applyButton, this.clearButton, ...this.presets.querySelectorAll("button")]) control.disabled = !on;
    this.note.hidden = on;
    if (!on) this.note.textContent = store.remote
      ? "This server has no scenario routes (PUT, GET and DELETE /__orderpay/scenario), so the panel is off in live mode. Start it with orderpay serve --scenario FILE|PRESET, or send the X-Orderpay-Scenario header with a request."
      : "This build of the package has no scenarios: the panel is off.";
    const scenario = on ? store.scenario : null;
    // Drawn again only when it changed (most requests leave the counts as they were).
    const rate = store.settings?.failureRate;
    const drawn = JSON.stringify([scenario, rate]);
    if (drawn === this.drawn) return;
    this.drawn = drawn;
    active.dataset.active = String(Boolean(scenario));
    active.dataset.rules = scenario ? scenario.rules.map((r) => `${r.name}:${r.seen}/${r.fired}`).join(",") : "";
    if (!scenario) {
      fill(active, h("p", null, h("strong", null, "No scenario: "), `every request gets the spec's behaviour (a payment is declined by the seeded draw, about ${Number((rate * 10).toFixed(1))} in 10 at the failure rate in force, ${rate}).`));
      return;
    }
    const doc = scenario.document ?? {};
    const rules = Array.isArray(doc.rules) ? doc.rules : [];
    fill(active,
      h("p", null, h("strong", null, "Active: "), doc.name ? `${doc.name}, ` : "", `${scenario.rules.length} rule${scenario.rules.length === 1 ? "" : "s"}`,
        typeof scenario.setAt === "number" ? `, set at ${serviceTime(store, scenario.setAt)} on the service's clock` : "", "."),
      h("div", { class: "table-wrap rules-wrap", tabindex: "0", role: "region", "aria-label": "the scenario's rules, scrolls sideways" },
        h("table", { class: "rules", id: "scenario-rules" },
          h("thead", null, h("tr", null, ["#", "rule", "when", "then", "seen", "fired"].map((c, i) => h("th", { scope: "col", class: i === 0 ? "idx" : i > 3 ? "num" : null }, c)))),
          h("tbody", null, scenario.rules.map((r, i) => ruleRow(r, rules[i], i))))),
      h("p", { class: "hint", id: "scenario-counts-hint" }, "seen: how many requests reached this rule (no earlier rule fired on them) and matched its route, method, header and body conditions; fired: how many of those got its failure (nth, every, calls, the window, probability and times decide among those seen). Rules are tried in order and the first that fires wins, so a rule never sees a request an earlier rule fired on."),
    );
  }
}

/** One rule's row: its name, what it matches, what it gives, and its counts. */
function ruleRow(progress, rule, i) {
  return h("tr", { dataset: { rule: progress.name, seen: String(progress.seen), fired: String(progress.fired) } },
    h("td", { class: "idx" }, String(i + 1)),
    h("th", { scope: "row" }, progress.name),
    // Each cell names its column too: on a phone the rows are cards, without the header row.
    h("td", { class: "when", dataset: { label: "when" } }, rule ? whenText(rule.when) : ""),
    h("td", { class: "then", dataset: { label: "then" } }, rule?.then ? faultText({ ...rule.then, scenario: true }) : ""),
    h("td", { class: "num seen", dataset: { label: "seen" } }, String(progress.seen)),
    h("td", { class: "num fired", dataset: { label: "fired" } }, String(progress.fired)),
  );
}

/** A preset in a line: "pay: decline insufficient_funds". */
function scenarioSummary(doc) {
  const rules = Array.isArray(doc?.rules) ? doc.rules : [];
  return rules.map((r) => `${whenText(r.when)}: ${r.then ? faultText({ ...r.then, scenario: true }) : "?"}`).join("; ");
}

/** A rule's `when` in words, as the document gives it: "POST /api/payment/pay, every 2nd, 10%". */
export function whenText(when) {
  if (!when || typeof when !== "object" || !Object.keys(when).length) return "every request";
  const parts = [];
  if (when.method || when.route) parts.push([when.method, when.route].filter(Boolean).join(" "));
  for (const key of ["userId", "paymentMethod", "amount", "orderId"]) if (key in when) parts.push(`${key} ${when[key]}`);
  if (when.header) parts.push(`${when.header.name}: ${when.header.value}`);
  if (when.nth) parts.push(`the ${ordinal(when.nth)} match`);
  if (when.every) parts.push(when.every === 1 ? "every match" : `every ${ordinal(when.every)}`);
  if (when.calls) parts.push(`matches ${when.calls.from ?? 1} to ${when.calls.to ?? "∞"}`);
  if (when.forMs) parts.push(`for ${when.forMs / 1000} s`);
  if (when.from || when.until) parts.push(`from ${when.from ?? "the start"} until ${when.until ?? "the end"}`);
  if (typeof when.probability === "number") parts.push(`${Number((when.probability * 100).toFixed(2))}%`);
  if (when.times) parts.push(`at most ${when.times} time${when.times === 1 ? "" : "s"}`);
  return parts.join(", ") || "every request";
}

function ordinal(n) {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : { 1: "st", 2: "nd", 3: "rd" }[n % 10] ?? "th";
  return `${n}${suffix}`;
}

/**
 * A refusal as the panel says it: the service's message, then the rule it
 * names counted from 1 ("rules[1]" is rule 2), and for a decline code
 * every code the schema allows (the message lists only a few).
 */
async function refusalText(message) {
  const path = /^scenario: ([^:\s]+): /.exec(message)?.[1] ?? "";
  const [first, index] = pathSegments(path);
  const parts = [message];
  if (first === "rules" && typeof index === "number") parts.push(`(rules[${index}] is rule ${index + 1}: the path counts from 0)`);
  if (/\.then\.code$/.test(path)) {
    const codes = declineCodes(await scenarioSchema());
    if (codes.length) parts.push(`The decline codes: ${codes.join(", ")}.`);
  }
  return parts.join(" ");
}
